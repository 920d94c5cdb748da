/*
 * taste.c: what the ranker knows of items: a field (statements by
 * field, cached), each item's profile (creator
 * and tags, as indexes in the ranker's dictionaries), a user's or a
 * liked list's taste, the affinity boosts of -u and --like, and
 * --novelty's share of the catalog less popular than an item.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"
#include "ranker.h"

/* statements by field, prepared when first asked for */
char *
rec_ranker_field(struct rec_ranker *r, const char *field, const char *id,
    size_t idlen)
{
	sqlite3_stmt *st;
	char *v = NULL;
	size_t k;
	int added;

	k = rec_hash_put(&r->fields, field, strlen(field), &added);
	if (added) {
		struct rec_buf sql = {0};
		char *col = NULL;
		r->field = xrealloc(r->field, r->fields.cap *
		    sizeof *r->field);
		if (!rec_catalog_column(r->db, field, NULL, NULL, 0) &&
		    !(col = rec_catalog_role(r->db, field)))
			rec_usage_die("no column or role '%s' in the catalog",
			    field);
		rec_buf_printf(&sql, "SELECT \"%s\" FROM items WHERE id = ?",
		    col ? col : field);
		free(col);
		if (sqlite3_prepare_v2(r->db, sql.data, -1, &r->field[k], NULL))
			rec_sqlite_die(r->db, "items");
		rec_buf_free(&sql);
	}
	st = r->field[k];
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, id, (int)idlen, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	return v;
}

static void
add_tags(struct rec_hash *h, const char *json)
{
	struct rec_buf pk = {0}, err = {0}, n = {0};
	msgpack_zone z;
	msgpack_object o;
	size_t off = 0;
	uint32_t i;

	if (!json)
		return;
	msgpack_zone_init(&z, 1024);
	if (json[0] == '[' && !rec_json_to_msgpack(json, strlen(json), &pk,
	    NULL, &err) && msgpack_unpack(pk.data, pk.len, &off, &z, &o) ==
	    MSGPACK_UNPACK_SUCCESS && o.type == MSGPACK_OBJECT_ARRAY) {
		for (i = 0; i < o.via.array.size; i++)
			if (o.via.array.ptr[i].type == MSGPACK_OBJECT_STR) {
				rec_buf_reset(&n);
				rec_norm(&n, o.via.array.ptr[i].via.str.ptr,
				    o.via.array.ptr[i].via.str.size);
				if (n.len)
					rec_hash_put(h, n.data, n.len, NULL);
			}
	} else {
		rec_norm(&n, json, strlen(json));
		if (n.len)
			rec_hash_put(h, n.data, n.len, NULL);
	}
	msgpack_zone_destroy(&z);
	rec_buf_free(&pk);
	rec_buf_free(&err);
	rec_buf_free(&n);
}

/* the tags of a tag column's text, as indexes in tagdict, each once:
 * parsed the first time the text is met (items share a few hundred
 * texts), then the same array */
struct tagset {
	uint32_t *v;
	size_t n;
};

static const struct tagset *
tags_of(struct rec_ranker *r, const char *text)
{
	struct tagset *ts;
	size_t k;
	int added;

	if (!r->tagtext.vsize)
		r->tagtext.vsize = sizeof(struct tagset);
	k = rec_hash_put(&r->tagtext, text, strlen(text), &added);
	ts = (struct tagset *)r->tagtext.val + k;
	if (added) {
		struct rec_hash set = {0};
		size_t i;
		add_tags(&set, text);
		ts->n = set.n;
		ts->v = xcalloc(set.n + 1, sizeof *ts->v);
		for (i = 0; i < set.n; i++)
			ts->v[i] = (uint32_t)rec_hash_put(&r->tagdict,
			    set.key[i], set.keylen[i], NULL);
		rec_hash_free(&set);
	}
	return ts;
}

void
rec_ranker_tagtext_free(struct rec_ranker *r)
{
	size_t i;

	for (i = 0; i < r->tagtext.n; i++)
		free(((struct tagset *)r->tagtext.val)[i].v);
	rec_hash_free(&r->tagtext);
}

/* an item's profile from the text of its creator and of its tag
 * columns (each may be NULL) */
static void
profile_make(struct rec_ranker *r, struct profile *p, const char *creator,
    const char *const *tags)
{
	size_t i, j, k;

	memset(p, 0, sizeof *p);
	p->creator = -1;
	if (creator) {
		struct rec_buf n = {0};
		rec_norm(&n, creator, strlen(creator));
		if (n.data)
			p->creator = (int64_t)rec_hash_put(&r->credict,
			    n.data, n.len, NULL);
		rec_buf_free(&n);
	}
	p->tags = xcalloc(1, sizeof *p->tags);
	/* the columns' tags in order, each once (a profile has a few) */
	for (i = 0; i < r->tag_cols.n; i++) {
		const struct tagset *ts;
		if (!tags[i] || !*tags[i])
			continue;
		ts = tags_of(r, tags[i]);
		p->tags = xrealloc(p->tags, (p->ntags + ts->n + 1) *
		    sizeof *p->tags);
		for (j = 0; j < ts->n; j++) {
			for (k = 0; k < p->ntags && p->tags[k] != ts->v[j]; k++)
				;
			if (k == p->ntags)
				p->tags[p->ntags++] = ts->v[j];
		}
	}
}

