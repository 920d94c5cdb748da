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
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "retrieve.h"

/* items of a dense tile: the vectors of a tile stay in cache while the
 * block's users are scored against them */
#define TILE 256

static const char *const purpose = "reading the model";

/* ---- the file of an item-item model ----
 *
 * CATALOG.cf.MODEL holds the arrays the loader below makes from the knn
 * table, so that rec-cf --users maps them instead of reading about a
 * million rows (MOVIES: 0.2 s of a 0.25 s run for one user).  Like the
 * space files (space.c) it is derived from the catalog and trusted only
 * while the catalog keeps the size and mtime it was written for;
 * rec-train writes it after every training.
 *
 *   "RECKNN1\n", n (u64), nnz (u64), id bytes (u64), the catalog's size
 *   (u64) and mtime in nanoseconds (i64);
 *   first[n] (u64), count[n] (u32, padded to 8 bytes), nbr[nnz] (u32,
 *   padded), sim[nnz] (double), n id offsets (u64), the ids in the
 *   order of their index, each ended by a NUL.
 */
#define HEAD 48
#define PAD8(x) (((x) + 7) & ~(size_t)7)

char *
rec_cf_model_path(const char *cat, const char *model)
{
	return rec_side_path(cat, "cf", model);
}

/* maps the file of model when it was written for cat as it is now and
 * holds what it should: 0, or -1 (m untouched but for its ids) */
static int
model_map(struct rec_cf_model *m, const char *cat, const char *model)
{
	char *path = rec_cf_model_path(cat, model), *base, *chars;
	unsigned char h[HEAD];
	uint64_t n, nnz, idb, csize, *off, i;
	int64_t cmtime;
	struct stat cs, fs;
	size_t at_count, at_nbr, at_sim, at_off, at_ids, size;
	void *map;
	int fd;

	if (!path || stat(cat, &cs) < 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		free(path);
		return -1;
	}
	free(path);
	if (fstat(fd, &fs) < 0 || read(fd, h, HEAD) != HEAD ||
	    memcmp(h, "RECKNN1\n", 8)) {
		close(fd);
		return -1;
	}
	memcpy(&n, h + 8, 8);
	memcpy(&nnz, h + 16, 8);
	memcpy(&idb, h + 24, 8);
	memcpy(&csize, h + 32, 8);
	memcpy(&cmtime, h + 40, 8);
	size = (size_t)fs.st_size;
	if (csize != (uint64_t)cs.st_size || cmtime != rec_mtime_ns(&cs) ||
	    n > size / 8 || nnz > size / 8 || idb > size || n >= UINT32_MAX) {
		close(fd);
		return -1;
	}
	at_count = HEAD + (size_t)n * 8;
	at_nbr = at_count + PAD8((size_t)n * 4);
	at_sim = at_nbr + PAD8((size_t)nnz * 4);
	at_off = at_sim + (size_t)nnz * 8;
	at_ids = at_off + (size_t)n * 8;
	if (at_ids + idb != size) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	base = map;
	m->first = (uint64_t *)(void *)(base + HEAD);
	m->count = (uint32_t *)(void *)(base + at_count);
	m->nbr = (uint32_t *)(void *)(base + at_nbr);
	m->sim = (double *)(void *)(base + at_sim);
	off = (uint64_t *)(void *)(base + at_off);
	chars = base + at_ids;
	/* a bad file is one not to use, never a crash */
	if (idb && chars[idb - 1])
		goto bad;
	for (i = 0; i < n; i++)
		if (off[i] >= idb || (m->first[i] != (uint64_t)-1 &&
		    (m->first[i] > nnz || m->count[i] > nnz - m->first[i])))
			goto bad;
	for (i = 0; i < nnz; i++)
		if (m->nbr[i] >= n)
			goto bad;
	for (i = 0; i < n; i++) {
		const char *id = chars + off[i];
		rec_hash_put(&m->ids, id, strlen(id), NULL);
		if (m->ids.n != i + 1)
			goto bad;	/* an id twice */
	}
	m->n = (size_t)n;
	m->nnz = nnz;
	m->map = map;
	m->mapsz = size;
	return 0;
bad:
	munmap(map, size);
	rec_hash_free(&m->ids);
	m->first = NULL;
	m->count = NULL;
	m->nbr = NULL;
	m->sim = NULL;
	return -1;
}

