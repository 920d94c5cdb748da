/*
 * bench/cfeval.c: offline quality of the collaborative models,
 * leave-one-out: each user's last interaction is held out, the models
 * train on the rest, and the held-out item is ranked against every item
 * the user has not had (full ranking) and against 100 sampled ones.
 *
 * usage: cfeval catalog CATALOG     (interactions ordered by time)
 *        cfeval sequences FILE      (lines "user item item ...", in order)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rec.h"
#include "bench.h"

struct seqs {
	uint32_t nu, ni;
	uint32_t **item;	/* per user, in order */
	size_t *len;
};

static void
add(struct seqs *s, struct rec_hash *users, struct rec_hash *items,
    const char *u, size_t ul, const char *it, size_t il)
{
	int added;
	size_t k = rec_hash_put(users, u, ul, &added);
	size_t j = rec_hash_put(items, it, il, NULL);

	if (added) {
		s->item = xrealloc(s->item, users->cap * sizeof *s->item);
		s->len = xrealloc(s->len, users->cap * sizeof *s->len);
		s->item[k] = NULL;
		s->len[k] = 0;
	}
	s->item[k] = xrealloc(s->item[k], (s->len[k] + 1) * sizeof **s->item);
	s->item[k][s->len[k]++] = (uint32_t)j;
	s->nu = (uint32_t)users->n;
	s->ni = (uint32_t)items->n;
}

static uint64_t rng = 42;

static uint32_t
rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

struct result {
	double hr, ndcg, hr_s, ndcg_s;
};

/* rank of the target: items scoring higher, plus half the ties */
static void
evaluate(const struct seqs *s, const struct rec_csr *train,
    void (*score)(uint32_t, double *, void *), void *ctx,
    struct result *res)
{
	double *sc = xmalloc(((size_t)s->ni + 1) * sizeof *sc);
	char *seen = xcalloc((size_t)s->ni + 1, 1);
	size_t n = 0;
	uint32_t u;
	uint64_t e;

	memset(res, 0, sizeof *res);
	rng = 42;
	for (u = 0; u < s->nu; u++) {
		uint32_t target, j;
		size_t gt = 0, eq = 0, rank, sgt = 0, seq = 0, m;

		if (s->len[u] < 2)
			continue;
		target = s->item[u][s->len[u] - 1];
		score(u, sc, ctx);
		for (e = train->ptr[u]; e < train->ptr[u + 1]; e++)
			seen[train->idx[e]] = 1;
		for (j = 0; j < s->ni; j++) {
			if (seen[j] || j == target)
				continue;
			gt += sc[j] > sc[target];
			eq += sc[j] == sc[target];
		}
		rank = gt + eq / 2;
		if (rank < 10) {
			res->hr += 1;
			res->ndcg += 1 / log2((double)rank + 2);
		}
		/* 100 negatives the user has not had */
		for (m = 0; m < 100;) {
			j = rnd(s->ni);
			if (seen[j] || j == target)
				continue;
			sgt += sc[j] > sc[target];
			seq += sc[j] == sc[target];
			m++;
		}
		rank = sgt + seq / 2;
		if (rank < 10) {
			res->hr_s += 1;
			res->ndcg_s += 1 / log2((double)rank + 2);
		}
		for (e = train->ptr[u]; e < train->ptr[u + 1]; e++)
			seen[train->idx[e]] = 0;
		n++;
	}
	res->hr /= n;
	res->ndcg /= n;
	res->hr_s /= n;
	res->ndcg_s /= n;
	free(sc);
	free(seen);
}

struct pop { double *count; uint32_t ni; };

static void
score_pop(uint32_t u, double *sc, void *ctx)
{
	struct pop *p = ctx;

	(void)u;
	memcpy(sc, p->count, p->ni * sizeof *sc);
}

struct knn {
	const struct rec_csr *train;
	uint32_t *nbr, *cnt, ni;
	float *sim;
	size_t k;
};

static void
score_knn(uint32_t u, double *sc, void *ctx)
{
	struct knn *m = ctx;
	uint64_t e;
	uint32_t j;

	memset(sc, 0, m->ni * sizeof *sc);
	for (e = m->train->ptr[u]; e < m->train->ptr[u + 1]; e++) {
		uint32_t h = m->train->idx[e];
		for (j = 0; j < m->cnt[h]; j++)
			sc[m->nbr[(size_t)h * m->k + j]] +=
			    m->sim[(size_t)h * m->k + j];
	}
}

struct als { float *U, *V; size_t f; uint32_t ni; };

static void
score_als(uint32_t u, double *sc, void *ctx)
{
	struct als *m = ctx;
	uint32_t i;
	size_t j;

	for (i = 0; i < m->ni; i++) {
		double d = 0;
		for (j = 0; j < m->f; j++)
			d += (double)m->U[(size_t)u * m->f + j] *
			    m->V[(size_t)i * m->f + j];
		sc[i] = d;
	}
}

struct ease { const struct rec_csr *train; float *B; size_t ld; uint32_t ni; };

static void
score_ease(uint32_t u, double *sc, void *ctx)
{
	struct ease *m = ctx;
	uint64_t e;
	uint32_t j;

	memset(sc, 0, m->ni * sizeof *sc);
	for (e = m->train->ptr[u]; e < m->train->ptr[u + 1]; e++) {
		const float *row = m->B + (size_t)m->train->idx[e] * m->ld;
		for (j = 0; j < m->ni; j++)
			sc[j] += row[j];
	}
}

static void
report(const char *name, double secs, const struct result *r)
{
	printf("%-22s %9.2f %9.4f %9.4f %11.4f %11.4f\n", name, secs, r->hr,
	    r->ndcg, r->hr_s, r->ndcg_s);
}

