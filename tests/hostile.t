#!/bin/sh
# Numbers that are not finite, from everywhere but the stream reader
# (tests/stream.t has that): option values, jq expressions, and what a
# tool computes from them.  No tool writes a NaN or an infinity, and
# none writes "score":null in their place.
. "$(dirname "$0")/lib.sh"

printf '%s\n' '{"id":"a","score":1}' '{"id":"b","score":2}' > two.jsonl

# strtod reads "nan" and "inf"; a NaN passed every range check, and
# (size_t)NaN is undefined
for opt in --novelty --per --mmr; do
	test_fail "rec-rank $opt nan is a usage error" 2 \
	    "^rec-rank: $opt: not a number from .*: 'nan'$" \
	    'rec-rank $opt nan < two.jsonl'
done
test_fail 'rec-rank --weight inf is a usage error' 2 \
	"^rec-rank: --weight: not a number from .*: 'inf'$" \
	'rec-rank --fuse rrf --weight a=inf < two.jsonl'

# jq has nan and infinite; they became "score":null
test_fail 'a jq score that is NaN is an error' 1 \
	"^rec-rank: --by: 'nan' gave nan, not a finite number$" \
	'rec-rank --by nan < two.jsonl'
test_fail 'a jq score that is infinite is an error' 1 \
	"^rec-rank: --by: '.score \* infinite' gave infinity, not a finite number$" \
	'rec-rank -M --by ".score * infinite" < two.jsonl'

# the JSON writer refuses what it cannot write, rather than write null
rec-import -d d.db items -i track_id "$DATA/songs.csv" >/dev/null 2>&1 || exit 1
printf '%s\n' '{"id":"s01","vec":[1,0]}' '{"id":"s02","vec":[0.8,0.6]}' > v.jsonl
rec-import -d d.db vectors -a toy v.jsonl >/dev/null 2>&1 || exit 1
test_ok 'a NaN query vector gives no null score' \
	'rec-dense -d d.db -m ip -v nan,0 < /dev/null > out 2> err; st=$?
	 test $st -eq 1 -o $st -eq 2 && ! grep -q null out && test "$(wc -l < err)" -eq 1'

done_testing
