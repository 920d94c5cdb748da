# fetch.sh: sourced by the recipes.  data_file REL URL SHA256 prints the
# path of a data file: $REC_DATA_DIR/REL when it is there, else a copy
# downloaded from URL into the cache and checked against SHA256.
data_file() {
	if [ -n "${REC_DATA_DIR:-}" ] && [ -r "$REC_DATA_DIR/$1" ]; then
		printf '%s\n' "$REC_DATA_DIR/$1"
		return 0
	fi
	cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/rec/data
	if [ -r "$cache/$1" ]; then
		printf '%s\n' "$cache/$1"
		return 0
	fi
	if ! command -v curl >/dev/null 2>&1; then
		echo "$0: '$1' is not under REC_DATA_DIR (${REC_DATA_DIR:-unset}) and curl is missing" >&2
		return 1
	fi
	mkdir -p "$(dirname "$cache/$1")"
	echo "$0: downloading $2" >&2
	if ! msg=$(curl -fsSL --retry 2 -o "$cache/$1.part" "$2" 2>&1); then
		rm -f "$cache/$1.part"
		echo "$0: cannot download '$2': $msg" >&2
		return 1
	fi
	sum=$(sha256sum "$cache/$1.part" | cut -d' ' -f1)
	if [ "$sum" != "$3" ]; then
		rm -f "$cache/$1.part"
		echo "$0: '$2': sha256 $sum, expected $3" >&2
		return 1
	fi
	mv "$cache/$1.part" "$cache/$1"
	printf '%s\n' "$cache/$1"
}

# rec_import runs the rec-import of this build (REC_BIN) or of PATH
rec_import() {
	"${REC_BIN:+$REC_BIN/}rec-import" "$@"
}
