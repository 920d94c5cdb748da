/*
 * opts.c: the option tables of the tools a plan may run.  Each tool's
 * getopt_long, its --help and what a model is told about it come from
 * here (opts.h), so they cannot drift apart.
 */
#include <string.h>

#include "opts.h"

static const struct rec_opt sql_opts[] = {
	{ 'a', "all", NULL, "query the whole catalog, ignoring standard input",
	    REC_V_FLAG, NULL },
	{ 'd', "db", "CATALOG", "the catalog (default $REC_DB)", REC_V_NONE,
	    NULL },
	{ 'f', "fuzzy", NULL, "replace a value that matches nothing with the "
	    "closest", REC_V_NONE, NULL },
	{ 'k', "limit", "N", "write at most N records", REC_V_COUNT, NULL },
	{ 'L', "lookup", NULL, "answer with the rows as one JSON object",
	    REC_V_NONE, NULL },
	{ 'M', "msgpack", NULL, "write msgpack instead of JSONL", REC_V_NONE,
	    NULL },
	{ 'o', "order", "ORDER", "the ORDER BY of --where", REC_V_ORDER, NULL },
	{ 's', "as", "NAME", "the src of new records (default sql)",
	    REC_V_NAME, NULL },
	{ 'w', "where", "COND", "the WHERE of SELECT id FROM items",
	    REC_V_WHERE, NULL },
	{ 0, NULL, NULL, NULL, 0, NULL }
};

const struct rec_tooldef rec_tool_sql = {
	"rec-sql",
	"usage: rec-sql [-afLM] [-d CATALOG] [-k N] [-s NAME] QUERY\n"
	"       rec-sql [-afLM] [-d CATALOG] [-k N] [-s NAME] -w WHERE "
	"[-o ORDER]\n", 23,
	"Boolean filtering with a read-only SQL condition over the items "
	"table. With all, it selects from the whole catalog (a source, "
	"ordered by order); without, it keeps only the candidates found so "
	"far that meet the condition.",
	NULL, NULL, 2, sql_opts
};

static const struct rec_opt bm25_opts[] = {
	{ 'a', "all", NULL, "search the whole catalog, ignoring standard "
	    "input", REC_V_NONE, NULL },
	{ 'A', "and", NULL, "every term must match (default: any)",
	    REC_V_FLAG, NULL },
	{ 'b', "b", "B", "length normalisation (default 0.75)", REC_V_NONE,
	    NULL },
	{ 'd', "db", "CATALOG", "the catalog (default $REC_DB)", REC_V_NONE,
	    NULL },
	{ 'e', "exact", NULL, "no typo tolerance", REC_V_FLAG, NULL },
	{ 'f', "field", "FIELD", "a text column, a role or all (default all); "
	    "again for\nmore fields, the scores summed", REC_V_FIELD, NULL },
	{ 'I', "index", NULL, "build the index CATALOG.bm25", REC_V_NONE,
	    NULL },
	{ 'K', "k1", "K1", "term frequency saturation (default 1.2)",
	    REC_V_NONE, NULL },
	{ 'k', "limit", "N", "write at most N records (default 100 from the "
	    "catalog)", REC_V_COUNT, NULL },
	{ 'M', "msgpack", NULL, "write msgpack instead of JSONL", REC_V_NONE,
	    NULL },
	{ 'P', "prefix", NULL, "a word of 5 letters or more also matches the "
	    "longer\nwords it begins, a plural's s dropped (zombies: "
	    "zombieland)", REC_V_FLAG, NULL },
	{ 's', "as", "NAME", "the src of the records (default bm25)",
	    REC_V_NAME, NULL },
	{ 'X', "exhaustive", NULL, "score every document (a check: the same "
	    "result)", REC_V_NONE, NULL },
	{ 0, NULL, NULL, NULL, 0, NULL }
};

