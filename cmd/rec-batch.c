/*
 * rec-batch: runs a pipeline for every user and keeps the lists, in a
 * results database that only ever shows complete runs, or as JSONL.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-batch [-qr] [-d CATALOG] [-U USERS] [-o RESULTS] "
	    "[-j N] [-k N]\n"
	    "                 [-I STR] [-f N] [-R RUN] [--] COMMAND [ARG...]\n"
	    "       rec-batch [-qr] [-d CATALOG] [-U USERS] [-o RESULTS] "
	    "[-k N] [-R RUN]\n"
	    "                 -g KEY [[--] COMMAND [ARG...]]\n"
	    "       rec-batch [-qr] [-d CATALOG] [-U USERS] [-o RESULTS] "
	    "[-k N] [-R RUN]\n"
	    "       rec-batch [-Eq] -o RESULTS [-U USERS] [-R RUN] -m FILE...\n"
	    "       rec-batch [-d CATALOG] -l\n"
	    "  -d, --db CATALOG     every user with interactions in it "
	    "(default $REC_DB)\n"
	    "  -E, --allow-empty    --merge: publish a run of no rows\n"
	    "  -f, --max-failures N publish a run despite up to N failed "
	    "users (default 0)\n"
	    "  -g, --group KEY      COMMAND runs once, the users on its "
	    "standard input, and\n"
	    "                       writes a list per user grouped by KEY "
	    "(no COMMAND: read\n"
	    "                       that stream on standard input)\n"
	    "  -I, --replace STR    put the user where STR is in the "
	    "arguments (default:\n"
	    "                       the user is the last argument)\n"
	    "  -j, --jobs N         run N users at once (default 1)\n"
	    "  -k, --limit N        keep the first N items of each list "
	    "(default all)\n"
	    "  -l, --list-users     print the catalog's users, one per line\n"
	    "  -m, --merge          publish the JSONL rows in FILEs (from "
	    "rec-batch without -o)\n"
	    "  -o, --output RESULTS the results database (default: JSONL "
	    "rows on stdout)\n"
	    "  -q, --quiet          no progress and no summary\n"
	    "  -R, --run RUN        the run's name (default: its start time)\n"
	    "  -r, --resume         continue an interrupted run\n"
	    "  -U, --users FILE     the users in FILE, one per line (- for "
	    "stdin)\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

static const char *runname, *results, *users_file, *dbpath, *group;
static char *partial;
static size_t limit = (size_t)-1, maxfail;
static int quiet, progress;
static sqlite3 *stage;		/* the run being made (-o) */
static size_t nusers, ndone, nfailed, nitems;
static double t0;
static volatile sig_atomic_t stopped;	/* by a signal: end the run */

static void
utc(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void
on_signal(int sig)
{
	(void)sig;
	stopped = 1;
}

static void
show_progress(int final)
{
	double dt = rec_now() - t0;

	if (!progress)
		return;
	fprintf(stderr, "\r%s: %zu", rec_progname, ndone + nfailed);
	if (nusers)
		fprintf(stderr, " of %zu", nusers);
	fprintf(stderr, " users, %zu failed, %.1f users/s%s", nfailed,
	    dt > 0 ? (double)(ndone + nfailed) / dt : 0.0, final ? "\n" : "");
}

/* ---- users ---- */

/* calls fn for each user of the catalog or of users_file; users are
 * streamed, never all held */
static void
each_user(void (*fn)(const char *, size_t, void *), void *ctx)
{
	if (users_file) {
		rec_read_ids(users_file, fn, ctx);
	} else {
		sqlite3 *db = rec_catalog_open(dbpath);
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, "SELECT DISTINCT user FROM "
		    "interactions ORDER BY user", -1, &st, NULL))
			rec_sqlite_die(db, "interactions");
		while (sqlite3_step(st) == SQLITE_ROW)
			fn((const char *)sqlite3_column_text(st, 0),
			    (size_t)sqlite3_column_bytes(st, 0), ctx);
		sqlite3_finalize(st);
		sqlite3_close(db);
	}
}

static void
print_user(const char *u, size_t n, void *ctx)
{
	(void)ctx;
	fwrite(u, 1, n, stdout);
	putchar('\n');
}

/* ---- the rows of one user ---- */

struct row_ctx {
	sqlite3_stmt *ins;
	const char *user, *time;
	struct rec_buf line;
};

