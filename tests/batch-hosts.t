#!/bin/sh
# rec-batch past one machine: GNU parallel spreads the users over hosts
# (sshd instances on loopback ports), the parts are merged, and the
# result must equal a run on one machine; then one host is killed
# mid-run and its users must be retried elsewhere, nothing lost or
# twice.  Skipped where sshd or GNU parallel is missing.
. "$(dirname "$0")/lib.sh"

SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if ! [ -x "$SSHD" ] || ! command -v parallel > /dev/null ||
    ! command -v ssh > /dev/null || ! command -v ssh-keygen > /dev/null; then
	skip 'needs sshd, ssh and GNU parallel (apt-get install openssh-server parallel)'
	done_testing; exit 0
fi
if ! [ -d /run/sshd ] && ! mkdir -p /run/sshd 2> /dev/null; then
	skip 'sshd needs its privilege separation directory /run/sshd'
	done_testing; exit 0
fi

pids=
trap 'for p in $pids; do pkill -KILL -P "$p" 2> /dev/null; kill -KILL "$p" 2> /dev/null; done; rm -rf "$T"' EXIT
ssh-keygen -q -t ed25519 -N '' -f hostkey && ssh-keygen -q -t ed25519 -N '' -f id &&
	cp id.pub authorized_keys && chmod 600 authorized_keys || exit 1
me=$(id -un)
S="ssh -i $T/id -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
# two hosts on free loopback ports
: > hosts
base=$((20000 + $$ % 20000))
for h in 1 2; do
	started=
	for try in 0 1 2 3 4 5 6 7 8 9; do
		port=$((base + h * 100 + try))
		cat > sshd$h.conf <<CONF
ListenAddress 127.0.0.1:$port
HostKey $T/hostkey
AuthorizedKeysFile $T/authorized_keys
PidFile $T/sshd$h.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
LogLevel ERROR
CONF
		rm -f sshd$h.pid
		"$SSHD" -f "$T/sshd$h.conf" -E "$T/sshd$h.log" 2> /dev/null || continue
		i=0; while ! [ -s sshd$h.pid ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		if $S -p $port "$me@127.0.0.1" true 2> /dev/null; then
			started=$port; break
		fi
	done
	[ -s sshd$h.pid ] && pids="$pids $(cat sshd$h.pid)"
	if [ -z "$started" ]; then
		skip "cannot start sshd on a loopback port (see $T/sshd$h.log)"
		done_testing; exit 0
	fi
	eval "port$h=$started"
	echo "1/$S -p $started $me@127.0.0.1" >> hosts
done

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
	 sleep 0.15; p=$(cat sshd2.pid); pkill -KILL -P $p; kill -KILL $p
	 wait $par &&
	 retried=$(awk -v a=$port1 -v b=$port2 "\$2 == b { k[\$1] = 1 } \$2 == a && k[\$1] { print \$1 }" attempts.log) &&
	 test -n "$retried" &&
	 rec-batch -q -R r -o merged2.db -U users.txt -m parts2 &&
	 rows merged2.db | diff -u a -'

done_testing
