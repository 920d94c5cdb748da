/*
 * rec-semid: semantic IDs.  Trains residual-quantised codes of a vector
 * space into the catalog, shows an item's codes, and retrieves items by
 * code: longest common prefix first, then near misses.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "retrieve.h"
#include "opts.h"

static void
usage(FILE *fp)
{
	rec_tooldef_usage(&rec_tool_semid, fp);
}

static sqlite3 *db;

static unsigned long
count_arg(const char *opt, const char *arg, unsigned long lo,
    unsigned long hi)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (*end || !*arg || *arg == '-' || v < lo || v > hi)
		rec_usage_die("%s: not a whole number from %lu to %lu: '%s'",
		    opt, lo, hi, arg);
	return v;
}

static void
train(const char *path, const char *space, size_t levels, size_t ncodes,
    uint64_t seed, int iters)
{
	sqlite3 *w;
	sqlite3_stmt *st;
	size_t n = 0, cap = 0, i, l, c, dim;
	char **ids = NULL;
	float *x = NULL, *cb;
	uint16_t *codes;
	struct rec_rvq_level *stats;
	struct rec_buf b = {0};

	db = rec_catalog_open(path);
	dim = (size_t)rec_catalog_space(db, space);
	if (!dim)
		rec_die("no vector space '%s' in the catalog (add one with "
		    "rec-import vectors)", space);
	if (sqlite3_prepare_v2(db, "SELECT id, vec FROM vectors WHERE space = "
	    "? ORDER BY id", -1, &st, NULL))
		rec_sqlite_die(db, "vectors");
	sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if ((size_t)sqlite3_column_bytes(st, 1) != dim * 4)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			ids = xrealloc(ids, cap * sizeof *ids);
			x = xrealloc(x, cap * dim * sizeof *x);
		}
		ids[n] = xstrdup((const char *)sqlite3_column_text(st, 0));
		memcpy(x + n * dim, sqlite3_column_blob(st, 1), dim * 4);
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (!n)
		rec_die("space '%s' has no vectors", space);
	cb = xcalloc(levels * ncodes * dim, sizeof *cb);
	codes = xcalloc(n * levels, sizeof *codes);
	stats = xcalloc(levels, sizeof *stats);
	rec_rvq_train(x, n, dim, levels, ncodes, seed, iters, cb, codes, stats,
	    isatty(2));
	w = rec_catalog_edit(path, 0, 0);
	rec_sql_exec(w, "CREATE TABLE IF NOT EXISTS semid_spaces(space TEXT "
	    "PRIMARY KEY, levels INTEGER, codes INTEGER, dim INTEGER, "
	    "seed INTEGER);"
	    "CREATE TABLE IF NOT EXISTS semid_codebooks(space TEXT, level "
	    "INTEGER, code INTEGER, centroid BLOB, PRIMARY KEY(space, level, "
	    "code)) WITHOUT ROWID;"
	    "CREATE TABLE IF NOT EXISTS semid_items(space TEXT, id TEXT, codes "
	    "TEXT, PRIMARY KEY(space, id)) WITHOUT ROWID;"
	    "CREATE TABLE IF NOT EXISTS semid_index(space TEXT, level INTEGER, "
	    "code INTEGER, id TEXT, PRIMARY KEY(space, level, code, id)) "
	    "WITHOUT ROWID", "semid");
	{
		char *q = sqlite3_mprintf("DELETE FROM semid_spaces WHERE space "
		    "= %Q; DELETE FROM semid_codebooks WHERE space = %Q; DELETE "
		    "FROM semid_items WHERE space = %Q; DELETE FROM semid_index "
		    "WHERE space = %Q; INSERT INTO semid_spaces VALUES(%Q, %d, "
		    "%d, %d, %lld)", space, space, space, space, space,
		    (int)levels, (int)ncodes, (int)dim, (long long)seed);
		rec_sql_exec(w, q, "semid");
		sqlite3_free(q);
	}
	if (sqlite3_prepare_v2(w, "INSERT INTO semid_codebooks VALUES(?, ?, "
	    "?, ?)", -1, &st, NULL))
		rec_sqlite_die(w, "semid");
	for (l = 0; l < levels; l++)
		for (c = 0; c < ncodes; c++) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 2, (int)l);
			sqlite3_bind_int(st, 3, (int)c);
			sqlite3_bind_blob(st, 4, cb + (l * ncodes + c) * dim,
			    (int)(dim * 4), SQLITE_STATIC);
			if (sqlite3_step(st) != SQLITE_DONE)
				rec_sqlite_die(w, "semid");
		}
	sqlite3_finalize(st);
	{
		sqlite3_stmt *it, *ix;
		if (sqlite3_prepare_v2(w, "INSERT INTO semid_items VALUES(?, ?, "
		    "?)", -1, &it, NULL) || sqlite3_prepare_v2(w, "INSERT INTO "
		    "semid_index VALUES(?, ?, ?, ?)", -1, &ix, NULL))
			rec_sqlite_die(w, "semid");
		for (i = 0; i < n; i++) {
			rec_buf_reset(&b);
			for (l = 0; l < levels; l++) {
				rec_buf_printf(&b, "%s%u", l ? "," : "[",
				    codes[i * levels + l]);
				sqlite3_reset(ix);
				sqlite3_bind_text(ix, 1, space, -1, SQLITE_STATIC);
				sqlite3_bind_int(ix, 2, (int)l);
				sqlite3_bind_int(ix, 3, codes[i * levels + l]);
				sqlite3_bind_text(ix, 4, ids[i], -1, SQLITE_STATIC);
				if (sqlite3_step(ix) != SQLITE_DONE)
					rec_sqlite_die(w, "semid");
			}
			rec_buf_addc(&b, ']');
			sqlite3_reset(it);
			sqlite3_bind_text(it, 1, space, -1, SQLITE_STATIC);
			sqlite3_bind_text(it, 2, ids[i], -1, SQLITE_STATIC);
			sqlite3_bind_text(it, 3, b.data, -1, SQLITE_STATIC);
			if (sqlite3_step(it) != SQLITE_DONE)
				rec_sqlite_die(w, "semid");
		}
		sqlite3_finalize(it);
		sqlite3_finalize(ix);
	}
	rec_catalog_save(w);
	printf("space %s: %zu items, %zu levels x %zu codes, seed %llu\n",
	    space, n, levels, ncodes, (unsigned long long)seed);
	printf("level  error      codes used  entropy\n");
	for (l = 0; l < levels; l++)
		printf("%5zu  %-9.3g  %10.3f  %7.3f\n", l, stats[l].error,
		    stats[l].use, stats[l].entropy);
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	free(x);
	free(cb);
	free(codes);
	free(stats);
	rec_buf_free(&b);
}

struct sp {
	int levels, ncodes;
};

static struct sp
space_info(const char *space)
{
	sqlite3_stmt *st;
	struct sp s = { 0, 0 };

	if (sqlite3_prepare_v2(db, "SELECT levels, codes FROM semid_spaces "
	    "WHERE space = ?", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			s.levels = sqlite3_column_int(st, 0);
			s.ncodes = sqlite3_column_int(st, 1);
		}
		sqlite3_finalize(st);
	}
	if (!s.levels)
		rec_die("no semantic IDs for space '%s' (train them with "
		    "rec-semid --train -S %s)", space, space);
	return s;
}

/* the only space with semantic IDs, when -S is not given */
static char *
default_space(void)
{
	sqlite3_stmt *st;
	char *s = NULL;
	int n = 0;

	if (sqlite3_prepare_v2(db, "SELECT space FROM semid_spaces", -1, &st,
	    NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (!n++)
				s = xstrdup((const char *)
				    sqlite3_column_text(st, 0));
		}
		sqlite3_finalize(st);
	}
	if (n == 0)
		rec_die("the catalog has no semantic IDs (train them with "
		    "rec-semid --train -S SPACE)");
	if (n > 1)
		rec_usage_die("the catalog has semantic IDs for %d spaces: "
		    "choose one with -S", n);
	return s;
}

