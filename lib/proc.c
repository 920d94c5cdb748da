/*
 * proc.c: every process rec starts goes through here: a child with its
 * own arguments, environment and descriptors, a pipeline of them, and
 * jobs run several at once.  No shell is ever involved: what a person
 * or a model wrote only ever becomes an argument of execve(2).
 *
 * What a child needs that could allocate (its environment) is made
 * before the fork, so the child only moves descriptors and execs.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"

int
rec_proc_ok(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void
rec_proc_describe(struct rec_buf *b, int status)
{
	if (WIFSIGNALED(status))
		rec_buf_printf(b, "was killed by signal %d", WTERMSIG(status));
	else
		rec_buf_printf(b, "failed with status %d", WEXITSTATUS(status));
}

/* killed by SIGPIPE: its reader went away */
static int
lost_reader(int status)
{
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE;
}

/* our environment with add over it, or NULL for ours as it is; the
 * strings are borrowed, the array is the caller's to free */
static char **
child_env(char *const *add)
{
	size_t n, na, i, j, k = 0;
	char **e;

	if (!add)
		return NULL;
	for (n = 0; environ[n]; n++)
		;
	for (na = 0; add[na]; na++)
		;
	e = xcalloc(n + na + 1, sizeof *e);
	for (i = 0; i < n; i++) {
		for (j = 0; j < na; j++) {
			size_t len = strcspn(add[j], "=");
			if (!strncmp(environ[i], add[j], len) &&
			    environ[i][len] == '=')
				break;
		}
		if (j == na)
			e[k++] = environ[i];
	}
	for (j = 0; j < na; j++)
		if (strchr(add[j], '='))
			e[k++] = add[j];
	return e;
}

/* fd as the child's descriptor target */
static int
move_fd(int fd, int target, int mode)
{
	int d;

	if (fd == REC_DEVNULL) {
		if ((d = open("/dev/null", mode)) < 0)
			return -1;
		if (d != target && (dup2(d, target) < 0 || close(d) < 0))
			return -1;
		return 0;
	}
	if (fd > 0 && fd != target && dup2(fd, target) < 0)
		return -1;
	return 0;
}

/* in the child: one line on its standard error, without stdio */
static void
say(const struct rec_child *c, const char *what, const char *arg, int e)
{
	char msg[1024];
	int n;

	n = snprintf(msg, sizeof msg, "%s: %s '%s': %s\n",
	    c->name ? c->name : rec_progname, what, arg, strerror(e));
	if (n > 0 && write(2, msg, (size_t)n < sizeof msg ? (size_t)n :
	    sizeof msg - 1) < 0)
		return;
}

static void __attribute__((noreturn))
child(const struct rec_child *c, char **envp)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (move_fd(c->in, 0, O_RDONLY) < 0 || move_fd(c->out, 1, O_WRONLY) <
	    0 || move_fd(c->err, 2, O_WRONLY) < 0)
		_exit(126);
	if (c->dir && chdir(c->dir) < 0) {
		say(c, "cannot change to", c->dir, errno);
		_exit(127);
	}
	if (c->fn)
		_exit(c->fn(c->arg));
	if (c->file)
		execve(c->file, c->argv, envp ? envp : environ);
	else
		execvpe(c->argv[0], c->argv, envp ? envp : environ);
	say(c, "cannot run", c->file ? c->file : c->argv[0], errno);
	_exit(127);
}

static pid_t
start(const struct rec_child *c, char **envp)
{
	pid_t pid;

	/* a function runs on in the child, with copies of our buffers */
	if (c->fn)
		fflush(NULL);
	if ((pid = fork()) < 0)
		rec_die("fork: %m");
	if (!pid)
		child(c, envp);
	return pid;
}

pid_t
rec_child_start(const struct rec_child *c)
{
	char **envp = child_env(c->env);
	pid_t pid = start(c, envp);

	free(envp);
	return pid;
}

