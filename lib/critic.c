/*
 * critic.c: InteRecAgent's reflection for the tools mode.  After the
 * model's plan ran, its trace and its top items are checked; when they
 * fail, the model re-plans once with the reasons, and the new result is
 * kept when the critic finds it better.  Without a model, chat.c's
 * rule critic (relax a constraint that emptied the list) is the one.
 */
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* whether argv (a trace line's) is one of p's sources: a source reads
 * nothing, so finding nothing is its own doing, while a filter that
 * was given nothing only passes the emptiness on */
static int
is_source(const struct rec_plan *p, const msgpack_object *argv)
{
	size_t s;
	uint32_t i;

	for (s = 0; argv && argv->type == MSGPACK_OBJECT_ARRAY && s < p->nsrc;
	    s++) {
		if ((uint32_t)p->src[s].argc != argv->via.array.size)
			continue;
		for (i = 1; i < argv->via.array.size; i++) {
			const msgpack_object *a = &argv->via.array.ptr[i];
			if (a->type != MSGPACK_OBJECT_STR ||
			    strlen(p->src[s].argv[i]) != a->via.str.size ||
			    memcmp(p->src[s].argv[i], a->via.str.ptr,
			    a->via.str.size))
				break;
		}
		if (i == argv->via.array.size)
			return 1;
	}
	return 0;
}

/* stages that found or kept nothing, from the trace of the last run */
static int
empty_stages(const struct rec_plan *p, struct rec_buf *why)
{
	const char *line = rec_plan_trace();
	int n = 0;

	while (*line) {
		size_t len = strcspn(line, "\n"), off = 0;
		struct rec_buf pk = {0}, err = {0};
		msgpack_zone z;
		msgpack_object o;

		msgpack_zone_init(&z, 1024);
		if (!rec_json_to_msgpack(line, len, &pk, NULL, &err) &&
		    msgpack_unpack(pk.data, pk.len, &off, &z, &o) ==
		    MSGPACK_UNPACK_SUCCESS) {
			const msgpack_object *in = rec_map_get(&o, "in");
			const msgpack_object *out = rec_map_get(&o, "out");
			const msgpack_object *argv = rec_map_get(&o, "argv");
			const msgpack_object *tool = rec_map_get(&o, "tool");
			int src = is_source(p, argv);
			if (!src && (!in || in->type !=
			    MSGPACK_OBJECT_POSITIVE_INTEGER || !in->via.u64))
				;	/* given nothing */
			else if (out && out->type ==
			    MSGPACK_OBJECT_POSITIVE_INTEGER &&
			    out->via.u64 == 0 && tool && tool->type ==
			    MSGPACK_OBJECT_STR) {
				uint32_t i;
				rec_buf_printf(why, "%s%.*s (", why->len ? "; " :
				    "", (int)tool->via.str.size,
				    tool->via.str.ptr);
				for (i = 1; argv && argv->type ==
				    MSGPACK_OBJECT_ARRAY && i < argv->via.array.size
				    && i < 16; i++) {
					const msgpack_object *a =
					    &argv->via.array.ptr[i];
					if (a->type == MSGPACK_OBJECT_STR)
						rec_buf_printf(why, "%s%.*s", i > 1 ?
						    " " : "", (int)(a->via.str.size >
						    80 ? 80 : a->via.str.size),
						    a->via.str.ptr);
				}
				if (src)
					rec_buf_adds(why, ") found nothing");
				else
					rec_buf_printf(why, ") kept none of %llu",
					    (unsigned long long)in->via.u64);
				n++;
			}
		}
		msgpack_zone_destroy(&z);
		rec_buf_free(&pk);
		rec_buf_free(&err);
		line += len;
		if (*line)
			line++;
	}
	return n;
}

int
rec_critic(struct rec_kb *kb, const struct rec_intent *in,
    const struct rec_plan *p, const char *out, size_t len, size_t want,
    struct rec_buf *why)
{
	static const char what[] = "checking the plan's result";
	struct rec_reader r;
	struct rec_record rec;
	struct rec_strs ids = {0}, creators = {0};
	struct rec_buf where = {0}, sql = {0}, list = {0};
	size_t i, bad = 0, rejected = 0;
	int n = empty_stages(p, why);

	rec_reader_init_mem(&r, out ? out : "", len, "results");
	while (rec_read(&r, &rec) > 0)
		rec_strs_push(&ids, rec.id, rec.idlen);
	rec_reader_free(&r);
	if (ids.n < want) {
		rec_buf_printf(why, "%sonly %zu item%s came out, %zu wanted",
		    why->len ? "; " : "", ids.n, ids.n == 1 ? "" : "s", want);
		n++;
	}
	rec_buf_addc(&list, '[');
	for (i = 0; i < ids.n; i++) {
		rec_buf_adds(&list, i ? "," : "");
		rec_json_string(&list, ids.v[i], strlen(ids.v[i]));
		if (rec_strs_has(&in->disliked_items, ids.v[i], 0) ||
		    rec_strs_has(&in->seen, ids.v[i], 0) ||
		    rec_strs_has(&in->shown, ids.v[i], 0))
			rejected++;
		if (kb->c_creator) {
			char *c = rec_catalog_field(kb->cat, kb->c_creator,
			    ids.v[i], strlen(ids.v[i]));
			if (c && rec_strs_has(&in->disliked_creators, c, 1))
				rejected++;
			if (c && *c)
				rec_strs_add(&creators, c);
			free(c);
		}
	}
	rec_buf_addc(&list, ']');
	if (rejected) {
		rec_buf_printf(why, "%s%zu of the items were disliked or shown "
		    "before", why->len ? "; " : "", rejected);
		n++;
	}
	/* the constraints the conversation states (the rules' reading) */
	rec_intent_where(in, &where);
	if (where.len && ids.n) {
		sqlite3_stmt *st;
		rec_buf_printf(&sql, "SELECT count(*) FROM items WHERE id IN "
		    "(SELECT value FROM json_each(?)) AND NOT coalesce(%s, 0)",
		    where.data);
		st = rec_catalog_prepare(kb->cat, sql.data, what);
		sqlite3_bind_text(st, 1, list.data, (int)list.len,
		    SQLITE_STATIC);
		if (rec_catalog_step(kb->cat, st, what))
			bad = (size_t)sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
		if (bad) {
			rec_buf_printf(why, "%s%zu of the items break %s",
			    why->len ? "; " : "", bad, where.data);
			n++;
		}
	}
	/* variety: one creator throughout, when none was asked for */
	if (ids.n >= 5 && creators.n == 1 && !in->liked_creators.n) {
		rec_buf_printf(why, "%sall %zu items are by %s: too little "
		    "variety", why->len ? "; " : "", ids.n, creators.v[0]);
		n++;
	}
	rec_strs_free(&ids);
	rec_strs_free(&creators);
	rec_buf_free(&where);
	rec_buf_free(&sql);
	rec_buf_free(&list);
	return n;
}

int
rec_chat_tools(struct rec_kb *kb, const char *dbpath, const char *bin,
    const char *msg, struct rec_intent *in, const struct rec_intent *prev,
    const struct rec_dialogue *dlg, const char *demos, int respond,
    struct rec_turn *t, struct rec_buf *mlog)
{
	struct rec_toolplan tp = {0};
	struct rec_buf why = {0}, why2 = {0};
	size_t want = (size_t)(in->k < 3 ? in->k : 3);
	int bad, bad2;

	if (rec_plan_tools(kb, msg, in, prev, dlg, demos, &tp, &t->plan) < 0) {
		rec_buf_printf(mlog, "%s%s", mlog->len ? "; " : "", tp.log.data);
		rec_toolplan_free(&tp);
		return -1;
	}
	rec_buf_add(&t->calls, tp.calls.data, tp.calls.len);
	t->failed = rec_plan_run(&t->plan, bin, dbpath, &t->out, &t->err,
	    &t->fail) < 0;
	if (!t->failed && (bad = rec_critic(kb, in, &t->plan, t->out.data,
	    t->out.len, want, &why)) > 0) {
		struct rec_turn t2;
		memset(&t2, 0, sizeof t2);
		rec_buf_printf(&tp.log, "; critic: %s", why.data);
		if (rec_plan_tools_again(kb, in, &tp, why.data, &t2.plan) == 0) {
			t2.failed = rec_plan_run(&t2.plan, bin, dbpath, &t2.out,
			    &t2.err, &t2.fail) < 0;
			/* kept when better: fewer reasons, or as many and
			 * more items */
			if (!t2.failed && ((bad2 = rec_critic(kb, in, &t2.plan,
			    t2.out.data, t2.out.len, want, &why2)) < bad ||
			    (bad2 == bad && rec_records_count(t2.out.data,
			    t2.out.len, NULL) > rec_records_count(t->out.data,
			    t->out.len, NULL)))) {
				rec_buf_adds(&tp.log, "; the re-plan was kept");
				rec_buf_reset(&t2.calls);
				rec_buf_add(&t2.calls, tp.calls.data,
				    tp.calls.len);
				rec_turn_free(t);
				*t = t2;
				memset(&t2, 0, sizeof t2);
			} else
				rec_buf_adds(&tp.log, "; the first plan was "
				    "kept");
		}
		rec_turn_free(&t2);
	}
	if (tp.notes.len)
		rec_buf_printf(&t->said, "%s%s", t->said.len ? "; " : "",
		    tp.notes.data);
	rec_buf_printf(mlog, "%s%s", mlog->len ? "; " : "", tp.log.data);
	rec_turn_finish(kb, msg, in, respond, t, mlog);
	rec_toolplan_free(&tp);
	rec_buf_free(&why);
	rec_buf_free(&why2);
	return 0;
}
