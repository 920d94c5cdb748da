#!/bin/sh
# Every tool: --help on stdout with exit 0, --version, a man page that
# documents every option --help lists, and a usage error for a bad one.
. "$(dirname "$0")/lib.sh"

for tool in "$REC_BIN"/rec-*; do
	t=$(basename "$tool")
	page=$TOP/man/$t.1
	test_ok "$t --help prints usage on stdout" \
		"$t --help > out 2> err && grep -q '^usage: $t' out && ! test -s err"
	test_ok "$t -h is --help" "$t -h | cmp - out"
	test_ok "$t --version" "$t --version | grep -q '^$t (rec) [0-9]'"
	test_ok "$t has a man page" "test -f '$page'"
	test_ok "$t: every option in --help is in the man page" '
		for o in $(grep -oE -- "--[a-z][a-z0-9-]*" out | sort -u); do
			grep -q "^\.It Fl [A-Za-z] , Fl Fl ${o#--}\b\|Fl Fl ${o#--}\b" "'"$page"'" ||
				{ echo "missing $o" >&2; exit 1; }
		done
		for o in $(grep -oE -- "^  -[A-Za-z]," out | tr -d " ,-" | sort -u); do
			grep -q "Fl $o\b\|Fl [A-Za-z]*$o" "'"$page"'" ||
				{ echo "missing -$o" >&2; exit 1; }
		done'
	test_fail "$t: an unknown option is a usage error" 2 "$t: " \
		"$t --no-such-option < /dev/null"
done

done_testing
