/*
 * retrieve.h: the retrievers and the ranker: BM25, dense vectors (and the
 * space file), semantic IDs, collaborative filtering, the text encoder,
 * fusion and reranking (the ranker of rec-rank)
 *
 * Ownership is stated once, in core.h, for every rec header.
 */
#ifndef REC_RETRIEVE_H
#define REC_RETRIEVE_H

#include <sys/stat.h>

#include "stream.h"
#include "catalog.h"

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

/* 0, or -1 with a message in err */
int rec_bm25_open(struct rec_bm25 *x, const char *path, struct rec_buf *err);
void rec_bm25_close(struct rec_bm25 *x);
/* the field's index, or -1 */
int rec_bm25_field_index(const struct rec_bm25 *x, const char *name);
/* the term's index in field f, or -1 */
long rec_bm25_term(const struct rec_bm25 *x, int f, const char *t,
    size_t n);
/* the terms of field f that begin with t[0..n): how many, the first
 * at *first (the index keeps its terms sorted) */
uint32_t rec_bm25_prefixed(const struct rec_bm25 *x, int f, const char *t,
    size_t n, uint32_t *first);
/* the closest term to t within edit distance 1 (short) or 2, preferring
 * the most frequent; -1 if none */
long rec_bm25_closest_term(const struct rec_bm25 *x, int f, const char *t,
    size_t n);
/* Top k documents for the terms (indexes; repeats count again) in
 * field f, best first, ties to the lower document (out[i].index):
 * disjunctive (any term) or conjunctive (all); exhaustive or with
 * MaxScore pruning, which gives the same list.  Returns how many; out
 * has room for k. */
size_t rec_bm25_search(const struct rec_bm25 *x, int f, const long *terms,
    size_t nterms, int conjunctive, double k1, double b, size_t k,
    int exhaustive, struct rec_scored *out);
/* the score of one document (0 when no term matches) */
double rec_bm25_score_doc(const struct rec_bm25 *x, int f, const long *terms,
    size_t nterms, double k1, double b, uint32_t doc);
/* the document with this id, or -1 (binary search needs sorted ids, so
 * this builds a hash on first use) */
long rec_bm25_doc(struct rec_bm25 *x, const char *id, size_t n);

/* space.c: a vector space of the catalog as a file beside it,
 * CATALOG.dense.SPACE (rec-dense --index), memory-mapped by queries
 * while the catalog keeps the size and mtime it was written for; or the
 * same arrays read from the catalog.  Ids ascend (strcmp order). */
struct rec_space {
	float *m;		/* n x dim */
	char *chars;		/* the ids, each ended by a NUL */
	uint64_t *off;		/* [n]: id i is chars + off[i] */
	size_t n;
	void *map;		/* the mapped file, or NULL: read, owned */
	size_t mapsz;
};
/* the file cat.kind.name beside the catalog cat (caller frees), or NULL
 * when name cannot be a file name (letters, digits, _ . - only): where
 * a space's vectors and a model's neighbours are kept */
char *rec_side_path(const char *cat, const char *kind, const char *name);
/* a file's modification time in nanoseconds: what a side file records
 * of the catalog it was written for */
int64_t rec_mtime_ns(const struct stat *sb);
/* the file of space beside cat: rec_side_path(cat, "dense", space) */
char *rec_space_path(const char *cat, const char *space);
/* reads the vectors of space that have dim floats (dies on SQL errors) */
void rec_space_read(sqlite3 *db, const char *space, int dim,
    struct rec_space *sp);
/* maps the file of space when it is there, of dimension dim, whole, and
 * written for cat as it is now: 0, or -1 (sp empty: read it instead) */
int rec_space_map(const char *cat, const char *space, int dim,
    struct rec_space *sp);
/* writes sp as the file path, whole or not at all, stamped with the
 * catalog's size and mtime from cat: 0, or -1 with errno */
int rec_space_write(const struct rec_space *sp, int dim, const char *path,
    const struct stat *cat);
/* the row of id, or (size_t)-1 (binary search) */
size_t rec_space_row(const struct rec_space *sp, const char *id);
void rec_space_free(struct rec_space *sp);

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

/* fuse.c: fusion and the final ordering (rec-rank; rank.c holds the
 * ranker below, which runs them with the catalog).  A candidate is a
 * distinct id of a pool. */
