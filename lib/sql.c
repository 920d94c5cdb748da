/*
 * sql.c: what makes SQL from a person or a model safe and fixable.
 * TalkPlay-Tools' planner got a working SQL call 27% of the time: wrong
 * columns, bad syntax, values spelt differently from the catalog.  So
 * the guard refuses anything but reads, and the errors name the fix.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"

#define DEFAULT_TIMEOUT_MS 10000L
/* a value (string, blob, row) at most this long: 64 MiB is far above
 * any catalog field and is made in a fraction of a second */
#define DEFAULT_MAX_LENGTH ((size_t)64 << 20)
/* what one query may allocate beyond the pool rec-sql loaded */
#define DEFAULT_MAX_MEMORY ((size_t)1 << 30)
/* how far past the deadline a single step (one call of a function,
 * which SQLite cannot interrupt) may run before the process ends */
#define GRACE_MS 1000L

static char refusal[200];
static struct timespec deadline;
static int have_deadline;
static long timeout_ms = DEFAULT_TIMEOUT_MS;
static size_t max_length = DEFAULT_MAX_LENGTH;
static size_t max_memory = DEFAULT_MAX_MEMORY;
static int have_limits;

/* the watchdog: see rec_sql_readonly */
static sqlite3 *watched;
static pthread_t watchdog;
static int have_watchdog;
static atomic_int ending;
static void (*next_exit_hook)(int status);

long
rec_sql_limits(void)
{
	const char *e = getenv("REC_SQL_TIMEOUT");
	char *end;
	double sec;

	if (have_limits)
		return timeout_ms;
	if (e && *e) {
		sec = strtod(e, &end);
		/* written so that NaN fails too */
		if (*end || !(sec >= 0.001 && sec <= 1e6))
			rec_usage_die("REC_SQL_TIMEOUT: not a number of seconds "
			    "from 0.001 to 1000000: '%s'", e);
		timeout_ms = (long)(sec * 1000);
	}
	/* 1 KiB of SQLite's memory is not enough to prepare a statement:
	 * the floors keep a typo from looking like a broken catalog */
	max_length = rec_env_size("REC_SQL_MAX_LENGTH", DEFAULT_MAX_LENGTH,
	    (size_t)1 << 10, (size_t)1000000000);
	max_memory = rec_env_size("REC_SQL_MAX_MEMORY", DEFAULT_MAX_MEMORY,
	    (size_t)1 << 20, (size_t)1 << 40);
	have_limits = 1;
	return timeout_ms;
}

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

/* Pragmas that only report, with no form that sets anything: allowed as
 * PRAGMA statements and as the table-valued functions pragma_NAME(...),
 * whose rows SQLite reads by preparing "PRAGMA NAME" itself. */
static const char *const query_pragmas[] = {
	"collation_list", "compile_options", "database_list",
	"foreign_key_list", "function_list", "index_info", "index_list",
	"index_xinfo", "module_list", "pragma_list", "table_info",
	"table_list", "table_xinfo", NULL
};

static int
authorize(void *arg, int code, const char *a, const char *b, const char *c,
    const char *d)
{
	size_t i;

	(void)arg; (void)c; (void)d;
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
	case SQLITE_PRAGMA:
		for (i = 0; a && query_pragmas[i]; i++)
			if (!strcasecmp(a, query_pragmas[i]))
				return SQLITE_OK;
		snprintf(refusal, sizeof refusal, "refused: PRAGMA %s is not "
		    "allowed (queries are read-only; pragmas that only "
		    "report, such as table_info, are allowed)", a ? a : "");
		return SQLITE_DENY;
	case SQLITE_UPDATE:
		/* Connecting an eponymous virtual table (pragma_table_info,
		 * dbstat) has SQLite generate, and throw away, an UPDATE of
		 * the schema table.  No statement of the user's can change
		 * that table: SQLite refuses to before it asks, the catalog
		 * is open read-only, and rec-sql runs read-only statements
		 * only. */
		if (a && !strcmp(a, "sqlite_master"))
			return SQLITE_OK;
		break;
	}
	snprintf(refusal, sizeof refusal, "refused: %s is not allowed "
	    "(queries are read-only)", action_name(code));
	return SQLITE_DENY;
}

static int
past(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec &&
	    now.tv_nsec > t->tv_nsec);
}

static void
add_ms(struct timespec *t, long ms)
{
	t->tv_sec += ms / 1000;
	t->tv_nsec += (ms % 1000) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

static void
sleep_until(const struct timespec *t)
{
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) ==
	    EINTR)
		;
}

static int
progress(void *arg)
{
	(void)arg;
	if (!have_deadline || !past(&deadline))
		return 0;
	snprintf(refusal, sizeof refusal, "query stopped: it ran longer than "
	    "REC_SQL_TIMEOUT (%g s)", timeout_ms / 1000.0);
	return 1;
}

