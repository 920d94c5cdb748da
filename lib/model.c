/*
 * model.c: the formatted intent from a model (REC_LLM_URL): the prompt
 * (the catalog's columns and some tags, demonstrations), the answer
 * checked against the catalog and repaired, asked again at most twice,
 * and the rules as the fallback.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "demos.h"

static void
problem(struct rec_buf *p, const char *fmt, const char *a)
{
	if (p->len)
		rec_buf_adds(p, "; ");
	rec_buf_printf(p, fmt, a);
}

/* checks and repairs in against the catalog; problems left in prob */
static void
validate(struct rec_kb *kb, struct rec_intent *in, struct rec_buf *prob,
    struct rec_buf *log, struct rec_buf *notes)
{
	struct rec_buf f = {0}, sql = {0};
	struct rec_strs *cs[2] = { &in->liked_creators, &in->disliked_creators };
	struct rec_strs *ts[2] = { &in->tags, &in->disliked_tags };
	struct rec_strs *is[2] = { &in->liked_items, &in->disliked_items };
	static const char what[] = "checking the model's intent";
	sqlite3 *db = kb->cat->db;
	sqlite3_stmt *st = NULL;
	size_t i, k, w;
	int c, j;

	for (w = 0; w < 2; w++)
		for (i = 0; i < cs[w]->n; i++) {
			rec_buf_reset(&f);
			rec_norm(&f, cs[w]->v[i], strlen(cs[w]->v[i]));
			k = rec_hash_get(&kb->creator, f.data ? f.data : "", f.len);
			if (k == (size_t)-1 && f.len > 3)
				k = rec_kb_closest(&kb->creator, f.data, 2);
			if (k == (size_t)-1) {
				/* one name the catalog lacks costs that name,
				 * not the intent */
				rec_buf_printf(log, "no creator '%s' in the "
				    "catalog; left out; ", cs[w]->v[i]);
				if (notes)
					rec_buf_printf(notes, "%s%s is not in the "
					    "catalog, so I left %s out",
					    notes->len ? "; " : "", cs[w]->v[i],
					    w ? "that dislike" : "that name");
				free(cs[w]->v[i]);
				memmove(cs[w]->v + i, cs[w]->v + i + 1,
				    (cs[w]->n - i - 1) * sizeof *cs[w]->v);
				cs[w]->n--;
				i--;
				continue;
			}
			if (strcmp(cs[w]->v[i], kb->cname[k])) {
				rec_buf_printf(log, "creator '%s' read as '%s'; ",
				    cs[w]->v[i], kb->cname[k]);
				free(cs[w]->v[i]);
				cs[w]->v[i] = xstrdup(kb->cname[k]);
			}
		}
	for (w = 0; w < 2; w++)
		for (i = 0; i < ts[w]->n; i++) {
			rec_buf_reset(&f);
			rec_norm(&f, ts[w]->v[i], strlen(ts[w]->v[i]));
			k = rec_hash_get(&kb->tag, f.data ? f.data : "", f.len);
			if (k == (size_t)-1 && f.len > 3)
				k = rec_kb_closest(&kb->tag, f.data, 1);
			free(ts[w]->v[i]);
			/* an unknown tag is still a word rec-bm25 can use */
			ts[w]->v[i] = xstrdup(k == (size_t)-1 ? (f.data ? f.data :
			    "") : kb->tag.key[k]);
		}
	if (kb->c_title) {
		rec_buf_printf(&sql, "SELECT id FROM items WHERE id = ?1 OR "
		    "norm(\"%s\") = norm(?1) ORDER BY id = ?1 DESC%s%s%s LIMIT 1",
		    kb->c_title, kb->c_pop ? ", \"" : "", kb->c_pop ?
		    kb->c_pop : "", kb->c_pop ? "\" DESC" : "");
		st = rec_catalog_prepare(kb->cat, sql.data, what);
	}
	for (w = 0; w < 2; w++)
		for (i = 0; st && i < is[w]->n; i++) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, is[w]->v[i], -1, SQLITE_STATIC);
			if (!rec_catalog_step(kb->cat, st, what)) {
				problem(prob, "no item titled '%s' in the catalog",
				    is[w]->v[i]);
				continue;
			}
			free(is[w]->v[i]);
			is[w]->v[i] = xstrdup((const char *)
			    sqlite3_column_text(st, 0));
		}
	if (st)
		sqlite3_reset(st);
	for (c = j = 0; c < in->ncons; c++) {
		struct rec_cons *x = &in->cons[c];
		char type[16];
		if (!strcmp(x->col, "bpm") && kb->has_tempo)
			snprintf(x->col, sizeof x->col, "tempo");
		if ((!strcmp(x->col, "year") || !strcmp(x->col, "date")) &&
		    kb->c_year)
			snprintf(x->col, sizeof x->col, "%s", kb->c_year);
		if (!rec_catalog_column(db, x->col, NULL, type, sizeof type) ||
		    !strcmp(type, "text")) {
			problem(prob, "no numeric column '%s' (use the columns "
			    "listed)", x->col);
			continue;
		}
		if (strcmp(x->op, ">") && strcmp(x->op, ">=") &&
		    strcmp(x->op, "<") && strcmp(x->op, "<=") &&
		    strcmp(x->op, "=")) {
			problem(prob, "operator '%s' is not one of > >= < <= =",
			    x->op);
			continue;
		}
		if (!x->say[0])
			snprintf(x->say, sizeof x->say, "%s %s %g", x->col, x->op,
			    x->v);
		in->cons[j++] = *x;
	}
	in->ncons = j;
	/* who the person is comes from -u or the session, never from
	 * the model (nor from what the person says to it) */
	free(in->user);
	in->user = NULL;
	if (in->k < 1 || in->k > 50)
		in->k = 10;
	if (in->popular < -1 || in->popular > 1)
		in->popular = 0;
	rec_buf_free(&f);
	rec_buf_free(&sql);
}

