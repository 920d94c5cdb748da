/*
 * cfusers.c: a trained model held in memory to score many users in one
 * process (rec-cf --users), each user's list the one rec-cf --user
 * gives.  Item-item models (ItemKNN, EASE kept sparse) score a user as
 * one row of a sparse product, the user's items times the neighbour
 * matrix, with a dense accumulator reset only where it was touched
 * (Gustavson's row-by-row product); factor models (ALS, BPR) score a
 * block of users against a tile of items at a time, so the item vectors
 * are read once per block and not once per user.
 *
 * Same answers as one user at a time: the sums are taken in the same
 * order (the user's items as the catalog lists them, each one's
 * neighbours by rank; the factors one after the other, in double), ties
 * go the same way (to the item met first), so the scores are the same
 * doubles.  Memory: the model, plus per block its users' items and their
 * best k, whatever the number of users.
 */
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"

/* items of a dense tile: the vectors of a tile stay in cache while the
 * block's users are scored against them */
#define TILE 256

static const char *const purpose = "reading the model";

void
rec_cf_model_load(struct rec_cf_model *m, struct rec_catalog *cat,
    const char *model, const char *kind)
{
	sqlite3_stmt *st;
	size_t cap = 0, n = 0;

	memset(m, 0, sizeof *m);
	m->ids.vsize = 0;
	if (!strcmp(kind, "itemknn") || !strcmp(kind, "ease")) {
		st = rec_catalog_prepare(cat, "SELECT item, neighbor, sim FROM "
		    "knn WHERE model = ? ORDER BY item, rank", purpose);
		sqlite3_bind_text(st, 1, model, -1, SQLITE_STATIC);
		m->first = xcalloc(1, sizeof *m->first);
		while (rec_catalog_step(cat, st, purpose)) {
			size_t it = rec_hash_put(&m->ids, (const char *)
			    sqlite3_column_text(st, 0),
			    (size_t)sqlite3_column_bytes(st, 0), NULL);
			size_t nb = rec_hash_put(&m->ids, (const char *)
			    sqlite3_column_text(st, 1),
			    (size_t)sqlite3_column_bytes(st, 1), NULL);
			if (n == cap) {
				cap = cap ? cap * 2 : 4096;
				m->nbr = xrealloc(m->nbr, cap * sizeof *m->nbr);
				m->sim = xrealloc(m->sim, cap * sizeof *m->sim);
				m->from = xrealloc(m->from, cap *
				    sizeof *m->from);
			}
			m->from[n] = (uint32_t)it;
			m->nbr[n] = (uint32_t)nb;
			m->sim[n] = sqlite3_column_double(st, 2);
			n++;
		}
		sqlite3_reset(st);
		/* the rows by item: the scan gives each item's neighbours
		 * together, in rank order */
		m->n = m->ids.n;
		m->first = xrealloc(m->first, (m->n + 1) * sizeof *m->first);
		m->count = xcalloc(m->n + 1, sizeof *m->count);
		for (size_t i = 0; i < m->n; i++)
			m->first[i] = (uint64_t)-1;
		for (size_t i = 0; i < n; i++) {
			if (m->first[m->from[i]] == (uint64_t)-1)
				m->first[m->from[i]] = i;
			m->count[m->from[i]]++;
		}
		free(m->from);
		m->from = NULL;
		m->nnz = n;
		return;
	}
	/* als, bpr: the item vectors in the order of the table */
	m->dim = (size_t)rec_catalog_space(cat->db, model);
	if (!m->dim)
		rec_die("model '%s' has no item factors (retrain it)", model);
	st = rec_catalog_prepare(cat, "SELECT id, vec FROM vectors WHERE "
	    "space = ?", purpose);
	sqlite3_bind_text(st, 1, model, -1, SQLITE_STATIC);
	while (rec_catalog_step(cat, st, purpose)) {
		if ((size_t)sqlite3_column_bytes(st, 1) != m->dim * 4)
			continue;	/* as rec-cf --user skips it */
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			m->V = xrealloc(m->V, cap * m->dim * sizeof *m->V);
		}
		rec_hash_put(&m->ids, (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), NULL);
		if (m->ids.n != n + 1)
			rec_die("model '%s': item '%s' twice", model,
			    sqlite3_column_text(st, 0));
		memcpy(m->V + n * m->dim, sqlite3_column_blob(st, 1),
		    m->dim * 4);
		n++;
	}
	sqlite3_reset(st);
	m->n = n;
}

