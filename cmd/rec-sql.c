/*
 * rec-sql: boolean filtering with a read-only SQL query over the items
 * table, of the pool on standard input or of the whole catalog.
 */
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"
#include "catalog.h"
#include "opts.h"

static void
usage(FILE *fp)
{
	rec_tooldef_usage(&rec_tool_sql, fp);
}

static sqlite3 *db;
static struct rec_pool pool;
static int have_pool;

/* Does the query order its rows?  ORDER BY outside quotes. */
static int
has_order_by(const char *s)
{
	char q;

	for (; *s; s++) {
		if (*s == '\'' || *s == '"' || *s == '`' || *s == '[') {
			q = *s == '[' ? ']' : *s;
			for (s++; *s && *s != q; s++)
				;
			if (!*s)
				return 0;
			continue;
		}
		if (!strncasecmp(s, "order", 5) && (s[5] == ' ' ||
		    s[5] == '\t' || s[5] == '\n')) {
			const char *p = s + 5;
			while (*p == ' ' || *p == '\t' || *p == '\n')
				p++;
			if (!strncasecmp(p, "by", 2))
				return 1;
		}
	}
	return 0;
}

static void
load_pool(void)
{
	struct rec_reader r;
	sqlite3_stmt *st;
	size_t i;

	rec_reader_init(&r, 0, "stdin");
	rec_pool_read(&pool, &r);
	rec_reader_free(&r);
	/* in memory: SQLite's default puts temporary tables in a file */
	rec_sql_exec(db, "PRAGMA temp_store = MEMORY;"
	    "CREATE TEMP TABLE pool(id TEXT PRIMARY KEY, pos INTEGER) "
	    "WITHOUT ROWID; BEGIN", "pool");
	if (sqlite3_prepare_v2(db, "INSERT INTO temp.pool(pos, id) "
	    "VALUES(?, ?)", -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "pool");
	for (i = 0; i < pool.ids.n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
		sqlite3_bind_text(st, 2, pool.ids.key[i],
		    (int)pool.ids.keylen[i], SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rec_sqlite_die(db, "pool");
	}
	sqlite3_finalize(st);
	/* unqualified "items" now names the pool's items */
	rec_sql_exec(db, "COMMIT;"
	    "CREATE TEMP VIEW items AS SELECT * FROM main.items "
	    "WHERE id IN (SELECT id FROM temp.pool)", "pool");
	have_pool = 1;
}

static sqlite3_stmt *
prepare(const char *sql)
{
	sqlite3_stmt *st = NULL;
	const char *tail = NULL;
	struct rec_buf msg = {0};

	if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK) {
		rec_sql_explain(db, &msg);
		rec_die("%s", msg.data);
	}
	if (!st)
		rec_usage_die("empty query");
	while (tail && (*tail == ' ' || *tail == '\t' || *tail == '\n' ||
	    *tail == ';' || *tail == '\r'))
		tail++;
	if (tail && *tail)
		rec_die("refused: one statement only (found more after "
		    "';')");
	if (!sqlite3_stmt_readonly(st))
		rec_die("refused: the statement would write (queries are "
		    "read-only)");
	return st;
}

static void
step_error(sqlite3_stmt *st)
{
	struct rec_buf msg = {0};

	(void)st;
	rec_sql_explain(db, &msg);
	rec_die("%s", msg.data);
}

/* --lookup: the rows as {"rows":[{col: value, ...}, ...]} */
static void
lookup(sqlite3_stmt *st, unsigned long limit)
{
	struct rec_buf b = {0};
	unsigned long n = 0;
	int i, rc, cols = sqlite3_column_count(st);
	char num[40];

	rec_buf_adds(&b, "{\"rows\":[");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == limit) {
			n++;
			break;
		}
		if (n++)
			rec_buf_addc(&b, ',');
		rec_buf_addc(&b, '{');
		for (i = 0; i < cols; i++) {
			const char *name = sqlite3_column_name(st, i);
			if (i)
				rec_buf_addc(&b, ',');
			rec_json_string(&b, name, strlen(name));
			rec_buf_addc(&b, ':');
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_NULL:
				rec_buf_adds(&b, "null");
				break;
			case SQLITE_INTEGER:
				rec_buf_printf(&b, "%lld",
				    sqlite3_column_int64(st, i));
				break;
			case SQLITE_FLOAT:
				rec_json_double(num, sizeof num,
				    sqlite3_column_double(st, i));
				rec_buf_adds(&b, num);
				break;
			default:
				rec_json_string(&b,
				    (const char *)sqlite3_column_text(st, i),
				    (size_t)sqlite3_column_bytes(st, i));
			}
		}
		rec_buf_addc(&b, '}');
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		step_error(st);
	rec_buf_printf(&b, "],\"truncated\":%s}\n", n > limit ? "true" :
	    "false");
	rec_write_all(1, b.data, b.len);
	rec_buf_free(&b);
}