/* writes the file of the item-item model m for the catalog stat cs */
static int
model_write(const struct rec_cf_model *m, const char *path,
    const struct stat *cs)
{
	static const char zero[8];
	unsigned char h[HEAD] = "RECKNN1\n";
	uint64_t n = m->n, nnz = m->nnz, idb = 0, csize = (uint64_t)cs->st_size,
	    *off = xcalloc(m->n + 1, sizeof *off);
	int64_t cmtime = rec_mtime_ns(cs);
	struct rec_atomic a;
	size_t i;
	int rc = -1;

	for (i = 0; i < m->n; i++) {
		off[i] = idb;
		idb += m->ids.keylen[i] + 1;
	}
	memcpy(h + 8, &n, 8);
	memcpy(h + 16, &nnz, 8);
	memcpy(h + 24, &idb, 8);
	memcpy(h + 32, &csize, 8);
	memcpy(h + 40, &cmtime, 8);
	if (rec_atomic_open(&a, path, 0644) < 0)
		goto out;
	if (rec_atomic_write(&a, h, HEAD) < 0 ||
	    rec_atomic_write(&a, m->first, m->n * 8) < 0 ||
	    rec_atomic_write(&a, m->count, m->n * 4) < 0 ||
	    rec_atomic_write(&a, zero, PAD8(m->n * 4) - m->n * 4) < 0 ||
	    rec_atomic_write(&a, m->nbr, m->nnz * 4) < 0 ||
	    rec_atomic_write(&a, zero, PAD8(m->nnz * 4) - m->nnz * 4) < 0 ||
	    rec_atomic_write(&a, m->sim, m->nnz * 8) < 0 ||
	    rec_atomic_write(&a, off, m->n * 8) < 0)
		goto abort;
	for (i = 0; i < m->n; i++)
		if (rec_atomic_write(&a, m->ids.key[i], m->ids.keylen[i] + 1) <
		    0)
			goto abort;
	rc = rec_atomic_commit(&a);
	goto out;
abort:
	rec_atomic_abort(&a);
out:
	free(off);
	return rc;
}

int
rec_cf_model_index(const char *path)
{
	struct rec_catalog *cat;
	struct stat before, after;
	sqlite3_stmt *st;
	struct rec_strs names = {0}, kinds = {0};
	int done = 0, e;
	size_t i;

	if (stat(path, &before) < 0)
		return -1;
	cat = rec_catalog_load(path);
	st = rec_catalog_prepare(cat, "SELECT name FROM sqlite_master WHERE "
	    "name = 'models'", purpose);
	i = rec_catalog_step(cat, st, purpose);
	sqlite3_reset(st);
	st = i ? rec_catalog_prepare(cat, "SELECT name, kind FROM models "
	    "WHERE kind IN ('itemknn', 'ease') ORDER BY name", purpose) : NULL;
	while (st && rec_catalog_step(cat, st, purpose)) {
		rec_strs_push(&names, (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0));
		rec_strs_push(&kinds, (const char *)sqlite3_column_text(st, 1),
		    (size_t)sqlite3_column_bytes(st, 1));
	}
	if (st)
		sqlite3_reset(st);
	for (i = 0; i < names.n && done >= 0; i++) {
		struct rec_cf_model m;
		char *file = rec_cf_model_path(path, names.v[i]);
		if (!file)
			continue;	/* a name that cannot be a file's */
		/* from the table, never from a file being replaced */
		memset(&m, 0, sizeof m);
		free(cat->path);
		cat->path = NULL;
		rec_cf_model_load(&m, cat, names.v[i], kinds.v[i]);
		/* written for the catalog it was read from, or not at all */
		if (stat(path, &after) < 0 || after.st_size != before.st_size ||
		    rec_mtime_ns(&after) != rec_mtime_ns(&before) ||
		    after.st_ino != before.st_ino) {
			errno = EAGAIN;
			done = -1;
		} else if (model_write(&m, file, &before) < 0)
			done = -1;
		else
			done++;
		rec_cf_model_free(&m);
		free(file);
	}
	e = errno;
	rec_catalog_close(cat);
	rec_strs_free(&names);
	rec_strs_free(&kinds);
	errno = e;
	return done;
}

