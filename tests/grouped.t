#!/bin/sh
# Grouped streams (rec-candidates(5)): rec-rank and rec-cat per group,
# bad groups refused with their place, rec-cf --users and rec-batch -g
# giving each user the list the per-user pipeline gives (every model, a
# generated catalog of 150 users; MOVIES too when REC_DATA_DIR is set).
. "$(dirname "$0")/lib.sh"

# three groups of three, scores out of order within each
cat > g.jsonl <<'EOF'
{"id":"a1","score":1,"user":"u1"}
{"id":"a2","score":3,"user":"u1"}
{"id":"a3","score":2,"user":"u1"}
{"id":"b1","score":5,"user":"u2"}
{"id":"b2","score":4,"user":"u2"}
{"id":"b3","score":6,"user":"u2"}
{"id":"c1","score":0.5,"user":"u0"}
{"id":"c2","score":0.7,"user":"u0"}
{"id":"a2","score":9,"user":"u0"}
EOF
ids() { sed 's/.*"id":"\([^"]*\)".*"user":"\([^"]*\)".*/\2 \1/' "$@" | tr '\n' ' '; }

test_ok 'rec-rank -g: -k per group, groups in their order' \
	'rec-rank -g user -k 2 < g.jsonl > out &&
	 test "$(ids out)" = "u1 a2 u1 a3 u2 b3 u2 b1 u0 a2 u0 c2 "'
test_ok 'rec-rank -g keeps the group key on every record' \
	'rec-rank -g user < g.jsonl | grep -c "\"user\":\"u[012]\"}$" | grep -qx 9'
test_ok 'rec-rank without -g: the same stream is one list, as before' \
	'rec-rank -k 3 < g.jsonl > out &&
	 test "$(sed "s/.*\"id\":\"\([^\"]*\)\".*/\1/" out | tr "\n" " ")" = "a2 b3 b1 "'
test_ok 'rec-rank -g -F rrf fuses within each group only' \
	'rec-rank -g user -F rrf -k 1 < g.jsonl > out && test "$(ids out)" = "u1 a1 u2 b1 u0 c1 "'
test_ok 'rec-rank -g -w filters each group' \
	'rec-rank -g user -w ".score > 2" < g.jsonl > out && test "$(ids out)" = "u1 a2 u2 b3 u2 b1 u2 b2 u0 a2 "'
test_ok 'rec-rank -g over msgpack gives the same' \
	'rec-cat -M < g.jsonl | rec-rank -g user -k 2 > out2 &&
	 rec-rank -g user -k 2 < g.jsonl | cmp - out2'
test_ok 'rec-cat -g -k: the first N of each group' \
	'rec-cat -g user -k 1 < g.jsonl > out && test "$(ids out)" = "u1 a1 u2 b1 u0 c1 "'
test_ok 'rec-cat -g --check counts the groups' \
	'rec-cat -g user -c < g.jsonl | grep -qx "stdin: 9 records in 3 groups (jsonl)"'
test_ok 'an empty stream is no groups, no records' \
	'rec-rank -g user < /dev/null > out && ! test -s out'

# bad groups: one line, the place, exit 1
printf '{"id":"1","user":"a"}\n{"id":"2","user":"b"}\n\n{"id":"3","user":"a"}\n' > split.jsonl
test_fail 'a group seen again after another is an error naming the line' 1 \
	'^rec-rank: stdin:4: group "a" again after another group' 'rec-rank -g user < split.jsonl'
test_fail 'rec-cat -g refuses it too' 1 '^rec-cat: stdin:4: group "a" again' \
	'rec-cat -g user < split.jsonl'
test_fail 'in msgpack, the byte offset of the record' 1 \
	'^rec-rank: stdin: byte 26: group "a" again' \
	'rec-cat -M < split.jsonl | rec-rank -g user'
test_fail 'a record without the group key' 1 '^rec-rank: stdin:2: record has no group key "user"$' \
	'printf "{\"id\":\"1\",\"user\":\"a\"}\n{\"id\":\"2\"}\n" | rec-rank -g user'
test_fail 'a group key that is not a string' 1 '^rec-rank: stdin:1: group key "user" is not a string$' \
	'printf "{\"id\":\"1\",\"user\":7}\n" | rec-rank -g user'
