/*
 * kb.c: what the planner knows of a catalog, loaded once per process
 * through the catalog handle: its columns by role; the names a message
 * can link to (creators, titles in every form catalogs write them,
 * collections); the values of its tag-like columns, how common each is
 * and how complete each column is; and the lexicon's concepts grounded
 * in that vocabulary (lexicon.c).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "converse.h"
#include "retrieve.h"

#define LOADING "loading the catalog's vocabulary"

/* whether the catalog has table name (older catalogs lack some) */
static int
has_table(struct rec_catalog *c, const char *name)
{
	sqlite3_stmt *st = rec_catalog_prepare(c, "SELECT 1 FROM "
	    "sqlite_master WHERE type = 'table' AND name = ?", LOADING);
	int ok;

	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	ok = rec_catalog_step(c, st, LOADING);
	sqlite3_reset(st);
	return ok;
}

/* The first column of the first row of sql over table (NULL when the
 * catalog has no such table), copied; NULL when there is none. */
static char *
first_text(struct rec_catalog *c, const char *table, const char *sql)
{
	sqlite3_stmt *st;
	char *s = NULL;

	if (table && !has_table(c, table))
		return NULL;
	st = rec_catalog_prepare(c, sql, LOADING);
	if (rec_catalog_step(c, st, LOADING) && sqlite3_column_text(st, 0))
		s = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	return s;
}

/* adds a form of a title: the first (most popular) item keeps it */
static void
add_title(struct rec_kb *kb, const char *form, size_t n, const char *id)
{
	int added;
	size_t k;

	while (n && form[n - 1] == ' ')
		n--;
	if (n < 2)
		return;
	k = rec_hash_put(&kb->title, form, n, &added);
	if (!added)
		return;
	kb->tid = xrealloc(kb->tid, kb->title.cap * sizeof *kb->tid);
	kb->tid[k] = xstrdup(id);
}

/* "Matrix, The" -> "The Matrix" (and the title without its article):
 * the forms catalogs sort titles by */
static void
article_forms(struct rec_kb *kb, const char *s, size_t n, const char *id)
{
	static const char *const art[] = { "the", "a", "an", "les", "la",
	    "le", "l'", "il", "el", "los", "las", "das", "der", "die", "den",
	    "det", "lo", "gli", "i", "o", "os", "as", NULL };
	struct rec_buf b = {0}, f = {0};
	const char *comma;
	size_t i;

	while (n && (s[n - 1] == ' '))
		n--;
	comma = NULL;
	for (i = n; i > 0; i--)
		if (s[i - 1] == ',') {
			comma = s + i - 1;
			break;
		}
	if (comma) {
		const char *a = comma + 1;
		size_t an;
		while (*a == ' ')
			a++;
		an = (size_t)(s + n - a);
		for (i = 0; art[i]; i++)
			if (an == strlen(art[i]) && !strncasecmp(a, art[i], an))
				break;
		if (art[i]) {
			rec_buf_add(&b, a, an);
			if (a[an - 1] != '\'')
				rec_buf_addc(&b, ' ');
			rec_buf_add(&b, s, (size_t)(comma - s));
			rec_norm(&f, b.data, b.len);
			add_title(kb, f.data ? f.data : "", f.len, id);
			rec_buf_reset(&f);
			rec_norm(&f, s, (size_t)(comma - s));
			add_title(kb, f.data ? f.data : "", f.len, id);
			n = 0;
		}
	}
	if (n) {
		rec_norm(&f, s, n);
		add_title(kb, f.data ? f.data : "", f.len, id);
	}
	rec_buf_free(&b);
	rec_buf_free(&f);
}

/* each word of a title's key counted once for the title: a word many
 * titles use is everyday speech ("friends", "storm"), the catalog's
 * own word list */
static void
title_words(struct rec_kb *kb, const struct rec_buf *key)
{
	const char *p = key->data ? key->data : "", *q;

	for (; *p; p = *q ? q + 1 : q) {
		size_t len = strcspn(p, " "), k;
		q = p + len;
		/* once a title: not after the same word earlier in it */
		for (k = 0; k + len <= (size_t)(p - key->data); k++)
			if (!strncmp(key->data + k, p, len) && (k == 0 ||
			    key->data[k - 1] == ' ') && key->data[k + len] ==
			    ' ')
				break;
		if (!len || k + len <= (size_t)(p - key->data))
			continue;
		k = rec_hash_put(&kb->tword, p, len, NULL);
		((unsigned *)kb->tword.val)[k]++;
	}
}

