/*
 * rec-cf: collaborative filtering: items co-consumed with seeds, or
 * items for a user, from a model trained by rec-train.
 */
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"
#include "catalog.h"
#include "retrieve.h"
#include "opts.h"

static void
usage(FILE *fp)
{
	rec_tooldef_usage(&rec_tool_cf, fp);
}

static struct rec_catalog *cat;
static sqlite3 *db;
static int lenient;
static double novelty;		/* --novelty */
static double floor_share;	/* --floor */

/* appended to the reason of an item less popular than most */
#define LESS_KNOWN "; less known"

/* the popularity shares --novelty needs */
static void
popshares(struct rec_popshares *ps)
{
	if (rec_popshares_open(ps, db) < 0)
		rec_die("--novelty: the catalog has no popularity column");
}

/* --novelty: an item scored again, its place in the model's order the
 * index */
struct nov {
	struct rec_scored r;
	size_t cand;
	double pct;
};

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
	static const char what[] = "reading a user's items";
	sqlite3_stmt *st = rec_catalog_prepare(cat, "SELECT item FROM "
	    "interactions WHERE user = ?", what);

	sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
	while (rec_catalog_step(cat, st, what))
		rec_hash_put(seeds, (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), NULL);
	sqlite3_reset(st);
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

/* ---- --users: many users in one process ---- */

/* threads scoring an item-item model: as many as the processors, up to */
#define MAXTHREADS 4

struct many {
	const char *model, *kind, *src, *key;
	size_t limit, block;
	size_t cut;			/* --cut, or 0 */
	double *pct;			/* --novelty: per model item */
	struct rec_cf_model m;
	/* scs[0] scores factors and gathers seeds; item-item: one a
	 * thread */
	struct rec_cf_scorer *scs[MAXTHREADS];
	size_t nthreads;
	size_t *nhits;			/* per user of the block */
	struct rec_writer *w;
	struct rec_hash titles;		/* item id -> title (char *) */
	/* the block being gathered */
	char **user;
	struct rec_cf_seeds *seeds;
	float *vec;			/* factors: block x dim */
	size_t n;
	unsigned long nout, nusers, nskipped;
	struct rec_cf_hit *hits;	/* block x limit */
	struct rec_buf why, rec;
};

/* the title of an item for its reason, or its id, read once; borrowed */
static const char *
cached_title(struct many *x, const char *id, size_t len)
{
	size_t k;
	int added;

	k = rec_hash_put(&x->titles, id, len, &added);
	if (added) {
		char *t = rec_catalog_field(cat, cat->title, id, len);
		((char **)x->titles.val)[k] = t ? t : xstrndup(id, len);
	}
	return ((char **)x->titles.val)[k];
}

/* writes one user's list as a group: the records rec_pack_scored makes
 * from {KEY: user}, byte for byte, packed here without its search of the
 * original's keys (half a million records for MOVIES' users).  With
 * --cut N, a list longer than N + 1 is its first N and its last, which
 * says in "cut" the best score left out (rec-candidates(5)). */
static void
write_group(struct many *x, const char *user, const struct rec_cf_seeds *seeds,
    const struct rec_cf_hit *h, size_t n)
{
	size_t i, srclen = strlen(x->src), keylen = strlen(x->key),
	    ulen = strlen(user);
	msgpack_packer pk;

	msgpack_packer_init(&pk, &x->rec, rec_buf_msgpack_write);
	for (i = 0; i < n; i++) {
		const char *id;
		size_t len;
		int last = 0;
		if (x->cut && n > x->cut + 1 && i == x->cut) {
			i = n - 1;	/* the last, after the first N */
			last = 1;
		}
		id = x->m.ids.key[h[i].item];
		len = x->m.ids.keylen[h[i].item];
		rec_buf_reset(&x->why);
		if (!x->m.dim) {
			uint32_t sk = seeds->ix[h[i].seed];
			const char *t = cached_title(x, x->m.ids.key[sk],
			    x->m.ids.keylen[sk]);
			rec_buf_adds(&x->why, "cf: you have '");
			rec_buf_adds(&x->why, t);
			rec_buf_adds(&x->why, "', often with it");
		} else
			rec_buf_printf(&x->why, "cf: fits your history (%s)",
			    x->model);
		if (x->pct && x->pct[h[i].item] < 0.5)
			rec_buf_adds(&x->why, LESS_KNOWN);
		rec_buf_reset(&x->rec);
		msgpack_pack_map(&pk, 6 + (uint32_t)last);
		msgpack_pack_str_with_body(&pk, "id", 2);
		msgpack_pack_str_with_body(&pk, id, len);
		msgpack_pack_str_with_body(&pk, "score", 5);
		msgpack_pack_double(&pk, h[i].score);
		msgpack_pack_str_with_body(&pk, "src", 3);
		msgpack_pack_str_with_body(&pk, x->src, srclen);
		msgpack_pack_str_with_body(&pk, "scores", 6);
		msgpack_pack_map(&pk, 1);
		msgpack_pack_str_with_body(&pk, x->src, srclen);
		msgpack_pack_double(&pk, h[i].score);
		msgpack_pack_str_with_body(&pk, "why", 3);
		msgpack_pack_str_with_body(&pk, x->why.data, x->why.len);
		if (last) {
			msgpack_pack_str_with_body(&pk, "cut", 3);
			msgpack_pack_double(&pk, h[x->cut].score);
		}
		msgpack_pack_str_with_body(&pk, x->key, keylen);
		msgpack_pack_str_with_body(&pk, user, ulen);
		rec_write_msgpack(x->w, x->rec.data, x->rec.len);
		x->nout++;
	}
}