int
main(int argc, char **argv)
{
	struct seqs s = {0};
	struct rec_hash users = {0}, items = {0};
	struct rec_csr train;
	uint32_t *row = NULL, *col = NULL, u;
	size_t n = 0, cap = 0, i, j, users_eval = 0;
	struct result res;
	double t0, t1;

	rec_init(argc, argv);
	if (argc != 3)
		rec_usage_die("usage: cfeval catalog CATALOG | sequences FILE");
	if (!strcmp(argv[1], "catalog")) {
		sqlite3 *db = rec_catalog_open(argv[2]);
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, "SELECT user, item FROM interactions "
		    "ORDER BY user, time, rowid", -1, &st, NULL))
			rec_sqlite_die(db, "interactions");
		while (sqlite3_step(st) == SQLITE_ROW)
			add(&s, &users, &items,
			    (const char *)sqlite3_column_text(st, 0),
			    (size_t)sqlite3_column_bytes(st, 0),
			    (const char *)sqlite3_column_text(st, 1),
			    (size_t)sqlite3_column_bytes(st, 1));
		sqlite3_finalize(st);
		sqlite3_close(db);
	} else {
		FILE *fp = fopen(argv[2], "r");
		char *line = NULL, *tok, *save, *user;
		size_t lcap = 0;
		if (!fp)
			rec_die("cannot open '%s': %m", argv[2]);
		while (getline(&line, &lcap, fp) > 0) {
			user = strtok_r(line, " \t\n", &save);
			if (!user)
				continue;
			while ((tok = strtok_r(NULL, " \t\n", &save)))
				add(&s, &users, &items, user, strlen(user), tok,
				    strlen(tok));
		}
		free(line);
		fclose(fp);
	}
	for (u = 0; u < s.nu; u++)
		for (i = 0; i + 1 < s.len[u]; i++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 65536;
				row = xrealloc(row, cap * sizeof *row);
				col = xrealloc(col, cap * sizeof *col);
			}
			row[n] = u;
			col[n++] = s.item[u][i];
		}
	for (u = 0; u < s.nu; u++)
		users_eval += s.len[u] >= 2;
	rec_csr_build(&train, s.nu, s.ni, row, col, n);
	printf("%s: %u users (%zu evaluated), %u items, %zu training "
	    "interactions\n", argv[2], s.nu, users_eval, s.ni,
	    (size_t)train.ptr[train.nrows]);
	printf("%-22s %9s %9s %9s %11s %11s\n", "model", "train s", "HR@10",
	    "NDCG@10", "HR@10/100", "NDCG@10/100");
	{
		struct pop p;
		p.ni = s.ni;
		p.count = xcalloc(s.ni + 1, sizeof *p.count);
		t0 = now();
		for (j = 0; j < train.ptr[train.nrows]; j++)
			p.count[train.idx[j]] += 1;
		t0 = now() - t0;
		evaluate(&s, &train, score_pop, &p, &res);
		report("popularity", t0, &res);
		free(p.count);
	}
	{
		struct knn m;
		m.train = &train;
		m.k = 100;
		m.ni = s.ni;
		m.nbr = xmalloc((size_t)s.ni * m.k * sizeof *m.nbr);
		m.sim = xmalloc((size_t)s.ni * m.k * sizeof *m.sim);
		m.cnt = xcalloc(s.ni + 1, sizeof *m.cnt);
		t0 = now();
		rec_itemknn_train(&train, m.k, 10, m.nbr, m.sim, m.cnt, 0);
		t0 = now() - t0;
		evaluate(&s, &train, score_knn, &m, &res);
		report("ItemKNN (k 100, sh 10)", t0, &res);
		free(m.nbr);
		free(m.sim);
		free(m.cnt);
	}
	{
		struct ease m;
		struct knn k;
		m.train = &train;
		m.ni = s.ni;
		t0 = now();
		m.B = rec_ease_matrix(&train, 100, &m.ld, 0);
		t0 = now() - t0;
		evaluate(&s, &train, score_ease, &m, &res);
		report("EASE (lambda 100)", t0, &res);
		k.train = &train;
		k.k = 100;
		k.ni = s.ni;
		k.nbr = xmalloc((size_t)s.ni * k.k * sizeof *k.nbr);
		k.sim = xmalloc((size_t)s.ni * k.k * sizeof *k.sim);
		k.cnt = xcalloc(s.ni + 1, sizeof *k.cnt);
		/* the same matrix, cut: its time is the inverse's plus the
		 * cut's */
		t1 = now();
		rec_ease_topk(m.B, m.ld, s.ni, k.k, k.nbr, k.sim, k.cnt);
		t0 += now() - t1;
		free(m.B);
		evaluate(&s, &train, score_knn, &k, &res);
		report("EASE, top 100 kept", t0, &res);
		free(k.nbr);
		free(k.sim);
		free(k.cnt);
	}
	{
		struct als m;
		m.f = 64;
		m.ni = s.ni;
		m.U = xcalloc((size_t)s.nu * m.f, sizeof *m.U);
		m.V = xcalloc((size_t)s.ni * m.f, sizeof *m.V);
		t0 = now();
		rec_als_train(&train, m.f, 10, 0.1, 10, 1, m.U, m.V, 0);
		t0 = now() - t0;
		evaluate(&s, &train, score_als, &m, &res);
		report("ALS (f 64, 10 iters)", t0, &res);
		t0 = now();
		rec_bpr_train(&train, m.f, 100, 0.05, 0.001, 1, m.U, m.V, 0);
		t0 = now() - t0;
		evaluate(&s, &train, score_als, &m, &res);
		report("BPR (f 64, 100 epochs)", t0, &res);
		free(m.U);
		free(m.V);
	}
	rec_csr_free(&train);
	return 0;
}
