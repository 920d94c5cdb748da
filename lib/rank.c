/*
 * rank.c: the ranker of rec-rank: fusion, sort, caps and MMR (fuse.c)
 * with the catalog-dependent stages between (removals, jq rescoring,
 * personalisation and novelty (taste.c), one record per song, the cut
 * lists of a grouped stream), so that the command holds only its
 * options.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"
#include "ranker.h"

/* ---- the ranker of rec-rank ---- */

/* --unique: one statement that reads an item's fields, prepared before
 * any input is read so that a bad field is an error at once */
static void
unique_prepare(struct rec_ranker *r, const char *list)
{
	struct rec_buf sql = {0};
	char *fields = xstrdup(list), *f, *save = NULL;

	r->nunique = 0;
	rec_buf_adds(&sql, "SELECT ");
	for (f = strtok_r(fields, ",", &save); f;
	    f = strtok_r(NULL, ",", &save)) {
		char *col = NULL;
		if (r->nunique == 64)
			rec_usage_die("--unique: at most 64 fields");
		if (!rec_catalog_column(r->db, f, NULL, NULL, 0) &&
		    !(col = rec_catalog_role(r->db, f)))
			rec_usage_die("--unique: no column or role '%s' in the "
			    "catalog", f);
		r->first[r->nunique] = !strcmp(f, "creator") ||
		    (r->creator_col && !strcmp(col ? col : f, r->creator_col));
		rec_buf_printf(&sql, "%s\"%s\"", r->nunique++ ? ", " : "",
		    col ? col : f);
		free(col);
	}
	if (!r->nunique)
		rec_usage_die("--unique: give one field or more");
	rec_buf_adds(&sql, " FROM items WHERE id = ?");
	if (sqlite3_prepare_v2(r->db, sql.data, -1, &r->unique, NULL))
		rec_sqlite_die(r->db, "items");
	rec_buf_free(&sql);
	free(fields);
}

/* the fields of --unique for each candidate, as one key (NULL for an
 * item not in the catalog: such records are all kept) */
static char **
unique_keys(struct rec_ranker *r, const struct rec_cand *c, size_t n)
{
	const struct rec_pool *p = r->pool;
	char **key = xcalloc(n + 1, sizeof *key);
	size_t i;

	for (i = 0; i < n; i++) {
		struct rec_buf k = {0};
		int x;
		sqlite3_reset(r->unique);
		sqlite3_bind_text(r->unique, 1, p->ids.key[c[i].uid],
		    (int)p->ids.keylen[c[i].uid], SQLITE_STATIC);
		if (sqlite3_step(r->unique) != SQLITE_ROW)
			continue;
		for (x = 0; x < r->nunique; x++) {
			const char *v = (const char *)sqlite3_column_text(
			    r->unique, x);
			if (x)
				rec_buf_addc(&k, '\x1f');
			rec_song_key(&k, v ? v : "", r->first[x]);
		}
		key[i] = k.data ? k.data : xstrdup("");
	}
	return key;
}

static void
add_why(struct rec_cand *c, const char *fmt, const char *a)
{
	struct rec_buf b = {0};

	if (c->why)
		rec_buf_printf(&b, "%s; ", c->why);
	rec_buf_printf(&b, fmt, a);
	free(c->why);
	c->why = b.data;
}

/* The ranker's reasons (ranker.h), in the order of their bits: a bit
 * each in rec_cand.reasons while ranking (most candidates are cut), the
 * text for those kept. */
static const char *const reason_text[] = {
	"by a creator in your history",
	"shares tags with your history",
	"same creator as one you like",
	"shares tags with ones you like",
	"less known",
	NULL
};

static void
write_reasons(struct rec_cand *c, size_t n)
{
	size_t i, b;

	for (i = 0; i < n; i++)
		for (b = 0; reason_text[b]; b++)
			if (c[i].reasons & (1u << b))
				add_why(&c[i], "%s", reason_text[b]);
}

/* The record jq sees: the first record, its score now, and "item" with
 * every catalog column when there is a catalog. */
