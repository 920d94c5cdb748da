/*
 * context.c: the names a conversation has given.  A person answering a
 * list writes the names they see in it as they hear them ("yes! the
 * weekend, more of the weekend" after The Weeknd was shown), lowercase
 * and misspelt, with none of the evidence link.c asks of a name out of
 * nowhere.  A creator of an item shown or named before is that
 * evidence: words one edit from such a name (two past ten letters),
 * word by word, are that creator; "his songs", "more of her" are the
 * creator named last.  And the replies: a "yes" takes up what a reply
 * that showed nothing proposed; "more like that one" the one to three
 * items a reply showed.
 */
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* the catalog's keys of the creators prev showed or named, each once,
 * with the creator's index in kb */
static void
context_names(struct rec_kb *kb, const struct rec_intent *prev,
    struct rec_hash *keys)
{
	struct rec_strs cr = {0}, parts = {0};
	struct rec_buf n = {0};
	size_t i, j, k;

	keys->vsize = sizeof(size_t);

	rec_kb_creators_of(kb, &prev->shown, 500, &cr);
	rec_strs_copy(&cr, &prev->liked_creators);
	rec_strs_copy(&cr, &prev->similar);
	rec_strs_copy(&cr, &prev->earlier_creators);
	for (i = 0; i < cr.n; i++) {
		rec_strs_add(&parts, cr.v[i]);
		rec_name_parts(cr.v[i], 0, &parts);
		for (j = 0; j < parts.n; j++) {
			rec_buf_reset(&n);
			rec_norm(&n, parts.v[j], strlen(parts.v[j]));
			if (n.len && (k = rec_hash_get(&kb->creator, n.data,
			    n.len)) != (size_t)-1) {
				/* put first: it may move val */
				size_t at = rec_hash_put(keys, n.data, n.len,
				    NULL);
				((size_t *)keys->val)[at] = k;
			}
		}
		rec_strs_free(&parts);
	}
	rec_strs_free(&cr);
	rec_buf_free(&n);
}

/* the creator of keys the words g misspell, or (size_t)-1: a single
 * word keeps its first letter and is no everyday word */
static size_t
misspelt(const struct rec_kb *kb, const struct rec_hash *keys,
    const struct rec_buf *g, size_t nwords)
{
	int max = g->len >= 10 ? 2 : 1, best = max + 1, d;
	size_t i, found = (size_t)-1;

	/* a name of the catalog spelt right is link.c's to weigh ("Blonde",
	 * then "It's Blondie"), unless the one shown has ten times its
	 * items ("the weekend", one song, for The Weeknd, seventy) */
	size_t exact = rec_hash_get(&kb->creator, g->data, g->len);

	if (g->len < 5 || (nwords == 1 && rec_link_common(kb, g->data)))
		return found;
	for (i = 0; i < keys->n; i++) {
		size_t k = ((const size_t *)keys->val)[i];
		if ((nwords == 1 && keys->key[i][0] != g->data[0]) ||
		    (exact != (size_t)-1 && kb->ccount[k] < 10 *
		    kb->ccount[exact]))
			continue;
		d = rec_edit_distance(g->data, g->len, keys->key[i],
		    keys->keylen[i], max);
		if (d >= 1 && d < best && rec_kb_misspelling(g->data, g->len,
		    keys->key[i], keys->keylen[i])) {
			best = d;
			found = k;
		}
	}
	return found;
}

void
rec_link_pronoun(struct rec_kb *kb, struct rec_words *ws,
    struct rec_intent *in, const struct rec_intent *prev)
{
	static const char *const poss[] = { "his", "her", NULL };
	static const char *const noun[] = { "songs", "song", "music",
	    "stuff", "tracks", "track", "albums", "album", "work", "hits",
	    "movies", "films", "books", NULL };
	static const char *const verb[] = { "of", "by", "from", "like",
	    "love", "loved", "liked", "enjoy", NULL };
	const char *name;
	char *own = NULL;
	size_t i;

