#!/bin/sh
# rec-eval on a hand-made benchmark whose figures were worked out by
# hand; the session a command gets; bad benchmark lines.
. "$(dirname "$0")/lib.sh"

rec-import -d m.db items -i track_id -R track_name=title -R track_artist=artist \
	-l playlist -I playlist "$DATA/songs.csv" && rec-bm25 -d m.db --index || exit 1
export REC_DB=m.db
printf '%s\n' \
	'{"id":"c1","turns":[{"user":"some metallica","shown":["s06"],"liked":["s06"],"targets":["s06","s05"]},{"user":"more like that","targets":["s05","s06"]}],"same":{"s10":"s05"}}' \
	'{"id":"c2","turns":[{"user":"songs by daft punk","targets":["s01"]}]}' > b.jsonl
# A command that answers from the file $ANSWERS ("message|id id ..."
# lines), and keeps the sessions it was given
cat > answer <<'SH'
#!/bin/sh
cat > "got.$$"
cat "got.$$" >> sessions.log
msg=$(tail -1 "got.$$" | sed 's/.*"user":"\(.*\)"}$/\1/')
rm -f "got.$$"
for i in $(grep "^$msg|" "$ANSWERS" | cut -d"|" -f2); do printf '{"id":"%s"}\n' "$i"; done
SH
chmod +x answer
printf '%s\n' 'some metallica|s05 s06' 'more like that|s05 s06' 'songs by daft punk|s02 s01' > hand.txt
ANSWERS=$T/hand.txt; export ANSWERS
j() { sed 's/"ms":{[^}]*}//'; }

# By hand, with lists [s05 s06] (c1 turn 1), [s05] (c1 turn 2: s06 was
# shown before, so it leaves targets and list), [s02 s01] (c2, the more
# popular first; the target is s01):
# Hit@1 2/3; Recall@1 (1/2 + 1 + 0)/3; NDCG@5 (1 + 1 + 1/log2(3))/3;
# MRR@5 (1 + 1 + 1/2)/3; macro Hit@1 (1 + 0)/2; Entropy@1 of s05 s05
# s02; MaxFreq@1 2/3.
test_ok 'figures by hand, through a command' \
	'rec-eval -q -J -K 1,5 b.jsonl -- ./answer > out &&
	 grep -q "\"points\":3,\"conversations\":2,\"failed\":0,\"k\":\[1,5\]" out &&
	 grep -q "\"hit\":\[0.6666666666666666,1.0\]" out &&
	 grep -q "\"recall\":\[0.5,1.0\]" out &&
	 v=$(sed "s/.*\"micro\":{[^}]*\"ndcg\":\[0.6666666666666666,\([0-9.]*\)\].*/\1/" out) &&
	 awk -v v="$v" "BEGIN { d = v - (2 + log(2) / log(3)) / 3; exit !(d < 1e-12 && d > -1e-12) }" &&
	 grep -q "\"mrr\":\[0.6666666666666666,0.8333333333333334\]" out &&
	 grep -q "\"macro\":{\"hit\":\[0.5,1.0\]" out &&
	 grep -q "\"entropy\":\[0.9182958340544896," out &&
	 grep -q "\"maxfreq\":\[0.6666666666666666,0.6666666666666666\]" out'
test_ok 'rec'"'"'s own pipeline gives the same lists here' \
	'rec-eval -q -J -K 1,5 b.jsonl | j > a && rec-eval -q -J -K 1,5 b.jsonl -- ./answer | j | diff -u a -'
test_ok '-j 2 gives the same figures' \
	'rec-eval -q -J -j 2 -K 1,5 b.jsonl | j | diff -u a -'
test_ok 'the session a command gets: earlier turns with their items, then the message' \
	'rm -f sessions.log && rec-eval -q -n 1 b.jsonl -- ./answer > /dev/null &&
	 test "$(sed -n 1p sessions.log)" = "{\"turn\":1,\"user\":\"some metallica\"}" &&
	 test "$(sed -n 2p sessions.log)" = "{\"turn\":1,\"user\":\"some metallica\",\"reply\":\"\",\"items\":[{\"id\":\"s06\"}],\"liked\":[\"s06\"],\"disliked\":[]}" &&
	 test "$(sed -n 3p sessions.log)" = "{\"turn\":2,\"user\":\"more like that\"}"'
test_ok 'same: either id counts' \
	'echo "some metallica|s10" > s.txt && ANSWERS=$T/s.txt rec-eval -q -J -K 1 -n 1 b.jsonl -- ./answer | grep -q "\"hit\":\[0.5\]"'
