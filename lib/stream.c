/*
 * stream.c: reading and writing candidate records (rec-candidates(5)).
 *
 * Input is detected from its first byte: '{' (or white space) starts
 * JSONL, a msgpack map header starts msgpack.  Both are read
 * incrementally through one buffer, so a stream of any length works in
 * bounded memory; one record may be at most REC_MAX_RECORD bytes.
 * Every record is held as msgpack bytes plus its parsed map, so a tool
 * handles both encodings with one code path.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream.h"

#define READSZ (1 << 20)
#define FLUSHSZ (1 << 16)
#define DEFAULT_MAXREC ((size_t)256 << 20)
/* REC_MAX_RECORD's range: the buffer holds maxrec + 1 bytes, so the
 * largest must leave that sum far from overflow */
#define MIN_MAXREC ((size_t)16)
#define MAX_MAXREC ((size_t)1 << 30)

void
rec_reader_init(struct rec_reader *r, int fd, const char *name)
{
	memset(r, 0, sizeof *r);
	r->fd = fd;
	r->name = name;
	r->maxrec = rec_env_size("REC_MAX_RECORD", DEFAULT_MAXREC, MIN_MAXREC,
	    MAX_MAXREC);
	r->cap = r->maxrec < READSZ ? r->maxrec + 1 : READSZ;
	r->buf = xmalloc(r->cap);
	msgpack_zone_init(&r->zone, 4096);
}

void
rec_reader_init_mem(struct rec_reader *r, const char *data, size_t len,
    const char *name)
{
	rec_reader_init(r, -1, name);
	r->mem = data;
	r->memlen = len;
}

void
rec_reader_free(struct rec_reader *r)
{
	free(r->buf);
	rec_buf_free(&r->pack);
	rec_buf_free(&r->err);
	msgpack_zone_destroy(&r->zone);
}

/* The message for a bad record: where it is, then what is wrong.  JSONL
 * names the line ("stdin:17: ..."), msgpack the byte offset ("stdin:
 * byte 99: ..."), of the record or, with at, of the bad byte. */
static int __attribute__((format(printf, 3, 4)))
rerr_at(struct rec_reader *r, unsigned long long at, const char *fmt, ...)
{
	va_list ap;
	char msg[256];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	rec_buf_reset(&r->err);
	if (r->format == REC_FMT_MSGPACK)
		rec_buf_printf(&r->err, "%s: byte %llu: %s", r->name, at, msg);
	else
		rec_buf_printf(&r->err, "%s:%lu: %s", r->name, r->line, msg);
	return -1;
}

#define rerr(r, ...) rerr_at((r), (r)->off, __VA_ARGS__)

/* Reads more input, moving the unread bytes to the front and growing
 * the buffer when it is full.  0, or -1 on a read error. */
static int
fill(struct rec_reader *r)
{
	ssize_t n;

	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->end == r->cap) {
		size_t cap = r->cap * 2;
		if (cap > r->maxrec + 1)
			cap = r->maxrec + 1;
		if (cap <= r->cap)
			return 0;	/* caller reports the limit */
		r->buf = xrealloc(r->buf, cap);
		r->cap = cap;
	}
	if (r->fd < 0) {
		/* memory input, in small pieces to exercise refills */
		n = (ssize_t)(r->memlen - r->mempos);
		if (n > 4096)
			n = 4096;
		if ((size_t)n > r->cap - r->end)
			n = (ssize_t)(r->cap - r->end);
		if (n > 0)	/* an empty input may have no address */
			memcpy(r->buf + r->end, r->mem + r->mempos, (size_t)n);
		r->mempos += (size_t)n;
	} else for (;;) {
		n = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	if (n < 0) {
		rec_buf_reset(&r->err);
		rec_buf_printf(&r->err, "%s: read error: %s", r->name,
		    strerror(errno));
		return -1;
	}
	if (n == 0)
		r->eof = 1;
	r->end += (size_t)n;
	return 0;
}

const msgpack_object *
rec_map_get(const msgpack_object *map, const char *key)
{
	size_t n = strlen(key);
	uint32_t i;

	if (map->type != MSGPACK_OBJECT_MAP)
		return NULL;
	for (i = 0; i < map->via.map.size; i++) {
		const msgpack_object *k = &map->via.map.ptr[i].key;
		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
		    !memcmp(k->via.str.ptr, key, n))
			return &map->via.map.ptr[i].val;
	}
	return NULL;
}

