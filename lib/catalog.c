/*
 * catalog.c: opening a rec catalog, the one SQLite file every query
 * tool reads (see rec-import(1) for its tables).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"

const char *
rec_catalog_path(const char *path)
{
	if (path && *path)
		return path;
	path = getenv("REC_DB");
	if (path && *path)
		return path;
	rec_usage_die("no catalog: give -d CATALOG or set REC_DB");
}

void
rec_sqlite_die(sqlite3 *db, const char *what)
{
	rec_die("%s: %s", what, sqlite3_errmsg(db));
}

/* flags: SQLite's for the connection's mutex */
static sqlite3 *
open_catalog(const char *path, int flags)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	path = rec_catalog_path(path);
	if (access(path, R_OK) < 0)
		rec_die("cannot open catalog '%s': no such file or not "
		    "readable", path);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | flags, NULL) !=
	    SQLITE_OK)
		rec_die("cannot open catalog '%s': %s", path,
		    db ? sqlite3_errmsg(db) : "out of memory");
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE "
	    "key = 'format'", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW ||
	    strcmp((const char *)sqlite3_column_text(st, 0), "rec-catalog"))
		rec_die("'%s' is not a rec catalog (build one with "
		    "rec-import)", path);
	sqlite3_finalize(st);
	/* read through the page cache, not copies of it */
	sqlite3_exec(db, "PRAGMA mmap_size = 4294967296", NULL, NULL, NULL);
	rec_trace_opens++;
	return db;
}

/* one thread uses the connection: SQLite takes no lock at each call
 * (a twentieth of rec-cf's time for all users went on them) */
sqlite3 *
rec_catalog_open(const char *path)
{
	return open_catalog(path, SQLITE_OPEN_NOMUTEX);
}

sqlite3 *
rec_catalog_open_guarded(const char *path)
{
	return open_catalog(path, SQLITE_OPEN_FULLMUTEX);
}

/* --- the catalog handle: one open database per process --- */

struct rec_catalog *
rec_catalog_load(const char *path)
{
	struct rec_catalog *c = xcalloc(1, sizeof *c);

	c->path = xstrdup(rec_catalog_path(path));
	c->db = rec_catalog_open(c->path);
	c->title = rec_catalog_role(c->db, "title");
	c->creator = rec_catalog_role(c->db, "creator");
	c->collection = rec_catalog_role(c->db, "collection");
	c->date = rec_catalog_role(c->db, "date");
	c->popularity = rec_catalog_role(c->db, "popularity");
	return c;
}

void
rec_catalog_close(struct rec_catalog *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->sql.n; i++)
		sqlite3_finalize(c->stmt[i]);
	free(c->stmt);
	rec_hash_free(&c->sql);
	sqlite3_close(c->db);
	free(c->path);
	free(c->title);
	free(c->creator);
	free(c->collection);
	free(c->date);
	free(c->popularity);
	free(c);
}

sqlite3_stmt *
rec_catalog_prepare(struct rec_catalog *c, const char *sql,
    const char *purpose)
{
	int added;
	size_t k = rec_hash_put(&c->sql, sql, strlen(sql), &added);

	if (added) {
		c->stmt = xrealloc(c->stmt, c->sql.cap * sizeof *c->stmt);
		if (sqlite3_prepare_v2(c->db, sql, -1, &c->stmt[k], NULL) !=
		    SQLITE_OK)
			rec_die("%s: %s", purpose, sqlite3_errmsg(c->db));
	}
	sqlite3_reset(c->stmt[k]);
	sqlite3_clear_bindings(c->stmt[k]);
	return c->stmt[k];
}

int
rec_catalog_step(struct rec_catalog *c, sqlite3_stmt *st,
    const char *purpose)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	rec_die("%s: %s", purpose, sqlite3_errmsg(c->db));
}