const struct rec_tooldef rec_tool_bm25 = {
	"rec-bm25",
	"usage: rec-bm25 [-aAeMPX] [-d CATALOG] [-f FIELD] [-k N] [-s NAME] "
	"[-K K1] [-b B] QUERY ...\n"
	"       rec-bm25 -I [-d CATALOG]\n", 23,
	"Lexical retrieval (Okapi BM25) of words in text fields of the "
	"catalog: titles, creators, tags, genres. Tolerant of typos.",
	"query", "the words to look for; words in double quotes (\"classic "
	"rock\") are a phrase, which matches only where they stand together",
	1, bm25_opts
};

static const struct rec_opt cf_opts[] = {
	{ 'a', "all", NULL, "score the whole catalog, ignoring standard input",
	    REC_V_NONE, NULL },
	{ 'B', "block", "N", "--users: users scored together (default 256)",
	    REC_V_NONE, NULL },
	{ 'C', "cut", "N", "--users: of each list, the first N and the last, "
	    "marked\nfor rec-rank", REC_V_NONE, NULL },
	{ 'd', "db", "CATALOG", "the catalog (default $REC_DB)", REC_V_NONE,
	    NULL },
	{ 'e', "lenient", NULL, "an unknown seed or user: a warning and no "
	    "records", REC_V_NONE, NULL },
	{ 'f', "floor", "F", "leave out items scored under F times the best "
	    "(0 to 1)", REC_V_NONE, NULL },
	{ 'g', "group", "KEY", "--users: the group key of the records "
	    "(default user)", REC_V_NONE, NULL },
	{ 'I', "index", NULL, "write the files of the item-item models, "
	    "CATALOG.cf.MODEL", REC_V_NONE, NULL },
	{ 'k', "limit", "N", "write at most N records (default 100)",
	    REC_V_COUNT, NULL },
	{ 'l', "like", "ID,...", "items co-consumed with these (which are left "
	    "out)", REC_V_IDS, NULL },
	{ 'm', "model", "MODEL", "a model from rec-train (default itemknn)",
	    REC_V_NONE, NULL },
	{ 'M', "msgpack", NULL, "write msgpack instead of JSONL", REC_V_NONE,
	    NULL },
	{ 'N', "novelty", "W", "favour the less popular: W of each score is "
	    "the\nshare of the catalog more popular than the item", REC_V_NONE,
	    NULL },
	{ 's', "as", "NAME", "the src of the records (default cf)", REC_V_NAME,
	    NULL },
	{ 'u', "user", "USER", "items for a user, leaving out what they have",
	    REC_V_NONE, NULL },
	{ 'U', "users", "FILE", "a list for each user in FILE (one per line, - "
	    "for\nstdin, all for every user with interactions), grouped",
	    REC_V_NONE, NULL },
	{ 0, NULL, NULL, NULL, 0, NULL }
};

const struct rec_tooldef rec_tool_cf = {
	"rec-cf",
	"usage: rec-cf [-aeM] [-d CATALOG] [-f F] [-m MODEL] [-k N] [-N W]\n"
	"              [-s NAME] -l ID,... | -u USER\n"
	"       rec-cf [-eM] [-d CATALOG] [-m MODEL] [-k N] [-N W] [-s NAME] "
	"[-g KEY]\n"
	"              [-B N] [-C N] -U FILE|all\n"
	"       rec-cf -I [-d CATALOG]\n", 23,
	"Collaborative filtering: items people consumed together with the "
	"liked items (item ids of the catalog).",
	NULL, NULL, 1, cf_opts
};

