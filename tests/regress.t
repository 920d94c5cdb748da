#!/bin/sh
# The inputs the fuzzers found trouble with (fuzz/regress): each is read
# by the tool that reads its kind, which may refuse it (exit 1, one
# line) but may not crash; and, when `make fuzz` has built the
# harnesses, each harness runs over its own files again.
. "$(dirname "$0")/lib.sh"

R=$TOP/fuzz/regress
FUZZBIN=$TOP/build/fuzz
# exit 0, or 1 with one line on standard error
refused_or_read() {
	st=$1
	test "$st" -eq 0 || { test "$st" -eq 1 && test "$(wc -l < err)" -eq 1; }
}

for f in "$R"/*.mp "$R"/*.jsonl; do
	[ -f "$f" ] || continue
	test_ok "rec-cat reads $(basename "$f") or refuses it" \
		'rec-cat < "$f" > out 2> err; refused_or_read $?'
done
for f in "$R"/*.table; do
	[ -f "$f" ] || continue
	# the first byte is the kind: t TSV, j JSONL, else CSV; upper case
	# for Latin-1 (fuzz/table.c)
	k=$(head -c 1 "$f")
	case $k in t|T) fmt=tsv;; j|J) fmt=jsonl;; *) fmt=csv;; esac
	case $k in [A-Z]) enc=latin1;; *) enc=utf-8;; esac
	test_ok "rec-import reads $(basename "$f") or refuses it" \
		'tail -c +2 "$f" > in && rm -f r.db &&
		 rec-import -d r.db items -F $fmt -e $enc -N NA in > out 2> err;
		 refused_or_read $?'
done
for h in jsonl msgpack table; do
	case $h in jsonl) ext=jsonl;; msgpack) ext=mp;; *) ext=table;; esac
	files=$(echo "$R"/*.$ext)	# the names have no spaces
	if [ ! -f "${files%% *}" ]; then
		continue
	elif [ ! -x "$FUZZBIN/$h" ]; then
		skip "fuzz/$h.c over fuzz/regress/*.$ext (make fuzz builds it)"
	elif [ -n "$(find "$TOP/lib" "$TOP/fuzz" -name '*.[ch]' -newer "$FUZZBIN/$h")" ]; then
		skip "fuzz/$h.c over fuzz/regress/*.$ext (built before the source changed)"
	else
		test_ok "fuzz/$h.c over fuzz/regress/*.$ext" \
			'"$FUZZBIN/$h" $files > out 2>&1 || { cat out >&2; false; }'
	fi
done

done_testing