/* Every form a title goes by: as written; without its bracketed parts
 * and " - Remastered" tail ("Toy Story (1995)" -> "toy story"); the
 * article moved back to the front ("Matrix, The (1999)" -> "the
 * matrix"); and the other titles in brackets ("(a.k.a. Seven)",
 * "Amelie (Fabuleux destin d'Amélie Poulain, Le) (2001)"). */
static void
title_forms(struct rec_kb *kb, const char *t, const char *id)
{
	struct rec_buf f = {0};
	const char *p, *open;
	size_t head;

	rec_norm(&f, t, strlen(t));
	add_title(kb, f.data ? f.data : "", f.len, id);
	rec_buf_reset(&f);
	rec_song_key(&f, t, 0);
	add_title(kb, f.data ? f.data : "", f.len, id);
	title_words(kb, &f);
	/* the part before the first bracket, and its article */
	head = strcspn(t, "([");
	p = strstr(t, " - ");
	if (p && (size_t)(p - t) < head)
		head = (size_t)(p - t);
	article_forms(kb, t, head, id);
	/* a series' name before the colon, of two words or more ("Star
	 * Wars: Episode IV - A New Hope"): the series' best known goes by
	 * it */
	p = memchr(t, ':', head);
	if (p && p > t && memchr(t, ' ', (size_t)(p - t)))
		article_forms(kb, t, (size_t)(p - t), id);
	/* bracketed alternative titles, not years */
	for (p = t; (open = strchr(p, '(')); p = open + 1) {
		const char *close = strchr(open, ')');
		const char *a = open + 1;
		size_t n;
		if (!close)
			break;
		n = (size_t)(close - a);
		if (n >= 7 && !strncasecmp(a, "a.k.a. ", 7)) {
			a += 7;
			n -= 7;
		}
		if (n >= 3 && !(n == 4 && isdigit((unsigned char)a[0])) &&
		    strncasecmp(a, "feat", 4) && strncasecmp(a, "with ", 5) &&
		    strncasecmp(a, "from ", 5) && strncasecmp(a, "live", 4) &&
		    strncasecmp(a, "remaster", 8))
			article_forms(kb, a, n, id);
	}
	rec_buf_free(&f);
}

/* the values of one tag-like column, how many items have each, and how
 * complete the column is */
