#!/bin/sh
# rec-batch past one machine: GNU parallel spreads the users over hosts
# (sshd instances on loopback ports), the parts are merged, and the
# result must equal a run on one machine; then one host is killed
# mid-run and its users must be retried elsewhere, nothing lost or
# twice.  Skipped where sshd or GNU parallel is missing.
. "$(dirname "$0")/lib.sh"

. "$TOP/tests/hosts.sh"
if ! why=$(hosts_missing); then
	skip "$why"
	done_testing; exit 0
fi
trap 'hosts_stop; rm -rf "$T"' EXIT
if ! hosts_start "$T" 2; then
	skip "cannot start sshd on loopback ports (see $T/sshd*.log)"
	done_testing; exit 0
fi
port1=$(sed -n 1p "$T/ports"); port2=$(sed -n 2p "$T/ports")

# a catalog of 40 users and 60 items, deterministic
awk 'BEGIN { print "id,title"; for (i = 1; i <= 60; i++) printf "i%02d,Item %d\n", i, i }' > items.csv
awk 'BEGIN { print "user,item"; s = 7
	for (u = 1; u <= 40; u++) for (k = 0; k < 8; k++) {
		s = (s * 1103515245 + 12345) % 2147483648
		printf "u%02d,i%02d\n", u, (u + int(s / 65536) % 20) % 60 + 1 } }' > plays.csv
rec-import -d c.db items items.csv && rec-import -d c.db interactions -u user -i item plays.csv &&
	rec-train -d c.db itemknn > /dev/null || exit 1
rec-batch -d c.db -l > users.txt
# the per-user command: the for-user pipeline, a little slowed down so
# a host can be killed while it works; each attempt logs its host
cat > slow-for-user <<SH
#!/bin/sh
echo "\$PARALLEL_SEQ \$(echo "\$SSH_CONNECTION" | cut -d" " -f4)" >> $T/attempts.log
sleep 0.1
exec env REC_BIN="$REC_BIN" "$TOP/pipelines/for-user" -d "$T/c.db" -k 5 "\$@"
SH
chmod +x slow-for-user
remote="$REC_BIN/rec-batch -q -R r -d $T/c.db -U - -- $T/slow-for-user"
rows() { sqlite3 "$1" "select user, rank, item, score from results order by user, rank"; }

rec-batch -q -R r -d c.db -o single.db -- "$T/slow-for-user" || exit 1
test_ok 'one machine: a list for each of the 40 users' \
	'test "$(sqlite3 single.db "select count(distinct user) from results")" = 40'
test_ok 'two hosts through GNU parallel, merged: the same results' \
	': > attempts.log && parallel --will-cite --sshloginfile hosts --pipe -N 5 "$remote" < users.txt > parts 2> perr &&
	 rec-batch -q -R r -o merged.db -U users.txt -m parts &&
	 rows single.db > a && rows merged.db | diff -u a - &&
	 test "$(cut -d" " -f2 attempts.log | sort -u | tr "\n" " ")" = "$port1 $port2 "'
test_ok 'a host killed mid-run: its users retried on the other, nothing lost or twice' \
	': > attempts.log
	 parallel --will-cite --sshloginfile hosts --retries 3 --pipe -N 5 "$remote" < users.txt > parts2 2> perr2 & par=$!
	 i=0; while ! grep -q " $port2\$" attempts.log && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	 sleep 0.15; hosts_kill 2
	 wait $par &&
	 retried=$(awk -v a=$port1 -v b=$port2 "\$2 == b { k[\$1] = 1 } \$2 == a && k[\$1] { print \$1 }" attempts.log) &&
	 test -n "$retried" &&
	 rec-batch -q -R r -o merged2.db -U users.txt -m parts2 &&
	 rows merged2.db | diff -u a -'

done_testing
