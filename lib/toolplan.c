/*
 * toolplan.c: the tools mode of planning with a model (TalkPlay-Tools,
 * InteRecAgent): the model is given the catalog's schema, the plan
 * tools as OpenAI function definitions (from the tools' own option
 * tables, opts.c), and the dialogue so far, and answers with tool calls
 * in order.  Every call is checked against its tool's options and the
 * catalog; what fails goes back to the model once; what still fails is
 * dropped with a note; with nothing usable the rule planner answers.
 *
 * What the model writes is only ever a value: rec renders each call as
 * "-X value" pairs of the table's options, operands after "--", and
 * runs the plan without a shell (run.c), whose check refuses any value
 * that could be read as an option.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "converse.h"

/* the bounds of what one call may ask */
#define MAXCALLS 8
#define MAXTEXT 500
#define MAXSQL 2000
#define MAXIDS 50

int
rec_llm_mode(const char *arg)
{
	const char *e = arg ? arg : getenv("REC_LLM_MODE");

	if (!e || !*e || !strcmp(e, "intent"))
		return REC_MODE_INTENT;
	if (!strcmp(e, "tools"))
		return REC_MODE_TOOLS;
	rec_usage_die("%s: not a model mode (intent or tools): '%s'", arg ?
	    "-M" : "REC_LLM_MODE", e);
}

/* a parsed JSON value */
struct jv {
	struct rec_buf pk;
	msgpack_zone z;
	msgpack_object o;
	int ok;
};

static int
jv_parse(struct jv *j, const char *s, size_t n, struct rec_buf *err)
{
	size_t off = 0;

	memset(j, 0, sizeof *j);
	msgpack_zone_init(&j->z, 2048);
	if (rec_json_to_msgpack(s, n, &j->pk, NULL, err) < 0)
		return -1;
	if (msgpack_unpack(j->pk.data, j->pk.len, &off, &j->z, &j->o) !=
	    MSGPACK_UNPACK_SUCCESS)
		return -1;
	j->ok = 1;
	return 0;
}

static void
jv_free(struct jv *j)
{
	msgpack_zone_destroy(&j->z);
	rec_buf_free(&j->pk);
}

/* a tool's name for a model: rec_bm25; a long option's: like_weight */
static void
model_name(struct rec_buf *b, const char *s)
{
	for (; *s; s++)
		rec_buf_addc(b, *s == '-' ? '_' : *s);
}

static int
same_name(const char *ours, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++, ours++)
		if (!*ours || (*ours == '-' ? p[i] != '_' && p[i] != '-' :
		    *ours != p[i]))
			return 0;
	return !*ours;
}

/* whether the catalog has what tool t needs */
static int
tool_usable(const struct rec_kb *kb, const struct rec_tooldef *t)
{
	if (t == &rec_tool_bm25)
		return kb->has_bm25;
	if (t == &rec_tool_cf)
		return kb->has_knn;
	if (t == &rec_tool_semid)
		return kb->semid_space != NULL;
	if (t == &rec_tool_dense)
		return kb->dense_space || kb->enc_space || kb->text_space;
	return 1;
}

static void
str_json(struct rec_buf *b, const char *s)
{
	rec_json_string(b, s, strlen(s));
}

