/*
 * tagsof.c: what "like X" means in a catalog's own tag words: the tags
 * a creator's items have most, and the tags of liked items.
 */
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* The tags a creator's items have most, as words for the tag fields:
 * what "like X" means in this catalog's vocabulary. */
void
rec_kb_creator_tags(struct rec_kb *kb, const char *creator, size_t max,
    struct rec_buf *words)
{
	static const char what[] = "reading a creator's tags";
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	size_t i, n = 0;

	if (!kb->c_creator || !kb->nc_tags)
		return;
	/* the creator's items: the value as the catalog writes it (the
	 * column's index), or when that has none, every value naming it
	 * (names() over the whole column, once) */
	rec_buf_printf(&sql, "WITH mine AS (SELECT rowid AS r FROM items WHERE "
	    "\"%s\" = ?1), own AS (SELECT r FROM mine UNION ALL SELECT rowid "
	    "FROM items WHERE NOT EXISTS (SELECT 1 FROM mine) AND "
	    "names(\"%s\", ?1)) SELECT v, count(*) AS c FROM (", kb->c_creator,
	    kb->c_creator);
	for (i = 0; i < kb->nc_tags; i++) {
		if (i)
			rec_buf_adds(&sql, " UNION ALL ");
		if (kb->c_tags_list[i])
			rec_buf_printf(&sql, "SELECT j.value AS v FROM own, "
			    "items, json_each(items.\"%s\") j WHERE "
			    "items.rowid = own.r", kb->c_tags[i]);
		else
			rec_buf_printf(&sql, "SELECT \"%s\" AS v FROM own, items "
			    "WHERE items.rowid = own.r AND v IS NOT NULL",
			    kb->c_tags[i]);
	}
	rec_buf_printf(&sql, ") GROUP BY v ORDER BY c DESC, v LIMIT %zu",
	    max * 3);
	st = rec_catalog_prepare(kb->cat, sql.data, what);
	sqlite3_bind_text(st, 1, creator, -1, SQLITE_STATIC);
	while (rec_catalog_step(kb->cat, st, what) && n < max) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		struct rec_buf f = {0};
		rec_norm(&f, v, strlen(v));
		/* a creator's own name as a tag says nothing new */
		if (f.len && rec_hash_get(&kb->creator, f.data, f.len) ==
		    (size_t)-1 && (!words->data || !strstr(words->data,
		    f.data))) {
			rec_buf_printf(words, "%s%s", words->len ? " " : "",
			    f.data);
			n++;
		}
		rec_buf_free(&f);
	}
	sqlite3_reset(st);
	rec_buf_free(&sql);
}

/* The tag values the seeds have, as words for the tag fields (at most
 * max), and into cats the categories of the complete columns they
 * have ("action|sci-fi"): what "like X" means when X is an item. */
void
rec_kb_seed_tags(struct rec_kb *kb, const struct rec_strs *seeds, size_t max,
    struct rec_buf *words, struct rec_buf *cats)
{
	static const char what[] = "reading the tags of liked items";
	struct rec_buf sql = {0}, f = {0};
	size_t i, s, n = 0;

	for (s = 0; s < seeds->n && s < 5; s++)
		for (i = 0; i < kb->ntc; i++) {
			const struct rec_tagcol *tc = &kb->tc[i];
			sqlite3_stmt *st;
			rec_buf_reset(&sql);
			if (tc->list)
				rec_buf_printf(&sql, "SELECT j.value FROM items, "
				    "json_each(items.\"%s\") j WHERE items.id = ?",
				    tc->name);
			else
				rec_buf_printf(&sql, "SELECT \"%s\" FROM items "
				    "WHERE id = ? AND \"%s\" IS NOT NULL", tc->name,
				    tc->name);
			st = rec_catalog_prepare(kb->cat, sql.data, what);
			sqlite3_bind_text(st, 1, seeds->v[s], -1, SQLITE_STATIC);
			while (rec_catalog_step(kb->cat, st, what)) {
				const char *v = (const char *)
				    sqlite3_column_text(st, 0);
				size_t k;
				rec_buf_reset(&f);
				rec_norm(&f, v ? v : "", v ? strlen(v) : 0);
				if (!f.len || rec_hash_get(&kb->creator, f.data,
				    f.len) != (size_t)-1)
					continue;
				k = rec_hash_get(&tc->val, f.data, f.len);
				if (tc->cover >= 0.97 && k != (size_t)-1 &&
				    (double)tc->count[k] * 200 >=
				    (double)kb->nitems && (!cats->data ||
				    !strstr(cats->data, f.data)))
					rec_buf_printf(cats, "%s%s", cats->len ?
					    "|" : "", f.data);
				if (n < max && (!words->data ||
				    !strstr(words->data, f.data))) {
					rec_buf_printf(words, "%s%s", words->len ?
					    " " : "", f.data);
					n++;
				}
			}
			sqlite3_reset(st);
		}
	rec_buf_free(&sql);
	rec_buf_free(&f);
}
