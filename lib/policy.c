/*
 * policy.c: OMuleT's fixed policy, from a formatted intent to a plan of
 * rec tools (planout.c renders it).
 *
 * The policy, in order:
 *   liked items    -> rec-cf --like, rec-semid --like, rec-dense --like
 *                     (each when the catalog has what it needs)
 *   named creators -> rec-sql names() over the creator column, taken in
 *                     turn; as models, rec-cf and rec-dense on their
 *                     best-known items and their tags to rec-bm25
 *   albums named   -> rec-sql over the collection column
 *   tags and words -> rec-bm25 over the tag columns, rec-dense --text
 *                     over the catalog's text encoder
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

/* planout.c's, by their short names */
#define stage rec_stage_add
#define arg rec_stage_arg
#define weight rec_stage_weight

/* the words of a song's other takes, as a regular expression */
#define VERSION_WORDS "remix|live|acoustic|instrumental|karaoke|cover|" \
	"bootleg|rework"

/* whether the request names such a take ("acoustic versions") */
static int
wants_version(const struct rec_intent *in)
{
	static const char *const l[] = { "remix", "live", "acoustic",
	    "instrumental", "karaoke", "cover", "bootleg", "rework",
	    "version", NULL };
	const struct rec_strs *s[] = { &in->words, &in->themes, &in->concepts,
	    &in->tags };
	size_t i, j, k;

	for (k = 0; k < sizeof s / sizeof *s; k++)
		for (i = 0; i < s[k]->n; i++)
			for (j = 0; l[j]; j++)
				if (strstr(s[k]->v[i], l[j]))
					return 1;
	return 0;
}

/* a rec-bm25 stage over every tags column */
static void
tag_stage(struct rec_kb *kb, struct rec_plan *p, const char *src,
    const char *k, const char *query)
{
	size_t i;
	struct rec_stage *s;

	stage(&p->src, &p->nsrc, "rec-bm25", "-e", "-s", src, "-k", k,
	    (char *)NULL);
	s = &p->src[p->nsrc - 1];
	for (i = 0; i < kb->nc_tags; i++) {
		arg(s, "-f");
		arg(s, kb->c_tags[i]);
	}
	arg(s, "--");
	arg(s, query);
}

/* A stream src of the best known (order o, spread over creators) of
 * the categories cats ("a|b": any of them) within the conditions cond */
static void
cats_stage(struct rec_kb *kb, struct rec_plan *p, const char *src,
    const struct rec_buf *cond, const char *cats, const char *o)
{
	struct rec_buf w = {0}, ord = {0};

	rec_buf_add(&w, cond->data ? cond->data : "", cond->len);
	rec_buf_adds(&w, w.len ? " AND " : "");
	rec_kb_cat_sql(kb, cats, &w);
	rec_plan_spread(kb, o, cats, NULL, &ord);
	stage(&p->src, &p->nsrc, "rec-sql", "-a", "-s", src, "-k", "300",
	    "-w", w.data, "-o", ord.data, (char *)NULL);
	rec_buf_free(&w);
	rec_buf_free(&ord);
}

/* the name of the i-th stream of a kind: "topic", "topic2", ... */
static const char *
nth(char *b, size_t size, const char *kind, size_t i)
{
	if (i)
		snprintf(b, size, "%s%zu", kind, i + 1);
	else
		snprintf(b, size, "%s", kind);
	return b;
}

/* "WHEN (one of the tags of g) THEN i" of a CASE over the genres named
 * apart, appended to b */
static void
alt_case(struct rec_kb *kb, const struct rec_strs *g, size_t i,
    struct rec_buf *b)
{
	struct rec_strs vals = {0};

	rec_tag_values(kb, g, &vals);
	if (vals.n) {
		rec_buf_adds(b, b->len ? " WHEN (" : "CASE WHEN (");
		rec_kb_tags_sql(kb, &vals, b);
		rec_buf_printf(b, ") THEN %zu", i + 1);
	}
	rec_strs_free(&vals);
}

/* A stream of the items of the creators named, the names taken in
 * turn (the first item of each, then the second, ...), each creator's
 * own items before those it shares with others ("Sam & Dave" for Dave),
 * then in the order o */
static void
creators_stage(struct rec_kb *kb, struct rec_plan *p, const char *src,
    const char *k, const struct rec_strs *names, const char *o)
{
	struct rec_buf x = {0}, ord = {0};
	size_t n = names->n;

	rec_plan_names_sql(kb, names, &x);
	if (n > 1)
		rec_buf_printf(&ord, "row_number() OVER (PARTITION BY (%s - 1) "
		    "%% %zu ORDER BY %s > %zu, %s), (%s - 1) %% %zu", x.data, n,
		    x.data, n, o, x.data, n);
	else
		rec_buf_printf(&ord, "%s > 1, %s", x.data, o);
	stage(&p->src, &p->nsrc, "rec-sql", "-a", "-s", src, "-k", k, "-w",
	    x.data, "-o", ord.data, (char *)NULL);
	rec_buf_free(&x);
	rec_buf_free(&ord);
}

