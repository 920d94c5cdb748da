/*
 * chat.c: one turn of the conversation after the intent is known: plan,
 * run, let the critic look (relax a constraint that emptied the list,
 * drop items that break one), answer.  rec-chat and rec-eval share it,
 * so what is measured is what people get.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "converse.h"

char *
rec_bindir(void)
{
	char buf[PATH_MAX];
	const char *e = getenv("REC_BIN");
	ssize_t n;
	char *slash;

	if (e && *e)
		return xstrdup(e);
	n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return xstrdup("/usr/local/bin");
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
	return xstrdup(buf);
}

size_t
rec_records_count(const char *p, size_t n, struct rec_intent *in)
{
	struct rec_reader r;
	struct rec_record rec;
	size_t k = 0;

	rec_reader_init_mem(&r, p, n, "results");
	while (rec_read(&r, &rec) > 0) {
		char *id = xstrndup(rec.id, rec.idlen);
		if (in)
			rec_intent_add_shown(in, id);
		free(id);
		k++;
	}
	rec_reader_free(&r);
	return k;
}

void
rec_intent_show(struct rec_kb *kb, struct rec_intent *in, const char *id,
    size_t len)
{
	char *s = xstrndup(id, len);
	struct rec_buf key = {0};

	rec_strs_add(&in->shown, s);
	rec_strs_add(&in->last, s);
	if (rec_song_key_of(kb, id, len, &key))
		rec_strs_add(&in->shown_keys, key.data);
	free(s);
	rec_buf_free(&key);
}

void
rec_intent_shown(struct rec_kb *kb, struct rec_intent *in, const char *p,
    size_t n)
{
	struct rec_reader r;
	struct rec_record rec;

	rec_strs_free(&in->last);
	rec_reader_init_mem(&r, p, n, "results");
	while (rec_read(&r, &rec) > 0)
		rec_intent_show(kb, in, rec.id, rec.idlen);
	rec_reader_free(&r);
}

/* The critic's last look: items that break a constraint (a filter that
 * did not do its work) are taken out of out, and said in note.  Returns
 * how many. */
static size_t
drop_violations(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_buf *out, struct rec_buf *note)
{
	static const char what[] = "checking the list against the constraints";
	struct rec_buf where = {0}, sql = {0}, ids = {0}, kept = {0};
	struct rec_hash bad = {0};
	struct rec_reader r;
	struct rec_record rec;
	sqlite3_stmt *st;
	size_t n = 0;

	rec_intent_where(in, &where);
	if (!where.len || !out->len)
		return 0;
	rec_buf_addc(&ids, '[');
	rec_reader_init_mem(&r, out->data, out->len, "results");
	while (rec_read(&r, &rec) > 0) {
		if (ids.len > 1)
			rec_buf_addc(&ids, ',');
		rec_json_string(&ids, rec.id, rec.idlen);
	}
	rec_reader_free(&r);
	rec_buf_addc(&ids, ']');
	rec_buf_printf(&sql, "SELECT id FROM items WHERE id IN (SELECT value "
	    "FROM json_each(?)) AND NOT coalesce(%s, 0)", where.data);
	st = rec_catalog_prepare(kb->cat, sql.data, what);
	sqlite3_bind_text(st, 1, ids.data, (int)ids.len, SQLITE_STATIC);
	while (rec_catalog_step(kb->cat, st, what))
		rec_hash_put(&bad, (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), NULL);
	sqlite3_reset(st);
	if (bad.n) {
		rec_reader_init_mem(&r, out->data, out->len, "results");
		while (rec_read(&r, &rec) > 0) {
			if (rec_hash_get(&bad, rec.id, rec.idlen) != (size_t)-1) {
				n++;
				continue;
			}
			rec_buf_add(&kept, rec.raw, rec.rawlen);
		}
		rec_reader_free(&r);
		rec_buf_reset(out);
		rec_buf_add(out, kept.data, kept.len);
		rec_buf_printf(note, "%zu item%s broke %s and %s left out", n,
		    n == 1 ? "" : "s", where.data, n == 1 ? "was" : "were");
	}
	rec_hash_free(&bad);
	rec_buf_free(&where);
	rec_buf_free(&sql);
	rec_buf_free(&ids);
	rec_buf_free(&kept);
	return n;
}

void
rec_turn_free(struct rec_turn *t)
{
	rec_plan_free(&t->plan);
	rec_buf_free(&t->out);
	rec_buf_free(&t->err);
	rec_buf_free(&t->reply);
	rec_buf_free(&t->items);
	rec_buf_free(&t->notes);
	rec_buf_free(&t->emptied);
	rec_buf_free(&t->violated);
	rec_buf_free(&t->shell);
	rec_buf_free(&t->fail.err);
	rec_buf_free(&t->calls);
	rec_buf_free(&t->said);
	memset(t, 0, sizeof *t);
}

void
rec_chat_answer(struct rec_kb *kb, const char *dbpath, const char *bin,
    const char *msg, struct rec_intent *in, int respond, struct rec_turn *t,
    struct rec_buf *mlog)
{
	int tries = 0, ncons = in->ncons, filled = 0;
	/* fewer than five: filled up with the best-known that meet the
	 * constraints ("80s teen movies" had three); fewer than three
	 * after that: a constraint relaxed */
	size_t got = 0, want = (size_t)(in->k < 5 ? in->k : 5);
	size_t least = (size_t)(in->k < 3 ? in->k : 3);
	struct rec_cons cons[REC_MAXC];

