/*
 * textenc.c: the catalog's own text encoder, so that text and items
 * share one vector space without a model server.
 *
 * Word vectors come from the catalog's text (Levy, Goldberg and Dagan
 * 2015): words that appear in the same item's text co-occur; the
 * co-occurrences become positive pointwise mutual information (context
 * counts smoothed to the power 0.75), which a randomised truncated SVD
 * (Halko, Martinsson and Tropp 2011) reduces to dim dimensions, word
 * vectors U sqrt(S).  Words seen once have no reliable neighbours and
 * are left out; they and words never seen are read through subword
 * pieces (character 3- and 4-grams of "<word>", hashed into buckets,
 * as fastText does), each the mean of the vectors of the known words
 * that contain it.  A text is the idf-weighted sum of its words'
 * vectors, normalised, so "calm piano" lands near items tagged soft and
 * piano even where the word calm is missing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"

/* calls fn on each token of text (folded, split on spaces), two bytes
 * or longer */
static void
tokens(const char *text, struct rec_buf *norm,
    void (*fn)(const char *, size_t, void *), void *ctx)
{
	const char *p, *s;

	rec_buf_reset(norm);
	if (text)
		rec_norm(norm, text, strlen(text));
	for (p = norm->data; p && *p; p = *s ? s + 1 : s) {
		s = strchr(p, ' ');
		if (!s)
			s = p + strlen(p);
		if (s - p >= 2)
			fn(p, (size_t)(s - p), ctx);
	}
}

