/*
 * table.c: rows with named columns from CSV (with a header row), TSV
 * (likewise) or JSONL (one object a line; keys are columns, arrays are
 * cells with several values).  rec-import reads every input through it.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"

static size_t
add_col(struct rec_table *t, const char *name, size_t len)
{
	int added;
	size_t i = rec_hash_put(&t->colidx, name, len, &added);

	if (!added)
		return i;
	if (t->ncol == t->capcol) {
		t->capcol = t->capcol ? t->capcol * 2 : 32;
		t->col = xrealloc(t->col, t->capcol * sizeof *t->col);
		t->val = xrealloc(t->val, t->capcol * sizeof *t->val);
		t->nval = xrealloc(t->nval, t->capcol * sizeof *t->nval);
		t->array = xrealloc(t->array, t->capcol);
	}
	t->array[t->ncol] = 0;
	t->col[t->ncol] = xstrndup(name, len);
	memset(&t->val[t->ncol], 0, sizeof t->val[t->ncol]);
	t->nval[t->ncol] = 0;
	return t->ncol++;
}

static int
terr(struct rec_table *t, int rc, const char *fmt, const char *arg)
{
	rec_buf_reset(&t->err);
	rec_buf_printf(&t->err, "%s:%lu: ", t->name, t->line);
	rec_buf_printf(&t->err, fmt, arg);
	return rc;
}

static int
is_null(const struct rec_table *t, const char *v, size_t n)
{
	size_t i;

	if (n == 0)
		return 1;
	for (i = 0; t->nulls && t->nulls[i]; i++)
		if (strlen(t->nulls[i]) == n && !memcmp(t->nulls[i], v, n))
			return 1;
	return 0;
}

static void
put_value(struct rec_table *t, size_t i, const char *v, size_t n)
{
	if (is_null(t, v, n))
		return;
	rec_buf_add(&t->val[i], v, n);
	rec_buf_addc(&t->val[i], 0);
	t->nval[i]++;
}

void
rec_table_open(struct rec_table *t, const char *path, int kind,
    int latin1, const char *const *nulls)
{
	const char *dot;
	int rc;
	size_t i;

	memset(t, 0, sizeof *t);
	t->nulls = nulls;
	if (!strcmp(path, "-")) {
		t->fp = stdin;
		t->name = "stdin";
	} else {
		t->fp = fopen(path, "rb");
		if (!t->fp)
			rec_die("cannot open '%s': %m", path);
		t->name = path;
	}
	if (!kind) {
		dot = strrchr(path, '.');
		if (dot && (!strcmp(dot, ".jsonl") || !strcmp(dot, ".json") ||
		    !strcmp(dot, ".ndjson")))
			kind = 'j';
		else if (dot && (!strcmp(dot, ".tsv") || !strcmp(dot, ".dat") ||
		    !strcmp(dot, ".tab")))
			kind = 't';
		else
			kind = 'c';
	}
	t->kind = kind;
	if (kind == 'j')
		return;
	rec_csv_init(&t->csv, t->fp, t->name, kind == 't' ? '\t' : ',');
	t->csv.latin1 = latin1;
	rc = rec_csv_read(&t->csv);
	if (rc == 0)
		rec_die("%s: empty file, expected a header row", t->name);
	if (rc < 0)
		rec_die("%s", t->csv.err.data);
	for (i = 0; i < t->csv.nfield; i++) {
		size_t len;
		const char *name = rec_csv_field(&t->csv, i, &len);
		if (!len)
			rec_die("%s:1: column %zu has no name", t->name, i + 1);
		if (add_col(t, name, len) != i)
			rec_die("%s:1: column '%s' appears twice", t->name,
			    name);
	}
}

void
rec_table_close(struct rec_table *t)
{
	size_t i;

	if (t->fp && t->fp != stdin)
		fclose(t->fp);
	if (t->kind != 'j')
		rec_csv_free(&t->csv);
	for (i = 0; i < t->ncol; i++) {
		free(t->col[i]);
		rec_buf_free(&t->val[i]);
	}
	free(t->col);
	free(t->val);
	free(t->nval);
	free(t->array);
	rec_hash_free(&t->colidx);
	rec_buf_free(&t->err);
	rec_buf_free(&t->pack);
	rec_buf_free(&t->jerr);
	free(t->line_buf);
}

static void
clear_row(struct rec_table *t)
{
	size_t i;

	for (i = 0; i < t->ncol; i++) {
		rec_buf_reset(&t->val[i]);
		t->nval[i] = 0;
	}
}

/* One JSON value as cell text: strings as they are, numbers and
 * booleans as JSON text, objects as JSON.  A string holding NUL (from
 * "\u0000") is a bad row: cells are NUL-terminated, so it would be cut
 * short.  Returns 0, or -2 with the message in t->err. */
