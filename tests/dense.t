#!/bin/sh
# rec-dense on a toy space with known nearest neighbours.
. "$(dirname "$0")/lib.sh"

rec-import -d d.db items -i track_id -R track_name=title -R track_artist=artist \
	-l playlist -I playlist "$DATA/songs.csv" || exit 1
export REC_DB=d.db
ids() { sed 's/^{"id":"\([^"]*\)".*/\1/' | tr '\n' ' '; }
score_of() { grep "\"id\":\"$1\"" | sed 's/.*"score":\([^,]*\),.*/\1/'; }
# s01 (1,0); s02 (0.8,0.6) at cosine 0.8; s03 (0,1); s05 (-1,0); s06 (2,0)
printf '%s\n' '{"id":"s01","vec":[1,0]}' '{"id":"s02","vec":[0.8,0.6]}' \
	'{"id":"s03","vec":[0,1]}' '{"id":"s05","vec":[-1,0]}' '{"id":"s06","vec":[2,0]}' > v.jsonl
rec-import -d d.db vectors -a toy v.jsonl || exit 1

test_ok 'cosine: the nearest first, the seed left out, scores by hand' \
	'rec-dense -l s01 < /dev/null > out && test "$(ids < out)" = "s06 s02 s03 s05 " &&
	 test "$(score_of s06 < out)" = 1.0 && test "$(score_of s02 < out)" = 0.800000011920929 &&
	 test "$(score_of s05 < out)" = -1.0'
test_ok 'inner product favours the longer vector' \
	'rec-dense -m ip -v 1,0 < /dev/null | head -1 | grep -q "\"id\":\"s06\",\"score\":2.0"'
test_ok 'why says where' \
	'rec-dense -k 1 -l s01 < /dev/null | grep -q "\"why\":\"dense: near s01 in toy\""'
test_ok 'a user: the mean direction of their history' \
	'test "$(rec-dense -k 2 -u "Pop Hits" < /dev/null | ids)" = "s02 s01 "'
test_ok 'a pool is scored and filtered, keys kept' \
	'printf "%s\n" "{\"id\":\"s05\",\"src\":\"bm25\",\"score\":3}" "{\"id\":\"s07\"}" "{\"id\":\"s02\"}" |
	 rec-dense -l s01 > out && test "$(ids < out)" = "s02 s05 " &&
	 grep -q "\"scores\":{\"bm25\":3,\"dense\":-1.0}" out'
test_fail 'a seed without a vector' 1 "no vector for 's09' in this space" 'rec-dense -l s09 < /dev/null'
test_fail '--lenient: the same as a warning, and an empty list' 0 "no vector for 's09' in this space" \
	'rec-dense -e -l s09 < /dev/null > out && ! test -s out'
test_fail 'a vector of the wrong length' 2 "more than 2 numbers" 'rec-dense -v 1,2,3 < /dev/null'
test_fail 'an unknown space' 1 "no vector space 'audio'" 'rec-dense -S audio -l s01 < /dev/null'
test_fail 'one query at a time' 2 'give one of --like, --user, --vector and --text' 'rec-dense -l s01 -v 1,0 < /dev/null'
test_fail 'two spaces: name one' 2 'choose one with -S' \
	'rec-import -d d.db vectors -a other v.jsonl && rec-dense -l s01 < /dev/null'
test_ok 'the planner sends liked items to rec-dense' \
	'rec-bm25 -d d.db --index && rec-plan "songs like one more time" | grep -q "rec-dense -e -S other -k 100 -l s01\|rec-dense -e -S toy -k 100 -l s01"'

# the catalog's own text encoder: two groups of words that never meet,
# {calm soft piano ambient ballad} and {loud metal guitar drums rock riff};
# their PPMI matrix is block diagonal, so with 2 dimensions each block
# gets one axis: every word lies on its group's axis (cosine 1 inside a
# group, 0 across), items 4 and 8 have no "calm" but its group's words
printf 'id,tags\n1,calm soft piano\n2,calm soft ambient\n3,calm piano\n4,soft piano ballad\n5,loud metal guitar\n6,loud metal drums\n7,metal guitar riff\n8,soft ambient piano\n9,loud guitar rock\n' > t.csv
rec-import -d t.db items t.csv || exit 1
top5() { ids | cut -d" " -f1-5 | tr " " "\n" | sort | tr "\n" " "; }
test_ok 'rec-train text learns word vectors from the items'"'"' text' \
	'rec-train -d t.db -f 2 text > out &&
	 grep -q "^text: text on 9 items (0 without text), 7 words {\"dim\":2," out &&
	 test "$(sqlite3 t.db "select count(*) from vectors where space = '"'text'"'")" = 9'
