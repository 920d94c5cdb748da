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

done_testing