	/* a message that names someone speaks of them */
	if (in->liked_creators.n || in->disliked_creators.n || in->similar.n)
		return;
	/* "I know Yellow and Fix You, what else by them?": whose the
	 * items it names are; else the creator named last */
	if (kb->c_creator && (in->seen.n || in->liked_items.n))
		own = rec_catalog_field(kb->cat, kb->c_creator, in->seen.n ?
		    in->seen.v[0] : in->liked_items.v[0], strlen(in->seen.n ?
		    in->seen.v[0] : in->liked_items.v[0]));
	if (!own && (!prev || !prev->liked_creators.n))
		return;
	name = own ? own : prev->liked_creators.v[prev->liked_creators.n - 1];
	for (i = 0; i < ws->n; i++) {
		size_t n = 0;
		if (ws->used[i] && !(own && rec_words_at(ws, i, "them")))
			continue;
		if (rec_words_listed(poss, ws->w[i]) && i + 1 < ws->n &&
		    rec_words_listed(noun, ws->w[i + 1]))
			n = 2;
		/* "his older stuff", "her early songs" */
		else if (rec_words_listed(poss, ws->w[i]) && i + 2 < ws->n &&
		    !ws->cap[i + 1] && rec_words_listed(noun, ws->w[i + 2])) {
			ws->used[i + 2] = 1;
			n = 1;
		}
		else if ((rec_words_at(ws, i, "him") || rec_words_at(ws, i,
		    "her") || (own && rec_words_at(ws, i, "them"))) && i > 0 &&
		    rec_words_listed(verb, ws->w[i - 1]))
			n = 1;
		if (!n)
			continue;
		if (ws->neg[i] || ws->mode[i] == REC_LINK_DISLIKE) {
			rec_strs_add(&in->disliked_creators, name);
			rec_intent_said(in, "not by %s", name);
		} else if (!rec_strs_has(&in->liked_creators, name, 0)) {
			rec_strs_add(&in->liked_creators, name);
			rec_intent_said(in, "by %s", name);
		}
		ws->used[i] = 1;
		if (n == 2)
			ws->used[i + 1] = 1;
	}
	free(own);
}

/* A title the conversation showed or named, said again in lower case
 * ("not star wars, something similar", "more like the matrix"): as
 * plain as a title in quotes.  Not words of everyday speech alone ("the
 * one"), a common tag ("dance party") nor one word of the language
 * ("closer"). */
static void
context_titles(struct rec_kb *kb, struct rec_words *ws,
    const struct rec_intent *prev)
{
	const struct rec_strs *from[] = { &prev->shown, &prev->liked_items,
	    &prev->seen, &prev->disliked_items, &prev->earlier_items };
	struct rec_hash ids = {0};
	struct rec_buf g = {0};
	size_t i, j, n, k;

	for (i = 0; i < sizeof from / sizeof *from; i++)
		for (j = 0; j < from[i]->n; j++)
			rec_hash_put(&ids, from[i]->v[j], strlen(from[i]->v[j]),
			    NULL);
	for (n = 6; ids.n && n >= 1; n--)
		for (i = 0; i + n <= ws->n; i++) {
			if (!rec_words_ngram(ws, i, n, &g) || g.len < 5 ||
			    ws->clause[i + n - 1] != ws->clause[i] ||
			    (k = rec_hash_get(&kb->title, g.data, g.len)) ==
			    (size_t)-1 || rec_hash_get(&ids, kb->tid[k],
			    strlen(kb->tid[k])) == (size_t)-1 ||
			    rec_kb_tag_on(kb, rec_hash_get(&kb->tag, g.data,
			    g.len), 200) || (n == 1 && rec_kb_english(kb, g.data,
			    0)))
				continue;
			for (j = i; j < i + n && rec_link_common(kb, ws->w[j]);
			    j++)
				;
			for (j = j < i + n ? i : j; j < i + n; j++)
				ws->quoted[j] = 1;
		}
	rec_hash_free(&ids);
	rec_buf_free(&g);
}

void
rec_link_context(struct rec_kb *kb, struct rec_words *ws,
    struct rec_intent *in, const struct rec_intent *prev)
{
	struct rec_hash keys = {0};
	struct rec_buf g = {0};
	size_t i, j, n;

	if (prev && kb->c_title)
		context_titles(kb, ws, prev);
	if (!prev || !kb->c_creator)
		return;
	context_names(kb, prev, &keys);
	for (n = 3; keys.n && n >= 1; n--)
		for (i = 0; i + n <= ws->n; i++) {
			size_t k;
			if (!rec_words_ngram(ws, i, n, &g) ||
			    (k = misspelt(kb, &keys, &g, n)) == (size_t)-1)
				continue;
			/* everyday words all ("the weekend") are a name
			 * after a cue ("more of the weekend"), not in "songs
			 * for the weekend" */
			for (j = i; j < i + n && rec_link_common(kb, ws->w[j]);
			    j++)
				;
			if (j == i + n && !rec_link_cued(ws, i) && !(i > 0 &&
			    rec_words_at(ws, i - 1, "of")))
				continue;
			rec_link_add_creator(kb, ws, i, in, k);
			for (j = i; j < i + n; j++)
				ws->used[j] = 1;
		}
	rec_hash_free(&keys);
	rec_buf_free(&g);
}

