#!/bin/sh
# The conversation as state: a follow-up that changes one thing keeps
# the rest; references to what was shown; what was seen or turned down
# never comes back; "more" without repeats, not even under another id.
. "$(dirname "$0")/lib.sh"

rec-import -d tunes.db items -i id -r title=title -r artist=creator \
	-r album=collection -l genre -t year=integer -r year=date \
	"$DATA/tunes.csv" && rec-bm25 -d tunes.db --index &&
rec-import -d films.db items -i movieId -S genres='|' \
	-X year='title:\(([0-9]{4})[^()]*\) *$' -t year=integer -r year=date \
	"$DATA/films.csv" &&
	rec-import -d films.db interactions -u userId -i movieId -w rating \
	"$DATA/film-ratings.csv" && rec-train -d films.db itemknn > /dev/null &&
	rec-bm25 -d films.db --index || exit 1

# one conversation: the messages on standard input, one answer a line
talk() { db=$1; shift; printf '%s\n' "$@" | rec-chat -d "$db" -S s.jsonl; }
ids_of() { sed -n "${1}p" | grep -o '"id":"[^"]*"' | cut -d'"' -f4; }
# the state after the last turn of s.jsonl, one key a line
state() { tail -1 s.jsonl | sed 's/.*"intent":{"\(.*\)},"plan".*/\1/; s/^\([a-z_]*\)":/\1:/' |
	sed 's/,"\([a-z_]*\)":/\n\1:/g'; }
# the last turn of s.jsonl as it is written
last() { tail -1 s.jsonl; }
fresh() { rm -f s.jsonl; }

test_ok 'a follow-up that sets the era keeps the genre' \
	'fresh && talk tunes.db "some pop" "only ones from before 2015" > out &&
	 state > st && grep -q "^tags:\[\"genre:pop\"" st &&
	 grep -q "\"column\":\"year\",\"op\":\"<\",\"value\":2015" s.jsonl &&
	 for i in $(ids_of 2 < out); do
	   test "$(sqlite3 tunes.db "select year < 2015 and genre like '"'"'%pop%'"'"' from items where id = '"'"'$i'"'"'")" = 1 || exit 1
	 done'
test_ok 'a new mood replaces the old one, the era stays' \
	'fresh && talk tunes.db "sad songs from the 90s" "something happier" > /dev/null &&
	 state | grep -q "^concepts:\[\"happy\"\]" &&
	 ! last | grep -q "\"say\":\"sad\"" && last | grep -q "\"say\":\"from the 1990s\""'
test_ok '"more upbeat" changes the mood, not "more of the same": the calm goes, the genre stays' \
	'fresh && talk tunes.db "chill pop songs" "a bit more upbeat now" > /dev/null &&
	 state > st && ! grep -q "more of the same" st && grep -q "genre:pop" st &&
	 ! last | grep -q "\"say\":\"calm\"" && last | grep -q "\"column\":\"valence\",\"op\":\">=\"" &&
	 fresh && talk tunes.db "chill pop songs" "some more upbeat ones" > /dev/null &&
	 ! last | grep -q "\"say\":\"calm\"" &&
	 fresh && talk tunes.db "pop songs" "nothing for dancing" > /dev/null &&
	 state | grep -q "^need:\[\"genre:pop\"\]"'
test_ok 'a new subject said with a mood or an era of its own is a new request: the old tempo goes' \
	'fresh && talk tunes.db "rock over 120 bpm" "happy songs like Queen from the 70s" > /dev/null &&
	 ! last | grep -q "\"column\":\"tempo\"" && last | grep -q "\"say\":\"from the 1970s\""'
test_ok 'a new subject alone keeps the rest' \
	'fresh && talk tunes.db "songs over 120 bpm" "some Queen" > /dev/null &&
	 last | grep -q "\"column\":\"tempo\""'
test_ok '"no more X" keeps the topic and drops X' \
	'fresh && talk tunes.db "3 pop songs" "no more Blue Days" > out &&
	 state > st && grep -q "^disliked_creators:\[\"Blue Days\"\]" st &&
	 grep -q "^tags:\[\"genre:pop\"" st && ! ids_of 2 < out | grep -q "t09\|t10" &&
	 test -n "$(ids_of 2 < out)"'
test_ok '"not so dark, something lighter" turns dark down' \
	'fresh && talk films.db "a dark thriller" "not so dark, something lighter" > /dev/null &&
	 state > st && grep -q "^concepts:.*\"light\"" st && grep -q "\"not:dark\"" st &&
	 ! grep -q "mood:dark" st'
