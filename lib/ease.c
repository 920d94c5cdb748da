/*
 * ease.c: EASE (Steck 2019), the closed-form item-item model
 * B = I - P diag(1 / diag P), P = (X^T X + lambda I)^-1.
 *
 * All of the cost is inverting one items x items matrix, n^3 flops: at
 * 10,000 items a naive loop would take most of an hour, so the inverse
 * is a blocked sweep (Gauss-Jordan on a symmetric positive definite
 * matrix, no pivoting needed): each block step is one rank-96 update of
 * the lower triangle, done by a register-tiled kernel that
 * target_clones builds for AVX-512, AVX2 and plain x86-64.  Single
 * precision is enough: lambda on the diagonal bounds the condition
 * number (largest eigenvalue + lambda) / lambda.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "retrieve.h"

#define NB 96		/* block step: a multiple of MR and NR */
#define MR 6		/* kernel rows */
#define NR 16		/* kernel columns: one AVX-512 vector */
#define JB 256		/* columns per pass, so a pass of X stays in L2 */

typedef float v16 __attribute__((vector_size(64)));

/* C (6 x 16, row stride ldc) -= Y (6 x nb, row stride nb) times the
 * packed panel Xp (nb x 16) */
static inline __attribute__((always_inline)) void
kernel(float *C, size_t ldc, const float *Y, const float *Xp, size_t nb)
{
	v16 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, a4 = {0}, a5 = {0}, b, c;
	size_t k;

	for (k = 0; k < nb; k++) {
		memcpy(&b, Xp + k * NR, sizeof b);
		a0 += Y[k] * b;
		a1 += Y[nb + k] * b;
		a2 += Y[2 * nb + k] * b;
		a3 += Y[3 * nb + k] * b;
		a4 += Y[4 * nb + k] * b;
		a5 += Y[5 * nb + k] * b;
	}
#define STORE(r, a) do { memcpy(&c, C + (r) * ldc, sizeof c); c -= (a); \
	memcpy(C + (r) * ldc, &c, sizeof c); } while (0)
	STORE(0, a0);
	STORE(1, a1);
	STORE(2, a2);
	STORE(3, a3);
	STORE(4, a4);
	STORE(5, a5);
#undef STORE
}

/* A -= Y Xp^T on (at least) the lower triangle of the n x n matrix A */
__attribute__((target_clones("avx512f", "avx2", "default")))
static void
rank_update(float *A, size_t n, const float *Y, const float *Xp)
{
	size_t jb, i, p, pend;

	for (jb = 0; jb < n; jb += JB) {
		pend = (jb + JB < n ? jb + JB : n) / NR;
		for (i = jb - jb % MR; i < n; i += MR)
			for (p = jb / NR; p < pend && p * NR < i + MR; p++)
				kernel(A + i * n + p * NR, n, Y + i * NB,
				    Xp + p * NR * NB, NB);
	}
}

/* inverts the symmetric positive definite m x m matrix a in place
 * (Cholesky, then L^-T L^-1); 0 if it is not positive definite */
static int
small_inverse(double *a, size_t m)
{
	double *l = xcalloc(m * m, sizeof *l), *w = xcalloc(m * m, sizeof *w);
	size_t i, j, k;
	int ok = 1;

	for (j = 0; j < m && ok; j++) {
		double d = a[j * m + j];
		for (k = 0; k < j; k++)
			d -= l[j * m + k] * l[j * m + k];
		if (!(d > 0)) {
			ok = 0;
			break;
		}
		l[j * m + j] = sqrt(d);
		for (i = j + 1; i < m; i++) {
			double s = a[i * m + j];
			for (k = 0; k < j; k++)
				s -= l[i * m + k] * l[j * m + k];
			l[i * m + j] = s / l[j * m + j];
		}
	}
	if (ok) {
		for (j = 0; j < m; j++) {	/* w = L^-1, column by column */
			w[j * m + j] = 1 / l[j * m + j];
			for (i = j + 1; i < m; i++) {
				double s = 0;
				for (k = j; k < i; k++)
					s -= l[i * m + k] * w[k * m + j];
				w[i * m + j] = s / l[i * m + i];
			}
		}
		for (i = 0; i < m; i++)		/* a = w^T w */
			for (j = 0; j <= i; j++) {
				double s = 0;
				for (k = i; k < m; k++)
					s += w[k * m + i] * w[k * m + j];
				a[i * m + j] = a[j * m + i] = s;
			}
	}
	free(l);
	free(w);
	return ok;
}

