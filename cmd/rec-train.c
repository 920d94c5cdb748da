/*
 * rec-train: trains the models rec-cf reads, from the catalog's
 * interactions, into the catalog.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec.h"

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
	    "  -a, --alpha ALPHA    als: confidence of an interaction, 1 + "
	    "ALPHA (default 10)\n"
	    "  -d, --db CATALOG     the catalog (default $REC_DB)\n"
	    "  -f, --factors F      als, bpr: factors (default 64)\n"
	    "  -H, --shrink S       itemknn: cosine shrinkage (default 10)\n"
	    "  -i, --iters N        als: iterations (default 10); bpr: "
	    "epochs (default 30)\n"
	    "  -K, --neighbours N   itemknn, ease: neighbours kept per item "
	    "(default 100)\n"
	    "  -l, --lambda L       regularisation (default: ease 500, als "
	    "0.1, bpr 0.001)\n"
	    "  -n, --name NAME      the model's name (default: the kind)\n"
	    "  -R, --rate R         bpr: learning rate (default 0.05)\n"
	    "  -r, --seed N         als, bpr: random seed (default 1)\n"
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
		rec_usage_die("give the model to train: itemknn, ease, als or "
		    "bpr");
	kind = argv[optind];
	if (strcmp(kind, "itemknn") && strcmp(kind, "ease") &&
	    strcmp(kind, "als") && strcmp(kind, "bpr"))
		rec_usage_die("unknown model '%s' (itemknn, ease, als or bpr)",
		    kind);
	vectors = !strcmp(kind, "als") || !strcmp(kind, "bpr");
	if (lambda < 0)
		lambda = !strcmp(kind, "ease") ? 500 : !strcmp(kind, "bpr") ?
		    0.001 : 0.1;
	if (!iters)
		iters = !strcmp(kind, "bpr") ? 30 : 10;
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
	printf("%s: %s on %zu users x %zu items, %zu interactions %s\n", name,
	    kind, nu, ni, (size_t)m.ptr[m.nrows], params);
	rec_csr_free(&m);
	rec_hash_free(&users);
	rec_hash_free(&items);
	if (fflush(stdout) || ferror(stdout))
		rec_die("write error");
	rec_exit(0);
}
