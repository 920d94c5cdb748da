# tests/hosts.sh: sshd instances on loopback ports that GNU parallel can
# use as hosts, for tests/batch-hosts.t and bench/run.  Sourced.
#
#   hosts_missing          prints what is missing and fails, if anything
#   hosts_start DIR N      starts N hosts; writes DIR/hosts (an
#                          --sshloginfile, one job each) and DIR/ports
#   hosts_kill I           kills host I and its sessions, as a crash would
#   hosts_stop             kills them all

SSHD=$(command -v sshd || echo /usr/sbin/sshd)
hosts_missing() {
	if ! [ -x "$SSHD" ] || ! command -v parallel > /dev/null ||
	    ! command -v ssh > /dev/null || ! command -v ssh-keygen > /dev/null; then
		echo 'needs sshd, ssh and GNU parallel (apt-get install openssh-server parallel)'
		return 1
	fi
	if ! [ -d /run/sshd ] && ! mkdir -p /run/sshd 2> /dev/null; then
		echo 'sshd needs its privilege separation directory /run/sshd'
		return 1
	fi
	return 0
}

hosts_dir=
hosts_start() {
	hosts_dir=$1
	_d=$1
	# keys of an earlier run in the same directory: ssh-keygen would
	# ask whether to overwrite them
	rm -f "$_d/hostkey" "$_d/hostkey.pub" "$_d/id" "$_d/id.pub"
	ssh-keygen -q -t ed25519 -N '' -f "$_d/hostkey" &&
	ssh-keygen -q -t ed25519 -N '' -f "$_d/id" &&
	cp "$_d/id.pub" "$_d/authorized_keys" && chmod 600 "$_d/authorized_keys" || return 1
	_me=$(id -un)
	HOSTS_SSH="ssh -i $_d/id -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
	: > "$_d/hosts"; : > "$_d/ports"
	_base=$((20000 + $$ % 20000))
	_h=1
	while [ "$_h" -le "$2" ]; do
		_ok=
		for _try in 0 1 2 3 4 5 6 7 8 9; do
			_port=$((_base + _h * 100 + _try))
			cat > "$_d/sshd$_h.conf" <<CONF
ListenAddress 127.0.0.1:$_port
HostKey $_d/hostkey
AuthorizedKeysFile $_d/authorized_keys
PidFile $_d/sshd$_h.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
LogLevel ERROR
CONF
			rm -f "$_d/sshd$_h.pid"
			"$SSHD" -f "$_d/sshd$_h.conf" -E "$_d/sshd$_h.log" 2> /dev/null || continue
			_i=0
			while ! [ -s "$_d/sshd$_h.pid" ] && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
			if $HOSTS_SSH -p "$_port" "$_me@127.0.0.1" true 2> /dev/null; then
				_ok=1; break
			fi
			hosts_kill "$_h"
		done
		[ -n "$_ok" ] || return 1
		echo "1/$HOSTS_SSH -p $_port $_me@127.0.0.1" >> "$_d/hosts"
		echo "$_port" >> "$_d/ports"
		_h=$((_h + 1))
	done
}

hosts_kill() {
	[ -s "$hosts_dir/sshd$1.pid" ] || return 0
	_p=$(cat "$hosts_dir/sshd$1.pid")
	pkill -KILL -P "$_p" 2> /dev/null || true
	kill -KILL "$_p" 2> /dev/null || true
	rm -f "$hosts_dir/sshd$1.pid"
}

hosts_stop() {
	[ -n "$hosts_dir" ] || return 0
	for _f in "$hosts_dir"/sshd*.pid; do
		[ -e "$_f" ] || continue
		_n=${_f##*/sshd}; hosts_kill "${_n%.pid}"
	done
	return 0
}
