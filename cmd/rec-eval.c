/*
 * rec-eval: scores recommendations on logged conversations (rec-bench(5)):
 * rec's own conversational pipeline, or any command.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "batch.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-eval [-Jq] [-d CATALOG] [-K K,...] [-j N] [-L LOG] "
	    "[-n N] BENCH\n"
	    "                [-- COMMAND [ARG...]]\n"
	    "       rec-eval [-Jq] [-d CATALOG] [-L LOG] -s N\n"
	    "  -d, --db CATALOG     the catalog (default $REC_DB)\n"
	    "  -j, --jobs N         score N points at once (default 1)\n"
	    "  -J, --json           the figures as JSON\n"
	    "  -K, --cutoffs K,...  the cut-offs (default 1,5,10,20)\n"
	    "  -L, --log FILE       a line per point: message, plan, top "
	    "ids, hit or miss\n"
	    "  -n, --limit N        the first N conversations only\n"
	    "  -q, --quiet          no progress\n"
	    "  -s, --simulate N     N simulated users look for a held-out "
	    "item\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

struct point {
	size_t conv, turn;
};

struct result {
	struct rec_strs ids;	/* as the system gave them */
	double ms;
	struct rec_llm_cost cost;	/* the model calls of the point */
	char *plan;		/* rec's plan, or the command's failure */
	char *intent;		/* rec's intent of the turn, JSON */
	int failed;
};

static struct rec_conv *convs;
static size_t nconvs;
static struct point *points;
static size_t npoints;
static size_t ks[REC_MAXK], nk, maxk;
static const char *dbpath;
static char **cmd;		/* NULL: rec's own pipeline */
static struct rec_kb *kb;
static char *bin;
static int mode;		/* with a model: REC_LLM_MODE */

static void
parse_ks(const char *arg)
{
	const char *p = arg;
	char *end;

	nk = 0;
	while (*p) {
		unsigned long v = strtoul(p, &end, 10);
		if (end == p || !v || v > 1000 || (nk && v <= ks[nk - 1]) ||
		    nk == REC_MAXK)
			rec_usage_die("-K: cut-offs rising from 1 to 1000, at "
			    "most %d: '%s'", REC_MAXK, arg);
		ks[nk++] = v;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			rec_usage_die("-K: not a list of numbers: '%s'", arg);
	}
	if (!nk)
		rec_usage_die("-K: no cut-offs");
	maxk = ks[nk - 1];
}

static void
load_bench(const char *path, size_t limit)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *name = strcmp(path, "-") ? path : "stdin";
	char *line = NULL;
	size_t cap = 0, t;
	ssize_t n;
	unsigned long lineno = 0;
	struct rec_buf err = {0};

	if (!fp)
		rec_die("cannot open '%s': %m", path);
	while (nconvs < limit && (n = getline(&line, &cap, fp)) > 0) {
		lineno++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (!n)
			continue;
		convs = xrealloc(convs, (nconvs + 1) * sizeof *convs);
		rec_buf_reset(&err);
		if (rec_conv_parse(&convs[nconvs], line, (size_t)n, &err) < 0)
			rec_die("%s:%lu: %s", name, lineno, err.data);
		for (t = 0; t < convs[nconvs].nturns; t++) {
			struct rec_strs tg = {0};
			if (rec_conv_targets(&convs[nconvs], t, &tg)) {
				points = xrealloc(points, (npoints + 1) *
				    sizeof *points);
				points[npoints].conv = nconvs;
				points[npoints++].turn = t;
			}
			rec_strs_free(&tg);
		}
		nconvs++;
	}
	if (ferror(fp))
		rec_die("%s: read error: %m", name);
	if (fp != stdin)
		fclose(fp);
	free(line);
	rec_buf_free(&err);
	if (!nconvs)
		rec_die("%s: no conversations", name);
	if (!npoints)
		rec_die("%s: no turn has targets to score", name);
}

/* ---- the systems ---- */

static void
ids_of(const char *p, size_t n, struct rec_strs *out, const char *name,
    struct rec_buf *err)
{
	struct rec_reader r;
	struct rec_record rec;
	int st;

	rec_reader_init_mem(&r, p ? p : "", n, name);
	while ((st = rec_read(&r, &rec)) > 0)
		rec_strs_push(out, rec.id, rec.idlen);
	if (st < 0)
		rec_buf_adds(err, r.err.data);
	rec_reader_free(&r);
}

/* rec's conversation: the turns before, as the log has them (what was
 * said, shown, liked and disliked), then this one, through the same
 * code as rec-chat */
