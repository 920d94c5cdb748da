/*
 * respond.c: the reply a person reads, without a model: the items with
 * their key facts and the reason each was picked, taken from what the
 * stages wrote in "why".  It names only items it was given; when there
 * are none it says what was searched and what to relax.
 */
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* one stage's reason in words, or nothing for bookkeeping */
static void
reason(struct rec_buf *b, const char *w, size_t n, const char *creatorcol)
{
	struct rec_buf s = {0};
	const char *p;

	rec_buf_add(&s, w, n);
	if (!strncmp(s.data, "cf: often with ", 15))
		rec_buf_printf(b, "often enjoyed with %s", s.data + 15);
	else if (!strncmp(s.data, "cf: you have ", 13)) {
		char *comma = strstr(s.data, ", often");
		if (comma)
			*comma = 0;
		rec_buf_printf(b, "goes with %s from your history",
		    s.data + 13);
	} else if (!strncmp(s.data, "cf: fits", 8))
		rec_buf_adds(b, "fits your history");
	else if (!strncmp(s.data, "bm25: ", 6)) {
		char *in = strstr(s.data, " in ");
		char *semi = strchr(s.data, ';');
		if (semi)
			*semi = 0;
		if (in) {
			*in = 0;
			if (creatorcol && !strcmp(in + 4, creatorcol))
				rec_buf_adds(b, "by the artist you named");
			else
				rec_buf_printf(b, "matches %s", s.data + 6);
		}
	} else if (!strncmp(s.data, "dense: near '", 13)) {
		/* near a text: its meaning */
		char *end = strrchr(s.data, '\'');
		if (end && end > s.data + 13)
			rec_buf_printf(b, "close in meaning to %.*s",
			    (int)(end - s.data - 11), s.data + 12);
	} else if (!strncmp(s.data, "dense: near ", 12)) {
		p = strstr(s.data, " in ");
		rec_buf_printf(b, "close to what you like%s%s", p ? " in" : "",
		    p ? p + 3 : "");
	} else if (!strncmp(s.data, "semid ", 6)) {
		p = s.data + 6;
		rec_buf_printf(b, "close to what you like in %.*s",
		    (int)strcspn(p, " "), p);
	} else if (!strncmp(s.data, "ranked by", 9))
		;
	else if (!strcmp(s.data, "less known"))
		rec_buf_adds(b, "a lesser-known pick");
	else
		rec_buf_add(b, w, n);
	rec_buf_free(&s);
}

/* The planner's stream an item came from ("ranked by creator #1"), in
 * words: the reason when no stage gave one */
static void
stream_reason(struct rec_buf *b, const char *w, size_t n)
{
	static const struct {
		const char *src, *say;
	} said[] = {
		{ "creator", "by an artist you asked for" },
		{ "title", "the title you asked for" },
		{ "theirs", "by an artist you like" },
		{ "liked", "by an artist you liked" },
		{ "near", "close to what you liked" },
		{ "earlier", "goes with what you liked earlier" },
		{ "similar", "like the artist you named" },
		{ "prior", "one of the best-known that fit" },
		{ "fill", "one of the best-known that fit" },
		{ "prefer", "in the category you asked for" },
		{ "seedcats", "in the categories of what you like" },
		{ "audience", "for the audience you named" },
		{ "kept", "keeps to what you asked for before" },
		{ NULL, NULL }
	};
	const char *e = w + n, *p;
	size_t i, l, best = (size_t)-1;

	if (n < 10 || strncmp(w, "ranked by ", 10))
		return;
	/* the streams in order ("prior #4, kept #2"): the first that says
	 * more than that the item is well known, else that */
	for (p = w + 10; p < e; ) {
		const char *q = memchr(p, ',', (size_t)(e - p));
		if (!q)
			q = e;
		for (i = 0; said[i].src; i++) {
			l = strlen(said[i].src);
			/* "prefer2": the second such stream */
			if ((size_t)(q - p) > l && !strncmp(p, said[i].src, l) &&
			    (p[l + strspn(p + l, "0123456789")] == ' '))
				break;
		}
		if (said[i].src && (best == (size_t)-1 ||
		    !strcmp(said[best].src, "prior") ||
		    !strcmp(said[best].src, "fill")))
			best = i;
		for (p = q; p < e && (*p == ',' || *p == ' '); p++)
			;
	}
	if (best != (size_t)-1)
		rec_buf_adds(b, said[best].say);
}