int
rec_child_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			rec_die("waitpid: %m");
	return status;
}

int
rec_child_pipe(const struct rec_child *c, const char *in, size_t inlen,
    struct rec_buf *out)
{
	struct rec_child k = *c;
	struct sigaction ign, old;
	int to[2], from[2];
	size_t off = 0;
	char buf[65536];
	pid_t pid;

	if (pipe2(to, O_CLOEXEC) < 0 || pipe2(from, O_CLOEXEC) < 0)
		rec_die("pipe: %m");
	k.in = to[0];
	k.out = from[1];
	pid = rec_child_start(&k);
	close(to[0]);
	close(from[1]);
	/* a child that stops reading is an EPIPE here, not our end */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	fcntl(to[1], F_SETFL, O_NONBLOCK);
	if (off == inlen) {
		close(to[1]);
		to[1] = -1;
	}
	for (;;) {
		struct pollfd pf[2];
		int np = 0;
		ssize_t r;
		pf[np].fd = from[0];
		pf[np++].events = POLLIN;
		if (to[1] >= 0) {
			pf[np].fd = to[1];
			pf[np++].events = POLLOUT;
		}
		if (poll(pf, (nfds_t)np, -1) < 0) {
			if (errno == EINTR)
				continue;
			rec_die("poll: %m");
		}
		if (np == 2 && pf[1].revents) {
			r = write(to[1], in + off, inlen - off);
			if (r > 0)
				off += (size_t)r;
			if (r < 0 && errno != EAGAIN && errno != EINTR)
				off = inlen;	/* it stopped reading */
			if (off == inlen) {
				close(to[1]);
				to[1] = -1;
			}
		}
		if (pf[0].revents) {
			r = read(from[0], buf, sizeof buf);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			rec_buf_add(out, buf, (size_t)r);
		}
	}
	sigaction(SIGPIPE, &old, NULL);
	if (to[1] >= 0)
		close(to[1]);
	close(from[0]);
	return rec_child_wait(pid);
}

/* ---- pipelines ---- */

/* what the process that runs the sources needs; it runs each and
 * reports (index, wait status) to the caller on report */
struct sources {
	const struct rec_pipeline *pl;
	char ***envp;
	int *errw;		/* the sources' standard error */
	int report, stream_r;
};

static int
run_sources(void *arg)
{
	struct sources *s = arg;
	size_t i;

	/* the stream's only readers are the filters: when they go, a
	 * source gets its SIGPIPE */
	close(s->stream_r);
	for (i = 0; i < s->pl->nsrc; i++) {
		struct rec_child c = s->pl->stage[i];
		int rep[2];
		c.out = 0;	/* ours: the stream */
		c.err = s->errw[i];
		rep[0] = (int)i;
		rep[1] = rec_child_wait(start(&c, s->envp[i]));
		if (write(s->report, rep, sizeof rep) != (ssize_t)sizeof rep)
			return 1;
		if (lost_reader(rep[1]))
			break;
	}
	return 0;
}

