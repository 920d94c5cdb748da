/*
 * bench/dense.c: exact top-100 search against the machine's memory
 * bandwidth, measured with a plain read loop over the same matrix in the
 * same run; and IVF recall@10 and speed-up on clustered data.
 *
 * usage: dense N DIM QUERIES
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rec.h"
#include "bench.h"

static uint64_t rng = 7;

static float
unif(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (float)((rng >> 11) * (1.0 / 9007199254740992.0)) - 0.5f;
}

__attribute__((target_clones("avx512f", "avx2", "default")))
static float
read_all(const float *m, size_t n)
{
	float s[16] = { 0 };
	size_t i, j;

	for (i = 0; i + 16 <= n; i += 16)
		for (j = 0; j < 16; j++)
			s[j] += m[i + j];
	for (j = 1; j < 16; j++)
		s[0] += s[j];
	return s[0];
}

int
main(int argc, char **argv)
{
	size_t n, dim, nq, i, j, r;
	float *m, *q, sink = 0;
	double *t, bw, best = 1e9;
	struct rec_scored *h = xmalloc(100 * sizeof *h);

	rec_init(argc, argv);
	if (argc != 4)
		rec_usage_die("usage: dense N DIM QUERIES");
	n = (size_t)atol(argv[1]);
	dim = (size_t)atol(argv[2]);
	nq = (size_t)atol(argv[3]);
	m = xmalloc(n * dim * sizeof *m);
	for (i = 0; i < n * dim; i++)
		m[i] = unif();
	q = xmalloc(dim * sizeof *q);
	t = xmalloc(nq * sizeof *t);
	/* the bandwidth: the best of 5 plain passes over the matrix */
	for (r = 0; r < 5; r++) {
		double t0 = now();
		sink += read_all(m, n * dim);
		t0 = now() - t0;
		if (t0 < best)
			best = t0;
	}
	bw = n * dim * 4.0 / best;
	for (i = 0; i < nq; i++) {
		double t0;
		for (j = 0; j < dim; j++)
			q[j] = unif();
		t0 = now();
		rec_dense_topk(m, n, dim, q, NULL, NULL, 100, h);
		t[i] = now() - t0;
		sink += h[0].score;
	}
	qsort(t, nq, sizeof *t, cmp_d);
	printf("%8zu x %4zu  read loop %6.2f GB/s  top-100 median %8.3f ms  "
	    "%6.2f GB/s  %5.1f%% of the read loop\n", n, dim, bw / 1e9,
	    t[nq / 2] * 1e3, n * dim * 4.0 / t[nq / 2] / 1e9,
	    100 * (n * dim * 4.0 / t[nq / 2]) / bw);
	if (n <= 200000) {
		/* IVF on clustered data: 1,000 centres, points around them */
		size_t nc = 1000, nlist = 256, probes[] = { 4, 16, 64 }, pi;
		float *cen = xmalloc(nc * dim * sizeof *cen);
		struct rec_ivf ix;
		struct rec_scored *e = xmalloc(10 * sizeof *e);
		double tb;
		for (i = 0; i < nc * dim; i++)
			cen[i] = unif() * 4;
		for (i = 0; i < n; i++) {
			size_t c = (size_t)((unif() + 0.5f) * (float)nc) % nc;
			for (j = 0; j < dim; j++)
				m[i * dim + j] = cen[c * dim + j] + unif() * 0.5f;
		}
		tb = now();
		rec_ivf_build(&ix, m, n, dim, nlist, 1);
		tb = now() - tb;
		printf("  IVF on clustered data, %zu lists, built in %.1f s:\n",
		    nlist, tb);
		for (pi = 0; pi < 3; pi++) {
			double te = 0, ta = 0, hit = 0;
			for (i = 0; i < nq; i++) {
				size_t src = (size_t)((unif() + 0.5f) *
				    (float)n) % n, a, b;
				double t0;
				for (j = 0; j < dim; j++)
					q[j] = m[src * dim + j] + unif() * 0.1f;
				t0 = now();
				rec_dense_topk(m, n, dim, q, NULL, NULL, 10, e);
				te += now() - t0;
				t0 = now();
				rec_ivf_search(&ix, q, NULL, probes[pi], 10, h);
				ta += now() - t0;
				for (a = 0; a < 10; a++)
					for (b = 0; b < 10; b++)
						hit += e[a].index == h[b].index;
			}
			printf("    nprobe %4zu: recall@10 %.3f, %.1fx faster "
			    "than exact\n", probes[pi], hit / (10.0 * nq),
			    te / ta);
		}
		rec_ivf_free(&ix);
		free(cen);
		free(e);
	}
	if (sink == 12345.678f)
		putchar(' ');
	free(m);
	free(q);
	free(t);
	free(h);
	return 0;
}
