/*
 * words.c: a message as words for the rules: folded, with where each
 * was written with a capital, inside quotes, in the scope of a
 * negation (the negation and four words; "don't mind", "nothing like"
 * are none) and in which clause.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "converse.h"

static void
push(struct rec_words *ws, const char *w, size_t n, int cap, int quoted,
    int neg, int clause)
{
	ws->w = xrealloc(ws->w, (ws->n + 1) * sizeof *ws->w);
	ws->cap = xrealloc(ws->cap, ws->n + 1);
	ws->quoted = xrealloc(ws->quoted, ws->n + 1);
	ws->used = xrealloc(ws->used, ws->n + 1);
	ws->neg = xrealloc(ws->neg, ws->n + 1);
	ws->mode = xrealloc(ws->mode, ws->n + 1);
	ws->clause = xrealloc(ws->clause, (ws->n + 1) * sizeof *ws->clause);
	ws->comma = xrealloc(ws->comma, ws->n + 1);
	ws->comma[ws->n] = 0;
	ws->w[ws->n] = xstrndup(w, n);
	ws->cap[ws->n] = (char)cap;
	ws->quoted[ws->n] = (char)quoted;
	ws->used[ws->n] = 0;
	ws->neg[ws->n] = (char)neg;
	ws->mode[ws->n] = REC_LINK_ASK;
	ws->clause[ws->n] = clause;
	ws->n++;
}

/* the length of the kind a German compound of a noun of what is asked
 * for begins with ("horror" of "horrorfilme"), or 0 */
static size_t
compound(const char *w)
{
	static const char *const noun[] = { "filme", "filmen", "film",
	    "musik", "lieder", "liedern", "lied", "songs", NULL };
	size_t n = strlen(w), k, m;

	for (k = 0; noun[k]; k++) {
		m = strlen(noun[k]);
		if (n >= m + 4 && !strcmp(w + n - m, noun[k]))
			return n - m;
	}
	return 0;
}

/* whether the text at p, after spaces, says voices or words ("no
 * vocals", "sin letra", "sans paroles", "ohne Gesang") */
static int
voiceless(const char *p)
{
	static const char *const w[] = { "vocal", "lyric", "singing",
	    "voice", "letra", "paroles", "gesang", "text", NULL };
	size_t k;

	while (isspace((unsigned char)*p))
		p++;
	for (k = 0; w[k]; k++)
		if (!strncasecmp(p, w[k], strlen(w[k])))
			return 1;
	return 0;
}

/* the first word pushed since ws->n was before follows a comma: a
 * name may hold one ("Earth, Wind & Fire", "Hey, Soul Sister") */
static void
mark_comma(struct rec_words *ws, size_t before, int *comma)
{
	if (*comma && ws->n > before) {
		ws->comma[before] = 1;
		*comma = 0;
	}
}

static int
is_sep(const char *p)
{
	return *p == ',' || *p == '.' || *p == ';' || *p == '!' || *p == '?' ||
	    *p == '\n' || *p == '\r';
}

/* whether the dot at p belongs to the word begun at w: inside it
 * ("H.E.R", "J.S."), after an initial ("J. Cole") or a title ("Ms.
 * Banks", "Dr. Dre", "vs.") rather than ending a sentence */
static int
dot_in_word(const char *w, const char *p)
{
	static const char *const abbr[] = { "ms", "mr", "mrs", "dr", "st",
	    "jr", "sr", "vs", "ft", "feat", "mt", NULL };
	size_t n = (size_t)(p - w), k;

	if (*p != '.' || !n)
		return 0;
	if (isalnum((unsigned char)p[1]))
		return 1;
	if (n == 1 && isupper((unsigned char)*w))
		return 1;
	for (k = 0; abbr[k]; k++)
		if (strlen(abbr[k]) == n && !strncasecmp(w, abbr[k], n))
			return 1;
	return 0;
}

/* a double quote, straight or curly: its length, or 0 */
static size_t
quote_at(const char *p)
{
	if (*p == '"')
		return 1;
	if (!strncmp(p, "\xe2\x80\x9c", 3) || !strncmp(p, "\xe2\x80\x9d", 3))
		return 3;
	return 0;
}