char *
rec_catalog_field(struct rec_catalog *c, const char *col, const char *id,
    size_t idlen)
{
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	char *v = NULL;

	if (!col)
		return NULL;
	rec_buf_printf(&sql, "SELECT \"%s\" FROM items WHERE id = ?", col);
	st = rec_catalog_prepare(c, sql.data, "reading an item");
	sqlite3_bind_text(st, 1, id, (int)idlen, SQLITE_STATIC);
	if (rec_catalog_step(c, st, "reading an item") &&
	    sqlite3_column_text(st, 0))
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	rec_buf_free(&sql);
	return v;
}

/* The roles a column can play; tools find "the title" or "the
 * creator" through them, so one code path serves music, films, games. */
const char *const rec_roles[] = {
	"title", "creator", "collection", "date", "popularity", "tags",
	"text", "number", "category", "other", NULL
};

void
rec_sql_exec(sqlite3 *db, const char *sql, const char *what)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		char msg[400];
		snprintf(msg, sizeof msg, "%s", err ? err : "unknown error");
		sqlite3_free(err);
		rec_die("%s: %s", what, msg);
	}
}

void
rec_catalog_schema(sqlite3 *db)
{
	rec_sql_exec(db,
	    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
	    "INSERT INTO meta VALUES('format', 'rec-catalog'),"
	    " ('version', '1'), ('created', strftime('%Y-%m-%dT%H:%M:%SZ'));"
	    "CREATE TABLE columns(name TEXT PRIMARY KEY, type TEXT NOT NULL,"
	    " role TEXT NOT NULL, list INTEGER NOT NULL DEFAULT 0,"
	    " position INTEGER NOT NULL, source TEXT);"
	    "CREATE TABLE users(id TEXT PRIMARY KEY NOT NULL);"
	    "CREATE TABLE interactions(user TEXT NOT NULL, item TEXT NOT NULL,"
	    " weight REAL NOT NULL DEFAULT 1, time INTEGER);"
	    "CREATE TABLE spaces(name TEXT PRIMARY KEY, dim INTEGER NOT NULL,"
	    " source TEXT);"
	    "CREATE TABLE vectors(space TEXT NOT NULL, id TEXT NOT NULL,"
	    " vec BLOB NOT NULL, PRIMARY KEY(space, id)) WITHOUT ROWID;",
	    "creating the catalog");
}

