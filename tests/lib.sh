# tests/lib.sh: TAP helpers for the rec test suite (after mblaze's
# t/lib.sh and git's test-lib).  Each test evaluates shell code in a
# scratch directory; a status above 128 is a crash and never a pass.
set -u
TOP=${REC_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
REC_BIN=${REC_BIN:-$TOP/build/bin}
PATH=$REC_BIN:$PATH
DATA=$TOP/tests/data
export PATH REC_BIN TOP DATA
unset REC_DB REC_FORMAT REC_TRACE REC_MAX_RECORD REC_LLM_URL
# the language's words: a small list of our own, not the system's
REC_WORDS=$DATA/words
export REC_WORDS
T=$(mktemp -d "${TMPDIR:-/tmp}/rec-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
n=0
failed=0

ok() { n=$((n + 1)); printf 'ok %d - %s\n' $n "$1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1))
	printf 'not ok %d - %s\n' $n "$1"
	[ -s "$T/.err" ] && sed 's/^/#   stderr: /' "$T/.err" | head -20
}
skip() { n=$((n + 1)); printf 'ok %d # skip %s\n' $n "$1"; }

# test_ok NAME CODE: CODE exits 0
test_ok() {
	( eval "$2" ) >"$T/.out" 2>"$T/.err"
	st=$?
	if [ $st -eq 0 ]; then ok "$1"; else not_ok "$1 (exit $st)"; fi
}

# test_fail NAME STATUS REGEX CODE: CODE exits STATUS, and its standard
# error is one line matching the extended REGEX
test_fail() {
	( eval "$4" ) >"$T/.out" 2>"$T/.err"
	st=$?
	lines=$(wc -l < "$T/.err")
	if [ $st -gt 128 ]; then
		not_ok "$1 (crashed: exit $st)"
	elif [ $st -ne "$2" ]; then
		not_ok "$1 (exit $st, wanted $2)"
	elif [ "$lines" -ne 1 ]; then
		not_ok "$1 ($lines lines on stderr, wanted one)"
	elif ! grep -Eq -- "$3" "$T/.err"; then
		not_ok "$1 (stderr does not match '$3')"
	else
		ok "$1"
	fi
}

done_testing() {
	echo "1..$n"
	[ $failed -eq 0 ]
}