/* reads every descriptor of fd[0..n) into buf[0..n) until each ends */
static void
drain(int *fd, struct rec_buf **buf, size_t n)
{
	struct pollfd *pf = xcalloc(n, sizeof *pf);
	size_t i, open = 0;
	char chunk[65536];

	for (i = 0; i < n; i++)
		open += fd[i] >= 0;
	while (open) {
		for (i = 0; i < n; i++) {
			pf[i].fd = fd[i];	/* poll skips the closed, -1 */
			pf[i].events = POLLIN;
			pf[i].revents = 0;
		}
		if (poll(pf, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			rec_die("poll: %m");
		}
		for (i = 0; i < n; i++) {
			ssize_t r;
			if (fd[i] < 0 || !pf[i].revents)
				continue;
			r = read(fd[i], chunk, sizeof chunk);
			if (r < 0 && errno == EINTR)
				continue;
			if (r > 0) {
				rec_buf_add(buf[i], chunk, (size_t)r);
				continue;
			}
			close(fd[i]);
			fd[i] = -1;
			open--;
		}
	}
	free(pf);
}

int
rec_pipeline_run(struct rec_pipeline *pl)
{
	size_t n = pl->n, nsrc = pl->nsrc, i;
	char ***envp = xcalloc(n + 1, sizeof *envp);
	int *errw = xcalloc(n + 1, sizeof *errw);
	int *fd = xcalloc(n + 2, sizeof *fd);	/* read ends: stages' err,
						 * the output, the report */
	struct rec_buf **buf = xcalloc(n + 2, sizeof *buf), report = {0};
	pid_t runner, *pid = xcalloc(n + 1, sizeof *pid);
	struct rec_child rc = {0};
	struct sources s;
	int stream[2], rep[2], p[2], in, st;

	pl->err = xcalloc(n + 1, sizeof *pl->err);
	pl->status = xcalloc(n + 1, sizeof *pl->status);
	pl->failed = -1;
	rec_buf_reset(&pl->out);
	for (i = 0; i < n; i++) {
		envp[i] = child_env(pl->stage[i].env);
		pl->status[i] = -1;
		buf[i] = &pl->err[i];
	}
	buf[n] = &pl->out;
	buf[n + 1] = &report;
	/* the sources, one after another, into one stream */
	if (pipe2(stream, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0)
		rec_die("pipe: %m");
	for (i = 0; i < nsrc; i++) {
		if (pipe2(p, O_CLOEXEC) < 0)
			rec_die("pipe: %m");
		fd[i] = p[0];
		errw[i] = p[1];
	}
	s.pl = pl;
	s.envp = envp;
	s.errw = errw;
	s.report = rep[1];
	s.stream_r = stream[0];
	rc.fn = run_sources;
	rc.arg = &s;
	rc.out = stream[1];
	runner = rec_child_start(&rc);
	close(stream[1]);
	close(rep[1]);
	for (i = 0; i < nsrc; i++)
		close(errw[i]);
	fd[n + 1] = rep[0];
	/* then each filter in turn */
	in = stream[0];
	for (i = nsrc; i < n; i++) {
		struct rec_child c = pl->stage[i];
		int out[2];
		if (pipe2(out, O_CLOEXEC) < 0 || pipe2(p, O_CLOEXEC) < 0)
			rec_die("pipe: %m");
		c.in = in;
		c.out = out[1];
		c.err = p[1];
		pid[i] = start(&c, envp[i]);
		close(in);
		close(out[1]);
		close(p[1]);
		fd[i] = p[0];
		in = out[0];
	}
	fd[n] = in;
	drain(fd, buf, n + 2);
	st = rec_child_wait(runner);
	for (i = nsrc; i < n; i++)
		pl->status[i] = rec_child_wait(pid[i]);
	for (i = 0; i + sizeof rep <= report.len; i += sizeof rep) {
		memcpy(rep, report.data + i, sizeof rep);
		if (rep[0] >= 0 && (size_t)rep[0] < nsrc)
			pl->status[rep[0]] = rep[1];
	}
	/* the runner itself failed (it could not fork): the source it was
	 * on failed as it did */
	if (!rec_proc_ok(st))
		for (i = 0; i < nsrc; i++)
			if (pl->status[i] == -1) {
				pl->status[i] = st;
				break;
			}
	for (i = 0; i < n && pl->failed < 0; i++)
		if (pl->status[i] != -1 && !rec_proc_ok(pl->status[i]) &&
		    !lost_reader(pl->status[i]))
			pl->failed = (long)i;
	for (i = 0; i < n; i++)
		free(envp[i]);
	free(envp);
	free(errw);
	free(fd);
	free(buf);
	free(pid);
	rec_buf_free(&report);
	return pl->failed < 0 ? 0 : -1;
}

void
rec_pipeline_free(struct rec_pipeline *pl)
{
	size_t i;

	rec_buf_free(&pl->out);
	for (i = 0; pl->err && i < pl->n; i++)
		rec_buf_free(&pl->err[i]);
	free(pl->err);
	free(pl->status);
	pl->err = NULL;
	pl->status = NULL;
}

/* ---- jobs ---- */

void
rec_jobs_init(struct rec_jobs *j, size_t max, size_t maxout)
{
	memset(j, 0, sizeof *j);
	j->max = max ? max : 1;
	j->maxout = maxout;
	j->job = xcalloc(j->max, sizeof *j->job);
}

struct rec_job *
rec_jobs_start(struct rec_jobs *j, const struct rec_child *c,
    const char *name)
{
	struct rec_job *job = NULL;
	struct rec_child k = *c;
	int fd[2];
	size_t i;

	for (i = 0; i < j->max; i++)
		if (!j->job[i].pid) {
			job = &j->job[i];
			break;
		}
	if (!job)
		rec_die("rec_jobs_start: no free job");
	if (pipe2(fd, O_CLOEXEC) < 0)
		rec_die("pipe: %m");
	k.out = fd[1];
	job->pid = rec_child_start(&k);
	close(fd[1]);
	job->fd = fd[0];
	job->name = name ? xstrdup(name) : NULL;
	job->too_big = 0;
	job->ended = 0;
	job->status = 0;
	job->seq = j->started++;
	rec_buf_reset(&job->out);
	j->n++;
	return job;
}

/* a job that has ended and can be handed over: in ordered mode only
 * the first started of those running */
static struct rec_job *
ended(struct rec_jobs *j)
{
	struct rec_job *first = NULL;
	size_t i;

	for (i = 0; i < j->max; i++) {
		struct rec_job *job = &j->job[i];
		if (!job->pid)
			continue;
		if (!j->ordered && job->ended)
			return job;
		if (!first || job->seq < first->seq)
			first = job;
	}
	return j->ordered && first && first->ended ? first : NULL;
}

struct rec_job *
rec_jobs_wait(struct rec_jobs *j)
{
	struct pollfd *pf = xcalloc(j->max, sizeof *pf);
	struct rec_job *done = NULL;
	size_t i, np;
	char buf[65536];

	while (!(done = ended(j)) && j->n && !(j->stop && *j->stop)) {
		np = 0;
		for (i = 0; i < j->max; i++)
			if (j->job[i].pid && j->job[i].fd >= 0) {
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
			if (!job->pid || job->fd < 0)
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
				if (j->stream) {
					done = job;
					break;
				}
				continue;
			}
			/* the end of its output: it has ended, or will */
			close(job->fd);
			job->fd = -1;
			job->status = rec_child_wait(job->pid);
			job->ended = 1;
			break;
		}
		if (done)
			break;
	}
	free(pf);
	return done;
}

void
rec_jobs_release(struct rec_jobs *j, struct rec_job *job)
{
	free(job->name);
	job->name = NULL;
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
		if (!job->ended) {
			kill(job->pid, SIGTERM);
			if (job->fd >= 0)
				close(job->fd);
			while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		rec_jobs_release(j, job);
	}
}

void
rec_jobs_free(struct rec_jobs *j)
{
	size_t i;

	for (i = 0; i < j->max; i++) {
		rec_buf_free(&j->job[i].out);
		free(j->job[i].name);
	}
	free(j->job);
	memset(j, 0, sizeof *j);
}

int
rec_jobs_ok(const struct rec_job *job)
{
	return !job->too_big && rec_proc_ok(job->status);
}

void
rec_jobs_describe(struct rec_buf *b, const struct rec_job *job)
{
	if (job->too_big)
		rec_buf_printf(b, "wrote more than the limit of output");
	else if (WIFEXITED(job->status) && WEXITSTATUS(job->status) == 127)
		/* a job is one command: 127 is its not being found */
		rec_buf_printf(b, "could not be run (status 127)");
	else
		rec_proc_describe(b, job->status);
}
