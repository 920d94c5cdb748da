/*
 * converse.h: the conversation: a request -> a formatted intent -> a plan of rec
 * tools, run; the reply; the model endpoint
 *
 * Ownership is stated once, in core.h, for every rec header.
 */
#ifndef REC_CONVERSE_H
#define REC_CONVERSE_H

#include "stream.h"
#include "catalog.h"
#include "proc.h"

/* intent.c: the formatted intent (OMuleT's), what every planner path
 * fills and the policy reads */
#define REC_MAXC 16
struct rec_cons {
	char col[64];		/* an items column */
	char op[3];		/* > >= < <= = */
	double v;
	char say[64];		/* how to say it: "from 2015 on" */
};

struct rec_intent {
	struct rec_strs liked_items, liked_creators, disliked_items,
	    disliked_creators, tags, disliked_tags, words, shown;
	struct rec_strs boost;	/* items the profile likes: a mild boost */
	struct rec_strs wanted;	/* items asked for by title: "add X" */
	struct rec_strs earlier_creators; /* named in earlier turns */
	int taste;		/* the message states a taste: 1 like, -1 not */
	struct rec_cons cons[REC_MAXC];
	int ncons;
	int popular;		/* 1 popular, -1 not mainstream */
	int k;
	char *user;
	struct rec_buf said;	/* what was understood, for the reply */
};

/* kb.c: the catalog knowledge the planner links words to, loaded once
 * per process over the catalog handle cat (which it owns) */
struct rec_kb {
	struct rec_catalog *cat;
	const char *catalog;		/* cat->path */
	struct rec_hash creator;	/* folded name -> index in cname */
	char **cname;			/* the catalog's spelling */
	struct rec_hash title;		/* folded title -> index in tid */
	char **tid;			/* its most popular item */
	struct rec_hash tag;		/* folded tag values */
	unsigned *tagcount;		/* items with each tag */
	size_t nitems;
	char *c_title, *c_creator, *c_pop, *c_year, *c_date;
	char **c_tags;			/* the tags and category columns */
	int *c_tags_list;		/* which hold JSON lists */
	size_t nc_tags;
	int has_tempo, has_duration, has_valence, has_energy,
	    has_dance, has_acoustic, has_instrumental;
	int maxyear;
	int has_knn, has_bm25;
	char *semid_space;
	char *dense_space;		/* audio, or the first space */
	char *text_space;		/* a space embedded by a server */
};

struct rec_kb *rec_kb_load(const char *catalog);
void rec_kb_free(struct rec_kb *kb);
/* the key of h closest to s (folded) within max edits, or (size_t)-1 */
size_t rec_kb_closest(const struct rec_hash *h, const char *s, int max);

/* parse.c: parses message (with the previous turn's intent and shown
 * items for references, or NULL) into in, by rules */
void rec_intent_parse(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, struct rec_intent *in);

/* intent.c */
void rec_intent_free(struct rec_intent *in);
/* adds a constraint (at most REC_MAXC; more are dropped) */
void rec_intent_cons(struct rec_intent *in, const char *col, const char *op,
    double v, const char *say);
/* adds to what was understood: fmt with one %s */
void rec_intent_said(struct rec_intent *in, const char *fmt, const char *a);
/* what a turn keeps from the one before (prev may be NULL): the shown
 * items, the dislikes, the creators named, the user */
void rec_intent_carry(struct rec_intent *in, const struct rec_intent *prev);
/* whether in names something to look for: items, creators, tags or
 * words */
int rec_intent_asks(const struct rec_intent *in);
/* the intent from its JSON form (as rec_intent_json writes it) */
void rec_intent_from(struct rec_intent *in, const msgpack_object *o);
void rec_intent_add_shown(struct rec_intent *in, const char *id);
/* A long-term profile (InteRecAgent's like / dislike / expect facets), a
 * JSON file: {"like":{"items":[],"creators":[],"tags":[]},"dislike":
 * {...},"expect":{"creators":[],"tags":[]}}; expect holds what the
 * person asks for, and fills a request with nothing to go on */
