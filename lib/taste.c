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

static void
profile_read(struct rec_ranker *r, struct profile *p, const char *id,
    size_t idlen)
{
	struct rec_hash tags = {0};
	size_t i;
	char *v;

	memset(p, 0, sizeof *p);
	p->creator = -1;
	if (r->creator_col && (v = rec_ranker_field(r, r->creator_col, id, idlen))) {
		struct rec_buf n = {0};
		rec_norm(&n, v, strlen(v));
		if (n.data)
			p->creator = (int64_t)rec_hash_put(&r->credict,
			    n.data, n.len, NULL);
		rec_buf_free(&n);
		free(v);
	}
	for (i = 0; i < r->tag_cols.n; i++) {
		v = rec_ranker_field(r, r->tag_cols.v[i], id, idlen);
		add_tags(&tags, v);
		free(v);
	}
	p->ntags = tags.n;
	p->tags = xcalloc(tags.n + 1, sizeof *p->tags);
	for (i = 0; i < tags.n; i++)
		p->tags[i] = (uint32_t)rec_hash_put(&r->tagdict, tags.key[i],
		    tags.keylen[i], NULL);
	rec_hash_free(&tags);
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

static void
taste_add(struct rec_ranker *r, struct taste *t, const char *id,
    size_t idlen)
{
	const struct profile *p = profile_of(r, item_index(r, id, idlen));
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
	struct rec_strs *h = &r->hist_items;
	size_t i;

	if (!r->hist_user || strcmp(r->hist_user, user)) {
		sqlite3_stmt *st;
		if (!r->hist && sqlite3_prepare_v2(r->db, "SELECT item FROM "
		    "interactions WHERE user = ?", -1, &r->hist, NULL))
			rec_sqlite_die(r->db, "interactions");
		st = r->hist;
		rec_strs_free(h);
		free(r->hist_user);
		r->hist_user = xstrdup(user);
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW)
			rec_strs_push(h, (const char *)sqlite3_column_text(st,
			    0), (size_t)sqlite3_column_bytes(st, 0));
		sqlite3_reset(st);
	}
	if (!h->n)
		rec_die("user '%s' has no history in the catalog", user);
	for (i = 0; i < h->n; i++) {
		size_t len = strlen(h->v[i]);
		if (seen)
			item_at(r, item_index(r, h->v[i], len))->seen =
			    r->stamp;
		if (t)
			taste_add(r, t, h->v[i], len);
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Every item's share of the catalog less popular than it (what
 * "SELECT count(*) FROM items WHERE pop < value" over the count of
 * items says), from one read of the column: its values sorted, each
 * one's place found by bisection.  A column holding anything but
 * numbers that doubles hold exactly is left to the query, item by
 * item. */
static void
popularity_shares(struct rec_ranker *r)
{
	struct rec_buf sql = {0};
	sqlite3_stmt *st, *tot;
	double *v = NULL, *val = NULL;
	size_t n = 0, nv = 0, cap = 0, i, k;
	char **ids = NULL;
	size_t *idlen = NULL;
	int exact = 1;

	rec_buf_printf(&sql, "SELECT count(*) FROM items WHERE \"%s\" < ?",
	    r->pop_col);
	if (sqlite3_prepare_v2(r->db, sql.data, -1, &r->popcnt, NULL) ||
	    sqlite3_prepare_v2(r->db, "SELECT count(*) FROM items", -1, &tot,
	    NULL) || sqlite3_step(tot) != SQLITE_ROW)
		rec_sqlite_die(r->db, "popularity");
	r->nitems = (double)sqlite3_column_int64(tot, 0);
	sqlite3_finalize(tot);
	rec_buf_reset(&sql);
	rec_buf_printf(&sql, "SELECT id, \"%s\" FROM items", r->pop_col);
	if (sqlite3_prepare_v2(r->db, sql.data, -1, &st, NULL))
		rec_sqlite_die(r->db, "popularity");
	while (exact && sqlite3_step(st) == SQLITE_ROW) {
		int t = sqlite3_column_type(st, 1);
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			v = xrealloc(v, cap * sizeof *v);
			val = xrealloc(val, cap * sizeof *val);
			ids = xrealloc(ids, cap * sizeof *ids);
			idlen = xrealloc(idlen, cap * sizeof *idlen);
		}
		ids[n] = xstrndup((const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0));
		idlen[n] = (size_t)sqlite3_column_bytes(st, 0);
		if (t == SQLITE_NULL)
			val[n] = NAN;	/* unknown */
		else if (t == SQLITE_FLOAT || (t == SQLITE_INTEGER &&
		    sqlite3_column_int64(st, 1) < (1LL << 53) &&
		    sqlite3_column_int64(st, 1) > -(1LL << 53))) {
			/* as field_of's text, read back by atof */
			val[n] = atof((const char *)
			    sqlite3_column_text(st, 1));
			v[nv++] = sqlite3_column_double(st, 1);
		} else
			exact = 0;
		n++;
	}
	sqlite3_finalize(st);
	if (exact) {
		qsort(v, nv, sizeof *v, cmp_double);
		for (i = 0; i < n; i++) {
			double pct = 0.5;
			if (!isnan(val[i]) && r->nitems > 0) {
				size_t lo = 0, hi = nv;	/* first >= val */
				while (lo < hi) {
					size_t mid = lo + (hi - lo) / 2;
					if (v[mid] < val[i])
						lo = mid + 1;
					else
						hi = mid;
				}
				pct = (double)(sqlite3_int64)lo / r->nitems;
			}
			k = item_index(r, ids[i], idlen[i]);
			item_at(r, k)->pct = pct;
			item_at(r, k)->has |= HAS_PCT;
		}
	}
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	free(idlen);
	free(v);
	free(val);
	rec_buf_free(&sql);
}

/* --novelty: (1 - novelty) of the boosted score (back to 0..1) plus
 * novelty times the share of items more popular than this one */
static void
novelty(struct rec_ranker *r, struct rec_cand *c, size_t n, double scale)
{
	const struct rec_pool *p = r->pool;
	double nov = r->o.novelty;
	size_t i;

	if (r->nitems < 0)
		popularity_shares(r);
	for (i = 0; i < n; i++) {
		const char *id = p->ids.key[c[i].uid];
		size_t len = p->ids.keylen[c[i].uid], k = r->gid[c[i].uid];
		double pct = 0.5;	/* unknown: middling */

		if (!(item_at(r, k)->has & HAS_PCT)) {
			char *pv = rec_ranker_field(r, r->pop_col, id, len);
			if (pv) {
				sqlite3_reset(r->popcnt);
				sqlite3_bind_double(r->popcnt, 1, atof(pv));
				if (sqlite3_step(r->popcnt) == SQLITE_ROW &&
				    r->nitems > 0)
					pct = sqlite3_column_int64(r->popcnt,
					    0) / r->nitems;
				sqlite3_reset(r->popcnt);
				free(pv);
			}
			item_at(r, k)->pct = pct;
			item_at(r, k)->has |= HAS_PCT;
		} else
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
		taste_add(r, &lt, o->like.v[i], strlen(o->like.v[i]));
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