static void
emit(struct row_ctx *c, size_t rank, const char *id, size_t idlen,
    const struct rec_record *rec)
{
	if (stage) {
		sqlite3_reset(c->ins);
		sqlite3_bind_text(c->ins, 1, c->user, -1, SQLITE_STATIC);
		sqlite3_bind_int64(c->ins, 2, (sqlite3_int64)rank);
		sqlite3_bind_text(c->ins, 3, id, (int)idlen, SQLITE_STATIC);
		if (rec->has_score)
			sqlite3_bind_double(c->ins, 4, rec->score);
		else
			sqlite3_bind_null(c->ins, 4);
		sqlite3_bind_text(c->ins, 5, c->time, -1, SQLITE_STATIC);
		if (sqlite3_step(c->ins) != SQLITE_DONE)
			rec_sqlite_die(stage, partial);
		return;
	}
	rec_buf_reset(&c->line);
	rec_buf_adds(&c->line, "{\"id\":");
	rec_json_string(&c->line, id, idlen);
	rec_buf_adds(&c->line, ",\"run\":");
	rec_json_string(&c->line, runname, strlen(runname));
	rec_buf_adds(&c->line, ",\"user\":");
	rec_json_string(&c->line, c->user, strlen(c->user));
	rec_buf_printf(&c->line, ",\"rank\":%zu", rank);
	if (rec->has_score) {	/* none: no key, as in a candidate */
		char d[40];
		rec_json_double(d, sizeof d, rec->score);
		rec_buf_adds(&c->line, ",\"score\":");
		rec_buf_adds(&c->line, d);
	}
	rec_buf_adds(&c->line, ",\"time\":");
	rec_json_string(&c->line, c->time, strlen(c->time));
	rec_buf_adds(&c->line, "}\n");
	rec_write_all(1, c->line.data, c->line.len);
}

/* the records a job wrote, as rows; 0 and a message in err if they
 * are not candidate records */
static int
job_rows(struct row_ctx *c, struct rec_job *job, struct rec_buf *err)
{
	struct rec_reader r;
	struct rec_record rec;
	struct rec_buf name = {0};
	size_t rank = 0;
	int st, ok = 1;

	rec_buf_printf(&name, "output for '%s'", job->name);
	/* all of it is checked before any of it is kept */
	rec_reader_init_mem(&r, job->out.data ? job->out.data : "",
	    job->out.len, name.data);
	while (rank < limit && (st = rec_read(&r, &rec)) > 0)
		rank++;
	if (rank < limit && st < 0) {
		rec_buf_adds(err, r.err.data);
		ok = 0;
	}
	rec_reader_free(&r);
	if (ok) {
		rec_reader_init_mem(&r, job->out.data ? job->out.data : "",
		    job->out.len, name.data);
		for (rank = 0; rank < limit && rec_read(&r, &rec) > 0;)
			emit(c, ++rank, rec.id, rec.idlen, &rec);
		rec_reader_free(&r);
		nitems += rank;
	}
	rec_buf_free(&name);
	return ok;
}

/* ---- the run ---- */

static int
lock_results(void)
{
	struct rec_buf p = {0};
	int fd;

	rec_buf_printf(&p, "%s.lock", results);
	fd = open(p.data, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		rec_die("cannot open '%s': %m", p.data);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			rec_die("another run holds '%s'", p.data);
		rec_die("cannot lock '%s': %m", p.data);
	}
	rec_buf_free(&p);
	return fd;	/* held until exit */
}

static sqlite3 *
open_db(const char *path)
{
	sqlite3 *db;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL))
		rec_sqlite_die(db, path);
	sqlite3_busy_timeout(db, 10000);
	return db;
}

static char *
meta(const char *key)
{
	sqlite3_stmt *st;
	char *v = NULL;

	if (sqlite3_prepare_v2(stage, "SELECT value FROM meta WHERE key = ?",
	    -1, &st, NULL))
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

static void
add_user(const char *u, size_t n, void *ctx)
{
	sqlite3_stmt *st = ctx;

	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, u, (int)n, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rec_sqlite_die(stage, partial);
}

/* opens the run being made: the interrupted one with resume, or a new
 * one holding every user to do */
static void
open_stage(const char *command, int resume)
{
	char *old_cmd, *old_run, started[32];
	sqlite3_stmt *st;

	if (access(partial, F_OK) == 0) {
		stage = open_db(partial);
		old_run = meta("run");
		old_cmd = meta("command");
		if (resume && old_run && old_cmd && command &&
		    strcmp(old_cmd, command))
			rec_die("the interrupted run '%s' ran another command "
			    "('%s'); remove '%s' to start afresh", old_run,
			    old_cmd, partial);
		if (resume && old_run) {
			runname = old_run;
			free(old_cmd);
			rec_sql_exec(stage, "UPDATE users SET status = 0 WHERE "
			    "status = 2", partial);
			return;
		}
		if (old_run && !quiet)
			rec_warn("discarding the interrupted run '%s' (--resume "
			    "continues it)", old_run);
		else if (!old_run && resume)
			rec_warn("the file of the interrupted run, '%s', is "
			    "damaged: starting afresh", partial);
		free(old_run);
		free(old_cmd);
		sqlite3_close(stage);
		if (unlink(partial) < 0)
			rec_die("cannot remove '%s': %m", partial);
	}
	stage = open_db(partial);
	rec_sql_exec(stage, "PRAGMA synchronous = OFF; PRAGMA journal_mode = "
	    "WAL; CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
	    "CREATE TABLE users(pos INTEGER PRIMARY KEY, user TEXT NOT NULL "
	    "UNIQUE, status INTEGER NOT NULL DEFAULT 0);"
	    "CREATE TABLE rows(user TEXT NOT NULL, rank INTEGER NOT NULL, item "
	    "TEXT NOT NULL, score REAL, time TEXT NOT NULL, PRIMARY KEY(user, "
	    "rank)) WITHOUT ROWID", partial);
	utc(started, sizeof started);
	if (!runname)
		runname = xstrdup(started);
	if (sqlite3_prepare_v2(stage, "INSERT INTO meta VALUES(?, ?)", -1, &st,
	    NULL))
		rec_sqlite_die(stage, partial);
#define META(k, v) do { sqlite3_reset(st); \
	sqlite3_bind_text(st, 1, k, -1, SQLITE_STATIC); \
	sqlite3_bind_text(st, 2, v, -1, SQLITE_TRANSIENT); \
	if (sqlite3_step(st) != SQLITE_DONE) rec_sqlite_die(stage, partial); \
	} while (0)
	META("run", runname);
	META("command", command ? command : "(merged)");
	META("started", started);
#undef META
	sqlite3_finalize(st);
	if (command) {
		rec_sql_exec(stage, "BEGIN", partial);
		if (sqlite3_prepare_v2(stage, "INSERT OR IGNORE INTO users(user) "
		    "VALUES(?)", -1, &st, NULL))
			rec_sqlite_die(stage, partial);
		each_user(add_user, st);
		sqlite3_finalize(st);
		rec_sql_exec(stage, "COMMIT", partial);
	}
}