void
rec_cf_model_load(struct rec_cf_model *m, struct rec_catalog *cat,
    const char *model, const char *kind)
{
	sqlite3_stmt *st;
	size_t cap = 0, n = 0;

	memset(m, 0, sizeof *m);
	m->ids.vsize = 0;
	if (!strcmp(kind, "itemknn") || !strcmp(kind, "ease")) {
		if (cat->path && model_map(m, cat->path, model) == 0)
			return;
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
	if (m->map)
		munmap(m->map, m->mapsz);
	else {
		free(m->first);
		free(m->count);
		free(m->nbr);
		free(m->sim);
	}
	free(m->from);
	free(m->V);
	rec_hash_free(&m->ids);
	memset(m, 0, sizeof *m);
}

/* ---- scoring ---- */

/* a candidate of one user: its place in the list's order is its key
 * (the score written), then the model's score, then tie (the item met
 * first for an item-item model, the model's order for factors) */
struct cand {
	double key, cf;
	uint32_t item, seed, tie;
};

struct rec_cf_scorer {
	const struct rec_cf_model *m;
	size_t k;
	/* per item, for the user being scored, side by side (a neighbour
	 * costs one cache line, not four), all zero again after each
	 * user for the items touched */
	struct acc {
		double s, best;		/* the sum, and its largest part */
		uint32_t bseed;		/* the seed of that part */
		uint32_t mark;		/* touched: in touched[] */
	} *acc;
	uint32_t *seedmark;		/* cur: the user has the item */
	uint32_t cur;
	uint32_t *addmark, addcur;	/* rec_cf_seeds_add: added already */
	uint32_t *touched;
	size_t ntouched;
	struct cand *cand;		/* item-item: one user's candidates */
	double novelty;			/* rec_cf_scorer_order */
	const double *pct;
	size_t cut;
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
	c->addmark = xcalloc(m->n + 1, sizeof *c->addmark);
	if (!m->dim) {
		c->acc = xcalloc(m->n + 1, sizeof *c->acc);
		c->seedmark = xcalloc(m->n + 1, sizeof *c->seedmark);
		c->touched = xcalloc(m->n + 1, sizeof *c->touched);
		c->cand = xcalloc(m->n + 1, sizeof *c->cand);
	} else {
		c->q = xcalloc(c->block * m->dim + 1, sizeof *c->q);
		c->heaps = xcalloc(c->block * (k + 1), sizeof *c->heaps);
		c->cand = xcalloc(k + 1, sizeof *c->cand);
		c->nheap = xcalloc(c->block + 1, sizeof *c->nheap);
	}
	return c;
}

void
rec_cf_scorer_free(struct rec_cf_scorer *c)
{
	if (!c)
		return;
	free(c->acc);
	free(c->seedmark);
	free(c->addmark);
	free(c->touched);
	free(c->cand);
	free(c->q);
	free(c->heaps);
	free(c->nheap);
	free(c);
}

void
rec_cf_seeds_reset(struct rec_cf_scorer *c, struct rec_cf_seeds *s)
{
	s->n = s->all = 0;
	if (++c->addcur == 0) {
		memset(c->addmark, 0, c->m->n * sizeof *c->addmark);
		c->addcur = 1;
	}
}

void
rec_cf_seeds_add(struct rec_cf_scorer *c, struct rec_cf_seeds *s,
    const char *id, size_t len)
{
	size_t k = rec_hash_get(&c->m->ids, id, len);

	s->all++;
	if (k == (size_t)-1 || c->addmark[k] == c->addcur)
		return;
	c->addmark[k] = c->addcur;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->ix = xrealloc(s->ix, s->cap * sizeof *s->ix);
	}
	s->ix[s->n++] = (uint32_t)k;
}