static void
load_tagcol(struct rec_kb *kb, const char *col, int list)
{
	struct rec_tagcol *tc;
	struct rec_buf sql = {0}, n = {0};
	sqlite3_stmt *st;
	unsigned long have = 0;
	int added;

	kb->tc = xrealloc(kb->tc, (kb->ntc + 1) * sizeof *kb->tc);
	tc = &kb->tc[kb->ntc++];
	memset(tc, 0, sizeof *tc);
	tc->name = xstrdup(col);
	tc->list = list;
	if (list)
		rec_buf_printf(&sql, "SELECT j.value, count(*) FROM items, "
		    "json_each(items.\"%s\") j GROUP BY 1", col);
	else
		rec_buf_printf(&sql, "SELECT \"%s\", count(*) FROM items "
		    "WHERE \"%s\" IS NOT NULL GROUP BY 1", col, col);
	st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
	while (rec_catalog_step(kb->cat, st, LOADING)) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		unsigned c = (unsigned)sqlite3_column_int(st, 1);
		size_t k;
		if (!t)
			continue;
		rec_buf_reset(&n);
		rec_norm(&n, t, strlen(t));
		if (n.len < 2)
			continue;
		k = rec_hash_put(&tc->val, n.data, n.len, &added);
		if (added) {
			tc->count = xrealloc(tc->count, tc->val.cap *
			    sizeof *tc->count);
			tc->count[k] = 0;
		}
		tc->count[k] += c;
		k = rec_hash_put(&kb->tag, n.data, n.len, &added);
		if (added) {
			kb->tagcount = xrealloc(kb->tagcount, kb->tag.cap *
			    sizeof *kb->tagcount);
			kb->tagcount[k] = 0;
		}
		kb->tagcount[k] += c;
		/* the words of a value, for tag words of two or more */
		rec_kb_tag_words(kb, n.data, c);
	}
	sqlite3_reset(st);
	/* how many items have a value; of a list column, also how many
	 * lists have two or more and how many of those start out of
	 * alphabetical order: a tenth or more, and the lists are in order
	 * of weight (Last.fm's top tags), not sorted by name (MovieLens'
	 * genres).  One scan. */
	rec_buf_reset(&sql);
	if (list)
		rec_buf_printf(&sql, "SELECT count(*), coalesce(sum("
		    "json_array_length(\"%s\") >= 2), 0), coalesce(sum("
		    "json_array_length(\"%s\") >= 2 AND lower(json_extract("
		    "\"%s\", '$[0]')) > lower(json_extract(\"%s\", '$[1]'))), "
		    "0) FROM items WHERE \"%s\" IS NOT NULL AND \"%s\" <> '[]'",
		    col, col, col, col, col, col);
	else
		rec_buf_printf(&sql, "SELECT count(*), 0, 0 FROM items WHERE "
		    "\"%s\" IS NOT NULL", col);
	st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
	if (rec_catalog_step(kb->cat, st, LOADING)) {
		unsigned long two = (unsigned long)sqlite3_column_int64(st, 1),
		    unsorted = (unsigned long)sqlite3_column_int64(st, 2);
		have = (unsigned long)sqlite3_column_int64(st, 0);
		tc->ranked = two && unsorted * 10 >= two;
	}
	sqlite3_reset(st);
	tc->cover = kb->nitems ? (double)have / (double)kb->nitems : 0;
	rec_buf_free(&sql);
	rec_buf_free(&n);
}

/* the values of group ("a|b") column tc holds, folded, into out (with
 * common, only those on 0.5% of the items or more); how many */
static size_t
cat_values(const struct rec_kb *kb, const struct rec_tagcol *tc,
    const char *group, int common, struct rec_strs *out)
{
	struct rec_buf f = {0};
	char *copy = xstrdup(group), *tok, *save = NULL;
	size_t k;

	rec_strs_free(out);
	for (tok = strtok_r(copy, "|", &save); tok;
	    tok = strtok_r(NULL, "|", &save)) {
		rec_buf_reset(&f);
		rec_norm(&f, tok, strlen(tok));
		k = f.len ? rec_hash_get(&tc->val, f.data, f.len) : (size_t)-1;
		if (k != (size_t)-1 && (!common || (double)tc->count[k] * 200 >=
		    (double)kb->nitems))
			rec_strs_add(out, f.data);
	}
	free(copy);
	rec_buf_free(&f);
	return out->n;
}

/* appends the position of the categories of group (a|b) in the ranked
 * list columns that hold them, the least of those (99 for none), or
 * nothing when no ranked column holds one */
void
rec_kb_cat_pos_sql(const struct rec_kb *kb, const char *group,
    struct rec_buf *b)
{
	struct rec_strs v = {0};
	size_t i, n = 0;

	for (i = 0; i < kb->ntc; i++)
		if (kb->tc[i].ranked && cat_values(kb, &kb->tc[i], group, 0,
		    &v)) {
			rec_buf_adds(b, n++ ? ", coalesce(nullif(" :
			    "min(99, coalesce(nullif(");
			rec_strs_sql_call(b, "has", kb->tc[i].name, &v);
			rec_buf_adds(b, ", 0), 99)");
		}
	if (n)
		rec_buf_addc(b, ')');
	rec_strs_free(&v);
}

int
rec_kb_has_column(const struct rec_kb *kb, const char *col)
{
	return rec_catalog_column(kb->cat->db, col, NULL, NULL, 0);
}

