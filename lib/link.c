/*
 * link.c: grounding the words of a message in a catalog.  Spans link,
 * the longest first, to creators, titles (in every form kb.c knows),
 * collections and tag values, each only with enough evidence that the
 * words were meant as a name: quotes, capitals, a cue ("by X", "like
 * X", "the song X", "X songs"), or a name long or rare enough that it
 * cannot be an everyday phrase.  What is left goes to the lexicon's
 * concepts, then to the tag vocabulary, and what links to nothing is
 * kept as words of meaning for the text encoder: it is never sent to a
 * title search ("morning run" is not "Run Away").
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "converse.h"

static int
at(const struct rec_words *ws, size_t i, const char *w)
{
	return rec_words_at(ws, i, w);
}

static int
ngram(const struct rec_words *ws, size_t i, size_t n, struct rec_buf *g)
{
	return rec_words_ngram(ws, i, n, g);
}

/* whether [i, i + n) is part of a common tag value of up to three
 * words ("wave" of "new wave"), or one with a word like "music" after
 * it ("jazz music"): the topic, not a name */
static int
in_tag(const struct rec_kb *kb, const struct rec_words *ws, size_t i,
    size_t n)
{
	struct rec_buf g = {0};
	size_t m, s, k = (size_t)-1;

	for (m = n; m <= 3 && k == (size_t)-1; m++)
		for (s = i + n >= m ? i + n - m : 0; s <= i && k == (size_t)-1;
		    s++) {
			size_t len = m - (s + m - 1 > i && (at(ws, s + m - 1,
			    "music") || at(ws, s + m - 1, "songs")));
			if ((m > n || len < m) && len && ngram(ws, s, len, &g))
				k = rec_hash_get(&kb->tag, g.data, g.len);
			if (!rec_kb_tag_on(kb, k, 200))
				k = (size_t)-1;
		}
	rec_buf_free(&g);
	return k != (size_t)-1;
}

/* a year ("from 2020 please") is a date, not the song "2020", unless
 * quoted or named as a song ("play 1999") */
static int
year_word(const struct rec_words *ws, size_t i)
{
	const char *w = ws->w[i];

	return strlen(w) == 4 && strspn(w, "0123456789") == 4 && (w[0] == '1' ||
	    w[0] == '2') && !ws->quoted[i] && !(i > 0 && (at(ws, i - 1,
	    "song") || at(ws, i - 1, "play") || at(ws, i - 1, "called") ||
	    at(ws, i - 1, "titled")));
}

/* whether the folded word is the whole name, "the" aside, an "&" said
 * "and" ("earth wind and fire") */
static int
is_name(const char *name, const char *folded)
{
	struct rec_buf b = {0}, a = {0};
	int same;

	for (; *name; name++)
		if (*name == '&')
			rec_buf_adds(&a, " and ");
		else
			rec_buf_addc(&a, *name);
	rec_norm(&b, a.data, a.len);
	rec_buf_free(&a);
	same = b.data && (!strcmp(b.data, folded) || (!strncmp(b.data,
	    "the ", 4) && !strcmp(b.data + 4, folded)));
	rec_buf_free(&b);
	return same;
}

/* whether [i, i + n) is a part of a longer run of capitalised words of
 * one clause, none of them filler ("Harry Potter"): a name of its own
 * that its parts do not stand for (no creator Harry, no Potter misspelt
 * for Powter) */
static int
inside_name(const struct rec_words *ws, size_t i, size_t n)
{
	size_t a = i, z = i + n;

	while (a > 0 && ws->cap[a - 1] && ws->clause[a - 1] == ws->clause[i] &&
	    !rec_lex_filler(ws->w[a - 1]))
		a--;
	while (z < ws->n && ws->cap[z] && ws->clause[z] == ws->clause[i] &&
	    !rec_lex_filler(ws->w[z]))
		z++;
	for (; i < z && i >= a; i++)
		if (!ws->cap[i] || rec_lex_filler(ws->w[i]))
			return 0;
	return z - a > n;
}

/* whether the message asks for others than the names ("what else?",
 * "something similar") */
static int
asks_others(const struct rec_words *ws)
{
	static const char *const w[] = { "else", "other", "others",
	    "similar", "besides", "alike", "otros", "autres", "andere", NULL };
	size_t i, k;

	for (i = 0; i < ws->n; i++)
		for (k = 0; w[k]; k++)
			if (!strcmp(ws->w[i], w[k]))
				return 1;
	return 0;
}

static void
mark(struct rec_words *ws, size_t i, size_t n)
{
	size_t j;

	for (j = i; j < i + n; j++)
		ws->used[j] = 1;
}

/* a word of the language in lower case before "songs": the tag's,
 * cue or not ("i like funky songs") */
