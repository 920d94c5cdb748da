/*
 * state.c: the conversation's state carried into a turn (InteRecAgent's
 * short-term profile): what was shown, seen, liked and turned down
 * stays; a facet the message sets replaces the old one; a new subject
 * replaces the old subject, whose liked items become earlier seeds.
 */
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* whether the turn names creators (liked or as models) or collections */
static int
names_some(const struct rec_intent *in)
{
	return in->liked_creators.n || in->similar.n || in->colls.n;
}

/* the subject of a turn: what it is about (items, creators, a genre) */
int
rec_intent_has_subject(const struct rec_intent *in)
{
	size_t i;
	int f;

	if (in->liked_items.n || names_some(in))
		return 1;
	for (i = 0; i < in->tags.n; i++) {
		rec_facet_split(in->tags.v[i], &f);
		if (f == REC_FACET_GENRE)
			return 1;
	}
	for (i = 0; i < in->need.n; i++) {
		rec_facet_split(in->need.v[i], &f);
		if (f == REC_FACET_GENRE)
			return 1;
	}
	return 0;
}

/* the facets this turn says something of */
static unsigned
facets_of(const struct rec_intent *in)
{
	const struct rec_strs *s[] = { &in->tags, &in->need, &in->prefer };
	unsigned set = 0;
	size_t i, j;
	int f, c;

	for (j = 0; j < 3; j++)
		for (i = 0; i < s[j]->n; i++) {
			rec_facet_split(s[j]->v[i], &f);
			set |= 1u << f;
		}
	for (c = 0; c < in->ncons; c++)
		set |= 1u << in->cons[c].facet;
	for (i = 0; i < in->concepts.n; i++) {
		const char *name = in->concepts.v[i];
		size_t k;
		if (!strncmp(name, "not:", 4))
			continue;
		for (k = 0; rec_concepts[k].name; k++)
			if (!strcmp(rec_concepts[k].name, name))
				set |= 1u << rec_concepts[k].facet;
	}
	return set;
}

/* whether the message turned down v ("genre:pop", "genre:hip
 * hop|rap"), one of its values a whole tag of a concept turned down or
 * a tag disliked ("nothing for dancing" is no turning down of pop,
 * though the party's tags have "dance pop") */
static int
down_whole(const struct rec_intent *in, const char *v)
{
	const char *p = rec_facet_split(v, NULL);
	size_t i, k, n;

	for (; *p; p += n + (p[n] == '|')) {
		n = strcspn(p, "|");
		for (i = 0; i < in->disliked_tags.n; i++)
			if (rec_listed(in->disliked_tags.v[i], p, n))
				return 1;
		for (i = 0; i < in->concepts.n; i++) {
			if (strncmp(in->concepts.v[i], "not:", 4))
				continue;
			for (k = 0; rec_concepts[k].name; k++)
				if (!strcmp(rec_concepts[k].name,
				    in->concepts.v[i] + 4) && rec_concepts[k].tags &&
				    rec_listed(rec_concepts[k].tags, p, n))
					return 1;
		}
	}
	return 0;
}

/* from's values of the facets not dropped, nor turned down by in ("no
 * horror" after "horror") */
static void
copy_facets(struct rec_strs *to, const struct rec_strs *from, unsigned drop,
    const struct rec_intent *in)
{
	size_t i;
	int f;

	for (i = 0; i < from->n; i++) {
		rec_facet_split(from->v[i], &f);
		if (!(drop & (1u << f)) && !down_whole(in, from->v[i]))
			rec_strs_add(to, from->v[i]);
	}
}

/* whether s names a concept the message turned down ("not so dark") */
static int
turned_down(const struct rec_intent *in, const char *v)
{
	size_t i, k;
	const char *name;

	for (i = 0; i < in->concepts.n; i++) {
		if (strncmp(in->concepts.v[i], "not:", 4))
			continue;
		name = in->concepts.v[i] + 4;
		if (!strcmp(name, v))
			return 1;
		for (k = 0; rec_concepts[k].name; k++)
			if (!strcmp(rec_concepts[k].name, name) &&
			    rec_concepts[k].tags && strstr(rec_concepts[k].tags,
			    rec_facet_split(v, NULL)))
				return 1;
	}
	return rec_strs_has(&in->disliked_tags, rec_facet_split(v, NULL), 1);
}

#define KEPT_MAX 3

