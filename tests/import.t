#!/bin/sh
# rec-import: CSV, TSV, JSONL; merging; types and roles; atomic builds;
# interactions, joins, users; and rec-cat --fields over the result.
. "$(dirname "$0")/lib.sh"

q() { sqlite3 -batch "$@"; }
songs() { rec-import -d "${1:-s.db}" items -i track_id -l playlist -I playlist "$DATA/songs.csv"; }

test_ok 'items from quoted CSV' 'songs && test "$(q s.db "select count(*) from items")" = 9'
test_ok 'a quoted field keeps its comma and doubled quotes' \
	'test "$(q s.db "select track_name from items where id = '"'s08'"'")" = "Comma, \"Quoted\" Song"'
test_ok 'a quoted field keeps its newline' \
	'test "$(q s.db "select track_name = char(84,119,111,10,76,105,110,101,115) from items where id = '"'s09'"'")" = 1'
test_ok 'repeated ids merge, gathering the list field' \
	'test "$(q s.db "select playlist from items where id = '"'s01'"'")" = "[\"Dance Classics\",\"Party\"]"'
test_ok 'membership becomes interactions (11 rows, all distinct pairs)' \
	'test "$(q s.db "select count(*) from interactions")" = 11 &&
	 test "$(q s.db "select count(*) from users")" = 4 &&
	 test "$(q s.db "select group_concat(user, \"|\") from (select user from interactions where item = '"'s03'"' order by user)")" = "Party|Pop Hits"'
test_ok 'types are inferred' \
	'q s.db "select name || \" \" || type from columns order by position" > types &&
	 printf "%s\n" "track_name text" "track_artist text" "popularity integer" \
	   "album text" "release_date text" "playlist text" "genre text" \
	   "tempo real" "danceability real" "releases integer" \
	   "interactions integer" "mean_weight real" | diff -u - types'
test_ok 'roles are inferred from names, types and values' \
	'q s.db "select name || \" \" || role from columns order by position" > roles &&
	 printf "%s\n" "track_name title" "track_artist creator" "popularity popularity" \
	   "album collection" "release_date date" "playlist tags" "genre category" \
	   "tempo number" "danceability number" "releases number" \
	   "interactions popularity" "mean_weight number" | diff -u - roles'
test_ok 'interactions counts the users of each item' \
	'test "$(q s.db "select count(*) from items where interactions = (select count(distinct user) from interactions where item = items.id)")" = \
	   "$(q s.db "select count(*) from items")" &&
	 test "$(q s.db "select sum(interactions) from items")" = 11'
# a song's releases: the items with its title (without brackets or
# " - Remastered"...) and its creator's first name, as rec-rank -U
test_ok 'releases counts the items that are the same song' \
	'printf "%s\n" id,title,artist "a,Song A,X" "b,Song A (Remastered 2011),X" \
	   "c,Song A - Live,\"X, Y\"" "d,Song B,X" "e,Song A,Z" > rel.csv &&
	 rec-import -d rel.db items -r title=title -r artist=creator rel.csv &&
	 test "$(q rel.db "select group_concat(id || releases, \" \") from (select id, releases from items order by id)")" = \
	   "a3 b3 c3 d1 e1" &&
	 test "$(q rel.db "select source from columns where name = '"'releases'"'")" = "(releases)"'
test_ok 'a catalog without a creator has no releases; a column of that name is left alone' \
	'printf "%s\n" id,title "a,Song A" "b,Song A" > rel2.csv &&
	 rec-import -d rel2.db items -r title=title rel2.csv &&
	 test "$(q rel2.db "select count(*) from columns where name = '"'releases'"'")" = 0 &&
	 printf "%s\n" id,title,artist,releases "a,Song A,X,7" "b,Song A,X,9" > rel3.csv &&
	 rec-import -d rel3.db items -r title=title -r artist=creator rel3.csv &&
	 test "$(q rel3.db "select group_concat(releases) from items")" = "7,9"'
