/*
 * plan.c: from what a person says to a plan of rec tools, without a
 * model: OMuleT's formatted intent (likes, dislikes, names, tags,
 * properties, constraints), read by rules that link names to the
 * catalog, then a fixed policy that turns the intent into tools.
 *
 * The policy, in order:
 *   liked items    -> rec-cf --like, rec-semid --like, rec-dense --like
 *                     (each when the catalog has what it needs)
 *   named creators -> rec-bm25 on the creator field, and rec-cf --like
 *                     their best-known items
 *   tags and words -> rec-bm25 over all text fields, and rec-dense --text
 *                     where a server embedded the catalog (REC_LLM_URL)
 *   the user       -> rec-cf --user
 *   only limits    -> rec-sql over the catalog, most popular first
 * then rec-sql for the constraints and the creators not wanted, then
 * rec-rank: fusion, the unwanted and the shown removed, novelty or
 * popularity, at most two items per creator, the cut.
 */
#include <ctype.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "converse.h"

static int
table_has(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int ok = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		ok = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	return ok;
}

/* The first column of the first row, copied; NULL when there is none. */
static char *
first_text(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	char *s = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_text(st, 0) != NULL)
			s = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	return s;
}

struct rec_kb *
rec_kb_load(const char *catalog)
{
	struct rec_kb *kb = xcalloc(1, sizeof *kb);
	sqlite3 *db = rec_catalog_open(catalog);
	struct rec_buf sql = {0}, n = {0};
	sqlite3_stmt *st;
	char type[16];
	int added;

	kb->catalog = xstrdup(rec_catalog_path(catalog));
	kb->c_title = rec_catalog_role(db, "title");
	kb->c_creator = rec_catalog_role(db, "creator");
	kb->c_pop = rec_catalog_role(db, "popularity");
	kb->c_date = rec_catalog_role(db, "date");
	if (rec_catalog_column(db, "year", NULL, type, sizeof type) &&
	    !strcmp(type, "integer"))
		kb->c_year = xstrdup("year");
	kb->has_tempo = rec_catalog_column(db, "tempo", NULL, NULL, 0);
	kb->has_duration = rec_catalog_column(db, "duration_ms", NULL, NULL, 0);
	kb->has_valence = rec_catalog_column(db, "valence", NULL, NULL, 0);
	kb->has_energy = rec_catalog_column(db, "energy", NULL, NULL, 0);
	kb->has_dance = rec_catalog_column(db, "danceability", NULL, NULL, 0);
	kb->has_acoustic = rec_catalog_column(db, "acousticness", NULL, NULL,
	    0);
	kb->has_instrumental = rec_catalog_column(db, "instrumentalness",
	    NULL, NULL, 0);
	kb->has_knn = table_has(db, "SELECT 1 FROM models WHERE kind = "
	    "'itemknn' AND name = 'itemknn'");
	kb->semid_space = first_text(db, "SELECT space FROM semid_spaces "
	    "ORDER BY space LIMIT 1");
	kb->dense_space = first_text(db, "SELECT name FROM spaces ORDER BY "
	    "name = 'audio' DESC, name LIMIT 1");
	kb->text_space = first_text(db, "SELECT name FROM spaces WHERE source = "
	    "'embeddings' ORDER BY name LIMIT 1");
	rec_buf_printf(&sql, "%s.bm25", kb->catalog);
	kb->has_bm25 = access(sql.data, R_OK) == 0;
	rec_buf_reset(&sql);
	if (kb->c_year) {
		sqlite3_prepare_v2(db, "SELECT max(year) FROM items", -1, &st,
		    NULL);
		if (sqlite3_step(st) == SQLITE_ROW)
			kb->maxyear = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	/* creators, by folded name */
	if (kb->c_creator) {
		rec_buf_printf(&sql, "SELECT DISTINCT \"%s\" FROM items WHERE "
		    "\"%s\" IS NOT NULL", kb->c_creator, kb->c_creator);
		sqlite3_prepare_v2(db, sql.data, -1, &st, NULL);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			size_t k;
			rec_buf_reset(&n);
			rec_norm(&n, v, strlen(v));
			if (n.len < 2)
				continue;
			k = rec_hash_put(&kb->creator, n.data, n.len, &added);
			if (added) {
				kb->cname = xrealloc(kb->cname,
				    kb->creator.cap * sizeof *kb->cname);
				kb->cname[k] = xstrdup(v);
			}
		}
		sqlite3_finalize(st);
	}
	/* titles of two words or more, most popular item first */
	if (kb->c_title) {
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "SELECT \"%s\", id FROM items WHERE \"%s\" "
		    "IS NOT NULL ORDER BY %s%s%s", kb->c_title, kb->c_title,
		    kb->c_pop ? "\"" : "", kb->c_pop ? kb->c_pop : "rowid",
		    kb->c_pop ? "\" DESC" : "");
		sqlite3_prepare_v2(db, sql.data, -1, &st, NULL);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			size_t k;
			rec_buf_reset(&n);
			rec_norm(&n, v, strlen(v));
			if (!strchr(n.data ? n.data : "", ' '))
				continue;
			k = rec_hash_put(&kb->title, n.data, n.len, &added);
			if (added) {
				kb->tid = xrealloc(kb->tid, kb->title.cap *
				    sizeof *kb->tid);
				kb->tid[k] = xstrdup((const char *)
				    sqlite3_column_text(st, 1));
			}
		}
		sqlite3_finalize(st);
	}
	/* tag values of every tags and category column */
	sqlite3_prepare_v2(db, "SELECT name, list FROM columns WHERE role IN "
	    "('tags', 'category')", -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_stmt *v;
		const char *col = (const char *)sqlite3_column_text(st, 0);
		kb->c_tags = xrealloc(kb->c_tags, (kb->nc_tags + 1) *
		    sizeof *kb->c_tags);
		kb->c_tags_list = xrealloc(kb->c_tags_list, (kb->nc_tags + 1) *
		    sizeof *kb->c_tags_list);
		kb->c_tags[kb->nc_tags] = xstrdup(col);
		kb->c_tags_list[kb->nc_tags++] = sqlite3_column_int(st, 1);
		rec_buf_reset(&sql);
		if (sqlite3_column_int(st, 1))
			rec_buf_printf(&sql, "SELECT j.value, count(*) FROM items, "
			    "json_each(items.\"%s\") j GROUP BY 1", col);
		else
			rec_buf_printf(&sql, "SELECT \"%s\", count(*) FROM items "
			    "GROUP BY 1", col);
		if (sqlite3_prepare_v2(db, sql.data, -1, &v, NULL))
			continue;
		while (sqlite3_step(v) == SQLITE_ROW) {
			const char *t = (const char *)sqlite3_column_text(v, 0);
			if (!t)
				continue;
			rec_buf_reset(&n);
			rec_norm(&n, t, strlen(t));
			if (n.len >= 2) {
				int added;
				size_t k = rec_hash_put(&kb->tag, n.data, n.len,
				    &added);
				if (added) {
					kb->tagcount = xrealloc(kb->tagcount,
					    kb->tag.cap * sizeof *kb->tagcount);
					kb->tagcount[k] = 0;
				}
				kb->tagcount[k] += (unsigned)
				    sqlite3_column_int(v, 1);
			}
		}
		sqlite3_finalize(v);
	}
	sqlite3_finalize(st);
	sqlite3_prepare_v2(db, "SELECT count(*) FROM items", -1, &st, NULL);
	if (sqlite3_step(st) == SQLITE_ROW)
		kb->nitems = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	rec_buf_free(&sql);
	rec_buf_free(&n);
	return kb;
}