static void
profile_read(struct rec_ranker *r, struct profile *p, const char *id,
    size_t idlen)
{
	char *creator = NULL, **tags;
	size_t i;

	if (r->creator_col)
		creator = rec_ranker_field(r, r->creator_col, id, idlen);
	tags = xcalloc(r->tag_cols.n + 1, sizeof *tags);
	for (i = 0; i < r->tag_cols.n; i++)
		tags[i] = rec_ranker_field(r, r->tag_cols.v[i], id, idlen);
	profile_make(r, p, creator, (const char *const *)tags);
	for (i = 0; i < r->tag_cols.n; i++)
		free(tags[i]);
	free(tags);
	free(creator);
}

/* Profiles read one by one past this many, and a tenth of the catalog
 * or more (a grouped stream ranks the lists of many users): the rest
 * come from one scan of the items, a fifth of the time. */
#define ONE_BY_ONE 1000

static void
profiles_all(struct rec_ranker *r)
{
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	const char **tags = xcalloc(r->tag_cols.n + 1, sizeof *tags);
	size_t i;

	rec_buf_printf(&sql, "SELECT id, %s%s%s", r->creator_col ? "\"" : "",
	    r->creator_col ? r->creator_col : "NULL", r->creator_col ? "\"" :
	    "");
	for (i = 0; i < r->tag_cols.n; i++)
		rec_buf_printf(&sql, ", \"%s\"", r->tag_cols.v[i]);
	rec_buf_adds(&sql, " FROM items");
	if (sqlite3_prepare_v2(r->db, sql.data, -1, &st, NULL))
		rec_sqlite_die(r->db, "items");
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t k;
		struct profile p;
		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			continue;
		k = item_index(r, (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0));
		if (item_at(r, k)->has & HAS_PROFILE)
			continue;
		for (i = 0; i < r->tag_cols.n; i++)
			tags[i] = (const char *)sqlite3_column_text(st,
			    (int)i + 2);
		profile_make(r, &p, (const char *)sqlite3_column_text(st, 1),
		    tags);
		item_at(r, k)->prof = p;
		item_at(r, k)->has |= HAS_PROFILE;
	}
	sqlite3_finalize(st);
	free(tags);
	rec_buf_free(&sql);
}

void
rec_ranker_profile_free(struct profile *p)
{
	free(p->tags);
}

/* the profile of item k, read once; borrowed until the next call */
static const struct profile *
profile_of(struct rec_ranker *r, size_t k)
{
	if (!(item_at(r, k)->has & HAS_PROFILE)) {
		struct profile p;
		if (++r->nprofiles == ONE_BY_ONE && (r->creator_col ||
		    r->tag_cols.n) && rec_catalog_nitems(r->db) <= 10 * ONE_BY_ONE) {
			profiles_all(r);
			if (item_at(r, k)->has & HAS_PROFILE)
				return &item_at(r, k)->prof;
		}
		profile_read(r, &p, r->items.key[k], r->items.keylen[k]);
		item_at(r, k)->prof = p;
		item_at(r, k)->has |= HAS_PROFILE;
	}
	return &item_at(r, k)->prof;
}

/* A taste: the creators and tags of several items, a mark per index of
 * the ranker's dictionaries (an index past the end is unmarked). */
struct taste {
	unsigned char *cre, *tag;
	size_t ncre, ntag;
	size_t items;
};

static void
mark(unsigned char **m, size_t *n, size_t i)
{
	if (i >= *n) {
		size_t nn = *n ? *n : 64;
		while (nn <= i)
			nn *= 2;
		*m = xrealloc(*m, nn);
		memset(*m + *n, 0, nn - *n);
		*n = nn;
	}
	(*m)[i] = 1;
}

/* adds item k of the ranker's items to t */
static void
taste_add(struct rec_ranker *r, struct taste *t, size_t k)
{
	const struct profile *p = profile_of(r, k);
	size_t i;

	if (p->creator >= 0)
		mark(&t->cre, &t->ncre, (size_t)p->creator);
	for (i = 0; i < p->ntags; i++)
		mark(&t->tag, &t->ntag, p->tags[i]);
	t->items++;
}

static void
taste_free(struct taste *t)
{
	free(t->cre);
	free(t->tag);
}

/* 0..1: half for a shared creator, half for the share of the item's
 * tags the taste holds; *creator and *shared say which */
