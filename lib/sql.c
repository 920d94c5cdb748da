/*
 * sql.c: what makes SQL from a person or a model safe and fixable.
 * TalkPlay-Tools' planner got a working SQL call 27% of the time: wrong
 * columns, bad syntax, values spelt differently from the catalog.  So
 * the guard refuses anything but reads, and the errors name the fix.
 */
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "catalog.h"

static char refusal[200];
static struct timespec deadline;
static int have_deadline;

static const char *
action_name(int code)
{
	switch (code) {
	case SQLITE_ATTACH: return "ATTACH";
	case SQLITE_DETACH: return "DETACH";
	case SQLITE_PRAGMA: return "PRAGMA";
	case SQLITE_INSERT: return "INSERT";
	case SQLITE_UPDATE: return "UPDATE";
	case SQLITE_DELETE: return "DELETE";
	case SQLITE_TRANSACTION: return "a transaction";
	case SQLITE_SAVEPOINT: return "SAVEPOINT";
	case SQLITE_ALTER_TABLE: return "ALTER TABLE";
	case SQLITE_REINDEX: return "REINDEX";
	case SQLITE_ANALYZE: return "ANALYZE";
	case SQLITE_CREATE_VTABLE: case SQLITE_DROP_VTABLE:
		return "a virtual table";
	default: return "creating or dropping schema objects";
	}
}

static int
authorize(void *arg, int code, const char *a, const char *b, const char *c,
    const char *d)
{
	(void)arg; (void)b; (void)c; (void)d;
	switch (code) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_FUNCTION:
		if (b && (!strcmp(b, "load_extension") ||
		    !strcmp(b, "fts3_tokenizer") || !strcmp(b, "readfile") ||
		    !strcmp(b, "writefile") || !strcmp(b, "edit"))) {
			snprintf(refusal, sizeof refusal, "refused: %s() is not "
			    "allowed (queries are read-only)", b);
			return SQLITE_DENY;
		}
		return SQLITE_OK;
	}
	snprintf(refusal, sizeof refusal, "refused: %s is not allowed "
	    "(queries are read-only)%s", action_name(code),
	    code == SQLITE_PRAGMA && a ? "" : "");
	return SQLITE_DENY;
}

static int
progress(void *arg)
{
	struct timespec now;

	(void)arg;
	if (!have_deadline)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > deadline.tv_sec || (now.tv_sec == deadline.tv_sec &&
	    now.tv_nsec > deadline.tv_nsec)) {
		snprintf(refusal, sizeof refusal, "query stopped: it ran "
		    "longer than REC_SQL_TIMEOUT");
		return 1;
	}
	return 0;
}

void
rec_sql_readonly(sqlite3 *db, long timeout_ms)
{
	refusal[0] = 0;
	sqlite3_set_authorizer(db, authorize, NULL);
	if (timeout_ms > 0) {
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += timeout_ms / 1000;
		deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		have_deadline = 1;
		sqlite3_progress_handler(db, 10000, progress, NULL);
	}
}

void
rec_sql_trusted(sqlite3 *db, int on)
{
	sqlite3_set_authorizer(db, on ? NULL : authorize, NULL);
}

const char *
rec_sql_refusal(void)
{
	return refusal[0] ? refusal : NULL;
}

static void
fn_norm(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct rec_buf b = {0};
	const char *s = (const char *)sqlite3_value_text(argv[0]);

	(void)argc;
	if (!s) {
		sqlite3_result_null(ctx);
		return;
	}
	rec_norm(&b, s, (size_t)sqlite3_value_bytes(argv[0]));
	sqlite3_result_text(ctx, b.data ? b.data : "", (int)b.len,
	    SQLITE_TRANSIENT);
	rec_buf_free(&b);
}

/* has(list, value): folded membership in a JSON array of strings, or
 * folded equality with a plain string */
