/*
 * rec-dense: embedding retrieval: items near seeds, near a user, or near
 * a given vector, in one vector space of the catalog.
 */
#include <sys/stat.h>

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"
#include "converse.h"
#include "opts.h"

static void
usage(FILE *fp)
{
	rec_tooldef_usage(&rec_tool_dense, fp);
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

/* writes CATALOG.dense.SPACE, whole or not at all */
static void
space_index(sqlite3 *db, const char *cat, const char *space, int dim)
{
	char *path = rec_space_path(cat, space);
	struct rec_space sp;
	struct stat cs;

	if (!path)
		rec_die("--index: the space '%s' has a name that cannot be a "
		    "file name (letters, digits, _ . - only)", space);
	rec_space_read(db, space, dim, &sp);
	if (stat(cat, &cs) < 0)
		rec_die("cannot stat '%s': %m", cat);
	if (rec_space_write(&sp, dim, path, &cs) < 0)
		rec_die("cannot write '%s': %m", path);
	rec_space_free(&sp);
	free(path);
}

int
main(int argc, char **argv)
{
	char shortopts[128];
	const struct option *longopts = rec_tooldef_getopt(&rec_tool_dense,
	    shortopts, sizeof shortopts);
	const char *dbpath = NULL, *like = NULL, *user = NULL, *vec = NULL;
	const char *text = NULL;
	const char *src = "dense";
	static char *space;	/* static: reachable when a check exits */
	char *why = NULL;
	size_t limit = 100, n = 0, i, nh, written = 0;
	int c, all = 0, mp = 0, cosine = 1, dim, j, doindex = 0;
	float *m, *q, *inv = NULL;
	struct rec_space sp;
	const char *catpath;
	struct rec_hash seeds = {0}, allow_ids = {0};
	unsigned char *allow;
	struct rec_scored *hits;
	struct rec_pool pool = {0};
	struct rec_writer w;
	sqlite3 *db;
	sqlite3_stmt *st;
	struct rec_textenc_db enc;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, shortopts, longopts,
	    NULL)) != -1)
		switch (c) {
		case 'a': all = 1; break;
		case 'd': dbpath = optarg; break;
		case 'e': lenient = 1; break;
		case 'I': doindex = 1; break;
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
	catpath = rec_catalog_path(dbpath);
	if (doindex) {
		if (like || user || vec || text)
			rec_usage_die("--index takes no query");
		db = rec_catalog_open(catpath);
		if (space) {
			if (!(dim = rec_catalog_space(db, space)))
				rec_die("no vector space '%s' in the catalog",
				    space);
			space_index(db, catpath, space, dim);
		} else {
			if (sqlite3_prepare_v2(db, "SELECT name, dim FROM "
			    "spaces ORDER BY name", -1, &st, NULL))
				rec_sqlite_die(db, "spaces");
			while (sqlite3_step(st) == SQLITE_ROW)
				space_index(db, catpath, (const char *)
				    sqlite3_column_text(st, 0),
				    sqlite3_column_int(st, 1));
			sqlite3_finalize(st);
		}
		free(space);
		sqlite3_close(db);
		rec_exit(0);
	}
	if (!!like + !!user + !!vec + !!text != 1)
		rec_usage_die("give one of --like, --user, --vector and --text");
	db = rec_catalog_open(catpath);
	if (!space)
		space = text ? text_space(db) : only_space(db);
	dim = rec_catalog_space(db, space);
	if (!dim)
		rec_die("no vector space '%s' in the catalog", space);
	/* the space: mapped from its file when that is this catalog's */
	if (rec_space_map(catpath, space, dim, &sp) < 0)
		rec_space_read(db, space, dim, &sp);
	m = sp.m;
	n = sp.n;
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
				if (rec_space_row(&sp, tok) == (size_t)-1)
					rec_none(lenient, "no vector for '%s' "
					    "in this space", tok);
				rec_hash_put(&seeds, tok, strlen(tok), NULL);
			}
			free(copy);
			rec_buf_printf(&b, "dense: near %s in %s", like, space);
		}
		for (i = 0; !got && i < seeds.n; i++) {
			size_t r = rec_space_row(&sp, seeds.key[i]);
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
		size_t r = rec_space_row(&sp, seeds.key[i]);
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
			if (rec_hash_get(&allow_ids, sp.chars + sp.off[i],
			    strlen(sp.chars + sp.off[i])) == (size_t)-1)
				allow[i] = 0;
	}
	hits = xmalloc((limit + 1) * sizeof *hits);
	nh = rec_dense_topk(m, n, (size_t)dim, q, inv, allow, limit, hits);
	rec_writer_init(&w, 1, mp);
	for (i = 0; i < nh && written < limit; i++) {
		const char *id = sp.chars + sp.off[hits[i].index];
		written += rec_write_scored(&w, pool.n ? &pool : NULL, id,
		    strlen(id), hits[i].score, src, why, limit - written);
	}
	rec_writer_close(&w);
	rec_trace_count(pool.n, written);
	rec_space_free(&sp);
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
