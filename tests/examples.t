#!/bin/sh
# The example recipes: the INSPIRED benchmark builder on invented
# dialogs, then the example catalogs from the real data sets, with the
# counts their SOURCE.md files verify (skipped without REC_DATA_DIR).
. "$(dirname "$0")/lib.sh"

# tests/data/inspired-dialogs.tsv: three invented dialogs in INSPIRED's
# columns; tests/data/inspired-movies.csv: 13 films as MovieLens writes
# them; tests/data/inspired.jsonl: the benchmark, checked by hand.
# In a directory of their own: the catalogs' tests below list theirs.
mkdir inspired
ib() { "$TOP/examples/inspired/build" -d "$DATA/inspired-dialogs.tsv" "$@"; }
counts='3 dialogs, 10 turns, 6 points, 11 targets
10 targets link (title 5, alternative title 2, without a leading article 1, the part before ":" or " - " 1, year off by one 1), 6 points have one
the ceiling: Hit 1, Recall 0.9167'
test_ok 'examples/inspired/build: a catalog in MovieLens form' \
	'cd inspired && rec-import -d im.db items -i movieId -S genres="|" \
	   -X year="title:\(([0-9]{4})[^()]*\) *\$" -t year=integer "$DATA/inspired-movies.csv" 2> /dev/null &&
	 test "$(sqlite3 im.db "select year from items where id = '"'12'"'")" = 1994'
test_ok 'examples/inspired/build: turns merged, earlier movies no targets, titles linked, misses kept' \
	'cd inspired && ib im.db ib.jsonl 2> log && diff -u "$DATA/inspired.jsonl" ib.jsonl &&
	 sed "s/^[^:]*: //" log > counts && printf "%s\n" "$counts" | diff -u - counts'
test_ok 'examples/inspired/build -l: the targets that link alone' \
	'cd inspired && ib -l im.db ibl.jsonl 2> /dev/null &&
	 jq -c ".turns[] |= (if .targets then .targets |= map(select(startswith(\"inspired:\") | not)) else . end)" \
	   "$DATA/inspired.jsonl" | diff -u - ibl.jsonl'
test_fail 'examples/inspired/build: no catalog, nothing written' 1 "no catalog 'none.db'" \
	'cd inspired && ib none.db ib2.jsonl; st=$?; test ! -e none.db && test ! -e ib2.jsonl && exit $st'
test_fail 'examples/inspired/build: usage' 2 '^usage: .*build \[-l\] \[-d DIALOGS\] CATALOG BENCH$' 'cd inspired && ib im.db'
test_fail 'examples/inspired/build: dialogs it cannot read' 1 "cannot read 'nope.tsv'" \
	'cd inspired && "$TOP/examples/inspired/build" -d nope.tsv im.db ib3.jsonl; st=$?; test ! -e ib3.jsonl && exit $st'
rm -rf inspired

if [ -z "${REC_DATA_DIR:-}" ] || [ ! -d "$REC_DATA_DIR" ]; then
	skip "REC_DATA_DIR is not set: no shared data to build the example catalogs"
	done_testing
	exit
fi
q() { sqlite3 -batch music.db "$@"; }
m() { sqlite3 -batch movies.db "$@"; }

test_ok 'examples/music/build' "$TOP/examples/music/build music.db 2> log"
test_ok 'MUSIC: 28,356 tracks' 'test "$(q "select count(*) from items")" = 28356'
test_ok 'MUSIC: 471 playlists are users, one interaction per (playlist, track)' \
	'test "$(q "select count(*) from users")" = 471 &&
	 test "$(q "select count(*) from interactions")" = "$(q "select sum(json_array_length(playlist_id)) from items")"'
test_ok 'MUSIC: 6 genres, gathered as lists' \
	'test "$(q "select count(distinct value) from items, json_each(items.genre)")" = 6'
test_ok 'MUSIC: the 5 NA titles are missing, not "NA"' \
	'test "$(q "select count(*) from items where title is null")" -ge 1 &&
	 test "$(q "select count(*) from items where title = '"'NA'"'")" = 0'