char *
rec_catalog_role(sqlite3 *db, const char *role)
{
	sqlite3_stmt *st;
	char *name = NULL;

	if (sqlite3_prepare_v2(db, "SELECT name FROM columns WHERE role = ? "
	    "ORDER BY position LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "columns");
	sqlite3_bind_text(st, 1, role, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		name = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return name;
}

int
rec_catalog_column(sqlite3 *db, const char *col, int *list, char *type,
    size_t typesz)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT list, type FROM main.columns "
	    "WHERE name = ? COLLATE NOCASE", -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "columns");
	sqlite3_bind_text(st, 1, col, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		found = 1;
		if (list)
			*list = sqlite3_column_int(st, 0);
		if (type)
			snprintf(type, typesz, "%s",
			    (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return found;
}

int
rec_catalog_space(sqlite3 *db, const char *space)
{
	sqlite3_stmt *st;
	int dim = 0;

	if (sqlite3_prepare_v2(db, "SELECT dim FROM main.spaces WHERE name = ?",
	    -1, &st, NULL) != SQLITE_OK)
		return 0;	/* a catalog without vectors */
	sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		dim = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return dim;
}

int
rec_catalog_vector(sqlite3 *db, const char *space, const char *id,
    size_t idlen, float *out, int dim)
{
	static sqlite3_stmt *st;
	static sqlite3 *for_db;
	int ok = 0;

	if (for_db != db) {
		if (st)
			sqlite3_finalize(st);
		st = NULL;
		for_db = db;
		if (sqlite3_prepare_v2(db, "SELECT vec FROM main.vectors WHERE "
		    "space = ? AND id = ?", -1, &st, NULL) != SQLITE_OK)
			return 0;
	}
	if (!st)
		return 0;
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, (int)idlen, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_bytes(st, 0) == dim * 4) {
		memcpy(out, sqlite3_column_blob(st, 0), (size_t)dim * 4);
		ok = 1;
	}
	sqlite3_reset(st);
	return ok;
}

/* --- changing a catalog: a temporary copy renamed into place --- */

/* the copy: fs.c names it, removes it on failure, at exit or on a
 * signal, and renames it into place */
static struct rec_atomic edit;
/* the writers' lock, DIR/.NAME.lock: held from rec_catalog_edit to
 * rec_catalog_save, or to the end of the process (kill -9 included);
 * its holder removes the file when it is done */
static int lockfd = -1;
static struct rec_buf lockpath;
static pid_t lockpid;

#define DEFAULT_LOCK_TIMEOUT 600.0

static double
lock_timeout(void)
{
	const char *e = getenv("REC_LOCK_TIMEOUT");
	char *end;
	double sec;

	if (!e || !*e)
		return DEFAULT_LOCK_TIMEOUT;
	sec = strtod(e, &end);
	/* written so that NaN fails too */
	if (*end || !(sec >= 0 && sec <= 1e6))
		rec_usage_die("REC_LOCK_TIMEOUT: not a number of seconds from "
		    "0 to 1000000: '%s'", e);
	return sec;
}

/* removed only by its holder, so that the one who locks it next finds
 * it gone and takes the new one (see lock_catalog) */
static void
unlock_catalog(void)
{
	/* a forked child that exits leaves its parent's lock alone */
	if (lockfd < 0 || lockpid != getpid())
		return;
	unlink(lockpath.data);
	close(lockfd);
	lockfd = -1;
}

/* the holder's PID, if it is a live process; else "" */
static void
holder(char *pid, size_t n)
{
	ssize_t k = pread(lockfd, pid, n - 1, 0);
	long v;

	pid[k > 0 ? k : 0] = 0;
	pid[strcspn(pid, "\n")] = 0;
	v = atol(pid);
	if (v <= 0 || (kill((pid_t)v, 0) < 0 && errno == ESRCH))
		pid[0] = 0;
}

/* Waits for the other writers of the catalog at path, at most
 * REC_LOCK_TIMEOUT seconds: two edits at once would each copy the
 * catalog, and the second rename would lose the first edit. */
static void
lock_catalog(const char *path)
{
	static int registered;
	const char *slash = strrchr(path, '/');
	double wait = lock_timeout(), t0 = rec_now();
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	struct stat a, b;
	char pid[32];
	int n;

	rec_buf_reset(&lockpath);
	rec_buf_printf(&lockpath, "%.*s.%s.lock", slash ? (int)(slash - path +
	    1) : 0, path, slash ? slash + 1 : path);
	for (;;) {
		if ((lockfd = open(lockpath.data, O_RDWR | O_CREAT | O_CLOEXEC,
		    0666)) < 0)
			rec_die("cannot open lock '%s': %m", lockpath.data);
		while (flock(lockfd, LOCK_EX | LOCK_NB) < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EWOULDBLOCK)
				rec_die("cannot lock '%s': %m", lockpath.data);
			if (rec_now() - t0 >= wait) {
				holder(pid, sizeof pid);
				rec_die("catalog '%s' is being changed by another "
				    "process%s%s%s; gave up after %g seconds "
				    "(REC_LOCK_TIMEOUT)", path, *pid ? " (pid " :
				    "", pid, *pid ? ")" : "", wait);
			}
			nanosleep(&nap, NULL);
		}
		/* the file we locked is still the lock, not one its holder
		 * removed while we waited */
		if (fstat(lockfd, &a) == 0 && stat(lockpath.data, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			break;
		close(lockfd);
	}
	lockpid = getpid();
	if (!registered) {
		atexit(unlock_catalog);
		registered = 1;
	}
	/* who holds it, for the message of one who gives up */
	n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(lockfd, 0) < 0 || pwrite(lockfd, pid, (size_t)n, 0) !=
	    n) {
		/* only that message needs it */
	}
}

static void
copy_file(const char *from, struct rec_atomic *to)
{
	char buf[1 << 16];
	int in;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		rec_die("cannot open catalog '%s': %m", from);
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (rec_atomic_write(to, buf, (size_t)n) < 0)
			rec_die("cannot write '%s': %m", to->tmp);
	if (n < 0)
		rec_die("cannot read '%s': %m", from);
	close(in);
}

sqlite3 *
rec_catalog_edit(const char *path, int fresh, int force)
{
	sqlite3 *db;

	rec_atomic_catch_signals();
	lock_catalog(path);
	/* the copies that edits killed with -9 left: no one else writes
	 * now, so a temporary file of a process gone is stale */
	rec_atomic_sweep(path);
	if (fresh) {
		if (!force && access(path, F_OK) == 0)
			rec_die("catalog '%s' exists (use --force to replace "
			    "it)", path);
	} else
		sqlite3_close(rec_catalog_open(path));	/* is a catalog */
	if (rec_atomic_open(&edit, path, 0644) < 0)
		rec_die("cannot create '%s': %m", edit.tmp);
	if (!fresh)
		copy_file(path, &edit);
	/* SQLite takes an empty file for a new database */
	if (sqlite3_open_v2(edit.tmp, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		rec_die("cannot create '%s': %s", edit.tmp, sqlite3_errmsg(db));
	/* a crash loses only the temporary file: no journal needed */
	rec_sql_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
	    "BEGIN", "starting");
	if (fresh)
		rec_catalog_schema(db);
	return db;
}

void
rec_catalog_save(sqlite3 *db)
{
	rec_sql_exec(db, "COMMIT; ANALYZE", "finishing");
	if (sqlite3_close(db) != SQLITE_OK)
		rec_die("cannot close '%s'", edit.tmp);
	if (rec_atomic_commit(&edit) < 0)
		rec_die("cannot rename '%s' to '%s': %m", edit.tmp, edit.path);
	unlock_catalog();
}

size_t
rec_text_columns(sqlite3 *db, char ***names)
{
	static const char *const roles[] = { "title", "creator",
		"collection", "tags", "text", "category", NULL };
	sqlite3_stmt *st;
	size_t n = 0, i;

	*names = xcalloc(1, sizeof **names);
	if (sqlite3_prepare_v2(db, "SELECT name, role FROM columns ORDER BY "
	    "position", -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "columns");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *role = (const char *)sqlite3_column_text(st, 1);
		for (i = 0; roles[i] && role && strcmp(roles[i], role); i++)
			;
		if (!roles[i] || !role)
			continue;
		*names = xrealloc(*names, (n + 2) * sizeof **names);
		(*names)[n++] = xstrdup((const char *)
		    sqlite3_column_text(st, 0));
		(*names)[n] = NULL;
	}
	sqlite3_finalize(st);
	return n;
}

size_t
rec_catalog_nitems(sqlite3 *db)
{
	sqlite3_stmt *st;
	size_t n;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM items", -1, &st,
	    NULL) || sqlite3_step(st) != SQLITE_ROW)
		rec_sqlite_die(db, "items");
	n = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* ---- popularity shares ---- */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the share of n sorted values v below x, over the catalog's count */
static double
share_below(const double *v, size_t n, double x, double nitems)
{
	size_t lo = 0, hi = n;	/* the first >= x */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (double)(sqlite3_int64)lo / nitems;
}

int
rec_popshares_open(struct rec_popshares *p, sqlite3 *db)
{
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	double *v = NULL, *val = NULL;
	size_t n = 0, nv = 0, cap = 0, i, *at = NULL;
	int exact = 1;

	memset(p, 0, sizeof *p);
	p->pct.vsize = sizeof(double);
	if (!(p->col = rec_catalog_role(db, "popularity")))
		return -1;
	p->nitems = (double)rec_catalog_nitems(db);
	rec_buf_printf(&sql, "SELECT id, \"%s\" FROM items", p->col);
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL))
		rec_sqlite_die(db, "popularity");
	while (exact && sqlite3_step(st) == SQLITE_ROW) {
		int t = sqlite3_column_type(st, 1);
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			v = xrealloc(v, cap * sizeof *v);
			val = xrealloc(val, cap * sizeof *val);
			at = xrealloc(at, cap * sizeof *at);
		}
		/* an id once (ids are the table's key) */
		at[n] = sqlite3_column_type(st, 0) == SQLITE_NULL ?
		    (size_t)-1 : rec_hash_put(&p->pct, (const char *)
		    sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), NULL);
		if (t == SQLITE_NULL)
			val[n] = NAN;	/* unknown */
		else if (t == SQLITE_FLOAT || (t == SQLITE_INTEGER &&
		    sqlite3_column_int64(st, 1) < (1LL << 53) &&
		    sqlite3_column_int64(st, 1) > -(1LL << 53))) {
			/* as the text of the field, read back by atof */
			val[n] = atof((const char *)
			    sqlite3_column_text(st, 1));
			v[nv++] = sqlite3_column_double(st, 1);
		} else
			exact = 0;
		n++;
	}
	sqlite3_finalize(st);
	if (exact) {
		qsort(v, nv, sizeof *v, cmp_double);
		for (i = 0; i < n; i++)
			if (at[i] != (size_t)-1)
				((double *)p->pct.val)[at[i]] = isnan(val[i]) ||
				    p->nitems <= 0 ? 0.5 : share_below(v, nv,
				    val[i], p->nitems);
		p->all = 1;
	} else {
		/* not plain numbers: SQLite's order, item by item */
		rec_hash_free(&p->pct);
		p->pct.vsize = sizeof(double);
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "SELECT \"%s\" FROM items WHERE id = ?",
		    p->col);
		if (sqlite3_prepare_v2(db, sql.data, -1, &p->val, NULL))
			rec_sqlite_die(db, "popularity");
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "SELECT count(*) FROM items WHERE \"%s\" "
		    "< ?", p->col);
		if (sqlite3_prepare_v2(db, sql.data, -1, &p->cnt, NULL))
			rec_sqlite_die(db, "popularity");
	}
	free(v);
	free(val);
	free(at);
	rec_buf_free(&sql);
	return 0;
}