/* "without" and its like: after a negation in the clause, a double
 * negation ("it won't be a party without Queen") */
static int
without(const char *w)
{
	return !strcmp(w, "without") || !strcmp(w, "sin") ||
	    !strcmp(w, "sans") || !strcmp(w, "ohne") || !strcmp(w, "sem");
}

/* a negation, or a verb made negative that the rules do not read as
 * one ("isn't", "wouldn't"): the first of a double negation */
static int
negative(const char *w)
{
	static const char *const aux[] = { "isnt", "arent", "wasnt",
	    "werent", "aint", "wouldnt", "couldnt", "shouldnt", "doesnt",
	    "wont", "cant", "cannot", NULL };
	size_t i;

	for (i = 0; aux[i]; i++)
		if (!strcmp(w, aux[i]))
			return 1;
	return rec_lex_negation(w);
}

/* "movies that aren't Marvel", "songs which weren't hits": a verb made
 * negative after "that", "which" or "who" says what is not wanted */
static int
relative_not(const struct rec_words *ws, const char *tok)
{
	static const char *const be[] = { "isnt", "arent", "wasnt", "werent",
	    NULL };

	return ws->n && rec_words_listed(be, tok) && (!strcmp(ws->w[ws->n -
	    1], "that") || !strcmp(ws->w[ws->n - 1], "which") ||
	    !strcmp(ws->w[ws->n - 1], "who"));
}

/* "no" saying what is missing: "there is no X", "there's no X", "is
 * there no X": a wish for X, not a dislike (the word before is in ws) */
static int
absence(const struct rec_words *ws, const char *w, int clause)
{
	size_t n = ws->n;

	if (strcmp(w, "no") || !n || ws->clause[n - 1] != clause)
		return 0;
	/* "there's" is "there" here: the ending went as a possessive's */
	if (!strcmp(ws->w[n - 1], "theres") || !strcmp(ws->w[n - 1], "there"))
		return 1;
	return n >= 2 && ws->clause[n - 2] == clause && !strcmp(ws->w[n - 2],
	    "there") && (!strcmp(ws->w[n - 1], "is") || !strcmp(ws->w[n - 1],
	    "are"));
}

/* phrase_at's any: a phrase's words used or not, across clauses */
enum { ANY_USED = 1, ANY_CLAUSE = 2 };
static size_t phrase_at(const struct rec_words *, size_t, const char *,
    int);

/* Negations of more than a word.  "move away from X", "other than X",
 * "rather than X", "tired of X": what follows (four words, in its
 * clause) is not wanted; "can't get enough of X": X is, the "can't" is
 * no negation. */
static void
scope(struct rec_words *ws)
{
	static const char *const away[] = { "move away from",
	    "stray away from", "stay away from", "steer away from",
	    "get away from", "away from", "other than",
	    "rather than", "instead of", "tired of", "sick of", "bored of",
	    "bored with", "anything but", "except for", "apart from",
	    "aside from", "besides", NULL };
	size_t i, j, k, n;

	for (i = 0; i < ws->n; i++) {
		if ((n = phrase_at(ws, i, "get enough of", 0)) && i > 0 &&
		    ws->neg[i]) {
			for (j = i - 1; j > 0 && ws->neg[j - 1] && ws->clause[j - 1] ==
			    ws->clause[i]; j--)
				;
			for (; j < ws->n && ws->neg[j] && ws->clause[j] ==
			    ws->clause[i]; j++)
				ws->neg[j] = 0;
			for (j = i; j < i + n; j++)
				ws->used[j] = 1;
			continue;
		}
		for (k = 0; away[k]; k++)
			if ((n = phrase_at(ws, i, away[k], 0)))
				break;
		if (!away[k])
			continue;
		for (j = i; j < i + n; j++)
			ws->used[j] = 1;
		for (j = i + n; j < ws->n && j < i + n + 4 && ws->clause[j] ==
		    ws->clause[i]; j++)
			ws->neg[j] = 1;
		i += n - 1;
	}
}