/* a new stamp; all zero again when it wraps */
static uint32_t
next_stamp(struct rec_cf_scorer *c)
{
	if (++c->cur == 0) {
		memset(c->seedmark, 0, c->m->n * sizeof *c->seedmark);
		c->cur = 1;
	}
	return c->cur;
}

double
rec_cf_blend(double score, double lo, double hi, double novelty, double pct)
{
	return (1 - novelty) * (hi > lo ? (score - lo) / (hi - lo) : 1) +
	    novelty * (1 - pct);
}

void
rec_cf_scorer_order(struct rec_cf_scorer *c, double novelty,
    const double *pct, size_t cut)
{
	c->novelty = novelty;
	c->pct = pct;
	c->cut = cut;
}

/* a goes before b */
static int
before(const struct cand *a, const struct cand *b)
{
	if (a->key != b->key)
		return a->key > b->key;
	if (a->cf != b->cf)
		return a->cf > b->cf;
	return a->tie < b->tie;
}

static void
swap(struct cand *a, struct cand *b)
{
	struct cand t = *a;

	*a = *b;
	*b = t;
}

/* Hoare's partition of v[0..n) (n >= 2) around the median of three:
 * returns j, v[0..j] going no later than the pivot, v[j + 1..n) no
 * earlier, both parts short of n */
static size_t
partition(struct cand *v, size_t n)
{
	size_t mid = n / 2, i, j;
	struct cand p;

	if (before(&v[mid], &v[0]))
		swap(&v[mid], &v[0]);
	if (before(&v[n - 1], &v[0]))
		swap(&v[n - 1], &v[0]);
	if (before(&v[n - 1], &v[mid]))
		swap(&v[n - 1], &v[mid]);
	p = v[mid];
	/* v[0] goes no later than p and v[n - 1] no earlier: both stop
	 * the scans below */
	for (i = 0, j = n - 1;;) {
		do
			i++;
		while (before(&v[i], &p));
		do
			j--;
		while (before(&p, &v[j]));
		if (i >= j)
			return j;
		swap(&v[i], &v[j]);
	}
}

/* the first k of v[0..n) in that order to the front, in no order
 * (Hoare's selection) */
static void
select_first(struct cand *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;	/* the k-th is in [lo, hi) */

	while (k > lo && k < hi && hi - lo > 1) {
		size_t j = lo + partition(v + lo, hi - lo);
		if (k <= j)
			hi = j + 1;
		else
			lo = j + 1;
	}
}