double
rec_popshare(struct rec_popshares *p, const char *id, size_t len)
{
	size_t k = rec_hash_get(&p->pct, id, len);
	double pct = 0.5;	/* unknown: middling */
	int added;

	if (k != (size_t)-1)
		return ((double *)p->pct.val)[k];
	if (p->all || !p->val)
		return pct;
	sqlite3_bind_text(p->val, 1, id, (int)len, SQLITE_STATIC);
	if (sqlite3_step(p->val) == SQLITE_ROW &&
	    sqlite3_column_type(p->val, 0) != SQLITE_NULL) {
		sqlite3_bind_double(p->cnt, 1, atof((const char *)
		    sqlite3_column_text(p->val, 0)));
		if (sqlite3_step(p->cnt) == SQLITE_ROW && p->nitems > 0)
			pct = (double)sqlite3_column_int64(p->cnt, 0) /
			    p->nitems;
		sqlite3_reset(p->cnt);
	}
	sqlite3_reset(p->val);
	k = rec_hash_put(&p->pct, id, len, &added);
	((double *)p->pct.val)[k] = pct;
	return pct;
}

void
rec_popshares_close(struct rec_popshares *p)
{
	sqlite3_finalize(p->val);
	sqlite3_finalize(p->cnt);
	rec_hash_free(&p->pct);
	free(p->col);
	memset(p, 0, sizeof *p);
}