/* The first thread to exit wins; the main thread, coming second, waits
 * for the watchdog's exit rather than run the exit path twice. */
static void
exit_hook(int status)
{
	if (atomic_exchange(&ending, 1) && !(have_watchdog &&
	    pthread_equal(pthread_self(), watchdog)))
		for (;;)
			pause();
	if (next_exit_hook)
		next_exit_hook(status);
}

/* SQLite checks for an interrupt, as for the progress handler, between
 * steps of its program; one step that is a costly function call runs to
 * its end.  So at the deadline the watchdog interrupts, and if the main
 * thread is still inside SQLite a grace period later (it holds the
 * connection's mutex for as long as a call lasts), it ends the process
 * with the message rec_die gives, the REC_TRACE line included. */
static void *
watch(void *arg)
{
	sqlite3_mutex *mu = sqlite3_db_mutex(watched);
	struct timespec t = deadline;

	(void)arg;
	sleep_until(&t);
	sqlite3_interrupt(watched);
	add_ms(&t, GRACE_MS);
	for (;;) {
		sleep_until(&t);
		if (!mu || sqlite3_mutex_try(mu) != SQLITE_OK)
			break;
		sqlite3_mutex_leave(mu);	/* not in SQLite: poll */
		add_ms(&t, 100);
	}
	if (atomic_exchange(&ending, 1))
		return NULL;	/* the main thread is exiting */
	rec_die("query stopped: it ran longer than REC_SQL_TIMEOUT (%g s)",
	    timeout_ms / 1000.0);
}

