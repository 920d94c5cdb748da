#!/bin/sh
# rec-plan and rec-chat with a model: real HTTP through libcurl to a
# stub server on loopback that checks each request and replays answers.
. "$(dirname "$0")/lib.sh"

STUB=${REC_TESTBIN:-$(dirname "$REC_BIN")/tests}/stub-llm
rec-import -d m.db items -i track_id -R track_name=title -R track_artist=artist \
	-X year='release_date:^([0-9]{4})' -t year=integer -r year=date \
	-l playlist -I playlist "$DATA/songs.csv" &&
	rec-bm25 -d m.db --index || exit 1
export REC_DB=m.db REC_LLM_MODEL=test-model REC_LLM_KEY=sekret STUB_KEY=sekret

# serve DIR REPLY...: starts the stub, sets REC_LLM_URL
serve() {
	d=$1; shift
	rm -rf "$d"; mkdir -p "$d"
	"$STUB" "$d/port" "$d" "$@" 2> "$d/stub.err" &
	stub=$!
	i=0; while [ ! -s "$d/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	REC_LLM_URL=http://127.0.0.1:$(cat "$d/port")/v1; export REC_LLM_URL
}

printf '%s\n' '{"liked_creators":["metallica"],"constraints":[{"column":"bpm","op":">","value":100}],"k":3}' > good
test_ok "the model's intent, checked and repaired against the catalog" \
	'serve s1 good && rec-plan --json "fast metal please" > out && wait $stub &&
	 grep -q "\"liked_creators\":\[\"Metallica\"\]" out &&
	 grep -q "{\"column\":\"tempo\",\"op\":\">\",\"value\":100.0" out &&
	 grep -q "\"source\":\"model\"" out && grep -q "creator '"'"'metallica'"'"' read as '"'"'Metallica'"'"'" out &&
	 grep -q "\"shell\":\"rec-sql -a -s creator -k 200 -w .*Metallica.* < /dev/null | rec-sql -w .*tempo.* > 100. | rec-rank -F rrf -W creator=2 -b .*live.* -U title,creator -k 3\"" out'
test_ok 'the request the server received' \
	'grep -q "^POST /v1/chat/completions HTTP/1.1" s1/request-1 &&
	 grep -q "^Authorization: Bearer sekret" s1/request-1 &&
	 grep -q "\"model\":\"test-model\"" s1/request-1 &&
	 grep -q "\"response_format\":{\"type\":\"json_object\"}" s1/request-1 &&
	 grep -q "{\"role\":\"user\",\"content\":\"fast metal please \"}" s1/request-1 &&
	 grep -q "track_name (text, title)\|title (text, title)" s1/request-1'
# numbers from a model are range-checked before they become ints (a
# float-to-int cast out of range is undefined: the sanitizer build
# checks that none is made)
printf '%s\n' '{"liked_creators":["Metallica"],"k":1e300,"popularity":-1e300,"constraints":[{"column":"tempo","op":">","value":-1e300},{"column":"tempo","op":"<","value":1e308}]}' > huge
test_ok "a model's numbers out of range: k and popularity range-checked, values kept finite" \
	'serve s11 huge && rec-plan --json "metal" > out && wait $stub &&
	 grep -q "\"source\":\"model\"" out && grep -q "\"k\":10," out &&
	 grep -q "\"popularity\":-1," out && grep -q "tempo.. > -1e+300 AND ..tempo.. < 1e+308" out &&
	 ! grep -q "[<>=] null" out'
printf 'Sure! Here are some songs.\n' > prose
test_ok 'an answer that is not JSON is sent back with the problem' \
	'serve s2 prose good && rec-plan --json "fast metal please" > out && wait $stub &&
	 grep -q "\"source\":\"model\"" out && test -f s2/request-2 &&
	 grep -q "That answer has problems: the answer is not JSON" s2/request-2 &&
	 grep -q "Sure! Here are some songs." s2/request-2'
printf '%s\n' '{"liked_creators":["Nobody At All Ever"],"constraints":[{"column":"mood","op":">","value":1}]}' > wrong
test_ok 'three wrong answers, then the rules' \
	'serve s3 wrong wrong wrong && rec-plan --json "songs by metallica" > out 2> err && wait $stub &&
	 grep -q "\"source\":\"rules\"" out && grep -q "\"liked_creators\":\[\"Metallica\"\]" out &&
	 grep -q "no creator '"'"'Nobody At All Ever'"'"' in the catalog" err &&
	 grep -q "no numeric column '"'"'mood'"'"'" s3/request-3 && ! test -f s3/request-4'
test_ok 'a server that is not there: the rules, and one line on stderr' \
	'REC_LLM_URL=http://127.0.0.1:1/v1 rec-plan "songs by metallica" > out 2> err &&
	 grep -q "^rec-sql -a -s creator -k 200 -w .*Metallica" out &&
	 test "$(wc -l < err)" -eq 1 && grep -q "fell back to the rules" err'
printf '%s\n' '{"request":"sad piano ballads","intent":{"tags":["piano"]}}' \
	'{"request":"songs by metallica that are fast","intent":{"liked_creators":["Metallica"]}}' \
	'{"request":"dance music from 2001","intent":{"tags":["edm"]}}' \
	'{"request":"jazz for a rainy day","intent":{"tags":["jazz"]}}' > demos.jsonl
test_ok 'dynamic few-shot: the most similar demonstrations go in the prompt' \
	'serve s4 good && rec-plan -D demos.jsonl "fast songs by metallica" > /dev/null && wait $stub &&
	 grep -q "songs by metallica that are fast" s4/request-1 &&
	 ! grep -q "jazz for a rainy day" s4/request-1'
test_ok 'hostile text from the model is only ever an argument' \
	'printf "%s\n" "{\"words\":[\"\$(touch pwned)\",\"x'"'"'; touch pwned2; '"'"'\"],\"liked_creators\":[\"Metallica\"]}" > evil &&
	 serve s5 evil && line=$(rec-plan "anything") && wait $stub &&
	 PATH="$REC_BIN:$PATH" sh -c "$line" > /dev/null 2>&1; ! test -e pwned && ! test -e pwned2'
printf '%s\n' '{"intro":"Two Metallica classics for you.","notes":{"1":"the riff everyone knows","2":"the slow one","9":"Stairway to Heaven"}}' > words
# a value that starts with '-' is a value: rec-dense -t takes the words,
# rec-bm25 has them after "--"; who the person is is not the model's to
# say ("user" once went to rec-cf -u and rec-rank -x)
cp m.db mt.db && rec-train -d mt.db text > /dev/null 2>&1 || exit 1
printf '%s\n' '{"words":["-d/etc/passwd","--db=/nonexistent"],"tags":["-k","--help"],"liked_creators":["Metallica"],"user":"-d/x","k":3}' > dashes
test_ok "a model's words that start with '-' are values, in the printed line" \
	'serve s9 dashes && line=$(rec-plan -d mt.db "anything") && wait $stub &&
	 echo "$line" | grep -qF -- "-t '"'"'-d/etc/passwd --db=/nonexistent'"'"'" &&
	 ! echo "$line" | grep -qF -- "-d/x" &&
	 PATH="$REC_BIN:$PATH" sh -c "$line" > res && test -s res'
test_ok "... and in rec-chat's runner" \
	'serve s10 dashes words && echo anything | rec-chat -d mt.db > out && wait $stub &&
	 grep -q "\"failed\":false" out && grep -q "1. Enter Sandman by Metallica" out &&
	 ! grep -qF -- "-d/x" out'
test_ok 'rec-chat: the model plans and writes, and says so' \
	'serve s6 good words && echo "fast metal please" | rec-chat > out && wait $stub &&
	 grep -q "\"model\":\"creator '"'"'metallica'"'"' read as '"'"'Metallica'"'"'; model: used; model: wrote the reply\"" out &&
	 grep -q "\"reply\":\"Two Metallica classics for you.\\\\n" out &&
	 grep -q "1. Enter Sandman by Metallica: the riff everyone knows" out'
test_ok 'rec-respond: the model writes around the items it was given' \
	'printf "%s\n" "{\"id\":\"s05\",\"why\":\"bm25: metallica in artist\"}" "{\"id\":\"s06\"}" > two.jsonl &&
	 serve s7 words && rec-respond -r "metal" < two.jsonl > out && wait $stub &&
	 printf "%s\n" "Two Metallica classics for you." "1. Enter Sandman by Metallica: the riff everyone knows" \
	   "2. Nothing Else Matters by Metallica: the slow one" | diff -u - out &&
	 grep -q "1. Enter Sandman by Metallica (by the artist you named)" s7/request-1 &&
	 ! grep -q "Stairway" out'
test_ok 'rec-respond: a model answer that is not JSON leaves the template' \
	'serve s8 prose && rec-respond -r "metal" < two.jsonl > out 2> err && wait $stub &&
	 head -1 out | grep -q "^Here is what I found" && grep -q "the template answered" err'
test_ok 'rec-respond: nothing found needs no model' \
	'REC_LLM_URL=http://127.0.0.1:1/v1 rec-respond -r "metal" < /dev/null > out 2> err &&
	 grep -q "^I found nothing" out && ! test -s err'

done_testing
