/*
 * batch.h: lists for many users (rec-batch jobs) and the evaluation of
 * conversations (rec-eval)
 *
 * Ownership is stated once, in core.h, for every rec header.
 */
#ifndef REC_BATCH_H
#define REC_BATCH_H

#include "converse.h"

/* batch.c: one command per user, up to max at once, for rec-batch.  A
 * job's standard output is kept whole until it ends (maxout bytes at
 * most: past that it is killed); its standard input is /dev/null and
 * its standard error ours. */
struct rec_job {
	int pid;		/* 0: a free slot */
	int fd;
	char *user;
	struct rec_buf out;
	int status;		/* its wait status, once ended */
	int too_big;
};
struct rec_jobs {
	char **argv;		/* the command; borrowed */
	size_t argc;
	const char *placeholder;	/* replaced by the user; NULL: the
					 * user is the last argument */
	size_t max, n, maxout;
	struct rec_job *job;
};
/* set from a signal handler: rec_jobs_wait returns NULL */
extern volatile sig_atomic_t rec_jobs_stop;
void rec_jobs_init(struct rec_jobs *j, char **argv, size_t argc,
    const char *placeholder, size_t max, size_t maxout);
/* forks and runs argv (found on PATH) with in and out as its standard
 * input and output, which the parent then closes; its standard error
 * is ours.  A command that cannot be run says why and exits 127. */
pid_t rec_spawn(char *const *argv, int in, int out);
/* starts the command for user; needs j->n < j->max */
void rec_jobs_start(struct rec_jobs *j, const char *user);
/* waits for a job to end and returns it (read it, then release it);
 * NULL when none is running or rec_jobs_stop was set */
struct rec_job *rec_jobs_wait(struct rec_jobs *j);
void rec_jobs_release(struct rec_jobs *j, struct rec_job *job);
/* ends every running job (SIGTERM) and waits for it */
void rec_jobs_kill(struct rec_jobs *j);
void rec_jobs_free(struct rec_jobs *j);
int rec_jobs_ok(const struct rec_job *job);
/* appends how a failed job failed: "failed with status 1" */
void rec_jobs_describe(struct rec_buf *b, const struct rec_job *job);

/* eval.c: rec-bench(5) conversations, and the metrics of rec-eval */
struct rec_conv_turn {
	char *user, *assistant;
	struct rec_strs shown, liked, disliked, targets;
};
struct rec_conv {
	char *id, *user;
	struct rec_conv_turn *turn;
	size_t nturns;
	struct rec_hash same;	/* ids that have a canonical one */
	struct rec_strs same_to;	/* by the index in same */
};
/* parses one line; -1 and a message in err (without a position) */
int rec_conv_parse(struct rec_conv *c, const char *line, size_t n,
    struct rec_buf *err);
/* id, or the canonical id "same" maps it to; borrowed */
const char *rec_conv_canon(const struct rec_conv *c, const char *id);
/* the canonical ids shown or liked in the turns before turn t, into h */
void rec_conv_before(const struct rec_conv *c, size_t t, struct rec_hash *h);
/* the targets of turn t less what was shown or liked before it,
 * canonical and distinct, appended to out; returns how many */
size_t rec_conv_targets(const struct rec_conv *c, size_t t,
    struct rec_strs *out);
void rec_conv_free(struct rec_conv *c);

#define REC_MAXK 8
/* one point's accuracy at each cut-off ks[0] < ks[1] < ... */
struct rec_point_score {
	double hit[REC_MAXK], recall[REC_MAXK], ndcg[REC_MAXK], mrr[REC_MAXK];
};
void rec_point_score(const struct rec_strs *list, const struct rec_strs *targets,
    const size_t *ks, size_t nk, struct rec_point_score *ps);

/* sums of point scores, n points: their means are the figures */
struct rec_score_sum {
	double hit[REC_MAXK], recall[REC_MAXK], ndcg[REC_MAXK], mrr[REC_MAXK];
	size_t n;
};

/* Every figure of a run of rec-eval, gathered point by point: accuracy
 * over points (micro), over conversations (macro: each the mean of its
 * points; the points of a conversation must come one after the other)
 * and by turn; Pop50, the share of a list's top k among the 50 items
 * wanted in the most conversations (and of the targets, for the ratio);
 * what the lists show at each cut-off, for Entropy and MaxFreq; and
 * Factual, the share of the ids given that the catalog has. */
struct rec_metrics {
	size_t ks[REC_MAXK], nk;
	struct rec_score_sum micro, macro, conv;
	struct rec_score_sum *turn;	/* by turn */
	size_t nturns;
	size_t cur;			/* the conversation of conv */
	size_t npoints;
	double pop50[REC_MAXK];		/* sums over points */
	double pop50_targets;
	double factual[REC_MAXK], factual_n[REC_MAXK];
	struct rec_hash shown[REC_MAXK];	/* id -> points it was in the
						 * top ks[k] of (size_t) */
	struct rec_hash popular;	/* the 50 most wanted */
	struct rec_hash catalog;	/* the catalog's ids */
};
/* the figures that are not sums of point scores, at each cut-off */
struct rec_figures {
	double pop50_ratio[REC_MAXK];	/* Pop50 of the lists / of targets */
	double entropy[REC_MAXK];	/* of what the lists show, in bits */
	double maxfreq[REC_MAXK];	/* share of points showing the most
					 * shown item */
	double factual[REC_MAXK];
};
/* starts m for the cut-offs ks (rising, nk of them) over the benchmark
 * convs and the catalog db (its ids are read now) */
void rec_metrics_init(struct rec_metrics *m, const size_t *ks, size_t nk,
    const struct rec_conv *convs, size_t nconvs, sqlite3 *db);
/* Scores the ids a system gave at turn t of conversation c (conv: its
 * index).  Appends the list scored (canonical, distinct, without what
 * was shown or liked before, at most the last cut-off) to list and the
 * targets to targets; the point's scores into ps. */
void rec_metrics_add(struct rec_metrics *m, const struct rec_conv *c,
    size_t conv, size_t t, const struct rec_strs *ids,
    struct rec_strs *list, struct rec_strs *targets,
    struct rec_point_score *ps);
/* after the last point: closes the macro average, fills f */
void rec_metrics_end(struct rec_metrics *m, struct rec_figures *f);
void rec_metrics_free(struct rec_metrics *m);

#endif