static int
describes_songs(const struct rec_kb *kb, const struct rec_words *ws, size_t i)
{
	return !ws->cap[i] && rec_kb_english(kb, ws->w[i], 0) && (at(ws, i + 1,
	    "songs") || at(ws, i + 1, "music") || at(ws, i + 1, "tunes") ||
	    at(ws, i + 1, "tracks"));
}

/* the first word of a list of names word i ends ("like X or Y": Y is
 * read as X is) */
static size_t
list_head(const struct rec_words *ws, size_t i)
{
	size_t j = i;

	/* back over "or", "and" and the name before it (linked already,
	 * or written with capitals) */
	while (j > 1 && (at(ws, j - 1, "or") || at(ws, j - 1, "and") ||
	    at(ws, j - 1, "nor")) && (ws->used[j - 2] || ws->cap[j - 2]) &&
	    ws->clause[j - 2] == ws->clause[i]) {
		j--;
		while (j > 0 && (ws->used[j - 1] || ws->cap[j - 1]) &&
		    ws->clause[j - 1] == ws->clause[i])
			j--;
	}
	return j;
}

/* whether the name that ends at word e is a model: "like X", "similar
 * to X" */
static int
title_model(const struct rec_words *ws, size_t e)
{
	size_t t = e;

	while (t > 0 && ws->used[t - 1] && ws->clause[t - 1] == ws->clause[e])
		t--;
	return t > 0 && (at(ws, t - 1, "like") || at(ws, t - 1, "as") ||
	    (t > 1 && at(ws, t - 1, "to") && at(ws, t - 2, "similar")));
}

void
rec_link_add_creator(struct rec_kb *kb, const struct rec_words *ws,
    size_t pos, struct rec_intent *in, size_t k)
{
	const char *name = kb->cname[rec_kb_better_known(kb, k)];
	int mode = ws->mode[pos];
	size_t i = list_head(ws, pos);

	/* "like X", not "I like X" */
	int model = i > 0 && ((at(ws, i - 1, "like") && !(i > 1 &&
	    (at(ws, i - 2, "i") || at(ws, i - 2, "we") || at(ws, i - 2,
	    "really") || at(ws, i - 2, "also") || at(ws, i - 2, "would") ||
	    at(ws, i - 2, "they") || at(ws, i - 2, "do")))) ||
	    at(ws, i - 1, "as") ||
	    at(ws, i - 1, "than") || (at(ws, i - 1, "to") && i > 1 &&
	    at(ws, i - 2, "similar")));

	/* "like Wonderwall by Oasis": who made the song named as a
	 * model is a model too, not all that is asked for */
	if (!model && mode != REC_LINK_LIKE && i > 1 && at(ws, i - 1, "by") &&
	    ws->used[i - 2] && in->liked_items.n && kb->c_creator &&
	    title_model(ws, i - 2)) {
		const char *id = in->liked_items.v[in->liked_items.n - 1];
		char *cr = rec_catalog_field(kb->cat, kb->c_creator, id,
		    strlen(id));
		struct rec_buf a = {0}, b = {0};
		if (cr) {
			rec_norm(&a, cr, strlen(cr));
			rec_norm(&b, name, strlen(name));
			model = a.data && b.data && strstr(a.data, b.data);
		}
		free(cr);
		rec_buf_free(&a);
		rec_buf_free(&b);
	}

	/* "I enjoy artists like X", "I like bands such as X": X is one
	 * of them; asked for ("bands like X"), X is the model */
	int such = model && mode == REC_LINK_LIKE && i > 1 && (at(ws, i - 1,
	    "like") || at(ws, i - 1, "as")) && (at(ws, i - 2, "artists") ||
	    at(ws, i - 2, "artist") || at(ws, i - 2, "bands") || at(ws, i - 2,
	    "band") || at(ws, i - 2, "singers") || at(ws, i - 2, "rappers") ||
	    at(ws, i - 2, "musicians") || at(ws, i - 2, "groups") ||
	    at(ws, i - 2, "such"));

	if (ws->neg[pos] || mode == REC_LINK_DISLIKE) {
		rec_strs_add(&in->disliked_creators, name);
		rec_intent_said(in, "not by %s", name);
	} else if (mode == REC_LINK_SEEN) {
		/* "I already know Depeche Mode": others like them */
		rec_strs_add(&in->similar, name);
		rec_strs_add(&in->other_than, name);
		rec_intent_said(in, "like %s, by others", name);
	} else if ((mode == REC_LINK_LIKE && !model && !asks_others(ws)) ||
	    (such && !asks_others(ws))) {
		/* "I like Maroon 5 too": theirs, and more like them */
		rec_strs_add(&in->liked_creators, name);
		rec_strs_add(&in->similar, name);
		rec_intent_said(in, "by %s", name);
	} else if (mode == REC_LINK_LIKE || model) {
		rec_strs_add(&in->similar, name);
		rec_intent_said(in, "like %s", name);
	} else {
		rec_strs_add(&in->liked_creators, name);
		rec_intent_said(in, "by %s", name);
	}
}