void
rec_kb_free(struct rec_kb *kb)
{
	size_t i;

	if (!kb)
		return;
	for (i = 0; i < kb->creator.n; i++)
		free(kb->cname[i]);
	for (i = 0; i < kb->title.n; i++)
		free(kb->tid[i]);
	free(kb->cname);
	free(kb->tid);
	rec_hash_free(&kb->creator);
	rec_hash_free(&kb->title);
	rec_hash_free(&kb->tag);
	free(kb->tagcount);
	free(kb->catalog);
	free(kb->c_title);
	free(kb->c_creator);
	free(kb->c_pop);
	free(kb->c_year);
	free(kb->c_date);
	free(kb->semid_space);
	free(kb->dense_space);
	free(kb->text_space);
	for (i = 0; i < kb->nc_tags; i++)
		free(kb->c_tags[i]);
	free(kb->c_tags);
	free(kb->c_tags_list);
	free(kb);
}

/* --- reading a message --- */

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

static void
add_cons(struct rec_intent *in, const char *col, const char *op, double v,
    const char *say)
{
	struct rec_cons *c;

	if (in->ncons == REC_MAXC)
		return;
	c = &in->cons[in->ncons++];
	snprintf(c->col, sizeof c->col, "%s", col);
	snprintf(c->op, sizeof c->op, "%s", op);
	c->v = v;
	snprintf(c->say, sizeof c->say, "%s", say);
}

static void
said(struct rec_intent *in, const char *fmt, const char *a)
{
	if (in->said.len)
		rec_buf_adds(&in->said, ", ");
	rec_buf_printf(&in->said, fmt, a);
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
			add_cons(in, m[k].column, m[k].op, m[k].v, m[k].say);
			said(in, "%s", m[k].say);
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
				add_cons(in, ycol, ">=", y, say);
				add_cons(in, ycol, "<=", y + 9, say);
				said(in, "%s", say);
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
				add_cons(in, ycol, ">=", !strcmp(p, "after") ?
				    y + 1 : y, say);
			} else if (!strcmp(p, "before") || !strcmp(p, "until")) {
				snprintf(say, sizeof say, "before %d", y);
				add_cons(in, ycol, "<", y, say);
			} else if (!strcmp(p, "in") || !strcmp(p, "of")) {
				snprintf(say, sizeof say, "from %d", y);
				add_cons(in, ycol, "=", y, say);
			} else
				goto notyear;
			said(in, "%s", say);
			ws->used[i] = ws->used[i - 1] = 1;
			continue;
		}
		/* recent, new; the last five years */
		if ((!strcmp(w, "recent") || !strcmp(w, "latest") ||
		    !strcmp(w, "newest") || !strcmp(w, "fresh")) && kb->maxyear) {
			snprintf(say, sizeof say, "from %d on", kb->maxyear - 4);
			add_cons(in, ycol, ">=", kb->maxyear - 4, say);
			said(in, "%s", say);
			ws->used[i] = 1;
			continue;
		}
		if ((!strcmp(w, "last") || !strcmp(w, "past")) &&
		    (v = num_at(ws, i + 1)) >= 1 && v <= 100 &&
		    (at(ws, i + 2, "years") || at(ws, i + 2, "year")) &&
		    kb->maxyear) {
			snprintf(say, sizeof say, "from %d on",
			    kb->maxyear - (int)v + 1);
			add_cons(in, ycol, ">=", kb->maxyear - (int)v + 1, say);
			said(in, "%s", say);
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
				add_cons(in, "tempo", more ? ">" : "<", v, say);
				said(in, "%s", say);
				ws->used[i] = ws->used[i + 1] = ws->used[i - 1] = 1;
				continue;
			}
			if ((more || less) && (!strncmp(u, "minute", 6) ||
			    !strcmp(u, "min") || !strcmp(u, "mins")) &&
			    kb->has_duration) {
				snprintf(say, sizeof say, "%s %g minutes", more ?
				    "over" : "under", v);
				add_cons(in, "duration_ms", more ? ">" : "<",
				    v * 60000, say);
				said(in, "%s", say);
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
		said(in, "%s", "not too mainstream");
	} else if (phrase(ws, pop, 1)) {
		in->popular = 1;
		said(in, "%s", "popular");
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

static size_t closest_key(const struct rec_hash *h, const char *s, int max);

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
	return closest_key(&kb->creator, g, glen >= 10 ? 2 : 1);
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
			said(in, ws->neg[i] ? "not like the %s one" :
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
				said(in, neg ? "not by %s" : "like %s",
				    kb->cname[k]);
			} else if (rec_hash_get(&kb->tag, g.data, g.len) !=
			    (size_t)-1) {
				if (neg)
					rec_strs_add(&in->disliked_tags, g.data);
				else
					rec_strs_add(&in->tags, g.data);
				said(in, neg ? "no %s" : "%s", g.data);
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
				said(in, neg ? "not like '%s'" : "like '%s'",
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
			k = closest_key(&kb->title, g.data, g.len >= 12 ? 2 : 1);
			if (k == (size_t)-1)
				continue;
			rec_strs_add(ws->neg[i] ? &in->disliked_items :
			    &in->liked_items, kb->tid[k]);
			said(in, ws->neg[i] ? "not like '%s'" : "like '%s'",
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

/* "something slower / faster / older / newer", "more", "not that artist" */
/* the creator of an item, folded to the catalog's spelling; caller
 * frees */
static char *
column_of(struct rec_kb *kb, const char *col, const char *id)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	struct rec_buf sql = {0};
	char *c = NULL;

	if (!col)
		return NULL;
	db = rec_catalog_open(kb->catalog);
	rec_buf_printf(&sql, "SELECT \"%s\" FROM items WHERE id = ?", col);
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			c = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	rec_buf_free(&sql);
	return c;
}

static char *
creator_of(struct rec_kb *kb, const char *id)
{
	return column_of(kb, kb->c_creator, id);
}

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
			said(in, "%s", "not that artist");
			hit = 1;
		}
	}
	if (phrase(ws, (const char *const[]){ "slower", NULL }, 1) &&
	    kb->has_tempo) {
		add_cons(in, "tempo", "<", 110, "slower");
		said(in, "%s", "slower");
		hit = 1;
	}
	if (phrase(ws, (const char *const[]){ "faster", NULL }, 1) &&
	    kb->has_tempo) {
		add_cons(in, "tempo", ">", 125, "faster");
		said(in, "%s", "faster");
		hit = 1;
	}
	if (phrase(ws, (const char *const[]){ "older", NULL }, 1) &&
	    kb->c_year) {
		add_cons(in, kb->c_year, "<", 2000, "older");
		said(in, "%s", "older");
		hit = 1;
	}
	return hit;
}

static void
copy_strs(struct rec_strs *to, const struct rec_strs *from)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		rec_strs_add(to, from->v[i]);
}

/* what a turn keeps from the one before: the shown items stay out of
 * the next list, the dislikes hold, and the user */
static void
carry(struct rec_intent *in, const struct rec_intent *prev)
{
	if (!prev)
		return;
	copy_strs(&in->shown, &prev->shown);
	copy_strs(&in->earlier_creators, &prev->liked_creators);
	copy_strs(&in->earlier_creators, &prev->earlier_creators);
	copy_strs(&in->disliked_creators, &prev->disliked_creators);
	copy_strs(&in->disliked_items, &prev->disliked_items);
	if (!in->user && prev->user)
		in->user = xstrdup(prev->user);
}

/* whether the intent names something to look for: items, creators,
 * tags or other words */
static int
asks_for(const struct rec_intent *in)
{
	return in->liked_items.n || in->liked_creators.n || in->tags.n ||
	    in->words.n;
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
	carry(in, prev);
	/* a message with limits only ("from the 90s", "nothing too
	 * mainstream") narrows the request before it */
	asks = asks_for(in) || in->disliked_items.n ||
	    in->disliked_creators.n || in->disliked_tags.n;
	only_limits = prev && (in->ncons > 0 || in->popular) && !asks;
	/* nothing new at all ("Great!", "yes please"): go on with the
	 * request before */
	if (prev && !asks && !in->ncons && !in->popular && !rel)
		more = 1;
	if (more || only_limits || (rel && !asks_for(in))) {
		/* a refinement: keep what was asked before */
		int i;
		copy_strs(&in->liked_items, &prev->liked_items);
		copy_strs(&in->liked_creators, &prev->liked_creators);
		copy_strs(&in->tags, &prev->tags);
		copy_strs(&in->words, &prev->words);
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
			said(in, "%s", "more of the same");
	}
	words_free(&ws);
}

