/*
 * parse.c: reading a message without a model: OMuleT's formatted intent
 * (likes, dislikes, names, tags, properties, constraints) by rules that
 * link words to what the catalog knows (kb.c).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "converse.h"

struct words {
	char **w;
	size_t n;
	char *used;		/* consumed by a rule */
	char *neg;		/* in the scope of a negation */
};

static const char *const stop[] = { "a", "an", "the", "some", "any", "me",
	"i", "im", "id", "my", "we", "us", "you", "your", "please", "give",
	"find", "show", "play", "want", "would", "like", "love", "need",
	"looking", "for", "of", "to", "and", "or", "with", "by", "from",
	"in", "on", "at", "that", "this", "those", "these", "it", "its",
	"is", "are", "be", "something", "anything", "stuff", "music",
	"songs", "song", "tracks", "track", "movies", "movie", "films", "film",
	"items", "ones", "one", "more", "can", "could", "recommend",
	"recommendations", "suggest", "get", "put", "on", "too", "very",
	"really", "just", "also", "than", "similar", "lately", "been",
	"listening", "listen", "watch", "watching", "good", "great", "best",
	"kind", "sort", "type", "vibe", "vibes", "feel", "mood", "list",
	"playlist", "maybe", "pls", "thanks", "hey", "hi", "so", "what",
	"whats", "have", "got", "all", "much", "bit", "little", "lot", "few",
	"couple", "there", "here", "make", "makes", "mix", "new", "hello",
	"ok", "okay", "thank", "yes", "yeah", "cool", "nice", "wow", "first",
	"second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
	"ninth", "tenth", "last", "number", "now", "instead", "bit",
	"surprise", "random", "whatever", "else", "anyone", "pick", "choose",
	"usual", "today", "tonight", "add", "adding", "added", "include",
	"create", "creating", "perfect", "lovely", "awesome", "amazing",
	"sounds", "fine", "well", "how", "about", "other", "others",
	"artist", "artists", "band", "bands", "singer", "singers", "genre",
	"genres", "style", "should", "will", "do", "does", "did", "let",
	"lets", "try", "think", "know", "honest", "honestly", "enjoy", "may",
	"might", "fun", "excellent", "wonderful", "fantastic", "sure",
	"again", "works", "work", "long", "as", "if", "but", "not", "no",
	"go", "going", "sing", "along", "people", "them", "they", "their",
	"be", "was", "were", "am", "an", "up", "out", "into", "such",
	"around", "which", "who", "where", "when", "why", "its", "those",
	"then", "thats", "dont", "ive", "youre", "theyre", "lets", NULL };

static int
is_stop(const char *w)
{
	size_t i;

	for (i = 0; stop[i]; i++)
		if (!strcmp(stop[i], w))
			return 1;
	return 0;
}

static int
is_neg(const char *w)
{
	return !strcmp(w, "not") || !strcmp(w, "no") || !strcmp(w, "without") ||
	    !strcmp(w, "except") || !strcmp(w, "nothing") ||
	    !strcmp(w, "avoid") || !strcmp(w, "hate") || !strcmp(w, "dont") ||
	    !strcmp(w, "never") || !strcmp(w, "but") || !strcmp(w, "exclude") ||
	    !strcmp(w, "dislike") || !strcmp(w, "disliked") ||
	    !strcmp(w, "hated") || !strcmp(w, "didnt") || !strcmp(w, "cant") ||
	    !strcmp(w, "wont");
}

