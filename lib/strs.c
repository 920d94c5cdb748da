/*
 * strs.c: lists of strings (struct rec_strs), the small sets the
 * planner, the profile and the evaluator keep: names, ids, tags.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"

int
rec_strs_has(const struct rec_strs *s, const char *v, int icase)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!(icase ? strcasecmp(s->v[i], v) : strcmp(s->v[i], v)))
			return 1;
	return 0;
}

void
rec_strs_add(struct rec_strs *s, const char *v)
{
	if (rec_strs_has(s, v, 0))
		return;
	rec_strs_push(s, v, strlen(v));
}

void
rec_strs_push(struct rec_strs *s, const char *v, size_t n)
{
	s->v = xrealloc(s->v, (s->n + 1) * sizeof *s->v);
	s->v[s->n++] = xstrndup(v, n);
}

void
rec_strs_free(struct rec_strs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

void
rec_strs_copy(struct rec_strs *to, const struct rec_strs *from)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		rec_strs_add(to, from->v[i]);
}

void
rec_strs_from(struct rec_strs *s, const msgpack_object *o)
{
	uint32_t i;
	char *v;

	if (!o || o->type != MSGPACK_OBJECT_ARRAY)
		return;
	for (i = 0; i < o->via.array.size; i++)
		if (o->via.array.ptr[i].type == MSGPACK_OBJECT_STR) {
			v = xstrndup(o->via.array.ptr[i].via.str.ptr,
			    o->via.array.ptr[i].via.str.size);
			rec_strs_add(s, v);
			free(v);
		}
}

void
rec_strs_sql_call(struct rec_buf *b, const char *fn, const char *col,
    const struct rec_strs *v)
{
	size_t i;

	rec_buf_printf(b, "%s(\"%s\"", fn, col);
	for (i = 0; i < v->n; i++) {
		rec_buf_adds(b, ", ");
		rec_buf_sql(b, v->v[i]);
	}
	rec_buf_addc(b, ')');
}