/* The comparisons of a text column with a string literal in the query:
 * col = 'v', col LIKE 'v', has(col, 'v'). */
struct cmp {
	char *col, *val;
	int like, has;
	regoff_t so, eo;	/* the literal, quotes included */
};

static size_t
find_comparisons(const char *sql, struct cmp **out)
{
	static const char *const pat[2] = {
	    "([A-Za-z_][A-Za-z0-9_]*)\"?[[:space:]]*(==|=|[Ll][Ii][Kk][Ee])"
	    "[[:space:]]*('([^']|'')*')",
	    "[Hh][Aa][Ss][[:space:]]*\\([[:space:]]*\"?([A-Za-z_][A-Za-z0-9_]*)"
	    "\"?[[:space:]]*,[[:space:]]*()('([^']|'')*')" };
	regex_t re;
	regmatch_t m[5];
	size_t n = 0, k;
	int p;

	*out = NULL;
	for (p = 0; p < 2; p++) {
		const char *s = sql;
		if (regcomp(&re, pat[p], REG_EXTENDED))
			continue;
		while (!regexec(&re, s, 5, m, s == sql ? 0 : REG_NOTBOL)) {
			struct cmp c;
			struct rec_buf v = {0};
			const char *lit = s + m[3].rm_so + 1;
			size_t len = (size_t)(m[3].rm_eo - m[3].rm_so) - 2;

			for (k = 0; k < len; k++) {
				rec_buf_addc(&v, lit[k]);
				if (lit[k] == '\'')
					k++;	/* '' is one quote */
			}
			c.col = xstrndup(s + m[1].rm_so,
			    (size_t)(m[1].rm_eo - m[1].rm_so));
			c.val = v.data ? v.data : xstrdup("");
			c.like = p == 0 && (s[m[2].rm_so] == 'l' ||
			    s[m[2].rm_so] == 'L');
			c.has = p == 1;
			c.so = (regoff_t)(s - sql) + m[3].rm_so;
			c.eo = (regoff_t)(s - sql) + m[3].rm_eo;
			*out = xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n++] = c;
			s += m[0].rm_eo;
		}
		regfree(&re);
	}
	return n;
}

static int
value_exists(const struct cmp *c)
{
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	int found;

	if (c->has)
		rec_buf_printf(&sql, "SELECT 1 FROM main.items WHERE "
		    "has(\"%s\", ?) LIMIT 1", c->col);
	else
		rec_buf_printf(&sql, "SELECT 1 FROM main.items WHERE \"%s\" %s ? "
		    "LIMIT 1", c->col, c->like ? "LIKE" : "=");
	rec_sql_trusted(db, 1);
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) != SQLITE_OK) {
		rec_sql_trusted(db, 0);
		rec_buf_free(&sql);
		return 1;	/* not a column we can check */
	}
	sqlite3_bind_text(st, 1, c->val, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	rec_sql_trusted(db, 0);
	rec_buf_free(&sql);
	return found;
}

/* After an empty result: says which comparisons match nothing and the
 * closest values.  With fuzzy, returns the query with each replaced by
 * the closest value (caller frees), or NULL. */