test_ok '"any genre" drops the genre and keeps the rest' \
	'fresh && talk tunes.db "upbeat rock" "any genre is fine as long as it is upbeat" > /dev/null &&
	 ! state | grep -q "genre:rock" && last | grep -q "\"say\":\"upbeat\""'
test_ok '"the second one" is the second item shown' \
	'fresh && talk films.db "movies like The Matrix" "more like the second one" > out &&
	 second=$(ids_of 1 < out | sed -n 2p) && state | grep -q "^liked_items:\[\"$second\"\]"'
# a series, "Star Wars: Episode ..." (1, 2, 3): "star wars" in lower
# case after one was shown is the title again, not the category "war"
# of Apocalypse Now (5), and the whole series goes
cat > saga.csv <<'EOF'
movieId,title,genres
1,Star Wars: Episode IV - A New Hope (1977),Action|Adventure|Sci-Fi
2,Star Wars: Episode V - The Empire Strikes Back (1980),Action|Adventure|Sci-Fi
3,Star Wars: Episode VI - Return of the Jedi (1983),Action|Adventure|Sci-Fi
4,Alien (1979),Horror|Sci-Fi
5,Apocalypse Now (1979),Action|Drama|War
6,Blade Runner (1982),Action|Sci-Fi|Thriller
7,Toy Story (1995),Adventure|Animation|Children|Comedy
8,Jaws (1975),Action|Horror
9,Groundhog Day (1993),Comedy|Fantasy|Romance
10,Pulp Fiction (1994),Comedy|Crime|Drama|Thriller
11,Elf (2003),Children|Comedy|Fantasy
12,Finding Nemo (2003),Adventure|Animation|Children|Comedy
13,Up (2009),Adventure|Animation|Children|Drama
14,Heat (1995),Action|Crime|Thriller
EOF
rec-import -d saga.db items -i movieId -S genres='|' saga.csv || exit 1
test_ok 'a title shown before, said again in lower case and turned down: none of its series' \
	'fresh && talk saga.db "star wars" "not star wars, something similar" > out &&
	 ids_of 1 < out | grep -qx 1 && state > st &&
	 grep -q "^understood:\"not like .star wars., more of the same\"" st &&
	 for i in 1 2 3; do grep "^disliked_items:" st | grep -q "\"$i\"" || exit 1; done &&
	 ! grep -q "^disliked_tags:\[\"" st && test -n "$(ids_of 2 < out)" &&
	 test -z "$(ids_of 2 < out | grep -x "1\|2\|3")"'
# the whole subject turned down: what was shown shows the way
test_ok '"no horror, something similar": like what was shown, none of it horror' \
	'fresh && talk films.db "horror" "no horror, something similar" > out &&
	 test "$(state | grep "^liked_items:" | grep -o "\"[0-9]*\"" | wc -l)" = "$(ids_of 1 < out | wc -l)" &&
	 ids=$(ids_of 2 < out) && test -n "$ids" &&
	 for i in $ids; do
	   test "$(sqlite3 films.db "select genres like '"'"'%Horror%'"'"' from items where id = '"'"'$i'"'"'")" = 0 || exit 1
	 done'
# one of the items shown is no new subject: the request goes on
test_ok '"more like the second one" after "2 comedy movies" stays among the comedies' \
	'fresh && talk films.db "2 comedy movies" "more like the second one" > out &&
	 state | grep -q "^need:\[\"genre:comedy\"\]" && ids=$(ids_of 2 < out) && test -n "$ids" &&
	 for i in $ids; do
	   test "$(sqlite3 films.db "select genres like '"'"'%Comedy%'"'"' from items where id = '"'"'$i'"'"'")" = 1 || exit 1
	 done'
test_ok '"the one from 1979" is the item of that year' \
	'fresh && talk films.db "scary movies" "more like the one from 1979" > out &&
	 y=$(state | sed -n "s/^liked_items:\[\"\([0-9]*\)\"\]/\1/p") &&
	 test "$(sqlite3 films.db "select year from items where id = '"'"'$y'"'"'")" = 1979'
test_ok '"not that artist" turns the artist of the list down' \
	'fresh && talk tunes.db "songs by queen" "not that artist" > out &&
	 state | grep -q "^disliked_creators:\[\"Queen\"\]" && ! ids_of 2 < out | grep -q "t04\|t13"'
