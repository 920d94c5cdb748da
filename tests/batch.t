#!/bin/sh
# rec-batch: a list per user, into JSONL or a results database that only
# ever shows complete runs; failures, --resume, the lock, -j, --merge.
. "$(dirname "$0")/lib.sh"

rec-import -d b.db items -i track_id -R track_name=title -R track_artist=artist \
	-l playlist -I playlist "$DATA/songs.csv" && rec-train -d b.db itemknn > /dev/null || exit 1
export REC_DB=b.db
# the users are the four playlists
printf '%s\n' 'Dance Classics' 'Party' 'Pop Hits' 'Rock Anthems' > users.txt
# fake USER: three records named after the user; logs each call; fails
# for $FAIL, sleeps for $SLOW
cat > fake <<'SH'
#!/bin/sh
echo "$1" >> "$LOG"
[ "${FAIL:-}" = "$1" ] && { echo "fake: no luck for $1" >&2; exit 3; }
[ "${SLOW:-}" = "$1" ] && sleep 30
[ "${BAD:-}" = "$1" ] && { echo '{"id":"x"}'; echo 'not json'; exit 0; }
printf '{"id":"%s-a","score":3}\n{"id":"%s-b","score":2.5}\n{"id":"%s-c"}\n' "$1" "$1" "$1"
SH
chmod +x fake
LOG=$T/calls.log; export LOG
F=$T/fake
rows() { sqlite3 "$1" "select user, rank, item, coalesce(score, 'null') from results order by user, rank"; }

test_ok '--list-users: every user with interactions, sorted' \
	'rec-batch -l > out && diff -u users.txt out'
test_ok 'JSONL rows: run, user, rank, item, score, time' \
	'rec-batch -q -R r1 -k 2 "$F" > out && test "$(wc -l < out)" = 8 &&
	 head -1 out | grep -Eq "^\{\"id\":\"Dance Classics-a\",\"run\":\"r1\",\"user\":\"Dance Classics\",\"rank\":1,\"score\":3(\.0)?,\"time\":\"[0-9-]+T[0-9:]+Z\"\}$" &&
	 sed -n 2p out | grep -q "\"id\":\"Dance Classics-b\",.*\"rank\":2,\"score\":2.5,"'
test_ok 'a missing score is left out, as in a candidate record' \
	'rec-batch -q -U users.txt "$F" | grep -q "^{\"id\":\"Party-c\",\"run\":\"[^\"]*\",\"user\":\"Party\",\"rank\":3,\"time\":"'
test_ok '-o: the results database and a one-line summary' \
	'rec-batch -R first -o r.db "$F" 2> err && test "$(wc -l < err)" = 1 &&
	 grep -Eq "^rec-batch: run .first.: 4 users, 0 failed, 12 items, [0-9.]+ s, in r.db$" err &&
	 test "$(rows r.db | head -2)" = "Dance Classics|1|Dance Classics-a|3.0
Dance Classics|2|Dance Classics-b|2.5" &&
	 test "$(sqlite3 r.db "select run, users, failed, items from runs")" = "first|4|0|12" &&
	 ! test -e r.db.partial'
test_ok '-I puts the user inside an argument' \
	'rec-batch -q -I @U -k 1 sh -c "echo {\\\"id\\\":\\\"for-@U\\\"}" | grep -q "^{\"id\":\"for-Pop Hits\""'
test_ok '-j 2 gives the same results as -j 1' \
	'rows r.db > one && rec-batch -q -j 2 -o r2.db "$F" && rows r2.db | diff -u one -'
rows r.db > before.txt

: > "$LOG"
test_ok 'a failed user: exit 1, the previous run untouched, the run kept for --resume' \
	'! FAIL=Party rec-batch -R second -o r.db "$F" 2> err &&
	 grep -q "^fake: no luck for Party$" err &&
	 grep -q "^rec-batch: user .Party.: the command failed with status 3$" err &&
	 grep -q "^rec-batch: run .second. not published: 1 of 4 users failed (--resume retries them)$" err &&
	 rows r.db | diff -u before.txt - && test "$(sqlite3 r.db "select run from runs")" = first &&
	 test -e r.db.partial'