/* an elided article or pronoun at p ("d'", "l'", "qu'" before a vowel
 * or an h): where its apostrophe is, or NULL */
static const char *
elision(const char *p)
{
	const char *q = p + 1;
	int c = tolower((unsigned char)*p);

	if (c == 'q' && tolower((unsigned char)p[1]) == 'u')
		q = p + 2;
	else if (!strchr("dljnsmtc", c) || !c)
		return NULL;
	if (*q == '\'')
		c = tolower((unsigned char)q[1]);
	else if (!strncmp(q, "\xe2\x80\x99", 3))
		c = tolower((unsigned char)q[3]);
	else
		return NULL;
	/* a vowel or an h, accented ones as their first byte */
	if (!c || !(strchr("aeiouhy", c) || (unsigned char)c >= 0xc3))
		return NULL;
	/* not "I'm" nor a word that merely starts so: the letter is a word
	 * of its own only at a word's start */
	return q;
}

/* whether the n letters at p are a word that "'s" makes a verb of
 * ("it's", "that's", "let's"), not a possessive */
static int
contraction(const char *p, size_t n)
{
	static const char *const l[] = { "it", "that", "what", "he", "she",
	    "there", "here", "let", "where", NULL };
	size_t k;

	for (k = 0; l[k]; k++)
		if (strlen(l[k]) == n && !strncasecmp(p, l[k], n))
			return 1;
	return 0;
}

