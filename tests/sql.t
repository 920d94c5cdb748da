#!/bin/sh
# rec-sql on a hand-written catalog: known answers, pool semantics, the
# read-only guard, and errors a planner can act on.
. "$(dirname "$0")/lib.sh"

rec-import -d s.db items -i track_id -l playlist "$DATA/songs.csv" || exit 1
export REC_DB=s.db
ids() { sed 's/^{"id":"\([^"]*\)".*/\1/' | tr '\n' ' '; }

test_ok '--where keeps catalog order' \
	'test "$(rec-sql -w "tempo > 120" < /dev/null | ids)" = "s01 s05 s06 "'
test_ok '--order sorts' \
	'test "$(rec-sql -w "tempo > 120" -o "tempo DESC" < /dev/null | ids)" = "s06 s05 s01 "'
test_ok 'a whole query, and -k' \
	'test "$(rec-sql -k 2 "SELECT id FROM items WHERE popularity > 80 ORDER BY popularity DESC" < /dev/null | ids)" = "s02 s04 "'
test_ok 'new records: id, score, src, and selected columns under item' \
	'rec-sql "SELECT id, track_name, tempo FROM items WHERE id = '"'s07'"'" < /dev/null > out &&
	 echo "{\"id\":\"s07\",\"score\":1.0,\"src\":\"sql\",\"item\":{\"track_name\":\"Karma Police\",\"tempo\":75.0}}" | diff -u - out'
test_ok 'a score column becomes the score; --as names the src' \
	'rec-sql -s filter "SELECT id, popularity AS score FROM items WHERE id = '"'s02'"'" < /dev/null |
	 grep -qx "{\"id\":\"s02\",\"score\":84.0,\"src\":\"filter\"}"'
test_ok 'text compares without regard to case' \
	'test "$(rec-sql -w "track_artist = '"'daft punk'"'" < /dev/null | ids)" = "s01 s02 "'
test_ok 'has() finds a value in a list column, folded' \
	'test "$(rec-sql -w "has(playlist, '"'PARTY'"')" < /dev/null | ids)" = "s01 s03 s08 s09 "'
test_ok 'has() with several values: any of them; a plain column by equality' \
	'test "$(rec-sql -w "has(playlist, '"'nope'"', '"'rock anthems'"')" < /dev/null | ids)" = "s05 s06 s07 " &&
	 test "$(rec-sql -w "has(track_artist, '"'nobody'"', '"'METALLICA'"')" < /dev/null | ids)" = "s05 s06 " &&
	 test "$(rec-sql -w "has(track_artist, '"'metal'"')" < /dev/null | ids)" = ""'
cat > pos.sql <<'Q'
SELECT has('["Pop","Dance","Rock"]', 'rock', 'dance') AS a, has('["Pop"]', 'rock') AS b,
	has('Rock', 'ROCK') AS c
Q
test_ok 'has() says where in a list: the position of the first value held, from 1' \
	'test "$(rec-sql -L "$(cat pos.sql)" < /dev/null)" = "{\"rows\":[{\"a\":2,\"b\":0,\"c\":1}],\"truncated\":false}"'
test_ok 'names() finds a creator alone or among several, "the" aside, or by the last word of the name' \
	'test "$(rec-sql -w "names(track_artist, '"'TESTERS'"', '"'nobody'"')" < /dev/null | ids)" = "s08 s09 " &&
	 test "$(rec-sql -L "SELECT names('"'Cardi B, Megan Thee Stallion'"', '"'megan thee stallion'"') AS a,
	   names('"'Drake feat. Rihanna'"', '"'rihanna'"') AS b, names('"'Earth, Wind & Fire'"', '"'earth wind & fire'"') AS c,
	   names('"'Sam & Dave'"', '"'sam'"') AS d, names('"'Samsara'"', '"'sam'"') AS e,
	   names('"'Oakenfold'"', '"'Paul Oakenfold'"') AS f, names('"'Paul'"', '"'Paul Oakenfold'"') AS g" < /dev/null)" = \
	   "{\"rows\":[{\"a\":2,\"b\":2,\"c\":1,\"d\":2,\"e\":0,\"f\":1,\"g\":0}],\"truncated\":false}"'
test_ok 'guests() is the names a title credits, for names() to read; NULL when none' \
	'test "$(rec-sql -L "SELECT guests('"'Life Is Good (feat. Drake)'"') AS a,
	   guests('"'Hey [with A & B]'"') AS b, guests('"'Song - with Y'"') AS c,
	   guests('"'Plain Song'"') AS d, names(guests('"'X (ft. Drake, Future)'"'), '"'future'"') AS e,
	   names(guests('"'Plain'"'), '"'future'"') AS f" < /dev/null)" = \
	   "{\"rows\":[{\"a\":\"Drake\",\"b\":\"A & B\",\"c\":\"Y\",\"d\":null,\"e\":2,\"f\":0}],\"truncated\":false}"'
