/*
 * run.c: runs a plan as a pipeline of rec tools without a shell: what a
 * person or a model wrote only ever becomes an argument of execv(2).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "converse.h"

static void __attribute__((noreturn))
exec_stage(const struct rec_stage *s, const char *bindir)
{
	struct rec_buf path = {0};

	rec_buf_printf(&path, "%s/%s", bindir, s->argv[0]);
	execv(path.data, s->argv);
	fprintf(stderr, "%s: cannot run '%s': %s\n", s->argv[0], path.data,
	    strerror(errno));
	_exit(127);
}

static void
describe(struct rec_buf *err, const struct rec_stage *s, int status)
{
	rec_buf_printf(err, "stage '%s' ", s->argv[0]);
	if (WIFSIGNALED(status))
		rec_buf_printf(err, "was killed by signal %d",
		    WTERMSIG(status));
	else
		rec_buf_printf(err, "failed with status %d",
		    WEXITSTATUS(status));
}

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

int
rec_plan_run(const struct rec_plan *p, const char *bindir,
    const char *catalog, struct rec_buf *out, struct rec_buf *err)
{
	pid_t *pid = xcalloc(p->nfilt + 2, sizeof *pid);
	int in = -1, fd[2], errfd, status, failed = 0, devnull;
	char tmpl[] = "/tmp/rec-run.XXXXXX", ttmpl[] = "/tmp/rec-trace.XXXXXX";
	char buf[65536];
	int tracefd;
	ssize_t n;
	size_t i;

	rec_buf_reset(out);
	rec_buf_reset(err);
	errfd = mkstemp(tmpl);
	if (errfd < 0)
		rec_die("cannot create a temporary file: %m");
	unlink(tmpl);
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	/* every stage appends its line: the critic reads them */
	tracefd = mkstemp(ttmpl);
	if (tracefd < 0)
		rec_die("cannot create a temporary file: %m");
	setenv("REC_TRACE", ttmpl, 1);
	setenv("REC_DB", catalog, 1);
	setenv("REC_FORMAT", "msgpack", 1);
	/* the sources, one after another, into one stream */
	if (pipe(fd) < 0)
		rec_die("pipe: %m");
	pid[0] = fork();
	if (pid[0] < 0)
		rec_die("fork: %m");
	if (pid[0] == 0) {
		int worst = 0;
		signal(SIGPIPE, SIG_DFL);
		close(fd[0]);
		dup2(fd[1], 1);
		dup2(errfd, 2);
		for (i = 0; i < p->nsrc; i++) {
			pid_t c = fork();
			if (c == 0) {
				dup2(devnull, 0);
				exec_stage(&p->src[i], bindir);
			}
			if (c < 0 || waitpid(c, &status, 0) < 0)
				_exit(1);
			/* a reader that went away is the reader's story */
			if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE)
				break;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				fprintf(stderr, "rec: ");
				{
					struct rec_buf d = {0};
					describe(&d, &p->src[i], status);
					fprintf(stderr, "%s\n", d.data);
					rec_buf_free(&d);
				}
				worst = 1;
			}
		}
		_exit(worst);
	}
	close(fd[1]);
	in = fd[0];
	for (i = 0; i < p->nfilt; i++) {
		if (pipe(fd) < 0)
			rec_die("pipe: %m");
		pid[i + 1] = fork();
		if (pid[i + 1] < 0)
			rec_die("fork: %m");
		if (pid[i + 1] == 0) {
			signal(SIGPIPE, SIG_DFL);
			close(fd[0]);
			dup2(in, 0);
			dup2(fd[1], 1);
			dup2(errfd, 2);
			exec_stage(&p->filt[i], bindir);
		}
		close(fd[1]);
		close(in);
		in = fd[0];
	}
	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		rec_buf_add(out, buf, (size_t)n);
	}
	close(in);
	for (i = 0; i < p->nfilt + 1; i++) {
		while (waitpid(pid[i], &status, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE)
			continue;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			if (!failed)
				describe(err, i ? &p->filt[i - 1] : &p->src[0],
				    status);
			failed = 1;
		}
	}
	/* what the stages said, after the summary */
	if (lseek(errfd, 0, SEEK_SET) == 0)
		while ((n = read(errfd, buf, sizeof buf)) > 0) {
			if (err->len)
				rec_buf_addc(err, '\n');
			rec_buf_add(err, buf, (size_t)n);
			while (err->len && err->data[err->len - 1] == '\n')
				err->data[--err->len] = 0;
		}
	close(errfd);
	close(devnull);
	rec_buf_reset(&trace);
	while ((n = read(tracefd, buf, sizeof buf)) > 0)
		rec_buf_add(&trace, buf, (size_t)n);
	close(tracefd);
	unlink(ttmpl);
	unsetenv("REC_TRACE");
	unsetenv("REC_FORMAT");
	free(pid);
	return failed ? -1 : 0;
}
