#!/bin/sh
# Candidate streams: encodings, round trips, bad input, EPIPE, trace.
. "$(dirname "$0")/lib.sh"

test_ok 'JSONL passes through unchanged' \
	'rec-cat < "$DATA/cands.jsonl" > out && diff -u "$DATA/cands.jsonl" out'
test_ok 'JSONL -> msgpack -> JSONL is byte-identical' \
	'rec-cat -M < "$DATA/cands.jsonl" | rec-cat > out &&
	 diff -u "$DATA/cands.jsonl" out'
test_ok 'msgpack -> JSONL -> msgpack is byte-identical' \
	'rec-cat -M < "$DATA/cands.jsonl" > a.mp &&
	 rec-cat < a.mp | rec-cat -M > b.mp && cmp a.mp b.mp'
test_ok 'REC_FORMAT=msgpack writes msgpack' \
	'REC_FORMAT=msgpack rec-cat < "$DATA/cands.jsonl" > a.mp &&
	 rec-cat -M < "$DATA/cands.jsonl" | cmp - a.mp'
test_ok 'msgpack output starts with a map header, not JSON' \
	'rec-cat -M < "$DATA/cands.jsonl" | head -c 1 | od -An -tx1 |
	 grep -q " 8[0-9a-f]"'
# white space, escapes and key order: the expected text was written by
# hand from RFC 8259 (\u00e9 is é, \/ is /) and keeps the key order
test_ok 'non-compact JSON is written compact' '
	printf "%s\n" "  { \"id\" : \"a\\u00e9\\/\", \"z\": [ 1 , 2 ], \"a\": 1.50 }" |
	 rec-cat > out &&
	printf "%s\n" "{\"id\":\"aé/\",\"z\":[1,2],\"a\":1.5}" > want &&
	diff -u want out'
test_ok 'unknown keys survive msgpack' \
	'rec-cat -M < "$DATA/cands.jsonl" | rec-cat | grep -q "\"extra\":{\"nested\""'
test_ok 'blank lines and CRLF are accepted' \
	'printf "{\"id\":\"a\"}\r\n\n{\"id\":\"b\"}" | rec-cat > out &&
	 printf "{\"id\":\"a\"}\n{\"id\":\"b\"}\n" | diff -u - out'
test_ok 'empty input is an empty stream, exit 0' \
	'rec-cat < /dev/null > out && ! test -s out'
test_ok 'files are read in order, - is standard input' \
	'printf "{\"id\":\"x\"}\n" | rec-cat "$DATA/cands.jsonl" - > out &&
	 test "$(wc -l < out)" -eq 5 && tail -1 out | grep -q "\"x\""'
test_ok 'a JSONL file and a msgpack file can be mixed' \
	'rec-cat -M "$DATA/cands.jsonl" > a.mp &&
	 rec-cat a.mp "$DATA/cands.jsonl" | test "$(wc -l)" -eq 8'
test_ok '-k cuts the stream' \
	'rec-cat -k 2 "$DATA/cands.jsonl" | test "$(wc -l)" -eq 2'
test_ok '--check summarises a good stream' \
	'rec-cat -c < "$DATA/cands.jsonl" | grep -qx "stdin: 4 records (jsonl)"'
test_ok 'a long stream in bounded pieces' \
	'i=0; while [ $i -lt 3000 ]; do
	   echo "{\"id\":\"n$i\",\"score\":$i,\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}";
	   i=$((i + 1)); done > big.jsonl &&
	 rec-cat -M < big.jsonl | rec-cat | cmp - big.jsonl'

# bad input: one line on stderr naming the place, exit 1
test_fail 'record without id' 1 '^rec-cat: stdin:2: record has no "id"$' \
	'printf "{\"id\":\"a\"}\n{\"x\":1}\n" | rec-cat'
test_fail 'id that is not a string' 1 '^rec-cat: stdin:1: "id" is not a string$' \
	'echo "{\"id\":17}" | rec-cat'
test_fail 'empty id' 1 'stdin:1: "id" is empty' \
	'echo "{\"id\":\"\"}" | rec-cat'
test_fail 'score that is not a number' 1 'stdin:1: "score" is not a number' \
	'echo "{\"id\":\"a\",\"score\":\"high\"}" | rec-cat'
test_fail 'src that is not a string' 1 'stdin:1: "src" is not a string' \
	'echo "{\"id\":\"a\",\"src\":1}" | rec-cat'
test_fail 'a JSON array is not a record' 1 'stdin:1: record is not an object' \
	'echo "[1,2]" | rec-cat'
test_fail 'invalid UTF-8 in JSON' 1 '^rec-cat: stdin:3: invalid UTF-8 at column 8$' \
	'printf "{\"id\":\"a\"}\n\n{\"id\":\"\377\"}\n" | rec-cat'
test_fail 'trailing comma' 1 'stdin:1: expected a string key' \
	'echo "{\"id\":\"a\",}" | rec-cat'
test_fail 'unterminated string' 1 'stdin:1: unterminated string' \
	'printf "{\"id\":\"a" | rec-cat'