/* the lexicon's concepts in this catalog's words */
static void
ground(struct rec_kb *kb)
{
	size_t c, n;

	for (n = 0; rec_concepts[n].name; n++)
		;
	kb->ground = xcalloc(n ? n : 1, sizeof *kb->ground);
	for (c = 0; c < n; c++) {
		const struct rec_concept *x = &rec_concepts[c];
		struct rec_ground *g = &kb->ground[c];
		struct rec_buf need = {0}, pref = {0};
		char *copy, *tok, *save = NULL;
		int i, hard;

		if (x->tags) {
			copy = xstrdup(x->tags);
			for (tok = strtok_r(copy, "|", &save); tok;
			    tok = strtok_r(NULL, "|", &save))
				if (rec_kb_tag_known(kb, tok))
					rec_strs_add(&g->tags, tok);
			free(copy);
		}
		/* categories to keep to: hard where every one the catalog
		 * has is in a complete column; else they only guide */
		if (x->cats) {
			int all_hard = 1, any = 0;
			copy = xstrdup(x->cats);
			for (tok = strtok_r(copy, "|", &save); tok;
			    tok = strtok_r(NULL, "|", &save))
				if (rec_kb_category(kb, tok, &hard)) {
					rec_buf_printf(&need, "%s%s", need.len ?
					    "|" : "", tok);
					all_hard &= hard;
					any = 1;
				}
			free(copy);
			if (any && all_hard)
				g->need = xstrdup(need.data);
			else if (any)
				g->prefer = xstrdup(need.data);
		}
		if (x->prefer) {
			copy = xstrdup(x->prefer);
			for (tok = strtok_r(copy, "|", &save); tok;
			    tok = strtok_r(NULL, "|", &save))
				if (rec_kb_category(kb, tok, &hard))
					rec_buf_printf(&pref, "%s%s", pref.len ?
					    "|" : "", tok);
			free(copy);
			if (pref.len && !g->prefer)
				g->prefer = xstrdup(pref.data);
		}
		for (i = 0; i < 3; i++)
			g->num[i] = x->num[i].col && (!strcmp(x->num[i].col,
			    "year") ? kb->c_year != NULL :
			    rec_kb_has_column(kb, x->num[i].col));
		rec_buf_free(&need);
		rec_buf_free(&pref);
	}
	kb->nground = n;
}