void
rec_cf_model_free(struct rec_cf_model *m)
{
	free(m->first);
	free(m->count);
	free(m->nbr);
	free(m->sim);
	free(m->from);
	free(m->V);
	rec_hash_free(&m->ids);
	memset(m, 0, sizeof *m);
}

/* ---- scoring ---- */

struct rec_cf_scorer {
	const struct rec_cf_model *m;
	size_t k;
	/* per item, for the user being scored (stamp says which) */
	double *s, *best;
	uint32_t *bseed, *stamp, *seedmark, *order;
	uint32_t cur;
	uint32_t *touched;
	size_t ntouched;
	struct rec_scored *heap;	/* the best k of one user */
	float *q;			/* factors: the block's user vectors */
	struct rec_scored *heaps;	/* factors: k per user of the block */
	size_t *nheap;
	size_t block;
};

struct rec_cf_scorer *
rec_cf_scorer_new(const struct rec_cf_model *m, size_t k, size_t block)
{
	struct rec_cf_scorer *c = xcalloc(1, sizeof *c);

	c->m = m;
	c->k = k;
	c->block = block ? block : 1;
	c->stamp = xcalloc(m->n + 1, sizeof *c->stamp);
	c->seedmark = xcalloc(m->n + 1, sizeof *c->seedmark);
	if (!m->dim) {
		c->s = xcalloc(m->n + 1, sizeof *c->s);
		c->best = xcalloc(m->n + 1, sizeof *c->best);
		c->bseed = xcalloc(m->n + 1, sizeof *c->bseed);
		c->order = xcalloc(m->n + 1, sizeof *c->order);
		c->touched = xcalloc(m->n + 1, sizeof *c->touched);
		c->heap = xcalloc(k + 1, sizeof *c->heap);
	} else {
		c->q = xcalloc(c->block * m->dim + 1, sizeof *c->q);
		c->heaps = xcalloc(c->block * (k + 1), sizeof *c->heaps);
		c->nheap = xcalloc(c->block + 1, sizeof *c->nheap);
	}
	return c;
}

void
rec_cf_scorer_free(struct rec_cf_scorer *c)
{
	if (!c)
		return;
	free(c->s);
	free(c->best);
	free(c->bseed);
	free(c->order);
	free(c->stamp);
	free(c->seedmark);
	free(c->touched);
	free(c->heap);
	free(c->q);
	free(c->heaps);
	free(c->nheap);
	free(c);
}

/* a new stamp; all zero again when it wraps */
static uint32_t
next_stamp(struct rec_cf_scorer *c)
{
	if (++c->cur == 0) {
		memset(c->stamp, 0, c->m->n * sizeof *c->stamp);
		memset(c->seedmark, 0, c->m->n * sizeof *c->seedmark);
		c->cur = 1;
	}
	return c->cur;
}

size_t
rec_cf_score_items(struct rec_cf_scorer *c, const struct rec_hash *seeds,
    struct rec_cf_hit *out)
{
	const struct rec_cf_model *m = c->m;
	uint32_t cur = next_stamp(c), *ix;
	size_t s, i, nh = 0;

	ix = xcalloc(seeds->n + 1, sizeof *ix);
	for (s = 0; s < seeds->n; s++) {
		size_t t = rec_hash_get(&m->ids, seeds->key[s],
		    seeds->keylen[s]);
		ix[s] = t == (size_t)-1 ? (uint32_t)-1 : (uint32_t)t;
		if (t != (size_t)-1)
			c->seedmark[t] = cur;
	}
	c->ntouched = 0;
	for (s = 0; s < seeds->n; s++) {
		uint64_t j, end;
		if (ix[s] == (uint32_t)-1 || m->first[ix[s]] == (uint64_t)-1)
			continue;
		j = m->first[ix[s]];
		for (end = j + m->count[ix[s]]; j < end; j++) {
			uint32_t nb = m->nbr[j];
			double v = m->sim[j];
			if (c->seedmark[nb] == cur)
				continue;
			if (c->stamp[nb] != cur) {
				c->stamp[nb] = cur;
				c->s[nb] = 0;
				c->best[nb] = 0;
				c->bseed[nb] = 0;
				c->order[nb] = (uint32_t)c->ntouched;
				c->touched[c->ntouched++] = nb;
			}
			c->s[nb] += v;
			if (v > c->best[nb]) {
				c->best[nb] = v;
				c->bseed[nb] = (uint32_t)s;
			}
		}
	}
	free(ix);
	for (i = 0; i < c->ntouched; i++)
		rec_topk_push(c->heap, &nh, c->k, c->s[c->touched[i]], i);
	rec_scored_sort(c->heap, nh, sizeof *c->heap);
	for (i = 0; i < nh; i++) {
		uint32_t it = c->touched[c->heap[i].index];
		out[i].item = it;
		out[i].score = c->heap[i].score;
		out[i].seed = c->bseed[it];
	}
	return nh;
}

