#!/bin/sh
# Runs the EXAMPLES of every man page, as jq's tests/man.test does: in a
# ".Bd -literal" block a line "$ command" is run and the lines after it
# are its expected standard output.  The examples run in order, per page,
# in a directory holding the test fixtures and a small catalog music.db.
. "$(dirname "$0")/lib.sh"

for page in "$TOP"/man/*.[157]; do
	name=$(basename "$page")
	dir=$T/$name
	mkdir -p "$dir/ex"
	find "$DATA" -maxdepth 1 -type f -exec cp {} "$dir"/ \;
	( cd "$dir" && rec-import -d music.db items -i track_id \
		-R track_name=title -R track_artist=artist -l playlist \
		-I playlist songs.csv && rec-bm25 -d music.db --index &&
		ln -s "$TOP/pipelines" pipelines ) || exit 1
	awk -v dir="$dir/ex" '
		/^\.Sh / { inex = ($2 == "EXAMPLES"); next }
		inex && /^\.Bd -literal/ { inbd = 1; next }
		inbd && /^\.Ed/ { inbd = 0; next }
		inbd {
			line = $0
			gsub(/\\e/, "\\", line); gsub(/\\&/, "", line)
			gsub(/\\\(aq/, "\047", line)
			if (line ~ /^\$ /) {
				n++
				f = sprintf("%s/%03d", dir, n)
				print substr(line, 3) > (f ".cmd")
				printf "" > (f ".out")
			} else if (n)
				print line >> (f ".out")
		}' "$page"
	count=0
	for cmd in "$dir"/ex/*.cmd; do
		[ -e "$cmd" ] || continue
		count=$((count + 1))
		want=${cmd%.cmd}.out
		( cd "$dir" && REC_DB=music.db sh -c "$(cat "$cmd")" ) \
			> "$dir/got" 2> "$T/.err"
		st=$?
		if [ $st -le 128 ] && diff -u "$want" "$dir/got" > "$dir/diff"; then
			ok "$name: $(cat "$cmd")"
		else
			not_ok "$name: $(cat "$cmd") (exit $st)"
			sed 's/^/#   /' "$dir/diff"
		fi
	done
	if [ $count -eq 0 ]; then not_ok "$name has no runnable EXAMPLES"; fi
done
test_ok 'mandoc -Tlint finds nothing' 'mandoc -Tlint -W warning "$TOP"/man/*'

done_testing
