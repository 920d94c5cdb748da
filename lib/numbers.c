/*
 * numbers.c: the numbers of a message: how many ("5 songs", "a few"),
 * eras ("90s", "after 2015", "recent", "older"), tempo and length
 * ("over 130 bpm", "under 3 minutes"), as the intent's count and
 * constraints.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* the words' own helpers, by the short names parse.c uses */
#define at(ws, i, w)	rec_words_at(ws, i, w)
#define mark(ws, i, n)	rec_words_mark(ws, i, n)

static double
num_at(const struct rec_words *ws, size_t i)
{
	return rec_words_num(ws, i);
}

static int
count_noun(const struct rec_words *ws, size_t i)
{
	static const char *const nouns[] = { "songs", "tracks", "movies",
	    "films", "items", "picks", "recommendations", "tunes", "albums",
	    "canciones", "peliculas", "chansons", "lieder", "filme",
	    "musicas", "filmes", NULL };
	size_t k;

	/* a plural that is not a measure: "2 comedies", "5 ballads" */
	static const char *const measure[] = { "bpm", "years", "yrs",
	    "minutes", "mins", "seconds", "secs", "hours", "hrs", "days",
	    "weeks", "months", "decades", "times", "stars", "beats", "people",
	    "persons", "kids", "friends", "guys", "players", "members",
	    "votes", "points", "dollars", "bucks", "euros", "percent", "miles",
	    "km", "plays", "views", "streams", "listeners", "ratings",
	    "reviews", "episodes", "seasons", "chapters", "parts", "pages",
	    NULL };
	size_t len;

	for (k = 0; nouns[k]; k++)
		if (at(ws, i, nouns[k]))
			return 1;
	if (i >= ws->n || (len = strlen(ws->w[i])) < 4 ||
	    ws->w[i][len - 1] != 's' || ws->w[i][len - 2] == 's' ||
	    rec_words_listed(measure, ws->w[i]) || at(ws, i + 1, "old") ||
	    at(ws, i + 1, "ago") || num_at(ws, i) > 0)
		return 0;
	return 2;
}

/* "my five year old", "kids 5 years old": an age, no era */
static int
age(const struct rec_words *ws, size_t i)
{
	static const char *const unit[] = { "year", "years", "yr", "yrs",
	    "month", "months", "week", "weeks", "day", "days", NULL };

	return i > 0 && rec_words_listed(unit, ws->w[i - 1]);
}

/* an era word said of one thing or of a person, not asked for: "the
 * older one", "the most recent one", "a new one" (another), "way older
 * than I look"; but "a more recent one" asks for one */
static int
of_one(const struct rec_words *ws, size_t i)
{
	static const char *const who[] = { "i", "me", "you", "he", "she",
	    "we", "they", "him", "her", "us", "them", NULL };
	static const char *const det[] = { "the", "that", "this", NULL };
	size_t d = i > 0 && (at(ws, i - 1, "most") || at(ws, i - 1, "more")) ?
	    i - 1 : i;

	if (at(ws, i + 1, "one"))
		return (d > 0 && rec_words_listed(det, ws->w[d - 1])) ||
		    (!strcmp(ws->w[i], "new") && i > 0 && at(ws, i - 1, "a"));
	return at(ws, i + 1, "than") && i + 2 < ws->n &&
	    rec_words_listed(who, ws->w[i + 2]);
}

/* "2 comedies" is a count; "7 seas", a name of the catalog, is not */
static int
counted(struct rec_kb *kb, const struct rec_words *ws, size_t i)
{
	struct rec_buf g = {0};
	int c = count_noun(ws, i + 1), name;

	if (c != 2)
		return c;
	if (!rec_words_ngram(ws, i, 2, &g))
		return 0;
	name = rec_hash_get(&kb->creator, g.data, g.len) != (size_t)-1 ||
	    rec_hash_get(&kb->title, g.data, g.len) != (size_t)-1;
	rec_buf_free(&g);
	return !name;
}

static void
cons_say(struct rec_intent *in, const char *col, const char *op, double v,
    const char *say, int facet)
{
	rec_intent_cons(in, col, op, v, say, facet);
}

/* a second decade in one message ("the 60s and 70s") widens the first
 * into one span instead of a second range no item can be in; 1 if it
 * did */
