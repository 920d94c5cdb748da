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
	facts
}

# facts: the catalog's columns by role ("ROLE=COLUMN" lines, in catalog
# order) and its tables ("table=NAME"), read once, in one query
facts() {
	[ -n "${rec_facts+x}" ] && return 0
	rec_facts=$(rec-sql -L "SELECT f FROM (SELECT 0 AS k, position AS p, role ||
		'=' || name AS f FROM columns UNION ALL SELECT 1, 0, 'table=' ||
		name FROM sqlite_master WHERE type = 'table') ORDER BY k, p" </dev/null |
		tr '}' '\n' | sed -n 's/.*"f":"\([^"]*\)".*/\1/p')
}

# role NAME: the first column with that role, or nothing
role() {
	facts
	printf '%s\n' "$rec_facts" | while IFS= read -r f; do
		case $f in "$1="*) printf '%s\n' "${f#*=}"; break ;; esac
	done
}

# has_model KIND / has_space: what the catalog has been given
has_model() {
	facts
	case "
$rec_facts
" in *"
table=models
"*) ;; *) return 1 ;; esac
	rec-sql -L "SELECT count(*) AS n FROM models WHERE name = '$1'" </dev/null | grep -q '"n":1'
}
space() {
	facts
	case "
$rec_facts
" in *"
table=spaces
"*) ;; *) return 0 ;; esac
	rec-sql -L "SELECT name FROM spaces ORDER BY name = 'audio' DESC, name LIMIT 1" </dev/null |
		sed -n 's/.*"name":"\([^"]*\)".*/\1/p'
}