/* the JSON schema of one option's value */
static void
param_schema(struct rec_kb *kb, const struct rec_opt *o, struct rec_buf *b)
{
	struct rec_buf d = {0};
	const char *p;
	size_t i;

	/* --help's words, on one line */
	for (p = o->help; *p; p++)
		rec_buf_addc(&d, *p == '\n' ? ' ' : *p);
	switch (o->kind) {
	case REC_V_FLAG:
		rec_buf_adds(b, "{\"type\":\"boolean\"");
		break;
	case REC_V_COUNT:
		rec_buf_adds(b, "{\"type\":\"integer\",\"minimum\":1,"
		    "\"maximum\":1000");
		break;
	case REC_V_UNIT:
		rec_buf_adds(b, "{\"type\":\"number\",\"minimum\":0,"
		    "\"maximum\":1");
		break;
	case REC_V_WEIGHT:
		rec_buf_adds(b, "{\"type\":\"number\",\"minimum\":0,"
		    "\"maximum\":100");
		break;
	case REC_V_IDS:
		rec_buf_adds(b, "{\"type\":\"array\",\"items\":{\"type\":"
		    "\"string\"}");
		rec_buf_adds(&d, " (item ids of the catalog as the conversation "
		    "gives them, or exact titles)");
		break;
	case REC_V_FIELD:
		rec_buf_adds(b, "{\"type\":\"array\",\"items\":{\"type\":"
		    "\"string\"}");
		break;
	case REC_V_SRCW:
		rec_buf_adds(b, "{\"type\":\"object\",\"additionalProperties\":"
		    "{\"type\":\"number\"}");
		rec_buf_adds(&d, " (an object: the as name of a stream -> its "
		    "weight)");
		break;
	case REC_V_ENUM:
		rec_buf_adds(b, "{\"type\":\"string\",\"enum\":[");
		for (p = o->choices, i = 0; *p; i++) {
			size_t n = strcspn(p, "|");
			rec_buf_adds(b, i ? "," : "");
			rec_json_string(b, p, n);
			p += n + (p[n] == '|');
		}
		rec_buf_addc(b, ']');
		break;
	case REC_V_SPACE:
		rec_buf_adds(b, "{\"type\":\"string\"");
		if (kb->dense_space || kb->enc_space || kb->text_space) {
			rec_buf_adds(&d, " (one of:");
			if (kb->dense_space)
				rec_buf_printf(&d, " %s", kb->dense_space);
			if (kb->enc_space)
				rec_buf_printf(&d, " %s (has a text encoder)",
				    kb->enc_space);
			if (kb->text_space && kb->text_space != kb->enc_space)
				rec_buf_printf(&d, " %s (has a text encoder)",
				    kb->text_space);
			rec_buf_addc(&d, ')');
		}
		break;
	case REC_V_SEMID:
		rec_buf_adds(b, "{\"type\":\"string\"");
		if (kb->semid_space)
			rec_buf_printf(&d, " (%s)", kb->semid_space);
		break;
	default:
		rec_buf_adds(b, "{\"type\":\"string\"");
		if (o->kind == REC_V_WHERE)
			rec_buf_adds(&d, " (SQLite; has(column, value) tests a "
			    "list column)");
		break;
	}
	rec_buf_adds(b, ",\"description\":");
	rec_json_string(b, d.data, d.len);
	rec_buf_addc(b, '}');
	rec_buf_free(&d);
}

void
rec_tools_json(struct rec_kb *kb, struct rec_buf *b)
{
	const struct rec_opt *o;
	size_t t, n = 0;

	rec_buf_addc(b, '[');
	for (t = 0; rec_tooldefs[t]; t++) {
		const struct rec_tooldef *d = rec_tooldefs[t];
		int first = 1;
		if (!tool_usable(kb, d))
			continue;
		rec_buf_adds(b, n++ ? "," : "");
		rec_buf_adds(b, "{\"type\":\"function\",\"function\":{\"name\":\"");
		model_name(b, d->tool);
		rec_buf_adds(b, "\",\"description\":");
		str_json(b, d->what);
		rec_buf_adds(b, ",\"parameters\":{\"type\":\"object\","
		    "\"properties\":{");
		if (d->operand) {
			rec_buf_printf(b, "\"%s\":{\"type\":\"string\","
			    "\"description\":", d->operand);
			str_json(b, d->operand_help);
			rec_buf_addc(b, '}');
			first = 0;
		}
		for (o = d->opt; o->c; o++) {
			if (o->kind == REC_V_NONE)
				continue;
			rec_buf_adds(b, first ? "\"" : ",\"");
			model_name(b, o->name);
			rec_buf_adds(b, "\":");
			param_schema(kb, o, b);
			first = 0;
		}
		rec_buf_adds(b, "}");
		if (d->operand)
			rec_buf_printf(b, ",\"required\":[\"%s\"]", d->operand);
		else if (d == &rec_tool_sql)
			rec_buf_adds(b, ",\"required\":[\"where\"]");
		else if (d == &rec_tool_cf || d == &rec_tool_semid)
			rec_buf_adds(b, ",\"required\":[\"like\"]");
		rec_buf_adds(b, "}}}");
	}
	rec_buf_addc(b, ']');
}

