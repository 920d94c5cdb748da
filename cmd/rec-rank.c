/*
 * rec-rank: the final stage: fuse streams, personalise, boost, remove,
 * rescore, favour the less popular, one record per song, diversify, cut.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"
#include "opts.h"

static void
usage(FILE *fp)
{
	rec_tooldef_usage(&rec_tool_rank, fp);
}

/* the catalog, opened for the first option that needs one */
static sqlite3 *
need_db(sqlite3 *db, const char *path, const char *why)
{
	if (db)
		return db;
	if (!path && !getenv("REC_DB"))
		rec_usage_die("%s needs a catalog: give -d CATALOG or set "
		    "REC_DB", why);
	return rec_catalog_open(path);
}

/* A cut list (rec-cf --cut): the pool's last record carries "cut",
 * the highest score of the records left out before it; tells the ranker
 * (dies when it is not a number) */
static void
cut_of(struct rec_ranker *rk, const struct rec_pool *p, msgpack_zone *z)
{
	const msgpack_object *v;
	msgpack_object o;
	double cut = 0;
	int has = 0;

	if (p->n) {
		rec_pool_get(p, p->n - 1, z, &o);
		if ((v = rec_map_get(&o, "cut"))) {
			if (v->type == MSGPACK_OBJECT_FLOAT32 ||
			    v->type == MSGPACK_OBJECT_FLOAT64)
				cut = v->via.f64;
			else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
				cut = (double)v->via.u64;
			else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
				cut = (double)v->via.i64;
			else
				rec_die("\"cut\" is not a number");
			has = 1;
		}
	}
	rec_ranker_cut(rk, has, cut);
}

/* appends the items of a comma-separated list */
static void
split_list(struct rec_strs *v, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok;
	    tok = strtok_r(NULL, ",", &save))
		rec_strs_push(v, tok, strlen(tok));
	free(copy);
}