static size_t
count(const char *sql)
{
	sqlite3_stmt *st;
	size_t n = 0;

	if (sqlite3_prepare_v2(stage, sql, -1, &st, NULL))
		rec_sqlite_die(stage, partial);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* makes the run the results: one transaction, so readers see the old
 * run or the new one, never a mix; then the run file goes */
static void
publish(void)
{
	sqlite3 *db = open_db(results);
	char *q, *started = meta("started"), *command = meta("command");
	char finished[32];

	utc(finished, sizeof finished);
	sqlite3_close(stage);
	stage = NULL;
	/* the tables made in the publishing transaction: one commit, not
	 * three; WAL with NORMAL waits for the disk at the checkpoint of
	 * the close, not at the commit (rec-batch(1), FILES) */
	rec_sql_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA journal_mode = "
	    "WAL", results);
	q = sqlite3_mprintf("ATTACH %Q AS run; BEGIN IMMEDIATE;"
	    "CREATE TABLE IF NOT EXISTS main.runs(run TEXT PRIMARY KEY, command "
	    "TEXT, started TEXT, finished TEXT, users INTEGER, failed INTEGER,"
	    " items INTEGER);"
	    "CREATE TABLE IF NOT EXISTS main.results(run TEXT NOT NULL, user "
	    "TEXT NOT NULL, rank INTEGER NOT NULL, item TEXT NOT NULL, score "
	    "REAL, time TEXT NOT NULL, PRIMARY KEY(user, rank)) WITHOUT ROWID;"
	    "DELETE FROM main.results;"
	    "INSERT INTO main.results SELECT %Q, user, rank, item, score, time "
	    "FROM run.rows ORDER BY user, rank;"
	    "INSERT OR REPLACE INTO main.runs VALUES(%Q, %Q, %Q, %Q, "
	    "(SELECT count(*) FROM run.users), (SELECT count(*) FROM run.users "
	    "WHERE status != 1), (SELECT count(*) FROM run.rows));"
	    "COMMIT; DETACH run", partial, runname, runname, command, started,
	    finished);
	rec_sql_exec(db, q, results);
	sqlite3_free(q);
	sqlite3_close(db);
	unlink(partial);
	{
		struct rec_buf p = {0};
		rec_buf_printf(&p, "%s-wal", partial);
		unlink(p.data);
		rec_buf_reset(&p);
		rec_buf_printf(&p, "%s-shm", partial);
		unlink(p.data);
		rec_buf_free(&p);
	}
	free(started);
	free(command);
}

/* ---- running the users ---- */

struct feed {
	struct rec_jobs *jobs;
	char **argv;		/* the command */
	size_t argc;
	const char *place;	/* -I */
	struct row_ctx *rows;
	sqlite3_stmt *mark;
	size_t since_commit;
	double last_commit, last_show;
};