struct rec_profile {
	struct rec_strs like_items, like_creators, like_tags,
	    dislike_items, dislike_creators, dislike_tags;
	struct rec_strs expect_creators, expect_tags;	/* asked for, newest
							 * first */
};
void rec_profile_load(struct rec_profile *pf, const char *path);
/* writes it atomically; dies on a write error */
void rec_profile_save(const struct rec_profile *pf, const char *path);
void rec_profile_free(struct rec_profile *pf);
/* takes the taste the message states into the profile (1 if changed),
 * and the profile's dislikes and likes into the intent */
int rec_profile_learn(struct rec_profile *pf, const struct rec_intent *in);
void rec_profile_apply(const struct rec_profile *pf, struct rec_intent *in);

/* The intent from the model (REC_LLM_URL), each name, tag, column and
 * value checked against the catalog and repaired where it can be; what
 * cannot is sent back to the model with the problems, at most twice;
 * then the rules.  demos: a JSONL file of {"request","intent"} pairs,
 * the three most like the message go in the prompt (or NULL).  0 when
 * the model's intent is used, -1 after falling back; log says what
 * happened. */
int rec_intent_model(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, const char *demos, struct rec_intent *in,
    struct rec_buf *log);

/* session.c: the session file (rec-session(5)), one JSON object per
 * turn.  What a turn writes: the fields that are NULL (ms < 0) are left
 * out; items is a JSON array of objects, or else shown gives the ids;
 * full adds the intent and the plan (the file has them, rec-chat's
 * standard output not). */
struct rec_session_out {
	int turn;
	const char *user, *reply, *items;
	const struct rec_strs *shown, *liked, *disliked;
	const char *shell, *violated, *emptied, *relaxed, *model;
	int failed;
	double ms;
	const struct rec_intent *intent;
	const struct rec_plan *plan;
};
void rec_session_format(struct rec_buf *b, const struct rec_session_out *t,
    int full);
/* What a session file holds, turn by turn. */
struct rec_session_turn {
	char *user, *reply;
	struct rec_strs shown, liked, disliked;
	int has_intent;
	struct rec_intent intent;
};
struct rec_session {
	struct rec_session_turn *turn;
	size_t n;
};
/* reads path into s: 1, or 0 when there is no such file; a line that is
 * not a turn ends the program with "PATH:LINE: ..." */
int rec_session_read(const char *path, struct rec_session *s);
void rec_session_free(struct rec_session *s);
/* the last turn's intent of a session file, with every item shown so
 * far; 0 when there is no file or no turn */
int rec_session_last(const char *path, struct rec_intent *prev, int *turns);
/* opens path to append turns, locked for this process: a second writer
 * is refused with a message; returns the descriptor */
int rec_session_open(const char *path);
/* appends line (n bytes, one turn) whole or not at all; dies on error */
void rec_session_append(int fd, const char *path, const char *line,
    size_t n);

/* intent.c: the intent's JSON form */
void rec_intent_json(struct rec_buf *b, const struct rec_intent *in);
/* drops the constraint that narrows most (the last one added); returns
 * what was relaxed, or NULL when there is none */
const char *rec_intent_relax(struct rec_intent *in, struct rec_buf *note);

struct rec_stage {
	char **argv;
	int argc;
};

struct rec_plan {
	struct rec_stage *src;	/* run one after another into one stream */
	size_t nsrc;
	struct rec_stage *filt;	/* then each in turn */
	size_t nfilt;
	char *ask;		/* a question back instead of a plan */
};

void rec_plan_make(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_plan *p);
/* appends the intent's constraints as an SQL condition (none: nothing) */
void rec_intent_where(const struct rec_intent *in, struct rec_buf *b);
void rec_plan_free(struct rec_plan *p);
/* a POSIX shell command line, every argument quoted */
void rec_plan_shell(struct rec_buf *b, const struct rec_plan *p);
void rec_plan_json(struct rec_buf *b, const struct rec_plan *p);
void rec_shell_quote(struct rec_buf *b, const char *s);

