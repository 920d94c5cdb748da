#!/bin/sh
# The model's tools mode (TalkPlay-Tools, InteRecAgent): the request the
# server gets (history, schema, tool definitions the stub checks), and
# replayed plans: good, repaired, hostile, malformed, slow, failing; the
# critic's re-plan, demonstrations, the cost; the intent mode's history
# and its unknown creator.
. "$(dirname "$0")/lib.sh"

STUB=${REC_TESTBIN:-$(dirname "$REC_BIN")/tests}/stub-llm
rec-import -d m.db items -i track_id -R track_name=title -R track_artist=artist \
	-X year='release_date:^([0-9]{4})' -t year=integer -r year=date \
	-l playlist -I playlist "$DATA/songs.csv" &&
	rec-train -d m.db itemknn > /dev/null && rec-bm25 -d m.db --index || exit 1
export REC_DB=m.db REC_LLM_MODEL=test-model REC_LLM_MODE=tools

# serve DIR REPLY...: starts the stub, sets REC_LLM_URL
serve() {
	d=$1; shift
	rm -rf "$d"; mkdir -p "$d"
	"$STUB" "$d/port" "$d" "$@" 2> "$d/stub.err" &
	stub=$!
	i=0; while [ ! -s "$d/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	REC_LLM_URL=http://127.0.0.1:$(cat "$d/port")/v1; export REC_LLM_URL
}
# body FILE: the JSON body of a saved request
body() { sed '1,/^\r$/d' "$1"; }

cat > good.tools <<'EOF'
[{"name":"rec_bm25","arguments":{"query":"rock","field":["genre"],"limit":50,"as":"rock"}},
 {"name":"rec_cf","arguments":{"like":["s05"],"limit":100}},
 {"name":"rec_sql","arguments":{"where":"year >= 1990"}},
 {"name":"rec_rank","arguments":{"fuse":"rrf","weight":{"rock":2},"limit":3}}]
EOF
printf '%s\n' '{"intro":"Rock for you.","notes":{}}' > words

# a first turn without a model, for the history
test_ok 'a session to go on from (no model)' \
	'env -u REC_LLM_URL sh -c "echo \"songs by metallica\" | rec-chat -S sess > /dev/null" &&
	 grep -q "Enter Sandman" sess'
test_ok 'the request holds the history, the state, the schema and the tools (checked by the server)' \
	'serve s1 good.tools && rec-plan -S sess --json "more like the second one" > out && wait $stub &&
	 body s1/request-1 > req &&
	 grep -q "\"tools\":\[{\"type\":\"function\",\"function\":{\"name\":\"rec_sql\"" req &&
	 grep -q "\"name\":\"rec_bm25\"" req && grep -q "\"name\":\"rec_cf\"" req &&
	 grep -q "\"name\":\"rec_rank\"" req && grep -q "\"tool_choice\":\"auto\"" req &&
	 grep -q "Person: songs by metallica" req &&
	 grep -q "The last list shown: 1. \[s05\] Enter Sandman by Metallica; 2. \[s06\] Nothing Else Matters by Metallica" req &&
	 grep -q "The request now: more like the second one" req &&
	 grep -q "The catalog: 9 items, 4 users" req &&
	 grep -q "genre (text, category)" req && grep -q "Common values of genre (3 in all" req &&
	 grep -q "Text fields of rec_bm25: all, title, artist" req'
test_ok "the tool definitions say what each tool's --help says" \
	'grep -qF "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":1000,\"description\":\"write at most N records (default 100 from the catalog)\"}" req &&
	 rec-bm25 --help | grep -q "write at most N records (default 100 from the catalog)" &&
	 grep -qF "\"fuse\":{\"type\":\"string\",\"enum\":[\"rrf\",\"sum\",\"max\"]" req &&
	 ! grep -q "\"db\":\|\"msgpack\":\|\"user\":{" req'
test_ok 'a good plan: the calls in order, fused by rec-rank, with what the conversation rules out' \
	'grep -q "\"source\":\"model\"" out && grep -q "\"mode\":\"tools\"" out &&
	 grep -qF "\"shell\":\"{ rec-bm25 -f genre -k 50 -s rock -- rock < /dev/null; rec-cf -e -l s05 -k 100 -s cf2 < /dev/null; } | rec-sql -w '"'"'year >= 1990'"'"' | rec-rank -F rrf -W rock=2 -k 3 -n s05,s06 -U title,creator -D artist -p 2\"" out'
test_ok 'rec-plan -T prints the definitions it sends' \
	'rec-plan -T > defs && grep -qF "$(sed "s/.*\"tools\":\(\[.*\]\),\"tool_choice\".*/\1/" req)" defs'

cat > badcol.tools <<'EOF'
[{"name":"rec_bm25","arguments":{"query":"rock","field":["genra"]}},{"name":"rec_sql","arguments":{"where":"tempo_bpm > 100"}},{"name":"rec_rank","arguments":{"limit":3}}]
EOF
cat > fixed.tools <<'EOF'
[{"name":"rec_bm25","arguments":{"query":"rock","field":["genre"]}},{"name":"rec_sql","arguments":{"where":"tempo > 100"}},{"name":"rec_rank","arguments":{"limit":3}}]
EOF
test_ok 'an unknown column goes back once with what is wrong, and the repair is used' \
	'serve s2 badcol.tools fixed.tools && rec-plan --json "fast rock" > out && wait $stub &&
	 body s2/request-2 > req &&
	 grep -qF "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"error: no text field '"'"'genra'"'"' (did you mean '"'"'genre'"'"'?)" req &&
	 grep -q "no such column" req && grep -q "{\"role\":\"tool\",\"tool_call_id\":\"call_3\",\"content\":\"accepted\"}" req &&
	 grep -q "Call the tools again" req &&
	 grep -qF "\"shell\":\"rec-bm25 -f genre -s bm251 -- rock < /dev/null | rec-sql -w '"'"'tempo > 100'"'"' | rec-rank -k 3" out &&
	 grep -q "\"source\":\"model\"" out'

cat > evil.tools <<'EOF'
[{"name":"rec_bm25","arguments":{"query":"rock","field":["genre; touch pwned"]}},
 {"name":"rec_bm25","arguments":{"query":"rock","as":"x$(touch pwned)"}},
 {"name":"rec_sql","arguments":{"where":"1); DELETE FROM items; --"}},
 {"name":"rec_sql","arguments":{"where":"1","all":true,"order":"(SELECT writefile('pwned','x'))"}},
 {"name":"rec_cf","arguments":{"like":["s05`touch pwned`"]}},
 {"name":"sh","arguments":{"cmd":"touch pwned"}}]
EOF
test_ok 'shell metacharacters and SQL that writes: refused, none of it run, the rules answer' \
	'cp m.db m0.db && serve s3 evil.tools evil.tools &&
	 echo "songs by metallica" | rec-chat -S s3.jsonl > out 2> err && wait $stub &&
	 ! test -e pwned && cmp m.db m0.db &&
	 grep -q "no text field '"'"'genre; touch pwned'"'"'" out &&
	 grep -q "as must be a name of 1 to 32" out &&
	 grep -q "refused: one condition, not several statements" out &&
	 grep -q "no item '"'"'s05\`touch pwned\`'"'"' in the catalog" out &&
	 grep -q "sh: no tool '"'"'sh'"'"'" out && grep -q "fell back to the rules" out &&
	 sed "s/.*\"shell\":\"\([^\"]*\)\".*/\1/" s3.jsonl > shells && ! grep -q "pwned\|DELETE" shells &&
	 grep -q "^rec-sql -a -s creator" shells && grep -q "1. Enter Sandman by Metallica" out &&
	 test "$(wc -l < err)" -eq 1 && grep -q "the rules answered" err'
# a hostile value where free words go is searched for, never run
cat > words.tools <<'EOF'
[{"name":"rec_bm25","arguments":{"query":"$(touch pwned) `touch pwned` ; touch pwned","field":["genre","title"]}}]
EOF
test_ok 'hostile free words are an operand after --, and the plan runs without a shell' \
	'serve s4 words.tools words && echo "anything" | rec-chat -S s4.jsonl > out && wait $stub &&
	 ! test -e pwned && grep -qF -- "-- '"'"'\$(touch pwned)" s4.jsonl &&
	 grep -q "\"failed\":false" out'

cat > half.tools <<'EOF'
[{"name":"rec_bm25","arguments":{"query":"metallica","field":["artist"]}},{"name":"rec_sql","arguments":{"where":"loudness > 3"}}]
EOF
test_ok 'what still fails after the repair is dropped, and the reply says so' \
	'serve s5 half.tools half.tools words && echo "metallica please" | rec-chat > out && wait $stub &&
	 grep -q "1. Enter Sandman by Metallica" out &&
	 grep -q "(I left out what did not check out: rec_sql: the SQL does not work: no such column" out'

printf '%s' '{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"rec_bm25","arguments":"{\"query\": \"rock\""}}]}}]}' > mal.raw
printf '%s' '{"choices": [not json' > mal2.raw
test_ok 'malformed JSON (arguments, then the reply): the rules, one line on stderr' \
	'serve s6 mal.raw mal2.raw && rec-plan "songs by metallica" > out 2> err && wait $stub &&
	 grep -q "^rec-sql -a -s creator" out && test "$(wc -l < err)" -eq 1 &&
	 grep -q "the arguments are not JSON" err && grep -q "the reply is not JSON" err &&
	 grep -q "fell back to the rules" err'
cp good.tools g.slow
test_ok 'a time-out: the rules within the time-out, one line on stderr, in the trace' \
	'serve s7 g.slow && t0=$(date +%s) &&
	 REC_LLM_TIMEOUT=0.5 REC_TRACE=$T/tr7 rec-plan "songs by metallica" > out 2> err &&
	 test $(($(date +%s) - t0)) -le 2 && wait $stub &&
	 grep -q "^rec-sql -a -s creator" out && test "$(wc -l < err)" -eq 1 &&
	 grep -q "Timeout was reached" err &&
	 grep -q "{\"tool\":\"model\",\"call\":\"plan\",.*\"status\":1,\"error\":.*Timeout" tr7'
touch e.500
test_ok 'a 500: tried again once, then the rules' \
	'serve s8 e.500 e.500 && REC_LLM_RETRY_WAIT=0.1 rec-plan "songs by metallica" > out 2> err && wait $stub &&
	 test -f s8/request-2 && grep -q "HTTP 500" err && grep -q "^rec-sql -a -s creator" out'
test_ok 'REC_LLM_RETRIES=0: one try' \
	'serve s9 e.500 && REC_LLM_RETRIES=0 rec-plan "songs by metallica" > out 2> err && wait $stub &&
	 ! test -f s9/request-2 && grep -q "HTTP 500" err'
test_ok 'rec-chat: a failing endpoint is not asked again in the turn, and the rules answer' \
	'serve s10 e.500 && echo "songs by metallica" | REC_LLM_RETRIES=0 rec-chat > out 2> err && wait $stub &&
	 grep -q "1. Enter Sandman by Metallica" out && grep -q "not asked again" out &&
	 test "$(wc -l < err)" -eq 1'

test_ok 'each model call: its milliseconds and tokens in REC_TRACE' \
	'serve s11 good.tools words && echo "rock like enter sandman" | REC_TRACE=$T/tr11 rec-chat > out && wait $stub &&
	 grep -q "{\"tool\":\"model\",\"call\":\"plan\",\"pid\":[0-9]*,\"ms\":[0-9.]*,\"prompt_tokens\":[1-9][0-9]*,\"completion_tokens\":[1-9][0-9]*,\"status\":0}" tr11 &&
	 grep -q "{\"tool\":\"model\",\"call\":\"respond\"," tr11'

cat > empty.tools <<'EOF'
[{"name":"rec_bm25","arguments":{"query":"zzzqqq","field":["title"],"as":"nothing"}},{"name":"rec_rank","arguments":{"limit":5}}]
EOF
test_ok 'the critic: an empty result goes back to the model once with the reasons, and the re-plan is kept' \
	'serve s12 empty.tools good.tools words && echo "rock like enter sandman" | rec-chat > out && wait $stub &&
	 body s12/request-2 > req &&
	 grep -q "The plan ran, and a check found problems: rec-bm25 (-f title -s nothing -- zzzqqq) found nothing; only 0 items came out, 3 wanted" req &&
	 grep -q "critic: rec-bm25" out && grep -q "the re-plan was kept" out &&
	 grep -q "1. Nothing Else Matters by Metallica" out && ! test -f s12/request-4'
cat > one.tools <<'EOF'
[{"name":"rec_bm25","arguments":{"query":"metallica","field":["artist"]}},{"name":"rec_rank","arguments":{"limit":5}}]
EOF
test_ok "the critic: a re-plan no better is not kept" \
	'serve s13 empty.tools empty.tools && echo "rock please" | rec-chat > out && wait $stub &&
	 grep -q "the first plan was kept" out && ! test -f s13/request-4'

rm -f demos.jsonl
test_ok 'rec-chat -D: a result the person likes is kept as a demonstration' \
	'serve s14 good.tools words good.tools words &&
	 printf "%s\n" "rock like enter sandman" "i love the first one" | rec-chat -D demos.jsonl > out && wait $stub &&
	 test "$(wc -l < demos.jsonl)" -eq 1 &&
	 grep -q "^{\"request\":\"rock like enter sandman\",\"plan\":\[{\"name\":\"rec_bm25\"" demos.jsonl'
printf '%s\n' '{"request":"jazz for a rainy day","plan":[{"name":"rec_bm25","arguments":{"query":"jazz"}}]}' >> demos.jsonl
test_ok '... and the most similar go into the prompt (BM25 over requests)' \
	'serve s15 good.tools && rec-plan -D demos.jsonl "some hard rock like sandman" > /dev/null && wait $stub &&
	 body s15/request-1 > req && grep -q "Examples of requests and the plans that served them" req &&
	 grep -q "rock like enter sandman" req && ! grep -q "rainy day" req'

# the intent mode: today's path, with the history and one unknown name
printf '%s\n' '{"liked_creators":["Brian Eno","Metallica"],"k":3}' > eno
test_ok 'the intent mode: an unknown creator costs that name only, with a note' \
	'serve s16 eno && rec-plan -M intent --json "ambient like brian eno and metallica" > out 2> err && wait $stub &&
	 grep -q "\"source\":\"model\"" out && grep -q "\"liked_creators\":\[\"Metallica\"\]" out &&
	 grep -q "\"notes\":\"Brian Eno is not in the catalog, so I left that name out\"" out &&
	 ! test -f s16/request-2 && ! test -s err'
test_ok '... said in rec-chat'"'"'s reply' \
	'serve s17 eno words && echo "like brian eno and metallica" | REC_LLM_MODE=intent rec-chat > out && wait $stub &&
	 grep -q "(Brian Eno is not in the catalog, so I left that name out.)" out'
test_ok 'the intent mode sees earlier turns too' \
	'serve s18 eno && rec-plan -M intent -S sess "more like the second one" > /dev/null && wait $stub &&
	 body s18/request-1 > req && grep -q "Person: songs by metallica" req &&
	 grep -q "2. \[s06\] Nothing Else Matters by Metallica" req'

test_fail 'a mode that is neither: a usage error' 2 "rec-plan: -M: not a model mode" \
	'rec-plan -M wild "songs"'
test_fail 'REC_LLM_MODE that is neither: a usage error' 2 "REC_LLM_MODE: not a model mode" \
	'REC_LLM_MODE=wild rec-chat < /dev/null'
test_ok 'no model: -M tools changes nothing' \
	'env -u REC_LLM_URL rec-plan -M tools "rock like enter sandman" > a &&
	 env -u REC_LLM_URL -u REC_LLM_MODE rec-plan "rock like enter sandman" > b && cmp a b'

# rec-eval through the model path: two points, a replayed plan each
printf '%s\n' '{"id":"c1","turns":[{"user":"rock like enter sandman","targets":["s06"]}]}' \
	'{"id":"c2","turns":[{"user":"more rock","targets":["s07"]}]}' > b.jsonl
cat > eval.tools <<'EOF'
[{"name":"rec_bm25","arguments":{"query":"rock pop","field":["genre"]}},{"name":"rec_rank","arguments":{"limit":5}}]
EOF
test_ok 'rec-eval through the tools mode: the figures, and the cost per point and in all' \
	'serve s19 eval.tools eval.tools && rec-eval -q -J -K 1,5 -L log b.jsonl > out && wait $stub &&
	 grep -q "\"points\":2,\"conversations\":2,\"failed\":0" out &&
	 grep -q "\"model\":{\"calls\":2,\"failed\":0,\"prompt_tokens\":[1-9][0-9]*,\"completion_tokens\":[1-9][0-9]*,\"ms\":[0-9.]*,\"ms_per_point\":[0-9.]*}}$" out &&
	 test "$(grep -c "\"model\":{\"calls\":1,\"failed\":0,\"prompt_tokens\":[1-9]" log)" -eq 2 &&
	 grep -q "\"plan\":\"rec-bm25 -f genre -s bm251 -- .rock pop. < /dev/null | rec-rank -k 5 -F rrf" log'
test_ok 'rec-eval without a model: no model figures' \
	'env -u REC_LLM_URL rec-eval -q -J -K 1,5 -L log0 b.jsonl > out0 && ! grep -q "\"model\"" out0 log0'

done_testing