/* The categories kept from an old subject (kept): when a new subject
 * (a genre, items, creators) replaces one that had categories ("something
 * Comedy", then "like Back to the Future"), what a good recommender
 * does is look first among those, not forget them: they become a weak
 * preference, and go on until the person changes the subject with a
 * word of change ("instead", "something different"), turns them down,
 * or makes a request of its own (with a mood, era or tempo of its own:
 * drop is all).  A category the new subject keeps to is no preference. */
static void
keep_from(struct rec_intent *in, const struct rec_strs *from)
{
	size_t i;
	int f;

	for (i = 0; i < from->n; i++) {
		rec_facet_split(from->v[i], &f);
		if (f == REC_FACET_GENRE && !turned_down(in, from->v[i]) &&
		    !rec_strs_has(&in->need, from->v[i], 1))
			rec_strs_add(&in->kept, from->v[i]);
	}
}

static void
keep_categories(struct rec_intent *in, const struct rec_intent *prev,
    unsigned drop, int same_subject)
{
	size_t i;

	if (in->fresh || in->popular == 3 || drop == ~0u)
		return;
	keep_from(in, &prev->kept);
	/* the old need goes on as it is, unless it was dropped */
	if (!same_subject && (drop & (1u << REC_FACET_GENRE)))
		keep_from(in, &prev->need);
	/* the three named last: a long conversation's old subjects fade */
	if (in->kept.n > KEPT_MAX) {
		size_t old = in->kept.n - KEPT_MAX;
		for (i = 0; i < old; i++)
			free(in->kept.v[i]);
		memmove(in->kept.v, in->kept.v + old, KEPT_MAX *
		    sizeof *in->kept.v);
		in->kept.n = KEPT_MAX;
	}
}

/* whether the turn's subject is only items the list showed ("more
 * like the first one") */
static int
shown_only(const struct rec_intent *in, const struct rec_intent *prev)
{
	size_t i;

	if (!in->liked_items.n || names_some(in))
		return 0;
	for (i = 0; i < in->liked_items.n; i++)
		if (!rec_strs_has(&prev->shown, in->liked_items.v[i], 0))
			return 0;
	return 1;
}

/* the genre values of in's tags and needs, each a whole value */
static void
genres_of(const struct rec_intent *in, struct rec_strs *out)
{
	size_t i, n;
	const char *p;
	char *v;
	int f;

	for (i = 0; i < in->tags.n; i++) {
		p = rec_facet_split(in->tags.v[i], &f);
		if (f == REC_FACET_GENRE)
			rec_strs_add(out, p);
	}
	for (i = 0; i < in->need.n; i++)
		for (p = rec_facet_split(in->need.v[i], &f); f ==
		    REC_FACET_GENRE && *p; p += n + (p[n] == '|')) {
			n = strcspn(p, "|");
			v = xstrndup(p, n);
			rec_strs_add(out, v);
			free(v);
		}
}

/* Whether the genre the message names narrows the one in force rather
 * than replacing it: most of the catalog's items of the new one are of
 * the old one too ("reggae", then "focus on Jamaica": 39 of the 41
 * items tagged jamaica are reggae), as a good recommender hears it.
 * Only for a subject made of genres alone, after a genre of tags only. */
static int
narrows(struct rec_kb *kb, const struct rec_intent *in,
    const struct rec_intent *prev)
{
	struct rec_strs now = {0}, old = {0};
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	size_t i;
	int yes = 0, f;

	if (in->liked_items.n || names_some(in) || in->fresh || !kb->nc_tags)
		return 0;
	/* a genre kept to (a category of the catalog) goes on as a
	 * preference anyway (keep_categories) */
	for (i = 0; i < prev->need.n; i++) {
		rec_facet_split(prev->need.v[i], &f);
		if (f == REC_FACET_GENRE)
			return 0;
	}
	genres_of(in, &now);
	genres_of(prev, &old);
	if (now.n && old.n) {
		rec_buf_adds(&sql, "SELECT count(*), coalesce(sum((");
		rec_kb_tags_sql(kb, &old, &sql);
		rec_buf_adds(&sql, ") > 0), 0) FROM items WHERE ");
		rec_kb_tags_sql(kb, &now, &sql);
		st = rec_catalog_prepare(kb->cat, sql.data, "a narrower genre");
		if (rec_catalog_step(kb->cat, st, "a narrower genre"))
			yes = sqlite3_column_int(st, 0) >= 3 &&
			    2 * sqlite3_column_int(st, 1) >
			    sqlite3_column_int(st, 0);
		sqlite3_reset(st);
	}
	rec_strs_free(&now);
	rec_strs_free(&old);
	rec_buf_free(&sql);
	return yes;
}