# the value: 0 for none, the name's place (1, 2, ...) when the value is
# that name alone, the count of names plus its place when it is one of
# several ("Sam & Dave" for the second of two names: 2 + 2)
test_ok 'names() says which name, and whether alone' \
	'test "$(rec-sql -L "SELECT names('"'Dave'"', '"'Ed Sheeran'"', '"'Dave'"') AS a,
	   names('"'Sam & Dave'"', '"'Ed Sheeran'"', '"'Dave'"') AS b,
	   names('"'The Ed Sheeran'"', '"'Ed Sheeran'"', '"'Dave'"') AS c,
	   names('"'Ed Sheeran, Dave'"', '"'Ed Sheeran'"', '"'Dave'"') AS d" < /dev/null)" = \
	   "{\"rows\":[{\"a\":2,\"b\":4,\"c\":1,\"d\":3}],\"truncated\":false}"'
# the ASCII values are told apart without folding: the same answers
cat > names.sql <<'Q'
SELECT names('AC/DC', 'ac dc') AS a, names('P!NK', 'p!nk') AS b,
 names('Guns N'' Roses', 'guns n roses') AS c, names('Beyoncé', 'BEYONCE') AS d,
 names('The B-52''s', 'b 52s') AS e, names('Daft Punk', 'punk') AS f
Q
test_ok 'names() on punctuation, apostrophes, accents and case' \
	'test "$(rec-sql -L "$(cat names.sql)" < /dev/null)" = \
	   "{\"rows\":[{\"a\":1,\"b\":1,\"c\":1,\"d\":1,\"e\":1,\"f\":0}],\"truncated\":false}"'
test_fail 'names() needs a name' 1 'names\(value, name, ...\) needs a name' \
	'rec-sql -w "names(track_artist)" < /dev/null'
test_fail 'has() needs a value' 1 'has\(list, value, ...\) needs a value' \
	'rec-sql -w "has(playlist)" < /dev/null'

# pool semantics
printf '%s\n' '{"id":"s07","score":9,"src":"bm25"}' '{"id":"s05","score":8,"src":"bm25","x":1}' \
	'{"id":"s01","score":7,"src":"bm25"}' '{"id":"s05","score":0.5,"src":"cf"}' > pool.jsonl
test_ok 'a pool is filtered in its own order, records unchanged' \
	'rec-sql -w "tempo > 120" < pool.jsonl > out &&
	 printf "%s\n" "{\"id\":\"s05\",\"score\":8,\"src\":\"bm25\",\"x\":1}" \
	   "{\"id\":\"s01\",\"score\":7,\"src\":\"bm25\"}" "{\"id\":\"s05\",\"score\":0.5,\"src\":\"cf\"}" | diff -u - out'
test_ok 'a query that orders orders the pool' \
	'test "$(rec-sql -w "tempo > 120" -o "tempo ASC" < pool.jsonl | ids)" = "s01 s05 s05 "'
test_ok 'msgpack pools work the same' \
	'rec-cat -M pool.jsonl | rec-sql -w "tempo > 120" | cmp - out'
test_ok '--all ignores the pool' \
	'test "$(rec-sql -a -w "tempo > 120" < pool.jsonl | ids)" = "s01 s05 s06 "'
test_ok 'an empty pool gives nothing, exit 0' \
	': | rec-sql -w "tempo > 0" > out && ! test -s out'
test_ok 'a pool of 100,000 ids (no bound-variable limit)' \
	'i=0; { while [ $i -lt 100000 ]; do echo "{\"id\":\"x$i\"}"; i=$((i + 1)); done; echo "{\"id\":\"s09\"}"; } |
	 rec-sql -w "1" | ids > got && test "$(cat got)" = "s09 "'
test_ok 'nothing matches: exit 0 and no output' \
	'rec-sql -w "tempo > 1000" < /dev/null > out 2> err && ! test -s out && ! test -s err'

# the read-only guard
cp s.db before.db
for q in "ATTACH 'x.db' AS x" "DETACH main" "PRAGMA journal_mode=WAL" \
	"INSERT INTO items(id) VALUES('z')" "UPDATE items SET tempo = 0" "DELETE FROM items" \
	"CREATE TABLE t(x)" "DROP TABLE items" "ALTER TABLE items ADD COLUMN y" "VACUUM" \
	"BEGIN" "SELECT load_extension('/lib/x.so') AS id" \
	"SELECT id FROM items; DELETE FROM items"; do
	test_fail "refused: $q" 1 '^rec-sql: refused: ' "rec-sql \"$q\" < /dev/null"