static int
decade_span(struct rec_intent *in, const char *col, int y)
{
	struct rec_cons *lo = NULL, *hi = NULL;
	char was[64];
	const char *at;
	int j;

	for (j = 0; j < in->ncons; j++) {
		struct rec_cons *c = &in->cons[j];
		if (c->facet != REC_FACET_ERA || strcmp(c->col, col) ||
		    strncmp(c->say, "from the ", 9))
			continue;
		if (!strcmp(c->op, ">="))
			lo = c;
		else if (!strcmp(c->op, "<="))
			hi = c;
	}
	if (!lo || !hi)
		return 0;
	snprintf(was, sizeof was, "%s", lo->say);
	if (y < lo->v)
		lo->v = y;
	if (y + 9 > hi->v)
		hi->v = y + 9;
	snprintf(lo->say, sizeof lo->say, "from the %ds to the %ds",
	    (int)lo->v, (int)hi->v - 9);
	snprintf(hi->say, sizeof hi->say, "%s", lo->say);
	/* and what the reply says was understood */
	if (in->said.len && (at = strstr(in->said.data, was))) {
		struct rec_buf b = {0};
		rec_buf_add(&b, in->said.data, (size_t)(at - in->said.data));
		rec_buf_adds(&b, lo->say);
		rec_buf_adds(&b, at + strlen(was));
		rec_buf_free(&in->said);
		in->said = b;
	}
	return 1;
}

/* the decade a word names at i (1990 for "90s", "1990s", "90er",
 * "nineties", "los 90", "the 70"), or 0 */
static int
decade_at(const struct rec_words *ws, size_t i)
{
	static const char *const decade_cue[] = { "the", "los", "las",
	    "annees", "anos", "anni", "decada", "decade", NULL };
	const char *w = ws->w[i];
	size_t len = strlen(w), k;
	int y = 0;

	if ((len == 3 || len == 5) && w[len - 1] == 's' &&
	    isdigit((unsigned char)w[0]) && w[len - 2] == '0')
		y = atoi(w);
	else if ((len == 4 || len == 5) && !strncmp(w + 2, "er", 2) &&
	    (len == 4 || w[4] == 'n') && isdigit((unsigned char)w[0]) &&
	    w[1] == '0')	/* "80er", "aus den 80ern" */
		y = atoi(w);
	else if ((y = rec_lex_decade(w)))
		;
	else if (len == 2 && isdigit((unsigned char)w[0]) && w[1] == '0' &&
	    i > 0) {
		for (k = 0; decade_cue[k] && !at(ws, i - 1, decade_cue[k]); k++)
			;
		y = decade_cue[k] ? atoi(w) : 0;
		if (!y && w[0] == '0' && decade_cue[k])
			y = 2000;
	}
	if (y > 0 && y < 100)
		y += y >= 30 ? 1900 : 2000;
	return y >= 1900 && y <= 2090 && y % 10 == 0 ? y : 0;
}

/* In a catalog without dates, the decade y as a tag value it has
 * ("90s", "1990s"), an era of the topic; whether it had one */
static int
era_tag(struct rec_kb *kb, int y, struct rec_intent *in)
{
	char form[2][16], tag[32];
	int f;

	snprintf(form[0], sizeof form[0], "%02ds", y % 100);
	snprintf(form[1], sizeof form[1], "%ds", y);
	for (f = 0; f < 2; f++)
		if (rec_hash_get(&kb->tag, form[f], strlen(form[f])) !=
		    (size_t)-1) {
			snprintf(tag, sizeof tag, "era:%s", form[f]);
			rec_strs_add(&in->tags, tag);
			return 1;
		}
	return 0;
}

/* the person's own viewing or listening, and indifference: an era word
 * in such a clause asks for nothing */
static const char *const own[] = { "i watched", "i saw", "ive seen",
	"i have seen", "i had seen", "i went to see", "i heard", "ive heard",
	"i listened", "ive watched", "i have watched", "we watched", "we saw",
	"i went to", "havent seen", "have not seen", "never seen",
	"havent watched", NULL };
/* a habit of the past: "I used to watch it in the eighties" */
static const char *const habit[] = { "used to watch", "used to listen",
	"used to see", NULL };
/* the words before "current" said of a person ("I'm not very
 * current") */
static const char *const person[] = { "im", "am", "not", "very", "stay",
	"keep", "be", NULL };
static const char *const indifferent[] = { "dont mind", "do not mind",
	"doesnt matter", "does not matter", "dont care", "do not care",
	"no matter", NULL };

/* an era word at i said of what the person did or does not mind, of
 * one thing or of a person: none asked for */
static int
not_asked(const struct rec_words *ws, size_t i)
{
	return rec_words_clause_has(ws, i, own) ||
	    rec_words_clause_has(ws, i, indifferent) ||
	    rec_words_clause_has(ws, i, habit) || age(ws, i) || of_one(ws, i);
}

/* "his older stuff, before 2005": a year said outright decides over
 * "older" */
