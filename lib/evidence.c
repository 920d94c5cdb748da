/*
 * evidence.c: whether words of a message were meant as a name (a
 * creator or a title): cues, capitals, quotes, rare words, the whole
 * message.  link.c links what this lets through.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* a word of everyday speech: filler, a word of the lexicon, or a word of
 * a common tag value ("rock", "chill"); a name made only of such words
 * needs more evidence than its spelling */
int
rec_link_common(const struct rec_kb *kb, const char *w)
{
	/* pronouns and words that stand for others ("I love her songs",
	 * "I want both"): never a name by their spelling alone */
	static const char *const pro[] = { "her", "him", "his", "she", "they",
	    "them", "their", "you", "your", "our", "its", "both", "either",
	    "different", "everyone", "everything", "anything", "something",
	    "nothing", "another", "others", NULL };
	size_t c, k;
	const char *p;

	if (rec_lex_filler(w) || rec_lex_negation(w) || strlen(w) < 3)
		return 1;
	for (k = 0; pro[k]; k++)
		if (!strcmp(w, pro[k]))
			return 1;
	for (c = 0; rec_concepts[c].name; c++) {
		size_t n = strlen(w);
		for (p = rec_concepts[c].words; (p = strstr(p, w)); p += n)
			if ((p == rec_concepts[c].words || p[-1] == '|' ||
			    p[-1] == ' ') && (p[n] == 0 || p[n] == '|' ||
			    p[n] == ' '))
				return 1;
	}
	return rec_kb_tag_on(kb, rec_hash_get(&kb->tag, w, strlen(w)), 200);
}

/* a word of many titles, one in 2,500 or more ("friends", "storm"):
 * everyday speech, by the catalog's own word list */
static int
everyday(const struct rec_kb *kb, const char *w)
{
	size_t c = rec_hash_get(&kb->tword, w, strlen(w));
	unsigned n = c != (size_t)-1 ? ((unsigned *)kb->tword.val)[c] : 0;

	return n >= 5 && (size_t)n * 2500 >= kb->nitems;
}

/* a word that places a time or an occasion ("at night", "with friends") */
static int
preposition(const char *w)
{
	static const char *const p[] = { "at", "in", "on", "while", "when",
	    "during", "before", "after", "with", "for", NULL };

	return rec_words_listed(p, w);
}

/* Genre g named at word i, into in->alts with where the stretch of
 * words holding it begins: after the conjunction or the clause's start
 * before it.  Genres of one stretch are one ("female disco", "classic
 * country"); of two, alternatives ("hip hop or ska", "country and soft
 * rock", "pop, rock"). */
void
rec_link_alt(const struct rec_words *ws, size_t i, struct rec_intent *in,
    const char *g)
{
	static const char *const conj[] = { "or", "and", "plus", "also",
	    "&", "/", "vs", NULL };
	struct rec_buf b = {0};
	size_t j = i;

	while (j > 0 && ws->clause[j - 1] == ws->clause[i] &&
	    !rec_words_listed(conj, ws->w[j - 1]))
		j--;
	rec_buf_printf(&b, "%s\t%zu", g, j);
	rec_strs_add(&in->alts, b.data);
	rec_buf_free(&b);
}

/* a purpose before word i in its clause ("a playlist for a sunny day",
 * "songs for when I am in the shower", "to play with friends"): what
 * follows is an occasion, not a name, though it be all the message
 * says */
static int
purpose(const struct rec_words *ws, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (ws->clause[j] == ws->clause[i] && (rec_words_at(ws, j,
		    "for") || rec_words_at(ws, j, "with") ||
		    rec_words_at(ws, j, "while") ||
		    rec_words_at(ws, j, "during")) && !(j > 0 &&
		    (rec_words_at(ws, j - 1, "looking") ||
		    rec_words_at(ws, j - 1, "searching") ||
		    rec_words_at(ws, j - 1, "ask") ||
		    rec_words_at(ws, j - 1, "asking"))))
			return 1;
	return 0;
}

