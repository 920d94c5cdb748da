/*
 * batch.h: lists for many users (rec-batch's command, run as proc.h's
 * jobs) and the evaluation of conversations (rec-eval)
 *
 * Ownership is stated once, in core.h, for every rec header.
 */
#ifndef REC_BATCH_H
#define REC_BATCH_H

#include "converse.h"
#include "proc.h"

/* batch.c: starts rec-batch's command (argv[0..argc), found on PATH)
 * for user as a job of j: the user put where placeholder is in the
 * arguments, or with placeholder NULL added as the last argument; its
 * standard input /dev/null, its standard error ours.  The job is named
 * by the user. */
struct rec_job *rec_batch_start(struct rec_jobs *j, char *const *argv,
    size_t argc, const char *placeholder, const char *user);

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