static int
put_json_value(struct rec_table *t, size_t i, const msgpack_object *o)
{
	struct rec_buf b = {0};

	if (o->type == MSGPACK_OBJECT_NIL)
		return 0;
	if (o->type == MSGPACK_OBJECT_STR) {
		if (memchr(o->via.str.ptr, 0, o->via.str.size))
			return terr(t, -2, "NUL in field '%s'", t->col[i]);
		put_value(t, i, o->via.str.ptr, o->via.str.size);
		return 0;
	}
	if (o->type == MSGPACK_OBJECT_BOOLEAN)
		rec_buf_adds(&b, o->via.boolean ? "1" : "0");
	else
		rec_json_write(&b, o, &t->jerr);
	if (b.len)
		put_value(t, i, b.data, b.len);
	rec_buf_free(&b);
	return 0;
}

static int
next_json(struct rec_table *t)
{
	ssize_t n;
	msgpack_zone zone;
	msgpack_object o;
	size_t off = 0, i;
	uint32_t k, j;
	int rc = 1;

	for (;;) {
		n = getline(&t->line_buf, &t->line_cap, t->fp);
		if (n < 0)
			return ferror(t->fp) ? terr(t, -1, "%s",
			    "read error") : 0;
		t->line++;
		while (n > 0 && (t->line_buf[n - 1] == '\n' ||
		    t->line_buf[n - 1] == '\r' || t->line_buf[n - 1] == ' '))
			n--;
		if (n > 0)
			break;
	}
	clear_row(t);
	rec_buf_reset(&t->pack);
	if (rec_json_to_msgpack(t->line_buf, (size_t)n, &t->pack, NULL,
	    &t->jerr))
		return terr(t, -2, "%s", t->jerr.data);
	msgpack_zone_init(&zone, 4096);
	msgpack_unpack(t->pack.data, t->pack.len, &off, &zone, &o);
	if (o.type != MSGPACK_OBJECT_MAP) {
		rc = terr(t, -2, "%s", "line is not a JSON object");
		goto out;
	}
	for (k = 0; k < o.via.map.size; k++) {
		const msgpack_object *key = &o.via.map.ptr[k].key;
		const msgpack_object *val = &o.via.map.ptr[k].val;
		if (!key->via.str.size) {
			rc = terr(t, -2, "%s", "empty key");
			goto out;
		}
		if (memchr(key->via.str.ptr, 0, key->via.str.size)) {
			rc = terr(t, -2, "%s", "NUL in a key");
			goto out;
		}
		i = add_col(t, key->via.str.ptr, key->via.str.size);
		if (val->type == MSGPACK_OBJECT_ARRAY) {
			for (j = 0; j < val->via.array.size; j++)
				if (put_json_value(t, i,
				    &val->via.array.ptr[j]) < 0) {
					rc = -2;
					goto out;
				}
			t->array[i] = 1;
		} else if (put_json_value(t, i, val) < 0) {
			rc = -2;
			goto out;
		}
	}
out:
	msgpack_zone_destroy(&zone);
	return rc;
}

int
rec_table_next(struct rec_table *t)
{
	int rc;
	size_t i, len;
	const char *v;
	char msg[80];

	if (t->kind == 'j')
		return next_json(t);
	rc = rec_csv_read(&t->csv);
	t->line = t->csv.line;
	if (rc <= 0) {
		if (rc < 0) {
			rec_buf_reset(&t->err);
			rec_buf_adds(&t->err, t->csv.err.data);
		}
		return rc;
	}
	clear_row(t);
	if (t->csv.nfield != t->ncol) {
		snprintf(msg, sizeof msg, "%zu fields, expected %zu",
		    t->csv.nfield, t->ncol);
		return terr(t, -2, "%s", msg);
	}
	for (i = 0; i < t->ncol; i++) {
		v = rec_csv_field(&t->csv, i, &len);
		put_value(t, i, v, len);
	}
	return 1;
}

size_t
rec_table_col(const struct rec_table *t, const char *name)
{
	return rec_hash_get(&t->colidx, name, strlen(name));
}

const char *
rec_table_get(const struct rec_table *t, size_t i)
{
	if (i >= t->ncol || !t->nval[i])
		return NULL;
	return t->val[i].data;
}
