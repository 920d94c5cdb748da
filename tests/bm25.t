#!/bin/sh
# rec-bm25 on a hand-written catalog: a score worked out by hand, known
# rankings, typos, accents, pool semantics and the index's own errors.
. "$(dirname "$0")/lib.sh"

rec-import -d s.db items -i track_id -l playlist "$DATA/songs.csv" || exit 1
export REC_DB=s.db
ids() { sed 's/^{"id":"\([^"]*\)".*/\1/' | tr '\n' ' '; }

test_fail 'no index yet' 1 "no BM25 index for 's.db' \(build it with rec-bm25 --index\)" \
	'rec-bm25 halo < /dev/null'
test_ok '--index builds s.db.bm25' 'rec-bm25 --index && test -s s.db.bm25'
# By hand: 9 titles, 24 tokens (avgdl 24/9); "halo" is in one title of
# one token, so idf = ln(1 + 8.5/1.5) and tf part = 2.2 / (1 + 1.2 *
# (0.25 + 0.75 * 1 / (24/9))).
test_ok 'the BM25 score of a one-word title, computed by hand' \
	'rec-bm25 -f track_name halo < /dev/null > out &&
	 test "$(ids < out)" = "s03 " &&
	 s=$(sed "s/.*\"score\":\([0-9.e+-]*\),.*/\1/" out) &&
	 awk -v s="$s" "BEGIN { want = log(1 + 8.5 / 1.5) * 2.2 / (1 + 1.2 * (0.25 + 0.75 / (24 / 9)));
	   d = s - want; if (d < 0) d = -d; exit !(d < 1e-12) }"'
test_ok 'a word given twice counts once' \
	'rec-bm25 -f track_name halo < /dev/null > once &&
	 rec-bm25 -f track_name halo Halo HALO < /dev/null > thrice && cmp once thrice'
test_ok 'the exact title ranks first' \
	'test "$(rec-bm25 -k 1 -f track_name nothing else matters < /dev/null | ids)" = "s06 "'
test_ok 'records carry src, scores and why' \
	'rec-bm25 -f track_name karma police < /dev/null | grep -q "\"src\":\"bm25\",\"scores\":{\"bm25\":[0-9.]*},\"why\":\"bm25: karma, police in track_name\""'
# Fields together: "halo party" -- halo in s03's title, party in the
# playlists of s01, s03, s08, s09: s03 has both, so its score is the sum
# of its two one-field scores, and it comes first.
test_ok 'several fields: the scores summed, each word in any field' \
	'rec-bm25 -f track_name -f playlist halo party < /dev/null > both &&
	 test "$(ids < both | cut -d" " -f1)" = s03 &&
	 a=$(rec-bm25 -f track_name halo < /dev/null | sed "s/.*\"score\":\([0-9.e+-]*\),.*/\1/") &&
	 b=$(rec-bm25 -f playlist party < /dev/null | grep "\"s03\"" | sed "s/.*\"score\":\([0-9.e+-]*\),.*/\1/") &&
	 s=$(head -1 both | sed "s/.*\"score\":\([0-9.e+-]*\),.*/\1/") &&
	 awk -v s="$s" -v a="$a" -v b="$b" "BEGIN { d = s - a - b; if (d < 0) d = -d; exit !(d < 1e-9) }" &&
	 head -1 both | grep -q "\"why\":\"bm25: halo in track_name; party in playlist\"" &&
	 test "$(rec-bm25 -A -f track_name -f playlist halo party < /dev/null | ids)" = "s03 " &&
	 test "$(echo "{\"id\":\"s08\"}" | rec-bm25 -f track_name -f playlist halo party | ids)" = "s08 "'
test_fail 'a field given twice' 2 "-f: field 'playlist' given twice" \
	'rec-bm25 -f playlist -f playlist party < /dev/null'
test_ok 'a role names its column' \
	'test "$(rec-bm25 -f creator daft punk < /dev/null | ids)" = "s01 s02 "'
test_ok 'a typo finds the closest term and says so' \
	'rec-bm25 -f track_artist metalica < /dev/null > out && test "$(ids < out)" = "s05 s06 " &&
	 grep -q "'"'metalica' read as 'metallica'"'" out'
test_ok '--exact turns typo tolerance off' \
	'rec-bm25 -e -f track_artist metalica < /dev/null 2> err > out && ! test -s out &&
	 grep -q "no match in track_artist for '"'metalica'"'" err'
test_ok 'accents are folded both ways' \
	'test "$(rec-bm25 -f track_artist beyonce < /dev/null | ids)" = "s03 s04 " &&
	 test "$(rec-bm25 -f track_artist BEYONCÉ < /dev/null | ids)" = "s03 s04 "'
