/*
 * toolplan.h: what the three files of the tools mode of planning share:
 * toolschema.c (what the model is shown), toolcheck.c (checking one of
 * its calls) and toolplan.c (the conversation with it, and the plan).
 * Not part of the library's API, which is in converse.h: only those
 * three files include it.
 *
 * Ownership is stated once, in core.h, for every rec header.
 */
#ifndef REC_TOOLPLAN_H
#define REC_TOOLPLAN_H

#include "converse.h"

/* toolschema.c: names as a model writes them */
/* a tool's name for a model: rec_bm25; a long option's: like_weight */
void rec_tp_model_name(struct rec_buf *b, const char *s);
/* whether p[0..n) is ours as a model may write it: '_' or '-'
 * where ours has '-' */
int rec_tp_same_name(const char *ours, const char *p, size_t n);
/* whether the catalog has what tool t needs */
int rec_tp_usable(const struct rec_kb *kb, const struct rec_tooldef *t);
/* appends s as a JSON string */
void rec_tp_str_json(struct rec_buf *b, const char *s);

/* toolcheck.c: checking the calls of one answer */
struct rec_tp_checker {
	struct rec_kb *kb;
	sqlite3 *db;
	sqlite3_stmt *item;	/* an id, or a title -> the id */
	struct rec_strs labels;	/* the as names given so far */
};
/* opens a handle of kb's catalog for ck where nothing but reading is
 * allowed; close it with rec_tp_checker_close */
void rec_tp_checker_open(struct rec_tp_checker *ck, struct rec_kb *kb);
void rec_tp_checker_close(struct rec_tp_checker *ck);
/* One call of tool d with arguments args, checked and rendered: 0 with
 * its stage in st (and *all set for rec-sql with all), or -1 with what
 * is wrong in why (st empty).  The stream names given are kept in ck,
 * so each stream's is its own. */
int rec_tp_check_call(struct rec_tp_checker *ck, const struct rec_tooldef *d,
    const msgpack_object *args, struct rec_stage *st, int *all,
    struct rec_buf *why);

/* toolcheck.c: building a stage (an argument: planout.c's
 * rec_stage_arg) */
/* "-c", then v as its own argument unless NULL */
void rec_tp_opt_arg(struct rec_stage *s, int c, const char *v);
/* whether s has option -c before any "--" */
int rec_tp_has_opt(const struct rec_stage *s, int c);

#endif
