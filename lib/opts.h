/*
 * opts.h: the option tables of the tools a plan may run (rec-sql,
 * rec-bm25, rec-cf, rec-dense, rec-semid, rec-rank).  One table per
 * tool is where its getopt_long options, its --help and the tool
 * definitions a model is given (toolschema.c) all come from, so none of
 * them can say something the others do not.
 *
 * Ownership is stated once, in core.h, for every rec header.
 */
#ifndef REC_OPTS_H
#define REC_OPTS_H

#include <getopt.h>

#include "core.h"

/* what a value offered to a model must be; REC_V_NONE: the option is
 * not offered to a model (the catalog, the output format, the user) */
enum rec_vkind {
	REC_V_NONE,
	REC_V_FLAG,	/* a boolean: the option or not */
	REC_V_TEXT,	/* free words */
	REC_V_COUNT,	/* a whole number from 1 to 1000 */
	REC_V_UNIT,	/* a number from 0 to 1 */
	REC_V_WEIGHT,	/* a number from 0 to 100 */
	REC_V_IDS,	/* item ids (a JSON list; a comma list on the line) */
	REC_V_FIELD,	/* a text column, a role, or all (repeatable) */
	REC_V_COLUMN,	/* an items column */
	REC_V_WHERE,	/* an SQL condition over items */
	REC_V_ORDER,	/* an SQL ORDER BY over items */
	REC_V_NAME,	/* a stream's label: [a-z0-9_-], 1 to 32 */
	REC_V_SPACE,	/* a vector space of the catalog */
	REC_V_SEMID,	/* a space with semantic IDs */
	REC_V_SRCW,	/* SRC=W pairs (a JSON object; repeatable) */
	REC_V_ENUM	/* one of the words in choices, '|' between */
};

struct rec_opt {
	int c;			/* the short letter */
	const char *name;	/* the long name */
	const char *arg;	/* the value's name in --help, or NULL */
	const char *help;	/* --help's text; '\n' goes on under it */
	int kind;		/* enum rec_vkind, for a model */
	const char *choices;	/* REC_V_ENUM's words */
};

struct rec_tooldef {
	const char *tool;	/* "rec-bm25" */
	const char *synopsis;	/* --help's first lines, "usage: ..." */
	int col;		/* where --help's texts start */
	const char *what;	/* what the tool does, for a model */
	const char *operand;	/* the operand a model gives ("query"), or
				 * NULL */
	const char *operand_help;
	int source;		/* 1: a retriever (a plan's source); 0: a
				 * filter; 2: either (rec-sql: with all) */
	const struct rec_opt *opt;	/* ends with c == 0; -h and -V are
					 * added */
};

extern const struct rec_tooldef rec_tool_sql, rec_tool_bm25, rec_tool_cf,
    rec_tool_dense, rec_tool_semid, rec_tool_rank;
/* every table above, then NULL */
extern const struct rec_tooldef *const rec_tooldefs[];

/* the table of tool ("rec-sql"), or NULL */
const struct rec_tooldef *rec_tooldef(const char *tool);
/* the option of letter c in t, or NULL */
const struct rec_opt *rec_tooldef_opt(const struct rec_tooldef *t, int c);
/* the long option named name in t, or NULL */
const struct rec_opt *rec_tooldef_long(const struct rec_tooldef *t,
    const char *name);
/* --help, from the table */
void rec_tooldef_usage(const struct rec_tooldef *t, FILE *fp);
/* getopt_long's optstring (":" first, then each letter, ':' after one
 * that takes a value, then "hV") into shortopts, which holds at least
 * 128 bytes, and the long options (with help and version), a static
 * array per table: borrowed */
const struct option *rec_tooldef_getopt(const struct rec_tooldef *t,
    char *shortopts, size_t size);

#endif
