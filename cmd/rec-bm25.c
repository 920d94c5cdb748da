/*
 * rec-bm25: lexical retrieval with Okapi BM25 over one text field of the
 * catalog, tolerant of typos, from the whole catalog or the pool.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "retrieve.h"
#include "opts.h"

static void
usage(FILE *fp)
{
	rec_tooldef_usage(&rec_tool_bm25, fp);
}

static char *
index_path(const char *cat)
{
	struct rec_buf b = {0};

	rec_buf_printf(&b, "%s.bm25", cat);
	return b.data;
}

static void
build(const char *cat)
{
	sqlite3 *db = rec_catalog_open(cat);
	sqlite3_stmt *st;
	struct rec_buf sql = {0}, all = {0};
	struct rec_bm25_builder *b;
	const char **names, **texts;
	char **cols;
	size_t n = 0, i;
	struct stat sb;
	char *path = index_path(cat);

	n = rec_text_columns(db, &cols);
	if (!n)
		rec_die("catalog '%s' has no text columns to index", cat);
	names = (const char **)cols;
	names[n] = "all";
	rec_buf_adds(&sql, "SELECT id");
	for (i = 0; i < n; i++)
		rec_buf_printf(&sql, ", \"%s\"", names[i]);
	rec_buf_adds(&sql, " FROM items ORDER BY rowid");
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "items");
	b = rec_bm25_builder_new(n + 1, names);
	texts = xcalloc(n + 1, sizeof *texts);
	while (sqlite3_step(st) == SQLITE_ROW) {
		rec_buf_reset(&all);
		for (i = 0; i < n; i++) {
			texts[i] = (const char *)sqlite3_column_text(st,
			    (int)i + 1);
			if (texts[i]) {
				rec_buf_adds(&all, texts[i]);
				rec_buf_addc(&all, ' ');
			}
		}
		texts[n] = all.data ? all.data : "";
		rec_bm25_builder_doc(b, (const char *)sqlite3_column_text(st, 0),
		    texts);
	}
	sqlite3_finalize(st);
	if (stat(cat, &sb) < 0)
		rec_die("cannot stat '%s': %m", cat);
	if (rec_bm25_builder_write(b, path, (uint64_t)sb.st_size,
	    (int64_t)sb.st_mtime) < 0)
		rec_die("cannot write '%s': %m", path);
	rec_bm25_builder_free(b);
	for (i = 0; i < n; i++)
		free((char *)names[i]);
	free(names);
	free(texts);
	free(path);
	rec_buf_free(&sql);
	rec_buf_free(&all);
	sqlite3_close(db);
}

static int
open_index(struct rec_bm25 *x, const char *cat)
{
	struct rec_buf err = {0};
	struct stat sb;
	char *path = index_path(cat);

	if (stat(cat, &sb) < 0)
		rec_die("cannot open catalog '%s': %m", cat);
	if (access(path, F_OK) < 0)
		rec_die("no BM25 index for '%s' (build it with rec-bm25 "
		    "--index)", cat);
	if (rec_bm25_open(x, path, &err) < 0)
		rec_die("%s", err.data);
	if (x->cat_size != (uint64_t)sb.st_size ||
	    x->cat_mtime != (int64_t)sb.st_mtime)
		rec_die("BM25 index '%s' is older than the catalog (rebuild "
		    "it with rec-bm25 --index)", path);
	free(path);
	return 0;
}

static int
resolve_field(struct rec_bm25 *x, const char *cat, const char *name)
{
	int f = rec_bm25_field_index(x, name);
	struct rec_buf list = {0};
	char *col;
	sqlite3 *db;
	uint32_t i;

	if (f >= 0)
		return f;
	db = rec_catalog_open(cat);
	col = rec_catalog_role(db, name);
	sqlite3_close(db);
	if (col && (f = rec_bm25_field_index(x, col)) >= 0) {
		free(col);
		return f;
	}
	free(col);
	for (i = 0; i < x->nfields; i++)
		rec_buf_printf(&list, "%s%s", i ? ", " : "", x->field[i].name);
	rec_usage_die("no text field '%s' (fields: %s)", name, list.data);
}

#define MAXFIELDS 32

/* the query's words, and for each field searched the index term of
 * each (or -1) and whether it was read as a neighbouring term */
struct query {
	char **text;		/* folded, distinct */
	size_t nq;
	int f[MAXFIELDS];
	size_t nf;
	long *term[MAXFIELDS];
	char *typo[MAXFIELDS];
};

/* "bm25: daft, punk in artist; 'metalica' read as 'metallica'", a part
 * per field that matched */