static void
fn_has(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct rec_buf want = {0}, got = {0}, pk = {0}, err = {0};
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	const char *v = (const char *)sqlite3_value_text(argv[1]);
	msgpack_zone zone;
	msgpack_object o;
	size_t off = 0;
	uint32_t i;
	int found = 0;

	(void)argc;
	if (!s || !v) {
		sqlite3_result_int(ctx, 0);
		return;
	}
	rec_norm(&want, v, strlen(v));
	msgpack_zone_init(&zone, 1024);
	if (s[0] == '[' && !rec_json_to_msgpack(s, strlen(s), &pk, NULL, &err)
	    && msgpack_unpack(pk.data, pk.len, &off, &zone, &o) ==
	    MSGPACK_UNPACK_SUCCESS && o.type == MSGPACK_OBJECT_ARRAY) {
		for (i = 0; i < o.via.array.size && !found; i++) {
			const msgpack_object *e = &o.via.array.ptr[i];
			if (e->type != MSGPACK_OBJECT_STR)
				continue;
			rec_buf_reset(&got);
			rec_norm(&got, e->via.str.ptr, e->via.str.size);
			found = got.len == want.len && (!got.len ||
			    !memcmp(got.data, want.data, got.len));
		}
	} else {
		rec_norm(&got, s, strlen(s));
		found = got.len == want.len && (!got.len ||
		    !memcmp(got.data, want.data, got.len));
	}
	sqlite3_result_int(ctx, found);
	msgpack_zone_destroy(&zone);
	rec_buf_free(&want);
	rec_buf_free(&got);
	rec_buf_free(&pk);
	rec_buf_free(&err);
}

void
rec_sql_functions(sqlite3 *db)
{
	sqlite3_create_function(db, "norm", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, fn_norm, NULL, NULL);
	sqlite3_create_function(db, "has", 2, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, fn_has, NULL, NULL);
}

/* Words people and models use for a column, and the role that column
 * plays in any catalog. */
static const struct { const char *word, *role, *column; } synonyms[] = {
	{ "artist", "creator", NULL }, { "singer", "creator", NULL },
	{ "band", "creator", NULL }, { "author", "creator", NULL },
	{ "director", "creator", NULL }, { "creator", "creator", NULL },
	{ "song", "title", NULL }, { "track", "title", NULL },
	{ "name", "title", NULL }, { "movie", "title", NULL },
	{ "film", "title", NULL }, { "title", "title", NULL },
	{ "album", "collection", NULL }, { "year", "date", NULL },
	{ "date", "date", NULL }, { "released", "date", NULL },
	{ "release_year", "date", NULL }, { "genre", "tags", NULL },
	{ "genres", "tags", NULL }, { "tag", "tags", NULL },
	{ "mood", "tags", NULL }, { "style", "tags", NULL },
	{ "popular", "popularity", NULL }, { "plays", "popularity", NULL },
	{ "bpm", NULL, "tempo" }, { "speed", NULL, "tempo" },
	{ "length", NULL, "duration_ms" }, { "duration", NULL, "duration_ms" },
	{ "happiness", NULL, "valence" }, { "positivity", NULL, "valence" },
	{ NULL, NULL, NULL }
};