test_ok '"calm" finds the items of its group, with or without the word' \
	'rec-dense -d t.db -t calm -a > out && test "$(top5 < out)" = "1 2 3 4 8 " &&
	 test "$(score_of 4 < out)" = 1.0 &&
	 awk -v s="$(score_of 9 < out)" "BEGIN { exit !(s < 1e-6 && s > -1e-6) }"'
test_ok 'an unseen word is read through its pieces: pianos' \
	'rec-dense -d t.db -t pianos -a > out && test "$(top5 < out)" = "1 2 3 4 8 " &&
	 grep -q "\"why\":\"dense: near '"'pianos'"' in text\"" out'
test_ok 'the encoder is the default space for --text' \
	'echo "{\"id\":\"1\",\"vec\":[1,0]}" > o.jsonl && rec-import -d t.db vectors -a other o.jsonl &&
	 test "$(rec-dense -d t.db -t loud -k 4 -a | ids)" = "5 6 7 9 "'
test_fail 'a text the encoder cannot read' 1 "no word of 'zzzz' is known to the encoder 'text'" \
	'rec-dense -d t.db -t zzzz -a'
test_fail 'the same, lenient' 0 "no word of 'zzzz' is known" \
	'rec-dense -e -d t.db -t zzzz -a > out && ! test -s out'
test_fail 'too little text' 1 'too little text to learn from: 0 words appear in two items' \
	'printf "id,tags\nx,one\ny,two\n" > tiny.csv && rec-import -d tiny.db items tiny.csv && rec-train -d tiny.db text'
test_ok 'text training is deterministic' \
	'sqlite3 t.db "select hex(vec) from vectors where space = '"'text'"' order by id" > a &&
	 rec-train -d t.db -f 2 text > /dev/null &&
	 sqlite3 t.db "select hex(vec) from vectors where space = '"'text'"' order by id" | cmp - a'

# the space as a file to map (rec-dense --index): the same answers, and
# never a stale or broken file
printf '%s\n' '{"id":"s01","vec":[1,0,0]}' '{"id":"s02","vec":[0.8,0.6,0]}' \
	'{"id":"s03","vec":[0,1,0]}' '{"id":"s06","vec":[2,0,1]}' > v3.jsonl
rec-import -d d.db vectors -a three v3.jsonl || exit 1
test_ok '--index writes a file per space, and the answers do not change' \
	'rec-dense -S toy -l s01 < /dev/null > before && rec-dense -S three -l s02 < /dev/null > before3 &&
	 rec-dense --index && test -s d.db.dense.toy && test -s d.db.dense.other && test -s d.db.dense.three &&
	 rec-dense -S toy -l s01 < /dev/null | cmp - before &&
	 rec-dense -S three -l s02 < /dev/null | cmp - before3'
test_ok 'the file is read: a catalog that says otherwise is not consulted' \
	'cp d.db d2.db && cp d.db.dense.toy d2.db.dense.toy && touch -r d.db d2.db &&
	 sqlite3 d2.db "delete from vectors where space = '"'toy'"'" && touch -r d.db d2.db &&
	 rec-dense -d d2.db -S toy -l s01 < /dev/null | cmp - before'
test_ok 'a file older than the catalog is left alone' \
	'{ cat v.jsonl; printf "%s\n" "{\"id\":\"s07\",\"vec\":[1,0.1]}"; } > v7.jsonl &&
	 rec-import -d d.db vectors -a toy v7.jsonl && rec-dense -S toy -l s01 < /dev/null | grep -q "\"id\":\"s07\""'
test_ok 'a broken file is left alone' \
	'rec-dense --index -S toy && head -c 100 d.db.dense.toy > cut && mv cut d.db.dense.toy &&
	 rec-dense -S toy -l s01 < /dev/null | grep -q "\"id\":\"s07\"" &&
	 printf "RECDNS1\n" > d.db.dense.toy && rec-dense -S toy -l s01 < /dev/null | grep -q "\"id\":\"s07\""'
test_fail '--index takes no query' 2 '--index takes no query' 'rec-dense --index -l s01'
test_fail 'a space whose name cannot be a file name' 1 "the space 'a/b' has a name that cannot be a file name" \
	'rec-import -d d.db vectors -a a/b v.jsonl && rec-dense --index'

done_testing