test_ok 'numbers are stored as numbers' \
	'test "$(q s.db "select typeof(popularity) || typeof(tempo) from items where id = '"'s02'"'")" = integerreal'
test_ok 'text matches without regard to case' \
	'test "$(q s.db "select count(*) from items where track_artist = '"'daft punk'"'")" = 2'
test_ok 'the columns tools filter on are indexed' \
	'q s.db ".indexes items" | grep -q items_popularity &&
	 q s.db ".indexes items" | grep -q items_release_date'
test_ok 'the catalog says what it is' \
	'test "$(q s.db "select value from meta where key = '"'format'"'")" = rec-catalog'

test_fail 'an existing catalog is not replaced by accident' 1 \
	"catalog 's.db' exists \(use --force" 'songs'
test_ok '--force replaces it' \
	'rec-import -f -d s.db items -i track_id "$DATA/songs.csv" &&
	 test "$(q s.db "select count(*) from interactions")" = 0'

printf 'id,title,year\n1,A,2001\n2,B,2002\n3,C\n4,D,2004\n' > bad.csv
test_fail 'a bad row is an error naming file and line' 1 \
	'^rec-import: bad.csv:4: 2 fields, expected 3$' 'rec-import -d b.db items bad.csv'
test_ok 'a failed import leaves no catalog and no temporary file' \
	'! test -e b.db && test -z "$(ls -A | grep b.db)"'
test_ok '--skip-bad skips and counts' \
	'rec-import -v -s -d b.db items bad.csv 2> err &&
	 grep -q "3 items from 3 rows, 1 bad rows skipped" err &&
	 test "$(q b.db "select group_concat(id) from items")" = 1,2,4'
printf 'id,title\n1,"open\n2,B\n' > unterminated.csv
test_fail 'an unterminated quote names the line it started on' 1 \
	'unterminated.csv:2: unterminated quoted field' \
	'rec-import -d u.db items unterminated.csv'
printf 'id,title\n1,Caf\351\n' > latin1.csv
test_fail 'invalid UTF-8 names line and field, and the fix' 1 \
	'latin1.csv:2: invalid UTF-8 in field 2 \(try --encoding latin1\)' \
	'rec-import -d l.db items latin1.csv'
test_ok '--encoding latin1 converts' \
	'rec-import -e latin1 -d l.db items latin1.csv &&
	 test "$(q l.db "select title from items")" = "Café"'
printf '\357\273\277id,title\r\n1,"A, a"\r\n2,B\r\n' > bom.csv
test_ok 'a byte order mark and CRLF line ends' \
	'rec-import -d bom.db items bom.csv &&
	 test "$(q bom.db "select group_concat(title, \"|\") from items")" = "A, a|B"'
printf 'id\ttitle\tn\n1\tA "quoted"\t3\n' > t.tsv
test_ok 'TSV takes quotes literally' \
	'rec-import -d t.db items t.tsv && test "$(q t.db "select title from items")" = "A \"quoted\""'
test_ok 'JSONL items: arrays are lists, keys are columns' \
	'rec-import -d j.db items "$DATA/items.jsonl" &&
	 test "$(q j.db "select genres from items where id = '"'m3'"'")" = "[\"Horror\",\"Sci-Fi\"]" &&
	 test "$(q j.db "select type from columns where name = '"'year'"'")" = integer &&
	 test "$(q j.db "select role from columns where name = '"'genres'"'")" = tags &&
	 test "$(q j.db "select count(director) from items")" = 1'
printf '{"id":"a"}\n{"id":"b",}\n' > bad.jsonl
test_fail 'bad JSONL names the line' 1 'bad.jsonl:2: expected a string key' \
	'rec-import -d bj.db items bad.jsonl'