/* the users from..to of the block, scored by one thread */
struct share {
	struct many *x;
	struct rec_cf_scorer *sc;
	size_t from, to;
};

static void *
score_share(void *arg)
{
	struct share *sh = arg;
	struct many *x = sh->x;
	size_t u;

	for (u = sh->from; u < sh->to; u++)
		x->nhits[u] = rec_cf_score_items(sh->sc, &x->seeds[u],
		    x->hits + u * x->limit);
	return NULL;
}

/* scores the users gathered and writes their lists, in their order */
static void
flush_block(struct many *x)
{
	size_t u;

	if (!x->m.dim) {
		struct share sh[MAXTHREADS];
		pthread_t tid[MAXTHREADS];
		size_t t, nt = x->nthreads < x->n ? x->nthreads : x->n;
		/* the block's users shared between threads, each with a
		 * scorer of its own; the lists written after, in order */
		for (t = 0; t < nt; t++) {
			sh[t].x = x;
			sh[t].sc = x->scs[t];
			sh[t].from = x->n * t / nt;
			sh[t].to = x->n * (t + 1) / nt;
			if (t && pthread_create(&tid[t], NULL, score_share,
			    &sh[t]))
				rec_die("cannot start a thread");
		}
		if (nt)
			score_share(&sh[0]);
		for (t = 1; t < nt; t++)
			pthread_join(tid[t], NULL);
		for (u = 0; u < x->n; u++)
			write_group(x, x->user[u], &x->seeds[u], x->hits + u *
			    x->limit, x->nhits[u]);
	} else {
		const float **q = xcalloc(x->n + 1, sizeof *q);
		const struct rec_cf_seeds **sd = xcalloc(x->n + 1, sizeof *sd);
		struct rec_cf_hit **out = xcalloc(x->n + 1, sizeof *out);
		size_t *nout = xcalloc(x->n + 1, sizeof *nout);
		for (u = 0; u < x->n; u++) {
			q[u] = x->vec + u * x->m.dim;
			sd[u] = &x->seeds[u];
			out[u] = x->hits + u * x->limit;
		}
		rec_cf_score_factors(x->scs[0], q, sd, x->n, out, nout);
		for (u = 0; u < x->n; u++)
			write_group(x, x->user[u], &x->seeds[u], out[u],
			    nout[u]);
		free(q);
		free(sd);
		free(out);
		free(nout);
	}
	for (u = 0; u < x->n; u++)
		free(x->user[u]);
	x->n = 0;
	rec_cf_seeds_reset(x->scs[0], &x->seeds[0]);
}

/* the items of a user of the block */
static void
block_items(struct many *x, const char *user, struct rec_cf_seeds *sd)
{
	static const char what[] = "reading a user's items";
	sqlite3_stmt *st = rec_catalog_prepare(cat, "SELECT item FROM "
	    "interactions WHERE user = ?", what);

	sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
	while (rec_catalog_step(cat, st, what))
		rec_cf_seeds_add(x->scs[0], sd, (const char *)
		    sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0));
	sqlite3_reset(st);
}

/* adds a user to the block (have: their items are in the block's next
 * seeds already); one without history (or factors) has no list, and
 * says so unless --lenient */
