/*
 * fuse.c: what the last stage does to lists without the catalog: rank
 * fusion of concatenated streams, the stable sort, per-value caps and
 * maximal marginal relevance.  rank.c's ranker runs them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"

static double
weight_of(const struct rec_fuse_opts *o, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < o->nw; i++)
		if (strlen(o->wsrc[i]) == n && !memcmp(o->wsrc[i], src, n))
			return o->w[i];
	return 1.0;
}

size_t
rec_fuse(const struct rec_pool *p, const struct rec_fuse_opts *o,
    struct rec_cand **out)
{
	struct rec_hash srcs = {0};
	size_t *srank, *rank, *src, i, n = p->ids.n;
	double *lo, *hi, *acc;
	char *seen;
	msgpack_zone zone;
	struct rec_cand *c;

	src = xcalloc(p->n + 1, sizeof *src);
	rank = xcalloc(p->n + 1, sizeof *rank);
	msgpack_zone_init(&zone, 1024);
	/* the best score of an id needs no sources: records unpacked
	 * again only for a fusion */
	for (i = 0; i < p->n && o->mode != REC_FUSE_BEST; i++) {
		size_t len = 0;
		const char *s = rec_pool_src(p, i, &zone, &len);
		src[i] = rec_hash_put(&srcs, s ? s : "", len, NULL);
	}
	msgpack_zone_destroy(&zone);
	srank = xcalloc(srcs.n + 1, sizeof *srank);
	lo = xcalloc(srcs.n + 1, sizeof *lo);
	hi = xcalloc(srcs.n + 1, sizeof *hi);
	for (i = 0; i < srcs.n; i++) {
		lo[i] = INFINITY;
		hi[i] = -INFINITY;
	}
	for (i = 0; i < p->n; i++) {
		rank[i] = ++srank[src[i]];	/* 1 = first of its stream */
		if (p->score[i] < lo[src[i]])
			lo[src[i]] = p->score[i];
		if (p->score[i] > hi[src[i]])
			hi[src[i]] = p->score[i];
	}
	c = xcalloc(n + 1, sizeof *c);
	acc = xcalloc(n + 1, sizeof *acc);
	seen = xcalloc(n + 1, 1);
	for (i = 0; i < p->n; i++) {
		size_t u = rec_hash_get(&p->ids, p->raw.data + p->idoff[i],
		    p->idlen[i]);
		size_t s = src[i];
		double w = 1, v = 1;

		if (o->mode != REC_FUSE_BEST) {
			w = weight_of(o, srcs.key[s], srcs.keylen[s]);
			if (hi[s] > lo[s])
				v = (p->score[i] - lo[s]) / (hi[s] - lo[s]);
		}
		switch (o->mode) {
		case REC_FUSE_RRF:
			acc[u] += w / (o->rrf_k + (double)rank[i]);
			break;
		case REC_FUSE_SUM:
			acc[u] += w * v;
			break;
		case REC_FUSE_MAX:
			if (!seen[u] || w * v > acc[u])
				acc[u] = w * v;
			break;
		default:
			if (!seen[u] || p->score[i] > acc[u])
				acc[u] = p->score[i];
		}
		seen[u] = 1;
	}
	for (i = 0; i < n; i++) {
		c[i].uid = i;
		c[i].r.index = p->first[i];
		c[i].r.score = acc[i];
	}
	free(src);
	free(rank);
	free(srank);
	free(lo);
	free(hi);
	free(acc);
	free(seen);
	rec_hash_free(&srcs);
	*out = c;
	return n;
}

void
rec_rank_sort(struct rec_cand *c, size_t n)
{
	rec_scored_sort(c, n, sizeof *c);
}

size_t
rec_rank_cap(struct rec_cand *c, size_t n, char *const *key, size_t per)
{
	struct rec_hash h = { .vsize = sizeof(size_t) };
	size_t *count, i, j = 0, k;

	for (i = 0; i < n; i++) {
		if (key[i]) {
			k = rec_hash_put(&h, key[i], strlen(key[i]), NULL);
			count = h.val;
			if (count[k] >= per) {
				free(c[i].why);
				continue;
			}
			count[k]++;
		}
		c[j++] = c[i];
	}
	rec_hash_free(&h);
	return j;
}

static double
cosine(const float *a, const float *b, size_t dim)
{
	double ab = 0, aa = 0, bb = 0;
	size_t i;

	for (i = 0; i < dim; i++) {
		ab += (double)a[i] * b[i];
		aa += (double)a[i] * a[i];
		bb += (double)b[i] * b[i];
	}
	return aa > 0 && bb > 0 ? ab / sqrt(aa * bb) : 0;
}

void
rec_rank_mmr(struct rec_cand *c, size_t n, const float *const *vec,
    size_t dim, double lambda, size_t k)
{
	double lo = INFINITY, hi = -INFINITY, *maxsim;
	const float **v;
	size_t i, j, best;

	if (n < 2)
		return;
	for (i = 0; i < n; i++) {
		if (c[i].r.score < lo)
			lo = c[i].r.score;
		if (c[i].r.score > hi)
			hi = c[i].r.score;
	}
	maxsim = xcalloc(n, sizeof *maxsim);
	v = xcalloc(n, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i] = vec[i];
		maxsim[i] = 0;
	}
	if (k > n)
		k = n;
	for (i = 0; i < k; i++) {
		double bv = -INFINITY;
		best = i;
		for (j = i; j < n; j++) {
			double rel = hi > lo ? (c[j].r.score - lo) /
			    (hi - lo) : 1;
			double m = lambda * rel - (1 - lambda) * maxsim[j];
			if (m > bv) {
				bv = m;
				best = j;
			}
		}
		if (best != i) {
			struct rec_cand t = c[best];
			const float *tv = v[best];
			double ts = maxsim[best];
			/* move best to i, keeping the others in order */
			memmove(c + i + 1, c + i, (best - i) * sizeof *c);
			memmove(v + i + 1, v + i, (best - i) * sizeof *v);
			memmove(maxsim + i + 1, maxsim + i, (best - i) *
			    sizeof *maxsim);
			c[i] = t;
			v[i] = tv;
			maxsim[i] = ts;
		}
		for (j = i + 1; j < n; j++)
			if (v[i] && v[j]) {
				double s = cosine(v[i], v[j], dim);
				if (s > maxsim[j])
					maxsim[j] = s;
			}
	}
	free(maxsim);
	free(v);
}