void
rec_intent_free(struct rec_intent *in)
{
	rec_strs_free(&in->liked_items);
	rec_strs_free(&in->liked_creators);
	rec_strs_free(&in->disliked_items);
	rec_strs_free(&in->disliked_creators);
	rec_strs_free(&in->tags);
	rec_strs_free(&in->disliked_tags);
	rec_strs_free(&in->words);
	rec_strs_free(&in->shown);
	rec_strs_free(&in->boost);
	rec_strs_free(&in->wanted);
	rec_strs_free(&in->earlier_creators);
	free(in->user);
	rec_buf_free(&in->said);
	memset(in, 0, sizeof *in);
}

static void
json_strs(struct rec_buf *b, const char *key, const struct rec_strs *s)
{
	size_t i;

	rec_buf_printf(b, "\"%s\":[", key);
	for (i = 0; i < s->n; i++) {
		if (i)
			rec_buf_addc(b, ',');
		rec_json_string(b, s->v[i], strlen(s->v[i]));
	}
	rec_buf_addc(b, ']');
}

void
rec_intent_json(struct rec_buf *b, const struct rec_intent *in)
{
	char num[40];
	int i;

	rec_buf_addc(b, '{');
	json_strs(b, "liked_items", &in->liked_items);
	rec_buf_addc(b, ',');
	json_strs(b, "liked_creators", &in->liked_creators);
	rec_buf_addc(b, ',');
	json_strs(b, "disliked_items", &in->disliked_items);
	rec_buf_addc(b, ',');
	json_strs(b, "disliked_creators", &in->disliked_creators);
	rec_buf_addc(b, ',');
	json_strs(b, "tags", &in->tags);
	rec_buf_addc(b, ',');
	json_strs(b, "disliked_tags", &in->disliked_tags);
	rec_buf_addc(b, ',');
	json_strs(b, "words", &in->words);
	rec_buf_addc(b, ',');
	json_strs(b, "shown", &in->shown);
	rec_buf_addc(b, ',');
	json_strs(b, "wanted", &in->wanted);
	rec_buf_addc(b, ',');
	json_strs(b, "earlier_creators", &in->earlier_creators);
	rec_buf_adds(b, ",\"constraints\":[");
	for (i = 0; i < in->ncons; i++) {
		rec_json_double(num, sizeof num, in->cons[i].v);
		rec_buf_printf(b, "%s{\"column\":", i ? "," : "");
		rec_json_string(b, in->cons[i].col, strlen(in->cons[i].col));
		rec_buf_printf(b, ",\"op\":\"%s\",\"value\":%s,\"say\":",
		    in->cons[i].op, num);
		rec_json_string(b, in->cons[i].say, strlen(in->cons[i].say));
		rec_buf_addc(b, '}');
	}
	rec_buf_printf(b, "],\"popularity\":%d,\"k\":%d,\"user\":",
	    in->popular, in->k);
	if (in->user)
		rec_json_string(b, in->user, strlen(in->user));
	else
		rec_buf_adds(b, "null");
	rec_buf_adds(b, ",\"understood\":");
	rec_json_string(b, in->said.data ? in->said.data : "", in->said.len);
	rec_buf_addc(b, '}');
}

const char *
rec_intent_relax(struct rec_intent *in, struct rec_buf *note)
{
	static char what[64];
	int i, j;

	if (!in->ncons)
		return NULL;
	/* a range comes in two halves with one name: drop both */
	snprintf(what, sizeof what, "%s", in->cons[in->ncons - 1].say);
	for (i = j = 0; i < in->ncons; i++)
		if (strcmp(in->cons[i].say, what))
			in->cons[j++] = in->cons[i];
	in->ncons = j;
	if (note)
		rec_buf_printf(note, "%s'%s'", note->len ? ", " : "", what);
	return what;
}

/* --- the policy --- */

static void
stage(struct rec_stage **v, size_t *n, ...)
{
	va_list ap;
	const char *a;
	struct rec_stage *s;

	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	s = &(*v)[(*n)++];
	memset(s, 0, sizeof *s);
	va_start(ap, n);
	while ((a = va_arg(ap, const char *))) {
		s->argv = xrealloc(s->argv, (size_t)(s->argc + 2) *
		    sizeof *s->argv);
		s->argv[s->argc++] = xstrdup(a);
	}
	va_end(ap);
	if (s->argv)
		s->argv[s->argc] = NULL;
}

static void
arg(struct rec_stage *s, const char *a)
{
	s->argv = xrealloc(s->argv, (size_t)(s->argc + 2) * sizeof *s->argv);
	s->argv[s->argc++] = xstrdup(a);
	s->argv[s->argc] = NULL;
}

static void
sql_str(struct rec_buf *b, const char *s)
{
	rec_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			rec_buf_addc(b, '\'');
		rec_buf_addc(b, *s);
	}
	rec_buf_addc(b, '\'');
}

/* the best-known items of a creator, for rec-cf --like */
static void
top_items(struct rec_kb *kb, const char *creator, struct rec_buf *ids)
{
	sqlite3 *db = rec_catalog_open(kb->catalog);
	sqlite3_stmt *st;
	struct rec_buf sql = {0};

	rec_buf_printf(&sql, "SELECT id FROM items WHERE \"%s\" = ? ORDER BY "
	    "%s%s%s LIMIT 3", kb->c_creator, kb->c_pop ? "\"" : "",
	    kb->c_pop ? kb->c_pop : "rowid", kb->c_pop ? "\" DESC" : "");
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, creator, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW)
			rec_buf_printf(ids, "%s%s", ids->len ? "," : "",
			    sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	rec_buf_free(&sql);
	sqlite3_close(db);
}