/* an item's codes in a space into out; 0 if it has none */
static int
item_codes(const char *space, const char *id, size_t idlen, int *out,
    int levels)
{
	sqlite3_stmt *st;
	const char *p;
	int n = 0;

	if (sqlite3_prepare_v2(db, "SELECT codes FROM semid_items WHERE space "
	    "= ? AND id = ?", -1, &st, NULL))
		return 0;
	sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, (int)idlen, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		p = (const char *)sqlite3_column_text(st, 0);
		while (p && *p && n < levels) {
			while (*p == '[' || *p == ',')
				p++;
			out[n++] = atoi(p);
			while (*p >= '0' && *p <= '9')
				p++;
			if (*p == ']')
				break;
		}
	}
	sqlite3_finalize(st);
	return n == levels;
}

static void
show(char **ids, int n)
{
	sqlite3_stmt *st;
	int i, any;

	if (sqlite3_prepare_v2(db, "SELECT space, codes FROM semid_items WHERE "
	    "id = ? ORDER BY space", -1, &st, NULL))
		rec_die("the catalog has no semantic IDs (train them with "
		    "rec-semid --train -S SPACE)");
	for (i = 0; i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, ids[i], -1, SQLITE_STATIC);
		printf("%s", ids[i]);
		any = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			printf(" %s:%s", sqlite3_column_text(st, 0),
			    sqlite3_column_text(st, 1));
			any = 1;
		}
		putchar('\n');
		if (!any)
			rec_die("no semantic ID for '%s'", ids[i]);
	}
	sqlite3_finalize(st);
}