static void
jq_view(struct rec_ranker *r, const struct rec_cand *c, msgpack_object *obj)
{
	static const char *const drop[] = { "score", "item", NULL };
	const struct rec_pool *p = r->pool;
	struct rec_buf *out = &r->view;
	msgpack_packer pk;
	msgpack_object first;
	size_t off = 0;
	int i, n;

	rec_pool_get(p, p->first[c->uid], &r->zone, &first);
	rec_buf_reset(out);
	msgpack_packer_init(&pk, out, rec_buf_msgpack_write);
	if (r->db && !r->all && sqlite3_prepare_v2(r->db, "SELECT * FROM "
	    "items WHERE id = ?", -1, &r->all, NULL))
		rec_sqlite_die(r->db, "items");
	if (r->all) {
		sqlite3_reset(r->all);
		sqlite3_bind_text(r->all, 1, p->ids.key[c->uid],
		    (int)p->ids.keylen[c->uid], SQLITE_STATIC);
	}
	rec_pack_map_except(&pk, &first, drop, 2);
	msgpack_pack_str_with_body(&pk, "score", 5);
	msgpack_pack_double(&pk, c->r.score);
	msgpack_pack_str_with_body(&pk, "item", 4);
	if (r->all && sqlite3_step(r->all) == SQLITE_ROW) {
		n = sqlite3_column_count(r->all);
		msgpack_pack_map(&pk, (uint32_t)n);
		for (i = 0; i < n; i++) {
			const char *name = sqlite3_column_name(r->all, i);
			msgpack_pack_str_with_body(&pk, name, strlen(name));
			switch (sqlite3_column_type(r->all, i)) {
			case SQLITE_NULL: msgpack_pack_nil(&pk); break;
			case SQLITE_INTEGER:
				msgpack_pack_int64(&pk,
				    sqlite3_column_int64(r->all, i));
				break;
			case SQLITE_FLOAT:
				msgpack_pack_double(&pk,
				    sqlite3_column_double(r->all, i));
				break;
			default: {
				const char *t = (const char *)
				    sqlite3_column_text(r->all, i);
				size_t len = (size_t)
				    sqlite3_column_bytes(r->all, i);
				struct rec_buf tmp = {0}, err = {0};
				if (t[0] == '[' && !rec_json_to_msgpack(t, len,
				    &tmp, NULL, &err))
					rec_buf_add(out, tmp.data, tmp.len);
				else
					msgpack_pack_str_with_body(&pk, t, len);
				rec_buf_free(&tmp);
				rec_buf_free(&err);
			}
			}
		}
	} else {
		const msgpack_object *it = rec_map_get(&first, "item");
		if (it)
			msgpack_pack_object(&pk, *it);
		else
			msgpack_pack_map(&pk, 0);
	}
	msgpack_zone_clear(&r->zone);
	msgpack_unpack(out->data, out->len, &off, &r->zone, obj);
}

/* libjq keeps the failed run's state until teardown: free it first */
static void __attribute__((noreturn))
jq_die(struct rec_ranker *r, const char *opt)
{
	rec_jq_free(r->o.by);
	rec_jq_free(r->o.where);
	rec_die("%s: %s", opt, r->err.data);
}

struct rec_ranker *
rec_ranker_new(const struct rec_rank_opts *o, sqlite3 *db)
{
	struct rec_ranker *r = xcalloc(1, sizeof *r);
	sqlite3_stmt *st;

	r->o = *o;
	r->db = db;
	r->items.vsize = sizeof(struct item);
	if (db) {
		/* one read transaction for all the lists: a statement
		 * outside one takes and lets go of the file's lock (four
		 * system calls) each time, and items are read one by one */
		r->txn = sqlite3_get_autocommit(db) &&
		    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
		r->creator_col = rec_catalog_role(db, "creator");
		r->pop_col = rec_catalog_role(db, "popularity");
		if (sqlite3_prepare_v2(db, "SELECT name FROM columns WHERE "
		    "role IN ('tags', 'category') ORDER BY position", -1, &st,
		    NULL) == SQLITE_OK) {
			while (sqlite3_step(st) == SQLITE_ROW)
				rec_strs_push(&r->tag_cols, (const char *)
				    sqlite3_column_text(st, 0),
				    (size_t)sqlite3_column_bytes(st, 0));
			sqlite3_finalize(st);
		}
	}
	if (o->unique)
		unique_prepare(r, o->unique);
	if (o->novelty > 0 && !r->pop_col)
		rec_die("--novelty: the catalog has no popularity column");
	return r;
}