test_ok 'MUSIC: Last.fm tags joined on the normalised artist' \
	'test "$(q "select count(*) from items where lastfm_tags is not null")" -gt 8000 &&
	 q "select lastfm_tags from items where artist = '"'Daft Punk'"' limit 1" | grep -q "\"electronic\""'
test_ok 'MUSIC: roles' \
	'test "$(q "select group_concat(name || \":\" || role, \" \") from (select name, role from columns where name in (\"title\", \"artist\", \"album\", \"release_date\", \"popularity\", \"tempo\", \"lastfm_tags\") order by position)")" = \
	 "title:title artist:creator popularity:popularity album:collection release_date:date tempo:number lastfm_tags:tags"'
test_ok 'no file is left beside the catalog' \
	'test "$(ls -A | grep -v "^\.\(out\|err\)$" | grep -v "^[a-e]$")" = "$(printf "log\nmusic.db\nmusic.db.bm25\nmusic.db.cf.itemknn\nmusic.db.dense.audio\nmusic.db.dense.text")"'

P=$TOP/pipelines
test_ok 'MUSIC pipelines: similar, for-user, new-for-user, cold-start, continue' \
	'REC_DB=music.db $P/similar -k 5 0DiWol3AO6WpXZgp0goxAV > a && test "$(wc -l < a)" -eq 5 &&
	 REC_DB=music.db $P/for-user -k 5 37i9dQZF1DXcZDD7cfEKhW > b && test "$(wc -l < b)" -eq 5 &&
	 REC_DB=music.db $P/new-for-user -k 5 37i9dQZF1DXcZDD7cfEKhW > c && test "$(wc -l < c)" -ge 1 &&
	 for i in $(sed "s/^{\"id\":\"\([^\"]*\)\".*/\1/" c); do
	   test "$(q "select year >= 2018 from items where id = '"'"'$i'"'"'")" = 1 || exit 1; done &&
	 REC_DB=music.db $P/cold-start -k 5 > d && test "$(wc -l < d)" -eq 5 &&
	 echo 0DiWol3AO6WpXZgp0goxAV | REC_DB=music.db $P/continue -k 5 > e && test "$(wc -l < e)" -eq 5'
test_ok 'examples/movies/build' "$TOP/examples/movies/build movies.db 2> log"
test_ok 'MOVIES: 9,742 films, 100,836 ratings by 610 users' \
	'test "$(m "select count(*) from items")" = 9742 &&
	 test "$(m "select count(*) from interactions")" = 100836 &&
	 test "$(m "select count(*) from users")" = 610'
test_ok 'MOVIES: year from the title, genres as a list' \
	'test "$(m "select year || genres from items where id = '"'1'"'")" = "1995[\"Adventure\",\"Animation\",\"Children\",\"Comedy\",\"Fantasy\"]"'
test_ok 'MOVIES: tags gathered from tags.csv' \
	'test "$(m "select tags from items where id = '"'60756'"'")" = "[\"funny\",\"Highly quotable\",\"will ferrell\",\"comedy\"]"'
test_ok 'MOVIES pipelines: the same five, through the column roles' \
	'REC_DB=movies.db $P/similar -k 5 1 > a && test "$(wc -l < a)" -eq 5 &&
	 REC_DB=movies.db $P/for-user -k 5 1 > b && test "$(wc -l < b)" -eq 5 &&
	 ! grep -q "\"id\":\"1\"" b &&
	 REC_DB=movies.db $P/new-for-user -k 5 1 > c && test "$(wc -l < c)" -ge 1 &&
	 REC_DB=movies.db $P/cold-start -k 5 > d && test "$(wc -l < d)" -eq 5 &&
	 echo 1 | REC_DB=movies.db $P/continue -k 5 > e && test "$(wc -l < e)" -eq 5'
test_ok 'MOVIES: ratings keep weight and time' \
	'test "$(m "select weight || \" \" || time from interactions where user = '"'1'"' and item = '"'1'"'")" = "4.0 964982703"'

done_testing
