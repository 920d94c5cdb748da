/*
 * parse.c: reading a message without a model into OMuleT's formatted
 * intent, and carrying the conversation's state from turn to turn.
 * The words (with their capitals, quotes, negations and the taste of
 * their clause) go through the rules here for what is not a name
 * (counts, eras, numbers, popularity, references to what was shown,
 * questions about the catalog), then through link.c for names, the
 * lexicon's concepts and tags.  The result is merged with the state of
 * the turn before (state.c): a message that changes one thing keeps the
 * rest.  words.c makes the words.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "converse.h"

static int
at(const struct rec_words *ws, size_t i, const char *w)
{
	return rec_words_at(ws, i, w);
}

static void
mark(struct rec_words *ws, size_t i, size_t n)
{
	rec_words_mark(ws, i, n);
}

/* the first of the phrases found anywhere (each "a b c"), marked used
 * when mark; its first word's index + 1, or 0 */
static size_t
phrase(struct rec_words *ws, const char *const *ph, int domark)
{
	size_t i, n;

	for (; *ph; ph++)
		for (i = 0; i < ws->n; i++)
			if ((n = rec_words_phrase(ws, i, *ph)) && !(ws->name &&
			    memchr(ws->name + i, 1, n))) {
				if (domark)
					mark(ws, i, n);
				return i + 1;
			}
	return 0;
}

static void
popularity(struct rec_kb *kb, struct rec_words *ws, struct rec_intent *in)
{
	static const char *const niche[] = { "not too mainstream",
	    "not mainstream", "nothing too mainstream", "nothing mainstream",
	    "not too popular", "not popular", "not so popular", "underground",
	    "obscure", "lesser known", "less known", "little known",
	    "hidden gems", "hidden gem", "deep cuts", "niche", "unknown",
	    "indie gems", "underrated", "under the radar", "poco conocidas",
	    "peu connues", "unbekannte", "nobody has heard of",
	    "no one has heard of", "nobody knows", "no one knows",
	    "never heard of", NULL };
	static const char *const best[] = { "best", "top rated",
	    "highest rated", "greatest", "masterpiece", "masterpieces",
	    "acclaimed", "critically acclaimed", "must see", "must watch",
	    "mejores", "meilleurs", "meilleures", "besten", "melhores", NULL };
	static const char *const pop[] = { "popular", "hits", "hit",
	    "mainstream", "famous", "chart", "charts", "well known",
	    "classics", "blockbuster", "blockbusters", "trending", "viral",
	    "populares", "populaires", "beliebte", "exitos", "tubes", NULL };
	size_t i;
	int found = 0;

	/* a negation would read "not popular" as a dislike: first; every
	 * phrase of it is used ("underground hip hop nobody has heard
	 * of") */
	for (i = 0; niche[i]; i++) {
		const char *one[] = { niche[i], NULL };
		struct rec_words *w = ws;
		size_t j, n;
		for (j = 0; j < w->n; j++)
			/* in quotes, a name's words ("6 Underground") */
			if (w->quoted[j])
				continue;
			else if ((n = rec_words_phrase(w, j, one[0])) ||
			    (j > 0 && w->used[j - 1] && rec_lex_negation(
			    w->w[j - 1]) && (n = 0))) {
				mark(w, j, n);
				if (!found)
					rec_intent_said(in, "%s",
					    "not too mainstream");
				in->popular = -1;
				found = 1;
			}
	}
	if (found)
		return;
	/* "not too mainstream" once the negation took "not" */
	for (i = 0; i < ws->n; i++)
		if (ws->neg[i] && !ws->used[i] && (at(ws, i, "mainstream") ||
		    at(ws, i, "popular") || (at(ws, i, "too") && at(ws, i + 1,
		    "mainstream")))) {
			mark(ws, i, at(ws, i, "too") ? 2 : 1);
			in->popular = -1;
			rec_intent_said(in, "%s", "not too mainstream");
			return;
		}
	if (phrase(ws, best, 1)) {
		in->popular = kb->c_rating || kb->c_pop ? 2 : 0;
		rec_intent_said(in, "%s", "the best");
	} else if (phrase(ws, pop, 1)) {
		in->popular = 1;
		rec_intent_said(in, "%s", "popular");
	}
}

/* A word on what was shown ("those are pretty songs", "that was
 * gorgeous"): the word judges the list, it names nothing */