/* whether word i is a thing of the occasion, not a tag: after "the"
 * or "my" at the end of a clause of purpose ("for cleaning the house",
 * "while I clean my room"), though the catalog has "house" for a
 * genre */
int
rec_link_place(const struct rec_words *ws, size_t i)
{
	static const char *const det[] = { "the", "my", "our", "your", "his",
	    "her", "their", NULL };
	static const char *const after[] = { "too", "also", "again", "now",
	    "today", "tonight", NULL };
	size_t j = i + 1;

	/* the clause's last word: "the blues lovers", "my rock band"
	 * name a kind */
	while (j < ws->n && ws->clause[j] == ws->clause[i] &&
	    (rec_lex_filler(ws->w[j]) || rec_words_listed(after, ws->w[j])))
		j++;
	return i > 0 && rec_words_listed(det, ws->w[i - 1]) && !ws->cap[i] &&
	    !ws->quoted[i] && (j == ws->n || ws->clause[j] != ws->clause[i]) &&
	    purpose(ws, i);
}

/* words of praise: of a tag, its tagger's opinion (rec_link_opinion);
 * alone in a clause, of the last answer (reaction) */
static const char *const praise[] = { "great", "awesome", "amazing",
	"excellent", "fantastic", "wonderful", "nice", "perfect", "brilliant",
	"cool", NULL };

/* "Beautiful!", "sweet!!", "those were incredible": a word of praise
 * and nothing else in its clause but words of reaction says how the
 * last answer went; it is no kind of song and no title */
static int
reaction(const struct rec_words *ws, size_t i, size_t n)
{
	static const char *const fond[] = { "beautiful", "sweet",
	    "incredible", "lovely", "gorgeous", "good", "superb", "terrific",
	    "fabulous", NULL };
	static const char *const around[] = { "so", "very", "really", "just",
	    "pretty", "truly", "absolutely", "wow", "oh", "those", "these",
	    "they", "that", "thats", "this", "it", "its", "were", "was",
	    "are", "is", "all", "simply", "quite", "too", "sounds", "sound",
	    "look", "looks", "yes", "yeah", "ok", "okay", "both", "them",
	    "definitely", "totally", "how", "much", "better", "now", "thank",
	    "thanks", "you", "please", NULL };
	/* "love it!", "I like them all": a verb of taste and what it
	 * points back to; "Oh yes", "Absolutely!": a yes */
	static const char *const taste[] = { "love", "loved", "loving",
	    "like", "liked", "enjoy", "enjoyed", "dig", "i", "we", NULL };
	static const char *const yes[] = { "yes", "yeah", "yep", "yup", "ok",
	    "okay", "sure", "absolutely", "definitely", "totally", "exactly",
	    "oh", NULL };
	const char *const *sets[] = { praise, fond, taste, yes, around };
	size_t j, k;
	int ok;

	if (ws->quoted[i])
		return 0;
	/* the first word a word of praise, taste or yes (not "it" alone:
	 * a title), and every word of the clause one of reaction */
	for (k = ok = 0; k < 4; k++)
		ok |= rec_words_listed(sets[k], ws->w[i]) && (n >= 2 || k != 2);
	for (j = 0; ok && j < ws->n; j++)
		if (ws->clause[j] == ws->clause[i])
			for (k = 0, ok = 0; k < 5 && !ok; k++)
				ok = rec_words_listed(sets[k], ws->w[j]);
	return ok;
}

int
rec_link_reaction(const struct rec_words *ws, size_t i, size_t n)
{
	size_t j;

	/* n 0: any word of i's clause says it */
	for (j = 0; !n && j < ws->n; j++)
		if (ws->clause[j] == ws->clause[i] && reaction(ws, j, 1))
			return 1;
	return n && reaction(ws, i, n);
}