static void
run_rec(const struct rec_conv *c, size_t t, struct result *r)
{
	struct rec_intent prev, in;
	struct rec_turn turn;
	struct rec_buf mlog = {0};
	struct rec_dialogue dlg = {0};
	size_t i, j;
	int have = 0, tools = rec_llm_enabled() && mode == REC_MODE_TOOLS;

	for (i = 0; i <= t; i++) {
		const struct rec_conv_turn *ct = &c->turn[i];
		rec_llm_reset();
		/* what the last answer showed is in the state the message
		 * is read against, as rec-chat's session holds it: shown,
		 * the last list, and its songs' keys */
		if (i > 0 && c->turn[i - 1].shown.n) {
			rec_strs_free(&prev.last);
			for (j = 0; j < c->turn[i - 1].shown.n; j++)
				rec_intent_show(kb, &prev,
				    c->turn[i - 1].shown.v[j],
				    strlen(c->turn[i - 1].shown.v[j]));
		}
		/* the tools mode plans the last turn only; the turns before
		 * are the state, read by the rules */
		if (rec_llm_enabled() && !tools)
			rec_intent_model(kb, ct->user, have ? &prev : NULL, &dlg,
			    NULL, &in, &mlog, NULL);
		else
			rec_intent_parse(kb, ct->user, have ? &prev : NULL, &in);
		if (i < t && rec_llm_enabled())
			rec_dialogue_add(&dlg, ct->user, ct->assistant ?
			    ct->assistant : "");
		if (c->user && !in.user)
			in.user = xstrdup(c->user);
		/* what the log says happened before this turn */
		for (j = 0; j < i; j++) {
			size_t x;
			for (x = 0; x < c->turn[j].liked.n; x++)
				rec_strs_add(&in.boost, c->turn[j].liked.v[x]);
			for (x = 0; x < c->turn[j].disliked.n; x++)
				rec_strs_add(&in.disliked_items,
				    c->turn[j].disliked.v[x]);
		}
		if (i > 0)
			for (j = 0; j < c->turn[i - 1].shown.n; j++)
				rec_intent_add_shown(&in,
				    c->turn[i - 1].shown.v[j]);
		if (i == t)
			break;
		/* a reply that showed nothing ("do you like horror?"): what
		 * a "yes" next takes up, as rec-chat keeps its own */
		if (!ct->shown.n && ct->assistant && *ct->assistant)
			rec_strs_add(&in.offer, ct->assistant);
		if (have)
			rec_intent_free(&prev);
		prev = in;
		have = 1;
	}
	if (in.k < (int)maxk)
		in.k = (int)maxk;
	{
		struct rec_buf ij = {0};
		rec_intent_json(&ij, &in);
		r->intent = ij.data;
	}
	memset(&turn, 0, sizeof turn);
	if (!tools || rec_chat_tools(kb, dbpath, bin, c->turn[t].user, &in,
	    have ? &prev : NULL, &dlg, NULL, 0, &turn, &mlog) < 0)
		rec_chat_answer(kb, dbpath, bin, c->turn[t].user, &in, 0, &turn,
		    &mlog);
	if (turn.failed) {
		r->failed = 1;
		r->plan = xstrdup(turn.err.data ? turn.err.data : "failed");
	} else {
		struct rec_buf err = {0};
		ids_of(turn.out.data, turn.out.len, &r->ids, "plan", &err);
		r->plan = xstrdup(turn.plan.ask ? turn.plan.ask :
		    turn.shell.data ? turn.shell.data : "");
		rec_buf_free(&err);
	}
	rec_turn_free(&turn);
	rec_intent_free(&in);
	if (have)
		rec_intent_free(&prev);
	rec_buf_free(&mlog);
	rec_dialogue_free(&dlg);
}

/* the conversation so far in rec-chat's session form: a line per turn
 * before this one, then this one's message */
static void
session(const struct rec_conv *c, size_t t, struct rec_buf *b)
{
	size_t i;

	for (i = 0; i <= t; i++) {
		const struct rec_conv_turn *ct = &c->turn[i];
		struct rec_session_out o = { .turn = (int)i + 1,
		    .user = ct->user, .ms = -1 };
		if (i < t) {
			o.reply = ct->assistant ? ct->assistant : "";
			o.shown = &ct->shown;
			o.liked = &ct->liked;
			o.disliked = &ct->disliked;
		}
		rec_session_format(b, &o, 0);
	}
}

/* any command: the session on its standard input, candidates on its
 * standard output */
static void
run_cmd(const struct rec_conv *c, size_t t, struct result *r)
{
	struct rec_buf in = {0}, out = {0}, err = {0};
	struct rec_child ch = {0};
	int status;

	session(c, t, &in);
	ch.argv = cmd;
	status = rec_child_pipe(&ch, in.data, in.len, &out);
	if (!rec_proc_ok(status)) {
		r->failed = 1;
		rec_buf_adds(&err, "the command ");
		rec_proc_describe(&err, status);
	} else {
		ids_of(out.data, out.len, &r->ids, "the command's output", &err);
		if (err.len)
			r->failed = 1;
	}
	r->plan = xstrdup(err.len ? err.data : "");
	rec_buf_free(&in);
	rec_buf_free(&out);
	rec_buf_free(&err);
}