static void
reaction(struct rec_words *ws)
{
	static const char *const subj[] = { "those", "these", "they", "that",
	    "this", "it", "its", "thats", "theyre", NULL };
	static const char *const verb[] = { "are", "were", "is", "was",
	    "sound", "sounds", "seem", "seems", "look", "looks", NULL };
	static const char *const more[] = { "so", "really", "very", "quite",
	    "pretty", "all", "some", "such", NULL };
	static const char *const what[] = { "songs", "song", "ones", "one",
	    "tracks", "picks", "choices", "suggestions", "movies", "films",
	    "recommendations", "tunes", NULL };
	static const char *const intj[] = { "oh", "yes", "yeah", "wow", "ok",
	    "okay", "well", "and", "but", "ah", "hmm", "great", "nice", "yep",
	    "so", NULL };
	size_t i, j;

	for (i = 0; i < ws->n; i++) {
		/* the clause's subject, after an "oh", "yes" at most */
		if (!rec_words_listed(subj, ws->w[i]) || (i > 0 &&
		    ws->clause[i - 1] == ws->clause[i] &&
		    !rec_words_listed(intj, ws->w[i - 1])) ||
		    (i > 1 && ws->clause[i - 2] == ws->clause[i]))
			continue;
		j = i + 1;
		/* "that's", "they're": the verb is in the word */
		if (j < ws->n && rec_words_listed(verb, ws->w[j]))
			j++;
		else if (!at(ws, i, "thats") && !at(ws, i, "theyre") &&
		    !at(ws, i, "its") && !at(ws, i, "it"))	/* "it's" */
			continue;
		/* "so pretty", "pretty good": an intensifier, unless it is
		 * the judging word itself ("pretty songs") */
		while (j + 1 < ws->n && rec_words_listed(more, ws->w[j]) &&
		    !rec_words_listed(what, ws->w[j + 1]))
			j++;
		if (j < ws->n && !ws->used[j] && (j + 1 == ws->n ||
		    rec_words_listed(what, ws->w[j + 1])))
			mark(ws, i, j - i + 1);
	}
}

/* "I have also watched X", "we saw X", "I've already seen X": a
 * person, up to three helping words, and a verb of having seen or heard
 * (not "heard of"); how many words that is, or 0 */
static size_t
seen_said(const struct rec_words *ws, size_t i)
{
	static const char *const who[] = { "i", "we", "ive", "weve", "id",
	    "they", "theyve", "he", "hes", "she", "shes", "kids", NULL };
	static const char *const help[] = { "have", "had", "also", "already",
	    "just", "recently", "both", "actually", "finally", "all", "even",
	    "did", "ve", NULL };
	static const char *const verb[] = { "seen", "saw", "watched",
	    "heard", "rewatched", NULL };
	size_t j;

	if (i >= ws->n || !rec_words_listed(who, ws->w[i]))
		return 0;
	for (j = i + 1; j < ws->n && j < i + 4 && rec_words_listed(help,
	    ws->w[j]); j++)
		;
	if (j >= ws->n || !rec_words_listed(verb, ws->w[j]) || at(ws, j + 1,
	    "of") || ws->clause[j] != ws->clause[i])
		return 0;
	return j - i + 1;
}

/* after "I've seen X", a word that says it was liked ("...and loved
 * it", "really likes that one") */
static int
liked_after(const struct rec_words *ws, size_t i)
{
	static const char *const good[] = { "loved", "liked", "likes",
	    "enjoyed", "adored", "great", "awesome", "amazing", "fantastic",
	    "favorite", "favourite", "brilliant", "excellent", NULL };

	for (; i < ws->n; i++)
		if ((rec_words_listed(good, ws->w[i]) && !ws->neg[i]) ||
		    ((at(ws, i, "love") || at(ws, i, "like")) && i > 0 &&
		    (at(ws, i - 1, "really") || at(ws, i - 1, "i")) &&
		    (at(ws, i + 1, "it") || at(ws, i + 1, "that") ||
		    at(ws, i + 1, "this") || at(ws, i + 1, "them"))))
			return 1;
	return 0;
}

/* a word that turns a clause round: what follows has a taste of its
 * own ("X was great but Y was boring", "I don't like X so put in Y":
 * "so" before a request, not "so boring") */
static int
contrast(const struct rec_words *ws, size_t i)
{
	static const char *const w[] = { "but", "though", "although",
	    "whereas", "however", "pero", "mais", "aber", NULL };
	static const char *const ask[] = { "lets", "let", "please", "put",
	    "add", "play", "give", "take", "can", "could", "i", "we", NULL };

	return rec_words_listed(w, ws->w[i]) || (rec_words_at(ws, i, "so") &&
	    i > 0 && i + 1 < ws->n && rec_words_listed(ask, ws->w[i + 1]));
}

/* the stretch of word i's clause between words of contrast: its first
 * word, and the word after its last */
static size_t
stretch_from(const struct rec_words *ws, size_t i)
{
	while (i > 0 && ws->clause[i - 1] == ws->clause[i] &&
	    !contrast(ws, i - 1))
		i--;
	return i;
}

static size_t
stretch_to(const struct rec_words *ws, size_t i)
{
	size_t j = i + 1;

	while (j < ws->n && ws->clause[j] == ws->clause[i] && !contrast(ws, j))
		j++;
	return j;
}

/* The taste of each clause, up to a word of contrast: "I loved X" (a
 * model), "X was boring", "not a fan of X", "I've seen X", "X, a little
 * too slow".  The taste words are said, not searched for. */