static const struct rec_opt dense_opts[] = {
	{ 'a', "all", NULL, "search the whole catalog, ignoring standard "
	    "input", REC_V_NONE, NULL },
	{ 'd', "db", "CATALOG", "the catalog (default $REC_DB)", REC_V_NONE,
	    NULL },
	{ 'I', "index", NULL, "write CATALOG.dense.SPACE, the space as a file "
	    "to map", REC_V_NONE, NULL },
	{ 'e', "lenient", NULL, "an unknown seed or user: a warning and no "
	    "records", REC_V_NONE, NULL },
	{ 'k', "limit", "N", "write at most N records (default 100)",
	    REC_V_COUNT, NULL },
	{ 'l', "like", "ID,...", "items near these (which are left out)",
	    REC_V_IDS, NULL },
	{ 'm', "metric", "METRIC", "cosine (default) or ip (inner product)",
	    REC_V_NONE, NULL },
	{ 'M', "msgpack", NULL, "write msgpack instead of JSONL", REC_V_NONE,
	    NULL },
	{ 's', "as", "NAME", "the src of the records (default dense)",
	    REC_V_NAME, NULL },
	{ 'S', "space", "SPACE", "the vector space (default: the only one)",
	    REC_V_SPACE, NULL },
	{ 't', "text", "TEXT", "items near the text, by the encoder of "
	    "rec-train text\nor through REC_LLM_URL", REC_V_TEXT, NULL },
	{ 'u', "user", "USER", "items near the user's taste", REC_V_NONE,
	    NULL },
	{ 'v', "vector", "X,...", "items near this vector", REC_V_NONE, NULL },
	{ 0, NULL, NULL, NULL, 0, NULL }
};

const struct rec_tooldef rec_tool_dense = {
	"rec-dense",
	"usage: rec-dense [-aeM] [-d CATALOG] [-S SPACE] [-m METRIC] [-k N] "
	"[-s NAME]\n"
	"                 -l ID,... | -u USER | -v X,Y,... | -t TEXT\n"
	"       rec-dense -I [-d CATALOG] [-S SPACE]\n", 23,
	"Embedding similarity in a vector space of the catalog: items near "
	"liked items (like), or near the meaning of some words (text; only "
	"in a space that has a text encoder).",
	NULL, NULL, 1, dense_opts
};

static const struct rec_opt semid_opts[] = {
	{ 'a', "all", NULL, "search the whole catalog, ignoring standard "
	    "input", REC_V_NONE, NULL },
	{ 'c', "code", "CODES", "the codes to look up, e.g. 52,42,5,9 (a "
	    "prefix will do)", REC_V_NONE, NULL },
	{ 'C', "codes", "N", "codes per level when training (default 64)",
	    REC_V_NONE, NULL },
	{ 'd', "db", "CATALOG", "the catalog (default $REC_DB)", REC_V_NONE,
	    NULL },
	{ 'D', "distance", "N", "also codes that differ in N places (default "
	    "1)", REC_V_NONE, NULL },
	{ 'i', "iters", "N", "k-means iterations per level (default 25)",
	    REC_V_NONE, NULL },
	{ 'k', "limit", "N", "write at most N records (default 100)",
	    REC_V_COUNT, NULL },
	{ 'l', "like", "ID,...", "items whose codes are closest to these "
	    "items'", REC_V_IDS, NULL },
	{ 'L', "levels", "N", "levels when training (default 4)", REC_V_NONE,
	    NULL },
	{ 'M', "msgpack", NULL, "write msgpack instead of JSONL", REC_V_NONE,
	    NULL },
	{ 'P', "show", NULL, "print the codes of the IDs in every space",
	    REC_V_NONE, NULL },
	{ 'r', "seed", "N", "the random seed of training (default 1)",
	    REC_V_NONE, NULL },
	{ 's', "as", "NAME", "the src of the records (default semid)",
	    REC_V_NAME, NULL },
	{ 'S', "space", "SPACE", "the vector space", REC_V_SEMID, NULL },
	{ 'T', "train", NULL, "train the codes of --space", REC_V_NONE, NULL },
	{ 0, NULL, NULL, NULL, 0, NULL }
};