/* the creators most of ids have (at most max), most first */
static void
creators_of(struct rec_kb *kb, const struct rec_strs *ids, size_t max,
    struct rec_strs *out)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	struct rec_buf sql = {0}, list = {0};
	size_t i;

	if (!kb->c_creator || !ids->n)
		return;
	rec_buf_addc(&list, '[');
	for (i = 0; i < ids->n; i++) {
		rec_buf_adds(&list, i ? "," : "");
		rec_json_string(&list, ids->v[i], strlen(ids->v[i]));
	}
	rec_buf_addc(&list, ']');
	db = rec_catalog_open(kb->catalog);
	rec_buf_printf(&sql, "SELECT \"%s\" AS c FROM items WHERE id IN "
	    "(SELECT value FROM json_each(?)) AND c IS NOT NULL AND c <> '' "
	    "GROUP BY c ORDER BY count(*) DESC, min(rowid) LIMIT %zu",
	    kb->c_creator, max);
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, list.data, (int)list.len, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW)
			rec_strs_add(out, (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	rec_buf_free(&sql);
	rec_buf_free(&list);
	sqlite3_close(db);
}

void
rec_intent_where(const struct rec_intent *in, struct rec_buf *b)
{
	char num[40];
	int c;

	for (c = 0; c < in->ncons; c++) {
		rec_json_double(num, sizeof num, in->cons[c].v);
		if (strchr(num, '.') && !strcmp(num + strlen(num) - 2, ".0"))
			num[strlen(num) - 2] = 0;
		rec_buf_printf(b, "%s\"%s\" %s %s", b->len ? " AND " : "",
		    in->cons[c].col, in->cons[c].op, num);
	}
}

void
rec_plan_make(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_plan *p)
{
	struct rec_buf b = {0}, w = {0};
	char num[40];
	size_t i, liked_streams = 0;
	int near = 0, titled = 0;

	memset(p, 0, sizeof *p);
	/* nothing to go on, not even what was liked before */
	if (!asks_for(in) && !in->user && !in->ncons && !in->popular &&
	    !in->boost.n) {
		p->ask = xstrdup("What are you in the mood for? An artist, a "
		    "title you like, a genre, a mood or a decade will do.");
		return;
	}
	if (in->liked_items.n) {
		for (i = 0; i < in->liked_items.n; i++)
			rec_buf_printf(&b, "%s%s", i ? "," : "",
			    in->liked_items.v[i]);
		if (kb->has_knn)
			stage(&p->src, &p->nsrc, "rec-cf", "-e", "-k", "200",
			    "-l", b.data, (char *)NULL);
		if (kb->semid_space)
			stage(&p->src, &p->nsrc, "rec-semid", "-S",
			    kb->semid_space, "-k", "100", "-l", b.data, (char *)NULL);
		if (kb->dense_space)
			stage(&p->src, &p->nsrc, "rec-dense", "-e", "-S",
			    kb->dense_space, "-k", "100", "-l", b.data,
			    (char *)NULL);
		rec_buf_reset(&b);
	}
	/* a song named by its title ("add Kiss from a Rose"): the song
	 * itself, and the other records of that title, first */
	for (i = 0; i < in->wanted.n && kb->has_bm25 && kb->c_title; i++) {
		char *t;
		if (rec_strs_has(&in->shown, in->wanted.v[i], 0) ||
		    !(t = column_of(kb, kb->c_title, in->wanted.v[i])))
			continue;
		stage(&p->src, &p->nsrc, "rec-bm25", "-e", "-A", "-s", "title",
		    "-f", kb->c_title, "-k", "20", t, (char *)NULL);
		titled++;
		free(t);
	}
	for (i = 0; i < in->liked_creators.n && kb->has_bm25; i++) {
		stage(&p->src, &p->nsrc, "rec-bm25", "-e", "-s", "creator",
		    "-f", kb->c_creator, "-k", "100", in->liked_creators.v[i],
		    (char *)NULL);
		rec_buf_reset(&b);
		top_items(kb, in->liked_creators.v[i], &b);
		if (kb->has_knn && b.len)
			stage(&p->src, &p->nsrc, "rec-cf", "-e", "-k", "200",
			    "-l", b.data, (char *)NULL);
	}
	/* the creators of what the person liked before (in this
	 * conversation, or in their profile): more of theirs, as a weaker
	 * stream, when the request names no creator of its own */
	/* items near the ones liked before, by the catalog's vectors: a
	 * weak stream (weight 0.3) that mostly orders the others */
	if (in->boost.n && !in->liked_items.n && kb->dense_space) {
		rec_buf_reset(&b);
		for (i = 0; i < in->boost.n && i < 20; i++)
			rec_buf_printf(&b, "%s%s", i ? "," : "", in->boost.v[i]);
		stage(&p->src, &p->nsrc, "rec-dense", "-e", "-s", "near", "-S",
		    kb->dense_space, "-k", "100", "-l", b.data, (char *)NULL);
		near = 1;
		liked_streams++;
	}
	if ((in->boost.n || in->earlier_creators.n) &&
	    !in->liked_creators.n && kb->has_bm25 && kb->c_creator) {
		struct rec_strs cr = {0};
		/* and those named in earlier turns, unless turned down */
		for (i = 0; i < in->earlier_creators.n; i++)
			if (!rec_strs_has(&in->disliked_creators,
			    in->earlier_creators.v[i], 1))
				rec_strs_add(&cr, in->earlier_creators.v[i]);
		creators_of(kb, &in->boost, 6, &cr);
		for (i = 0; i < cr.n; i++) {
			stage(&p->src, &p->nsrc, "rec-bm25", "-e", "-s", "liked",
			    "-f", kb->c_creator, "-k", "50", cr.v[i],
			    (char *)NULL);
			liked_streams++;
		}
		rec_strs_free(&cr);
	}
	if ((in->tags.n || in->words.n) && kb->has_bm25) {
		for (i = 0; i < in->tags.n; i++)
			rec_buf_printf(&w, "%s%s", w.len ? " " : "",
			    in->tags.v[i]);
		for (i = 0; i < in->words.n; i++)
			rec_buf_printf(&w, "%s%s", w.len ? " " : "",
			    in->words.v[i]);
		stage(&p->src, &p->nsrc, "rec-bm25", "-k", "300", w.data, (char *)NULL);
	}
	/* the same words by meaning, where a server embedded the catalog */
	if ((in->tags.n || in->words.n) && kb->text_space &&
	    rec_llm_enabled()) {
		if (!w.len) {
			for (i = 0; i < in->tags.n; i++)
				rec_buf_printf(&w, "%s%s", w.len ? " " : "",
				    in->tags.v[i]);
			for (i = 0; i < in->words.n; i++)
				rec_buf_printf(&w, "%s%s", w.len ? " " : "",
				    in->words.v[i]);
		}
		stage(&p->src, &p->nsrc, "rec-dense", "-e", "-S", kb->text_space,
		    "-k", "100", "-t", w.data, (char *)NULL);
	}
	if (in->user && kb->has_knn)
		stage(&p->src, &p->nsrc, "rec-cf", "-e", "-k", "200", "-u",
		    in->user, (char *)NULL);
	/* constraints and unwanted creators */
	rec_buf_reset(&b);
	rec_intent_where(in, &b);
	for (i = 0; i < in->disliked_tags.n; i++) {
		size_t t;
		for (t = 0; t < kb->nc_tags; t++) {
			rec_buf_printf(&b, "%sNOT has(\"%s\", ", b.len ? " AND " :
			    "", kb->c_tags[t]);
			sql_str(&b, in->disliked_tags.v[i]);
			rec_buf_addc(&b, ')');
		}
	}
	for (i = 0; i < in->disliked_creators.n && kb->c_creator; i++) {
		rec_buf_printf(&b, "%scoalesce(\"%s\", '') <> ", b.len ?
		    " AND " : "", kb->c_creator);
		sql_str(&b, in->disliked_creators.v[i]);
	}
	if (!p->nsrc) {
		/* nothing to retrieve by: the catalog under the limits */
		stage(&p->src, &p->nsrc, "rec-sql", "-a", "-k", "300", "-w",
		    b.len ? b.data : "1", "-o", kb->c_pop ? kb->c_pop : "rowid",
		    (char *)NULL);
		if (kb->c_pop) {
			free(p->src[0].argv[p->src[0].argc - 1]);
			rec_buf_reset(&w);
			rec_buf_printf(&w, "\"%s\" DESC", kb->c_pop);
			p->src[0].argv[p->src[0].argc - 1] = xstrdup(w.data);
		}
	} else if (b.len)
		stage(&p->filt, &p->nfilt, "rec-sql", "-w", b.data, (char *)NULL);
	stage(&p->filt, &p->nfilt, "rec-rank", "-F", "rrf", (char *)NULL);
	/* the creators the request names come first: a person who asks
	 * for Rihanna wants Rihanna, not the songs whose titles share
	 * words with the rest of the message */
	if (in->liked_creators.n && kb->has_bm25 &&
	    p->nsrc > in->liked_creators.n) {
		arg(&p->filt[p->nfilt - 1], "-W");
		arg(&p->filt[p->nfilt - 1], "creator=2");
	}
	if (near) {
		arg(&p->filt[p->nfilt - 1], "-W");
		arg(&p->filt[p->nfilt - 1], "near=0.3");
	}
	/* the song asked for leads */
	if (titled && p->nsrc > (size_t)titled) {
		arg(&p->filt[p->nfilt - 1], "-W");
		arg(&p->filt[p->nfilt - 1], "title=2");
	}
	if (liked_streams && p->nsrc > liked_streams) {
		arg(&p->filt[p->nfilt - 1], "-W");
		arg(&p->filt[p->nfilt - 1], "liked=0.5");
	}
	rec_buf_reset(&b);
	for (i = 0; i < in->disliked_items.n; i++)
		rec_buf_printf(&b, "%s%s", b.len ? "," : "",
		    in->disliked_items.v[i]);
	for (i = 0; i < in->shown.n; i++)
		rec_buf_printf(&b, "%s%s", b.len ? "," : "", in->shown.v[i]);
	for (i = 0; i < in->liked_items.n; i++)
		if (!titled || !rec_strs_has(&in->wanted, in->liked_items.v[i], 0))
			rec_buf_printf(&b, "%s%s", b.len ? "," : "",
			    in->liked_items.v[i]);
	if (b.len) {
		arg(&p->filt[p->nfilt - 1], "-n");
		arg(&p->filt[p->nfilt - 1], b.data);
	}
	if (in->popular < 0 && kb->c_pop) {
		arg(&p->filt[p->nfilt - 1], "-N");
		arg(&p->filt[p->nfilt - 1], "0.5");
	} else if (in->popular > 0 && kb->c_pop) {
		rec_buf_reset(&b);
		rec_buf_printf(&b, ".score * (1 + (.item.%s // 0) / 50)",
		    kb->c_pop);
		arg(&p->filt[p->nfilt - 1], "-b");
		arg(&p->filt[p->nfilt - 1], b.data);
	}
	if (in->boost.n) {
		rec_buf_reset(&b);
		for (i = 0; i < in->boost.n && i < 20; i++)
			rec_buf_printf(&b, "%s%s", i ? "," : "", in->boost.v[i]);
		arg(&p->filt[p->nfilt - 1], "-l");
		arg(&p->filt[p->nfilt - 1], b.data);
		arg(&p->filt[p->nfilt - 1], "-L");
		arg(&p->filt[p->nfilt - 1], "0.2");
	}
	if (in->user) {
		arg(&p->filt[p->nfilt - 1], "-x");
		arg(&p->filt[p->nfilt - 1], in->user);
	}
	/* one record per song: the same song on two releases is one
	 * choice for the person, not two */
	if (kb->c_title && kb->c_creator) {
		arg(&p->filt[p->nfilt - 1], "-U");
		arg(&p->filt[p->nfilt - 1], "title,creator");
	}
	/* a request of words only is spread over creators; one that names
	 * creators, or follows creators liked before, wants more of theirs
	 * (capping them at two cost CPCD Hit@10 0.027) */
	if (kb->c_creator && !in->liked_creators.n && !liked_streams) {
		arg(&p->filt[p->nfilt - 1], "-D");
		arg(&p->filt[p->nfilt - 1], kb->c_creator);
		arg(&p->filt[p->nfilt - 1], "-p");
		arg(&p->filt[p->nfilt - 1], "2");
	}
	snprintf(num, sizeof num, "%d", in->k);
	arg(&p->filt[p->nfilt - 1], "-k");
	arg(&p->filt[p->nfilt - 1], num);
	rec_buf_free(&b);
	rec_buf_free(&w);
}

void
rec_plan_free(struct rec_plan *p)
{
	size_t i;
	int j;

	for (i = 0; i < p->nsrc; i++) {
		for (j = 0; j < p->src[i].argc; j++)
			free(p->src[i].argv[j]);
		free(p->src[i].argv);
	}
	for (i = 0; i < p->nfilt; i++) {
		for (j = 0; j < p->filt[i].argc; j++)
			free(p->filt[i].argv[j]);
		free(p->filt[i].argv);
	}
	free(p->src);
	free(p->filt);
	free(p->ask);
	memset(p, 0, sizeof *p);
}

void
rec_shell_quote(struct rec_buf *b, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-_.,/:=@%+") == strlen(s)) {
		rec_buf_adds(b, s);
		return;
	}
	rec_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			rec_buf_adds(b, "'\\''");
		else
			rec_buf_addc(b, *s);
	}
	rec_buf_addc(b, '\'');
}

