/*
 * toolcheck.c: checking one tool call of the model (the tools mode,
 * toolplan.c) before anything runs: its arguments against its tool's
 * option table (kind, range, length, UTF-8, no control characters), the
 * catalog's columns, items, text fields and spaces, and its SQL, which
 * must prepare on a read-only handle of the catalog as one statement
 * that only reads.  A call that passes is rendered as its stage.
 *
 * What the model writes is only ever a value: rec renders each call as
 * "-X value" pairs of the table's options, operands after "--", and
 * runs the plan without a shell (run.c), whose check refuses any value
 * that could be read as an option.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "toolplan.h"

/* the bounds of what one call may ask */
#define MAXTEXT 500
#define MAXSQL 2000
#define MAXIDS 50

/* the validation handle: the catalog again, where nothing but reading
 * is allowed (rec-sql guards its own run the same way) */
static int
authorize(void *u, int action, const char *a, const char *b, const char *c,
    const char *d)
{
	(void)u; (void)a; (void)b; (void)c; (void)d;
	switch (action) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_FUNCTION:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	}
	return SQLITE_DENY;
}

void
rec_tp_checker_open(struct rec_tp_checker *ck, struct rec_kb *kb)
{
	struct rec_buf sql = {0};

	memset(ck, 0, sizeof *ck);
	ck->kb = kb;
	ck->db = rec_catalog_open(kb->catalog);
	rec_sql_functions(ck->db);
	if (kb->c_title)
		rec_buf_printf(&sql, "SELECT id FROM items WHERE id = ?1 OR "
		    "norm(\"%s\") = norm(?1) ORDER BY id = ?1 DESC%s%s%s LIMIT 1",
		    kb->c_title, kb->c_pop ? ", \"" : "", kb->c_pop ?
		    kb->c_pop : "", kb->c_pop ? "\" DESC" : "");
	else
		rec_buf_adds(&sql, "SELECT id FROM items WHERE id = ?1");
	if (sqlite3_prepare_v2(ck->db, sql.data, -1, &ck->item, NULL) !=
	    SQLITE_OK)
		rec_sqlite_die(ck->db, "checking the model's plan");
	sqlite3_set_authorizer(ck->db, authorize, NULL);
	rec_buf_free(&sql);
}

void
rec_tp_checker_close(struct rec_tp_checker *ck)
{
	sqlite3_finalize(ck->item);
	sqlite3_close(ck->db);
	rec_strs_free(&ck->labels);
}

/* SQL the model wrote, as rec-sql will run it: one read-only statement */
static int
check_sql(struct rec_tp_checker *ck, const char *where, const char *order,
    struct rec_buf *why)
{
	struct rec_buf sql = {0};
	sqlite3_stmt *st = NULL;
	const char *tail = NULL;
	int ret = -1;

	rec_buf_printf(&sql, "SELECT id FROM items WHERE (%s)", where ? where :
	    "1");
	if (order)
		rec_buf_printf(&sql, " ORDER BY %s", order);
	if (sqlite3_prepare_v2(ck->db, sql.data, -1, &st, &tail) !=
	    SQLITE_OK) {
		if (sqlite3_errcode(ck->db) == SQLITE_AUTH)
			rec_buf_printf(why, "refused: the SQL does more than "
			    "read");
		else {
			rec_buf_adds(why, "the SQL does not work: ");
			rec_sql_explain(ck->db, why);
		}
		goto out;
	}
	while (tail && (*tail == ' ' || *tail == '\t' || *tail == '\n' ||
	    *tail == ';' || *tail == '\r'))
		tail++;
	if (!st || (tail && *tail)) {
		rec_buf_adds(why, "refused: one condition, not several "
		    "statements");
		goto out;
	}
	if (!sqlite3_stmt_readonly(st)) {
		rec_buf_adds(why, "refused: the SQL would write");
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	rec_buf_free(&sql);
	return ret;
}

static int
text_ok(const msgpack_object *v, size_t max, struct rec_buf *why,
    const char *name)
{
	size_t i;

	if (v->type != MSGPACK_OBJECT_STR || !v->via.str.size) {
		rec_buf_printf(why, "%s must be a non-empty string", name);
		return 0;
	}
	if (v->via.str.size > max) {
		rec_buf_printf(why, "%s is longer than %zu bytes", name, max);
		return 0;
	}
	if (rec_utf8_valid(v->via.str.ptr, v->via.str.size) !=
	    v->via.str.size) {
		rec_buf_printf(why, "%s is not UTF-8", name);
		return 0;
	}
	for (i = 0; i < v->via.str.size; i++)
		if ((unsigned char)v->via.str.ptr[i] < 0x20 &&
		    v->via.str.ptr[i] != '\t' && v->via.str.ptr[i] != '\n') {
			rec_buf_printf(why, "%s holds control characters",
			    name);
			return 0;
		}
	return 1;
}

static int
number_of(const msgpack_object *v, double *d)
{
	if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
		*d = (double)v->via.u64;
	else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		*d = (double)v->via.i64;
	else if (v->type == MSGPACK_OBJECT_FLOAT64 ||
	    v->type == MSGPACK_OBJECT_FLOAT32)
		*d = v->via.f64;
	else
		return 0;
	return isfinite(*d);
}

/* a name of ours: [a-z0-9_-], 1 to 32 */
static int
label_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 32)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '_' || s[i] == '-'))
			return 0;
	return 1;
}