const struct rec_tooldef rec_tool_semid = {
	"rec-semid",
	"usage: rec-semid -T -S SPACE [-d CATALOG] [-L LEVELS] [-C CODES] "
	"[-r SEED] [-i ITERS]\n"
	"       rec-semid -P [-d CATALOG] ID ...\n"
	"       rec-semid [-aM] [-d CATALOG] [-S SPACE] [-D N] [-k N] "
	"[-s NAME] -c CODES | -l ID,...\n", 23,
	"Generative retrieval with semantic IDs: items whose codes are "
	"closest to the liked items' codes.",
	NULL, NULL, 1, semid_opts
};

static const struct rec_opt rank_opts[] = {
	{ 'F', "fuse", "MODE", "rrf, sum or max: merge the streams told apart "
	    "by src", REC_V_ENUM, "rrf|sum|max" },
	{ 'R', "rrf-k", "K", "the k of reciprocal rank fusion (default 60)",
	    REC_V_NONE, NULL },
	{ 'W', "weight", "SRC=W", "a source's weight in the fusion (default 1)",
	    REC_V_SRCW, NULL },
	{ 'u', "user", "USER", "favour what the user's history favours",
	    REC_V_NONE, NULL },
	{ 'P', "personal", "W", "how much (default 0.3)", REC_V_NONE, NULL },
	{ 'x', "exclude-seen", "USER", "drop what the user already has",
	    REC_V_NONE, NULL },
	{ 'l', "like", "ID,...", "favour items like these", REC_V_IDS, NULL },
	{ 'L', "like-weight", "W", "how much (default 0.3)", REC_V_UNIT, NULL },
	{ 'n', "unwanted", "ID,...", "remove these, and their creators' other "
	    "items with -n creator", REC_V_IDS, NULL },
	{ 'N', "novelty", "W", "trade relevance for the less popular, 0 to 1",
	    REC_V_UNIT, NULL },
	{ 'U', "unique", "FIELD,...", "keep the best of the records that share "
	    "these fields\n(one song: title,creator)", REC_V_NONE, NULL },
	{ 'D', "diversify", "FIELD", "at most --per items per value of FIELD",
	    REC_V_COLUMN, NULL },
	{ 'p', "per", "N", "(default 1)", REC_V_COUNT, NULL },
	{ 'A', "alternate", "SRC,...", "the best found by each of these "
	    "sources in turn", REC_V_NONE, NULL },
	{ 'm', "mmr", "LAMBDA", "maximal marginal relevance over --space",
	    REC_V_NONE, NULL },
	{ 'S', "space", "SPACE", "the vector space of --mmr", REC_V_NONE,
	    NULL },
	{ 'b', "by", "EXPR", "the score from a jq expression (.score, .item)",
	    REC_V_NONE, NULL },
	{ 'w', "where", "EXPR", "keep records for which EXPR is true",
	    REC_V_NONE, NULL },
	{ 'k', "limit", "N", "write at most N records (per group with -g)",
	    REC_V_COUNT, NULL },
	{ 'g', "group", "KEY", "a grouped stream: rank each group of records "
	    "that share\nKEY on its own; -u @ and -x @ name the group's value",
	    REC_V_NONE, NULL },
	{ 'r', "redo", "FILE", "a cut group that cannot be ranked for sure: "
	    "left out,\nits value written to FILE, one a line", REC_V_NONE,
	    NULL },
	{ 's', "as", "NAME", "the src of the records (default rank)",
	    REC_V_NONE, NULL },
	{ 'd', "db", "CATALOG", "the catalog (default $REC_DB)", REC_V_NONE,
	    NULL },
	{ 'M', "msgpack", NULL, "write msgpack instead of JSONL", REC_V_NONE,
	    NULL },
	{ 0, NULL, NULL, NULL, 0, NULL }
};