struct rec_cand {
	struct rec_scored r;	/* its score, and its first record in the
				 * pool (ties go to the earlier) */
	size_t uid;		/* the id's index in the pool */
	char *why;		/* what this stage did to it, or NULL */
	unsigned reasons;	/* the ranker's reasons, written into why
				 * only for the candidates kept */
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
/* keeps at most per candidates for each key (key[i] is c[i]'s as
 * given; NULL keys are free), in order, compacting c in place and
 * freeing the why of those dropped; returns the new count */
size_t rec_rank_cap(struct rec_cand *c, size_t n, char *const *key,
    size_t per);
/* reorders the first k by maximal marginal relevance: lambda times the
 * normalised score minus (1 - lambda) times the highest cosine to those
 * already chosen; vec[i] (dim floats, or NULL) belongs to c[i] */
void rec_rank_mmr(struct rec_cand *c, size_t n, const float *const *vec,
    size_t dim, double lambda, size_t k);

/* The ranker of rec-rank, stage by stage: fusion (with a fusion mode,
 * why says where each stream ranked an item); removals (unwanted, the
 * seen user's history, where); by; boosts on scores scaled to 0..1
 * (user, like, novelty); the sort; one record per song (unique);
 * per-value caps (diversify); MMR over space for the first limit; the
 * cut to limit. */
struct rec_rank_opts {
	struct rec_fuse_opts fuse;
	const char *user;	/* favour what this user's history favours */
	double personal;	/* by this much (0.3) */
	const char *seen_user;	/* drop what this user already has */
	struct rec_strs like;	/* favour items like these */
	double like_weight;	/* by this much (0.3) */
	struct rec_strs unwanted;	/* drop these ids */
	double novelty;		/* 0..1: trade relevance for the less known */
	const char *unique;	/* FIELD,...: the best of each such song */
	const char *diversify;	/* FIELD: at most per items per value */
	size_t per;		/* (1) */
	struct rec_strs alternate;	/* sources whose best come in turn */
	double mmr;		/* lambda of MMR over space; < 0: none */
	const char *space;
	struct rec_jq *by;	/* the score from a jq expression */
	struct rec_jq *where;	/* keep the records it holds true for */
	size_t limit;		/* at most this many; (size_t)-1: all */
};
struct rec_ranker;
/* A ranker with the options o (copied; the lists are borrowed, by and
 * where taken: the ranker frees them) over the catalog db (borrowed;
 * NULL when no option needs one: user, seen_user, like, novelty,
 * unique, diversify and space do).  Reads the catalog's roles and
 * prepares unique's statement before any input is read, so that a
 * field the catalog lacks is a usage error at once; dies when novelty
 * finds no popularity column. */
struct rec_ranker *rec_ranker_new(const struct rec_rank_opts *o,
    sqlite3 *db);
/* Ranks the pool p: returns how many candidates are left, at most
 * limit, best first, in *out (allocated; the caller frees each why and
 * the array).  Dies on a jq error or a user without history. */
size_t rec_ranker_rank(struct rec_ranker *r, const struct rec_pool *p,
    struct rec_cand **out);
/* the user of --user and of --exclude-seen from now on (borrowed;
 * NULL: none), for a grouped stream ranked list by list; a ranker made
 * without either has no catalog to read them from */
/* A cut list (rec-cf --cut, rec-candidates(5)): the next pool holds the
 * best records of a longer list, then its last (the lowest score), and
 * those left out between scored at most cut.  rec_ranker_rank then says
 * through rec_ranker_sure whether its list is the longer one's for sure:
 * whether none of those left out could have come into the first limit
 * (stages that read every record, fusion, by, where and mmr, never
 * are).  has 0: the next pool is whole. */
void rec_ranker_cut(struct rec_ranker *r, int has, double cut);
/* 1: the last list ranked is the one the whole pool gives; 0: it was
 * cut, and those left out might have changed it */
int rec_ranker_sure(const struct rec_ranker *r);
void rec_ranker_user(struct rec_ranker *r, const char *user,
    const char *seen_user);
void rec_ranker_free(struct rec_ranker *r);

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

/* cfusers.c: a model of rec-train held in memory, to score many users
 * in one process (rec-cf --users), each user's list the one that
 * scoring the user alone gives: the same sums in the same order, ties
 * the same way.  Item-item models (itemknn, ease): the neighbours of
 * item i are nbr/sim[first[i] .. first[i] + count[i]) by rank (first
 * (uint64_t)-1: none).  Factor models (als, bpr): V holds n x dim
 * floats, in the order of the catalog's table. */
struct rec_cf_model {
	struct rec_hash ids;	/* the model's items, by index */
	size_t n, dim;		/* dim 0: item-item */
	uint64_t *first, nnz;
	uint32_t *count, *nbr, *from;
	double *sim;
	float *V;
	void *map;		/* the model's file, mapped (first, count,
				 * nbr and sim point into it), or NULL */
	size_t mapsz;
};
/* loads model (of kind itemknn, ease, als or bpr) from the catalog; an
 * item-item model from its file beside the catalog (CATALOG.cf.MODEL)
 * when that was written for the catalog as it is now; dies when it
 * cannot */
void rec_cf_model_load(struct rec_cf_model *m, struct rec_catalog *cat,
    const char *model, const char *kind);
void rec_cf_model_free(struct rec_cf_model *m);
/* the file of an item-item model beside the catalog cat (caller frees),
 * or NULL when the model's name cannot be a file name */
char *rec_cf_model_path(const char *cat, const char *model);
/* writes the file of every item-item model of the catalog at path (as
 * rec-train leaves it), each whole or not at all, stamped with the
 * catalog's size and mtime; returns how many, or -1 with errno (the
 * catalog changed meanwhile: EAGAIN) */
int rec_cf_model_index(const char *path);

/* one item of a user's list: the model's item, its score, and for an
 * item-item model the user's item (the index among the seeds) that
 * gave the largest part of it */
struct rec_cf_hit {
	uint32_t item, seed;
	double score;
};
struct rec_cf_scorer;
/* a user's items as indexes of the model, each once, in the order they
 * were added (those the model does not know left out); all counts every
 * item added, known or not */
struct rec_cf_seeds {
	uint32_t *ix;
	size_t n, cap, all;
};
/* empties s for the next user's items */
void rec_cf_seeds_reset(struct rec_cf_scorer *c, struct rec_cf_seeds *s);
void rec_cf_seeds_add(struct rec_cf_scorer *c, struct rec_cf_seeds *s,
    const char *id, size_t len);
/* a scorer of the best k per user over m (borrowed), block users at a
 * time for a factor model */
struct rec_cf_scorer *rec_cf_scorer_new(const struct rec_cf_model *m,
    size_t k, size_t block);
void rec_cf_scorer_free(struct rec_cf_scorer *c);
/* With a novelty above 0, the best k are scored again by rec_cf_blend,
 * with pct[i] the share of the catalog less popular than the model's
 * item i (rec_popshare), and the list is in that order (ties to the
 * higher model score, then as before).  With a cut N and a list longer
 * than N + 1, only the first N are in order, then the best of the rest,
 * and the worst of the rest is last: those in between come in no order.
 * rec-cf --novelty and --cut. */
void rec_cf_scorer_order(struct rec_cf_scorer *c, double novelty,
    const double *pct, size_t cut);
/* (1 - novelty) of score scaled to 0..1 between lo and hi (1 when they
 * are equal), plus novelty times the share of items more popular,
 * 1 - pct */
double rec_cf_blend(double score, double lo, double hi, double novelty,
    double pct);
/* Item-item: the best k items for a user who has the items seeds (in
 * the order the catalog lists them), leaving those out, into out (room
 * for k), best first (ties to the item met first); returns how many. */
size_t rec_cf_score_items(struct rec_cf_scorer *c,
    const struct rec_cf_seeds *seeds, struct rec_cf_hit *out);
/* Factors: the best k items for each of nu users (users[u]: dim floats;
 * seeds[u]: their items, left out), into out[u] (room for k), best
 * first, their count in nout[u]. */
void rec_cf_score_factors(struct rec_cf_scorer *c, const float *const *users,
    const struct rec_cf_seeds *const *seeds, size_t nu, struct rec_cf_hit **out,
    size_t *nout);

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

/* dense.c: exact top-k by inner product or cosine over a row-major
 * matrix (n x dim floats), close to memory bandwidth; and an IVF index
 * (k-means lists, nprobe of them searched) for large spaces.  A hit's
 * index is its row; its score a float's value. */
/* scores every row (rows with allow[row] == 0 are skipped when allow is
 * given); norms: 1/|row| per row for cosine, or NULL for inner product;
 * best k into out, best first, ties to the lower row; returns how many */
size_t rec_dense_topk(const float *m, size_t n, size_t dim, const float *q,
    const float *invnorm, const unsigned char *allow, size_t k,
    struct rec_scored *out);

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
    struct rec_scored *out);
void rec_ivf_free(struct rec_ivf *ix);

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

#endif