/* which stage of a plan failed, and how */
struct rec_plan_fail {
	const struct rec_stage *stage;	/* in the plan run; borrowed */
	int status;			/* its wait status */
	struct rec_buf err;		/* what it wrote on standard error */
};
/* run.c: runs a plan without a shell: the rec tools from bindir, stdin
 * of the sources /dev/null, msgpack between stages, REC_DB, REC_FORMAT
 * and REC_TRACE set for the stages alone; the last stage's output in
 * out; in err a line saying which stage failed and how, then what every
 * stage wrote on standard error.  0, or -1 when a stage failed: fail
 * (when not NULL) says which. */
int rec_plan_run(const struct rec_plan *p, const char *bindir,
    const char *catalog, struct rec_buf *out, struct rec_buf *err,
    struct rec_plan_fail *fail);
/* the REC_TRACE lines of the last rec_plan_run, one JSON object per
 * stage in the order they ended */
const char *rec_plan_trace(void);
/* from the trace: the first stage that had records and wrote none, as
 * "rec-sql (-w ...) kept none of 284", or NULL */
char *rec_plan_emptied(void);

/* respond.c: the reply a person reads, from the final candidates */
void rec_respond(struct rec_kb *kb, const struct rec_intent *in,
    const char *records, size_t len, const char *notes,
    struct rec_buf *reply, struct rec_buf *items_json);

/* llm.c: an OpenAI-compatible chat completion through libcurl, from
 * REC_LLM_URL (the base URL), REC_LLM_MODEL, REC_LLM_KEY and
 * REC_LLM_TIMEOUT (seconds).  messages is a JSON array.  0 and the
 * assistant's content in out, or -1 with the reason in err. */
int rec_llm_chat(const char *messages, struct rec_buf *out,
    struct rec_buf *err);
/* Embeddings of n texts from REC_LLM_URL's /embeddings (model
 * REC_EMBED_MODEL, else REC_LLM_MODEL): 0 with *out (n x *dim floats,
 * caller frees), or -1 with err */
int rec_llm_embed(const char *const *texts, size_t n, float **out,
    size_t *dim, struct rec_buf *err);
/* 1 if a model is configured */
int rec_llm_enabled(void);

/* respond.c, with a model: the model writes an intro and a note per
 * numbered item, rec renders the list from the catalog, so the reply
 * names only the items it was given.  Falls back to rec_respond; 0 when
 * the model's words are used.  log says what happened. */
int rec_respond_model(struct rec_kb *kb, const struct rec_intent *in,
    const char *request, const char *records, size_t len, const char *notes,
    struct rec_buf *reply, struct rec_buf *items, struct rec_buf *log);

/* chat.c: a turn of the conversation once its intent is known */
struct rec_turn {
	struct rec_plan plan;
	struct rec_buf out;	/* the candidate records of the plan */
	struct rec_buf err, reply, items, notes, emptied, violated, shell;
	int failed;
	struct rec_plan_fail fail;	/* when failed: which stage, how */
};
/* where the rec tools are: $REC_BIN, else beside this program; caller
 * frees */
char *rec_bindir(void);
/* how many records p[0..n) holds; each one is added to in's shown
 * items when in is not NULL */
size_t rec_records_count(const char *p, size_t n, struct rec_intent *in);
/* plans and runs in (relaxing it at most twice when the list comes out
 * short, which changes in), drops items that break its constraints,
 * and with respond writes the reply and its items (adding them to in's
 * shown).  t must be zeroed; free it with rec_turn_free. */
void rec_chat_answer(struct rec_kb *kb, const char *dbpath, const char *bin,
    const char *msg, struct rec_intent *in, int respond, struct rec_turn *t,
    struct rec_buf *mlog);
void rec_turn_free(struct rec_turn *t);

#endif
