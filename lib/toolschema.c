/*
 * toolschema.c: what the model is shown in the tools mode of planning
 * (toolplan.c): the plan tools the catalog can serve, as OpenAI function
 * definitions built from the tools' own option tables (opts.c), so a
 * model is offered the options the tools take and no others; the
 * catalog's schema as text for the prompt; and the names a model uses
 * for our tools and options (rec_bm25, like_weight).
 */
#include <stdlib.h>
#include <string.h>

#include "toolplan.h"

void
rec_tp_model_name(struct rec_buf *b, const char *s)
{
	for (; *s; s++)
		rec_buf_addc(b, *s == '-' ? '_' : *s);
}

int
rec_tp_same_name(const char *ours, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++, ours++)
		if (!*ours || (*ours == '-' ? p[i] != '_' && p[i] != '-' :
		    *ours != p[i]))
			return 0;
	return !*ours;
}

int
rec_tp_usable(const struct rec_kb *kb, const struct rec_tooldef *t)
{
	if (t == &rec_tool_bm25)
		return kb->has_bm25;
	if (t == &rec_tool_cf)
		return kb->cf_model != NULL;
	if (t == &rec_tool_semid)
		return kb->semid_space != NULL;
	if (t == &rec_tool_dense)
		return kb->dense_space || kb->enc_space || kb->text_space;
	return 1;
}

void
rec_tp_str_json(struct rec_buf *b, const char *s)
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
		if (!rec_tp_usable(kb, d))
			continue;
		rec_buf_adds(b, n++ ? "," : "");
		rec_buf_adds(b, "{\"type\":\"function\",\"function\":{\"name\":\"");
		rec_tp_model_name(b, d->tool);
		rec_buf_adds(b, "\",\"description\":");
		rec_tp_str_json(b, d->what);
		rec_buf_adds(b, ",\"parameters\":{\"type\":\"object\","
		    "\"properties\":{");
		if (d->operand) {
			rec_buf_printf(b, "\"%s\":{\"type\":\"string\","
			    "\"description\":", d->operand);
			rec_tp_str_json(b, d->operand_help);
			rec_buf_addc(b, '}');
			first = 0;
		}
		for (o = d->opt; o->c; o++) {
			if (o->kind == REC_V_NONE)
				continue;
			rec_buf_adds(b, first ? "\"" : ",\"");
			rec_tp_model_name(b, o->name);
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
	if (kb->cf_model)
		rec_buf_adds(b, "Co-consumption (rec_cf): trained.\n");
}