/* splits on clauses (punctuation, "but"), folds, marks negations */
static void
words_of(const char *msg, struct words *ws)
{
	struct rec_buf clause = {0}, n = {0};
	const char *p = msg;
	int neg;

	memset(ws, 0, sizeof *ws);
	while (*p) {
		size_t len = strcspn(p, ",.;!?\n");
		char *s, *tok, *save = NULL;

		rec_buf_reset(&clause);
		rec_buf_add(&clause, p, len);
		rec_buf_reset(&n);
		rec_norm(&n, clause.data, clause.len);
		neg = 0;
		s = n.data;
		for (tok = s ? strtok_r(s, " ", &save) : NULL; tok;
		    tok = strtok_r(NULL, " ", &save)) {
			if (!strcmp(tok, "but"))
				neg = 0;
			else if (is_neg(tok))
				neg = 1;
			ws->w = xrealloc(ws->w, (ws->n + 1) * sizeof *ws->w);
			ws->used = xrealloc(ws->used, ws->n + 1);
			ws->neg = xrealloc(ws->neg, ws->n + 1);
			ws->w[ws->n] = xstrdup(tok);
			ws->used[ws->n] = is_neg(tok);
			ws->neg[ws->n] = (char)neg;
			ws->n++;
		}
		p += len;
		if (*p)
			p++;
	}
	rec_buf_free(&clause);
	rec_buf_free(&n);
}

static void
words_free(struct words *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		free(ws->w[i]);
	free(ws->w);
	free(ws->used);
	free(ws->neg);
}

static int
at(const struct words *ws, size_t i, const char *w)
{
	return i < ws->n && !strcmp(ws->w[i], w);
}

static const char *const numwords[] = { "zero", "one", "two", "three",
	"four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
	"twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
	"eighteen", "nineteen", "twenty", NULL };

/* a number at word i (digits or a word), or -1 */
static double
num_at(const struct words *ws, size_t i)
{
	size_t k;
	char *end;
	double v;

	if (i >= ws->n)
		return -1;
	for (k = 0; numwords[k]; k++)
		if (!strcmp(ws->w[i], numwords[k]))
			return (double)k;
	v = strtod(ws->w[i], &end);
	return *end || end == ws->w[i] ? -1 : v;
}

/* "songs", "tracks", "movies"...: what a count counts */
static int
count_noun(const struct words *ws, size_t i)
{
	static const char *const nouns[] = { "songs", "tracks", "movies",
	    "films", "items", "picks", "recommendations", "tunes", "albums",
	    NULL };
	size_t k;

	for (k = 0; nouns[k]; k++)
		if (at(ws, i, nouns[k]))
			return 1;
	return 0;
}

/* moods and properties that columns can tell */
static void
moods(struct rec_kb *kb, struct words *ws, struct rec_intent *in)
{
	static const struct {
		const char *word;
		int col;		/* which has_ flag */
		const char *column, *op;
		double v;
		const char *say;
	} m[] = {
		{ "upbeat", 0, "valence", ">=", 0.6, "upbeat" },
		{ "happy", 0, "valence", ">=", 0.6, "happy" },
		{ "cheerful", 0, "valence", ">=", 0.6, "cheerful" },
		{ "positive", 0, "valence", ">=", 0.6, "positive" },
		{ "sad", 0, "valence", "<=", 0.35, "sad" },
		{ "melancholic", 0, "valence", "<=", 0.35, "melancholic" },
		{ "melancholy", 0, "valence", "<=", 0.35, "melancholy" },
		{ "gloomy", 0, "valence", "<=", 0.35, "gloomy" },
		{ "dark", 0, "valence", "<=", 0.35, "dark" },
		{ "energetic", 1, "energy", ">=", 0.7, "energetic" },
		{ "intense", 1, "energy", ">=", 0.7, "intense" },
		{ "loud", 1, "energy", ">=", 0.7, "loud" },
		{ "calm", 1, "energy", "<=", 0.45, "calm" },
		{ "chill", 1, "energy", "<=", 0.5, "chill" },
		{ "relaxing", 1, "energy", "<=", 0.45, "relaxing" },
		{ "mellow", 1, "energy", "<=", 0.45, "mellow" },
		{ "quiet", 1, "energy", "<=", 0.4, "quiet" },
		{ "soft", 1, "energy", "<=", 0.45, "soft" },
		{ "danceable", 2, "danceability", ">=", 0.7, "danceable" },
		{ "acoustic", 3, "acousticness", ">=", 0.5, "acoustic" },
		{ "instrumental", 4, "instrumentalness", ">=", 0.5,
		    "instrumental" },
		{ NULL, 0, NULL, NULL, 0, NULL } };
	size_t i, k;

	for (i = 0; i < ws->n; i++)
		for (k = 0; m[k].word; k++) {
			int have = m[k].col == 0 ? kb->has_valence :
			    m[k].col == 1 ? kb->has_energy :
			    m[k].col == 2 ? kb->has_dance :
			    m[k].col == 3 ? kb->has_acoustic :
			    kb->has_instrumental;
			if (ws->used[i] || strcmp(ws->w[i], m[k].word) || !have)
				continue;
			rec_intent_cons(in, m[k].column, m[k].op, m[k].v, m[k].say);
			rec_intent_said(in, "%s", m[k].say);
			ws->used[i] = 1;
		}
}

