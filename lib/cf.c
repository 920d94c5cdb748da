/*
 * cf.c: the models of "people who played this also played": ItemKNN
 * (item-item cosine with shrinkage) and implicit ALS, over a sparse
 * user x item matrix of who interacted with what.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"

struct pair {
	uint32_t r, c;
};

static int
cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->r != y->r)
		return x->r < y->r ? -1 : 1;
	return x->c < y->c ? -1 : x->c > y->c;
}

void
rec_csr_build(struct rec_csr *m, uint32_t nrows, uint32_t ncols,
    const uint32_t *row, const uint32_t *col, size_t n)
{
	struct pair *p = xmalloc((n + 1) * sizeof *p);
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		p[i].r = row[i];
		p[i].c = col[i];
	}
	if (n)
		qsort(p, n, sizeof *p, cmp_pair);
	m->nrows = nrows;
	m->ncols = ncols;
	m->ptr = xcalloc((size_t)nrows + 1, sizeof *m->ptr);
	m->idx = xmalloc((n + 1) * sizeof *m->idx);
	for (i = 0; i < n; i++) {
		if (k && p[i].r == p[i - 1].r && p[i].c == p[i - 1].c)
			continue;	/* a repeat */
		m->idx[k++] = p[i].c;
		m->ptr[p[i].r + 1]++;
	}
	for (i = 0; i < nrows; i++)
		m->ptr[i + 1] += m->ptr[i];
	free(p);
}

void
rec_csr_transpose(const struct rec_csr *m, struct rec_csr *t)
{
	uint64_t *fill;
	uint32_t r;
	uint64_t j;

	t->nrows = m->ncols;
	t->ncols = m->nrows;
	t->ptr = xcalloc((size_t)t->nrows + 1, sizeof *t->ptr);
	t->idx = xmalloc((m->ptr[m->nrows] + 1) * sizeof *t->idx);
	for (j = 0; j < m->ptr[m->nrows]; j++)
		t->ptr[m->idx[j] + 1]++;
	for (r = 0; r < t->nrows; r++)
		t->ptr[r + 1] += t->ptr[r];
	fill = xmalloc(((size_t)t->nrows + 1) * sizeof *fill);
	memcpy(fill, t->ptr, (size_t)t->nrows * sizeof *fill);
	for (r = 0; r < m->nrows; r++)	/* rows ascending: columns sorted */
		for (j = m->ptr[r]; j < m->ptr[r + 1]; j++)
			t->idx[fill[m->idx[j]]++] = r;
	free(fill);
}

void
rec_csr_free(struct rec_csr *m)
{
	free(m->ptr);
	free(m->idx);
	memset(m, 0, sizeof *m);
}

/* keep the k best (sim, then lower item) in a min-heap */
static void
knn_push(uint32_t *hn, float *hs, size_t *n, size_t k, uint32_t item,
    float s)
{
	size_t i, c;

#define WORSE(as, an, bs, bn) ((as) < (bs) || ((as) == (bs) && (an) > (bn)))
	if (*n < k) {
		for (i = (*n)++; i > 0 && WORSE(s, item, hs[(i - 1) / 2],
		    hn[(i - 1) / 2]); i = (i - 1) / 2) {
			hs[i] = hs[(i - 1) / 2];
			hn[i] = hn[(i - 1) / 2];
		}
		hs[i] = s;
		hn[i] = item;
		return;
	}
	if (!WORSE(hs[0], hn[0], s, item))
		return;
	for (i = 0; (c = 2 * i + 1) < *n; i = c) {
		if (c + 1 < *n && WORSE(hs[c + 1], hn[c + 1], hs[c], hn[c]))
			c++;
		if (!WORSE(hs[c], hn[c], s, item))
			break;
		hs[i] = hs[c];
		hn[i] = hn[c];
	}
	hs[i] = s;
	hn[i] = item;
#undef WORSE
}