test_ok '--resume runs only the users not done, then publishes' \
	': > "$LOG" && rec-batch -q -r -o r.db "$F" && test "$(cat "$LOG")" = Party &&
	 test "$(sqlite3 r.db "select users, failed from runs where run = '"'second'"'")" = "4|0" &&
	 test "$(sqlite3 r.db "select distinct run from results")" = second &&
	 rows r.db | diff -u before.txt - && ! test -e r.db.partial'
test_ok '--resume with nothing interrupted starts a new run' \
	'rec-batch -q -r -R third -o r.db "$F" && test "$(sqlite3 r.db "select distinct run from results")" = third'
test_fail '--resume of another command' 1 "the interrupted run 'fourth' ran another command .* remove 'r.db.partial' to start afresh" \
	'FAIL="Rock Anthems" rec-batch -q -R fourth -o r.db "$F" 2> /dev/null; rec-batch -q -r -o r.db "$F" x'
test_ok 'without --resume an interrupted run is discarded, with a warning' \
	'rec-batch -R fifth -o r.db "$F" 2> err && grep -q "discarding the interrupted run .fourth." err &&
	 test "$(sqlite3 r.db "select distinct run from results")" = fifth'
test_ok '--resume with a damaged run file says so, starts afresh and publishes' \
	'printf "not a database, whatever a crash left" > r.db.partial &&
	 rec-batch -q -r -R damaged -o r.db "$F" 2> err &&
	 grep -q "^rec-batch: the file of the interrupted run, .r.db.partial., is damaged: starting afresh$" err &&
	 test "$(sqlite3 r.db "select distinct run from results")" = damaged && ! test -e r.db.partial'
test_ok '-f N publishes despite N failed users' \
	'FAIL=Party rec-batch -q -f 1 -R sixth -o r.db "$F" &&
	 test "$(sqlite3 r.db "select users, failed, items from runs where run = '"'sixth'"'")" = "4|1|9" &&
	 test "$(sqlite3 r.db "select count(*) from results where user = '"'Party'"'")" = 0'

# killed halfway: a slow user, SIGTERM to rec-batch
rec-batch -q -R seventh -o r.db "$F" && rows r.db > before.txt
test_ok 'SIGTERM mid-run: exit 1, previous results readable and untouched' \
	': > "$LOG"; SLOW="Pop Hits" rec-batch -q -R eighth -o r.db "$F" 2> err & pid=$!
	 i=0; while ! grep -q "Pop Hits" "$LOG" 2> /dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	 kill -TERM $pid; wait $pid; st=$?; test $st = 1 &&
	 grep -q "^rec-batch: interrupted after 2 of 4 users (--resume continues the run)$" err &&
	 rows r.db | diff -u before.txt - && test "$(sqlite3 r.db "select distinct run from results")" = seventh'
test_ok '--resume after the kill redoes only the unfinished users' \
	': > "$LOG" && rec-batch -q -r -o r.db "$F" &&
	 test "$(cat "$LOG" | tr "\n" ,)" = "Pop Hits,Rock Anthems," &&
	 test "$(sqlite3 r.db "select distinct run from results")" = eighth && rows r.db | diff -u before.txt -'

test_ok 'a second run while one holds the lock: refused' \
	'flock r.db.lock sh -c "rec-batch -q -o r.db \"$F\" 2> err; echo \$? > st" &&
	 test "$(cat st)" = 1 && grep -q "^rec-batch: another run holds .r.db.lock.$" err'
test_ok 'output that is not candidate records fails that user, naming where' \
	'! BAD=Party rec-batch -q -o r3.db "$F" 2> err &&
	 grep -q "^rec-batch: user .Party.: the command output for .Party.:2: " err && ! test -e r3.db'