int
main(int argc, char **argv)
{
	char shortopts[128];
	const struct option *longopts = rec_tooldef_getopt(&rec_tool_rank,
	    shortopts, sizeof shortopts);
	struct rec_rank_opts o = {
		.fuse = { REC_FUSE_BEST, 60, NULL, NULL, 0 },
		.personal = 0.3, .like_weight = 0.3, .per = 1, .mmr = -1,
		.limit = (size_t)-1
	};
	const char **wsrc = NULL, *by = NULL, *where = NULL, *src = "rank";
	const char *dbpath = NULL, *group = NULL, *redo_path = NULL;
	FILE *redo = NULL;
	msgpack_zone zone;
	double *w = NULL;
	size_t n, i;
	struct rec_cand *c;
	struct rec_reader r;
	struct rec_writer wr;
	struct rec_buf err = {0};
	struct rec_pool pool = {0};
	struct rec_ranker *rk;
	sqlite3 *db = NULL;
	int ch, mp = 0;

	rec_init(argc, argv);
	while ((ch = getopt_long(argc, argv, shortopts, longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'F':
			if (!strcmp(optarg, "rrf"))
				o.fuse.mode = REC_FUSE_RRF;
			else if (!strcmp(optarg, "sum"))
				o.fuse.mode = REC_FUSE_SUM;
			else if (!strcmp(optarg, "max"))
				o.fuse.mode = REC_FUSE_MAX;
			else
				rec_usage_die("--fuse: unknown mode '%s' (rrf, "
				    "sum or max)", optarg);
			break;
		case 'R': o.fuse.rrf_k = rec_arg_number("--rrf-k", optarg, 0, 1e9); break;
		case 'W': {
			const char *eq = strchr(optarg, '=');
			size_t nw = o.fuse.nw;
			if (!eq || eq == optarg)
				rec_usage_die("--weight: expected SRC=W, got "
				    "'%s'", optarg);
			wsrc = xrealloc(wsrc, (nw + 1) * sizeof *wsrc);
			w = xrealloc(w, (nw + 1) * sizeof *w);
			wsrc[nw] = xstrndup(optarg, (size_t)(eq - optarg));
			w[nw] = rec_arg_number("--weight", eq + 1, -1e9, 1e9);
			o.fuse.nw++;
			break;
		}
		case 'u': o.user = optarg; break;
		case 'P': o.personal = rec_arg_number("--personal", optarg, 0, 100); break;
		case 'x': o.seen_user = optarg; break;
		case 'l': split_list(&o.like, optarg); break;
		case 'L': o.like_weight = rec_arg_number("--like-weight", optarg, 0, 100); break;
		case 'n': split_list(&o.unwanted, optarg); break;
		case 'N': o.novelty = rec_arg_number("--novelty", optarg, 0, 1); break;
		case 'U': o.unique = optarg; break;
		case 'D': o.diversify = optarg; break;
		case 'A': split_list(&o.alternate, optarg); break;
		case 'p': o.per = (size_t)rec_arg_number("--per", optarg, 1, 1e9); break;
		case 'm': o.mmr = rec_arg_number("--mmr", optarg, 0, 1); break;
		case 'S': o.space = optarg; break;
		case 'b': by = optarg; break;
		case 'w': where = optarg; break;
		case 'k': o.limit = rec_arg_count("-k", optarg); break;
		case 's': src = optarg; break;
		case 'g':
			if (!*optarg)
				rec_usage_die("--group: an empty key");
			group = optarg;
			break;
		case 'd': dbpath = optarg; break;
		case 'r': redo_path = optarg; break;
		case 'M': mp = 1; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, ch);
		}
	if (optind < argc)
		rec_usage_die("unexpected argument '%s'", argv[optind]);
	if (o.mmr >= 0 && !o.space)
		rec_usage_die("--mmr needs --space");
	if (!group && ((o.user && !strcmp(o.user, "@")) ||
	    (o.seen_user && !strcmp(o.seen_user, "@"))))
		rec_usage_die("-u @ and -x @ name a group's value: give "
		    "--group KEY");
	if (redo_path && !group)
		rec_usage_die("--redo needs --group");
	o.fuse.wsrc = wsrc;
	o.fuse.w = w;
	if (by && !(o.by = rec_jq_compile(by, &err)))
		rec_usage_die("--by: %s", err.data);
	if (where && !(o.where = rec_jq_compile(where, &err)))
		rec_usage_die("--where: %s", err.data);
	if (o.user)
		db = need_db(db, dbpath, "--user");
	if (o.seen_user)
		db = need_db(db, dbpath, "--exclude-seen");
	if (o.like.n)
		db = need_db(db, dbpath, "--like");
	if (o.novelty > 0)
		db = need_db(db, dbpath, "--novelty");
	if (o.diversify)
		db = need_db(db, dbpath, "--diversify");
	if (o.alternate.n > 32)
		rec_usage_die("--alternate: at most 32 sources");
	if (o.unique)
		db = need_db(db, dbpath, "--unique");
	if (o.space)
		db = need_db(db, dbpath, "--space");
	if ((by || where) && (dbpath || getenv("REC_DB")))
		db = need_db(db, dbpath, "--by");
	rk = rec_ranker_new(&o, db);
	if (redo_path && !(redo = fopen(redo_path, "w")))
		rec_die("cannot open '%s': %m", redo_path);
	msgpack_zone_init(&zone, 1024);

	rec_reader_init(&r, 0, "stdin");
	rec_writer_init(&wr, 1, mp);
	if (group) {
		/* one list per group, in the order the groups come */
		struct rec_groups g;
		const char *user = o.user, *seen = o.seen_user;
		unsigned long in = 0, out = 0;
		rec_groups_init(&g, &r, group);
		while (rec_groups_pool(&g, &pool)) {
			const char *v = g.value.data;
			rec_ranker_user(rk, user && !strcmp(user, "@") ? v :
			    user, seen && !strcmp(seen, "@") ? v : seen);
			cut_of(rk, &pool, &zone);
			n = rec_ranker_rank(rk, &pool, &c);
			if (!rec_ranker_sure(rk)) {
				/* those left out might have changed it */
				if (!redo)
					rec_die("group '%s': its list was cut too "
					    "short to rank for sure (give "
					    "--redo, or cut it later)", v);
				fprintf(redo, "%s\n", v);
				for (i = 0; i < n; i++)
					free(c[i].why);
				n = 0;
			}
			for (i = 0; i < n; i++) {
				rec_write_fused(&wr, &pool, c[i].uid,
				    c[i].r.score, src, c[i].why);
				free(c[i].why);
			}
			free(c);
			in += pool.n;
			out += n;
		}
		rec_groups_free(&g);
		rec_trace_count(in, out);
	} else {
		rec_pool_read(&pool, &r);
		cut_of(rk, &pool, &zone);
		n = rec_ranker_rank(rk, &pool, &c);
		if (!rec_ranker_sure(rk))
			rec_die("the list was cut too short to rank for sure "
			    "(cut it later)");
		for (i = 0; i < n; i++)
			rec_write_fused(&wr, &pool, c[i].uid, c[i].r.score, src,
			    c[i].why);
		rec_trace_count(pool.n, n);
		for (i = 0; i < n; i++)
			free(c[i].why);
		free(c);
	}
	rec_reader_free(&r);
	rec_writer_close(&wr);
	msgpack_zone_destroy(&zone);
	if (redo && (fflush(redo) || ferror(redo) | fclose(redo)))
		rec_die("cannot write '%s': %m", redo_path);
	rec_ranker_free(rk);
	rec_pool_free(&pool);
	rec_strs_free(&o.like);
	rec_strs_free(&o.unwanted);
	rec_strs_free(&o.alternate);
	for (i = 0; i < o.fuse.nw; i++)
		free((char *)wsrc[i]);
	free(wsrc);
	free(w);
	rec_buf_free(&err);
	if (db)
		sqlite3_close(db);
	rec_exit(0);
}