/* "favorite artist", "one of my favorites", "a great movie": a tag of
 * filler words and praise is its tagger's opinion, not what a thing is
 * ("feel good", "love songs" are kinds) */
int
rec_link_opinion(const struct rec_words *ws, size_t i, size_t n)
{
	size_t j;
	int fav = 0;

	if (reaction(ws, i, n))
		return 1;
	for (j = i; j < i + n; j++)
		if (!strncmp(ws->w[j], "favorite", 8) ||
		    !strncmp(ws->w[j], "favourite", 9) ||
		    !strncmp(ws->w[j], "fave", 4) || !strcmp(ws->w[j], "best") ||
		    rec_words_listed(praise, ws->w[j]))
			fav = 1;
		else if (!rec_lex_filler(ws->w[j]))
			return 0;
	return fav && !ws->quoted[i];
}

/* "the original one", "that funny one": the words pick one thing out
 * of others, they ask for no kind */
int
rec_link_which_one(const struct rec_words *ws, size_t i, size_t n)
{
	static const char *const det[] = { "the", "that", "this", NULL };

	return i > 0 && rec_words_listed(det, ws->w[i - 1]) &&
	    rec_words_at(ws, i + n, "one") && !ws->quoted[i];
}

int
rec_link_cued(const struct rec_words *ws, size_t i)
{
	static const char *const cue[] = { "by", "from", "like", "than", "as",
	    "called", "titled", "named", "artist", "band", "singer", "song",
	    "track", "movie", "film", "album", "seen", "watched", "heard",
	    "loved", "liked", "love", "loving", "enjoyed", "enjoying", "play",
	    "add", "about",
	    "de", "par", "von", "como", "comme", "wie", NULL };

	if (i == 0)
		return 0;
	if (rec_words_listed(cue, ws->w[i - 1]))
		return 1;
	/* "Inception and Mirrors": a capital after a name just read */
	if (i >= 2 && ws->cap[i] && ws->used[i - 2] && (rec_words_at(ws,
	    i - 1, "and") || rec_words_at(ws, i - 1, "or")))
		return 1;
	/* "Yellow and Fix You": a capital before a name just read */
	if (ws->cap[i] && i + 2 < ws->n && ws->used[i + 2] &&
	    ws->mode[i] != REC_LINK_ASK && (rec_words_at(ws, i + 1, "and") ||
	    rec_words_at(ws, i + 1, "or")))
		return 1;
	/* "I've seen Toy Story, Shrek": and after a comma, in a list
	 * that goes on with a taste (parse.c) */
	if (ws->cap[i] && ws->used[i - 1] && ws->clause[i - 1] !=
	    ws->clause[i] && ws->mode[i] != REC_LINK_ASK &&
	    ws->mode[i] == ws->mode[i - 1])
		return 1;
	/* "to listen to at night": a time or a place, not a name (but
	 * "listen to At Night") */
	if (i < 2 || !rec_words_at(ws, i - 1, "to") ||
	    (preposition(ws->w[i]) && !ws->cap[i]))
		return 0;
	return rec_words_at(ws, i - 2, "similar") ||
	    rec_words_at(ws, i - 2, "listen") ||
	    rec_words_at(ws, i - 2, "listening");
}

static int
cued_after(const struct rec_words *ws, size_t j)
{
	static const char *const cue[] = { "songs", "song", "tracks", "music",
	    "albums", "stuff", "fan", "fans", "was", "is", NULL };

	return j < ws->n && rec_words_listed(cue, ws->w[j]);
}

/* whether every word of the span that counts was written with a
 * capital ("Lord of the Rings"); a capital at a sentence's start counts
 * only on a rare word ("Inception was boring", not "Rock songs") */
