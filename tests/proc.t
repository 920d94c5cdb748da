#!/bin/sh
# lib/proc.c through tests/proc.c: a child's own environment, a program
# that is not there, pipelines that say which stage failed, jobs in
# order or as they end; then what rec-chat says when a stage fails.
. "$(dirname "$0")/lib.sh"
P=${REC_TESTBIN:-$(dirname "$REC_BIN")/tests}/proc

mkdir -p bin sub tmpd
stage() { printf '#!/bin/sh\n%s\n' "$2" > "bin/$1" && chmod +x "bin/$1"; }
stage src1 'echo one'
stage src2 'echo two; echo "src2: a warning" >&2'
stage upper 'tr a-z A-Z'
stage broken 'cat > /dev/null; echo "broken: out of cheese" >&2; exit 3'
stage fail2 'echo "fail2: no luck" >&2; exit 2'
stage yes 'exec yes'
stage head1 'head -n 1'
stage mark 'touch ran-mark'
stage env 'cat; echo "$REC_DB $REC_FORMAT" >&2; echo "{\"tool\":\"env\"}" >> "$REC_TRACE"; echo "$REC_TRACE" > trace-path'

test_ok 'a child: its own environment and directory, ours untouched' \
	'"$P" env "$T/sub" > out &&
	 test "$(sed -n 1p out)" = "child: 1|unset|$T/sub (ok)" &&
	 test "$(sed -n 2p out)" = "parent: PROC_A unset" &&
	 test "$(sed -n 3p out)" = "parent: PROC_B=2"'
test_ok 'a program that is not there: status 127 and a line naming it' \
	'"$P" missing > out 2> err &&
	 test "$(cat out)" = "failed with status 127
failed with status 127" &&
	 test "$(cat err)" = "proc: cannot run '"'no-such-program'"': No such file or directory
stage: cannot run '"'/nonexistent/program'"': No such file or directory"'
test_ok 'a pipeline: the sources in turn, then the filters; what they said' \
	'"$P" plan bin src1 src2 -- upper > out &&
	 test "$(sed -n 1,3p out)" = "out: ONE
TWO
ok" && grep -qx "err: src2: a warning" out'
test_ok 'the middle stage fails: it is named, with its own words' \
	'"$P" plan bin src2 -- broken upper > out &&
	 grep -qx "failed: stage .broken. failed with status 3" out &&
	 grep -qx "said: broken: out of cheese" out &&
	 grep -qx "err: stage .broken. failed with status 3" out'
test_ok 'a failing source is named with its own status, not the first source' \
	'"$P" plan bin src1 fail2 -- upper > out &&
	 grep -qx "failed: stage .fail2. failed with status 2" out &&
	 grep -qx "said: fail2: no luck" out'
test_ok 'a reader that goes away is no failure, and ends the sources' \
	'"$P" plan bin yes mark -- head1 > out && grep -qx "out: y" out &&
	 grep -qx ok out && ! test -e ran-mark'
test_ok 'a stage that is not there: status 127, and the line naming it' \
	'"$P" plan bin nope -- upper > out &&
	 grep -qx "failed: stage .nope. failed with status 127" out &&
	 grep -qx "said: nope: cannot run .bin/nope.: No such file or directory" out'
test_ok 'the stages get REC_DB, REC_FORMAT and REC_TRACE; the caller keeps its own' \
	'REC_TRACE=mine "$P" plan bin src1 -- env > out &&
	 grep -qx "err: cat.db msgpack" out && grep -qx "trace: {\"tool\":\"env\"}" out &&
	 grep -qx "parent: REC_DB unset" out && grep -qx "parent: REC_FORMAT unset" out &&
	 grep -qx "parent: REC_TRACE=mine" out && ! grep -qs env mine'
test_ok 'the trace file is made in TMPDIR, and removed' \
	'TMPDIR=$T/tmpd "$P" plan bin src1 -- env > out &&
	 grep -q "^$T/tmpd/rec-trace\.......$" trace-path &&
	 test -z "$(ls tmpd)"'
test_fail 'a TMPDIR that cannot be written' 1 "^proc: cannot create a temporary file in '$T/none': " \
	'TMPDIR=$T/none "$P" plan bin src1'
test_ok 'jobs: in the order they were started' \
	'"$P" jobs 1 100 "sleep 1; echo a" "echo b" "echo c" > out &&
	 test "$(cat out)" = "0 ok a
1 ok b
2 ok c"'
test_ok 'jobs: as they end' \
	'"$P" jobs 0 100 "sleep 1; echo a" "echo b" > out &&
	 test "$(cat out)" = "1 ok b
0 ok a"'
test_ok 'jobs: how each failed, and the limit of output' \
	'"$P" jobs 1 10 "exec yes" "exit 127" "kill -9 \$\$" "exit 1" "echo fine" > out &&
	 test "$(cat out)" = "0 wrote more than the limit of output
1 could not be run (status 127)
2 was killed by signal 9
3 failed with status 1
4 ok fine"'

# rec-chat: the reply names the stage that failed and quotes that
# stage, not another that happened to write first
rec-import -d m.db items -i track_id -R track_name=title -R track_artist=artist \
	-X year='release_date:^([0-9]{4})' -t year=integer -r year=date \
	-l playlist -I playlist "$DATA/songs.csv" &&
	rec-train -d m.db itemknn > /dev/null && rec-bm25 -d m.db --index || exit 1
export REC_DB=m.db
tool() { printf '#!/bin/sh\n%s\n' "$3" > "$1/$2" && chmod +x "$1/$2"; }
mkdir -p b1 b2 && for t in "$REC_BIN"/rec-*; do ln -s "$t" b1/; ln -s "$t" b2/; done &&
	rm b1/rec-bm25 b1/rec-rank b2/rec-cf &&
	tool b1 rec-bm25 "echo 'rec-bm25: just a warning' >&2; exec '$REC_BIN/rec-bm25' \"\$@\"" &&
	tool b1 rec-rank 'cat > /dev/null; echo "rec-rank: out of cheese" >&2; exit 1' &&
	tool b2 rec-cf 'echo "rec-cf: no model" >&2; exit 2' || exit 1
test_ok 'a failed stage is quoted, not a stage that only warned' \
	'echo "rock" | REC_BIN=$PWD/b1 rec-chat > out &&
	 grep -q "Something went wrong on my side: stage '"'"'rec-rank'"'"' failed with status 1 (rec-rank: out of cheese)\. " out'
test_ok 'a failed source is named with its status, not the first source' \
	'echo "add karma police please" | REC_BIN=$PWD/b2 rec-chat > out &&
	 grep -q "Something went wrong on my side: stage '"'"'rec-cf'"'"' failed with status 2 (rec-cf: no model)\. " out'

done_testing