/* insertion sort below a few, else quicksort on the larger half's loop */
static void
sort_cands(struct cand *v, size_t n)
{
	while (n > 16) {
		size_t j = partition(v, n);
		if (j + 1 < n - j - 1) {
			sort_cands(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_cands(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct cand e = v[i];
		size_t j = i;
		for (; j > 0 && before(&e, &v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = e;
	}
}

/* The user's list from n candidates: the best k by the model's score,
 * scored again for the novelty, in order; with a cut, only as far as
 * write_group reads it (rec_cf_scorer_order).  Returns how many. */
static size_t
order(struct rec_cf_scorer *c, struct cand *v, size_t n,
    struct rec_cf_hit *out)
{
	size_t i, cut = c->cut;

	if (n > c->k) {
		select_first(v, n, c->k);
		n = c->k;
	}
	if (c->novelty > 0 && n) {
		double lo = INFINITY, hi = -INFINITY;
		for (i = 0; i < n; i++) {
			lo = v[i].cf < lo ? v[i].cf : lo;
			hi = v[i].cf > hi ? v[i].cf : hi;
		}
		for (i = 0; i < n; i++)
			v[i].key = rec_cf_blend(v[i].cf, lo, hi, c->novelty,
			    c->pct[v[i].item]);
	}
	if (cut && n > cut + 1) {
		size_t best, worst;
		select_first(v, n, cut);
		sort_cands(v, cut);
		for (best = worst = cut, i = cut + 1; i < n; i++) {
			if (before(&v[i], &v[best]))
				best = i;
			if (before(&v[worst], &v[i]))
				worst = i;
		}
		/* the best left out at cut, the worst at the end */
		swap(&v[cut], &v[best]);
		if (worst == cut)
			worst = best;
		swap(&v[n - 1], &v[worst]);
	} else
		sort_cands(v, n);
	for (i = 0; i < n; i++) {
		out[i].item = v[i].item;
		out[i].score = v[i].key;
		out[i].seed = v[i].seed;
	}
	return n;
}

size_t
rec_cf_score_items(struct rec_cf_scorer *c, const struct rec_cf_seeds *seeds,
    struct rec_cf_hit *out)
{
	const struct rec_cf_model *m = c->m;
	uint32_t cur = next_stamp(c);
	const uint32_t *ix = seeds->ix;
	size_t s, i, nh = 0;

	c->ntouched = 0;
	for (s = 0; s < seeds->n; s++)
		c->seedmark[ix[s]] = cur;
	for (s = 0; s < seeds->n; s++) {
		/* locals, so that the count stays in a register rather than
		 * going through memory at every neighbour */
		struct acc *restrict acc = c->acc;
		uint32_t *restrict touched = c->touched;
		const uint32_t *nbr = m->nbr;
		const double *sim = m->sim;
		size_t nt = c->ntouched;
		uint64_t j, end;
		if (m->first[ix[s]] == (uint64_t)-1)
			continue;
		j = m->first[ix[s]];
		/* without branches, which the data would mispredict: the
		 * user's own items are summed too and left out below (their
		 * sums touch no other item's) */
		for (end = j + m->count[ix[s]]; j < end; j++) {
			uint32_t nb = nbr[j];
			double v = sim[j];
			struct acc *a = &acc[nb];
			double b = a->best;
			uint32_t gt = -(uint32_t)(v > b);	/* all ones */
			touched[nt] = nb;
			nt += !a->mark;
			a->mark = 1;
			a->s += v;
			a->best = v > b ? v : b;
			a->bseed ^= (a->bseed ^ (uint32_t)s) & gt;
		}
		c->ntouched = nt;
	}
	for (i = 0; i < c->ntouched; i++) {
		uint32_t it = c->touched[i];
		if (c->seedmark[it] != cur) {
			struct cand *e = &c->cand[nh++];
			e->cf = e->key = c->acc[it].s;
			e->item = it;
			e->seed = c->acc[it].bseed;
			e->tie = (uint32_t)i;
		}
	}
	for (i = 0; i < c->ntouched; i++)
		memset(&c->acc[c->touched[i]], 0, sizeof *c->acc);
	return order(c, c->cand, nh, out);
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
    const struct rec_cf_seeds *const *seeds, size_t nu, struct rec_cf_hit **out,
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
			const struct rec_cf_seeds *sd = seeds[b0 + u];
			memcpy(c->q + u * dim, users[b0 + u], dim * sizeof *c->q);
			c->nheap[u] = 0;
			for (i = 0; i < sd->n; i++) {
				size_t x = sd->ix[i];
				seen[u * words + x / 64] |= (uint64_t)1 <<
				    (x % 64);
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
			for (i = 0; i < c->nheap[u]; i++) {
				struct cand *e = &c->cand[i];
				e->key = e->cf = h[i].score;
				e->item = e->tie = (uint32_t)h[i].index;
				e->seed = 0;
			}
			nout[b0 + u] = order(c, c->cand, c->nheap[u],
			    out[b0 + u]);
		}
	}
	free(seen);
}