void
rec_ranker_free(struct rec_ranker *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->fields.n; i++)
		sqlite3_finalize(r->field[i]);
	free(r->field);
	rec_hash_free(&r->fields);
	for (i = 0; i < r->items.n; i++) {
		rec_ranker_profile_free(&item_at(r, i)->prof);
		free(item_at(r, i)->divkey);
	}
	rec_hash_free(&r->items);
	free(r->gid);
	rec_hash_free(&r->tagdict);
	rec_hash_free(&r->credict);
	rec_ranker_tagtext_free(r);
	sqlite3_finalize(r->hist);
	free(r->hist_user);
	free(r->hist_items);
	if (r->pop_open)
		rec_popshares_close(&r->pop);
	sqlite3_finalize(r->unique);
	sqlite3_finalize(r->all);
	if (r->txn)
		sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL);
	free(r->creator_col);
	free(r->pop_col);
	rec_strs_free(&r->tag_cols);
	rec_jq_free(r->o.by);
	rec_jq_free(r->o.where);
	rec_buf_free(&r->view);
	rec_buf_free(&r->err);
	free(r);
}

/* with a fusion: which streams ranked each item, and where */
static void
provenance(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	const struct rec_pool *p = r->pool;
	struct rec_hash srcs = {0};
	size_t *rank = xcalloc(p->n + 1, sizeof *rank);
	size_t *cnt = xcalloc(p->n + 1, sizeof *cnt);
	char **label = xcalloc(p->n + 1, sizeof *label);
	size_t i, j;

	for (j = 0; j < p->n; j++) {
		size_t k, len = 1;
		const char *s = rec_pool_src(p, j, &r->zone, &len);
		k = rec_hash_put(&srcs, s ? s : "?", len, NULL);
		rank[j] = ++cnt[k];
		label[j] = srcs.key[k];
	}
	for (i = 0; i < n; i++) {
		struct rec_buf b = {0};
		for (j = p->first[c[i].uid]; j != (size_t)-1; j = p->next[j])
			rec_buf_printf(&b, "%s%s #%zu", b.len ? ", " : "",
			    label[j], rank[j]);
		add_why(&c[i], "ranked by %s", b.data);
		rec_buf_free(&b);
	}
	free(rank);
	free(cnt);
	free(label);
	rec_hash_free(&srcs);
}

/* removals: unwanted, seen, --where; returns the count left */
static size_t
removals(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	const struct rec_pool *p = r->pool;
	struct rec_hash unw = {0};
	size_t i, j;

	for (i = 0; i < r->o.unwanted.n; i++)
		rec_hash_put(&unw, r->o.unwanted.v[i],
		    strlen(r->o.unwanted.v[i]), NULL);
	if (r->o.seen_user)
		rec_ranker_history(r, r->o.seen_user, 1, NULL);
	for (i = j = 0; i < n; i++) {
		const char *id = p->ids.key[c[i].uid];
		size_t len = p->ids.keylen[c[i].uid];
		int keep = (!unw.n || rec_hash_get(&unw, id, len) ==
		    (size_t)-1) && (!r->o.seen_user ||
		    item_at(r, r->gid[c[i].uid])->seen != r->stamp);
		if (keep && r->o.where) {
			msgpack_object o;
			jq_view(r, &c[i], &o);
			if (!rec_jq_truth(r->o.where, &o, &keep, &r->err))
				jq_die(r, "--where");
		}
		if (keep)
			c[j++] = c[i];
		else
			free(c[i].why);
	}
	rec_hash_free(&unw);
	return j;
}

/* --unique: the same song twice (two releases, two sources): the
 * better placed stays */
static size_t
unique(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	char **key = unique_keys(r, c, n);
	struct rec_hash h = {0};
	size_t i, j;

	for (i = j = 0; i < n; i++) {
		int added = 1;
		if (key[i])
			rec_hash_put(&h, key[i], strlen(key[i]), &added);
		if (added)
			c[j++] = c[i];
		else
			free(c[i].why);
		free(key[i]);
	}
	free(key);
	rec_hash_free(&h);
	return j;
}

/* --diversify: at most per candidates for each value of the field; a
 * value naming several ("Lady Gaga, Beyoncé", "A feat. B") counts as
 * its first name, so one artist's duets do not get round the cap */