test_fail '-u @ needs --group' 2 '^rec-rank: -u @ and -x @ name a group' 'rec-rank -u @ < g.jsonl'
test_fail 'rec-cf: --users with --user is a usage error' 2 '^rec-cf: give --like, --user or --users' \
	'rec-cf -d x.db -u a -U all'

# a catalog of 150 users and 300 items by 40 artists, plays skewed to
# the first items, so lists overlap and scores tie
awk 'BEGIN { print "id,title,artist"; for (i = 1; i <= 300; i++)
	printf "i%d,Item %d,Artist %d\n", i, i, i % 40 }' > items.csv
awk 'BEGIN { srand(7); print "user,item"; for (u = 1; u <= 150; u++)
	for (k = 0; k < 5 + u % 17; k++) printf "u%d,i%d\n", u, int(300 * rand() ^ 2) + 1 }' > plays.csv
rec-import -d f.db items -i id -r artist=creator items.csv 2> /dev/null &&
	rec-import -d f.db interactions -u user -i item plays.csv 2> /dev/null &&
	rec-train -d f.db itemknn -K 20 > /dev/null && rec-train -d f.db ease -K 20 > /dev/null &&
	rec-train -d f.db als -f 8 -i 3 > /dev/null && rec-train -d f.db bpr -f 8 -i 5 > /dev/null || exit 1
export REC_DB=f.db
rec-batch -l > users.txt
test_ok 'the fixture has 150 users' 'test "$(wc -l < users.txt)" = 150'

# per-user records with the group key added at the end, as --users
# writes them
per_user() {
	while IFS= read -r u; do
		rec-cf "$@" -u "$u" < /dev/null | sed "s/}\$/,\"user\":\"$u\"}/" || return 1
	done < "${USERS:-users.txt}"
}
for m in itemknn ease als bpr; do
	test_ok "rec-cf --users all = rec-cf --user for each user ($m, 150 users)" \
		"rec-cf -m $m -k 30 -U all > g-$m.out && per_user -m $m -k 30 > p.out &&
		 test \$(wc -l < g-$m.out) -gt 1500 && cmp g-$m.out p.out"
done
# the item-item models from their files beside the catalog: used while
# the catalog is the one they were written for (ease's file in
# itemknn's place gives ease's lists), else read from the catalog
test_ok 'rec-train writes the files of the item-item models beside the catalog' \
	'test -s f.db.cf.itemknn && test -s f.db.cf.ease && ! test -e f.db.cf.als'
test_ok 'rec-cf --users: the model file is used while it is the catalog'"'"'s' \
	'cp f.db.cf.itemknn knn.keep && cp f.db.cf.ease f.db.cf.itemknn &&
	 rec-cf -m itemknn -k 30 -U all | cmp - g-ease.out && mv knn.keep f.db.cf.itemknn'
test_ok 'rec-cf --users: a stale, short or bad model file is read from the catalog' \
	'cp f.db f2.db && cp f.db.cf.ease f2.db.cf.itemknn &&
	 rec-cf -d f2.db -m itemknn -k 30 -U all | cmp - g-itemknn.out &&
	 head -c 5000 f.db.cf.itemknn > f2.db.cf.itemknn &&
	 rec-cf -d f2.db -m itemknn -k 30 -U all | cmp - g-itemknn.out &&
	 printf "RECKNN1\\nnot a model" > f2.db.cf.itemknn &&
	 rec-cf -d f2.db -m itemknn -k 30 -U all | cmp - g-itemknn.out &&
	 rm f2.db.cf.itemknn && rec-cf -d f2.db -m itemknn -k 30 -U all | cmp - g-itemknn.out'
test_ok 'a stale model file is named once, with what writes it again; after rec-cf --index, nothing' \
	'cp f.db.cf.itemknn f2.db.cf.itemknn && rec-cf -d f2.db -k 3 -U all > /dev/null 2> err &&
	 test "$(wc -l < err)" = 1 &&
	 grep -q "^rec-cf: f2.db.cf.itemknn was not written for the catalog as it is now: .*rec-cf --index" err &&
	 rec-cf -d f2.db --index && rec-cf -d f2.db -k 3 -U all > /dev/null 2> err && ! test -s err'