done
test_fail 'an injection through --where is refused' 1 'refused: one statement only' \
	'rec-sql -w "1=1); DROP TABLE items; --" < /dev/null'
test_fail 'a pragma that can set is refused, by name' 1 \
	"^rec-sql: refused: PRAGMA journal_mode is not allowed \(queries are read-only; pragmas that only report, such as table_info, are allowed\)$" \
	'rec-sql "PRAGMA journal_mode=WAL" < /dev/null'
test_fail 'and so is its table-valued form' 1 '^rec-sql: refused: PRAGMA user_version is not allowed' \
	'rec-sql -L "SELECT * FROM pragma_user_version" < /dev/null'
# allowing the table-valued pragmas lets SQLite's own UPDATE of the
# schema table through the authorizer; a user's is still refused
test_fail 'the schema table cannot be changed' 1 '^rec-sql: table sqlite_master may not be modified$' \
	'rec-sql "UPDATE sqlite_master SET sql = '"'x'"'" < /dev/null'
test_ok 'and the catalog is unchanged' 'cmp before.db s.db'
# were refused as "UPDATE is not allowed"
test_ok 'pragma_table_info() is allowed' \
	'rec-sql -L "SELECT name, type FROM pragma_table_info('"'items'"') WHERE name = '"'tempo'"'" < /dev/null > out &&
	 echo "{\"rows\":[{\"name\":\"tempo\",\"type\":\"REAL\"}],\"truncated\":false}" | diff -u - out'
test_ok 'pragma_index_list() joined with pragma_table_info() is allowed' \
	'rec-sql -L "SELECT count(*) AS n FROM pragma_table_info('"'items'"') t, pragma_index_list('"'items'"') i" < /dev/null |
	 grep -q "^{\"rows\":\[{\"n\":[1-9][0-9]*}\]"'
test_ok 'PRAGMA table_info is allowed too' \
	'rec-sql -L "PRAGMA table_info(items)" < /dev/null | grep -q "\"name\":\"tempo\""'

# the limits on one query
test_fail 'a runaway query is stopped' 1 '^rec-sql: query stopped: it ran longer than REC_SQL_TIMEOUT \(0.2 s\)$' \
	'REC_SQL_TIMEOUT=0.2 rec-sql "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS id FROM c WHERE x < 0" < /dev/null'
# one step that is a costly function call ran past the timeout: 1 s
# became 40 s with randomblob(100000000) per row of a real catalog
test_fail 'a value longer than REC_SQL_MAX_LENGTH stops the query' 1 \
	'^rec-sql: query stopped: a value is longer than REC_SQL_MAX_LENGTH \(67108864 bytes\)$' \
	'timeout 20 rec-sql -w "length(randomblob(100000000)) > 0" < /dev/null'
test_fail 'REC_SQL_MAX_LENGTH sets it' 1 'longer than REC_SQL_MAX_LENGTH \(1048576 bytes\)' \
	'REC_SQL_MAX_LENGTH=1M rec-sql -w "length(randomblob(2000000)) > 0" < /dev/null'
test_fail 'costly steps in a loop stop at the timeout' 1 \
	'^rec-sql: query stopped: it ran longer than REC_SQL_TIMEOUT \(0.3 s\)$' \
	'REC_SQL_TIMEOUT=0.3 timeout 4 rec-sql -w "length(randomblob(60000000)) > 0" < /dev/null'
expensive=$(i=0; while [ $i -lt 40 ]; do printf 'length(randomblob(60000000)) + '; i=$((i + 1)); done)
test_fail 'one step of 40 costly calls is stopped a second after the timeout' 1 \
	'^rec-sql: query stopped: it ran longer than REC_SQL_TIMEOUT \(0.3 s\)$' \
	'REC_SQL_TIMEOUT=0.3 REC_TRACE=trace timeout 4 rec-sql -w "$expensive 0 > 0" < /dev/null'
test_ok 'and the trace line says so' \
	'grep -q "\"status\":1,\"error\":\"query stopped: it ran longer than REC_SQL_TIMEOUT (0.3 s)\"}$" trace'
test_fail 'memory past REC_SQL_MAX_MEMORY stops the query' 1 \
	'^rec-sql: query stopped: it needed more memory than REC_SQL_MAX_MEMORY \(16777216 bytes\)$' \
	'REC_SQL_MAX_MEMORY=16M rec-sql -w "length(randomblob(30000000)) > 0" < /dev/null'
test_ok 'the limits leave a pool and ordinary queries alone' \
	'REC_SQL_MAX_MEMORY=1M REC_SQL_MAX_LENGTH=1K rec-sql -w "tempo > 120" -o "tempo DESC" < pool.jsonl > out &&
	 test "$(ids < out)" = "s05 s05 s01 "'
