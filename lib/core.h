/*
 * core.h: what every rec program links first: memory and messages, the
 * trace line, files replaced whole or not at all, the growable buffer,
 * text normalisation, JSON <-> msgpack, the byte-string hash, the order
 * of ranked lists and lists of strings.  The headers above it:
 * stream.h (candidate streams), catalog.h (the SQLite catalog and the
 * tables it is built from), retrieve.h (the retrievers and the ranker),
 * proc.h (child processes, pipelines, jobs run at once), converse.h
 * (intent, plan, conversation, reply, model) and batch.h (rec-batch's
 * command, evaluation).  Each includes the ones it builds on.
 *
 * Ownership, once for the whole API: a function that returns a pointer
 * to memory it allocated says so and the caller frees it; everything
 * else returned (record fields, column names) is borrowed and valid
 * until the next call on the same object.  Allocation failure is fatal.
 */
#ifndef REC_CORE_H
#define REC_CORE_H

#include <stddef.h>
#include <signal.h>
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>
#include <msgpack.h>

#define REC_VERSION "0.1.0"

/* util.c: program name, messages, exit */
extern const char *rec_progname;
/* run by rec_exit before it exits (trace.c's line), or NULL */
extern void (*rec_exit_hook)(int status);
/* the last message rec_die or rec_usage_die gave */
extern char rec_last_error[512];

void rec_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rec_die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
void rec_usage_die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
void rec_exit(int status) __attribute__((noreturn));
/* seconds on the monotonic clock */
double rec_now(void);
/* no candidates to give: an error, or with --lenient a warning and an
 * empty list (exit 0) */