static void
finish(struct feed *f, struct rec_job *job)
{
	struct rec_buf err = {0};
	char t[32];
	int ok;

	utc(t, sizeof t);
	f->rows->user = job->name;
	f->rows->time = t;
	if (rec_jobs_ok(job))
		ok = job_rows(f->rows, job, &err);
	else {
		rec_jobs_describe(&err, job);
		ok = 0;
	}
	if (!ok) {
		if (!quiet || maxfail == 0)
			rec_warn("user '%s': the command %s", job->name,
			    err.data);
		if (stage) {	/* its rows, if any, go */
			sqlite3_stmt *st;
			if (sqlite3_prepare_v2(stage, "DELETE FROM rows WHERE "
			    "user = ?", -1, &st, NULL))
				rec_sqlite_die(stage, partial);
			sqlite3_bind_text(st, 1, job->name, -1, SQLITE_STATIC);
			sqlite3_step(st);
			sqlite3_finalize(st);
		}
		nfailed++;
	} else
		ndone++;
	if (stage) {
		sqlite3_reset(f->mark);
		sqlite3_bind_int(f->mark, 1, ok ? 1 : 2);
		sqlite3_bind_text(f->mark, 2, job->name, -1, SQLITE_STATIC);
		if (sqlite3_step(f->mark) != SQLITE_DONE)
			rec_sqlite_die(stage, partial);
		/* commit now and then: a crash redoes only those users */
		if (++f->since_commit >= 500 || rec_now() - f->last_commit > 2) {
			rec_sql_exec(stage, "COMMIT; BEGIN", partial);
			f->since_commit = 0;
			f->last_commit = rec_now();
		}
	}
	rec_buf_free(&err);
	rec_jobs_release(f->jobs, job);
	if (progress && rec_now() - f->last_show > 0.2) {
		show_progress(0);
		f->last_show = rec_now();
	}
}

static void
interrupted(struct feed *f)
{
	rec_jobs_kill(f->jobs);
	if (stage) {
		rec_sql_exec(stage, "COMMIT", partial);
		sqlite3_close(stage);
	}
	show_progress(1);
	rec_die("interrupted after %zu of %zu users%s", ndone + nfailed,
	    nusers, stage ? " (--resume continues the run)" : "");
}

static void
run_one(const char *u, size_t n, void *ctx)
{
	struct feed *f = ctx;
	struct rec_job *job;
	char *user = xmalloc(n + 1);

	memcpy(user, u, n);
	user[n] = 0;
	if (f->jobs->n == f->jobs->max) {
		if (!(job = rec_jobs_wait(f->jobs)))
			interrupted(f);
		finish(f, job);
	}
	if (stopped)
		interrupted(f);
	rec_batch_start(f->jobs, f->argv, f->argc, f->place, user);
	free(user);
}

/* the users still to do, a thousand at a time, so memory stays
 * bounded */
static void
run_stage(struct feed *f)
{
	sqlite3_stmt *st;
	sqlite3_int64 pos = 0;
	char **batch = xcalloc(1000, sizeof *batch);
	size_t n, i;

	if (sqlite3_prepare_v2(stage, "SELECT pos, user FROM users WHERE "
	    "status = 0 AND pos > ? ORDER BY pos LIMIT 1000", -1, &st, NULL))
		rec_sqlite_die(stage, partial);
	do {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, pos);
		for (n = 0; sqlite3_step(st) == SQLITE_ROW; n++) {
			pos = sqlite3_column_int64(st, 0);
			batch[n] = xstrdup((const char *)
			    sqlite3_column_text(st, 1));
		}
		sqlite3_reset(st);
		for (i = 0; i < n; i++) {
			run_one(batch[i], strlen(batch[i]), f);
			free(batch[i]);
		}
	} while (n == 1000);
	sqlite3_finalize(st);
	free(batch);
}

static void
merge_file(const char *path, sqlite3_stmt *ins, sqlite3_stmt *user)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	struct rec_reader r;
	struct rec_record rec;
	int st;

	if (fd < 0)
		rec_die("cannot open '%s': %m", path);
	rec_reader_init(&r, fd, strcmp(path, "-") ? path : "stdin");
	while ((st = rec_read(&r, &rec)) > 0) {
		const msgpack_object *u = rec_map_get(&rec.map, "user");
		const msgpack_object *k = rec_map_get(&rec.map, "rank");
		const msgpack_object *sc = rec_map_get(&rec.map, "score");
		const msgpack_object *tm = rec_map_get(&rec.map, "time");
		int rc;

		if (!u || u->type != MSGPACK_OBJECT_STR || !k ||
		    k->type != MSGPACK_OBJECT_POSITIVE_INTEGER || !k->via.u64 ||
		    !tm || tm->type != MSGPACK_OBJECT_STR)
			rec_die("%s:%lu: not a row of rec-batch (id, user, rank, "
			    "score, time)", r.name, r.line);
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, u->via.str.ptr, (int)u->via.str.size,
		    SQLITE_STATIC);
		sqlite3_bind_int64(ins, 2, (sqlite3_int64)k->via.u64);
		sqlite3_bind_text(ins, 3, rec.id, (int)rec.idlen,
		    SQLITE_STATIC);
		if (sc && (sc->type == MSGPACK_OBJECT_FLOAT64 ||
		    sc->type == MSGPACK_OBJECT_FLOAT32))
			sqlite3_bind_double(ins, 4, sc->via.f64);
		else if (sc && sc->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
			sqlite3_bind_double(ins, 4, (double)sc->via.u64);
		else if (sc && sc->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
			sqlite3_bind_double(ins, 4, (double)sc->via.i64);
		else
			sqlite3_bind_null(ins, 4);
		sqlite3_bind_text(ins, 5, tm->via.str.ptr,
		    (int)tm->via.str.size, SQLITE_STATIC);
		rc = sqlite3_step(ins);
		if (rc == SQLITE_CONSTRAINT)
			rec_die("%s:%lu: user '%.*s' has a second item at rank "
			    "%llu (a user in two parts)", r.name, r.line,
			    (int)u->via.str.size, u->via.str.ptr,
			    (unsigned long long)k->via.u64);
		if (rc != SQLITE_DONE)
			rec_sqlite_die(stage, partial);
		sqlite3_reset(user);
		sqlite3_bind_text(user, 1, u->via.str.ptr, (int)u->via.str.size,
		    SQLITE_STATIC);
		if (sqlite3_step(user) != SQLITE_DONE)
			rec_sqlite_die(stage, partial);
		nitems++;
	}
	if (st < 0)
		rec_die("%s", r.err.data);
	rec_reader_free(&r);
	if (fd > 0)
		close(fd);
}