/* an item id, or a title the catalog has, into ids (comma list) */
static int
item_ok(struct rec_tp_checker *ck, const char *s, size_t n, struct rec_buf *ids,
    struct rec_buf *why)
{
	int ok;

	sqlite3_reset(ck->item);
	sqlite3_bind_text(ck->item, 1, s, (int)n, SQLITE_TRANSIENT);
	ok = sqlite3_step(ck->item) == SQLITE_ROW;
	if (ok && !strchr((const char *)sqlite3_column_text(ck->item, 0),
	    ','))
		rec_buf_printf(ids, "%s%s", ids->len ? "," : "",
		    sqlite3_column_text(ck->item, 0));
	else
		rec_buf_printf(why, "no item '%.*s' in the catalog (give ids "
		    "from the conversation)", (int)(n > 80 ? 80 : n), s);
	sqlite3_reset(ck->item);
	return ok;
}

/* a text field of rec-bm25: all, a role, or a text column */
static int
field_ok(struct rec_tp_checker *ck, const char *s, size_t n,
    struct rec_buf *why)
{
	char **text = NULL, *f = xstrndup(s, n);
	size_t nt = rec_text_columns(ck->db, &text), i, best = (size_t)-1;
	int ok = !strcmp(f, "all"), d, bd = 3;

	for (i = 0; rec_roles[i] && !ok; i++)
		if (!strcmp(f, rec_roles[i])) {
			char *c = rec_catalog_role(ck->db, f);
			ok = c != NULL;
			free(c);
		}
	for (i = 0; i < nt; i++) {
		if (!strcmp(text[i], f))
			ok = 1;
		d = rec_edit_distance(f, strlen(f), text[i], strlen(text[i]),
		    bd);
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	if (!ok) {
		rec_buf_printf(why, "no text field '%.*s'", (int)(n > 80 ? 80 :
		    n), s);
		if (best != (size_t)-1)
			rec_buf_printf(why, " (did you mean '%s'?)", text[best]);
		rec_buf_adds(why, "; fields: all");
		for (i = 0; i < nt; i++)
			rec_buf_printf(why, ", %s", text[i]);
	}
	for (i = 0; i < nt; i++)
		free(text[i]);
	free(text);
	free(f);
	return ok;
}

int
rec_tp_check_call(struct rec_tp_checker *ck, const struct rec_tooldef *d,
    const msgpack_object *args, struct rec_stage *st, int *all,
    struct rec_buf *why)
{
	struct rec_kb *kb = ck->kb;
	struct rec_buf v = {0}, operand = {0}, label = {0};
	const char *where = NULL, *order = NULL;
	char *wbuf = NULL, *obuf = NULL;
	uint32_t i, j;
	int ret = -1, like = 0, text = 0, space = 0;