void
rec_itemknn_train(const struct rec_csr *ui, size_t k, double shrink,
    uint32_t *nbr, float *sim, uint32_t *cnt, int progress)
{
	struct rec_csr iu;
	uint32_t *co = xcalloc((size_t)ui->ncols + 1, sizeof *co);
	uint32_t *touched = xmalloc(((size_t)ui->ncols + 1) * sizeof *touched);
	uint32_t i, j, nt;
	uint64_t a, b;

	rec_csr_transpose(ui, &iu);
	for (i = 0; i < ui->ncols; i++) {
		uint32_t *hn = nbr + (size_t)i * k;
		float *hs = sim + (size_t)i * k;
		size_t n = 0, x, y;
		double ni = (double)(iu.ptr[i + 1] - iu.ptr[i]);

		nt = 0;
		for (a = iu.ptr[i]; a < iu.ptr[i + 1]; a++) {
			uint32_t u = iu.idx[a];
			for (b = ui->ptr[u]; b < ui->ptr[u + 1]; b++) {
				j = ui->idx[b];
				if (j == i)
					continue;
				if (!co[j]++)
					touched[nt++] = j;
			}
		}
		for (x = 0; x < nt; x++) {
			double nj;
			j = touched[x];
			nj = (double)(iu.ptr[j + 1] - iu.ptr[j]);
			knn_push(hn, hs, &n, k, j, (float)(co[j] /
			    (sqrt(ni * nj) + shrink)));
			co[j] = 0;
		}
		/* the heap, sorted best first */
		for (x = 0; x < n; x++)
			for (y = x + 1; y < n; y++)
				if (hs[y] > hs[x] || (hs[y] == hs[x] &&
				    hn[y] < hn[x])) {
					float ts = hs[x];
					uint32_t tn = hn[x];
					hs[x] = hs[y];
					hn[x] = hn[y];
					hs[y] = ts;
					hn[y] = tn;
				}
		cnt[i] = (uint32_t)n;
		if (progress && i % 1000 == 0)
			fprintf(stderr, "\r%s: itemknn %u of %u", rec_progname,
			    i, ui->ncols);
	}
	if (progress)
		fprintf(stderr, "\r%s: itemknn %u of %u\n", rec_progname,
		    ui->ncols, ui->ncols);
	free(co);
	free(touched);
	rec_csr_free(&iu);
}

/* solves A x = b for symmetric positive definite A (f x f, overwritten
 * by its Cholesky factor) */
static void
cholesky_solve(double *A, double *x, size_t f)
{
	size_t i, j, k;

	for (j = 0; j < f; j++) {
		double d = A[j * f + j];
		for (k = 0; k < j; k++)
			d -= A[j * f + k] * A[j * f + k];
		d = d > 1e-12 ? sqrt(d) : 1e-6;
		A[j * f + j] = d;
		for (i = j + 1; i < f; i++) {
			double s = A[i * f + j];
			for (k = 0; k < j; k++)
				s -= A[i * f + k] * A[j * f + k];
			A[i * f + j] = s / d;
		}
	}
	for (i = 0; i < f; i++) {		/* L y = b */
		double s = x[i];
		for (k = 0; k < i; k++)
			s -= A[i * f + k] * x[k];
		x[i] = s / A[i * f + i];
	}
	for (i = f; i-- > 0;) {			/* L^T x = y */
		double s = x[i];
		for (k = i + 1; k < f; k++)
			s -= A[k * f + i] * x[k];
		x[i] = s / A[i * f + i];
	}
}

/* one half-step: solve every row of X against the fixed Y */
static void
als_side(const struct rec_csr *m, float *X, const float *Y, size_t ny,
    size_t f, double lambda, double alpha)
{
	double *YtY = xcalloc(f * f, sizeof *YtY);
	double *A = xmalloc(f * f * sizeof *A), *b = xmalloc(f * sizeof *b);
	size_t i, j, r;
	uint64_t e;

	for (r = 0; r < ny; r++)
		for (i = 0; i < f; i++)
			for (j = 0; j <= i; j++)
				YtY[i * f + j] += (double)Y[r * f + i] *
				    Y[r * f + j];
	for (i = 0; i < f; i++)
		for (j = 0; j < i; j++)
			YtY[j * f + i] = YtY[i * f + j];
	for (r = 0; r < m->nrows; r++) {
		memcpy(A, YtY, f * f * sizeof *A);
		memset(b, 0, f * sizeof *b);
		for (e = m->ptr[r]; e < m->ptr[r + 1]; e++) {
			const float *y = Y + (size_t)m->idx[e] * f;
			for (i = 0; i < f; i++) {
				b[i] += (1 + alpha) * y[i];
				for (j = 0; j < f; j++)
					A[i * f + j] += alpha * y[i] * y[j];
			}
		}
		for (i = 0; i < f; i++)
			A[i * f + i] += lambda;
		cholesky_solve(A, b, f);
		for (i = 0; i < f; i++)
			X[r * f + i] = (float)b[i];
	}
	free(YtY);
	free(A);
	free(b);
}

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

