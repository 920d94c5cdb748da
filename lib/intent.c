/*
 * intent.c: the formatted intent, the value every planner path fills
 * and the policy reads: its lists, constraints and what was understood;
 * its JSON form (written and read through one table of fields); the
 * constraints as SQL; relaxing them.
 */
#include <ctype.h>
#include <stddef.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "converse.h"

static const char *const facets[] = { "", "genre", "mood", "activity",
	"theme", "audience", "era", "tempo", "length", NULL };

const char *
rec_facet_name(int f)
{
	return f > 0 && f < (int)(sizeof facets / sizeof facets[0]) - 1 ?
	    facets[f] : "";
}

int
rec_facet_named(const char *s)
{
	int i;

	for (i = 1; facets[i]; i++)
		if (!strcmp(facets[i], s))
			return i;
	return REC_FACET_NONE;
}

const char *
rec_facet_split(const char *s, int *facet)
{
	const char *colon = strchr(s, ':');
	int i;

	if (colon)
		for (i = 1; facets[i]; i++)
			if ((size_t)(colon - s) == strlen(facets[i]) &&
			    !strncmp(s, facets[i], (size_t)(colon - s))) {
				if (facet)
					*facet = i;
				return colon + 1;
			}
	if (facet)
		*facet = REC_FACET_GENRE;
	return s;
}

void
rec_intent_cons(struct rec_intent *in, const char *col, const char *op, double v,
    const char *say, int facet)
{
	struct rec_cons *c;
	int j;

	/* never "col < null" in SQL */
	if (!isfinite(v))
		return;
	for (j = 0; j < in->ncons; j++)
		if (!strcmp(in->cons[j].col, col) && !strcmp(in->cons[j].op, op)
		    && in->cons[j].v == v)
			return;
	if (in->ncons == REC_MAXC)
		return;
	c = &in->cons[in->ncons++];
	snprintf(c->col, sizeof c->col, "%s", col);
	snprintf(c->op, sizeof c->op, "%s", op);
	c->v = v;
	snprintf(c->say, sizeof c->say, "%s", say);
	c->facet = facet;
}

void
rec_intent_said(struct rec_intent *in, const char *fmt, const char *a)
{
	struct rec_buf t = {0};
	const char *p;

	/* once: "recent" and "current" in one message are one era */
	rec_buf_printf(&t, fmt, a);
	for (p = in->said.len ? in->said.data : ""; *p; p += strcspn(p, ","),
	    p += strspn(p, ", "))
		if (strcspn(p, ",") == t.len && !memcmp(p, t.data, t.len))
			break;
	if (!*p && t.len) {
		if (in->said.len)
			rec_buf_adds(&in->said, ", ");
		rec_buf_adds(&in->said, t.data);
	}
	rec_buf_free(&t);
}

/* what a turn keeps from the one before: the shown items stay out of
 * the next list, the dislikes hold, and the user */
void
rec_intent_carry(struct rec_intent *in, const struct rec_intent *prev)
{
	if (!prev)
		return;
	rec_strs_copy(&in->shown, &prev->shown);
	rec_strs_copy(&in->earlier_creators, &prev->liked_creators);
	rec_strs_copy(&in->earlier_creators, &prev->earlier_creators);
	rec_strs_copy(&in->disliked_creators, &prev->disliked_creators);
	rec_strs_copy(&in->disliked_items, &prev->disliked_items);
	if (!in->user && prev->user)
		in->user = xstrdup(prev->user);
}

int
rec_intent_goes(const struct rec_intent *in)
{
	size_t i;

	for (i = 0; i < in->concepts.n; i++)
		if (strncmp(in->concepts.v[i], "not:", 4))
			return 1;
	return rec_intent_asks(in) || in->user || in->ncons || in->popular ||
	    in->boost.n || in->need.n || in->prefer.n || in->similar.n ||
	    in->colls.n || in->question;
}

/* whether the intent names something to look for: items, creators,
 * tags or other words */
int
rec_intent_asks(const struct rec_intent *in)
{
	return in->liked_items.n || in->liked_creators.n || in->tags.n ||
	    in->words.n;
}

/* The intent's lists by their JSON names, in the order the JSON form
 * writes them: one table for writing, reading and freeing.  (boost is
 * the profile's, put back every turn, and not written.) */
static const struct {
	const char *key;
	size_t off;
} lists[] = {
#define L(x) { #x, offsetof(struct rec_intent, x) }
	L(liked_items), L(liked_creators), L(disliked_items),
	L(disliked_creators), L(similar), L(seen), L(wanted), L(tags),
	L(disliked_tags), L(need), L(prefer), L(kept), L(concepts), L(words),
	L(themes), L(colls), L(shown), L(shown_keys), L(last), L(offer),
	L(earlier_creators), L(earlier_items),
#undef L
	{ NULL, offsetof(struct rec_intent, boost) },
	{ NULL, offsetof(struct rec_intent, avoid) },
	{ NULL, offsetof(struct rec_intent, other_than) },
	{ NULL, offsetof(struct rec_intent, alts) },
};
#define NLISTS (sizeof lists / sizeof lists[0])

static struct rec_strs *
list_of(struct rec_intent *in, size_t i)
{
	return (struct rec_strs *)(void *)((char *)in + lists[i].off);
}

static const struct rec_strs *
clist_of(const struct rec_intent *in, size_t i)
{
	return (const struct rec_strs *)(const void *)((const char *)in +
	    lists[i].off);
}

void
rec_intent_free(struct rec_intent *in)
{
	size_t i;

	for (i = 0; i < NLISTS; i++)
		rec_strs_free(list_of(in, i));
	free(in->user);
	free(in->subject);
	rec_buf_free(&in->said);
	memset(in, 0, sizeof *in);
}

