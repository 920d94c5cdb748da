/*
 * spell.c: a word misspelt that the catalog's topics say it stands
 * for ("its CHRISMAS SEASON", "some accoustic songs"): a word may be
 * put right to one of the catalog's common one-word tags, by a slip of
 * the hand (a letter left out, one too many, two swapped); it is left
 * as written when the catalog or the lexicon knows it, or the titles
 * use it near as often as the tag.  A slip in a long word of no meaning
 * ("awsome") is put right to it, unless the catalog uses the word as
 * written (a name, a title's word, a tag of more than a few items).
 */
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* the words a misspelling may stand for, with how many items have
 * each: the catalog's one-word tags of five letters or more on one
 * item in 1000 or more */
static void
targets(struct rec_kb *kb)
{
	size_t i, k;

	if (kb->spell.vsize)
		return;
	kb->spell.vsize = sizeof(unsigned);
	for (i = 0; i < kb->tag.n; i++)
		if (kb->tag.keylen[i] >= 5 && !strchr(kb->tag.key[i], ' ') &&
		    rec_kb_tag_on(kb, i, 1000)) {
			k = rec_hash_put(&kb->spell, kb->tag.key[i],
			    kb->tag.keylen[i], NULL);
			((unsigned *)kb->spell.val)[k] = kb->tagcount[i];
		}
}

/* whether the catalog or the lexicon knows word i as it is written
 * (a tag, a word of one, a name, a word the lexicon reads there) */
static int
known(struct rec_kb *kb, const struct rec_words *ws, size_t i)
{
	const char *w = ws->w[i];
	size_t n = strlen(w), words;

	return rec_hash_get(&kb->tag, w, n) != (size_t)-1 ||
	    rec_hash_get(&kb->tagtok, w, n) != (size_t)-1 ||
	    rec_hash_get(&kb->creator, w, n) != (size_t)-1 ||
	    rec_lex_filler(w) || rec_lex_negation(w) ||
	    rec_concept_at(ws, i, &words) >= 0 || rec_kb_word_known(kb, w);
}

/* whether a is b with a letter left out, one too many or two
 * neighbours swapped: a slip of the hand, not another word ("quiet"
 * for "quite" is a swap, left to the test of use) */
static int
typo(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i = 0;

	while (i < an && i < bn && a[i] == b[i])
		i++;
	if (an + 1 == bn)
		return !strcmp(a + i, b + i + 1);
	if (an == bn + 1)
		return !strcmp(a + i + 1, b + i);
	return an == bn && i + 1 < an && a[i] == b[i + 1] &&
	    a[i + 1] == b[i] && !strcmp(a + i + 2, b + i + 2);
}

/* a slip in a long word of no meaning of its own ("awsome") */
static int
filler_typo(const char *w, const char *f)
{
	size_t n = strlen(f);

	return n >= 6 && typo(w, strlen(w), f, n);
}

/* whether w (n letters) is a word of a creator's name ("perfecto" of
 * Perfecto Allstarz); a scan, for the few words a slip may stand for */
static int
name_word(const struct rec_kb *kb, const char *w, size_t n)
{
	size_t i;
	const char *p;

	for (i = 0; i < kb->creator.n; i++)
		for (p = kb->creator.key[i]; (p = strstr(p, w)); p++)
			if ((p == kb->creator.key[i] || p[-1] == ' ') &&
			    (p[n] == ' ' || !p[n]))
				return 1;
	return 0;
}

/* the filler word w (six letters or more) is a slip of, when the
 * catalog has w at most as a rare tag: no word of a name or a title.
 * Shorter words are too often other words ("round", "tough"). */
static const char *
filler_slip(struct rec_kb *kb, const char *w, size_t n)
{
	const char *f;

	if (n < 6 || rec_kb_tag_on(kb, rec_hash_get(&kb->tag, w, n), 1000) ||
	    rec_hash_get(&kb->tword, w, n) != (size_t)-1 ||
	    rec_lex_filler(w) || rec_lex_negation(w))
		return NULL;
	f = rec_lex_filler_near(w, filler_typo);
	return f && !name_word(kb, w, n) ? f : NULL;
}

void
rec_words_spell(struct rec_kb *kb, struct rec_words *ws)
{
	unsigned *tw = kb->tword.val, *uses;
	size_t i, j;

	targets(kb);
	uses = kb->spell.val;
	for (i = 0; i < ws->n; i++) {
		const char *w = ws->w[i];
		size_t n = strlen(w), best = (size_t)-1, t, words;
		unsigned mine;
		const char *f;

		if (n < 4 || ws->quoted[i] || strspn(w,
		    "abcdefghijklmnopqrstuvwxyz") != n)
			continue;
		if ((f = filler_slip(kb, w, n)) && rec_concept_at(ws, i,
		    &words) < 0) {
			free(ws->w[i]);
			ws->w[i] = xstrdup(f);
			continue;
		}
		if (known(kb, ws, i))
			continue;
		t = rec_hash_get(&kb->tword, w, n);
		mine = t == (size_t)-1 ? 0 : tw[t];
		for (j = 0; j < kb->spell.n; j++) {
			const char *c = kb->spell.key[j];
			size_t cn = kb->spell.keylen[j];
			/* a word of four only with a letter left out
			 * ("metl"): one changed is too often another word */
			if (c[0] != w[0] || cn + 1 < n || cn > n + 1 ||
			    (n == 4 && cn != 5) || !typo(w, n, c, cn))
				continue;
			/* the most used */
			if (best == (size_t)-1 || uses[j] > uses[best])
				best = j;
		}
		/* the titles use the word as written near as often: a
		 * word of its own */
		if (best == (size_t)-1 || (unsigned long)mine * 20 >=
		    uses[best])
			continue;
		free(ws->w[i]);
		ws->w[i] = xstrndup(kb->spell.key[best], kb->spell.keylen[best]);
	}
}