static void
add_user(struct many *x, const char *user, size_t len, int have)
{
	char *u = xstrndup(user, len);
	struct rec_cf_seeds *sd = &x->seeds[x->n];

	x->nusers++;
	if (!have)
		block_items(x, u, sd);
	if (!sd->all) {
		if (!lenient)
			rec_warn("user '%s' has no history: no list", u);
		x->nskipped++;
		rec_cf_seeds_reset(x->scs[0], sd);
		free(u);
		return;
	}
	if (x->m.dim && !load_vec("user_vectors", u, x->model,
	    x->vec + x->n * x->m.dim, (int)x->m.dim)) {
		if (!lenient)
			rec_warn("user '%s' has no factors (retrain the "
			    "model): no list", u);
		x->nskipped++;
		rec_cf_seeds_reset(x->scs[0], sd);
		free(u);
		return;
	}
	x->user[x->n++] = u;
	if (x->n == x->block)
		flush_block(x);
	else
		rec_cf_seeds_reset(x->scs[0], &x->seeds[x->n]);
}

/* a user of the file -U names, into the list ctx */
static void
list_user(const char *user, size_t len, void *ctx)
{
	rec_strs_push(ctx, user, len);
}

/* a before b in SQLite's order of text (BINARY: bytes, then length) */
static int
text_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

/* the list in that order, each user once */
static int
sorted(const struct rec_strs *l)
{
	size_t i;

	for (i = 1; i < l->n; i++)
		if (text_cmp(l->v[i - 1], strlen(l->v[i - 1]), l->v[i],
		    strlen(l->v[i])) >= 0)
			return 0;
	return 1;
}

static size_t
catalog_users(void)
{
	sqlite3_stmt *st = rec_catalog_prepare(cat, "SELECT count(*) FROM "
	    "users", "counting the users");
	size_t n = 0;

	if (rec_catalog_step(cat, st, "counting the users"))
		n = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return n;
}

/* Every user's items in one scan, users in the order of rec-batch -l,
 * each one's items in the order a query for the user alone gives (the
 * index's: rowid): all of them (list NULL), or those of the list, which
 * is in that order (a user of it without items gets no list, as one
 * asked for alone).  For a list of many users, a quarter of the catalog's
 * or more, faster than a query per user. */
static void
scan_users(struct many *x, const struct rec_strs *list)
{
	static const char what[] = "reading the users' items";
	sqlite3_stmt *st = rec_catalog_prepare(cat, "SELECT user, item "
	    "FROM interactions ORDER BY user, rowid", what);
	struct rec_buf cur = {0};
	size_t at = 0;
	int have = 0, keep = 0;

	while (rec_catalog_step(cat, st, what)) {
		const char *u = (const char *)sqlite3_column_text(st, 0);
		size_t ul = (size_t)sqlite3_column_bytes(st, 0);
		if (!have || cur.len != ul || memcmp(cur.data, u, ul)) {
			if (keep)
				add_user(x, cur.data, cur.len, 1);
			rec_buf_reset(&cur);
			rec_buf_add(&cur, u, ul);
			have = 1;
			keep = !list;
			/* the list's users before this one have no items */
			while (list && at < list->n) {
				const char *w = list->v[at];
				int c = text_cmp(w, strlen(w), u, ul);
				if (c > 0)
					break;
				at++;
				if (!c) {
					keep = 1;
					break;
				}
				add_user(x, w, strlen(w), 1);
			}
		}
		if (keep)
			rec_cf_seeds_add(x->scs[0], &x->seeds[x->n], (const char *)
			    sqlite3_column_text(st, 1),
			    (size_t)sqlite3_column_bytes(st, 1));
	}
	sqlite3_reset(st);
	if (keep)
		add_user(x, cur.data, cur.len, 1);
	while (list && at < list->n) {
		add_user(x, list->v[at], strlen(list->v[at]), 1);
		at++;
	}
	rec_buf_free(&cur);
}

/* An item-item model's file there but not for the catalog as it is
 * (copied without its times, or the catalog written since): the model
 * came from the catalog's table, the same scores some times slower;
 * said once, as a batch run for every user pays it */
static void
stale_file(const struct rec_cf_model *m, const char *model)
{
	char *file;

	if (m->dim || m->map || !cat->path ||
	    !(file = rec_cf_model_path(cat->path, model)))
		return;
	if (access(file, F_OK) == 0)
		rec_warn("%s was not written for the catalog as it is now: the "
		    "model is read from the catalog, slower (rec-cf --index "
		    "writes the file again)", file);
	free(file);
}