static uint64_t
be(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/* The length of the msgpack object at p[0..n), without allocating:
 * 1 and *len when it is complete, 0 when more bytes are needed, -1 for
 * a byte that is never valid (its offset in *len), -2 when it cannot
 * fit in max bytes. */
static int
mp_extent(const unsigned char *p, size_t n, size_t max, size_t *len)
{
	uint64_t need = 1, pos = 0, skip, more, lb, v;
	unsigned b;

	while (need) {
		if (pos >= n)
			return pos + need > max ? -2 : 0;
		b = p[pos];
		skip = 1;
		more = 0;
		lb = 0;
		if (b <= 0x7f || b >= 0xe0)
			;			/* fixint */
		else if (b <= 0x8f)
			more = 2 * (uint64_t)(b & 0xf);
		else if (b <= 0x9f)
			more = b & 0xf;
		else if (b <= 0xbf)
			skip = 1 + (b & 0x1f);	/* fixstr */
		else switch (b) {
		case 0xc0: case 0xc2: case 0xc3: break;
		case 0xc1: *len = (size_t)pos; return -1;
		case 0xca: skip = 5; break;
		case 0xcb: skip = 9; break;
		case 0xcc: case 0xd0: skip = 2; break;
		case 0xcd: case 0xd1: skip = 3; break;
		case 0xce: case 0xd2: skip = 5; break;
		case 0xcf: case 0xd3: skip = 9; break;
		case 0xd4: skip = 3; break;
		case 0xd5: skip = 4; break;
		case 0xd6: skip = 6; break;
		case 0xd7: skip = 10; break;
		case 0xd8: skip = 18; break;
		default:
			/* a length follows: bin, ext, str, array, map */
			lb = (b == 0xc4 || b == 0xc7 || b == 0xd9) ? 1 :
			    (b == 0xc5 || b == 0xc8 || b == 0xda ||
			    b == 0xdc || b == 0xde) ? 2 : 4;
			if (pos + 1 + lb > n)
				return pos + 1 + lb > max ? -2 : 0;
			v = be(p + pos + 1, (int)lb);
			skip = 1 + lb;
			if (b >= 0xc7 && b <= 0xc9)
				skip += 1 + v;		/* ext type byte */
			else if (b == 0xdc || b == 0xdd)
				more = v;
			else if (b == 0xde || b == 0xdf)
				more = 2 * v;
			else
				skip += v;		/* bin, str */
		}
		need = need - 1 + more;
		pos += skip;
		if (pos + need > max)
			return -2;
	}
	if (pos > n)
		return 0;
	*len = (size_t)pos;
	return 1;
}

/* What msgpack can hold and a record may not, since JSON cannot write
 * it: a string (key or value, at any depth) that is not UTF-8, and a
 * float that is NaN or infinite.  p[0..n) is one whole object, as
 * mp_extent found; its items are walked in order, containers being
 * only headers.  NULL, or the problem and its offset in *at. */
static const char *
mp_check(const unsigned char *p, size_t n, size_t *at)
{
	size_t pos = 0, hdr, body, k;
	unsigned b;
	uint64_t u;

	while (pos < n) {
		b = p[pos];
		hdr = 1;
		body = 0;
		if (b <= 0x9f || b >= 0xe0 || b == 0xc0 || b == 0xc2 ||
		    b == 0xc3)
			;	/* fixint, fixmap, fixarray, nil, bool */
		else if (b <= 0xbf || b == 0xd9 || b == 0xda || b == 0xdb) {
			if (b <= 0xbf)
				body = b & 0x1f;
			else {
				hdr = b == 0xd9 ? 2 : b == 0xda ? 3 : 5;
				if (pos + hdr > n)
					break;
				body = (size_t)be(p + pos + 1, (int)hdr - 1);
			}
			if (body > n - pos - hdr)
				break;
			k = rec_utf8_valid((const char *)p + pos + hdr, body);
			if (k != body) {
				*at = pos + hdr + k;
				return "invalid UTF-8 in a string";
			}
		} else if (b == 0xca || b == 0xcb) {
			hdr = b == 0xca ? 5 : 9;
			if (pos + hdr > n)
				break;
			u = be(p + pos + 1, (int)hdr - 1);
			/* all exponent bits set: infinity or NaN */
			if (b == 0xca ? (u >> 23 & 0xff) == 0xff :
			    (u >> 52 & 0x7ff) == 0x7ff) {
				*at = pos;
				return "number is not finite (NaN or infinity)";
			}
		} else if (b >= 0xc4 && b <= 0xc9) {	/* bin, ext */
			k = b <= 0xc6 ? (size_t)1 << (b - 0xc4) :
			    (size_t)1 << (b - 0xc7);
			hdr = 1 + k + (b >= 0xc7);
			if (pos + hdr > n)
				break;
			body = (size_t)be(p + pos + 1, (int)k);
		} else if (b >= 0xcc && b <= 0xd3)	/* ints */
			hdr = 1 + ((size_t)1 << ((b - 0xcc) & 3));
		else if (b >= 0xd4 && b <= 0xd8)	/* fixext */
			hdr = 2 + ((size_t)1 << (b - 0xd4));
		else if (b == 0xdc || b == 0xde)
			hdr = 3;
		else if (b == 0xdd || b == 0xdf)
			hdr = 5;
		else
			break;	/* 0xc1: mp_extent refused it */
		if (body > n - pos || hdr > n - pos - body)
			break;
		pos += hdr + body;
	}
	if (pos != n) {
		*at = pos;
		return "invalid msgpack";
	}
	return NULL;
}

/* Unpacks raw into rec and checks the keys every record must have. */
static int
finish_record(struct rec_reader *r, struct rec_record *rec,
    const char *raw, size_t len)
{
	const msgpack_object *v;
	const char *what;
	size_t off = 0, at;
	int ret;

	msgpack_zone_clear(&r->zone);
	ret = msgpack_unpack(raw, len, &off, &r->zone, &rec->map);
	/* msgpack-c says NOMEM when nesting passes its 32-level stack; the
	 * record's size is bounded by maxrec, so that is what it means */
	if (ret == MSGPACK_UNPACK_NOMEM_ERROR)
		return rerr(r, "msgpack nested deeper than 32 levels");
	if (ret != MSGPACK_UNPACK_SUCCESS)
		return rerr(r, "invalid msgpack");
	rec->raw = raw;
	rec->rawlen = len;
	if (rec->map.type != MSGPACK_OBJECT_MAP)
		return rerr(r, "%s", r->format == REC_FMT_JSONL ?
		    "record is not an object" : "record is not a map");
	v = rec_map_get(&rec->map, "id");
	if (!v)
		return rerr(r, "record has no \"id\"");
	if (v->type != MSGPACK_OBJECT_STR)
		return rerr(r, "\"id\" is not a string");
	if (v->via.str.size == 0)
		return rerr(r, "\"id\" is empty");
	rec->id = v->via.str.ptr;
	rec->idlen = v->via.str.size;
	rec->has_score = 0;
	rec->score = 0;
	if ((v = rec_map_get(&rec->map, "score"))) {
		if (v->type == MSGPACK_OBJECT_FLOAT32 ||
		    v->type == MSGPACK_OBJECT_FLOAT64)
			rec->score = v->via.f64;
		else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
			rec->score = (double)v->via.u64;
		else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
			rec->score = (double)v->via.i64;
		else
			return rerr(r, "\"score\" is not a number");
		/* msgpack can say NaN or infinity; a score must order */
		if (!isfinite(rec->score))
			return rerr(r, "\"score\" is not a finite number");
		rec->has_score = 1;
	}
	rec->src = NULL;
	rec->srclen = 0;
	if ((v = rec_map_get(&rec->map, "src"))) {
		if (v->type != MSGPACK_OBJECT_STR)
			return rerr(r, "\"src\" is not a string");
		rec->src = v->via.str.ptr;
		rec->srclen = v->via.str.size;
	}
	/* JSON text was checked as it was parsed; msgpack is checked here */
	if (r->format == REC_FMT_MSGPACK && (what = mp_check(
	    (const unsigned char *)raw, len, &at)))
		return rerr_at(r, r->off + at, "%s", what);
	r->nrec++;
	return 1;
}

static int
read_jsonl(struct rec_reader *r, struct rec_record *rec)
{
	size_t scan = r->start;
	char *nl, *line;
	size_t len;
	int compact;

	for (;;) {
		nl = memchr(r->buf + scan, '\n', r->end - scan);
		if (!nl) {
			if (r->eof) {
				if (r->start == r->end)
					return 0;
				nl = r->buf + r->end;	/* last line, no \n */
			} else {
				if (r->end - r->start > r->maxrec) {
					r->line++;
					return rerr(r, "line longer than %zu "
					    "bytes (REC_MAX_RECORD)",
					    r->maxrec);
				}
				scan = r->end - r->start;
				if (fill(r))
					return -1;
				scan += r->start;
				continue;
			}
		}
		line = r->buf + r->start;
		len = (size_t)(nl - line);
		r->start = nl < r->buf + r->end ? (size_t)(nl - r->buf) + 1 :
		    r->end;
		scan = r->start;
		r->line++;
		if (len > r->maxrec)
			return rerr(r, "line longer than %zu bytes "
			    "(REC_MAX_RECORD)", r->maxrec);
		if (len && line[len - 1] == '\r')
			len--;
		if (r->line == 1 && len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) {
			line += 3;
			len -= 3;
		}
		while (len && (*line == ' ' || *line == '\t')) {
			line++;
			len--;
		}
		if (len == 0)
			continue;	/* blank lines separate nothing */
		if (line[0] != '{')
			return rerr(r, "record is not an object");
		rec_buf_reset(&r->pack);
		if (rec_json_to_msgpack(line, len, &r->pack, &compact,
		    &r->err)) {
			char *msg = xstrdup(r->err.data);
			rerr(r, "%s", msg);
			free(msg);
			return -1;
		}
		if (finish_record(r, rec, r->pack.data, r->pack.len) < 0)
			return -1;
		rec->json = compact ? line : NULL;
		rec->jsonlen = len;
		return 1;
	}
}

static int
read_msgpack(struct rec_reader *r, struct rec_record *rec)
{
	size_t len;
	int rc;

	for (;;) {
		if (r->start == r->end) {
			if (r->eof)
				return 0;
			if (fill(r))
				return -1;
			continue;
		}
		r->off = r->consumed;
		rc = mp_extent((unsigned char *)r->buf + r->start,
		    r->end - r->start, r->maxrec, &len);
		if (rc == 1)
			break;
		if (rc == -1)
			return rerr_at(r, r->off + len, "invalid msgpack (0xc1 "
			    "is never used)");
		if (rc == -2)
			return rerr(r, "record longer than %zu bytes "
			    "(REC_MAX_RECORD)", r->maxrec);
		if (r->eof)
			return rerr(r, "truncated msgpack");
		if (fill(r))
			return -1;
	}
	rec->json = NULL;
	rc = finish_record(r, rec, r->buf + r->start, len);
	r->start += len;
	r->consumed += len;
	return rc;
}

static int
detect(struct rec_reader *r)
{
	unsigned char c;

	for (;;) {
		while (r->start < r->end) {
			c = (unsigned char)r->buf[r->start];
			if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
				r->start++;	/* leading white space */
				if (c == '\n')
					r->line++;
				continue;
			}
			if ((c >= 0x80 && c <= 0x8f) || c == 0xde || c == 0xdf)
				r->format = REC_FMT_MSGPACK;
			else if (c >= 0x90 && c != 0xef)
				r->format = REC_FMT_MSGPACK;	/* non-map */
			else
				r->format = REC_FMT_JSONL;
			return 1;
		}
		if (r->eof)
			return 0;
		if (fill(r))
			return -1;
	}
}

