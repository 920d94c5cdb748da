#!/bin/sh
# The layout of lib/: no file over about 900 lines, and neither the
# include graph of its headers nor the graph of which file calls which
# (read from the objects' symbol tables) has a cycle, so each file can
# be read, and tested, after the ones it uses.
. "$(dirname "$0")/lib.sh"

OBJ=$REC_BIN/../lib

# "a b" for each file a that calls a function or uses data of file b
calls() {
	for o in "$1"/*.o; do
		f=$(basename "$o" .o)
		nm "$o" | awk -v f="$f" '$2 ~ /^[TDBR]$/ { print "D", $3, f }
		    $1 == "U" { print "U", $2, f }'
	done | awk '$1 == "D" { def[$2] = $3; next }
	    { use[++n] = $2; by[n] = $3 }
	    END { for (i = 1; i <= n; i++)
		if ((use[i] in def) && def[use[i]] != by[i])
			print by[i], def[use[i]] }' | sort -u
}

# "a b" for each lib header or file a that includes lib header b
includes() {
	for f in "$1"/*.[ch]; do
		sed -n 's/^#include "\(.*\)"/\1/p' "$f" |
		    while read -r h; do echo "$(basename "$f") $h"; done
	done
}

test_ok "the objects of lib/ are there" "ls '$OBJ'/*.o > /dev/null"
test_ok "no file of lib/ over 900 lines" '
	wc -l "$TOP"/lib/*.c "$TOP"/lib/*.h | awk '\''$2 != "total" &&
	    $1 > 900 { print; bad = 1 } END { exit bad }'\'''
test_ok "the call graph of lib/ has no cycle" \
	"calls '$OBJ' > edges && test -s edges && tsort edges > /dev/null"
test_ok "the include graph of lib/ has no cycle" \
	"includes '$TOP/lib' > inc && test -s inc && tsort inc > /dev/null"
# the checks can fail: a cycle made on purpose is found
test_ok "a cycle made on purpose is found" \
	"{ cat edges; echo 'fs text'; echo 'text fs'; } > bad &&
	! tsort bad > /dev/null 2> err && grep -q loop err"

done_testing
