/*
 * run.c: runs a plan as a pipeline of rec tools (proc.c's, so without
 * a shell), with the stages' REC_TRACE lines for the critic.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "converse.h"

static struct rec_buf trace;

const char *
rec_plan_trace(void)
{
	return trace.data ? trace.data : "";
}

char *
rec_plan_emptied(void)
{
	const char *line = rec_plan_trace();
	char *found = NULL;

	while (*line && !found) {
		size_t n = strcspn(line, "\n"), off = 0;
		struct rec_buf pk = {0}, err = {0};
		msgpack_zone z;
		msgpack_object o;
		const msgpack_object *in, *out, *tool, *argv;

		if (!rec_json_to_msgpack(line, n, &pk, NULL, &err)) {
			msgpack_zone_init(&z, 1024);
			msgpack_unpack(pk.data, pk.len, &off, &z, &o);
			in = rec_map_get(&o, "in");
			out = rec_map_get(&o, "out");
			tool = rec_map_get(&o, "tool");
			argv = rec_map_get(&o, "argv");
			if (in && out && tool && in->type ==
			    MSGPACK_OBJECT_POSITIVE_INTEGER && in->via.u64 > 0 &&
			    out->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
			    out->via.u64 == 0 && tool->type == MSGPACK_OBJECT_STR) {
				struct rec_buf b = {0};
				uint32_t i;
				rec_buf_add(&b, tool->via.str.ptr, tool->via.str.size);
				rec_buf_adds(&b, " (");
				for (i = 1; argv && argv->type ==
				    MSGPACK_OBJECT_ARRAY && i < argv->via.array.size;
				    i++)
					if (argv->via.array.ptr[i].type ==
					    MSGPACK_OBJECT_STR)
						rec_buf_printf(&b, "%s%.*s", i > 1 ?
						    " " : "", (int)argv->via.array.
						    ptr[i].via.str.size,
						    argv->via.array.ptr[i].via.str.ptr);
				rec_buf_printf(&b, ") kept none of %llu",
				    (unsigned long long)in->via.u64);
				found = b.data;
			}
			msgpack_zone_destroy(&z);
		}
		rec_buf_free(&pk);
		rec_buf_free(&err);
		line += n;
		if (*line)
			line++;
	}
	return found;
}

/*
 * The tools a plan may run, with their short options as getopt_long
 * reads them (a letter with ':' takes a value): what the check below
 * reads each argument as.  The planner writes every option as its own
 * "-X" argument, a value only right after an option that takes one, and
 * operands only after "--"; a value there is never read as an option,
 * whatever it starts with.  (tests/plan.t checks this table against
 * each tool's own.)
 */
static const struct {
	const char *tool, *opts;
} plan_tools[] = {
	{ "rec-sql", "ad:fk:LMo:s:w:hV" },
	{ "rec-bm25", "aAb:d:ef:IK:k:Ms:XhV" },
	{ "rec-cf", "aB:d:eg:k:l:m:Ms:u:U:hV" },
	{ "rec-dense", "ad:eIk:l:m:Ms:S:t:u:v:hV" },
	{ "rec-semid", "ac:C:d:D:i:k:l:L:MPr:s:S:ThV" },
	{ "rec-rank", "F:R:W:u:P:x:l:L:n:N:U:D:p:m:S:b:w:k:s:g:d:MhV" },
	{ NULL, NULL }
};

const char *
rec_plan_tool_opts(const char *tool)
{
	size_t t;

	for (t = 0; plan_tools[t].tool; t++)
		if (!strcmp(plan_tools[t].tool, tool))
			return plan_tools[t].opts;
	return NULL;
}

static int
check_stage(const struct rec_stage *s, struct rec_buf *why)
{
	const char *opts = s->argc > 0 ? rec_plan_tool_opts(s->argv[0]) :
	    NULL, *o;
	int i;

	/* a program the table does not know: nothing of it may be read
	 * as an option, so it has no arguments (tests/proc.c's stages) */
	if (!opts && (s->argc < 1 || s->argc > 1)) {
		rec_buf_printf(why, "stage '%s' is not a tool the plan check "
		    "knows, and has arguments", s->argc > 0 ? s->argv[0] : "");
		return -1;
	}
	if (!opts)
		return 0;
	for (i = 1; i < s->argc; i++) {
		const char *a = s->argv[i];
		if (!strcmp(a, "--"))
			return 0;	/* operands, whatever they say */
		if (a[0] != '-' || !a[1]) {
			rec_buf_printf(why, "stage '%s': operand '%s' before "
			    "'--'", s->argv[0], a);
			return -1;
		}
		if (a[1] == ':' || a[2] || !(o = strchr(opts, a[1]))) {
			rec_buf_printf(why, "stage '%s': '%s' would be read as "
			    "an option", s->argv[0], a);
			return -1;
		}
		if (o[1] == ':' && ++i == s->argc) {
			rec_buf_printf(why, "stage '%s': option '%s' without "
			    "its value", s->argv[0], a);
			return -1;
		}
	}
	return 0;
}