/* the most common values of a tag column, at most max, as "a (12), ..." */
static void
top_values(const struct rec_tagcol *tc, size_t max, struct rec_buf *b)
{
	size_t *best = xcalloc(max, sizeof *best), nb = 0, i, j;

	for (i = 0; i < tc->val.n; i++) {
		for (j = nb; j > 0 && tc->count[best[j - 1]] < tc->count[i];
		    j--)
			if (j < max)
				best[j] = best[j - 1];
		if (j < max) {
			best[j] = i;
			if (nb < max)
				nb++;
		}
	}
	for (i = 0; i < nb; i++)
		rec_buf_printf(b, "%s%s (%u)", i ? ", " : "",
		    tc->val.key[best[i]], tc->count[best[i]]);
	free(best);
}

static long
count_of(struct rec_kb *kb, const char *table)
{
	static const char what[] = "counting for the model";
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	long n = 0;

	rec_buf_printf(&sql, "SELECT count(*) FROM %s", table);
	st = rec_catalog_prepare(kb->cat, sql.data, what);
	if (rec_catalog_step(kb->cat, st, what))
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	rec_buf_free(&sql);
	return n;
}

void
rec_schema_text(struct rec_kb *kb, struct rec_buf *b)
{
	static const char what[] = "reading the catalog's columns";
	sqlite3_stmt *st;
	char **text = NULL;
	size_t i, n;

	rec_buf_printf(b, "The catalog: %zu items, %ld users, %ld "
	    "interactions.\nIts items columns (name, type, role):", kb->nitems,
	    count_of(kb, "users"), count_of(kb, "interactions"));
	st = rec_catalog_prepare(kb->cat, "SELECT name, type, role, list FROM "
	    "columns ORDER BY position", what);
	while (rec_catalog_step(kb->cat, st, what))
		rec_buf_printf(b, " %s (%s%s, %s);", sqlite3_column_text(st, 0),
		    sqlite3_column_text(st, 1), sqlite3_column_int(st, 3) ?
		    " list" : "", sqlite3_column_text(st, 2));
	sqlite3_reset(st);
	rec_buf_addc(b, '\n');
	for (i = 0; i < kb->ntc; i++) {
		rec_buf_printf(b, "Common values of %s (%zu in all, folded; "
		    "has(%s, value) folds too): ", kb->tc[i].name,
		    kb->tc[i].val.n, kb->tc[i].name);
		top_values(&kb->tc[i], 8, b);
		rec_buf_addc(b, '\n');
	}
	n = rec_text_columns(kb->cat->db, &text);
	if (n) {
		rec_buf_adds(b, "Text fields of rec_bm25: all,");
		for (i = 0; i < n; i++)
			rec_buf_printf(b, " %s%s", text[i], i + 1 < n ? "," : "");
		rec_buf_addc(b, '\n');
	}
	for (i = 0; i < n; i++)
		free(text[i]);
	free(text);
	if (kb->dense_space)
		rec_buf_printf(b, "Vector space %s: items near items.\n",
		    kb->dense_space);
	if (kb->enc_space)
		rec_buf_printf(b, "Vector space %s: items near items or near "
		    "words (text).\n", kb->enc_space);
	if (kb->text_space && (!kb->enc_space || strcmp(kb->text_space,
	    kb->enc_space)))
		rec_buf_printf(b, "Vector space %s: items near words (text), "
		    "through the model server.\n", kb->text_space);
	if (kb->semid_space)
		rec_buf_printf(b, "Semantic IDs: space %s.\n", kb->semid_space);
	if (kb->has_knn)
		rec_buf_adds(b, "Co-consumption (rec_cf): trained.\n");
}

/* ---- checking a call ---- */

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

struct checker {
	struct rec_kb *kb;
	sqlite3 *db;
	sqlite3_stmt *item;	/* an id, or a title -> the id */
	struct rec_strs labels;	/* the as names given so far */
};

static void
checker_open(struct checker *ck, struct rec_kb *kb)
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

static void
checker_close(struct checker *ck)
{
	sqlite3_finalize(ck->item);
	sqlite3_close(ck->db);
	rec_strs_free(&ck->labels);
}

