/*
 * fs.c: files replaced whole or not at all.  The new contents go to a
 * temporary file beside the old one (the same directory, so rename(2)
 * is atomic), which takes the old one's name only once everything was
 * written.  A temporary file is removed when anything fails, and at
 * exit (rec_die included) if it was neither committed nor aborted, so a
 * failure never leaves a half-written file under either name.  What
 * kill -9 leaves, rec_atomic_sweep removes later: the temporary files
 * of a name whose process is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

/* the temporary files that exist now, for the exit and signal paths */
static struct rec_atomic *live;

static void
forget(struct rec_atomic *a)
{
	struct rec_atomic **p;

	for (p = &live; *p; p = &(*p)->next)
		if (*p == a) {
			*p = a->next;
			break;
		}
	a->next = NULL;
}

/* a forked child that exits leaves its parent's files alone */
static void
remove_live(void)
{
	struct rec_atomic *a;
	pid_t me = getpid();

	for (a = live; a; a = a->next)
		if (a->pid == me)
			unlink(a->tmp);
}

static void
on_signal(int sig)
{
	remove_live();
	signal(sig, SIG_DFL);
	raise(sig);
}

void
rec_atomic_catch_signals(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
}

int
rec_atomic_open(struct rec_atomic *a, const char *path, mode_t mode)
{
	static int registered;
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0, len, i;

	memset(a, 0, sizeof *a);
	a->fd = -1;
	a->path = path;
	a->pid = getpid();
	for (i = 0; i < 100; i++) {
		/* DIR/.NAME.tmpPID, then .NAME.tmpPID.1, ... if taken */
		len = snprintf(a->tmp, sizeof a->tmp, i ? "%.*s.%s.tmp%ld.%d" :
		    "%.*s.%s.tmp%ld", dir, path, path + dir, (long)a->pid, i);
		if (len < 0 || (size_t)len >= sizeof a->tmp) {
			errno = ENAMETOOLONG;
			return -1;
		}
		a->fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    mode);
		if (a->fd >= 0 || errno != EEXIST)
			break;
	}
	if (a->fd < 0)
		return -1;
	if (!registered) {
		atexit(remove_live);
		registered = 1;
	}
	a->next = live;
	live = a;
	return 0;
}

int
rec_atomic_write(struct rec_atomic *a, const void *p, size_t n)
{
	const char *s = p;
	ssize_t k;

	while (n) {
		k = write(a->fd, s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k) {	/* no error, no progress: say why */
			errno = ENOSPC;
			return -1;
		}
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

int
rec_atomic_commit(struct rec_atomic *a)
{
	int fd = a->fd;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	a->fd = -1;
	if (close(fd) < 0 || rename(a->tmp, a->path) < 0) {
		int e = errno;
		unlink(a->tmp);
		forget(a);
		errno = e;
		return -1;
	}
	forget(a);
	return 0;
}

void
rec_atomic_abort(struct rec_atomic *a)
{
	int e = errno;

	if (a->fd >= 0) {
		close(a->fd);
		a->fd = -1;
		unlink(a->tmp);
		forget(a);
	}
	errno = e;
}

/* whether name is a temporary file of NAME (".NAME.tmpPID" or
 * ".NAME.tmpPID.N"): its PID, else 0 */
static long
temp_pid(const char *name, const char *base, size_t blen)
{
	const char *p = name;
	long pid = 0;

	if (*p++ != '.' || strncmp(p, base, blen) || strncmp(p + blen,
	    ".tmp", 4))
		return 0;
	for (p += blen + 4; *p >= '0' && *p <= '9' && pid < 1L << 30; p++)
		pid = pid * 10 + (*p - '0');
	if (*p == '.' && p[1])
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	return *p ? 0 : pid;
}

size_t
rec_atomic_sweep(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 :
	    path;
	struct rec_buf dir = {0}, f = {0};
	struct dirent *e;
	size_t n = 0;
	DIR *d;
	long pid;

	if (slash)
		rec_buf_add(&dir, path, (size_t)(slash - path + 1));
	else
		rec_buf_adds(&dir, "./");
	if ((d = opendir(dir.data))) {
		while ((e = readdir(d)))
			if ((pid = temp_pid(e->d_name, base, strlen(base))) > 0 &&
			    pid != (long)getpid() && kill((pid_t)pid, 0) < 0 &&
			    errno == ESRCH) {
				rec_buf_reset(&f);
				rec_buf_printf(&f, "%s%s", dir.data, e->d_name);
				n += unlink(f.data) == 0;
			}
		closedir(d);
	}
	rec_buf_free(&dir);
	rec_buf_free(&f);
	return n;
}

int
rec_atomic_file(const char *path, const void *p, size_t n, mode_t mode)
{
	struct rec_atomic a;

	if (rec_atomic_open(&a, path, mode) < 0)
		return -1;
	if (rec_atomic_write(&a, p, n) < 0) {
		rec_atomic_abort(&a);
		return -1;
	}
	return rec_atomic_commit(&a);
}

void
rec_read_ids(const char *path, void (*fn)(const char *, size_t, void *),
    void *ctx)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *name = strcmp(path, "-") ? path : "stdin";
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;

	if (!fp)
		rec_die("cannot open '%s': %m", path);
	while ((n = getline(&line, &cap, fp)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (n && line[n - 1] == '\r')
			line[--n] = 0;
		if (!n)
			continue;
		if (strlen(line) != (size_t)n ||
		    rec_utf8_valid(line, (size_t)n) != (size_t)n)
			rec_die("%s:%lu: not a user id (a NUL byte or invalid "
			    "UTF-8)", name, lineno);
		fn(line, (size_t)n, ctx);
	}
	if (ferror(fp))
		rec_die("%s: read error: %m", name);
	free(line);
	if (fp != stdin)
		fclose(fp);
}