test_ok 'overrides: --type, --role, --rename, --drop, --split, --extract' \
	'rec-import -d o.db items -i track_id -t popularity=text -r genre=tags \
	   -R track_name=title -x tempo -S album=" " \
	   -X year="release_date:^([0-9]{4})" "$DATA/songs.csv" &&
	 test "$(q o.db "select type from columns where name = '"'popularity'"'")" = text &&
	 test "$(q o.db "select role from columns where name = '"'genre'"'")" = tags &&
	 test "$(q o.db "select title from items where id = '"'s05'"'")" = "Enter Sandman" &&
	 test "$(q o.db "select count(*) from columns where name = '"'tempo'"'")" = 0 &&
	 test "$(q o.db "select album from items where id = '"'s07'"'")" = "[\"OK\",\"Computer\"]" &&
	 test "$(q o.db "select year from items where id = '"'s09'"'")" = 2019'
test_fail 'an unknown role is a usage error' 2 "unknown role 'loudness'" \
	'rec-import -d x.db items -r tempo=loudness "$DATA/songs.csv"'
test_fail 'an unknown column in an option is a usage error' 2 \
	"--list: no column 'playlists'" \
	'rec-import -d x.db items -i track_id -l playlists "$DATA/songs.csv"'
test_fail 'a missing step is a usage error' 2 'expected a step' 'rec-import -d x.db'

# later steps replace the catalog only when they succeed
test_ok 'interactions with weight and time' \
	'songs i.db && rec-import -d i.db interactions -u user -i track -w plays -T time "$DATA/plays.csv" &&
	 test "$(q i.db "select count(*) from interactions")" = 17 &&
	 test "$(q i.db "select weight || \" \" || time from interactions where user = '"'u2'"' and item = '"'s05'"'")" = "7.0 1600000200" &&
	 test "$(q i.db "select count(*) from users")" = 7'
# a year is 31557600 s: s01's two plays are this year's and last year's,
# 1 + 1/2; s02's one is two years old, 1/4; s03's has no time, 1
test_ok 'with times, recent counts an interaction half for each year it is older, and is the popularity' \
	'rec-import -d r.db items -i track_id "$DATA/songs.csv" && printf "%s\n" user,track,time u1,s01,1000000000 u2,s01,968442400 \
	   u1,s02,936884800 u3,s03, > dated.csv &&
	 rec-import -d r.db interactions -u user -i track -T time dated.csv &&
	 test "$(q r.db "select id || \" \" || recent from items where id in ('"'s01'"', '"'s02'"', '"'s03'"', '"'s04'"') order by id")" = \
	   "$(printf "%s\n" "s01 1.5" "s02 0.25" "s03 1.0" "s04 0.0")" &&
	 test "$(q r.db "select role from columns where name = '"'recent'"'")" = popularity &&
	 test "$(q r.db "select role from columns where name = '"'interactions'"'")" = number &&
	 test "$(q s.db "select count(*) from columns where name = '"'recent'"'")" = 0'
printf 'user,track\nu1,s01\nu1,zz\n' > plays_bad.csv
test_fail 'an interaction with an unknown item names the line' 1 \
	"plays_bad.csv:3: item 'zz' is not in the catalog" \
	'cp i.db before.db; rec-import -d i.db interactions -u user -i track plays_bad.csv'
test_ok 'and leaves the catalog as it was' 'cmp before.db i.db && test -z "$(ls -A | grep "\.tmp")"'
test_ok 'join matches normalised names (case, accents)' \
	'rec-import -v -d i.db join -k artist -o track_artist -S tags="|" "$DATA/artist_tags.tsv" 2> err &&
	 grep -q "6 items matched" err &&
	 test "$(q i.db "select tags from items where id = '"'s03'"'")" = "[\"pop\",\"r&b\"]" &&
	 test "$(q i.db "select tags from items where id = '"'s01'"'")" = "[\"electronic\",\"french house\"]" &&
	 test "$(q i.db "select count(*) from items where tags is null")" = 3 &&
	 test "$(q i.db "select role || list from columns where name = '"'tags'"'")" = tags1'
printf '%s\n' '{"id":"a","artist":"Metallica, Lou Reed"}' \
	'{"id":"b","artist":"Daft Punk feat. Pharrell Williams"}' \
	'{"id":"c","artist":"Lou Reed"}' > multi.jsonl
