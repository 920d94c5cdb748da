/*
 * json.c: JSON text <-> msgpack, the fast path for candidate streams.
 *
 * libjq's jv manages about 0.6 M records/s; a stream of a million
 * candidates needs more, so records travel as msgpack inside rec and
 * this file converts at the edges.  The parser is strict (RFC 8259:
 * UTF-8 only, no trailing commas, no NaN) and fuzzed (fuzz/).  jv stays
 * the library for jq expressions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* msgpack-c unpacks at most 32 levels: the same limit, so that any
 * record read from msgpack can be written as JSON and read back */
#define MAXDEPTH 32

struct parser {
	const unsigned char *p, *end, *start;
	struct rec_buf *out;
	struct rec_buf *err;
	struct rec_buf scratch;
	int ws;		/* saw insignificant white space */
};

static int
fail(struct parser *ps, const char *what)
{
	rec_buf_reset(ps->err);
	rec_buf_printf(ps->err, "%s at column %zu", what,
	    (size_t)(ps->p - ps->start) + 1);
	return -1;
}

static void
skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
	    *ps->p == '\n' || *ps->p == '\r')) {
		ps->p++;
		ps->ws = 1;
	}
}

static void
put_u8(struct rec_buf *b, unsigned char c)
{
	rec_buf_addc(b, c);
}

static void
put_be(struct rec_buf *b, uint64_t v, int bytes)
{
	unsigned char t[8];
	int i;

	for (i = bytes - 1; i >= 0; i--) {
		t[i] = (unsigned char)(v & 0xff);
		v >>= 8;
	}
	rec_buf_add(b, t, (size_t)bytes);
}

static void
pack_str_header(struct rec_buf *b, size_t n)
{
	if (n < 32)
		put_u8(b, (unsigned char)(0xa0 | n));
	else if (n < 256) {
		put_u8(b, 0xd9);
		put_u8(b, (unsigned char)n);
	} else if (n < 65536) {
		put_u8(b, 0xda);
		put_be(b, n, 2);
	} else {
		put_u8(b, 0xdb);
		put_be(b, n, 4);
	}
}

static int
hex4(const unsigned char *p, unsigned *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		unsigned c = p[i];
		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*v |= c - 'A' + 10;
		else
			return -1;
	}
	return 0;
}

static void
put_utf8(struct rec_buf *b, unsigned cp)
{
	if (cp < 0x80)
		rec_buf_addc(b, (int)cp);
	else if (cp < 0x800) {
		rec_buf_addc(b, (int)(0xc0 | cp >> 6));
		rec_buf_addc(b, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		rec_buf_addc(b, (int)(0xe0 | cp >> 12));
		rec_buf_addc(b, (int)(0x80 | (cp >> 6 & 0x3f)));
		rec_buf_addc(b, (int)(0x80 | (cp & 0x3f)));
	} else {
		rec_buf_addc(b, (int)(0xf0 | cp >> 18));
		rec_buf_addc(b, (int)(0x80 | (cp >> 12 & 0x3f)));
		rec_buf_addc(b, (int)(0x80 | (cp >> 6 & 0x3f)));
		rec_buf_addc(b, (int)(0x80 | (cp & 0x3f)));
	}
}

/* A string at ps->p (after the opening quote) packed as msgpack str. */
static int
parse_string(struct parser *ps)
{
	const unsigned char *s = ps->p, *q = s;
	size_t k;
	unsigned cp, lo;

	/* fast path: no escapes */
	while (q < ps->end && *q != '"' && *q != '\\' && *q >= 0x20 &&
	    *q < 0x80)
		q++;
	if (q < ps->end && *q == '"') {
		pack_str_header(ps->out, (size_t)(q - s));
		rec_buf_add(ps->out, s, (size_t)(q - s));
		ps->p = q + 1;
		return 0;
	}
	rec_buf_reset(&ps->scratch);
	rec_buf_add(&ps->scratch, s, (size_t)(q - s));
	ps->p = q;
	for (;;) {
		if (ps->p >= ps->end)
			return fail(ps, "unterminated string");
		if (*ps->p == '"')
			break;
		if (*ps->p < 0x20)
			return fail(ps, "control character in string");
		if (*ps->p >= 0x80) {
			k = rec_utf8_valid((const char *)ps->p,
			    (size_t)(ps->end - ps->p) < 4 ?
			    (size_t)(ps->end - ps->p) : 4);
			/* valid prefix must hold the whole lead sequence */
			{
				unsigned c = *ps->p;
				size_t want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
				if (k < want)
					return fail(ps, "invalid UTF-8");
				rec_buf_add(&ps->scratch, ps->p, want);
				ps->p += want;
			}
			continue;
		}
		if (*ps->p != '\\') {
			rec_buf_addc(&ps->scratch, *ps->p++);
			continue;
		}
		ps->p++;
		if (ps->p >= ps->end)
			return fail(ps, "unterminated string");
		switch (*ps->p++) {
		case '"': rec_buf_addc(&ps->scratch, '"'); break;
		case '\\': rec_buf_addc(&ps->scratch, '\\'); break;
		case '/': rec_buf_addc(&ps->scratch, '/'); break;
		case 'b': rec_buf_addc(&ps->scratch, '\b'); break;
		case 'f': rec_buf_addc(&ps->scratch, '\f'); break;
		case 'n': rec_buf_addc(&ps->scratch, '\n'); break;
		case 'r': rec_buf_addc(&ps->scratch, '\r'); break;
		case 't': rec_buf_addc(&ps->scratch, '\t'); break;
		case 'u':
			if (ps->end - ps->p < 4 || hex4(ps->p, &cp))
				return fail(ps, "bad \\u escape");
			ps->p += 4;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return fail(ps, "lone low surrogate");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (ps->end - ps->p < 6 || ps->p[0] != '\\' ||
				    ps->p[1] != 'u' || hex4(ps->p + 2, &lo) ||
				    lo < 0xdc00 || lo > 0xdfff)
					return fail(ps, "lone high surrogate");
				ps->p += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
			}
			put_utf8(&ps->scratch, cp);
			break;
		default:
			ps->p--;
			return fail(ps, "bad escape in string");
		}
	}
	ps->p++;
	pack_str_header(ps->out, ps->scratch.len);
	rec_buf_add(ps->out, ps->scratch.data, ps->scratch.len);
	return 0;
}