static void
tastes(struct rec_words *ws, struct rec_intent *in)
{
	static const char *const pos[] = { "i like", "i love", "i loved",
	    "i liked", "i enjoy", "i enjoyed", "i really like", "i really love",
	    "i really enjoyed", "im into", "i am into", "crazy about", "im a fan of",
	    "i am a fan of", "big fan of", "fan of", "i adore", "my favorite",
	    "my favourite", "i dig", "we like", "we love", "loved", "liked",
	    "enjoyed", "me gusta", "me gustan", "me encanta", "me encantan",
	    "jaime", "jadore", "ich mag", "ich liebe", "eu gosto", "adoro",
	    "eu amo", "they love", "they like", "they loved", "she loves",
	    "he loves", "she likes", "he likes", "kids love", NULL };
	static const char *const neg[] = { "not a fan of", "not a fan",
	    "not into", "hate", "hated", "dislike", "disliked", "dont like",
	    "didnt like", "do not like", "did not like", "cant stand",
	    "no me gusta", "no me gustan", "je deteste", "ich hasse",
	    "nao gosto", NULL };
	static const char *const seen[] = { "ive seen", "i have seen",
	    "i saw", "already seen", "seen it", "ive watched", "i watched",
	    "already watched", "ive heard", "already heard", "i know it",
	    "i know that song", "i know this song", "i know that one",
	    "i already know", "already know", "i already have",
	    "already have", "i already own", "already own",
	    "ive already seen", "i already saw", "ya vi", "deja vu", NULL };
	static const char *const be[] = { "is", "are", "was", "were", "its",
	    "thats", "theyre", "seems", "seem", "sounds", "sound", NULL };
	static const char *const little[] = { "a", "bit", "little", "way",
	    "just", "kinda", "kind", "of", "slightly", "somewhat", "much",
	    NULL };
	static const char *const much[] = { "much", "many", "few", "late",
	    "early", "soon", NULL };
	static const char *const list[] = { "and", "or", "nor", "already",
	    "too", "also", "both", "the", "a", "of", "y", "et", "und", "e",
	    NULL };
	static const char *const bad[] = { "boring", "bad", "awful",
	    "terrible", "sucked", "sucks", "meh", "overrated", "horrible",
	    "lame", "aburrida", "ennuyeux", "langweilig", NULL };
	size_t i, j, n, k;

	for (i = 0; i < ws->n; i++) {
		int mode;
		if (ws->used[i] && !(n = rec_words_not_liking(ws, i)))
			continue;
		mode = ws->used[i] ? REC_LINK_DISLIKE : -1;
		for (k = 0; neg[k] && mode < 0; k++)
			if ((n = rec_words_phrase(ws, i, neg[k])))
				mode = REC_LINK_DISLIKE;
		for (k = 0; seen[k] && mode < 0; k++)
			if ((n = rec_words_phrase(ws, i, seen[k])))
				mode = REC_LINK_SEEN;
		if (mode < 0 && (n = seen_said(ws, i)))
			mode = REC_LINK_SEEN;
		/* seen and liked: a taste, still never shown again */
		if (mode == REC_LINK_SEEN && liked_after(ws, i + n))
			mode = REC_LINK_LIKE;
		for (k = 0; pos[k] && mode < 0; k++)
			if ((n = rec_words_phrase(ws, i, pos[k])))
				mode = REC_LINK_LIKE;
		if (mode < 0) {
			/* "hate" et al. were taken as negations */
			if (ws->neg[i] && (at(ws, i, "hate") || at(ws, i,
			    "hated") || at(ws, i, "dislike")))
				mode = REC_LINK_DISLIKE, n = 1;
			else
				continue;
		}
		mark(ws, i, n);
		in->taste = mode == REC_LINK_LIKE ? 1 : mode == REC_LINK_DISLIKE ?
		    -1 : in->taste;
		for (j = i; j < stretch_to(ws, i); j++) {
			ws->mode[j] = (char)mode;
			/* the dislike is in the mode, not a negation */
			if (mode == REC_LINK_DISLIKE)
				ws->neg[j] = 0;
		}
	}
	/* "X was boring", "that was bad": the clause is a dislike */
	for (i = 1; i < ws->n; i++)
		for (k = 0; bad[k]; k++)
			if (at(ws, i, bad[k]) && !ws->used[i] && (at(ws, i - 1,
			    "was") || at(ws, i - 1, "is") || at(ws, i - 1, "were") ||
			    at(ws, i - 1, "its") || at(ws, i - 1, "thats") ||
			    at(ws, i - 1, "so") || at(ws, i - 1, "too") ||
			    at(ws, i - 1, "really") || at(ws, i - 1, "pretty"))) {
				for (j = stretch_from(ws, i); j < stretch_to(ws,
				    i); j++)
					ws->mode[j] = REC_LINK_DISLIKE;
				ws->used[i] = 1;
				in->taste = -1;
			}
	/* "X is a bit too twangy", "these are too slow": what the clause
	 * names before is turned down, and the word after "too" is
	 * what it should not be */
	for (i = 1; i + 1 < ws->n; i++) {
		if (!at(ws, i, "too") || ws->used[i] || ws->used[i + 1] ||
		    ws->clause[i + 1] != ws->clause[i] ||
		    rec_words_listed(much, ws->w[i + 1]))
			continue;
		for (j = i; j > 0 && ws->clause[j - 1] == ws->clause[i] &&
		    rec_words_listed(little, ws->w[j - 1]); j--)
			;
		/* "Judds, a little too twangy": the short clause before
		 * is what is turned down */
		if (j && ws->clause[j - 1] + 1 == ws->clause[i] &&
		    stretch_from(ws, j - 1) + 3 >= j)
			for (k = stretch_from(ws, j - 1); k < j; k++)
				ws->mode[k] = REC_LINK_DISLIKE;
		else if (!j || ws->clause[j - 1] != ws->clause[i] ||
		    !rec_words_listed(be, ws->w[j - 1]))
			continue;
		for (k = stretch_from(ws, i); k < i; k++)
			ws->mode[k] = REC_LINK_DISLIKE;
		ws->used[i] = 1;
		ws->neg[i + 1] = 1;
	}
	/* "no stupid comedy, like Napoleon Dynamite": an example of what
	 * was turned down, a clause opening with "like" or "such as" */
	for (i = 1; i < ws->n; i++) {
		if (ws->clause[i - 1] == ws->clause[i] || ws->used[i] ||
		    (ws->mode[i - 1] != REC_LINK_DISLIKE && !ws->neg[i - 1]) ||
		    (!at(ws, i, "like") &&
		    !rec_words_phrase(ws, i, "such as")))
			continue;
		for (j = i; j < ws->n && ws->clause[j] == ws->clause[i]; j++)
			ws->mode[j] = REC_LINK_DISLIKE;
		mark(ws, i, at(ws, i, "like") ? 1 : 2);
	}
	/* "I've seen Toy Story, Shrek and Up": a clause after a comma
	 * that is only names written with capitals, "and" and "or", goes
	 * on with the taste of the one before */
	for (i = 1; i < ws->n; i++) {
		size_t caps = 0;
		if (ws->clause[i - 1] == ws->clause[i] || !ws->comma[i] ||
		    ws->mode[i - 1] == REC_LINK_ASK)
			continue;
		for (j = i; j < ws->n && ws->clause[j] == ws->clause[i] &&
		    (ws->cap[j] || rec_words_listed(list, ws->w[j])); j++)
			caps += ws->cap[j] != 0;
		if (!caps || (j < ws->n && ws->clause[j] == ws->clause[i]))
			continue;
		for (k = i; k < j; k++)
			ws->mode[k] = ws->mode[i - 1];
	}
}

