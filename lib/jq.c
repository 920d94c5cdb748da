/*
 * jq.c: jq expressions over candidate records, through libjq.  jv is
 * slow next to the msgpack fast path (0.6 M records/s), which is fine
 * for ranking a few thousand candidates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jq.h>

#include "retrieve.h"

struct rec_jq {
	jq_state *jq;
	char *expr;
	struct rec_buf msg;	/* the last error libjq reported */
};

static void
on_error(void *data, jv msg)
{
	struct rec_jq *q = data;

	if (q->msg.len) {	/* the first says what; then "1 compile error" */
		jv_free(msg);
		return;
	}
	if (jv_get_kind(msg) == JV_KIND_STRING)
		rec_buf_adds(&q->msg, jv_string_value(msg));
	else {
		jv s = jv_dump_string(jv_copy(msg), 0);
		rec_buf_adds(&q->msg, jv_string_value(s));
		jv_free(s);
	}
	jv_free(msg);
}

struct rec_jq *
rec_jq_compile(const char *expr, struct rec_buf *err)
{
	struct rec_jq *q = xcalloc(1, sizeof *q);
	char *nl;

	q->jq = jq_init();
	if (!q->jq)
		rec_die("out of memory (jq)");
	q->expr = xstrdup(expr);
	jq_set_error_cb(q->jq, on_error, q);
	if (!jq_compile(q->jq, expr)) {
		rec_buf_reset(err);
		/* libjq says "jq: error: ... at <top-level>, line 1:" and
		 * the count of errors: keep the first line */
		if ((nl = strchr(q->msg.data ? q->msg.data : "", '\n')))
			*nl = 0;
		if ((nl = strstr(q->msg.data ? q->msg.data : "",
		    " at <top-level>")))
			*nl = 0;
		if (q->msg.len && !strncmp(q->msg.data, "jq: error: ", 11))
			memmove(q->msg.data, q->msg.data + 11,
			    strlen(q->msg.data + 11) + 1);
		rec_buf_printf(err, "%s in '%s'", q->msg.len ? q->msg.data :
		    "does not compile", expr);
		rec_jq_free(q);
		return NULL;
	}
	return q;
}

void
rec_jq_free(struct rec_jq *q)
{
	if (!q)
		return;
	jq_teardown(&q->jq);
	free(q->expr);
	rec_buf_free(&q->msg);
	free(q);
}

static jv
to_jv(const msgpack_object *o)
{
	jv v;
	uint32_t i;

	switch (o->type) {
	case MSGPACK_OBJECT_BOOLEAN:
		return o->via.boolean ? jv_true() : jv_false();
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		return jv_number((double)o->via.u64);
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		return jv_number((double)o->via.i64);
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		return jv_number(o->via.f64);
	case MSGPACK_OBJECT_STR:
		return jv_string_sized(o->via.str.ptr ? o->via.str.ptr : "",
		    (int)o->via.str.size);
	case MSGPACK_OBJECT_ARRAY:
		v = jv_array();
		for (i = 0; i < o->via.array.size; i++)
			v = jv_array_append(v, to_jv(&o->via.array.ptr[i]));
		return v;
	case MSGPACK_OBJECT_MAP:
		v = jv_object();
		for (i = 0; i < o->via.map.size; i++) {
			const msgpack_object *k = &o->via.map.ptr[i].key;
			if (k->type != MSGPACK_OBJECT_STR)
				continue;
			v = jv_object_set(v, jv_string_sized(k->via.str.ptr ?
			    k->via.str.ptr : "", (int)k->via.str.size),
			    to_jv(&o->via.map.ptr[i].val));
		}
		return v;
	default:
		return jv_null();
	}
}

/* Runs q on rec; the first output, or an invalid jv (message in err). */
static jv
run(struct rec_jq *q, const msgpack_object *rec, struct rec_buf *err)
{
	jv out, next;

	rec_buf_reset(&q->msg);
	jq_start(q->jq, to_jv(rec), 0);
	out = jq_next(q->jq);
	if (!jv_is_valid(out)) {
		rec_buf_reset(err);
		if (jv_invalid_has_msg(jv_copy(out))) {
			jv m = jv_invalid_get_msg(out);
			if (jv_get_kind(m) == JV_KIND_STRING)
				rec_buf_printf(err, "%s in '%s'",
				    jv_string_value(m), q->expr);
			else
				rec_buf_printf(err, "error in '%s'", q->expr);
			jv_free(m);
		} else {
			rec_buf_printf(err, "'%s' gave no value", q->expr);
			jv_free(out);
		}
		return jv_invalid();
	}
	/* drain the rest, so the next record starts clean */
	while (jv_is_valid(next = jq_next(q->jq)))
		jv_free(next);
	jv_free(next);
	return out;
}

int
rec_jq_number(struct rec_jq *q, const msgpack_object *rec, double *num,
    struct rec_buf *err)
{
	jv out = run(q, rec, err);

	if (!jv_is_valid(out))
		return 0;
	if (jv_get_kind(out) != JV_KIND_NUMBER) {
		jv s = jv_dump_string(jv_copy(out), 0);
		rec_buf_reset(err);
		rec_buf_printf(err, "'%s' gave %s, not a number", q->expr,
		    jv_string_value(s));
		jv_free(s);
		jv_free(out);
		return 0;
	}
	*num = jv_number_value(out);
	jv_free(out);
	/* nan, infinite and 1e1000 are jq numbers: a score must order */
	if (!isfinite(*num)) {
		rec_buf_reset(err);
		rec_buf_printf(err, "'%s' gave %s, not a finite number",
		    q->expr, isnan(*num) ? "nan" : "infinity");
		return 0;
	}
	return 1;
}

int
rec_jq_truth(struct rec_jq *q, const msgpack_object *rec, int *truth,
    struct rec_buf *err)
{
	jv out = run(q, rec, err);
	jv_kind k;

	if (!jv_is_valid(out))
		return 0;
	k = jv_get_kind(out);
	*truth = k != JV_KIND_NULL && k != JV_KIND_FALSE;
	jv_free(out);
	return 1;
}