static void
reasons(struct rec_buf *b, const msgpack_object *why, const char *creatorcol)
{
	struct rec_buf one = {0};
	uint32_t i;
	size_t start = b->len;

	if (!why)
		return;
	if (why->type == MSGPACK_OBJECT_STR) {
		reason(b, why->via.str.ptr, why->via.str.size, creatorcol);
		if (b->len == start)
			stream_reason(b, why->via.str.ptr, why->via.str.size);
		return;
	}
	if (why->type != MSGPACK_OBJECT_ARRAY)
		return;
	for (i = 0; i < why->via.array.size; i++) {
		const msgpack_object *e = &why->via.array.ptr[i];
		if (e->type != MSGPACK_OBJECT_STR)
			continue;
		rec_buf_reset(&one);
		reason(&one, e->via.str.ptr, e->via.str.size, creatorcol);
		if (!one.len || (b->len > start && strstr(b->data + start,
		    one.data)))
			continue;
		if (b->len > start)
			rec_buf_adds(b, "; ");
		rec_buf_add(b, one.data, one.len);
	}
	/* no stage said why: the stream it came from does */
	for (i = 0; b->len == start && i < why->via.array.size; i++) {
		const msgpack_object *e = &why->via.array.ptr[i];
		if (e->type == MSGPACK_OBJECT_STR)
			stream_reason(b, e->via.str.ptr, e->via.str.size);
	}
	rec_buf_free(&one);
}

struct facts {
	char *title, *creator, *year;
};

/* the tag values an item has (the first few of each column), "a, b" */
static void
item_tags(struct rec_kb *kb, const char *id, size_t max, struct rec_buf *out)
{
	size_t i, n = 0;

	for (i = 0; i < kb->nc_tags && n < max; i++) {
		struct rec_buf sql = {0};
		sqlite3_stmt *st;
		if (kb->c_tags_list[i])
			rec_buf_printf(&sql, "SELECT j.value FROM items, "
			    "json_each(items.\"%s\") j WHERE items.id = ?",
			    kb->c_tags[i]);
		else
			rec_buf_printf(&sql, "SELECT \"%s\" FROM items WHERE "
			    "id = ? AND \"%s\" IS NOT NULL", kb->c_tags[i],
			    kb->c_tags[i]);
		st = rec_catalog_prepare(kb->cat, sql.data, "reading tags");
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		while (n < max && rec_catalog_step(kb->cat, st, "reading tags")) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			if (!v || (out->data && strstr(out->data, v)))
				continue;
			rec_buf_printf(out, "%s%s", out->len ? ", " : "", v);
			n++;
		}
		sqlite3_reset(st);
		rec_buf_free(&sql);
	}
}

/* "how many documentaries do you have?": the items that meet what the
 * message asks for (its categories, numbers and tags) */
