/*
 * stream.h: candidate records: JSONL and msgpack streams, in memory pools
 *
 * Ownership is stated once, in core.h, for every rec header.
 */
#ifndef REC_STREAM_H
#define REC_STREAM_H

#include "core.h"

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
	size_t maxrec;		/* REC_MAX_RECORD, bytes (16 to 1 GiB) */
	unsigned long line;	/* JSONL: line of the last record */
	unsigned long nrec;	/* records read */
	unsigned long long off;	/* msgpack: byte offset of the record */
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
 * bad input with "NAME:LINE: problem" (JSONL) or "NAME: byte OFFSET:
 * problem" (msgpack) in r->err.  A record read is a map with a string
 * id, a finite score if any, a string src if any, valid UTF-8 in every
 * string and no NaN or infinity anywhere. */
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

/* Packs "why" and its value: the reasons old gave (a string or a list;
 * NULL: none), then why (NULL: none); nothing when both are NULL */
void rec_pack_why(msgpack_packer *pk, const msgpack_object *old,
    const char *why);

/* Packs a record scored by stage src: id, score, src, "scores" (the
 * earlier stages' scores kept, src's set), "why" (the new reason added
 * to the earlier ones; NULL adds none), then every other key of orig
 * (NULL for a new record). */
void rec_pack_scored(msgpack_packer *pk, const msgpack_object *orig,
    const char *id, size_t idlen, double score, const char *src,
    const char *why);

/* pool semantics: 1 if standard input is a pipe, socket or file */
int rec_stdin_is_pool(void);

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
	size_t capids;		/* room in first and last */
};

/* reads all of r into p (dies on bad input) */
void rec_pool_read(struct rec_pool *p, struct rec_reader *r);
void rec_pool_free(struct rec_pool *p);
/* adds one record (read by rec_read) at the end of p, which is zeroed
 * or made by rec_pool_read; rec_pool_reset empties p, keeping its
 * memory */
void rec_pool_add(struct rec_pool *p, const struct rec_record *rec);
void rec_pool_reset(struct rec_pool *p);
/* Writes a record scored by stage src: with a pool, every pool record
 * of id (keys kept, scores merged) while room lasts; without, a new
 * record.  Returns how many were written. */
size_t rec_write_scored(struct rec_writer *w, const struct rec_pool *pool,
    const char *id, size_t idlen, double score, const char *src,
    const char *why, size_t room);
/* Writes distinct id uid of the pool as one record of stage src (after
 * fusion, say): the keys of its first record, then id, score and src;
 * "scores" with every other stage's score found in any record of the
 * id (under "scores", or as its src and score; the first of each name)
 * and src's; "why" with the first record's reasons and why (NULL adds
 * none). */
void rec_write_fused(struct rec_writer *w, const struct rec_pool *pool,
    size_t uid, double score, const char *src, const char *why);
/* unpacks record i into obj, using zone */
void rec_pool_get(const struct rec_pool *p, size_t i, msgpack_zone *zone,
    msgpack_object *obj);
/* record i's src (len bytes, in zone), or NULL when it has none */
const char *rec_pool_src(const struct rec_pool *p, size_t i,
    msgpack_zone *zone, size_t *len);

/* group.c: grouped streams (rec-candidates(5)): every record carries
 * the group key, a string naming its list (a user, say); the records of
 * a group are together, and a group seen again after another one is an
 * error.  E.g. ranking each group of a stream on its own:
 *   rec_groups_init(&g, &r, "user");
 *   while (rec_groups_pool(&g, &pool))
 *           rank(&pool, g.value.data, g.value.len);
 * A tool without a group key reads the same stream as one list. */
struct rec_groups {
	struct rec_reader *r;	/* borrowed */
	const char *key;	/* borrowed: the group key */
	size_t keylen;
	struct rec_buf value;	/* the value of the group rec_groups_pool
				 * read last */
	unsigned long ngroups;	/* groups begun so far */
	/* the rest is the reading's own */
	struct rec_buf cur, prev, held, arena;
	int started, have_held, ended;
	size_t held_idat, held_idlen;
	double held_score;
	size_t *voff, *slot, nseen, cap, nslot;
	uint32_t *vlen;
	uint64_t *hash;
};
void rec_groups_init(struct rec_groups *g, struct rec_reader *r,
    const char *key);
void rec_groups_free(struct rec_groups *g);
/* Checks rec, just read from g's reader, against the groups: 1 when it
 * begins a group, 0 when it belongs to the current one.  Dies with the
 * record's place ("stdin:17: ...") when it has no group key, when the
 * key is not a string, or when it names a group that ended before. */
int rec_groups_check(struct rec_groups *g, const struct rec_record *rec);
/* Reads the next group into p (emptied first; zeroed the first time):
 * 1 with its value in g->value, or 0 at the end of the stream.  Dies on
 * bad input as rec_next and rec_groups_check do. */
int rec_groups_pool(struct rec_groups *g, struct rec_pool *p);

#endif