/* the three demonstrations most like the message (BM25 over their
 * requests, demos.c), as chat turns, the best last */
static void
add_demos(struct rec_buf *m, const char *demos, const char *message)
{
	char *best[3] = { NULL, NULL, NULL };
	size_t n = rec_demos_best(demos, message, "intent", 3, best);
	size_t i;

	for (i = n; i > 0; i--) {
		struct rec_buf pk = {0}, err = {0}, js = {0};
		msgpack_zone z;
		msgpack_object o;
		const msgpack_object *r, *it;
		size_t off = 0;
		rec_json_to_msgpack(best[i - 1], strlen(best[i - 1]), &pk, NULL,
		    &err);
		msgpack_zone_init(&z, 1024);
		msgpack_unpack(pk.data, pk.len, &off, &z, &o);
		r = rec_map_get(&o, "request");
		it = rec_map_get(&o, "intent");
		if (it && rec_json_write(&js, it, &err) == 0) {
			rec_buf_adds(m, ",{\"role\":\"user\",\"content\":");
			rec_json_write(m, r, &err);
			rec_buf_adds(m, "},{\"role\":\"assistant\",\"content\":");
			rec_json_string(m, js.data, js.len);
			rec_buf_addc(m, '}');
		}
		msgpack_zone_destroy(&z);
		rec_buf_free(&pk);
		rec_buf_free(&err);
		rec_buf_free(&js);
		free(best[i - 1]);
	}
}

static void
system_prompt(struct rec_kb *kb, struct rec_buf *s)
{
	static const char what[] = "reading the catalog's columns";
	sqlite3_stmt *st;
	size_t i;

	rec_buf_adds(s, "You read a request for recommendations and answer "
	    "with one JSON object, nothing else, with these keys: liked_items "
	    "(titles the person likes or wants more like), liked_creators, "
	    "disliked_items, disliked_creators, tags (genres, moods, styles "
	    "wanted), disliked_tags, words (other words to search for), "
	    "constraints (a list of {\"column\", \"op\" one of > >= < <= =, "
	    "\"value\" a number} over the numeric columns), popularity (-1 "
	    "for little known, 1 for popular, else 0) and k (how many, "
	    "default 10). The catalog's columns (name, type, role):");
	st = rec_catalog_prepare(kb->cat, "SELECT name, type, role FROM "
	    "columns ORDER BY position", what);
	while (rec_catalog_step(kb->cat, st, what))
		rec_buf_printf(s, " %s (%s, %s);", sqlite3_column_text(st, 0),
		    sqlite3_column_text(st, 1), sqlite3_column_text(st, 2));
	sqlite3_reset(st);
	rec_buf_adds(s, " Some tags:");
	for (i = 0; i < kb->tag.n && i < 40; i++)
		rec_buf_printf(s, " %s%s", kb->tag.key[i], i + 1 < 40 &&
		    i + 1 < kb->tag.n ? "," : ".");
}

