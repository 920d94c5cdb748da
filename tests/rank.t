#!/bin/sh
# rec-rank: fusion computed by hand, removals, boosts, novelty,
# diversity, MMR and jq, on a hand-written catalog.
. "$(dirname "$0")/lib.sh"

rec-import -d s.db items -i track_id -l playlist -I playlist "$DATA/songs.csv" || exit 1
export REC_DB=s.db
ids() { sed 's/^{"id":"\([^"]*\)".*/\1/' | tr '\n' ' '; }
score_of() { grep "\"id\":\"$1\"" | sed 's/.*"score":\([^,]*\),.*/\1/'; }
close_to() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 1e-12) }'; }
calc() { awk "BEGIN { printf \"%.17g\", $1 }"; }

# two streams; by hand, RRF with k = 60:
#   s01: bm25 #1, cf #3 -> 1/61 + 1/63 = 0.0322664...
#   s03: bm25 #3, cf #1 -> the same; s01 came first, so it leads
#   s02: bm25 #2 -> 1/62; s05: cf #2 -> 1/62; s02 came first
printf '%s\n' '{"id":"s01","score":9,"src":"bm25"}' '{"id":"s02","score":8,"src":"bm25"}' \
	'{"id":"s03","score":7,"src":"bm25"}' '{"id":"s03","score":0.9,"src":"cf"}' \
	'{"id":"s05","score":0.8,"src":"cf"}' '{"id":"s01","score":0.1,"src":"cf","x":1}' > two.jsonl
test_ok 'RRF order, computed by hand' \
	'test "$(rec-rank -F rrf < two.jsonl | ids)" = "s01 s03 s02 s05 "'
test_ok 'RRF scores, computed by hand' \
	'rec-rank -F rrf < two.jsonl > out &&
	 close_to "$(score_of s01 < out)" "$(calc "1/61 + 1/63")" &&
	 close_to "$(score_of s05 < out)" "$(calc "1/62")"'
test_ok 'RRF with k = 0 and a weight: cf counts double' \
	'rec-rank -F rrf -R 0 -W cf=2 < two.jsonl > out &&
	 test "$(ids < out)" = "s03 s01 s05 s02 " &&
	 close_to "$(score_of s03 < out)" "$(calc "1/3 + 2/1")"'
test_ok 'every source keeps its score, and why says where it ranked' \
	'rec-rank -F rrf < two.jsonl | head -1 |
	 grep -q "\"scores\":{\"bm25\":9,\"cf\":0.1,\"rank\":[0-9.]*},\"why\":\"ranked by bm25 #1, cf #3\"}$"'
test_ok 'sum of min-max normalised scores, by hand' \
	'rec-rank -F sum < two.jsonl > out &&
	 close_to "$(score_of s03 < out)" "$(calc "0 + (0.9 - 0.1) / (0.9 - 0.1)")" &&
	 close_to "$(score_of s01 < out)" "$(calc "1 + 0")" &&
	 close_to "$(score_of s02 < out)" "$(calc "(8 - 7) / (9 - 7)")"'
test_ok 'max of normalised scores' \
	'test "$(rec-rank -F max < two.jsonl | ids)" = "s01 s03 s05 s02 "'
test_ok 'without --fuse: one record per id, its best score' \
	'test "$(rec-rank < two.jsonl | ids)" = "s01 s02 s03 s05 "'
test_ok 'ties keep input order' \
	'printf "%s\n" "{\"id\":\"s09\",\"score\":1}" "{\"id\":\"s02\",\"score\":1}" "{\"id\":\"s05\",\"score\":1}" |
	 rec-rank | ids > got && test "$(cat got)" = "s09 s02 s05 "'
test_ok 'unknown keys of the record survive' \
	'printf "{\"id\":\"s07\",\"src\":\"a\",\"score\":1,\"keep\":[1,2]}\n" | rec-rank | grep -q "\"keep\":\[1,2\]}$"'
test_ok '-k cuts' 'test "$(rec-rank -F rrf -k 2 < two.jsonl | ids)" = "s01 s03 "'

test_ok 'unwanted items never appear' \
	'test "$(rec-rank -F rrf -n s03,s05 < two.jsonl | ids)" = "s01 s02 "'
test_ok '--exclude-seen drops the history of a user' \
	'test "$(rec-rank -F rrf -x "Dance Classics" < two.jsonl | ids)" = "s03 s05 "'
# user "Party" played s01 s03 s08 s09: Daft Punk, Beyoncé, The Testers.
# Scores are scaled to 0..1 first (s05 1, s02 0.95, s07 0); s02 shares
# the creator and all its tags: 0.95 + 0.3 * (0.5 + 0.5) = 1.25 > 1.
test_ok '--user favours the creators and tags of the history' \
	'printf "%s\n" "{\"id\":\"s05\",\"score\":1}" "{\"id\":\"s02\",\"score\":0.95}" "{\"id\":\"s07\",\"score\":0}" |
	 rec-rank -u Party > out &&
	 test "$(ids < out)" = "s02 s05 s07 " && grep -q "by a creator in your history" out &&
	 close_to "$(score_of s02 < out)" 1.25'