static void
dates_numbers(struct rec_kb *kb, struct words *ws, struct rec_intent *in)
{
	const char *ycol = kb->c_year;
	char say[64];
	size_t i;
	double v;

	for (i = 0; i < ws->n; i++) {
		const char *w = ws->w[i];
		size_t len = strlen(w);
		int y;

		if (ws->used[i])
			continue;
		/* how many: "5 songs", "top 10", "a few" */
		if ((v = num_at(ws, i)) >= 1 && v <= 100 && (count_noun(ws,
		    i + 1) || count_noun(ws, i + 2) || (i > 0 && at(ws, i - 1,
		    "top")))) {
			in->k = (int)v;
			ws->used[i] = 1;
			continue;
		}
		if (!strcmp(w, "few") && i > 0 && at(ws, i - 1, "a")) {
			in->k = 5;
			ws->used[i] = 1;
			continue;
		}
		if (!ycol)
			goto notyear;
		/* decades: 90s, 1990s, the 80s */
		if (len >= 3 && w[len - 1] == 's' && (len == 3 || len == 5) &&
		    isdigit((unsigned char)w[0]) && w[len - 2] == '0') {
			y = atoi(w);
			if (len == 3)
				y += y >= 30 ? 1900 : 2000;
			if (y >= 1900 && y <= 2090) {
				snprintf(say, sizeof say, "from the %ds", y);
				rec_intent_cons(in, ycol, ">=", y, say);
				rec_intent_cons(in, ycol, "<=", y + 9, say);
				rec_intent_said(in, "%s", say);
				ws->used[i] = 1;
				continue;
			}
		}
		/* after 2015, since 2015, before 2000, in 2019 */
		if (len == 4 && isdigit((unsigned char)w[0]) && (y = atoi(w)) >=
		    1900 && y <= 2100 && i > 0) {
			const char *p = ws->w[i - 1];
			if (!strcmp(p, "after") || !strcmp(p, "since") ||
			    !strcmp(p, "from")) {
				snprintf(say, sizeof say, "from %d on",
				    !strcmp(p, "after") ? y + 1 : y);
				rec_intent_cons(in, ycol, ">=", !strcmp(p, "after") ?
				    y + 1 : y, say);
			} else if (!strcmp(p, "before") || !strcmp(p, "until")) {
				snprintf(say, sizeof say, "before %d", y);
				rec_intent_cons(in, ycol, "<", y, say);
			} else if (!strcmp(p, "in") || !strcmp(p, "of")) {
				snprintf(say, sizeof say, "from %d", y);
				rec_intent_cons(in, ycol, "=", y, say);
			} else
				goto notyear;
			rec_intent_said(in, "%s", say);
			ws->used[i] = ws->used[i - 1] = 1;
			continue;
		}
		/* recent, new; the last five years */
		if ((!strcmp(w, "recent") || !strcmp(w, "latest") ||
		    !strcmp(w, "newest") || !strcmp(w, "fresh")) && kb->maxyear) {
			snprintf(say, sizeof say, "from %d on", kb->maxyear - 4);
			rec_intent_cons(in, ycol, ">=", kb->maxyear - 4, say);
			rec_intent_said(in, "%s", say);
			ws->used[i] = 1;
			continue;
		}
		if ((!strcmp(w, "last") || !strcmp(w, "past")) &&
		    (v = num_at(ws, i + 1)) >= 1 && v <= 100 &&
		    (at(ws, i + 2, "years") || at(ws, i + 2, "year")) &&
		    kb->maxyear) {
			snprintf(say, sizeof say, "from %d on",
			    kb->maxyear - (int)v + 1);
			rec_intent_cons(in, ycol, ">=", kb->maxyear - (int)v + 1, say);
			rec_intent_said(in, "%s", say);
			ws->used[i] = ws->used[i + 1] = ws->used[i + 2] = 1;
			continue;
		}
notyear:
		/* over 130 bpm, under 3 minutes */
		if ((v = num_at(ws, i)) > 0 && i + 1 < ws->n && i > 0) {
			const char *p = ws->w[i - 1], *u = ws->w[i + 1];
			int more = !strcmp(p, "over") || !strcmp(p, "above") ||
			    !strcmp(p, "least") || !strcmp(p, "faster") ||
			    !strcmp(p, "longer") || (!strcmp(p, "than") && i > 1
			    && (at(ws, i - 2, "more") || at(ws, i - 2, "faster")
			    || at(ws, i - 2, "longer")));
			int less = !strcmp(p, "under") || !strcmp(p, "below") ||
			    !strcmp(p, "most") || !strcmp(p, "slower") ||
			    !strcmp(p, "shorter") || (!strcmp(p, "than") && i > 1
			    && (at(ws, i - 2, "less") || at(ws, i - 2, "slower")
			    || at(ws, i - 2, "shorter")));
			if ((more || less) && !strcmp(u, "bpm") && kb->has_tempo) {
				snprintf(say, sizeof say, "%s %g BPM", more ?
				    "over" : "under", v);
				rec_intent_cons(in, "tempo", more ? ">" : "<", v, say);
				rec_intent_said(in, "%s", say);
				ws->used[i] = ws->used[i + 1] = ws->used[i - 1] = 1;
				continue;
			}
			if ((more || less) && (!strncmp(u, "minute", 6) ||
			    !strcmp(u, "min") || !strcmp(u, "mins")) &&
			    kb->has_duration) {
				snprintf(say, sizeof say, "%s %g minutes", more ?
				    "over" : "under", v);
				rec_intent_cons(in, "duration_ms", more ? ">" : "<",
				    v * 60000, say);
				rec_intent_said(in, "%s", say);
				ws->used[i] = ws->used[i + 1] = ws->used[i - 1] = 1;
				continue;
			}
		}
	}
}