struct rec_kb *
rec_kb_load(const char *catalog)
{
	struct rec_kb *kb = xcalloc(1, sizeof *kb);
	sqlite3 *db;
	struct rec_buf sql = {0}, n = {0};
	sqlite3_stmt *st;
	char type[16];

	kb->cat = rec_catalog_load(catalog);
	kb->catalog = kb->cat->path;
	kb->tword.vsize = sizeof(unsigned);	/* a count a word */
	kb->tagbi.vsize = sizeof(unsigned);
	db = kb->cat->db;
	rec_sql_functions(db);		/* norm() and has() for the planner */
	kb->c_title = rec_catalog_role(db, "title");
	kb->c_creator = rec_catalog_role(db, "creator");
	kb->c_coll = rec_catalog_role(db, "collection");
	kb->c_pop = rec_catalog_role(db, "popularity");
	kb->c_date = rec_catalog_role(db, "date");
	if (rec_catalog_column(db, "year", NULL, type, sizeof type) &&
	    !strcmp(type, "integer"))
		kb->c_year = xstrdup("year");
	kb->c_rating = first_text(kb->cat, NULL, "SELECT name FROM columns "
	    "WHERE name = 'mean_weight' AND source = '(interactions)'");
	kb->c_releases = first_text(kb->cat, NULL, "SELECT name FROM columns "
	    "WHERE source = '(releases)'");
	kb->has_tempo = rec_catalog_column(db, "tempo", NULL, NULL, 0);
	kb->has_duration = rec_catalog_column(db, "duration_ms", NULL, NULL, 0);
	kb->has_valence = rec_catalog_column(db, "valence", NULL, NULL, 0);
	kb->has_energy = rec_catalog_column(db, "energy", NULL, NULL, 0);
	kb->has_dance = rec_catalog_column(db, "danceability", NULL, NULL, 0);
	kb->has_acoustic = rec_catalog_column(db, "acousticness", NULL, NULL,
	    0);
	kb->has_instrumental = rec_catalog_column(db, "instrumentalness",
	    NULL, NULL, 0);
	/* EASE where trained: on MovieLens it ranks the films co-watched
	 * with the seeds, where ItemKNN's cosine ranks the most watched */
	kb->cf_model = first_text(kb->cat, "models", "SELECT name FROM models "
	    "WHERE kind IN ('ease', 'itemknn') AND name = kind ORDER BY "
	    "kind = 'ease' DESC LIMIT 1");
	kb->semid_space = first_text(kb->cat, "semid_spaces", "SELECT space "
	    "FROM semid_spaces ORDER BY space LIMIT 1");
	kb->dense_space = first_text(kb->cat, "spaces", "SELECT name FROM "
	    "spaces WHERE source <> 'rec-train text' ORDER BY name = 'audio' "
	    "DESC, name LIMIT 1");
	kb->text_space = first_text(kb->cat, "spaces", "SELECT name FROM "
	    "spaces WHERE source = 'embeddings' ORDER BY name LIMIT 1");
	kb->enc_space = first_text(kb->cat, "spaces", "SELECT name FROM "
	    "spaces WHERE source = 'rec-train text' ORDER BY name LIMIT 1");
	rec_buf_printf(&sql, "%s.bm25", kb->catalog);
	kb->has_bm25 = access(sql.data, R_OK) == 0;
	rec_buf_reset(&sql);
	st = rec_catalog_prepare(kb->cat, "SELECT count(*) FROM items",
	    LOADING);
	if (rec_catalog_step(kb->cat, st, LOADING))
		kb->nitems = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (kb->c_year) {
		st = rec_catalog_prepare(kb->cat, "SELECT max(year) FROM items",
		    LOADING);
		if (rec_catalog_step(kb->cat, st, LOADING))
			kb->maxyear = sqlite3_column_int(st, 0);
		sqlite3_reset(st);
	}
	/* the most popular item's popularity, for a prior in [0, 1] */
	if (kb->c_pop) {
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "SELECT max(\"%s\") FROM items", kb->c_pop);
		st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
		if (rec_catalog_step(kb->cat, st, LOADING))
			kb->popmax = sqlite3_column_double(st, 0);
		sqlite3_reset(st);
		rec_buf_reset(&sql);
	}
	/* a mean weight that never varies in a sample of 4000 (plays
	 * counted as 1: implicit feedback) is no rating: "the best"
	 * ranked by it put a creator's least played first */
	if (kb->c_rating) {
		rec_buf_printf(&sql, "SELECT min(r) < max(r) FROM (SELECT "
		    "\"%s\" r FROM items WHERE \"%s\" IS NOT NULL LIMIT 4000)",
		    kb->c_rating, kb->c_rating);
		st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
		if (!rec_catalog_step(kb->cat, st, LOADING) ||
		    !sqlite3_column_int(st, 0)) {
			free(kb->c_rating);
			kb->c_rating = NULL;
		}
		sqlite3_reset(st);
		rec_buf_reset(&sql);
	}
	/* whose popularity it is: the creator's when a creator's items,
	 * in a sample of the first 4000 with one, never differ in it */
	if (kb->c_pop && kb->c_creator) {
		rec_buf_printf(&sql, "SELECT count(*), coalesce(sum(n > 1), 0) "
		    "FROM (SELECT count(DISTINCT p) n FROM (SELECT \"%s\" c, "
		    "\"%s\" p FROM items WHERE \"%s\" IS NOT NULL AND \"%s\" "
		    "IS NOT NULL LIMIT 4000) GROUP BY c HAVING count(*) > 1)",
		    kb->c_creator, kb->c_pop, kb->c_creator, kb->c_pop);
		st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
		if (rec_catalog_step(kb->cat, st, LOADING))
			kb->pop_by_creator = sqlite3_column_int(st, 0) > 0 &&
			    sqlite3_column_int(st, 1) * 20 <=
			    sqlite3_column_int(st, 0);
		sqlite3_reset(st);
		rec_buf_reset(&sql);
	}
	/* the words of the language (one_word_names asks them) */
	rec_kb_load_english(kb);
	/* creators, by folded name */
	if (kb->c_creator) {
		rec_buf_printf(&sql, "SELECT \"%s\", count(*) FROM items WHERE "
		    "\"%s\" IS NOT NULL GROUP BY 1", kb->c_creator,
		    kb->c_creator);
		st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
		while (rec_catalog_step(kb->cat, st, LOADING)) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			unsigned c = (unsigned)sqlite3_column_int(st, 1);
			rec_kb_add_names(kb, v, c, &n);
		}
		sqlite3_reset(st);
		rec_kb_one_word_names(kb);
	}
	/* titles in all their forms, the most popular item first */
	if (kb->c_title) {
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "SELECT \"%s\", id FROM items WHERE \"%s\" "
		    "IS NOT NULL ORDER BY %s%s%s", kb->c_title, kb->c_title,
		    kb->c_pop ? "\"" : "", kb->c_pop ? kb->c_pop : "rowid",
		    kb->c_pop ? "\" DESC" : "");
		st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
		while (rec_catalog_step(kb->cat, st, LOADING))
			title_forms(kb, (const char *)sqlite3_column_text(st, 0),
			    (const char *)sqlite3_column_text(st, 1));
		sqlite3_reset(st);
	}
	/* collections (albums), by folded name */
	if (kb->c_coll) {
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "SELECT DISTINCT \"%s\" FROM items WHERE "
		    "\"%s\" IS NOT NULL", kb->c_coll, kb->c_coll);
		st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
		while (rec_catalog_step(kb->cat, st, LOADING)) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			rec_buf_reset(&n);
			rec_song_key(&n, v, 0);
			if (n.len)
				rec_hash_put(&kb->coll, n.data, n.len, NULL);
			/* "Fame Monster" for The Fame Monster */
			if (n.len > 8 && !strncmp(n.data, "the ", 4))
				rec_hash_put(&kb->coll, n.data + 4, n.len - 4,
				    NULL);
		}
		sqlite3_reset(st);
	}
	/* tag values of every tags and category column */
	st = rec_catalog_prepare(kb->cat, "SELECT name, list FROM columns "
	    "WHERE role IN ('tags', 'category') ORDER BY position", LOADING);
	while (rec_catalog_step(kb->cat, st, LOADING)) {
		const char *col = (const char *)sqlite3_column_text(st, 0);
		kb->c_tags = xrealloc(kb->c_tags, (kb->nc_tags + 1) *
		    sizeof *kb->c_tags);
		kb->c_tags_list = xrealloc(kb->c_tags_list, (kb->nc_tags + 1) *
		    sizeof *kb->c_tags_list);
		kb->c_tags[kb->nc_tags] = xstrdup(col);
		kb->c_tags_list[kb->nc_tags++] = sqlite3_column_int(st, 1);
	}
	sqlite3_reset(st);
	{
		size_t i;
		for (i = 0; i < kb->nc_tags; i++)
			load_tagcol(kb, kb->c_tags[i], kb->c_tags_list[i]);
	}
	ground(kb);
	if (kb->enc_space) {
		kb->enc = xcalloc(1, sizeof *kb->enc);
		if (!rec_textenc_db_open(kb->enc, db, kb->enc_space)) {
			free(kb->enc);
			kb->enc = NULL;
		}
	}
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
	free(kb->ccount);
	free(kb->tid);
	free(kb->cexact);
	rec_hash_free(&kb->creator);
	rec_hash_free(&kb->title);
	rec_hash_free(&kb->coll);
	rec_hash_free(&kb->tag);
	rec_hash_free(&kb->tagtok);
	rec_hash_free(&kb->tagbi);
	rec_hash_free(&kb->tword);
	rec_hash_free(&kb->english);
	rec_hash_free(&kb->spell);
	free(kb->tagcount);
	for (i = 0; i < kb->ntc; i++) {
		free(kb->tc[i].name);
		free(kb->tc[i].count);
		rec_hash_free(&kb->tc[i].val);
	}
	free(kb->tc);
	for (i = 0; i < kb->nground; i++) {
		rec_strs_free(&kb->ground[i].tags);
		free(kb->ground[i].need);
		free(kb->ground[i].prefer);
	}
	free(kb->ground);
	free(kb->c_title);
	free(kb->c_creator);
	free(kb->c_coll);
	free(kb->c_pop);
	free(kb->c_rating);
	free(kb->c_releases);
	free(kb->c_year);
	free(kb->c_date);
	free(kb->semid_space);
	free(kb->cf_model);
	free(kb->dense_space);
	free(kb->text_space);
	free(kb->enc_space);
	for (i = 0; i < kb->nc_tags; i++)
		free(kb->c_tags[i]);
	free(kb->c_tags);
	free(kb->c_tags_list);
	if (kb->enc) {
		rec_textenc_db_close(kb->enc);
		free(kb->enc);
	}
	rec_catalog_close(kb->cat);
	free(kb);
}