/* SQL the model wrote, as rec-sql will run it: one read-only statement */
static int
check_sql(struct checker *ck, const char *where, const char *order,
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
item_ok(struct checker *ck, const char *s, size_t n, struct rec_buf *ids,
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
field_ok(struct checker *ck, const char *s, size_t n, struct rec_buf *why)
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

/* appends one argument a to s */
static void
stage_add(struct rec_stage *s, const char *a)
{
	s->argv = xrealloc(s->argv, (size_t)(s->argc + 2) * sizeof *s->argv);
	s->argv[s->argc++] = xstrdup(a);
	s->argv[s->argc] = NULL;
}

/* "-c", then v as its own argument unless NULL */
static void
opt_arg(struct rec_stage *s, int c, const char *v)
{
	char o[3] = { '-', (char)c, 0 };

	stage_add(s, o);
	if (v)
		stage_add(s, v);
}

static int
has_opt(const struct rec_stage *s, int c)
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

/* One call, checked and rendered: 0 with its stage in st (and *all set
 * for rec-sql with all), or -1 with what is wrong in why. */
static int
check_call(struct checker *ck, const struct rec_tooldef *d,
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
	stage_add(st, d->tool);
	if (d == &rec_tool_cf || d == &rec_tool_dense)
		opt_arg(st, 'e', NULL);	/* an unknown seed: no records */
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
		if (d->operand && same_name(d->operand, k->via.str.ptr,
		    k->via.str.size)) {
			if (!text_ok(x, MAXTEXT, why, d->operand))
				goto out;
			rec_buf_add(&operand, x->via.str.ptr, x->via.str.size);
			continue;
		}
		for (o = d->opt; o->c; o++)
			if (o->kind != REC_V_NONE && same_name(o->name,
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
					model_name(why, o->name);
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
				opt_arg(st, o->c, NULL);
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
			opt_arg(st, o->c, nb);
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
				opt_arg(st, o->c, f);
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
				opt_arg(st, o->c, v.data);
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
			opt_arg(st, o->c, v.data);
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
			opt_arg(st, 'S', sp);
		}
	}
	if (d == &rec_tool_semid && !space)
		opt_arg(st, 'S', kb->semid_space);
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
		opt_arg(st, 'w', where);
		if (order)
			opt_arg(st, 'o', order);
	}
	/* every stream its own name, so fusion tells them apart */
	if (d != &rec_tool_rank && (d != &rec_tool_sql || *all)) {
		if (!label.len || rec_strs_has(&ck->labels, label.data, 0)) {
			size_t n = ck->labels.n + 1;
			rec_buf_reset(&label);
			rec_buf_printf(&label, "%s%zu", d->tool + 4, n);
		}
		rec_strs_add(&ck->labels, label.data);
		opt_arg(st, 's', label.data);
	}
	if (d == &rec_tool_sql && *all && !has_opt(st, 'k'))
		opt_arg(st, 'k', "300");
	if (d == &rec_tool_sql && *all)
		opt_arg(st, 'a', NULL);
	if (operand.len) {
		stage_add(st, "--");	/* whatever it says, an operand */
		stage_add(st, operand.data);
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

static void
stage_free(struct rec_stage *s)
{
	int j;

	for (j = 0; j < s->argc; j++)
		free(s->argv[j]);
	free(s->argv);
	memset(s, 0, sizeof *s);
}

static void
push_stage(struct rec_stage **v, size_t *n, struct rec_stage *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = *s;
	memset(s, 0, sizeof *s);
}

static void
sql_quote(struct rec_buf *b, const char *s)
{
	rec_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			rec_buf_addc(b, '\'');
		rec_buf_addc(b, *s);
	}
	rec_buf_addc(b, '\'');
}

/* what the conversation rules out, whatever the model planned: the
 * creators disliked (a filter), the items disliked, seen and shown
 * (rec-rank -n), one record per song, the user's history, the cut */
static void
finish_plan(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_stage *rank, struct rec_plan *p)
{
	struct rec_buf b = {0};
	struct rec_stage s = {0};
	struct rec_strs gone = {0};
	const struct rec_strs *out[4] = { &in->disliked_items, &in->seen,
	    &in->shown, &in->earlier_items };
	size_t i, w;
	char num[32];

	for (i = 0; i < in->disliked_creators.n && kb->c_creator; i++) {
		rec_buf_printf(&b, "%scoalesce(\"%s\", '') <> ", b.len ?
		    " AND " : "", kb->c_creator);
		sql_quote(&b, in->disliked_creators.v[i]);
	}
	if (b.len) {
		stage_add(&s, "rec-sql");
		opt_arg(&s, 'w', b.data);
		push_stage(&p->filt, &p->nfilt, &s);
	}
	if (!rank->argc)
		stage_add(rank, "rec-rank");
	if (!has_opt(rank, 'F'))
		opt_arg(rank, 'F', "rrf");
	for (w = 0; w < 4; w++)
		for (i = 0; i < out[w]->n; i++)
			rec_strs_add(&gone, out[w]->v[i]);
	/* the seeds are the person's, not news to them */
	for (i = 0; i < in->liked_items.n; i++)
		if (!rec_strs_has(&in->wanted, in->liked_items.v[i], 0))
			rec_strs_add(&gone, in->liked_items.v[i]);
	rec_buf_reset(&b);
	for (i = 0; i < gone.n; i++)
		rec_buf_printf(&b, "%s%s", b.len ? "," : "", gone.v[i]);
	rec_strs_free(&gone);
	if (b.len)
		opt_arg(rank, 'n', b.data);
	if (in->user) {
		opt_arg(rank, 'x', in->user);
	}
	if (kb->c_title && kb->c_creator)
		opt_arg(rank, 'U', "title,creator");
	if (kb->c_creator && !has_opt(rank, 'D') && !in->liked_creators.n) {
		opt_arg(rank, 'D', kb->c_creator);
		if (!has_opt(rank, 'p'))
			opt_arg(rank, 'p', "2");
	}
	if (!has_opt(rank, 'k')) {
		snprintf(num, sizeof num, "%d", in->k > 0 ? in->k : 10);
		opt_arg(rank, 'k', num);
	}
	push_stage(&p->filt, &p->nfilt, rank);
	rec_buf_free(&b);
}

/* ---- the conversation with the model ---- */

void
rec_toolplan_free(struct rec_toolplan *tp)
{
	rec_buf_free(&tp->msgs);
	rec_buf_free(&tp->tools);
	rec_buf_free(&tp->calls);
	rec_buf_free(&tp->log);
	rec_buf_free(&tp->notes);
	memset(tp, 0, sizeof *tp);
}

static void
system_text(struct rec_kb *kb, const char *demos, const char *message,
    struct rec_buf *s)
{
	rec_buf_adds(s, "You plan music, film or game recommendations for a "
	    "conversation by calling tools over one catalog. Answer with tool "
	    "calls only, all of them at once, in order: each retriever "
	    "(rec_bm25, rec_dense, rec_cf, rec_semid, and rec_sql with "
	    "all=true) adds a stream of candidates; rec_sql without all keeps "
	    "only the candidates that meet its condition; rec_rank, once and "
	    "last, fuses the streams (weight by their as names), and cuts the "
	    "list. Use only the columns, values, spaces and item ids given "
	    "here or in the conversation. rec leaves out what the person "
	    "disliked and what was shown before.\n");
	rec_schema_text(kb, s);
	if (demos)
		rec_demos_prompt(demos, message, "plan", 3, s);
}

/* a tool call of the model: its id, tool and arguments (JSON text) */
struct mcall {
	char *id, *name;
	struct rec_buf args;
};

static void
mcalls_free(struct mcall *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(c[i].id);
		free(c[i].name);
		rec_buf_free(&c[i].args);
	}
	free(c);
}

static void
str_of(const msgpack_object *o, char **out)
{
	*out = o && o->type == MSGPACK_OBJECT_STR ? xstrndup(o->via.str.ptr,
	    o->via.str.size) : NULL;
}

/* the tool calls of the message msg (JSON): its tool_calls, or else a
 * JSON array of {"name","arguments"} in its content (what some local
 * servers give); -1 with why when there are none */
static int
read_calls(const char *msg, size_t len, struct mcall **calls, size_t *n,
    struct rec_buf *why)
{
	struct jv j, c;
	const msgpack_object *tc, *content, *arr = NULL;
	struct rec_buf err = {0};
	uint32_t i;
	int inner = 0;

	*calls = NULL;
	*n = 0;
	if (jv_parse(&j, msg, len, &err) < 0) {
		rec_buf_adds(why, "the answer cannot be read");
		jv_free(&j);
		rec_buf_free(&err);
		return -1;
	}
	tc = rec_map_get(&j.o, "tool_calls");
	content = rec_map_get(&j.o, "content");
	memset(&c, 0, sizeof c);
	msgpack_zone_init(&c.z, 64);
	if (tc && tc->type == MSGPACK_OBJECT_ARRAY && tc->via.array.size)
		arr = tc;
	else if (content && content->type == MSGPACK_OBJECT_STR) {
		msgpack_zone_destroy(&c.z);
		rec_buf_reset(&err);
		if (jv_parse(&c, content->via.str.ptr, content->via.str.size,
		    &err) == 0) {
			inner = 1;
			if (c.o.type == MSGPACK_OBJECT_MAP)
				arr = rec_map_get(&c.o, "tool_calls");
			else
				arr = &c.o;
			if (arr && arr->type != MSGPACK_OBJECT_ARRAY)
				arr = NULL;
		}
	}
	if (!arr || !arr->via.array.size) {
		rec_buf_adds(why, content && content->type ==
		    MSGPACK_OBJECT_STR && !inner ? "the answer is words, not "
		    "tool calls" : "the answer has no tool calls");
		goto out;
	}
	*calls = xcalloc(arr->via.array.size, sizeof **calls);
	for (i = 0; i < arr->via.array.size && i < MAXCALLS; i++) {
		const msgpack_object *e = &arr->via.array.ptr[i], *f, *a;
		struct mcall *m = &(*calls)[(*n)++];
		f = rec_map_get(e, "function");
		if (!f)
			f = e;
		str_of(rec_map_get(e, "id"), &m->id);
		str_of(rec_map_get(f, "name"), &m->name);
		a = rec_map_get(f, "arguments");
		if (a && a->type == MSGPACK_OBJECT_STR)
			rec_buf_add(&m->args, a->via.str.ptr, a->via.str.size);
		else if (a)
			rec_json_write(&m->args, a, &err);
		if (!m->id) {
			char b[32];
			snprintf(b, sizeof b, "call_%u", i + 1);
			m->id = xstrdup(b);
		}
	}
	if (arr->via.array.size > MAXCALLS)
		rec_buf_printf(why, "more than %d calls: the rest were left out",
		    MAXCALLS);
out:
	jv_free(&c);
	jv_free(&j);
	rec_buf_free(&err);
	return *n ? 0 : -1;
}

/* one checked call */
struct checked {
	struct rec_stage st;
	const struct rec_tooldef *d;
	int all, ok;
	struct rec_buf why;
};

/* Checks the calls in order into cks; returns how many passed.  The
 * tool results for the model go to results (JSON messages, each
 * beginning with ','), the accepted calls to accepted (a JSON array,
 * for demonstrations). */
static size_t
check_calls(struct rec_kb *kb, const struct mcall *calls, size_t n,
    struct checked *cks, struct rec_buf *results, struct rec_buf *accepted)
{
	struct checker ck;
	size_t i, good = 0;
	int rank = 0;

	checker_open(&ck, kb);
	rec_buf_reset(accepted);
	rec_buf_addc(accepted, '[');
	for (i = 0; i < n; i++) {
		struct checked *c = &cks[i];
		struct jv a;
		struct rec_buf err = {0};
		size_t t;

		memset(c, 0, sizeof *c);
		for (t = 0; calls[i].name && rec_tooldefs[t]; t++)
			if (same_name(rec_tooldefs[t]->tool, calls[i].name,
			    strlen(calls[i].name)) &&
			    tool_usable(kb, rec_tooldefs[t]))
				c->d = rec_tooldefs[t];
		memset(&a, 0, sizeof a);
		msgpack_zone_init(&a.z, 64);
		if (!c->d)
			rec_buf_printf(&c->why, "no tool '%.40s'", calls[i].name ?
			    calls[i].name : "");
		else if (c->d == &rec_tool_rank && rank)
			rec_buf_adds(&c->why, "rec_rank is called once");
		else {
			msgpack_zone_destroy(&a.z);
			if (jv_parse(&a, calls[i].args.data ? calls[i].args.data :
			    "{}", calls[i].args.data ? calls[i].args.len : 2,
			    &err) < 0)
				rec_buf_printf(&c->why, "the arguments are not "
				    "JSON (%s)", err.data ? err.data : "");
			else if (check_call(&ck, c->d, &a.o, &c->st, &c->all,
			    &c->why) == 0) {
				c->ok = 1;
				good++;
				rank |= c->d == &rec_tool_rank;
				rec_buf_adds(accepted, accepted->len > 1 ? "," :
				    "");
				rec_buf_adds(accepted, "{\"name\":");
				str_json(accepted, calls[i].name);
				rec_buf_adds(accepted, ",\"arguments\":");
				rec_buf_add(accepted, calls[i].args.data,
				    calls[i].args.len);
				rec_buf_addc(accepted, '}');
			}
		}
		jv_free(&a);
		rec_buf_free(&err);
		rec_buf_adds(results, ",{\"role\":\"tool\",\"tool_call_id\":");
		str_json(results, calls[i].id);
		rec_buf_adds(results, ",\"content\":");
		if (c->ok)
			str_json(results, "accepted");
		else {
			struct rec_buf w = {0};
			rec_buf_printf(&w, "error: %s", c->why.data);
			rec_json_string(results, w.data, w.len);
			rec_buf_free(&w);
		}
		rec_buf_addc(results, '}');
	}
	rec_buf_addc(accepted, ']');
	checker_close(&ck);
	return good;
}

/* the plan of the calls that passed */
static void
assemble(struct rec_kb *kb, const struct rec_intent *in, struct checked *cks,
    size_t n, struct rec_plan *p)
{
	struct rec_stage rank = {0};
	size_t i, nsrc = 0;

	memset(p, 0, sizeof *p);
	for (i = 0; i < n; i++)
		if (cks[i].ok && (cks[i].d->source == 1 || cks[i].all))
			nsrc++;
	for (i = 0; i < n; i++) {
		struct checked *c = &cks[i];
		if (!c->ok)
			continue;
		if (c->d == &rec_tool_rank)
			rank = c->st;
		else if (c->d->source == 1 || c->all)
			push_stage(&p->src, &p->nsrc, &c->st);
		else if (!nsrc) {
			/* a condition with nothing before it: it selects */
			opt_arg(&c->st, 'a', NULL);
			opt_arg(&c->st, 's', "sql");
			opt_arg(&c->st, 'k', "300");
			push_stage(&p->src, &p->nsrc, &c->st);
		} else
			push_stage(&p->filt, &p->nfilt, &c->st);
		memset(&c->st, 0, sizeof c->st);
	}
	finish_plan(kb, in, &rank, p);
}

static void
checked_free(struct checked *cks, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		stage_free(&cks[i].st);
		rec_buf_free(&cks[i].why);
	}
	free(cks);
}