static int
phrase(struct words *ws, const char *const *ph, int mark)
{
	size_t i, j, n;
	char *copy, *tok, *save;
	const char *w[8];

	for (; *ph; ph++) {
		copy = xstrdup(*ph);
		n = 0;
		for (tok = strtok_r(copy, " ", &save); tok && n < 8;
		    tok = strtok_r(NULL, " ", &save))
			w[n++] = tok;
		for (i = 0; i + n <= ws->n; i++) {
			for (j = 0; j < n && !strcmp(ws->w[i + j], w[j]); j++)
				;
			if (j == n) {
				if (mark)
					for (j = 0; j < n; j++)
						ws->used[i + j] = 1;
				free(copy);
				return 1;
			}
		}
		free(copy);
	}
	return 0;
}

static void
popularity(struct words *ws, struct rec_intent *in)
{
	static const char *const niche[] = { "not too mainstream",
	    "not mainstream", "nothing too mainstream", "nothing mainstream",
	    "not too popular", "not popular", "underground", "obscure",
	    "lesser known", "less known", "hidden gems", "hidden gem",
	    "deep cuts", "niche", "unknown", "indie gems", NULL };
	static const char *const pop[] = { "popular", "hits", "mainstream",
	    "famous", "chart", "charts", "well known", "classics", NULL };

	if (phrase(ws, niche, 1)) {
		in->popular = -1;
		rec_intent_said(in, "%s", "not too mainstream");
	} else if (phrase(ws, pop, 1)) {
		in->popular = 1;
		rec_intent_said(in, "%s", "popular");
	}
}