static void
count_where(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_buf *b)
{
	struct rec_buf cond = {0}, sql = {0};
	struct rec_strs vals = {0};
	sqlite3_stmt *st;
	long n = -1;

	rec_intent_where(in, &cond);
	rec_plan_need_where(kb, &in->need, &cond);
	/* without a category, the tags the catalog has as values */
	if (!in->need.n)
		rec_tag_values(kb, &in->tags, &vals);
	if (vals.n) {
		rec_buf_adds(&cond, cond.len ? " AND (" : "(");
		rec_kb_tags_sql(kb, &vals, &cond);
		rec_buf_addc(&cond, ')');
	}
	if (cond.len) {
		rec_buf_printf(&sql, "SELECT count(*) FROM items WHERE %s",
		    cond.data);
		st = rec_catalog_prepare(kb->cat, sql.data, "counting items");
		if (rec_catalog_step(kb->cat, st, "counting items"))
			n = (long)sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	if (n >= 0)
		rec_buf_printf(b, "The catalog has %ld %s%s%s.\n", n, n == 1 ?
		    "title" : "titles", in->said.len ? ": " : "",
		    in->said.len ? in->said.data : "");
	rec_strs_free(&vals);
	rec_buf_free(&cond);
	rec_buf_free(&sql);
}

void
rec_answer(struct rec_kb *kb, const struct rec_intent *in, struct rec_buf *b)
{
	const char *s = in->subject;
	char *title = NULL, *creator = NULL, *year = NULL, *album;
	struct rec_buf tags = {0};

	if (in->question == REC_Q_COUNT && !s) {
		count_where(kb, in, b);
		return;
	}
	if (!in->question || !s)
		return;
	if (in->question == REC_Q_COUNT) {
		struct rec_buf sql = {0};
		sqlite3_stmt *st;
		long n = 0;
		rec_buf_printf(&sql, "SELECT count(*) FROM items WHERE \"%s\" = ?",
		    kb->c_creator);
		st = rec_catalog_prepare(kb->cat, sql.data, "counting items");
		sqlite3_bind_text(st, 1, s, -1, SQLITE_STATIC);
		if (rec_catalog_step(kb->cat, st, "counting items"))
			n = (long)sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
		rec_buf_printf(b, "The catalog has %ld %s by %s.\n", n,
		    n == 1 ? "title" : "titles", s);
		rec_buf_free(&sql);
		return;
	}
	title = rec_catalog_field(kb->cat, kb->c_title, s, strlen(s));
	creator = rec_catalog_field(kb->cat, kb->c_creator, s, strlen(s));
	year = rec_catalog_field(kb->cat, kb->c_year ? kb->c_year : kb->c_date,
	    s, strlen(s));
	if (year && strlen(year) > 4)
		year[4] = 0;
	item_tags(kb, s, 5, &tags);
	switch (in->question) {
	case REC_Q_WHO:
		if (creator)
			rec_buf_printf(b, "'%s' is by %s.\n", title ? title : s,
			    creator);
		else
			rec_buf_printf(b, "The catalog does not say who made "
			    "'%s'.\n", title ? title : s);
		break;
	case REC_Q_DIRECTOR:
		if (creator)
			rec_buf_printf(b, "'%s' is by %s (the catalog names one "
			    "creator per title, not the director and cast).\n",
			    title ? title : s, creator);
		else {
			rec_buf_printf(b, "The catalog has no directors or cast, "
			    "so I cannot say who directed '%s'", title ? title :
			    s);
			if (year || tags.len) {
				rec_buf_adds(b, "; it knows");
				if (year)
					rec_buf_printf(b, " its year (%s)", year);
				if (tags.len)
					rec_buf_printf(b, "%s its genres and tags "
					    "(%s)", year ? " and" : "", tags.data);
			}
			rec_buf_adds(b, ".\n");
		}
		break;
	case REC_Q_YEAR:
		if (year)
			rec_buf_printf(b, "'%s' is from %s.\n", title ? title : s,
			    year);
		else
			rec_buf_printf(b, "The catalog has no year for '%s'.\n",
			    title ? title : s);
		break;
	case REC_Q_ALBUM:
		album = kb->c_coll ? rec_catalog_field(kb->cat, kb->c_coll, s,
		    strlen(s)) : NULL;
		if (album)
			rec_buf_printf(b, "'%s'%s%s is on '%s'.\n", title ? title :
			    s, creator ? " by " : "", creator ? creator : "",
			    album);
		else
			rec_buf_printf(b, "The catalog has no album for '%s'.\n",
			    title ? title : s);
		free(album);
		break;
	case REC_Q_GENRE:
		if (tags.len)
			rec_buf_printf(b, "'%s' is tagged %s.\n", title ? title :
			    s, tags.data);
		else
			rec_buf_printf(b, "The catalog has no genre for '%s'.\n",
			    title ? title : s);
		break;
	}
	free(title);
	free(creator);
	free(year);
	rec_buf_free(&tags);
}

static void
facts_of(struct rec_catalog *c, sqlite3_stmt *st, const char *id, size_t len,
    struct facts *f)
{
	memset(f, 0, sizeof *f);
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, id, (int)len, SQLITE_STATIC);
	if (!rec_catalog_step(c, st, "reading the items to show"))
		return;
	if (sqlite3_column_text(st, 0))
		f->title = xstrdup((const char *)sqlite3_column_text(st, 0));
	if (sqlite3_column_text(st, 1))
		f->creator = xstrdup((const char *)sqlite3_column_text(st, 1));
	if (sqlite3_column_text(st, 2)) {
		const char *y = (const char *)sqlite3_column_text(st, 2);
		f->year = xstrndup(y, strlen(y) > 4 ? 4 : strlen(y));
	}
}