int
rec_link_all_cap(const struct rec_kb *kb, const struct rec_words *ws, size_t i,
    size_t n, int *quoted)
{
	size_t j, caps = 0, content = 0;

	*quoted = 1;
	for (j = i; j < i + n; j++) {
		*quoted &= ws->quoted[j];
		if (rec_lex_filler(ws->w[j]) && j > i)
			continue;
		content++;
		caps += ws->cap[j] == 1 || (ws->cap[j] == 2 && (n > 1 ||
		    !rec_link_common(kb, ws->w[j]))) || isdigit((unsigned char)
		    ws->w[j][0]);
	}
	return content && caps == content;
}

/* how many words of the span are not everyday words */
size_t
rec_link_rare(const struct rec_kb *kb, const struct rec_words *ws, size_t i,
    size_t n)
{
	size_t j, r = 0;

	for (j = i; j < i + n; j++)
		r += !rec_link_common(kb, ws->w[j]);
	return r;
}

/* whether the span is all the message says (besides filler): the
 * message is the name.  content: the message's words that are not
 * filler; more than the span has, and the answer is no without a scan
 * (a scan per span made a long message quadratic) */
int
rec_link_whole(const struct rec_words *ws, size_t i, size_t n, size_t content)
{
	size_t j;

	if (content > n)
		return 0;
	for (j = 0; j < ws->n; j++)
		if ((j < i || j >= i + n) && (!rec_lex_filler(ws->w[j]) ||
		    ws->used[j]))
			return 0;
	return 1;
}


/* whether word i is (part of) a creator's name of up to three words */
static int
creator_at(const struct rec_kb *kb, const struct rec_words *ws, size_t i)
{
	struct rec_buf g = {0};
	size_t m, j, from;
	int found = 0;

	for (m = 1; m <= 3 && !found; m++)
		for (from = i + 1 >= m ? i + 1 - m : 0; from <= i && !found;
		    from++) {
			if (from + m > ws->n)
				break;
			rec_buf_reset(&g);
			for (j = 0; j < m; j++)
				rec_buf_printf(&g, "%s%s", j ? " " : "",
				    ws->w[from + j]);
			found = rec_hash_get(&kb->creator, g.data, g.len) !=
			    (size_t)-1 && strlen(g.data) >= 5;
		}
	rec_buf_free(&g);
	return found;
}

int
rec_link_who(const char *w)
{
	static const char *const who[] = { "artist", "artists", "band",
	    "bands", "singer", "singers", "group", "groups", "musician",
	    "musicians", "rapper", "rappers", "performer", "performers",
	    "director", "directors", "author", "authors", "creator",
	    "creators", "artista", "artistas", "artiste", "artistes",
	    "kunstler", "gruppe", NULL };

	return rec_words_listed(who, w);
}

static int
possessive(const char *w)
{
	static const char *const p[] = { "my", "our", "your", "his", "her",
	    "their", NULL };

	return rec_words_listed(p, w);
}

/* "on a road trip", "in the shower", "at a rave", "a road trip
 * playlist": lowercase words after a preposition of place and an
 * article, or a concept before "playlist", are the occasion, not a
 * name */
static int
occasion(const struct rec_words *ws, size_t i, size_t n, int kind)
{
	static const char *const prep[] = { "on", "in", "at", "for",
	    "during", NULL };
	static const char *const det[] = { "a", "an", "the", "my", "our",
	    NULL };
	static const char *const kinds[] = { "playlist", "playlists", "mix",
	    "music", "songs", "vibes", "tunes", NULL };
	size_t m;

	if (i >= 2 && rec_words_listed(det, ws->w[i - 1]) &&
	    rec_words_listed(prep, ws->w[i - 2]) && ws->clause[i - 2] ==
	    ws->clause[i])
		return 1;
	return kind == REC_NAME_TITLE && i + n < ws->n &&
	    rec_words_listed(kinds, ws->w[i + n]) &&
	    rec_concept_at(ws, i, &m) >= 0 && m == n;
}

/* "this song", "that one", "these tracks": a pointer at what was
 * shown, not a title, unless written as a name */