/* ---- a grouped stream: one run of the command for every user ---- */

/* the for-user pipeline beside this program: $REC_PIPELINES, else where
 * make install puts it, else the source tree's (build/bin, build/san/bin);
 * caller frees, NULL when none is there */
static char *
find_for_user(void)
{
	static const char *const rel[] = { "../share/rec/pipelines",
	    "../../pipelines", "../../../pipelines", NULL };
	const char *env = getenv("REC_PIPELINES");
	char exe[4096], *slash;
	struct rec_buf p = {0};
	ssize_t n;
	size_t i;

	if (env && *env) {
		rec_buf_printf(&p, "%s/for-user", env);
		if (access(p.data, X_OK) == 0)
			return p.data;
		rec_buf_free(&p);
		return NULL;
	}
	if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0)
		return NULL;
	exe[n] = 0;
	if (!(slash = strrchr(exe, '/')))
		return NULL;
	*slash = 0;
	for (i = 0; rel[i]; i++) {
		rec_buf_reset(&p);
		rec_buf_printf(&p, "%s/%s/for-user", exe, rel[i]);
		if (access(p.data, X_OK) == 0)
			return p.data;
	}
	rec_buf_free(&p);
	return NULL;
}

/* whether the catalog has a trained itemknn model (the grouped
 * for-user's) */
static int
has_itemknn(void)
{
	sqlite3 *db = rec_catalog_open(dbpath);
	sqlite3_stmt *st;
	int yes = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM models WHERE name = "
	    "'itemknn'", -1, &st, NULL) == SQLITE_OK) {
		yes = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return yes;
}

static void
write_user_line(const char *u, size_t n, void *ctx)
{
	struct rec_buf *b = ctx;

	rec_buf_add(b, u, n);
	rec_buf_addc(b, '\n');
}

/* the users to do, one per line, in a temporary file the command reads
 * as its standard input; its descriptor (the file is gone already) */
static int
users_to_do(void)
{
	struct rec_buf b = {0};
	char path[4096];
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (stage) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(stage, "SELECT user FROM users WHERE "
		    "status = 0 ORDER BY pos", -1, &st, NULL))
			rec_sqlite_die(stage, partial);
		while (sqlite3_step(st) == SQLITE_ROW)
			write_user_line((const char *)sqlite3_column_text(st, 0),
			    (size_t)sqlite3_column_bytes(st, 0), &b);
		sqlite3_finalize(st);
	} else
		each_user(write_user_line, &b);
	snprintf(path, sizeof path, "%s/rec-batch.XXXXXX", tmp && *tmp ? tmp :
	    "/tmp");
	if ((fd = mkostemp(path, O_CLOEXEC)) < 0)
		rec_die("cannot make a temporary file in '%s': %m", tmp && *tmp ?
		    tmp : "/tmp");
	unlink(path);
	if ((b.len && write(fd, b.data, b.len) != (ssize_t)b.len) ||
	    lseek(fd, 0, SEEK_SET) < 0)
		rec_die("cannot write the users to '%s': %m", path);
	rec_buf_free(&b);
	return fd;
}

/* the user whose list is being read */
struct grouped {
	struct rec_groups g;
	struct rec_reader r;
	char *user;		/* NULL: none yet */
	size_t rank;
	sqlite3_stmt *mark;
	size_t since_commit;
	double last_commit, last_show;
	int resume;
};

/* the list of gr->user is whole: the user is done */
static void
group_done(struct grouped *gr)
{
	if (!gr->user)
		return;
	if (stage) {
		sqlite3_reset(gr->mark);
		sqlite3_bind_text(gr->mark, 1, gr->user, -1, SQLITE_STATIC);
		if (sqlite3_step(gr->mark) != SQLITE_DONE)
			rec_sqlite_die(stage, partial);
		if (++gr->since_commit >= 5000 || rec_now() - gr->last_commit >
		    2) {
			rec_sql_exec(stage, "COMMIT; BEGIN", partial);
			gr->since_commit = 0;
			gr->last_commit = rec_now();
		}
	}
	ndone++;
	free(gr->user);
	gr->user = NULL;
	if (progress && rec_now() - gr->last_show > 0.2) {
		show_progress(0);
		gr->last_show = rec_now();
	}
}