void
rec_respond(struct rec_kb *kb, const struct rec_intent *in,
    const char *records, size_t len, const char *notes,
    struct rec_buf *reply, struct rec_buf *items)
{
	struct rec_reader r;
	struct rec_record rec;
	struct rec_buf line = {0}, sql = {0};
	sqlite3_stmt *st;
	struct facts f;
	size_t n = 0;
	int rc;
	const char *understood = in->said.len ? in->said.data : NULL;

	rec_buf_printf(&sql, "SELECT %s%s%s, %s%s%s, %s%s%s FROM items WHERE "
	    "id = ?", kb->c_title ? "\"" : "", kb->c_title ? kb->c_title :
	    "id", kb->c_title ? "\"" : "", kb->c_creator ? "\"" : "",
	    kb->c_creator ? kb->c_creator : "NULL", kb->c_creator ? "\"" : "",
	    kb->c_year || kb->c_date ? "\"" : "", kb->c_year ? kb->c_year :
	    kb->c_date ? kb->c_date : "NULL", kb->c_year || kb->c_date ?
	    "\"" : "");
	st = rec_catalog_prepare(kb->cat, sql.data, "reading the items to show");
	rec_buf_reset(reply);
	rec_buf_reset(items);
	rec_buf_addc(items, '[');
	rec_reader_init_mem(&r, records, len, "results");
	while ((rc = rec_read(&r, &rec)) > 0) {
		n++;
		facts_of(kb->cat, st, rec.id, rec.idlen, &f);
		rec_buf_reset(&line);
		rec_buf_printf(&line, "%zu. %s", n, f.title ? f.title : "?");
		if (f.creator)
			rec_buf_printf(&line, " by %s", f.creator);
		if (f.year && !(f.title && strstr(f.title, f.year)))
			rec_buf_printf(&line, " (%s)", f.year);
		{
			struct rec_buf why = {0};
			reasons(&why, rec_map_get(&rec.map, "why"),
			    kb->c_creator);
			if (why.len)
				rec_buf_printf(&line, ": %s", why.data);
			if (items->len > 1)
				rec_buf_addc(items, ',');
			rec_buf_adds(items, "{\"id\":");
			rec_json_string(items, rec.id, rec.idlen);
			rec_buf_adds(items, ",\"title\":");
			if (f.title)
				rec_json_string(items, f.title, strlen(f.title));
			else
				rec_buf_adds(items, "null");
			rec_buf_adds(items, ",\"creator\":");
			if (f.creator)
				rec_json_string(items, f.creator,
				    strlen(f.creator));
			else
				rec_buf_adds(items, "null");
			rec_buf_adds(items, ",\"reason\":");
			rec_json_string(items, why.data ? why.data : "",
			    why.len);
			rec_buf_addc(items, '}');
			rec_buf_free(&why);
		}
		rec_buf_addc(&line, '\n');
		if (n == 1) {
			/* the header, once we know there is something */
			rec_buf_printf(reply, "Here %s what I found", "is");
			if (understood)
				rec_buf_printf(reply, " (%s)", understood);
			rec_buf_adds(reply, ":\n");
			if (notes && *notes)
				rec_buf_printf(reply, "(I relaxed %s to find "
				    "enough.)\n", notes);
		}
		rec_buf_add(reply, line.data, line.len);
		free(f.title);
		free(f.creator);
		free(f.year);
	}
	rec_buf_addc(items, ']');
	if (rc < 0)
		rec_buf_printf(reply, "(The results could not be read: %s.)\n",
		    r.err.data);
	if (!n) {
		rec_buf_adds(reply, "I found nothing in the catalog");
		if (understood)
			rec_buf_printf(reply, " for %s", understood);
		rec_buf_adds(reply, ".");
		if (in->ncons)
			rec_buf_printf(reply, " Try without '%s'.",
			    in->cons[in->ncons - 1].say);
		else
			rec_buf_adds(reply, " Try another artist, genre or mood.");
		rec_buf_addc(reply, '\n');
	}
	rec_reader_free(&r);
	sqlite3_reset(st);
	rec_buf_free(&line);
	rec_buf_free(&sql);
}