void
rec_als_train(const struct rec_csr *ui, size_t f, int iters,
    double lambda, double alpha, uint64_t seed, float *U, float *V,
    int progress)
{
	struct rec_csr iu;
	uint64_t s = seed ? seed : 1;
	size_t i;
	int it;

	rec_csr_transpose(ui, &iu);
	for (i = 0; i < (size_t)ui->ncols * f; i++)
		V[i] = (float)((xorshift(&s) >> 11) *
		    (1.0 / 9007199254740992.0) - 0.5) * 0.1f;
	memset(U, 0, (size_t)ui->nrows * f * sizeof *U);
	for (it = 0; it < iters; it++) {
		als_side(ui, U, V, ui->ncols, f, lambda, alpha);
		als_side(&iu, V, U, ui->nrows, f, lambda, alpha);
		if (progress)
			fprintf(stderr, "\r%s: als iteration %d of %d",
			    rec_progname, it + 1, iters);
	}
	if (progress)
		fputc('\n', stderr);
	rec_csr_free(&iu);
}

static int
has_item(const struct rec_csr *m, uint32_t r, uint32_t c)
{
	uint64_t lo = m->ptr[r], hi = m->ptr[r + 1];

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (m->idx[mid] == c)
			return 1;
		if (m->idx[mid] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void
rec_bpr_train(const struct rec_csr *ui, size_t f, int epochs,
    double rate, double reg, uint64_t seed, float *U, float *V,
    int progress)
{
	uint64_t s = seed ? seed : 1, nnz = ui->ptr[ui->nrows], t, e;
	uint32_t *owner = xmalloc((nnz + 1) * sizeof *owner);
	size_t i, b = f - 1;
	uint32_t u;
	int ep;

	for (u = 0; u < ui->nrows; u++)
		for (e = ui->ptr[u]; e < ui->ptr[u + 1]; e++)
			owner[e] = u;
	for (i = 0; i < (size_t)ui->nrows * f; i++)
		U[i] = (float)((xorshift(&s) >> 11) *
		    (1.0 / 9007199254740992.0) - 0.5) * 0.1f;
	for (i = 0; i < (size_t)ui->ncols * f; i++)
		V[i] = (float)((xorshift(&s) >> 11) *
		    (1.0 / 9007199254740992.0) - 0.5) * 0.1f;
	for (u = 0; u < ui->nrows; u++)
		U[(size_t)u * f + b] = 1;	/* the bias slot */
	for (i = 0; i < ui->ncols; i++)
		V[i * f + b] = 0;
	for (ep = 0; ep < epochs && nnz && ui->ncols > 1; ep++) {
		for (t = 0; t < nnz; t++) {
			uint64_t pick = xorshift(&s) % nnz;
			uint32_t pos = ui->idx[pick], neg;
			float *pu, *pi, *pj, x = 0, g;
			size_t k;
			int tries = 0;

			u = owner[pick];
			if (ui->ptr[u + 1] - ui->ptr[u] >= ui->ncols)
				continue;	/* had everything */
			do
				neg = (uint32_t)(xorshift(&s) % ui->ncols);
			while (has_item(ui, u, neg) && ++tries < 100);
			if (tries == 100)
				continue;
			pu = U + (size_t)u * f;
			pi = V + (size_t)pos * f;
			pj = V + (size_t)neg * f;
			for (k = 0; k < f; k++)
				x += pu[k] * (pi[k] - pj[k]);
			/* d/dx log sigmoid(x) = 1 - sigmoid(x) */
			g = (float)(rate / (1 + exp(x)));
			for (k = 0; k < b; k++) {
				float wu = pu[k], wi = pi[k], wj = pj[k];
				pu[k] += g * (wi - wj) - (float)(rate * reg) * wu;
				pi[k] += g * wu - (float)(rate * reg) * wi;
				pj[k] += -g * wu - (float)(rate * reg) * wj;
			}
			pi[b] += g - (float)(rate * reg) * pi[b];
			pj[b] += -g - (float)(rate * reg) * pj[b];
		}
		if (progress)
			fprintf(stderr, "\r%s: bpr epoch %d of %d", rec_progname,
			    ep + 1, epochs);
	}
	if (progress)
		fputc('\n', stderr);
	free(owner);
}
