#!/bin/sh
# The session file (rec-session(5)): what rec-chat writes reads back to
# the same next answer; one writer at a time; bad files are one-line
# errors; a turn opens the catalog once.
. "$(dirname "$0")/lib.sh"

rec-import -d m.db items -i track_id -R track_name=title -R track_artist=artist \
	-X year='release_date:^([0-9]{4})' -t year=integer -r year=date \
	-l playlist -I playlist "$DATA/songs.csv" &&
	rec-train -d m.db itemknn > /dev/null && rec-bm25 -d m.db --index || exit 1
export REC_DB=m.db

# the answer to the last message, without the timing
last_answer() { tail -n 1 "$1" | sed 's/"ms":[0-9.]*//'; }

test_ok 'a session read back gives the same next answer as one run' \
	'printf "%s\n" "rock from the 90s" "not that artist" "more" | rec-chat > one &&
	 printf "%s\n" "rock from the 90s" "not that artist" | rec-chat -S s.jsonl > /dev/null &&
	 echo more | rec-chat -S s.jsonl > two &&
	 test "$(last_answer one)" = "$(last_answer two)" &&
	 test "$(wc -l < s.jsonl)" -eq 3'
test_ok 'each line of the file is a turn with the intent and the plan' \
	'for k in turn user reply items shell relaxed failed ms intent plan; do
		test "$(grep -c "\"$k\":" s.jsonl)" -eq 3 || exit 1
	 done'
test_ok 'standard output has the turn without the intent and the plan' \
	'! grep -q "\"intent\":" two && ! grep -q "\"plan\":" two &&
	 grep -q "\"turn\":3" two'
test_ok 'the items of earlier turns are not shown again' \
	'ids=$(sed -n "s/.*\"items\":\[\([^]]*\)\].*/\1/p" s.jsonl | grep -o "\"id\":\"[^\"]*\"" | sort) &&
	 test -n "$ids" && test "$(echo "$ids" | uniq -d)" = ""'
test_fail 'a file that is not JSON lines' 1 '^rec-chat: bad.jsonl:2: ' \
	'printf "%s\n" "{\"turn\":1,\"user\":\"rock\"}" "{\"turn\":2," > bad.jsonl &&
	 echo more | rec-chat -S bad.jsonl'
test_fail 'a JSON file that is not a session' 1 \
	'^rec-chat: foreign.jsonl:1: not a turn of a rec session' \
	'echo "{\"id\":\"s01\",\"score\":1}" > foreign.jsonl && echo more | rec-chat -S foreign.jsonl'
test_ok 'a foreign file is left as it was' \
	'test "$(cat foreign.jsonl)" = "{\"id\":\"s01\",\"score\":1}"'
test_fail 'a second writer of a session is refused' 1 'is in use by another rec-chat' \
	'mkfifo hold && { rec-chat -S busy.jsonl < hold > /dev/null & } &&
	 exec 3> hold && sleep 0.3 && echo rock | rec-chat -S busy.jsonl; st=$?;
	 exec 3>&-; wait; exit $st'
test_ok 'the first writer wrote its turn whole' \
	'test ! -s busy.jsonl || sqlite3 :memory: "select json_valid(readfile('"'busy.jsonl'"'))" | grep -q 1'
test_ok 'a conversation opens the catalog once in rec-chat' \
	'printf "%s\n" "rock" "more" "not that artist" |
	 REC_TRACE=trace.jsonl rec-chat > /dev/null &&
	 grep "\"tool\":\"rec-chat\"" trace.jsonl > chat-line &&
	 test "$(wc -l < chat-line)" -eq 1 && grep -q "\"opens\":1[,}]" chat-line'
test_ok 'the eval form of a session (items as ids, liked) reads as one' \
	'printf "%s\n" "{\"turn\":1,\"user\":\"metal\",\"reply\":\"\",\"items\":[{\"id\":\"s05\"}],\"liked\":[\"s05\"],\"disliked\":[]}" > ev.jsonl &&
	 rec-plan --json -S ev.jsonl "more" | grep -q "\"shown\":\[\"s05\"\]"'

# a message that cannot be one is refused, said with its line, never
# written (it made the session unreadable); the conversation goes on
test_fail 'a message that is not UTF-8 is refused with its line number' 1 \
	'^rec-chat: stdin:3: the message is not valid UTF-8$' \
	'printf "rock\n\nzebra \377 please\npop\n" | rec-chat -S u.jsonl > out'
test_ok '... the turns before and after it are answered, and the session reads back' \
	'test "$(wc -l < out)" -eq 2 && test "$(wc -l < u.jsonl)" -eq 2 &&
	 grep -q "\"user\":\"pop\"" out && ! grep -q "zebra" u.jsonl &&
	 echo more | rec-chat -S u.jsonl > out2 && grep -q "\"turn\":3" out2'
test_fail 'a message with a NUL byte is refused, not cut short' 1 \
	'^rec-chat: stdin:2: the message has a NUL byte$' \
	'printf "rock\nno zebra\000stripes please\n" | rec-chat > out'
test_ok '... and only the other turn is answered' \
	'test "$(wc -l < out)" -eq 1 && ! grep -q "zebra" out'
test_fail 'a message longer than REC_MAX_REQUEST is refused' 1 \
	'^rec-chat: stdin:1: the message is longer than 100 bytes \(REC_MAX_REQUEST\)$' \
	'{ head -c 150 /dev/zero | tr "\0" "a"; printf "\nrock\n"; } |
	 REC_MAX_REQUEST=100 rec-chat > out && test "$(wc -l < out)" -eq 1'

# a full disk while a turn is appended: the turn fails, and the session
# is as it was (a partial line would make it unreadable); the file size
# limit plays the full disk, in the shell's blocks
( trap "" XFSZ; ulimit -f 1; head -c 4096 /dev/zero > probe ) 2> /dev/null
unit=$(wc -c < probe)
test_fail 'a session append past the file size limit: the real error' 1 \
	"^rec-chat: cannot write session 'full.jsonl': File too large$" \
	'echo "rock from the 90s" | rec-chat -S full.jsonl > /dev/null &&
	 wc -c < full.jsonl > before && cp full.jsonl full.before &&
	 echo "more" | (trap "" XFSZ; ulimit -f $(($(cat before) / unit + 1));
	     exec rec-chat -S full.jsonl > /dev/null)'
test_ok '... and the session is whole and reads back' \
	'cmp full.jsonl full.before && echo more | rec-chat -S full.jsonl > out &&
	 grep -q "\"turn\":2" out'

done_testing