int
rec_respond_model(struct rec_kb *kb, const struct rec_intent *in,
    const char *request, const char *records, size_t len, const char *notes,
    struct rec_buf *reply, struct rec_buf *items, struct rec_buf *log)
{
	struct rec_buf facts = {0}, m = {0}, content = {0}, err = {0}, pk = {0},
	    ans = {0}, out = {0};
	msgpack_zone z, zi;
	msgpack_object o, it;
	const msgpack_object *intro, *nts, *arr;
	size_t off = 0, offi = 0, i, n;
	int ok = -1;

	rec_respond(kb, in, records, len, notes, reply, items);
	/* nothing to present: the honest template needs no model */
	if (!items->len || !strcmp(items->data, "[]"))
		return -1;
	rec_json_to_msgpack(items->data, items->len, &pk, NULL, &err);
	msgpack_zone_init(&zi, 4096);
	msgpack_unpack(pk.data, pk.len, &offi, &zi, &it);
	arr = &it;
	n = arr->type == MSGPACK_OBJECT_ARRAY ? arr->via.array.size : 0;
	rec_buf_printf(&facts, "Request: %s\nItems:\n", request);
	for (i = 0; i < n; i++) {
		const msgpack_object *e = &arr->via.array.ptr[i];
		const msgpack_object *t = rec_map_get(e, "title"),
		    *c = rec_map_get(e, "creator"), *r = rec_map_get(e, "reason");
		rec_buf_printf(&facts, "%zu. %.*s", i + 1,
		    t && t->type == MSGPACK_OBJECT_STR ? (int)t->via.str.size : 1,
		    t && t->type == MSGPACK_OBJECT_STR ? t->via.str.ptr : "?");
		if (c && c->type == MSGPACK_OBJECT_STR)
			rec_buf_printf(&facts, " by %.*s", (int)c->via.str.size,
			    c->via.str.ptr);
		if (r && r->type == MSGPACK_OBJECT_STR && r->via.str.size)
			rec_buf_printf(&facts, " (%.*s)", (int)r->via.str.size,
			    r->via.str.ptr);
		rec_buf_addc(&facts, '\n');
	}
	rec_buf_adds(&m, "[{\"role\":\"system\",\"content\":");
	{
		static const char sys[] = "You answer a person who asked for "
		    "recommendations, in a warm and brief way. You are given "
		    "the numbered items and their facts. Answer with one JSON "
		    "object only: {\"intro\": one or two sentences, \"notes\": "
		    "{\"1\": a short note on item 1, ...}}. Use only the facts "
		    "given and never name a title or an artist that is not in "
		    "the list.";
		rec_json_string(&m, sys, strlen(sys));
	}
	rec_buf_adds(&m, "},{\"role\":\"user\",\"content\":");
	rec_json_string(&m, facts.data, facts.len);
	rec_buf_adds(&m, "}]");
	if (rec_llm_chat_as("respond", m.data, &content, &err) < 0) {
		rec_buf_printf(log, "model: %s; the template answered", err.data);
		goto out;
	}
	/* its own buffer: the items' strings still point into pk */
	if (rec_json_to_msgpack(content.data, content.len, &ans, NULL, &err)) {
		rec_buf_printf(log, "model: the answer is not JSON (%s); the "
		    "template answered", err.data);
		goto out;
	}
	msgpack_zone_init(&z, 4096);
	msgpack_unpack(ans.data, ans.len, &off, &z, &o);
	intro = rec_map_get(&o, "intro");
	nts = rec_map_get(&o, "notes");
	if (!intro || intro->type != MSGPACK_OBJECT_STR || !intro->via.str.size ||
	    intro->via.str.size > 600) {
		rec_buf_adds(log, "model: no usable intro; the template "
		    "answered");
		msgpack_zone_destroy(&z);
		goto out;
	}
	rec_buf_add(&out, intro->via.str.ptr, intro->via.str.size);
	rec_buf_addc(&out, '\n');
	if (notes && *notes)
		rec_buf_printf(&out, "(I relaxed %s to find enough.)\n", notes);
	for (i = 0; i < n; i++) {
		const msgpack_object *e = &arr->via.array.ptr[i];
		const msgpack_object *t = rec_map_get(e, "title"),
		    *c = rec_map_get(e, "creator"), *r = rec_map_get(e, "reason");
		const msgpack_object *note = NULL;
		char key[24];
		snprintf(key, sizeof key, "%zu", i + 1);
		if (nts && nts->type == MSGPACK_OBJECT_MAP)
			note = rec_map_get(nts, key);
		rec_buf_printf(&out, "%zu. %.*s", i + 1,
		    t && t->type == MSGPACK_OBJECT_STR ? (int)t->via.str.size : 1,
		    t && t->type == MSGPACK_OBJECT_STR ? t->via.str.ptr : "?");
		if (c && c->type == MSGPACK_OBJECT_STR)
			rec_buf_printf(&out, " by %.*s", (int)c->via.str.size,
			    c->via.str.ptr);
		/* the model's note, short and one line; else the facts */
		if (note && note->type == MSGPACK_OBJECT_STR &&
		    note->via.str.size && note->via.str.size <= 300 &&
		    !memchr(note->via.str.ptr, '\n', note->via.str.size))
			rec_buf_printf(&out, ": %.*s", (int)note->via.str.size,
			    note->via.str.ptr);
		else if (r && r->type == MSGPACK_OBJECT_STR && r->via.str.size)
			rec_buf_printf(&out, ": %.*s", (int)r->via.str.size,
			    r->via.str.ptr);
		rec_buf_addc(&out, '\n');
	}
	msgpack_zone_destroy(&z);
	rec_buf_reset(reply);
	rec_buf_add(reply, out.data, out.len);
	rec_buf_adds(log, "model: wrote the reply");
	ok = 0;
out:
	msgpack_zone_destroy(&zi);
	rec_buf_free(&facts);
	rec_buf_free(&m);
	rec_buf_free(&content);
	rec_buf_free(&err);
	rec_buf_free(&pk);
	rec_buf_free(&ans);
	rec_buf_free(&out);
	return ok;
}