static void
score_users(const char *users, const char *model, const char *kind,
    const char *src, const char *key, size_t limit, size_t block,
    size_t cut, int mp)
{
	struct many x;
	struct rec_writer w;
	struct rec_popshares ps;
	size_t i;

	memset(&x, 0, sizeof x);
	x.model = model;
	x.kind = kind;
	x.src = src;
	x.key = key;
	x.limit = limit;
	x.block = block;
	x.cut = cut;
	x.titles.vsize = sizeof(char *);
	rec_cf_model_load(&x.m, cat, model, kind);
	stale_file(&x.m, model);
	x.scs[0] = rec_cf_scorer_new(&x.m, limit, block);
	if (novelty > 0) {
		popshares(&ps);
		x.pct = xcalloc(x.m.n + 1, sizeof *x.pct);
		for (i = 0; i < x.m.n; i++)
			x.pct[i] = rec_popshare(&ps, x.m.ids.key[i],
			    x.m.ids.keylen[i]);
		rec_popshares_close(&ps);
	}
	rec_cf_scorer_order(x.scs[0], novelty, x.pct, cut);
	x.nthreads = 1;
	if (!x.m.dim) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		while (x.nthreads < MAXTHREADS && (long)x.nthreads < ncpu) {
			x.scs[x.nthreads] = rec_cf_scorer_new(&x.m, limit,
			    block);
			rec_cf_scorer_order(x.scs[x.nthreads++], novelty, x.pct,
			    cut);
		}
	}
	x.nhits = xcalloc(block, sizeof *x.nhits);
	x.user = xcalloc(block, sizeof *x.user);
	x.seeds = xcalloc(block, sizeof *x.seeds);
	rec_cf_seeds_reset(x.scs[0], &x.seeds[0]);
	x.vec = xcalloc(block * x.m.dim + 1, sizeof *x.vec);
	x.hits = xcalloc(block * (limit ? limit : 1), sizeof *x.hits);
	rec_writer_init(&w, 1, mp);
	x.w = &w;
	/* one read transaction: a statement outside one takes and lets go
	 * of the file's lock each time, and users are read one by one */
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "the catalog");
	if (!strcmp(users, "all"))
		scan_users(&x, NULL);
	else {
		struct rec_strs list = {0};
		rec_read_ids(users, list_user, &list);
		if (sorted(&list) && list.n * 4 >= catalog_users())
			scan_users(&x, &list);
		else
			for (i = 0; i < list.n; i++)
				add_user(&x, list.v[i], strlen(list.v[i]), 0);
		rec_strs_free(&list);
	}
	flush_block(&x);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	rec_writer_close(&w);
	rec_trace_count(x.nusers, x.nout);
	for (i = 0; i < x.titles.n; i++)
		free(((char **)x.titles.val)[i]);
	rec_hash_free(&x.titles);
	for (i = 0; i < x.nthreads; i++)
		rec_cf_scorer_free(x.scs[i]);
	free(x.nhits);
	rec_cf_model_free(&x.m);
	free(x.user);
	for (i = 0; i < block; i++)
		free(x.seeds[i].ix);
	free(x.seeds);
	free(x.vec);
	free(x.hits);
	free(x.pct);
	rec_buf_free(&x.why);
	rec_buf_free(&x.rec);
}