# s06 (0.9 scaled) shares creator and tags with s05: 0.9 + 0.3 = 1.2;
# s07 (1) shares its tags only: 1 + 0.3 * 0.5 = 1.15
test_ok '--like favours items like the seeds' \
	'printf "%s\n" "{\"id\":\"s07\",\"score\":1}" "{\"id\":\"s06\",\"score\":0.9}" "{\"id\":\"s08\",\"score\":0}" |
	 rec-rank -l s05 > out &&
	 test "$(ids < out)" = "s06 s07 s08 " && grep -q "same creator as one you like" out &&
	 close_to "$(score_of s06 < out)" 1.2 && close_to "$(score_of s07 < out)" 1.15'
# two tag columns: a profile holds each folded tag once, whichever
# column has it.  ta has {rock, pop} (Rock twice), tb {rock}, tc {jazz,
# pop}; the user has tb.  Scaled: ta 0, tc 1; ta's affinity is half the
# share of its tags the user has, 1 of 2: 0 + 0.3 * 0.5 * 1/2 = 0.075
# (0.1 if rock counted twice)
printf '%s\n' 'id,title,g1,g2,who' 'ta,A,Rock|Pop,rock,x' 'tb,B,Rock,,u' 'tc,C,Jazz,Pop,y' > two-tags.csv
rec-import -d tt.db items -S g1='|' -S g2='|' -r g1=tags -r g2=tags -I who two-tags.csv || exit 1
test_ok 'a tag in two columns counts once' \
	'printf "%s\n" "{\"id\":\"ta\",\"score\":0}" "{\"id\":\"tc\",\"score\":1}" |
	 rec-rank -d tt.db -u u > out && test "$(ids < out)" = "tc ta " &&
	 close_to "$(score_of ta < out)" 0.075 && close_to "$(score_of tc < out)" 1'
test_fail 'a user without history' 1 "user 'nobody' has no history" \
	'rec-rank -u nobody < two.jsonl'
# popularity: s08 10, s09 12 are the least known; by hand with -N 1
# the score is 1 - (share of items less popular)
test_ok '--novelty 1 orders by how little known an item is' \
	'printf "%s\n" "{\"id\":\"s02\",\"score\":5}" "{\"id\":\"s08\",\"score\":1}" "{\"id\":\"s09\",\"score\":2}" |
	 rec-rank -N 1 > out && test "$(ids < out)" = "s08 s09 s02 " &&
	 close_to "$(score_of s09 < out)" "$(calc "1 - 1/9")"'
test_ok '--novelty 0.3 only tips the balance' \
	'printf "%s\n" "{\"id\":\"s02\",\"score\":5}" "{\"id\":\"s08\",\"score\":1}" |
	 rec-rank -N 0.3 | ids > got && test "$(cat got)" = "s02 s08 "'
test_ok '--diversify caps items per creator' \
	'printf "%s\n" "{\"id\":\"s01\",\"score\":5}" "{\"id\":\"s02\",\"score\":4}" "{\"id\":\"s05\",\"score\":3}" \
	   "{\"id\":\"s06\",\"score\":2}" "{\"id\":\"s03\",\"score\":1}" > five.jsonl &&
	 test "$(rec-rank -D track_artist < five.jsonl | ids)" = "s01 s05 s03 " &&
	 test "$(rec-rank -D creator -p 2 < five.jsonl | ids)" = "s01 s02 s05 s06 s03 "'
printf '%s\n' 'id,title,artist' '1,A,Lady Gaga' '2,B,"Lady Gaga, Beyoncé"' \
	'3,C,Lady Gaga feat. Someone' '4,D,Beyoncé' > duets.csv
rec-import -d duets.db items -i id -r title=title -r artist=creator duets.csv || exit 1
test_ok '--diversify counts a value naming several as its first name' \
	'printf "%s\n" "{\"id\":\"1\",\"score\":4}" "{\"id\":\"2\",\"score\":3}" \
	   "{\"id\":\"3\",\"score\":2}" "{\"id\":\"4\",\"score\":1}" |
	 rec-rank -d duets.db -D creator -p 2 | ids > got && test "$(cat got)" = "1 2 4 "'
test_ok '--mmr over a vector space spreads the list' \
	'printf "%s\n" "{\"id\":\"s01\",\"vec\":[1,0]}" "{\"id\":\"s02\",\"vec\":[1,0.01]}" "{\"id\":\"s05\",\"vec\":[0,1]}" > v.jsonl &&
	 rec-import -d s.db vectors -a toy v.jsonl &&
	 printf "%s\n" "{\"id\":\"s01\",\"score\":3}" "{\"id\":\"s02\",\"score\":2.9}" "{\"id\":\"s05\",\"score\":2}" |
	 rec-rank -m 0.5 -S toy | ids > got && test "$(cat got)" = "s01 s05 s02 "'
test_fail '--mmr needs a known space' 1 "no vector space 'nope'" \
	'echo "{\"id\":\"s01\"}" | rec-rank -m 0.5 -S nope'