static size_t
diversify(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	const struct rec_pool *p = r->pool;
	char **key = xcalloc(n + 1, sizeof *key);
	size_t i, m;

	for (i = 0; i < n; i++) {
		const char *id = p->ids.key[c[i].uid];
		size_t len = p->ids.keylen[c[i].uid], k = r->gid[c[i].uid];

		if (!(item_at(r, k)->has & HAS_DIVKEY)) {
			char *v = rec_ranker_field(r, r->o.diversify, id, len), *dk = NULL;
			if (v) {
				struct rec_buf b = {0};
				rec_song_key(&b, v, 1);
				dk = b.data ? b.data : xstrdup("");
				free(v);
			}
			item_at(r, k)->divkey = dk;
			item_at(r, k)->has |= HAS_DIVKEY;
		}
		key[i] = item_at(r, k)->divkey;	/* borrowed */
	}
	m = rec_rank_cap(c, n, key, r->o.per);
	free(key);
	return m;
}

/* --alternate: the best candidate each of the sources found, in
 * turn, then the next of each, and so on, in the places those
 * candidates had; those none of them found keep theirs.  "Hip hop or
 * ska": one search's best-known would otherwise fill the list before
 * the other's first. */
static void
alternate(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	const struct rec_pool *p = r->pool;
	const struct rec_strs *a = &r->o.alternate;
	unsigned *mask = xcalloc(p->ids.n + 1, sizeof *mask);
	size_t *pos = xcalloc(a->n + 1, sizeof *pos);
	struct rec_cand *out = xcalloc(n + 1, sizeof *out);
	char *done = xcalloc(n + 1, 1);
	size_t i, j, m = 0, more = 1;
	msgpack_zone zone;

	msgpack_zone_init(&zone, 1024);
	for (i = 0; i < p->n; i++) {
		size_t u, len;
		const char *s = rec_pool_src(p, i, &zone, &len);
		if (!s)
			continue;
		u = rec_hash_get(&p->ids, p->raw.data + p->idoff[i],
		    p->idlen[i]);
		for (j = 0; j < a->n && j < 32; j++)
			if (strlen(a->v[j]) == len && !memcmp(a->v[j], s, len))
				mask[u] |= 1u << j;
	}
	msgpack_zone_destroy(&zone);
	while (more)
		for (more = j = 0; j < a->n && j < 32; j++) {
			while (pos[j] < n && (done[pos[j]] ||
			    !(mask[c[pos[j]].uid] >> j & 1)))
				pos[j]++;
			if (pos[j] < n) {
				out[m++] = c[pos[j]];
				done[pos[j]] = more = 1;
			}
		}
	/* into the places those items had: the others keep theirs */
	for (i = j = 0; i < n && j < m; i++)
		if (done[i])
			c[i] = out[j++];
	free(mask);
	free(pos);
	free(out);
	free(done);
}

/* --mmr over the vectors of --space, for the first k */
static void
mmr(struct rec_ranker *r, struct rec_cand *c, size_t n, size_t k)
{
	const struct rec_pool *p = r->pool;
	int dim = rec_catalog_space(r->db, r->o.space);
	float **vec, *store;
	size_t i;

	if (!dim)
		rec_die("no vector space '%s' in the catalog (add one with "
		    "rec-import vectors)", r->o.space);
	store = xcalloc(n * (size_t)dim + 1, sizeof *store);
	vec = xcalloc(n + 1, sizeof *vec);
	for (i = 0; i < n; i++)
		if (rec_catalog_vector(r->db, r->o.space, p->ids.key[c[i].uid],
		    p->ids.keylen[c[i].uid], store + i * (size_t)dim, dim))
			vec[i] = store + i * (size_t)dim;
	rec_rank_mmr(c, n, (const float *const *)vec, (size_t)dim, r->o.mmr,
	    k);
	free(vec);
	free(store);
}

void
rec_ranker_cut(struct rec_ranker *r, int has, double cut)
{
	r->has_cut = has;
	r->cut = cut;
}

int
rec_ranker_sure(const struct rec_ranker *r)
{
	return r->sure;
}

/* Whether the list of a cut pool is the whole pool's.  The records left
 * out scored between lo, the last record's (the lowest of the list), and
 * r->cut.  With the last record kept by the removals, lo and hi are the
 * whole pool's, so every candidate ranked has the score it would have
 * had; one left out would have had at most its scaled score plus the
 * largest boosts (an affinity of 0.5 per creator and per tags the
 * catalog has, a novelty of 1).  Sorting puts everything scored below
 * the limit-th candidate after it, and the per-value caps and --unique
 * keep the first of each in that order, so such candidates change
 * nothing before it: the list is the whole one's when the bound is
 * below the limit-th's score (by a margin for rounding). */
