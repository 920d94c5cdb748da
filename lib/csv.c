/*
 * csv.c: RFC 4180 CSV (quotes, doubled quotes, separators and newlines
 * inside quotes, CRLF or LF, an optional UTF-8 byte order mark) and
 * plain TSV (no quoting, as the Last.fm .dat files), read a row at a
 * time.  Fields are checked to be UTF-8, or converted from Latin-1.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"

void
rec_csv_init(struct rec_csv *c, FILE *fp, const char *name, int sep)
{
	memset(c, 0, sizeof *c);
	c->fp = fp;
	c->name = name;
	c->sep = sep;
	c->quoted = sep == ',';
	c->nextline = 1;
}

void
rec_csv_free(struct rec_csv *c)
{
	rec_buf_free(&c->field);
	rec_buf_free(&c->conv);
	rec_buf_free(&c->err);
	free(c->off);
}

static int
cerr(struct rec_csv *c, unsigned long line, const char *msg)
{
	rec_buf_reset(&c->err);
	rec_buf_printf(&c->err, "%s:%lu: %s", c->name, line, msg);
	return -1;
}

static void
start_field(struct rec_csv *c)
{
	if (c->nfield == c->capfield) {
		c->capfield = c->capfield ? c->capfield * 2 : 32;
		c->off = xrealloc(c->off, c->capfield * sizeof *c->off);
	}
	c->off[c->nfield++] = c->field.len;
}

/* Ends the current field: checks or converts its encoding. */
static int
end_field(struct rec_csv *c)
{
	size_t at = c->off[c->nfield - 1], n = c->field.len - at;
	char msg[64];

	if (n == 0)
		;	/* nothing to check, and field.data may still be NULL */
	else if (c->latin1) {
		rec_buf_reset(&c->conv);
		rec_latin1_to_utf8(&c->conv, c->field.data + at, n);
		c->field.len = at;
		rec_buf_add(&c->field, c->conv.data, c->conv.len);
	} else if (!c->err.len && rec_utf8_valid(c->field.data + at, n) !=
	    n) {
		/* the row is read to its end, so --skip-bad can go on */
		snprintf(msg, sizeof msg, "invalid UTF-8 in field %zu "
		    "(try --encoding latin1)", c->nfield);
		cerr(c, c->line, msg);
	}
	rec_buf_addc(&c->field, 0);
	return 0;
}

int
rec_csv_read(struct rec_csv *c)
{
	int ch, inq = 0, afterq = 0;
	unsigned long qline = 0;

	for (;;) {
		c->nfield = 0;
		rec_buf_reset(&c->field);
		rec_buf_reset(&c->err);
		c->line = c->nextline;
		ch = getc(c->fp);
		if (ch == EOF)
			return ferror(c->fp) ? cerr(c, c->line, "read error") : 0;
		if (!c->bomchecked) {
			c->bomchecked = 1;
			if (ch == 0xef) {
				if (getc(c->fp) != 0xbb || getc(c->fp) != 0xbf)
					return cerr(c, 1, "invalid byte order "
					    "mark");
				ch = getc(c->fp);
				if (ch == EOF)
					return 0;
			}
		}
		start_field(c);
		for (;; ch = getc(c->fp)) {
			if (ch == EOF) {
				if (ferror(c->fp))
					return cerr(c, c->line, "read error");
				if (inq)
					return cerr(c, qline, "unterminated "
					    "quoted field");
				break;
			}
			if (inq) {
				if (ch == '"') {
					int nx = getc(c->fp);
					if (nx == '"') {
						rec_buf_addc(&c->field, '"');
						continue;
					}
					ungetc(nx, c->fp);
					inq = 0;
					afterq = 1;
					continue;
				}
				if (ch == '\n')
					c->nextline++;
				rec_buf_addc(&c->field, ch);
				continue;
			}
			if (ch == c->sep) {
				if (end_field(c))
					return -1;
				start_field(c);
				afterq = 0;
				continue;
			}
			if (ch == '\r') {
				int nx = getc(c->fp);
				if (nx == '\n') {
					ch = '\n';
				} else {
					ungetc(nx, c->fp);
					if (afterq)
						return cerr(c, c->line, "text "
						    "after a closing quote");
					rec_buf_addc(&c->field, ch);
					continue;
				}
			}
			if (ch == '\n') {
				c->nextline++;
				break;
			}
			if (afterq)
				return cerr(c, c->line, "text after a closing "
				    "quote");
			if (ch == '"' && c->quoted &&
			    c->field.len == c->off[c->nfield - 1]) {
				inq = 1;
				qline = c->nextline;
				continue;
			}
			rec_buf_addc(&c->field, ch);
		}
		if (end_field(c))
			return -1;
		afterq = 0;
		if (c->err.len)
			return -2;	/* a bad row, read whole */
		if (c->nfield == 1 && c->field.len == 1)
			continue;	/* a blank line */
		return 1;
	}
}

const char *
rec_csv_field(const struct rec_csv *c, size_t i, size_t *len)
{
	const char *p = c->field.data + c->off[i];

	if (len)
		*len = strlen(p);
	return p;
}