static void
why(struct rec_buf *b, const struct rec_bm25 *x, const struct query *q,
    uint32_t doc, double k1, double bb)
{
	size_t i, j, n;
	int any = 0;

	rec_buf_reset(b);
	rec_buf_adds(b, "bm25: ");
	for (j = 0; j < q->nf; j++) {
		const struct rec_bm25_field *fl = &x->field[q->f[j]];
		n = 0;
		for (i = 0; i < q->nq; i++) {
			long t = q->term[j][i];
			if (t < 0 || rec_bm25_score_doc(x, q->f[j], &t, 1, k1,
			    bb, doc) <= 0)
				continue;
			rec_buf_printf(b, "%s%s%.*s", !n && any ? "; " : "",
			    n ? ", " : "", (int)(fl->termoff[t + 1] -
			    fl->termoff[t]), fl->termchars + fl->termoff[t]);
			n++;
		}
		if (!n)
			continue;
		rec_buf_printf(b, " in %s", fl->name);
		any = 1;
		for (i = 0; i < q->nq; i++) {
			long t = q->term[j][i];
			if (q->typo[j][i] && rec_bm25_score_doc(x, q->f[j], &t,
			    1, k1, bb, doc) > 0)
				rec_buf_printf(b, "; '%s' read as '%.*s'",
				    q->text[i], (int)(fl->termoff[t + 1] -
				    fl->termoff[t]), fl->termchars +
				    fl->termoff[t]);
		}
	}
}

/* a document's score: the sum over the fields; with conj, 0 unless
 * every word matches in some field */
static double
doc_score(const struct rec_bm25 *x, const struct query *q, int conj,
    double k1, double bb, uint32_t d)
{
	double sc = 0;
	size_t i, j;

	for (i = 0; conj && i < q->nq; i++) {
		int hit = 0;
		for (j = 0; j < q->nf && !hit; j++)
			hit = q->term[j][i] >= 0 && rec_bm25_score_doc(x,
			    q->f[j], &q->term[j][i], 1, k1, bb, d) > 0;
		if (!hit)
			return 0;
	}
	for (j = 0; j < q->nf; j++)
		sc += rec_bm25_score_doc(x, q->f[j], q->term[j], q->nq, k1, bb,
		    d);
	return sc;
}