test_ok 'seen is never shown again, and is no like' \
	'fresh && talk films.db "I have seen Alien" "scary movies" > out &&
	 state > st && grep -q "^seen:\[\"10\"\]" st && ! grep -q "^liked_items:\[\"10\"" st &&
	 ! ids_of 2 < out | grep -qx 10'
test_ok '"I have also watched X" is seen, said with helping words' \
	'fresh && talk films.db "2 comedies" "I have also watched Alien" > out &&
	 state > st && grep -q "^seen:\[\"10\"\]" st && ! grep -q "^wanted:\[\"10\"" st &&
	 ! ids_of 2 < out | grep -qx 10 && test -n "$(ids_of 2 < out)"'
test_ok 'seen and liked is a like, and still never shown' \
	'fresh && talk films.db "we have both seen Alien and loved it" > out &&
	 state > st && grep -q "^liked_items:\[\"10\"\]" st && ! grep -q "^wanted:\[\"10\"" st &&
	 ! ids_of 1 < out | grep -qx 10 && test -n "$(ids_of 1 < out)"'
test_ok '"I love Inception and Jaws": a capital after a name just read is a name too' \
	'fresh && talk films.db "I love Inception and Jaws" > /dev/null &&
	 state | grep -q "^liked_items:\[\"8\",\"16\"\]"'
test_ok '"I did not like any of those": the list and its creators are turned down, the topic stays' \
	'fresh && talk tunes.db "2 edm songs" "I did not like any of those, more edm" > out &&
	 test "$(ids_of 1 < out | tr "\n" " ")" = "t06 t15 " &&
	 test "$(ids_of 2 < out | tr "\n" " ")" = "t08 " &&
	 state | grep -q "^disliked_items:\[\"t06\",\"t15\"\]"'
test_ok 'chit-chat goes on from the state' \
	'fresh && talk tunes.db "songs by queen" "thanks, sounds good" > out &&
	 state | grep -q "^liked_creators:\[\"Queen\"\]"'
test_ok '"more" shows nothing twice' \
	'fresh && talk films.db "3 scary movies" "more" "more" > out &&
	 { ids_of 1 < out; ids_of 2 < out; ids_of 3 < out; } | sort | uniq -d > dup &&
	 test ! -s dup && test -n "$(ids_of 2 < out)"'
# the same song under another id is a repeat
printf '%s\n' id,title,artist,popularity,genre 'a1,Same Song,Band A,90,pop' \
	'a2,Same Song,Band A,80,pop' 'b1,Other Song,Band B,70,pop' 'c1,Third Song,Band C,60,pop' \
	'a3,Same Song - Remastered 2011,Band A,50,pop' 'a4,Same Song (Live),"Band A, Guest",40,pop' \
	'd1,Fourth Song,Band D,30,pop' > rel.csv
rec-import -d rel.db items -i id -r title=title -r artist=creator -l genre rel.csv &&
	rec-bm25 -d rel.db --index || exit 1
test_ok '"more" does not bring back a song shown under another id' \
	'fresh && talk rel.db "pop" "more" > out &&
	 ids_of 1 < out | grep -qx a1 && ! ids_of 2 < out | grep -qx a2'
test_ok 'nor as a remaster, a live take or with a guest: the same song by the same first creator' \
	'fresh && talk rel.db "2 pop songs" "more" > out &&
	 test "$(ids_of 1 < out | tr "\n" " ")" = "a1 b1 " &&
	 test "$(ids_of 2 < out | tr "\n" " ")" = "c1 d1 "'
test_ok 'items liked before stay as weaker seeds when the subject changes' \
	'fresh && talk films.db "I loved Alien" "some comedies" > /dev/null &&
	 state | grep -q "^earlier_items:\[\"10\"\]" &&
	 tail -1 s.jsonl | grep -q "rec-cf -e -s earlier"'

# the categories of an old subject stay as a weak preference when a new
# subject replaces it: films.csv has six comedies; the first turn shows
# two (4, 3), and after "like Alien" (horror, sci-fi) the other four
# (9, 7, 11, 17) are in the list, for that reason
test_ok 'a new subject keeps the old categories as a weak preference' \
	'fresh && talk films.db "2 comedy movies" "something like Alien" > out &&
	 state | grep -q "^kept:\[\"genre:comedy\"\]" && last | grep -q "rec-sql -a -s kept" &&
	 test "$(ids_of 2 < out | grep -cx "9\|7\|11\|17")" = 4 &&
	 sed -n 2p out | grep -q "\"id\":\"11\",[^}]*\"reason\":\"keeps to what you asked for before\""'
