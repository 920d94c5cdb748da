/*
 * dense.c: embedding search.  One query over a matrix reads every byte
 * of it once, so exact search is bound by memory bandwidth: the kernel
 * keeps the reduction in vector registers (target_clones picks AVX-512
 * or AVX2 where the CPU has them, so the binary still runs anywhere)
 * and streams the rows in order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"

/* the dot product of two vectors: 8 running sums let the compiler keep
 * the reduction in vector registers without -ffast-math */
__attribute__((target_clones("avx512f", "avx2", "default")))
static float
dot(const float *a, const float *b, size_t dim)
{
	float s[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	size_t i, j;

	for (i = 0; i + 8 <= dim; i += 8)
		for (j = 0; j < 8; j++)
			s[j] += a[i + j] * b[i + j];
	for (; i < dim; i++)
		s[0] += a[i] * b[i];
	return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

/* row r's score s for the best k in out */
static inline void
offer(struct rec_scored *out, size_t *nh, size_t k, float s, size_t r)
{
	/* most rows lose to the k-th: one compare, no heap work */
	if (*nh == k && s < out[0].score)
		return;
	rec_topk_push(out, nh, k, s, r);
}

size_t
rec_dense_topk(const float *m, size_t n, size_t dim, const float *q,
    const float *invnorm, const unsigned char *allow, size_t k,
    struct rec_scored *out)
{
	size_t r, nh = 0;
	float s;

	if (!k)
		return 0;
	for (r = 0; r < n; r++) {
		if (allow && !allow[r])
			continue;
		s = dot(m + r * dim, q, dim);
		if (invnorm)
			s *= invnorm[r];
		offer(out, &nh, k, s, r);
	}
	rec_scored_sort(out, nh, sizeof *out);
	return nh;
}

void
rec_ivf_build(struct rec_ivf *ix, const float *m, size_t n, size_t dim,
    size_t nlist, uint64_t seed)
{
	uint16_t *code = xmalloc((n + 1) * sizeof *code);
	struct rec_rvq_level st;
	size_t i, j, *fill, ns;
	float *cc;

	if (nlist > n)
		nlist = n ? n : 1;
	if (nlist > 65535)
		nlist = 65535;
	ix->nlist = nlist;
	ix->dim = dim;
	ix->centroid = xcalloc(nlist * dim + 1, sizeof *ix->centroid);
	/* k-means (one level of the residual quantiser) on a sample of 20
	 * rows per list, evenly spread; then every row to its nearest */
	ns = n < 20 * nlist ? n : 20 * nlist;
	{
		float *sample = xmalloc(ns * dim * sizeof *sample + 1);
		for (i = 0; i < ns; i++)
			memcpy(sample + i * dim, m + (i * (n / ns)) * dim,
			    dim * sizeof *sample);
		rec_rvq_train(sample, ns, dim, 1, nlist, seed, 10,
		    ix->centroid, code, &st, 0);
		free(sample);
	}
	cc = xmalloc((nlist + 1) * sizeof *cc);
	for (j = 0; j < nlist; j++)
		cc[j] = dot(ix->centroid + j * dim, ix->centroid + j * dim, dim);
	for (i = 0; i < n; i++) {
		float best = -INFINITY, v;
		size_t bj = 0;
		for (j = 0; j < nlist; j++) {
			/* nearest: the largest 2 x.c - |c|^2 */
			v = 2 * dot(m + i * dim, ix->centroid + j * dim, dim) -
			    cc[j];
			if (v > best) {
				best = v;
				bj = j;
			}
		}
		code[i] = (uint16_t)bj;
	}
	free(cc);
	ix->start = xcalloc(nlist + 1, sizeof *ix->start);
	for (i = 0; i < n; i++)
		ix->start[code[i] + 1]++;
	for (i = 0; i < nlist; i++)
		ix->start[i + 1] += ix->start[i];
	fill = xmalloc((nlist + 1) * sizeof *fill);
	memcpy(fill, ix->start, nlist * sizeof *fill);
	ix->list = xmalloc((n + 1) * sizeof *ix->list);
	for (i = 0; i < n; i++)
		ix->list[fill[code[i]]++] = (uint32_t)i;
	ix->data = xmalloc(n * dim * sizeof *ix->data + 1);
	for (i = 0; i < n; i++)
		memcpy(ix->data + i * dim, m + (size_t)ix->list[i] * dim,
		    dim * sizeof *ix->data);
	free(fill);
	free(code);
}

size_t
rec_ivf_search(const struct rec_ivf *ix, const float *q,
    const float *invnorm, size_t nprobe, size_t k, struct rec_scored *out)
{
	struct rec_scored *near = xmalloc((nprobe + 1) * sizeof *near);
	size_t np, p, j, nh = 0;
	float *negd = xmalloc((ix->nlist + 1) * sizeof *negd);


	/* the nearest lists by distance to their centroids */
	for (j = 0; j < ix->nlist; j++) {
		const float *c = ix->centroid + j * ix->dim;
		negd[j] = 2 * dot(c, q, ix->dim) - dot(c, c, ix->dim);
	}
	np = rec_dense_topk(negd, ix->nlist, 1, &(float){ 1 }, NULL, NULL,
	    nprobe, near);
	for (p = 0; p < np; p++) {
		size_t l = near[p].index;
		for (j = ix->start[l]; j < ix->start[l + 1]; j++) {
			uint32_t r = ix->list[j];
			float s = dot(ix->data + j * ix->dim, q, ix->dim);
			if (invnorm)
				s *= invnorm[r];
			offer(out, &nh, k, s, r);
		}
	}
	rec_scored_sort(out, nh, sizeof *out);
	free(near);
	free(negd);
	return nh;
}

void
rec_ivf_free(struct rec_ivf *ix)
{
	free(ix->centroid);
	free(ix->list);
	free(ix->start);
	free(ix->data);
	memset(ix, 0, sizeof *ix);
}
