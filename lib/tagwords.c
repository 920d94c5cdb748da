/*
 * tagwords.c: the words rec-plan gives rec-bm25 for a list of tags (a
 * topic, a mood): a catalog's tag of several words as a phrase, the
 * words of others without the broad ones and the filler.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "converse.h"

/* whether word w[0..n) is a tag of a tenth of the items or more that
 * neither a tag of s nor a concept in force names */
static int
broad_tag(const struct rec_kb *kb, const struct rec_intent *in,
    const struct rec_strs *s, const char *w, size_t n)
{
	size_t i;

	if (!rec_kb_tag_on(kb, rec_hash_get(&kb->tag, w, n), 10))
		return 0;
	for (i = 0; i < s->n; i++) {
		const char *v = rec_facet_split(s->v[i], NULL);
		if (strlen(v) == n && !memcmp(v, w, n))
			return 0;
	}
	for (i = 0; i < in->concepts.n; i++)
		if (strlen(in->concepts.v[i]) == n &&
		    !memcmp(in->concepts.v[i], w, n))
			return 0;
	return 1;
}

/* whether p[0..n) names what is asked for ("songs" of "sad songs",
 * "music" of "house music"): alone it matches playlists by name */
static int
kind_word(const char *p, size_t n)
{
	static const char *const l[] = { "songs", "song", "music", "tracks",
	    "tunes", "movies", "movie", "films", "film", NULL };
	size_t i;

	for (i = 0; l[i]; i++)
		if (strlen(l[i]) == n && !memcmp(l[i], p, n))
			return 1;
	return 0;
}

/* whether w holds the word p[0..n) */
static int
has_word(const struct rec_buf *w, const char *p, size_t n)
{
	const char *q;

	for (q = w->len ? w->data : ""; *q; q += strcspn(q, " "), q += !!*q)
		if (strcspn(q, " ") == n && !memcmp(q, p, n))
			return 1;
	return 0;
}

/* the tag words of a list of "facet:word" entries, into w.  With kb, a
 * tag of several words that the catalog has whole is a phrase ("classic
 * country" in double quotes for rec-bm25: its words apart found
 * "classic rock" for country, and "Tom" of "Tom Hanks" Tom Jones), after
 * the words; the first entry (the request's own) keeps its words as well
 * when others follow.  Of a longer entry after the
 * first, a tag of a tenth of the items or more is not searched whole
 * ("classic rock" for oldies), and a word that is a broad tag ("rock"
 * of "christian rock", "pop" of "afro pop") is left out: alone it
 * matched the catalog's most popular rock for "gospel" */
void
rec_tag_words(const struct rec_kb *kb, const struct rec_intent *in,
    const struct rec_strs *s, struct rec_buf *w)
{
	struct rec_buf ph = {0};
	size_t i, n;

	for (i = 0; i < s->n; i++) {
		const char *v = rec_facet_split(s->v[i], NULL), *p;
		size_t t = kb && strchr(v, ' ') ? rec_hash_get(&kb->tag, v,
		    strlen(v)) : (size_t)-1;
		/* a phrase of the tags' own ("city pop") is one too */
		int two = t == (size_t)-1 && kb && strchr(v, ' ') &&
		    rec_hash_get(&kb->tagbi, v, strlen(v)) != (size_t)-1;
		if ((t != (size_t)-1 && (!i || !rec_kb_tag_on(kb, t, 10))) ||
		    two) {
			if (!ph.data || !strstr(ph.data, v))
				rec_buf_printf(&ph, "%s\"%s\"", ph.len ?
				    " " : "", v);
			/* the request's own beside others: its words too */
			if (!i && s->n > 1 && (!w->data || !strstr(w->data,
			    v)))
				rec_buf_printf(w, "%s%s", w->len ? " " : "",
				    v);
		} else if (kb && i && strchr(v, ' ')) {
			for (p = v; *p; p += n + !!p[n])
				if ((n = strcspn(p, " ")) && !broad_tag(kb, in,
				    s, p, n) && !has_word(w, p, n) &&
				    !kind_word(p, n))
					rec_buf_printf(w, "%s%.*s", w->len ?
					    " " : "", (int)n, p);
		} else if (!w->data || !strstr(w->data, v))
			rec_buf_printf(w, "%s%s", w->len ? " " : "", v);
	}
	if (ph.len)
		rec_buf_printf(w, "%s%s", w->len ? " " : "", ph.data);
	rec_buf_free(&ph);
}