static uint32_t
fnv(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* the buckets of the 3- and 4-grams of "<w>"; returns how many (at most
 * max) */
static size_t
grams(const char *w, size_t n, uint32_t *out, size_t max)
{
	char buf[130];
	size_t len, g, i, k = 0;

	if (n > 128)
		n = 128;
	buf[0] = '<';
	memcpy(buf + 1, w, n);
	buf[n + 1] = '>';
	len = n + 2;
	for (g = 3; g <= 4; g++)
		for (i = 0; i + g <= len && k < max; i++)
			out[k++] = fnv(buf + i, g) % REC_TEXT_BUCKETS;
	return k;
}

/* ---- training ---- */

struct collect {
	struct rec_hash *vocab;	/* adding: a document frequency per word */
	uint32_t *row;		/* token ids of the current document */
	size_t nrow, caprow;
	int adding;
};

static void
collect_token(const char *w, size_t n, void *ctx)
{
	struct collect *c = ctx;
	size_t t, i;

	if (c->adding)
		t = rec_hash_put(c->vocab, w, n, NULL);
	else if ((t = rec_hash_get(c->vocab, w, n)) == (size_t)-1)
		return;
	for (i = 0; i < c->nrow; i++)
		if (c->row[i] == t)
			return;
	if (c->nrow == c->caprow) {
		c->caprow = c->caprow ? c->caprow * 2 : 64;
		c->row = xrealloc(c->row, c->caprow * sizeof *c->row);
	}
	c->row[c->nrow++] = (uint32_t)t;
}

static uint64_t
next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* orthonormalises the k columns of Y (n x k, row-major) in place,
 * modified Gram-Schmidt twice for stability; a column that vanishes
 * is left zero */
static void
orthonormalise(double *Y, size_t n, size_t k)
{
	size_t a, b, i, pass;

	for (a = 0; a < k; a++) {
		for (pass = 0; pass < 2; pass++)
			for (b = 0; b < a; b++) {
				double d = 0;
				for (i = 0; i < n; i++)
					d += Y[i * k + a] * Y[i * k + b];
				for (i = 0; i < n; i++)
					Y[i * k + a] -= d * Y[i * k + b];
			}
		{
			double s = 0;
			for (i = 0; i < n; i++)
				s += Y[i * k + a] * Y[i * k + a];
			s = s > 1e-24 ? 1 / sqrt(s) : 0;
			for (i = 0; i < n; i++)
				Y[i * k + a] *= s;
		}
	}
}

/* eigenvalues (descending) and vectors (columns of V) of the symmetric
 * k x k matrix A, by cyclic Jacobi rotations */
static void
jacobi(double *A, double *V, double *ev, size_t k)
{
	size_t p, q, r, sweep;

	memset(V, 0, k * k * sizeof *V);
	for (p = 0; p < k; p++)
		V[p * k + p] = 1;
	for (sweep = 0; sweep < 100; sweep++) {
		double off = 0;
		for (p = 0; p < k; p++)
			for (q = p + 1; q < k; q++)
				off += A[p * k + q] * A[p * k + q];
		if (off < 1e-22)
			break;
		for (p = 0; p < k; p++)
			for (q = p + 1; q < k; q++) {
				double apq = A[p * k + q], th, t, c, s;
				if (fabs(apq) < 1e-300)
					continue;
				th = (A[q * k + q] - A[p * k + p]) / (2 * apq);
				t = (th >= 0 ? 1 : -1) / (fabs(th) +
				    sqrt(th * th + 1));
				c = 1 / sqrt(t * t + 1);
				s = t * c;
				for (r = 0; r < k; r++) {	/* columns */
					double ap = A[r * k + p], aq = A[r * k + q];
					A[r * k + p] = c * ap - s * aq;
					A[r * k + q] = s * ap + c * aq;
				}
				for (r = 0; r < k; r++) {	/* rows */
					double ap = A[p * k + r], aq = A[q * k + r];
					A[p * k + r] = c * ap - s * aq;
					A[q * k + r] = s * ap + c * aq;
				}
				for (r = 0; r < k; r++) {
					double vp = V[r * k + p], vq = V[r * k + q];
					V[r * k + p] = c * vp - s * vq;
					V[r * k + q] = s * vp + c * vq;
				}
			}
	}
	for (p = 0; p < k; p++)
		ev[p] = A[p * k + p];
	/* sort descending, columns of V with them */
	for (p = 0; p < k; p++)
		for (q = p + 1; q < k; q++)
			if (ev[q] > ev[p]) {
				double t = ev[p];
				ev[p] = ev[q];
				ev[q] = t;
				for (r = 0; r < k; r++) {
					t = V[r * k + p];
					V[r * k + p] = V[r * k + q];
					V[r * k + q] = t;
				}
			}
}

/* y (n x k) = M x (M: n x n sparse, x: n x k); with trans, M^T x */
static void
spmm(const struct rec_csr *m, const float *val, const double *x,
    double *y, size_t k, int trans)
{
	size_t r, j;
	uint64_t e;

	memset(y, 0, (size_t)m->nrows * k * sizeof *y);
	for (r = 0; r < m->nrows; r++)
		for (e = m->ptr[r]; e < m->ptr[r + 1]; e++) {
			size_t c = m->idx[e];
			double v = val[e];
			if (trans)
				for (j = 0; j < k; j++)
					y[c * k + j] += v * x[r * k + j];
			else
				for (j = 0; j < k; j++)
					y[r * k + j] += v * x[c * k + j];
		}
}

void
rec_textenc_train(struct rec_textenc *e, const char *const *docs,
    size_t ndocs, size_t dim, uint64_t seed, int progress)
{
	struct rec_hash all = { .vsize = sizeof(uint32_t) };
	struct collect c = {0};
	struct rec_buf norm = {0};
	uint32_t *row = NULL, *col = NULL;
	size_t n = 0, cap = 0, i, j, v, k, it;
	uint32_t *df;
	struct rec_csr dw, wd, M;
	float *val;
	double *ctx, total = 0, ctxsum = 0, *Om, *Y, *Z, *BBt, *E, *ev;
	uint64_t s = seed ? seed : 1, a, b;

	memset(e, 0, sizeof *e);
	/* the words of each document, and their document frequencies */
	c.vocab = &all;
	c.adding = 1;
	for (i = 0; i < ndocs; i++) {
		c.nrow = 0;
		tokens(docs[i], &norm, collect_token, &c);
		df = all.val;
		for (j = 0; j < c.nrow; j++)
			df[c.row[j]]++;
	}
	df = all.val;
	e->ndocs = ndocs;
	/* the vocabulary: words in two documents or more */
	for (i = 0; i < all.n; i++) {
		if (df[i] >= 2) {
			rec_hash_put(&e->words, all.key[i], all.keylen[i], NULL);
			e->idf = xrealloc(e->idf, e->words.n * sizeof *e->idf);
			e->idf[e->words.n - 1] = (float)log((double)(ndocs + 1) /
			    df[i]);
		}
	}
	v = e->words.n;
	e->dim = dim;
	if (v < 2)
		goto vectors;
	/* documents x words, then word-word co-occurrence by document */
	c.vocab = &e->words;
	c.adding = 0;
	for (i = 0; i < ndocs; i++) {
		c.nrow = 0;
		tokens(docs[i], &norm, collect_token, &c);
		for (j = 0; j < c.nrow; j++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 65536;
				row = xrealloc(row, cap * sizeof *row);
				col = xrealloc(col, cap * sizeof *col);
			}
			row[n] = (uint32_t)i;
			col[n++] = c.row[j];
		}
	}
	rec_csr_build(&dw, (uint32_t)ndocs, (uint32_t)v, row, col, n);
	rec_csr_transpose(&dw, &wd);
	{
		uint32_t *co = xcalloc(v + 1, sizeof *co);
		uint32_t *touched = xmalloc((v + 1) * sizeof *touched);
		size_t nt, cnn = 0, ccap = 0;
		uint32_t *mr = NULL, *mc = NULL;
		float *mv = NULL;

		ctx = xcalloc(v + 1, sizeof *ctx);
		for (i = 0; i < v; i++) {
			nt = 0;
			for (a = wd.ptr[i]; a < wd.ptr[i + 1]; a++) {
				uint32_t d = wd.idx[a];
				for (b = dw.ptr[d]; b < dw.ptr[d + 1]; b++) {
					j = dw.idx[b];
					if (j != i && !co[j]++)
						touched[nt++] = (uint32_t)j;
				}
			}
			for (j = 0; j < nt; j++) {
				uint32_t w = touched[j];
				if (cnn == ccap) {
					ccap = ccap ? ccap * 2 : 65536;
					mr = xrealloc(mr, ccap * sizeof *mr);
					mc = xrealloc(mc, ccap * sizeof *mc);
					mv = xrealloc(mv, ccap * sizeof *mv);
				}
				mr[cnn] = (uint32_t)i;
				mc[cnn] = w;
				mv[cnn++] = (float)co[w];
				ctx[w] += co[w];
				total += co[w];
				co[w] = 0;
			}
		}
		/* rows come out in order and columns are distinct: a CSR
		 * directly, columns sorted per row */
		M.nrows = M.ncols = (uint32_t)v;
		M.ptr = xcalloc(v + 1, sizeof *M.ptr);
		for (j = 0; j < cnn; j++)
			M.ptr[mr[j] + 1]++;
		for (i = 0; i < v; i++)
			M.ptr[i + 1] += M.ptr[i];
		M.idx = mc;
		val = mv;
		for (i = 0; i < v; i++) {	/* sort each row's columns */
			uint64_t x, y;
			for (x = M.ptr[i] + 1; x < M.ptr[i + 1]; x++) {
				uint32_t tc = M.idx[x];
				float tv = val[x];
				for (y = x; y > M.ptr[i] && M.idx[y - 1] > tc; y--) {
					M.idx[y] = M.idx[y - 1];
					val[y] = val[y - 1];
				}
				M.idx[y] = tc;
				val[y] = tv;
			}
		}
		free(mr);
		free(co);
		free(touched);
	}
	/* PPMI with context counts to the power 0.75 */
	for (i = 0; i < v; i++)
		ctxsum += pow(ctx[i], 0.75);
	for (i = 0; i < v; i++) {
		double rowsum = 0;
		for (a = M.ptr[i]; a < M.ptr[i + 1]; a++)
			rowsum += val[a];
		for (a = M.ptr[i]; a < M.ptr[i + 1]; a++) {
			double pmi = log((val[a] / total) / ((rowsum / total) *
			    (pow(ctx[M.idx[a]], 0.75) / ctxsum)));
			val[a] = pmi > 0 ? (float)pmi : 0;
		}
	}
	/* randomised SVD: a range for M from k random directions and
	 * three power iterations, then the exact SVD inside it */
	if (dim > v)
		dim = v;
	k = dim + 16 < v ? dim + 16 : v;
	Om = xmalloc(v * k * sizeof *Om);
	Y = xmalloc(v * k * sizeof *Y);
	Z = xmalloc(v * k * sizeof *Z);
	for (i = 0; i < v * k; i++)
		Om[i] = (double)(next(&s) >> 11) / 9007199254740992.0 - 0.5;
	spmm(&M, val, Om, Y, k, 0);
	orthonormalise(Y, v, k);
	for (it = 0; it < 3; it++) {
		spmm(&M, val, Y, Z, k, 1);
		orthonormalise(Z, v, k);
		spmm(&M, val, Z, Y, k, 0);
		orthonormalise(Y, v, k);
		if (progress)
			fprintf(stderr, "\r%s: text svd pass %zu of 3",
			    rec_progname, it + 1);
	}
	if (progress)
		fputc('\n', stderr);
	/* B = Q^T M (k x v) as Z^T = M^T Q; then B B^T = Z^T Z */
	spmm(&M, val, Y, Z, k, 1);
	BBt = xcalloc(k * k, sizeof *BBt);
	E = xmalloc(k * k * sizeof *E);
	ev = xmalloc(k * sizeof *ev);
	for (i = 0; i < v; i++)
		for (a = 0; a < k; a++)
			for (b = 0; b < k; b++)
				BBt[a * k + b] += Z[i * k + a] * Z[i * k + b];
	jacobi(BBt, E, ev, k);
	/* word vectors: (Q E)[:, :dim] sqrt(sigma), sigma = sqrt(ev) */
	e->wvec = xcalloc(v * e->dim + 1, sizeof *e->wvec);
	for (i = 0; i < v; i++) {
		double nn = 0;
		for (j = 0; j < dim; j++) {
			double x = 0, sg = ev[j] > 0 ? sqrt(sqrt(ev[j])) : 0;
			for (a = 0; a < k; a++)
				x += Y[i * k + a] * E[a * k + j];
			e->wvec[i * e->dim + j] = (float)(x * sg);
			nn += x * sg * x * sg;
		}
		nn = nn > 0 ? 1 / sqrt(nn) : 0;
		for (j = 0; j < dim; j++)
			e->wvec[i * e->dim + j] *= (float)nn;
	}
	free(Om);
	free(Y);
	free(Z);
	free(BBt);
	free(E);
	free(ev);
	free(ctx);
	free(val);
	rec_csr_free(&M);
	rec_csr_free(&dw);
	rec_csr_free(&wd);
vectors:
	if (!e->wvec)
		e->wvec = xcalloc(v * e->dim + 1, sizeof *e->wvec);
	/* subword buckets: the mean of the words that have the gram */
	e->gvec = xcalloc((size_t)REC_TEXT_BUCKETS * e->dim, sizeof *e->gvec);
	{
		uint32_t *gn = xcalloc(REC_TEXT_BUCKETS, sizeof *gn), g[260];
		size_t ng;
		for (i = 0; i < v; i++) {
			ng = grams(e->words.key[i], e->words.keylen[i], g, 260);
			for (j = 0; j < ng; j++) {
				for (a = 0; a < e->dim; a++)
					e->gvec[(size_t)g[j] * e->dim + a] +=
					    e->wvec[i * e->dim + a];
				gn[g[j]]++;
			}
		}
		for (j = 0; j < REC_TEXT_BUCKETS; j++)
			for (a = 0; gn[j] && a < e->dim; a++)
				e->gvec[j * e->dim + a] /= (float)gn[j];
		free(gn);
	}
	free(c.row);
	free(row);
	free(col);
	rec_hash_free(&all);
	rec_buf_free(&norm);
}