static int
parse_number(struct parser *ps)
{
	const unsigned char *s = ps->p, *q = s;
	int isint = 1, neg = 0;
	char tmp[64], *endp;
	uint64_t u = 0;
	double d;

	if (q < ps->end && *q == '-') {
		neg = 1;
		q++;
	}
	if (q >= ps->end || *q < '0' || *q > '9')
		return fail(ps, "invalid number");
	if (*q == '0') {
		q++;
		if (q < ps->end && *q >= '0' && *q <= '9')
			return fail(ps, "leading zero in number");
	} else
		while (q < ps->end && *q >= '0' && *q <= '9') {
			unsigned dg = (unsigned)(*q - '0');
			if (u > UINT64_MAX / 10 ||
			    (u == UINT64_MAX / 10 && dg > UINT64_MAX % 10))
				isint = 0;	/* too big: read as a double */
			u = u * 10 + dg;
			q++;
		}
	if (q < ps->end && *q == '.') {
		isint = 0;
		q++;
		if (q >= ps->end || *q < '0' || *q > '9')
			return fail(ps, "invalid number");
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		isint = 0;
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= ps->end || *q < '0' || *q > '9')
			return fail(ps, "invalid number");
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	ps->p = q;
	if (isint && neg && u > (uint64_t)INT64_MAX + 1)
		isint = 0;
	if (isint) {
		if (!neg) {
			if (u < 128)
				put_u8(ps->out, (unsigned char)u);
			else if (u < 256) {
				put_u8(ps->out, 0xcc);
				put_u8(ps->out, (unsigned char)u);
			} else if (u < 65536) {
				put_u8(ps->out, 0xcd);
				put_be(ps->out, u, 2);
			} else if (u <= 0xffffffffu) {
				put_u8(ps->out, 0xce);
				put_be(ps->out, u, 4);
			} else {
				put_u8(ps->out, 0xcf);
				put_be(ps->out, u, 8);
			}
		} else {
			int64_t v = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN :
			    -(int64_t)u;
			if (v >= -32)
				put_u8(ps->out, (unsigned char)(v & 0xff));
			else if (v >= -128) {
				put_u8(ps->out, 0xd0);
				put_u8(ps->out, (unsigned char)(v & 0xff));
			} else if (v >= -32768) {
				put_u8(ps->out, 0xd1);
				put_be(ps->out, (uint64_t)v, 2);
			} else if (v >= INT32_MIN) {
				put_u8(ps->out, 0xd2);
				put_be(ps->out, (uint64_t)v, 4);
			} else {
				put_u8(ps->out, 0xd3);
				put_be(ps->out, (uint64_t)v, 8);
			}
		}
		return 0;
	}
	if ((size_t)(q - s) >= sizeof tmp)
		return fail(ps, "number too long");
	memcpy(tmp, s, (size_t)(q - s));
	tmp[q - s] = 0;
	d = strtod(tmp, &endp);
	if (!isfinite(d))
		return fail(ps, "number out of range");
	{
		union { double d; uint64_t u; } cv;
		cv.d = d;
		put_u8(ps->out, 0xcb);
		put_be(ps->out, cv.u, 8);
	}
	return 0;
}