/* the creator of an item, in the catalog's spelling; caller frees */
static char *
creator_of(struct rec_kb *kb, const char *id)
{
	return rec_catalog_field(kb->cat, kb->c_creator, id, strlen(id));
}

/* References to what was shown: "the second one", "number 2", "the
 * last one", "the first film you said", "the one from 1999", "that
 * artist". */
static int
references(struct rec_kb *kb, struct rec_words *ws, struct rec_intent *in,
    const struct rec_intent *prev)
{
	static const char *const ord[] = { "first", "second", "third",
	    "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
	    NULL };
	static const char *const ordn[] = { "1st", "2nd", "3rd", "4th", "5th",
	    "6th", "7th", "8th", "9th", "10th", NULL };
	const struct rec_strs *list;
	size_t i, k;
	int hit = 0;

	if (!prev)
		return 0;
	list = prev->last.n ? &prev->last : &prev->shown;
	for (i = 0; i < ws->n; i++) {
		long n = -1;
		size_t used = 1;
		if (ws->used[i])
			continue;
		for (k = 0; ord[k]; k++)
			if (at(ws, i, ord[k]) || at(ws, i, ordn[k]))
				n = (long)k;
		if (at(ws, i, "last") && (at(ws, i + 1, "one") || at(ws, i + 1,
		    "song") || at(ws, i + 1, "movie") || at(ws, i + 1, "film")))
			n = (long)list->n - 1;
		if (at(ws, i, "number") && rec_words_num(ws, i + 1) >= 1 &&
		    rec_words_num(ws, i + 1) <= 50) {
			n = (long)rec_words_num(ws, i + 1) - 1;
			used = 2;
		}
		/* "the one from 1999" */
		if (at(ws, i, "one") && at(ws, i + 1, "from") &&
		    rec_words_num(ws, i + 2) >= 1900 && kb->c_year)
			for (k = 0; k < list->n && n < 0; k++) {
				char *y = rec_catalog_field(kb->cat, kb->c_year,
				    list->v[k], strlen(list->v[k]));
				if (y && atoi(y) ==
				    (int)rec_words_num(ws, i + 2)) {
					n = (long)k;
					used = 3;
				}
				free(y);
			}
		if (n < 0 || (size_t)n >= list->n)
			continue;
		if (ws->neg[i] || ws->mode[i] == REC_LINK_DISLIKE) {
			rec_strs_add(&in->disliked_items, list->v[n]);
			rec_intent_said(in, "not like the %s one", ord[n < 10 ?
			    n : 0]);
		} else if (ws->mode[i] == REC_LINK_SEEN)
			rec_strs_add(&in->seen, list->v[n]);
		else {
			rec_strs_add(&in->liked_items, list->v[n]);
			in->pointed = 1;
			if (used == 3)
				rec_intent_said(in, "like the one from %s",
				    ws->w[i + 2]);
			else
				rec_intent_said(in, "like the %s one", n < 10 ?
				    ord[n] : "chosen");
		}
		mark(ws, i, used);
		for (k = i + used; k < ws->n && k < i + used + 3; k++)
			if (at(ws, k, "one") || at(ws, k, "song") || at(ws, k,
			    "movie") || at(ws, k, "film") || at(ws, k, "you") ||
			    at(ws, k, "said") || at(ws, k, "mentioned") ||
			    at(ws, k, "showed"))
				ws->used[k] = 1;
		hit = 1;
	}
	/* "I didn't like any of those", "none of these": the whole list
	 * is turned down, and its creators with it */
	for (i = 0; i < ws->n && list->n; i++) {
		if (ws->used[i] || !(at(ws, i, "those") || at(ws, i, "these") ||
		    at(ws, i, "them")) || !(ws->neg[i] || ws->mode[i] ==
		    REC_LINK_DISLIKE || (i > 1 && at(ws, i - 1, "of") &&
		    at(ws, i - 2, "none"))))
			continue;
		for (k = 0; k < list->n; k++)
			rec_strs_add(&in->disliked_items, list->v[k]);
		in->others = 2;
		ws->used[i] = 1;
		rec_intent_said(in, "%s", "none of those");
		hit = 2;
		break;
	}
	/* "that artist", "the same band", "not that artist" */
	for (i = 1; i < ws->n; i++) {
		const char *focus;
		char *cr;
		if (ws->used[i] || !(at(ws, i, "artist") || at(ws, i, "band") ||
		    at(ws, i, "singer") || at(ws, i, "director") || at(ws, i,
		    "guy") || at(ws, i, "group")) || !(at(ws, i - 1, "that") ||
		    at(ws, i - 1, "this") || at(ws, i - 1, "same")))
			continue;
		ws->used[i] = ws->used[i - 1] = 1;
		if (prev->liked_creators.n && !prev->liked_items.n) {
			for (k = 0; k < prev->liked_creators.n; k++)
				rec_strs_add(ws->neg[i] ? &in->disliked_creators :
				    &in->liked_creators, prev->liked_creators.v[k]);
		} else {
			focus = prev->liked_items.n ?
			    prev->liked_items.v[prev->liked_items.n - 1] :
			    list->n ? list->v[0] : NULL;
			if (focus && (cr = creator_of(kb, focus))) {
				rec_strs_add(ws->neg[i] ? &in->disliked_creators :
				    &in->liked_creators, cr);
				free(cr);
			}
		}
		rec_intent_said(in, "%s", ws->neg[i] ? "not that artist" :
		    "that artist");
		hit = hit ? hit : 1;
	}
	return hit;
}

