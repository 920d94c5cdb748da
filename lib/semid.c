/*
 * semid.c: residual vector quantisation (RVQ).  Each level clusters what
 * the levels before it left unexplained, so an item's codes read from
 * coarse to fine, and items that share a prefix are alike: the semantic
 * IDs of TalkPlay-Tools' generative retrieval.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"

static uint64_t
next(uint64_t *s)
{
	/* xorshift64*: small, fast, and the same on every machine */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static double
unit(uint64_t *s)
{
	return (next(s) >> 11) * (1.0 / 9007199254740992.0);
}

static double
dist2(const float *a, const float *b, size_t dim)
{
	double d = 0;
	size_t i;

	for (i = 0; i < dim; i++) {
		double t = (double)a[i] - b[i];
		d += t * t;
	}
	return d;
}

/* k-means++ seeding (Arthur and Vassilvitskii 2007) */
static void
seed_centres(const float *r, size_t n, size_t dim, size_t k, float *c,
    uint64_t *rng, double *d)
{
	size_t i, j, pick;
	double sum, u;

	pick = (size_t)(unit(rng) * n);
	memcpy(c, r + pick * dim, dim * sizeof *c);
	for (i = 0; i < n; i++)
		d[i] = dist2(r + i * dim, c, dim);
	for (j = 1; j < k; j++) {
		for (sum = 0, i = 0; i < n; i++)
			sum += d[i];
		if (sum <= 0)
			pick = (size_t)(unit(rng) * n);
		else {
			u = unit(rng) * sum;
			for (pick = 0; pick + 1 < n && u >= d[pick]; pick++)
				u -= d[pick];
		}
		memcpy(c + j * dim, r + pick * dim, dim * sizeof *c);
		for (i = 0; i < n; i++) {
			double t = dist2(r + i * dim, c + j * dim, dim);
			if (t < d[i])
				d[i] = t;
		}
	}
}

void
rec_rvq_train(const float *x, size_t n, size_t dim, size_t levels,
    size_t ncodes, uint64_t seed, int iters, float *codebook,
    uint16_t *codes, struct rec_rvq_level *stats, int progress)
{
	float *r = xmalloc(n * dim * sizeof *r + 1);
	double *d = xmalloc(n * sizeof *d + 1), *sum, var = 0;
	size_t *count = xcalloc(ncodes, sizeof *count), *assign;
	uint64_t rng = seed ? seed : 0x853c49e6748fea9bull;
	size_t l, i, j, c, changed;
	double *mean = xcalloc(dim, sizeof *mean);
	int it;

	assign = xcalloc(n + 1, sizeof *assign);
	sum = xcalloc(ncodes * dim, sizeof *sum);
	memcpy(r, x, n * dim * sizeof *r);
	for (i = 0; i < n; i++)
		for (j = 0; j < dim; j++)
			mean[j] += x[i * dim + j] / (double)n;
	for (i = 0; i < n; i++)
		for (j = 0; j < dim; j++) {
			double t = x[i * dim + j] - mean[j];
			var += t * t / (double)n;
		}
	for (l = 0; l < levels; l++) {
		float *cb = codebook + l * ncodes * dim;

		seed_centres(r, n, dim, ncodes, cb, &rng, d);
		for (i = 0; i < n; i++)
			assign[i] = (size_t)-1;
		for (it = 0; it < iters; it++) {
			changed = 0;
			for (i = 0; i < n; i++) {
				double best = INFINITY;
				size_t bc = 0;
				for (c = 0; c < ncodes; c++) {
					double t = dist2(r + i * dim,
					    cb + c * dim, dim);
					if (t < best) {
						best = t;
						bc = c;
					}
				}
				d[i] = best;
				changed += assign[i] != bc;
				assign[i] = bc;
			}
			if (!changed)
				break;
			memset(sum, 0, ncodes * dim * sizeof *sum);
			memset(count, 0, ncodes * sizeof *count);
			for (i = 0; i < n; i++) {
				count[assign[i]]++;
				for (j = 0; j < dim; j++)
					sum[assign[i] * dim + j] +=
					    r[i * dim + j];
			}
			for (c = 0; c < ncodes; c++) {
				if (!count[c]) {
					/* an empty cluster takes the point
					 * worst served, deterministically */
					size_t far = 0;
					for (i = 1; i < n; i++)
						if (d[i] > d[far])
							far = i;
					memcpy(cb + c * dim, r + far * dim,
					    dim * sizeof *cb);
					d[far] = 0;
					continue;
				}
				for (j = 0; j < dim; j++)
					cb[c * dim + j] = (float)(sum[c * dim + j]
					    / (double)count[c]);
			}
		}
		/* final assignment against the final centres */
		memset(count, 0, ncodes * sizeof *count);
		for (i = 0; i < n; i++) {
			double best = INFINITY;
			size_t bc = 0;
			for (c = 0; c < ncodes; c++) {
				double t = dist2(r + i * dim, cb + c * dim, dim);
				if (t < best) {
					best = t;
					bc = c;
				}
			}
			codes[i * levels + l] = (uint16_t)bc;
			count[bc]++;
			for (j = 0; j < dim; j++)
				r[i * dim + j] -= cb[bc * dim + j];
		}
		{
			double err = 0, ent = 0;
			size_t used = 0;
			for (i = 0; i < n; i++)
				for (j = 0; j < dim; j++)
					err += (double)r[i * dim + j] *
					    r[i * dim + j] / (double)n;
			for (c = 0; c < ncodes; c++)
				if (count[c]) {
					double p = (double)count[c] / n;
					used++;
					ent -= p * log2(p);
				}
			stats[l].error = var > 0 ? err / var : 0;
			stats[l].use = (double)used / ncodes;
			stats[l].entropy = ncodes > 1 ? ent / log2(ncodes) : 0;
		}
		if (progress)
			fprintf(stderr, "\r%s: level %zu of %zu", rec_progname,
			    l + 1, levels);
	}
	if (progress)
		fputc('\n', stderr);
	free(r);
	free(d);
	free(sum);
	free(count);
	free(assign);
	free(mean);
}