/* the stretch (in->alts) genre v was named in this turn, or -1 */
static long
stretch_of(const struct rec_intent *in, const char *v)
{
	size_t k, vn = strlen(v);

	for (k = 0; k < in->alts.n; k++)
		if (!strncasecmp(in->alts.v[k], v, vn) &&
		    in->alts.v[k][vn] == '\t')
			return strtol(in->alts.v[k] + vn + 1, NULL, 10);
	return -1;
}

/* The genre and era tags of in, split into the alternatives named
 * ("hip hop or reggae", "country and soft rock"): the genres of one
 * stretch between conjunctions (in->alts) are one, the tags a concept
 * adds go with its name before them, those of earlier turns with the
 * first ("thriller please" after drama: drama thrillers, not one or the
 * other), an era goes with every one.  At most max groups into g;
 * returns how many. */
size_t
rec_tag_groups(const struct rec_intent *in, struct rec_strs *g, size_t max)
{
	long key[8], cur = -1, first = -1, s;
	size_t i, j, n = 0;
	int f;

	if (max > 8)
		max = 8;
	for (i = 0; i < in->tags.n && first < 0; i++) {
		const char *v = rec_facet_split(in->tags.v[i], &f);
		if (f == REC_FACET_GENRE)
			first = stretch_of(in, v);
	}
	for (i = 0; i < in->tags.n; i++) {
		const char *v = rec_facet_split(in->tags.v[i], &f);
		if (f != REC_FACET_GENRE)
			continue;
		if ((s = stretch_of(in, v)) >= 0)
			cur = s;
		else if (cur < 0)
			cur = first;
		for (j = 0; j < n && key[j] != cur; j++)
			;
		if (j == n && n < max)
			key[n++] = cur;
		rec_strs_add(&g[j < n ? j : n - 1], in->tags.v[i]);
	}
	for (i = 0; i < in->tags.n; i++) {
		rec_facet_split(in->tags.v[i], &f);
		if (f != REC_FACET_ERA)
			continue;
		if (!n)
			key[n++] = -1;
		for (j = 0; j < n; j++)
			rec_strs_add(&g[j], in->tags.v[i]);
	}
	return n;
}

/* whether s is about a theme or an occasion whose tags the catalog
 * has are all tags of few items (under one in fifty): such a tag is
 * what the request is about ("christmas" of "a funny christmas
 * movie"), not a colour of its genre as a mood is ("mellow" reggae) */
int
rec_tag_rare_theme(const struct rec_kb *kb, const struct rec_strs *s)
{
	size_t i, k;
	int n = 0, f;

	for (i = 0; i < s->n; i++) {
		const char *v = rec_facet_split(s->v[i], &f);
		if (f != REC_FACET_THEME)
			return 0;
		if ((k = rec_hash_get(&kb->tag, v, strlen(v))) == (size_t)-1)
			continue;
		if (rec_kb_tag_on(kb, k, 50))
			return 0;
		n++;
	}
	return n > 0;
}

void
rec_tag_values(const struct rec_kb *kb, const struct rec_strs *tags,
    struct rec_strs *vals)
{
	struct rec_buf f = {0};
	size_t i;

	for (i = 0; i < tags->n; i++) {
		const char *v = rec_facet_split(tags->v[i], NULL);
		rec_buf_reset(&f);
		rec_norm(&f, v, strlen(v));
		if (f.len && rec_hash_get(&kb->tag, f.data, f.len) !=
		    (size_t)-1)
			rec_strs_add(vals, f.data);
	}
	rec_buf_free(&f);
}