/* "the second one", "number 2", "the last one" in the previous list */
static const char *
ordinal_ref(struct words *ws, size_t i, const struct rec_intent *prev,
    size_t *used)
{
	static const char *const ord[] = { "first", "second", "third",
	    "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
	    NULL };
	size_t k;
	long n = -1;

	if (!prev || !prev->shown.n)
		return NULL;
	for (k = 0; ord[k]; k++)
		if (!strcmp(ws->w[i], ord[k]))
			n = (long)k;
	if (!strcmp(ws->w[i], "last"))
		n = (long)prev->shown.n - 1;
	if (!strcmp(ws->w[i], "number") && num_at(ws, i + 1) >= 1) {
		n = (long)num_at(ws, i + 1) - 1;
		*used = 2;
	} else if (n >= 0)
		*used = 1;
	if (n < 0 || (size_t)n >= prev->shown.n)
		return NULL;
	return prev->shown.v[n];
}

/* a tag common enough to be a genre ("rock"), not a name that is also
 * a tag ("metallica"): on at least 0.5% of the items */
static int
genre_like(const struct rec_kb *kb, const char *w, size_t n)
{
	size_t k = rec_hash_get(&kb->tag, w, n);

	return k != (size_t)-1 && kb->tagcount[k] * 200 >= kb->nitems;
}

/* Typo tolerance for names, as rec-bm25 has for words: an n-gram of 6 or
 * more characters, without stop words and not all tags, within one
 * edit of a creator (two from 10 characters on) */
static size_t
fuzzy_creator(struct rec_kb *kb, const struct words *ws, size_t i, size_t n,
    const char *g, size_t glen)
{
	size_t j, tags = 0;

	if (glen < 6)
		return (size_t)-1;
	for (j = i; j < i + n; j++) {
		if (is_stop(ws->w[j]))
			return (size_t)-1;
		tags += rec_hash_get(&kb->tag, ws->w[j], strlen(ws->w[j])) !=
		    (size_t)-1;
	}
	if (tags == n)		/* "classic rock" is a genre, not a typo */
		return (size_t)-1;
	/* one word is a name only after "by", "like", ...: "edm bangers"
	 * is not a misspelt band */
	if (n == 1 && !(i > 0 && (at(ws, i - 1, "by") || at(ws, i - 1, "like") ||
	    at(ws, i - 1, "from") || at(ws, i - 1, "than"))))
		return (size_t)-1;
	return rec_kb_closest(&kb->creator, g, glen >= 10 ? 2 : 1);
}

/* whether a creator's name of one to three words starts at word i
 * (dir 1) or ends there (dir -1) */
static int
creator_at(const struct rec_kb *kb, const struct words *ws, size_t i,
    int dir)
{
	struct rec_buf g = {0};
	size_t m, j, from;
	int found = 0;

	for (m = 1; m <= 3 && !found; m++) {
		if (dir > 0 ? i + m > ws->n : i + 1 < m)
			break;
		from = dir > 0 ? i : i + 1 - m;
		rec_buf_reset(&g);
		for (j = 0; j < m; j++)
			rec_buf_printf(&g, "%s%s", j ? " " : "", ws->w[from + j]);
		found = rec_hash_get(&kb->creator, g.data, g.len) != (size_t)-1;
	}
	rec_buf_free(&g);
	return found;
}

/* A creator's name in running text, unless it is only little words
 * ("as it is") or one short word without a cue ("move away", but "by
 * Dave", "Dave songs", "Shaggy and Sean Paul"; not "rain and thunder") */
static int
creator_ok(const struct rec_kb *kb, const struct words *ws, size_t i,
    size_t n)
{
	size_t j;

	for (j = i; j < i + n && is_stop(ws->w[j]); j++)
		;
	if (j == i + n)
		return 0;
	if (n > 1 || strlen(ws->w[i]) >= 5)
		return 1;
	return (i > 0 && (at(ws, i - 1, "by") || at(ws, i - 1, "from") ||
	    at(ws, i - 1, "like") || at(ws, i - 1, "than"))) ||
	    at(ws, i + 1, "songs") || at(ws, i + 1, "song") ||
	    at(ws, i + 1, "tracks") || at(ws, i + 1, "music") ||
	    (at(ws, i + 1, "and") && creator_at(kb, ws, i + 2, 1)) ||
	    (i > 1 && at(ws, i - 1, "and") && creator_at(kb, ws, i - 2, -1));
}