int
rec_read(struct rec_reader *r, struct rec_record *rec)
{
	int rc;

	if (r->format == REC_FMT_UNKNOWN) {
		rc = detect(r);
		if (rc <= 0)
			return rc;
	}
	if (r->format == REC_FMT_JSONL)
		return read_jsonl(r, rec);
	return read_msgpack(r, rec);
}

int
rec_next(struct rec_reader *r, struct rec_record *rec)
{
	int rc = rec_read(r, rec);

	if (rc < 0)
		rec_die("%s", r->err.data);
	return rc;
}

int
rec_stdin_is_pool(void)
{
	struct stat st;

	if (fstat(0, &st) < 0)
		return 0;
	return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ||
	    S_ISREG(st.st_mode);
}

/* --- writing --- */

void
rec_writer_init(struct rec_writer *w, int fd, int msgpack_flag)
{
	const char *e = getenv("REC_FORMAT");

	memset(w, 0, sizeof *w);
	w->fd = fd;
	w->format = REC_FMT_JSONL;
	if (e && *e) {
		if (!strcmp(e, "msgpack"))
			w->format = REC_FMT_MSGPACK;
		else if (strcmp(e, "jsonl"))
			rec_usage_die("REC_FORMAT: unknown format '%s' "
			    "(jsonl or msgpack)", e);
		/* a terminal gets JSONL whatever the environment says */
		if (isatty(fd))
			w->format = REC_FMT_JSONL;
	}
	if (msgpack_flag) {
		if (isatty(fd))
			rec_usage_die("refusing to write msgpack to a "
			    "terminal");
		w->format = REC_FMT_MSGPACK;
	}
	rec_buf_grow(&w->out, FLUSHSZ * 2);
	msgpack_zone_init(&w->zone, 4096);
}