int
main(int argc, char **argv)
{
	char shortopts[128];
	const struct option *longopts = rec_tooldef_getopt(&rec_tool_cf,
	    shortopts, sizeof shortopts);
	const char *dbpath = NULL, *model = "itemknn", *src = "cf";
	const char *like = NULL, *user = NULL, *users = NULL;
	const char *group = "user";
	size_t block = 256, cut = 0;
	char *kind;
	size_t limit = 100, i, n = 0;
	struct rec_hash seeds = {0}, allow = {0};
	struct rec_hash cand = { .vsize = sizeof(struct score) };
	struct score *sc, *e;
	struct rec_scored *rk;
	unsigned char *less = NULL;	/* --novelty: less known, by place */
	struct rec_pool pool = {0};
	struct rec_writer w;
	struct rec_buf why = {0};
	int c, all = 0, mp = 0, frompool, doindex = 0;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, shortopts, longopts,
	    NULL)) != -1)
		switch (c) {
		case 'a': all = 1; break;
		case 'B':
			block = (size_t)rec_arg_number("--block", optarg, 1,
			    65536);
			break;
		case 'C': cut = rec_arg_count("--cut", optarg); break;
		case 'd': dbpath = optarg; break;
		case 'e': lenient = 1; break;
		case 'f':
			floor_share = rec_arg_number("--floor", optarg, 0, 1);
			break;
		case 'g': group = optarg; break;
		case 'I': doindex = 1; break;
		case 'k': limit = rec_arg_count("-k", optarg); break;
		case 'l': like = optarg; break;
		case 'm': model = optarg; break;
		case 'M': mp = 1; break;
		case 'N':
			novelty = rec_arg_number("--novelty", optarg, 0, 1);
			break;
		case 's': src = optarg; break;
		case 'u': user = optarg; break;
		case 'U': users = optarg; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (optind < argc)
		rec_usage_die("unexpected argument '%s'", argv[optind]);
	if (doindex) {
		const char *path = rec_catalog_path(dbpath);
		if (like || user || users)
			rec_usage_die("--index takes no query");
		rec_catalog_close(rec_catalog_load(path));	/* a catalog */
		if (rec_cf_model_index(path) < 0)
			rec_die("cannot write the model files beside '%s': %m",
			    path);
		rec_exit(0);
	}
	if ((like != NULL) + (user != NULL) + (users != NULL) != 1)
		rec_usage_die("give --like, --user or --users (one of them)");
	if (users && (!*group || !strcmp(group, "id") ||
	    !strcmp(group, "score") || !strcmp(group, "src") ||
	    !strcmp(group, "scores") || !strcmp(group, "why")))
		rec_usage_die("--group: '%s' cannot be a group key", group);
	if (cut && !users)
		rec_usage_die("--cut needs --users");
	if (floor_share > 0 && users)
		rec_usage_die("--floor goes with --like or --user");
	if (users && all)
		rec_usage_die("--users scores the whole catalog: no --all");
	cat = rec_catalog_load(dbpath);
	db = cat->db;
	kind = model_kind(model);
	if (users) {
		score_users(users, model, kind, src, group, limit, block, cut,
		    mp);
		free(kind);
		rec_catalog_close(cat);
		rec_exit(0);
	}
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
	if (novelty > 0 && n) {
		/* the first -k scored again as rec-cf --users does, ties
		 * in the model's order */
		struct rec_popshares ps;
		struct nov *nv;
		size_t m = n < limit ? n : limit;
		double lo = rk[m - 1].score, hi = rk[0].score;
		popshares(&ps);
		nv = xcalloc(m + 1, sizeof *nv);
		for (i = 0; i < m; i++) {
			nv[i].pct = rec_popshare(&ps, cand.key[rk[i].index],
			    cand.keylen[rk[i].index]);
			nv[i].r.score = rec_cf_blend(rk[i].score, lo, hi,
			    novelty, nv[i].pct);
			nv[i].r.index = i;
			nv[i].cand = rk[i].index;
		}
		rec_scored_sort(nv, m, sizeof *nv);
		less = xcalloc(n + 1, 1);
		for (i = 0; i < m; i++) {
			rk[i].score = nv[i].r.score;
			rk[i].index = nv[i].cand;
			less[i] = nv[i].pct < 0.5;
		}
		free(nv);
		rec_popshares_close(&ps);
	}
	rec_writer_init(&w, 1, mp);
	{
		size_t written = 0;
		for (i = 0; i < n && written < limit; i++) {
			const char *id = cand.key[rk[i].index];
			size_t len = cand.keylen[rk[i].index];
			/* weak evidence is no evidence: the rest of a list
			 * that its best items' creator fills ("like Queen":
			 * after Queen's own songs, those of one playlist) */
			if (floor_share > 0 && rk[i].score < floor_share *
			    rk[0].score)
				break;
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
			if (less && less[i])
				rec_buf_adds(&why, LESS_KNOWN);
			written += rec_write_scored(&w, frompool ? &pool : NULL,
			    id, len, rk[i].score, src, why.data,
			    limit - written);
		}
		rec_trace_count(pool.n, written);
	}
	rec_writer_close(&w);
	free(rk);
	free(less);
	free(kind);
	rec_hash_free(&seeds);
	rec_hash_free(&cand);
	rec_hash_free(&allow);
	rec_pool_free(&pool);
	rec_buf_free(&why);
	rec_catalog_close(cat);
	rec_exit(0);
}