/* "like X", "such as X", "similar to X": X is a model, not the wish */
static int
like_cue(const struct words *ws, size_t i)
{
	return i > 0 && (at(ws, i - 1, "like") || at(ws, i - 1, "as") ||
	    (at(ws, i - 1, "to") && i > 1 && at(ws, i - 2, "similar")));
}

/* A title in running text: "like X", "such as X", or a title with a
 * real word in it (not "i am", "on my way") */
static int
title_ok(const struct words *ws, size_t i, size_t n)
{
	size_t j;

	size_t real = 0, longest = 0;

	if (i > 0 && (at(ws, i - 1, "like") || at(ws, i - 1, "as") ||
	    at(ws, i - 1, "called") || at(ws, i - 1, "titled") ||
	    (at(ws, i - 1, "to") && i > 1 && (at(ws, i - 2, "similar") ||
	    at(ws, i - 2, "listen") || at(ws, i - 2, "listening")))))
		return 1;
	/* otherwise two real words, or one long one in three or more:
	 * not "i'm ready", "help me relax" */
	for (j = i; j < i + n; j++)
		if (!is_stop(ws->w[j]) && strlen(ws->w[j]) >= 4) {
			real++;
			if (strlen(ws->w[j]) > longest)
				longest = strlen(ws->w[j]);
		}
	return real >= 2 || (real == 1 && n >= 3 && longest >= 6);
}

/* words [i, i + n) joined by spaces into g; 0 if they run past the
 * end or a rule has used one */
static int
ngram(const struct words *ws, size_t i, size_t n, struct rec_buf *g)
{
	size_t j;

	if (i + n > ws->n)
		return 0;
	for (j = 0; j < n; j++)
		if (ws->used[i + j])
			return 0;
	rec_buf_reset(g);
	for (j = 0; j < n; j++)
		rec_buf_printf(g, "%s%s", j ? " " : "", ws->w[i + j]);
	return 1;
}