/* whether a title at [i, i + n) is asked for: a verb of asking a few
 * words before it ("play X", "do you have X", "how about X"), a
 * suggestion after it ("X would be good", "X too"), or nothing else
 * said */
static int
asked_for(const struct rec_words *ws, size_t i, size_t n, size_t content)
{
	static const char *const verb[] = { "play", "add", "put", "queue",
	    "hear", "find", "want", "need", "show", "watch", "listen", "about",
	    "have", "include",
	    "pon",
	    "mets", "joue", "spiel", NULL };
	static const char *const then[] = { "would", "too", "also", "please",
	    NULL };
	size_t j, k;

	if (rec_link_whole(ws, i, n, content))
		return 1;
	for (j = i > 4 ? i - 4 : 0; j < i; j++)
		for (k = 0; verb[k]; k++)
			if (at(ws, j, verb[k]))
				return 1;
	for (j = i + n; j < i + n + 3 && j < ws->n; j++)
		for (k = 0; then[k]; k++)
			if (at(ws, j, then[k]))
				return 1;
	return 0;
}

/* "add songs like X", "throw in some like X": a playlist's X is added
 * with the others like it */
static int
adding(const struct rec_words *ws, size_t i)
{
	size_t j;

	for (j = i > 4 ? i - 4 : 0; j < i; j++)
		if (at(ws, j, "add") || (at(ws, j, "throw") && at(ws, j + 1,
		    "in")))
			return 1;
	return 0;
}

static void
add_title(struct rec_kb *kb, const struct rec_words *ws, size_t i,
    size_t n, size_t content, struct rec_intent *in, const char *id,
    const char *said)
{
	int mode = ws->mode[i];
	/* "like X", not "I like X" */
	int model = i > 0 && ((at(ws, i - 1, "like") && !(i > 1 &&
	    (at(ws, i - 2, "i") || at(ws, i - 2, "we") || at(ws, i - 2,
	    "really") || at(ws, i - 2, "also") || at(ws, i - 2, "would") ||
	    at(ws, i - 2, "they") || at(ws, i - 2, "do")))) ||
	    at(ws, i - 1, "as") ||
	    (at(ws, i - 1, "to") && i > 1 && at(ws, i - 2, "similar")));

	if (ws->neg[i] || mode == REC_LINK_DISLIKE) {
		rec_strs_add(&in->disliked_items, id);
		/* "not star wars": none of the series */
		rec_kb_series(kb, id, said, &in->disliked_items);
		rec_intent_said(in, "not like '%s'", said);
	} else if (mode == REC_LINK_SEEN) {
		rec_strs_add(&in->seen, id);
		rec_intent_said(in, "seen '%s'", said);
	} else {
		rec_strs_add(&in->liked_items, id);
		/* asked for ("play X", "add X", the message is the name),
		 * not as a model ("like X") nor as a taste ("I loved X",
		 * "Also X, Y"): the item itself is wanted */
		if ((!model && mode != REC_LINK_LIKE && asked_for(ws, i, n,
		    content)) || (model && adding(ws, i)))
			rec_strs_add(&in->wanted, id);
		rec_intent_said(in, "like '%s'", said);
	}
}

/* a tag value of the catalog as the request's topic (or what it does
 * not want) */
void
rec_link_add_tag(struct rec_kb *kb, const struct rec_words *ws, size_t i,
    struct rec_intent *in, const char *tag)
{
	struct rec_buf b = {0};
	int hard;

	rec_buf_printf(&b, "genre:%s", tag);
	if (ws->mode[i] == REC_LINK_DESCRIBE)
		;	/* what a thing is: no topic, no dislike */
	else if (ws->neg[i] || ws->mode[i] == REC_LINK_DISLIKE ||
	    rec_link_seen_all(ws, i)) {
		rec_strs_add(&in->disliked_tags, tag);
		rec_intent_said(in, "no %s", tag);
	} else {
		rec_strs_add(&in->tags, b.data);
		rec_link_alt(ws, i, in, tag);
		if (rec_kb_category(kb, tag, &hard))
			rec_strs_add(hard ? &in->need : &in->prefer, b.data);
		/* a genre's name in a title goes with it ("Jailhouse
		 * Rock") */
		rec_strs_add(&in->themes, tag);
		rec_intent_said(in, "%s", tag);
	}
	rec_buf_free(&b);
}

/* short words said apart that a name writes as one ("2 pac" for 2Pac,
 * "n w a"): the creator, or -1 */