/* rec-cf's model where it is not the default ItemKNN */
static void
cf_model(const struct rec_kb *kb, struct rec_stage *st)
{
	if (strcmp(kb->cf_model, "itemknn")) {
		arg(st, "-m");
		arg(st, kb->cf_model);
	}
}

void
rec_plan_make(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_plan *p)
{
	struct rec_buf b = {0}, w = {0}, cond = {0}, o = {0}, seedcats = {0};
	struct rec_buf topic = {0}, ord = {0}, alt = {0};
	size_t nalt = 0;
	struct rec_strs byc = {0};
	char num[40];
	size_t i;
	int by = 0, similar = 0, prior = 0, titled = 0, liked = 0, meaning = 0;
	int named, theirs = 0, genre = 0, album = 0;
	int liked_creators = 0, prefer = 0, audience = 0, earlier = 0, kept = 0;
	int tagged = 0;
	int mood = 0, rare = 0, boost = 0, wordtags = 0, era = 0, measured;
	int subject = 0;
	int sources;
	size_t by_at;
	struct rec_stage st;

	memset(p, 0, sizeof *p);
	/* nothing to go on, not even what was liked before */
	if (!rec_intent_goes(in)) {
		p->ask = xstrdup("What are you in the mood for? An artist, a "
		    "title you like, a genre, a mood or a decade will do.");
		return;
	}
	/* the conditions every item must meet */
	rec_intent_where(in, &cond);
	rec_plan_need_where(kb, &in->need, &cond);
	/* tags turned down, except on the creators asked for by name
	 * (named is surer than a tag: "no hard rock" before "I love
	 * Queen!") */
	rec_buf_reset(&b);
	for (i = 0; i < in->disliked_tags.n; i++) {
		size_t t;
		const char *v = rec_facet_split(in->disliked_tags.v[i], NULL);
		for (t = 0; t < kb->nc_tags; t++) {
			rec_buf_printf(&b, "%sNOT has(\"%s\", ", b.len ?
			    " AND " : "", kb->c_tags[t]);
			rec_buf_sql(&b, v);
			rec_buf_addc(&b, ')');
		}
	}
	if (b.len && in->liked_creators.n && kb->c_creator) {
		rec_buf_printf(&cond, "%s(%s OR ", cond.len ? " AND " : "",
		    b.data);
		rec_plan_names_sql(kb, &in->liked_creators, &cond);
		rec_buf_addc(&cond, ')');
	} else if (b.len)
		rec_buf_printf(&cond, "%s%s", cond.len ? " AND " : "", b.data);
	for (i = 0; i < in->avoid.n && kb->c_creator; i++)
		if (!rec_strs_has(&in->liked_creators, in->avoid.v[i], 0) &&
		    !rec_strs_has(&in->similar, in->avoid.v[i], 0)) {
			rec_buf_printf(&cond, "%scoalesce(\"%s\", '') <> ",
			    cond.len ? " AND " : "", kb->c_creator);
			rec_buf_sql(&cond, in->avoid.v[i]);
		}
	/* what was turned down, alone or among several names */
	rec_plan_not_by(kb, &in->disliked_creators, &cond);
	/* "other artists": none by the creators named or liked before; "a
	 * different band": nor most of the last list's ("and other artists"
	 * often adds to it) */
	rec_plan_not_by(kb, &in->other_than, &cond);
	if (in->others > 1) {
		struct rec_strs last = {0}, cr = {0};
		rec_kb_creators_of(kb, &in->last, 10, &last);
		for (i = 0; i < last.n; i++)
			if (!rec_strs_has(&in->liked_creators, last.v[i], 1) &&
			    !rec_strs_has(&in->similar, last.v[i], 1))
				rec_strs_add(&cr, last.v[i]);
		rec_plan_not_by(kb, &cr, &cond);
		rec_strs_free(&last);
		rec_strs_free(&cr);
	}
	/* the same song under another id is a repeat, and a song named as
	 * a model is no answer ("songs like Uptown Funk": not its radio
	 * edit) */
	if (kb->c_title && kb->c_creator) {
		struct rec_strs keys = {0};
		rec_strs_copy(&keys, &in->shown_keys);
		for (i = 0; i < in->liked_items.n; i++)
			if (!rec_strs_has(&in->wanted, in->liked_items.v[i], 0) &&
			    rec_song_key_of(kb, in->liked_items.v[i],
			    strlen(in->liked_items.v[i]), &b))
				rec_strs_add(&keys, b.data);
		if (keys.n) {
			rec_buf_printf(&cond, "%ssongkey(\"%s\", 0) || "
			    "char(9) || songkey(\"%s\", 1) NOT IN (", cond.len ?
			    " AND " : "", kb->c_title, kb->c_creator);
			for (i = 0; i < keys.n; i++) {
				rec_buf_adds(&cond, i ? ", " : "");
				rec_buf_sql(&cond, keys.v[i]);
			}
			rec_buf_addc(&cond, ')');
		}
		rec_strs_free(&keys);
	}
	rec_plan_order_by(kb, in->popular == 2, &o);
	/* the items asked for by title, first */
	if (in->wanted.n) {
		rec_buf_reset(&b);
		rec_buf_adds(&b, "id IN (");
		for (i = 0; i < in->wanted.n; i++) {
			rec_buf_adds(&b, i ? ", " : "");
			rec_buf_sql(&b, in->wanted.v[i]);
		}
		rec_buf_addc(&b, ')');
		stage(&p->src, &p->nsrc, "rec-sql", "-a", "-s", "title", "-w",
		    b.data, (char *)NULL);
		titled = 1;
	}
	/* the items liked: items co-consumed with them, near them */
	if (in->liked_items.n) {
		rec_buf_reset(&b);
		for (i = 0; i < in->liked_items.n; i++)
			rec_buf_printf(&b, "%s%s", i ? "," : "",
			    in->liked_items.v[i]);
		if (kb->cf_model) {
			stage(&p->src, &p->nsrc, "rec-cf", "-e", "-k", "200",
			    "-l", b.data, (char *)NULL);
			cf_model(kb, &p->src[p->nsrc - 1]);
		}
		if (kb->semid_space)
			stage(&p->src, &p->nsrc, "rec-semid", "-S",
			    kb->semid_space, "-k", "100", "-l", b.data, (char *)NULL);
		if (kb->dense_space)
			stage(&p->src, &p->nsrc, "rec-dense", "-e", "-S",
			    kb->dense_space, "-k", "100", "-l", b.data,
			    (char *)NULL);
		if (kb->enc_space)
			stage(&p->src, &p->nsrc, "rec-dense", "-e", "-s", "text",
			    "-S", kb->enc_space, "-k", "100", "-l", b.data,
			    (char *)NULL);
		/* the same tags as them and their creators, and their
		 * categories preferred */
		rec_buf_reset(&w);
		rec_buf_reset(&seedcats);
		rec_kb_seed_tags(kb, &in->liked_items, 12, &w, &seedcats);
		for (i = 0; kb->c_creator && i < in->liked_items.n && i < 3;
		    i++) {
			char *cr = rec_catalog_field(kb->cat, kb->c_creator,
			    in->liked_items.v[i], strlen(in->liked_items.v[i]));
			if (cr)
				rec_strs_add(&byc, cr);
			free(cr);
		}
		for (i = 0; i < byc.n; i++)
			rec_kb_creator_tags(kb, byc.v[i], 6, &w);
		if (w.len && kb->has_bm25)
			tag_stage(kb, p, "liketags", "200", w.data);
		rec_strs_free(&byc);
	}
	/* items liked in earlier turns: weaker seeds */
	{
		size_t n = 0;
		rec_buf_reset(&b);
		for (i = in->earlier_items.n; i > 0 && n < 10; i--) {
			const char *id = in->earlier_items.v[i - 1];
			if (rec_strs_has(&in->liked_items, id, 0))
				continue;
			rec_buf_printf(&b, "%s%s", b.len ? "," : "", id);
			n++;
		}
		if (n && kb->cf_model) {
			stage(&p->src, &p->nsrc, "rec-cf", "-e", "-s", "earlier",
			    "-k", "200", "-l", b.data, (char *)NULL);
			cf_model(kb, &p->src[p->nsrc - 1]);
		}
		if (n && kb->enc_space)
			stage(&p->src, &p->nsrc, "rec-dense", "-e", "-s",
			    "earlier", "-S", kb->enc_space, "-k", "100", "-l",
			    b.data, (char *)NULL);
		earlier = n && (kb->cf_model || kb->enc_space);
	}
	/* the creators asked for: their stream goes here, made once the
	 * topic is known */
	by = in->liked_creators.n && kb->c_creator;
	by_at = p->nsrc;
	/* the albums asked for: their items first (a stream, not a
	 * condition: a misread album must not empty the list) */
	if (in->colls.n && kb->c_coll) {
		rec_buf_reset(&b);
		for (i = 0; i < in->colls.n; i++) {
			/* the name, with or without its article */
			rec_buf_printf(&b, "%snorm(\"%s\") LIKE ", i ? " OR " :
			    "", kb->c_coll);
			rec_buf_sql(&b, in->colls.v[i]);
			rec_buf_printf(&b, " || '%%' OR norm(\"%s\") LIKE 'the ' "
			    "|| ", kb->c_coll);
			rec_buf_sql(&b, in->colls.v[i]);
			rec_buf_adds(&b, " || '%'");
		}
		stage(&p->src, &p->nsrc, "rec-sql", "-a", "-s", "album", "-k",
		    "200", "-w", b.data, "-o", o.data, (char *)NULL);
		album = 1;
	}
	/* creators named as a model: others like them */
	for (i = 0; i < in->similar.n && kb->c_creator; i++) {
		rec_buf_reset(&b);
		rec_plan_top_items(kb, in->similar.v[i], 5, &b);
		/* the creator's own items leave the list later: what
		 * co-occurs a third as often as the best is no likeness */
		if (kb->cf_model && b.len) {
			stage(&p->src, &p->nsrc, "rec-cf", "-e", "-s", "similar",
			    "-k", "200", "-f", "0.3", "-l", b.data, (char *)NULL);
			cf_model(kb, &p->src[p->nsrc - 1]);
		}
		if (kb->enc_space && b.len)
			stage(&p->src, &p->nsrc, "rec-dense", "-e", "-s",
			    "similar", "-S", kb->enc_space, "-k", "100", "-l",
			    b.data, (char *)NULL);
		rec_buf_reset(&w);
		rec_kb_creator_tags(kb, in->similar.v[i], 8, &w);
		if (w.len && kb->has_bm25)
			tag_stage(kb, p, "similar", "300", w.data);
		similar = 1;
	}
	/* and a few of theirs: "I like X" is also a taste for X (unless
	 * X's items were asked for: a second stream of them would put X
	 * before the others asked for) */
	if (in->similar.n && kb->c_creator) {
		struct rec_strs th = {0};
		for (i = 0; i < in->similar.n; i++)
			if (!rec_strs_has(&in->liked_creators, in->similar.v[i],
			    1))
				rec_strs_add(&th, in->similar.v[i]);
		if (th.n) {
			creators_stage(kb, p, "theirs", "50", &th, o.data);
			theirs = 1;
		}
		rec_strs_free(&th);
	}
	/* the topic: tag words in the tag fields, the genres named apart
	 * from what moods and occasions mean in tags (one search would be
	 * about whichever has more words) */
	{
		/* each genre named its own search ("hip hop or ska": one
		 * would be about the one of more words) */
		struct rec_strs g[4] = {{0}}, m = {0};
		size_t ng = rec_tag_groups(in, g, 4);
		for (i = 0; i < in->tags.n; i++) {
			int f;
			rec_facet_split(in->tags.v[i], &f);
			if (f != REC_FACET_GENRE && f != REC_FACET_ERA)
				rec_strs_add(&m, in->tags.v[i]);
		}
		for (i = 0; i < ng; i++) {
			char name[32];
			/* the words of a genre kept to anyway left out: a
			 * search of the subject ("zombies" of "funny zombie
			 * movies") beside the topic's */
			struct rec_strs sub = {0};
			if (!subject && kb->has_bm25) {
				rec_strs_copy(&sub, &g[i]);
				rec_concepts_kept_anyway(kb, in, &sub);
			}
			if (sub.n && sub.n < g[i].n) {
				rec_buf_reset(&w);
				rec_tag_words(kb, in, &sub, &w);
				if (w.len) {
					tag_stage(kb, p, "subject", "300", w.data);
					subject = 1;
				}
			}
			rec_strs_free(&sub);
			rec_buf_reset(&w);
			rec_tag_words(kb, in, &g[i], &w);
			if (w.len && kb->has_bm25) {
				tag_stage(kb, p, nth(name, sizeof name, "topic",
				    i), "300", w.data);
				genre = 1;
			}
			/* and which one an item is of, for the prior */
			if (ng > 1)
				alt_case(kb, &g[i], i, &alt);
			rec_strs_free(&g[i]);
		}
		if (alt.len)
			rec_buf_adds(&alt, " END");
		nalt = ng;
		rec_buf_reset(&w);
		rec_tag_words(kb, in, &m, &w);
		if (w.len && kb->has_bm25) {
			tag_stage(kb, p, "mood", "300", w.data);
			mood = 1;
			rare = rec_tag_rare_theme(kb, &m);
		}
		rec_strs_free(&m);
	}
	if (in->themes.n && kb->has_bm25 && kb->c_title) {
		rec_buf_reset(&w);
		rec_tag_words(NULL, in, &in->themes, &w);
		stage(&p->src, &p->nsrc, "rec-bm25", "-e", "-s", "theme", "-f",
		    kb->c_title, "-k", "100", (char *)NULL);
		/* a theme of words: all of them in the title */
		if (in->themes.n == 1 && strchr(in->themes.v[0], ' '))
			arg(&p->src[p->nsrc - 1], "-A");
		else	/* "zombie movies": Zombieland */
			arg(&p->src[p->nsrc - 1], "-P");
		arg(&p->src[p->nsrc - 1], "--");
		arg(&p->src[p->nsrc - 1], w.data);
	}
	/* other words, by meaning (never a title search) */
	if (in->words.n && (kb->enc_space || (kb->text_space &&
	    rec_llm_enabled()))) {
		rec_buf_reset(&w);
		rec_tag_words(NULL, in, &in->words, &w);
		stage(&p->src, &p->nsrc, "rec-dense", "-e", "-s", "meaning", "-S",
		    kb->text_space && rec_llm_enabled() ? kb->text_space :
		    kb->enc_space, "-k", "200", "-t", w.data, (char *)NULL);
		meaning = 1;
	}
	/* and in the tags: people, places and subjects a tag names
	 * ("Kubrick" in "Stanley Kubrick") that no whole value matched */
	if (in->words.n && kb->has_bm25 && kb->nc_tags) {
		rec_buf_reset(&w);
		rec_tag_words(NULL, in, &in->words, &w);
		tag_stage(kb, p, "words", "200", w.data);
		wordtags = 1;
	}
	if (in->user && kb->cf_model) {
		stage(&p->src, &p->nsrc, "rec-cf", "-e", "-k", "200", "-u",
		    in->user, (char *)NULL);
		cf_model(kb, &p->src[p->nsrc - 1]);
	}
	/* what the person liked before (in this conversation, or in their
	 * profile): items near those, and more of their creators, as
	 * weaker streams */
	if (in->boost.n && !in->liked_items.n && kb->enc_space) {
		rec_buf_reset(&b);
		for (i = 0; i < in->boost.n && i < 20; i++)
			rec_buf_printf(&b, "%s%s", i ? "," : "", in->boost.v[i]);
		stage(&p->src, &p->nsrc, "rec-dense", "-e", "-s", "near", "-S",
		    kb->enc_space, "-k", "100", "-l", b.data, (char *)NULL);
		liked = 1;
	}
	if ((in->boost.n || in->earlier_creators.n) && !by && !similar &&
	    kb->c_creator && !in->others) {
		struct rec_strs cr = {0}, all = {0};
		for (i = 0; i < in->earlier_creators.n; i++)
			if (!rec_strs_has(&in->disliked_creators,
			    in->earlier_creators.v[i], 1))
				rec_strs_add(&cr, in->earlier_creators.v[i]);
		/* of the songs liked, the first name of each credit: a
		 * song by "Burna Boy, Ed Sheeran" is not a taste for Ed
		 * Sheeran's others */
		rec_kb_creators_of(kb, &in->boost, 6, &all);
		for (i = 0; i < all.n; i++) {
			struct rec_strs parts = {0};
			rec_name_parts(all.v[i], 0, &parts);
			rec_strs_add(&cr, parts.n ? parts.v[0] : all.v[i]);
			rec_strs_free(&parts);
		}
		rec_strs_free(&all);
		if (cr.n) {
			creators_stage(kb, p, "liked", "200", &cr, o.data);
			liked = liked_creators = 1;
		}
		rec_strs_free(&cr);
	}
	sources = (int)p->nsrc - titled + by;
	/* the topic's tags that are values of the catalog, as a condition:
	 * the prior is the topic's best-known items, not the catalog's */
	rec_buf_reset(&topic);
	{
		struct rec_strs vals = {0};
		int few = 1;
		for (i = 0; i < in->tags.n; i++) {
			int f0, c, numeric = 0, kept = 0;
			size_t k;
			const char *v = rec_facet_split(in->tags.v[i], &f0);
			struct rec_buf f = {0};
			size_t nd;
			/* a mood the catalog can measure ("sad": low
			 * valence) is kept by its numbers; its tags only
			 * guide */
			for (c = 0; c < in->ncons; c++)
				numeric |= in->cons[c].facet == f0;
			/* nor narrower than the categories kept to */
			for (nd = 0; nd < in->need.n; nd++) {
				int fn;
				rec_facet_split(in->need.v[nd], &fn);
				kept |= fn == f0;
			}
			if ((f0 != REC_FACET_GENRE && numeric) || kept)
				continue;
			rec_norm(&f, v, strlen(v));
			if (f.len && (k = rec_hash_get(&kb->tag, f.data,
			    f.len)) != (size_t)-1) {
				rec_strs_add(&vals, f.data);
				few &= !rec_kb_tag_on(kb, k, 200);
			}
			rec_buf_free(&f);
		}
		rec_kb_tags_sql(kb, &vals, &topic);
		/* a tag on few items ("tom hanks" on four films): the
		 * items liked with its best-known ones too */
		rec_buf_reset(&b);
		if (vals.n && few && kb->cf_model)
			rec_plan_where_items(kb, topic.data, 10, &b);
		if (b.len) {
			stage(&p->src, &p->nsrc, "rec-cf", "-e", "-s", "tagged",
			    "-k", "200", "-l", b.data, (char *)NULL);
			cf_model(kb, &p->src[p->nsrc - 1]);
			tagged = 1;
		}
		rec_strs_free(&vals);
	}
	/* the creators asked for: their items, those of the topic first
	 * ("christmas songs by the Eagles": theirs for Christmas before
	 * Hotel California), then the most popular */
	if (by) {
		rec_buf_reset(&b);
		rec_buf_reset(&w);
		rec_buf_add(&w, topic.data ? topic.data : "", topic.len);
		/* or whose title says it */
		for (i = 0; kb->c_title && i < in->themes.n; i++) {
			rec_buf_printf(&w, "%sinstr(' ' || norm(coalesce("
			    "\"%s\", '')) || ' ', ", w.len ? " OR " : "",
			    kb->c_title);
			rec_buf_adds(&w, "' ' || ");
			rec_buf_sql(&w, in->themes.v[i]);
			rec_buf_adds(&w, " || ' ') > 0");
		}
		if (w.len)
			rec_buf_printf(&b, "NOT (%s), ", w.data);
		rec_buf_adds(&b, o.data);
		creators_stage(kb, p, "creator", "200", &in->liked_creators,
		    b.data);
		/* where it was named, before the streams of the rest */
		st = p->src[p->nsrc - 1];
		memmove(p->src + by_at + 1, p->src + by_at, (p->nsrc - 1 -
		    by_at) * sizeof *p->src);
		p->src[by_at] = st;
	}
	/* with a topic to search, popularity reorders what the search
	 * found (a boost in rec-rank below); without one, the catalog
	 * under the conditions, most popular first, is the source */
	named = by || album || in->liked_items.n || in->similar.n;
	boost = kb->c_pop && kb->popmax > 0 && sources > 0 &&
	    (in->popular == 1 || (in->popular == 2 && named) ||
	    (topic.len && !named));
	/* "popular", "the best" beside what was named reorders what was
	 * found: a stream of the catalog's best-known would outweigh it
	 * (a creator's items are in their best order already) */
	if (!by && !album && !boost) {
		rec_buf_reset(&b);
		rec_buf_add(&b, cond.data ? cond.data : "", cond.len);
		if (topic.len)
			rec_buf_printf(&b, "%s(%s)", b.len ? " AND " : "",
			    topic.data);
		/* the categories kept to, "a|b|c", lead */
		rec_buf_reset(&w);
		for (i = 0; i < in->need.n; i++)
			rec_buf_printf(&w, "%s%s", w.len ? "|" : "",
			    rec_facet_split(in->need.v[i], NULL));
		/* the alternatives named in turn */
		rec_plan_spread(kb, o.data, w.len ? w.data : NULL, alt.len ?
		    alt.data : NULL, &ord);
		stage(&p->src, &p->nsrc, "rec-sql", "-a", "-s", "prior", "-k",
		    "300", "-w", b.len ? b.data : "1", "-o", ord.data,
		    (char *)NULL);
		prior = 1;
	}
	/* the critic found the topic short under the constraints ("cult
	 * classics from the 70s": no 70s film tagged cult): the
	 * best-known under them, a category kept to included ("old school
	 * hip hop": before 1990 and hip hop), fill the list after what
	 * matches; creators asked for ("90s songs by Madonna": hers from
	 * any decade) are relaxed first instead */
	if (in->fill && cond.len && !by && (!prior || topic.len)) {
		rec_plan_spread(kb, o.data, NULL, NULL, &ord);
		stage(&p->src, &p->nsrc, "rec-sql", "-a", "-s", "fill", "-k",
		    "300", "-w", cond.data, "-o", ord.data, (char *)NULL);
		p->fill = 1;
	}
	/* in a catalog without dates, a decade is a tag ("70s"): the
	 * genre of that decade is preferred too ("a 70's soul playlist"
	 * is no Beyonce) */
	rec_buf_reset(&b);
	rec_plan_era_sql(kb, in, &b);
	if (b.len) {
		rec_buf_reset(&w);
		rec_buf_printf(&w, "%s%s%s", cond.len ? cond.data : "",
		    cond.len ? " AND " : "", b.data);
	}
	for (i = 0; i < in->prefer.n; i++) {
		int f;
		const char *g = rec_facet_split(in->prefer.v[i], &f);
		char name[32];
		/* who it is for, and a mood's or a genre's categories,
		 * each a stream of its own ("country and rock": one
		 * after the other would rank rock's 301st) */
		cats_stage(kb, p, f == REC_FACET_AUDIENCE ? "audience" :
		    nth(name, sizeof name, "prefer", (size_t)prefer), &cond,
		    g, o.data);
		if (f == REC_FACET_AUDIENCE)
			audience = 1;
		else
			prefer++;
	}
	/* the genres kept to or preferred, of the decade */
	if (b.len) {
		struct rec_buf cats = {0};
		for (i = 0; i < in->need.n + in->prefer.n; i++) {
			int f;
			const char *g = rec_facet_split(i < in->need.n ?
			    in->need.v[i] : in->prefer.v[i - in->need.n], &f);
			if (f == REC_FACET_GENRE)
				rec_buf_printf(&cats, "%s%s", cats.len ? "|" :
				    "", g);
		}
		if (cats.len) {
			cats_stage(kb, p, "era", &w, cats.data, o.data);
			era = 1;
		}
		rec_buf_free(&cats);
	}

	/* the categories of an earlier subject: a weak preference */
	for (i = 0; i < in->kept.n; i++)
		if (!rec_strs_has(&in->need, in->kept.v[i], 1)) {
			cats_stage(kb, p, "kept", &cond, rec_facet_split(
			    in->kept.v[i], NULL), o.data);
			kept = 1;
		}
	if (seedcats.len)
		cats_stage(kb, p, "seedcats", &cond, seedcats.data, o.data);
	/* "sad songs by Adele": Adele's sad songs, not others' after
	 * them (from the mood's stream); a mood's measure narrows what
	 * was asked for */
	for (measured = in->mood_relaxed, i = 0; (int)i < in->ncons; i++)
		measured |= in->cons[i].facet != REC_FACET_ERA;
	if (by && p->nsrc > 1 && measured) {
		rec_buf_adds(&cond, cond.len ? " AND " : "");
		rec_plan_names_sql(kb, &in->liked_creators, &cond);
	}
	if (cond.len)
		stage(&p->filt, &p->nfilt, "rec-sql", "-w", cond.data,
		    (char *)NULL);
	stage(&p->filt, &p->nfilt, "rec-rank", "-F", "rrf", (char *)NULL);
	{
		struct rec_stage *r = &p->filt[p->nfilt - 1];
		if (titled)
			weight(r, "title", 4);
		if (by)
			weight(r, "creator", 2);
		if (album)
			weight(r, "album", 2);
		/* popularity: all there is to go on, what was asked for,
		 * a weak hint beside items liked, half the topic's where a
		 * subject narrows the genre ("russian rap": the genre's
		 * best known had 6 of 10), and otherwise as much as the
		 * topic (a topic's best-known items first) */
		if (prior)
			weight(r, "prior", !sources ? 1 : in->popular > 0 ? 3 :
			    in->liked_items.n || in->similar.n ? 0.1 :
			    subject ? 0.5 :
			    (meaning || wordtags) && !in->tags.n &&
			    !in->need.n ? 0.2 :
			    in->tags.n && !topic.len && !in->need.n ? 0.3 : 1);
		if (p->fill)
			weight(r, "fill", 0.1);
		if (seedcats.len)
			weight(r, "seedcats", 0.5);
		if (earlier)
			weight(r, "earlier", 0.4);
		if (tagged)
			weight(r, "tagged", 0.2);
		/* a mood or an occasion leads when it is the topic; beside
		 * a genre or names it only colours the list */
		if (mood)
			weight(r, "mood", rare ? 1 : genre || named || liked ?
			    0.35 : 0.7);
		for (i = 0; i < (size_t)prefer; i++) {
			char name[32];
			weight(r, nth(name, sizeof name, "prefer", i), era ?
			    0.5 : 1.2);
		}
		if (era)
			weight(r, "era", 1.2);
		/* whom it is for guides, and decides over a mood's
		 * genres: a feel-good family night is no Pulp Fiction,
		 * however much a comedy */
		if (audience)
			weight(r, "audience", prefer ? 1.5 : 0.6);
		if (kept)
			weight(r, "kept", 0.5);
		if (meaning)
			weight(r, "meaning", sources > 1 ? 0.4 : 1);
		if (wordtags)
			weight(r, "words", sources > 1 ? 0.4 : 1);
		if (theirs)
			weight(r, "theirs", 0.3);
		/* the creators liked before, as much as a search of the
		 * topic (CPCD Hit@10 0.4888 at 0.5, 0.4918 at 1, 0.4908 at
		 * 1.5) */
		if (liked)
			weight(r, "liked", 1);
		if (liked)
			weight(r, "near", 0.3);
		if (in->liked_items.n) {
			weight(r, "text", 0.5);
			weight(r, "liketags", 0.5);
			/* rec-semid and rec-dense over the same space are
			 * two views of one likeness: half each, as much as
			 * items co-consumed ("songs like Uptown Funk" had
			 * five of ten that only sounded alike; simulated
			 * music users 0.920 both ways, 3.82 turns to 3.81) */
			weight(r, "semid", 0.5);
			weight(r, "dense", 0.5);
		}
		if (in->themes.n)
			weight(r, "theme", 0.5);
	}
	rec_buf_reset(&b);
	for (i = 0; i < in->disliked_items.n; i++)
		rec_buf_printf(&b, "%s%s", b.len ? "," : "",
		    in->disliked_items.v[i]);
	for (i = 0; i < in->shown.n; i++)
		rec_buf_printf(&b, "%s%s", b.len ? "," : "", in->shown.v[i]);
	for (i = 0; i < in->seen.n; i++)
		rec_buf_printf(&b, "%s%s", b.len ? "," : "", in->seen.v[i]);
	for (i = 0; i < in->earlier_items.n; i++)
		rec_buf_printf(&b, "%s%s", b.len ? "," : "",
		    in->earlier_items.v[i]);
	for (i = 0; i < in->liked_items.n; i++)
		if (!rec_strs_has(&in->wanted, in->liked_items.v[i], 0))
			rec_buf_printf(&b, "%s%s", b.len ? "," : "",
			    in->liked_items.v[i]);
	if (b.len) {
		arg(&p->filt[p->nfilt - 1], "-n");
		arg(&p->filt[p->nfilt - 1], b.data);
	}
	rec_buf_reset(&b);
	rec_buf_adds(&b, ".score");
	if (in->popular < 0 && kb->c_pop) {
		arg(&p->filt[p->nfilt - 1], "-N");
		arg(&p->filt[p->nfilt - 1], "0.5");
	} else if (boost) {
		/* the score times 1 + w log(1 + popularity), the log
		 * scaled to [0, 1]: the topic's best-known first */
		double wpop = in->popular > 0 ? 3 : 1;
		rec_buf_printf(&b, " * (1 + %g * ((((.item.\"%s\" // 0) "
		    "| if . < 0 then 0 else . end) + 1 | log) / %.6g))", wpop,
		    kb->c_pop, log(kb->popmax + 1));
		/* and times 1 + 2 log(releases) where the popularity is
		 * the creator's: a song on two releases counts 2.4 times
		 * one on one (CPCD Hit@10 0.462 without, 0.480 with; 1
		 * for 2 gave 0.478, 3 gave 0.482).  Where it is the
		 * song's, it knows already, and the factor only lifts
		 * the songs matching one word of the topic over those
		 * matching all ('classic soul from Motown' gave Van
		 * Halen and Journey, the topic's #65 and #118) */
		if (kb->c_releases && kb->pop_by_creator)
			rec_buf_printf(&b, " * (1 + 2 * ((.item.\"%s\" // 1) "
			    "| if . < 1 then 1 else . end | log))",
			    kb->c_releases);
	}
	/* a remix, a live or acoustic take after the title's dash or in
	 * its brackets counts 0.6: the song itself first, unless such
	 * takes were asked for (CPCD: 11% of the lists' songs, 7% of the
	 * playlists') */
	if (kb->c_title && kb->c_creator && !wants_version(in))
		rec_buf_printf(&b, " * (if ((.item.\"%s\" // \"\") | "
		    "test(\"[-(\\\\[].*\\\\b(%s)\\\\b\"; \"i\")) then 0.6 "
		    "else 1 end)", kb->c_title, VERSION_WORDS);
	rec_plan_worn(kb, in, &b);
	rec_plan_season(kb, in, &b);
	if (strcmp(b.data, ".score")) {
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
	/* spread over creators, unless the request is for some; the
	 * creators liked before keep four each (two cost CPCD Hit@10
	 * 0.027; four gained 0.001 over none, and "more like these" after
	 * two were liked shows both); an album is one's */
	if (kb->c_creator && !by && !in->colls.n) {
		arg(&p->filt[p->nfilt - 1], "-D");
		arg(&p->filt[p->nfilt - 1], kb->c_creator);
		arg(&p->filt[p->nfilt - 1], "-p");
		arg(&p->filt[p->nfilt - 1], liked_creators ? "4" : "2");
	}
	/* the genres named apart in turn */
	if (alt.len) {
		char name[32];
		rec_buf_reset(&b);
		for (i = 0; i < nalt; i++)
			rec_buf_printf(&b, "%s%s", i ? "," : "", nth(name,
			    sizeof name, "topic", i));
		arg(&p->filt[p->nfilt - 1], "-A");
		arg(&p->filt[p->nfilt - 1], b.data);
	}
	snprintf(num, sizeof num, "%d", in->k);
	arg(&p->filt[p->nfilt - 1], "-k");
	arg(&p->filt[p->nfilt - 1], num);
	rec_buf_free(&b);
	rec_buf_free(&w);
	rec_buf_free(&cond);
	rec_buf_free(&o);
	rec_buf_free(&seedcats);
	rec_buf_free(&topic);
	rec_buf_free(&ord);
	rec_buf_free(&alt);
}