test_ok 'any term (default) and every term (--and)' \
	'test "$(rec-bm25 -f track_name love matters < /dev/null | ids | tr " " "\n" | sort | tr "\n" " ")" = "s04 s06 " &&
	 rec-bm25 -A -f track_name love matters < /dev/null > out && ! test -s out &&
	 test "$(rec-bm25 -A -f track_name one time < /dev/null | ids)" = "s01 "'
# Phrases: s01's playlists are "Dance Classics" and "Party", s02's
# "Dance Classics" (the shorter list: first); s05-s07's "Rock Anthems".
test_ok 'a phrase matches its words next to each other, in order' \
	'test "$(rec-bm25 -f playlist '"'\"dance classics\"'"' < /dev/null | ids)" = "s02 s01 " &&
	 test "$(rec-bm25 -f track_name '"'\"in love\"'"' < /dev/null | ids)" = "s04 " &&
	 rec-bm25 -f track_name '"'\"love in\"'"' < /dev/null 2> err > out && ! test -s out &&
	 grep -q "no match in track_name for \"love in\"" err'
test_ok 'a phrase does not run over from one list element to the next' \
	'rec-bm25 -f playlist '"'\"classics party\"'"' < /dev/null 2> err > out && ! test -s out &&
	 grep -q "no match in playlist for \"classics party\"" err'
test_ok 'a phrase counts its words only where it matches; words outside quotes as ever' \
	'test "$(rec-bm25 -f track_name one time halo < /dev/null | ids | tr " " "\n" | sort | tr "\n" " ")" = "s01 s03 " &&
	 test "$(rec-bm25 -f track_name '"'\"one time\" halo'"' < /dev/null | ids)" = "s03 "'
# "more time" is all of s01's matching words: the phrase scores what the
# two words score, and why names it whole
test_ok 'a phrase scores as its words do where it matches' \
	'rec-bm25 -f track_name more time < /dev/null | grep "\"s01\"" > words &&
	 rec-bm25 -f track_name '"'\"more time\"'"' < /dev/null > phrase &&
	 test "$(ids < phrase)" = "s01 " &&
	 test "$(sed "s/.*\"score\":\([0-9.e+-]*\),.*/\1/" words)" = "$(sed "s/.*\"score\":\([0-9.e+-]*\),.*/\1/" phrase)" &&
	 grep -q "\"why\":\"bm25: \\\\\"more time\\\\\" in track_name\"" phrase'