int
rec_kb_word_known(const struct rec_kb *kb, const char *w)
{
	float *vec, idf;
	int ok;

	if (!kb->enc)
		return 0;
	vec = xmalloc(kb->enc->e.dim * sizeof *vec);
	ok = rec_textenc_db_lookup(kb->enc, w, strlen(w), vec, &idf);
	free(vec);
	return ok;
}

/* the length of the word at w, up to end */
static size_t
word_len(const char *w, const char *end)
{
	const char *p = w;

	while (p < end && *p != ' ')
		p++;
	return (size_t)(p - w);
}

static size_t
count_words(const char *w, size_t n)
{
	size_t i, c = n > 0;

	for (i = 0; i < n; i++)
		c += w[i] == ' ';
	return c;
}

/* a numeral: digits, or a Roman one of a sequel ("ii", "xiv") */
static int
numeral(const char *w, size_t n)
{
	size_t i, digits = 0, roman = 0;

	for (i = 0; i < n; i++) {
		digits += w[i] >= '0' && w[i] <= '9';
		roman += w[i] == 'i' || w[i] == 'v' || w[i] == 'x';
	}
	return n && (digits == n || (n <= 4 && roman == n));
}

/* a misspelling of b that a reader would still know word by word: with
 * as many words, none of them written wholly otherwise ("world war ii"
 * is no "world war z") and no numeral changed ("toy story 2" is no
 * "toy story 3"); words run together or apart are left to the count */
