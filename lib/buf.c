/*
 * buf.c: the one growable buffer type (struct rec_buf, see rec.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

void
rec_buf_grow(struct rec_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	size_t cap;

	if (need < extra)
		rec_die("out of memory (buffer overflow)");
	if (need <= b->cap)
		return;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap * 2 > cap ? cap * 2 : need;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
	b->data[b->len] = 0;
}

void
rec_buf_add(struct rec_buf *b, const void *p, size_t n)
{
	rec_buf_grow(b, n);
	if (n == 0)	/* p may be NULL: msgpack-c's empty strings */
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = 0;
}

void
rec_buf_addc(struct rec_buf *b, int c)
{
	rec_buf_grow(b, 1);
	b->data[b->len++] = (char)c;
	b->data[b->len] = 0;
}

void
rec_buf_adds(struct rec_buf *b, const char *s)
{
	rec_buf_add(b, s, strlen(s));
}

void
rec_buf_sql(struct rec_buf *b, const char *s)
{
	rec_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			rec_buf_addc(b, '\'');
		rec_buf_addc(b, *s);
	}
	rec_buf_addc(b, '\'');
}

void
rec_buf_printf(struct rec_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	rec_buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
rec_buf_reset(struct rec_buf *b)
{
	b->len = 0;
	if (b->cap)
		b->data[0] = 0;
}

void
rec_buf_free(struct rec_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int
rec_buf_msgpack_write(void *data, const char *p, size_t n)
{
	rec_buf_add(data, p, n);
	return 0;
}