test_ok 'join matches a list of names by its first name' \
	'rec-import -d multi.db items multi.jsonl &&
	 rec-import -d multi.db join -k artist -o artist -S tags="|" "$DATA/artist_tags.tsv" &&
	 test "$(q multi.db "select id || tags from items where tags is not null order by id" | tr "\n" " ")" = \
	   "a[\"metal\",\"thrash\"] b[\"electronic\",\"french house\"] "'
printf 'id,age,country\nu1,31,FR\nu9,22,DE\n' > users.csv
test_ok 'users with attributes' \
	'rec-import -d i.db users users.csv &&
	 test "$(q i.db "select age from users where id = '"'u1'"'")" = 31 &&
	 test "$(q i.db "select count(*) from users")" = 8'
test_fail 'a step on a file that is not a catalog' 1 "is not a rec catalog" \
	'echo hello > notdb; rec-import -d notdb users users.csv'

# every option belongs to some steps: given to another, it is a usage
# error that writes nothing.  untouched runs rec-import and turns its
# status into 99 when it made a file or changed w.db (a copy of i.db).
untouched() {
	cp i.db w.db
	ls > .before
	rec-import "$@"
	st=$?
	ls > .after
	cmp -s i.db w.db && cmp -s .before .after || st=99
	return $st
}
test_fail 'an option of another step: items --space' 2 \
	"^rec-import: option '--space' does not apply to step 'items' \(it is for: vectors\)$" \
	'untouched -d new.db items --space foo "$DATA/songs.csv"'
test_fail 'an option of another step: items -u' 2 \
	"^rec-import: option '-u' does not apply to step 'items' \(it is for: interactions\)$" \
	'untouched -d new.db items -i track_id -u user "$DATA/songs.csv"'
test_fail 'an option of another step: interactions -k' 2 \
	"^rec-import: option '-k' does not apply to step 'interactions' \(it is for: join\)$" \
	'untouched -d w.db interactions -u user -i track -k artist "$DATA/plays.csv"'
test_fail 'an option of another step: users --role' 2 \
	"^rec-import: option '--role' does not apply to step 'users' \(it is for: items, join\)$" \
	'untouched -d w.db users --role age=number users.csv'
test_fail 'an option of another step: join --item' 2 \
	"^rec-import: option '--item' does not apply to step 'join' \(it is for: items, interactions, users\)$" \
	'untouched -d w.db join --item x -k artist -o track_artist "$DATA/artist_tags.tsv"'
test_fail 'an option of another step: vectors -F' 2 \
	"^rec-import: option '-F' does not apply to step 'vectors' \(it is for: items, interactions, users, join\)$" \
	'untouched -d w.db vectors -F csv -a toy -c popularity'
test_fail 'an option of another step: join -f in a bundle' 2 \
	"^rec-import: option '-f' does not apply to step 'join' \(it is for: items\)$" \
	'untouched -d w.db join -svsvsvsvfv -k artist -o track_artist "$DATA/artist_tags.tsv"'
test_fail 'the first of several wrong options is named' 2 \
	"^rec-import: option '-a' does not apply to step 'users' \(it is for: vectors\)$" \
	'untouched -d w.db users -v -a x -u y users.csv'
test_fail 'an unknown step names every step' 2 \
	"^rec-import: unknown step 'vector' \(items, interactions, users, join, vectors\)$" \
	'untouched -d w.db vector v.jsonl'

