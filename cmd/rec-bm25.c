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

/* a part of the query: a word, or a phrase whose words count only in a
 * field that holds them next to each other */
struct part {
	size_t *w;		/* indexes into query.text */
	size_t nw;
};

/* the query's words, and for each field searched the index term of
 * each (or -1) and whether it was read as a neighbouring term */
struct query {
	char **text;		/* folded, distinct */
	size_t nq;
	struct part *part;	/* distinct */
	size_t np;
	int phrases;		/* a part has several words */
	int f[MAXFIELDS];
	size_t nf;
	long *term[MAXFIELDS];
	char *typo[MAXFIELDS];
	/* for phrases: the text of a document's fields, read from the
	 * catalog by id */
	sqlite3 *db;
	sqlite3_stmt *row[MAXFIELDS];
	int ncol[MAXFIELDS];
};

/* the index of folded word w[0..n) in q->text, added if new */
static size_t
word_of(struct query *q, const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < q->nq && (strlen(q->text[i]) != n ||
	    strncmp(q->text[i], w, n)); i++)
		;
	if (i == q->nq) {
		q->text = xrealloc(q->text, (q->nq + 1) * sizeof *q->text);
		q->text[q->nq++] = xstrndup(w, n);
	}
	return i;
}

/* adds the part of the folded words in norm; a part said twice counts
 * once: a long text must not be about its commonest words */
static void
add_part(struct query *q, const char *norm)
{
	struct part pt = {0};
	const char *p, *s;
	size_t i;

	for (p = norm; *p; p = *s ? s + 1 : s) {
		s = strchr(p, ' ');
		if (!s)
			s = p + strlen(p);
		pt.w = xrealloc(pt.w, (pt.nw + 1) * sizeof *pt.w);
		pt.w[pt.nw++] = word_of(q, p, (size_t)(s - p));
	}
	for (i = 0; i < q->np; i++)
		if (q->part[i].nw == pt.nw && !memcmp(q->part[i].w, pt.w,
		    pt.nw * sizeof *pt.w))
			break;
	if (!pt.nw || i < q->np) {
		free(pt.w);
		return;
	}
	q->part = xrealloc(q->part, (q->np + 1) * sizeof *q->part);
	q->part[q->np++] = pt;
	q->phrases |= pt.nw > 1;
}

/* the query's text into parts: each word outside double quotes, and
 * each quoted run of words */
static void
parse_query(struct query *q, const char *text)
{
	struct rec_buf norm = {0};
	const char *p = text, *e;
	int quoted = 0;

	for (;;) {
		e = strchr(p, '"');
		rec_buf_reset(&norm);
		rec_norm(&norm, p, e ? (size_t)(e - p) : strlen(p));
		if (quoted)
			add_part(q, norm.data ? norm.data : "");
		else if (norm.data) {
			const char *w, *s;
			char *one;
			for (w = norm.data; *w; w = *s ? s + 1 : s) {
				s = strchr(w, ' ');
				if (!s)
					s = w + strlen(w);
				one = xstrndup(w, (size_t)(s - w));
				add_part(q, one);	/* a part of its own */
				free(one);
			}
		}
		if (!e)
			break;
		quoted = !quoted;
		p = e + 1;
	}
	if (quoted)
		rec_usage_die("the query has a '\"' with no closing one");
	rec_buf_free(&norm);
}

/* with --prefix: each word of a part of its own, of 5 letters or more
 * with a plural's s dropped, adds as parts of their own the longer
 * words of field f that begin with it ("zombies" adds "zombie" and
 * "zombieland") */
static void
add_prefixed(const struct rec_bm25 *x, struct query *q, int f)
{
	const struct rec_bm25_field *fl = &x->field[f];
	size_t np = q->np, i, n;
	uint32_t first, k, m;
	const char *w;

	for (i = 0; i < np; i++) {
		if (q->part[i].nw != 1)
			continue;
		w = q->text[q->part[i].w[0]];
		n = strlen(w);
		if (n > 5 && w[n - 1] == 's' && w[n - 2] != 's')
			n--;
		if (n < 5 || strpbrk(w, "0123456789"))
			continue;
		m = rec_bm25_prefixed(x, f, w, n, &first);
		for (k = first; k < first + m; k++) {
			char *one = xstrndup(fl->termchars + fl->termoff[k],
			    fl->termoff[k + 1] - fl->termoff[k]);
			add_part(q, one);
			free(one);
		}
	}
}

