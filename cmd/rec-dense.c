/*
 * rec-dense: embedding retrieval: items near seeds, near a user, or near
 * a given vector, in one vector space of the catalog.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-dense [-aeM] [-d CATALOG] [-S SPACE] [-m METRIC] [-k N] "
	    "[-s NAME]\n"
	    "                 -l ID,... | -u USER | -v X,Y,... | -t TEXT\n"
	    "  -a, --all            search the whole catalog, ignoring "
	    "standard input\n"
	    "  -d, --db CATALOG     the catalog (default $REC_DB)\n"
	    "  -e, --lenient        an unknown seed or user: a warning and "
	    "no records\n"
	    "  -k, --limit N        write at most N records (default 100)\n"
	    "  -l, --like ID,...    items near these (which are left out)\n"
	    "  -m, --metric METRIC  cosine (default) or ip (inner product)\n"
	    "  -M, --msgpack        write msgpack instead of JSONL\n"
	    "  -s, --as NAME        the src of the records (default dense)\n"
	    "  -S, --space SPACE    the vector space (default: the only one)\n"
	    "  -t, --text TEXT      items near the text, by the encoder of "
	    "rec-train text\n"
	    "                       or through REC_LLM_URL\n"
	    "  -u, --user USER      items near the user's taste\n"
	    "  -v, --vector X,...   items near this vector\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

static int lenient;

/* the first space the query finds, and how many it finds */
static char *
first_space(sqlite3 *db, const char *sql, int *n)
{
	sqlite3_stmt *st;
	char *s = NULL;

	*n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW)
			if (!(*n)++)
				s = xstrdup((const char *)
				    sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	return s;
}

static char *
only_space(sqlite3 *db)
{
	int n;
	char *s = first_space(db, "SELECT name FROM spaces ORDER BY name", &n);

	if (n == 1)
		return s;
	free(s);
	if (!n)
		rec_die("the catalog has no vector spaces (add one with "
		    "rec-import vectors or rec-train als)");
	rec_usage_die("the catalog has %d vector spaces: choose one with -S",
	    n);
}

/* for --text without --space: the encoder rec-train text made, when
 * there is exactly one, or else the only space */
static char *
text_space(sqlite3 *db)
{
	int n;
	char *s = first_space(db, "SELECT name FROM spaces WHERE source = "
	    "'rec-train text'", &n);

	if (n == 1)
		return s;
	free(s);
	return only_space(db);
}

/* the space's ids, in the order SQLite gave them (ascending, as
 * memcmp() compares: the vectors table's key is (space, id)) */
struct ids {
	const char *chars;
	const size_t *off;
	size_t n;
};