test_ok '--by rescores with jq over record and catalog fields' \
	'rec-rank -b ".score * (1 + .item.popularity / 100)" < five.jsonl > out &&
	 close_to "$(score_of s01 < out)" 9.05 && test "$(ids < out)" = "s01 s02 s05 s06 s03 "'
test_ok '--where filters with jq' \
	'test "$(rec-rank -w ".item.tempo > 120" < five.jsonl | ids)" = "s01 s05 s06 "'
test_fail 'a jq syntax error names the expression' 2 \
	"^rec-rank: --by: syntax error, unexpected .* in '.score \+'$" 'rec-rank -b ".score +" < five.jsonl'
test_fail 'a jq runtime error names the expression' 1 \
	"cannot be divided in '.score / .x'" 'rec-rank -b ".score / .x" < five.jsonl'
test_fail 'a jq result that is not a number' 1 "gave \"One More Time\", not a number" \
	'rec-rank -b ".item.track_name" < five.jsonl'
test_fail 'an unknown fusion' 2 "unknown mode 'avg'" 'rec-rank -F avg < /dev/null'
test_fail 'a catalog is needed for --user' 2 '--user needs a catalog' \
	'unset REC_DB; rec-rank -u x < /dev/null'
test_ok 'an empty stream gives nothing' 'rec-rank -F rrf < /dev/null > out && ! test -s out'
test_fail 'bad input names the line' 1 'stdin:2: record has no "id"' \
	'printf "{\"id\":\"a\"}\n{}\n" | rec-rank'

# one record per song: a hand-made catalog with one song under three
# names, two songs that share a title, and two titles in brackets only
# (kept whole, so they stay apart)
printf '%s\n' 'id,title,artist' 'j1,Don'"'"'t Stop Believin'"'"' - Remastered 2011,Journey' \
	'j2,Dont Stop Believin (Live) [Bonus],"Journey, Steve Perry"' \
	'j3,Don'"'"'t Stop Believin'"'"',Journey feat. Somebody' \
	'h1,Hello,Adele' 'h2,Hello,Lionel Richie' 'x1,(Untitled),Sigur Ros' 'x2,[Intro],Sigur Ros' > dup.csv
rec-import -d dup.db items -i id -r title=title -r artist=creator dup.csv || exit 1
printf '%s\n' '{"id":"h1","score":7}' '{"id":"j2","score":6}' '{"id":"nowhere","score":5.5}' \
	'{"id":"j1","score":5}' '{"id":"h2","score":4}' '{"id":"j3","score":3}' \
	'{"id":"x1","score":2}' '{"id":"x2","score":1}' '{"id":"nowhere2","score":0.5}' > dup.jsonl
test_ok '-U keeps the best placed record of a song, and the order' \
	'test "$(rec-rank -d dup.db -U title,creator < dup.jsonl | ids)" = "h1 j2 nowhere h2 x1 x2 nowhere2 "'
test_ok '-U on the title alone merges songs that share a title' \
	'test "$(rec-rank -d dup.db -U title < dup.jsonl | ids)" = "h1 j2 nowhere x1 x2 nowhere2 "'
test_ok '-U with -k: the cut counts songs' \
	'test "$(rec-rank -d dup.db -U title,creator -k 3 < dup.jsonl | ids)" = "h1 j2 nowhere "'
test_fail '-U names a field the catalog does not have, before reading any input' 2 \
	"no column or role 'mood'" \
	'timeout 10 sh -c "yes {\\\"id\\\":\\\"h1\\\"} | rec-rank -d dup.db -U title,mood"'
test_fail '-U needs a catalog' 2 '--unique needs a catalog' \
	'unset REC_DB; rec-rank -U title < /dev/null'

test_ok '--alternate takes the best of each source in turn; the others keep their places' \
	'printf "%s\n" "{\"id\":\"a1\",\"score\":5,\"src\":\"a\"}" "{\"id\":\"a2\",\"score\":4,\"src\":\"a\"}" \
	   "{\"id\":\"c1\",\"score\":3,\"src\":\"c\"}" "{\"id\":\"a3\",\"score\":2,\"src\":\"a\"}" \
	   "{\"id\":\"b1\",\"score\":1,\"src\":\"b\"}" "{\"id\":\"b2\",\"score\":0.5,\"src\":\"b\"}" > alt.jsonl &&
	 test "$(rec-rank -A a,b < alt.jsonl | ids)" = "a1 b1 c1 a2 b2 a3 " &&
	 test "$(rec-rank -A a,b -k 3 < alt.jsonl | ids)" = "a1 b1 c1 " &&
	 test "$(rec-rank -A a,a,b < alt.jsonl | ids)" = "a1 a2 c1 b1 a3 b2 " &&
	 test "$(rec-rank < alt.jsonl | ids)" = "a1 a2 c1 a3 b1 b2 "'

test_fail '--alternate takes at most 32 sources' 2 'at most 32 sources' \
	'rec-rank -A $(seq -s, 1 33) < /dev/null'

done_testing
