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

done_testing
