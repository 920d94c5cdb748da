/*
 * util.c: what every tool shares at its edges: the program name,
 * messages in the house format, exit through one door (where trace.c
 * writes the REC_TRACE line), and allocation that cannot fail.  It
 * calls nothing else of the library, so every other file may call it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

const char *rec_progname = "rec";

/* what rec_exit runs first (the trace line: trace.c sets it) */
void (*rec_exit_hook)(int status);
/* the last message given with rec_die or rec_usage_die */
char rec_last_error[512];

void
rec_exit(int status)
{
	if (rec_exit_hook)
		rec_exit_hook(status);
	exit(status);
}

static void
vmessage(const char *fmt, va_list ap, int keep)
{
	char msg[sizeof rec_last_error];

	vsnprintf(msg, sizeof msg, fmt, ap);
	fprintf(stderr, "%s: %s\n", rec_progname, msg);
	if (keep)
		memcpy(rec_last_error, msg, sizeof msg);
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

	/* written so that NaN fails too ("nan" is a number to strtod) */
	if (*end || !*arg || !(v >= lo && v <= hi))
		rec_usage_die("%s: not a number from %g to %g: '%s'", opt, lo,
		    hi, arg);
	return v;
}

size_t
rec_env_size(const char *name, size_t def, size_t lo, size_t hi)
{
	const char *e = getenv(name), *p;
	unsigned long long v = 0;
	int shift = 0;

	if (!e || !*e)
		return def;
	/* digits only: strtoull would take "-1" as the largest size */
	for (p = e; *p >= '0' && *p <= '9'; p++) {
		if (v > (ULLONG_MAX - 9) / 10)
			goto bad;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (p == e)
		goto bad;
	if (*p == 'K' || *p == 'k')
		shift = 10;
	else if (*p == 'M')
		shift = 20;
	else if (*p == 'G')
		shift = 30;
	if (shift)
		p++;
	if (*p || v > (ULLONG_MAX >> shift) || (v << shift) < lo ||
	    (v << shift) > hi)
		goto bad;
	return (size_t)(v << shift);
bad:
	rec_usage_die("%s: not a size from %zu to %zu bytes (K, M or G may "
	    "follow the number): '%s'", name, lo, hi, e);
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
