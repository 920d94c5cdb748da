/*
 * colls.c: collections (albums) named in a message: "album X", "X
 * album", "songs from Frozen" (a collection written as a name that
 * names no creator), "from Prince's Purple Rain" (a creator's); and
 * series, the titles that share the words before a colon ("Star Wars:
 * Episode IV").
 */
#include <stdlib.h>
#include <string.h>

#include "converse.h"

size_t
rec_link_longest(const struct rec_words *ws, size_t i,
    const struct rec_hash *h, struct rec_buf *g)
{
	size_t n;

	for (n = 6; n >= 1; n--)
		if (rec_words_ngram(ws, i, n, g) && rec_hash_get(h, g->data,
		    g->len) != (size_t)-1)
			return n;
	return 0;
}

static void
add(struct rec_words *ws, struct rec_intent *in, const char *said,
    const char *coll, size_t i, size_t n)
{
	rec_strs_add(&in->colls, coll);
	rec_intent_said(in, said, coll);
	rec_words_mark(ws, i, n);
}

/* the words at i that say a film or a show ("the movie", "the musical"):
 * how many */
static size_t
film(const struct rec_words *ws, size_t i)
{
	static const char *const kind[] = { "movie", "film", "show",
	    "musical", "soundtrack", "series", "game", NULL };
	size_t the = rec_words_at(ws, i, "the");

	return i + the < ws->n && rec_words_listed(kind, ws->w[i + the]) ?
	    the + 1 : 0;
}

size_t
rec_link_colls(struct rec_kb *kb, struct rec_words *ws,
    struct rec_intent *in, size_t *ck)
{
	struct rec_buf g = {0};
	size_t i, n, nc, pos = (size_t)-1;

	for (i = 0; kb->c_coll && i < ws->n; i++) {
		/* "from the movie Frozen": its soundtrack, in any case */
		size_t s = i + 1 + film(ws, i + 1);
		if (!ws->used[i] && rec_words_at(ws, i, "from") && s > i + 1 &&
		    s < ws->n && !rec_lex_filler(ws->w[s]) &&
		    (n = rec_link_longest(ws, s, &kb->coll, &g)) && g.len >= 4) {
			add(ws, in, "from '%s'", g.data, i, n + s - i);
			continue;
		}
		if (!ws->used[i] && rec_words_at(ws, i, "from") &&
		    i + 1 < ws->n && ws->cap[i + 1]) {
			/* "from Naughty Boy": a creator first */
			if ((nc = rec_link_longest(ws, i + 1, &kb->creator,
			    &g))) {
				size_t k = rec_hash_get(&kb->creator, g.data,
				    g.len);
				if (i + 1 + nc < ws->n && ws->cap[i + 1 + nc] &&
				    (n = rec_link_longest(ws, i + 1 + nc,
				    &kb->coll, &g)) && g.len >= 4) {
					add(ws, in, "from '%s'", g.data, i,
					    n + nc + 1);
					*ck = k;
					pos = i + 1;
				}
			} else if ((n = rec_link_longest(ws, i + 1, &kb->coll,
			    &g)) && g.len >= 4)
				add(ws, in, "from '%s'", g.data, i, n + 1);
			continue;
		}
		if (ws->used[i] || !(rec_words_at(ws, i, "album") ||
		    rec_words_at(ws, i, "record") || rec_words_at(ws, i, "ep")))
			continue;
		for (n = 6; n >= 1; n--) {
			if (rec_words_ngram(ws, i + 1, n, &g) &&
			    rec_hash_get(&kb->coll, g.data, g.len) !=
			    (size_t)-1) {
				add(ws, in, "from the album '%s'", g.data, i,
				    n + 1);
				break;
			}
			if (i >= n && rec_words_ngram(ws, i - n, n, &g) &&
			    rec_hash_get(&kb->coll, g.data, g.len) !=
			    (size_t)-1) {
				add(ws, in, "from the album '%s'", g.data,
				    i - n, n + 1);
				break;
			}
		}
	}
	rec_buf_free(&g);
	return pos;
}

void
rec_kb_series(struct rec_kb *kb, const char *id, const char *form,
    struct rec_strs *out)
{
	struct rec_buf f = {0}, sql = {0};
	char *t;
	const char *colon;
	sqlite3_stmt *st;

	if (!kb->c_title || !(t = rec_catalog_field(kb->cat, kb->c_title, id,
	    strlen(id))))
		return;
	/* the form said is the title's part before its colon */
	if ((colon = strchr(t, ':')) && colon > t) {
		rec_norm(&f, t, (size_t)(colon - t));
		if (f.len && !strcmp(f.data, form)) {
			/* the same bytes and a colon, as written (no LIKE:
			 * a title may hold '%' or '_') */
			rec_buf_printf(&sql, "SELECT id FROM items WHERE "
			    "substr(CAST(\"%s\" AS BLOB), 1, ?1 + 1) = "
			    "CAST(?2 || ':' AS BLOB) AND id <> ?3 LIMIT 100",
			    kb->c_title);
			st = rec_catalog_prepare(kb->cat, sql.data, "a series");
			sqlite3_bind_int(st, 1, (int)(colon - t));
			sqlite3_bind_text(st, 2, t, (int)(colon - t),
			    SQLITE_STATIC);
			sqlite3_bind_text(st, 3, id, -1, SQLITE_STATIC);
			while (rec_catalog_step(kb->cat, st, "a series"))
				rec_strs_add(out, (const char *)
				    sqlite3_column_text(st, 0));
			sqlite3_reset(st);
		}
	}
	free(t);
	rec_buf_free(&f);
	rec_buf_free(&sql);
}