static void
entities(struct rec_kb *kb, struct words *ws, struct rec_intent *in,
    const struct rec_intent *prev)
{
	struct rec_buf g = {0};
	size_t i, j, n, k, u;

	/* references to the previous list */
	for (i = 0; i < ws->n; i++) {
		const char *id;
		if (ws->used[i])
			continue;
		u = 0;
		if ((id = ordinal_ref(ws, i, prev, &u))) {
			if (ws->neg[i])
				rec_strs_add(&in->disliked_items, id);
			else
				rec_strs_add(&in->liked_items, id);
			rec_intent_said(in, ws->neg[i] ? "not like the %s one" :
			    "like the %s one", ws->w[i]);
			for (j = 0; j < u; j++)
				ws->used[i + j] = 1;
			if (at(ws, i + u, "one"))
				ws->used[i + u] = 1;
		}
	}
	/* names: the longest n-gram first */
	for (n = 8; n >= 1; n--)
		for (i = 0; i + n <= ws->n; i++) {
			int neg = 0;
			if (!ngram(ws, i, n, &g))
				continue;
			for (j = 0; j < n; j++)
				neg |= ws->neg[i + j];
			if (n == 1 && (is_stop(g.data) || g.len < 3))
				continue;
			k = rec_hash_get(&kb->creator, g.data, g.len);
			if (k != (size_t)-1 && !creator_ok(kb, ws, i, n))
				k = (size_t)-1;
			if (k == (size_t)-1 && n <= 3)
				k = fuzzy_creator(kb, ws, i, n, g.data, g.len);
			if (k != (size_t)-1 && !(n == 1 && genre_like(kb, g.data,
			    g.len))) {
				if (neg)
					rec_strs_add(&in->disliked_creators,
					    kb->cname[k]);
				else
					rec_strs_add(&in->liked_creators,
					    kb->cname[k]);
				rec_intent_said(in, neg ? "not by %s" : "like %s",
				    kb->cname[k]);
			} else if (rec_hash_get(&kb->tag, g.data, g.len) !=
			    (size_t)-1) {
				if (neg)
					rec_strs_add(&in->disliked_tags, g.data);
				else
					rec_strs_add(&in->tags, g.data);
				rec_intent_said(in, neg ? "no %s" : "%s", g.data);
			} else if (n >= 2 && title_ok(ws, i, n) &&
			    (k = rec_hash_get(&kb->title, g.data, g.len)) !=
			    (size_t)-1) {
				if (neg)
					rec_strs_add(&in->disliked_items, kb->tid[k]);
				else
					rec_strs_add(&in->liked_items, kb->tid[k]);
				/* named, not as a model ("like X"): the
				 * song itself is wanted */
				if (!neg && !like_cue(ws, i))
					rec_strs_add(&in->wanted, kb->tid[k]);
				rec_intent_said(in, neg ? "not like '%s'" : "like '%s'",
				    g.data);
			} else
				continue;
			for (j = 0; j < n; j++)
				ws->used[i + j] = 1;
		}
	/* a misspelt title after "similar to", "like", "such as": the
	 * longest run of free words within an edit or two of one */
	for (i = 1; i < ws->n; i++) {
		if (ws->used[i] || !(at(ws, i - 1, "like") || at(ws, i - 1,
		    "as") || (at(ws, i - 1, "to") && i > 1 && at(ws, i - 2,
		    "similar"))))
			continue;
		for (n = 8; n >= 2; n--) {
			if (!ngram(ws, i, n, &g) || g.len < 8)
				continue;
			k = rec_kb_closest(&kb->title, g.data, g.len >= 12 ? 2 : 1);
			if (k == (size_t)-1)
				continue;
			rec_strs_add(ws->neg[i] ? &in->disliked_items :
			    &in->liked_items, kb->tid[k]);
			rec_intent_said(in, ws->neg[i] ? "not like '%s'" : "like '%s'",
			    kb->title.key[k]);
			for (j = 0; j < n; j++)
				ws->used[i + j] = 1;
			break;
		}
	}
	for (i = 0; i < ws->n; i++)
		if (!ws->used[i] && !is_stop(ws->w[i]) && !ws->neg[i] &&
		    strlen(ws->w[i]) >= 3 && num_at(ws, i) < 0)
			rec_strs_add(&in->words, ws->w[i]);
	rec_buf_free(&g);
}

/* the creator of an item, in the catalog's spelling; caller frees */
static char *
creator_of(struct rec_kb *kb, const char *id)
{
	return rec_catalog_field(kb->cat, kb->c_creator, id, strlen(id));
}

/* "something slower / faster / older / newer", "not that artist" */
static int
relative(struct rec_kb *kb, struct words *ws, struct rec_intent *in,
    const struct rec_intent *prev)
{
	size_t i;
	int hit = 0;

	if (!prev)
		return 0;
	for (i = 0; i < ws->n; i++) {
		if (ws->used[i])
			continue;
		if ((!strcmp(ws->w[i], "artist") || !strcmp(ws->w[i], "band") ||
		    !strcmp(ws->w[i], "director")) && ws->neg[i] && i > 0 &&
		    (at(ws, i - 1, "that") || at(ws, i - 1, "this") ||
		    at(ws, i - 1, "same"))) {
			size_t j;
			for (j = 0; j < prev->liked_creators.n; j++)
				rec_strs_add(&in->disliked_creators,
				    prev->liked_creators.v[j]);
			/* and the artist of the item the last turn was about,
			 * or of the first item shown */
			for (j = 0; j < prev->liked_items.n + (prev->liked_items.n ?
			    0 : prev->shown.n > 0); j++) {
				char *cr = creator_of(kb, prev->liked_items.n ?
				    prev->liked_items.v[j] : prev->shown.v[0]);
				if (cr)
					rec_strs_add(&in->disliked_creators, cr);
				free(cr);
			}
			ws->used[i] = ws->used[i - 1] = 1;
			rec_intent_said(in, "%s", "not that artist");
			hit = 1;
		}
	}
	if (phrase(ws, (const char *const[]){ "slower", NULL }, 1) &&
	    kb->has_tempo) {
		rec_intent_cons(in, "tempo", "<", 110, "slower");
		rec_intent_said(in, "%s", "slower");
		hit = 1;
	}
	if (phrase(ws, (const char *const[]){ "faster", NULL }, 1) &&
	    kb->has_tempo) {
		rec_intent_cons(in, "tempo", ">", 125, "faster");
		rec_intent_said(in, "%s", "faster");
		hit = 1;
	}
	if (phrase(ws, (const char *const[]){ "older", NULL }, 1) &&
	    kb->c_year) {
		rec_intent_cons(in, kb->c_year, "<", 2000, "older");
		rec_intent_said(in, "%s", "older");
		hit = 1;
	}
	return hit;
}