/* the statement that reads field j's columns of a document by id */
static sqlite3_stmt *
field_row(const struct rec_bm25 *x, struct query *q, size_t j)
{
	const char *name = x->field[q->f[j]].name;
	struct rec_buf sql = {0};
	char **cols = NULL;
	size_t n = 1, i;

	if (q->row[j])
		return q->row[j];
	if (!strcmp(name, "all"))
		n = rec_text_columns(q->db, &cols);
	rec_buf_adds(&sql, "SELECT ");
	for (i = 0; i < n; i++)
		rec_buf_printf(&sql, "%s\"%s\"", i ? ", " : "", cols ? cols[i] :
		    name);
	rec_buf_adds(&sql, " FROM items WHERE id = ?");
	if (sqlite3_prepare_v2(q->db, sql.data, -1, &q->row[j], NULL) !=
	    SQLITE_OK)
		rec_sqlite_die(q->db, "items");
	q->ncol[j] = (int)n;
	for (i = 0; cols && i < n; i++)
		free(cols[i]);
	free(cols);
	rec_buf_free(&sql);
	return q->row[j];
}

/* field j of document d holds the words of phrase pt next to each
 * other (as the index spells them, typos read) */
static int
phrase_in(const struct rec_bm25 *x, struct query *q, size_t j,
    const struct part *pt, uint32_t d)
{
	const struct rec_bm25_field *fl = &x->field[q->f[j]];
	sqlite3_stmt *st = field_row(x, q, j);
	struct rec_buf ph = {0};
	int c, found = 0;
	size_t i;

	for (i = 0; i < pt->nw; i++) {
		long t = q->term[j][pt->w[i]];
		rec_buf_printf(&ph, "%s%.*s", i ? " " : "",
		    (int)(fl->termoff[t + 1] - fl->termoff[t]), fl->termchars +
		    fl->termoff[t]);
	}
	sqlite3_bind_text(st, 1, x->idchars + x->idoff[d], -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		for (c = 0; c < q->ncol[j] && !found; c++)
			found = rec_has_phrase((const char *)
			    sqlite3_column_text(st, c), ph.data);
	sqlite3_reset(st);
	rec_buf_free(&ph);
	return found;
}

/* what part pt takes from field j of document d: the sum of its words'
 * scores where every one is there (a phrase: next to each other), else
 * 0 */
static double
part_score(const struct rec_bm25 *x, struct query *q, size_t j,
    const struct part *pt, double k1, double bb, uint32_t d, int bound)
{
	double sc = 0, one;
	size_t i;

	for (i = 0; i < pt->nw; i++) {
		long t = q->term[j][pt->w[i]];
		if (t < 0 || (one = rec_bm25_score_doc(x, q->f[j], &t, 1, k1,
		    bb, d)) <= 0)
			return 0;
		sc += one;
	}
	if (pt->nw > 1 && !bound && !phrase_in(x, q, j, pt, d))
		return 0;
	return sc;
}

/* "bm25: daft, punk in artist; 'metalica' read as 'metallica'", a part
 * per field that matched; a phrase in double quotes */
static void
why(struct rec_buf *b, const struct rec_bm25 *x, struct query *q,
    uint32_t doc, double k1, double bb)
{
	size_t i, j, p, n;
	int any = 0;
	unsigned char *hit = xcalloc(q->np ? q->np : 1, 1);

	rec_buf_reset(b);
	rec_buf_adds(b, "bm25: ");
	for (j = 0; j < q->nf; j++) {
		const struct rec_bm25_field *fl = &x->field[q->f[j]];
		n = 0;
		for (p = 0; p < q->np; p++) {
			const struct part *pt = &q->part[p];
			hit[p] = part_score(x, q, j, pt, k1, bb, doc, 0) > 0;
			if (!hit[p])
				continue;
			rec_buf_printf(b, "%s%s%s", !n && any ? "; " : "",
			    n ? ", " : "", pt->nw > 1 ? "\"" : "");
			for (i = 0; i < pt->nw; i++) {
				long t = q->term[j][pt->w[i]];
				rec_buf_printf(b, "%s%.*s", i ? " " : "",
				    (int)(fl->termoff[t + 1] -
				    fl->termoff[t]), fl->termchars +
				    fl->termoff[t]);
			}
			if (pt->nw > 1)
				rec_buf_addc(b, '"');
			n++;
		}
		if (!n)
			continue;
		rec_buf_printf(b, " in %s", fl->name);
		any = 1;
		for (p = 0; p < q->np; p++)
			for (i = 0; hit[p] && i < q->part[p].nw; i++) {
				size_t w = q->part[p].w[i];
				long t = q->term[j][w];
				if (q->typo[j][w])
					rec_buf_printf(b, "; '%s' read as "
					    "'%.*s'", q->text[w], (int)(
					    fl->termoff[t + 1] - fl->termoff[t]),
					    fl->termchars + fl->termoff[t]);
			}
	}
	free(hit);
}

/* a document's score: the sum over the fields; with conj, 0 unless
 * every part matches in some field.  With bound, a phrase counts
 * wherever its words are: a bound of the score that needs no look at
 * the document's text */
static double
doc_score(const struct rec_bm25 *x, struct query *q, int conj,
    double k1, double bb, uint32_t d, int bound)
{
	double sc = 0, one;
	size_t i, j, nhit = 0;
	unsigned char *hit;

	if (!q->phrases) {
		/* the words' scores summed a field at a time, as
		 * rec_bm25_search sums them */
		for (i = 0; conj && i < q->nq; i++) {
			int h = 0;
			for (j = 0; j < q->nf && !h; j++)
				h = q->term[j][i] >= 0 && rec_bm25_score_doc(x,
				    q->f[j], &q->term[j][i], 1, k1, bb, d) > 0;
			if (!h)
				return 0;
		}
		for (j = 0; j < q->nf; j++)
			sc += rec_bm25_score_doc(x, q->f[j], q->term[j], q->nq,
			    k1, bb, d);
		return sc;
	}
	hit = xcalloc(q->np, 1);
	for (j = 0; j < q->nf; j++)
		for (i = 0; i < q->np; i++)
			if ((one = part_score(x, q, j, &q->part[i], k1, bb,
			    d, bound)) > 0) {
				sc += one;
				nhit += !hit[i];
				hit[i] = 1;
			}
	free(hit);
	return conj && nhit < q->np ? 0 : sc;
}

/* hits[0..n), bounds of their scores best first, become the k best by
 * their scores: the phrases are looked for in the documents' text in
 * the bounds' order, until the k-th best found beats the next bound
 * (a score is never above its bound).  The k best, best first, in
 * hits; how many */
static size_t
verify(const struct rec_bm25 *x, struct query *q, int conj, double k1,
    double bb, struct rec_scored *hits, size_t n, size_t k)
{
	struct rec_scored *h = xmalloc((k ? k : 1) * sizeof *h);
	size_t i, nh = 0;
	double sc;

	for (i = 0; i < n; i++) {
		/* the worst kept before the next bound, in the order of
		 * rec_scored_cmp: no document left can come in */
		if (nh == k && rec_scored_cmp(&h[0], &hits[i]) < 0)
			break;
		sc = doc_score(x, q, conj, k1, bb, (uint32_t)hits[i].index, 0);
		if (sc > 0)
			rec_topk_push(h, &nh, k, sc, hits[i].index);
	}
	memcpy(hits, h, nh * sizeof *h);
	rec_scored_sort(hits, nh, sizeof *hits);
	free(h);
	return nh;
}

int
main(int argc, char **argv)
{
	char shortopts[128];
	const struct option *longopts = rec_tooldef_getopt(&rec_tool_bm25,
	    shortopts, sizeof shortopts);
	const char *cat = NULL, *fname[MAXFIELDS] = { "all" }, *src = "bm25";
	size_t nfname = 0;
	struct rec_buf text = {0}, wb = {0};
	struct rec_bm25 x;
	struct query q;
	struct rec_scored *hits;
	struct rec_writer w;
	size_t nh, i, j, k = 0;
	double k1 = 1.2, bb = 0.75;
	int c, all = 0, conj = 0, exact = 0, doindex = 0, mp = 0, exh = 0;
	int prefix = 0;
	unsigned long nout = 0, nin = 0;
	char *end;

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
		case 'P': prefix = 1; break;
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
	parse_query(&q, text.data);
	if (!q.nq)
		rec_usage_die("the query has no words");
	if (prefix && conj)
		rec_usage_die("-P and -A: a longer word is another word, "
		    "not the same one");
	for (j = 0; prefix && j < q.nf; j++)
		add_prefixed(&x, &q, q.f[j]);
	if (q.phrases)
		q.db = rec_catalog_open(cat);
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
			sc = doc_score(&x, &q, conj, k1, bb, (uint32_t)d, 0);
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
		if (q.nf == 1 && !q.phrases) {
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
					sc = doc_score(&x, &q, conj, k1, bb, d,
					    q.phrases);
					if (sc <= 0)
						continue;
					hits[nd].index = d;
					hits[nd++].score = sc;
				}
			}
			rec_scored_sort(hits, nd, sizeof *hits);
			if (q.phrases)
				nd = verify(&x, &q, conj, k1, bb, hits, nd, k);
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
		/* every word known: a phrase is nowhere */
		for (i = 0; !msg.len && i < q.np; i++)
			for (j = 0; q.part[i].nw > 1 && j < q.part[i].nw; j++)
				rec_buf_printf(&msg, "%s%s%s%s", j ? " " :
				    msg.len ? ", " : "", j ? "" : "\"",
				    q.text[q.part[i].w[j]], j + 1 ==
				    q.part[i].nw ? "\"" : "");
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
		sqlite3_finalize(q.row[j]);
	}
	for (i = 0; i < q.np; i++)
		free(q.part[i].w);
	free(q.part);
	if (q.db)
		sqlite3_close(q.db);
	free(hits);
	rec_buf_free(&text);
	rec_buf_free(&wb);
	rec_bm25_close(&x);
	rec_exit(0);
}