static size_t
joined(const struct rec_kb *kb, const struct rec_words *ws, size_t i,
    size_t n)
{
	struct rec_buf b = {0};
	size_t j, k = (size_t)-1;

	for (j = i; j < i + n; j++) {
		size_t len = strlen(ws->w[j]);
		/* short words ("b 52s"), or an elided article and its
		 * word ("d'angelo") */
		if ((len > 3 && !(j > i && ws->w[j - 1][strlen(ws->w[j -
		    1]) - 1] == '\'')) || ws->used[j])
			break;
		rec_buf_add(&b, ws->w[j], len && ws->w[j][len - 1] == '\'' ?
		    len - 1 : len);
	}
	if (j == i + n && b.len >= 3)
		k = rec_hash_get(&kb->creator, b.data, b.len);
	rec_buf_free(&b);
	return k;
}

/* a misspelt name after a cue, or written with capitals: the closest
 * creator or title within an edit or two (not a word or name of the
 * language spelt right: "the song sounded", "Jamaica") */
static int
fuzzy(struct rec_kb *kb, struct rec_words *ws, size_t i, size_t n,
    size_t content, struct rec_intent *in)
{
	struct rec_buf g = {0};
	int quoted, strong = rec_link_cued(ws, i) || rec_link_all_cap(kb, ws,
	    i, n, &quoted);
	size_t k, rare = rec_link_rare(kb, ws, i, n);
	int spelt;

	/* every word rare, or one common word inside a name of three
	 * ("megan the stallion"), or anywhere in one of three written
	 * with capitals ("Sweedish House Mafia") */
	/* a name across a comma only as the catalog spells it */
	if (!ngram(ws, i, n, &g) || ws->clause[i + n - 1] != ws->clause[i] ||
	    g.len < 6 || (rare < n && !(n >= 3 &&
	    ((rare + 1 >= n && !rec_link_common(kb, ws->w[i]) &&
	    !rec_link_common(kb, ws->w[i + n - 1])) || (strong && !quoted &&
	    rare)))) ||
	    rec_link_reaction(ws, i, n) ||
	    (!strong && n == 1 && (!kb->english.n || rec_kb_english(kb,
	    g.data, 1))) || (!strong && n > 4)) {
		rec_buf_free(&g);
		return 0;
	}
	/* a name spelt right was weighed by the names loop; a word of
	 * the language is itself, and only a title spelt so */
	spelt = n == 1 && rec_kb_english(kb, g.data, 1);
	k = spelt || rec_hash_get(&kb->creator, g.data, g.len) != (size_t)-1 ?
	    (size_t)-1 : rec_kb_closest(&kb->creator, g.data, g.len >= 10 &&
	    (strong || n > 1) ? 2 : 1);
	/* one word spelt wrong without a cue ("some metalica"), where
	 * the language's words are known: an edit away from a creator of
	 * many items */
	if (k != (size_t)-1 && !strong && n == 1 && kb->ccount[k] < 10)
		k = (size_t)-1;
	if (k != (size_t)-1) {
		rec_link_add_creator(kb, ws, i, in, k);
		mark(ws, i, n);
		rec_buf_free(&g);
		return 1;
	}
	if (strong && g.len >= 8 && (k = spelt ? rec_hash_get(&kb->title,
	    g.data, g.len) : rec_kb_closest(&kb->title, g.data, g.len >= 12 ?
	    2 : 1)) != (size_t)-1) {
		add_title(kb, ws, i, n, content, in, kb->tid[k],
		    kb->title.key[k]);
		mark(ws, i, n);
		rec_buf_free(&g);
		return 1;
	}
	/* a name the catalog keeps as a tag ("seth rogan" for the
	 * MovieLens tag "seth rogen") */
	if (strong && n >= 2 && g.len >= 8 && rec_hash_get(&kb->tag, g.data,
	    g.len) == (size_t)-1 && (k = rec_kb_closest(&kb->tag, g.data,
	    1)) != (size_t)-1 && strchr(kb->tag.key[k], ' ')) {
		rec_link_add_tag(kb, ws, i, in, kb->tag.key[k]);
		mark(ws, i, n);
		rec_buf_free(&g);
		return 1;
	}
	rec_buf_free(&g);
	return 0;
}

/* where in the message a category to keep to was named */
struct need_span {
	size_t need;		/* its index in in->need */
	size_t a, b;		/* its first and last word */
};
#define MAXSPANS 16

static void
note_need(struct need_span *sp, size_t *nsp, const struct rec_intent *in,
    size_t before, size_t i, size_t n)
{
	if (in->need.n > before && *nsp < MAXSPANS) {
		sp[*nsp].need = in->need.n - 1;
		sp[*nsp].a = i;
		sp[*nsp].b = i + n - 1;
		(*nsp)++;
	}
}

/* whether word i is what a film, a song or a show is about ("movies
 * about music", "a song about the summer"); not "how about one" nor
 * "talking about a song" */