# STEP LETTERS, a line per step: the options each synopsis line of
# --help (help_steps) or of the man page (man_steps) shows
letters() { grep -oE -- "$1" | sed 's/.*[- ]//' | fold -w1 | LC_ALL=C sort -u | tr -d '\n'; }
help_steps() {
	rec-import --help | sed 's/^usage: //' | awk '
		/^ *rec-import / { if (l != "") print l; l = $0; next }
		/^                  / && l != "" { l = l $0; next }
		{ if (l != "") print l; l = "" }' |
	while read -r line; do
		printf '%s %s\n' "$(echo "$line" | cut -d' ' -f4)" \
		    "$(echo "$line" | letters '(^|[[ |])-[A-Za-z]+')"
	done
}
man_steps() {
	awk '/^\.Sh/ { if (l != "") print l; l = ""; on = $2 == "SYNOPSIS"; next }
	    on && /^\.Nm/ { if (l != "") print l; l = ""; next }
	    on { l = l " " $0 }' "$TOP/man/rec-import.1" |
	while read -r line; do
		printf '%s %s\n' "$(echo "$line" | grep -oE '\.Cm [a-z]+' | cut -c5-)" \
		    "$(echo "$line" | letters 'Fl [A-Za-z]+')"
	done
}
# takes STEP LETTER: whether the step takes the option (it fails, but
# not because of the option)
takes() {
	case $2 in
	F) a=csv ;; e) a=utf-8 ;; R | S) a=a=b ;; r) a=a=title ;;
	t) a=a=text ;; X) a=a=b:c ;; *) a=x ;;
	esac
	case $2 in
	f | s | v) set -- "$1" "-$2" ;;
	*) set -- "$1" "-$2" "$a" ;;
	esac
	! rec-import -d none.db "$@" nofile 2>&1 | grep -q 'does not apply'
}
check_steps() {
	help_steps > help.steps && man_steps > man.steps &&
	diff -u help.steps man.steps && test "$(wc -l < help.steps)" -eq 5 ||
		return 1
	all=$(rec-import --help | grep -oE '^  -[A-Za-z], --' | cut -c4 | grep -v '[hV]')
	while read -r step shown; do
		for l in $all; do
			case $shown in
			*$l*) takes "$step" "$l" ||
				{ echo "$step: -$l shown, not taken" >&2; return 1; } ;;
			*) ! takes "$step" "$l" ||
				{ echo "$step: -$l taken, not shown" >&2; return 1; } ;;
			esac
		done
	done < help.steps
	! test -e none.db
}
test_ok 'each step takes just the options its --help and man page lines show' \
	'check_steps'

# each step with the options it takes
printf 'user\ttrack\tplays\nu1\ts01\tNA\nu1\tzz\t2\n' > plays.txt
test_ok 'interactions with -F, -N, -s, -v' \
	'cp i.db w2.db && rec-import -sv -F tsv -N NA -d w2.db interactions -u user -i track -w plays plays.txt 2> err &&
	 grep -q "1 interactions, 1 bad rows skipped" err &&
	 test "$(q w2.db "select count(*) from interactions where user = '"'u1'"' and weight = 1 and time is null")" = 1'
printf 'id,height,city,langs,bio,junk\nu1,180,Lyon,fr|en,born 1990,z\n' > users2.csv
test_ok 'users with -R, -x, -l, -S, -X, -t' \
	'rec-import -sv -d w2.db users -x junk -R city=town -l town -S langs="|" \
	   -X born="bio:([0-9]{4})" -t height=real users2.csv &&
	 test "$(q w2.db "select height || town || langs || born from users where id = '"'u1'"'")" = "180.0[\"Lyon\"][\"fr\",\"en\"]1990"'
test_ok 'join with -F, -N, -X, -r, -t' \
	'rec-import -sv -F tsv -N none -d w2.db join -k artist -o track_artist \
	   -R tags=tags2 -X first="tags2:^([^|]*)" -r first=category -t first=text "$DATA/artist_tags.tsv" &&
	 test "$(q w2.db "select first from items where id = '"'s01'"'")" = electronic &&
	 test "$(q w2.db "select role from columns where name = '"'first'"'")" = category'
test_ok 'vectors with -s, -v' \
	'printf "{\"id\":\"s01\",\"vec\":[1,2]}\n{\"id\":\"zz\",\"vec\":[3,4]}\n" |
	 rec-import -sv -d w2.db vectors -a toy - 2> err &&
	 grep -q "1 vectors of dimension 2, 1 skipped" err'

# NUL ("\u0000") in a JSONL string would cut the value short
printf '{"id":"a","t":"x"}\n{"id":"b"}\n{"id":"a\\u0000b"}\n' > nul.jsonl
test_fail 'a NUL in an id is refused, naming file, line and field' 1 \
	"^rec-import: nul.jsonl:3: NUL in field 'id'$" 'untouched -d nul.db items nul.jsonl'