/* the topic of src (its tags, categories and concepts) into dst */
static void
topic_copy(struct rec_intent *dst, const struct rec_intent *src)
{
	rec_strs_copy(&dst->tags, &src->tags);
	rec_strs_copy(&dst->need, &src->need);
	rec_strs_copy(&dst->prefer, &src->prefer);
	rec_strs_copy(&dst->concepts, &src->concepts);
}

/* "yes", "sure", "ok", "oh yes": the message opens with assent, after
 * an "oh" or "well" at most */
static int
assent(const struct rec_words *ws)
{
	static const char *const yes[] = { "yes", "yeah", "yea", "yep", "yup",
	    "ya", "yah", "sure", "ok", "okay", "absolutely", "definitely",
	    "certainly", "please", "ofc", "si", "oui", "ja", "sim", NULL };
	static const char *const intj[] = { "oh", "ohh", "well", "ah",
	    "hmm", NULL };
	size_t i = 0;

	if (ws->n > 1 && rec_words_listed(intj, ws->w[0]))
		i = 1;
	return (i < ws->n && rec_words_listed(yes, ws->w[i])) ||
	    rec_words_phrase(ws, i, "of course");
}

/* A "yes" to a reply that proposed without showing ("do you like
 * horror movies?", "I think you may enjoy another film by Kubrick",
 * "a drama as well?"): the categories, tags and creators named in its
 * sentences of taste are the message's; "you're old enough, aren't
 * you?" proposes nothing */
static void
take_offer(struct rec_kb *kb, const char *offer, struct rec_intent *in)
{
	static const char *const taste[] = { "like", "love", "enjoy",
	    "fan", "interested", "into", "want", "prefer", "recommend",
	    "suggest", "mood", "considered", "try", NULL };
	static const char *const you[] = { "you", "u", "ya", "your", "youre",
	    "youd", "youll", NULL };
	const char *p = offer;

	while (*p) {
		size_t n = strcspn(p, ".?!"), i;
		int t, y, h;
		char *sent = xstrndup(p, n);
		struct rec_words rw;
		struct rec_intent o;

		p += n;
		p += strspn(p, ".?!");
		rec_words_of(sent, &rw);
		free(sent);
		/* asked of the person ("do you like", "would you be into"),
		 * or "how about" */
		for (i = 0, t = y = h = 0; i < rw.n; i++) {
			t |= rec_words_listed(taste, rw.w[i]);
			y |= rec_words_listed(you, rw.w[i]);
			h |= i > 0 && rec_words_at(&rw, i, "about") &&
			    (rec_words_at(&rw, i - 1, "how") ||
			    rec_words_at(&rw, i - 1, "what"));
		}
		if (!(t && y) && !h) {
			rec_words_free(&rw);
			continue;
		}
		memset(&o, 0, sizeof o);
		o.k = 10;
		rec_words_names(kb, &rw);
		rec_link(kb, &rw, &o);
		topic_copy(in, &o);
		rec_strs_copy(&in->alts, &o.alts);
		rec_strs_copy(&in->liked_creators, &o.liked_creators);
		rec_strs_copy(&in->similar, &o.similar);
		rec_words_free(&rw);
		rec_intent_free(&o);
	}
}

void
rec_link_offer(struct rec_kb *kb, const struct rec_words *ws,
    struct rec_intent *in, const struct rec_intent *prev)
{
	if (prev && prev->offer.n && assent(ws))
		take_offer(kb, prev->offer.v[0], in);
}

/* "any other movies like that", "more like this one": what the last
 * reply showed, where it showed one to three, is the model ("I like
 * that" is a taste, "do you like it" a question; after "some
 * Metallica" it is more of them) */
void
rec_link_shown(struct rec_words *ws, struct rec_intent *in,
    const struct rec_intent *prev)
{
	static const char *const dem[] = { "that", "this", "it", "those",
	    "these", "them", NULL };
	static const char *const who[] = { "i", "we", "you", "u", "really",
	    "would", "do", "did", "dont", "didnt", "also", "they", NULL };
	size_t i, j;

	if (!prev || !prev->last.n || prev->last.n > 3 ||
	    prev->liked_creators.n || in->liked_items.n || in->similar.n ||
	    in->liked_creators.n)
		return;
	for (i = 0; i + 1 < ws->n; i++) {
		if (!rec_words_at(ws, i, "like") || ws->neg[i] ||
		    ws->mode[i] == REC_LINK_DISLIKE ||
		    !rec_words_listed(dem, ws->w[i + 1]) ||
		    (i > 0 && rec_words_listed(who, ws->w[i - 1])))
			continue;
		for (j = 0; j < prev->last.n; j++)
			rec_strs_add(&in->liked_items, prev->last.v[j]);
		/* within the request they answered */
		topic_copy(in, prev);
		rec_words_mark(ws, i, 2);
		rec_intent_said(in, "%s", "like what I showed");
		return;
	}
}