static void
vague_era(struct rec_intent *in)
{
	int j, k, sure = 0;

	for (j = 0; j < in->ncons; j++)
		sure |= in->cons[j].facet == REC_FACET_ERA &&
		    in->cons[j].op[0] == '<' && strcmp(in->cons[j].say, "older");
	for (j = k = 0; j < in->ncons; j++)
		if (!(sure && in->cons[j].facet == REC_FACET_ERA &&
		    !strcmp(in->cons[j].say, "older")))
			in->cons[k++] = in->cons[j];
	/* and the reply does not say it */
	if (k < in->ncons && in->said.len && !strncmp(in->said.data,
	    "older", 5)) {
		size_t cut = in->said.data[5] == ',' ? 7 : 5;
		memmove(in->said.data, in->said.data + cut, in->said.len -
		    cut + 1);
		in->said.len -= cut;
	}
	in->ncons = k;
}

/* how many, eras and numbers */
void
rec_parse_numbers(struct rec_kb *kb, struct rec_words *ws,
    struct rec_intent *in)
{
	static const char *const after[] = { "after", "since", "from", "post",
	    "despues", "desde", "apres", "depuis", "nach", "seit", "depois",
	    NULL };
	static const char *const before[] = { "before", "until", "pre",
	    "antes", "avant", "vor", "bis", NULL };
	static const char *const charts[] = { "popular", "trending", "hot",
	    "hits", "top", "charts", "charting", "new", NULL };
	const char *ycol = kb->c_year;
	char say[64];
	size_t i;
	double v;
	int e, year = 0;

