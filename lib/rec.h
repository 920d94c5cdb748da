/*
 * rec.h: the library every rec tool links: memory and messages, the
 * growable buffer, candidate streams (JSONL and msgpack), text
 * normalisation, CSV reading and the catalog.
 *
 * Ownership, once for the whole API: a function that returns a pointer
 * to memory it allocated says so and the caller frees it; everything
 * else returned (record fields, column names) is borrowed and valid
 * until the next call on the same object.  Allocation failure is fatal.
 */
#ifndef REC_H
#define REC_H

#include <stddef.h>
#include <signal.h>
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>
#include <msgpack.h>

#define REC_VERSION "0.1.0"

/* util.c: program name, messages, exit, trace */
extern const char *rec_progname;

void rec_init(int argc, char **argv);
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
void rec_trace_count(unsigned long in, unsigned long out);
void rec_version(void) __attribute__((noreturn));
/* option values: a count ("-k: not a count: 'x'") and a number in a
 * range; both are usage errors */
size_t rec_arg_count(const char *opt, const char *arg);
double rec_arg_number(const char *opt, const char *arg, double lo, double hi);
/* for getopt_long's '?' or ':' (optstring starting with ':') */
void rec_bad_option(char **argv, int c) __attribute__((noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

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
void rec_buf_printf(struct rec_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rec_buf_reset(struct rec_buf *b);
void rec_buf_free(struct rec_buf *b);
/* a msgpack_packer write callback appending to the rec_buf in data */
int rec_buf_msgpack_write(void *data, const char *p, size_t n);

/* text.c: UTF-8 and normalisation */
/* length of the valid UTF-8 prefix of s[0..n); n when all is valid */
size_t rec_utf8_valid(const char *s, size_t n);
/* append s[0..n) folded for matching: lowercase, diacritics removed,
 * runs of spaces and punctuation collapsed to one space, trimmed */
void rec_norm(struct rec_buf *out, const char *s, size_t n);
/* append the part of a title or name that tells one song from another:
 * without "(...)" and "[...]" parts or a " - ..." tail ("Remastered
 * 2011"), and, for a name, only the first of a list ("A, B", "A feat.
 * B", "A & B"); then folded as rec_norm() does */
void rec_song_key(struct rec_buf *out, const char *s, int first_name);
/* append Latin-1 bytes as UTF-8 */
void rec_latin1_to_utf8(struct rec_buf *out, const char *s, size_t n);
/* edit distance between two byte strings, capped at max + 1 */
int rec_edit_distance(const char *a, size_t an, const char *b, size_t bn,
    int max);

/* json.c: JSON text to msgpack, msgpack to JSON text */
/* Parses one JSON value from s[0..n) and packs it into out.  Returns 0,
 * or -1 with a message in err (no trailing newline).  *compact is set
 * to whether the text had no insignificant white space. */
int rec_json_to_msgpack(const char *s, size_t n, struct rec_buf *out,
    int *compact, struct rec_buf *err);
/* Appends obj as compact JSON; -1 with a message in err for values
 * JSON cannot hold (binary, extension, non-string keys, bad UTF-8). */
int rec_json_write(struct rec_buf *out, const msgpack_object *obj,
    struct rec_buf *err);
void rec_json_string(struct rec_buf *out, const char *s, size_t n);
/* shortest text that reads back as the same double; "null" if not
 * finite; always has a '.' or an exponent */
int rec_json_double(char *out, size_t outsz, double d);

/* stream.c: candidate records */
enum rec_format { REC_FMT_UNKNOWN, REC_FMT_JSONL, REC_FMT_MSGPACK };

struct rec_record {
	const char *raw;	/* the record as one msgpack map */
	size_t rawlen;
	const char *json;	/* the source line if compact JSON, or NULL */
	size_t jsonlen;
	msgpack_object map;	/* raw, parsed */
	const char *id;		/* not NUL-terminated */
	size_t idlen;
	double score;
	int has_score;
	const char *src;	/* NULL when absent */
	size_t srclen;
};

struct rec_reader {
	int fd;
	const char *name;	/* "stdin" or a file name, for messages */
	enum rec_format format;
	char *buf;
	size_t cap, start, end;
	int eof;
	size_t maxrec;		/* REC_MAX_RECORD, bytes */
	unsigned long line;	/* JSONL: line of the last record */
	unsigned long nrec;	/* records read */
	unsigned long long off;	/* msgpack: byte offset of last record */
	unsigned long long consumed;
	struct rec_buf pack;
	struct rec_buf err;
	msgpack_zone zone;
	const char *mem;	/* rec_reader_init_mem: the input */
	size_t memlen, mempos;
};

void rec_reader_init(struct rec_reader *r, int fd, const char *name);
/* reads from data[0..len) instead of a file descriptor (fuzzing) */
void rec_reader_init_mem(struct rec_reader *r, const char *data, size_t len,
    const char *name);
void rec_reader_free(struct rec_reader *r);
/* 1 and *rec filled (valid until the next call), 0 at the end, -1 on
 * bad input with "NAME:LINE: problem" in r->err */
int rec_read(struct rec_reader *r, struct rec_record *rec);
/* rec_read that dies on error */
int rec_next(struct rec_reader *r, struct rec_record *rec);
/* the value under key in a map, or NULL */
const msgpack_object *rec_map_get(const msgpack_object *map,
    const char *key);

struct rec_writer {
	int fd;
	enum rec_format format;
	struct rec_buf out;
	struct rec_buf tmp;
	struct rec_buf err;
	unsigned long nout;
	msgpack_zone zone;
};

/* format from -M, else REC_FORMAT; refuses msgpack to a terminal */
void rec_writer_init(struct rec_writer *w, int fd, int msgpack_flag);
void rec_write(struct rec_writer *w, const struct rec_record *rec);
/* write a record given as msgpack bytes of one map */
void rec_write_msgpack(struct rec_writer *w, const char *p, size_t n);
void rec_writer_flush(struct rec_writer *w);
/* flushes and closes; dies on a write error, quiet on EPIPE */
void rec_writer_close(struct rec_writer *w);
/* write(2) everything or die; EPIPE is a quiet end */
void rec_write_all(int fd, const char *p, size_t n);

/* Builds a record from an existing one: packs the map header for the
 * kept keys plus nextra new ones, then the kept pairs; the caller packs
 * its nextra pairs into pk afterwards.  Keys in drop (NULL-ended) and
 * keys the caller will add must be listed in drop. */
void rec_pack_map_except(msgpack_packer *pk, const msgpack_object *map,
    const char *const *drop, size_t nextra);

/* Packs a record scored by stage src: id, score, src, "scores" (the
 * earlier stages' scores kept, src's set), "why" (the new reason added
 * to the earlier ones; NULL adds none), then every other key of orig
 * (NULL for a new record). */
void rec_pack_scored(msgpack_packer *pk, const msgpack_object *orig,
    const char *id, size_t idlen, double score, const char *src,
    const char *why);

/* pool semantics: 1 if standard input is a pipe, socket or file */
int rec_stdin_is_pool(void);

/* csv.c: RFC 4180 CSV and plain TSV, streamed */
struct rec_csv {
	FILE *fp;
	const char *name;
	int sep;		/* ',' or '\t' */
	int quoted;		/* honour "quotes" */
	int latin1;		/* input is Latin-1 */
	unsigned long line;	/* line where the current row starts */
	unsigned long nextline;
	struct rec_buf field;	/* field bytes, NUL-separated */
	size_t *off;		/* offsets of fields in field.data */
	size_t nfield, capfield;
	struct rec_buf conv;
	struct rec_buf err;
	int bomchecked;
};

void rec_csv_init(struct rec_csv *c, FILE *fp, const char *name, int sep);
void rec_csv_free(struct rec_csv *c);
/* 1 and a row in c->nfield fields (rec_csv_field), 0 at the end, -1 on
 * an error that ends the input, -2 for a bad row that was read whole
 * (reading may go on); the message is in c->err */
int rec_csv_read(struct rec_csv *c);
const char *rec_csv_field(const struct rec_csv *c, size_t i, size_t *len);

/* hash.c: a map from byte strings to indexes, open addressing.  Keys
 * are copied into the table's own storage. */
struct rec_hash {
	size_t *slot;		/* index + 1, 0 for empty */
	size_t nslot;
	char **key;
	size_t *keylen;
	size_t n, cap;
};

/* the index of key, adding it as n (the count before) if absent;
 * *added says which */
size_t rec_hash_put(struct rec_hash *h, const char *key, size_t len,
    int *added);
/* the index of key, or (size_t)-1 */
size_t rec_hash_get(const struct rec_hash *h, const char *key, size_t len);
void rec_hash_free(struct rec_hash *h);

/* A candidate pool held in memory: every record's msgpack bytes, in
 * order, and an index from id to the records with that id (a pool made
 * by concatenating streams may hold an id more than once). */
struct rec_pool {
	struct rec_buf raw;	/* the records, back to back */
	size_t *off;		/* record i is raw.data[off[i]..off[i+1]) */
	size_t *idoff;		/* its id: raw.data[idoff[i]], idlen[i] bytes */
	size_t *idlen;
	double *score;		/* its score, 0 when it had none */
	size_t n, cap;
	struct rec_hash ids;	/* distinct ids, in order of first sight */
	size_t *first, *last;	/* per distinct id: its first and last
				 * records */
	size_t *next;		/* per record: the next with the same id,
				 * or (size_t)-1 */
};

/* reads all of r into p (dies on bad input) */
void rec_pool_read(struct rec_pool *p, struct rec_reader *r);
void rec_pool_free(struct rec_pool *p);
/* Writes a record scored by stage src: with a pool, every pool record
 * of id (keys kept, scores merged) while room lasts; without, a new
 * record.  Returns how many were written. */
size_t rec_write_scored(struct rec_writer *w, const struct rec_pool *pool,
    const char *id, size_t idlen, double score, const char *src,
    const char *why, size_t room);
/* unpacks record i into obj, using zone */
void rec_pool_get(const struct rec_pool *p, size_t i, msgpack_zone *zone,
    msgpack_object *obj);

/* bm25.c: an Okapi BM25 index over the text fields of a catalog,
 * written once beside it (CATALOG.bm25) and memory-mapped by queries. */
struct rec_bm25_builder;

struct rec_bm25_builder *rec_bm25_builder_new(size_t nfields,
    const char *const *names);
/* adds the next document: its id and one text per field (NULL: none) */
void rec_bm25_builder_doc(struct rec_bm25_builder *b, const char *id,
    const char *const *texts);
/* writes the index to path atomically; 0, or -1 with errno */
int rec_bm25_builder_write(struct rec_bm25_builder *b, const char *path,
    uint64_t cat_size, int64_t cat_mtime);
void rec_bm25_builder_free(struct rec_bm25_builder *b);

struct rec_bm25_field {
	char name[32];
	uint32_t nterms;
	double avgdl;
	const uint32_t *doclen;		/* [ndocs] */
	const uint64_t *termoff;	/* [nterms + 1] into termchars */
	const char *termchars;
	const uint64_t *postoff;	/* [nterms + 1] into docs, tfs */
	const uint32_t *docs;
	const uint32_t *tfs;
	const float *maxtf;		/* [nterms]: max tf part at k1 1.2, b .75 */
};

struct rec_bm25 {
	void *map;
	size_t mapsz;
	uint32_t ndocs, nfields;
	uint64_t cat_size;
	int64_t cat_mtime;
	const uint64_t *idoff;		/* [ndocs + 1] into idchars */
	const char *idchars;
	struct rec_bm25_field *field;
	struct rec_hash *idhash;	/* built by rec_bm25_doc */
};

struct rec_bm25_hit {
	uint32_t doc;
	double score;
};

/* 0, or -1 with a message in err */
int rec_bm25_open(struct rec_bm25 *x, const char *path, struct rec_buf *err);
void rec_bm25_close(struct rec_bm25 *x);
/* the field's index, or -1 */
int rec_bm25_field_index(const struct rec_bm25 *x, const char *name);
/* the term's index in field f, or -1 */
long rec_bm25_term(const struct rec_bm25 *x, int f, const char *t,
    size_t n);
/* the closest term to t within edit distance 1 (short) or 2, preferring
 * the most frequent; -1 if none */
long rec_bm25_closest_term(const struct rec_bm25 *x, int f, const char *t,
    size_t n);
/* Top k documents for the terms (indexes; repeats count again) in
 * field f, best first, ties to the lower document: disjunctive (any
 * term) or conjunctive (all); exhaustive or with MaxScore pruning,
 * which gives the same list.  Returns how many; out has room for k. */
size_t rec_bm25_search(const struct rec_bm25 *x, int f, const long *terms,
    size_t nterms, int conjunctive, double k1, double b, size_t k,
    int exhaustive, struct rec_bm25_hit *out);
/* the score of one document (0 when no term matches) */
double rec_bm25_score_doc(const struct rec_bm25 *x, int f, const long *terms,
    size_t nterms, double k1, double b, uint32_t doc);
/* the document with this id, or -1 (binary search needs sorted ids, so
 * this builds a hash on first use) */
long rec_bm25_doc(struct rec_bm25 *x, const char *id, size_t n);

/* jq.c: jq expressions over records (libjq), for rec-rank --by and
 * --where.  A record is converted to jv with its "item" fields. */
struct rec_jq;
/* compiles expr; NULL with the message in err */
struct rec_jq *rec_jq_compile(const char *expr, struct rec_buf *err);
void rec_jq_free(struct rec_jq *q);
/* the first output of the expression on rec: 1 and *num (a number),
 * or for a boolean test *truth; 0 with the message in err */
int rec_jq_number(struct rec_jq *q, const msgpack_object *rec, double *num,
    struct rec_buf *err);
int rec_jq_truth(struct rec_jq *q, const msgpack_object *rec, int *truth,
    struct rec_buf *err);

/* rank.c: fusion and the final ordering (rec-rank).  A candidate is a
 * distinct id of a pool. */
struct rec_cand {
	size_t uid;		/* the id's index in the pool */
	size_t order;		/* first appearance in the pool: ties */
	double score;
	char *why;		/* what this stage did to it, or NULL */
};

enum rec_fuse_mode { REC_FUSE_BEST, REC_FUSE_RRF, REC_FUSE_SUM, REC_FUSE_MAX };

struct rec_fuse_opts {
	enum rec_fuse_mode mode;
	double rrf_k;			/* 60 */
	const char *const *wsrc;	/* weights per source, default 1 */
	const double *w;
	size_t nw;
};

/* One candidate per distinct id of p, scored: REC_FUSE_BEST keeps the
 * best score an id has; RRF sums w / (k + rank) over the sources (told
 * apart by src; rank counts from 1 within each); SUM and MAX combine
 * min-max normalised scores, weighted.  Returns the count; *out is
 * allocated. */
size_t rec_fuse(const struct rec_pool *p, const struct rec_fuse_opts *o,
    struct rec_cand **out);
/* sorts by score, best first; ties keep pool order */
void rec_rank_sort(struct rec_cand *c, size_t n);
/* keeps at most per candidates for each key (NULL keys are free), in
 * order; returns the new count */
size_t rec_rank_cap(struct rec_cand *c, size_t n, char *const *key,
    size_t per);
/* reorders the first k by maximal marginal relevance: lambda times the
 * normalised score minus (1 - lambda) times the highest cosine to those
 * already chosen; vec[i] (dim floats, or NULL) belongs to c[i] */
void rec_rank_mmr(struct rec_cand *c, size_t n, const float *const *vec,
    size_t dim, double lambda, size_t k);

/* semid.c: residual vector quantisation, for semantic IDs */
struct rec_rvq_level {
	double error;		/* mean squared residual / the data's variance */
	double use;		/* share of the codes used */
	double entropy;		/* of the codes, in bits / log2(codes) */
};

/* Quantises n vectors x (n x dim) into levels codes each, k-means with
 * k-means++ seeding per level on the residuals; deterministic for a
 * seed.  Writes the codebook (levels x ncodes x dim), the codes
 * (n x levels) and per-level figures.  progress: report on stderr. */
void rec_rvq_train(const float *x, size_t n, size_t dim, size_t levels,
    size_t ncodes, uint64_t seed, int iters, float *codebook,
    uint16_t *codes, struct rec_rvq_level *stats, int progress);

/* cf.c: collaborative filtering over a sparse user x item matrix */
struct rec_csr {
	uint32_t nrows, ncols;
	uint64_t *ptr;		/* [nrows + 1] */
	uint32_t *idx;		/* columns of each row, ascending, distinct */
};

/* builds m from n (row, col) pairs, dropping repeats */
void rec_csr_build(struct rec_csr *m, uint32_t nrows, uint32_t ncols,
    const uint32_t *row, const uint32_t *col, size_t n);
void rec_csr_transpose(const struct rec_csr *m, struct rec_csr *t);
void rec_csr_free(struct rec_csr *m);

/* ItemKNN: for every item (column of ui) its k nearest items by cosine
 * with shrinkage, |U_i and U_j| / (sqrt(|U_i| |U_j|) + shrink), best
 * first: nbr and sim hold ncols x k, cnt how many each has */
void rec_itemknn_train(const struct rec_csr *ui, size_t k, double shrink,
    uint32_t *nbr, float *sim, uint32_t *cnt, int progress);

/* implicit ALS (Hu, Koren and Volinsky 2008): confidence 1 + alpha for
 * an interaction, preference 1; user factors U (nrows x f) and item
 * factors V (ncols x f), deterministic for a seed */
void rec_als_train(const struct rec_csr *ui, size_t f, int iters,
    double lambda, double alpha, uint64_t seed, float *U, float *V,
    int progress);

/* ease.c: the closed-form item-item model, and the blocked inverse it
 * needs.  rec_spd_inverse inverts the symmetric positive definite
 * n x n matrix A in place (full rows, both triangles read as the lower
 * one); n must be a multiple of rec_spd_size's block; 0 if A is not
 * positive definite. */
size_t rec_spd_size(size_t n);
int rec_spd_inverse(float *A, size_t n, int progress);

/* EASE (Steck 2019): the dense item x item weights B (ld x ld, ld =
 * rec_spd_size(ncols), padding zero), caller frees; item j scores
 * sum of B[i][j] over the items i a user had */
float *rec_ease_matrix(const struct rec_csr *ui, double lambda,
    size_t *ld, int progress);

/* EASE kept sparse: for every item its k largest positive weights to
 * other items, largest first, stored as rec_itemknn_train stores them */
void rec_ease_train(const struct rec_csr *ui, double lambda, size_t k,
    uint32_t *nbr, float *sim, uint32_t *cnt, int progress);
/* the same from a matrix rec_ease_matrix made, for ni items */
void rec_ease_topk(const float *B, size_t ld, size_t ni, size_t k,
    uint32_t *nbr, float *sim, uint32_t *cnt);

/* BPR (Rendle et al. 2009) by stochastic gradient ascent on sampled
 * (user, had, not had) triples, epochs x interactions of them; the last
 * factor is an item bias (the user side holds 1 there), so scores are
 * plain dot products of U (nrows x f) and V (ncols x f) */
void rec_bpr_train(const struct rec_csr *ui, size_t f, int epochs,
    double rate, double reg, uint64_t seed, float *U, float *V,
    int progress);

/* textenc.c: the catalog's own text encoder (PPMI + truncated SVD word
 * vectors, subword buckets for unknown words) */
#define REC_TEXT_BUCKETS 32768
struct rec_textenc {
	size_t dim, ndocs;
	struct rec_hash words;	/* the vocabulary */
	float *wvec;		/* words.n x dim, unit length */
	float *idf;		/* words.n */
	float *gvec;		/* REC_TEXT_BUCKETS x dim, zero where unused */
};
/* a word's vector and idf into vec and *idf, or with w NULL the vector
 * of subword bucket n; 0 when there is none */
typedef int rec_textenc_lookup(void *ctx, const char *w, size_t n,
    float *vec, float *idf);
/* trains e (which the caller frees with rec_textenc_free) from ndocs
 * texts; deterministic for a seed */
void rec_textenc_train(struct rec_textenc *e, const char *const *docs,
    size_t ndocs, size_t dim, uint64_t seed, int progress);
/* encodes text into out (e->dim floats, unit length or all zero),
 * looking words up through look; returns how many words it could read
 * (known, or through their pieces) */
size_t rec_textenc_encode(const struct rec_textenc *e,
    rec_textenc_lookup *look, void *lctx, const char *text, float *out);
/* the lookup over a trained e in memory (lctx is e) */
int rec_textenc_mem(void *ctx, const char *w, size_t n, float *vec,
    float *idf);
void rec_textenc_free(struct rec_textenc *e);

/* batch.c: one command per user, up to max at once, for rec-batch.  A
 * job's standard output is kept whole until it ends (maxout bytes at
 * most: past that it is killed); its standard input is /dev/null and
 * its standard error ours. */
struct rec_job {
	int pid;		/* 0: a free slot */
	int fd;
	char *user;
	struct rec_buf out;
	int status;		/* its wait status, once ended */
	int too_big;
};
struct rec_jobs {
	char **argv;		/* the command; borrowed */
	size_t argc;
	const char *placeholder;	/* replaced by the user; NULL: the
					 * user is the last argument */
	size_t max, n, maxout;
	struct rec_job *job;
};
/* set from a signal handler: rec_jobs_wait returns NULL */
extern volatile sig_atomic_t rec_jobs_stop;
void rec_jobs_init(struct rec_jobs *j, char **argv, size_t argc,
    const char *placeholder, size_t max, size_t maxout);
/* forks and runs argv (found on PATH) with in and out as its standard
 * input and output, which the parent then closes; its standard error
 * is ours.  A command that cannot be run says why and exits 127. */
pid_t rec_spawn(char *const *argv, int in, int out);
/* starts the command for user; needs j->n < j->max */
void rec_jobs_start(struct rec_jobs *j, const char *user);
/* waits for a job to end and returns it (read it, then release it);
 * NULL when none is running or rec_jobs_stop was set */
struct rec_job *rec_jobs_wait(struct rec_jobs *j);
void rec_jobs_release(struct rec_jobs *j, struct rec_job *job);
/* ends every running job (SIGTERM) and waits for it */
void rec_jobs_kill(struct rec_jobs *j);
void rec_jobs_free(struct rec_jobs *j);
int rec_jobs_ok(const struct rec_job *job);
/* appends how a failed job failed: "failed with status 1" */
void rec_jobs_describe(struct rec_buf *b, const struct rec_job *job);

/* plan.c: a request in plain words -> a formatted intent -> a plan of
 * rec tools (OMuleT's intent, then a fixed policy) */
#define REC_MAXC 16
struct rec_cons {
	char col[64];		/* an items column */
	char op[3];		/* > >= < <= = */
	double v;
	char say[64];		/* how to say it: "from 2015 on" */
};

struct rec_strs {
	char **v;
	size_t n;
};

struct rec_intent {
	struct rec_strs liked_items, liked_creators, disliked_items,
	    disliked_creators, tags, disliked_tags, words, shown;
	struct rec_strs boost;	/* items the profile likes: a mild boost */
	struct rec_strs wanted;	/* items asked for by title: "add X" */
	struct rec_strs earlier_creators; /* named in earlier turns */
	int taste;		/* the message states a taste: 1 like, -1 not */
	struct rec_cons cons[REC_MAXC];
	int ncons;
	int popular;		/* 1 popular, -1 not mainstream */
	int k;
	char *user;
	struct rec_buf said;	/* what was understood, for the reply */
};

/* The catalog knowledge the planner links words to, loaded once. */
struct rec_kb {
	char *catalog;
	struct rec_hash creator;	/* folded name -> index in cname */
	char **cname;			/* the catalog's spelling */
	struct rec_hash title;		/* folded title -> index in tid */
	char **tid;			/* its most popular item */
	struct rec_hash tag;		/* folded tag values */
	unsigned *tagcount;		/* items with each tag */
	size_t nitems;
	char *c_title, *c_creator, *c_pop, *c_year, *c_date;
	char **c_tags;			/* the tags and category columns */
	int *c_tags_list;		/* which hold JSON lists */
	size_t nc_tags;
	int has_tempo, has_duration, has_valence, has_energy,
	    has_dance, has_acoustic, has_instrumental;
	int maxyear;
	int has_knn, has_bm25;
	char *semid_space;
	char *dense_space;		/* audio, or the first space */
	char *text_space;		/* a space embedded by a server */
};

struct rec_kb *rec_kb_load(const char *catalog);
void rec_kb_free(struct rec_kb *kb);

/* Parses message (with the previous turn's intent and shown items for
 * references, or NULL) into in. */
void rec_intent_parse(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, struct rec_intent *in);
void rec_intent_free(struct rec_intent *in);
/* the intent from its JSON form (as rec_intent_json writes it) */
void rec_intent_from(struct rec_intent *in, const msgpack_object *o);
void rec_intent_add_shown(struct rec_intent *in, const char *id);
/* adds v to s unless it is there; copies it */
void rec_strs_add(struct rec_strs *s, const char *v);
/* appends n bytes of v, repeats and all */
void rec_strs_push(struct rec_strs *s, const char *v, size_t n);
void rec_strs_free(struct rec_strs *s);
/* A long-term profile (InteRecAgent's like / dislike / expect facets), a
 * JSON file: {"like":{"items":[],"creators":[],"tags":[]},"dislike":
 * {...},"expect":{"creators":[],"tags":[]}}; expect holds what the
 * person asks for, and fills a request with nothing to go on */
struct rec_profile {
	struct rec_strs like_items, like_creators, like_tags,
	    dislike_items, dislike_creators, dislike_tags;
	struct rec_strs expect_creators, expect_tags;	/* asked for, newest
							 * first */
};
void rec_profile_load(struct rec_profile *pf, const char *path);
/* writes it atomically; dies on a write error */
void rec_profile_save(const struct rec_profile *pf, const char *path);
void rec_profile_free(struct rec_profile *pf);
/* takes the taste the message states into the profile (1 if changed),
 * and the profile's dislikes and likes into the intent */
int rec_profile_learn(struct rec_profile *pf, const struct rec_intent *in);
void rec_profile_apply(const struct rec_profile *pf, struct rec_intent *in);

/* The intent from the model (REC_LLM_URL), each name, tag, column and
 * value checked against the catalog and repaired where it can be; what
 * cannot is sent back to the model with the problems, at most twice;
 * then the rules.  demos: a JSONL file of {"request","intent"} pairs,
 * the three most like the message go in the prompt (or NULL).  0 when
 * the model's intent is used, -1 after falling back; log says what
 * happened. */
int rec_intent_model(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, const char *demos, struct rec_intent *in,
    struct rec_buf *log);

/* the last turn's intent of a session file (rec-chat's), with every
 * item shown so far; 0 when there is no file or no turn */
int rec_session_last(const char *path, struct rec_intent *prev, int *turns);
void rec_intent_json(struct rec_buf *b, const struct rec_intent *in);
/* drops the constraint that narrows most (the last one added); returns
 * what was relaxed, or NULL when there is none */
const char *rec_intent_relax(struct rec_intent *in, struct rec_buf *note);

struct rec_stage {
	char **argv;
	int argc;
};

struct rec_plan {
	struct rec_stage *src;	/* run one after another into one stream */
	size_t nsrc;
	struct rec_stage *filt;	/* then each in turn */
	size_t nfilt;
	char *ask;		/* a question back instead of a plan */
};

void rec_plan_make(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_plan *p);
/* appends the intent's constraints as an SQL condition (none: nothing) */
void rec_intent_where(const struct rec_intent *in, struct rec_buf *b);
void rec_plan_free(struct rec_plan *p);
/* a POSIX shell command line, every argument quoted */
void rec_plan_shell(struct rec_buf *b, const struct rec_plan *p);
void rec_plan_json(struct rec_buf *b, const struct rec_plan *p);
void rec_shell_quote(struct rec_buf *b, const char *s);

/* run.c: runs a plan without a shell: the rec tools from bindir, stdin
 * of the sources /dev/null, msgpack between stages; the last stage's
 * output in out, every stage's standard error in err.  0, or -1 when a
 * stage failed (err says which). */
int rec_plan_run(const struct rec_plan *p, const char *bindir,
    const char *catalog, struct rec_buf *out, struct rec_buf *err);
/* the REC_TRACE lines of the last rec_plan_run, one JSON object per
 * stage in the order they ended */
const char *rec_plan_trace(void);
/* from the trace: the first stage that had records and wrote none, as
 * "rec-sql (-w ...) kept none of 284", or NULL */
char *rec_plan_emptied(void);

/* respond.c: the reply a person reads, from the final candidates */
void rec_respond(struct rec_kb *kb, const struct rec_intent *in,
    const char *records, size_t len, const char *notes,
    struct rec_buf *reply, struct rec_buf *items_json);

/* llm.c: an OpenAI-compatible chat completion through libcurl, from
 * REC_LLM_URL (the base URL), REC_LLM_MODEL, REC_LLM_KEY and
 * REC_LLM_TIMEOUT (seconds).  messages is a JSON array.  0 and the
 * assistant's content in out, or -1 with the reason in err. */
int rec_llm_chat(const char *messages, struct rec_buf *out,
    struct rec_buf *err);
/* Embeddings of n texts from REC_LLM_URL's /embeddings (model
 * REC_EMBED_MODEL, else REC_LLM_MODEL): 0 with *out (n x *dim floats,
 * caller frees), or -1 with err */
int rec_llm_embed(const char *const *texts, size_t n, float **out,
    size_t *dim, struct rec_buf *err);
/* 1 if a model is configured */
int rec_llm_enabled(void);

/* respond.c, with a model: the model writes an intro and a note per
 * numbered item, rec renders the list from the catalog, so the reply
 * names only the items it was given.  Falls back to rec_respond; 0 when
 * the model's words are used.  log says what happened. */
int rec_respond_model(struct rec_kb *kb, const struct rec_intent *in,
    const char *request, const char *records, size_t len, const char *notes,
    struct rec_buf *reply, struct rec_buf *items, struct rec_buf *log);

/* dense.c: exact top-k by inner product or cosine over a row-major
 * matrix (n x dim floats), close to memory bandwidth; and an IVF index
 * (k-means lists, nprobe of them searched) for large spaces. */
struct rec_dense_hit {
	uint32_t row;
	float score;
};
/* scores every row (rows with allow[row] == 0 are skipped when allow is
 * given); norms: 1/|row| per row for cosine, or NULL for inner product;
 * best k into out, best first, ties to the lower row; returns how many */
size_t rec_dense_topk(const float *m, size_t n, size_t dim, const float *q,
    const float *invnorm, const unsigned char *allow, size_t k,
    struct rec_dense_hit *out);

struct rec_ivf {
	size_t nlist, dim;
	float *centroid;	/* nlist x dim */
	uint32_t *list;		/* rows, grouped by list */
	size_t *start;		/* [nlist + 1] into list */
	float *data;		/* the rows in list order: scans stay
				 * sequential */
};
void rec_ivf_build(struct rec_ivf *ix, const float *m, size_t n, size_t dim,
    size_t nlist, uint64_t seed);
/* invnorm is indexed by the original row; the index keeps its own copy
 * of the rows in list order */
size_t rec_ivf_search(const struct rec_ivf *ix, const float *q,
    const float *invnorm, size_t nprobe, size_t k,
    struct rec_dense_hit *out);
void rec_ivf_free(struct rec_ivf *ix);

/* table.c: rows of named columns from CSV, TSV or JSONL.  A cell holds
 * zero values (null), one, or several (a JSON array; a split field),
 * each NUL-terminated one after the other in val[i]. */
struct rec_table {
	int kind;		/* 'c' CSV, 't' TSV, 'j' JSONL */
	FILE *fp;
	const char *name;
	struct rec_csv csv;
	char **col;		/* column names */
	size_t ncol;
	struct rec_hash colidx;
	struct rec_buf *val;	/* per column, this row */
	size_t *nval;
	unsigned char *array;	/* JSONL: the column held an array */
	size_t capcol;
	unsigned long line;
	struct rec_buf err;
	struct rec_buf pack, jerr;
	char *line_buf;
	size_t line_cap;
	const char *const *nulls;	/* values read as null */
};

/* kind 0 picks from the name's extension; dies when it cannot open */
void rec_table_open(struct rec_table *t, const char *path, int kind,
    int latin1, const char *const *nulls);
void rec_table_close(struct rec_table *t);
/* 1 row, 0 end, -1 error that ends the input, -2 bad row (skippable) */
int rec_table_next(struct rec_table *t);
/* column index or (size_t)-1 */
size_t rec_table_col(const struct rec_table *t, const char *name);
/* the first value of column i, or NULL when null */
const char *rec_table_get(const struct rec_table *t, size_t i);

/* catalog.c */
#include <sqlite3.h>
/* opens the catalog named by path, else REC_DB, read-only; dies with a
 * clear message when it is missing or not a rec catalog */
sqlite3 *rec_catalog_open(const char *path);
const char *rec_catalog_path(const char *path);
/* Opens a temporary copy of the catalog at path for writing (a new empty
 * one when fresh; an existing catalog is refused unless force), in a
 * transaction; rec_catalog_save() renames it into place.  A failure or a
 * signal before that removes the copy, leaving the catalog as it was. */
sqlite3 *rec_catalog_edit(const char *path, int fresh, int force);
void rec_catalog_save(sqlite3 *db);
/* creates the tables of an empty catalog (all but items) */
void rec_catalog_schema(sqlite3 *db);
/* runs sql, dying with what on error */
void rec_sql_exec(sqlite3 *db, const char *sql, const char *what);
extern const char *const rec_roles[];
/* the dimension of a vector space of the catalog, or 0 if it has none */
int rec_catalog_space(sqlite3 *db, const char *space);
/* the columns whose text rec-bm25 indexes and rec-train text learns
 * from (roles title, creator, collection, tags, text, category), in
 * catalog order: *names holds them and a NULL (room for one more);
 * returns how many.  The caller frees each and the array. */
size_t rec_text_columns(sqlite3 *db, char ***names);
/* textenc.c: an encoder rec-train text wrote into the catalog as space: e holds
 * its dimension and document count (no words: those are looked up one
 * at a time through rec_textenc_db_lookup, ctx x); 0 when space is not
 * one */
struct rec_textenc_db {
	struct rec_textenc e;
	sqlite3_stmt *word, *piece;
};
int rec_textenc_db_open(struct rec_textenc_db *x, sqlite3 *db,
    const char *space);
int rec_textenc_db_lookup(void *ctx, const char *w, size_t n, float *vec,
    float *idf);
void rec_textenc_db_close(struct rec_textenc_db *x);
/* the vector of id in space into out (dim floats); 0 if it has none */
int rec_catalog_vector(sqlite3 *db, const char *space, const char *id,
    size_t idlen, float *out, int dim);
/* the column with this role (the first one), or NULL; caller frees */
char *rec_catalog_role(sqlite3 *db, const char *role);

/* sql.c: the guard and the help around queries from people and models */
/* Allows reads and functions only, from now on, and stops any statement
 * after timeout_ms.  rec_sql_refusal() says why a statement was denied. */
void rec_sql_readonly(sqlite3 *db, long timeout_ms);
const char *rec_sql_refusal(void);
/* lifts the guard (on) for rec's own queries, and puts it back */
void rec_sql_trusted(sqlite3 *db, int on);
/* has(list, value): a JSON list column holds value (folded);
 * norm(text): text folded as rec_norm() does */
void rec_sql_functions(sqlite3 *db);
/* Turns a failed prepare into a message a planner can act on: unknown
 * columns get the closest names.  Appends to msg. */
void rec_sql_explain(sqlite3 *db, struct rec_buf *msg);
/* The closest values of text column col to value (folded edit distance,
 * containment), best first, at most max, as a NUL-separated list in
 * out; returns how many. */
size_t rec_sql_closest_values(sqlite3 *db, const char *col,
    const char *value, size_t max, struct rec_buf *out);
/* 1 if col is an items column, with *list set when it holds lists */
int rec_catalog_column(sqlite3 *db, const char *col, int *list,
    char *type, size_t typesz);
void rec_sqlite_die(sqlite3 *db, const char *what) __attribute__((noreturn));

/* chat.c: a turn of the conversation once its intent is known */
struct rec_turn {
	struct rec_plan plan;
	struct rec_buf out;	/* the candidate records of the plan */
	struct rec_buf err, reply, items, notes, emptied, violated, shell;
	int failed;
};
/* where the rec tools are: $REC_BIN, else beside this program; caller
 * frees */
char *rec_bindir(void);
/* how many records p[0..n) holds; each one is added to in's shown
 * items when in is not NULL */
size_t rec_records_count(const char *p, size_t n, struct rec_intent *in);
/* plans and runs in (relaxing it at most twice when the list comes out
 * short, which changes in), drops items that break its constraints,
 * and with respond writes the reply and its items (adding them to in's
 * shown).  t must be zeroed; free it with rec_turn_free. */
void rec_chat_answer(struct rec_kb *kb, const char *dbpath, const char *bin,
    const char *msg, struct rec_intent *in, int respond, struct rec_turn *t,
    struct rec_buf *mlog);
void rec_turn_free(struct rec_turn *t);

/* eval.c: rec-bench(5) conversations, and the metrics of rec-eval */
struct rec_conv_turn {
	char *user, *assistant;
	struct rec_strs shown, liked, disliked, targets;
};
struct rec_conv {
	char *id, *user;
	struct rec_conv_turn *turn;
	size_t nturns;
	struct rec_hash same;	/* ids that have a canonical one */
	struct rec_strs same_to;	/* by the index in same */
};
/* parses one line; -1 and a message in err (without a position) */
int rec_conv_parse(struct rec_conv *c, const char *line, size_t n,
    struct rec_buf *err);
/* id, or the canonical id "same" maps it to; borrowed */
const char *rec_conv_canon(const struct rec_conv *c, const char *id);
/* the canonical ids shown or liked in the turns before turn t, into h */
void rec_conv_before(const struct rec_conv *c, size_t t, struct rec_hash *h);
/* the targets of turn t less what was shown or liked before it,
 * canonical and distinct, appended to out; returns how many */
size_t rec_conv_targets(const struct rec_conv *c, size_t t,
    struct rec_strs *out);
void rec_conv_free(struct rec_conv *c);

#define REC_MAXK 8
/* one point's accuracy at each cut-off ks[0] < ks[1] < ... */
struct rec_point_score {
	double hit[REC_MAXK], recall[REC_MAXK], ndcg[REC_MAXK], mrr[REC_MAXK];
};
void rec_point_score(const struct rec_strs *list, const struct rec_strs *targets,
    const size_t *ks, size_t nk, struct rec_point_score *ps);

#endif
