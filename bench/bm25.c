/*
 * bench/bm25.c: rec's BM25 index against SQLite FTS5's bm25() on the
 * same documents: build time, size, and top-100 latency of 1-4 term
 * queries, disjunctive and conjunctive.  Also checks that the pruned
 * top-100 is the exhaustive one, query by query.
 *
 * usage: bm25 synthetic NDOCS NQUERIES DIR
 *        bm25 catalog CATALOG NQUERIES DIR
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rec.h"
#include "bench.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double
uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng >> 11) * (1.0 / 9007199254740992.0);
}

#define VOCAB 50000
static double cdf[VOCAB];

static void
zipf_init(void)
{
	double s = 0;
	int i;

	for (i = 0; i < VOCAB; i++)
		s += 1.0 / (i + 1);
	cdf[0] = 1.0 / s;
	for (i = 1; i < VOCAB; i++)
		cdf[i] = cdf[i - 1] + 1.0 / (i + 1) / s;
}

static int
zipf(void)
{
	double u = uniform();
	int lo = 0, hi = VOCAB - 1;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a word for rank r: letters only, so both tokenizers agree */
static void
word(struct rec_buf *b, int r)
{
	char w[8];
	int n = 0;

	do {
		w[n++] = (char)('a' + r % 26);
		r /= 26;
	} while (r);
	rec_buf_add(b, "q", 1);
	rec_buf_add(b, w, (size_t)n);
}

static off_t
fsize(const char *p)
{
	struct stat st;

	return stat(p, &st) ? 0 : st.st_size;
}