static int
about(const struct rec_words *ws, size_t i)
{
	static const char *const what[] = { "movie", "movies", "film",
	    "films", "documentary", "documentaries", "show", "shows",
	    "series", "book", "books", "song", "songs", "playlist", "album",
	    "something", NULL };
	size_t a = i > 0 && at(ws, i - 1, "about") ? i - 1 : i > 1 &&
	    at(ws, i - 2, "about") && (at(ws, i - 1, "the") || at(ws, i - 1,
	    "a")) ? i - 2 : 0;

	return a > 0 && rec_words_listed(what, ws->w[a - 1]);
}

/* whether word i names what is asked for as a subject ("zombie
 * movies"); not songs or music, which "up beat music" and "the
 * original song" also go before */
static int
count_word(const struct rec_words *ws, size_t i)
{
	static const char *const l[] = { "movies", "movie", "films", "film",
	    "flicks", "shows", "series", "books", NULL };

	return i < ws->n && rec_words_listed(l, ws->w[i]);
}

/* a tag value in the plural ("ballads", "power ballads", "melodies")
 * for the catalog's singular, or with plural, in the singular before
 * what is asked for ("zombie movies") for its plural: g becomes it; 0
 * when it has none.  Not any singular: "a salsa beat" is not the tag
 * "beats", nor "Bird Box" "birds". */
static int
singular_tag(const struct rec_kb *kb, struct rec_buf *g, int plural)
{
	static const char *const end[][2] = { { "ies", "y" }, { "s", "" },
	    { "y", "ies" }, { "", "s" }, { NULL, NULL } };
	struct rec_buf t = {0};
	size_t k, l;
	int found = 0;

	for (k = 0; end[k][0] && !found && (k < 2 || plural); k++) {
		l = strlen(end[k][0]);
		if (g->len < l + 4 || strcmp(g->data + g->len - l, end[k][0]))
			continue;
		rec_buf_reset(&t);
		rec_buf_add(&t, g->data, g->len - l);
		rec_buf_adds(&t, end[k][1]);
		found = rec_hash_get(&kb->tag, t.data, t.len) != (size_t)-1;
	}
	if (found) {
		rec_buf_reset(g);
		rec_buf_add(g, t.data, t.len);
	}
	rec_buf_free(&t);
	return found;
}

/* a tag of two words, on three items and one in 3,000 or more, where
 * the lexicon would read a genre in one of them and leave the other
 * ("electro swing", "city pop"): both words of meaning, no number, and
 * no other word of the lexicon's among them (a mood or an occasion
 * carries more: "sad songs", "dance party"; two genres named together
 * must both hold: "horror comedy") */
static int
genre_pair(const struct rec_kb *kb, const struct rec_words *ws, size_t i,
    size_t k)
{
	size_t j, m;
	long c;
	int genres = 0;

	if (k == (size_t)-1 || kb->tagcount[k] < 3 || !rec_kb_tag_on(kb, k,
	    3000))
		return 0;
	for (j = i; j < i + 2; j++) {
		if (rec_lex_filler(ws->w[j]) || isdigit((unsigned char)
		    ws->w[j][0]) || ws->used[j])
			return 0;
		if ((c = rec_concept_at(ws, j, &m)) < 0)
			continue;
		/* the lexicon's own phrase for both ("sci fi") reads them */
		if (m > 1 || rec_concepts[c].facet != REC_FACET_GENRE)
			return 0;
		genres++;
	}
	return genres == 1;
}

/* spans of from down to to words that are values of the catalog's tag
 * columns, the longest first, as tags (one word: not filler, three
 * letters or more, not a number) */
static void
tag_spans(struct rec_kb *kb, struct rec_words *ws, struct rec_intent *in,
    struct need_span *sp, size_t *nsp, size_t from, size_t to)
{
	struct rec_buf g = {0};
	size_t n, i, before, k, m;