/* the first word of list at no name said as one ("like Slow Dance":
 * the name's), marked used; 1 when found, 2 when turned down ("not
 * so fast", "too slow") */
static int
word_of_meaning(struct rec_kb *kb, struct rec_words *ws,
    const char *const *list)
{
	size_t i, k, m;

	/* not the first word of a longer phrase of the lexicon's ("a slow
	 * dance") */
	for (i = 0; i < ws->n; i++)
		for (k = 0; list[k]; k++)
			if (!ws->used[i] && rec_words_phrase(ws, i, list[k]) &&
			    !rec_link_name_at(kb, ws, i) && !(rec_concept_at(ws,
			    i, &m) >= 0 && m >= 2)) {
				mark(ws, i, 1);
				return 1 + !!ws->neg[i];
			}
	return 0;
}

/* "slower", "faster": relative to what is being looked at */
static int
relative(struct rec_kb *kb, struct rec_words *ws, struct rec_intent *in)
{
	static const char *const slow[] = { "slower", "slow", "slow paced",
	    "lento", "lentas", "lent", "langsam", NULL }, *const fast[] = {
	    "faster", "fast", "fast paced", "up tempo", "uptempo",
	    "high tempo", "rapido", "rapidas", "rapide", "schnell", NULL };
	static const struct {
		const char *const *words, *op, *say, *concept;
		double tempo;
	} pace[] = { { slow, "<", "slower", "calm", 110 },
	    { fast, ">", "faster", "energetic", 125 } };
	size_t k, w;
	int hit = 0, c;

	/* the word is taken whether or not the catalog has a tempo;
	 * without one, what slow and fast mean in its tags; "too slow"
	 * (a word turned down) is the other way */
	for (w = 0; w < 2; w++) {
		if (!(c = word_of_meaning(kb, ws, pace[w].words)))
			continue;
		k = c == 2 ? 1 - w : w;
		if (kb->has_tempo) {
			rec_intent_cons(in, "tempo", pace[k].op, pace[k].tempo,
			    pace[k].say, REC_FACET_TEMPO);
			rec_intent_said(in, "%s", pace[k].say);
		} else if ((c = rec_kb_concept(kb, pace[k].concept)) >= 0)
			rec_add_concept(kb, in, (size_t)c, 0, pace[k].say);
		hit = 1;
	}
	return hit;
}

/* Questions about the catalog: "who sang X", "who directed X", "how
 * many songs does X have", "what year is X", "what genre is X".  The
 * subject is linked as a title (or a creator for how many); 1 when the
 * message is such a question. */