int
main(int argc, char **argv)
{
	struct rec_buf *docs = NULL, q = {0}, path = {0}, sql = {0};
	size_t ndocs = 0, nq, i, j, t;
	sqlite3 *fts;
	sqlite3_stmt *st;
	struct rec_bm25_builder *b;
	struct rec_bm25 x;
	struct rec_buf err = {0};
	const char *names[] = { "all" };
	char **queries;
	int *qlen;
	double t0, tb_rec, tb_fts;
	int mismatch = 0;

	rec_init(argc, argv);
	if (argc != 5)
		rec_usage_die("usage: bm25 synthetic|catalog N|CATALOG "
		    "NQUERIES DIR");
	nq = (size_t)atol(argv[3]);
	zipf_init();
	if (!strcmp(argv[1], "synthetic")) {
		ndocs = (size_t)atol(argv[2]);
		docs = xcalloc(ndocs, sizeof *docs);
		for (i = 0; i < ndocs; i++) {
			int len = 10 + (int)(uniform() * 41);
			for (j = 0; j < (size_t)len; j++) {
				if (j)
					rec_buf_addc(&docs[i], ' ');
				word(&docs[i], zipf());
			}
		}
	} else {
		sqlite3 *db = rec_catalog_open(argv[2]);
		char *ti = rec_catalog_role(db, "title"),
		    *cr = rec_catalog_role(db, "creator");
		/* titles, creators and every tags column */
		rec_buf_printf(&sql, "SELECT coalesce(\"%s\", '') || ' ' || "
		    "coalesce(\"%s\", '')", ti, cr);
		if (sqlite3_prepare_v2(db, "SELECT name FROM columns WHERE role "
		    "= 'tags'", -1, &st, NULL) == SQLITE_OK) {
			while (sqlite3_step(st) == SQLITE_ROW)
				rec_buf_printf(&sql, " || ' ' || coalesce(\"%s\","
				    " '')", sqlite3_column_text(st, 0));
			sqlite3_finalize(st);
		}
		rec_buf_adds(&sql, " FROM items ORDER BY rowid");
		if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL))
			rec_sqlite_die(db, "items");
		while (sqlite3_step(st) == SQLITE_ROW) {
			docs = xrealloc(docs, (ndocs + 1) * sizeof *docs);
			memset(&docs[ndocs], 0, sizeof *docs);
			rec_buf_adds(&docs[ndocs++],
			    (const char *)sqlite3_column_text(st, 0));
		}
		sqlite3_finalize(st);
		sqlite3_close(db);
		free(ti);
		free(cr);
	}
	/* queries of 1-4 words drawn from the documents themselves */
	queries = xcalloc(nq, sizeof *queries);
	qlen = xcalloc(nq, sizeof *qlen);
	for (i = 0; i < nq; i++) {
		struct rec_buf n = {0};
		const char *d;
		size_t words = 0, w;
		qlen[i] = 1 + (int)(uniform() * 4);
		rec_buf_reset(&q);
		for (t = 0; t < (size_t)qlen[i]; t++) {
			d = docs[(size_t)(uniform() * ndocs)].data;
			rec_buf_reset(&n);
			rec_norm(&n, d, strlen(d));
			if (!n.len) {
				t--;
				continue;
			}
			for (words = 1, j = 0; j < n.len; j++)
				words += n.data[j] == ' ';
			w = (size_t)(uniform() * words);
			for (d = n.data; w; d++)
				w -= *d == ' ';
			if (t)
				rec_buf_addc(&q, ' ');
			rec_buf_add(&q, d, strcspn(d, " "));
		}
		queries[i] = xstrdup(q.data);
		rec_buf_free(&n);
	}

	/* rec: build */
	rec_buf_printf(&path, "%s/bench.bm25", argv[4]);
	t0 = now();
	b = rec_bm25_builder_new(1, names);
	for (i = 0; i < ndocs; i++) {
		char id[24];
		const char *tx[1] = { docs[i].data };
		snprintf(id, sizeof id, "%zu", i);
		rec_bm25_builder_doc(b, id, tx);
	}
	if (rec_bm25_builder_write(b, path.data, 0, 0))
		rec_die("cannot write '%s': %m", path.data);
	rec_bm25_builder_free(b);
	tb_rec = now() - t0;
	if (rec_bm25_open(&x, path.data, &err))
		rec_die("%s", err.data);

	/* FTS5: build */
	rec_buf_reset(&sql);
	rec_buf_printf(&sql, "%s/bench-fts5.db", argv[4]);
	unlink(sql.data);
	t0 = now();
	if (sqlite3_open(sql.data, &fts))
		rec_die("fts5 db");
	rec_sql_exec(fts, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
	    "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = "
	    "'unicode61 remove_diacritics 2'); BEGIN", "fts5");
	sqlite3_prepare_v2(fts, "INSERT INTO docs(rowid, body) VALUES(?, ?)",
	    -1, &st, NULL);
	for (i = 0; i < ndocs; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, (sqlite3_int64)i + 1);
		sqlite3_bind_text(st, 2, docs[i].data, (int)docs[i].len,
		    SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rec_sqlite_die(fts, "fts5 insert");
	}
	sqlite3_finalize(st);
	rec_sql_exec(fts, "COMMIT; INSERT INTO docs(docs) VALUES('optimize')",
	    "fts5");
	tb_fts = now() - t0;

	printf("documents %zu, queries %zu of 1-4 words\n", ndocs, nq);
	printf("%-34s %10s %12s\n", "index", "build s", "size MB");
	printf("%-34s %10.2f %12.1f\n", "rec-bm25", tb_rec,
	    fsize(path.data) / 1e6);
	printf("%-34s %10.2f %12.1f\n", "SQLite FTS5", tb_fts,
	    fsize(sql.data) / 1e6);

	for (int conj = 0; conj < 2; conj++) {
		double *trec = xcalloc(nq, sizeof *trec);
		double *tex = xcalloc(nq, sizeof *tex);
		double *tfts = xcalloc(nq, sizeof *tfts);
		double srec = 0, sex = 0, sfts = 0;
		struct rec_scored *h1 = xmalloc(100 * sizeof *h1),
		    *h2 = xmalloc(100 * sizeof *h2);
		size_t totalhits = 0;

		if (sqlite3_prepare_v2(fts, "SELECT rowid FROM docs WHERE docs "
		    "MATCH ? ORDER BY rank LIMIT 100", -1, &st, NULL))
			rec_sqlite_die(fts, "fts5 query");
		for (i = 0; i < nq; i++) {
			long terms[4];
			size_t n1, n2, nt = 0;
			const char *p = queries[i], *s;
			struct rec_buf m = {0};

			for (; *p; p = *s ? s + 1 : s) {
				s = strchr(p, ' ');
				if (!s)
					s = p + strlen(p);
				terms[nt++] = rec_bm25_term(&x, 0, p,
				    (size_t)(s - p));
				rec_buf_printf(&m, "%s\"%.*s\"", nt > 1 ?
				    (conj ? " AND " : " OR ") : "",
				    (int)(s - p), p);
			}
			t0 = now();
			n1 = rec_bm25_search(&x, 0, terms, nt, conj, 1.2, 0.75,
			    100, 0, h1);
			trec[i] = now() - t0;
			t0 = now();
			n2 = rec_bm25_search(&x, 0, terms, nt, conj, 1.2, 0.75,
			    100, 1, h2);
			tex[i] = now() - t0;
			if (n1 != n2)
				mismatch++;
			else
				for (j = 0; j < n1; j++)
					if (h1[j].index != h2[j].index ||
					    h1[j].score != h2[j].score) {
						mismatch++;
						break;
					}
			totalhits += n1;
			t0 = now();
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, m.data, -1, SQLITE_STATIC);
			while (sqlite3_step(st) == SQLITE_ROW)
				;
			tfts[i] = now() - t0;
			srec += trec[i];
			sex += tex[i];
			sfts += tfts[i];
			rec_buf_free(&m);
		}
		sqlite3_finalize(st);
		qsort(trec, nq, sizeof *trec, cmp_d);
		qsort(tex, nq, sizeof *tex, cmp_d);
		qsort(tfts, nq, sizeof *tfts, cmp_d);
		printf("\n%s top-100 (%.1f hits per query)\n", conj ?
		    "conjunctive (all words)" : "disjunctive (any word)",
		    (double)totalhits / nq);
		printf("%-34s %10s %12s %10s\n", "", "mean ms", "median ms",
		    "ratio");
		printf("%-34s %10.3f %12.3f %10.2f\n", "SQLite FTS5 (baseline)",
		    sfts / nq * 1e3, tfts[nq / 2] * 1e3, 1.0);
		if (!conj)	/* conjunctive has one algorithm */
			printf("%-34s %10.3f %12.3f %10.2f\n",
			    "rec-bm25, exhaustive", sex / nq * 1e3,
			    tex[nq / 2] * 1e3, sfts / sex);
		printf("%-34s %10.3f %12.3f %10.2f\n", conj ?
		    "rec-bm25, intersection" : "rec-bm25, MaxScore",
		    srec / nq * 1e3, trec[nq / 2] * 1e3, sfts / srec);
		free(trec);
		free(tex);
		free(tfts);
		free(h1);
		free(h2);
	}
	printf("\npruned top-100 equal to exhaustive: %s (%d mismatches in "
	    "%zu queries)\n", mismatch ? "NO" : "yes", mismatch, 2 * nq);
	sqlite3_close(fts);
	unlink(sql.data);
	unlink(path.data);
	rec_bm25_close(&x);
	return mismatch ? 1 : 0;
}
