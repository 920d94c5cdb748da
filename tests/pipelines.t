#!/bin/sh
# pipelines/: usage, errors, and a run on the hand-written catalog.
# By popularity: s02 84 edm, s04 82 pop, s01 81 edm, s05 80 rock,
# s06 79 rock, s03 78 pop, s07 75 rock, s09 12 pop, s08 10 pop.
. "$(dirname "$0")/lib.sh"

P=$TOP/pipelines
rec-import -d p.db items -i track_id -R track_name=title -R track_artist=artist \
	-l playlist -I playlist "$DATA/songs.csv" && rec-train -d p.db itemknn > /dev/null || exit 1
export REC_DB=p.db
ids() { sed 's/^{"id":"\([^"]*\)".*/\1/' | tr '\n' ' '; }

for p in similar for-user new-for-user cold-start continue; do
	test_ok "$p -h" "$P/$p -h | grep -q '^usage: $p'"
done
test_fail 'no catalog' 2 'no catalog' 'REC_DB= $P/cold-start'
test_fail 'a bad count' 2 "-k: not a count: 'x'" '$P/cold-start -k x'
test_fail 'similar without ids' 2 'usage: similar' '$P/similar'
test_fail 'continue with nothing on standard input' 1 'no ids on standard input' '$P/continue < /dev/null'
test_ok 'similar: the co-consumed, not the seed' \
	'$P/similar s05 | ids > got && grep -q "s06 s07" got && ! grep -q s05 got'
test_ok 'for-user: nothing the user has' \
	'$P/for-user "Rock Anthems" > out; ! grep -q "\"id\":\"s0[567]\"" out'
test_ok 'cold-start: popular first, at most two per genre' \
	'$P/cold-start -k 9 | ids > got && test "$(cat got)" = "s02 s04 s01 s05 s06 s03 "'
test_ok 'continue: from the list on standard input, none of it repeated' \
	'printf "s05\ns06\n" | $P/continue > out && grep -q "\"id\":\"s07\"" out && ! grep -q "\"id\":\"s0[56]\"" out'

done_testing