void
rec_write_all(int fd, const char *p, size_t n)
{
	ssize_t k;

	while (n) {
		k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EPIPE) {
			/* the reader has gone: a quiet end, as in git */
			rec_trace_count(0, 0);
			signal(SIGPIPE, SIG_DFL);
			raise(SIGPIPE);
			rec_exit(141);
		}
		if (k < 0)
			rec_die("write error: %s", strerror(errno));
		p += k;
		n -= (size_t)k;
	}
}

void
rec_writer_flush(struct rec_writer *w)
{
	rec_write_all(w->fd, w->out.data, w->out.len);
	rec_buf_reset(&w->out);
}

static void
write_json_map(struct rec_writer *w, const msgpack_object *map)
{
	size_t mark = w->out.len;

	if (rec_json_write(&w->out, map, &w->err)) {
		w->out.len = mark;
		rec_die("record %lu: %s", w->nout + 1, w->err.data);
	}
	rec_buf_addc(&w->out, '\n');
}

void
rec_write(struct rec_writer *w, const struct rec_record *rec)
{
	if (w->format == REC_FMT_MSGPACK)
		rec_buf_add(&w->out, rec->raw, rec->rawlen);
	else if (rec->json) {
		rec_buf_grow(&w->out, rec->jsonlen + 1);
		memcpy(w->out.data + w->out.len, rec->json, rec->jsonlen);
		w->out.len += rec->jsonlen;
		w->out.data[w->out.len++] = '\n';
		w->out.data[w->out.len] = 0;
	} else
		write_json_map(w, &rec->map);
	w->nout++;
	if (w->out.len >= FLUSHSZ)
		rec_writer_flush(w);
}

