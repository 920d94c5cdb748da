/*
 * proc.h: child processes, never through a shell (after git's
 * run-command): one child with its own arguments, environment,
 * directory and descriptors; a pipeline of children, which says which
 * stage failed and how; jobs run several at once; and the one way rec
 * says how a child ended.  It builds on core.h; converse.h (running a
 * plan) and batch.h (rec-batch, rec-eval) build on it.
 *
 * Ownership is stated once, in core.h, for every rec header.  The
 * descriptors a caller passes in struct rec_child stay the caller's:
 * nothing here closes them.
 */
#ifndef REC_PROC_H
#define REC_PROC_H

#include "core.h"

/* a descriptor of struct rec_child: /dev/null, opened in the child */
#define REC_DEVNULL (-2)

/* A child.  A zeroed struct with argv set runs argv[0] from PATH with
 * our environment, directory and descriptors. */
struct rec_child {
	char *const *argv;	/* what it runs, NULL-terminated; borrowed */
	const char *file;	/* the program's file; NULL: argv[0] looked
				 * up on PATH */
	char *const *env;	/* "NAME=value" set for this child alone (a
				 * bare "NAME" unsets it), NULL-terminated;
				 * borrowed; NULL: ours as it is */
	const char *dir;	/* its working directory; NULL: ours */
	int in, out, err;	/* its standard input, output, error: a
				 * descriptor, REC_DEVNULL, or 0 for ours */
	const char *name;	/* what the message of a child that cannot
				 * be run starts with; NULL: rec_progname */
	/* instead of a program: fn(arg) runs in the forked child and its
	 * return value is the exit status (it must flush what it writes
	 * with stdio: the child ends with _exit) */
	int (*fn)(void *arg);
	void *arg;
};

/* Forks and runs c; returns its pid.  In the child SIGINT, SIGTERM and
 * SIGPIPE are back to their defaults.  A program that cannot be run
 * says "NAME: cannot run 'FILE': why" on its standard error and exits
 * 127.  Dies if it cannot fork. */
pid_t rec_child_start(const struct rec_child *c);
/* waits for pid (through EINTR) and returns its wait status */
int rec_child_wait(pid_t pid);
/* Runs c with in[0..inlen) on its standard input and appends its
 * standard output to out, writing and reading at once, so a child
 * that answers before it has read everything cannot block us; a child
 * that stops reading is no error.  c's in and out are not used.
 * Returns its wait status. */
int rec_child_pipe(const struct rec_child *c, const char *in, size_t inlen,
    struct rec_buf *out);

/* whether a wait status is an exit with 0 */
int rec_proc_ok(int status);
/* appends how a child ended: "failed with status 1", "was killed by
 * signal 9"; rec says it this way everywhere */
void rec_proc_describe(struct rec_buf *b, int status);

/* A pipeline: the sources run one after another into one stream,
 * which the filters read in turn.  A stage killed by SIGPIPE has lost
 * its reader, which is the reader's story, not a failure; a source
 * that lost it ends the sources. */
struct rec_pipeline {
	const struct rec_child *stage;	/* nsrc sources, then the
					 * filters; borrowed.  Their out and
					 * err are set by the run, and so is
					 * the filters' in */
	size_t nsrc, n;
	/* set by rec_pipeline_run, freed by rec_pipeline_free */
	struct rec_buf out;	/* the last stage's standard output */
	struct rec_buf *err;	/* each stage's standard error */
	int *status;		/* each stage's wait status; -1: not run */
	long failed;		/* the first stage that failed, or -1 */
};
/* runs pl; 0, or -1 when a stage failed (pl->failed says which) */
int rec_pipeline_run(struct rec_pipeline *pl);
void rec_pipeline_free(struct rec_pipeline *pl);

/* Jobs, up to max at once, each one's standard output kept: whole
 * until it ends (maxout bytes at most: past that it is killed with
 * SIGTERM and too_big set), or with stream set handed over as it
 * comes. */
struct rec_job {
	pid_t pid;		/* 0: a free slot */
	int fd;
	char *name;		/* the caller's name for it; owned */
	struct rec_buf out;	/* what it wrote (with stream: what the
				 * caller has not taken out yet) */
	int ended;		/* it has ended; status is its wait status */
	int status;
	int too_big;
	unsigned long seq;	/* the order it was started in */
};
struct rec_jobs {
	size_t max, n, maxout;
	int ordered;		/* jobs end (for rec_jobs_wait) in the order
				 * they were started */
	int stream;		/* rec_jobs_wait also returns a job that
				 * wrote something */
	volatile sig_atomic_t *stop;	/* set (by a signal handler):
					 * rec_jobs_wait returns NULL; or
					 * NULL */
	struct rec_job *job;
	unsigned long started;
};
/* ordered, stream and stop are 0; set them after */
void rec_jobs_init(struct rec_jobs *j, size_t max, size_t maxout);
/* starts c (its out is the job's) with a copy of name (or NULL); needs
 * j->n < j->max */
struct rec_job *rec_jobs_start(struct rec_jobs *j, const struct rec_child *c,
    const char *name);
/* Waits for a job to end and returns it (read it, then release it);
 * with stream, also for one that wrote something (take what it wrote
 * out of out; release it only once it has ended).  NULL when none is
 * running or *stop was set. */
struct rec_job *rec_jobs_wait(struct rec_jobs *j);
void rec_jobs_release(struct rec_jobs *j, struct rec_job *job);
/* ends every running job (SIGTERM), waits for it and releases it */
void rec_jobs_kill(struct rec_jobs *j);
void rec_jobs_free(struct rec_jobs *j);
int rec_jobs_ok(const struct rec_job *job);
/* appends how a failed job failed: "failed with status 1", "could not
 * be run (status 127)", "wrote more than the limit of output" */
void rec_jobs_describe(struct rec_buf *b, const struct rec_job *job);

#endif