/* Asks the model (what: "plan", "repair", "replan") and checks what it
 * answers: 1 with every call good, 0 with some good (the rest said in
 * prob), -1 with none (why in prob); -2 when the endpoint failed.  The
 * good calls become p. */
static int
ask(struct rec_kb *kb, const struct rec_intent *in, struct rec_toolplan *tp,
    const char *what, struct rec_plan *p, struct rec_buf *prob)
{
	struct rec_buf reply = {0}, err = {0}, results = {0};
	struct mcall *calls = NULL;
	struct checked *cks = NULL;
	size_t n = 0, good = 0, i;
	int ret;

	rec_buf_reset(prob);
	rec_buf_adds(&tp->msgs, "]");
	ret = rec_llm_tools(what, tp->msgs.data, tp->tools.data, &reply, &err);
	tp->msgs.data[--tp->msgs.len] = 0;	/* reopen the array */
	if (ret < 0) {
		rec_buf_printf(&tp->log, "model: %s; ", err.data);
		ret = -2;
		goto out;
	}
	/* what it said stays in the conversation, for a repair */
	rec_buf_adds(&tp->msgs, ",");
	rec_buf_add(&tp->msgs, reply.data, reply.len);
	if (read_calls(reply.data, reply.len, &calls, &n, prob) < 0) {
		ret = -1;
		goto out;
	}
	cks = xcalloc(n, sizeof *cks);
	good = check_calls(kb, calls, n, cks, &results, &tp->calls);
	rec_buf_add(&tp->msgs, results.data, results.len);
	for (i = 0; i < n; i++)
		if (!cks[i].ok) {
			rec_buf_adds(prob, prob->len ? "; " : "");
			if (cks[i].d)
				model_name(prob, cks[i].d->tool);
			else
				rec_buf_printf(prob, "%.40s", calls[i].name ?
				    calls[i].name : "?");
			rec_buf_printf(prob, ": %s", cks[i].why.data);
		}
	/* no source: nothing to rank */
	for (i = 0; i < n && good; i++)
		if (cks[i].ok && cks[i].d != &rec_tool_rank)
			break;
	if (good && i == n) {
		rec_buf_printf(prob, "%sno retriever was called",
		    prob->len ? "; " : "");
		good = 0;
	}
	if (good) {
		rec_plan_free(p);
		assemble(kb, in, cks, n, p);
	}
	ret = !good ? -1 : good == n ? 1 : 0;
out:
	if (cks)
		checked_free(cks, n);
	mcalls_free(calls, n);
	rec_buf_free(&reply);
	rec_buf_free(&err);
	rec_buf_free(&results);
	return ret;
}