/* The state carried into this turn (InteRecAgent's short-term profile):
 * what was shown and named stays; a facet the message sets replaces the
 * old one, the others go on; a new subject (items, creators, a genre)
 * replaces the old subject, and with a facet of its own the old
 * request's facets too, unless it narrows the old genre (narrower);
 * "any genre" drops the genre. */
void
rec_intent_merge(struct rec_intent *in, const struct rec_intent *prev,
    int cont, int narrower)
{
	unsigned set = facets_of(in), drop;
	size_t i;
	int c, j;

	rec_strs_copy(&in->shown, &prev->shown);
	rec_strs_copy(&in->shown_keys, &prev->shown_keys);
	rec_strs_copy(&in->last, &prev->last);
	rec_strs_copy(&in->seen, &prev->seen);
	rec_strs_copy(&in->disliked_creators, &prev->disliked_creators);
	rec_strs_copy(&in->disliked_items, &prev->disliked_items);
	rec_strs_copy(&in->earlier_creators, &prev->liked_creators);
	rec_strs_copy(&in->earlier_creators, &prev->similar);
	rec_strs_copy(&in->earlier_creators, &prev->earlier_creators);
	/* "a different band": none of those before but the ones it names */
	for (i = 0; in->others && i < in->earlier_creators.n; i++)
		if (!rec_strs_has(&in->liked_creators, in->earlier_creators.v[i],
		    1) && !rec_strs_has(&in->similar, in->earlier_creators.v[i],
		    1))
			rec_strs_add(&in->other_than, in->earlier_creators.v[i]);
	if (!in->user && prev->user)
		in->user = xstrdup(prev->user);
	for (i = 0; i < prev->disliked_tags.n; i++)
		rec_strs_add(&in->disliked_tags, prev->disliked_tags.v[i]);
	/* a new subject replaces the old one; the items liked before stay
	 * as earlier seeds, weaker */
	rec_strs_copy(&in->earlier_items, &prev->earlier_items);
	if (cont || !rec_intent_has_subject(in) || narrower) {
		size_t own = in->liked_creators.n;
		rec_strs_copy(&in->liked_items, &prev->liked_items);
		/* "the same, by a different band": the creators so far
		 * show the way, and others play */
		rec_strs_copy(in->others ? &in->similar : &in->liked_creators,
		    &prev->liked_creators);
		in->carried = in->liked_creators.n - own;
		rec_strs_copy(&in->similar, &prev->similar);
		rec_strs_copy(&in->colls, &prev->colls);
		drop = set & ~(1u << REC_FACET_GENRE);
	} else {
		for (i = 0; i < prev->liked_items.n; i++)
			if (!rec_strs_has(&in->liked_items, prev->liked_items.v[i],
			    0) && !rec_strs_has(&in->wanted,
			    prev->liked_items.v[i], 0))
				rec_strs_add(&in->earlier_items,
				    prev->liked_items.v[i]);
		/* a new subject said with its own mood, era or tempo is a
		 * request of its own: nothing of the old one's goes on
		 * ("rock over 200 bpm", then "upbeat songs like Daft Punk
		 * from the last five years"); one of the items shown ("more
		 * like the first one") stays within the request */
		drop = set & ~(1u << REC_FACET_GENRE) ? ~0u :
		    1u << REC_FACET_GENRE;
		if (!set && in->pointed && shown_only(in, prev))
			drop = 0;
	}
	/* what the person turned down is no seed */
	for (i = 0; i < in->disliked_items.n; i++) {
		size_t j;
		for (j = 0; j < in->earlier_items.n; j++)
			if (!strcmp(in->earlier_items.v[j],
			    in->disliked_items.v[i])) {
				free(in->earlier_items.v[j]);
				in->earlier_items.v[j] =
				    in->earlier_items.v[--in->earlier_items.n];
				break;
			}
	}
	keep_categories(in, prev, drop, cont || !rec_intent_has_subject(in));
	if (cont)
		drop = 0;
	if (in->popular == 3) {	/* "any genre" */
		drop |= 1u << REC_FACET_GENRE;
		in->popular = 0;
	}
	/* what the message turned down goes */
	for (i = 0; i < prev->tags.n; i++) {
		int f;
		rec_facet_split(prev->tags.v[i], &f);
		if (!turned_down(in, prev->tags.v[i]) && !(drop & (1u << f)))
			rec_strs_add(&in->tags, prev->tags.v[i]);
	}
	copy_facets(&in->need, &prev->need, drop, in);
	copy_facets(&in->prefer, &prev->prefer, drop, in);
	for (i = 0; i < prev->concepts.n; i++) {
		size_t k;
		int f = REC_FACET_NONE, down = 0;
		const char *name = prev->concepts.v[i];
		for (k = 0; rec_concepts[k].name; k++)
			if (!strcmp(rec_concepts[k].name, name))
				f = rec_concepts[k].facet;
		for (k = 0; k < in->concepts.n; k++)
			down |= !strncmp(in->concepts.v[k], "not:", 4) &&
			    !strcmp(in->concepts.v[k] + 4, name);
		if (!down && !(drop & (1u << f)) && strncmp(name, "not:", 4))
			rec_strs_add(&in->concepts, name);
	}
	/* words of meaning belong to their message, unless it goes on */
	if (cont)
		rec_strs_copy(&in->words, &prev->words);
	/* a theme is a genre's name in a title ("Jailhouse Rock") or an
	 * occasion's ("Last Christmas"): it goes on with its facet, so
	 * the creators named after "an 80s Christmas playlist" are
	 * theirs for Christmas first */
	for (i = 0; i < prev->themes.n; i++) {
		struct rec_buf g = {0};
		int f;
		rec_buf_printf(&g, "genre:%s", prev->themes.v[i]);
		f = rec_strs_has(&prev->tags, g.data, 0) ? REC_FACET_GENRE :
		    REC_FACET_THEME;
		if ((!(drop & (1u << f)) || in->same_kind) &&
		    !turned_down(in, prev->themes.v[i])) {
			rec_strs_add(&in->themes, prev->themes.v[i]);
			if (in->same_kind && f == REC_FACET_GENRE)
				rec_strs_add(&in->tags, g.data);
		}
		rec_buf_free(&g);
	}
	for (c = 0; c < prev->ncons && in->ncons < REC_MAXC; c++) {
		int dup = 0, down = 0;
		size_t k;
		if (drop & (1u << prev->cons[c].facet))
			continue;
		for (k = 0; k < in->concepts.n; k++)
			down |= !strncmp(in->concepts.v[k], "not:", 4) &&
			    !strcmp(in->concepts.v[k] + 4, prev->cons[c].say);
		for (j = 0; j < in->ncons; j++)
			dup |= !strcmp(in->cons[j].col, prev->cons[c].col) &&
			    !strcmp(in->cons[j].op, prev->cons[c].op);
		if (!dup && !down)
			in->cons[in->ncons++] = prev->cons[c];
	}
	/* "popular" was said of the old subject */
	if (!in->popular && (cont || !rec_intent_has_subject(in)))
		in->popular = prev->popular;
	if (in->k == 10 && prev->k != 10 && cont)
		in->k = prev->k;
	/* "no harry potter, something similar": the subject turned down,
	 * what was shown last shows the way (the filters keep it out) */
	if (cont && !rec_intent_goes(in))
		for (i = 0; i < prev->last.n && i < 5; i++)
			rec_strs_add(&in->liked_items, prev->last.v[i]);
}

/* whether the turn says nothing new: chit-chat, thanks, "sounds good" */
int
rec_intent_nothing_new(const struct rec_intent *in)
{
	return !rec_intent_asks(in) && !in->ncons && !in->popular &&
	    !in->disliked_items.n && !in->disliked_creators.n &&
	    !in->disliked_tags.n && !in->seen.n && !in->need.n &&
	    !in->prefer.n && !in->similar.n && !in->concepts.n;
}

void
rec_intent_settle(struct rec_kb *kb, struct rec_intent *in,
    const struct rec_intent *prev, int cont)
{
	size_t i, j;

	/* "I like Troop only, more artists like them": a model, whose
	 * own songs are not the list */
	for (i = j = 0; i < in->liked_creators.n; i++)
		if (in->others && rec_strs_has(&in->similar,
		    in->liked_creators.v[i], 1))
			free(in->liked_creators.v[i]);
		else
			in->liked_creators.v[j++] = in->liked_creators.v[i];
	in->liked_creators.n = j;
	if (!prev)
		return;
	rec_intent_merge(in, prev, cont && !rec_intent_has_subject(in),
	    !cont && narrows(kb, in, prev));
}
