/*
 * plansql.c: the SQL the policy (policy.c) gives rec-sql: orders,
 * conditions on creators, categories and decades, a creator's
 * best-known items, an item's song key as songkey() makes it, and the
 * factor of the creators the person has had enough of.
 */
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* the order of "the most popular first", or of "the best" */
void
rec_plan_order_by(struct rec_kb *kb, int best, struct rec_buf *o)
{
	if (best && kb->c_rating && kb->c_pop)
		/* the mean rating, shrunk to 3 for items few rated */
		rec_buf_printf(o, "(coalesce(\"%s\", 0) * \"%s\" + 3.0 * 25) / "
		    "(\"%s\" + 25) DESC, \"%s\" DESC, rowid", kb->c_rating,
		    kb->c_pop, kb->c_pop, kb->c_pop);
	else {
		/* ties (a creator's songs, where popularity is the
		 * creator's) by how many releases the song has, then in
		 * catalog order, as every ranked list */
		if (kb->c_pop)
			rec_buf_printf(o, "\"%s\" DESC, ", kb->c_pop);
		if (kb->c_releases)
			rec_buf_printf(o, "\"%s\" DESC, ", kb->c_releases);
		rec_buf_adds(o, "rowid");
	}
}

/* the best-known items where the SQL condition where holds (at most
 * max; its ? bound to bind), after those in ids */
