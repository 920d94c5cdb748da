# pipelines/common.sh: what the pipelines share.  Sourced, not run.
set -eu
k=10
# the pipeline's directory, absolute, without a process (a batch run
# pays for each one before its first record)
case $0 in */*) rec_dir=${0%/*} ;; *) rec_dir=. ;; esac
case $rec_dir in /*) ;; *) rec_dir=$PWD/$rec_dir ;; esac
[ -n "${REC_BIN:-}" ] || REC_BIN=$rec_dir/../build/bin
[ -x "$REC_BIN/rec-sql" ] && PATH=$REC_BIN:$PATH

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
# order), its tables ("table=NAME") and its trained models
# ("model=NAME"), read once, in one query (two when it has no models)
facts() {
	[ -n "${rec_facts+x}" ] && return 0
	set -- "SELECT 0 AS k, position AS p, role || '=' || name AS f FROM
		columns UNION ALL SELECT 1, 0, 'table=' || name FROM sqlite_master
		WHERE type = 'table'"
	rec_facts=$(rec-sql -L "SELECT f FROM ($1 UNION ALL SELECT 2, 0,
		'model=' || name FROM models) ORDER BY k, p" </dev/null 2>/dev/null) ||
		rec_facts=$(rec-sql -L "SELECT f FROM ($1) ORDER BY k, p" </dev/null) || :
	# the values of "f", a line each, by the shell alone
	set -- "$rec_facts"
	rec_facts=
	while :; do
		case $1 in *'"f":"'*) ;; *) break ;; esac
		set -- "${1#*\"f\":\"}"
		rec_facts=$rec_facts${rec_facts:+
}${1%%\"*}
	done
}

# role NAME: the first column with that role, or nothing
role() {
	facts
	set -- "$1" "
$rec_facts
"
	case $2 in *"
$1="*) ;; *) return 0 ;; esac
	set -- "${2#*"
$1="}"
	printf '%s\n' "${1%%"
"*}"
}

# has_fact FACT: the catalog has it ("model=itemknn", "table=spaces")
has_fact() {
	facts
	case "
$rec_facts
" in *"
$1
"*) return 0 ;; esac
	return 1
}

# has_model KIND: a trained model; space: the space to search by
# meaning (audio first), or nothing
has_model() { has_fact "model=$1"; }
space() {
	has_fact table=spaces || return 0
	rec-sql -L "SELECT name FROM spaces ORDER BY name = 'audio' DESC, name LIMIT 1" </dev/null |
		sed -n 's/.*"name":"\([^"]*\)".*/\1/p'
}