static void
run_point(size_t p, struct result *r)
{
	const struct rec_conv *c = &convs[points[p].conv];
	double t0 = rec_now() * 1e3;
	struct rec_llm_cost c0, c1;

	memset(r, 0, sizeof *r);
	rec_llm_cost_get(&c0);
	if (cmd)
		run_cmd(c, points[p].turn, r);
	else
		run_rec(c, points[p].turn, r);
	r->ms = rec_now() * 1e3 - t0;
	rec_llm_cost_get(&c1);
	r->cost.calls = c1.calls - c0.calls;
	r->cost.failed = c1.failed - c0.failed;
	r->cost.prompt_tokens = c1.prompt_tokens - c0.prompt_tokens;
	r->cost.completion_tokens = c1.completion_tokens -
	    c0.completion_tokens;
	r->cost.ms = c1.ms - c0.ms;
}

/* ---- running the points, in workers ---- */

static void
put_result(struct rec_buf *b, size_t p, const struct result *r)
{
	size_t i;

	rec_buf_printf(b, "{\"p\":%zu,\"ms\":%.3f,\"failed\":%d,\"mc\":%lu,"
	    "\"mf\":%lu,\"mp\":%ld,\"mo\":%ld,\"mms\":%.3f,\"plan\":", p,
	    r->ms, r->failed, r->cost.calls, r->cost.failed,
	    r->cost.prompt_tokens, r->cost.completion_tokens, r->cost.ms);
	rec_json_string(b, r->plan ? r->plan : "", r->plan ?
	    strlen(r->plan) : 0);
	if (r->intent) {
		rec_buf_adds(b, ",\"intent\":");
		rec_json_string(b, r->intent, strlen(r->intent));
	}
	rec_buf_adds(b, ",\"ids\":[");
	for (i = 0; i < r->ids.n && i < 1000; i++) {
		rec_buf_adds(b, i ? "," : "");
		rec_json_string(b, r->ids.v[i], strlen(r->ids.v[i]));
	}
	rec_buf_adds(b, "]}\n");
}

static void
get_result(const char *line, size_t n, struct result *res)
{
	struct rec_buf pk = {0}, err = {0};
	msgpack_zone z;
	msgpack_object o;
	size_t off = 0, p = (size_t)-1;
	uint32_t i, j;

	msgpack_zone_init(&z, 4096);
	if (rec_json_to_msgpack(line, n, &pk, NULL, &err) < 0 ||
	    msgpack_unpack(pk.data, pk.len, &off, &z, &o) !=
	    MSGPACK_UNPACK_SUCCESS || o.type != MSGPACK_OBJECT_MAP)
		rec_die("a worker wrote a bad line: %s", err.data ? err.data :
		    "not an object");
	for (i = 0; i < o.via.map.size; i++) {
		const msgpack_object *k = &o.via.map.ptr[i].key;
		const msgpack_object *v = &o.via.map.ptr[i].val;
		if (k->via.str.size == 1 && k->via.str.ptr[0] == 'p')
			p = (size_t)v->via.u64;
	}
	if (p >= npoints)
		rec_die("a worker wrote a bad line");
	for (i = 0; i < o.via.map.size; i++) {
		const msgpack_object *k = &o.via.map.ptr[i].key;
		const msgpack_object *v = &o.via.map.ptr[i].val;
		struct result *r = &res[p];
		if (k->via.str.size == 2 && !memcmp(k->via.str.ptr, "ms", 2))
			r->ms = v->type == MSGPACK_OBJECT_FLOAT64 ? v->via.f64 :
			    (double)v->via.u64;
		else if (k->via.str.size == 6 &&
		    !memcmp(k->via.str.ptr, "failed", 6))
			r->failed = (int)v->via.u64;
		else if (k->via.str.size == 2 && !memcmp(k->via.str.ptr, "mc", 2))
			r->cost.calls = (unsigned long)v->via.u64;
		else if (k->via.str.size == 2 && !memcmp(k->via.str.ptr, "mf", 2))
			r->cost.failed = (unsigned long)v->via.u64;
		else if (k->via.str.size == 2 && !memcmp(k->via.str.ptr, "mp", 2))
			r->cost.prompt_tokens = (long)v->via.u64;
		else if (k->via.str.size == 2 && !memcmp(k->via.str.ptr, "mo", 2))
			r->cost.completion_tokens = (long)v->via.u64;
		else if (k->via.str.size == 3 &&
		    !memcmp(k->via.str.ptr, "mms", 3))
			r->cost.ms = v->type == MSGPACK_OBJECT_FLOAT64 ?
			    v->via.f64 : (double)v->via.u64;
		else if (k->via.str.size == 4 &&
		    !memcmp(k->via.str.ptr, "plan", 4))
			r->plan = xstrndup(v->via.str.ptr, v->via.str.size);
		else if (k->via.str.size == 6 &&
		    !memcmp(k->via.str.ptr, "intent", 6))
			r->intent = xstrndup(v->via.str.ptr, v->via.str.size);
		else if (k->via.str.size == 3 &&
		    !memcmp(k->via.str.ptr, "ids", 3))
			for (j = 0; j < v->via.array.size; j++)
				rec_strs_push(&r->ids,
				    v->via.array.ptr[j].via.str.ptr,
				    v->via.array.ptr[j].via.str.size);
	}
	msgpack_zone_destroy(&z);
	rec_buf_free(&pk);
	rec_buf_free(&err);
}

static size_t nworkers;