	/* a year said ("something newer, after 2000") is surer than
	 * "newer" */
	for (i = 0; i < ws->n; i++) {
		size_t d = strspn(ws->w[i], "0123456789");
		if (ws->used[i] || ws->mode[i] != REC_LINK_ASK ||
		    (ws->name && ws->name[i]))
			continue;
		year |= ((v = num_at(ws, i)) >= 1900 && v <= 2100) ||
		    rec_lex_decade(ws->w[i]) || (d >= 2 && !strcmp(ws->w[i] +
		    d, "s"));
	}
	for (i = 0; i < ws->n; i++) {
		const char *w = ws->w[i];
		size_t len = strlen(w);
		int y = 0, c;

		if (ws->used[i])
			continue;
		/* "I saw it in 2019", "which was made in 2001": a fact
		 * about something named, not the wish */
		if (ws->mode[i] != REC_LINK_ASK)
			continue;
		/* "top 40 hits" is the chart, not forty: popular */
		if (num_at(ws, i) == 40 && i > 0 && at(ws, i - 1, "top") &&
		    count_noun(ws, i + 1) != 1) {
			in->popular = in->popular ? in->popular : 1;
			ws->used[i] = ws->used[i - 1] = 1;
			continue;
		}
		/* how many: "5 songs", "top 10", "a few" */
		if ((v = num_at(ws, i)) >= 1 && v <= 100 && (counted(kb, ws,
		    i) || count_noun(ws, i + 2) == 1 || (i > 0 && at(ws, i - 1,
		    "top")))) {
			in->k = (int)v;
			ws->used[i] = 1;
			continue;
		}
		if (!strcmp(w, "few") && i > 0 && at(ws, i - 1, "a")) {
			in->k = 5;
			ws->used[i] = 1;
			continue;
		}
		/* decades: 90s, 1990s, 80er, nineties, "los 90", "les
		 * annees 80", "the 70" */
		/* (without dates, the decade where tags say it) */
		if ((y = decade_at(ws, i)) && !of_one(ws, i) &&
		    !rec_words_clause_has(ws, i, habit) &&
		    (ycol || era_tag(kb, y, in))) {
			snprintf(say, sizeof say, "from the %ds", y);
			if (ycol && decade_span(in, ycol, y)) {
				ws->used[i] = 1;
				continue;
			}
			if (ycol) {
				cons_say(in, ycol, ">=", y, say, REC_FACET_ERA);
				cons_say(in, ycol, "<=", y + 9, say,
				    REC_FACET_ERA);
			}
			rec_intent_said(in, "%s", say);
			ws->used[i] = 1;
			continue;
		}
		/* without dates, "from 1999" for its decade where tags say
		 * it */
		if (!ycol && len == 4 && (y = atoi(w)) >= 1900 && y <= 2099 &&
		    i > 0 && (at(ws, i - 1, "from") || at(ws, i - 1, "in")) &&
		    era_tag(kb, y - y % 10, in)) {
			snprintf(say, sizeof say, "from the %ds", y - y % 10);
			rec_intent_said(in, "%s", say);
			ws->used[i] = 1;
			continue;
		}
		/* without dates, "older" where the tags say old ("oldies",
		 * "70s"), unless said of a person ("I am older") */
		if (!ycol && rec_lex_era_word(w) == 2 && !at(ws, i + 1,
		    "school") && !not_asked(ws, i) && !(ws->name &&
		    ws->name[i]) && !(i > 0 && rec_words_listed(person,
		    ws->w[i - 1])) &&
		    (c = rec_kb_concept(kb, "oldies")) >= 0 &&
		    kb->ground[c].tags.n) {
			rec_add_concept(kb, in, (size_t)c, 0, "older");
			ws->used[i] = 1;
			continue;
		}
		if (!ycol)
			goto notyear;
		/* after 2015, since 2015, before 2000, in 2019 */
		if (len == 4 && isdigit((unsigned char)w[0]) && (y = atoi(w)) >=
		    1900 && y <= 2100 && i > 0) {
			size_t p = i - 1;
			/* "antes de 2000", "after the year 2010" */
			while ((at(ws, p, "de") || at(ws, p, "del") || at(ws, p,
			    "year") || at(ws, p, "the")) && p > 0)
				p--;
			for (c = 0; after[c] && !at(ws, p, after[c]); c++)
				;
			/* "from 1995" is that year; "from 1995 on", "from
			 * 1995 to 1999" a span (since, after: from then on) */
			if (after[c] && !strcmp(after[c], "from")) {
				int y2 = i + 2 < ws->n && (at(ws, i + 1, "to") ||
				    at(ws, i + 1, "until") || at(ws, i + 1,
				    "till") || at(ws, i + 1, "through") ||
				    at(ws, i + 1, "and")) && strlen(ws->w[i + 2]) ==
				    4 ? atoi(ws->w[i + 2]) : 0;
				if (y2 > y && y2 <= 2100) {
					snprintf(say, sizeof say, "from %d to %d",
					    y, y2);
					cons_say(in, ycol, ">=", y, say,
					    REC_FACET_ERA);
					cons_say(in, ycol, "<=", y2, say,
					    REC_FACET_ERA);
					rec_intent_said(in, "%s", say);
					mark(ws, p, i - p + 3);
					continue;
				}
				if (!(i + 1 < ws->n && (at(ws, i + 1, "on") ||
				    at(ws, i + 1, "onward") || at(ws, i + 1,
				    "onwards") || at(ws, i + 1, "forward") ||
				    at(ws, i + 1, "up") || at(ws, i + 1,
				    "later") || at(ws, i + 1, "newer")))) {
					snprintf(say, sizeof say, "from %d", y);
					cons_say(in, ycol, "=", y, say,
					    REC_FACET_ERA);
					rec_intent_said(in, "%s", say);
					mark(ws, p, i - p + 1);
					continue;
				}
			}
			if (after[c]) {
				int from = !strcmp(after[c], "from") ||
				    !strcmp(after[c], "since") ||
				    !strcmp(after[c], "desde") ||
				    !strcmp(after[c], "depuis") ||
				    !strcmp(after[c], "seit") ? y : y + 1;
				snprintf(say, sizeof say, "from %d on", from);
				cons_say(in, ycol, ">=", from, say, REC_FACET_ERA);
				rec_intent_said(in, "%s", say);
				mark(ws, p, i - p + 1);
				continue;
			}
			for (c = 0; before[c] && !at(ws, p, before[c]); c++)
				;
			if (before[c]) {
				snprintf(say, sizeof say, "before %d", y);
				cons_say(in, ycol, "<", y, say, REC_FACET_ERA);
				rec_intent_said(in, "%s", say);
				mark(ws, p, i - p + 1);
				continue;
			}
			if ((at(ws, p, "in") || at(ws, p, "of") || at(ws, p, "en")
			    || at(ws, p, "im") || at(ws, p, "em")) && p > 0 &&
			    (count_noun(ws, p - 1) || at(ws, p - 1, "music") ||
			    at(ws, p - 1, "released") || at(ws, p - 1, "out"))) {
				snprintf(say, sizeof say, "from %d", y);
				cons_say(in, ycol, "=", y, say, REC_FACET_ERA);
				rec_intent_said(in, "%s", say);
				mark(ws, p, i - p + 1);
				continue;
			}
		}
		/* "recent", "older" of what the person did ("the most recent
		 * movie I watched", "my recent favorite"), does not mind
		 * ("I don't mind if it's older") or is ("I'm not very
		 * current"): no era asked for */
		if ((e = rec_lex_era_word(w)) && (not_asked(ws, i) ||
		    (!strcmp(w, "current") && i > 0 && rec_words_listed(person,
		    ws->w[i - 1])) ||
		    (i > 0 && at(ws, i - 1, "my")) || (i > 1 && at(ws, i - 2,
		    "my") && at(ws, i - 1, "most")))) {
			ws->used[i] = 1;
			continue;
		}
		/* "what's popular right now", "top hits these days": now
		 * said of the charts, not of the person ("I need a laugh
		 * right now") */
		if (!e && kb->maxyear && rec_words_clause_has(ws, i, charts) &&
		    ((at(ws, i, "now") && i > 0 && at(ws, i - 1, "right")) ||
		    at(ws, i, "nowadays") || at(ws, i, "currently") ||
		    (at(ws, i, "days") && i > 0 && at(ws, i - 1, "these")) ||
		    (at(ws, i, "moment") && i > 1 && at(ws, i - 1, "the") &&
		    at(ws, i - 2, "at")))) {
			e = 1;
			for (c = 1; c <= 2 && i >= (size_t)c && (at(ws, i - c,
			    "right") || at(ws, i - c, "these") || at(ws, i - c,
			    "the") || at(ws, i - c, "at")); c++)
				ws->used[i - c] = 1;
		}
		if (e == 1 && year) {
			ws->used[i] = 1;
			continue;
		}
		/* recent, new; the last five years */
		if (e == 1 && kb->maxyear && !(ws->name && ws->name[i])) {
			snprintf(say, sizeof say, "from %d on", kb->maxyear - 4);
			cons_say(in, ycol, ">=", kb->maxyear - 4, say,
			    REC_FACET_ERA);
			rec_intent_said(in, "%s", say);
			ws->used[i] = 1;
			continue;
		}
		if (e == 2 && !at(ws, i + 1, "school") && !(ws->name &&
		    ws->name[i])) {
			cons_say(in, ycol, "<", 2000, "older", REC_FACET_ERA);
			rec_intent_said(in, "%s", "older");
			ws->used[i] = 1;
			continue;
		}
		if ((!strcmp(w, "last") || !strcmp(w, "past")) &&
		    (v = num_at(ws, i + 1)) >= 1 && v <= 100 &&
		    (at(ws, i + 2, "years") || at(ws, i + 2, "year")) &&
		    kb->maxyear) {
			snprintf(say, sizeof say, "from %d on",
			    kb->maxyear - (int)v + 1);
			cons_say(in, ycol, ">=", kb->maxyear - (int)v + 1, say,
			    REC_FACET_ERA);
			rec_intent_said(in, "%s", say);
			mark(ws, i, 3);
			continue;
		}
notyear:
		/* over 130 bpm, under 3 minutes */
		if ((v = num_at(ws, i)) > 0 && i + 1 < ws->n && i > 0 &&
		    v < 1e6) {
			const char *p = ws->w[i - 1], *u = ws->w[i + 1];
			int more = !strcmp(p, "over") || !strcmp(p, "above") ||
			    !strcmp(p, "least") || !strcmp(p, "faster") ||
			    !strcmp(p, "longer") || (!strcmp(p, "than") && i > 1
			    && (at(ws, i - 2, "more") || at(ws, i - 2, "faster")
			    || at(ws, i - 2, "longer")));
			int less = !strcmp(p, "under") || !strcmp(p, "below") ||
			    !strcmp(p, "most") || !strcmp(p, "slower") ||
			    !strcmp(p, "shorter") || (!strcmp(p, "than") && i > 1
			    && (at(ws, i - 2, "less") || at(ws, i - 2, "slower")
			    || at(ws, i - 2, "shorter")));
			if ((more || less) && !strcmp(u, "bpm") && kb->has_tempo) {
				snprintf(say, sizeof say, "%s %g BPM", more ?
				    "over" : "under", v);
				cons_say(in, "tempo", more ? ">" : "<", v, say,
				    REC_FACET_TEMPO);
				rec_intent_said(in, "%s", say);
				mark(ws, i - 1, 3);
				continue;
			}
			if ((more || less) && (!strncmp(u, "minute", 6) ||
			    !strcmp(u, "min") || !strcmp(u, "mins")) &&
			    kb->has_duration) {
				snprintf(say, sizeof say, "%s %g minutes", more ?
				    "over" : "under", v);
				cons_say(in, "duration_ms", more ? ">" : "<",
				    v * 60000, say, REC_FACET_LENGTH);
				rec_intent_said(in, "%s", say);
				mark(ws, i - 1, 3);
				continue;
			}
		}
	}
	vague_era(in);
}