/* Container header: 5 bytes are reserved while parsing, then the body
 * is moved down to fit the smallest header for the real count. */
static void
finish_container(struct parser *ps, size_t at, uint32_t count, int map)
{
	unsigned char h[5];
	size_t hn;
	struct rec_buf *b = ps->out;

	if (count < 16) {
		h[0] = (unsigned char)((map ? 0x80 : 0x90) | count);
		hn = 1;
	} else if (count < 65536) {
		h[0] = map ? 0xde : 0xdc;
		h[1] = (unsigned char)(count >> 8);
		h[2] = (unsigned char)count;
		hn = 3;
	} else {
		h[0] = map ? 0xdf : 0xdd;
		h[1] = (unsigned char)(count >> 24);
		h[2] = (unsigned char)(count >> 16);
		h[3] = (unsigned char)(count >> 8);
		h[4] = (unsigned char)count;
		hn = 5;
	}
	if (hn != 5)
		memmove(b->data + at + hn, b->data + at + 5,
		    b->len - at - 5);
	memcpy(b->data + at, h, hn);
	b->len -= 5 - hn;
}

static int parse_value(struct parser *ps, int depth);

static int
parse_container(struct parser *ps, int depth, int map)
{
	size_t at = ps->out->len;
	uint32_t count = 0;
	unsigned char close = map ? '}' : ']';

	if (depth >= MAXDEPTH)
		return fail(ps, "nesting deeper than 32 levels");
	rec_buf_add(ps->out, "\0\0\0\0\0", 5);
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		finish_container(ps, at, 0, map);
		return 0;
	}
	for (;;) {
		if (map) {
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a string key");
			ps->p++;
			if (parse_string(ps))
				return -1;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, "expected ':'");
			ps->p++;
		}
		if (parse_value(ps, depth + 1))
			return -1;
		if (count == UINT32_MAX)
			return fail(ps, "too many elements");
		count++;
		skip_ws(ps);
		if (ps->p >= ps->end)
			return fail(ps, map ? "unterminated object" :
			    "unterminated array");
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			break;
		}
		return fail(ps, map ? "expected ',' or '}'" :
		    "expected ',' or ']'");
	}
	finish_container(ps, at, count, map);
	return 0;
}

static int
literal(struct parser *ps, const char *word, unsigned char byte)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(ps, "invalid literal");
	ps->p += n;
	put_u8(ps->out, byte);
	return 0;
}

static int
parse_value(struct parser *ps, int depth)
{
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end of input");
	switch (*ps->p) {
	case '{':
		return parse_container(ps, depth, 1);
	case '[':
		return parse_container(ps, depth, 0);
	case '"':
		ps->p++;
		return parse_string(ps);
	case 't':
		return literal(ps, "true", 0xc3);
	case 'f':
		return literal(ps, "false", 0xc2);
	case 'n':
		return literal(ps, "null", 0xc0);
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return parse_number(ps);
		return fail(ps, "unexpected character");
	}
}

int
rec_json_to_msgpack(const char *s, size_t n, struct rec_buf *out,
    int *compact, struct rec_buf *err)
{
	struct parser ps = {0};
	int rc;

	ps.p = ps.start = (const unsigned char *)s;
	ps.end = ps.p + n;
	ps.out = out;
	ps.err = err;
	rc = parse_value(&ps, 0);
	if (!rc) {
		skip_ws(&ps);
		if (ps.p != ps.end)
			rc = fail(&ps, "trailing characters after value");
	}
	rec_buf_free(&ps.scratch);
	if (compact)
		*compact = !ps.ws;
	return rc;
}

/* --- writing --- */

static const char hexdig[] = "0123456789abcdef";