/* a worker (a job of run_all): every nworkers-th point from the one
 * in arg, a result line each on its standard output */
static int
worker(void *arg)
{
	struct rec_buf b = {0};
	size_t p;

	if (!cmd)
		kb = rec_kb_load(dbpath);
	for (p = (size_t)(uintptr_t)arg; p < npoints; p += nworkers) {
		struct result r;
		run_point(p, &r);
		rec_buf_reset(&b);
		put_result(&b, p, &r);
		rec_write_all(1, b.data, b.len);
		rec_strs_free(&r.ids);
		free(r.plan);
		free(r.intent);
	}
	rec_buf_free(&b);
	return 0;
}

static void
run_all(struct result *res, size_t njobs, int progress)
{
	struct rec_jobs jobs;
	struct rec_job *job;
	size_t w, done = 0;
	int failed = 0, status = 0;
	double last = 0;

	nworkers = njobs;
	rec_jobs_init(&jobs, njobs, (size_t)-1);
	jobs.stream = 1;
	for (w = 0; w < njobs; w++) {
		struct rec_child c = {0};
		c.fn = worker;
		c.arg = (void *)(uintptr_t)w;
		rec_jobs_start(&jobs, &c, NULL);
	}
	while ((job = rec_jobs_wait(&jobs))) {
		char *nl;
		while (job->out.len && (nl = memchr(job->out.data, '\n',
		    job->out.len))) {
			size_t len = (size_t)(nl - job->out.data);
			get_result(job->out.data, len, res);
			done++;
			memmove(job->out.data, nl + 1, job->out.len - len - 1);
			job->out.len -= len + 1;
		}
		if (job->ended) {
			if (!rec_proc_ok(job->status) && !failed++)
				status = job->status;
			rec_jobs_release(&jobs, job);
		}
		if (progress && (rec_now() * 1e3 - last > 200 || done == npoints)) {
			fprintf(stderr, "\r%s: %zu of %zu points", rec_progname,
			    done, npoints);
			last = rec_now() * 1e3;
		}
	}
	if (progress)
		fputc('\n', stderr);
	rec_jobs_free(&jobs);
	if (failed) {
		struct rec_buf b = {0};
		rec_proc_describe(&b, status);
		rec_die("a worker %s", b.data);
	}
	if (done != npoints)
		rec_die("the workers scored %zu of %zu points", done, npoints);
}

/* ---- the simulated user (InteRecAgent's protocol, without a model) ---- */

struct pair {
	char *user, *target, *like;	/* like: an item of their history */
};

/* up to max distinct values of the item's tag columns (lists or plain),
 * then its decade, creator and title (caller frees) */
struct attrs {
	char *tags[4];
	size_t ntags;
	int decade;
	char *creator;
};

/* the text of one column of one item, or NULL; caller frees */
static char *
item_field(sqlite3 *db, const char *col, const char *id)
{
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	char *v = NULL;

	rec_buf_printf(&sql, "SELECT \"%s\" FROM items WHERE id = ?", col);
	if (!sqlite3_prepare_v2(db, sql.data, -1, &st, NULL)) {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			v = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	rec_buf_free(&sql);
	return v;
}

static void
item_attrs(sqlite3 *db, const char *id, const char *user, struct attrs *a)
{
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	size_t c;
	char *v;

	memset(a, 0, sizeof *a);
	for (c = 0; c < kb->nc_tags && a->ntags < 4; c++) {
		rec_buf_reset(&sql);
		if (kb->c_tags_list[c])
			rec_buf_printf(&sql, "SELECT j.value FROM items, "
			    "json_each(items.\"%s\") j WHERE items.id = ?",
			    kb->c_tags[c]);
		else
			rec_buf_printf(&sql, "SELECT \"%s\" FROM items WHERE "
			    "id = ?", kb->c_tags[c]);
		if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL))
			continue;
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		while (a->ntags < 4 && sqlite3_step(st) == SQLITE_ROW) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			size_t i;
			int dup = 0;
			/* never the user's own name (a playlist is a user) */
			if (!v || !*v || !strcmp(v, user))
				continue;
			for (i = 0; i < a->ntags; i++)
				dup |= !strcasecmp(a->tags[i], v);
			if (!dup)
				a->tags[a->ntags++] = xstrdup(v);
		}
		sqlite3_finalize(st);
	}
	if (kb->c_year && (v = item_field(db, kb->c_year, id))) {
		a->decade = atoi(v) / 10 * 10;
		free(v);
	}
	if (kb->c_creator)
		a->creator = item_field(db, kb->c_creator, id);
	rec_buf_free(&sql);
}

/* one simulated conversation: the turn the target (or the same song on
 * another release) came in the top 5, or 0 */