# blocks of 7 users: item-item users shared between threads unevenly
for m in als itemknn; do
	test_ok "rec-cf --users: blocks of 7 users give the same ($m)" \
		"rec-cf -m $m -k 30 -B 7 -U users.txt | cmp - g-$m.out"
done
test_ok 'rec-cf --users -: the users on stdin, in their order, one group each' \
	'printf "u9\nu10\n" | rec-cf -k 2 -U - -g who | sed "s/.*\"who\":\"\([^\"]*\)\".*/\1/" | tr "\n" " " |
	 grep -qx "u9 u9 u10 u10 "'
# a sorted list of a quarter of the users or more: their items in one
# scan, the lists the same
{ awk 'NR % 3 == 1' users.txt; echo nobody; echo zzz; } | LC_ALL=C sort > sel.txt
test_ok 'rec-cf --users: a sorted list of many users = --user for each, users without history warned of' \
	'rec-cf -k 30 -U sel.txt 2> err > scan.out && grep -v "^nobody$\|^zzz$" sel.txt > sel2.txt &&
	 USERS=sel2.txt per_user -k 30 > p.out && test "$(wc -l < p.out)" -gt 500 && cmp scan.out p.out &&
	 test "$(grep -c "no history" err)" = 2 && grep -q "user .zzz. has no history" err'
test_ok 'rec-cf --users: a user without history is a warning, no group' \
	'printf "u1\nnobody\n" | rec-cf -k 1 -U - 2> err > out && test "$(wc -l < out)" = 1 &&
	 grep -q "user .nobody. has no history" err'

# cut lists: the first N of each list and its last, which says the best
# score left out; rec-rank ranks a cut list only when it can be sure of
# the whole list's answer
rec-cf -k 200 -U all > w.out
cut_by_hand() {	# N [FILE]: the cut of FILE (w.out), made with awk
	awk -v N="$1" '
	function flush(   i, sc) {
		if (n > N + 1) {
			for (i = 1; i <= N; i++) print l[i]
			sc = l[N + 1]; sub(/^.*"score":/, "", sc); sub(/,.*$/, "", sc)
			sub(/,"user":/, ",\"cut\":" sc ",\"user\":", l[n]); print l[n]
		} else
			for (i = 1; i <= n; i++) print l[i]
		n = 0
	}
	{ u = $0; sub(/^.*"user":"/, "", u); sub(/".*$/, "", u)
	  if (n && u != cur) flush(); cur = u; l[++n] = $0 }
	END { flush() }' "${2:-w.out}"
}
RANK='-g user -u @ -x @ -N 0.2 -D creator -p 2'
test_ok 'rec-cf --cut: the first N and the last of each list, marked with the best score left out' \
	'rec-cf -k 200 -C 6 -U all > c6.out && cut_by_hand 6 | cmp - c6.out && grep -q "\"cut\":" c6.out'
test_ok 'rec-rank -g: a cut list is ranked as the whole list, or named in --redo' \
	'rec-rank $RANK -k 3 -r redo.txt < c6.out > cr.out && test -s redo.txt && test -s cr.out &&
	 test "$(wc -l < redo.txt)" -lt 150 && rec-rank $RANK -k 3 < w.out > wr.out &&
	 sed "s/.*/\"user\":\"&\"}/" redo.txt > redo.pat && grep -v -F -f redo.pat wr.out | cmp - cr.out &&
	 ! grep -q "\"cut\"" cr.out'
test_fail 'rec-rank -g: a cut list it cannot be sure of, without --redo' 1 \
	"^rec-rank: group 'u[0-9]*': its list was cut too short to rank for sure" \
	'rec-rank $RANK -k 3 < c6.out > /dev/null'
test_ok 'rec-rank -g -F rrf: a cut list is never sure, a whole one is' \
	'rec-rank -g user -F rrf -k 3 -r rrf.txt < c6.out > /dev/null &&
	 test "$(wc -l < rrf.txt)" = "$(grep -c "\"cut\":" c6.out)"'