# In the all field a phrase stays in one column: s05's title "Enter
# Sandman" and artist "Metallica" are not "sandman metallica".
test_ok 'a phrase in the all field, in a pool, with a typo, and with --and' \
	'test "$(rec-bm25 '"'\"rock anthems\"'"' < /dev/null | ids)" = "s05 s06 s07 " &&
	 rec-bm25 '"'\"sandman metallica\"'"' < /dev/null > out 2> /dev/null && ! test -s out &&
	 test "$(printf "{\"id\":\"s05\"}\n{\"id\":\"s06\"}\n" | rec-bm25 -f track_name '"'\"else matters\"'"' | ids)" = "s06 " &&
	 printf "{\"id\":\"s06\"}\n" | rec-bm25 -f track_name '"'\"matters else\"'"' > out 2> /dev/null && ! test -s out &&
	 test "$(rec-bm25 -f track_name '"'\"nothing els matters\"'"' < /dev/null | ids)" = "s06 " &&
	 test "$(rec-bm25 -A -f track_name -f playlist '"'\"rock anthems\" karma'"' < /dev/null | ids)" = "s07 " &&
	 rec-bm25 -A -f track_name -f playlist '"'\"anthems rock\" karma'"' < /dev/null > out 2> /dev/null && ! test -s out'
# The best by the words' scores are not where the phrase is: p1-p4 hold
# both words apart (a bound above p5's score), p5 holds the phrase; the
# top 1 is the exhaustive search's first.
test_ok 'a phrase'"'"'s top k is the whole search'"'"'s first k, when the best by its words lack it' \
	'printf "%s\n" id,title "p1,rock rock classic classic" "p2,rock classic" "p3,rock x classic" \
	 "p4,rock y classic" "p5,classic rock and roll forever and ever" "p6,jazz" > ph.csv &&
	 rec-import -d ph.db items -r title=title ph.csv && rec-bm25 -d ph.db --index &&
	 test "$(rec-bm25 -d ph.db -k 1 -f title '"'\"classic rock\"'"' < /dev/null | ids)" = "p5 " &&
	 test "$(rec-bm25 -d ph.db -k 1 '"'\"classic rock\"'"' < /dev/null | ids)" = "p5 " &&
	 test "$(rec-bm25 -d ph.db -k 2 '"'\"classic rock\" jazz'"' < /dev/null | ids)" = "$(rec-bm25 -d ph.db -k 100 '"'\"classic rock\" jazz'"' < /dev/null | head -2 | ids)"'
test_ok '--prefix: a word of 5 letters or more matches the words it begins, a plural'"'"'s s dropped' \
	'printf "%s\n" id,title "z1,Zombieland" "z2,Zombies" "z3,Zombie" "z4,Zom" "z5,The Zombi" \
	     "c1,Spaced" "c2,Space" "n1,Zombieland2" > px.csv &&
	 rec-import -d px.db items -r title=title px.csv && rec-bm25 -d px.db --index &&
	 test "$(rec-bm25 -d px.db -e -f title zombies < /dev/null | ids)" = "z2 " &&
	 rec-bm25 -d px.db -e -P -f title zombies < /dev/null | ids | tr " " "\n" | sort | tr "\n" " " > out &&
	 test "$(cat out)" = "n1 z1 z2 z3 " &&
	 rec-bm25 -d px.db -e -P -f title zombies < /dev/null | grep "\"z1\"" | grep -q "bm25: zombieland in title" &&
	 test "$(rec-bm25 -d px.db -e -P -f title zom < /dev/null | ids)" = "z4 " &&
	 rec-bm25 -d px.db -e -P -f title space < /dev/null | ids | tr " " "\n" | sort | tr "\n" " " > out &&
	 test "$(cat out)" = "c1 c2 "'
test_fail '--prefix with --and: a usage error' 2 '-P and -A' \
	'rec-bm25 -P -A -f track_name one more < /dev/null'
test_fail 'a quote left open' 2 "the query has a '\"' with no closing one" \
	'rec-bm25 -f track_name '"'\"one more'"' < /dev/null'
test_fail 'empty quotes are no words' 2 "the query has no words" \
	'rec-bm25 -f track_name '"'\"\"'"' < /dev/null'
test_ok 'the all field searches every text column' \
	'test "$(rec-bm25 -k 1 discovery < /dev/null | ids)" = "s01 "'
test_ok 'pruned and exhaustive search agree' \
	'for q in "the" "love in" "tests vol 1" "party pop rock" "daft punk metallica"; do
	   rec-bm25 $q < /dev/null > a; rec-bm25 -X $q < /dev/null > b; cmp a b || exit 1; done'
printf '%s\n' '{"id":"s07","score":9,"src":"sql"}' '{"id":"s05","score":8,"src":"cf","why":"co-played"}' \
	'{"id":"s06","score":7,"src":"sql"}' '{"id":"zz","score":1}' > pool.jsonl
test_ok 'a pool is scored and filtered, keys kept, scores merged' \
	'rec-bm25 -f track_artist metallica < pool.jsonl > out &&
	 test "$(ids < out)" = "s05 s06 " &&
	 head -1 out | grep -q "^{\"id\":\"s05\",\"score\":[0-9.]*,\"src\":\"bm25\",\"scores\":{\"cf\":8,\"bm25\":[0-9.]*},\"why\":\[\"co-played\",\"bm25: metallica in track_artist\"\]}$"'
test_ok 'earlier scores are kept under scores' \
	'echo "{\"id\":\"s05\",\"scores\":{\"cf\":0.5}}" | rec-bm25 -f track_artist metallica |
	 grep -q "\"scores\":{\"cf\":0.5,\"bm25\":"'
test_ok '--all ignores the pool' \
	'test "$(rec-bm25 -a -f track_name love < pool.jsonl | ids)" = "s04 "'
test_fail 'an unknown field lists the fields' 2 "no text field 'lyrics' \(fields: track_name, track_artist, album, playlist, genre, all\)" \
	'rec-bm25 -f lyrics x < /dev/null'
test_fail 'a query of punctuation only' 2 'the query has no words' 'rec-bm25 "?!" < /dev/null'
test_ok 'nothing found: a warning, exit 0' \
	'rec-bm25 qqqqqqqq < /dev/null > out 2> err && ! test -s out && test "$(wc -l < err)" -eq 1'
test_fail 'an index older than the catalog' 1 'is older than the catalog \(rebuild it' \
	'touch -d "2001-01-01" s.db && rec-bm25 halo < /dev/null'
test_fail 'a damaged index' 1 'not a rec BM25 index, or damaged' \
	'rec-bm25 --index && head -c 100 s.db.bm25 > t && cat t > s.db.bm25 && rec-bm25 halo < /dev/null'
test_fail 'an index that is not one' 1 'not a rec BM25 index' \
	'echo "hello, world, this is not an index at all" > s.db.bm25 && rec-bm25 halo < /dev/null'

done_testing