test_ok 'they go on while the subject stays' \
	'fresh && talk films.db "2 comedy movies" "something like Alien" "from the 1970s" > /dev/null &&
	 state | grep -q "^kept:\[\"genre:comedy\"\]"'
test_ok 'a word of change, or turning them down, drops them' \
	'fresh && talk films.db "2 comedy movies" "something like Alien instead" > /dev/null &&
	 state | grep -q "^kept:\[\]" && ! last | grep -q "\-s kept" &&
	 fresh && talk films.db "2 comedy movies" "no comedy, something like Alien" > /dev/null &&
	 state | grep -q "^kept:\[\]"'

test_ok 'the three kept last go on: old subjects fade' \
	'fresh && talk films.db "some comedy movies" "some horror movies" "some drama movies" \
	 "some war movies" "something like Alien" > /dev/null &&
	 state | grep -q "^kept:\[\"genre:horror\",\"genre:drama\",\"genre:war\"\]"'

# "a different band": the creators of the last list and those named
# before are not shown; "X and other artists" keeps X
test_ok '"rock by a different band": none by the bands just shown' \
	'fresh && talk tunes.db "2 rock songs" "rock by a different band" > out &&
	 test -n "$(ids_of 2 < out)" && last | grep -q "by others" &&
	 for i in $(ids_of 2 < out); do
	   for j in $(ids_of 1 < out); do
	     test "$(sqlite3 tunes.db "select count(*) from items a, items b where a.id = '"'"'$i'"'"' and b.id = '"'"'$j'"'"' and a.artist = b.artist")" = 0 || exit 1
	   done
	 done'
test_ok '"show me another artist" after a creator asked for: the same by others' \
	'fresh && talk tunes.db "some Queen" "show me another artist" > out &&
	 last | grep -q "by others" &&
	 test -n "$(ids_of 2 < out)" && ! ids_of 2 < out | grep -q "t04\|t13"'
test_ok '"similar bands", "bands like them": the creators so far are the model, others play' \
	'for m in "now similar bands" "any bands like them?"; do
	   fresh && talk tunes.db "some Queen" "$m" > out &&
	   state | grep -q "^similar:\[\"Queen\"\]" &&
	   test -n "$(ids_of 2 < out)" && ! ids_of 2 < out | grep -q "t04\|t13" || exit 1
	 done'
test_ok '"his older stuff, before 1978": the creator named before, and the year said outright, not "older"' \
	'fresh && talk tunes.db "some Queen" "what about his older stuff, before 1978" > out &&
	 state | grep -q "^liked_creators:\[\"Queen\"\]" &&
	 last | grep -q "\"op\":\"<\",\"value\":1978" && ! last | grep -q "\"say\":\"older\""'
# "his songs", "more of her": the creator named last
test_ok '"reggae is great, more of his songs": the creator named before' \
	'fresh && talk tunes.db "some Bob Marley" "reggae is great, more of his songs please" > /dev/null &&
	 state | grep -q "^liked_creators:\[\"Bob Marley\"\]" &&
	 fresh && talk tunes.db "some Bob Marley" "more of his songs, and some Queen" > /dev/null &&
	 state | grep -q "^liked_creators:\[\"Queen\"\]"'

# a name the last list showed, written as heard ("gym heros"), is that
# creator; with nothing shown it is no name
test_ok 'a creator shown before, misspelt and lowercase, is that creator' \
	'fresh && talk tunes.db "some edm and reggae" "more of gym heros" > /dev/null &&
	 state | grep -q "^liked_creators:\[\"Gym Heroes\"\]" &&
	 fresh && talk tunes.db "more of gym heros" > /dev/null &&
	 ! state | grep -q "^liked_creators:\[\"Gym Heroes\"\]"'

# a reply that showed nothing and proposed something ("do you like
# reggae?"): a "yes" takes it up; a question of no taste proposes nothing
offer() { sed "s/\"offer\":\[[^]]*\]/\"offer\":[\"$1\"]/" s.jsonl > s2 && mv s2 s.jsonl; }
test_ok '"yes please" to a reply asking "do you like reggae?" is reggae' \
	'fresh && talk tunes.db "hello" > /dev/null && state | grep -q "^offer:\[\"What are" &&
	 offer "Great. Do you like reggae music?" && talk tunes.db "yes please" > out &&
	 state | grep -q "^tags:\[\"genre:reggae\"" && test -n "$(ids_of 1 < out)" &&
	 for i in $(ids_of 1 < out); do
	   test "$(sqlite3 tunes.db "select genre like '"'"'%reggae%'"'"' from items where id = '"'"'$i'"'"'")" = 1 || exit 1
	 done'
