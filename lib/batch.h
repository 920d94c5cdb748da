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

#endif
