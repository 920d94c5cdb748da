/*
 * bm25.c: Okapi BM25 retrieval.
 *
 * The index is a file of flat arrays (ids, and per field: document
 * lengths, the sorted vocabulary, and for each term its postings as
 * ascending document numbers with term frequencies), memory-mapped so a
 * query costs the pages it touches, not a load.
 *
 * Disjunctive queries use MaxScore (Turtle and Flood 1995): terms are
 * ordered by the most they can add to a score; once k documents are
 * held, the terms whose bounds together cannot lift a document past the
 * k-th are only looked up for documents the others found.  The result is
 * the exhaustive top k, which the tests and bench/ check: every score is
 * summed over the terms in one fixed order, so both paths give the same
 * doubles, and ties go to the lower document.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "retrieve.h"

#define MAGIC "RECBM25\1"
#define K1 1.2
#define B 0.75

struct posting {
	uint32_t *doc, *tf;
	size_t n, cap;
};

struct bfield {
	char name[32];
	struct rec_hash vocab;	/* a struct posting per term */
	struct rec_buf doclen;	/* uint32 per document */
	uint64_t total;
};

struct rec_bm25_builder {
	size_t nfields;
	struct bfield *f;
	struct rec_buf ids;	/* NUL-terminated, back to back */
	struct rec_buf idoff;	/* uint64 per document */
	uint32_t ndocs;
	struct rec_buf norm;
	uint32_t *tok;
	size_t ntok, captok;
};

struct rec_bm25_builder *
rec_bm25_builder_new(size_t nfields, const char *const *names)
{
	struct rec_bm25_builder *b = xcalloc(1, sizeof *b);
	size_t i;

	b->nfields = nfields;
	b->f = xcalloc(nfields, sizeof *b->f);
	for (i = 0; i < nfields; i++) {
		snprintf(b->f[i].name, sizeof b->f[i].name, "%s", names[i]);
		b->f[i].vocab.vsize = sizeof(struct posting);
	}
	return b;
}