int
rec_spd_inverse(float *A, size_t n, int progress)
{
	float *X = xmalloc(n * NB * sizeof *X), *Y = xmalloc(n * NB * sizeof *Y);
	float *Xp = xmalloc(n * NB * sizeof *Xp);
	double *D = xmalloc(NB * NB * sizeof *D);
	size_t K, r, j, i, p;
	int ok = 1;

	if (n % NB)
		rec_die("rec_spd_inverse: %zu is not a multiple of %d", n, NB);
	for (K = 0; K < n && ok; K += NB) {
		/* X = the block column K, read through the lower triangle */
		for (j = 0; j < NB; j++) {
			const float *row = A + (K + j) * n;
			for (r = 0; r < K + j; r++)
				X[r * NB + j] = row[r];
			for (r = K + j; r < n; r++)
				X[r * NB + j] = A[r * n + K + j];
		}
		for (i = 0; i < NB; i++)
			for (j = 0; j < NB; j++)
				D[i * NB + j] = X[(K + i) * NB + j];
		if (!small_inverse(D, NB)) {
			ok = 0;
			break;
		}
		for (r = 0; r < n; r++)		/* Y = X D^-1 */
			for (j = 0; j < NB; j++) {
				double s = 0;
				for (i = 0; i < NB; i++)
					s += (double)X[r * NB + i] * D[i * NB + j];
				Y[r * NB + j] = (float)s;
			}
		for (p = 0; p < n / NR; p++)	/* Xp: panels of 16 rows of X */
			for (i = 0; i < NB; i++)
				for (j = 0; j < NR; j++)
					Xp[p * NR * NB + i * NR + j] =
					    X[(p * NR + j) * NB + i];
		rank_update(A, n, Y, Xp);
		/* the pivot's own row and column */
		for (r = K; r < n; r++)
			for (j = 0; j < NB && K + j <= r; j++)
				A[r * n + K + j] = r < K + NB ?
				    (float)-D[(r - K) * NB + j] : Y[r * NB + j];
		for (i = 0; i < NB; i++)
			for (r = 0; r < K; r++)
				A[(K + i) * n + r] = Y[r * NB + i];
		if (progress)
			fprintf(stderr, "\r%s: ease inverse %zu of %zu",
			    rec_progname, K / NB + 1, n / NB);
	}
	if (progress)
		fputc('\n', stderr);
	/* A holds -A^-1 in its lower triangle: negate and mirror */
	for (i = 0; i < n && ok; i++) {
		for (j = 0; j < i; j++)
			A[j * n + i] = A[i * n + j] = -A[i * n + j];
		A[i * n + i] = -A[i * n + i];
	}
	free(X);
	free(Y);
	free(Xp);
	free(D);
	return ok;
}

size_t
rec_spd_size(size_t n)
{
	return (n + NB - 1) / NB * NB;
}

float *
rec_ease_matrix(const struct rec_csr *ui, double lambda, size_t *ldp,
    int progress)
{
	size_t ni = ui->ncols, ld = rec_spd_size(ni), i, j;
	float *A, *d;
	uint32_t u;
	uint64_t a, b;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	double need = (double)ld * (double)ld * sizeof *A;

	/* the model is dense: say so before trying, not "out of memory"
	 * halfway */
	if (pages > 0 && psize > 0 && need > 0.8 * (double)pages * psize)
		rec_die("ease: %zu items need %.1f GB for the item x item matrix,"
		    " more than this machine has (use itemknn or als)", ni,
		    need / 1e9);
	A = xcalloc(ld * ld, sizeof *A);

	/* the Gram matrix X^T X, lower triangle, plus lambda I; the padding
	 * is the identity, a block of its own */
	for (u = 0; u < ui->nrows; u++)
		for (a = ui->ptr[u]; a < ui->ptr[u + 1]; a++)
			for (b = ui->ptr[u]; b <= a; b++)
				A[(size_t)ui->idx[a] * ld + ui->idx[b]] += 1;
	for (i = 0; i < ni; i++)
		A[i * ld + i] += (float)lambda;
	for (; i < ld; i++)
		A[i * ld + i] = 1;
	if (!rec_spd_inverse(A, ld, progress))
		rec_die("ease: the Gram matrix is not positive definite (raise "
		    "--lambda)");
	/* B[i][j] = -P[i][j] / P[j][j], B[j][j] = 0 */
	d = xmalloc((ld + 1) * sizeof *d);
	for (j = 0; j < ld; j++)
		d[j] = A[j * ld + j];
	for (i = 0; i < ld; i++)
		for (j = 0; j < ld; j++)
			A[i * ld + j] = i == j ? 0 : -A[i * ld + j] / d[j];
	free(d);
	*ldp = ld;
	return A;
}

void
rec_ease_topk(const float *B, size_t ld, size_t ni, size_t k, uint32_t *nbr,
    float *sim, uint32_t *cnt)
{
	size_t i, j, n, x;

	/* the k largest weights; negative ones are dropped: on MOVIES,
	 * keeping the 100 of largest size instead lost 8% of HR@10
	 * (bench/cfeval, lambda 100) */
	for (i = 0; i < ni; i++) {
		uint32_t *hn = nbr + i * k;
		float *hs = sim + i * k;
		const float *row = B + i * ld;
		n = 0;
		for (j = 0; j < ni; j++) {
			float s = row[j];
			if (j == i || !(s > 0))
				continue;
			/* insertion into the best k, kept sorted */
			if (n == k && !(s > hs[k - 1]))
				continue;
			x = n < k ? n++ : k - 1;
			for (; x > 0 && s > hs[x - 1]; x--) {
				hs[x] = hs[x - 1];
				hn[x] = hn[x - 1];
			}
			hs[x] = s;
			hn[x] = (uint32_t)j;
		}
		cnt[i] = (uint32_t)n;
	}
}

void
rec_ease_train(const struct rec_csr *ui, double lambda, size_t k,
    uint32_t *nbr, float *sim, uint32_t *cnt, int progress)
{
	size_t ld;
	float *B = rec_ease_matrix(ui, lambda, &ld, progress);

	rec_ease_topk(B, ld, ui->ncols, k, nbr, sim, cnt);
	free(B);
}