struct hit {
	struct rec_scored r;	/* the score, and the order found in */
	size_t k;		/* index in the hash of ids */
	unsigned mask;		/* levels that match */
};

static int
prefix_of(unsigned mask, int m)
{
	int p = 0;

	while (p < m && (mask >> p & 1))
		p++;
	return p;
}

int
main(int argc, char **argv)
{
	char shortopts[128];
	const struct option *longopts = rec_tooldef_getopt(&rec_tool_semid,
	    shortopts, sizeof shortopts);
	const char *dbpath = NULL, *code = NULL, *src = "semid";
	char *space = NULL, *like = NULL;
	size_t levels = 4, ncodes = 64, limit = 100, i, nh = 0;
	unsigned long dist = 1, iters = 25, seed = 1;
	int c, all = 0, mp = 0, doshow = 0, dotrain = 0, q[16], m = 0, j;
	struct rec_hash found = {0}, seeds = {0};
	struct hit *hits = NULL;
	struct rec_writer w;
	struct rec_buf why = {0};
	struct rec_pool pool = {0};
	struct sp sp;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, shortopts, longopts,
	    NULL)) != -1)
		switch (c) {
		case 'a': all = 1; break;
		case 'c': code = optarg; break;
		case 'C': ncodes = count_arg("--codes", optarg, 2, 65535); break;
		case 'd': dbpath = optarg; break;
		case 'D': dist = count_arg("--distance", optarg, 0, 16); break;
		case 'i': iters = count_arg("--iters", optarg, 1, 10000); break;
		case 'k': limit = count_arg("-k", optarg, 0, (unsigned long)-1);
			break;
		case 'l': like = optarg; break;
		case 'L': levels = count_arg("--levels", optarg, 1, 16); break;
		case 'M': mp = 1; break;
		case 'P': doshow = 1; break;
		case 'r': seed = count_arg("--seed", optarg, 0,
		    (unsigned long)-1); break;
		case 's': src = optarg; break;
		case 'S': space = optarg; break;
		case 'T': dotrain = 1; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	dbpath = rec_catalog_path(dbpath);
	if (dotrain) {
		if (!space)
			rec_usage_die("--train needs --space");
		train(dbpath, space, levels, ncodes, seed, (int)iters);
		if (fflush(stdout) || ferror(stdout))
			rec_die("write error");
		rec_exit(0);
	}
	db = rec_catalog_open(dbpath);
	if (doshow) {
		if (optind == argc)
			rec_usage_die("--show needs IDs");
		show(argv + optind, argc - optind);
		if (fflush(stdout) || ferror(stdout))
			rec_die("write error");
		rec_exit(0);
	}
	if (optind < argc)
		rec_usage_die("unexpected argument '%s'", argv[optind]);
	if (!code == !like)
		rec_usage_die("give --code or --like (one of them)");
	if (!space)
		space = default_space();
	sp = space_info(space);
	if (code) {
		const char *p = code;
		char *end;
		while (*p) {
			long v = strtol(p, &end, 10);
			if (end == p || (*end && *end != ','))
				rec_usage_die("--code: not a list of numbers: "
				    "'%s'", code);
			if (m == sp.levels)
				rec_usage_die("--code: %s has %d levels, got "
				    "more codes: '%s'", space, sp.levels, code);
			if (v < 0 || v >= sp.ncodes)
				rec_usage_die("--code: %ld is out of range (0 to "
				    "%d in %s)", v, sp.ncodes - 1, space);
			q[m++] = (int)v;
			p = *end ? end + 1 : end;
		}
		if (!m)
			rec_usage_die("--code: no codes");
	} else {
		char *copy = xstrdup(like), *tok, *save = NULL;
		for (tok = strtok_r(copy, ",", &save); tok;
		    tok = strtok_r(NULL, ",", &save)) {
			if (!item_codes(space, tok, strlen(tok), q, sp.levels))
				rec_die("no semantic ID for '%s' in %s", tok,
				    space);
			rec_hash_put(&seeds, tok, strlen(tok), NULL);
		}
		free(copy);
		m = sp.levels;	/* the last seed's codes */
	}
	if (!all && rec_stdin_is_pool()) {
		struct rec_reader r;
		int qc[16];
		rec_reader_init(&r, 0, "stdin");
		rec_pool_read(&pool, &r);
		rec_reader_free(&r);
		hits = xcalloc(pool.ids.n + 1, sizeof *hits);
		for (i = 0; i < pool.ids.n; i++) {
			unsigned mask = 0;
			if (!item_codes(space, pool.ids.key[i],
			    pool.ids.keylen[i], qc, sp.levels))
				continue;
			for (j = 0; j < m; j++)
				if (qc[j] == q[j])
					mask |= 1u << j;
			rec_hash_put(&found, pool.ids.key[i], pool.ids.keylen[i],
			    NULL);
			hits[nh].k = found.n - 1;
			hits[nh].mask = mask;
			hits[nh].r.index = i;
			nh++;
		}
	} else {
		/* the inverted index: (level, code) -> items */
		sqlite3_stmt *st;
		size_t cap = 0;
		if (sqlite3_prepare_v2(db, "SELECT id FROM semid_index WHERE "
		    "space = ? AND level = ? AND code = ?", -1, &st, NULL))
			rec_sqlite_die(db, "semid");
		for (j = 0; j < m; j++) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 2, j);
			sqlite3_bind_int(st, 3, q[j]);
			while (sqlite3_step(st) == SQLITE_ROW) {
				int added;
				size_t k = rec_hash_put(&found,
				    (const char *)sqlite3_column_text(st, 0),
				    (size_t)sqlite3_column_bytes(st, 0), &added);
				if (added) {
					if (nh == cap) {
						cap = cap ? cap * 2 : 256;
						hits = xrealloc(hits, cap *
						    sizeof *hits);
					}
					hits[nh].k = k;
					hits[nh].mask = 0;
					hits[nh].r.index = k;
					nh++;
				}
				hits[k].mask |= 1u << j;
			}
		}
		sqlite3_finalize(st);
	}
	/* keep exact prefixes and near misses; longest prefix first */
	{
		size_t keep = 0;
		for (i = 0; i < nh; i++) {
			int matches = __builtin_popcount(hits[i].mask);
			int pre = prefix_of(hits[i].mask, m);
			const char *id = found.key[hits[i].k];
			if (rec_hash_get(&seeds, id, strlen(id)) != (size_t)-1)
				continue;
			if (pre < 1 && m - matches > (int)dist)
				continue;
			hits[i].r.score = pre + (double)matches / (m + 1);
			hits[keep++] = hits[i];
		}
		nh = keep;
	}
	rec_scored_sort(hits, nh, sizeof *hits);
	rec_writer_init(&w, 1, mp);
	{
		size_t written = 0;
		for (i = 0; i < nh && written < limit; i++) {
			const char *id = found.key[hits[i].k];
			size_t len = found.keylen[hits[i].k];
			rec_buf_reset(&why);
			rec_buf_printf(&why, "semid %s [", space);
			for (j = 0; j < m; j++)
				rec_buf_printf(&why, "%s%d", j ? "," : "", q[j]);
			rec_buf_printf(&why, "]: prefix %d, %d of %d codes",
			    prefix_of(hits[i].mask, m),
			    __builtin_popcount(hits[i].mask), m);
			written += rec_write_scored(&w, &pool, id, len,
			    hits[i].r.score, src, why.data, limit - written);
		}
		rec_trace_count(pool.n, written);
	}
	rec_writer_close(&w);
	free(hits);
	rec_hash_free(&found);
	rec_hash_free(&seeds);
	rec_pool_free(&pool);
	rec_buf_free(&why);
	sqlite3_close(db);
	rec_exit(0);
}