test_ok '"sure" to "you are old enough for rock, are you not?" and to rec'"'"'s own question asks again' \
	'fresh && talk tunes.db "hello" > /dev/null && offer "You are old enough for rock, are you not? haha" &&
	 talk tunes.db "sure am" > /dev/null && last | grep -q "\"ask\":\"What are you" &&
	 fresh && talk tunes.db "hello" "yes" > /dev/null && last | grep -q "\"ask\":\"What are you"'

# "more like that one" after a reply that showed one to three: those
# are the model; after a longer list, the topic goes on
test_ok '"any others like that one?" after two songs shown: they are the model; after five, the topic goes on' \
	'fresh && talk tunes.db "one reggae song" "any others like that one?" > out &&
	 test "$(ids_of 1 < out | sort | tr "\n" " ")" = "t16 t17 " &&
	 state | grep -q "^liked_items:\[\"t16\",\"t17\"\]" &&
	 fresh && talk tunes.db "5 rock songs" "any others like that?" > /dev/null &&
	 state | grep -q "^liked_items:\[\]" && state | grep -q "^tags:\[\"genre:rock\""'

# a creator liked before, not named now, of whom four songs were shown:
# theirs count less; named again, not
{ echo id,title,artist,genre
  for i in 1 2 3 4 5 6 7 8 9; do echo "g$i,Gull Song $i,The Gulls,rock"; echo "o$i,Other Song $i,Other Band $i,rock"; done; } > worn.csv &&
	rec-import -d worn.db items -i id -r title=title -r artist=creator -l genre worn.csv &&
	rec-bm25 -d worn.db --index || exit 1
test_ok 'a creator had enough of: "I love The Gulls", "great, more please"' \
	'fresh && talk worn.db "I love The Gulls" "great, more please" "songs by The Gulls" > /dev/null &&
	 ! sed -n 1p s.jsonl | grep -q "startswith" &&
	 sed -n 2p s.jsonl | grep -q "startswith(\\\\\"The Gulls\\\\\")" &&
	 ! sed -n 3p s.jsonl | grep -q "startswith"'

# a genre most of whose items are of the genre in force narrows it
# ("reggae", then "focus on Jamaica"); one that is not replaces it
{ echo id,title,artist,genre
  for i in 1 2 3 4; do echo "j$i,Island Song $i,Island Band $i,reggae|jamaica"; done
  for i in 1 2 3; do echo "r$i,Roots Song $i,Roots Band $i,reggae"; echo "k$i,Rock Song $i,Rock Band $i,rock"; done
  echo "x1,Odd Song,Odd Band,rock|jamaica"
  # untagged ones: tags, not a category every item has (kept to)
  for i in 1 2 3; do echo "n$i,Plain Song $i,Plain Band $i,"; done; } > isle.csv &&
	rec-import -d isle.db items -i id -r title=title -r artist=creator -S genre='|' -r genre=tags isle.csv &&
	rec-bm25 -d isle.db --index || exit 1
test_ok '"reggae", then "focus on Jamaica": reggae from Jamaica, not a study mood; then "some rock" replaces reggae' \
	'fresh && talk isle.db "3 reggae songs" "I would like to focus on Jamaica" > out &&
	 state > st && grep -q "^tags:.*genre:jamaica" st && grep -q "^tags:.*genre:reggae" st &&
	 ! grep -q "^concepts:.*focus" st && ids_of 2 < out | head -1 | grep -q "^j" &&
	 talk isle.db "some rock" > /dev/null && ! state | grep -q "^tags:.*genre:reggae"'
test_ok '"music to focus on" is still the focus' \
	'fresh && talk isle.db "music to focus on" > /dev/null && state | grep -q "^concepts:\[\"focus\"\]" &&
	 fresh && talk isle.db "music to focus on exams" > /dev/null && state | grep -q "^concepts:\[\"focus\"\]"'
test_ok '"I like The Gulls only, more artists like them": a model, not a creator asked for; "I love The Gulls" is' \
	'fresh && talk worn.db "I like The Gulls only, I want more artists like them" > out &&
	 state > st && grep -q "^liked_creators:\[\]" st && grep -q "^similar:\[\"The Gulls\"\]" st &&
	 fresh && talk worn.db "I love The Gulls" > /dev/null &&
	 state | grep -q "^liked_creators:\[\"The Gulls\"\]"'

done_testing
