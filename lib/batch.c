/*
 * batch.c: runs one command per user, several at once, and collects
 * what each writes on standard output, for rec-batch.  Each job's
 * output is held until the job ends (at most maxout bytes), so memory
 * is bounded by the number of jobs, not of users.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"

volatile sig_atomic_t rec_jobs_stop;

void
rec_jobs_init(struct rec_jobs *j, char **argv, size_t argc,
    const char *placeholder, size_t max, size_t maxout)
{
	memset(j, 0, sizeof *j);
	j->argv = argv;
	j->argc = argc;
	j->placeholder = placeholder && *placeholder ? placeholder : NULL;
	j->max = max ? max : 1;
	j->maxout = maxout;
	j->job = xcalloc(j->max, sizeof *j->job);
}

/* s with every place replaced by user */
static char *
substitute(const char *s, const char *place, const char *user)
{
	struct rec_buf b = {0};
	const char *p;
	size_t pl = strlen(place);

	while ((p = strstr(s, place))) {
		rec_buf_add(&b, s, (size_t)(p - s));
		rec_buf_adds(&b, user);
		s = p + pl;
	}
	rec_buf_adds(&b, s);
	return b.data ? b.data : xstrdup("");
}

pid_t
rec_spawn(char *const *argv, int in, int out)
{
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) < 0)
		rec_die("fork: %m");
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (dup2(in, 0) < 0 || dup2(out, 1) < 0)
			_exit(126);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run '%s': %s\n", rec_progname,
		    argv[0], strerror(errno));
		_exit(127);
	}
	close(in);
	close(out);
	return pid;
}

void
rec_jobs_start(struct rec_jobs *j, const char *user)
{
	struct rec_job *job = NULL;
	char **av;
	size_t i, n = 0;
	int fd[2], sub = 0, null;
	pid_t pid;

	for (i = 0; i < j->max; i++)
		if (!j->job[i].pid) {
			job = &j->job[i];
			break;
		}
	if (!job)
		rec_die("rec_jobs_start: no free job");
	av = xcalloc(j->argc + 2, sizeof *av);
	for (i = 0; i < j->argc; i++) {
		if (j->placeholder && strstr(j->argv[i], j->placeholder)) {
			av[n++] = substitute(j->argv[i], j->placeholder, user);
			sub = 1;
		} else
			av[n++] = xstrdup(j->argv[i]);
	}
	if (!j->placeholder && !sub)
		av[n++] = xstrdup(user);
	av[n] = NULL;
	if (pipe2(fd, O_CLOEXEC) < 0 ||
	    (null = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
		rec_die("pipe: %m");
	pid = rec_spawn(av, null, fd[1]);
	for (i = 0; i < n; i++)
		free(av[i]);
	free(av);
	job->pid = pid;
	job->fd = fd[0];
	job->user = xstrdup(user);
	job->too_big = 0;
	job->status = 0;
	rec_buf_reset(&job->out);
	j->n++;
}

struct rec_job *
rec_jobs_wait(struct rec_jobs *j)
{
	struct pollfd *pf = xcalloc(j->max, sizeof *pf);
	struct rec_job *done = NULL;
	size_t i, np;
	char buf[65536];

	while (!done && j->n && !rec_jobs_stop) {
		np = 0;
		for (i = 0; i < j->max; i++)
			if (j->job[i].pid) {
				pf[np].fd = j->job[i].fd;
				pf[np].events = POLLIN;
				np++;
			}
		if (poll(pf, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			rec_die("poll: %m");
		}
		for (i = 0, np = 0; i < j->max; i++) {
			struct rec_job *job = j->job + i;
			ssize_t r;
			if (!job->pid)
				continue;
			if (!(pf[np++].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(job->fd, buf, sizeof buf);
			if (r < 0 && errno == EINTR)
				continue;
			if (r > 0) {
				if (job->out.len + (size_t)r > j->maxout) {
					job->too_big = 1;
					kill(job->pid, SIGTERM);
				} else
					rec_buf_add(&job->out, buf, (size_t)r);
				continue;
			}
			/* the end of its output: it has ended, or will */
			close(job->fd);
			job->fd = -1;
			while (waitpid(job->pid, &job->status, 0) < 0)
				if (errno != EINTR)
					rec_die("waitpid: %m");
			done = job;
			break;
		}
	}
	free(pf);
	return done;
}

void
rec_jobs_release(struct rec_jobs *j, struct rec_job *job)
{
	free(job->user);
	job->user = NULL;
	job->pid = 0;
	j->n--;
}

void
rec_jobs_kill(struct rec_jobs *j)
{
	size_t i;

	for (i = 0; i < j->max; i++) {
		struct rec_job *job = &j->job[i];
		if (!job->pid)
			continue;
		kill(job->pid, SIGTERM);
		if (job->fd >= 0)
			close(job->fd);
		while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR)
			;
		rec_jobs_release(j, job);
	}
}

void
rec_jobs_free(struct rec_jobs *j)
{
	size_t i;

	for (i = 0; i < j->max; i++)
		rec_buf_free(&j->job[i].out);
	free(j->job);
	memset(j, 0, sizeof *j);
}

void
rec_jobs_describe(struct rec_buf *b, const struct rec_job *job)
{
	if (job->too_big)
		rec_buf_printf(b, "wrote more than the limit of output");
	else if (WIFSIGNALED(job->status))
		rec_buf_printf(b, "was killed by signal %d",
		    WTERMSIG(job->status));
	else if (WEXITSTATUS(job->status) == 127)
		rec_buf_printf(b, "could not be run (status 127)");
	else
		rec_buf_printf(b, "failed with status %d",
		    WEXITSTATUS(job->status));
}

int
rec_jobs_ok(const struct rec_job *job)
{
	return !job->too_big && WIFEXITED(job->status) &&
	    WEXITSTATUS(job->status) == 0;
}
