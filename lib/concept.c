/*
 * concept.c: the lexicon's concepts in a message and in the catalog's
 * terms: where a concept's words are, and what it adds to the intent
 * (its tags, the categories to keep to or prefer, its audio features).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* the items with the tag v (folded here), or with the first of the
 * categories "a|b" */
static size_t
tag_count(const struct rec_kb *kb, const char *v)
{
	struct rec_buf f = {0};
	size_t k;

	rec_norm(&f, v, strcspn(v, "|"));
	k = f.len ? rec_hash_get(&kb->tag, f.data, f.len) : (size_t)-1;
	rec_buf_free(&f);
	return k == (size_t)-1 ? 0 : kb->tagcount[k];
}

int
rec_listed(const char *alts, const char *w, size_t n)
{
	while (*alts) {
		size_t m = strcspn(alts, "|");
		if (m == n && !strncmp(alts, w, n))
			return 1;
		alts += m + (alts[m] == '|');
	}
	return 0;
}

static int
listed(const char *alts, const char *w)
{
	return rec_listed(alts, w, strlen(w));
}

/* the lexicon's concept c, grounded in the catalog (kb->ground[c]) */
void
rec_add_concept(struct rec_kb *kb, struct rec_intent *in, size_t c, int neg,
    const char *said)
{
	const struct rec_concept *x = &rec_concepts[c];
	const struct rec_ground *g = &kb->ground[c];
	const char *fn = rec_facet_name(x->facet), *p;
	struct rec_buf b = {0};
	size_t i, n;

	if (neg) {
		/* "no edm": what was said, if the catalog uses the word;
		 * else what the concept means here */
		int kind = said && x->kinds && listed(x->kinds, said);
		if (said && rec_kb_tag_known(kb, said))
			rec_strs_add(&in->disliked_tags, said);
		else if (!kind)
			for (i = 0; i < g->tags.n; i++)
				rec_strs_add(&in->disliked_tags, g->tags.v[i]);
		/* a narrower kind turned down ("no pixar") leaves the rest
		 * of the genre, and takes the kinds spelt like it with it
		 * ("nothing gangsta": gangster rap) */
		rec_buf_printf(&b, "not:%s", x->name);
		if (!kind)
			rec_strs_add(&in->concepts, b.data);
		else
			for (p = x->kinds; *p; p += n + (p[n] == '|')) {
				n = strcspn(p, "|");
				if (n >= 5 && strlen(said) >= 5 &&
				    !strncmp(p, said, 5) && !(n == strlen(said) &&
				    !strncmp(p, said, n))) {
					char *k = xstrndup(p, n);
					rec_strs_add(&in->disliked_tags, k);
					free(k);
				}
			}
		rec_intent_said(in, "no %s", said ? said : x->name);
		rec_buf_free(&b);
		return;
	}
	if (rec_strs_has(&in->concepts, x->name, 0))
		return;
	/* an era said outright is surer than a word of one ("emo from
	 * the 2000s, I'm feeling nostalgic": not the 80s' oldies) */
	for (i = 0; x->facet == REC_FACET_ERA && i < (size_t)in->ncons; i++)
		if (in->cons[i].facet == REC_FACET_ERA &&
		    strcmp(in->cons[i].say, "older"))
			return;
	rec_strs_add(&in->concepts, x->name);
	/* who it is for guides the choice where the catalog's categories
	 * say it (children's films); it is not the topic.  Where only tags
	 * say it ("kids songs"), they are the topic. */
	/* "a heist movie": a narrower kind said, where the catalog tags
	 * it, is the topic within the genre, not all of crime */
	if (said && x->kinds && listed(x->kinds, said) && tag_count(kb,
	    said)) {
		rec_buf_printf(&b, "%s:%s", fn, said);
		rec_strs_add(&in->tags, b.data);
	} else
	for (i = 0; (x->facet != REC_FACET_AUDIENCE || (!g->prefer &&
	    !g->need)) && i < g->tags.n; i++) {
		rec_buf_reset(&b);
		rec_buf_printf(&b, "%s:%s", fn, g->tags.v[i]);
		rec_strs_add(&in->tags, b.data);
	}
	/* a theme a title may carry, in the words the person used
	 * ("christmas", "dance party") */
	if (x->title)
		rec_strs_add(&in->themes, said ? said : x->name);
	if (g->need) {
		rec_buf_reset(&b);
		rec_buf_printf(&b, "%s:%s", fn, g->need);
		rec_strs_add(&in->need, b.data);
	}
	if (g->prefer) {
		rec_buf_reset(&b);
		rec_buf_printf(&b, "%s:%s", fn, g->prefer);
		rec_strs_add(&in->prefer, b.data);
	}
	for (i = 0; i < 3; i++)
		if (g->num[i]) {
			const char *col = x->num[i].col;
			if (!strcmp(col, "year") && kb->c_year)
				col = kb->c_year;
			rec_intent_cons(in, col, x->num[i].op, x->num[i].v,
			    x->name, x->facet);
		}
	rec_intent_said(in, "%s", x->name);
	rec_buf_free(&b);
}