int
rec_kb_misspelling(const char *a, size_t an, const char *b, size_t bn)
{
	const char *ae = a + an, *be = b + bn;

	if (count_words(a, an) != count_words(b, bn))
		return 1;
	while (a < ae && b < be) {
		size_t la = word_len(a, ae), lb = word_len(b, be);
		size_t most = la > lb ? la : lb;
		if ((la != lb || memcmp(a, b, la)) && (numeral(a, la) ||
		    numeral(b, lb) || rec_edit_distance(a, la, b, lb,
		    (int)most) >= (int)most))
			return 0;
		a += la + 1;
		b += lb + 1;
	}
	return 1;
}

/* the creators most of ids have (at most max), most first */
void
rec_kb_creators_of(struct rec_kb *kb, const struct rec_strs *ids, size_t max,
    struct rec_strs *out)
{
	static const char what[] = "finding the creators of items";
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
	rec_buf_printf(&sql, "SELECT \"%s\" AS c FROM items WHERE id IN "
	    "(SELECT value FROM json_each(?)) AND c IS NOT NULL AND c <> '' "
	    "GROUP BY c ORDER BY count(*) DESC, min(rowid) LIMIT %zu",
	    kb->c_creator, max);
	st = rec_catalog_prepare(kb->cat, sql.data, what);
	sqlite3_bind_text(st, 1, list.data, (int)list.len, SQLITE_STATIC);
	while (rec_catalog_step(kb->cat, st, what))
		rec_strs_add(out, (const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	rec_buf_free(&sql);
	rec_buf_free(&list);
}

/* A name of one or two items an edit away from one of ten times as
 * many ("DJ Khalid", "Snoop Dog" beside DJ Khaled, Snoop Dogg) is the
 * slip of a person who meant the better known: a name of eight letters
 * or more, with as many words, none written wholly otherwise. */
size_t
rec_kb_better_known(const struct rec_kb *kb, size_t k)
{
	const char *key = kb->creator.key[k];
	size_t n = kb->creator.keylen[k], i, best = k;

	if (kb->ccount[k] > 2 || n < 8)
		return k;
	for (i = 0; i < kb->creator.n; i++) {
		size_t m = kb->creator.keylen[i];
		if (i == k || m + 1 < n || m > n + 1 || kb->ccount[i] < 10 *
		    kb->ccount[k] || kb->ccount[i] <= kb->ccount[best] ||
		    !strcmp(kb->cname[i], kb->cname[k]) ||
		    rec_edit_distance(key, n, kb->creator.key[i], m, 1) > 1 ||
		    !rec_kb_misspelling(key, n, kb->creator.key[i], m))
			continue;
		best = i;
	}
	return best;
}

size_t
rec_kb_closest(const struct rec_hash *h, const char *s, int max)
{
	size_t i, best = (size_t)-1, n = strlen(s);
	int bd = max + 1, d;

	for (i = 0; i < h->n; i++) {
		if (h->keylen[i] + (size_t)max < n || h->keylen[i] > n +
		    (size_t)max)
			continue;
		d = rec_edit_distance(s, n, h->key[i], h->keylen[i], max);
		if (d < bd && rec_kb_misspelling(s, n, h->key[i], h->keylen[i])) {
			bd = d;
			best = i;
		}
	}
	return best;
}

int
rec_kb_tag_known(const struct rec_kb *kb, const char *w)
{
	struct rec_buf f = {0};
	char *tok, *save = NULL;
	int ok;

	rec_norm(&f, w, strlen(w));
	if (!f.len) {
		rec_buf_free(&f);
		return 0;
	}
	ok = rec_hash_get(&kb->tag, f.data, f.len) != (size_t)-1;
	if (!ok) {
		/* every word of it is a word of some value */
		ok = 1;
		for (tok = strtok_r(f.data, " ", &save); tok && ok;
		    tok = strtok_r(NULL, " ", &save))
			ok = rec_hash_get(&kb->tagtok, tok, strlen(tok)) !=
			    (size_t)-1;
	}
	rec_buf_free(&f);
	return ok;
}

int
rec_kb_category(const struct rec_kb *kb, const char *v, int *hard)
{
	struct rec_buf f = {0};
	size_t i, k;
	int found = 0;

	*hard = 0;
	rec_norm(&f, v, strlen(v));
	for (i = 0; f.len && i < kb->ntc; i++) {
		const struct rec_tagcol *tc = &kb->tc[i];
		k = rec_hash_get(&tc->val, f.data, f.len);
		/* a category: on at least 0.5% of the items */
		if (k == (size_t)-1 || (double)tc->count[k] * 200 <
		    (double)kb->nitems)
			continue;
		found = 1;
		if (tc->cover >= 0.97)
			*hard = 1;
	}
	rec_buf_free(&f);
	return found;
}

int
rec_kb_tag_on(const struct rec_kb *kb, size_t k, double per)
{
	return k != (size_t)-1 && (double)kb->tagcount[k] * per >=
	    (double)kb->nitems;
}

void
rec_kb_cat_sql(const struct rec_kb *kb, const char *group,
    struct rec_buf *b)
{
	struct rec_strs v = {0};
	size_t i, n = 0;

	/* one has() per column, with every value of the group that
	 * column holds as a category: the list is read once a row */
	rec_buf_addc(b, '(');
	for (i = 0; i < kb->ntc; i++)
		if (cat_values(kb, &kb->tc[i], group, 1, &v)) {
			rec_buf_adds(b, n++ ? " OR " : "");
			rec_strs_sql_call(b, "has", kb->tc[i].name, &v);
		}
	if (!n)
		rec_buf_adds(b, "0");
	rec_buf_addc(b, ')');
	rec_strs_free(&v);
}

void
rec_kb_tags_sql(const struct rec_kb *kb, const struct rec_strs *vals,
    struct rec_buf *out)
{
	size_t i;

	/* one has() a column: its list read once a row */
	for (i = 0; vals->n && i < kb->nc_tags; i++) {
		rec_buf_adds(out, i ? " OR " : "");
		rec_strs_sql_call(out, "has", kb->c_tags[i], vals);
	}
}

int
rec_kb_concept(const struct rec_kb *kb, const char *name)
{
	size_t i;

	for (i = 0; i < kb->nground; i++)
		if (!strcmp(rec_concepts[i].name, name))
			return (int)i;
	return -1;
}