/* the dot product of a user and an item, as rec-cf --user takes it */
static double
dot(const float *q, const float *v, size_t dim)
{
	double d = 0;
	size_t j;

	for (j = 0; j < dim; j++)
		d += (double)q[j] * v[j];
	return d;
}

/* four users against one item: four sums side by side, each in the
 * order dot() takes */
static void
dot4(const float *q, size_t dim, const float *v, double *d)
{
	double a = 0, b = 0, e = 0, f = 0;
	size_t j;

	for (j = 0; j < dim; j++) {
		double x = v[j];
		a += (double)q[j] * x;
		b += (double)q[dim + j] * x;
		e += (double)q[2 * dim + j] * x;
		f += (double)q[3 * dim + j] * x;
	}
	d[0] = a;
	d[1] = b;
	d[2] = e;
	d[3] = f;
}

void
rec_cf_score_factors(struct rec_cf_scorer *c, const float *const *users,
    const struct rec_hash *const *seeds, size_t nu, struct rec_cf_hit **out,
    size_t *nout)
{
	const struct rec_cf_model *m = c->m;
	size_t dim = m->dim, u, t, i, b0, words = (m->n + 63) / 64;
	uint64_t *seen = xcalloc(c->block * words + 1, sizeof *seen);

	/* block by block: the users' vectors side by side, then every tile
	 * of items against all of them */
	for (b0 = 0; b0 < nu; b0 += c->block) {
		size_t nb = nu - b0 < c->block ? nu - b0 : c->block;
		memset(seen, 0, nb * words * sizeof *seen);
		for (u = 0; u < nb; u++) {
			const struct rec_hash *sd = seeds[b0 + u];
			memcpy(c->q + u * dim, users[b0 + u], dim * sizeof *c->q);
			c->nheap[u] = 0;
			for (i = 0; i < sd->n; i++) {
				size_t x = rec_hash_get(&m->ids, sd->key[i],
				    sd->keylen[i]);
				if (x != (size_t)-1)
					seen[u * words + x / 64] |=
					    (uint64_t)1 << (x % 64);
			}
		}
		for (t = 0; t < m->n; t += TILE) {
			size_t te = t + TILE < m->n ? t + TILE : m->n;
			for (u = 0; u < nb; u += 4) {
				size_t w = nb - u < 4 ? nb - u : 4;
				for (i = t; i < te; i++) {
					const float *v = m->V + i * dim;
					double d[4];
					size_t x;
					if (w == 4)
						dot4(c->q + u * dim, dim, v, d);
					else
						for (x = 0; x < w; x++)
							d[x] = dot(c->q + (u + x) *
							    dim, v, dim);
					for (x = 0; x < w; x++) {
						if (seen[(u + x) * words + i / 64] &
						    ((uint64_t)1 << (i % 64)))
							continue;
						rec_topk_push(c->heaps + (u + x) *
						    (c->k + 1), &c->nheap[u + x],
						    c->k, d[x], i);
					}
				}
			}
		}
		for (u = 0; u < nb; u++) {
			struct rec_scored *h = c->heaps + u * (c->k + 1);
			rec_scored_sort(h, c->nheap[u], sizeof *h);
			for (i = 0; i < c->nheap[u]; i++) {
				out[b0 + u][i].item = (uint32_t)h[i].index;
				out[b0 + u][i].score = h[i].score;
				out[b0 + u][i].seed = 0;
			}
			nout[b0 + u] = c->nheap[u];
		}
	}
	free(seen);
}