/* ---- encoding ---- */

struct enc {
	const struct rec_textenc *e;
	rec_textenc_lookup *look;
	void *lctx;
	float *out, *tmp;
	size_t known, pieces;
	struct rec_hash seen;
};

static void
enc_token(const char *w, size_t n, void *ctx)
{
	struct enc *x = ctx;
	size_t dim = x->e->dim, j, ng, used = 0;
	float idf;
	uint32_t g[260];
	int added;

	rec_hash_put(&x->seen, w, n, &added);
	if (!added)
		return;
	if (x->look(x->lctx, w, n, x->tmp, &idf)) {
		for (j = 0; j < dim; j++)
			x->out[j] += idf * x->tmp[j];
		x->known++;
		return;
	}
	/* an unknown word: its pieces, weighted like a rare word */
	ng = grams(w, n, g, 260);
	{
		float *sum = xcalloc(dim + 1, sizeof *sum);
		double nn = 0;
		for (j = 0; j < ng; j++)
			if (x->look(x->lctx, NULL, g[j], x->tmp, NULL)) {
				size_t a;
				for (a = 0; a < dim; a++)
					sum[a] += x->tmp[a];
				used++;
			}
		for (j = 0; j < dim; j++)
			nn += (double)sum[j] * sum[j];
		if (used && nn > 0) {
			idf = (float)log((double)(x->e->ndocs + 1));
			for (j = 0; j < dim; j++)
				x->out[j] += idf * (float)(sum[j] / sqrt(nn));
			x->pieces++;
		}
		free(sum);
	}
}

