# pipelines/common.sh: what the pipelines share.  Sourced, not run.
set -eu
k=10
REC_BIN=${REC_BIN:-$(cd "$(dirname "$0")/../build/bin" 2>/dev/null && pwd || true)}
[ -n "$REC_BIN" ] && [ -x "$REC_BIN/rec-sql" ] && PATH=$REC_BIN:$PATH

die() { echo "$prog: $*" >&2; exit "${2:-1}"; }

# options every pipeline takes: -d CATALOG, -k N, -h
opts() {
	while getopts d:k:h o; do
		case $o in
		d) REC_DB=$OPTARG; export REC_DB ;;
		k) k=$OPTARG ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	case $k in ''|*[!0-9]*) die "-k: not a count: '$k'" 2 ;; esac
	[ -n "${REC_DB:-}" ] || die "no catalog: give -d CATALOG or set REC_DB" 2
}

# role NAME: the first column with that role, or nothing
role() {
	rec-sql -L "SELECT name FROM columns WHERE role = '$1' ORDER BY position LIMIT 1" </dev/null |
		sed -n 's/.*"name":"\([^"]*\)".*/\1/p'
}

# has_model KIND / has_space: what the catalog has been given
has_model() {
	rec-sql -L "SELECT count(*) AS n FROM sqlite_master WHERE name = 'models'" </dev/null |
		grep -q '"n":1' &&
	rec-sql -L "SELECT count(*) AS n FROM models WHERE name = '$1'" </dev/null | grep -q '"n":1'
}
space() {
	rec-sql -L "SELECT count(*) AS n FROM sqlite_master WHERE name = 'spaces'" </dev/null |
		grep -q '"n":1' || return 0
	rec-sql -L "SELECT name FROM spaces ORDER BY name = 'audio' DESC, name LIMIT 1" </dev/null |
		sed -n 's/.*"name":"\([^"]*\)".*/\1/p'
}