void
rec_write_msgpack(struct rec_writer *w, const char *p, size_t n)
{
	msgpack_object obj;
	size_t off = 0;

	if (w->format == REC_FMT_MSGPACK)
		rec_buf_add(&w->out, p, n);
	else {
		msgpack_zone_clear(&w->zone);
		if (msgpack_unpack(p, n, &off, &w->zone, &obj) !=
		    MSGPACK_UNPACK_SUCCESS)
			rec_die("internal error: built an invalid record");
		write_json_map(w, &obj);
	}
	w->nout++;
	if (w->out.len >= FLUSHSZ)
		rec_writer_flush(w);
}

void
rec_writer_close(struct rec_writer *w)
{
	rec_writer_flush(w);
	if (close(w->fd) < 0 && errno != EINTR)
		rec_die("write error: %s", strerror(errno));
	rec_buf_free(&w->out);
	rec_buf_free(&w->tmp);
	rec_buf_free(&w->err);
	msgpack_zone_destroy(&w->zone);
}

void
rec_pack_map_except(msgpack_packer *pk, const msgpack_object *map,
    const char *const *drop, size_t nextra)
{
	uint32_t i, kept = 0;
	size_t j;
	char *skip = xcalloc(map->via.map.size + 1, 1);

	for (i = 0; i < map->via.map.size; i++) {
		const msgpack_object *k = &map->via.map.ptr[i].key;
		for (j = 0; drop && drop[j]; j++)
			if (k->type == MSGPACK_OBJECT_STR &&
			    k->via.str.size == strlen(drop[j]) &&
			    !memcmp(k->via.str.ptr, drop[j], k->via.str.size))
				skip[i] = 1;
		kept += !skip[i];
	}
	msgpack_pack_map(pk, kept + nextra);
	for (i = 0; i < map->via.map.size; i++)
		if (!skip[i]) {
			msgpack_pack_object(pk, map->via.map.ptr[i].key);
			msgpack_pack_object(pk, map->via.map.ptr[i].val);
		}
	free(skip);
}

static int
key_is(const msgpack_object *k, const char *s)
{
	size_t n = strlen(s);

	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
	    !memcmp(k->via.str.ptr, s, n);
}