static int
question(struct rec_kb *kb, struct rec_words *ws, struct rec_intent *in)
{
	static const struct {
		const char *ph;
		int kind;
	} q[] = {
		{ "who sang", REC_Q_WHO }, { "who sings", REC_Q_WHO },
		{ "who performed", REC_Q_WHO }, { "who performs", REC_Q_WHO },
		{ "who made", REC_Q_WHO }, { "who wrote", REC_Q_WHO },
		{ "who recorded", REC_Q_WHO }, { "who is the artist of",
		REC_Q_WHO }, { "who did", REC_Q_WHO }, { "who plays",
		REC_Q_WHO }, { "quien canta", REC_Q_WHO }, { "qui chante",
		REC_Q_WHO }, { "wer singt", REC_Q_WHO },
		{ "who directed", REC_Q_DIRECTOR }, { "who is the director of",
		REC_Q_DIRECTOR }, { "who was the director of",
		REC_Q_DIRECTOR }, { "director of", REC_Q_DIRECTOR },
		{ "who starred in", REC_Q_DIRECTOR }, { "who is in",
		REC_Q_DIRECTOR }, { "quien dirigio", REC_Q_DIRECTOR },
		{ "how many", REC_Q_COUNT }, { "cuantas", REC_Q_COUNT },
		{ "cuantos", REC_Q_COUNT }, { "combien", REC_Q_COUNT },
		{ "wie viele", REC_Q_COUNT },
		{ "what year", REC_Q_YEAR }, { "when was", REC_Q_YEAR },
		{ "when did", REC_Q_YEAR }, { "which year", REC_Q_YEAR },
		{ "what genre", REC_Q_GENRE }, { "which genre", REC_Q_GENRE },
		{ "what kind of music is", REC_Q_GENRE },
		{ "what kind of movie is", REC_Q_GENRE },
		{ "what album", REC_Q_ALBUM }, { "which album", REC_Q_ALBUM },
		{ "what record", REC_Q_ALBUM }, { "que album", REC_Q_ALBUM },
		{ "quel album", REC_Q_ALBUM },
		{ NULL, 0 } };
	struct rec_buf g = {0};
	size_t i, k, n = 0, j, m;
	int kind = 0;

	for (k = 0; q[k].ph && !kind; k++)
		for (i = 0; i < ws->n && !kind; i++)
			if ((n = rec_words_phrase(ws, i, q[k].ph)) && (i == 0 ||
			    ws->clause[i] != ws->clause[i - 1] || at(ws, i - 1,
			    "and") || at(ws, i - 1, "tell") || at(ws, i - 1, "me")))
				kind = q[k].kind;
	if (!kind)
		return 0;
	i--;
	/* the subject: the longest title (or creator) after the words */
	for (m = ws->n - (i + n); m >= 1 && !in->subject; m--)
		for (j = i + n; j + m <= ws->n && !in->subject; j++) {
			size_t t;
			rec_buf_reset(&g);
			for (t = j; t < j + m; t++)
				rec_buf_printf(&g, "%s%s", t > j ? " " : "",
				    ws->w[t]);
			if (kind == REC_Q_COUNT) {
				t = rec_hash_get(&kb->creator, g.data, g.len);
				if (t != (size_t)-1 && !rec_lex_filler(g.data))
					in->subject = xstrdup(kb->cname[t]);
			} else {
				t = rec_hash_get(&kb->title, g.data, g.len);
				if (t != (size_t)-1 && !rec_lex_filler(g.data))
					in->subject = xstrdup(kb->tid[t]);
			}
		}
	if (!in->subject && kind != REC_Q_COUNT)
		/* misspelt: the closest title to what follows */
		for (m = ws->n - (i + n); m >= 1 && !in->subject; m--) {
			size_t t, j0 = i + n;
			rec_buf_reset(&g);
			for (t = j0; t < j0 + m && t < ws->n; t++)
				rec_buf_printf(&g, "%s%s", t > j0 ? " " : "",
				    ws->w[t]);
			if (g.len >= 6 && (t = rec_kb_closest(&kb->title, g.data,
			    g.len >= 12 ? 2 : 1)) != (size_t)-1)
				in->subject = xstrdup(kb->tid[t]);
		}
	rec_buf_free(&g);
	if (!in->subject)
		return 0;
	in->question = kind;
	mark(ws, 0, ws->n);
	/* what to show with the answer: the item and more by its
	 * creator, or the creator's best-known items */
	if (kind == REC_Q_COUNT)
		rec_strs_add(&in->liked_creators, in->subject);
	else {
		char *cr = creator_of(kb, in->subject);
		rec_strs_add(&in->wanted, in->subject);
		if (cr)
			rec_strs_add(&in->liked_creators, cr);
		else
			rec_strs_add(&in->liked_items, in->subject);
		free(cr);
	}
	return 1;
}

/* "more", "another", "something else", "keep going": go on with the
 * state as it is */