void rec_none(int lenient, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
void rec_version(void) __attribute__((noreturn));
/* option values: a count ("-k: not a count: 'x'") and a number in a
 * range; both are usage errors */
size_t rec_arg_count(const char *opt, const char *arg);
double rec_arg_number(const char *opt, const char *arg, double lo, double hi);
/* a size in bytes from the environment variable name (digits, then K, M
 * or G for KiB, MiB or GiB), or def when it is unset or empty; anything
 * else, or a size outside lo..hi, is a usage error */
size_t rec_env_size(const char *name, size_t def, size_t lo, size_t hi);
/* for getopt_long's '?' or ':' (optstring starting with ':') */
void rec_bad_option(char **argv, int c) __attribute__((noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* trace.c: every tool starts with rec_init (program name, larger pipes,
 * the REC_TRACE line written at exit); rec_trace_count sets the records
 * in and out that line reports */
void rec_init(int argc, char **argv);
void rec_trace_count(unsigned long in, unsigned long out);
/* catalogs this process opened (catalog.c counts): the line says how
 * many, so a test can see that a tool opens its catalog once */
extern unsigned long rec_trace_opens;

/* fs.c: a file replaced whole or not at all: written to a temporary
 * file beside path (DIR/.NAME.tmpPID, same directory so that the rename
 * is atomic), renamed onto path by rec_atomic_commit.  Until then the
 * temporary file is removed by rec_atomic_abort, by a failed commit,
 * and at exit.  No fsync (nor did the code before it).  E.g.
 *   if (rec_atomic_open(&a, path, 0644) < 0 ||
 *       rec_atomic_write(&a, p, n) < 0 || rec_atomic_commit(&a) < 0) {
 *           rec_atomic_abort(&a);
 *           rec_die("cannot write '%s': %m", path);
 *   } */
struct rec_atomic {
	int fd;			/* the temporary file, open for writing;
				 * -1 once committed or aborted */
	char tmp[4096];		/* its name (kept for messages) */
	const char *path;	/* borrowed until commit or abort */
	pid_t pid;		/* the process that made it */
	struct rec_atomic *next;	/* the live ones, for exit: a must
					 * not move until commit or abort */
};
/* creates the temporary file for path with mode (less the umask);
 * 0, or -1 with errno and no file */
int rec_atomic_open(struct rec_atomic *a, const char *path, mode_t mode);
/* writes all n bytes, retrying short writes: 0, or -1 with the errno
 * of the write that failed (ENOSPC for one that wrote nothing) */
int rec_atomic_write(struct rec_atomic *a, const void *p, size_t n);
/* closes and renames onto path: 0, or -1 with errno and the temporary
 * file removed */
int rec_atomic_commit(struct rec_atomic *a);
/* removes the temporary file (keeps errno); nothing after a commit */
void rec_atomic_abort(struct rec_atomic *a);
/* path's contents, n bytes, replaced as one: 0, or -1 with errno */
int rec_atomic_file(const char *path, const void *p, size_t n, mode_t mode);
/* removes the temporary files of path that a process now gone left
 * (kill -9, a crash): DIR/.NAME.tmpPID[.N] whose PID does not exist;
 * how many.  Only where no one else writes path (catalog.c calls it
 * holding the catalog's lock): a PID of another host or PID namespace
 * looks gone. */
size_t rec_atomic_sweep(const char *path);
/* SIGINT, SIGTERM and SIGHUP remove the live temporary files too (for
 * a long edit, such as a catalog's) before the signal ends the program */
void rec_atomic_catch_signals(void);
/* each id in the file at path ("-": standard input), one a line, to fn;
 * blank lines skipped, a CR before the newline dropped; dies naming
 * file and line at a NUL byte or invalid UTF-8, or at a read error */
void rec_read_ids(const char *path, void (*fn)(const char *id,
    size_t len, void *ctx), void *ctx);

/* buf.c: a growable byte buffer.  Invariant: data is NUL-terminated
 * whenever cap > 0, so data can be used as a C string when the bytes
 * contain no NUL, and after any add data is not NULL.  A zeroed struct
 * is an empty buffer. */
struct rec_buf {
	char *data;
	size_t len;
	size_t cap;
};

void rec_buf_grow(struct rec_buf *b, size_t extra);
void rec_buf_add(struct rec_buf *b, const void *p, size_t n);
void rec_buf_addc(struct rec_buf *b, int c);
void rec_buf_adds(struct rec_buf *b, const char *s);
/* s as an SQL string literal: quoted, its quotes doubled */
void rec_buf_sql(struct rec_buf *b, const char *s);
void rec_buf_printf(struct rec_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rec_buf_reset(struct rec_buf *b);
void rec_buf_free(struct rec_buf *b);
/* a msgpack_packer write callback appending to the rec_buf in data */
int rec_buf_msgpack_write(void *data, const char *p, size_t n);

/* text.c: UTF-8 and normalisation */
/* length of the valid UTF-8 prefix of s[0..n); n when all is valid */
size_t rec_utf8_valid(const char *s, size_t n);
/* REC_MAX_REQUEST: the longest message rec-plan and rec-chat take, in
 * bytes (default 64K; outside 16..64M a usage error).  Parsing is
 * linear, but a message is never cut short: past this it is refused. */
size_t rec_max_request(void);
/* why msg[0..n) cannot be a message (longer than the limit, a NUL, not
 * UTF-8), or NULL when it can */
const char *rec_message_bad(const char *msg, size_t n);
/* append s[0..n) folded for matching: lowercase, diacritics removed,
 * runs of spaces and punctuation collapsed to one space, trimmed */
void rec_norm(struct rec_buf *out, const char *s, size_t n);
/* append the part of a title or name that tells one song from another:
 * without "(...)" and "[...]" parts or a " - ..." tail ("Remastered
 * 2011"), and, for a name, only the first of a list ("A, B", "A feat.
 * B", "A & B"); then folded as rec_norm() does */
void rec_song_key(struct rec_buf *out, const char *s, int first_name);
/* the names of a value naming several ("A, B", "A feat. B", "A x B",
 * "A with B", "A vs. B", and "A & B" when amp), each as written,
 * appended to out; nothing when the value names one */
struct rec_strs;
void rec_name_parts(const char *s, int amp, struct rec_strs *out);
/* append Latin-1 bytes as UTF-8 */
void rec_latin1_to_utf8(struct rec_buf *out, const char *s, size_t n);
/* edit distance between two byte strings (a swap of two neighbours is
 * one edit), capped at max + 1 */
int rec_edit_distance(const char *a, size_t an, const char *b, size_t bn,
    int max);

/* json.c: JSON text to msgpack, msgpack to JSON text */
/* Parses one JSON value from s[0..n) and packs it into out.  Returns 0,
 * or -1 with a message in err (no trailing newline).  *compact is set
 * to whether the text had no insignificant white space. */
int rec_json_to_msgpack(const char *s, size_t n, struct rec_buf *out,
    int *compact, struct rec_buf *err);
/* Appends obj as compact JSON; -1 with a message in err for values
 * JSON cannot hold (binary, extension, non-string keys, bad UTF-8, NaN
 * and infinity). */
int rec_json_write(struct rec_buf *out, const msgpack_object *obj,
    struct rec_buf *err);
void rec_json_string(struct rec_buf *out, const char *s, size_t n);
/* shortest text that reads back as the same double; "null" if not
 * finite; always has a '.' or an exponent */
int rec_json_double(char *out, size_t outsz, double d);

/* hash.c: a map from byte strings to indexes, open addressing.  Keys
 * are copied into the table's own storage.  A value per key: set vsize
 * before the first put, and val holds one of vsize bytes per key, by
 * index, zeroed when its key is added; val moves when a put adds, so
 * take it again after each put.  E.g. counting:
 *   struct rec_hash h = { .vsize = sizeof(size_t) };
 *   k = rec_hash_put(&h, w, len, NULL);
 *   ((size_t *)h.val)[k]++; */
struct rec_hash {
	size_t *slot;		/* index + 1, 0 for empty */
	size_t nslot;
	char **key;
	size_t *keylen;
	size_t n, cap;
	size_t vsize;		/* bytes of a value; 0: no values */
	void *val;		/* [cap] values of vsize bytes */
};

/* the index of key, adding it as n (the count before) if absent;
 * *added says which */
size_t rec_hash_put(struct rec_hash *h, const char *key, size_t len,
    int *added);
/* the index of key, or (size_t)-1 */
size_t rec_hash_get(const struct rec_hash *h, const char *key, size_t len);
/* frees keys and values; h is then empty, with the same vsize */
void rec_hash_free(struct rec_hash *h);
/* the table's hash of a string (FNV-1a, its high bits folded in) */
uint64_t rec_hash_str(const char *s, size_t n);

/* sort.c: the one order of ranked lists: the higher score first, ties
 * to the lower index (the earlier record, the lower document or row).
 * Arrays of struct rec_scored sort with it, and so do arrays of a
 * struct whose first member is one (struct rec_cand). */
struct rec_scored {
	double score;
	size_t index;
};
/* a qsort comparator: < 0 when a goes before b */
int rec_scored_cmp(const void *a, const void *b);
/* sorts n elements of size bytes, each starting with a struct rec_scored */
void rec_scored_sort(void *v, size_t n, size_t size);
/* Keeps the best k of a stream in h (room for k), *n of them so far:
 * adds (score, index) while there is room, or in place of the worst
 * kept when it is better.  h is a heap with the worst at h[0]; sort it
 * with rec_scored_sort to read it best first.  E.g.
 *   for (i = 0; i < n; i++) rec_topk_push(h, &nh, k, s[i], i);
 *   rec_scored_sort(h, nh, sizeof *h); */
void rec_topk_push(struct rec_scored *h, size_t *n, size_t k, double score,
    size_t index);
/* sorts such a heap of n best first, in place (the order
 * rec_scored_sort gives, since no two indexes are equal) */
void rec_topk_sort(struct rec_scored *h, size_t n);

/* a list of strings, each owned by the list (rec_strs_free frees
 * them all) */
struct rec_strs {
	char **v;
	size_t n;
};
/* adds v to s unless it is there; copies it */
void rec_strs_add(struct rec_strs *s, const char *v);
/* appends n bytes of v, repeats and all */
void rec_strs_push(struct rec_strs *s, const char *v, size_t n);
/* whether s holds v (ASCII case folded with icase) */
int rec_strs_has(const struct rec_strs *s, const char *v, int icase);
void rec_strs_free(struct rec_strs *s);
/* adds every string of from to to (rec_strs_add) */
void rec_strs_copy(struct rec_strs *to, const struct rec_strs *from);
/* appends the SQL call fn("col", 'v1', 'v2', ...) of the values of v */
void rec_strs_sql_call(struct rec_buf *b, const char *fn, const char *col,
    const struct rec_strs *v);
/* appends "key":[...] (json.c) */
void rec_strs_json(struct rec_buf *b, const char *key,
    const struct rec_strs *s);
/* adds the strings of a msgpack array (other values are skipped; o may
 * be NULL or not an array) */
void rec_strs_from(struct rec_strs *s, const msgpack_object *o);

#endif