static int
simulate_one(sqlite3 *db, const struct pair *pr, struct rec_strs *history,
    FILE *logf)
{
	struct attrs a;
	char *hints[5], *like = pr->like && kb->c_title ?
	    item_field(db, kb->c_title, pr->like) : NULL;
	size_t nh = 0, i, t;
	struct rec_intent prev, in;
	int have = 0, found = 0;
	struct rec_buf m = {0};
	struct rec_buf song = {0}, other = {0};
	int have_song;

	item_attrs(db, pr->target, pr->user, &a);
	have_song = rec_song_key_of(kb, pr->target, strlen(pr->target), &song);
	/* the hints, a little at a time, never the target's name */
	if (a.ntags) {
		rec_buf_printf(&m, "something %s", a.tags[0]);
		hints[nh++] = xstrdup(m.data);
	}
	if (a.decade >= 1900) {
		rec_buf_reset(&m);
		rec_buf_printf(&m, "from the %ds", a.decade);
		hints[nh++] = xstrdup(m.data);
	}
	if (like) {
		rec_buf_reset(&m);
		rec_buf_printf(&m, "like %s", like);
		hints[nh++] = xstrdup(m.data);
	}
	if (a.creator && nh < 5) {
		rec_buf_reset(&m);
		rec_buf_printf(&m, "by %s", a.creator);
		hints[nh++] = xstrdup(m.data);
	}
	for (i = 1; i < a.ntags && nh < 5; i++) {
		rec_buf_reset(&m);
		rec_buf_printf(&m, "%s please", a.tags[i]);
		hints[nh++] = xstrdup(m.data);
	}
	for (t = 0; t < nh && !found; t++) {
		struct rec_turn turn;
		struct rec_strs ids = {0};
		struct rec_buf mlog = {0}, err = {0};
		rec_intent_parse(kb, hints[t], have ? &prev : NULL, &in);
		/* what the user had before, as rec-chat's profile gives it */
		for (i = 0; i < history->n; i++)
			rec_strs_add(&in.boost, history->v[i]);
		if (in.k < 10)
			in.k = 10;
		memset(&turn, 0, sizeof turn);
		rec_chat_answer(kb, dbpath, bin, hints[t], &in, 0, &turn, &mlog);
		ids_of(turn.out.data, turn.out.len, &ids, "plan", &err);
		for (i = 0; i < ids.n && i < 5 && !found; i++)
			if (!strcmp(ids.v[i], pr->target) || (have_song &&
			    rec_song_key_of(kb, ids.v[i], strlen(ids.v[i]),
			    &other) && !strcmp(other.data, song.data)))
				found = (int)t + 1;
		/* a miss: the person says no to what they saw */
		for (i = 0; i < ids.n && i < 5; i++)
			rec_intent_add_shown(&in, ids.v[i]);
		if (logf) {
			struct rec_buf l = {0};
			rec_buf_adds(&l, "{\"user\":");
			rec_json_string(&l, pr->user, strlen(pr->user));
			rec_buf_adds(&l, ",\"target\":");
			rec_json_string(&l, pr->target, strlen(pr->target));
			rec_buf_printf(&l, ",\"turn\":%zu,\"message\":", t + 1);
			rec_json_string(&l, hints[t], strlen(hints[t]));
			rec_buf_adds(&l, ",\"plan\":");
			rec_json_string(&l, turn.shell.data ? turn.shell.data : "",
			    turn.shell.len);
			rec_buf_printf(&l, ",\"found\":%s}\n", found ? "true" :
			    "false");
			fputs(l.data, logf);
			rec_buf_free(&l);
		}
		rec_strs_free(&ids);
		rec_turn_free(&turn);
		rec_buf_free(&mlog);
		rec_buf_free(&err);
		if (have)
			rec_intent_free(&prev);
		prev = in;
		have = 1;
	}
	if (have)
		rec_intent_free(&prev);
	for (i = 0; i < nh; i++)
		free(hints[i]);
	for (i = 0; i < a.ntags; i++)
		free(a.tags[i]);
	free(a.creator);
	free(like);
	rec_buf_free(&song);
	rec_buf_free(&other);
	rec_buf_free(&m);
	return found;
}

/* held-out pairs: every user with two interactions or more gives their
 * last one (by time, then order) as the target; npairs users are
 * taken evenly through the sorted users, so the sample is the same
 * every run */