for v in nan inf 1e300 0 -1 1x; do
	test_fail "REC_SQL_TIMEOUT='$v' is a usage error" 2 \
	    "^rec-sql: REC_SQL_TIMEOUT: not a number of seconds from 0.001 to 1000000: '$v'$" \
	    'REC_SQL_TIMEOUT=$v rec-sql -w 1 < /dev/null'
done
test_fail 'a bad REC_SQL_MAX_LENGTH is a usage error' 2 \
	"^rec-sql: REC_SQL_MAX_LENGTH: not a size from 1024 to 1000000000 bytes .*: '-1'$" \
	'REC_SQL_MAX_LENGTH=-1 rec-sql -w 1 < /dev/null'
test_fail 'a bad REC_SQL_MAX_MEMORY is a usage error' 2 \
	"^rec-sql: REC_SQL_MAX_MEMORY: not a size from 1048576 to 1099511627776 bytes .*: 'lots'$" \
	'REC_SQL_MAX_MEMORY=lots rec-sql -w 1 < /dev/null'
# SQLite has no NaN, but 1e999 is infinity; it became "score":null
test_fail 'an infinite score is an error' 1 "^rec-sql: column 'score' of 's01' is not a finite number$" \
	'rec-sql "SELECT id, 1e999 AS score FROM items" < /dev/null'
test_fail 'and so is an infinite item field' 1 "^rec-sql: column 'x' of 's01' is not a finite number$" \
	'rec-sql -M "SELECT id, -1e999 AS x FROM items" < /dev/null'

# errors a planner can act on
test_fail 'unknown column: the closest name' 1 "^rec-sql: no such column 'tempoo' \(did you mean 'tempo'\?\)$" \
	'rec-sql -w "tempoo > 1" < /dev/null'
test_fail 'unknown column: a synonym' 1 "no such column 'bpm' \(did you mean 'tempo'\?\)" \
	'rec-sql -w "bpm > 1" < /dev/null'
test_fail 'unknown column: the column with that role' 1 "no such column 'artist' \(did you mean 'track_artist'\?\)" \
	'rec-sql -w "artist = '"'x'"'" < /dev/null'
test_fail 'unknown table' 1 "no such table 'songs'" 'rec-sql "SELECT id FROM songs" < /dev/null'
test_fail 'syntax error' 1 '^rec-sql: near "SELEC": syntax error$' 'rec-sql "SELEC id FROM items" < /dev/null'
test_fail 'no id column' 1 'the query does not return the id column' \
	'rec-sql "SELECT track_name FROM items" < /dev/null'
test_fail 'a value that matches nothing: the closest' 0 \
	"^rec-sql: track_artist = 'dafft punk' matches nothing \(closest: 'Daft Punk'; --fuzzy uses the first\)$" \
	'rec-sql -w "track_artist = '"'dafft punk'"'" < /dev/null > out && ! test -s out'
test_fail 'accents folded in the suggestion' 0 "closest: 'Beyoncé'" \
	'rec-sql -w "track_artist = '"'beyonce'"'" < /dev/null'
test_fail '--fuzzy applies it' 0 "matches nothing; using 'Daft Punk'" \
	'rec-sql -f -w "track_artist = '"'dafft punk'"'" < /dev/null | ids > got && test "$(cat got)" = "s01 s02 "'
test_fail 'a list value that matches nothing' 0 "has\(playlist, 'partyy'\) matches nothing \(closest: 'Party'" \
	'rec-sql -w "has(playlist, '"'partyy'"')" < /dev/null'
test_fail 'nothing close at all says so' 0 "track_artist = 'zzzzzz' matches nothing in 'track_artist'" \
	'rec-sql -w "track_artist = '"'zzzzzz'"'" < /dev/null'
test_ok '--lookup answers with rows' \
	'rec-sql --lookup "SELECT count(*) AS n, max(release_date) AS latest FROM items WHERE track_artist = '"'Daft Punk'"'" < /dev/null > out &&
	 echo "{\"rows\":[{\"n\":2,\"latest\":\"2013-05-17\"}],\"truncated\":false}" | diff -u - out'
test_ok '--lookup over a pool, with a cut' \
	'rec-sql -L -k 1 "SELECT id, track_name FROM items ORDER BY id" < pool.jsonl > out &&
	 echo "{\"rows\":[{\"id\":\"s01\",\"track_name\":\"One More Time\"}],\"truncated\":true}" | diff -u - out'
test_fail 'QUERY and --where together' 2 'not both' 'rec-sql -w 1 "SELECT id FROM items"'
test_fail 'no query' 2 'give a QUERY or --where' 'rec-sql'
test_fail 'bad records in the pool' 1 'stdin:2: record has no "id"' \
	'printf "{\"id\":\"s01\"}\n{}\n" | rec-sql -w 1'

done_testing