int
rec_intent_model(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, const struct rec_dialogue *dlg,
    const char *demos, struct rec_intent *in, struct rec_buf *log,
    struct rec_buf *notes)
{
	struct rec_buf m = {0}, sys = {0}, content = {0}, err = {0},
	    pk = {0}, prob = {0}, past = {0}, nt = {0};
	int attempt, ok = 0;

	system_prompt(kb, &sys);
	rec_buf_adds(&m, "[{\"role\":\"system\",\"content\":");
	rec_json_string(&m, sys.data, sys.len);
	rec_buf_addc(&m, '}');
	if (demos)
		add_demos(&m, demos, message);
	rec_buf_adds(&m, ",{\"role\":\"user\",\"content\":");
	/* the past first, when there is one: "the second one" is read
	 * against the list it names */
	if (rec_dialogue_text(kb, dlg, prev, &past)) {
		rec_buf_printf(&past, "\nThe request now: %s", message);
		rec_json_string(&m, past.data, past.len);
	} else
		rec_json_string(&m, message, strlen(message));
	rec_buf_addc(&m, '}');
	for (attempt = 0; attempt < 3 && !ok; attempt++) {
		msgpack_zone z;
		msgpack_object o;
		size_t off = 0;

		rec_buf_adds(&m, "]");
		if (rec_llm_chat_as("intent", m.data, &content, &err) < 0) {
			rec_buf_printf(log, "model: %s; ", err.data);
			break;		/* the server, not the answer */
		}
		m.data[--m.len] = 0;	/* reopen the array */
		rec_buf_reset(&pk);
		rec_buf_reset(&prob);
		memset(in, 0, sizeof *in);
		if (rec_json_to_msgpack(content.data, content.len, &pk, NULL,
		    &err))
			problem(&prob, "the answer is not JSON (%s)", err.data);
		else {
			msgpack_zone_init(&z, 4096);
			msgpack_unpack(pk.data, pk.len, &off, &z, &o);
			if (o.type != MSGPACK_OBJECT_MAP)
				problem(&prob, "%s", "the answer is not a JSON "
				    "object");
			else {
				rec_intent_from(in, &o);
				rec_buf_reset(&nt);
				validate(kb, in, &prob, log, &nt);
			}
			msgpack_zone_destroy(&z);
		}
		if (!prob.len) {
			ok = 1;
			break;
		}
		rec_buf_printf(log, "model answer %d: %s; ", attempt + 1,
		    prob.data);
		rec_intent_free(in);
		/* ask again, with what was wrong */
		rec_buf_adds(&m, ",{\"role\":\"assistant\",\"content\":");
		rec_json_string(&m, content.data, content.len);
		rec_buf_adds(&m, "},{\"role\":\"user\",\"content\":");
		rec_buf_reset(&err);
		rec_buf_printf(&err, "That answer has problems: %s. Answer again "
		    "with the corrected JSON object only.", prob.data);
		rec_json_string(&m, err.data, err.len);
		rec_buf_addc(&m, '}');
	}
	if (ok) {
		if (notes && nt.len)
			rec_buf_add(notes, nt.data, nt.len);
		rec_intent_carry(in, prev);
		rec_buf_adds(&in->said, message);
		rec_buf_adds(log, "model: used");
	} else {
		rec_intent_parse(kb, message, prev, in);
		rec_buf_adds(log, "model: fell back to the rules");
	}
	rec_buf_free(&m);
	rec_buf_free(&sys);
	rec_buf_free(&content);
	rec_buf_free(&err);
	rec_buf_free(&pk);
	rec_buf_free(&prob);
	rec_buf_free(&past);
	rec_buf_free(&nt);
	return ok ? 0 : -1;
}