static int
more(struct rec_words *ws)
{
	static const char *const ph[] = { "more like that", "more like these",
	    "more like this", "more like them", "more of that", "more of those",
	    "more of these", "more of this", "more of them", "similar ones",
	    "something similar", "anything similar",
	    "another one", "another", "again", "keep going", "more please",
	    "something else", "anything else", "other ones", "some more",
	    "more", "mas", "plus", "encore", "mehr", "otra", "otro", "autre",
	    NULL };
	size_t i, n, k, m;

	/* "no more Pitbull" is a dislike, not "more"; "another artist"
	 * asks for others (rec_link); "more upbeat" changes the mood */
	for (k = 0; ph[k]; k++)
		for (i = 0; i < ws->n; i++)
			if ((n = rec_words_phrase(ws, i, ph[k])) && !(i > 0 &&
			    (at(ws, i - 1, "no") || at(ws, i - 1, "not") ||
			    at(ws, i - 1, "any"))) && !(i + n < ws->n &&
			    (rec_link_who(ws->w[i + n]) || at(ws, i + n,
			    "to") || (strlen(ph[k]) >= 4 && !strcmp(ph[k] +
			    strlen(ph[k]) - 4, "more") &&
			    rec_concept_at(ws, i + n, &m) >= 0)))) {
				mark(ws, i, n);
				return 1;
			}
	return 0;
}

/* "Hi wizard", "hey dj, ...": the one word after a greeting that opens
 * the message, ending its clause or followed by "I", is whom the person
 * addresses, not what they ask for (unless the two words are a name:
 * "Hey Jude") */
static void
address(struct rec_kb *kb, struct rec_words *ws)
{
	static const char *const greet[] = { "hi", "hey", "hello", "hiya",
	    "howdy", "yo", "greetings", "dear", "hola", "bonjour", "salut",
	    "hallo", "ola", "oi", NULL };
	static const char *const next[] = { "i", "im", "can", "could",
	    "would", "please", "pls", "how", "what", "lets", NULL };
	struct rec_buf g = {0};

	if (ws->n < 2 || !rec_words_listed(greet, ws->w[0]) || ws->used[1] ||
	    ws->clause[1] != ws->clause[0] || (ws->n > 2 && ws->clause[2] ==
	    ws->clause[1] && !rec_words_listed(next, ws->w[2])))
		return;
	rec_buf_printf(&g, "%s %s", ws->w[0], ws->w[1]);
	if (rec_hash_get(&kb->title, g.data, g.len) == (size_t)-1 &&
	    rec_hash_get(&kb->creator, g.data, g.len) == (size_t)-1)
		mark(ws, 1, 1);
	rec_buf_free(&g);
}

/* "not a typical christmas script", "not just rock": the thing is
 * one, of an unusual kind; the negation is none */
static void
atypical(struct rec_words *ws)
{
	static const char *const kind[] = { "typical", "usual", "ordinary",
	    "standard", "conventional", "average", "traditional", "just",
	    "only", "merely", NULL };
	static const char *const det[] = { "a", "an", "the", "your", "my",
	    "our", "so", "very", "exactly", NULL };
	size_t i, j;

	for (i = 1; i < ws->n; i++) {
		if (!ws->neg[i] || !rec_words_listed(kind, ws->w[i]))
			continue;
		for (j = i; j > 0 && ws->clause[j - 1] == ws->clause[i] &&
		    rec_words_listed(det, ws->w[j - 1]); j--)
			;
		if (!j || ws->clause[j - 1] != ws->clause[i] ||
		    !rec_lex_negation(ws->w[j - 1]))
			continue;
		mark(ws, i, 1);
		for (j = i; j < ws->n && ws->clause[j] == ws->clause[i] &&
		    ws->neg[j] && !rec_lex_negation(ws->w[j]); j++)
			ws->neg[j] = 0;
	}
}

/* "I don't like potty humor or stupid comedy": a kind of a genre
 * turned down is no dislike of the genre.  The word before it says
 * which kind when it is a tag or a word of the lexicon's itself
 * ("stupid", "romantic", "dark"), not a verb ("hate comedy"), and the
 * two are not one tag ("hard rock") */
static void
subkind(struct rec_kb *kb, struct rec_words *ws)
{
	static const char *const verb[] = { "hate", "like", "love", "enjoy",
	    "stand", "want", "need", "watch", "watching", "hear", "play",
	    "listen", "dislike", "mind", "any", "more", "much", "many",
	    "some", "fan", "by", NULL };
	struct rec_buf g = {0};
	size_t i, n;

	for (i = 1; i < ws->n; i++) {
		const char *a = ws->w[i - 1];
		if (!(ws->neg[i] || ws->mode[i] == REC_LINK_DISLIKE) ||
		    ws->used[i] || ws->used[i - 1] || ws->clause[i - 1] !=
		    ws->clause[i] || rec_lex_filler(a) ||
		    rec_lex_negation(a) || rec_words_listed(verb, a) ||
		    (ws->name && (ws->name[i] || ws->name[i - 1])) ||
		    (!rec_kb_tag_known(kb, ws->w[i]) &&
		    rec_concept_at(ws, i, &n) < 0) ||
		    (!rec_kb_tag_known(kb, a) && rec_concept_at(ws, i - 1,
		    &n) < 0))
			continue;
		rec_buf_reset(&g);
		rec_buf_printf(&g, "%s %s", a, ws->w[i]);
		if (rec_hash_get(&kb->tag, g.data, g.len) != (size_t)-1 ||
		    (rec_concept_at(ws, i - 1, &n) >= 0 && n > 1))
			continue;
		mark(ws, i, 1);
	}
	rec_buf_free(&g);
}

