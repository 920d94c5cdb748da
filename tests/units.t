#!/bin/sh
# Library pieces the tools rely on but do not show: the atomic writer's
# failure paths, the order of ranked lists and the top-k heap, the
# hash's values, the space file (tests/units.c); and the tools that
# write derived files through the atomic writer, made to fail.
. "$(dirname "$0")/lib.sh"

UNITS=${REC_TESTBIN:-$(dirname "$REC_BIN")/tests}/units
tmps() { ls -A "$1" | grep '\.tmp'; }

test_ok 'the atomic writer: a failed write, open or rename leaves the old file and no temporary one' \
	'mkdir a && "$UNITS" atomic a'
test_ok 'ranked lists: score descending, ties to the lower index; the top-k heap agrees with a sort' \
	'"$UNITS" sort'
test_ok 'hash values: zeroed when added, kept as the hash grows' '"$UNITS" hash'
test_ok 'edit distance (a swap is one edit) and the names of a value naming several' '"$UNITS" text'
test_ok 'the space file: written, mapped, looked up; refused for another dimension or a changed catalog' \
	'mkdir s && "$UNITS" space s'

rec-import -d u.db items -i track_id -l playlist "$DATA/songs.csv" || exit 1
awk 'BEGIN { for (i = 1; i <= 9; i++) printf "{\"id\":\"s%02d\",\"vec\":[%d,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]}\n", i, i }' > v.jsonl
rec-import -d u.db vectors -a toy v.jsonl || exit 1
# past the file size limit (512 bytes: room for the message on
# standard error) a write comes up short, then fails with EFBIG: the
# message says so (not a stale errno) and nothing is left
test_fail 'rec-bm25 --index past the file size limit: the real error' 1 \
	"cannot write 'u.db.bm25': File too large" \
	'trap "" XFSZ; ulimit -f 1; rec-bm25 -d u.db --index'
test_ok '... and no index nor temporary file' '! test -e u.db.bm25 && test -z "$(tmps .)"'
test_fail 'rec-dense --index past the file size limit: the real error' 1 \
	"cannot write 'u.db.dense.toy': File too large" \
	'trap "" XFSZ; ulimit -f 1; rec-dense -d u.db --index'
test_ok '... and no space file nor temporary file' '! test -e u.db.dense.toy && test -z "$(tmps .)"'
test_fail 'rec-import past the file size limit: the catalog stays as it was' 1 \
	"cannot write '.*u.db.tmp[0-9]*': File too large" \
	'cp u.db before.db && trap "" XFSZ; ulimit -f 8; rec-import -d u.db vectors -a toy2 v.jsonl'
test_ok '... and no temporary copy' 'cmp u.db before.db && test -z "$(tmps .)"'

# a profile rec-chat cannot save (the disk full): the error, the old
# profile, and no temporary file (a 0-byte one was left)
awk 'BEGIN { printf "{\"like\":{\"tags\":["; for (i = 0; i < 20; i++) printf "%s\"t%098d\"", i ? "," : "", i; print "]}}" }' > prof.json
cp prof.json prof.before
test_fail 'a profile past the file size limit: the real error' 1 \
	"^rec-chat: cannot write profile 'prof.json': File too large$" \
	'echo "I love Metallica, more songs like One More Time" |
	 (trap "" XFSZ; ulimit -f 1; exec rec-chat -d u.db -P prof.json > /dev/null)'
test_ok '... and the profile as it was, and no temporary file' \
	'cmp prof.json prof.before && test -z "$(tmps .)"'

done_testing
