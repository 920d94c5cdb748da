/*
 * policy.c: OMuleT's fixed policy, from a formatted intent to a plan of
 * rec tools, and the plan's two renderings (a shell command line, every
 * argument quoted, and JSON).
 *
 * The policy, in order:
 *   liked items    -> rec-cf --like, rec-semid --like, rec-dense --like
 *                     (each when the catalog has what it needs)
 *   named creators -> rec-bm25 on the creator field, and rec-cf --like
 *                     their best-known items
 *   tags and words -> rec-bm25 over all text fields, and rec-dense --text
 *                     where a server embedded the catalog (REC_LLM_URL)
 *   the user       -> rec-cf --user
 *   only limits    -> rec-sql over the catalog, most popular first
 * then rec-sql for the constraints and the creators not wanted, then
 * rec-rank: fusion, the unwanted and the shown removed, novelty or
 * popularity, at most two items per creator, the cut.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "converse.h"

static void
stage(struct rec_stage **v, size_t *n, ...)
{
	va_list ap;
	const char *a;
	struct rec_stage *s;

	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	s = &(*v)[(*n)++];
	memset(s, 0, sizeof *s);
	va_start(ap, n);
	while ((a = va_arg(ap, const char *))) {
		s->argv = xrealloc(s->argv, (size_t)(s->argc + 2) *
		    sizeof *s->argv);
		s->argv[s->argc++] = xstrdup(a);
	}
	va_end(ap);
	if (s->argv)
		s->argv[s->argc] = NULL;
}

static void
arg(struct rec_stage *s, const char *a)
{
	s->argv = xrealloc(s->argv, (size_t)(s->argc + 2) * sizeof *s->argv);
	s->argv[s->argc++] = xstrdup(a);
	s->argv[s->argc] = NULL;
}

static void
sql_str(struct rec_buf *b, const char *s)
{
	rec_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			rec_buf_addc(b, '\'');
		rec_buf_addc(b, *s);
	}
	rec_buf_addc(b, '\'');
}

/* the best-known items of a creator, for rec-cf --like */
static void
top_items(struct rec_kb *kb, const char *creator, struct rec_buf *ids)
{
	static const char what[] = "finding a creator's best-known items";
	sqlite3_stmt *st;
	struct rec_buf sql = {0};

	rec_buf_printf(&sql, "SELECT id FROM items WHERE \"%s\" = ? ORDER BY "
	    "%s%s%s LIMIT 3", kb->c_creator, kb->c_pop ? "\"" : "",
	    kb->c_pop ? kb->c_pop : "rowid", kb->c_pop ? "\" DESC" : "");
	st = rec_catalog_prepare(kb->cat, sql.data, what);
	sqlite3_bind_text(st, 1, creator, -1, SQLITE_STATIC);
	while (rec_catalog_step(kb->cat, st, what))
		rec_buf_printf(ids, "%s%s", ids->len ? "," : "",
		    sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	rec_buf_free(&sql);
}

/* the creators most of ids have (at most max), most first */
static void
creators_of(struct rec_kb *kb, const struct rec_strs *ids, size_t max,
    struct rec_strs *out)
{
	static const char what[] = "finding the creators of items";
	sqlite3_stmt *st;
	struct rec_buf sql = {0}, list = {0};
	size_t i;

	if (!kb->c_creator || !ids->n)
		return;
	rec_buf_addc(&list, '[');
	for (i = 0; i < ids->n; i++) {
		rec_buf_adds(&list, i ? "," : "");
		rec_json_string(&list, ids->v[i], strlen(ids->v[i]));
	}
	rec_buf_addc(&list, ']');
	rec_buf_printf(&sql, "SELECT \"%s\" AS c FROM items WHERE id IN "
	    "(SELECT value FROM json_each(?)) AND c IS NOT NULL AND c <> '' "
	    "GROUP BY c ORDER BY count(*) DESC, min(rowid) LIMIT %zu",
	    kb->c_creator, max);
	st = rec_catalog_prepare(kb->cat, sql.data, what);
	sqlite3_bind_text(st, 1, list.data, (int)list.len, SQLITE_STATIC);
	while (rec_catalog_step(kb->cat, st, what))
		rec_strs_add(out, (const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	rec_buf_free(&sql);
	rec_buf_free(&list);
}

void
rec_plan_make(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_plan *p)
{
	struct rec_buf b = {0}, w = {0};
	char num[40];
	size_t i, liked_streams = 0;
	int near = 0, titled = 0;

	memset(p, 0, sizeof *p);
	/* nothing to go on, not even what was liked before */
	if (!rec_intent_asks(in) && !in->user && !in->ncons && !in->popular &&
	    !in->boost.n) {
		p->ask = xstrdup("What are you in the mood for? An artist, a "
		    "title you like, a genre, a mood or a decade will do.");
		return;
	}
	if (in->liked_items.n) {
		for (i = 0; i < in->liked_items.n; i++)
			rec_buf_printf(&b, "%s%s", i ? "," : "",
			    in->liked_items.v[i]);
		if (kb->has_knn)
			stage(&p->src, &p->nsrc, "rec-cf", "-e", "-k", "200",
			    "-l", b.data, (char *)NULL);
		if (kb->semid_space)
			stage(&p->src, &p->nsrc, "rec-semid", "-S",
			    kb->semid_space, "-k", "100", "-l", b.data, (char *)NULL);
		if (kb->dense_space)
			stage(&p->src, &p->nsrc, "rec-dense", "-e", "-S",
			    kb->dense_space, "-k", "100", "-l", b.data,
			    (char *)NULL);
		rec_buf_reset(&b);
	}
	/* a song named by its title ("add Kiss from a Rose"): the song
	 * itself, and the other records of that title, first */
	for (i = 0; i < in->wanted.n && kb->has_bm25 && kb->c_title; i++) {
		char *t;
		if (rec_strs_has(&in->shown, in->wanted.v[i], 0) ||
		    !(t = rec_catalog_field(kb->cat, kb->c_title,
		    in->wanted.v[i], strlen(in->wanted.v[i]))))
			continue;
		stage(&p->src, &p->nsrc, "rec-bm25", "-e", "-A", "-s", "title",
		    "-f", kb->c_title, "-k", "20", t, (char *)NULL);
		titled++;
		free(t);
	}
	for (i = 0; i < in->liked_creators.n && kb->has_bm25; i++) {
		stage(&p->src, &p->nsrc, "rec-bm25", "-e", "-s", "creator",
		    "-f", kb->c_creator, "-k", "100", in->liked_creators.v[i],
		    (char *)NULL);
		rec_buf_reset(&b);
		top_items(kb, in->liked_creators.v[i], &b);
		if (kb->has_knn && b.len)
			stage(&p->src, &p->nsrc, "rec-cf", "-e", "-k", "200",
			    "-l", b.data, (char *)NULL);
	}
	/* the creators of what the person liked before (in this
	 * conversation, or in their profile): more of theirs, as a weaker
	 * stream, when the request names no creator of its own */
	/* items near the ones liked before, by the catalog's vectors: a
	 * weak stream (weight 0.3) that mostly orders the others */
	if (in->boost.n && !in->liked_items.n && kb->dense_space) {
		rec_buf_reset(&b);
		for (i = 0; i < in->boost.n && i < 20; i++)
			rec_buf_printf(&b, "%s%s", i ? "," : "", in->boost.v[i]);
		stage(&p->src, &p->nsrc, "rec-dense", "-e", "-s", "near", "-S",
		    kb->dense_space, "-k", "100", "-l", b.data, (char *)NULL);
		near = 1;
		liked_streams++;
	}
	if ((in->boost.n || in->earlier_creators.n) &&
	    !in->liked_creators.n && kb->has_bm25 && kb->c_creator) {
		struct rec_strs cr = {0};
		/* and those named in earlier turns, unless turned down */
		for (i = 0; i < in->earlier_creators.n; i++)
			if (!rec_strs_has(&in->disliked_creators,
			    in->earlier_creators.v[i], 1))
				rec_strs_add(&cr, in->earlier_creators.v[i]);
		creators_of(kb, &in->boost, 6, &cr);
		for (i = 0; i < cr.n; i++) {
			stage(&p->src, &p->nsrc, "rec-bm25", "-e", "-s", "liked",
			    "-f", kb->c_creator, "-k", "50", cr.v[i],
			    (char *)NULL);
			liked_streams++;
		}
		rec_strs_free(&cr);
	}
	if ((in->tags.n || in->words.n) && kb->has_bm25) {
		for (i = 0; i < in->tags.n; i++)
			rec_buf_printf(&w, "%s%s", w.len ? " " : "",
			    in->tags.v[i]);
		for (i = 0; i < in->words.n; i++)
			rec_buf_printf(&w, "%s%s", w.len ? " " : "",
			    in->words.v[i]);
		stage(&p->src, &p->nsrc, "rec-bm25", "-k", "300", w.data, (char *)NULL);
	}
	/* the same words by meaning, where a server embedded the catalog */
	if ((in->tags.n || in->words.n) && kb->text_space &&
	    rec_llm_enabled()) {
		if (!w.len) {
			for (i = 0; i < in->tags.n; i++)
				rec_buf_printf(&w, "%s%s", w.len ? " " : "",
				    in->tags.v[i]);
			for (i = 0; i < in->words.n; i++)
				rec_buf_printf(&w, "%s%s", w.len ? " " : "",
				    in->words.v[i]);
		}
		stage(&p->src, &p->nsrc, "rec-dense", "-e", "-S", kb->text_space,
		    "-k", "100", "-t", w.data, (char *)NULL);
	}
	if (in->user && kb->has_knn)
		stage(&p->src, &p->nsrc, "rec-cf", "-e", "-k", "200", "-u",
		    in->user, (char *)NULL);
	/* constraints and unwanted creators */
	rec_buf_reset(&b);
	rec_intent_where(in, &b);
	for (i = 0; i < in->disliked_tags.n; i++) {
		size_t t;
		for (t = 0; t < kb->nc_tags; t++) {
			rec_buf_printf(&b, "%sNOT has(\"%s\", ", b.len ? " AND " :
			    "", kb->c_tags[t]);
			sql_str(&b, in->disliked_tags.v[i]);
			rec_buf_addc(&b, ')');
		}
	}
	for (i = 0; i < in->disliked_creators.n && kb->c_creator; i++) {
		rec_buf_printf(&b, "%scoalesce(\"%s\", '') <> ", b.len ?
		    " AND " : "", kb->c_creator);
		sql_str(&b, in->disliked_creators.v[i]);
	}
	if (!p->nsrc) {
		/* nothing to retrieve by: the catalog under the limits */
		stage(&p->src, &p->nsrc, "rec-sql", "-a", "-k", "300", "-w",
		    b.len ? b.data : "1", "-o", kb->c_pop ? kb->c_pop : "rowid",
		    (char *)NULL);
		if (kb->c_pop) {
			free(p->src[0].argv[p->src[0].argc - 1]);
			rec_buf_reset(&w);
			rec_buf_printf(&w, "\"%s\" DESC", kb->c_pop);
			p->src[0].argv[p->src[0].argc - 1] = xstrdup(w.data);
		}
	} else if (b.len)
		stage(&p->filt, &p->nfilt, "rec-sql", "-w", b.data, (char *)NULL);
	stage(&p->filt, &p->nfilt, "rec-rank", "-F", "rrf", (char *)NULL);
	/* the creators the request names come first: a person who asks
	 * for Rihanna wants Rihanna, not the songs whose titles share
	 * words with the rest of the message */
	if (in->liked_creators.n && kb->has_bm25 &&
	    p->nsrc > in->liked_creators.n) {
		arg(&p->filt[p->nfilt - 1], "-W");
		arg(&p->filt[p->nfilt - 1], "creator=2");
	}
	if (near) {
		arg(&p->filt[p->nfilt - 1], "-W");
		arg(&p->filt[p->nfilt - 1], "near=0.3");
	}
	/* the song asked for leads */
	if (titled && p->nsrc > (size_t)titled) {
		arg(&p->filt[p->nfilt - 1], "-W");
		arg(&p->filt[p->nfilt - 1], "title=2");
	}
	if (liked_streams && p->nsrc > liked_streams) {
		arg(&p->filt[p->nfilt - 1], "-W");
		arg(&p->filt[p->nfilt - 1], "liked=0.5");
	}
	rec_buf_reset(&b);
	for (i = 0; i < in->disliked_items.n; i++)
		rec_buf_printf(&b, "%s%s", b.len ? "," : "",
		    in->disliked_items.v[i]);
	for (i = 0; i < in->shown.n; i++)
		rec_buf_printf(&b, "%s%s", b.len ? "," : "", in->shown.v[i]);
	for (i = 0; i < in->liked_items.n; i++)
		if (!titled || !rec_strs_has(&in->wanted, in->liked_items.v[i], 0))
			rec_buf_printf(&b, "%s%s", b.len ? "," : "",
			    in->liked_items.v[i]);
	if (b.len) {
		arg(&p->filt[p->nfilt - 1], "-n");
		arg(&p->filt[p->nfilt - 1], b.data);
	}
	if (in->popular < 0 && kb->c_pop) {
		arg(&p->filt[p->nfilt - 1], "-N");
		arg(&p->filt[p->nfilt - 1], "0.5");
	} else if (in->popular > 0 && kb->c_pop) {
		rec_buf_reset(&b);
		rec_buf_printf(&b, ".score * (1 + (.item.%s // 0) / 50)",
		    kb->c_pop);
		arg(&p->filt[p->nfilt - 1], "-b");
		arg(&p->filt[p->nfilt - 1], b.data);
	}
	if (in->boost.n) {
		rec_buf_reset(&b);
		for (i = 0; i < in->boost.n && i < 20; i++)
			rec_buf_printf(&b, "%s%s", i ? "," : "", in->boost.v[i]);
		arg(&p->filt[p->nfilt - 1], "-l");
		arg(&p->filt[p->nfilt - 1], b.data);
		arg(&p->filt[p->nfilt - 1], "-L");
		arg(&p->filt[p->nfilt - 1], "0.2");
	}
	if (in->user) {
		arg(&p->filt[p->nfilt - 1], "-x");
		arg(&p->filt[p->nfilt - 1], in->user);
	}
	/* one record per song: the same song on two releases is one
	 * choice for the person, not two */
	if (kb->c_title && kb->c_creator) {
		arg(&p->filt[p->nfilt - 1], "-U");
		arg(&p->filt[p->nfilt - 1], "title,creator");
	}
	/* a request of words only is spread over creators; one that names
	 * creators, or follows creators liked before, wants more of theirs
	 * (capping them at two cost CPCD Hit@10 0.027) */
	if (kb->c_creator && !in->liked_creators.n && !liked_streams) {
		arg(&p->filt[p->nfilt - 1], "-D");
		arg(&p->filt[p->nfilt - 1], kb->c_creator);
		arg(&p->filt[p->nfilt - 1], "-p");
		arg(&p->filt[p->nfilt - 1], "2");
	}
	snprintf(num, sizeof num, "%d", in->k);
	arg(&p->filt[p->nfilt - 1], "-k");
	arg(&p->filt[p->nfilt - 1], num);
	rec_buf_free(&b);
	rec_buf_free(&w);
}

void
rec_plan_free(struct rec_plan *p)
{
	size_t i;
	int j;

	for (i = 0; i < p->nsrc; i++) {
		for (j = 0; j < p->src[i].argc; j++)
			free(p->src[i].argv[j]);
		free(p->src[i].argv);
	}
	for (i = 0; i < p->nfilt; i++) {
		for (j = 0; j < p->filt[i].argc; j++)
			free(p->filt[i].argv[j]);
		free(p->filt[i].argv);
	}
	free(p->src);
	free(p->filt);
	free(p->ask);
	memset(p, 0, sizeof *p);
}

void
rec_shell_quote(struct rec_buf *b, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-_.,/:=@%+") == strlen(s)) {
		rec_buf_adds(b, s);
		return;
	}
	rec_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			rec_buf_adds(b, "'\\''");
		else
			rec_buf_addc(b, *s);
	}
	rec_buf_addc(b, '\'');
}

static void
shell_stage(struct rec_buf *b, const struct rec_stage *s)
{
	int j;

	for (j = 0; j < s->argc; j++) {
		if (j)
			rec_buf_addc(b, ' ');
		rec_shell_quote(b, s->argv[j]);
	}
}

void
rec_plan_shell(struct rec_buf *b, const struct rec_plan *p)
{
	size_t i;

	if (p->ask)
		return;
	if (p->nsrc > 1)
		rec_buf_adds(b, "{ ");
	for (i = 0; i < p->nsrc; i++) {
		shell_stage(b, &p->src[i]);
		if (p->nsrc > 1)
			rec_buf_adds(b, " < /dev/null; ");
		else
			rec_buf_adds(b, " < /dev/null");
	}
	if (p->nsrc > 1)
		rec_buf_adds(b, "}");
	for (i = 0; i < p->nfilt; i++) {
		rec_buf_adds(b, " | ");
		shell_stage(b, &p->filt[i]);
	}
}

static void
json_stages(struct rec_buf *b, const struct rec_stage *s, size_t n)
{
	size_t i;
	int j;

	rec_buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		rec_buf_adds(b, i ? ",[" : "[");
		for (j = 0; j < s[i].argc; j++) {
			if (j)
				rec_buf_addc(b, ',');
			rec_json_string(b, s[i].argv[j], strlen(s[i].argv[j]));
		}
		rec_buf_addc(b, ']');
	}
	rec_buf_addc(b, ']');
}

void
rec_plan_json(struct rec_buf *b, const struct rec_plan *p)
{
	rec_buf_adds(b, "{\"sources\":");
	json_stages(b, p->src, p->nsrc);
	rec_buf_adds(b, ",\"filters\":");
	json_stages(b, p->filt, p->nfilt);
	rec_buf_adds(b, ",\"ask\":");
	if (p->ask)
		rec_json_string(b, p->ask, strlen(p->ask));
	else
		rec_buf_adds(b, "null");
	rec_buf_addc(b, '}');
}