/* id's row, or (size_t)-1 */
static size_t
row_of(const struct ids *ids, const char *id)
{
	size_t lo = 0, hi = ids->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ids->chars + ids->off[mid], id);
		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* not where the order says: look everywhere before saying no */
	for (i = 0; i < ids->n; i++)
		if (!strcmp(ids->chars + ids->off[i], id))
			return i;
	return (size_t)-1;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "db", required_argument, NULL, 'd' },
		{ "lenient", no_argument, NULL, 'e' },
		{ "limit", required_argument, NULL, 'k' },
		{ "like", required_argument, NULL, 'l' },
		{ "metric", required_argument, NULL, 'm' },
		{ "msgpack", no_argument, NULL, 'M' },
		{ "as", required_argument, NULL, 's' },
		{ "space", required_argument, NULL, 'S' },
		{ "user", required_argument, NULL, 'u' },
		{ "vector", required_argument, NULL, 'v' },
		{ "text", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dbpath = NULL, *like = NULL, *user = NULL, *vec = NULL;
	const char *text = NULL;
	const char *src = "dense";
	char *space = NULL, *why = NULL;
	size_t limit = 100, n = 0, cap = 0, i, nh, written = 0;
	int c, all = 0, mp = 0, cosine = 1, dim, j;
	float *m = NULL, *q, *inv = NULL;
	char *idchars = NULL;
	size_t *idoff = NULL, idlen = 0, idcap = 0;
	struct rec_hash seeds = {0}, allow_ids = {0};
	struct ids ids;
	unsigned char *allow;
	struct rec_dense_hit *hits;
	struct rec_pool pool = {0};
	struct rec_writer w;
	sqlite3 *db;
	sqlite3_stmt *st;
	struct rec_textenc_db enc;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, ":ad:ek:l:m:Ms:S:t:u:v:hV", longopts,
	    NULL)) != -1)
		switch (c) {
		case 'a': all = 1; break;
		case 'd': dbpath = optarg; break;
		case 'e': lenient = 1; break;
		case 'k': limit = rec_arg_count("-k", optarg); break;
		case 'l': like = optarg; break;
		case 'm':
			if (!strcmp(optarg, "ip"))
				cosine = 0;
			else if (strcmp(optarg, "cosine"))
				rec_usage_die("--metric: unknown metric '%s' "
				    "(cosine or ip)", optarg);
			break;
		case 'M': mp = 1; break;
		case 's': src = optarg; break;
		case 'S': space = xstrdup(optarg); break;
		case 'u': user = optarg; break;
		case 'v': vec = optarg; break;
		case 't': text = optarg; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (optind < argc)
		rec_usage_die("unexpected argument '%s'", argv[optind]);
	if (!!like + !!user + !!vec + !!text != 1)
		rec_usage_die("give one of --like, --user, --vector and --text");
	db = rec_catalog_open(dbpath);
	if (!space)
		space = text ? text_space(db) : only_space(db);
	dim = rec_catalog_space(db, space);
	if (!dim)
		rec_die("no vector space '%s' in the catalog", space);
	/* the space, in memory */
	if (sqlite3_prepare_v2(db, "SELECT id, vec FROM vectors WHERE space = ? "
	    "ORDER BY id", -1, &st, NULL))
		rec_sqlite_die(db, "vectors");
	sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_bytes(st, 1) != dim * 4)
			continue;
		size_t len = (size_t)sqlite3_column_bytes(st, 0);
		if (n + 1 >= cap) {
			cap = cap ? cap * 2 : 4096;
			m = xrealloc(m, cap * (size_t)dim * sizeof *m);
			idoff = xrealloc(idoff, (cap + 1) * sizeof *idoff);
		}
		if (idlen + len + 1 > idcap) {
			idcap = (idlen + len + 1) * 2;
			idchars = xrealloc(idchars, idcap);
		}
		memcpy(m + n * (size_t)dim, sqlite3_column_blob(st, 1),
		    (size_t)dim * 4);
		idoff[n] = idlen;
		memcpy(idchars + idlen, sqlite3_column_text(st, 0), len);
		idchars[idlen + len] = 0;
		idlen += len + 1;
		n++;
	}
	sqlite3_finalize(st);
	ids.chars = idchars;
	ids.off = idoff;
	ids.n = n;
	if (cosine) {
		inv = xmalloc((n + 1) * sizeof *inv);
		for (i = 0; i < n; i++) {
			double s = 0;
			for (j = 0; j < dim; j++)
				s += (double)m[i * dim + j] * m[i * dim + j];
			inv[i] = s > 0 ? (float)(1 / sqrt(s)) : 0;
		}
	}
	q = xcalloc((size_t)dim + 1, sizeof *q);
	if (text && rec_textenc_db_open(&enc, db, space)) {
		/* the catalog's own encoder */
		if (!rec_textenc_encode(&enc.e, rec_textenc_db_lookup, &enc,
		    text, q))
			rec_none(lenient, "--text: no word of '%s' is known to "
			    "the encoder '%s'", text, space);
		rec_textenc_db_close(&enc);
		{
			struct rec_buf b = {0};
			rec_buf_printf(&b, "dense: near '%s' in %s", text, space);
			why = b.data;
		}
	} else if (text) {
		struct rec_buf err = {0};
		float *e;
		size_t edim;
		if (!rec_llm_enabled())
			rec_usage_die("--text needs a space from rec-train text "
			    "or REC_LLM_URL (an /embeddings server)");
		if (rec_llm_embed(&text, 1, &e, &edim, &err) < 0)
			rec_die("--text: %s", err.data);
		if (edim != (size_t)dim)
			rec_die("--text: the embedding has dimension %zu, the "
			    "space '%s' %d", edim, space, dim);
		memcpy(q, e, (size_t)dim * sizeof *q);
		free(e);
		rec_buf_free(&err);
		{
			struct rec_buf b = {0};
			rec_buf_printf(&b, "dense: near '%s' in %s", text, space);
			why = b.data;
		}
	} else if (vec) {
		const char *p = vec;
		char *end;
		for (j = 0; j < dim; j++) {
			q[j] = strtof(p, &end);
			if (end == p)
				rec_usage_die("--vector: not %d numbers: '%s'", dim,
				    vec);
			p = end;
			if (*p == ',')
				p++;
		}
		if (*p)
			rec_usage_die("--vector: more than %d numbers (the "
			    "dimension of %s)", dim, space);
		why = xstrdup("dense: near the vector given");
	} else {
		/* the seeds' mean direction; a user: their factors when the
		 * space is a trained model's, else their history's */
		struct rec_buf b = {0};
		size_t got = 0;
		if (user) {
			float *uv = xcalloc((size_t)dim + 1, sizeof *uv);
			sqlite3_stmt *u;
			if (sqlite3_prepare_v2(db, "SELECT vec FROM user_vectors "
			    "WHERE space = ? AND user = ?", -1, &u, NULL) ==
			    SQLITE_OK) {
				sqlite3_bind_text(u, 1, space, -1, SQLITE_STATIC);
				sqlite3_bind_text(u, 2, user, -1, SQLITE_STATIC);
				if (sqlite3_step(u) == SQLITE_ROW &&
				    sqlite3_column_bytes(u, 0) == dim * 4) {
					memcpy(q, sqlite3_column_blob(u, 0),
					    (size_t)dim * 4);
					got = 1;
				}
				sqlite3_finalize(u);
			}
			free(uv);
			sqlite3_prepare_v2(db, "SELECT item FROM interactions "
			    "WHERE user = ?", -1, &u, NULL);
			sqlite3_bind_text(u, 1, user, -1, SQLITE_STATIC);
			while (sqlite3_step(u) == SQLITE_ROW)
				rec_hash_put(&seeds, (const char *)
				    sqlite3_column_text(u, 0),
				    (size_t)sqlite3_column_bytes(u, 0), NULL);
			sqlite3_finalize(u);
			if (!seeds.n && !got)
				rec_none(lenient, "user '%s' has no history "
				    "(a cold start)", user);
			rec_buf_printf(&b, "dense: near your taste in %s", space);
		} else {
			char *copy = xstrdup(like), *tok, *save = NULL;
			for (tok = strtok_r(copy, ",", &save); tok;
			    tok = strtok_r(NULL, ",", &save)) {
				if (row_of(&ids, tok) == (size_t)-1)
					rec_none(lenient, "no vector for '%s' "
					    "in this space", tok);
				rec_hash_put(&seeds, tok, strlen(tok), NULL);
			}
			free(copy);
			rec_buf_printf(&b, "dense: near %s in %s", like, space);
		}
		for (i = 0; !got && i < seeds.n; i++) {
			size_t r = row_of(&ids, seeds.key[i]);
			double s = 0;
			if (r == (size_t)-1)
				continue;
			for (j = 0; j < dim; j++)
				s += (double)m[r * dim + j] * m[r * dim + j];
			s = s > 0 ? 1 / sqrt(s) : 0;
			for (j = 0; j < dim; j++)
				q[j] += (float)(m[r * dim + j] * s);
		}
		why = b.data;
	}
	allow = xmalloc(n + 1);
	memset(allow, 1, n + 1);
	for (i = 0; i < seeds.n; i++) {
		size_t r = row_of(&ids, seeds.key[i]);
		if (r != (size_t)-1)
			allow[r] = 0;
	}
	if (!all && rec_stdin_is_pool()) {
		struct rec_reader r;
		rec_reader_init(&r, 0, "stdin");
		rec_pool_read(&pool, &r);
		rec_reader_free(&r);
		for (i = 0; i < pool.ids.n; i++)
			rec_hash_put(&allow_ids, pool.ids.key[i],
			    pool.ids.keylen[i], NULL);
		for (i = 0; i < n; i++)
			if (rec_hash_get(&allow_ids, idchars + idoff[i],
			    strlen(idchars + idoff[i])) == (size_t)-1)
				allow[i] = 0;
	}
	hits = xmalloc((limit + 1) * sizeof *hits);
	nh = rec_dense_topk(m, n, (size_t)dim, q, inv, allow, limit, hits);
	rec_writer_init(&w, 1, mp);
	for (i = 0; i < nh && written < limit; i++) {
		const char *id = idchars + idoff[hits[i].row];
		written += rec_write_scored(&w, pool.n ? &pool : NULL, id,
		    strlen(id), hits[i].score, src, why, limit - written);
	}
	rec_writer_close(&w);
	rec_trace_count(pool.n, written);
	free(idchars);
	free(idoff);
	free(m);
	free(inv);
	free(q);
	free(allow);
	free(hits);
	free(why);
	free(space);
	rec_hash_free(&seeds);
	rec_hash_free(&allow_ids);
	rec_pool_free(&pool);
	sqlite3_close(db);
	rec_exit(0);
}