test_ok 'Factual: ids the catalog lacks' \
	'printf "%s\n" "some metallica|nope s05" "more like that|nope" > f.txt &&
	 ANSWERS=$T/f.txt rec-eval -q -J -K 1,2 -n 1 b.jsonl -- ./answer | grep -q "\"factual\":\[0.0,0.25\]"'
test_ok 'the log: a line per point' \
	'rec-eval -q -L log b.jsonl > /dev/null && test "$(wc -l < log)" = 3 &&
	 sed -n 2p log | grep -q "^{\"conversation\":\"c1\",\"turn\":2,\"message\":\"more like that\",\"plan\":\"rec-sql .*\",\"intent\":{\"liked_items\":.*\"understood\":\"[^\"]*\"},\"top\":\[\"s05\"\],\"targets\":\[\"s05\"\],\"hit@10\":true,\"ms\":"'
test_ok 'the log says what rec understood: the intent of the point, as rec-plan --json gives it (k raised to the cut-offs)' \
	'rec-eval -q -L log b.jsonl > /dev/null && sed -n 1p log > l1 &&
	 grep -q "\"intent\":{.*\"liked_creators\":\[\"Metallica\"\]" l1 &&
	 rec-plan --json "some metallica" | grep -o "\"intent\":{.*\"popularity\":0," > want &&
	 grep -q -F "$(cat want)" l1 &&
	 rec-eval -q -L clog -n 1 b.jsonl -- ./answer > /dev/null && ! grep -q "\"intent\"" clog'
test_ok 'a message is read against what the turn before showed (a name in it, misspelt)' \
	'printf "%s\n" "{\"id\":\"c3\",\"turns\":[{\"user\":\"some songs\",\"shown\":[\"s05\",\"s01\"]},{\"user\":\"the metalica one was good, more of metalica\",\"targets\":[\"s06\"]}]}" > c.jsonl &&
	 rec-eval -q -J -K 1 c.jsonl | grep -q "\"hit\":\[1.0\]"'
test_ok 'a reply that showed nothing is what a "yes" takes up ("do you like Beyonce?")' \
	'printf "%s\n" "{\"id\":\"c5\",\"turns\":[{\"user\":\"hi\",\"assistant\":\"Hello! Do you like Beyonce?\"},{\"user\":\"yes please\",\"targets\":[\"s03\"]}]}" > o.jsonl &&
	 rec-eval -q -L olog o.jsonl > /dev/null && grep -q "\"top\":\[\"s0[34]\",\"s0[34]\"," olog &&
	 sed "s/Do you like Beyonce/Beyonce sings/" o.jsonl > o2.jsonl && rec-eval -q -L olog2 o2.jsonl > /dev/null &&
	 ! grep -q "\"top\":\[\"s0[34]\",\"s0[34]\"," olog2'
test_ok 'a failing command: counted, warned, scored as empty' \
	'rec-eval -J b.jsonl -- sh -c "exit 3" > out 2> err &&
	 grep -q "\"failed\":3" out && grep -q "\"hit\":\[0.0,0.0,0.0,0.0\]" out &&
	 grep -q "^rec-eval: c1, turn 1: the command failed with status 3$" err'
test_ok 'output that is not candidates fails the point' \
	'rec-eval -J b.jsonl -- echo nonsense > out 2> err && grep -q "\"failed\":3" out &&
	 grep -q "c2, turn 1: the command.s output:1: " err'
test_fail 'a bad line is named' 1 '^rec-eval: bad.jsonl:2: turn 1: "shown" is not a list of ids$' \
	'printf "%s\n" "{\"id\":\"a\",\"turns\":[{\"user\":\"x\",\"targets\":[\"s01\"]}]}" "{\"id\":\"b\",\"turns\":[{\"user\":\"x\",\"shown\":3}]}" > bad.jsonl && rec-eval bad.jsonl'
test_fail 'not JSON' 1 '^rec-eval: bad2.jsonl:1: ' 'echo "{nope" > bad2.jsonl && rec-eval bad2.jsonl'
test_fail 'a turn without words' 1 'bad3.jsonl:1: turn 1 has no "user" text' \
	'echo "{\"id\":\"a\",\"turns\":[{\"targets\":[\"s01\"]}]}" > bad3.jsonl && rec-eval bad3.jsonl'
