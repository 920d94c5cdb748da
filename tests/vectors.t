#!/bin/sh
# Vectors from elsewhere: .npy, .fvecs and an /embeddings server (the
# stub on loopback), and rec-dense --text through it.
. "$(dirname "$0")/lib.sh"

STUB=${REC_TESTBIN:-$(dirname "$REC_BIN")/tests}/stub-llm
rec-import -d v.db items -i track_id -R track_name=title -R track_artist=artist \
	"$DATA/songs.csv" || exit 1
export REC_DB=v.db
printf 's01\ns02\ns03\n' > ids.txt
# float32 little-endian: 1.0 = 00 00 80 3f, 0.5 = 00 00 00 3f, 2.0 = 00 00 00 40
f1='\000\000\200\077'; f0='\000\000\000\000'; fh='\000\000\000\077'; f2='\000\000\000\100'
hdr="{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }"
# the header, padded with spaces so that it ends on a 64-byte boundary:
# 10 bytes of preamble, then 118 (0x76) of dict, spaces and newline
printf '\223NUMPY\001\000\166\000%s%*s\n' "$hdr" $((117 - ${#hdr})) "" > x.npy
printf "$f1$f0$f0$f1$fh$f2" >> x.npy

test_ok '.npy float32 with ids' \
	'rec-import -d v.db vectors -a npy -n ids.txt x.npy &&
	 test "$(sqlite3 v.db "select hex(vec) from vectors where space = '"'npy'"' and id = '"'s03'"'")" = 0000003F00000040'
test_fail '.npy with fewer ids than rows' 1 'x.npy: 3 rows but 2 ids' \
	'head -2 ids.txt > ids2.txt && rec-import -d v.db vectors -a npy2 -n ids2.txt x.npy'
test_fail 'a .npy that is not float32' 1 "not float32" \
	'sed "s/<f4/<f8/" x.npy > y.npy && rec-import -d v.db vectors -a npy3 -n ids.txt y.npy'
d2='\002\000\000\000'
printf "$d2$f1$f0$d2$f0$f1$d2$fh$f2" > x.fvecs
test_ok '.fvecs with ids' \
	'rec-import -d v.db vectors -a fv -n ids.txt x.fvecs &&
	 test "$(sqlite3 v.db "select hex(vec) from vectors where space = '"'fv'"' and id = '"'s02'"'")" = 000000000000803F'
test_fail '.fvecs cut short' 1 'x2.fvecs: vector 3 is truncated' \
	'head -c 30 x.fvecs > x2.fvecs && rec-import -d v.db vectors -a fv2 -n ids.txt x2.fvecs'

# embeddings: s05 and s06 (Metallica) point one way, the rest the other
printf '{"data":[' > emb.raw
for i in 1 2 3 4 5 6 7 8 9; do
	case $i in 5|6) e='[1,0]';; *) e='[0,1]';; esac
	printf '%s{"embedding":%s}' "$([ $i -gt 1 ] && echo ,)" "$e" >> emb.raw
done
printf ']}\n' >> emb.raw
printf '{"data":[{"embedding":[0.9,0.1]}]}\n' > query.raw
serve() {
	d=$1; shift; rm -rf "$d"; mkdir -p "$d"
	"$STUB" "$d/port" "$d" "$@" 2> "$d/stub.err" &
	stub=$!
	i=0; while [ ! -s "$d/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	REC_LLM_URL=http://127.0.0.1:$(cat "$d/port")/v1; export REC_LLM_URL
}
export REC_EMBED_MODEL=test-embed
test_ok 'items embedded through /embeddings' \
	'serve e1 emb.raw && rec-import -d v.db vectors -a text -E title,artist && wait $stub &&
	 test "$(sqlite3 v.db "select count(*) from vectors where space = '"'text'"'")" = 9 &&
	 grep -q "^POST /v1/embeddings HTTP/1.1" e1/request-1 &&
	 grep -q "\"model\":\"test-embed\"" e1/request-1 &&
	 grep -q "\"input\":\[\"One More Time Daft Punk \"," e1/request-1'
test_ok 'rec-dense --text embeds the query and ranks by it' \
	'serve e2 query.raw && rec-dense -S text -k 2 -t "heavy guitars" < /dev/null > out && wait $stub &&
	 grep -q "\"input\":\[\"heavy guitars\"\]" e2/request-1 &&
	 test "$(sed "s/^{\"id\":\"\([^\"]*\)\".*/\1/" out | tr "\n" " ")" = "s05 s06 " &&
	 grep -q "\"why\":\"dense: near '"'"'heavy guitars'"'"' in text\"" out'
printf '{"data":[{"embedding":[1,2,3]}]}\n' > wrongdim.raw
printf '%s\n' '{"words":["heavy guitars"]}' > wordsintent
test_ok 'with a model, the planner also searches the embedded space by meaning' \
	'serve e4 wordsintent && rec-plan "something with heavy guitars" > out && wait $stub &&
	 grep -q "rec-dense -e -s meaning -S text -k 200 -t '"'"'heavy guitars'"'"'" out'
test_fail 'a query embedding of another dimension' 1 'the embedding has dimension 3, the space .text. 2' \
	'serve e3 wrongdim.raw && rec-dense -S text -t "x" < /dev/null; s=$?; wait $stub; exit $s'
printf '{"data":[{"embedding":[1,"x"]}]}\n' > notnum.raw
test_fail 'an embedding with a value that is not a number' 1 'embedding 0: value 1 is not a number' \
	'serve e5 notnum.raw && rec-dense -S text -t "x" < /dev/null; s=$?; wait $stub; exit $s'
test_fail 'no server' 1 "^rec-dense: --text: http://127.0.0.1:1/v1/embeddings: " \
	'REC_LLM_URL=http://127.0.0.1:1/v1 rec-dense -S text -t "x" < /dev/null'
test_fail '--text without a model' 2 'needs a space from rec-train text or REC_LLM_URL' \
	'unset REC_LLM_URL; rec-dense -S text -t "x" < /dev/null'
test_ok 'a failed embedding leaves the catalog as it was' \
	'cp v.db before.db; REC_LLM_URL=http://127.0.0.1:1/v1 rec-import -d v.db vectors -a t2 -E title 2> /dev/null;
	 test $? -eq 1 && cmp before.db v.db'

done_testing