test_fail 'lone surrogate' 1 'stdin:1: lone high surrogate' \
	'echo "{\"id\":\"\\ud800\"}" | rec-cat'
test_fail 'NaN is not JSON' 1 'stdin:1: unexpected character' \
	'echo "{\"id\":\"a\",\"score\":NaN}" | rec-cat'
test_fail 'nesting deeper than 32 levels' 1 'stdin:1: nesting deeper than 32' \
	'printf "{\"id\":\"a\",\"x\":%s1%s}\n" "$(printf "%.0s[" $(seq 40))" \
	    "$(printf "%.0s]" $(seq 40))" | rec-cat'
test_fail 'a line longer than REC_MAX_RECORD names the limit' 1 \
	'^rec-cat: stdin:2: line longer than 100 bytes \(REC_MAX_RECORD\)$' \
	'{ echo "{\"id\":\"a\"}"; printf "{\"id\":\"%0200d\"}\n" 0; } |
	 REC_MAX_RECORD=100 rec-cat'
test_fail 'a line longer than REC_MAX_RECORD, without a newline' 1 \
	'stdin:1: line longer than' \
	'head -c 5000 /dev/zero | tr "\0" "{" | REC_MAX_RECORD=100 rec-cat'
test_fail 'bad REC_MAX_RECORD is a usage error' 2 'REC_MAX_RECORD' \
	'echo "{\"id\":\"a\"}" | REC_MAX_RECORD=lots rec-cat'
# strtoull took "-1" as the largest size; maxrec + 1 wrapped to 0 and a
# record longer than the first read spun for ever
for v in -1 18446744073709551615 2G ' 100' 100x 15; do
	test_fail "REC_MAX_RECORD='$v' is refused" 2 \
	    "^rec-cat: REC_MAX_RECORD: not a size from 16 to 1073741824 bytes .*: '$v'$" \
	    'echo "{\"id\":\"a\"}" | REC_MAX_RECORD="$v" rec-cat'
done
test_ok 'REC_MAX_RECORD takes K, M and G' \
	'printf "{\"id\":\"%02000d\"}\n" 0 > 2k.jsonl &&
	 REC_MAX_RECORD=1G rec-cat < 2k.jsonl | cmp - 2k.jsonl &&
	 ! REC_MAX_RECORD=1K rec-cat < 2k.jsonl 2>/dev/null'
# record 1 is 99 bytes: fixmap 1, "id" "t1" 6, "score" float64 15,
# "src" "bm25" 9, "scores" {2 floats} 34, "why" 29-byte string 34
test_fail 'truncated msgpack names the byte where the record starts' 1 \
	'^rec-cat: stdin: byte 99: truncated msgpack$' \
	'rec-cat -M < "$DATA/cands.jsonl" | head -c 110 | rec-cat'
test_fail 'a msgpack array is not a record' 1 '^rec-cat: stdin: byte 0: record is not a map$' \
	'printf "\222\001\002" | rec-cat'
test_fail 'the never-used msgpack byte names its offset' 1 \
	'^rec-cat: stdin: byte 3: invalid msgpack \(0xc1 is never used\)$' \
	'printf "\201\241a\301" | rec-cat'
# found by fuzz/msgpack.c: msgpack-c reports deep nesting as NOMEM
test_fail 'msgpack nested deeper than 32 levels' 1 \
	'^rec-cat: stdin: byte 0: msgpack nested deeper than 32 levels$' \
	'printf "\202\242id\241a\241x%s\001" "$(printf "%.0s\221" $(seq 40))" | rec-cat'
# found by fuzz/msgpack.c: JSON allowed less nesting than msgpack, so a
# record of 31 or 32 levels became JSON that rec could not read back
test_ok 'msgpack of 32 levels becomes JSON that reads back' \
	'printf "\202\242id\241a\241x%s\001" "$(printf "%.0s\221" $(seq 31))" > deep.mp &&
	 rec-cat < deep.mp > deep.jsonl && rec-cat -M < deep.jsonl | cmp - deep.mp'
test_fail 'msgpack map without id' 1 '^rec-cat: stdin: byte 0: record has no "id"$' \
	'printf "\201\241a\001" | rec-cat'
test_fail 'msgpack with a huge declared length is bounded' 1 \
	'^rec-cat: stdin: byte 0: record longer than 1000 bytes \(REC_MAX_RECORD\)$' \
	'printf "\201\242id\333\177\377\377\377" | REC_MAX_RECORD=1000 rec-cat'
test_fail 'msgpack binary cannot become JSON' 1 'binary value cannot be written as JSON' \
	'printf "\202\242id\241a\241b\304\001x" | rec-cat'
test_fail 'msgpack string with bad UTF-8 cannot become JSON' 1 'invalid UTF-8' \
	'printf "\202\242id\241a\241b\241\377" | rec-cat'
# msgpack strings are checked as JSON text is, when they are read: bad
# UTF-8 used to pass through -M and every tool that kept the record
test_fail 'bad UTF-8 in a msgpack value is refused on reading' 1 \
	'^rec-cat: stdin: byte 9: invalid UTF-8 in a string$' \
	'printf "\202\242id\241a\241b\241\377" | rec-cat -M'