static void
best_known(struct rec_kb *kb, const char *where, const char *bind,
    size_t max, struct rec_buf *ids)
{
	static const char what[] = "finding the best-known items";
	sqlite3_stmt *st;
	struct rec_buf sql = {0};

	rec_buf_printf(&sql, "SELECT id FROM items WHERE %s ORDER BY ", where);
	rec_plan_order_by(kb, 0, &sql);
	rec_buf_printf(&sql, " LIMIT %zu", max);
	st = rec_catalog_prepare(kb->cat, sql.data, what);
	if (bind)
		sqlite3_bind_text(st, 1, bind, -1, SQLITE_STATIC);
	while (rec_catalog_step(kb->cat, st, what))
		rec_buf_printf(ids, "%s%s", ids->len ? "," : "",
		    sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	rec_buf_free(&sql);
}

/* the best-known items of a creator (at most max), for seeds */
void
rec_plan_top_items(struct rec_kb *kb, const char *creator, size_t max,
    struct rec_buf *ids)
{
	struct rec_buf w = {0};
	int pass;

	/* the value as the catalog writes it (the column's index), and
	 * only when the creator has no item of its own, every value that
	 * names it among others (a scan) */
	for (pass = 0; pass < 2 && !ids->len; pass++) {
		rec_buf_reset(&w);
		rec_buf_printf(&w, pass ? "names(\"%s\", ?)" : "\"%s\" = ?",
		    kb->c_creator);
		best_known(kb, w.data, creator, max, ids);
	}
	rec_buf_free(&w);
}

void
rec_plan_where_items(struct rec_kb *kb, const char *where, size_t max,
    struct rec_buf *ids)
{
	best_known(kb, where, NULL, max, ids);
}

/* the categories to keep to, as SQL, after the constraints in b */
void
rec_plan_need_where(struct rec_kb *kb, const struct rec_strs *need,
    struct rec_buf *b)
{
	size_t i;

	for (i = 0; i < need->n; i++) {
		rec_buf_adds(b, b->len ? " AND " : "");
		rec_kb_cat_sql(kb, rec_facet_split(need->v[i], NULL), b);
	}
}

/* names("creator", 'A', 'B', ...) appended to b */
void
rec_plan_names_sql(struct rec_kb *kb, const struct rec_strs *names,
    struct rec_buf *b)
{
	rec_strs_sql_call(b, "names", kb->c_creator, names);
}

/* The order o spread over creators: the first two items of each
 * creator in order o, then the next two of each, and so on.  Where
 * popularity is the creator's, the most popular creator's whole work
 * would otherwise come before anyone else's first item (CPCD Hit@10
 * 0.480 -> 0.487; one at a time gave 0.486).  Within each round, the
 * items for which one of the categories cats (or NULL) is among the
 * first three of a ranked list (Last.fm's top tags) come first: "rock"
 * is Led Zeppelin's main tag, Katy Perry's fourth (CPCD turn 1 0.241
 * -> 0.244; the first only gave 0.231).  With alt (an expression
 * telling the alternatives named apart, or NULL), each round takes the
 * best-known of each in turn ("hip hop or ska"). */
void
rec_plan_spread(const struct rec_kb *kb, const char *o, const char *cats,
    const char *alt, struct rec_buf *out)
{
	struct rec_buf pos = {0};

	rec_buf_reset(out);
	if (kb->c_creator)
		rec_buf_printf(out, "(row_number() OVER (PARTITION BY \"%s\" "
		    "ORDER BY %s) - 1) / 2, ", kb->c_creator, o);
	if (alt)
		rec_buf_printf(out, "row_number() OVER (PARTITION BY %s "
		    "ORDER BY %s), ", alt, o);
	if (cats)
		rec_kb_cat_pos_sql(kb, cats, &pos);
	if (pos.len)
		rec_buf_printf(out, "%s > 3, ", pos.data);
	rec_buf_adds(out, o);
	rec_buf_free(&pos);
}

/* none by the creators names, alone or among several, after the
 * conditions in cond */
void
rec_plan_not_by(const struct rec_kb *kb, const struct rec_strs *names,
    struct rec_buf *cond)
{
	size_t i;

	for (i = 0; i < names->n && kb->c_creator; i++) {
		rec_buf_printf(cond, "%sNOT names(\"%s\", ", cond->len ?
		    " AND " : "", kb->c_creator);
		rec_buf_sql(cond, names->v[i]);
		rec_buf_addc(cond, ')');
		/* nor as a guest the title credits ("Life Is Good (feat.
		 * Drake)") */
		if (!kb->c_title)
			continue;
		rec_buf_printf(cond, " AND NOT names(guests(\"%s\"), ",
		    kb->c_title);
		rec_buf_sql(cond, names->v[i]);
		rec_buf_addc(cond, ')');
	}
}

/* the decades of the request as SQL on the tag columns, in a catalog
 * without dates (where they are tags), or nothing */
void
rec_plan_era_sql(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_buf *out)
{
	struct rec_strs vals = {0};
	size_t i;
	int f;

	if (kb->c_year || kb->c_date)
		return;
	for (i = 0; i < in->tags.n; i++) {
		const char *v = rec_facet_split(in->tags.v[i], &f);
		if (f == REC_FACET_ERA && rec_hash_get(&kb->tag, v,
		    strlen(v)) != (size_t)-1)
			rec_strs_add(&vals, v);
	}
	if (vals.n) {
		rec_buf_addc(out, '(');
		rec_kb_tags_sql(kb, &vals, out);
		rec_buf_addc(out, ')');
	}
	rec_strs_free(&vals);
}

int
rec_song_key_of(struct rec_kb *kb, const char *id, size_t len,
    struct rec_buf *key)
{
	char *t = rec_catalog_field(kb->cat, kb->c_title, id, len);
	char *c = rec_catalog_field(kb->cat, kb->c_creator, id, len);
	int ok = t && c;

	/* as the SQL function songkey() makes it: the song, not the
	 * release, by its first creator */
	rec_buf_reset(key);
	if (ok) {
		rec_song_key(key, t, 0);
		rec_buf_addc(key, '\t');
		rec_song_key(key, c, 1);
	}
	free(t);
	free(c);
	return ok;
}

void
rec_plan_worn(const struct rec_kb *kb, const struct rec_intent *in,
    struct rec_buf *b)
{
	struct rec_buf k = {0}, names = {0};
	size_t i, j, n;

	for (i = in->liked_creators.n - in->carried; kb->c_creator &&
	    i < in->liked_creators.n; i++) {
		const char *name = in->liked_creators.v[i];
		rec_buf_reset(&k);
		rec_song_key(&k, name, 1);
		for (j = n = 0; k.len && j < in->shown_keys.n; j++) {
			const char *t = strchr(in->shown_keys.v[j], '\t');
			n += t && !strcmp(t + 1, k.data);
		}
		if (n < 4)
			continue;
		rec_buf_adds(&names, names.len ? " or startswith(" :
		    "startswith(");
		rec_json_string(&names, name, strlen(name));
		rec_buf_adds(&names, ")");
	}
	if (names.len)
		rec_buf_printf(b, " * (if ((.item.\"%s\" // \"\") | %s) then "
		    "0.5 else 1 end)", kb->c_creator, names.data);
	rec_buf_free(&k);
	rec_buf_free(&names);
}

/* whether one of in's words of the topic has s in it */
static int
said(const struct rec_intent *in, const char *s)
{
	const struct rec_strs *l[] = { &in->concepts, &in->tags, &in->themes,
	    &in->words, &in->colls };
	size_t i, k;

	for (k = 0; k < sizeof l / sizeof *l; k++)
		for (i = 0; i < l[k]->n; i++)
			if (strstr(l[k]->v[i], s))
				return 1;
	return 0;
}

void
rec_plan_season(const struct rec_kb *kb, const struct rec_intent *in,
    struct rec_buf *b)
{
	/* the concept's own words the linker reads as "christmas" (or a
	 * tag "christmas music"); these are near it */
	static const char *const near[] = { "christmas", "xmas", "holiday",
	    "winter", "santa", "snow", "festive", "advent", "noel", NULL };
	int c = rec_kb_concept(kb, "christmas");
	size_t i;

	if (c < 0 || !kb->c_title || in->liked_items.n ||
	    in->liked_creators.n || in->similar.n)
		return;
	for (i = 0; near[i]; i++)
		if (said(in, near[i]))
			return;
	rec_buf_printf(b, " * (if ((.item.\"%s\" // \"\")%s%s%s | "
	    "test(\"\\\\b(%s)\\\\b\"; \"i\")) then 0.5 else 1 end)",
	    kb->c_title, kb->c_coll ? " + \" \" + (.item.\"" : "",
	    kb->c_coll ? kb->c_coll : "", kb->c_coll ? "\" // \"\")" : "",
	    rec_concepts[c].words);
}
