#!/bin/sh
# The example catalogs from the real data sets, with the counts their
# SOURCE.md files verify.  Skipped without REC_DATA_DIR.
. "$(dirname "$0")/lib.sh"

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
	'test "$(ls -A | grep -v "^\.\(out\|err\)$" | grep -v "^[a-e]$")" = "$(printf "log\nmusic.db\nmusic.db.bm25\nmusic.db.dense.audio\nmusic.db.dense.text")"'

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