/* the phrase in ph with its last word in the plural ("comedy":
 * "comedies"), or 0 when it ends in "s" already or in a short word */
static int
plural(struct rec_buf *ph)
{
	const char *last = strrchr(ph->data, ' ');
	size_t n = strlen(last ? last + 1 : ph->data);
	char e = ph->data[ph->len - 1], d = ph->len > 1 ?
	    ph->data[ph->len - 2] : 0;

	if (n < 3 || e == 's')
		return 0;
	if (e == 'y' && !strchr("aeiou", d)) {
		ph->len--;
		rec_buf_adds(ph, "ies");
	} else
		rec_buf_adds(ph, e == 'x' || (e == 'h' && (d == 'c' ||
		    d == 's')) ? "es" : "s");
	return 1;
}

/* the concepts whose words are at i, the longest phrase first: the
 * concept's index, and *n the words */
long
rec_concept_at(const struct rec_words *ws, size_t i, size_t *n)
{
	size_t c, best = 0;
	long found = -1;

	for (c = 0; rec_concepts[c].name; c++) {
		const char *p = rec_concepts[c].words;
		struct rec_buf ph = {0};
		while (*p) {
			size_t len = strcspn(p, "|"), k;
			rec_buf_reset(&ph);
			rec_buf_add(&ph, p, len);
			k = rec_words_phrase(ws, i, ph.data);
			/* "science fictions", "romances", "rom coms" */
			if (!k && plural(&ph))
				k = rec_words_phrase(ws, i, ph.data);
			if (k > best) {
				best = k;
				found = (long)c;
			}
			p += len;
			if (*p)
				p++;
		}
		rec_buf_free(&ph);
	}
	*n = best;
	return found;
}

/* whether the concept word at i is a verb of the sentence, not the
 * wish: "focus on Jamaica and Nigeria", "concentrate on the 90s" (a
 * name or a number after "on", fillers aside; "music to focus on at
 * work", "to focus on exams" keep it) */
int
rec_concept_verb(const struct rec_words *ws, size_t i, size_t n)
{
	size_t j = i + 2;

	if (n != 1 || !rec_words_at(ws, i + 1, "on"))
		return 0;
	while (j < ws->n && rec_lex_filler(ws->w[j]) && !ws->cap[j])
		j++;
	return j < ws->n && (ws->cap[j] || isdigit((unsigned char)
	    ws->w[j][0]));
}

/* "bluesy", "folky", "metallic": a word made of a category of the
 * catalog and a suffix of likeness ("-y", "-ic", "-ish"), a final
 * consonant doubled or not; the category (four letters or more, on
 * 0.5% of the items or more) into out, or 0 */
int
rec_kb_tag_stem(const struct rec_kb *kb, const char *w, struct rec_buf *out)
{
	static const char *const suffix[] = { "ic", "ish", "y", NULL };
	size_t n = strlen(w), k, len;
	int hard;

	for (k = 0; suffix[k]; k++) {
		size_t sl = strlen(suffix[k]);
		if (n < sl + 4 || strcmp(w + n - sl, suffix[k]))
			continue;
		for (len = n - sl; len >= 4; len--) {
			rec_buf_reset(out);
			rec_buf_add(out, w, len);
			if (rec_kb_category(kb, out->data, &hard))
				return 1;
			/* "metall-ic", "jazz-y": once more without the
			 * doubled consonant */
			if (len < n - sl || w[len - 1] != w[len - 2])
				break;
		}
	}
	rec_buf_reset(out);
	return 0;
}

/* whether the category v is among the "facet:a|b" entries of l */
static int
among(const struct rec_strs *l, const char *v)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (listed(rec_facet_split(l->v[i], NULL), v))
			return 1;
	return 0;
}