static int
cut_sure(const struct rec_ranker *r, const struct rec_cand *c, size_t n,
    double lo, double hi, int last_kept)
{
	const struct rec_rank_opts *o = &r->o;
	double ub, amax, t;

	if (o->fuse.mode != REC_FUSE_BEST || o->by || o->where ||
	    o->mmr >= 0 || o->alternate.n || !last_kept || !o->limit ||
	    o->limit == (size_t)-1 || n < o->limit || !(r->cut >= lo))
		return 0;
	t = c[o->limit - 1].r.score;
	if (o->user || o->like.n || o->novelty > 0) {
		amax = (r->creator_col ? 0.5 : 0) + (r->tag_cols.n ? 0.5 : 0);
		ub = hi > lo ? (r->cut - lo) / (hi - lo) : 1;
		if (o->user)
			ub += o->personal * amax;
		if (o->like.n)
			ub += o->like_weight * amax;
		if (o->novelty > 0)
			ub = (1 - o->novelty) * ub / (1 + (o->user ?
			    o->personal : 0) + (o->like.n ? o->like_weight :
			    0)) + o->novelty;
	} else
		ub = r->cut;
	return ub + 1e-9 * (fabs(ub) + 1) < t;
}

void
rec_ranker_user(struct rec_ranker *r, const char *user,
    const char *seen_user)
{
	r->o.user = user;
	r->o.seen_user = seen_user;
}

size_t
rec_ranker_rank(struct rec_ranker *r, const struct rec_pool *p,
    struct rec_cand **out)
{
	const struct rec_rank_opts *o = &r->o;
	struct rec_cand *c;
	size_t n, i;
	double cut_lo = 0, cut_hi = 0;
	int last_kept = 0;

	r->pool = p;
	msgpack_zone_init(&r->zone, 4096);
	if (++r->stamp == 0) {
		/* a new stamp for this list; on wrapping, none is current */
		for (i = 0; i < r->items.n; i++)
			item_at(r, i)->seen = 0;
		r->stamp = 1;
	}
	if (r->db) {
		/* the pool's ids once into the ranker's items: the stages
		 * below find an item by its index */
		if (p->ids.n + 1 > r->capgid) {
			r->capgid = p->ids.n + 1;
			r->gid = xrealloc(r->gid, r->capgid * sizeof *r->gid);
		}
		for (i = 0; i < p->ids.n; i++)
			r->gid[i] = item_index(r, p->ids.key[i],
			    p->ids.keylen[i]);
	}
	n = rec_fuse(p, &o->fuse, &c);
	if (o->fuse.mode != REC_FUSE_BEST)
		provenance(r, c, n);
	n = removals(r, c, n);
	if (r->has_cut && p->n) {
		/* the pool's last record, the lowest of the cut list: its
		 * id once in the pool, kept, its score the lowest */
		size_t last = rec_hash_get(&p->ids, p->raw.data +
		    p->idoff[p->n - 1], p->idlen[p->n - 1]), at = n;
		cut_lo = INFINITY;
		cut_hi = -INFINITY;
		for (i = 0; i < n; i++) {
			if (c[i].r.score < cut_lo)
				cut_lo = c[i].r.score;
			if (c[i].r.score > cut_hi)
				cut_hi = c[i].r.score;
			if (c[i].uid == last)
				at = i;
		}
		last_kept = at < n && p->first[last] == p->n - 1 &&
		    c[at].r.score == cut_lo;
	}
	if (o->by)
		for (i = 0; i < n; i++) {
			msgpack_object obj;
			jq_view(r, &c[i], &obj);
			if (!rec_jq_number(o->by, &obj, &c[i].r.score, &r->err))
				jq_die(r, "--by");
		}
	if ((o->user || o->like.n || o->novelty > 0) && n)
		rec_ranker_boosts(r, c, n);
	rec_rank_sort(c, n);
	if (o->unique)
		n = unique(r, c, n);
	if (o->diversify)
		n = diversify(r, c, n);
	if (o->alternate.n)
		alternate(r, c, n);
	if (o->mmr >= 0)
		mmr(r, c, n, o->limit < n ? o->limit : n);
	r->sure = !r->has_cut || cut_sure(r, c, n, cut_lo, cut_hi, last_kept);
	for (i = o->limit; i < n; i++)
		free(c[i].why);
	if (n > o->limit)
		n = o->limit;
	write_reasons(c, n);
	msgpack_zone_destroy(&r->zone);
	r->pool = NULL;
	*out = c;
	return n;
}