void
rec_sql_readonly(sqlite3 *db, long timeout)
{
	sqlite3_int64 used;

	rec_sql_limits();
	refusal[0] = 0;
	sqlite3_set_authorizer(db, authorize, NULL);
	/* one value cannot be larger than max_length, which bounds what
	 * one call of randomblob(), printf() or replace() can cost */
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, max_length > INT32_MAX ?
	    INT32_MAX : (int)max_length);
	/* the heap SQLite may use: what the pool took, plus max_memory */
	used = sqlite3_memory_used();
	sqlite3_soft_heap_limit64(used + (sqlite3_int64)max_memory);
	sqlite3_hard_heap_limit64(used + (sqlite3_int64)max_memory);
	if (timeout > 0) {
		timeout_ms = timeout;
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		add_ms(&deadline, timeout);
		have_deadline = 1;
		sqlite3_progress_handler(db, 1000, progress, NULL);
		if (!have_watchdog) {
			watched = db;
			next_exit_hook = rec_exit_hook;
			rec_exit_hook = exit_hook;
			if (pthread_create(&watchdog, NULL, watch, NULL))
				rec_die("cannot start the query's watchdog");
			have_watchdog = 1;
		}
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

/* songkey(value, first): rec_song_key() of the value, the key under
 * which two releases of a song ("X - Remastered 2011", "X (Live)") or
 * one name of a list ("A feat. B" when first) are the same.  Unlike
 * norm(), NULL gives '': a NULL key would make "key NOT IN (...)" NULL
 * and drop the row. */
static void
fn_songkey(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct rec_buf b = {0};
	const char *s = (const char *)sqlite3_value_text(argv[0]);

	(void)argc;
	if (!s) {
		sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
		return;
	}
	rec_song_key(&b, s, sqlite3_value_int(argv[1]) != 0);
	sqlite3_result_text(ctx, b.data ? b.data : "", (int)b.len,
	    SQLITE_TRANSIENT);
	rec_buf_free(&b);
}

/* the folded values of argv[1..argc), NUL-separated in want; their
 * offsets (*nw of them, NULLs left out), which the caller frees */
static size_t *
fold_args(int argc, sqlite3_value **argv, struct rec_buf *want, size_t *nw)
{
	size_t *woff = xmalloc((size_t)argc * sizeof *woff), k;

	*nw = 0;
	for (k = 1; k < (size_t)argc; k++) {
		const char *v = (const char *)sqlite3_value_text(argv[k]);
		if (!v)
			continue;
		woff[(*nw)++] = want->len;
		rec_norm(want, v, strlen(v));
		rec_buf_addc(want, 0);
	}
	return woff;
}

/* s as a JSON list into *o (pk holds it); 0 when it is none */
static int
as_list(const char *s, struct rec_buf *pk, msgpack_zone *zone,
    msgpack_object *o)
{
	struct rec_buf err = {0};
	size_t off = 0;
	int ok = s[0] == '[' && !rec_json_to_msgpack(s, strlen(s), pk, NULL,
	    &err) && msgpack_unpack(pk->data, pk->len, &off, zone, o) ==
	    MSGPACK_UNPACK_SUCCESS && o->type == MSGPACK_OBJECT_ARRAY;

	rec_buf_free(&err);
	return ok;
}

/* element i of list o folded into got; 0 when it is no string */
static int
fold_element(const msgpack_object *o, uint32_t i, struct rec_buf *got)
{
	const msgpack_object *e = &o->via.array.ptr[i];

	if (e->type != MSGPACK_OBJECT_STR)
		return 0;
	rec_buf_reset(got);
	rec_norm(got, e->via.str.ptr, e->via.str.size);
	return 1;
}

/* has(list, value, ...): folded membership of any of the values in a
 * JSON array of strings (the position of the first held, from 1), or
 * folded equality with a plain string (1); 0 for none.  The list is
 * parsed once however many values are asked about */
static void
fn_has(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct rec_buf want = {0}, got = {0}, pk = {0};
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	size_t *woff, nw = 0;
	msgpack_zone zone;
	msgpack_object o;
	size_t k;
	uint32_t i;
	int found = 0;

	if (argc < 2) {
		sqlite3_result_error(ctx, "has(list, value, ...) needs a value",
		    -1);
		return;
	}
	if (!s) {
		sqlite3_result_int(ctx, 0);
		return;
	}
	woff = fold_args(argc, argv, &want, &nw);
	/* most rows hold none of the values anywhere: the folded text,
	 * where every element is folded as the values are, tells at once */
	rec_norm(&got, s, strlen(s));
	for (k = 0; k < nw && !found; k++)
		found = strstr(got.data ? got.data : "", want.data + woff[k]) !=
		    NULL;
	if (!found)
		nw = 0;
	found = 0;
	msgpack_zone_init(&zone, 1024);
	if (!nw)
		;
	else if (as_list(s, &pk, &zone, &o)) {
		for (i = 0; i < o.via.array.size && !found; i++) {
			if (!fold_element(&o, i, &got))
				continue;
			for (k = 0; k < nw && !found; k++)
				if (!strcmp(got.data ? got.data : "",
				    want.data + woff[k]))
					found = (int)i + 1;
		}
	} else {
		rec_buf_reset(&got);
		rec_norm(&got, s, strlen(s));
		for (k = 0; k < nw && !found; k++)
			found = !strcmp(got.data ? got.data : "", want.data +
			    woff[k]);
	}
	sqlite3_result_int(ctx, found);
	msgpack_zone_destroy(&zone);
	free(woff);
	rec_buf_free(&want);
	rec_buf_free(&got);
	rec_buf_free(&pk);
}

/* folded text t holds folded phrase ph at word boundaries */
static int
words_in(const char *t, const char *ph)
{
	size_t n = strlen(ph);
	const char *p;

	for (p = t; (p = strstr(p, ph)) != NULL; p++)
		if ((p == t || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

int
rec_has_phrase(const char *s, const char *phrase)
{
	struct rec_buf got = {0}, pk = {0};
	msgpack_zone zone;
	msgpack_object o;
	uint32_t i;
	int found;

	if (!s || !*phrase)
		return 0;
	rec_norm(&got, s, strlen(s));
	found = words_in(got.data ? got.data : "", phrase);
	msgpack_zone_init(&zone, 1024);
	/* in a list, the words of one element: "classic rock" and "soul"
	 * do not make "rock soul" */
	if (found && as_list(s, &pk, &zone, &o))
		for (found = 0, i = 0; i < o.via.array.size && !found; i++)
			found = fold_element(&o, i, &got) && words_in(got.data ?
			    got.data : "", phrase);
	msgpack_zone_destroy(&zone);
	rec_buf_free(&got);
	rec_buf_free(&pk);
	return found;
}

/* the folded name without a leading "the " */
static const char *
bare(const char *n)
{
	return strncmp(n, "the ", 4) ? n : n + 4;
}

/* whether the folded name got is want, "the" aside, or want's last
 * word(s) from five letters on ("Oakenfold" for "Paul Oakenfold": a
 * catalog writes a name more than one way) */
static int
same_name(const char *got, const char *want)
{
	size_t gl, wl;

	got = bare(got);
	want = bare(want);
	if (!strcmp(got, want))
		return 1;
	gl = strlen(got);
	wl = strlen(want);
	return gl >= 5 && wl > gl && want[wl - gl - 1] == ' ' &&
	    !strcmp(want + wl - gl, got);
}

/* whether s is ASCII without an apostrophe or a backtick: what folding
 * leaves as it is but for case and punctuation between words */
static int
plain_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80 || *s == '\'' || *s == '`')
			return 0;
	return 1;
}

/* whether hay holds the last word of any of the nw folded names in
 * want (ASCII case aside with icase) */
static int
last_word_in(const char *hay, const struct rec_buf *want, const size_t *woff,
    size_t nw, int icase)
{
	size_t k;

	for (k = 0; k < nw; k++) {
		const char *n = want->data + woff[k], *last = strrchr(n, ' ');
		if ((icase ? strcasestr(hay, last ? last + 1 : n) :
		    strstr(hay, last ? last + 1 : n)) != NULL)
			return 1;
	}
	return 0;
}

/* names(value, name, ...): 0 unless the value is one of the names, or
 * names several ("A, B", "A feat. B") of which one is (folded, a
 * leading "the" aside, or the name's last word alone); else the
 * position of the name (1 for the first) when the value is that name
 * alone, and the count of names plus the position when it is one of
 * several: an order that puts a creator's own items before the duets,
 * and can take the names in turn */
static void
fn_names(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct rec_buf want = {0}, got = {0};
	struct rec_strs parts = {0};
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	size_t *woff, nw = 0, k, i;
	int found = 0, at = 0;

	if (argc < 2) {
		sqlite3_result_error(ctx, "names(value, name, ...) needs a "
		    "name", -1);
		return;
	}
	if (!s) {
		sqlite3_result_int(ctx, 0);
		return;
	}
	woff = fold_args(argc, argv, &want, &nw);
	/* most rows hold none of the names' last words anywhere: in plain
	 * ASCII without apostrophes (which folding drops, joining the
	 * word) that shows in the value as it is, without folding it */
	if (plain_ascii(s))
		found = last_word_in(s, &want, woff, nw, 1);
	else {
		rec_norm(&got, s, strlen(s));
		found = last_word_in(got.data ? got.data : "", &want, woff, nw,
		    0);
	}
	if (found && !got.len)
		rec_norm(&got, s, strlen(s));
	if (found) {
		for (k = 0; k < nw && !at; k++)
			if (same_name(got.data ? got.data : "",
			    want.data + woff[k]))
				at = (int)k + 1;
		if (!at)
			rec_name_parts(s, 1, &parts);
		for (i = 0; i < parts.n && !at; i++) {
			rec_buf_reset(&got);
			rec_norm(&got, parts.v[i], strlen(parts.v[i]));
			for (k = 0; k < nw && !at; k++)
				if (same_name(got.data ? got.data : "",
				    want.data + woff[k]))
					at = (int)(nw + k) + 1;
		}
	}
	sqlite3_result_int(ctx, at);
	rec_strs_free(&parts);
	free(woff);
	rec_buf_free(&want);
	rec_buf_free(&got);
}

/* guests(title): the names a title credits as guests, "feat. B & C"
 * of "Song (feat. B & C)" or "Song - with B", as a list names() reads
 * ("B & C"); NULL when it credits none */
static void
fn_guests(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const cue[] = { "feat.", "feat ", "ft.",
	    "featuring ", "(with ", "[with ", "- with ", NULL };
	const char *s = (const char *)sqlite3_value_text(argv[0]), *at = NULL;
	size_t k, n;

	(void)argc;
	for (k = 0; s && cue[k] && !at; k++)
		if ((at = strcasestr(s, cue[k])))
			at += strlen(cue[k]);
	if (!at) {
		sqlite3_result_null(ctx);
		return;
	}
	while (*at == ' ' || *at == '(' || *at == '[')
		at++;
	n = strcspn(at, ")]");
	while (n && at[n - 1] == ' ')
		n--;
	sqlite3_result_text(ctx, at, (int)n, SQLITE_TRANSIENT);
}

void
rec_sql_functions(sqlite3 *db)
{
	sqlite3_create_function(db, "norm", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, fn_norm, NULL, NULL);
	sqlite3_create_function(db, "songkey", 2, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, fn_songkey, NULL, NULL);
	sqlite3_create_function(db, "has", -1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, fn_has, NULL, NULL);
	sqlite3_create_function(db, "names", -1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, fn_names, NULL, NULL);
	sqlite3_create_function(db, "guests", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, fn_guests, NULL, NULL);
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
	switch (sqlite3_errcode(db)) {
	case SQLITE_INTERRUPT:
		rec_buf_printf(msg, "query stopped: it ran longer than "
		    "REC_SQL_TIMEOUT (%g s)", timeout_ms / 1000.0);
		return;
	case SQLITE_TOOBIG:
		rec_buf_printf(msg, "query stopped: a value is longer "
		    "than REC_SQL_MAX_LENGTH (%zu bytes)", max_length);
		return;
	case SQLITE_NOMEM:
		rec_buf_printf(msg, "query stopped: it needed more memory "
		    "than REC_SQL_MAX_MEMORY (%zu bytes)", max_memory);
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