# --novelty: the list scored again, the same alone and grouped; a cut
# list is cut after it
for m in itemknn als; do
	test_ok "rec-cf --novelty: --users all = --user for each user ($m)" \
		"rec-cf -m $m -N 0.3 -k 30 -U all > n-$m.out && per_user -m $m -N 0.3 -k 30 > p.out &&
		 cmp n-$m.out p.out && ! cmp -s n-$m.out g-$m.out"
done
test_ok 'rec-cf --novelty --cut: the first N of the list scored again, and its last' \
	'rec-cf -N 0.3 -k 200 -U all > wn.out && rec-cf -N 0.3 -k 200 -C 6 -U all > cn.out &&
	 cut_by_hand 6 wn.out | cmp - cn.out && grep -q "\"cut\":" cn.out'
test_ok 'rec-cf --novelty: a score is within 0..1, the less known say so' \
	'awk -F "\"score\":" "{ split(\$2, a, \",\"); if (a[1] < 0 || a[1] > 1) exit 1 }" wn.out &&
	 grep -q "often with it; less known\"" wn.out'
test_fail 'rec-cf --novelty without a popularity column' 1 \
	'^rec-cf: --novelty: the catalog has no popularity column$' \
	'cp f.db np.db && sqlite3 np.db "UPDATE columns SET role = '"'number'"' WHERE role = '"'popularity'"'" &&
	 rec-cf -d np.db -N 0.2 -u u1 < /dev/null'
# profiles: past 1000 items read one by one, when they are a tenth of
# the catalog or more, rec-rank reads every item's in one scan; the
# lists are the ones of a rec-rank per user, which reads fewer
awk 'BEGIN { srand(3); print "id,title,artist,genre"; for (i = 1; i <= 1500; i++)
	printf "t%d,Track %d,Band %d,g%d\n", i, i, i % 90, int(12 * rand()) }' > big.csv
awk 'BEGIN { srand(5); print "user,item"; for (u = 1; u <= 200; u++)
	for (k = 0; k < 25; k++) printf "v%d,t%d\n", u, int(1500 * rand() ^ 1.5) + 1 }' > bigplays.csv
rec-import -d big.db items -i id -r artist=creator -r genre=tags big.csv 2> /dev/null &&
	rec-import -d big.db interactions -u user -i item bigplays.csv 2> /dev/null &&
	rec-train -d big.db itemknn -K 30 > /dev/null || exit 1
test_ok 'rec-rank -g -u @: profiles read in one scan give the lists a user alone gets' \
	'rec-cf -d big.db -k 100 -U all > big.out &&
	 test "$(sed "s/.*\"id\":\"\([^\"]*\)\".*/\1/" big.out | sort -u | wc -l)" -gt 1000 &&
	 rec-rank -d big.db -g user -u @ -x @ -D creator -p 2 -k 10 < big.out > bg.out &&
	 for u in $(sed "s/.*\"user\":\"\([^\"]*\)\".*/\1/" big.out | uniq); do
		grep "\"user\":\"$u\"" big.out | rec-rank -d big.db -u $u -x $u -D creator -p 2 -k 10 || exit 1
	 done > bp.out && test "$(wc -l < bg.out)" -ge 1900 && cmp bg.out bp.out'
test_fail 'rec-rank --redo needs --group' 2 '^rec-rank: --redo needs --group' \
	'rec-rank -r x.txt < /dev/null'
test_fail 'rec-cf --cut needs --users' 2 '^rec-cf: --cut needs --users' \
	'rec-cf -C 5 -u u1 < /dev/null'

FU=$TOP/pipelines/for-user
res() { sqlite3 "$1" "select user, rank, item, score from results order by user, rank"; }
test_ok 'rec-batch: the grouped for-user (the default) = for-user per user (150 users)' \
	'rec-batch -q -o g.db && rec-batch -q -j 2 -o p.db "$FU" -d f.db -k 10 &&
	 res g.db > g.txt && res p.db > p.txt && test $(wc -l < g.txt) -ge 1400 && cmp g.txt p.txt &&
	 sqlite3 g.db "select command from runs" | grep -q "for-user -G -d f.db -k 10$"'
