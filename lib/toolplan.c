/*
 * toolplan.c: the tools mode of planning with a model (TalkPlay-Tools,
 * InteRecAgent): the model is given the catalog's schema, the plan
 * tools as OpenAI function definitions (toolschema.c, from the tools'
 * own option tables, opts.c), and the dialogue so far, and answers with
 * tool calls in order.  Every call is checked against its tool's options
 * and the catalog (toolcheck.c); what fails goes back to the model once;
 * what still fails is dropped with a note; with nothing usable the rule
 * planner answers.  Here: the conversation with the model, reading its
 * answers, and the plan of the calls that passed, with what the
 * conversation rules out added.
 */
#include <stdlib.h>
#include <string.h>

#include "demos.h"
#include "toolplan.h"

/* the most calls of one answer that are read */
#define MAXCALLS 8

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
		rec_buf_sql(&b, in->disliked_creators.v[i]);
	}
	if (b.len) {
		rec_stage_arg(&s, "rec-sql");
		rec_tp_opt_arg(&s, 'w', b.data);
		push_stage(&p->filt, &p->nfilt, &s);
	}
	if (!rank->argc)
		rec_stage_arg(rank, "rec-rank");
	if (!rec_tp_has_opt(rank, 'F'))
		rec_tp_opt_arg(rank, 'F', "rrf");
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
		rec_tp_opt_arg(rank, 'n', b.data);
	if (in->user) {
		rec_tp_opt_arg(rank, 'x', in->user);
	}
	if (kb->c_title && kb->c_creator)
		rec_tp_opt_arg(rank, 'U', "title,creator");
	if (kb->c_creator && !rec_tp_has_opt(rank, 'D') &&
	    !in->liked_creators.n) {
		rec_tp_opt_arg(rank, 'D', kb->c_creator);
		if (!rec_tp_has_opt(rank, 'p'))
			rec_tp_opt_arg(rank, 'p', "2");
	}
	if (!rec_tp_has_opt(rank, 'k')) {
		snprintf(num, sizeof num, "%d", in->k > 0 ? in->k : 10);
		rec_tp_opt_arg(rank, 'k', num);
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
	struct rec_tp_checker ck;
	size_t i, good = 0;
	int rank = 0;

	rec_tp_checker_open(&ck, kb);
	rec_buf_reset(accepted);
	rec_buf_addc(accepted, '[');
	for (i = 0; i < n; i++) {
		struct checked *c = &cks[i];
		struct jv a;
		struct rec_buf err = {0};
		size_t t;

		memset(c, 0, sizeof *c);
		for (t = 0; calls[i].name && rec_tooldefs[t]; t++)
			if (rec_tp_same_name(rec_tooldefs[t]->tool,
			    calls[i].name, strlen(calls[i].name)) &&
			    rec_tp_usable(kb, rec_tooldefs[t]))
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
			else if (rec_tp_check_call(&ck, c->d, &a.o, &c->st,
			    &c->all, &c->why) == 0) {
				c->ok = 1;
				good++;
				rank |= c->d == &rec_tool_rank;
				rec_buf_adds(accepted, accepted->len > 1 ? "," :
				    "");
				rec_buf_adds(accepted, "{\"name\":");
				rec_tp_str_json(accepted, calls[i].name);
				rec_buf_adds(accepted, ",\"arguments\":");
				rec_buf_add(accepted, calls[i].args.data,
				    calls[i].args.len);
				rec_buf_addc(accepted, '}');
			}
		}
		jv_free(&a);
		rec_buf_free(&err);
		rec_buf_adds(results, ",{\"role\":\"tool\",\"tool_call_id\":");
		rec_tp_str_json(results, calls[i].id);
		rec_buf_adds(results, ",\"content\":");
		if (c->ok)
			rec_tp_str_json(results, "accepted");
		else {
			struct rec_buf w = {0};
			rec_buf_printf(&w, "error: %s", c->why.data);
			rec_json_string(results, w.data, w.len);
			rec_buf_free(&w);
		}
		rec_buf_addc(results, '}');
	}
	rec_buf_addc(accepted, ']');
	rec_tp_checker_close(&ck);
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
			rec_tp_opt_arg(&c->st, 'a', NULL);
			rec_tp_opt_arg(&c->st, 's', "sql");
			rec_tp_opt_arg(&c->st, 'k', "300");
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
				rec_tp_model_name(prob, cks[i].d->tool);
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
