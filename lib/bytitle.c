/*
 * bytitle.c: a title named with its creator ("Too Young by Post
 * Malone") is that creator's song, not the best-known song of that
 * title.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "converse.h"

/* "Too Young by Post Malone": a title named with its creator is that
 * creator's song, not the best-known song of that title */
void
rec_link_title_by_creator(struct rec_kb *kb, struct rec_intent *in)
{
	static const char what[] = "finding a title by its creator";
	struct rec_buf sql = {0}, key = {0}, k2 = {0};
	struct rec_strs *cr = in->liked_creators.n ? &in->liked_creators :
	    &in->similar;
	sqlite3_stmt *st;
	size_t i, c;

	if (!kb->c_title || !kb->c_creator || !cr->n)
		return;
	rec_buf_printf(&sql, "SELECT id, \"%s\" FROM items WHERE "
	    "names(\"%s\", ?) ORDER BY %s%s%s", kb->c_title, kb->c_creator,
	    kb->c_pop ? "\"" : "", kb->c_pop ? kb->c_pop : "rowid",
	    kb->c_pop ? "\" DESC" : "");
	for (i = 0; i < in->liked_items.n; i++) {
		const char *id = in->liked_items.v[i];
		char *t = rec_catalog_field(kb->cat, kb->c_title, id,
		    strlen(id));
		char *by = rec_catalog_field(kb->cat, kb->c_creator, id,
		    strlen(id));
		char *found = NULL;
		int mine = 0;
		for (c = 0; by && c < cr->n; c++)
			mine |= !strcasecmp(by, cr->v[c]);
		if (t && !mine) {
			rec_buf_reset(&key);
			rec_song_key(&key, t, 0);
			for (c = 0; c < cr->n && !found; c++) {
				st = rec_catalog_prepare(kb->cat, sql.data, what);
				sqlite3_bind_text(st, 1, cr->v[c], -1,
				    SQLITE_STATIC);
				while (!found && rec_catalog_step(kb->cat, st,
				    what)) {
					const char *ct = (const char *)
					    sqlite3_column_text(st, 1);
					rec_buf_reset(&k2);
					rec_song_key(&k2, ct ? ct : "", 0);
					if (k2.len == key.len && key.len &&
					    !memcmp(k2.data, key.data, key.len))
						found = xstrdup((const char *)
						    sqlite3_column_text(st, 0));
				}
				sqlite3_reset(st);
			}
		}
		if (found) {
			size_t w;
			for (w = 0; w < in->wanted.n; w++)
				if (!strcmp(in->wanted.v[w], id)) {
					free(in->wanted.v[w]);
					in->wanted.v[w] = xstrdup(found);
				}
			free(in->liked_items.v[i]);
			in->liked_items.v[i] = found;
		}
		free(t);
		free(by);
	}
	rec_buf_free(&sql);
	rec_buf_free(&key);
	rec_buf_free(&k2);
}