void
rec_intent_parse(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, struct rec_intent *in)
{
	struct rec_words ws;
	int cont, rel, none;
	size_t i;

	memset(in, 0, sizeof *in);
	in->k = 10;
	rec_words_of(message, &ws);
	rec_words_spell(kb, &ws);
	rec_words_names(kb, &ws);
	if (question(kb, &ws, in)) {
		if (prev)
			rec_intent_merge(in, prev, 1, 0);
		rec_words_free(&ws);
		return;
	}
	cont = prev && more(&ws);
	/* a word of change: the old subject's categories are not kept */
	in->fresh = phrase(&ws, (const char *const[]){ "instead", "rather",
	    "different", "change", "switch", "anymore", "any more",
	    "en cambio", "en lugar", "mejor", "plutot", "a la place",
	    "stattdessen", "lieber", "em vez", "ao inves", NULL }, 0) != 0;
	if (phrase(&ws, (const char *const[]){ "any genre", "all genres",
	    "any kind", "whatever genre", "every genre", "cualquier genero",
	    "nimporte quel genre", NULL }, 1))
		in->popular = 3;
	reaction(&ws);
	address(kb, &ws);
	/* when something happened ("saw it last night") is no mood */
	while (phrase(&ws, (const char *const[]){ "last night", "other night",
	    "last week", "last weekend", "anoche", "hier soir", "gestern abend",
	    "ontem a noite", "its friday", "its monday", "its saturday",
	    "its sunday", "finally friday", "tgif", "movie night",
	    "movie nights", "film night", NULL }, 1))
		;
	tastes(&ws, in);
	/* "it's a 90's classic" says what a thing named or shown is;
	 * with none yet, "it's Christmas season" is the wish's; a name
	 * the message writes as one is such a thing ("I watched Half
	 * Baked, I think it's a 90's classic") */
	if ((prev && (prev->shown.n || prev->earlier_items.n ||
	    prev->earlier_creators.n)) || (ws.name && memchr(ws.name, 1,
	    ws.n)))
		rec_words_describe(&ws);
	popularity(kb, &ws, in);
	/* "the one from 1999" before "from 1999" is read as an era */
	none = references(kb, &ws, in, prev) == 2;
	rec_parse_numbers(kb, &ws, in);
	rel = relative(kb, &ws, in);
	atypical(&ws);
	subkind(kb, &ws);
	rec_link_context(kb, &ws, in, prev);
	rec_link(kb, &ws, in);
	rec_link_pronoun(kb, &ws, in, prev);
	rec_link_shown(&ws, in, prev);
	rec_link_offer(kb, &ws, in, prev);
	/* nothing new at all ("Great!", "yes please"): go on */
	if (prev && !cont && !rel && rec_intent_nothing_new(in) &&
	    in->popular != 3)
		cont = 1;
	/* "now a serious, scary one": a word read just before "one" */
	for (i = 1; prev && i < ws.n; i++)
		in->same_kind |= (at(&ws, i, "one") || at(&ws, i, "ones")) &&
		    ws.used[i - 1] && !ws.used[i];
	rec_intent_settle(kb, in, prev, cont);
	/* "none of those": the creators so far do not show the way */
	if (none && !in->liked_creators.n)
		rec_strs_free(&in->similar);
	else if (in->popular == 3)
		in->popular = 0;
	if (cont)
		rec_intent_said(in, "%s", "more of the same");
	rec_concepts_not_categories(kb, in);
	rec_concepts_narrower(in);
	/* "how many documentaries do you have?": a count of what the rest
	 * asks for, and the list */
	for (i = 0; !in->question && i + 1 < ws.n; i++)
		if ((at(&ws, i, "how") && at(&ws, i + 1, "many")) ||
		    at(&ws, i, "cuantas") || at(&ws, i, "cuantos") ||
		    at(&ws, i, "combien"))
			in->question = in->need.n || in->ncons || in->tags.n ?
			    REC_Q_COUNT : 0;
	/* "what can you recommend?", "what should I watch tonight?",
	 * "surprise me" with nothing to go on: the best known, not a
	 * question back */
	if (!rec_intent_goes(in) && phrase(&ws, (const char *const[]){
	    "should i watch", "should we watch", "should i listen",
	    "should we listen", "should i hear", "should i play",
	    "what to watch", "what to listen", "surprise me", "surprise us",
	    "any good", "anything good", "something good", "whats good",
	    "good movies", "good films", "good songs", "good music",
	    "que ver", "que escuchar", "quoi regarder", "quoi ecouter", NULL },
	    0))
		in->popular = in->open = 1;
	for (i = 0; !rec_intent_goes(in) && i < ws.n; i++)
		if (rec_words_listed((const char *const[]){ "recommend",
		    "recommendation", "recommendations", "suggest",
		    "suggestion", "suggestions", "recomienda", "recomiendas",
		    "recomendar", "recommande", "recommander", "empfehlen",
		    "empfiehlst", "recomenda", NULL }, ws.w[i]))
			in->popular = in->open = 1;
	rec_words_free(&ws);
}