size_t
rec_textenc_encode(const struct rec_textenc *e, rec_textenc_lookup *look,
    void *lctx, const char *text, float *out)
{
	struct enc x;
	struct rec_buf norm = {0};
	double nn = 0;
	size_t j;

	memset(&x, 0, sizeof x);
	x.e = e;
	x.look = look;
	x.lctx = lctx;
	x.out = out;
	x.tmp = xcalloc(e->dim + 1, sizeof *x.tmp);
	memset(out, 0, e->dim * sizeof *out);
	tokens(text, &norm, enc_token, &x);
	for (j = 0; j < e->dim; j++)
		nn += (double)out[j] * out[j];
	nn = nn > 0 ? 1 / sqrt(nn) : 0;
	for (j = 0; j < e->dim; j++)
		out[j] = (float)(out[j] * nn);
	free(x.tmp);
	rec_hash_free(&x.seen);
	rec_buf_free(&norm);
	return nn > 0 ? x.known + x.pieces : 0;
}

int
rec_textenc_mem(void *ctx, const char *w, size_t n, float *vec,
    float *idf)
{
	const struct rec_textenc *e = ctx;
	size_t t;

	if (!w) {	/* a subword bucket */
		const float *g = e->gvec + n * e->dim;
		size_t j;
		for (j = 0; j < e->dim && g[j] == 0; j++)
			;
		if (j == e->dim)
			return 0;
		memcpy(vec, g, e->dim * sizeof *vec);
		return 1;
	}
	if ((t = rec_hash_get(&e->words, w, n)) == (size_t)-1)
		return 0;
	memcpy(vec, e->wvec + t * e->dim, e->dim * sizeof *vec);
	*idf = e->idf[t];
	return 1;
}