	/* what the critic relaxes is relaxed for this answer; the person
	 * still asked for it, and the state keeps it (and a count is of
	 * what was asked) */
	memcpy(cons, in->cons, sizeof cons);
	if (in->question && !in->subject)
		rec_answer(kb, in, &t->reply);

	for (;;) {
		rec_plan_make(kb, in, &t->plan);
		if (t->plan.ask)
			break;
		t->failed = rec_plan_run(&t->plan, bin, dbpath, &t->out,
		    &t->err, &t->fail) < 0;
		if (t->failed)
			break;
		got = rec_records_count(t->out.data, t->out.len, NULL);
		if (got < least) {
			/* the critic reads the trace: which stage emptied
			 * the list */
			char *e = rec_plan_emptied();
			if (e && !t->emptied.len)
				rec_buf_adds(&t->emptied, e);
			free(e);
		}
		/* the critic: too few under constraints, relax one, at most
		 * twice */
		if (got >= want || tries == 2 || !in->ncons)
			break;
		/* first keep every constraint and fill up with the
		 * best-known that meet them; a topic too narrow for them
		 * is no reason to drop what was asked */
		if (!filled && rec_intent_asks(in)) {
			struct rec_plan probe = {0};
			filled = in->fill = 1;
			rec_plan_make(kb, in, &probe);
			in->fill = probe.fill;
			rec_plan_free(&probe);
			if (in->fill) {
				rec_plan_free(&t->plan);
				continue;
			}
		}
		if (got >= least)
			break;
		/* never relaxed into nothing to go on */
		{
			struct rec_cons keep[REC_MAXC];
			int nkeep = in->ncons;
			size_t nlen = t->notes.len;
			memcpy(keep, in->cons, sizeof keep);
			/* a mood relaxed beside creators asked for: still
			 * theirs only */
			in->mood_relaxed |= in->ncons > 0 &&
			    in->cons[in->ncons - 1].facet != REC_FACET_ERA;
			if (!rec_intent_relax(in, &t->notes))
				break;
			if (!rec_intent_goes(in)) {
				memcpy(in->cons, keep, sizeof keep);
				in->ncons = nkeep;
				t->notes.len = nlen;
				if (t->notes.data)
					t->notes.data[nlen] = 0;
				break;
			}
		}
		tries++;
		rec_plan_free(&t->plan);
	}
	rec_turn_finish(kb, msg, in, respond, t, mlog);
	memcpy(in->cons, cons, sizeof cons);
	in->ncons = ncons;
}

void
rec_turn_finish(struct rec_kb *kb, const char *msg, struct rec_intent *in,
    int respond, struct rec_turn *t, struct rec_buf *mlog)
{
	if (!t->plan.ask && !t->failed)
		drop_violations(kb, in, &t->out, &t->violated);
	rec_plan_shell(&t->shell, &t->plan);
	if (t->plan.ask) {
		rec_buf_printf(&t->reply, "%s\n", t->plan.ask);
		/* a reply that shows nothing: what a "yes" would take up */
		rec_strs_add(&in->offer, t->plan.ask);
		rec_buf_reset(&t->items);
		rec_buf_adds(&t->items, "[]");
	} else if (t->failed) {
		/* never shown as "no results": the stage that failed, how,
		 * and the first thing that stage said */
		const char *why = t->fail.err.data ? t->fail.err.data : "";
		rec_buf_adds(&t->reply, "Something went wrong on my side: ");
		if (t->fail.stage) {
			rec_buf_printf(&t->reply, "stage '%s' ",
			    t->fail.stage->argv[0]);
			rec_proc_describe(&t->reply, t->fail.status);
		} else
			rec_buf_adds(&t->reply, "a stage failed");
		if (*why && *why != '\n')
			rec_buf_printf(&t->reply, " (%.*s)",
			    (int)strcspn(why, "\n"), why);
		rec_buf_adds(&t->reply, ". This is not an empty result; please "
		    "try again.\n");
		rec_buf_reset(&t->items);
		rec_buf_adds(&t->items, "[]");
	} else if (respond) {
		struct rec_buf r2 = {0};
		if (t->emptied.len && t->notes.len)
			rec_buf_printf(&t->notes, " (%s)", t->emptied.data);
		if (rec_llm_enabled()) {
			rec_buf_adds(mlog, mlog->len ? "; " : "");
			rec_respond_model(kb, in, msg, t->out.data, t->out.len,
			    t->notes.data, &r2, &t->items, mlog);
		} else
			rec_respond(kb, in, t->out.data, t->out.len,
			    t->notes.data, &r2, &t->items);
		if (in->subject)
			rec_answer(kb, in, &t->reply);
		rec_buf_add(&t->reply, r2.data, r2.len);
		rec_buf_free(&r2);
		if (t->violated.len)
			rec_buf_printf(&t->reply, "(%s.)\n", t->violated.data);
		if (in->fill)
			rec_buf_adds(&t->reply, "(Little matches every part "
			    "of it, so the list goes on with the best-known "
			    "that meet your other conditions.)\n");
		if (t->said.len)
			rec_buf_printf(&t->reply, "(%s.)\n", t->said.data);
		if (!rec_records_count(t->out.data, t->out.len, NULL) &&
		    t->emptied.len)
			rec_buf_printf(&t->reply, "(The list emptied at %s.)\n",
			    t->emptied.data);
		rec_intent_shown(kb, in, t->out.data, t->out.len);
	}
}