const struct rec_tooldef rec_tool_rank = {
	"rec-rank",
	"usage: rec-rank [-M] [-d CATALOG] [-F MODE] [-R K] [-W SRC=W] "
	"[-u USER] [-P W]\n"
	"                [-x USER] [-l ID,...] [-L W] [-n ID,...] [-N W] "
	"[-U FIELD,...]\n"
	"                [-D FIELD] [-p N] [-A SRC,...] [-m LAMBDA -S SPACE] "
	"[-b EXPR]\n"
	"                [-w EXPR] [-k N] [-s NAME] [-g KEY [-r FILE]]\n", 26,
	"Fuses the streams of the retrievers (told apart by their as "
	"names), removes the unwanted, trades relevance for novelty or "
	"variety, and cuts the list. Called once, last; rec adds what the "
	"conversation rules out.",
	NULL, NULL, 0, rank_opts
};

const struct rec_tooldef *const rec_tooldefs[] = {
	&rec_tool_sql, &rec_tool_bm25, &rec_tool_cf, &rec_tool_dense,
	&rec_tool_semid, &rec_tool_rank, NULL
};

const struct rec_tooldef *
rec_tooldef(const char *tool)
{
	size_t i;

	for (i = 0; rec_tooldefs[i]; i++)
		if (!strcmp(rec_tooldefs[i]->tool, tool))
			return rec_tooldefs[i];
	return NULL;
}

const struct rec_opt *
rec_tooldef_opt(const struct rec_tooldef *t, int c)
{
	const struct rec_opt *o;

	for (o = t->opt; o->c; o++)
		if (o->c == c)
			return o;
	return NULL;
}

const struct rec_opt *
rec_tooldef_long(const struct rec_tooldef *t, const char *name)
{
	const struct rec_opt *o;

	for (o = t->opt; o->c; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* "  -k, --limit N" then the text at column col, or one space past a
 * longer left side; the text's '\n' goes on at col */
static void
usage_line(FILE *fp, int col, int c, const char *name, const char *arg,
    const char *help)
{
	int n;

	n = fprintf(fp, "  -%c, --%s%s%s", c, name, arg ? " " : "",
	    arg ? arg : "");
	do
		fputc(' ', fp);
	while (++n < col);
	for (; *help; help++) {
		fputc(*help, fp);
		if (*help == '\n')
			fprintf(fp, "%*s", col, "");
	}
	fputc('\n', fp);
}

void
rec_tooldef_usage(const struct rec_tooldef *t, FILE *fp)
{
	const struct rec_opt *o;

	fputs(t->synopsis, fp);
	for (o = t->opt; o->c; o++)
		usage_line(fp, t->col, o->c, o->name, o->arg, o->help);
	usage_line(fp, t->col, 'h', "help", NULL, "print this help");
	usage_line(fp, t->col, 'V', "version", NULL, "print the version");
}

const struct option *
rec_tooldef_getopt(const struct rec_tooldef *t, char *shortopts, size_t size)
{
	static struct option lo[48];
	const struct rec_opt *o;
	size_t n = 0, k = 0;

	shortopts[k++] = ':';
	for (o = t->opt; o->c && n + 3 < sizeof lo / sizeof *lo &&
	    k + 6 < size; o++) {
		shortopts[k++] = (char)o->c;
		if (o->arg)
			shortopts[k++] = ':';
		lo[n].name = o->name;
		lo[n].has_arg = o->arg ? required_argument : no_argument;
		lo[n].flag = NULL;
		lo[n].val = o->c;
		n++;
	}
	shortopts[k++] = 'h';
	shortopts[k++] = 'V';
	shortopts[k] = 0;
	lo[n].name = "help";
	lo[n].has_arg = no_argument;
	lo[n].flag = NULL;
	lo[n++].val = 'h';
	lo[n].name = "version";
	lo[n].has_arg = no_argument;
	lo[n].flag = NULL;
	lo[n++].val = 'V';
	memset(&lo[n], 0, sizeof lo[n]);
	return lo;
}
