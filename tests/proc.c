/*
 * proc: drives lib/proc.c and lib/run.c for tests/proc.t, and prints
 * what they report, one fact a line.
 *
 * usage: proc env DIR         a child with PROC_A=1, PROC_B unset, in DIR
 *        proc missing         a program that is not there, twice
 *        proc plan BINDIR SOURCE... -- FILTER...
 *                             rec_plan_run over stages from BINDIR
 *        proc jobs ORDERED MAXOUT COMMAND...
 *                             each COMMAND (sh -c) as a job, 2 at once
 */
#include <stdlib.h>
#include <string.h>

#include "rec.h"

static void
show_env(const char *name)
{
	const char *v = getenv(name);

	printf("parent: %s%s%s\n", name, v ? "=" : " ", v ? v : "unset");
}

static int
env(char **argv)
{
	char *av[] = { (char *)"sh", (char *)"-c", (char *)"printf "
	    "'%s|%s|%s' \"${PROC_A-unset}\" \"${PROC_B-unset}\" \"$PWD\"",
	    NULL };
	char *add[] = { (char *)"PROC_A=1", (char *)"PROC_B", NULL };
	struct rec_child c = {0};
	struct rec_buf out = {0};
	int st;

	setenv("PROC_B", "2", 1);
	c.argv = av;
	c.env = add;
	c.dir = argv[2];
	st = rec_child_pipe(&c, NULL, 0, &out);
	printf("child: %s (%s)\n", out.data ? out.data : "",
	    rec_proc_ok(st) ? "ok" : "failed");
	show_env("PROC_A");
	show_env("PROC_B");
	rec_buf_free(&out);
	return 0;
}

static int
missing(void)
{
	char *av[] = { (char *)"no-such-program", NULL };
	struct rec_child c = {0};
	struct rec_buf out = {0};

	c.argv = av;
	rec_proc_describe(&out, rec_child_pipe(&c, "x", 1, &out));
	c.file = "/nonexistent/program";
	c.name = "stage";
	rec_buf_addc(&out, '\n');
	rec_proc_describe(&out, rec_child_pipe(&c, "x", 1, &out));
	printf("%s\n", out.data);
	rec_buf_free(&out);
	return 0;
}

static int
plan(int argc, char **argv)
{
	struct rec_plan p = {0};
	struct rec_stage *st = xcalloc((size_t)argc, sizeof *st);
	struct rec_buf out = {0}, err = {0};
	struct rec_plan_fail fail = {0};
	int i, filt = 0, r;

	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			filt = 1;
			p.filt = st + i + 1;
			continue;
		}
		st[i].argv = xcalloc(2, sizeof *st[i].argv);
		st[i].argv[0] = argv[i];
		st[i].argc = 1;
		if (filt)
			p.nfilt++;
		else if (!p.nsrc++)
			p.src = st + i;
	}
	r = rec_plan_run(&p, argv[2], "cat.db", &out, &err, &fail);
	printf("out: %s%s", out.data ? out.data : "", out.len &&
	    out.data[out.len - 1] == '\n' ? "" : "\n");
	if (r < 0) {
		struct rec_buf d = {0};
		rec_proc_describe(&d, fail.status);
		printf("failed: stage '%s' %s\nsaid: %s", fail.stage->argv[0],
		    d.data, fail.err.data ? fail.err.data : "\n");
		rec_buf_free(&d);
	} else
		printf("ok\n");
	printf("err: %s\ntrace: %s", err.data ? err.data : "",
	    rec_plan_trace());
	show_env("REC_DB");
	show_env("REC_FORMAT");
	show_env("REC_TRACE");
	for (i = 0; i < argc; i++)
		free(st[i].argv);
	free(st);
	rec_buf_free(&out);
	rec_buf_free(&err);
	rec_buf_free(&fail.err);
	return 0;
}

static int
jobs(int argc, char **argv)
{
	struct rec_jobs j;
	struct rec_job *job;
	int i = 4;

	rec_jobs_init(&j, 2, (size_t)atol(argv[3]));
	j.ordered = atoi(argv[2]);
	while (i < argc || j.n) {
		if (i < argc && j.n < j.max) {
			char *av[] = { (char *)"sh", (char *)"-c", argv[i],
			    NULL };
			struct rec_child c = {0};
			char name[32];
			c.argv = av;
			snprintf(name, sizeof name, "%d", i - 4);
			rec_jobs_start(&j, &c, name);
			i++;
			continue;
		}
		if (!(job = rec_jobs_wait(&j)))
			break;
		printf("%s ", job->name);
		if (rec_jobs_ok(job))
			printf("ok %.*s", (int)job->out.len,
			    job->out.data ? job->out.data : "");
		else {
			struct rec_buf d = {0};
			rec_jobs_describe(&d, job);
			printf("%s\n", d.data);
			rec_buf_free(&d);
		}
		rec_jobs_release(&j, job);
	}
	rec_jobs_free(&j);
	return 0;
}

int
main(int argc, char **argv)
{
	rec_init(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "env"))
		return env(argv);
	if (argc == 2 && !strcmp(argv[1], "missing"))
		return missing();
	if (argc > 3 && !strcmp(argv[1], "plan"))
		return plan(argc, argv);
	if (argc > 4 && !strcmp(argv[1], "jobs"))
		return jobs(argc, argv);
	rec_usage_die("usage: proc env DIR | missing | plan BINDIR SOURCE... "
	    "-- FILTER... | jobs ORDERED MAXOUT COMMAND...");
}