/* a group begins: its user must be one of the run's, with no list yet */
static int
group_begins(struct grouped *gr, sqlite3_stmt *status, const char *u,
    size_t n)
{
	int st = -1;

	if (stage) {
		sqlite3_reset(status);
		sqlite3_bind_text(status, 1, u, (int)n, SQLITE_STATIC);
		if (sqlite3_step(status) == SQLITE_ROW)
			st = sqlite3_column_int(status, 0);
		sqlite3_reset(status);
		if (st == 1 && gr->resume)
			return 0;	/* done before: its list stays */
		if (st != 0) {
			struct rec_reader *r = &gr->r;
			if (r->format == REC_FMT_MSGPACK)
				rec_die("%s: byte %llu: user '%.*s' is not one of "
				    "the run's users", r->name, r->off, (int)n, u);
			rec_die("%s:%lu: user '%.*s' is not one of the run's "
			    "users", r->name, r->line, (int)n, u);
		}
	}
	gr->user = xstrndup(u, n);
	gr->rank = 0;
	return 1;
}

/* Reads a grouped stream from fd into the run: a user's rows as they
 * come, the user done when the next group begins or the stream ends.
 * With pid, the command that writes it: it must end with 0 for the last
 * group to count. */
static void
read_grouped(int fd, const char *name, pid_t pid, int resume)
{
	struct grouped gr;
	struct row_ctx rows = {0};
	struct rec_record rec;
	sqlite3_stmt *status = NULL;
	char t[32];
	int keep = 0, st, ws;

	memset(&gr, 0, sizeof gr);
	gr.resume = resume;
	gr.last_commit = rec_now();
	rec_reader_init(&gr.r, fd, name);
	rec_groups_init(&gr.g, &gr.r, group);
	if (stage && (sqlite3_prepare_v2(stage, "INSERT OR REPLACE INTO rows "
	    "VALUES(?, ?, ?, ?, ?)", -1, &rows.ins, NULL) ||
	    sqlite3_prepare_v2(stage, "UPDATE users SET status = 1 WHERE user "
	    "= ?", -1, &gr.mark, NULL) || sqlite3_prepare_v2(stage, "SELECT "
	    "status FROM users WHERE user = ?", -1, &status, NULL)))
		rec_sqlite_die(stage, partial);
	utc(t, sizeof t);
	rows.time = t;
	while (!stopped && (st = rec_read(&gr.r, &rec)) > 0) {
		if (rec_groups_check(&gr.g, &rec)) {
			group_done(&gr);
			keep = group_begins(&gr, status, gr.g.cur.data,
			    gr.g.cur.len);
		}
		if (!keep || gr.rank >= limit)
			continue;
		rows.user = gr.user;
		emit(&rows, ++gr.rank, rec.id, rec.idlen, &rec);
		nitems++;
	}
	if (stopped) {
		if (pid > 0) {
			kill(pid, SIGTERM);
			rec_child_wait(pid);
		}
		if (stage) {
			rec_sql_exec(stage, "COMMIT", partial);
			sqlite3_close(stage);
		}
		show_progress(1);
		rec_die("interrupted after %zu of %zu users%s", ndone, nusers,
		    stage ? " (--resume continues the run)" : "");
	}
	if (st < 0) {
		if (pid > 0) {
			kill(pid, SIGTERM);
			rec_child_wait(pid);
		}
		if (stage) {
			rec_sql_exec(stage, "COMMIT", partial);
			sqlite3_close(stage);
		}
		rec_die("%s", gr.r.err.data);
	}
	if (pid > 0 && !rec_proc_ok(ws = rec_child_wait(pid))) {
		struct rec_buf how = {0};
		rec_proc_describe(&how, ws);
		free(gr.user);	/* its list may be cut short */
		if (stage) {
			rec_sql_exec(stage, "COMMIT", partial);
			sqlite3_close(stage);
		}
		show_progress(1);
		rec_die("the command %s after %zu of %zu users%s", how.data,
		    ndone, nusers, stage ? " (--resume continues the run)" :
		    "");
	}
	group_done(&gr);
	if (stage) {
		/* a user with no group has an empty list */
		rec_sql_exec(stage, "UPDATE users SET status = 1 WHERE status = "
		    "0", partial);
		ndone = count("SELECT count(*) FROM users WHERE status = 1");
		sqlite3_finalize(rows.ins);
		sqlite3_finalize(gr.mark);
		sqlite3_finalize(status);
	}
	rec_groups_free(&gr.g);
	rec_reader_free(&gr.r);
	rec_buf_free(&rows.line);
}

