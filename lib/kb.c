/*
 * kb.c: what the planner knows of a catalog, loaded once per process
 * through the catalog handle: its columns by role, the creators and
 * titles a message can name, the values of its tag-like columns, the
 * models and indexes it has.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "converse.h"

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

struct rec_kb *
rec_kb_load(const char *catalog)
{
	struct rec_kb *kb = xcalloc(1, sizeof *kb);
	sqlite3 *db;
	struct rec_buf sql = {0}, n = {0};
	sqlite3_stmt *st;
	char type[16], *s;
	int added;

	kb->cat = rec_catalog_load(catalog);
	kb->catalog = kb->cat->path;
	db = kb->cat->db;
	rec_sql_functions(db);		/* norm() and has() for the planner */
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
	kb->has_knn = (s = first_text(kb->cat, "models", "SELECT 1 FROM models "
	    "WHERE kind = 'itemknn' AND name = 'itemknn'")) != NULL;
	free(s);
	kb->semid_space = first_text(kb->cat, "semid_spaces", "SELECT space "
	    "FROM semid_spaces ORDER BY space LIMIT 1");
	kb->dense_space = first_text(kb->cat, "spaces", "SELECT name FROM "
	    "spaces ORDER BY name = 'audio' DESC, name LIMIT 1");
	kb->text_space = first_text(kb->cat, "spaces", "SELECT name FROM "
	    "spaces WHERE source = 'embeddings' ORDER BY name LIMIT 1");
	rec_buf_printf(&sql, "%s.bm25", kb->catalog);
	kb->has_bm25 = access(sql.data, R_OK) == 0;
	rec_buf_reset(&sql);
	if (kb->c_year) {
		st = rec_catalog_prepare(kb->cat, "SELECT max(year) FROM items", LOADING);
		if (rec_catalog_step(kb->cat, st, LOADING))
			kb->maxyear = sqlite3_column_int(st, 0);
		sqlite3_reset(st);
	}
	/* creators, by folded name */
	if (kb->c_creator) {
		rec_buf_printf(&sql, "SELECT DISTINCT \"%s\" FROM items WHERE "
		    "\"%s\" IS NOT NULL", kb->c_creator, kb->c_creator);
		st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
		while (rec_catalog_step(kb->cat, st, LOADING)) {
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
		sqlite3_reset(st);
	}
	/* titles of two words or more, most popular item first */
	if (kb->c_title) {
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "SELECT \"%s\", id FROM items WHERE \"%s\" "
		    "IS NOT NULL ORDER BY %s%s%s", kb->c_title, kb->c_title,
		    kb->c_pop ? "\"" : "", kb->c_pop ? kb->c_pop : "rowid",
		    kb->c_pop ? "\" DESC" : "");
		st = rec_catalog_prepare(kb->cat, sql.data, LOADING);
		while (rec_catalog_step(kb->cat, st, LOADING)) {
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
		sqlite3_reset(st);
	}
	/* tag values of every tags and category column */
	st = rec_catalog_prepare(kb->cat, "SELECT name, list FROM columns WHERE role IN "
	    "('tags', 'category')", LOADING);
	while (rec_catalog_step(kb->cat, st, LOADING)) {
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
		v = rec_catalog_prepare(kb->cat, sql.data, LOADING);
		while (rec_catalog_step(kb->cat, v, LOADING)) {
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
		sqlite3_reset(v);
	}
	sqlite3_reset(st);
	st = rec_catalog_prepare(kb->cat, "SELECT count(*) FROM items", LOADING);
	if (rec_catalog_step(kb->cat, st, LOADING))
		kb->nitems = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
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
	rec_catalog_close(kb->cat);
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

/* the closest key of h to s (folded) within max edits, or (size_t)-1 */
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
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}