void
rec_concepts_not_categories(struct rec_kb *kb, struct rec_intent *in)
{
	size_t i;

	for (i = 0; i < in->concepts.n; i++) {
		const char *name = in->concepts.v[i];
		const struct rec_ground *g;
		const char *cats[2];
		size_t k;
		int c;
		if (strncmp(name, "not:", 4) || (c = rec_kb_concept(kb,
		    name + 4)) < 0)
			continue;
		g = &kb->ground[c];
		cats[0] = g->need;
		cats[1] = g->prefer;
		for (k = 0; k < 2; k++) {
			const char *p = cats[k];
			while (p && *p) {
				size_t m = strcspn(p, "|");
				char *v = xstrndup(p, m);
				if (!among(&in->need, v) && !among(&in->prefer, v))
					rec_strs_add(&in->disliked_tags, v);
				free(v);
				p += m + (p[m] == '|');
			}
		}
	}
}

/* whether v has one of the alternatives of need as a word of its own,
 * and more ("j-pop", "city pop": "pop") */
static int
narrower(const char *v, const char *need)
{
	size_t n, len = strlen(v);
	const char *p;

	for (; *need; need += n + (need[n] == '|')) {
		n = strcspn(need, "|");
		if (!n || len <= n)
			continue;
		for (p = v; p + n <= v + len; p++)
			if (!strncmp(p, need, n) && (p == v || p[-1] == ' ' ||
			    p[-1] == '-') && (p + n == v + len || p[n] == ' ' ||
			    p[n] == '-'))
				return 1;
	}
	return 0;
}

void
rec_concepts_narrower(struct rec_intent *in)
{
	size_t i, k, m;

	for (i = 0; i < in->need.n; i++) {
		struct rec_buf b = {0};
		const char *need = rec_facet_split(in->need.v[i], NULL);
		rec_buf_adds(&b, in->need.v[i]);
		for (k = 0; k < in->prefer.n; k++) {
			const char *p = rec_facet_split(in->prefer.v[k], NULL);
			for (; *p; p += m + (p[m] == '|')) {
				char *v = xstrndup(p, m = strcspn(p, "|"));
				if (narrower(v, need) && !listed(b.data, v))
					rec_buf_printf(&b, "|%s", v);
				free(v);
			}
		}
		free(in->need.v[i]);
		in->need.v[i] = xstrdup(b.data);
		rec_buf_free(&b);
	}
}

void
rec_concepts_kept_anyway(const struct rec_kb *kb, const struct rec_intent *in,
    struct rec_strs *g)
{
	struct rec_strs r = {0}, left = {0};
	struct rec_buf b = {0};
	size_t i, k;

	for (i = 0; i < in->concepts.n; i++) {
		int c = rec_kb_concept(kb, in->concepts.v[i]);
		const struct rec_ground *gr = c < 0 ? NULL : &kb->ground[c];
		const char *kinds = c < 0 ? NULL : rec_concepts[c].kinds;
		if (!gr || !gr->need)
			continue;
		/* the kinds are the concept's own tags too, unless one was
		 * said alone, without them */
		if (kinds && gr->tags.n) {
			rec_buf_reset(&b);
			rec_buf_printf(&b, "%s:%s", rec_facet_name(
			    rec_concepts[c].facet), gr->tags.v[0]);
			if (rec_strs_has(&in->tags, b.data, 0))
				kinds = NULL;
		}
		rec_buf_reset(&b);
		rec_buf_printf(&b, "%s:%s", rec_facet_name(
		    rec_concepts[c].facet), gr->need);
		/* not a narrower kind said ("heist" of crime) */
		for (k = 0; rec_strs_has(&in->need, b.data, 0) &&
		    k < gr->tags.n; k++)
			if (!kinds || !listed(kinds, gr->tags.v[k]))
				rec_strs_add(&r, gr->tags.v[k]);
	}
	rec_buf_free(&b);
	for (i = 0; r.n && i < g->n; i++)
		if (!rec_strs_has(&r, rec_facet_split(g->v[i], NULL), 0))
			rec_strs_add(&left, g->v[i]);
	if (left.n && left.n < g->n) {
		rec_strs_free(g);
		*g = left;
	} else
		rec_strs_free(&left);
	rec_strs_free(&r);
}
