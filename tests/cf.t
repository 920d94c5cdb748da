#!/bin/sh
# rec-train and rec-cf on tiny interaction matrices with known answers.
. "$(dirname "$0")/lib.sh"

ids() { sed 's/^{"id":"\([^"]*\)".*/\1/' | tr '\n' ' '; }
score_of() { grep "\"id\":\"$1\"" | sed 's/.*"score":\([^,]*\),.*/\1/'; }
close_to() { awk -v a="$1" -v b="$2" -v t="${3:-1e-6}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < t) }'; }
calc() { awk "BEGIN { printf \"%.17g\", $1 }"; }

printf 'id,title\na,Alpha\nb,Beta\nc,Gamma\nd,Delta\ne,Epsilon\n' > items.csv
# u1 and u2 have a and b; u3 has a and c; u4 has d
printf 'user,item\nu1,a\nu1,b\nu2,a\nu2,b\nu3,a\nu3,c\nu4,d\n' > plays.csv
rec-import -d c.db items items.csv && rec-import -d c.db interactions -u user -i item plays.csv || exit 1
export REC_DB=c.db

test_fail 'an untrained model' 1 "no model 'itemknn' in the catalog \(train it with rec-train itemknn\)" \
	'rec-cf -l a < /dev/null'
test_ok 'rec-train itemknn' 'rec-train -H 0 itemknn > out && grep -q "on 4 users x 5 items, 7 interactions" out'
# by hand, shrink 0: sim(a,b) = 2 / sqrt(3 * 2), sim(a,c) = 1 / sqrt(3 * 1)
test_ok 'the co-consumed item ranks first, with the cosine computed by hand' \
	'rec-cf -l a < /dev/null > out && test "$(ids < out)" = "b c " &&
	 close_to "$(score_of b < out)" "$(calc "2 / sqrt(6)")" &&
	 close_to "$(score_of c < out)" "$(calc "1 / sqrt(3)")"'
test_ok 'seeds are left out, and why names the seed' \
	'rec-cf -l b < /dev/null > out && test "$(ids < out)" = "a " &&
	 grep -q "\"why\":\"cf: often with '"'Beta'"'\"" out'
test_ok 'shrinkage lowers rare pairs more' \
	'rec-train -H 10 itemknn > /dev/null && rec-cf -l a < /dev/null > out &&
	 close_to "$(score_of b < out)" "$(calc "2 / (sqrt(6) + 10)")"'
# shrink 0 again: b scores 2 / sqrt(6) = 0.816, c 1 / sqrt(3) = 0.577,
# 0.707 of b's
test_ok '--floor: items under that share of the best score are left out' \
	'rec-train -H 0 itemknn > /dev/null &&
	 test "$(rec-cf -f 0.75 -l a < /dev/null | ids)" = "b "'
test_ok '... and a share the second item reaches keeps it' \
	'test "$(rec-cf -f 0.7 -l a < /dev/null | ids)" = "b c "'
test_fail '--floor out of 0..1' 2 "floor" 'rec-cf -f 2 -l a < /dev/null'
test_ok 'for a user: what the history suggests, not the history' \
	'test "$(rec-cf -u u3 < /dev/null | ids)" = "b "'
test_ok 'a pool is scored and filtered' \
	'printf "%s\n" "{\"id\":\"c\",\"src\":\"bm25\",\"score\":3}" "{\"id\":\"d\"}" | rec-cf -l a > out &&
	 test "$(ids < out)" = "c " && grep -q "\"scores\":{\"bm25\":3,\"cf\":" out'
test_fail 'an unknown seed' 1 "^rec-cf: no item 'zz' in the catalog$" 'rec-cf -l zz < /dev/null'
test_fail 'a cold-start user' 1 "user 'u9' has no history \(a cold start" 'rec-cf -u u9 < /dev/null'
test_fail '--lenient: a warning and nothing' 0 "no item 'zz' in the catalog" \
	'rec-cf -e -l zz < /dev/null > out && ! test -s out'
# EASE by hand, lambda 1: the Gram matrix of a, b, c plus I is
# M = [[4,2,1],[2,3,0],[1,0,2]], det 13, and P = M^-1 = adj(M) / 13 with
# P_aa 6, P_ab -4, P_ac -3, P_bb 7, P_bc 2, P_cc 8 (all / 13);
# B_ij = -P_ij / P_jj: B_ab 4/7, B_ac 3/8, B_cb -2/7
test_ok 'EASE weights equal the closed form computed by hand' \
	'rec-train -l 1 ease > out && grep -q "{\"neighbours\":100,\"lambda\":1}" out &&
	 rec-cf -m ease -l a < /dev/null > out && test "$(ids < out)" = "b c " &&
	 close_to "$(score_of b < out)" "$(calc "4 / 7")" 1e-5 &&
	 close_to "$(score_of c < out)" "$(calc "3 / 8")" 1e-5'
test_ok 'EASE keeps positive weights only: a user with a and c' \
	'rec-cf -m ease -u u3 < /dev/null > out && test "$(ids < out)" = "b " &&
	 close_to "$(score_of b < out)" "$(calc "4 / 7")" 1e-5 &&
	 test "$(sqlite3 c.db "select count(*) from knn where model = '"'ease'"' and sim <= 0")" = 0'
test_fail 'EASE without regularisation on an item nobody had' 1 \
	'the Gram matrix is not positive definite \(raise --lambda\)' \
	'rec-train -n e0 -l 0 ease'
test_ok 'a failed training leaves the catalog as it was' \
	'test "$(sqlite3 c.db "select count(*) from models where name = '"'e0'"'")" = 0 &&
	 test "$(ls | grep "^c\.db" | grep -vc "^c\.db\.cf\.")" = 1'
test_ok 'the blocked inverse EASE uses: A A^-1 = I over several blocks' \
	'for n in 1 95 96 97 250 400; do "$REC_TESTBIN/spd-inverse" $n 1e-4 || exit 1; done > out'
# EASE is dense: 300,000 items would need 360 GB, refused before trying
awk 'BEGIN { print "id"; for (i = 0; i < 300000; i++) print "i" i }' > big.csv
printf 'user,item\nu1,i1\nu1,i2\n' > bigplays.csv
rec-import -d big.db items big.csv && rec-import -d big.db interactions -u user -i item bigplays.csv || exit 1
test_fail 'EASE on more items than memory holds: said before trying' 1 \
	'^rec-train: ease: 300000 items need 360.0 GB for the item x item matrix, more than this machine has \(use itemknn or als\)$' \
	'rec-train -d big.db ease'
test_fail 'an unknown kind of model' 2 "unknown model 'svd'" 'rec-train svd'
test_fail 'like and user together' 2 'give --like, --user or --users' 'rec-cf -l a -u u1 < /dev/null'

# ALS: two blocks, u1-u3 x i1-i3 and u4-u6 x i4-i6, with (u1, i3) left out
printf 'id\ni1\ni2\ni3\ni4\ni5\ni6\n' > items2.csv
{ echo user,item
  for u in u1 u2 u3; do for i in i1 i2 i3; do echo "$u,$i"; done; done
  for u in u4 u5 u6; do for i in i4 i5 i6; do echo "$u,$i"; done; done; } | grep -v '^u1,i3$' > plays2.csv
rec-import -d b.db items items2.csv && rec-import -d b.db interactions -u user -i item plays2.csv || exit 1
test_ok 'ALS finds the missing entry of a block' \
	'rec-train -d b.db -f 2 -i 20 -l 0.01 als > /dev/null &&
	 rec-cf -d b.db -m als -u u1 < /dev/null > out && test "$(ids < out | cut -d" " -f1)" = i3'
test_ok 'ALS training is deterministic for a seed' \
	'sqlite3 b.db "select hex(vec) from vectors where space = '"'als'"' order by id" > a &&
	 rec-train -d b.db -f 2 -i 20 -l 0.01 als > /dev/null &&
	 sqlite3 b.db "select hex(vec) from vectors where space = '"'als'"' order by id" | cmp - a'
test_ok 'BPR finds the missing entry of a block' \
	'rec-train -d b.db -f 4 -i 300 bpr > /dev/null &&
	 rec-cf -d b.db -m bpr -u u1 < /dev/null > out && test "$(ids < out | cut -d" " -f1)" = i3'
test_ok 'BPR training is deterministic for a seed' \
	'sqlite3 b.db "select hex(vec) from vectors where space = '"'bpr'"' order by id" > a &&
	 rec-train -d b.db -f 4 -i 300 bpr > /dev/null &&
	 sqlite3 b.db "select hex(vec) from vectors where space = '"'bpr'"' order by id" | cmp - a &&
	 rec-train -d b.db -f 4 -i 300 -r 2 bpr > /dev/null &&
	 ! sqlite3 b.db "select hex(vec) from vectors where space = '"'bpr'"' order by id" | cmp -s - a'
test_fail 'BPR needs room for its bias' 2 'bpr needs at least 2 factors' 'rec-train -d b.db -f 1 bpr'
# a rank-1 matrix (every user has every item) but for (u1, i3): with one
# factor ALS recovers it, predicting the missing entry like the others
{ echo user,item; for u in u1 u2 u3 u4; do for i in i1 i2 i3; do echo "$u,$i"; done; done; } |
	grep -v '^u1,i3$' > plays3.csv
printf 'id\ni1\ni2\ni3\n' > items3.csv
rec-import -d r.db items items3.csv && rec-import -d r.db interactions -u user -i item plays3.csv || exit 1
# (the missing entry counts as a weak 0, so it is predicted below 1, but
# far from 0), and every item's factor points the same way: cosine 1
test_ok 'ALS on a rank-1 matrix recovers it' \
	'rec-train -d r.db -f 1 -i 30 -l 0.001 -a 1 als > /dev/null &&
	 v=$(rec-cf -d r.db -m als -u u1 < /dev/null | score_of i3) &&
	 awk -v v="$v" "BEGIN { exit !(v > 0.5 && v < 1.2) }" &&
	 rec-cf -d r.db -m als -l i1 < /dev/null > out &&
	 close_to "$(score_of i2 < out)" 1 && close_to "$(score_of i3 < out)" 1'

done_testing