static void
ask_again(struct rec_toolplan *tp, const char *intro, const char *prob)
{
	struct rec_buf m = {0};

	rec_buf_printf(&m, "%s: %s. Call the tools again, every call of the "
	    "corrected plan.", intro, prob);
	rec_buf_adds(&tp->msgs, ",{\"role\":\"user\",\"content\":");
	rec_json_string(&tp->msgs, m.data, m.len);
	rec_buf_addc(&tp->msgs, '}');
	rec_buf_free(&m);
}

int
rec_plan_tools(struct rec_kb *kb, const char *message,
    const struct rec_intent *in, const struct rec_intent *prev,
    const struct rec_dialogue *dlg, const char *demos,
    struct rec_toolplan *tp, struct rec_plan *p)
{
	struct rec_buf sys = {0}, user = {0}, prob = {0}, first = {0};
	struct rec_plan p2 = {0};
	int r, r2;

	memset(p, 0, sizeof *p);
	rec_tools_json(kb, &tp->tools);
	system_text(kb, demos, message, &sys);
	rec_buf_adds(&tp->msgs, "[{\"role\":\"system\",\"content\":");
	rec_json_string(&tp->msgs, sys.data, sys.len);
	rec_buf_adds(&tp->msgs, "},{\"role\":\"user\",\"content\":");
	if (rec_dialogue_text(kb, dlg, prev, &user))
		rec_buf_adds(&user, "\nThe request now: ");
	rec_buf_adds(&user, message);
	rec_json_string(&tp->msgs, user.data, user.len);
	rec_buf_addc(&tp->msgs, '}');
	r = ask(kb, in, tp, "plan", p, &prob);
	if (r == 0 || r == -1) {
		/* one repair round with what was wrong */
		rec_buf_printf(&tp->log, "model plan: %s; ", prob.data);
		rec_buf_add(&first, prob.data, prob.len);
		ask_again(tp, r == 0 ? "Some calls were refused" :
		    "That is not a usable plan", prob.data);
		r2 = ask(kb, in, tp, "repair", &p2, &prob);
		if (r2 == 0 || r2 == -1)
			rec_buf_printf(&tp->log, "model repair: %s; ", prob.data);
		if (r2 >= 0) {
			rec_plan_free(p);
			*p = p2;
			memset(&p2, 0, sizeof p2);
			if (r2 == 0)
				rec_buf_printf(&tp->notes, "I left out what "
				    "did not check out: %s", prob.data);
		} else if (r == 0)
			/* the first plan's good calls, without the rest */
			rec_buf_printf(&tp->notes, "I left out what did not "
			    "check out: %s", first.data);
		r = r2 >= 0 ? r2 : r;
	}
	if (r >= 0) {
		tp->used = 1;
		rec_buf_adds(&tp->log, "model: planned with tools");
	} else {
		rec_plan_free(p);
		rec_buf_adds(&tp->log, "model: fell back to the rules");
	}
	rec_plan_free(&p2);
	rec_buf_free(&sys);
	rec_buf_free(&user);
	rec_buf_free(&prob);
	rec_buf_free(&first);
	return tp->used ? 0 : -1;
}

int
rec_plan_tools_again(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_toolplan *tp, const char *why, struct rec_plan *p)
{
	struct rec_buf prob = {0};
	int r;

	ask_again(tp, "The plan ran, and a check found problems", why);
	r = ask(kb, in, tp, "replan", p, &prob);
	if (r == 0)
		rec_buf_printf(&tp->log, "; model re-plan: %s", prob.data);
	else if (r < 0)
		rec_buf_printf(&tp->log, "; model re-plan unusable%s%s",
		    prob.len ? ": " : "", prob.len ? prob.data : "");
	rec_buf_free(&prob);
	return r >= 0 ? 0 : -1;
}