static void
shell_stage(struct rec_buf *b, const struct rec_stage *s)
{
	int j;

	for (j = 0; j < s->argc; j++) {
		if (j)
			rec_buf_addc(b, ' ');
		rec_shell_quote(b, s->argv[j]);
	}
}

void
rec_plan_shell(struct rec_buf *b, const struct rec_plan *p)
{
	size_t i;

	if (p->ask)
		return;
	if (p->nsrc > 1)
		rec_buf_adds(b, "{ ");
	for (i = 0; i < p->nsrc; i++) {
		shell_stage(b, &p->src[i]);
		if (p->nsrc > 1)
			rec_buf_adds(b, " < /dev/null; ");
		else
			rec_buf_adds(b, " < /dev/null");
	}
	if (p->nsrc > 1)
		rec_buf_adds(b, "}");
	for (i = 0; i < p->nfilt; i++) {
		rec_buf_adds(b, " | ");
		shell_stage(b, &p->filt[i]);
	}
}

static void
json_stages(struct rec_buf *b, const struct rec_stage *s, size_t n)
{
	size_t i;
	int j;

	rec_buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		rec_buf_adds(b, i ? ",[" : "[");
		for (j = 0; j < s[i].argc; j++) {
			if (j)
				rec_buf_addc(b, ',');
			rec_json_string(b, s[i].argv[j], strlen(s[i].argv[j]));
		}
		rec_buf_addc(b, ']');
	}
	rec_buf_addc(b, ']');
}

void
rec_plan_json(struct rec_buf *b, const struct rec_plan *p)
{
	rec_buf_adds(b, "{\"sources\":");
	json_stages(b, p->src, p->nsrc);
	rec_buf_adds(b, ",\"filters\":");
	json_stages(b, p->filt, p->nfilt);
	rec_buf_adds(b, ",\"ask\":");
	if (p->ask)
		rec_json_string(b, p->ask, strlen(p->ask));
	else
		rec_buf_adds(b, "null");
	rec_buf_addc(b, '}');
}

static void
strs_from(struct rec_strs *s, const msgpack_object *o)
{
	uint32_t i;
	char *v;

	if (!o || o->type != MSGPACK_OBJECT_ARRAY)
		return;
	for (i = 0; i < o->via.array.size; i++)
		if (o->via.array.ptr[i].type == MSGPACK_OBJECT_STR) {
			v = xstrndup(o->via.array.ptr[i].via.str.ptr,
			    o->via.array.ptr[i].via.str.size);
			rec_strs_add(s, v);
			free(v);
		}
}

static double
num_of(const msgpack_object *o)
{
	if (!o)
		return 0;
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
		return (double)o->via.u64;
	if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		return (double)o->via.i64;
	if (o->type == MSGPACK_OBJECT_FLOAT64 || o->type ==
	    MSGPACK_OBJECT_FLOAT32)
		return o->via.f64;
	return 0;
}

static void
str_into(char *dst, size_t n, const msgpack_object *o)
{
	if (o && o->type == MSGPACK_OBJECT_STR)
		snprintf(dst, n, "%.*s", (int)o->via.str.size, o->via.str.ptr);
	else
		dst[0] = 0;
}

void
rec_intent_from(struct rec_intent *in, const msgpack_object *o)
{
	const msgpack_object *c, *u;
	uint32_t i;

	memset(in, 0, sizeof *in);
	in->k = 10;
	if (!o || o->type != MSGPACK_OBJECT_MAP)
		return;
	strs_from(&in->liked_items, rec_map_get(o, "liked_items"));
	strs_from(&in->wanted, rec_map_get(o, "wanted"));
	strs_from(&in->earlier_creators, rec_map_get(o, "earlier_creators"));
	strs_from(&in->liked_creators, rec_map_get(o, "liked_creators"));
	strs_from(&in->disliked_items, rec_map_get(o, "disliked_items"));
	strs_from(&in->disliked_creators, rec_map_get(o,
	    "disliked_creators"));
	strs_from(&in->tags, rec_map_get(o, "tags"));
	strs_from(&in->disliked_tags, rec_map_get(o, "disliked_tags"));
	strs_from(&in->words, rec_map_get(o, "words"));
	strs_from(&in->shown, rec_map_get(o, "shown"));
	c = rec_map_get(o, "constraints");
	for (i = 0; c && c->type == MSGPACK_OBJECT_ARRAY && i <
	    c->via.array.size && in->ncons < REC_MAXC; i++) {
		struct rec_cons *k = &in->cons[in->ncons];
		const msgpack_object *e = &c->via.array.ptr[i];
		str_into(k->col, sizeof k->col, rec_map_get(e, "column"));
		str_into(k->op, sizeof k->op, rec_map_get(e, "op"));
		str_into(k->say, sizeof k->say, rec_map_get(e, "say"));
		k->v = num_of(rec_map_get(e, "value"));
		if (k->col[0] && k->op[0])
			in->ncons++;
	}
	in->popular = (int)num_of(rec_map_get(o, "popularity"));
	if (num_of(rec_map_get(o, "k")) >= 1)
		in->k = (int)num_of(rec_map_get(o, "k"));
	u = rec_map_get(o, "user");
	if (u && u->type == MSGPACK_OBJECT_STR)
		in->user = xstrndup(u->via.str.ptr, u->via.str.size);
}

