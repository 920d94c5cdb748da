/*
 * rec-cf: collaborative filtering: items co-consumed with seeds, or
 * items for a user, from a model trained by rec-train.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"
#include "catalog.h"
#include "opts.h"

static void
usage(FILE *fp)
{
	rec_tooldef_usage(&rec_tool_cf, fp);
}

static struct rec_catalog *cat;
static sqlite3 *db;
static int lenient;

struct score {
	double s, best;		/* total, and the largest one part */
	size_t seed;		/* the seed of that part */
};

static char *
model_kind(const char *model)
{
	sqlite3_stmt *st;
	char *kind = NULL;

	if (sqlite3_prepare_v2(db, "SELECT kind FROM models WHERE name = ?", -1,
	    &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, model, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			kind = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	if (!kind)
		rec_die("no model '%s' in the catalog (train it with rec-train "
		    "%s)", model, !strcmp(model, "als") || !strcmp(model,
		    "ease") || !strcmp(model, "bpr") ? model : "itemknn");
	return kind;
}

static int
item_exists(const char *id)
{
	sqlite3_stmt *st = rec_catalog_prepare(cat, "SELECT 1 FROM items "
	    "WHERE id = ?", "looking up a seed");
	int found;

	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	found = rec_catalog_step(cat, st, "looking up a seed");
	sqlite3_reset(st);
	return found;
}

/* the title of an item for its reason, or its id; caller frees */
static char *
title_of(const char *id)
{
	char *t = rec_catalog_field(cat, cat->title, id, strlen(id));

	return t ? t : xstrdup(id);
}

/* the items a user has, as seeds */
static void
user_items(const char *user, struct rec_hash *seeds)
{
	sqlite3_stmt *st;

	sqlite3_prepare_v2(db, "SELECT item FROM interactions WHERE user = ?",
	    -1, &st, NULL);
	sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW)
		rec_hash_put(seeds, (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), NULL);
	sqlite3_finalize(st);
}

static int
load_vec(const char *table, const char *key, const char *space, float *v,
    int dim)
{
	sqlite3_stmt *st;
	struct rec_buf sql = {0};
	int ok = 0;

	rec_buf_printf(&sql, "SELECT vec FROM %s WHERE space = ? AND %s = ?",
	    table, strcmp(table, "vectors") ? "user" : "id");
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_bytes(st, 0) == dim * 4) {
			memcpy(v, sqlite3_column_blob(st, 0), (size_t)dim * 4);
			ok = 1;
		}
		sqlite3_finalize(st);
	}
	rec_buf_free(&sql);
	return ok;
}