	for (n = from; n >= to && n >= 1; n--)
		for (i = 0; i + n <= ws->n; i++) {
			/* a filler word is one after "about" ("documentaries
			 * about music") */
			if (!ngram(ws, i, n, &g) || (n == 1 && (g.len < 3 ||
			    (rec_lex_filler(g.data) && !about(ws, i)) ||
			    isdigit((unsigned char)g.data[0]))) ||
			    rec_link_place(ws, i) || rec_link_opinion(ws, i, n) ||
			    rec_link_which_one(ws, i, n))
				continue;
			if ((k = rec_hash_get(&kb->tag, g.data, g.len)) ==
			    (size_t)-1 && !singular_tag(kb, &g, count_word(ws,
			    i + n)) && (n > 1 ||
			    !rec_kb_tag_stem(kb, ws->w[i], &g)))
				continue;
			/* a tag of three words or more on one item
			 * ("old school hip hop") is no word of the catalog's
			 * for the topic: its words are read one by one */
			if (n >= 3 && k != (size_t)-1 && kb->tagcount[k] < 2)
				continue;
			/* nor one of two words on two items, each word a
			 * common tag ("classic soul": classic, soul) */
			if (n == 2 && k != (size_t)-1 && kb->tagcount[k] < 3 &&
			    rec_kb_two_common(kb, ws, i))
				continue;
			if (n == 2 && from == 2 && to == 2 &&
			    !genre_pair(kb, ws, i, k))
				continue;
			/* a phrase of the lexicon's, all of it ("black and
			 * white": an era too), is the lexicon's to read */
			if (to > 1 && rec_concept_at(ws, i, &m) >= 0 && m >= n)
				continue;
			before = in->need.n;
			rec_link_add_tag(kb, ws, i, in, g.data);
			note_need(sp, nsp, in, before, i, n);
			mark(ws, i, n);
		}
	rec_buf_free(&g);
}

/* Genres named apart ("horror, thriller and comedy", "sci-fi or
 * fantasy") are alternatives: one group, any of them.  Genres named
 * together ("romantic comedies", "sci-fi horror") must all hold. */
static void
join_alternatives(const struct rec_words *ws, struct rec_intent *in,
    struct need_span *sp, size_t nsp)
{
	size_t k, j;
	int f0, f1;

	/* in the order of the words */
	for (k = 1; k < nsp; k++)
		for (j = k; j > 0 && sp[j].a < sp[j - 1].a; j--) {
			struct need_span t = sp[j];
			sp[j] = sp[j - 1];
			sp[j - 1] = t;
		}
	for (k = 1; k < nsp; k++) {
		struct rec_buf b = {0};
		const char *prev, *cur = in->need.v[sp[k].need];
		size_t p;
		rec_facet_split(cur, &f1);
		if (f1 != REC_FACET_GENRE || !*cur)
			continue;
		/* the genre named before, past other words of meaning
		 * ("drama movies and romantic comedies") */
		for (p = k; p > 0; p--) {
			rec_facet_split(in->need.v[sp[p - 1].need], &f0);
			if (f0 == REC_FACET_GENRE && *in->need.v[sp[p - 1].need])
				break;
		}
		if (!p--)
			continue;
		prev = in->need.v[sp[p].need];
		/* named together: each next to the one before */
		for (j = p + 1; j <= k && sp[j].a == sp[j - 1].b + 1 &&
		    ws->clause[sp[j].a] == ws->clause[sp[j - 1].b]; j++)
			;
		if (j > k)
			continue;
		rec_buf_printf(&b, "%s|%s", prev, rec_facet_split(cur, NULL));
		free(in->need.v[sp[p].need]);
		in->need.v[sp[p].need] = xstrdup("");
		free(in->need.v[sp[k].need]);
		in->need.v[sp[k].need] = b.data;
		/* what was named with one of the alternatives ("romantic"
		 * comedies) holds for it alone: a preference */
		for (j = p + 1; j < k; j++)
			if (*in->need.v[sp[j].need]) {
				rec_strs_add(&in->prefer, in->need.v[sp[j].need]);
				free(in->need.v[sp[j].need]);
				in->need.v[sp[j].need] = xstrdup("");
			}
	}
	/* the emptied entries go */
	for (k = j = 0; k < in->need.n; k++)
		if (*in->need.v[k])
			in->need.v[j++] = in->need.v[k];
		else
			free(in->need.v[k]);
	in->need.n = j;
}

/* 1 when a phrase of the lexicon starting inside the n words at i
 * runs on past them: "while working out" is working out, not "while
 * working" and an "out" */
static int
overlapped(const struct rec_words *ws, size_t i, size_t n)
{
	size_t j, m;

	for (j = i + 1; j < i + n; j++)
		if (!ws->used[j] && rec_concept_at(ws, j, &m) >= 0 &&
		    j + m > i + n)
			return 1;
	return 0;
}

/* "add Not Afraid by Eminem", "Legends Never Die by Juice WRLD": a
 * negation inside a title named with its creator is a word of the
 * title.  It is given back to the title, and the creator after it is
 * out of its scope. */
static void
negation_in_titles(struct rec_kb *kb, struct rec_words *ws)
{
	struct rec_buf g = {0};
	size_t i, n, s, j;

	for (i = 0; i < ws->n; i++) {
		int found = 0;
		if (!ws->used[i] || !rec_lex_negation(ws->w[i]))
			continue;
		for (n = 6; n >= 2 && !found; n--)
			for (s = i + 1 >= n ? i + 1 - n : 0; s <= i && !found;
			    s++) {
				if (s + n >= ws->n || !(at(ws, s + n, "by") ||
				    at(ws, s + n, "from")))
					continue;
				ws->used[i] = 0;
				found = ngram(ws, s, n, &g) && rec_hash_get(
				    &kb->title, g.data, g.len) != (size_t)-1 &&
				    rec_link_longest(ws, s + n + 1, &kb->creator, &g);
				ws->used[i] = (char)!found;
				for (j = s; found && j < ws->n && j < i + 5; j++)
					ws->neg[j] = 0;
			}
	}
	rec_buf_free(&g);
}