static struct posting *
post_of(const struct bfield *f, size_t t)
{
	return (struct posting *)f->vocab.val + t;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void
add_text(struct rec_bm25_builder *b, struct bfield *f, const char *text)
{
	const char *p, *s;
	size_t i, j, n;
	uint32_t len = 0;

	rec_buf_reset(&b->norm);
	if (text)
		rec_norm(&b->norm, text, strlen(text));
	b->ntok = 0;
	for (p = b->norm.data; p && *p; p = *s ? s + 1 : s) {
		size_t t;

		s = strchr(p, ' ');
		if (!s)
			s = p + strlen(p);
		t = rec_hash_put(&f->vocab, p, (size_t)(s - p), NULL);
		if (b->ntok == b->captok) {
			b->captok = b->captok ? b->captok * 2 : 64;
			b->tok = xrealloc(b->tok, b->captok * sizeof *b->tok);
		}
		b->tok[b->ntok++] = (uint32_t)t;
		len++;
	}
	qsort(b->tok, b->ntok, sizeof *b->tok, cmp_u32);
	for (i = 0; i < b->ntok; i = j) {
		struct posting *po = post_of(f, b->tok[i]);
		for (j = i; j < b->ntok && b->tok[j] == b->tok[i]; j++)
			;
		n = po->n;
		if (n == po->cap) {
			po->cap = po->cap ? po->cap * 2 : 4;
			po->doc = xrealloc(po->doc, po->cap * sizeof *po->doc);
			po->tf = xrealloc(po->tf, po->cap * sizeof *po->tf);
		}
		po->doc[n] = b->ndocs;
		po->tf[n] = (uint32_t)(j - i);
		po->n++;
	}
	rec_buf_add(&f->doclen, &len, sizeof len);
	f->total += len;
}

void
rec_bm25_builder_doc(struct rec_bm25_builder *b, const char *id,
    const char *const *texts)
{
	uint64_t off = b->ids.len;
	size_t i;

	rec_buf_add(&b->idoff, &off, sizeof off);
	rec_buf_add(&b->ids, id, strlen(id) + 1);
	for (i = 0; i < b->nfields; i++)
		add_text(b, &b->f[i], texts[i]);
	b->ndocs++;
}

/* n bytes, then zeros to the next multiple of 8 */
static int
put(struct rec_atomic *a, const void *p, size_t n, uint64_t *at)
{
	static const char zero[8];
	size_t pad = (8 - n % 8) % 8;

	if (rec_atomic_write(a, p, n) < 0 || rec_atomic_write(a, zero, pad) < 0)
		return -1;
	*at += n + pad;
	return 0;
}

static const struct bfield *sort_field;

static int
cmp_term(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct rec_hash *h = &sort_field->vocab;
	size_t n = h->keylen[x] < h->keylen[y] ? h->keylen[x] : h->keylen[y];
	int c = memcmp(h->key[x], h->key[y], n);

	if (c)
		return c;
	return h->keylen[x] < h->keylen[y] ? -1 : h->keylen[x] > h->keylen[y];
}

/* File layout, every section 8-aligned:
 *   header: magic[8] ndocs nfields cat_size cat_mtime (u32 u32 u64 i64)
 *   idoff u64[ndocs + 1], idchars
 *   per field: name[32] nterms u32 pad u32 avgdl f64, then
 *     doclen u32[ndocs], termoff u64[nterms + 1], termchars,
 *     postoff u64[nterms + 1], docs u32[], tfs u32[], maxtf f32[nterms]
 * Sizes follow from the counts, so a reader checks them against the
 * file's length before trusting any offset. */
int
rec_bm25_builder_write(struct rec_bm25_builder *b, const char *path,
    uint64_t cat_size, int64_t cat_mtime)
{
	struct rec_atomic a;
	uint64_t at = 0, end = b->ids.len;
	size_t fi, i, t;
	int bad;

	if (rec_atomic_open(&a, path, 0644) < 0)
		return -1;
	{
		char hdr[32];
		memcpy(hdr, MAGIC, 8);
		memcpy(hdr + 8, &b->ndocs, 4);
		uint32_t nf = (uint32_t)b->nfields;
		memcpy(hdr + 12, &nf, 4);
		memcpy(hdr + 16, &cat_size, 8);
		memcpy(hdr + 24, &cat_mtime, 8);
		if (put(&a, hdr, sizeof hdr, &at))
			goto fail;
	}
	rec_buf_add(&b->idoff, &end, sizeof end);
	if (put(&a, b->idoff.data, b->idoff.len, &at) ||
	    put(&a, b->ids.data, b->ids.len, &at))
		goto fail;
	for (fi = 0; fi < b->nfields; fi++) {
		struct bfield *f = &b->f[fi];
		uint32_t nterms = (uint32_t)f->vocab.n, *order;
		uint64_t *termoff, *postoff, o;
		struct rec_buf chars = {0}, docs = {0}, tfs = {0};
		float *maxtf;
		double avgdl = b->ndocs ? (double)f->total / b->ndocs : 0;
		char fh[48] = {0};

		order = xmalloc((nterms + 1) * sizeof *order);
		for (t = 0; t < nterms; t++)
			order[t] = (uint32_t)t;
		sort_field = f;
		qsort(order, nterms, sizeof *order, cmp_term);
		termoff = xmalloc((nterms + 1) * sizeof *termoff);
		postoff = xmalloc((nterms + 1) * sizeof *postoff);
		maxtf = xmalloc((nterms + 1) * sizeof *maxtf);
		for (t = 0, o = 0; t < nterms; t++) {
			struct posting *po = post_of(f, order[t]);
			double best = 0;
			termoff[t] = chars.len;
			rec_buf_add(&chars, f->vocab.key[order[t]],
			    f->vocab.keylen[order[t]]);
			postoff[t] = o;
			for (i = 0; i < po->n; i++) {
				uint32_t dl = ((uint32_t *)f->doclen.data)
				    [po->doc[i]];
				double tf = po->tf[i], v = tf * (K1 + 1) /
				    (tf + K1 * (1 - B + B * dl / avgdl));
				if (v > best)
					best = v;
			}
			/* rounded up: a float bound must not be below */
			maxtf[t] = nextafterf((float)best, INFINITY);
			rec_buf_add(&docs, po->doc, po->n * 4);
			rec_buf_add(&tfs, po->tf, po->n * 4);
			o += po->n;
		}
		termoff[nterms] = chars.len;
		postoff[nterms] = o;
		memcpy(fh, f->name, 32);
		memcpy(fh + 32, &nterms, 4);
		memcpy(fh + 40, &avgdl, 8);
		bad = put(&a, fh, sizeof fh, &at) ||
		    put(&a, f->doclen.data, f->doclen.len, &at) ||
		    put(&a, termoff, (nterms + 1) * 8, &at) ||
		    put(&a, chars.data, chars.len, &at) ||
		    put(&a, postoff, (nterms + 1) * 8, &at) ||
		    put(&a, docs.data, docs.len, &at) ||
		    put(&a, tfs.data, tfs.len, &at) ||
		    put(&a, maxtf, nterms * 4, &at);
		free(order);
		free(termoff);
		free(postoff);
		free(maxtf);
		rec_buf_free(&chars);
		rec_buf_free(&docs);
		rec_buf_free(&tfs);
		if (bad)
			goto fail;
	}
	return rec_atomic_commit(&a);
fail:
	rec_atomic_abort(&a);
	return -1;
}

void
rec_bm25_builder_free(struct rec_bm25_builder *b)
{
	size_t i, t;

	for (i = 0; i < b->nfields; i++) {
		for (t = 0; t < b->f[i].vocab.n; t++) {
			free(post_of(&b->f[i], t)->doc);
			free(post_of(&b->f[i], t)->tf);
		}
		rec_hash_free(&b->f[i].vocab);
		rec_buf_free(&b->f[i].doclen);
	}
	free(b->f);
	rec_buf_free(&b->ids);
	rec_buf_free(&b->idoff);
	rec_buf_free(&b->norm);
	free(b->tok);
	free(b);
}

/* --- reading --- */

static int
oerr(struct rec_buf *err, const char *path, const char *what)
{
	rec_buf_reset(err);
	rec_buf_printf(err, "BM25 index '%s': %s", path, what);
	return -1;
}

int
rec_bm25_open(struct rec_bm25 *x, const char *path, struct rec_buf *err)
{
	struct stat st;
	const char *base;
	uint64_t at, n;
	uint32_t fi;
	int fd;

	memset(x, 0, sizeof *x);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return oerr(err, path, strerror(errno));
	if (fstat(fd, &st) < 0 || st.st_size < 32) {
		close(fd);
		return oerr(err, path, "too short");
	}
	x->mapsz = (size_t)st.st_size;
	x->map = mmap(NULL, x->mapsz, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (x->map == MAP_FAILED) {
		x->map = NULL;
		return oerr(err, path, strerror(errno));
	}
	base = x->map;
	if (memcmp(base, MAGIC, 8))
		goto bad;
	memcpy(&x->ndocs, base + 8, 4);
	memcpy(&x->nfields, base + 12, 4);
	memcpy(&x->cat_size, base + 16, 8);
	memcpy(&x->cat_mtime, base + 24, 8);
	if (x->nfields > 1024)
		goto bad;
#define NEED(bytes) do { if ((uint64_t)(bytes) > x->mapsz - at) goto bad; } while (0)
#define ALIGN(v) (((v) + 7) & ~(uint64_t)7)
	at = 32;
	NEED(((uint64_t)x->ndocs + 1) * 8);
	x->idoff = (const uint64_t *)(base + at);
	at += ((uint64_t)x->ndocs + 1) * 8;
	n = x->idoff[x->ndocs];
	NEED(n);
	x->idchars = base + at;
	if (n && x->idchars[n - 1])
		goto bad;
	at = ALIGN(at + n);
	x->field = xcalloc(x->nfields + 1, sizeof *x->field);
	for (fi = 0; fi < x->nfields; fi++) {
		struct rec_bm25_field *f = &x->field[fi];
		uint64_t np;
		NEED(48);
		memcpy(f->name, base + at, 32);
		f->name[31] = 0;
		memcpy(&f->nterms, base + at + 32, 4);
		memcpy(&f->avgdl, base + at + 40, 8);
		at += 48;
		NEED((uint64_t)x->ndocs * 4);
		f->doclen = (const uint32_t *)(base + at);
		at = ALIGN(at + (uint64_t)x->ndocs * 4);
		NEED(((uint64_t)f->nterms + 1) * 8);
		f->termoff = (const uint64_t *)(base + at);
		at += ((uint64_t)f->nterms + 1) * 8;
		n = f->termoff[f->nterms];
		NEED(n);
		f->termchars = base + at;
		at = ALIGN(at + n);
		NEED(((uint64_t)f->nterms + 1) * 8);
		f->postoff = (const uint64_t *)(base + at);
		at += ((uint64_t)f->nterms + 1) * 8;
		np = f->postoff[f->nterms];
		NEED(np * 4);
		f->docs = (const uint32_t *)(base + at);
		at = ALIGN(at + np * 4);
		NEED(np * 4);
		f->tfs = (const uint32_t *)(base + at);
		at = ALIGN(at + np * 4);
		NEED((uint64_t)f->nterms * 4);
		/* written as floats by rec_bm25_builder_write, 8-aligned */
		/* cppcheck-suppress invalidPointerCast */
		f->maxtf = (const float *)(const void *)(base + at);
		at = ALIGN(at + (uint64_t)f->nterms * 4);
	}
	return 0;
bad:
	rec_bm25_close(x);
	return oerr(err, path, "not a rec BM25 index, or damaged (rebuild "
	    "it with rec-bm25 --index)");
#undef NEED
#undef ALIGN
}

void
rec_bm25_close(struct rec_bm25 *x)
{
	if (x->map)
		munmap(x->map, x->mapsz);
	free(x->field);
	if (x->idhash) {
		rec_hash_free(x->idhash);
		free(x->idhash);
	}
	memset(x, 0, sizeof *x);
}

int
rec_bm25_field_index(const struct rec_bm25 *x, const char *name)
{
	uint32_t i;

	for (i = 0; i < x->nfields; i++)
		if (!strcmp(x->field[i].name, name))
			return (int)i;
	return -1;
}

static int
term_cmp(const struct rec_bm25_field *f, uint32_t i, const char *t, size_t n)
{
	const char *s = f->termchars + f->termoff[i];
	size_t m = f->termoff[i + 1] - f->termoff[i];
	int c = memcmp(s, t, m < n ? m : n);

	if (c)
		return c;
	return m < n ? -1 : m > n;
}

long
rec_bm25_term(const struct rec_bm25 *x, int f, const char *t, size_t n)
{
	const struct rec_bm25_field *fl = &x->field[f];
	uint32_t lo = 0, hi = fl->nterms;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = term_cmp(fl, mid, t, n);
		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

uint32_t
rec_bm25_prefixed(const struct rec_bm25 *x, int f, const char *t, size_t n,
    uint32_t *first)
{
	const struct rec_bm25_field *fl = &x->field[f];
	uint32_t lo = 0, hi = fl->nterms, e;

	/* the first term not before t */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (term_cmp(fl, mid, t, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (e = lo; e < fl->nterms && fl->termoff[e + 1] - fl->termoff[e] >=
	    n && !memcmp(fl->termchars + fl->termoff[e], t, n); e++)
		;
	*first = lo;
	return e - lo;
}

long
rec_bm25_closest_term(const struct rec_bm25 *x, int f, const char *t,
    size_t n)
{
	const struct rec_bm25_field *fl = &x->field[f];
	int max = n <= 4 ? 1 : 2, best = max + 1, d;
	uint64_t bestdf = 0, df;
	long bi = -1;
	uint32_t i;

	if (n < 3)
		return -1;
	for (i = 0; i < fl->nterms; i++) {
		size_t m = fl->termoff[i + 1] - fl->termoff[i];
		if (m + (size_t)max < n || m > n + (size_t)max)
			continue;
		d = rec_edit_distance(t, n, fl->termchars + fl->termoff[i], m,
		    max);
		df = fl->postoff[i + 1] - fl->postoff[i];
		if (d < best || (d == best && d <= max && df > bestdf)) {
			best = d;
			bestdf = df;
			bi = i;
		}
	}
	return best <= max ? bi : -1;
}

long
rec_bm25_doc(struct rec_bm25 *x, const char *id, size_t n)
{
	size_t i;

	if (!x->idhash) {
		x->idhash = xcalloc(1, sizeof *x->idhash);
		for (i = 0; i < x->ndocs; i++)
			rec_hash_put(x->idhash, x->idchars + x->idoff[i],
			    strlen(x->idchars + x->idoff[i]), NULL);
	}
	i = rec_hash_get(x->idhash, id, n);
	return i == (size_t)-1 ? -1 : (long)i;
}

/* --- scoring --- */

struct cursor {
	const uint32_t *doc, *tf;
	size_t n, pos;
	double idf, ub;
	size_t order;		/* the term's place in the query */
};

static double
idf(const struct rec_bm25 *x, uint64_t df)
{
	/* Lucene's form: never negative, so a bound is a bound */
	return log(1 + ((double)x->ndocs - (double)df + 0.5) /
	    ((double)df + 0.5));
}

static double
tfpart(uint32_t tf, uint32_t dl, double avgdl, double k1, double b)
{
	return tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl));
}

/* the first position at or after pos whose doc >= d (galloping) */
static size_t
seek(const struct cursor *c, size_t pos, uint32_t d)
{
	size_t step = 1, lo = pos, hi;

	if (pos >= c->n || c->doc[pos] >= d)
		return pos;
	while (lo + step < c->n && c->doc[lo + step] < d) {
		lo += step;
		step *= 2;
	}
	hi = lo + step < c->n ? lo + step : c->n;
	while (lo + 1 < hi) {		/* doc[lo] < d, doc[hi] >= d or end */
		size_t mid = lo + (hi - lo) / 2;
		if (c->doc[mid] < d)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

static int
cmp_ub(const void *a, const void *b)
{
	const struct cursor *x = a, *y = b;

	if (x->ub != y->ub)
		return x->ub < y->ub ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

size_t
rec_bm25_search(const struct rec_bm25 *x, int f, const long *terms,
    size_t nterms, int conjunctive, double k1, double b, size_t k,
    int exhaustive, struct rec_scored *out)
{
	const struct rec_bm25_field *fl = &x->field[f];
	struct cursor *c;
	double *part, *prefix;
	size_t i, j, nh = 0, nc = 0, firstess = 0;
	int defaults = k1 == K1 && b == B, pruned;

	if (!k || !nterms)
		return 0;
	c = xcalloc(nterms, sizeof *c);
	part = xcalloc(nterms, sizeof *part);
	prefix = xcalloc(nterms + 1, sizeof *prefix);
	for (i = 0; i < nterms; i++) {
		long t = terms[i];
		if (t < 0) {
			if (conjunctive)
				goto done;	/* a missing term: no match */
			continue;
		}
		c[nc].doc = fl->docs + fl->postoff[t];
		c[nc].tf = fl->tfs + fl->postoff[t];
		c[nc].n = fl->postoff[t + 1] - fl->postoff[t];
		c[nc].idf = idf(x, c[nc].n);
		/* the most a document can take from this term */
		c[nc].ub = c[nc].idf * (defaults ? fl->maxtf[t] : k1 + 1);
		c[nc].order = i;
		nc++;
	}
	if (!nc)
		goto done;
	if (conjunctive) {
		/* walk the shortest list, seek in the others */
		size_t s = 0;
		for (i = 1; i < nc; i++)
			if (c[i].n < c[s].n)
				s = i;
		for (j = 0; j < c[s].n; j++) {
			uint32_t d = c[s].doc[j];
			double score = 0;
			for (i = 0; i < nc; i++) {
				c[i].pos = seek(&c[i], c[i].pos, d);
				if (c[i].pos >= c[i].n || c[i].doc[c[i].pos] != d)
					break;
			}
			if (i < nc)
				continue;
			for (i = 0; i < nc; i++)
				score += c[i].idf * tfpart(c[i].tf[c[i].pos],
				    fl->doclen[d], fl->avgdl, k1, b);
			rec_topk_push(out, &nh, k, score, d);
		}
		goto done;
	}
	if (exhaustive) {
		double *acc = xcalloc(x->ndocs ? x->ndocs : 1, sizeof *acc);
		for (i = 0; i < nc; i++)
			for (j = 0; j < c[i].n; j++) {
				uint32_t d = c[i].doc[j];
				acc[d] += c[i].idf * tfpart(c[i].tf[j],
				    fl->doclen[d], fl->avgdl, k1, b);
			}
		for (j = 0; j < x->ndocs; j++)
			if (acc[j] > 0)
				rec_topk_push(out, &nh, k, acc[j], j);
		free(acc);
		goto done;
	}
	/* MaxScore, with the cursors sorted by bound, lowest first */
	qsort(c, nc, sizeof *c, cmp_ub);
	for (i = 0; i < nc; i++)
		prefix[i + 1] = prefix[i] + c[i].ub;
	for (;;) {
		uint32_t d = UINT32_MAX;
		double score, theta = nh == k ? out[0].score : 0;

		/* terms below firstess cannot make a document on their own */
		if (nh == k)
			while (firstess < nc &&
			    prefix[firstess + 1] * (1 + 1e-9) < theta)
				firstess++;
		if (firstess == nc)
			break;
		for (i = firstess; i < nc; i++)
			if (c[i].pos < c[i].n && c[i].doc[c[i].pos] < d)
				d = c[i].doc[c[i].pos];
		if (d == UINT32_MAX)
			break;
		memset(part, 0, nterms * sizeof *part);
		score = 0;
		for (i = firstess; i < nc; i++)
			if (c[i].pos < c[i].n && c[i].doc[c[i].pos] == d) {
				part[c[i].order] = c[i].idf * tfpart(
				    c[i].tf[c[i].pos], fl->doclen[d], fl->avgdl,
				    k1, b);
				score += part[c[i].order];
				c[i].pos++;
			}
		pruned = 0;
		for (i = firstess; i-- > 0;) {
			if ((score + prefix[i + 1]) * (1 + 1e-9) < theta) {
				pruned = 1;	/* cannot reach the k-th */
				break;
			}
			c[i].pos = seek(&c[i], c[i].pos, d);
			if (c[i].pos < c[i].n && c[i].doc[c[i].pos] == d) {
				part[c[i].order] = c[i].idf * tfpart(
				    c[i].tf[c[i].pos], fl->doclen[d], fl->avgdl,
				    k1, b);
				score += part[c[i].order];
			}
		}
		if (pruned || score * (1 + 1e-9) < theta)
			continue;
		/* the exhaustive sum: the same terms in the same order */
		score = 0;
		for (j = 0; j < nterms; j++)
			score += part[j];
		rec_topk_push(out, &nh, k, score, d);
	}
done:
	rec_scored_sort(out, nh, sizeof *out);
	free(c);
	free(part);
	free(prefix);
	return nh;
}

double
rec_bm25_score_doc(const struct rec_bm25 *x, int f, const long *terms,
    size_t nterms, double k1, double b, uint32_t doc)
{
	const struct rec_bm25_field *fl = &x->field[f];
	struct cursor c = {0};
	double score = 0;
	size_t i;

	for (i = 0; i < nterms; i++) {
		long t = terms[i];
		if (t < 0)
			continue;
		c.doc = fl->docs + fl->postoff[t];
		c.n = fl->postoff[t + 1] - fl->postoff[t];
		c.pos = seek(&c, 0, doc);
		if (c.pos < c.n && c.doc[c.pos] == doc)
			score += idf(x, c.n) * tfpart(fl->tfs[fl->postoff[t] +
			    c.pos], fl->doclen[doc], fl->avgdl, k1, b);
	}
	return score;
}