static void
suggest_column(sqlite3 *db, const char *bad, struct rec_buf *msg)
{
	sqlite3_stmt *st;
	char *best = NULL, *role;
	int bd = 4, d, i;
	size_t n = strlen(bad);

	for (i = 0; synonyms[i].word; i++) {
		if (strcasecmp(synonyms[i].word, bad))
			continue;
		if (synonyms[i].column && rec_catalog_column(db,
		    synonyms[i].column, NULL, NULL, 0))
			best = xstrdup(synonyms[i].column);
		else if (synonyms[i].role &&
		    (role = rec_catalog_role(db, synonyms[i].role)))
			best = role;
		if (best)
			goto out;
	}
	if (sqlite3_prepare_v2(db, "SELECT name FROM main.columns UNION ALL "
	    "SELECT 'id'", -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		d = rec_edit_distance(bad, n, name, strlen(name), 3);
		if (strcasestr(name, bad) || strcasestr(bad, name))
			d = d < 2 ? d : 2;	/* "release" -> "release_date" */
		if (d < bd && (size_t)d < n) {
			bd = d;
			free(best);
			best = xstrdup(name);
		}
	}
	sqlite3_finalize(st);
out:
	if (best)
		rec_buf_printf(msg, " (did you mean '%s'?)", best);
	else
		rec_buf_adds(msg, " (see the columns table)");
	free(best);
}

void
rec_sql_explain(sqlite3 *db, struct rec_buf *msg)
{
	const char *err = sqlite3_errmsg(db);
	const char *p;

	if (rec_sql_refusal()) {
		rec_buf_adds(msg, rec_sql_refusal());
		return;
	}
	if ((p = strstr(err, "no such column: "))) {
		p += strlen("no such column: ");
		if (strchr(p, '.'))
			p = strchr(p, '.') + 1;
		rec_buf_printf(msg, "no such column '%s'", p);
		suggest_column(db, p, msg);
		return;
	}
	if ((p = strstr(err, "no such table: "))) {
		rec_buf_printf(msg, "no such table '%s' (items, users, "
		    "interactions and columns are the catalog's tables)",
		    p + strlen("no such table: "));
		return;
	}
	rec_buf_adds(msg, err);
}

struct cand {
	char *v;
	int d;
	long n;
};

static int
cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->d != y->d)
		return x->d - y->d;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->v, y->v);
}

size_t
rec_sql_closest_values(sqlite3 *db, const char *col, const char *value,
    size_t max, struct rec_buf *out)
{
	struct rec_buf want = {0}, got = {0}, sql = {0};
	struct cand *c = NULL;
	size_t nc = 0, cap = 0, i;
	sqlite3_stmt *st;
	int list = 0, d, lim;

	if (!rec_catalog_column(db, col, &list, NULL, 0))
		return 0;
	rec_sql_trusted(db, 1);
	rec_norm(&want, value, strlen(value));
	lim = want.len < 5 ? 1 : want.len < 9 ? 2 : 3;
	if (list)
		rec_buf_printf(&sql, "SELECT j.value, count(*) FROM main.items, "
		    "json_each(main.items.\"%s\") j GROUP BY j.value", col);
	else
		rec_buf_printf(&sql, "SELECT \"%s\", count(*) FROM main.items "
		    "WHERE \"%s\" IS NOT NULL GROUP BY 1", col, col);
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) != SQLITE_OK) {
		rec_sql_trusted(db, 0);
		rec_buf_free(&sql);
		rec_buf_free(&want);
		return 0;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		if (!v)
			continue;
		rec_buf_reset(&got);
		rec_norm(&got, v, strlen(v));
		if (!got.len)
			continue;
		d = rec_edit_distance(want.data, want.len, got.data, got.len,
		    lim);
		if (d > lim && want.len >= 3 && strstr(got.data, want.data))
			d = lim + 1;	/* contains it: after the close ones */
		else if (d > lim)
			continue;
		if (nc == cap) {
			cap = cap ? cap * 2 : 16;
			c = xrealloc(c, cap * sizeof *c);
		}
		c[nc].v = xstrdup(v);
		c[nc].d = d;
		c[nc++].n = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	rec_sql_trusted(db, 0);
	if (nc)
		qsort(c, nc, sizeof *c, cand_cmp);
	for (i = 0; i < nc; i++) {
		if (i < max) {
			rec_buf_adds(out, c[i].v);
			rec_buf_addc(out, 0);
		}
		free(c[i].v);
	}
	free(c);
	rec_buf_free(&sql);
	rec_buf_free(&want);
	rec_buf_free(&got);
	return nc < max ? nc : max;
}