void
rec_link(struct rec_kb *kb, struct rec_words *ws, struct rec_intent *in)
{
	struct need_span sp[MAXSPANS];
	size_t nsp = 0, before;
	struct rec_hash seen = {0};
	struct rec_buf g = {0}, stem = {0};
	size_t i, n, content = 0;
	int react = 0;

	for (i = 0; i < ws->n; i++)
		content += !rec_lex_filler(ws->w[i]);
	if (kb->c_title && kb->c_creator)
		negation_in_titles(kb, ws);
	if (!in->others)	/* "none of those" has set it */
		in->others = rec_link_others(kb, ws);

	/* collections, and a creator named with one ("from Prince's
	 * Purple Rain") */
	if ((i = rec_link_colls(kb, ws, in, &n)) != (size_t)-1)
		rec_link_add_creator(kb, ws, i, in, n);
	/* names: the longest span first, and a misspelt name ("boys ii
	 * men") before a shorter one spelt right ("boys") */
	for (n = 8; n >= 1; n--) {
		for (i = 0; i + n <= ws->n; i++) {
			int ce = 0, te = 0, quoted;
			size_t ck, tk, tg;
			if (!ngram(ws, i, n, &g) || (n == 1 && (g.len < 2 ||
			    rec_lex_filler(g.data) || year_word(ws, i))))
				continue;
			ck = rec_hash_get(&kb->creator, g.data, g.len);
			if (ck == (size_t)-1 && n >= 2 && n <= 3)
				ck = joined(kb, ws, i, n);
			tk = rec_hash_get(&kb->title, g.data, g.len);
			tg = rec_hash_get(&kb->tag, g.data, g.len);
			/* "funky": a word of likeness is its category's */
			if (!rec_kb_tag_on(kb, tg, 200) && n == 1 &&
			    ck != (size_t)-1 &&
			    rec_kb_tag_stem(kb, g.data, &stem))
				tg = rec_hash_get(&kb->tag, stem.data, stem.len);
			if (ck != (size_t)-1)
				ce = rec_link_evidence(kb, ws, i, n,
				    REC_NAME_CREATOR, content);
			/* a word that is also a name written with marks
			 * ("pink" for P!nk) needs a capital or "by" */
			if (ce == 2 && n == 1 && kb->cexact[ck] == 2 &&
			    !ws->cap[i] && !at(ws, i - 1, "by"))
				ce = 1;
			/* the first words of a longer name ("wu tang") need
			 * capitals or a cue: "red hot summer songs" */
			if (ce == 2 && n >= 2 && kb->cexact[ck] != 1 &&
			    !is_name(kb->cname[ck], g.data) &&
			    !rec_link_cued(ws, i) && !rec_link_all_cap(kb, ws,
			    i, n, &quoted))
				ce = 1;
			/* one word for a longer name needs a capital or a
			 * cue when short ("heavy": The Heavy, "doja": Doja
			 * Cat), a tag's word ("salsa" for You Salsa) or the
			 * language's ("the trumpet" for Timmy Trumpet) */
			if (ce == 2 && n == 1 && !ws->cap[i] &&
			    !rec_link_cued(ws, i) && ((g.len < 6 &&
			    !strncasecmp(kb->cname[ck], "the ", 4)) ||
			    ((g.len < 5 || tg != (size_t)-1 || rec_kb_english(kb,
			    g.data, 0)) && !is_name(kb->cname[ck], g.data))))
				ce = 1;
			if (tk != (size_t)-1)
				te = rec_link_evidence(kb, ws, i, n,
				    REC_NAME_TITLE, content);
			/* a tag in lower case before what is asked for is
			 * the subject ("zombie movies"), not the film Zombie */
			if (te && n == 1 && !ws->cap[i] && !ws->quoted[i] &&
			    count_word(ws, i + 1)) {
				rec_buf_reset(&stem);
				rec_buf_add(&stem, g.data, g.len);
				if (tg != (size_t)-1 || singular_tag(kb, &stem, 1))
					te = 0;
			}
			/* one word of a longer name written with capitals */
			if (n == 1 && inside_name(ws, i, n) && !ws->quoted[i]) {
				ce = ce ? 1 : 0;
				te = te ? 1 : 0;
			}
			/* a common tag ("rock", "Metal") is the topic, unless
			 * the words are clearly meant as a name: left for the
			 * concepts and the tags below; so is a tag of several
			 * words on fewer, in lower case and not asked for by
			 * name ("some electro swing", not the song with
			 * "(Electro Swing)" in its title) */
			if ((rec_kb_tag_on(kb, tg, 200) || in_tag(kb, ws, i,
			    n) || (n >= 2 && ck == (size_t)-1 &&
			    rec_kb_tag_on(kb, tg, 3000) && !ws->cap[i] &&
			    !rec_link_cued(ws, i))) && !(ce ==
			    2 && rec_link_cued(ws, i) && !(n == 1 &&
			    describes_songs(kb, ws, i))) && !ws->quoted[i])
				continue;
			if (ce == 2 && ce >= te) {
				rec_link_add_creator(kb, ws, i, in, ck);
				mark(ws, i, n);
			} else if (te == 2) {
				add_title(kb, ws, i, n, content, in,
				    kb->tid[tk], g.data);
				mark(ws, i, n);
			} else if (ck != (size_t)-1 && n == 1 && !ws->used[i] &&
			    ws->cap[i] != 1)
				/* read as a word, not the name: showing that
				 * creator would look like the misreading (not
				 * when written as a name: "add some GUY") */
				rec_strs_add(&in->avoid, kb->cname[ck]);
		}
		/* no misspelt name inside a common tag ("new jack swing" is
		 * no Jack Wins) */
		for (i = 0; i + n <= ws->n; i++)
			if (!inside_name(ws, i, n) && !in_tag(kb, ws, i, n))
				fuzzy(kb, ws, i, n, content, in);
	}
	/* a tag value of three words or more said whole ("Gangsta Rap Rap
	 * Party", a playlist): the catalog's own word for it, before the
	 * lexicon reads its words one by one */
	tag_spans(kb, ws, in, sp, &nsp, 8, 3);
	tag_spans(kb, ws, in, sp, &nsp, 2, 2);
	for (i = 0; i + 2 <= ws->n; i++)
		if (rec_kb_tag_phrase(kb, ws, i)) {
			ngram(ws, i, 2, &g);
			rec_link_add_tag(kb, ws, i, in, g.data);
			mark(ws, i, 2);
		}
	/* the lexicon's concepts */
	for (i = 0; i < ws->n; i++) {
		long c;
		if (ws->used[i])
			continue;
		if ((c = rec_concept_at(ws, i, &n)) < 0 ||
		    overlapped(ws, i, n))
			continue;
		if (ws->mode[i] == REC_LINK_DESCRIBE ||
		    rec_concept_verb(ws, i, n)) {
			mark(ws, i, n);
			continue;
		}
		ngram(ws, i, n, &g);
		before = in->need.n;
		/* "not upbeat enough": more of it wanted */
		rec_add_concept(kb, in, (size_t)c, ((ws->neg[i] ||
		    ws->mode[i] == REC_LINK_DISLIKE) && !at(ws, i + n,
		    "enough")) || rec_link_seen_all(ws, i), g.data);
		rec_link_alt(ws, i, in, rec_concepts[c].name);
		note_need(sp, &nsp, in, before, i, n);
		mark(ws, i, n);
	}
	/* the shorter spans of the tag vocabulary, the longest first (those
	 * of three words or more were read before the lexicon: using words
	 * up cannot make one more) */
	tag_spans(kb, ws, in, sp, &nsp, 2, 1);
	join_alternatives(ws, in, sp, nsp);
	rec_link_title_by_creator(kb, in);
	/* what links to nothing: words of meaning, each once (a hash, not
	 * rec_strs_add's scan, so a long message stays linear) */
	for (i = 0; i < in->words.n; i++)
		rec_hash_put(&seen, in->words.v[i], strlen(in->words.v[i]),
		    NULL);
	for (i = 0; i < ws->n; i++) {
		const char *w = ws->w[i];
		int added;
		/* a clause of reaction, weighed once */
		if (!i || ws->clause[i] != ws->clause[i - 1])
			react = rec_link_reaction(ws, i, 0);
		if (ws->used[i] || rec_lex_filler(w) || strlen(w) < 3 ||
		    isdigit((unsigned char)w[0]) || react)
			continue;
		/* a word the catalog's encoder knows: chit-chat words
		 * ("definitely", "tends") would only add noise */
		if (ws->neg[i] || ws->mode[i] == REC_LINK_DISLIKE ||
		    ws->mode[i] == REC_LINK_DESCRIBE ||
		    (kb->enc && !rec_kb_word_known(kb, w)))
			continue;
		rec_hash_put(&seen, w, strlen(w), &added);
		if (added)
			rec_strs_push(&in->words, w, strlen(w));
	}
	rec_hash_free(&seen);
	rec_buf_free(&g);
	rec_buf_free(&stem);
	if (in->others)
		rec_intent_said(in, "%s", "by others");
}