static int
pointer(const struct rec_words *ws, size_t i, size_t n)
{
	static const char *const dem[] = { "this", "that", "these", "those",
	    "the", NULL };
	static const char *const thing[] = { "song", "songs", "track",
	    "tracks", "tune", "tunes", "one", "ones", "movie", "movies",
	    "film", "films", "album", "albums", "record", NULL };

	return n == 2 && rec_words_listed(dem, ws->w[i]) &&
	    rec_words_listed(thing, ws->w[i + 1]);
}

/* Evidence for a span as a name: 2 strong (quotes, capitals, a cue, a
 * rare name of two words, the whole message), 1 weak, 0 none. */
int
rec_link_evidence(const struct rec_kb *kb, const struct rec_words *ws, size_t i,
    size_t n, int kind, size_t content)
{
	int quoted, cap = rec_link_all_cap(kb, ws, i, n, &quoted);
	size_t rare = rec_link_rare(kb, ws, i, n), len = 0, j, k;

	for (j = i; j < i + n; j++)
		len += strlen(ws->w[j]) + (j > i);
	if (!quoted && (reaction(ws, i, n) || (!cap && (occasion(ws, i, n,
	    kind) || pointer(ws, i, n)))))
		return 0;
	/* a name of nothing but filler ("Hi There", "I'm Ready") needs
	 * quotes or a cue */
	for (j = i; j < i + n && rec_lex_filler(ws->w[j]); j++)
		;
	if (j == i + n && !quoted)
		/* after a verb ("add a little bit of"), written as a
		 * name too; "something more like X" is no name */
		return rec_link_cued(ws, i) && !rec_words_at(ws, i + n,
		    "like") ? n > 1 && (cap || !rec_words_at(ws, i - 1,
		    "add")) ? 2 : 1 : 0;
	/* "with my friends", "your choice": one word after a possessive
	 * is a thing of theirs, not a name, unless written as one */
	if (kind == REC_NAME_CREATOR && n == 1 && i > 0 && !cap && !quoted &&
	    possessive(ws->w[i - 1]))
		return 0;
	if (quoted || (rec_link_whole(ws, i, n, content) && (rare || n > 1) &&
	    !purpose(ws, i)))
		return 2;
	/* "songs from the legend himself": "from" and "by" name a
	 * creator or an album; a title after them needs capitals or
	 * rare words */
	if (kind == REC_NAME_TITLE && i > 0 && (rec_words_at(ws, i - 1,
	    "from") || rec_words_at(ws, i - 1, "by")) && !cap && rare < n)
		return 0;
	/* "a good choice", "the ideal music": a word of the language
	 * that is the whole name of a creator of five items or fewer
	 * needs a capital or a cue before it */
	if (kind == REC_NAME_CREATOR && n == 1 && !cap && !rec_link_cued(ws,
	    i) && rec_kb_english(kb, ws->w[i], 0) && (k = rec_hash_get(
	    &kb->creator, ws->w[i], strlen(ws->w[i]))) != (size_t)-1 &&
	    kb->cexact[k] == 1 && kb->ccount[k] <= 5)
		return 0;
	if (rec_link_cued(ws, i) || (kind == REC_NAME_CREATOR && (cued_after(ws,
	    i + n) || (i > 0 && rec_words_at(ws, i - 1, "of")))) ||
	    (ws->mode[i] != REC_LINK_ASK && (rec_words_at(ws, i + n, "was") ||
	    rec_words_at(ws, i + n, "is"))))
		return rare || cap || n > 1 ? 2 : 1;
	if (cap && (n > 1 || len >= 4))
		/* one capitalised word is more often a person ("Bruce
		 * Willis", "Paul") than a title named without a cue */
		return (rare || n > 1) && (n > 1 || kind == REC_NAME_CREATOR) ?
		    2 : 1;
	if (kind == REC_NAME_CREATOR) {
		/* "they might be giants": a long name, all of it; "karol
		 * g": a rare first word and a letter */
		if ((n >= 3 && rare >= 1 && len >= 14) || (n == 2 &&
		    !rec_link_common(kb, ws->w[i]) && strlen(ws->w[i]) >= 5 &&
		    strlen(ws->w[i + 1]) == 1) || (n == 2 && rare >= 1 &&
		    len >= 10))
			return 2;
		/* "daft punk", "eminem": rare words; one short word, or
		 * a name of some rare words, only next to another name
		 * ("muse and queen", "dr dre and 50 cent") */
		if (rare == n && (n > 1 || (len >= 5 && !everyday(kb,
		    ws->w[i]))))
			return 2;
		if (rare && (rare == n || n > 1) && ((rec_words_at(ws, i + n,
		    "and") && creator_at(kb, ws, i + n + 1)) || (i >= 2 &&
		    rec_words_at(ws, i - 1, "and") && creator_at(kb, ws,
		    i - 2))))
			return 2;
		return 0;
	}
	/* a lowercase title: long, rare and of several words */
	return n >= 3 && rare >= 2 && len >= 12 ? 2 : 0;
}