void
rec_intent_add_shown(struct rec_intent *in, const char *id)
{
	rec_strs_add(&in->shown, id);
}

int
rec_session_last(const char *path, struct rec_intent *prev, int *turns)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	struct rec_buf pack = {0}, err = {0};
	msgpack_zone z;
	msgpack_object o;
	unsigned long ln = 0;
	int have = 0;

	*turns = 0;
	memset(prev, 0, sizeof *prev);
	if (!fp)
		return 0;
	msgpack_zone_init(&z, 4096);
	while ((n = getline(&line, &cap, fp)) > 0) {
		size_t off = 0;
		const msgpack_object *sh;
		uint32_t i;
		ln++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		if (!n)
			continue;
		rec_buf_reset(&pack);
		if (rec_json_to_msgpack(line, (size_t)n, &pack, NULL, &err))
			rec_die("%s:%lu: %s", path, ln, err.data);
		msgpack_zone_clear(&z);
		msgpack_unpack(pack.data, pack.len, &off, &z, &o);
		if (have) {
			/* keep what every turn showed */
			struct rec_intent keep = *prev;
			rec_intent_from(prev, rec_map_get(&o, "intent"));
			copy_strs(&prev->shown, &keep.shown);
			rec_intent_free(&keep);
		} else
			rec_intent_from(prev, rec_map_get(&o, "intent"));
		sh = rec_map_get(&o, "shown");
		for (i = 0; sh && sh->type == MSGPACK_OBJECT_ARRAY &&
		    i < sh->via.array.size; i++)
			if (sh->via.array.ptr[i].type == MSGPACK_OBJECT_STR) {
				char *v = xstrndup(sh->via.array.ptr[i].via.str.ptr,
				    sh->via.array.ptr[i].via.str.size);
				rec_strs_add(&prev->shown, v);
				free(v);
			}
		have = 1;
		(*turns)++;
	}
	free(line);
	fclose(fp);
	msgpack_zone_destroy(&z);
	rec_buf_free(&pack);
	rec_buf_free(&err);
	return have;
}

/* --- the long-term profile --- */

void
rec_profile_load(struct rec_profile *pf, const char *path)
{
	FILE *fp = fopen(path, "r");
	struct rec_buf txt = {0}, pack = {0}, err = {0};
	char buf[4096];
	size_t n, off = 0;
	msgpack_zone z;
	msgpack_object o;
	const msgpack_object *l, *d;

	memset(pf, 0, sizeof *pf);
	if (!fp)
		return;		/* a new profile */
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		rec_buf_add(&txt, buf, n);
	fclose(fp);
	while (txt.len && (txt.data[txt.len - 1] == '\n' ||
	    txt.data[txt.len - 1] == ' '))
		txt.len--;
	if (!txt.len)
		goto out;
	if (rec_json_to_msgpack(txt.data, txt.len, &pack, NULL, &err))
		rec_die("profile '%s': %s", path, err.data);
	msgpack_zone_init(&z, 4096);
	msgpack_unpack(pack.data, pack.len, &off, &z, &o);
	if (o.type != MSGPACK_OBJECT_MAP)
		rec_die("profile '%s': not a JSON object", path);
	if ((l = rec_map_get(&o, "like"))) {
		strs_from(&pf->like_items, rec_map_get(l, "items"));
		strs_from(&pf->like_creators, rec_map_get(l, "creators"));
		strs_from(&pf->like_tags, rec_map_get(l, "tags"));
	}
	if ((d = rec_map_get(&o, "dislike"))) {
		strs_from(&pf->dislike_items, rec_map_get(d, "items"));
		strs_from(&pf->dislike_creators, rec_map_get(d, "creators"));
		strs_from(&pf->dislike_tags, rec_map_get(d, "tags"));
	}
	if ((d = rec_map_get(&o, "expect"))) {
		strs_from(&pf->expect_creators, rec_map_get(d, "creators"));
		strs_from(&pf->expect_tags, rec_map_get(d, "tags"));
	}
	msgpack_zone_destroy(&z);
out:
	rec_buf_free(&txt);
	rec_buf_free(&pack);
	rec_buf_free(&err);
}

void
rec_profile_save(const struct rec_profile *pf, const char *path)
{
	struct rec_buf b = {0};

	rec_buf_adds(&b, "{\"like\":{");
	json_strs(&b, "items", &pf->like_items);
	rec_buf_addc(&b, ',');
	json_strs(&b, "creators", &pf->like_creators);
	rec_buf_addc(&b, ',');
	json_strs(&b, "tags", &pf->like_tags);
	rec_buf_adds(&b, "},\"dislike\":{");
	json_strs(&b, "items", &pf->dislike_items);
	rec_buf_addc(&b, ',');
	json_strs(&b, "creators", &pf->dislike_creators);
	rec_buf_addc(&b, ',');
	json_strs(&b, "tags", &pf->dislike_tags);
	rec_buf_adds(&b, "},\"expect\":{");
	json_strs(&b, "creators", &pf->expect_creators);
	rec_buf_addc(&b, ',');
	json_strs(&b, "tags", &pf->expect_tags);
	rec_buf_adds(&b, "}}\n");
	if (rec_atomic_file(path, b.data, b.len, 0666) < 0)
		rec_die("cannot write profile '%s': %m", path);
	rec_buf_free(&b);
}

void
rec_profile_free(struct rec_profile *pf)
{
	rec_strs_free(&pf->like_items);
	rec_strs_free(&pf->like_creators);
	rec_strs_free(&pf->like_tags);
	rec_strs_free(&pf->dislike_items);
	rec_strs_free(&pf->dislike_creators);
	rec_strs_free(&pf->dislike_tags);
	rec_strs_free(&pf->expect_creators);
	rec_strs_free(&pf->expect_tags);
}

/* puts v first in s (moving it if there), keeping at most 20 */
static int
strs_front(struct rec_strs *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->n && strcmp(s->v[i], v); i++)
		;
	if (i == 0 && s->n)
		return 0;	/* already the newest */
	if (i == s->n) {
		if (s->n == 20)
			free(s->v[--s->n]);
		s->v = xrealloc(s->v, (s->n + 1) * sizeof *s->v);
		memmove(s->v + 1, s->v, s->n * sizeof *s->v);
		s->v[0] = xstrdup(v);
		s->n++;
	} else {
		char *t = s->v[i];
		memmove(s->v + 1, s->v, i * sizeof *s->v);
		s->v[0] = t;
	}
	return 1;
}

static int
strs_merge(struct rec_strs *to, const struct rec_strs *from,
    struct rec_strs *unless)
{
	size_t i, j, n = to->n;

	for (i = 0; i < from->n; i++) {
		rec_strs_add(to, from->v[i]);
		/* a new taste overrides the opposite one */
		for (j = 0; j < unless->n; j++)
			if (!strcmp(unless->v[j], from->v[i])) {
				free(unless->v[j]);
				unless->v[j] = unless->v[--unless->n];
				break;
			}
	}
	return to->n != n;
}