int
main(int argc, char **argv)
{
	char shortopts[128];
	const struct option *longopts = rec_tooldef_getopt(&rec_tool_bm25,
	    shortopts, sizeof shortopts);
	const char *cat = NULL, *fname[MAXFIELDS] = { "all" }, *src = "bm25";
	size_t nfname = 0;
	struct rec_buf text = {0}, norm = {0}, wb = {0};
	struct rec_bm25 x;
	struct query q;
	struct rec_scored *hits;
	struct rec_writer w;
	size_t nh, i, j, k = 0;
	double k1 = 1.2, bb = 0.75;
	int c, all = 0, conj = 0, exact = 0, doindex = 0, mp = 0, exh = 0;
	unsigned long nout = 0, nin = 0;
	char *end;
	const char *p, *s;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, shortopts, longopts,
	    NULL)) != -1)
		switch (c) {
		case 'a': all = 1; break;
		case 'A': conj = 1; break;
		case 'b':
			bb = strtod(optarg, &end);
			if (*end || !*optarg || bb < 0 || bb > 1)
				rec_usage_die("-b: not a number from 0 to 1: "
				    "'%s'", optarg);
			break;
		case 'd': cat = optarg; break;
		case 'e': exact = 1; break;
		case 'f':
			if (nfname == MAXFIELDS)
				rec_usage_die("-f: at most %d fields", MAXFIELDS);
			fname[nfname++] = optarg;
			break;
		case 'I': doindex = 1; break;
		case 'K':
			k1 = strtod(optarg, &end);
			if (*end || !*optarg || k1 < 0)
				rec_usage_die("-K: not a number >= 0: '%s'",
				    optarg);
			break;
		case 'k': k = rec_arg_count("-k", optarg); break;
		case 'M': mp = 1; break;
		case 's': src = optarg; break;
		case 'X': exh = 1; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	cat = rec_catalog_path(cat);
	if (doindex) {
		if (optind < argc)
			rec_usage_die("--index takes no query");
		build(cat);
		rec_exit(0);
	}
	if (optind == argc)
		rec_usage_die("give a QUERY");
	for (i = (size_t)optind; i < (size_t)argc; i++) {
		rec_buf_adds(&text, argv[i]);
		rec_buf_addc(&text, ' ');
	}
	open_index(&x, cat);
	memset(&q, 0, sizeof q);
	q.nf = nfname ? nfname : 1;
	for (j = 0; j < q.nf; j++) {
		q.f[j] = resolve_field(&x, cat, fname[j]);
		for (i = 0; i < j; i++)
			if (q.f[i] == q.f[j])
				rec_usage_die("-f: field '%s' given twice",
				    fname[j]);
	}
	rec_norm(&norm, text.data, text.len);
	for (p = norm.data; p && *p; p = *s ? s + 1 : s) {
		s = strchr(p, ' ');
		if (!s)
			s = p + strlen(p);
		/* a word said twice counts once: a long text must not
		 * be about its commonest words */
		for (i = 0; i < q.nq && (strlen(q.text[i]) != (size_t)(s - p) ||
		    strncmp(q.text[i], p, (size_t)(s - p))); i++)
			;
		if (i < q.nq)
			continue;
		q.text = xrealloc(q.text, (q.nq + 1) * sizeof *q.text);
		q.text[q.nq++] = xstrndup(p, (size_t)(s - p));
	}
	if (!q.nq)
		rec_usage_die("the query has no words");
	for (j = 0; j < q.nf; j++) {
		q.term[j] = xmalloc(q.nq * sizeof *q.term[j]);
		q.typo[j] = xcalloc(q.nq, 1);
		for (i = 0; i < q.nq; i++) {
			size_t n = strlen(q.text[i]);
			q.term[j][i] = rec_bm25_term(&x, q.f[j], q.text[i], n);
			if (q.term[j][i] < 0 && !exact) {
				q.term[j][i] = rec_bm25_closest_term(&x, q.f[j],
				    q.text[i], n);
				q.typo[j][i] = q.term[j][i] >= 0;
			}
		}
	}
	rec_writer_init(&w, 1, mp);
	if (!all && rec_stdin_is_pool()) {
		struct rec_pool pool;
		struct rec_reader r;
		size_t nd = 0;

		rec_reader_init(&r, 0, "stdin");
		rec_pool_read(&pool, &r);
		nin = pool.n;
		hits = xmalloc((pool.ids.n + 1) * sizeof *hits);
		for (i = 0; i < pool.ids.n; i++) {
			long d = rec_bm25_doc(&x, pool.ids.key[i],
			    pool.ids.keylen[i]);
			double sc;
			if (d < 0)
				continue;
			sc = doc_score(&x, &q, conj, k1, bb, (uint32_t)d);
			if (sc <= 0)
				continue;
			hits[nd].index = i;	/* pool id index */
			hits[nd++].score = sc;
		}
		rec_scored_sort(hits, nd, sizeof *hits);
		if (!k)
			k = (size_t)-1;	/* a pool: every match */
		for (i = 0; i < nd && nout < k; i++) {
			size_t id = hits[i].index;
			long d = rec_bm25_doc(&x, pool.ids.key[id],
			    pool.ids.keylen[id]);
			why(&wb, &x, &q, (uint32_t)d, k1, bb);
			nout += rec_write_scored(&w, &pool, pool.ids.key[id],
			    pool.ids.keylen[id], hits[i].score, src, wb.data,
			    k - nout);
		}
		rec_reader_free(&r);
		rec_pool_free(&pool);
	} else {
		if (!k)
			k = 100;
		if (q.nf == 1) {
			hits = xmalloc(k * sizeof *hits);
			nh = rec_bm25_search(&x, q.f[0], q.term[0], q.nq, conj,
			    k1, bb, k, exh, hits);
		} else {
			/* several fields: every document a term of a field
			 * reaches, scored over all the fields */
			struct rec_scored *one = xmalloc((size_t)x.ndocs *
			    sizeof *one);
			unsigned char *seen = xcalloc(x.ndocs ? x.ndocs : 1, 1);
			size_t n1, nd = 0;
			hits = xmalloc(((size_t)x.ndocs + 1) * sizeof *hits);
			for (j = 0; j < q.nf; j++) {
				n1 = rec_bm25_search(&x, q.f[j], q.term[j], q.nq,
				    0, k1, bb, x.ndocs, 1, one);
				for (i = 0; i < n1; i++) {
					uint32_t d = (uint32_t)one[i].index;
					double sc;
					if (seen[d]++)
						continue;
					sc = doc_score(&x, &q, conj, k1, bb, d);
					if (sc <= 0)
						continue;
					hits[nd].index = d;
					hits[nd++].score = sc;
				}
			}
			rec_scored_sort(hits, nd, sizeof *hits);
			nh = nd < k ? nd : k;
			free(one);
			free(seen);
		}
		for (i = 0; i < nh; i++) {
			const char *id = x.idchars + x.idoff[hits[i].index];
			why(&wb, &x, &q, (uint32_t)hits[i].index, k1, bb);
			nout += rec_write_scored(&w, NULL, id, strlen(id),
			    hits[i].score, src, wb.data, 1);
		}
	}
	if (!nout) {
		struct rec_buf msg = {0}, fields = {0};
		for (i = 0; i < q.nq; i++) {
			int found = 0;
			for (j = 0; j < q.nf; j++)
				found |= q.term[j][i] >= 0;
			if (!found)
				rec_buf_printf(&msg, "%s'%s'", msg.len ? ", " :
				    "", q.text[i]);
		}
		for (j = 0; j < q.nf; j++)
			rec_buf_printf(&fields, "%s%s", j ? ", " : "",
			    x.field[q.f[j]].name);
		if (msg.len)
			rec_warn("no match in %s for %s", fields.data,
			    msg.data);
		rec_buf_free(&msg);
		rec_buf_free(&fields);
	}
	rec_writer_close(&w);
	rec_trace_count(nin, nout);
	for (i = 0; i < q.nq; i++)
		free(q.text[i]);
	free(q.text);
	for (j = 0; j < q.nf; j++) {
		free(q.term[j]);
		free(q.typo[j]);
	}
	free(hits);
	rec_buf_free(&text);
	rec_buf_free(&norm);
	rec_buf_free(&wb);
	rec_bm25_close(&x);
	rec_exit(0);
}