test_fail 'a command that cannot be run' 1 'no-such-cmd' \
	'rec-batch -q -U users.txt -k 1 ./no-such-cmd 2>&1 > /dev/null | grep -c "status 127" | grep -qx 4 &&
	 echo "no-such-cmd: 4 users could not be run" >&2 && exit 1'
test_fail 'users: invalid UTF-8 named by line' 1 "^rec-batch: u.txt:2: not a user id \(a NUL byte or invalid UTF-8\)$" \
	'printf "a\n\377\n" > u.txt && rec-batch -U u.txt "$F"'
test_fail 'no command, and no for-user to run by default' 2 'give the command to run for each user' 'REC_PIPELINES=$T/none rec-batch -o x.db'
test_fail '--resume without -o' 2 '--resume needs -o RESULTS' 'rec-batch -r "$F"'
test_fail 'a bad -j' 2 '-j: between 1 and 1024 jobs' 'rec-batch -j 0 "$F"'

# merging parts made elsewhere
rec-batch -q -R m -o single.db "$F" || exit 1
test_ok '--merge: parts from two runs make the same results as one run' \
	'head -2 users.txt > u1 && tail -2 users.txt > u2 &&
	 rec-batch -q -R m -U u1 "$F" > p1 && rec-batch -q -R m -U u2 "$F" > p2 &&
	 rec-batch -q -R m -o merged.db -U users.txt -m p1 p2 &&
	 rows merged.db | diff -u - "$(rows single.db > s.txt; echo s.txt)" &&
	 test "$(sqlite3 merged.db "select run, users, failed, items from runs")" = "m|4|0|12"'
test_fail '--merge: a user missing' 1 '^rec-batch: 2 users of .users.txt. have no rows \(nothing published\)$' \
	'rec-batch -q -o m2.db -U users.txt -m p1'
test_fail '--merge: the same user twice' 1 "^rec-batch: p1:1: user 'Dance Classics' has a second item at rank 1" \
	'rec-batch -q -o m3.db -m p1 p1'
test_fail '--merge: no rows, over a good run: refused' 1 '^rec-batch: no rows to merge \(nothing published; -E publishes an empty run\)$' \
	'rec-batch -q -R empty -o merged.db -m < /dev/null'
test_ok '... and the good run is still the one published' \
	'test "$(sqlite3 merged.db "SELECT count(*) FROM results")" -gt 0 &&
	 ! sqlite3 merged.db "SELECT run FROM runs" | grep -qx empty'
test_ok '--merge -E: an empty run, when asked for' \
	'rec-batch -q -E -o m5.db -m < /dev/null && test "$(sqlite3 m5.db "SELECT count(*) FROM results")" = 0'
test_fail '--merge: not a row' 1 '^rec-batch: bad:1: not a row of rec-batch' \
	'echo "{\"id\":\"x\"}" > bad && rec-batch -q -o m4.db -m bad'
test_ok 'a failed merge publishes nothing' '! test -e m2.db && ! test -e m3.db'

if command -v script > /dev/null; then
	test_ok 'on a terminal: progress instead of the summary line' \
		'script -qec "rec-batch -o tty.db \"$F\"" /dev/null < /dev/null | tr "\r" "\n" > out &&
		 grep -q "^rec-batch: 4 of 4 users, 0 failed, [0-9.]* users/s" out && ! grep -q "run .*: 4 users" out'
else
	skip 'script(1) is missing: no terminal to test progress on'
fi

# the real pipelines, on the fixture catalog
# (Rock Anthems shares no song with another playlist: an empty list)
test_ok 'pipelines/for-user for every user, -j 2' \
	'rec-batch -q -j 2 -k 3 -o p.db "$TOP/pipelines/for-user" -d b.db -k 3 &&
	 test "$(sqlite3 p.db "select group_concat(distinct user) from results")" = "Dance Classics,Party,Pop Hits" &&
	 test "$(sqlite3 p.db "select users, failed from runs")" = "4|0" &&
	 test "$(sqlite3 p.db "select count(*) from results where rank > 3")" = 0'

done_testing