static char *
explain_empty(const char *sql, int fuzzy)
{
	struct cmp *c;
	size_t n = find_comparisons(sql, &c), i, got;
	struct rec_buf fixed = {0}, vals = {0}, line = {0};
	regoff_t at = 0;
	int changed = 0;
	char type[16];
	int list;

	for (i = 0; i < n; i++) {
		const char *v;

		if (!rec_catalog_column(db, c[i].col, &list, type, sizeof type)
		    || strcmp(type, "text") || value_exists(&c[i]))
			continue;
		rec_buf_reset(&vals);
		{
			/* LIKE '%x%': look for x */
			char *bare = xstrdup(c[i].val), *p, *q;
			for (p = q = bare; *p; p++)
				if (*p != '%' && *p != '_')
					*q++ = *p;
			*q = 0;
			got = rec_sql_closest_values(db, c[i].col, bare, 3,
			    &vals);
			free(bare);
		}
		rec_buf_reset(&line);
		if (c[i].has)
			rec_buf_printf(&line, "has(%s, '%s') matches nothing",
			    c[i].col, c[i].val);
		else
			rec_buf_printf(&line, "%s %s '%s' matches nothing",
			    c[i].col, c[i].like ? "LIKE" : "=", c[i].val);
		if (!got) {
			rec_warn("%s in '%s'", line.data, c[i].col);
			continue;
		}
		if (fuzzy) {
			rec_warn("%s; using '%s'", line.data, vals.data);
			rec_buf_add(&fixed, sql + at, (size_t)(c[i].so - at));
			rec_buf_addc(&fixed, '\'');
			for (v = vals.data; *v; v++) {
				if (*v == '\'')
					rec_buf_addc(&fixed, '\'');
				rec_buf_addc(&fixed, *v);
			}
			rec_buf_addc(&fixed, '\'');
			at = c[i].eo;
			changed = 1;
			continue;
		}
		rec_buf_adds(&line, " (closest: ");
		for (v = vals.data; got--; v += strlen(v) + 1)
			rec_buf_printf(&line, "'%s'%s", v, got ? ", " : "");
		rec_buf_adds(&line, "; --fuzzy uses the first)");
		rec_warn("%s", line.data);
	}
	for (i = 0; i < n; i++) {
		free(c[i].col);
		free(c[i].val);
	}
	free(c);
	rec_buf_free(&vals);
	rec_buf_free(&line);
	if (!changed) {
		rec_buf_free(&fixed);
		return NULL;
	}
	rec_buf_adds(&fixed, sql + at);
	return fixed.data;
}

/* Column i as a double, or an error when it is infinite (SQLite has no
 * NaN): a record may not hold what JSON cannot write. */
static double
finite_column(sqlite3_stmt *st, int i, const char *id, int idlen)
{
	double d = sqlite3_column_double(st, i);

	if (!isfinite(d))
		rec_die("column '%s' of '%.*s' is not a finite number",
		    sqlite3_column_name(st, i), idlen, id);
	return d;
}

/* Runs the query; writes records; returns how many. */
static unsigned long
run(const char *sql, unsigned long limit, const char *src,
    struct rec_writer *w)
{
	sqlite3_stmt *st = prepare(sql);
	int cols = sqlite3_column_count(st), idcol = -1, scorecol = -1, i, rc;
	int ordered = has_order_by(sql);
	unsigned long out = 0;
	struct rec_buf b = {0};
	msgpack_packer pk;
	char *pass = NULL;
	size_t k;