printf '{"id":"a","t":["x","y\\u0000z"]}\n' > nul2.jsonl
test_fail 'a NUL in a list of text' 1 "^rec-import: nul2.jsonl:1: NUL in field 't'$" \
	'untouched -d nul.db items nul2.jsonl'
printf '{"id":"a","t\\u0000":1}\n' > nul3.jsonl
test_fail 'a NUL in a key' 1 '^rec-import: nul3.jsonl:1: NUL in a key$' \
	'untouched -d nul.db items nul3.jsonl'
printf '{"user":"u1","track":"s01"}\n{"user":"u\\u0000","track":"s02"}\n' > nul4.jsonl
test_fail 'a NUL in a later step leaves the catalog as it was' 1 \
	"^rec-import: nul4.jsonl:2: NUL in field 'user'$" \
	'untouched -d w.db interactions -u user -i track nul4.jsonl'
printf '{"id":"s01\\u0000x","vec":[1,2]}\n' > nul5.jsonl
test_fail 'a NUL in a vector id' 1 "^rec-import: nul5.jsonl:1: NUL in field 'id'$" \
	'untouched -d w.db vectors -a toy nul5.jsonl'
test_ok '--skip-bad skips a row with NUL' \
	'rec-import -sv -d nul.db items nul.jsonl 2> err &&
	 grep -q "2 items from 2 rows, 1 bad rows skipped" err &&
	 test "$(q nul.db "select group_concat(id || coalesce(t, \"-\")) from items")" = ax,b-'

# rec-cat over the catalog
export REC_DB=i.db
test_ok 'rec-cat --fields adds catalog fields under item' \
	'echo "{\"id\":\"s01\",\"score\":1}" | rec-cat -f track_name,playlist,popularity > out &&
	 echo "{\"id\":\"s01\",\"score\":1,\"item\":{\"track_name\":\"One More Time\",\"playlist\":[\"Dance Classics\",\"Party\"],\"popularity\":81}}" | diff -u - out'
test_ok 'rec-cat --fields replaces an old item' \
	'echo "{\"id\":\"s07\",\"item\":{\"x\":1}}" | rec-cat -f track_artist |
	 grep -qx "{\"id\":\"s07\",\"item\":{\"track_artist\":\"Radiohead\"}}"'
test_fail 'an unknown field suggests the closest' 2 \
	"^rec-cat: no such field 'track_nme' \(did you mean 'track_name'\?\)$" \
	'echo "{\"id\":\"s01\"}" | rec-cat -f track_nme'
test_fail 'ids not in the catalog pass through with a warning' 0 \
	'1 ids not in the catalog' \
	'printf "{\"id\":\"s01\"}\n{\"id\":\"nope\"}\n" | rec-cat -f tempo > out && grep -qx "{\"id\":\"nope\"}" out'
test_ok 'rec-cat --table shows fields for people' \
	'printf "{\"id\":\"s02\",\"score\":0.5,\"src\":\"cf\"}\n" | rec-cat -t -f track_name,track_artist > out &&
	 printf "%s\n" "#  id   score  src  track_name  track_artist" \
	   "1  s02  0.5    cf   Get Lucky   Daft Punk" | diff -u - out'
test_ok 'rec-cat --table of an empty stream prints the header' \
	'rec-cat -t -f track_name,track_artist,popularity,album < /dev/null > out &&
	 printf "%s\n" "#  id  score  src  track_name  track_artist  popularity  album" | diff -u - out'
test_fail 'no catalog at all' 2 'no catalog: give -d CATALOG or set REC_DB' \
	'echo "{\"id\":\"a\"}" | REC_DB= rec-cat -f x'
test_fail 'a catalog that does not exist' 1 "cannot open catalog 'nope.db'" \
	'echo "{\"id\":\"a\"}" | rec-cat -d nope.db -f x'

done_testing