void
rec_words_of(const char *msg, struct rec_words *ws)
{
	struct rec_buf f = {0}, m = {0}, typed = {0};
	const char *p;
	/* cneg: 1 + the clause of the last negation */
	int clause = 0, first = 1, quoted = 0, neg = 0, cneg = 0, comma = 0;
	size_t before;

	/* a typographic apostrophe inside a word ("it’s", "I’ve", as
	 * phones write them) is the plain one, not a closing quote */
	for (p = msg; *p; p++)
		if (!strncmp(p, "\xe2\x80\x99", 3) && p > msg &&
		    isalpha((unsigned char)p[-1]) && isalpha((unsigned char)p[3])) {
			rec_buf_addc(&typed, '\'');
			p += 2;
		} else
			rec_buf_addc(&typed, *p);
	p = typed.data ? typed.data : "";
	memset(ws, 0, sizeof *ws);
	while (*p) {
		const char *q;
		size_t len, qn;
		char *tok, *save = NULL;
		size_t k;
		const char *word;
		int cap, minus, decade;

		if (is_sep(p)) {
			if (*p != ',' && !(*p == '.' && p[1] && !isspace(
			    (unsigned char)p[1])))
				first = 1;
			comma = *p == ',';
			clause++;
			neg = 0;
			p++;
			continue;
		}
		if ((qn = quote_at(p))) {
			quoted = !quoted;
			p += qn;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		before = ws->n;
		/* a French or Italian elision is two words: "d'horreur",
		 * "l'amour", "qu'il" ("D'Angelo" is found again as the
		 * name its two words make) */
		if ((q = elision(p))) {
			rec_buf_reset(&f);
			rec_norm(&f, p, (size_t)(q - p));
			/* kept with its mark, which joins it to the next
			 * word where the two are a name (link.c) */
			rec_buf_addc(&f, '\'');
			if (f.len > 1)
				push(ws, f.data, f.len, isupper((unsigned char)
				    *p) ? first ? 2 : 1 : 0, quoted, neg > 0,
				    clause);
			if (neg)
				neg = neg < 0 ? 0 : neg - 1;
			mark_comma(ws, before, &comma);
			first = 0;
			p = q + (*q == '\'' ? 1 : 3);
			continue;
		}
		for (q = p; *q && !isspace((unsigned char)*q) && (!is_sep(q) ||
		    dot_in_word(p, q)) && !quote_at(q); q++)
			;
		len = (size_t)(q - p);
		/* a possessive: "Adele's album"; but "80's", "1970’s" are
		 * decades, and "it's", "that's" one word ("its") */
		if (len > 3 && p[len - 1] == 's' && p[len - 2] == '\'' &&
		    !contraction(p, len - 2))
			len -= 2;
		else if (len > 5 && p[len - 1] == 's' &&
		    !strncmp(p + len - 4, "\xe2\x80\x99", 3))
			len -= 4;
		decade = len < (size_t)(q - p) && (len == 2 || len == 4) &&
		    p[len - 1] == '0' && isdigit((unsigned char)p[0]) &&
		    isdigit((unsigned char)p[len - 2]);
		/* a capital at a sentence's start says less: 2, not 1; a
		 * dollar for an S ("Too $hort", "A$AP") is a name's */
		cap = (isupper((unsigned char)*p) || (*p == '$' && len > 1 &&
		    isalpha((unsigned char)p[1]))) && !(len == 1 && *p == 'I') &&
		    strncmp(p, "I'", 2) ? first ? 2 : 1 : 0;
		/* a number with a minus ("-5", U+2212 "−5") is none the
		 * rules read: folding would drop the sign */
		minus = (*p == '-' && isdigit((unsigned char)p[1])) ||
		    (!strncmp(p, "\xe2\x88\x92", 3) &&
		    isdigit((unsigned char)p[3]));
		rec_buf_reset(&f);
		rec_norm(&f, p, len);
		if (decade)
			rec_buf_addc(&f, 's');
		for (tok = f.data ? strtok_r(f.data, " ", &save) : NULL; tok;
		    tok = strtok_r(NULL, " ", &save), minus = 0) {
			if (minus) {	/* kept with its sign, and used */
				rec_buf_reset(&m);
				rec_buf_printf(&m, "-%s", tok);
				push(ws, m.data, m.len, cap, quoted, neg, clause);
				ws->used[ws->n - 1] = 1;
				continue;
			}
			if (!strcmp(tok, "but") || !strcmp(tok, "pero") ||
			    !strcmp(tok, "mais") || !strcmp(tok, "aber"))
				neg = 0;
			/* "won't be complete without X", "there is no X
			 * here": X is wanted */
			else if (rec_lex_negation(tok) && (absence(ws, tok,
			    clause) || (cneg == clause + 1 && without(tok))))
				neg = -1;
			/* "no vocals", "without lyrics": what the music is
			 * (instrumental), not a negation of what follows */
			else if (rec_lex_negation(tok) && voiceless(q))
				neg = 0;
			else if (rec_lex_negation(tok) || relative_not(ws, tok))
				neg = 5;	/* the negation and four words */
			/* "not really a big fan of X", "not X or Y": the
			 * scope goes on */
			else if ((neg > 0 && (!strcmp(tok, "fan") ||
			    !strcmp(tok, "fans"))) || ((neg > 0 || (ws->n &&
			    ws->neg[ws->n - 1])) && (!strcmp(tok, "or") ||
			    !strcmp(tok, "nor"))))
				neg = 5;
			/* "I don't mind comedy", "nothing like classic
			 * rock", "nothing beats it": no negation; "I'm not
			 * seeing any X": X is missed */
			if (neg && ws->n && rec_lex_negation(ws->w[ws->n -
			    1]) && (!strcmp(tok, "mind") || !strcmp(tok,
			    "care") || !strcmp(tok, "problem") ||
			    !strcmp(tok, "see") || !strcmp(tok, "seeing") ||
			    !strcmp(tok, "hear") || !strcmp(tok, "hearing") ||
			    (!strcmp(ws->w[ws->n - 1], "nothing") &&
			    (!strcmp(tok, "like") || !strcmp(tok, "beats")))))
				neg = 0;
			if (neg > 0 || negative(tok))
				cneg = clause + 1;
			/* a German compound of what is asked for
			 * ("Horrorfilme", "Liebeslieder"): the kind, then
			 * the noun */
			if ((k = compound(tok))) {
				push(ws, tok, k, cap, quoted, neg > 0, clause);
				tok += k;
				cap = 0;
			}
			/* "that aren't" as "that not" */
			word = relative_not(ws, tok) ? "not" : tok;
			push(ws, word, strlen(word), cap, quoted, neg > 0,
			    clause);
			if (rec_lex_negation(word) && !voiceless(q))
				ws->used[ws->n - 1] = 1;
			if (neg)
				neg = neg < 0 ? 0 : neg - 1;
		}
		mark_comma(ws, before, &comma);
		first = 0;
		p = q;
	}
	scope(ws);
	rec_buf_free(&f);
	rec_buf_free(&m);
	rec_buf_free(&typed);
}

void
rec_words_free(struct rec_words *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		free(ws->w[i]);
	free(ws->w);
	free(ws->cap);
	free(ws->quoted);
	free(ws->used);
	free(ws->neg);
	free(ws->name);
	free(ws->mode);
	free(ws->clause);
	free(ws->comma);
	memset(ws, 0, sizeof *ws);
}

/* the words of phrase ph ("a b c") at i: how many, or 0; with
 * ANY_USED, whether used or not; with ANY_CLAUSE, across clauses */
static size_t
phrase_at(const struct rec_words *ws, size_t i, const char *ph, int any)
{
	size_t n = 0, len;
	const char *p = ph;

	while (*p) {
		len = strcspn(p, " ");
		if (i + n >= ws->n || (!(any & ANY_USED) && ws->used[i + n]) ||
		    strlen(ws->w[i + n]) != len || strncmp(ws->w[i + n], p,
		    len) || (!(any & ANY_CLAUSE) && n && ws->clause[i + n] !=
		    ws->clause[i]))
			return 0;
		n++;
		p += len;
		while (*p == ' ')
			p++;
	}
	return n;
}

size_t
rec_words_phrase(const struct rec_words *ws, size_t i, const char *ph)
{
	return phrase_at(ws, i, ph, 0);
}

/* whether word i's clause holds one of the phrases */
int
rec_words_clause_has(const struct rec_words *ws, size_t i,
    const char *const *ph)
{
	size_t j, k;

	for (j = 0; j < ws->n; j++)
		if (ws->clause[j] == ws->clause[i])
			for (k = 0; ph[k]; k++)
				if (phrase_at(ws, j, ph[k], ANY_USED |
				    ANY_CLAUSE))
					return 1;
	return 0;
}

size_t
rec_words_not_liking(const struct rec_words *ws, size_t i)
{
	static const char *const verb[] = { "like", "love", "enjoy", "dig",
	    NULL };
	static const char *const neg[] = { "dont", "not", "didnt", "doesnt",
	    "never", "cant", "wont", NULL };
	size_t j = i + 1;

	if (!rec_words_listed(neg, ws->w[i]))
		return 0;
	/* "do not like", "don't really like" */
	if (j < ws->n && ws->used[j] && rec_words_listed(neg, ws->w[j]))
		j++;
	if (rec_words_at(ws, j, "really"))
		j++;
	return j < ws->n && !ws->used[j] && ws->clause[j] == ws->clause[i] &&
	    rec_words_listed(verb, ws->w[j]) ? j - i + 1 : 0;
}

int
rec_words_at(const struct rec_words *ws, size_t i, const char *w)
{
	return i < ws->n && !strcmp(ws->w[i], w);
}

/* whether [i, i + n) is written as a name: a capital on its first word
 * and on every other but small words ("Earth, Wind & Fire", "The Good,
 * the Bad and the Ugly") */
static int
written_as_name(const struct rec_words *ws, size_t i, size_t n)
{
	static const char *const small[] = { "the", "and", "of", "a", "an",
	    "in", "on", "to", "or", NULL };
	size_t j;

	if (!ws->cap[i])
		return 0;
	for (j = i + 1; j < i + n; j++)
		if (!ws->cap[j] && !rec_words_listed(small, ws->w[j]))
			return 0;
	return 1;
}

int
rec_words_ngram(const struct rec_words *ws, size_t i, size_t n,
    struct rec_buf *g)
{
	size_t j;

	if (i + n > ws->n)
		return 0;
	for (j = 0; j < n; j++)
		if (ws->used[i + j] || (j && ws->clause[i + j] !=
		    ws->clause[i + j - 1] && !(ws->comma[i + j] &&
		    ws->clause[i + j] == ws->clause[i + j - 1] + 1 &&
		    written_as_name(ws, i, n))))
			return 0;
	rec_buf_reset(g);
	for (j = 0; j < n; j++)
		rec_buf_printf(g, "%s%s", j ? " " : "", ws->w[i + j]);
	return 1;
}

int
rec_words_listed(const char *const *l, const char *w)
{
	for (; *l; l++)
		if (!strcmp(*l, w))
			return 1;
	return 0;
}

/* A clause that says what a thing named or shown is ("I think it's a
 * 90's classic", "it's not quite sci-fi", "isn't that a 90's movie",
 * "is this a movie from 2019?", "there's an old one and a new one"):
 * its genres, eras and moods describe that thing, they are not asked
 * for.  Not a clause that steers ("it's too slow", "that's a bit
 * old") nor one about the wish ("it's for a party", "it should be
 * upbeat"). */
void
rec_words_describe(struct rec_words *ws)
{
	static const char *const subj[] = { "its", "it is", "it was",
	    "thats", "that is", "that was", "this is", "this was",
	    "isnt that", "isnt it", "is it", "is that", "was it", "wasnt it",
	    "is this", "was this", "isnt this", "it has", "its got",
	    "theres", "there is", "there was",
	    /* "it's", "that's": the ending went as a possessive's */
	    "it a", "it an", "it the", "it not", "it quite", "it kind",
	    "it pretty", "it really", "it so", "that a", "that an",
	    "that not", NULL };
	static const char *const lead[] = { "i", "think", "guess", "believe",
	    "oh", "yes", "yeah", "yea", "yep", "well", "and", "but", "so",
	    "ok", "okay", "probably", "maybe", "also", "actually", "hmm",
	    NULL };
	static const char *const steer[] = { "too", "more", "less", "enough",
	    "bit", "little", "for", "playlist", "should", "need", "needs",
	    "want", "wanted", "like", "than", NULL };
	size_t i, j, k, n;

	for (i = 0; i < ws->n; i++) {
		if (i > 0 && ws->clause[i - 1] == ws->clause[i])
			continue;
		/* the clause's first words, past "I think", "yes" */
		for (j = i; j < ws->n && ws->clause[j] == ws->clause[i] &&
		    rec_words_listed(lead, ws->w[j]); j++)
			;
		for (k = 0, n = 0; subj[k] && !n; k++)
			/* used or not: "not" is */
			n = phrase_at(ws, j, subj[k], ANY_USED);
		if (!n)
			continue;
		for (k = j + n; k < ws->n && ws->clause[k] == ws->clause[i] &&
		    !rec_words_listed(steer, ws->w[k]); k++)
			;
		/* a question of the thing steers nothing ("is that movie
		 * more recent?") */
		if (k < ws->n && ws->clause[k] == ws->clause[i] &&
		    !rec_words_at(ws, j, "is") && !rec_words_at(ws, j, "was"))
			continue;
		for (k = j; k < ws->n && ws->clause[k] == ws->clause[i]; k++)
			if (ws->mode[k] == REC_LINK_ASK)
				ws->mode[k] = REC_LINK_DESCRIBE;
	}
}

void
rec_words_mark(struct rec_words *ws, size_t i, size_t n)
{
	size_t j;

	for (j = i; j < i + n && j < ws->n; j++)
		ws->used[j] = 1;
}

static const char *const numwords[] = { "zero", "one", "two", "three",
	"four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
	"twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
	"eighteen", "nineteen", "twenty", NULL };

/* a number at word i (digits or a word), or -1; never NaN or huge */
double
rec_words_num(const struct rec_words *ws, size_t i)
{
	size_t k;
	char *end;
	double v;

	if (i >= ws->n)
		return -1;
	for (k = 0; numwords[k]; k++)
		if (!strcmp(ws->w[i], numwords[k]))
			return (double)k;
	/* decimal digits only: strtod would read "0x10" and "1e5" too */
	if (!isdigit((unsigned char)ws->w[i][0]) || strlen(ws->w[i]) > 9 ||
	    ws->w[i][strspn(ws->w[i], "0123456789.")])
		return -1;
	v = strtod(ws->w[i], &end);
	return *end || !isfinite(v) ? -1 : v;
}