static double
affinity(struct rec_ranker *r, const struct taste *t, size_t k,
    int *creator, size_t *shared)
{
	const struct profile *p = profile_of(r, k);
	double a = 0;
	size_t i, n = 0;

	*creator = p->creator >= 0 && (size_t)p->creator < t->ncre &&
	    t->cre[p->creator];
	for (i = 0; i < p->ntags; i++)
		n += p->tags[i] < t->ntag && t->tag[p->tags[i]];
	a = 0.5 * *creator + (p->ntags ? 0.5 * (double)n / p->ntags : 0);
	*shared = n;
	return a;
}

/* the user's items marked seen in this list (seen 1), their taste into
 * t (or NULL); the last user's items are kept, as -u and -x name the
 * same one */
void
rec_ranker_history(struct rec_ranker *r, const char *user, int seen, struct taste *t)
{
	size_t i;

	if (!r->hist_user || strcmp(r->hist_user, user)) {
		sqlite3_stmt *st;
		if (!r->hist && sqlite3_prepare_v2(r->db, "SELECT item FROM "
		    "interactions WHERE user = ?", -1, &r->hist, NULL))
			rec_sqlite_die(r->db, "interactions");
		st = r->hist;
		r->nhist = 0;
		free(r->hist_user);
		r->hist_user = xstrdup(user);
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (r->nhist == r->caphist) {
				r->caphist = r->caphist ? 2 * r->caphist : 64;
				r->hist_items = xrealloc(r->hist_items,
				    r->caphist * sizeof *r->hist_items);
			}
			r->hist_items[r->nhist++] = item_index(r, (const char *)
			    sqlite3_column_text(st, 0),
			    (size_t)sqlite3_column_bytes(st, 0));
		}
		sqlite3_reset(st);
	}
	if (!r->nhist)
		rec_die("user '%s' has no history in the catalog", user);
	for (i = 0; i < r->nhist; i++) {
		if (seen)
			item_at(r, r->hist_items[i])->seen = r->stamp;
		if (t)
			taste_add(r, t, r->hist_items[i]);
	}
}

/* --novelty: (1 - novelty) of the boosted score (back to 0..1) plus
 * novelty times the share of items more popular than this one */
static void
novelty(struct rec_ranker *r, struct rec_cand *c, size_t n, double scale)
{
	const struct rec_pool *p = r->pool;
	double nov = r->o.novelty;
	size_t i;

	if (!r->pop_open) {
		if (rec_popshares_open(&r->pop, r->db) < 0)
			rec_die("--novelty: the catalog has no popularity column");
		r->pop_open = 1;
	}
	for (i = 0; i < n; i++) {
		size_t k = r->gid[c[i].uid];
		double pct;

		if (!(item_at(r, k)->has & HAS_PCT)) {
			item_at(r, k)->pct = rec_popshare(&r->pop,
			    p->ids.key[c[i].uid], p->ids.keylen[c[i].uid]);
			item_at(r, k)->has |= HAS_PCT;
		}
		pct = item_at(r, k)->pct;
		c[i].r.score = (1 - nov) * c[i].r.score / scale +
		    nov * (1 - pct);
		if (pct < 0.5)
			c[i].reasons |= WHY_LESS_KNOWN;
	}
}

/* w times c's affinity to the taste t, and why: a shared creator, else
 * shared tags */
static double
boost(struct rec_ranker *r, const struct taste *t, double w,
    struct rec_cand *c, unsigned creator, unsigned tags)
{
	size_t sh;
	int cr;
	double a = affinity(r, t, r->gid[c->uid], &cr, &sh);

	if (cr)
		c->reasons |= creator;
	else if (sh)
		c->reasons |= tags;
	return w * a;
}

/* boosts work on scores scaled to 0..1 */
void
rec_ranker_boosts(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	const struct rec_rank_opts *o = &r->o;
	double lo = INFINITY, hi = -INFINITY;
	struct taste ut, lt;
	size_t i;

	memset(&ut, 0, sizeof ut);
	memset(&lt, 0, sizeof lt);
	if (o->user)
		rec_ranker_history(r, o->user, 0, &ut);
	for (i = 0; i < o->like.n; i++)
		taste_add(r, &lt, item_index(r, o->like.v[i],
		    strlen(o->like.v[i])));
	for (i = 0; i < n; i++) {
		if (c[i].r.score < lo)
			lo = c[i].r.score;
		if (c[i].r.score > hi)
			hi = c[i].r.score;
	}
	for (i = 0; i < n; i++) {
		double s = hi > lo ? (c[i].r.score - lo) / (hi - lo) : 1;
		if (o->user)
			s += boost(r, &ut, o->personal, &c[i], WHY_U_CREATOR,
			    WHY_U_TAGS);
		if (o->like.n)
			s += boost(r, &lt, o->like_weight, &c[i],
			    WHY_L_CREATOR, WHY_L_TAGS);
		c[i].r.score = s;
	}
	if (o->novelty > 0)
		novelty(r, c, n, 1 + (o->user ? o->personal : 0) +
		    (o->like.n ? o->like_weight : 0));
	taste_free(&ut);
	taste_free(&lt);
}