static void
simulate(size_t npairs, int json, FILE *logf, int progress)
{
	sqlite3 *db = rec_catalog_open(dbpath);
	sqlite3_stmt *st;
	struct rec_strs users = {0};
	size_t u, step, done = 0, hit = 0, turns = 0, pos[6] = {0};

	kb = rec_kb_load(dbpath);
	bin = rec_bindir();
	if (sqlite3_prepare_v2(db, "SELECT user FROM interactions GROUP BY user "
	    "HAVING count(DISTINCT item) >= 2 ORDER BY user", -1, &st, NULL))
		rec_sqlite_die(db, "interactions");
	while (sqlite3_step(st) == SQLITE_ROW)
		rec_strs_push(&users, (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0));
	sqlite3_finalize(st);
	if (!users.n)
		rec_die("no user with two interactions or more to simulate");
	step = users.n > npairs ? users.n / npairs : 1;
	if (sqlite3_prepare_v2(db, "SELECT item FROM interactions WHERE user = "
	    "? ORDER BY coalesce(time, 0), rowid", -1, &st, NULL))
		rec_sqlite_die(db, "interactions");
	for (u = 0; u < users.n && done < npairs; u += step) {
		struct rec_strs hist = {0};
		struct pair pr;
		size_t i;
		int f;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, users.v[u], -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW)
			rec_strs_push(&hist, (const char *)sqlite3_column_text(st,
			    0), (size_t)sqlite3_column_bytes(st, 0));
		pr.user = users.v[u];
		pr.target = hist.v[hist.n - 1];
		hist.n--;	/* held out */
		/* the history without the target (a song can be in a
		 * playlist twice) */
		for (i = 0; i < hist.n; i++)
			if (!strcmp(hist.v[i], pr.target)) {
				free(hist.v[i]);
				hist.v[i] = hist.v[--hist.n];
				i--;
			}
		pr.like = hist.n ? hist.v[hist.n - 1] : NULL;
		f = simulate_one(db, &pr, &hist, logf);
		hit += f > 0;
		turns += f > 0 ? (size_t)f : 6;
		pos[f > 0 ? f : 0]++;
		done++;
		hist.n++;
		rec_strs_free(&hist);
		if (progress)
			fprintf(stderr, "\r%s: %zu of %zu simulated users",
			    rec_progname, done, npairs);
	}
	if (progress)
		fputc('\n', stderr);
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (json)
		printf("{\"simulated\":%zu,\"hit5\":%.4f,\"turns\":%.4f,"
		    "\"found_at\":[%zu,%zu,%zu,%zu,%zu]}\n", done,
		    (double)hit / (double)done, (double)turns / (double)done,
		    pos[1], pos[2], pos[3], pos[4], pos[5]);
	else
		printf("%zu simulated users: the target in the top 5 within 5 "
		    "turns for %.4f, after %.2f turns on average (a miss "
		    "counts 6); found at turns 1-5: %zu %zu %zu %zu %zu\n",
		    done, (double)hit / (double)done, (double)turns /
		    (double)done, pos[1], pos[2], pos[3], pos[4], pos[5]);
	rec_strs_free(&users);
}

/* ---- the figures ---- */

