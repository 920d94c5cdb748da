#!/bin/sh
# rec-semid on clustered vectors with known answers, determinism, the
# inverted index, pool semantics and every invalid code.
. "$(dirname "$0")/lib.sh"

rec-import -d s.db items -i track_id "$DATA/songs.csv" || exit 1
export REC_DB=s.db
ids() { sed 's/^{"id":"\([^"]*\)".*/\1/' | tr '\n' ' '; }
# four tight clusters in the plane, far apart:
#   A (0,0): s01 s02   B (100,0): s03 s04   C (0,100): s05 s06 s07
#   D (100,100): s08 s09
cat > v.jsonl <<'V'
{"id":"s01","vec":[0,0]}
{"id":"s02","vec":[1,0.5]}
{"id":"s03","vec":[100,0]}
{"id":"s04","vec":[101,1]}
{"id":"s05","vec":[0,100]}
{"id":"s06","vec":[0.5,101]}
{"id":"s07","vec":[1,99]}
{"id":"s08","vec":[100,100]}
{"id":"s09","vec":[99,101]}
V
rec-import -d s.db vectors -a toy v.jsonl || exit 1

test_ok 'training prints error and codebook use per level' \
	'rec-semid -T -S toy -L 2 -C 4 > out &&
	 grep -q "^space toy: 9 items, 2 levels x 4 codes, seed 1$" out &&
	 test "$(sed -n "4p" out | awk "{ print \$3 }")" = 1.000'
test_ok 'four clusters, four codes: one code per cluster at level 0' \
	'for a in "s01 s02" "s03 s04" "s05 s06 s07" "s08 s09"; do
	   set -- $a; c=$(rec-semid -P $1 | sed "s/.*toy:\[\([0-9]*\),.*/\1/")
	   for i; do test "$(rec-semid -P $i | sed "s/.*toy:\[\([0-9]*\),.*/\1/")" = "$c" || exit 1; done
	 done &&
	 test "$(for i in s01 s03 s05 s08; do rec-semid -P $i | sed "s/.*toy:\[\([0-9]*\),.*/\1/"; done | sort -u | wc -l)" -eq 4'
test_ok 'the error falls level by level' \
	'awk "NR == 3 { a = \$2 } NR == 4 { b = \$2 } END { exit !(b < a) }" out'
test_ok '--show prints every space' \
	'rec-semid -P s05 | grep -qx "s05 toy:\[[0-9]*,[0-9]*\]"'
test_ok '--like finds the rest of the cluster first, not the seed' \
	'rec-semid -D 0 -l s05 < /dev/null > got && test "$(ids < got | tr " " "\n" | head -2 | sort | tr "\n" " ")" = "s06 s07 " &&
	 ! grep -q "\"s05\"" got && head -1 got | grep -q "\"why\":\"semid toy \[[0-9]*,[0-9]*\]: prefix [12], [12] of 2 codes\""'
test_ok 'training is deterministic for a seed' \
	'sqlite3 s.db "select id, codes from semid_items order by id" > a &&
	 rec-semid -T -S toy -L 2 -C 4 > /dev/null && sqlite3 s.db "select id, codes from semid_items order by id" > b &&
	 cmp a b'
test_ok '--code: exact prefix matches first' \
	'c=$(rec-semid -P s03 | sed "s/.*toy:\[\([0-9]*\),\([0-9]*\)\]/\1,\2/") &&
	 rec-semid -D 0 -c "$c" < /dev/null | ids > got && test "$(head -c 4 got)" = "s03 " &&
	 rec-semid -D 0 -c "${c%,*}" < /dev/null | ids | tr " " "\n" | sort | tr "\n" " " > got2 && test "$(cat got2)" = "s03 s04 "'
test_ok 'lookup goes through the inverted index, not a scan' \
	'sqlite3 s.db "EXPLAIN QUERY PLAN SELECT id FROM semid_index WHERE space = 1 AND level = 0 AND code = 3" |
	 grep -q "SEARCH semid_index USING PRIMARY KEY"'
test_ok 'a pool is scored and filtered' \
	'printf "%s\n" "{\"id\":\"s07\",\"src\":\"x\"}" "{\"id\":\"s01\"}" "{\"id\":\"s06\"}" |
	 rec-semid -D 0 -l s05 | ids > got && test "$(tr " " "\n" < got | sort | tr "\n" " ")" = "s06 s07 "'
test_fail 'a code out of range' 2 "^rec-semid: --code: 4 is out of range \(0 to 3 in toy\)$" \
	'rec-semid -c 4 < /dev/null'
test_fail 'too many codes' 2 'toy has 2 levels, got more codes' 'rec-semid -c 1,2,3 < /dev/null'
test_fail 'not numbers' 2 "not a list of numbers: '1,x'" 'rec-semid -c 1,x < /dev/null'
test_fail 'an unknown space' 1 "no semantic IDs for space 'audio'" 'rec-semid -S audio -c 1 < /dev/null'
test_fail 'an item without codes' 1 "no semantic ID for 'zz' in toy" 'rec-semid -l zz < /dev/null'
test_fail 'training an unknown space' 1 "no vector space 'nope'" 'rec-semid -T -S nope'
test_fail 'neither code nor like' 2 'give --code or --like' 'rec-semid < /dev/null'
printf '{"id":"s01","vec":[1,2,3]}\n' > bad.jsonl
test_fail 'vectors of another dimension' 1 '^rec-import: mixed.jsonl:10: dimension 3, expected 2$' \
	'cat v.jsonl bad.jsonl > mixed.jsonl; rec-import -d s.db vectors -a m mixed.jsonl'
test_fail 'a vector for an unknown id' 1 "vectors: id 'zz' is not in the catalog" \
	'echo "{\"id\":\"zz\",\"vec\":[1,2]}" > z.jsonl; rec-import -d s.db vectors -a z z.jsonl'
test_fail '.npy without ids' 2 'needs --ids FILE' 'touch x.npy; rec-import -d s.db vectors -a n x.npy'

test_ok 'a multimodal ID: the codes of two spaces side by side' \
	'sed "s/\[\([0-9.]*\),\([0-9.]*\)\]/[\2,\1]/" v.jsonl > w.jsonl &&
	 rec-import -d s.db vectors -a mirror w.jsonl && rec-semid -T -S mirror -L 3 -C 2 > /dev/null &&
	 rec-semid -P s05 s09 > got && test "$(wc -l < got)" -eq 2 &&
	 grep -qx "s05 mirror:\[[01],[01],[01]\] toy:\[[0-9],[0-9]\]" got &&
	 rec-semid -S toy -c 1 < /dev/null > /dev/null'
test_fail 'two spaces: lookup must name one' 2 'semantic IDs for 2 spaces: choose one with -S' \
	'rec-semid -c 1 < /dev/null'

done_testing