	memset(st, 0, sizeof *st);
	*all = 0;
	rec_stage_arg(st, d->tool);
	if (d == &rec_tool_cf || d == &rec_tool_dense)
		/* an unknown seed: no records */
		rec_tp_opt_arg(st, 'e', NULL);
	if (args->type != MSGPACK_OBJECT_MAP) {
		rec_buf_adds(why, "the arguments are not a JSON object");
		goto out;
	}
	for (i = 0; i < args->via.map.size; i++) {
		const msgpack_object *k = &args->via.map.ptr[i].key;
		const msgpack_object *x = &args->via.map.ptr[i].val;
		const struct rec_opt *o = NULL;
		double num;
		char nb[64];

		if (k->type != MSGPACK_OBJECT_STR)
			continue;
		if (x->type == MSGPACK_OBJECT_NIL)
			continue;	/* a null is an option not given */
		if (d->operand && rec_tp_same_name(d->operand, k->via.str.ptr,
		    k->via.str.size)) {
			if (!text_ok(x, MAXTEXT, why, d->operand))
				goto out;
			rec_buf_add(&operand, x->via.str.ptr, x->via.str.size);
			continue;
		}
		for (o = d->opt; o->c; o++)
			if (o->kind != REC_V_NONE && rec_tp_same_name(o->name,
			    k->via.str.ptr, k->via.str.size))
				break;
		if (!o->c) {
			rec_buf_printf(why, "no parameter '%.*s' (it has:",
			    (int)(k->via.str.size > 40 ? 40 : k->via.str.size),
			    k->via.str.ptr);
			if (d->operand)
				rec_buf_printf(why, " %s", d->operand);
			for (o = d->opt; o->c; o++)
				if (o->kind != REC_V_NONE) {
					rec_buf_addc(why, ' ');
					rec_tp_model_name(why, o->name);
				}
			rec_buf_addc(why, ')');
			goto out;
		}
		rec_buf_reset(&v);
		switch (o->kind) {
		case REC_V_FLAG:
			if (x->type != MSGPACK_OBJECT_BOOLEAN) {
				rec_buf_printf(why, "%s must be true or false",
				    o->name);
				goto out;
			}
			if (x->via.boolean && o->c == 'a' && d ==
			    &rec_tool_sql)
				*all = 1;
			else if (x->via.boolean)
				rec_tp_opt_arg(st, o->c, NULL);
			continue;
		case REC_V_COUNT:
		case REC_V_UNIT:
		case REC_V_WEIGHT: {
			double lo = o->kind == REC_V_COUNT ? 1 : 0;
			double hi = o->kind == REC_V_COUNT ? 1000 : o->kind ==
			    REC_V_UNIT ? 1 : 100;
			if (!number_of(x, &num) || num < lo || num > hi ||
			    (o->kind == REC_V_COUNT && num != floor(num))) {
				rec_buf_printf(why, "%s must be a %s from %g to "
				    "%g", o->name, o->kind == REC_V_COUNT ?
				    "whole number" : "number", lo, hi);
				goto out;
			}
			snprintf(nb, sizeof nb, "%g", num);
			rec_tp_opt_arg(st, o->c, nb);
			continue;
		}
		case REC_V_TEXT:
			if (!text_ok(x, MAXTEXT, why, o->name))
				goto out;
			rec_buf_add(&v, x->via.str.ptr, x->via.str.size);
			if (o->c == 't')
				text = 1;
			break;
		case REC_V_IDS:
			if (x->type == MSGPACK_OBJECT_STR) {
				if (!item_ok(ck, x->via.str.ptr, x->via.str.size,
				    &v, why))
					goto out;
			} else if (x->type != MSGPACK_OBJECT_ARRAY ||
			    !x->via.array.size || x->via.array.size > MAXIDS) {
				rec_buf_printf(why, "%s must be a list of 1 to %d "
				    "item ids", o->name, MAXIDS);
				goto out;
			}
			for (j = 0; x->type == MSGPACK_OBJECT_ARRAY &&
			    j < x->via.array.size; j++) {
				const msgpack_object *e = &x->via.array.ptr[j];
				if (!text_ok(e, 200, why, o->name) ||
				    !item_ok(ck, e->via.str.ptr, e->via.str.size,
				    &v, why))
					goto out;
			}
			if (o->c == 'l')
				like = 1;
			break;
		case REC_V_FIELD:
			if (x->type == MSGPACK_OBJECT_STR) {
				if (!field_ok(ck, x->via.str.ptr,
				    x->via.str.size, why))
					goto out;
				rec_buf_add(&v, x->via.str.ptr, x->via.str.size);
				break;
			}
			if (x->type != MSGPACK_OBJECT_ARRAY ||
			    !x->via.array.size || x->via.array.size > 8) {
				rec_buf_printf(why, "%s must be a list of 1 to 8 "
				    "fields", o->name);
				goto out;
			}
			for (j = 0; j < x->via.array.size; j++) {
				const msgpack_object *e = &x->via.array.ptr[j];
				char *f;
				if (!text_ok(e, 64, why, o->name) ||
				    !field_ok(ck, e->via.str.ptr,
				    e->via.str.size, why))
					goto out;
				f = xstrndup(e->via.str.ptr, e->via.str.size);
				rec_tp_opt_arg(st, o->c, f);
				free(f);
			}
			continue;
		case REC_V_COLUMN: {
			char *c;
			if (!text_ok(x, 64, why, o->name))
				goto out;
			c = xstrndup(x->via.str.ptr, x->via.str.size);
			if (!rec_catalog_column(ck->db, c, NULL, NULL, 0)) {
				char *r = rec_catalog_role(ck->db, c);
				if (!r) {
					rec_buf_printf(why, "no column '%s'", c);
					free(c);
					goto out;
				}
				free(r);
			}
			rec_buf_adds(&v, c);
			free(c);
			break;
		}
		case REC_V_WHERE:
		case REC_V_ORDER:
			if (!text_ok(x, MAXSQL, why, o->name))
				goto out;
			rec_buf_add(&v, x->via.str.ptr, x->via.str.size);
			if (o->kind == REC_V_WHERE) {
				free(wbuf);
				where = wbuf = xstrdup(v.data);
			} else {
				free(obuf);
				order = obuf = xstrdup(v.data);
			}
			break;
		case REC_V_NAME:
			if (x->type != MSGPACK_OBJECT_STR || !label_ok(
			    x->via.str.ptr, x->via.str.size)) {
				rec_buf_printf(why, "%s must be a name of 1 to 32 "
				    "of a-z, 0-9, _ and -", o->name);
				goto out;
			}
			rec_buf_reset(&label);
			rec_buf_add(&label, x->via.str.ptr, x->via.str.size);
			continue;	/* added last, once unique */
		case REC_V_SPACE:
		case REC_V_SEMID: {
			char *sp;
			if (!text_ok(x, 64, why, o->name))
				goto out;
			sp = xstrndup(x->via.str.ptr, x->via.str.size);
			if (o->kind == REC_V_SEMID ? !kb->semid_space ||
			    strcmp(sp, kb->semid_space) :
			    !rec_catalog_space(ck->db, sp)) {
				rec_buf_printf(why, "no %s '%s' in the catalog",
				    o->kind == REC_V_SEMID ? "space with "
				    "semantic IDs" : "vector space", sp);
				free(sp);
				goto out;
			}
			rec_buf_adds(&v, sp);
			free(sp);
			space = 1;
			break;
		}
		case REC_V_SRCW:
			if (x->type != MSGPACK_OBJECT_MAP) {
				rec_buf_printf(why, "%s must be an object of "
				    "stream names and weights", o->name);
				goto out;
			}
			for (j = 0; j < x->via.map.size; j++) {
				const msgpack_object *sk = &x->via.map.ptr[j].key;
				if (sk->type != MSGPACK_OBJECT_STR || !label_ok(
				    sk->via.str.ptr, sk->via.str.size) ||
				    !number_of(&x->via.map.ptr[j].val, &num) ||
				    num < 0 || num > 100) {
					rec_buf_printf(why, "%s: a stream name and "
					    "a weight from 0 to 100 each",
					    o->name);
					goto out;
				}
				rec_buf_reset(&v);
				rec_buf_printf(&v, "%.*s=%g", (int)sk->via.str.size,
				    sk->via.str.ptr, num);
				rec_tp_opt_arg(st, o->c, v.data);
			}
			continue;
		case REC_V_ENUM: {
			const char *p = o->choices;
			int found = 0;
			if (x->type != MSGPACK_OBJECT_STR)
				goto bad_enum;
			while (*p && !found) {
				size_t n = strcspn(p, "|");
				found = n == x->via.str.size &&
				    !memcmp(p, x->via.str.ptr, n);
				p += n + (p[n] == '|');
			}
			if (!found) {
bad_enum:
				rec_buf_printf(why, "%s must be one of %s",
				    o->name, o->choices);
				goto out;
			}
			rec_buf_add(&v, x->via.str.ptr, x->via.str.size);
			break;
		}
		}
		if (o->kind != REC_V_WHERE && o->kind != REC_V_ORDER)
			rec_tp_opt_arg(st, o->c, v.data);
	}
	/* what each tool cannot do without */
	if (d->operand && !operand.len) {
		rec_buf_printf(why, "%s is missing", d->operand);
		goto out;
	}
	if ((d == &rec_tool_cf || d == &rec_tool_semid) && !like) {
		rec_buf_adds(why, "like is missing (item ids)");
		goto out;
	}
	if (d == &rec_tool_dense) {
		if (like == text) {
			rec_buf_adds(why, "give like (item ids) or text (words), "
			    "one of them");
			goto out;
		}
		if (!space) {
			const char *sp = text ? (kb->enc_space ? kb->enc_space :
			    kb->text_space) : kb->dense_space ? kb->dense_space :
			    kb->enc_space;
			if (!sp) {
				rec_buf_adds(why, text ? "the catalog has no "
				    "space with a text encoder" : "the catalog "
				    "has no vector space of items");
				goto out;
			}
			rec_tp_opt_arg(st, 'S', sp);
		}
	}
	if (d == &rec_tool_semid && !space)
		rec_tp_opt_arg(st, 'S', kb->semid_space);
	if (d == &rec_tool_sql) {
		if (!where) {
			rec_buf_adds(why, "where is missing");
			goto out;
		}
		if (order && !*all) {
			free(obuf);
			order = obuf = NULL;	/* a filter keeps the order */
		}
		if (check_sql(ck, where, order, why) < 0)
			goto out;
		rec_tp_opt_arg(st, 'w', where);
		if (order)
			rec_tp_opt_arg(st, 'o', order);
	}
	/* every stream its own name, so fusion tells them apart */
	if (d != &rec_tool_rank && (d != &rec_tool_sql || *all)) {
		if (!label.len || rec_strs_has(&ck->labels, label.data, 0)) {
			size_t n = ck->labels.n + 1;
			rec_buf_reset(&label);
			rec_buf_printf(&label, "%s%zu", d->tool + 4, n);
		}
		rec_strs_add(&ck->labels, label.data);
		rec_tp_opt_arg(st, 's', label.data);
	}
	if (d == &rec_tool_sql && *all && !rec_tp_has_opt(st, 'k'))
		rec_tp_opt_arg(st, 'k', "300");
	if (d == &rec_tool_sql && *all)
		rec_tp_opt_arg(st, 'a', NULL);
	if (operand.len) {
		/* whatever it says, an operand */
		rec_stage_arg(st, "--");
		rec_stage_arg(st, operand.data);
	}
	ret = 0;
out:
	if (ret < 0) {
		for (j = 0; j < (uint32_t)st->argc; j++)
			free(st->argv[j]);
		free(st->argv);
		memset(st, 0, sizeof *st);
	}
	rec_buf_free(&v);
	rec_buf_free(&operand);
	rec_buf_free(&label);
	free(wbuf);
	free(obuf);
	return ret;
}

void
rec_tp_opt_arg(struct rec_stage *s, int c, const char *v)
{
	char o[3] = { '-', (char)c, 0 };

	rec_stage_arg(s, o);
	if (v)
		rec_stage_arg(s, v);
}

int
rec_tp_has_opt(const struct rec_stage *s, int c)
{
	int i;

	for (i = 1; i < s->argc; i++) {
		if (!strcmp(s->argv[i], "--"))
			break;
		if (s->argv[i][0] == '-' && s->argv[i][1] == c &&
		    !s->argv[i][2])
			return 1;
	}
	return 0;
}