static int
cmp_double(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

static void
json_row(struct rec_buf *b, const char *name, const double *v, double div)
{
	size_t k;
	char d[40];

	rec_buf_printf(b, "\"%s\":[", name);
	for (k = 0; k < nk; k++) {
		rec_json_double(d, sizeof d, div > 0 ? v[k] / div : 0);
		rec_buf_printf(b, "%s%s", k ? "," : "", d);
	}
	rec_buf_adds(b, "]");
}

static void
text_row(const char *name, const double *v, double div)
{
	size_t k;

	printf("%-14s", name);
	for (k = 0; k < nk; k++)
		printf(" %8.4f", div > 0 ? v[k] / div : 0);
	putchar('\n');
}

/* the four accuracy rows of a's means, as JSON members or as text */
static void
json_acc(struct rec_buf *b, const struct rec_score_sum *a)
{
	json_row(b, "hit", a->hit, (double)a->n);
	rec_buf_addc(b, ',');
	json_row(b, "recall", a->recall, (double)a->n);
	rec_buf_addc(b, ',');
	json_row(b, "ndcg", a->ndcg, (double)a->n);
	rec_buf_addc(b, ',');
	json_row(b, "mrr", a->mrr, (double)a->n);
}

static void
text_acc(const struct rec_score_sum *a, const char *suffix)
{
	char name[32];

	snprintf(name, sizeof name, "Hit%s", suffix);
	text_row(name, a->hit, (double)a->n);
	snprintf(name, sizeof name, "Recall%s", suffix);
	text_row(name, a->recall, (double)a->n);
	snprintf(name, sizeof name, "NDCG%s", suffix);
	text_row(name, a->ndcg, (double)a->n);
	snprintf(name, sizeof name, "MRR%s", suffix);
	text_row(name, a->mrr, (double)a->n);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "json", no_argument, NULL, 'J' },
		{ "cutoffs", required_argument, NULL, 'K' },
		{ "log", required_argument, NULL, 'L' },
		{ "limit", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "simulate", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *logpath = NULL;
	size_t njobs = 1, limit = (size_t)-1, p, k, i, nfailed = 0;
	size_t nsim = 0;
	int c, json = 0, quiet = 0;
	struct result *res;
	struct rec_metrics m;
	struct rec_figures f;
	double *ms;
	struct rec_llm_cost total = {0};
	FILE *logf = NULL;
	struct rec_buf out = {0};

	rec_init(argc, argv);
	parse_ks("1,5,10,20");
	while ((c = getopt_long(argc, argv, "+:d:j:JK:L:n:qs:hV", longopts,
	    NULL)) != -1)
		switch (c) {
		case 'd': dbpath = optarg; break;
		case 'j': njobs = rec_arg_count("-j", optarg); break;
		case 'J': json = 1; break;
		case 'K': parse_ks(optarg); break;
		case 'L': logpath = optarg; break;
		case 'n': limit = rec_arg_count("-n", optarg); break;
		case 'q': quiet = 1; break;
		case 's': nsim = rec_arg_count("--simulate", optarg);
			if (!nsim)
				rec_usage_die("--simulate: at least one user");
			break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (nsim) {
		if (optind < argc)
			rec_usage_die("--simulate takes no benchmark");
		dbpath = rec_catalog_path(dbpath);
		if (logpath && !(logf = fopen(logpath, "w")))
			rec_die("cannot open '%s': %m", logpath);
		simulate(nsim, json, logf, !quiet && isatty(2));
		if (logf && fclose(logf))
			rec_die("cannot write '%s': %m", logpath);
		rec_kb_free(kb);
		free(bin);
		if (fflush(stdout) || ferror(stdout))
			rec_die("write error");
		rec_exit(0);
	}
	if (optind == argc)
		rec_usage_die("give the benchmark file (rec-bench(5))");
	if (njobs < 1 || njobs > 256)
		rec_usage_die("-j: between 1 and 256 jobs");
	if (optind + 1 < argc) {
		if (strcmp(argv[optind + 1], "--"))
			rec_usage_die("unexpected argument '%s' (a command "
			    "comes after --)", argv[optind + 1]);
		cmd = argv + optind + 2;
		if (!*cmd)
			rec_usage_die("-- with no command");
	}
	mode = rec_llm_mode(NULL);
	dbpath = rec_catalog_path(dbpath);
	load_bench(argv[optind], limit);
	{
		/* how many records a command's list is cut to */
		char kenv[32];
		snprintf(kenv, sizeof kenv, "%zu", maxk);
		setenv("REC_EVAL_K", kenv, 1);
	}
	if (logpath && !(logf = fopen(logpath, "w")))
		rec_die("cannot open '%s': %m", logpath);
	/* the catalog's ids (Factual), the most wanted items (Pop50) */
	{
		sqlite3 *db = rec_catalog_open(dbpath);
		rec_metrics_init(&m, ks, nk, convs, nconvs, db);
		sqlite3_close(db);
	}
	if (!cmd)
		bin = rec_bindir();
	res = xcalloc(npoints, sizeof *res);
	run_all(res, njobs, !quiet && isatty(2));
	ms = xcalloc(npoints, sizeof *ms);
	/* score every point, in order */
	for (p = 0; p < npoints; p++) {
		const struct rec_conv *cv = &convs[points[p].conv];
		size_t t = points[p].turn;
		struct rec_strs tg = {0}, list = {0};
		struct rec_point_score sc;

		ms[p] = res[p].ms;
		if (res[p].failed) {
			nfailed++;
			if (!quiet)
				rec_warn("%s, turn %zu: %s", cv->id, t + 1,
				    res[p].plan);
		}
		rec_metrics_add(&m, cv, points[p].conv, t, &res[p].ids, &list,
		    &tg, &sc);
		if (logf) {
			struct rec_buf l = {0};
			size_t x = nk > 2 ? 2 : nk - 1;	/* @10 by default */
			rec_buf_adds(&l, "{\"conversation\":");
			rec_json_string(&l, cv->id, strlen(cv->id));
			rec_buf_printf(&l, ",\"turn\":%zu,\"message\":", t + 1);
			rec_json_string(&l, cv->turn[t].user,
			    strlen(cv->turn[t].user));
			rec_buf_adds(&l, ",\"plan\":");
			rec_json_string(&l, res[p].plan ? res[p].plan : "",
			    res[p].plan ? strlen(res[p].plan) : 0);
			/* what rec understood, for the one who reads the
			 * log (an external command has none) */
			if (res[p].intent)
				rec_buf_printf(&l, ",\"intent\":%s",
				    res[p].intent);
			rec_buf_adds(&l, ",\"top\":[");
			for (i = 0; i < list.n && i < ks[x]; i++) {
				rec_buf_adds(&l, i ? "," : "");
				rec_json_string(&l, list.v[i], strlen(list.v[i]));
			}
			rec_buf_adds(&l, "],\"targets\":[");
			for (i = 0; i < tg.n; i++) {
				rec_buf_adds(&l, i ? "," : "");
				rec_json_string(&l, tg.v[i], strlen(tg.v[i]));
			}
			rec_buf_printf(&l, "],\"hit@%zu\":%s,\"ms\":%.1f%s",
			    ks[x], sc.hit[x] ? "true" : "false", res[p].ms,
			    res[p].failed ? ",\"failed\":true" : "");
			/* what the model cost for this point */
			if (res[p].cost.calls)
				rec_buf_printf(&l, ",\"model\":{\"calls\":%lu,"
				    "\"failed\":%lu,\"prompt_tokens\":%ld,"
				    "\"completion_tokens\":%ld,\"ms\":%.1f}",
				    res[p].cost.calls, res[p].cost.failed,
				    res[p].cost.prompt_tokens,
				    res[p].cost.completion_tokens,
				    res[p].cost.ms);
			rec_buf_adds(&l, "}\n");
			fputs(l.data, logf);
			rec_buf_free(&l);
		}
		rec_strs_free(&tg);
		rec_strs_free(&list);
	}
	rec_metrics_end(&m, &f);
	for (p = 0; p < npoints; p++) {
		total.calls += res[p].cost.calls;
		total.failed += res[p].cost.failed;
		total.prompt_tokens += res[p].cost.prompt_tokens;
		total.completion_tokens += res[p].cost.completion_tokens;
		total.ms += res[p].cost.ms;
	}
	if (logf && fclose(logf))
		rec_die("cannot write '%s': %m", logpath);
	qsort(ms, npoints, sizeof *ms, cmp_double);
	{
		double med = ms[npoints / 2], mean = 0;
		for (p = 0; p < npoints; p++)
			mean += ms[p];
		mean /= (double)npoints;
		if (json) {
			char d1[40], d2[40];
			rec_buf_printf(&out, "{\"points\":%zu,\"conversations\":"
			    "%zu,\"failed\":%zu,\"k\":[", npoints, m.macro.n,
			    nfailed);
			for (k = 0; k < nk; k++)
				rec_buf_printf(&out, "%s%zu", k ? "," : "", ks[k]);
			rec_buf_adds(&out, "],\"micro\":{");
			json_acc(&out, &m.micro);
			rec_buf_addc(&out, ',');
			json_row(&out, "pop50", m.pop50, (double)npoints);
			rec_buf_addc(&out, ',');
			json_row(&out, "pop50_ratio", f.pop50_ratio, 1);
			rec_buf_addc(&out, ',');
			json_row(&out, "entropy", f.entropy, 1);
			rec_buf_addc(&out, ',');
			json_row(&out, "maxfreq", f.maxfreq, 1);
			rec_buf_addc(&out, ',');
			json_row(&out, "factual", f.factual, 1);
			rec_buf_adds(&out, "},\"macro\":{");
			json_acc(&out, &m.macro);
			rec_buf_adds(&out, "},\"turns\":[");
			for (i = 0; i < m.nturns; i++) {
				rec_buf_printf(&out, "%s{\"turn\":%zu,\"points\":"
				    "%zu,", i ? "," : "", i + 1, m.turn[i].n);
				json_row(&out, "hit", m.turn[i].hit,
				    (double)m.turn[i].n);
				rec_buf_addc(&out, ',');
				json_row(&out, "ndcg", m.turn[i].ndcg,
				    (double)m.turn[i].n);
				rec_buf_addc(&out, '}');
			}
			rec_json_double(d1, sizeof d1, med);
			rec_json_double(d2, sizeof d2, mean);
			rec_buf_printf(&out, "],\"ms\":{\"median\":%s,\"mean\":"
			    "%s}", d1, d2);
			if (total.calls)
				rec_buf_printf(&out, ",\"model\":{\"calls\":%lu,"
				    "\"failed\":%lu,\"prompt_tokens\":%ld,"
				    "\"completion_tokens\":%ld,\"ms\":%.1f,"
				    "\"ms_per_point\":%.1f}", total.calls,
				    total.failed, total.prompt_tokens,
				    total.completion_tokens, total.ms,
				    total.ms / (double)npoints);
			rec_buf_adds(&out, "}\n");
			fputs(out.data, stdout);
		} else {
			printf("%zu points in %zu conversations, %zu failed; "
			    "%.1f ms per point (median), %.1f (mean)\n",
			    npoints, m.macro.n, nfailed, med, mean);
			if (total.calls)
				printf("model: %lu calls (%lu failed), %ld prompt "
				    "and %ld completion tokens, %.1f ms (%.1f per "
				    "point)\n", total.calls, total.failed,
				    total.prompt_tokens, total.completion_tokens,
				    total.ms, total.ms / (double)npoints);
			printf("%-14s", "");
			for (k = 0; k < nk; k++)
				printf(" %7s%zu", "@", ks[k]);
			putchar('\n');
			text_acc(&m.micro, "");
			text_acc(&m.macro, " (macro)");
			text_row("Pop50", m.pop50, (double)npoints);
			text_row("Pop50 ratio", f.pop50_ratio, 1);
			text_row("Entropy", f.entropy, 1);
			text_row("MaxFreq", f.maxfreq, 1);
			text_row("Factual", f.factual, 1);
			printf("%-6s %7s %8s %8s   (at %zu)\n", "turn",
			    "points", "Hit", "NDCG", ks[nk > 2 ? 2 : nk - 1]);
			for (i = 0; i < m.nturns; i++) {
				size_t x = nk > 2 ? 2 : nk - 1;
				if (!m.turn[i].n)
					continue;
				printf("%-6zu %7zu %8.4f %8.4f\n", i + 1,
				    m.turn[i].n, m.turn[i].hit[x] /
				    (double)m.turn[i].n, m.turn[i].ndcg[x] /
				    (double)m.turn[i].n);
			}
		}
	}
	for (p = 0; p < npoints; p++) {
		rec_strs_free(&res[p].ids);
		free(res[p].plan);
		free(res[p].intent);
	}
	for (i = 0; i < nconvs; i++)
		rec_conv_free(&convs[i]);
	free(convs);
	free(points);
	free(res);
	free(ms);
	rec_metrics_free(&m);
	free(bin);
	rec_buf_free(&out);
	if (fflush(stdout) || ferror(stdout))
		rec_die("write error");
	rec_exit(0);
}