int
rec_link_name_at(const struct rec_kb *kb, const struct rec_words *ws,
    size_t i)
{
	struct rec_buf g = {0};
	size_t n, s, content = 0, j;
	int hit = 0;

	for (j = 0; j < ws->n; j++)
		content += !rec_lex_filler(ws->w[j]);
	for (n = 8; n >= 2 && !hit; n--)
		for (s = i + 1 >= n ? i + 1 - n : 0; s <= i && !hit; s++) {
			if (!rec_words_ngram(ws, s, n, &g))
				continue;
			if (rec_hash_get(&kb->title, g.data, g.len) !=
			    (size_t)-1 && rec_link_evidence(kb, ws, s, n,
			    REC_NAME_TITLE, content) == 2)
				hit = 1;
			else if (rec_hash_get(&kb->creator, g.data, g.len) !=
			    (size_t)-1 && rec_link_evidence(kb, ws, s, n,
			    REC_NAME_CREATOR, content) == 2)
				hit = 1;
		}
	rec_buf_free(&g);
	return hit;
}

void
rec_words_names(struct rec_kb *kb, struct rec_words *ws)
{
	struct rec_buf g = {0};
	size_t i, j, k, n;

	ws->name = xcalloc(ws->n ? ws->n : 1, 1);
	for (i = 0; i < ws->n; i++) {
		int outer = 0, neg = rec_lex_negation(ws->w[i]);
		/* an earlier negation whose four words reach it */
		for (k = i >= 4 ? i - 4 : 0; neg && k < i; k++)
			outer |= ws->clause[k] == ws->clause[i] &&
			    rec_lex_negation(ws->w[k]) && ws->used[k];
		for (n = 6; n >= 2; n--) {
			int named = 1;
			if (i + n > ws->n)
				continue;
			rec_buf_reset(&g);
			for (j = 0; j < n && (!j || ws->clause[i + j] ==
			    ws->clause[i + j - 1] || (ws->comma[i + j] &&
			    ws->cap[i] && ws->cap[i + j] && ws->clause[i + j] ==
			    ws->clause[i + j - 1] + 1)) && (j || !ws->used[i] ||
			    neg); j++) {
				/* capitals, the short words aside */
				named &= ws->cap[i + j] || ws->quoted[i + j] ||
				    (j && j + 1 < n && strlen(ws->w[i + j]) <= 3);
				rec_buf_printf(&g, "%s%s", j ? " " : "",
				    ws->w[i + j]);
			}
			if (j < n || (rec_hash_get(&kb->title, g.data, g.len) ==
			    (size_t)-1 && rec_hash_get(&kb->creator, g.data,
			    g.len) == (size_t)-1))
				continue;
			/* in lower case, after a negation, a cue and three
			 * words at least: "don't stop playing" is no title */
			if (!named && (!neg || n < 3 || !rec_link_cued(ws, i)))
				continue;
			memset(ws->name + i, 1, n);
			for (j = 0; neg && j < n; j++) {
				ws->used[i + j] = 0;
				ws->neg[i + j] = (char)outer;
			}
			/* the negation's four words that follow the name */
			for (j = i + n; neg && !outer && j < i + 5 && j < ws->n &&
			    ws->clause[j] == ws->clause[i] &&
			    !rec_lex_negation(ws->w[j]); j++)
				ws->neg[j] = 0;
			i += n - 1;
			break;
		}
	}
	rec_buf_free(&g);
}