void
rec_json_string(struct rec_buf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, run = 0;

	if (n == 0) {	/* s may be NULL */
		rec_buf_add(out, "\"\"", 2);
		return;
	}
	rec_buf_grow(out, n + 2);
	out->data[out->len++] = '"';
	for (i = 0; i < n; i++) {
		unsigned char c = p[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		rec_buf_add(out, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': rec_buf_add(out, "\\\"", 2); break;
		case '\\': rec_buf_add(out, "\\\\", 2); break;
		case '\n': rec_buf_add(out, "\\n", 2); break;
		case '\t': rec_buf_add(out, "\\t", 2); break;
		case '\r': rec_buf_add(out, "\\r", 2); break;
		case '\b': rec_buf_add(out, "\\b", 2); break;
		case '\f': rec_buf_add(out, "\\f", 2); break;
		default: {
			char u[6] = { '\\', 'u', '0', '0',
			    hexdig[c >> 4], hexdig[c & 15] };
			rec_buf_add(out, u, 6);
		}
		}
	}
	rec_buf_add(out, s + run, n - run);
	rec_buf_addc(out, '"');
}

int
rec_json_double(char *out, size_t outsz, double d)
{
	int prec, n = 0;

	if (!isfinite(d))
		return snprintf(out, outsz, "null");
	for (prec = 15; prec <= 17; prec++) {
		n = snprintf(out, outsz, "%.*g", prec, d);
		if (strtod(out, NULL) == d)
			break;
	}
	if (!strpbrk(out, ".e") && n + 2 < (int)outsz) {
		out[n++] = '.';
		out[n++] = '0';
		out[n] = 0;
	}
	return n;
}

static void
put_uint(struct rec_buf *out, uint64_t v)
{
	char t[24];
	int i = sizeof t;

	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	rec_buf_add(out, t + i, sizeof t - (size_t)i);
}

static int
werr(struct rec_buf *err, const char *what)
{
	rec_buf_reset(err);
	rec_buf_adds(err, what);
	return -1;
}

int
rec_json_write(struct rec_buf *out, const msgpack_object *o,
    struct rec_buf *err)
{
	char num[40];
	uint32_t i;

	switch (o->type) {
	case MSGPACK_OBJECT_NIL:
		rec_buf_add(out, "null", 4);
		return 0;
	case MSGPACK_OBJECT_BOOLEAN:
		if (o->via.boolean)
			rec_buf_add(out, "true", 4);
		else
			rec_buf_add(out, "false", 5);
		return 0;
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		put_uint(out, o->via.u64);
		return 0;
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		rec_buf_addc(out, '-');
		put_uint(out, (uint64_t)0 - (uint64_t)o->via.i64);
		return 0;
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		/* null would change the value, and a null score stops the
		 * next tool: refuse here, where the number was made */
		if (!isfinite(o->via.f64))
			return werr(err, "a number that is not finite cannot be "
			    "written as JSON");
		rec_buf_add(out, num, (size_t)rec_json_double(num, sizeof num,
		    o->via.f64));
		return 0;
	case MSGPACK_OBJECT_STR:
		if (rec_utf8_valid(o->via.str.ptr, o->via.str.size) !=
		    o->via.str.size)
			return werr(err, "invalid UTF-8 in a string");
		rec_json_string(out, o->via.str.ptr, o->via.str.size);
		return 0;
	case MSGPACK_OBJECT_ARRAY:
		rec_buf_addc(out, '[');
		for (i = 0; i < o->via.array.size; i++) {
			if (i)
				rec_buf_addc(out, ',');
			if (rec_json_write(out, &o->via.array.ptr[i], err))
				return -1;
		}
		rec_buf_addc(out, ']');
		return 0;
	case MSGPACK_OBJECT_MAP:
		rec_buf_addc(out, '{');
		for (i = 0; i < o->via.map.size; i++) {
			const msgpack_object_kv *kv = &o->via.map.ptr[i];
			if (kv->key.type != MSGPACK_OBJECT_STR)
				return werr(err, "map key is not a string");
			if (i)
				rec_buf_addc(out, ',');
			if (rec_json_write(out, &kv->key, err))
				return -1;
			rec_buf_addc(out, ':');
			if (rec_json_write(out, &kv->val, err))
				return -1;
		}
		rec_buf_addc(out, '}');
		return 0;
	case MSGPACK_OBJECT_BIN:
		return werr(err, "binary value cannot be written as JSON");
	default:
		return werr(err, "extension value cannot be written as JSON");
	}
}

void
rec_strs_json(struct rec_buf *b, const char *key, const struct rec_strs *s)
{
	size_t i;

	rec_buf_printf(b, "\"%s\":[", key);
	for (i = 0; i < s->n; i++) {
		if (i)
			rec_buf_addc(b, ',');
		rec_json_string(b, s->v[i], strlen(s->v[i]));
	}
	rec_buf_addc(b, ']');
}