test_ok 'for-user -G: some users of the fixture are made again from whole lists' \
	'REC_TRACE=$T/fu.trace "$FU" -G -k 10 all > /dev/null &&
	 test "$(grep -c "\"tool\":\"rec-cf\"" fu.trace)" = 2'
test_ok 'rec-batch -g: the stream on stdin into the results' \
	'"$FU" -G -k 10 all | rec-batch -q -g user -o s.db && res s.db | cmp - g.txt'
test_ok 'rec-batch -g without -o: JSONL rows' \
	'"$FU" -G -k 3 < users.txt | rec-batch -q -R r -g user > rows.jsonl &&
	 test "$(wc -l < rows.jsonl)" = 450 && head -1 rows.jsonl | grep -q "^{\"id\":\"[^\"]*\",\"run\":\"r\",\"user\":\"u1\",\"rank\":1,\"score\":"'
test_ok 'rec-batch -g -k: the first N of each list' \
	'rec-batch -q -k 2 -o k.db && test "$(sqlite3 k.db "select count(*), max(rank) from results")" = "300|2"'
test_fail 'rec-batch -g: a group for a user not in the run' 1 \
	"^rec-batch: stdin:1: user 'stranger' is not one of the run's users$" \
	'printf "{\"id\":\"i1\",\"user\":\"stranger\"}\n" | rec-batch -q -g user -U users.txt -o x.db'
test_fail 'rec-batch -g: groups apart are refused, nothing published' 1 \
	'^rec-batch: stdin:3: group "u1" again after another group' \
	'printf "{\"id\":\"i1\",\"user\":\"u1\"}\n{\"id\":\"i1\",\"user\":\"u2\"}\n{\"id\":\"i2\",\"user\":\"u1\"}\n" |
	 rec-batch -q -g user -o y.db; st=$?; test ! -e y.db || exit 9; exit $st'
# a command that dies in its third user: not published; the second
# user's list may be cut short, so only the first is done, and --resume
# asks for the others
cat > half <<'SH'
#!/bin/sh
n=0
while IFS= read -r u; do
	echo "$u" >> "$LOG"
	n=$((n + 1))
	[ -n "${DIE:-}" ] && [ $n -gt 2 ] && exit 3
	printf '{"id":"x-%s","score":1,"user":"%s"}\n' "$u" "$u"
done
SH
chmod +x half
LOG=$T/half.log; export LOG
test_fail 'rec-batch -g: a failed command is not published' 1 \
	"^rec-batch: the command failed with status 3 after 1 of 150 users \(--resume continues the run\)$" \
	'DIE=1 rec-batch -q -g user -o h.db ./half'
test_ok 'rec-batch -g --resume: the command gets only the users left' \
	'test ! -e h.db && : > "$LOG" && rec-batch -q -r -g user -o h.db ./half &&
	 test "$(wc -l < "$LOG")" = 149 && test "$(sqlite3 h.db "select count(*) from results")" = 150'

test_fail 'rec-batch with no command and no itemknn model: a usage error' 2 \
	'^rec-batch: give the command to run for each user \(the catalog has no itemknn model' \
	'rec-import -d nm.db items -i id items.csv 2> /dev/null &&
	 rec-import -d nm.db interactions -u user -i item plays.csv 2> /dev/null && rec-batch -d nm.db -o z.db'

# MOVIES: 120 users of the real catalog
if [ -n "${REC_DATA_DIR:-}" ] && [ -d "$REC_DATA_DIR/movielens-latest-small" ]; then
	REC_EASE=0 "$TOP/examples/movies/build" movies.db > /dev/null 2>&1 || exit 1
	rec-batch -d movies.db -l | awk 'NR % 5 == 1' > mu.txt
	test_ok "MOVIES: grouped = per-user for-user on $(wc -l < mu.txt) users" \
		'rec-batch -q -d movies.db -U mu.txt -o mg.db &&
		 rec-batch -q -j 2 -d movies.db -U mu.txt -o mp.db "$FU" -d movies.db -k 10 &&
		 res mg.db > mg.txt && res mp.db > mp.txt && test $(wc -l < mg.txt) -ge 1200 && cmp mg.txt mp.txt'
else
	skip "REC_DATA_DIR is not set: MOVIES grouped = per-user"
fi

done_testing