test_fail 'bad UTF-8 in a nested msgpack key' 1 \
	'^rec-cat: stdin: byte 12: invalid UTF-8 in a string$' \
	'printf "\202\242id\241a\241b\221\201\242x\377\001" | rec-cat -M'
test_fail 'bad UTF-8 in a msgpack id, past a good record' 1 \
	'^rec-rank: stdin: byte 13: invalid UTF-8 in a string$' \
	'printf "\201\242id\241a\201\242id\245ab\355\240\200" | rec-rank -k 3'
test_fail 'an overlong msgpack str8 with bad UTF-8' 1 'stdin: byte 7: invalid UTF-8' \
	'printf "\201\242id\331\003a\300\257" | rec-cat -M'
# NaN and infinity: msgpack can hold them, JSON cannot, and a NaN score
# sorted into rec-rank's top 3 and came out as "score":null
printf '\202\242id\241b\245score\313\077\360\000\000\000\000\000\000' > one.mp
printf '\202\242id\241a\245score\313\177\370\000\000\000\000\000\000' > nan.mp
printf '\202\242id\241a\245score\312\377\200\000\000' > inf.mp
test_fail 'a NaN score is refused on reading' 1 \
	'^rec-rank: stdin: byte 21: "score" is not a finite number$' \
	'cat one.mp nan.mp one.mp | rec-rank -k 3'
test_fail 'an infinite float32 score is refused' 1 \
	'^rec-cat: stdin: byte 0: "score" is not a finite number$' \
	'rec-cat -M < inf.mp'
test_fail 'an infinity anywhere in a msgpack record is refused' 1 \
	'^rec-cat: stdin: byte 12: number is not finite \(NaN or infinity\)$' \
	'printf "\202\242id\241a\241b\221\202\241x\313\177\360\000\000\000\000\000\000\241y\001" | rec-cat -M'
test_ok 'the largest finite floats pass' \
	'printf "\202\242id\241a\241b\222\313\177\357\377\377\377\377\377\377\312\377\177\377\377" > max.mp &&
	 rec-cat < max.mp > max.jsonl && rec-cat -M < max.jsonl | rec-cat | cmp - max.jsonl'
test_fail 'a JSON number too large for a double is refused' 1 \
	'^rec-cat: stdin:1: number out of range at column 24$' \
	'echo "{\"id\":\"a\",\"score\":1e999}" | rec-cat'
test_ok 'the same binary record passes as msgpack' \
	'printf "\202\242id\241a\241b\304\001x" > b.mp && rec-cat -M < b.mp | cmp - b.mp'

# output errors
test_ok 'EPIPE is a quiet end' \
	'rec-cat big.jsonl big.jsonl big.jsonl 2>err | head -1 > /dev/null;
	 ! test -s err'
test_fail 'a full disk is an error' 1 '^rec-cat: write error: No space left on device$' \
	'rec-cat big.jsonl > /dev/full'
test_fail 'unknown REC_FORMAT' 2 "REC_FORMAT: unknown format 'xml'" \
	'REC_FORMAT=xml rec-cat < /dev/null'
test_fail 'unknown option' 2 "^rec-cat: unknown option '--frobnicate' \(see rec-cat --help\)$" \
	'rec-cat --frobnicate < /dev/null'
test_fail 'an option without its value' 2 "^rec-cat: option '-k' needs a value$" \
	'rec-cat -k'
test_fail 'a bad count' 2 "^rec-cat: -k: not a count: '-3'$" 'rec-cat -k -3 < /dev/null'
test_fail 'missing file' 1 "cannot open 'nosuch.jsonl'" 'rec-cat nosuch.jsonl'
test_ok 'no binary on a terminal' '
	if ! command -v script >/dev/null; then exit 0; fi
	script -qec "rec-cat -M < $DATA/cands.jsonl; echo status=\$?" /dev/null > tty.out
	grep -q "refusing to write msgpack to a terminal" tty.out &&
	grep -q "status=2" tty.out'

# the trace side file
test_ok 'REC_TRACE gets one line per tool run' '
	REC_TRACE=trace rec-cat < "$DATA/cands.jsonl" | REC_TRACE=trace rec-cat -k 3 > /dev/null &&
	test "$(wc -l < trace)" -eq 2 &&
	grep -q "^{\"tool\":\"rec-cat\",\"argv\":\[\"rec-cat\",\"-k\",\"3\"\],\"pid\":[0-9]*,\"in\":3,\"out\":3,\"ms\":[0-9.]*,\"status\":0}$" trace &&
	grep -q "\"in\":4,\"out\":4" trace'
test_ok 'REC_TRACE records the error of a failed run' '
	echo "{}" | REC_TRACE=trace rec-cat 2>/dev/null; test $? -eq 1 &&
	grep -q "\"status\":1,\"error\":\"stdin:1: record has no \\\\\"id\\\\\"\"}" trace'
test_ok 'the trace line is valid JSON' '
	REC_TRACE=trace2 rec-cat -k "a\"b" < /dev/null 2>/dev/null;
	test "$(sqlite3 :memory: "select json_valid(readfile(\"trace2\"))")" = 1'

done_testing