void
rec_intent_json(struct rec_buf *b, const struct rec_intent *in)
{
	char num[40];
	size_t i;
	int c;

	rec_buf_addc(b, '{');
	for (i = 0; i < NLISTS && lists[i].key; i++) {
		if (i)
			rec_buf_addc(b, ',');
		rec_strs_json(b, lists[i].key, clist_of(in, i));
	}
	rec_buf_adds(b, ",\"constraints\":[");
	for (c = 0; c < in->ncons; c++) {
		rec_json_double(num, sizeof num, in->cons[c].v);
		rec_buf_printf(b, "%s{\"column\":", c ? "," : "");
		rec_json_string(b, in->cons[c].col, strlen(in->cons[c].col));
		rec_buf_printf(b, ",\"op\":\"%s\",\"value\":%s,\"say\":",
		    in->cons[c].op, num);
		rec_json_string(b, in->cons[c].say, strlen(in->cons[c].say));
		rec_buf_printf(b, ",\"facet\":\"%s\"}",
		    rec_facet_name(in->cons[c].facet));
	}
	rec_buf_printf(b, "],\"popularity\":%d,\"k\":%d,\"user\":",
	    in->popular, in->k);
	if (in->user)
		rec_json_string(b, in->user, strlen(in->user));
	else
		rec_buf_adds(b, "null");
	rec_buf_adds(b, ",\"understood\":");
	rec_json_string(b, in->said.data ? in->said.data : "", in->said.len);
	rec_buf_addc(b, '}');
}

const char *
rec_intent_relax(struct rec_intent *in, struct rec_buf *note)
{
	static char what[64];
	int i, j;

	if (!in->ncons)
		return NULL;
	/* a range comes in two halves with one name: drop both */
	snprintf(what, sizeof what, "%s", in->cons[in->ncons - 1].say);
	for (i = j = 0; i < in->ncons; i++)
		if (strcmp(in->cons[i].say, what))
			in->cons[j++] = in->cons[i];
	in->ncons = j;
	if (note)
		rec_buf_printf(note, "%s'%s'", note->len ? ", " : "", what);
	return what;
}

void
rec_intent_where(const struct rec_intent *in, struct rec_buf *b)
{
	char num[40];
	int c;

	for (c = 0; c < in->ncons; c++) {
		rec_json_double(num, sizeof num, in->cons[c].v);
		if (strchr(num, '.') && !strcmp(num + strlen(num) - 2, ".0"))
			num[strlen(num) - 2] = 0;
		rec_buf_printf(b, "%s\"%s\" %s %s", b->len ? " AND " : "",
		    in->cons[c].col, in->cons[c].op, num);
	}
}

/* a number, or NAN when o is none or not a finite number */
static double
num_of(const msgpack_object *o)
{
	double v = NAN;

	if (!o)
		return v;
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
		v = (double)o->via.u64;
	else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		v = (double)o->via.i64;
	else if (o->type == MSGPACK_OBJECT_FLOAT64 || o->type ==
	    MSGPACK_OBJECT_FLOAT32)
		v = o->via.f64;
	return isfinite(v) ? v : NAN;
}

static void
str_into(char *dst, size_t n, const msgpack_object *o)
{
	if (o && o->type == MSGPACK_OBJECT_STR)
		snprintf(dst, n, "%.*s", (int)o->via.str.size, o->via.str.ptr);
	else
		dst[0] = 0;
}

void
rec_intent_from(struct rec_intent *in, const msgpack_object *o)
{
	const msgpack_object *c, *u;
	uint32_t i;
	size_t l;
	double v;

	memset(in, 0, sizeof *in);
	in->k = 10;
	if (!o || o->type != MSGPACK_OBJECT_MAP)
		return;
	for (l = 0; l < NLISTS && lists[l].key; l++)
		rec_strs_from(list_of(in, l), rec_map_get(o, lists[l].key));
	c = rec_map_get(o, "constraints");
	for (i = 0; c && c->type == MSGPACK_OBJECT_ARRAY && i <
	    c->via.array.size && in->ncons < REC_MAXC; i++) {
		struct rec_cons *k = &in->cons[in->ncons];
		const msgpack_object *e = &c->via.array.ptr[i];
		str_into(k->col, sizeof k->col, rec_map_get(e, "column"));
		str_into(k->op, sizeof k->op, rec_map_get(e, "op"));
		str_into(k->say, sizeof k->say, rec_map_get(e, "say"));
		k->v = num_of(rec_map_get(e, "value"));
		{
			char f[16];
			str_into(f, sizeof f, rec_map_get(e, "facet"));
			k->facet = rec_facet_named(f);
		}
		/* a value that is not a finite number is no constraint */
		if (k->col[0] && k->op[0] && !isnan(k->v))
			in->ncons++;
	}
	/* numbers from a file or a model are range-checked before they
	 * become ints */
	v = num_of(rec_map_get(o, "popularity"));
	in->popular = isnan(v) ? 0 : v >= 1 ? 1 : v <= -1 ? -1 : 0;
	v = num_of(rec_map_get(o, "k"));
	if (!isnan(v) && v >= 1 && v <= 100)
		in->k = (int)v;
	u = rec_map_get(o, "user");
	if (u && u->type == MSGPACK_OBJECT_STR)
		in->user = xstrndup(u->via.str.ptr, u->via.str.size);
}

void
rec_intent_add_shown(struct rec_intent *in, const char *id)
{
	rec_strs_add(&in->shown, id);
}
