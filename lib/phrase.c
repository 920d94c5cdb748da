/*
 * phrase.c: two words the catalog's tags say together.  A tag value
 * is often a phrase of several words (a playlist "City Pop 1985
 * シティーポップ", "Rock Ballads Forever"); two words that stand side by
 * side in the values of many items are a name of the catalog's for a
 * kind ("japanese city pop" is city pop, not pop and a city), though
 * no value is just those two words.
 */
#include <ctype.h>
#include <string.h>

#include "converse.h"

/* a word that may start or end a name of a kind: no filler, number,
 * negation, nor what is asked for ("pop songs", "rock playlist") */
static int
kind_word(const char *w)
{
	static const char *const asked[] = { "songs", "song", "music",
	    "tracks", "track", "hits", "playlist", "playlists", "tunes",
	    "movies", "movie", "films", "film", "shows", "books", "album",
	    "albums", "artists", "bands", "stuff", "mix", NULL };

	return strlen(w) >= 3 && !rec_lex_filler(w) && !rec_lex_negation(w) &&
	    !isdigit((unsigned char)w[0]) && !rec_words_listed(asked, w);
}

/* whether words i and i + 1 are a tag value, which goes first
 * ("classic rock ballads": classic rock, not rock ballads) */
static int
tag_of_two(const struct rec_kb *kb, const struct rec_words *ws, size_t i)
{
	struct rec_buf g = {0};
	int is = rec_words_ngram(ws, i, 2, &g) && rec_hash_get(&kb->tag,
	    g.data, g.len) != (size_t)-1;

	rec_buf_free(&g);
	return is;
}

int
rec_kb_two_common(const struct rec_kb *kb, const struct rec_words *ws,
    size_t i)
{
	size_t m;

	for (m = i; m < i + 2 && m < ws->n && rec_kb_tag_on(kb, rec_hash_get(
	    &kb->tag, ws->w[m], strlen(ws->w[m])), 1000); m++)
		;
	return m == i + 2;
}

int
rec_kb_tag_phrase(struct rec_kb *kb, const struct rec_words *ws, size_t i)
{
	struct rec_buf g = {0};
	/* on a thousandth of the items, three at least (music.db's "city
	 * pop": 100 of 28,000) */
	size_t k, m, least = kb->nitems / 1000 > 3 ? kb->nitems / 1000 : 3;
	int is = kb->tagbi.n && rec_words_ngram(ws, i, 2, &g) &&
	    kind_word(ws->w[i]) && kind_word(ws->w[i + 1]) &&
	    (k = rec_hash_get(&kb->tagbi, g.data, g.len)) != (size_t)-1 &&
	    ((unsigned *)kb->tagbi.val)[k] >= least &&
	    rec_hash_get(&kb->tag, g.data, g.len) == (size_t)-1;

	/* two common tags side by side are two ("classic soul");
	 * the lexicon's own phrase is its to read ("chill out") */
	if (is && (rec_kb_two_common(kb, ws, i) ||
	    (rec_concept_at(ws, i, &m) >= 0 && m >= 2) ||
	    (i > 0 && tag_of_two(kb, ws, i - 1)) || tag_of_two(kb, ws, i + 1)))
		is = 0;
	rec_buf_free(&g);
	return is;
}