void
rec_intent_parse(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, struct rec_intent *in)
{
	struct words ws;
	int more, rel, only_limits, asks;

	memset(in, 0, sizeof *in);
	in->k = 10;
	words_of(message, &ws);
	/* "more", "more like that", "another": carry the last intent on */
	more = prev && (phrase(&ws, (const char *const[]){ "more like that",
	    "more like these", "more like this", "more like them",
	    "more of that", "more of those", "more of these", "more of this",
	    "more of them", "more songs like", "similar ones", "another",
	    "again", "keep going", "more please", NULL }, 1) ||
	    (ws.n == 1 && at(&ws, 0, "more")));
	{
		static const char *const pos[] = { "i like", "i love", "loved",
		    "liked", "enjoyed", "i enjoy", "im into", "i am into",
		    "fan of", "i adore", "favourite", "favorite", NULL };
		static const char *const negs[] = { "not a fan", "hate", "hated",
		    "dislike", "disliked", "dont like", "didnt like",
		    "cant stand", "not into", NULL };
		/* the taste words are said, not searched for */
		if (phrase(&ws, negs, 1))
			in->taste = -1;
		else if (phrase(&ws, pos, 1))
			in->taste = 1;
	}
	popularity(&ws, in);
	dates_numbers(kb, &ws, in);
	moods(kb, &ws, in);
	rel = relative(kb, &ws, in, prev);
	entities(kb, &ws, in, prev);
	rec_intent_carry(in, prev);
	/* a message with limits only ("from the 90s", "nothing too
	 * mainstream") narrows the request before it */
	asks = rec_intent_asks(in) || in->disliked_items.n ||
	    in->disliked_creators.n || in->disliked_tags.n;
	only_limits = prev && (in->ncons > 0 || in->popular) && !asks;
	/* nothing new at all ("Great!", "yes please"): go on with the
	 * request before */
	if (prev && !asks && !in->ncons && !in->popular && !rel)
		more = 1;
	if (more || only_limits || (rel && !rec_intent_asks(in))) {
		/* a refinement: keep what was asked before */
		int i;
		rec_strs_copy(&in->liked_items, &prev->liked_items);
		rec_strs_copy(&in->liked_creators, &prev->liked_creators);
		rec_strs_copy(&in->tags, &prev->tags);
		rec_strs_copy(&in->words, &prev->words);
		for (i = 0; i < prev->ncons && in->ncons < REC_MAXC; i++) {
			int j, dup = 0;
			for (j = 0; j < in->ncons; j++)
				dup |= !strcmp(in->cons[j].col,
				    prev->cons[i].col) && !strcmp(in->cons[j].op,
				    prev->cons[i].op);
			if (!dup)
				in->cons[in->ncons++] = prev->cons[i];
		}
		if (!in->popular)
			in->popular = prev->popular;
		if (more)
			rec_intent_said(in, "%s", "more of the same");
	}
	words_free(&ws);
}