void
rec_pack_why(msgpack_packer *pk, const msgpack_object *old, const char *why)
{
	uint32_t i, n;

	if (!why && !old)
		return;
	msgpack_pack_str_with_body(pk, "why", 3);
	if (!old)
		msgpack_pack_str_with_body(pk, why, strlen(why));
	else if (!why)
		msgpack_pack_object(pk, *old);
	else {
		n = old->type == MSGPACK_OBJECT_ARRAY ? old->via.array.size : 1;
		msgpack_pack_array(pk, n + 1);
		if (old->type == MSGPACK_OBJECT_ARRAY)
			for (i = 0; i < n; i++)
				msgpack_pack_object(pk, old->via.array.ptr[i]);
		else
			msgpack_pack_object(pk, *old);
		msgpack_pack_str_with_body(pk, why, strlen(why));
	}
}

void
rec_pack_scored(msgpack_packer *pk, const msgpack_object *orig,
    const char *id, size_t idlen, double score, const char *src,
    const char *why)
{
	static const char *const mine[] = { "id", "score", "src", "scores",
	    "why", NULL };
	const msgpack_object *old = NULL, *oldwhy = NULL, *osrc = NULL;
	const msgpack_object *oscore = NULL;
	uint32_t i, kept = 0, nold = 0;
	int carry = 0;	/* the record's own src: score joins scores */
	size_t j;

	if (orig && orig->type == MSGPACK_OBJECT_MAP) {
		old = rec_map_get(orig, "scores");
		if (old && old->type != MSGPACK_OBJECT_MAP)
			old = NULL;
		oldwhy = rec_map_get(orig, "why");
		for (i = 0; i < orig->via.map.size; i++) {
			for (j = 0; mine[j]; j++)
				if (key_is(&orig->via.map.ptr[i].key, mine[j]))
					break;
			kept += !mine[j];
		}
	}
	for (i = 0; old && i < old->via.map.size; i++)
		nold += !key_is(&old->via.map.ptr[i].key, src);
	if (orig && orig->type == MSGPACK_OBJECT_MAP) {
		osrc = rec_map_get(orig, "src");
		oscore = rec_map_get(orig, "score");
		carry = osrc && oscore && osrc->type == MSGPACK_OBJECT_STR &&
		    osrc->via.str.size && !(osrc->via.str.size == strlen(src) &&
		    !memcmp(osrc->via.str.ptr, src, strlen(src)));
		for (i = 0; carry && old && i < old->via.map.size; i++)
			if (old->via.map.ptr[i].key.type == MSGPACK_OBJECT_STR &&
			    old->via.map.ptr[i].key.via.str.size ==
			    osrc->via.str.size &&
			    !memcmp(old->via.map.ptr[i].key.via.str.ptr,
			    osrc->via.str.ptr, osrc->via.str.size))
				carry = 0;	/* already there */
	}
	msgpack_pack_map(pk, kept + 4 + (why || oldwhy ? 1 : 0));
	msgpack_pack_str_with_body(pk, "id", 2);
	msgpack_pack_str_with_body(pk, id, idlen);
	msgpack_pack_str_with_body(pk, "score", 5);
	msgpack_pack_double(pk, score);
	msgpack_pack_str_with_body(pk, "src", 3);
	msgpack_pack_str_with_body(pk, src, strlen(src));
	msgpack_pack_str_with_body(pk, "scores", 6);
	msgpack_pack_map(pk, nold + (uint32_t)carry + 1);
	for (i = 0; old && i < old->via.map.size; i++)
		if (!key_is(&old->via.map.ptr[i].key, src)) {
			msgpack_pack_object(pk, old->via.map.ptr[i].key);
			msgpack_pack_object(pk, old->via.map.ptr[i].val);
		}
	if (carry) {
		msgpack_pack_object(pk, *osrc);
		msgpack_pack_object(pk, *oscore);
	}
	msgpack_pack_str_with_body(pk, src, strlen(src));
	msgpack_pack_double(pk, score);
	rec_pack_why(pk, oldwhy, why);
	for (i = 0; orig && i < orig->via.map.size; i++) {
		for (j = 0; mine[j]; j++)
			if (key_is(&orig->via.map.ptr[i].key, mine[j]))
				break;
		if (!mine[j]) {
			msgpack_pack_object(pk, orig->via.map.ptr[i].key);
			msgpack_pack_object(pk, orig->via.map.ptr[i].val);
		}
	}
}