int
rec_profile_learn(struct rec_profile *pf, const struct rec_intent *in)
{
	int changed = 0;

	if (in->taste > 0) {
		changed |= strs_merge(&pf->like_items, &in->liked_items,
		    &pf->dislike_items);
		changed |= strs_merge(&pf->like_creators, &in->liked_creators,
		    &pf->dislike_creators);
		changed |= strs_merge(&pf->like_tags, &in->tags,
		    &pf->dislike_tags);
	}
	if (!in->taste) {
		/* a request: what the person asks for, newest first */
		size_t i;
		for (i = 0; i < in->liked_creators.n; i++)
			changed |= strs_front(&pf->expect_creators,
			    in->liked_creators.v[i]);
		for (i = 0; i < in->tags.n; i++)
			changed |= strs_front(&pf->expect_tags, in->tags.v[i]);
	}
	if (in->taste) {
		/* "not a fan of rap": the negation scope holds the taste */
		changed |= strs_merge(&pf->dislike_items, &in->disliked_items,
		    &pf->like_items);
		changed |= strs_merge(&pf->dislike_creators,
		    &in->disliked_creators, &pf->like_creators);
		changed |= strs_merge(&pf->dislike_tags, &in->disliked_tags,
		    &pf->like_tags);
	}
	return changed;
}

void
rec_profile_apply(const struct rec_profile *pf, struct rec_intent *in)
{
	copy_strs(&in->disliked_items, &pf->dislike_items);
	copy_strs(&in->disliked_creators, &pf->dislike_creators);
	copy_strs(&in->disliked_tags, &pf->dislike_tags);
	copy_strs(&in->boost, &pf->like_items);
	/* nothing to go on: what the person usually asks for */
	if (!in->liked_items.n && !in->liked_creators.n && !in->tags.n &&
	    !in->words.n && !in->user && !in->ncons && !in->popular &&
	    !in->taste && (pf->expect_creators.n || pf->expect_tags.n)) {
		size_t i;
		for (i = 0; i < pf->expect_creators.n && i < 2; i++)
			rec_strs_add(&in->liked_creators, pf->expect_creators.v[i]);
		for (i = 0; i < pf->expect_tags.n && i < 3; i++)
			rec_strs_add(&in->tags, pf->expect_tags.v[i]);
		said(in, "%s", "going by what you usually ask for");
	}
}

/* --- the model's intent --- */

/* the closest key of h to s (folded) within max edits, or (size_t)-1 */
static size_t
closest_key(const struct rec_hash *h, const char *s, int max)
{
	size_t i, best = (size_t)-1, n = strlen(s);
	int bd = max + 1, d;

	for (i = 0; i < h->n; i++) {
		if (h->keylen[i] + (size_t)max < n || h->keylen[i] > n +
		    (size_t)max)
			continue;
		d = rec_edit_distance(s, n, h->key[i], h->keylen[i], max);
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

static void
problem(struct rec_buf *p, const char *fmt, const char *a)
{
	if (p->len)
		rec_buf_adds(p, "; ");
	rec_buf_printf(p, fmt, a);
}

/* checks and repairs in against the catalog; problems left in prob */
static void
validate(struct rec_kb *kb, struct rec_intent *in, struct rec_buf *prob,
    struct rec_buf *log)
{
	struct rec_buf f = {0}, sql = {0};
	struct rec_strs *cs[2] = { &in->liked_creators, &in->disliked_creators };
	struct rec_strs *ts[2] = { &in->tags, &in->disliked_tags };
	struct rec_strs *is[2] = { &in->liked_items, &in->disliked_items };
	sqlite3 *db = rec_catalog_open(kb->catalog);
	sqlite3_stmt *st = NULL;
	size_t i, k, w;
	int c, j;

	rec_sql_functions(db);
	for (w = 0; w < 2; w++)
		for (i = 0; i < cs[w]->n; i++) {
			rec_buf_reset(&f);
			rec_norm(&f, cs[w]->v[i], strlen(cs[w]->v[i]));
			k = rec_hash_get(&kb->creator, f.data ? f.data : "", f.len);
			if (k == (size_t)-1 && f.len > 3)
				k = closest_key(&kb->creator, f.data, 2);
			if (k == (size_t)-1) {
				problem(prob, "no creator '%s' in the catalog",
				    cs[w]->v[i]);
				continue;
			}
			if (strcmp(cs[w]->v[i], kb->cname[k])) {
				rec_buf_printf(log, "creator '%s' read as '%s'; ",
				    cs[w]->v[i], kb->cname[k]);
				free(cs[w]->v[i]);
				cs[w]->v[i] = xstrdup(kb->cname[k]);
			}
		}
	for (w = 0; w < 2; w++)
		for (i = 0; i < ts[w]->n; i++) {
			rec_buf_reset(&f);
			rec_norm(&f, ts[w]->v[i], strlen(ts[w]->v[i]));
			k = rec_hash_get(&kb->tag, f.data ? f.data : "", f.len);
			if (k == (size_t)-1 && f.len > 3)
				k = closest_key(&kb->tag, f.data, 1);
			free(ts[w]->v[i]);
			/* an unknown tag is still a word rec-bm25 can use */
			ts[w]->v[i] = xstrdup(k == (size_t)-1 ? (f.data ? f.data :
			    "") : kb->tag.key[k]);
		}
	if (kb->c_title) {
		rec_buf_printf(&sql, "SELECT id FROM items WHERE id = ?1 OR "
		    "norm(\"%s\") = norm(?1) ORDER BY id = ?1 DESC%s%s%s LIMIT 1",
		    kb->c_title, kb->c_pop ? ", \"" : "", kb->c_pop ?
		    kb->c_pop : "", kb->c_pop ? "\" DESC" : "");
		sqlite3_prepare_v2(db, sql.data, -1, &st, NULL);
	}
	for (w = 0; w < 2; w++)
		for (i = 0; st && i < is[w]->n; i++) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, is[w]->v[i], -1, SQLITE_STATIC);
			if (sqlite3_step(st) != SQLITE_ROW) {
				problem(prob, "no item titled '%s' in the catalog",
				    is[w]->v[i]);
				continue;
			}
			free(is[w]->v[i]);
			is[w]->v[i] = xstrdup((const char *)
			    sqlite3_column_text(st, 0));
		}
	if (st)
		sqlite3_finalize(st);
	for (c = j = 0; c < in->ncons; c++) {
		struct rec_cons *x = &in->cons[c];
		char type[16];
		if (!strcmp(x->col, "bpm") && kb->has_tempo)
			snprintf(x->col, sizeof x->col, "tempo");
		if ((!strcmp(x->col, "year") || !strcmp(x->col, "date")) &&
		    kb->c_year)
			snprintf(x->col, sizeof x->col, "%s", kb->c_year);
		if (!rec_catalog_column(db, x->col, NULL, type, sizeof type) ||
		    !strcmp(type, "text")) {
			problem(prob, "no numeric column '%s' (use the columns "
			    "listed)", x->col);
			continue;
		}
		if (strcmp(x->op, ">") && strcmp(x->op, ">=") &&
		    strcmp(x->op, "<") && strcmp(x->op, "<=") &&
		    strcmp(x->op, "=")) {
			problem(prob, "operator '%s' is not one of > >= < <= =",
			    x->op);
			continue;
		}
		if (!x->say[0])
			snprintf(x->say, sizeof x->say, "%s %s %g", x->col, x->op,
			    x->v);
		in->cons[j++] = *x;
	}
	in->ncons = j;
	if (in->k < 1 || in->k > 50)
		in->k = 10;
	if (in->popular < -1 || in->popular > 1)
		in->popular = 0;
	sqlite3_close(db);
	rec_buf_free(&f);
	rec_buf_free(&sql);
}