test_fail 'nothing to score' 1 'no turn has targets to score' \
	'echo "{\"id\":\"a\",\"turns\":[{\"user\":\"x\"}]}" > none.jsonl && rec-eval none.jsonl'
if command -v script > /dev/null; then
	test_ok 'on a terminal: progress' \
		'script -qec "rec-eval b.jsonl > /dev/null" /dev/null < /dev/null | tr "\r" "\n" > out &&
		 grep -q "^rec-eval: 3 of 3 points" out'
else
	skip 'script(1) is missing: no terminal to test progress on'
fi
test_fail 'a bad cut-off list' 2 '-K: cut-offs rising from 1 to 1000' 'rec-eval -K 5,1 b.jsonl'
test_fail 'a command without --' 2 "unexpected argument 'echo' \(a command comes after --\)" 'rec-eval b.jsonl echo'

# The simulated user.  u1's target tt (rock, 1995, by Zed Band) ranks
# below ten rock songs of the 1990s, each played by two people (tt by
# one): "something rock" shows five of them, "from the 1990s" keeps the
# rock and shows the other five, "like Quiet Evening" (u1's history) is
# a new subject, which keeps the era, and rock only as a preference;
# the only song of the 1990s left is tt: turn 3.  u2's target x1 has no tag, year
# or creator: the one hint is its history, and it is never found (6
# turns).  So 1 of 2, (3 + 6) / 2.
{ echo "id,title,artist,genre,year"
  for i in 1 2 3 4 5 6 7 8 9; do echo "r0$i,Rock Song 0$i,Band 0$i,rock,199$i"; done
  echo "r10,Rock Song 10,Band 10,rock,1990"
  echo "h1,Quiet Evening,Soft Duo,folk,2005"
  echo "h2,Morning Light,Soft Duo,folk,2006"
  echo "tt,Thunder Road Again,Zed Band,rock,1995"
  echo "x1,Plain Thing,,,"; } > sim.csv
{ printf 'user,item,time\nu1,h1,1\nu1,tt,2\nu2,h2,1\nu2,x1,2\n'
  for i in 01 02 03 04 05 06 07 08 09 10; do echo "w${i}a,r$i,1"; echo "w${i}b,r$i,1"; done
} > simplays.csv
rec-import -d sim.db items -r year=date -t year=integer sim.csv &&
	rec-import -d sim.db interactions -u user -i item -T time simplays.csv &&
	rec-bm25 -d sim.db --index || exit 1
test_ok '--simulate: found at turn 3 once the era holds, the other never' \
	'rec-eval -q -J -d sim.db -s 2 -L sl > out &&
	 test "$(cat out)" = "{\"simulated\":2,\"hit5\":0.5000,\"turns\":4.5000,\"found_at\":[0,0,1,0,0]}" &&
	 test "$(sed "s/.*\"message\":\"\([^\"]*\)\".*\"found\":\([a-z]*\)}/\1 \2/" sl | tr "\n" /)" = "something rock false/from the 1990s false/like Quiet Evening true/like Morning Light false/"'
# Two releases of one song: u1's target s2 is the less popular, and rec
# shows a song once (s1, the other release): that counts, at turn 1
{ echo "id,title,artist,genre,year,popularity"; echo "s1,Same Song,A Band,rock,2001,90"
  echo "s2,Same Song,A Band,rock,2001,10"; echo "o1,Other Song,B Band,rock,2002,50"
  echo "h1,Quiet Evening,Soft Duo,folk,2005,40"; } > sim2.csv
printf 'user,item,time\nu1,h1,1\nu1,s2,2\n' > plays2.csv
rec-import -d sim2.db items -r year=date -t year=integer -r popularity=popularity sim2.csv &&
	rec-import -d sim2.db interactions -u user -i item -T time plays2.csv &&
	rec-bm25 -d sim2.db --index || exit 1
test_ok '--simulate: the same song on another release is the target' \
	'rec-eval -q -J -d sim2.db -s 1 > out &&
	 test "$(cat out)" = "{\"simulated\":1,\"hit5\":1.0000,\"turns\":1.0000,\"found_at\":[1,0,0,0,0]}"'
test_fail '--simulate on a catalog without interactions' 1 'no user with two interactions or more to simulate' \
	'rec-import -d bare.db items sim.csv && rec-eval -d bare.db -s 5'
test_fail '--simulate with a benchmark too' 2 '--simulate takes no benchmark' 'rec-eval -d sim.db -s 2 b.jsonl'

done_testing