void
rec_textenc_free(struct rec_textenc *e)
{
	rec_hash_free(&e->words);
	free(e->wvec);
	free(e->idf);
	free(e->gvec);
	memset(e, 0, sizeof *e);
}

/* ---- a trained encoder in the catalog ---- */

int
rec_textenc_db_open(struct rec_textenc_db *x, sqlite3 *db,
    const char *space)
{
	sqlite3_stmt *st;
	const char *p;
	int ok = 0;

	memset(x, 0, sizeof *x);
	if (sqlite3_prepare_v2(db, "SELECT s.dim, m.params FROM spaces s JOIN "
	    "models m ON m.name = s.name WHERE s.name = ? AND m.kind = 'text'",
	    -1, &st, NULL))
		return 0;
	sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		x->e.dim = (size_t)sqlite3_column_int(st, 0);
		p = (const char *)sqlite3_column_text(st, 1);
		if (p && (p = strstr(p, "\"docs\":")))
			x->e.ndocs = strtoul(p + 7, NULL, 10);
		ok = x->e.dim > 0;
	}
	sqlite3_finalize(st);
	if (!ok)
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT idf, vec FROM text_words WHERE "
	    "space = ? AND word = ?", -1, &x->word, NULL) ||
	    sqlite3_prepare_v2(db, "SELECT vec FROM text_pieces WHERE space = ? "
	    "AND bucket = ?", -1, &x->piece, NULL))
		rec_sqlite_die(db, "text_words");
	sqlite3_bind_text(x->word, 1, space, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(x->piece, 1, space, -1, SQLITE_TRANSIENT);
	return 1;
}

int
rec_textenc_db_lookup(void *ctx, const char *w, size_t n, float *vec,
    float *idf)
{
	struct rec_textenc_db *x = ctx;
	sqlite3_stmt *st = w ? x->word : x->piece;
	int found = 0, col = w ? 1 : 0;

	sqlite3_reset(st);
	if (w)
		sqlite3_bind_text(st, 2, w, (int)n, SQLITE_STATIC);
	else
		sqlite3_bind_int(st, 2, (int)n);
	if (sqlite3_step(st) == SQLITE_ROW && (size_t)sqlite3_column_bytes(st,
	    col) == x->e.dim * sizeof *vec) {
		memcpy(vec, sqlite3_column_blob(st, col), x->e.dim *
		    sizeof *vec);
		if (w)
			*idf = (float)sqlite3_column_double(st, 0);
		found = 1;
	}
	sqlite3_reset(st);
	return found;
}

void
rec_textenc_db_close(struct rec_textenc_db *x)
{
	sqlite3_finalize(x->word);
	sqlite3_finalize(x->piece);
	memset(x, 0, sizeof *x);
}