	for (i = 0; i < cols; i++) {
		const char *name = sqlite3_column_name(st, i);
		if (idcol < 0 && !strcasecmp(name, "id"))
			idcol = i;
		else if (scorecol < 0 && !strcasecmp(name, "score"))
			scorecol = i;
	}
	if (idcol < 0)
		rec_die("the query does not return the id column (SELECT id, "
		    "... FROM items ...; --lookup answers other questions)");
	if (have_pool)
		pass = xcalloc(pool.ids.n + 1, 1);
	msgpack_packer_init(&pk, &b, rec_buf_msgpack_write);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && out < limit) {
		const char *id = (const char *)sqlite3_column_text(st, idcol);
		int n = sqlite3_column_bytes(st, idcol), extra = 0;

		if (!id || !n)
			continue;
		if (have_pool) {
			k = rec_hash_get(&pool.ids, id, (size_t)n);
			if (k == (size_t)-1 || pass[k])
				continue;
			pass[k] = 1;
			if (ordered)	/* the query's order, then the pool's */
				for (size_t j = pool.first[k];
				    j != (size_t)-1 && out < limit;
				    j = pool.next[j], out++)
					rec_write_msgpack(w, pool.raw.data +
					    pool.off[j], pool.off[j + 1] -
					    pool.off[j]);
			continue;
		}
		for (i = 0; i < cols; i++)
			extra += i != idcol && i != scorecol;
		rec_buf_reset(&b);
		msgpack_pack_map(&pk, extra ? 4 : 3);
		msgpack_pack_str_with_body(&pk, "id", 2);
		msgpack_pack_str_with_body(&pk, id, (size_t)n);
		msgpack_pack_str_with_body(&pk, "score", 5);
		msgpack_pack_double(&pk, scorecol < 0 ? 1.0 :
		    finite_column(st, scorecol, id, n));
		msgpack_pack_str_with_body(&pk, "src", 3);
		msgpack_pack_str_with_body(&pk, src, strlen(src));
		if (extra) {
			msgpack_pack_str_with_body(&pk, "item", 4);
			msgpack_pack_map(&pk, (uint32_t)extra);
			for (i = 0; i < cols; i++) {
				const char *name;
				if (i == idcol || i == scorecol)
					continue;
				name = sqlite3_column_name(st, i);
				msgpack_pack_str_with_body(&pk, name,
				    strlen(name));
				switch (sqlite3_column_type(st, i)) {
				case SQLITE_NULL:
					msgpack_pack_nil(&pk);
					break;
				case SQLITE_INTEGER:
					msgpack_pack_int64(&pk,
					    sqlite3_column_int64(st, i));
					break;
				case SQLITE_FLOAT:
					msgpack_pack_double(&pk,
					    finite_column(st, i, id, n));
					break;
				default:
					msgpack_pack_str_with_body(&pk,
					    (const char *)
					    sqlite3_column_text(st, i),
					    (size_t)sqlite3_column_bytes(st, i));
				}
			}
		}
		rec_write_msgpack(w, b.data, b.len);
		out++;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		step_error(st);
	if (have_pool && !ordered)	/* the pool's order */
		for (k = 0; k < pool.n && out < limit; k++) {
			size_t d = rec_hash_get(&pool.ids, pool.raw.data +
			    pool.idoff[k], pool.idlen[k]);
			if (pass[d]) {
				rec_write_msgpack(w, pool.raw.data +
				    pool.off[k], pool.off[k + 1] - pool.off[k]);
				out++;
			}
		}
	sqlite3_finalize(st);
	free(pass);
	rec_buf_free(&b);
	return out;
}

int
main(int argc, char **argv)
{
	char shortopts[128];
	const struct option *longopts = rec_tooldef_getopt(&rec_tool_sql,
	    shortopts, sizeof shortopts);
	const char *dbpath = NULL, *where = NULL, *order = NULL, *src = "sql";
	struct rec_buf sql = {0};
	struct rec_writer w;
	unsigned long limit = (unsigned long)-1, out;
	int c, all = 0, fuzzy = 0, look = 0, mp = 0;
	long timeout;
	char *fixed;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, shortopts, longopts,
	    NULL)) != -1)
		switch (c) {
		case 'a': all = 1; break;
		case 'd': dbpath = optarg; break;
		case 'f': fuzzy = 1; break;
		case 'k': limit = rec_arg_count("-k", optarg); break;
		case 'L': look = 1; break;
		case 'M': mp = 1; break;
		case 'o': order = optarg; break;
		case 's': src = optarg; break;
		case 'w': where = optarg; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (where && optind < argc)
		rec_usage_die("give a QUERY or --where, not both");
	if (!where && optind != argc - 1)
		rec_usage_die(optind < argc ? "give one QUERY (quote it)" :
		    "give a QUERY or --where");
	if (order && !where)
		rec_usage_die("--order goes with --where");
	timeout = rec_sql_limits();
	if (where) {
		rec_buf_printf(&sql, "SELECT id FROM items WHERE (%s)", where);
		if (order)
			rec_buf_printf(&sql, " ORDER BY %s", order);
	} else
		rec_buf_adds(&sql, argv[optind]);
	db = rec_catalog_open_guarded(dbpath);
	rec_sql_functions(db);
	if (!all && rec_stdin_is_pool())
		load_pool();
	rec_sql_readonly(db, timeout);
	if (look) {
		sqlite3_stmt *st = prepare(sql.data);
		lookup(st, limit == (unsigned long)-1 ? 50 : limit);
		sqlite3_finalize(st);
		rec_trace_count(pool.n, 1);
		sqlite3_close(db);
		rec_exit(0);
	}
	rec_writer_init(&w, 1, mp);
	out = run(sql.data, limit, src, &w);
	if (!out && (fixed = explain_empty(sql.data, fuzzy))) {
		out = run(fixed, limit, src, &w);
		free(fixed);
	}
	rec_writer_close(&w);
	rec_trace_count(pool.n, out);
	rec_pool_free(&pool);
	rec_buf_free(&sql);
	sqlite3_close(db);
	rec_exit(0);
}