/* the run of a grouped command (or of the stream on standard input) */
static void
run_grouped(char **argv, size_t argc, const char *command, int resume)
{
	pid_t pid = -1;
	int fd = 0;
	char *name = NULL;

	if (results) {
		open_stage(command, resume);
		nusers = count("SELECT count(*) FROM users");
		ndone = count("SELECT count(*) FROM users WHERE status = 1");
		rec_sql_exec(stage, "BEGIN", partial);
		rec_sql_exec(stage, "DELETE FROM rows WHERE user IN (SELECT user "
		    "FROM users WHERE status = 0)", partial);
		ndone = 0;
	} else {
		char started[32];
		utc(started, sizeof started);
		if (!runname)
			runname = xstrdup(started);
	}
	if (argc) {
		struct rec_child c = {0};
		int p[2], in = users_to_do();
		char **av = xcalloc(argc + 1, sizeof *av);
		memcpy(av, argv, argc * sizeof *av);
		if (pipe2(p, O_CLOEXEC) < 0)
			rec_die("pipe: %m");
		/* msgpack down the pipe, as between rec's own stages: a
		 * tool's JSON output of every score and the parse of it
		 * back were a third of the grouped for-user's time */
		static char fmt[] = "REC_FORMAT=msgpack";
		char *env[] = { fmt, NULL };
		c.argv = av;
		c.env = env;
		c.in = in;
		c.out = p[1];
		pid = rec_child_start(&c);
		close(p[1]);
		close(in);
		free(av);
		fd = p[0];
		name = xstrdup("the command's output");
	} else
		name = xstrdup("stdin");
	read_grouped(fd, name, pid, resume);
	if (fd > 0)
		close(fd);
	free(name);
	if (results) {
		rec_sql_exec(stage, "COMMIT", partial);
		publish();
	}
	show_progress(1);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "max-failures", required_argument, NULL, 'f' },
		{ "group", required_argument, NULL, 'g' },
		{ "replace", required_argument, NULL, 'I' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "limit", required_argument, NULL, 'k' },
		{ "list-users", no_argument, NULL, 'l' },
		{ "merge", no_argument, NULL, 'm' },
		{ "allow-empty", no_argument, NULL, 'E' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "run", required_argument, NULL, 'R' },
		{ "resume", no_argument, NULL, 'r' },
		{ "users", required_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *place = NULL;
	char *def_argv[7], def_k[32], opt_g[] = "-G", opt_d[] = "-d",
	    opt_k[] = "-k";
	size_t njobs = 1, i;
	int c, list = 0, merge = 0, resume = 0, allow_empty = 0;
	struct rec_jobs jobs;
	struct row_ctx rows = {0};
	struct feed f = {0};
	struct rec_buf cmd = {0};
	struct sigaction sa;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, "+:d:Ef:g:I:j:k:lmo:qR:rU:hV",
	    longopts, NULL)) != -1)
		switch (c) {
		case 'd': dbpath = optarg; break;
		case 'f': maxfail = rec_arg_count("--max-failures", optarg);
			break;
		case 'g':
			if (!*optarg)
				rec_usage_die("--group: an empty key");
			group = optarg;
			break;
		case 'I': place = optarg; break;
		case 'j': njobs = rec_arg_count("-j", optarg); break;
		case 'k': limit = rec_arg_count("-k", optarg); break;
		case 'l': list = 1; break;
		case 'm': merge = 1; break;
		case 'E': allow_empty = 1; break;
		case 'o': results = optarg; break;
		case 'q': quiet = 1; break;
		case 'R': runname = optarg; break;
		case 'r': resume = 1; break;
		case 'U': users_file = optarg; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (njobs < 1 || njobs > 1024)
		rec_usage_die("-j: between 1 and 1024 jobs");
	if (place && !*place)
		rec_usage_die("-I: an empty string");
	if (list) {
		if (optind < argc)
			rec_usage_die("--list-users takes no command");
		each_user(print_user, NULL);
		if (fflush(stdout) || ferror(stdout))
			rec_die("write error: %m");
		rec_exit(0);
	}
	if (merge && !results)
		rec_usage_die("--merge needs -o RESULTS");
	if (resume && !results)
		rec_usage_die("--resume needs -o RESULTS");
	if (!merge && !group && optind == argc) {
		/* the default: the grouped for-user pipeline */
		char *fu;
		if (!has_itemknn())
			rec_usage_die("give the command to run for each user (the "
			    "catalog has no itemknn model for the default, "
			    "for-user)");
		if (!(fu = find_for_user()))
			rec_usage_die("give the command to run for each user (no "
			    "for-user pipeline found: set REC_PIPELINES)");
		def_argv[0] = fu;
		def_argv[1] = opt_g;
		def_argv[2] = opt_d;
		def_argv[3] = (char *)rec_catalog_path(dbpath);
		def_argv[4] = opt_k;
		snprintf(def_k, sizeof def_k, "%zu", limit == (size_t)-1 ? 10 :
		    limit);
		def_argv[5] = def_k;
		def_argv[6] = NULL;
		group = "user";
		argv = def_argv;
		argc = 6;
		optind = 0;
	}
	if (group && merge)
		rec_usage_die("--group and --merge together");
	if (group && (place || njobs != 1))
		rec_usage_die("--group runs the command once: no -I or -j");
	if (merge && resume)
		rec_usage_die("--merge and --resume together");
	if (results) {
		struct rec_buf p = {0};
		rec_buf_printf(&p, "%s.partial", results);
		partial = p.data;
		lock_results();
	}
	progress = !quiet && isatty(2);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	t0 = rec_now();
	if (merge) {
		sqlite3_stmt *ins, *user;
		open_stage(NULL, 0);
		rec_sql_exec(stage, "BEGIN", partial);
		if (sqlite3_prepare_v2(stage, "INSERT INTO rows VALUES(?, ?, ?, "
		    "?, ?)", -1, &ins, NULL) ||
		    sqlite3_prepare_v2(stage, "INSERT OR IGNORE INTO users(user, "
		    "status) VALUES(?, 1)", -1, &user, NULL))
			rec_sqlite_die(stage, partial);
		if (optind == argc)
			merge_file("-", ins, user);
		for (i = (size_t)optind; i < (size_t)argc; i++)
			merge_file(argv[i], ins, user);
		sqlite3_finalize(ins);
		sqlite3_finalize(user);
		/* an empty input (a failed upstream job, the wrong file)
		 * must not replace a good run */
		if (!allow_empty && !count("SELECT count(*) FROM rows"))
			rec_die("no rows to merge (nothing published; -E "
			    "publishes an empty run)");
		if (users_file) {	/* nobody lost, nobody extra */
			sqlite3_stmt *st;
			rec_sql_exec(stage, "CREATE TEMP TABLE want(user TEXT "
			    "PRIMARY KEY)", partial);
			if (sqlite3_prepare_v2(stage, "INSERT OR IGNORE INTO "
			    "want VALUES(?)", -1, &st, NULL))
				rec_sqlite_die(stage, partial);
			each_user(add_user, st);
			sqlite3_finalize(st);
			if ((nfailed = count("SELECT count(*) FROM want WHERE "
			    "user NOT IN (SELECT user FROM users)")))
				rec_die("%zu users of '%s' have no rows (nothing "
				    "published)", nfailed, users_file);
			if ((i = count("SELECT count(*) FROM users WHERE user "
			    "NOT IN (SELECT user FROM want)")))
				rec_die("%zu users in the rows are not in '%s' "
				    "(nothing published)", i, users_file);
		}
		rec_sql_exec(stage, "COMMIT", partial);
		nusers = ndone = count("SELECT count(*) FROM users");
		publish();
		goto summary;
	}
	for (i = (size_t)optind; i < (size_t)argc; i++) {
		rec_buf_adds(&cmd, i > (size_t)optind ? " " : "");
		rec_buf_adds(&cmd, argv[i]);
	}
	if (group) {
		run_grouped(argv + optind, (size_t)(argc - optind), optind <
		    argc ? cmd.data : "(grouped stream)", resume);
		goto summary;
	}
	rec_jobs_init(&jobs, njobs, 64 << 20);
	jobs.stop = &stopped;
	f.jobs = &jobs;
	f.argv = argv + optind;
	f.argc = (size_t)(argc - optind);
	f.place = place;
	f.rows = &rows;
	f.last_commit = rec_now();
	if (results) {
		open_stage(cmd.data, resume);
		nusers = count("SELECT count(*) FROM users");
		ndone = count("SELECT count(*) FROM users WHERE status = 1");
		if (sqlite3_prepare_v2(stage, "INSERT OR REPLACE INTO rows "
		    "VALUES(?, ?, ?, ?, ?)", -1, &rows.ins, NULL) ||
		    sqlite3_prepare_v2(stage, "UPDATE users SET status = ? WHERE "
		    "user = ?", -1, &f.mark, NULL))
			rec_sqlite_die(stage, partial);
		rec_sql_exec(stage, "BEGIN", partial);
		{
			/* a resumed user starts clean */
			rec_sql_exec(stage, "DELETE FROM rows WHERE user IN "
			    "(SELECT user FROM users WHERE status = 0)", partial);
		}
		run_stage(&f);
	} else {
		char started[32];
		utc(started, sizeof started);
		if (!runname)
			runname = xstrdup(started);
		each_user(run_one, &f);
	}
	while (jobs.n) {
		struct rec_job *job = rec_jobs_wait(&jobs);
		if (!job)
			interrupted(&f);
		finish(&f, job);
	}
	if (stopped)
		interrupted(&f);
	if (results) {
		sqlite3_finalize(rows.ins);
		sqlite3_finalize(f.mark);
		rec_sql_exec(stage, "COMMIT", partial);
		if (nfailed > maxfail) {
			sqlite3_close(stage);
			show_progress(1);
			rec_die("run '%s' not published: %zu of %zu users "
			    "failed (--resume retries them)", runname, nfailed,
			    nusers);
		}
		publish();
	} else if (nfailed > maxfail) {
		show_progress(1);
		rec_die("%zu of %zu users failed", nfailed, ndone + nfailed);
	}
	show_progress(1);
	rec_jobs_free(&jobs);
summary:
	if (!quiet && !progress)
		fprintf(stderr, "%s: run '%s': %zu users, %zu failed, %zu items, "
		    "%.1f s%s%s\n", rec_progname, runname ? runname : "-",
		    nusers ? nusers : ndone + nfailed, nfailed, nitems,
		    rec_now() - t0, results ? ", in " : "", results ? results : "");
	rec_buf_free(&cmd);
	rec_buf_free(&rows.line);
	free(partial);
	rec_exit(0);
}