int
main(int argc, char **argv)
{
	char shortopts[128];
	const struct option *longopts = rec_tooldef_getopt(&rec_tool_cf,
	    shortopts, sizeof shortopts);
	const char *dbpath = NULL, *model = "itemknn", *src = "cf";
	const char *like = NULL, *user = NULL;
	char *kind;
	size_t limit = 100, i, n = 0;
	struct rec_hash seeds = {0}, allow = {0};
	struct rec_hash cand = { .vsize = sizeof(struct score) };
	struct score *sc, *e;
	struct rec_scored *rk;
	struct rec_pool pool = {0};
	struct rec_writer w;
	struct rec_buf why = {0};
	int c, all = 0, mp = 0, frompool;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, shortopts, longopts,
	    NULL)) != -1)
		switch (c) {
		case 'a': all = 1; break;
		case 'd': dbpath = optarg; break;
		case 'e': lenient = 1; break;
		case 'k': limit = rec_arg_count("-k", optarg); break;
		case 'l': like = optarg; break;
		case 'm': model = optarg; break;
		case 'M': mp = 1; break;
		case 's': src = optarg; break;
		case 'u': user = optarg; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (optind < argc)
		rec_usage_die("unexpected argument '%s'", argv[optind]);
	if (!like == !user)
		rec_usage_die("give --like or --user (one of them)");
	cat = rec_catalog_load(dbpath);
	db = cat->db;
	kind = model_kind(model);
	if (like) {
		char *copy = xstrdup(like), *tok, *save = NULL;
		for (tok = strtok_r(copy, ",", &save); tok;
		    tok = strtok_r(NULL, ",", &save)) {
			if (!item_exists(tok))
				rec_none(lenient, "no item '%s' in the catalog",
				    tok);
			rec_hash_put(&seeds, tok, strlen(tok), NULL);
		}
		free(copy);
	} else {
		user_items(user, &seeds);
		if (!seeds.n)
			rec_none(lenient, "user '%s' has no history (a cold "
			    "start: try --like or rec-bm25)", user);
	}
	frompool = !all && rec_stdin_is_pool();
	if (frompool) {
		struct rec_reader r;
		rec_reader_init(&r, 0, "stdin");
		rec_pool_read(&pool, &r);
		rec_reader_free(&r);
		for (i = 0; i < pool.ids.n; i++)
			rec_hash_put(&allow, pool.ids.key[i], pool.ids.keylen[i],
			    NULL);
	}
	if (!strcmp(kind, "itemknn") || !strcmp(kind, "ease")) {
		sqlite3_stmt *st;
		size_t s;
		if (sqlite3_prepare_v2(db, "SELECT neighbor, sim FROM knn WHERE "
		    "model = ? AND item = ?", -1, &st, NULL))
			rec_sqlite_die(db, "knn");
		for (s = 0; s < seeds.n; s++) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, model, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, seeds.key[s],
			    (int)seeds.keylen[s], SQLITE_STATIC);
			while (sqlite3_step(st) == SQLITE_ROW) {
				const char *nb = (const char *)
				    sqlite3_column_text(st, 0);
				size_t len = (size_t)sqlite3_column_bytes(st, 0),
				    k;
				double v = sqlite3_column_double(st, 1);
				if (rec_hash_get(&seeds, nb, len) != (size_t)-1)
					continue;
				if (frompool && rec_hash_get(&allow, nb, len) ==
				    (size_t)-1)
					continue;
				k = rec_hash_put(&cand, nb, len, NULL);
				e = (struct score *)cand.val + k;
				e->s += v;
				if (v > e->best) {
					e->best = v;
					e->seed = s;
				}
			}
		}
		sqlite3_finalize(st);
	} else {
		/* als, bpr: the user's factors, or the mean of the seeds' */
		int dim = rec_catalog_space(db, model);
		float *q = xcalloc((size_t)dim + 1, sizeof *q), *v;
		sqlite3_stmt *st;
		double qn = 0;
		size_t s;
		int j;

		v = xcalloc((size_t)dim + 1, sizeof *v);
		if (user) {
			if (!load_vec("user_vectors", user, model, q, dim))
				rec_none(lenient, "user '%s' has no factors "
				    "(retrain the model)", user);
		} else
			for (s = 0; s < seeds.n; s++) {
				if (!load_vec("vectors", seeds.key[s], model, v,
				    dim))
					continue;
				for (j = 0, qn = 0; j < dim; j++)
					qn += (double)v[j] * v[j];
				qn = qn > 0 ? sqrt(qn) : 1;
				for (j = 0; j < dim; j++)
					q[j] += (float)(v[j] / qn);
			}
		if (sqlite3_prepare_v2(db, "SELECT id, vec FROM vectors WHERE "
		    "space = ?", -1, &st, NULL))
			rec_sqlite_die(db, "vectors");
		sqlite3_bind_text(st, 1, model, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *id = (const char *)sqlite3_column_text(st, 0);
			size_t len = (size_t)sqlite3_column_bytes(st, 0), k;
			const float *iv = sqlite3_column_blob(st, 1);
			double dot = 0, nn = 0;
			if (sqlite3_column_bytes(st, 1) != dim * 4 ||
			    rec_hash_get(&seeds, id, len) != (size_t)-1)
				continue;
			if (frompool && rec_hash_get(&allow, id, len) ==
			    (size_t)-1)
				continue;
			for (j = 0; j < dim; j++) {
				dot += (double)q[j] * iv[j];
				nn += (double)iv[j] * iv[j];
			}
			if (like)	/* cosine to the seeds */
				dot = nn > 0 ? dot / sqrt(nn) : 0;
			k = rec_hash_put(&cand, id, len, NULL);
			e = (struct score *)cand.val + k;
			e->s = dot;
			e->best = dot;
			e->seed = 0;
		}
		sqlite3_finalize(st);
		free(q);
		free(v);
	}
	n = cand.n;
	sc = cand.val;
	rk = xcalloc(n + 1, sizeof *rk);
	for (i = 0; i < n; i++) {
		rk[i].index = i;
		rk[i].score = sc[i].s;
	}
	rec_scored_sort(rk, n, sizeof *rk);
	rec_writer_init(&w, 1, mp);
	{
		size_t written = 0;
		for (i = 0; i < n && written < limit; i++) {
			const char *id = cand.key[rk[i].index];
			size_t len = cand.keylen[rk[i].index];
			rec_buf_reset(&why);
			if (!strcmp(kind, "itemknn") || !strcmp(kind, "ease") ||
			    like) {
				char *t = title_of(seeds.key[
				    sc[rk[i].index].seed]);
				rec_buf_printf(&why, "cf: %s '%s'", user ?
				    "you have" : "often with", t);
				if (user)
					rec_buf_printf(&why, ", often with it");
				free(t);
			} else
				rec_buf_printf(&why, "cf: fits your history "
				    "(%s)", model);
			written += rec_write_scored(&w, frompool ? &pool : NULL,
			    id, len, rk[i].score, src, why.data,
			    limit - written);
		}
		rec_trace_count(pool.n, written);
	}
	rec_writer_close(&w);
	free(rk);
	free(kind);
	rec_hash_free(&seeds);
	rec_hash_free(&cand);
	rec_hash_free(&allow);
	rec_pool_free(&pool);
	rec_buf_free(&why);
	rec_catalog_close(cat);
	rec_exit(0);
}
