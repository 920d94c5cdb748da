/*
 * util.c: what every tool shares at its edges: the program name,
 * messages in the house format, exit through one door so that the
 * REC_TRACE line is always written, and allocation that cannot fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "rec.h"

const char *rec_progname = "rec";

static int saved_argc;
static char **saved_argv;
static struct timeval started;
static unsigned long trace_in, trace_out;
static char trace_err[512];
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
	    "\"ms\":%.3f,\"status\":%d", (long)getpid(), trace_in, trace_out,
	    ms, status);
	if (trace_err[0]) {
		rec_buf_adds(&b, ",\"error\":");
		rec_json_string(&b, trace_err, strlen(trace_err));
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
rec_exit(int status)
{
	trace_write(status);
	exit(status);
}

static void
vmessage(const char *fmt, va_list ap, int keep)
{
	char msg[sizeof trace_err];

	vsnprintf(msg, sizeof msg, fmt, ap);
	fprintf(stderr, "%s: %s\n", rec_progname, msg);
	if (keep)
		memcpy(trace_err, msg, sizeof msg);
}

void
rec_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, 0);
	va_end(ap);
}

void
rec_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, 1);
	va_end(ap);
	rec_exit(1);
}

void
rec_usage_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, 1);
	va_end(ap);
	rec_exit(2);
}

void
rec_none(int lenient, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, !lenient);
	va_end(ap);
	rec_exit(lenient ? 0 : 1);
}

void
rec_bad_option(char **argv, int c)
{
	const char *arg = argv[optind - 1];
	int islong = arg && arg[0] == '-' && arg[1] == '-';

	if (c == ':') {
		if (optopt && !islong)
			rec_usage_die("option '-%c' needs a value", optopt);
		rec_usage_die("option '%s' needs a value", arg);
	}
	if (optopt && !islong)
		rec_usage_die("unknown option '-%c' (see %s --help)", optopt,
		    rec_progname);
	rec_usage_die("unknown option '%s' (see %s --help)", arg,
	    rec_progname);
}

size_t
rec_arg_count(const char *opt, const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*end || !*arg || *arg == '-' || errno)
		rec_usage_die("%s: not a count: '%s'", opt, arg);
	return (size_t)v;
}

double
rec_arg_number(const char *opt, const char *arg, double lo, double hi)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || !*arg || v < lo || v > hi)
		rec_usage_die("%s: not a number from %g to %g: '%s'", opt, lo,
		    hi, arg);
	return v;
}

void
rec_version(void)
{
	printf("%s (rec) %s\n", rec_progname, REC_VERSION);
	rec_exit(fclose(stdout) ? 1 : 0);
}

static void
nomem(size_t n)
{
	rec_die("out of memory (%zu bytes)", n);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		nomem(n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		nomem(n * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		nomem(n);
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

double
rec_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
