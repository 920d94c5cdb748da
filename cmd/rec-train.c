/*
 * rec-train: trains the models rec-cf reads, from the catalog's
 * interactions, into the catalog.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "retrieve.h"

/* the text encoder: learnt from the items' text columns, written as
 * the vector space name (every item's vector) with the word vectors and
 * subword buckets rec-dense --text reads queries through */
/* the files of the item-item models beside the catalog (rec-cf
 * --users maps them): every training changes the catalog, so every one
 * writes them again; a failure leaves rec-cf reading the table */
static void
model_files(const char *path)
{
	if (rec_cf_model_index(path) < 0)
		rec_warn("the model files beside '%s' were not written: %m "
		    "(rec-cf reads the models from the catalog)", path);
}

static void
train_text(const char *path, const char *name, size_t dim,
    unsigned long seed)
{
	sqlite3 *db = rec_catalog_open(path);
	sqlite3_stmt *st;
	struct rec_buf sql = {0}, doc = {0};
	struct rec_textenc e;
	char **docs = NULL, **ids = NULL, **cols, params[200];
	size_t n = 0, cap = 0, ncols = 0, i, j, empty = 0;
	float *v;

	ncols = rec_text_columns(db, &cols);
	if (!ncols)
		rec_die("catalog '%s' has no text columns to learn from", path);
	rec_buf_adds(&sql, "SELECT id");
	for (i = 0; i < ncols; i++) {
		rec_buf_printf(&sql, ", \"%s\"", cols[i]);
		free(cols[i]);
	}
	free(cols);
	rec_buf_adds(&sql, " FROM items ORDER BY rowid");
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL))
		rec_sqlite_die(db, "items");
	while (sqlite3_step(st) == SQLITE_ROW) {
		rec_buf_reset(&doc);
		for (j = 0; j < ncols; j++) {
			const char *t = (const char *)sqlite3_column_text(st,
			    (int)j + 1);
			if (t) {
				rec_buf_adds(&doc, t);
				rec_buf_addc(&doc, ' ');
			}
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			docs = xrealloc(docs, cap * sizeof *docs);
			ids = xrealloc(ids, cap * sizeof *ids);
		}
		docs[n] = xstrdup(doc.data ? doc.data : "");
		ids[n++] = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (!n)
		rec_die("the catalog has no items to learn from");
	rec_textenc_train(&e, (const char *const *)docs, n, dim, seed,
	    isatty(2));
	if (e.words.n < 2)
		rec_die("too little text to learn from: %zu words appear in "
		    "two items or more", e.words.n);
	db = rec_catalog_edit(path, 0, 0);
	rec_sql_exec(db, "CREATE TABLE IF NOT EXISTS models(name TEXT PRIMARY "
	    "KEY, kind TEXT NOT NULL, params TEXT, trained TEXT);"
	    "CREATE TABLE IF NOT EXISTS spaces(name TEXT PRIMARY KEY, dim "
	    "INTEGER NOT NULL, source TEXT);"
	    "CREATE TABLE IF NOT EXISTS vectors(space TEXT NOT NULL, id TEXT NOT "
	    "NULL, vec BLOB NOT NULL, PRIMARY KEY(space, id)) WITHOUT ROWID;"
	    "CREATE TABLE IF NOT EXISTS text_words(space TEXT NOT NULL, word "
	    "TEXT NOT NULL, idf REAL NOT NULL, vec BLOB NOT NULL, PRIMARY "
	    "KEY(space, word)) WITHOUT ROWID;"
	    "CREATE TABLE IF NOT EXISTS text_pieces(space TEXT NOT NULL, "
	    "bucket INTEGER NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(space, "
	    "bucket)) WITHOUT ROWID", "models");
	{
		char *q = sqlite3_mprintf("DELETE FROM vectors WHERE space = %Q;"
		    "DELETE FROM text_words WHERE space = %Q; DELETE FROM "
		    "text_pieces WHERE space = %Q; INSERT OR REPLACE INTO spaces "
		    "VALUES(%Q, %d, 'rec-train text')", name, name, name, name,
		    (int)e.dim);
		rec_sql_exec(db, q, "spaces");
		sqlite3_free(q);
	}
	v = xcalloc(e.dim + 1, sizeof *v);
	if (sqlite3_prepare_v2(db, "INSERT INTO vectors VALUES(?, ?, ?)", -1,
	    &st, NULL))
		rec_sqlite_die(db, "vectors");
	for (i = 0; i < n; i++) {
		if (!rec_textenc_encode(&e, rec_textenc_mem, &e, docs[i], v)) {
			empty++;	/* no text: no vector */
			continue;
		}
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, ids[i], -1, SQLITE_STATIC);
		sqlite3_bind_blob(st, 3, v, (int)(e.dim * 4), SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rec_sqlite_die(db, "vectors");
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "INSERT INTO text_words VALUES(?, ?, ?, ?)",
	    -1, &st, NULL))
		rec_sqlite_die(db, "text_words");
	for (i = 0; i < e.words.n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, e.words.key[i], (int)e.words.keylen[i],
		    SQLITE_STATIC);
		sqlite3_bind_double(st, 3, e.idf[i]);
		sqlite3_bind_blob(st, 4, e.wvec + i * e.dim, (int)(e.dim * 4),
		    SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rec_sqlite_die(db, "text_words");
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "INSERT INTO text_pieces VALUES(?, ?, ?)",
	    -1, &st, NULL))
		rec_sqlite_die(db, "text_pieces");
	for (i = 0; i < REC_TEXT_BUCKETS; i++) {
		if (!rec_textenc_mem(&e, NULL, i, v, NULL))
			continue;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, (int)i);
		sqlite3_bind_blob(st, 3, v, (int)(e.dim * 4), SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rec_sqlite_die(db, "text_pieces");
	}
	sqlite3_finalize(st);
	snprintf(params, sizeof params, "{\"dim\":%zu,\"docs\":%zu,"
	    "\"words\":%zu,\"seed\":%lu}", e.dim, n, e.words.n, seed);
	{
		char *q = sqlite3_mprintf("INSERT OR REPLACE INTO models VALUES("
		    "%Q, 'text', %Q, strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ'))", name,
		    params);
		rec_sql_exec(db, q, "models");
		sqlite3_free(q);
	}
	rec_catalog_save(db);
	model_files(path);
	printf("%s: text on %zu items (%zu without text), %zu words %s\n",
	    name, n, empty, e.words.n, params);
	for (i = 0; i < n; i++) {
		free(docs[i]);
		free(ids[i]);
	}
	free(docs);
	free(ids);
	free(v);
	rec_textenc_free(&e);
	rec_buf_free(&sql);
	rec_buf_free(&doc);
	if (fflush(stdout) || ferror(stdout))
		rec_die("write error");
	rec_exit(0);
}

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-train [-d CATALOG] [-n NAME] itemknn [-K N] [-H SHRINK]\n"
	    "       rec-train [-d CATALOG] [-n NAME] ease [-K N] [-l LAMBDA]\n"
	    "       rec-train [-d CATALOG] [-n NAME] als [-f F] [-i ITERS] "
	    "[-l LAMBDA] [-a ALPHA] [-r SEED]\n"
	    "       rec-train [-d CATALOG] [-n NAME] bpr [-f F] [-i EPOCHS] "
	    "[-l LAMBDA] [-R RATE] [-r SEED]\n"
	    "       rec-train [-d CATALOG] [-n NAME] text [-f DIM] [-r SEED]\n"
	    "  -a, --alpha ALPHA    als: confidence of an interaction, 1 + "
	    "ALPHA (default 10)\n"
	    "  -d, --db CATALOG     the catalog (default $REC_DB)\n"
	    "  -f, --factors F      als, bpr: factors; text: dimensions "
	    "(default 64)\n"
	    "  -H, --shrink S       itemknn: cosine shrinkage (default 10)\n"
	    "  -i, --iters N        als: iterations (default 10); bpr: "
	    "epochs (default 100)\n"
	    "  -K, --neighbours N   itemknn, ease: neighbours kept per item "
	    "(default 100)\n"
	    "  -l, --lambda L       regularisation (default: ease 100, als "
	    "0.1, bpr 0.001)\n"
	    "  -n, --name NAME      the model's name (default: the kind)\n"
	    "  -R, --rate R         bpr: learning rate (default 0.05)\n"
	    "  -r, --seed N         als, bpr, text: random seed (default 1)\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "db", required_argument, NULL, 'd' },
		{ "factors", required_argument, NULL, 'f' },
		{ "shrink", required_argument, NULL, 'H' },
		{ "iters", required_argument, NULL, 'i' },
		{ "neighbours", required_argument, NULL, 'K' },
		{ "lambda", required_argument, NULL, 'l' },
		{ "name", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'R' },
		{ "seed", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *path = NULL, *kind, *name = NULL;
	double alpha = 10, shrink = 10, lambda = -1, rate = 0.05;
	size_t f = 64, k = 100, nu = 0, ni = 0, n = 0, cap = 0, i, j;
	int iters = 0, c, vectors;
	unsigned long seed = 1;
	struct rec_hash users = {0}, items = {0};
	uint32_t *row = NULL, *col = NULL;
	struct rec_csr m;
	sqlite3 *db;
	sqlite3_stmt *st;
	char params[200];

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, ":a:d:f:H:i:K:l:n:R:r:hV", longopts,
	    NULL)) != -1)
		switch (c) {
		case 'a': alpha = rec_arg_number("--alpha", optarg, 0, 1e6); break;
		case 'd': path = optarg; break;
		case 'f': f = (size_t)rec_arg_number("--factors", optarg, 1, 1024); break;
		case 'H': shrink = rec_arg_number("--shrink", optarg, 0, 1e9); break;
		case 'i': iters = (int)rec_arg_number("--iters", optarg, 1, 1000); break;
		case 'K': k = (size_t)rec_arg_number("--neighbours", optarg, 1, 10000);
			break;
		case 'l': lambda = rec_arg_number("--lambda", optarg, 0, 1e9); break;
		case 'n': name = optarg; break;
		case 'R': rate = rec_arg_number("--rate", optarg, 1e-9, 10); break;
		case 'r': seed = (unsigned long)rec_arg_number("--seed", optarg, 0, 4e9);
			break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (optind != argc - 1)
		rec_usage_die("give the model to train: itemknn, ease, als, bpr "
		    "or text");
	kind = argv[optind];
	if (strcmp(kind, "itemknn") && strcmp(kind, "ease") &&
	    strcmp(kind, "als") && strcmp(kind, "bpr") && strcmp(kind, "text"))
		rec_usage_die("unknown model '%s' (itemknn, ease, als, bpr or "
		    "text)", kind);
	if (!strcmp(kind, "text"))
		train_text(rec_catalog_path(path), name ? name : kind, f, seed);
	vectors = !strcmp(kind, "als") || !strcmp(kind, "bpr");
	if (lambda < 0)
		lambda = !strcmp(kind, "ease") ? 100 : !strcmp(kind, "bpr") ?
		    0.001 : 0.1;
	if (!iters)
		iters = !strcmp(kind, "bpr") ? 100 : 10;
	if (!strcmp(kind, "bpr") && f < 2)
		rec_usage_die("bpr needs at least 2 factors (the last is a "
		    "bias)");
	if (!name)
		name = kind;
	path = rec_catalog_path(path);
	db = rec_catalog_open(path);
	/* items in catalog order, users in order of first interaction */
	if (sqlite3_prepare_v2(db, "SELECT id FROM items ORDER BY rowid", -1,
	    &st, NULL))
		rec_sqlite_die(db, "items");
	while (sqlite3_step(st) == SQLITE_ROW)
		rec_hash_put(&items, (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), NULL);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "SELECT user, item FROM interactions ORDER "
	    "BY rowid", -1, &st, NULL))
		rec_sqlite_die(db, "interactions");
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t it = rec_hash_get(&items,
		    (const char *)sqlite3_column_text(st, 1),
		    (size_t)sqlite3_column_bytes(st, 1));
		if (it == (size_t)-1)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			row = xrealloc(row, cap * sizeof *row);
			col = xrealloc(col, cap * sizeof *col);
		}
		row[n] = (uint32_t)rec_hash_put(&users,
		    (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), NULL);
		col[n++] = (uint32_t)it;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	nu = users.n;
	ni = items.n;
	if (!n)
		rec_die("the catalog has no interactions to train on");
	rec_csr_build(&m, (uint32_t)nu, (uint32_t)ni, row, col, n);
	free(row);
	free(col);
	db = rec_catalog_edit(path, 0, 0);
	rec_sql_exec(db, "CREATE TABLE IF NOT EXISTS models(name TEXT PRIMARY "
	    "KEY, kind TEXT NOT NULL, params TEXT, trained TEXT);"
	    "CREATE TABLE IF NOT EXISTS knn(model TEXT, item TEXT, rank INTEGER,"
	    " neighbor TEXT, sim REAL, PRIMARY KEY(model, item, rank)) WITHOUT "
	    "ROWID;"
	    "CREATE TABLE IF NOT EXISTS spaces(name TEXT PRIMARY KEY, dim "
	    "INTEGER NOT NULL, source TEXT);"
	    "CREATE TABLE IF NOT EXISTS vectors(space TEXT NOT NULL, id TEXT NOT "
	    "NULL, vec BLOB NOT NULL, PRIMARY KEY(space, id)) WITHOUT ROWID;"
	    "CREATE TABLE IF NOT EXISTS user_vectors(space TEXT NOT NULL, user "
	    "TEXT NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(space, user)) "
	    "WITHOUT ROWID", "models");
	{
		char *q = sqlite3_mprintf("DELETE FROM knn WHERE model = %Q;"
		    "DELETE FROM vectors WHERE space = %Q; DELETE FROM "
		    "user_vectors WHERE space = %Q", name, name, name);
		rec_sql_exec(db, q, "models");
		sqlite3_free(q);
	}
	if (!vectors) {
		uint32_t *nbr = xmalloc(ni * k * sizeof *nbr + 1);
		float *sim = xmalloc(ni * k * sizeof *sim + 1);
		uint32_t *cnt = xcalloc(ni + 1, sizeof *cnt);
		if (!strcmp(kind, "ease"))
			rec_ease_train(&m, lambda, k, nbr, sim, cnt, isatty(2));
		else
			rec_itemknn_train(&m, k, shrink, nbr, sim, cnt,
			    isatty(2));
		if (sqlite3_prepare_v2(db, "INSERT INTO knn VALUES(?, ?, ?, ?, "
		    "?)", -1, &st, NULL))
			rec_sqlite_die(db, "knn");
		for (i = 0; i < ni; i++)
			for (j = 0; j < cnt[i]; j++) {
				uint32_t o = nbr[i * k + j];
				sqlite3_reset(st);
				sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
				sqlite3_bind_text(st, 2, items.key[i],
				    (int)items.keylen[i], SQLITE_STATIC);
				sqlite3_bind_int(st, 3, (int)j);
				sqlite3_bind_text(st, 4, items.key[o],
				    (int)items.keylen[o], SQLITE_STATIC);
				sqlite3_bind_double(st, 5, sim[i * k + j]);
				if (sqlite3_step(st) != SQLITE_DONE)
					rec_sqlite_die(db, "knn");
			}
		sqlite3_finalize(st);
		if (!strcmp(kind, "ease"))
			snprintf(params, sizeof params, "{\"neighbours\":%zu,"
			    "\"lambda\":%g}", k, lambda);
		else
			snprintf(params, sizeof params, "{\"neighbours\":%zu,"
			    "\"shrink\":%g}", k, shrink);
		free(nbr);
		free(sim);
		free(cnt);
	} else {
		float *U = xcalloc(nu * f + 1, sizeof *U);
		float *V = xcalloc(ni * f + 1, sizeof *V);
		if (!strcmp(kind, "bpr"))
			rec_bpr_train(&m, f, iters, rate, lambda, seed, U, V,
			    isatty(2));
		else
			rec_als_train(&m, f, iters, lambda, alpha, seed, U, V,
			    isatty(2));
		{
			char *q = sqlite3_mprintf("INSERT OR REPLACE INTO spaces "
			    "VALUES(%Q, %d, 'rec-train %q')", name, (int)f, kind);
			rec_sql_exec(db, q, "spaces");
			sqlite3_free(q);
		}
		if (sqlite3_prepare_v2(db, "INSERT INTO vectors VALUES(?, ?, ?)",
		    -1, &st, NULL))
			rec_sqlite_die(db, "vectors");
		for (i = 0; i < ni; i++) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, items.key[i],
			    (int)items.keylen[i], SQLITE_STATIC);
			sqlite3_bind_blob(st, 3, V + i * f, (int)(f * 4),
			    SQLITE_STATIC);
			if (sqlite3_step(st) != SQLITE_DONE)
				rec_sqlite_die(db, "vectors");
		}
		sqlite3_finalize(st);
		if (sqlite3_prepare_v2(db, "INSERT INTO user_vectors VALUES(?, ?,"
		    " ?)", -1, &st, NULL))
			rec_sqlite_die(db, "user_vectors");
		for (i = 0; i < nu; i++) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, users.key[i],
			    (int)users.keylen[i], SQLITE_STATIC);
			sqlite3_bind_blob(st, 3, U + i * f, (int)(f * 4),
			    SQLITE_STATIC);
			if (sqlite3_step(st) != SQLITE_DONE)
				rec_sqlite_die(db, "user_vectors");
		}
		sqlite3_finalize(st);
		if (!strcmp(kind, "bpr"))
			snprintf(params, sizeof params, "{\"factors\":%zu,"
			    "\"epochs\":%d,\"lambda\":%g,\"rate\":%g,"
			    "\"seed\":%lu}", f, iters, lambda, rate, seed);
		else
			snprintf(params, sizeof params, "{\"factors\":%zu,"
			    "\"iters\":%d,\"lambda\":%g,\"alpha\":%g,"
			    "\"seed\":%lu}", f, iters, lambda, alpha, seed);
		free(U);
		free(V);
	}
	{
		char *q = sqlite3_mprintf("INSERT OR REPLACE INTO models VALUES("
		    "%Q, %Q, %Q, strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ'))", name,
		    kind, params);
		rec_sql_exec(db, q, "models");
		sqlite3_free(q);
	}
	rec_catalog_save(db);
	model_files(path);
	printf("%s: %s on %zu users x %zu items, %zu interactions %s\n", name,
	    kind, nu, ni, (size_t)m.ptr[m.nrows], params);
	rec_csr_free(&m);
	rec_hash_free(&users);
	rec_hash_free(&items);
	if (fflush(stdout) || ferror(stdout))
		rec_die("write error");
	rec_exit(0);
}