int
rec_plan_check(const struct rec_plan *p, struct rec_buf *why)
{
	size_t i;

	for (i = 0; i < p->nsrc; i++)
		if (check_stage(&p->src[i], why) < 0)
			return -1;
	for (i = 0; i < p->nfilt; i++)
		if (check_stage(&p->filt[i], why) < 0)
			return -1;
	return 0;
}

void
rec_plan_assert(const struct rec_plan *p)
{
	struct rec_buf why = {0};

	if (rec_plan_check(p, &why) < 0)
		rec_die("refusing a plan whose values could be read as "
		    "options (a bug in the planner): %s", why.data);
}

/* where the stages' REC_TRACE lines go: a new file in $TMPDIR */
static int
trace_file(struct rec_buf *path)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	rec_buf_reset(path);
	rec_buf_printf(path, "%s/rec-trace.XXXXXX", dir);
	if ((fd = mkostemp(path->data, O_CLOEXEC)) < 0)
		rec_die("cannot create a temporary file in '%s': %m", dir);
	return fd;
}

int
rec_plan_run(const struct rec_plan *p, const char *bindir,
    const char *catalog, struct rec_buf *out, struct rec_buf *err,
    struct rec_plan_fail *fail)
{
	size_t n = p->nsrc + p->nfilt, i;
	struct rec_child *c = xcalloc(n + 1, sizeof *c);
	struct rec_buf *file = xcalloc(n + 1, sizeof *file);
	struct rec_buf path = {0}, env_trace = {0}, env_db = {0};
	struct rec_pipeline pl = {0};
	char *env[4], buf[65536];
	int tracefd, failed;
	ssize_t r;

	rec_plan_assert(p);
	rec_buf_reset(out);
	rec_buf_reset(err);
	if (fail) {
		fail->stage = NULL;
		fail->status = 0;
		rec_buf_reset(&fail->err);
	}
	/* every stage appends its line: the critic reads them */
	tracefd = trace_file(&path);
	rec_buf_printf(&env_trace, "REC_TRACE=%s", path.data);
	rec_buf_printf(&env_db, "REC_DB=%s", catalog);
	env[0] = env_trace.data;
	env[1] = env_db.data;
	env[2] = (char *)"REC_FORMAT=msgpack";
	env[3] = NULL;
	for (i = 0; i < n; i++) {
		const struct rec_stage *s = i < p->nsrc ? &p->src[i] :
		    &p->filt[i - p->nsrc];
		rec_buf_printf(&file[i], "%s/%s", bindir, s->argv[0]);
		c[i].argv = s->argv;
		c[i].file = file[i].data;
		c[i].name = s->argv[0];
		c[i].env = env;
		c[i].in = REC_DEVNULL;	/* the sources'; the filters' is
					 * the stream */
	}
	pl.stage = c;
	pl.nsrc = p->nsrc;
	pl.n = n;
	failed = rec_pipeline_run(&pl) < 0;
	rec_buf_add(out, pl.out.data, pl.out.len);
	if (failed) {
		size_t f = (size_t)pl.failed;
		const struct rec_stage *s = f < p->nsrc ? &p->src[f] :
		    &p->filt[f - p->nsrc];
		rec_buf_printf(err, "stage '%s' ", s->argv[0]);
		rec_proc_describe(err, pl.status[f]);
		if (fail) {
			fail->stage = s;
			fail->status = pl.status[f];
			rec_buf_add(&fail->err, pl.err[f].data, pl.err[f].len);
		}
	}
	/* what the stages said, after the summary */
	for (i = 0; i < n; i++) {
		const struct rec_buf *e = &pl.err[i];
		size_t len = e->len;
		while (len && e->data[len - 1] == '\n')
			len--;
		if (!len)
			continue;
		if (err->len)
			rec_buf_addc(err, '\n');
		rec_buf_add(err, e->data, len);
	}
	rec_buf_reset(&trace);
	while ((r = read(tracefd, buf, sizeof buf)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		rec_buf_add(&trace, buf, (size_t)r);
	}
	close(tracefd);
	unlink(path.data);
	rec_pipeline_free(&pl);
	for (i = 0; i < n; i++)
		rec_buf_free(&file[i]);
	free(file);
	free(c);
	rec_buf_free(&path);
	rec_buf_free(&env_trace);
	rec_buf_free(&env_db);
	return failed ? -1 : 0;
}
