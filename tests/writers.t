#!/bin/sh
# Writers of a catalog (rec-import, rec-train, rec-semid): one at a time,
# through a lock beside the catalog, so two at once keep both edits; and
# the copy that a writer killed with -9 leaves, the next one removes.
. "$(dirname "$0")/lib.sh"

rec-import -d c.db items -i track_id -R track_name=title \
	-R track_artist=artist "$DATA/songs.csv" &&
	awk 'BEGIN { print "user,track,plays"; for (i = 0; i < 200000; i++)
	    printf "u%d,s0%d,1\n", i % 5000, 1 + i % 9 }' > big.csv &&
	head -n 50001 big.csv > some.csv &&
	rec-import -d c.db interactions -u user -i track -w plays some.csv ||
	exit 1
models() { sqlite3 c.db "SELECT group_concat(name, ' ') FROM (SELECT name FROM models ORDER BY name)"; }
tmps() { ls -A | grep '^\.c\.db\.tmp'; }

test_ok 'two rec-train at once, three times: every model is kept' \
	'for r in 1 2 3; do
		rec-train -d c.db -n A$r itemknn > /dev/null & a=$!
		rec-train -d c.db -n B$r itemknn > /dev/null & b=$!
		wait $a && wait $b || exit 1
	 done; test "$(models)" = "A1 A2 A3 B1 B2 B3"'
awk 'BEGIN { for (i = 1; i <= 9; i++) printf "{\"id\":\"s%02d\",\"vec\":[%d,1,2]}\n", i, i }' > v.jsonl
test_ok 'rec-import vectors beside rec-train: both edits are kept' \
	'rec-import -d c.db vectors -a toy v.jsonl > /dev/null & a=$!
	 rec-train -d c.db -n C itemknn > /dev/null & b=$!
	 wait $a && wait $b && models | grep -q " C$" &&
	 test "$(sqlite3 c.db "SELECT count(*) FROM vectors WHERE space = '"'toy'"'")" = 9'

if command -v flock > /dev/null; then
	# another writer holds the lock (flock(1) plays it)
	test_ok 'a writer waits for the one before it' \
		'flock -o .c.db.lock sh -c "sleep 1; touch released" & h=$!
		 sleep 0.3; rec-train -d c.db -n W itemknn > /dev/null; st=$?
		 test -e released; r=$?; wait $h; test $st -eq 0 && test $r -eq 0 &&
		 models | grep -q " W$"'
	test_fail '... for REC_LOCK_TIMEOUT seconds at most' 1 \
		"^rec-train: catalog 'c.db' is being changed by another process; gave up after 0.3 seconds \(REC_LOCK_TIMEOUT\)$" \
		'flock -o .c.db.lock sleep 3 & h=$!
		 sleep 0.3; REC_LOCK_TIMEOUT=0.3 rec-train -d c.db -n X itemknn; st=$?
		 { kill $h; wait $h; } 2> /dev/null; exit $st'
	test_ok '... and the catalog is as it was' '! models | grep -q X'
	test_fail 'REC_LOCK_TIMEOUT=0 refuses at once, naming a rec holder' 1 \
		"^rec-train: catalog 'c.db' is being changed by another process \(pid [0-9]+\); gave up after 0 seconds \(REC_LOCK_TIMEOUT\)$" \
		'rec-import -d c.db interactions -u user -i track -w plays big.csv > /dev/null & h=$!
		 i=0; while [ -z "$(tmps)" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
		 REC_LOCK_TIMEOUT=0 rec-train -d c.db -n Y itemknn; st=$?
		 wait $h; exit $st'
else
	skip 'flock(1) is not installed'
	skip 'flock(1) is not installed'
	skip 'flock(1) is not installed'
	skip 'flock(1) is not installed'
fi
test_fail 'a REC_LOCK_TIMEOUT that is not a number of seconds' 2 \
	"^rec-train: REC_LOCK_TIMEOUT: not a number of seconds from 0 to 1000000: '-1'$" \
	'REC_LOCK_TIMEOUT=-1 rec-train -d c.db itemknn'

# kill -9 in the middle of an edit: the copy stays (nothing can remove
# it then), the catalog is as it was, and the next writer removes it
test_ok 'rec-import killed with -9 leaves its copy, and the catalog' \
	'cp c.db before.db
	 rec-import -d c.db interactions -u user -i track -w plays big.csv > /dev/null 2>&1 & p=$!
	 i=0; while [ -z "$(tmps)" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
	 kill -9 $p; wait $p; test -n "$(tmps)" && cmp c.db before.db'
test_ok '... the next writer removes the copy' \
	'test -e .c.db.lock && rec-train -d c.db -n K itemknn > /dev/null &&
	 test -z "$(tmps)" && test "$(sqlite3 c.db "PRAGMA integrity_check")" = ok'
test_ok '... and its lock: no file is left beside the catalog' \
	'test -z "$(ls -A | grep "^\.c\.db")"'
test_ok "... but not a live process's, nor another file's" \
	'touch .c.db.tmp$$ .c.db.tmp999999999 .c.db.tmp999999998.1 .c.db.tmpx \
	     .c.db.bm25.tmp999999999 .c.dbx.tmp999999999 &&
	 rec-train -d c.db -n L itemknn > /dev/null &&
	 test "$(tmps | sort | tr "\n" " ")" = ".c.db.tmp$$ .c.db.tmpx " &&
	 test -e .c.db.bm25.tmp999999999 && test -e .c.dbx.tmp999999999'

done_testing