static int
at(const struct rec_words *ws, size_t i, const char *w)
{
	return rec_words_at(ws, i, w);
}

/* whether the message asks for creators other than those named or
 * liked so far: a word of otherness before a creator's noun ("other
 * artists like X": 1), 2 when it is a change ("a different band",
 * "someone else"); 0 when not */
int
rec_link_others(struct rec_kb *kb, struct rec_words *ws)
{
	static const char *const other[] = { "other", "different",
	    "another", "otros", "otras", "otro", "otra", "autres", "autre",
	    "andere", "anderen", NULL };
	static const char *const them[] = { "them", "that", "those", "these",
	    "him", "her", "this", "they", NULL };
	struct rec_buf g = {0};
	size_t i, j, n = 0;
	int strong = 1;

	for (i = 0; i + 1 < ws->n && !n; i++) {
		if (ws->neg[i] || ws->used[i] || ws->cap[i])
			continue;
		if (rec_words_listed(other, ws->w[i])) {
			n = rec_link_who(ws->w[i + 1]) ? 1 : i + 2 < ws->n &&
			    rec_link_who(ws->w[i + 2]) ? 2 : 0;
			strong = at(ws, i, "different");
		}
		else if ((at(ws, i, "someone") || at(ws, i, "somebody")) &&
		    at(ws, i + 1, "else"))
			n = 1;
		/* "similar bands", "bands like them": the creators so far
		 * are the model */
		else if ((at(ws, i, "similar") || at(ws, i, "comparable")) &&
		    rec_link_who(ws->w[i + 1])) {
			n = 1;
			strong = 0;
		}
		/* in one clause, and no name ("Other Band") */
		if (n && (ws->used[i + n] || ws->cap[i + n] ||
		    ws->clause[i + n] != ws->clause[i] ||
		    (rec_words_ngram(ws, i, n + 1, &g) &&
		    rec_hash_get(&kb->creator, g.data, g.len) != (size_t)-1)))
			n = 0;
	}
	/* "bands like them", "artists similar to those" */
	for (j = 0; !n && j + 2 < ws->n; j++)
		if (rec_link_who(ws->w[j]) && !ws->neg[j] && (at(ws, j + 1,
		    "like") || at(ws, j + 1, "similar")) && !ws->cap[j + 2] &&
		    (rec_words_listed(them, ws->w[j + 2]) || (at(ws, j + 2,
		    "to") && j + 3 < ws->n && rec_words_listed(them,
		    ws->w[j + 3])))) {
			ws->used[j] = ws->used[j + 1] = ws->used[j + 2] = 1;
			rec_buf_free(&g);
			return 1;
		}
	rec_buf_free(&g);
	/* the words say whose, not what: no search of them (a genre
	 * between stays: "a different rock band") */
	if (n) {
		ws->used[i - 1] = 1;
		ws->used[i - 1 + n] = 1;
	}
	return !n ? 0 : strong ? 2 : 1;
}

int
rec_link_seen_all(const struct rec_words *ws, size_t i)
{
	size_t j;

	if (i >= ws->n || ws->mode[i] != REC_LINK_SEEN)
		return 0;
	for (j = 0; j < ws->n; j++)
		if (ws->clause[j] == ws->clause[i] && (rec_words_at(ws, j,
		    "all") || rec_words_at(ws, j, "every")))
			return 1;
	return 0;
}