static double
overlap(const char *a, const char *b)
{
	struct rec_buf x = {0}, y = {0};
	struct rec_hash h = {0};
	char *tok, *save = NULL;
	size_t both = 0, n = 0;

	rec_norm(&x, a, strlen(a));
	rec_norm(&y, b, strlen(b));
	for (tok = x.data ? strtok_r(x.data, " ", &save) : NULL; tok;
	    tok = strtok_r(NULL, " ", &save))
		rec_hash_put(&h, tok, strlen(tok), NULL);
	n = h.n;
	for (tok = y.data ? strtok_r(y.data, " ", &save) : NULL; tok;
	    tok = strtok_r(NULL, " ", &save)) {
		int added;
		if (rec_hash_get(&h, tok, strlen(tok)) != (size_t)-1)
			both++;
		else
			rec_hash_put(&h, tok, strlen(tok), &added);
	}
	rec_buf_free(&x);
	rec_buf_free(&y);
	rec_hash_free(&h);
	return n ? (double)both / (double)(n + 1) : 0;
}

/* the three demonstrations most like the message, as chat turns */
static void
add_demos(struct rec_buf *m, const char *demos, const char *message)
{
	FILE *fp = fopen(demos, "r");
	char *line = NULL, *best[3] = { NULL, NULL, NULL };
	double bs[3] = { -1, -1, -1 };
	size_t cap = 0;
	ssize_t n;
	int i;

	if (!fp)
		rec_die("cannot open demonstrations '%s': %m", demos);
	while ((n = getline(&line, &cap, fp)) > 0) {
		struct rec_buf pk = {0}, err = {0};
		msgpack_zone z;
		msgpack_object o;
		const msgpack_object *r;
		size_t off = 0;
		double s;
		if (rec_json_to_msgpack(line, (size_t)n, &pk, NULL, &err))
			rec_die("%s: bad line: %s", demos, err.data);
		msgpack_zone_init(&z, 1024);
		msgpack_unpack(pk.data, pk.len, &off, &z, &o);
		r = rec_map_get(&o, "request");
		if (r && r->type == MSGPACK_OBJECT_STR) {
			char *req = xstrndup(r->via.str.ptr, r->via.str.size);
			s = overlap(message, req);
			free(req);
			for (i = 0; i < 3; i++)
				if (s > bs[i]) {
					free(best[2]);
					memmove(best + i + 1, best + i,
					    (size_t)(2 - i) * sizeof *best);
					memmove(bs + i + 1, bs + i,
					    (size_t)(2 - i) * sizeof *bs);
					best[i] = xstrdup(line);
					bs[i] = s;
					break;
				}
		}
		msgpack_zone_destroy(&z);
		rec_buf_free(&pk);
		rec_buf_free(&err);
	}
	fclose(fp);
	free(line);
	for (i = 2; i >= 0; i--) {
		struct rec_buf pk = {0}, err = {0}, js = {0};
		msgpack_zone z;
		msgpack_object o;
		const msgpack_object *r, *it;
		size_t off = 0;
		if (!best[i])
			continue;
		rec_json_to_msgpack(best[i], strlen(best[i]), &pk, NULL, &err);
		msgpack_zone_init(&z, 1024);
		msgpack_unpack(pk.data, pk.len, &off, &z, &o);
		r = rec_map_get(&o, "request");
		it = rec_map_get(&o, "intent");
		if (it && rec_json_write(&js, it, &err) == 0) {
			rec_buf_adds(m, ",{\"role\":\"user\",\"content\":");
			rec_json_write(m, r, &err);
			rec_buf_adds(m, "},{\"role\":\"assistant\",\"content\":");
			rec_json_string(m, js.data, js.len);
			rec_buf_addc(m, '}');
		}
		msgpack_zone_destroy(&z);
		rec_buf_free(&pk);
		rec_buf_free(&err);
		rec_buf_free(&js);
		free(best[i]);
	}
}

static void
system_prompt(struct rec_kb *kb, struct rec_buf *s)
{
	sqlite3 *db = rec_catalog_open(kb->catalog);
	sqlite3_stmt *st;
	size_t i;

	rec_buf_adds(s, "You read a request for recommendations and answer "
	    "with one JSON object, nothing else, with these keys: liked_items "
	    "(titles the person likes or wants more like), liked_creators, "
	    "disliked_items, disliked_creators, tags (genres, moods, styles "
	    "wanted), disliked_tags, words (other words to search for), "
	    "constraints (a list of {\"column\", \"op\" one of > >= < <= =, "
	    "\"value\" a number} over the numeric columns), popularity (-1 "
	    "for little known, 1 for popular, else 0) and k (how many, "
	    "default 10). The catalog's columns (name, type, role):");
	if (sqlite3_prepare_v2(db, "SELECT name, type, role FROM columns "
	    "ORDER BY position", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW)
			rec_buf_printf(s, " %s (%s, %s);",
			    sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
			    sqlite3_column_text(st, 2));
		sqlite3_finalize(st);
	}
	rec_buf_adds(s, " Some tags:");
	for (i = 0; i < kb->tag.n && i < 40; i++)
		rec_buf_printf(s, " %s%s", kb->tag.key[i], i + 1 < 40 &&
		    i + 1 < kb->tag.n ? "," : ".");
	sqlite3_close(db);
}

int
rec_intent_model(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, const char *demos, struct rec_intent *in,
    struct rec_buf *log)
{
	struct rec_buf m = {0}, sys = {0}, content = {0}, err = {0},
	    pk = {0}, prob = {0};
	int attempt, ok = 0;

	system_prompt(kb, &sys);
	rec_buf_adds(&m, "[{\"role\":\"system\",\"content\":");
	rec_json_string(&m, sys.data, sys.len);
	rec_buf_addc(&m, '}');
	if (demos)
		add_demos(&m, demos, message);
	rec_buf_adds(&m, ",{\"role\":\"user\",\"content\":");
	rec_json_string(&m, message, strlen(message));
	rec_buf_addc(&m, '}');
	for (attempt = 0; attempt < 3 && !ok; attempt++) {
		msgpack_zone z;
		msgpack_object o;
		size_t off = 0;

		rec_buf_adds(&m, "]");
		if (rec_llm_chat(m.data, &content, &err) < 0) {
			rec_buf_printf(log, "model: %s; ", err.data);
			break;		/* the server, not the answer */
		}
		m.data[--m.len] = 0;	/* reopen the array */
		rec_buf_reset(&pk);
		rec_buf_reset(&prob);
		memset(in, 0, sizeof *in);
		if (rec_json_to_msgpack(content.data, content.len, &pk, NULL,
		    &err))
			problem(&prob, "the answer is not JSON (%s)", err.data);
		else {
			msgpack_zone_init(&z, 4096);
			msgpack_unpack(pk.data, pk.len, &off, &z, &o);
			if (o.type != MSGPACK_OBJECT_MAP)
				problem(&prob, "%s", "the answer is not a JSON "
				    "object");
			else {
				rec_intent_from(in, &o);
				validate(kb, in, &prob, log);
			}
			msgpack_zone_destroy(&z);
		}
		if (!prob.len) {
			ok = 1;
			break;
		}
		rec_buf_printf(log, "model answer %d: %s; ", attempt + 1,
		    prob.data);
		rec_intent_free(in);
		/* ask again, with what was wrong */
		rec_buf_adds(&m, ",{\"role\":\"assistant\",\"content\":");
		rec_json_string(&m, content.data, content.len);
		rec_buf_adds(&m, "},{\"role\":\"user\",\"content\":");
		rec_buf_reset(&err);
		rec_buf_printf(&err, "That answer has problems: %s. Answer again "
		    "with the corrected JSON object only.", prob.data);
		rec_json_string(&m, err.data, err.len);
		rec_buf_addc(&m, '}');
	}
	if (ok) {
		carry(in, prev);
		rec_buf_adds(&in->said, message);
		rec_buf_adds(log, "model: used");
	} else {
		rec_intent_parse(kb, message, prev, in);
		rec_buf_adds(log, "model: fell back to the rules");
	}
	rec_buf_free(&m);
	rec_buf_free(&sys);
	rec_buf_free(&content);
	rec_buf_free(&err);
	rec_buf_free(&pk);
	rec_buf_free(&prob);
	return ok ? 0 : -1;
}
