/*
 * converse.h: the conversation: a request -> a formatted intent -> a plan of rec
 * tools, run; the reply; the model endpoint
 *
 * Ownership is stated once, in core.h, for every rec header.
 */
#ifndef REC_CONVERSE_H
#define REC_CONVERSE_H

#include "stream.h"
#include "catalog.h"
#include "proc.h"
#include "opts.h"

/* lexicon.c: the hand lexicon of moods, activities, occasions and
 * genres in five languages (what a catalog's data cannot say itself) */
enum rec_facet {
	REC_FACET_NONE, REC_FACET_GENRE, REC_FACET_MOOD, REC_FACET_ACTIVITY,
	REC_FACET_THEME, REC_FACET_AUDIENCE, REC_FACET_ERA, REC_FACET_TEMPO,
	REC_FACET_LENGTH
};
struct rec_concept {
	const char *name;	/* said back: "sad" */
	int facet;		/* a new one replaces the old of its facet */
	const char *words;	/* what people say, '|' between (folded) */
	const char *tags;	/* tag words to look for */
	const char *cats;	/* categories to keep to (any of them) */
	const char *prefer;	/* categories to prefer */
	int title;		/* a theme a title may carry ("Christmas") */
	struct {
		const char *col, *op;
		double v;
	} num[3];		/* audio properties, where the catalog has
				 * the column */
	const char *kinds;	/* its words that name a narrower kind
				 * ("heist" of crime): said, the kind is
				 * the topic within the genre */
};
extern const struct rec_concept rec_concepts[];
/* 1 for words with no meaning of their own ("the", "songs",
 * "canciones"), for negations ("not", "sin", "ohne") */
int rec_lex_filler(const char *w);
/* the first filler word for which test(w, it) holds, or NULL */
const char *rec_lex_filler_near(const char *w,
    int (*test)(const char *, const char *));
int rec_lex_negation(const char *w);
/* a decade by its name ("nineties", "achtziger"): its first year, or 0 */
int rec_lex_decade(const char *w);
/* a word of an era said loosely: 1 recent ("latest", "neue"), 2
 * older, else 0 */
int rec_lex_era_word(const char *w);

/* intent.c: the formatted intent (OMuleT's), what every planner path
 * fills and the policy reads; between turns it is the conversation's
 * state (rec-session(5)) */
#define REC_MAXC 16
struct rec_cons {
	char col[64];		/* an items column */
	char op[3];		/* > >= < <= = */
	double v;
	char say[64];		/* how to say it: "from 2015 on" */
	int facet;		/* enum rec_facet */
};

struct rec_intent {
	/* what the person named, and how they feel about it */
	struct rec_strs liked_items, liked_creators, disliked_items,
	    disliked_creators;
	struct rec_strs similar;	/* creators named as a model ("like
					 * X"): others are wanted */
	struct rec_strs seen;	/* seen or heard: never again, though not
				 * a dislike */
	struct rec_strs wanted;	/* items asked for by title: "add X" */
	/* the topic: each entry "facet:value" (genre:, mood:, ...) */
	struct rec_strs tags, disliked_tags;	/* words for tag fields */
	struct rec_strs need;	/* categories to keep to, each "a|b": any */
	struct rec_strs prefer;	/* categories to prefer */
	struct rec_strs kept;	/* categories of an earlier subject, kept
				 * as a weak preference when the subject
				 * changed without a word of change */
	struct rec_strs concepts;	/* the lexicon's, in force */
	struct rec_strs words;	/* other words of meaning, for the text
				 * encoder; never for a title search */
	struct rec_strs themes;	/* theme words a title may carry */
	struct rec_strs alts;	/* "genre\tstretch": the genres named and
				 * where between conjunctions; those of
				 * two stretches are alternatives ("hip
				 * hop or ska"), each its own search */
	struct rec_strs colls;	/* collections (albums) asked for, folded */
	/* the conversation */
	struct rec_strs shown;	/* every item shown */
	struct rec_strs shown_keys;	/* "title\tcreator" of each: the same
					 * song on another release */
	struct rec_strs last;	/* the last turn's list, in order */
	struct rec_strs offer;	/* the last reply, where it showed nothing
				 * ("do you like horror?"): what a "yes"
				 * takes up */
	struct rec_strs boost;	/* items liked before: a mild boost */
	struct rec_strs earlier_items;	/* named as liked in earlier turns,
					 * before the subject changed */
	struct rec_strs earlier_creators; /* named in earlier turns */
	int taste;		/* the message states a taste: 1 like, -1 not */
	int others;		/* it asks for creators other than those
				 * named or liked ("other artists"), 2 other
				 * than those shown too ("a different band") */
	int fresh;		/* the message says it changes ("instead",
				 * "something different"): this turn only */
	int mood_relaxed;	/* the critic's: a mood's measure was
				 * relaxed; this turn only */
	int open;		/* an open request ("surprise me"): the best
				 * known, unless the profile knows what the
				 * person usually asks for; this turn only */
	int fill;		/* the critic's: the best-known under the
				 * constraints fill what the topic left
				 * short; this turn only */
	int pointed;		/* the liked items are ones the list
				 * showed, pointed at ("the first one") */
	int same_kind;		/* "now a scary one": the last subject's
				 * kind (its theme, "zombies") goes on
				 * under the new mood or genre; this turn
				 * only */
	size_t carried;		/* the last of liked_creators that earlier
				 * turns named, not this one; this turn
				 * only */
	struct rec_cons cons[REC_MAXC];
	int ncons;
	int popular;		/* 1 popular, 2 the best, -1 not mainstream */
	int k;
	char *user;
	struct rec_buf said;	/* what was understood, for the reply */
	/* creators whose name the message used as a word ("focus"): not
	 * shown this turn */
	struct rec_strs avoid;
	/* "a different band": the creators of before, not shown this
	 * turn */
	struct rec_strs other_than;
	/* a question about the catalog instead of a request, this turn */
	int question;		/* enum rec_question */
	char *subject;		/* what it asks about: an item or a creator */
};

enum rec_question {
	REC_Q_NONE, REC_Q_WHO, REC_Q_DIRECTOR, REC_Q_COUNT, REC_Q_YEAR,
	REC_Q_GENRE, REC_Q_ALBUM
};

/* kb.c: the catalog knowledge the planner links words to, loaded once
 * per process over the catalog handle cat (which it owns) */
struct rec_tagcol {
	char *name;
	int list;
	int ranked;			/* lists most first, not sorted by name */
	double cover;			/* share of items with a value */
	struct rec_hash val;		/* folded values */
	unsigned *count;		/* items with each */
};
struct rec_ground {			/* a concept in a catalog's terms */
	struct rec_strs tags;		/* its tag words the catalog uses */
	char *need;			/* "a|b": categories to keep to */
	char *prefer;			/* "a|b": categories to prefer */
	int num[3];			/* which of its numbers apply */
};
struct rec_textenc_db;
struct rec_kb {
	struct rec_catalog *cat;
	const char *catalog;		/* cat->path */
	struct rec_hash creator;	/* folded name -> index in cname */
	char **cname;			/* the catalog's spelling */
	unsigned *ccount;		/* items of each */
	unsigned char *cexact;		/* 1: the key is the name's own; 0:
					 * one made from it; 2: its words
					 * without their marks ("pink") */
	struct rec_hash title;		/* every form of a title -> tid */
	char **tid;			/* its most popular item */
	struct rec_hash coll;		/* folded collection names */
	struct rec_hash tag;		/* folded tag values, all columns */
	unsigned *tagcount;		/* items with each tag */
	struct rec_hash tagtok;		/* the words of the tag values */
	struct rec_hash tagbi;		/* two words side by side in tag
					 * values -> items (unsigned) */
	struct rec_hash tword;		/* the words of titles, and in how
					 * many titles each (unsigned) */
	struct rec_tagcol *tc;		/* per tags or category column */
	size_t ntc;
	struct rec_ground *ground;	/* per rec_concepts entry */
	size_t nground;
	size_t nitems;
	char *c_title, *c_creator, *c_coll, *c_pop, *c_rating, *c_year,
	    *c_date, *c_releases;
	char **c_tags;			/* the tags and category columns */
	int *c_tags_list;		/* which hold JSON lists */
	size_t nc_tags;
	int has_tempo, has_duration, has_valence, has_energy,
	    has_dance, has_acoustic, has_instrumental;
	int maxyear;
	double popmax;			/* the largest popularity, or 0 */
	int pop_by_creator;		/* the popularity is the creator's */
	int has_bm25;
	char *cf_model;			/* rec-cf's item model: EASE where
					 * trained, else ItemKNN; NULL: none */
	char *semid_space;
	char *dense_space;		/* audio, or the first other space */
	char *text_space;		/* a space embedded by a server */
	char *enc_space;		/* the encoder of rec-train text */
	struct rec_textenc_db *enc;	/* and its words, or NULL */
	struct rec_hash english;	/* english.c: the language's words */
	struct rec_hash spell;		/* spell.c: words a misspelling may
					 * stand for -> uses (unsigned);
					 * made on first use */
};

struct rec_kb *rec_kb_load(const char *catalog);
/* names.c: the keys of a creator's name, and the one-word aliases once
 * every name is in */
void rec_kb_add_names(struct rec_kb *kb, const char *v, unsigned count,
    struct rec_buf *n);
void rec_kb_one_word_names(struct rec_kb *kb);
/* english.c: the system's word list; whether w (folded) is a word of
 * it in lower case, or with names also a name of it ("jamaica") */
void rec_kb_load_english(struct rec_kb *kb);
int rec_kb_english(const struct rec_kb *kb, const char *w, int names);
void rec_kb_free(struct rec_kb *kb);
/* the creator a person most likely meant by key k: k, or a name an
 * edit away with ten times its items ("Snoop Dog": Snoop Dogg) */
size_t rec_kb_better_known(const struct rec_kb *kb, size_t k);
/* the key of h closest to s (folded) within max edits, or (size_t)-1 */
size_t rec_kb_closest(const struct rec_hash *h, const char *s, int max);
/* whether a (folded) reads as b misspelt, word by word: as many words,
 * none written wholly otherwise, no numeral changed */
int rec_kb_misspelling(const char *a, size_t an, const char *b, size_t bn);
/* the creators of the items ids, the most frequent first, at most max,
 * added to out */
void rec_kb_creators_of(struct rec_kb *kb, const struct rec_strs *ids,
    size_t max, struct rec_strs *out);
int rec_kb_has_column(const struct rec_kb *kb, const char *col);
/* whether the catalog's text encoder knows the word (not by pieces) */
int rec_kb_word_known(const struct rec_kb *kb, const char *w);
/* whether w (a word or words) is, or is made of words of, a tag value */
int rec_kb_tag_known(const struct rec_kb *kb, const char *w);
/* whether v is a category of the catalog (a tag value on 0.5% of the
 * items or more), with *hard set when it is in a complete column (97%
 * of the items have a value): one a list may be kept to */
int rec_kb_category(const struct rec_kb *kb, const char *v, int *hard);
/* whether tag k (an index of kb->tag, or (size_t)-1) is on one item in
 * per or more: 200 a common tag, 10 a broad one */
int rec_kb_tag_on(const struct rec_kb *kb, size_t k, double per);
/* appends the SQL condition "any of the categories of group (a|b)" */
void rec_kb_cat_sql(const struct rec_kb *kb, const char *group,
    struct rec_buf *b);
/* any of the tag values vals in any of the catalog's tag columns, as
 * SQL appended to out (nothing without values) */
void rec_kb_tags_sql(const struct rec_kb *kb, const struct rec_strs *vals,
    struct rec_buf *out);
/* appends the least position of the categories of group (a|b) in the
 * ranked list columns (most first) that hold them, 99 for none; nothing
 * when none of those columns holds one */
void rec_kb_cat_pos_sql(const struct rec_kb *kb, const char *group,
    struct rec_buf *b);
/* the index of the concept named name, or -1 */
int rec_kb_concept(const struct rec_kb *kb, const char *name);

/* tagsof.c: the tags a creator's items have most (at most max), as
 * words for the tag fields, into words */
void rec_kb_creator_tags(struct rec_kb *kb, const char *creator, size_t max,
    struct rec_buf *words);
/* the tag values the seeds have (at most max) into words, and into cats
 * the categories of the complete columns they have ("action|sci-fi") */
void rec_kb_seed_tags(struct rec_kb *kb, const struct rec_strs *seeds,
    size_t max, struct rec_buf *words, struct rec_buf *cats);

/* parse.c and link.c: the words of a message, folded, with what the
 * writing says of them */
enum rec_link_mode {
	REC_LINK_ASK,		/* a request: "songs by X", "play X" */
	REC_LINK_LIKE,		/* a taste: "I loved X" (a model, not the wish) */
	REC_LINK_DISLIKE,	/* "X was boring", "not a fan of X" */
	REC_LINK_SEEN,		/* "I've seen X": never again, no taste */
	REC_LINK_DESCRIBE	/* "it's a 90's classic": what a thing named
				 * is, not what is asked for */
};
struct rec_words {
	char **w;		/* folded */
	size_t n;
	char *cap;		/* written with a capital, not first in a
				 * sentence */
	char *quoted;		/* inside double quotes */
	char *used;		/* consumed by a rule */
	char *neg;		/* in the scope of a negation */
	char *name;		/* in a title or creator written as one
				 * (rec_words_names), or NULL */
	char *mode;		/* enum rec_link_mode of its clause */
	int *clause;		/* which clause */
	char *comma;		/* the first word after a comma */
};
void rec_words_of(const char *msg, struct rec_words *ws);
void rec_words_free(struct rec_words *ws);
/* spell.c: words misspelt put right, to the catalog's common one-word
 * tags ("chrismas" -> "christmas") */
void rec_words_spell(struct rec_kb *kb, struct rec_words *ws);
/* whether w is one of the words of the NULL-ended list l */
int rec_words_listed(const char *const *l, const char *w);
/* marks the clauses that say what a thing named is ("it's a 90's
 * classic") REC_LINK_DESCRIBE */
void rec_words_describe(struct rec_words *ws);
/* how many words the phrase ("a b") has at i, unused, or 0 */
size_t rec_words_phrase(const struct rec_words *ws, size_t i,
    const char *ph);
/* whether word i is w */
int rec_words_at(const struct rec_words *ws, size_t i, const char *w);
/* marks words [i, i + n) used */
void rec_words_mark(struct rec_words *ws, size_t i, size_t n);
/* the number at word i (digits or a word), or -1; never NaN or huge */
double rec_words_num(const struct rec_words *ws, size_t i);
/* words [i, i + n) joined into g; 0 if a rule used one, or they cross a
 * clause */
int rec_words_ngram(const struct rec_words *ws, size_t i, size_t n,
    struct rec_buf *g);
/* evidence.c: marks the words of whole titles and creators written as
 * names (in capitals or quotes, short words aside: "No Country for Old
 * Men"), which the rules leave to the linker ("old" is no era there).
 * One that begins with a negation ("Don't Stop Believin'", "No Doubt"),
 * written so or after a cue (rec_link_cued), is out of the negation's
 * scope (an earlier negation's stays). */
void rec_words_names(struct rec_kb *kb, struct rec_words *ws);
/* numbers.c: how many, eras, tempo and length said in the message, into
 * in (its count and constraints); the words read are marked used */
void rec_parse_numbers(struct rec_kb *kb, struct rec_words *ws,
    struct rec_intent *in);
/* whether word i's clause holds one of the phrases (used or not) */
int rec_words_clause_has(const struct rec_words *ws, size_t i,
    const char *const *ph);
/* a negation read already at i and a verb of liking after it ("don't
 * like", "do not really enjoy"): its words, or 0 */
size_t rec_words_not_liking(const struct rec_words *ws, size_t i);
/* tagwords.c: the words of a list of "facet:word" entries for a tag
 * search, into w (see there) */
void rec_tag_words(const struct rec_kb *kb, const struct rec_intent *in,
    const struct rec_strs *s, struct rec_buf *w);
/* the genre tags of in as the alternatives named, at most max into g */
size_t rec_tag_groups(const struct rec_intent *in, struct rec_strs *g,
    size_t max);
/* whether s is about a theme or an occasion all of whose tags are on
 * few items ("christmas"): the subject, not a colour of the genre */
int rec_tag_rare_theme(const struct rec_kb *kb, const struct rec_strs *s);
/* the tags ("facet:value") that are values of the catalog, folded, into
 * vals */
void rec_tag_values(const struct rec_kb *kb, const struct rec_strs *tags,
    struct rec_strs *vals);
/* colls.c: the longest span at i (six words at most) that h holds, its
 * words in g, or 0; the collections named, and where a creator is named
 * with one, the creator's word (its key in *ck), else (size_t)-1 */
size_t rec_link_longest(const struct rec_words *ws, size_t i,
    const struct rec_hash *h, struct rec_buf *g);
/* names.c: the words of tag value v (folded) of c items into tagtok,
 * and each two side by side into tagbi */
void rec_kb_tag_words(struct rec_kb *kb, const char *v, unsigned c);
/* phrase.c: whether words i and i + 1, unused, stand side by side in
 * the tag values of many items, though of no value alone ("japanese
 * city pop"): a tag of the catalog's */
int rec_kb_tag_phrase(struct rec_kb *kb, const struct rec_words *ws,
    size_t i);
/* whether words i and i + 1 are each a tag of a thousandth of the
 * items ("classic soul": two tags, not one) */
int rec_kb_two_common(const struct rec_kb *kb, const struct rec_words *ws,
    size_t i);
/* link.c: tag as the request's topic, or what it turns down */
void rec_link_add_tag(struct rec_kb *kb, const struct rec_words *ws,
    size_t i, struct rec_intent *in, const char *tag);
/* colls.c: the other items of the series whose name form is (folded):
 * the titles with the same words before a colon as item id's */
void rec_kb_series(struct rec_kb *kb, const char *id, const char *form,
    struct rec_strs *out);
size_t rec_link_colls(struct rec_kb *kb, struct rec_words *ws,
    struct rec_intent *in, size_t *ck);
/* evidence.c: whether the n words at i say how the last answer went
 * ("Love it!", "Absolutely!"), no name; with n 0, whether i's clause
 * is such */
int rec_link_reaction(const struct rec_words *ws, size_t i, size_t n);
/* "they've seen all the pixar ones": word i is in a clause of things
 * seen, all of them; a kind so said is one to leave out */
int rec_link_seen_all(const struct rec_words *ws, size_t i);
/* Links the unused words of ws to the catalog: names (creators, titles,
 * collections) with the evidence they need, then the lexicon's
 * concepts, then tag values; the rest becomes words of meaning. */
void rec_link(struct rec_kb *kb, struct rec_words *ws, struct rec_intent *in);
/* creator k of kb named at word i: asked for, a model ("like X"), or
 * turned down, as the words around it say */
void rec_link_add_creator(struct rec_kb *kb, const struct rec_words *ws,
    size_t i, struct rec_intent *in, size_t k);
/* context.c: names of creators the conversation showed, misspelt ("the
 * weekend" after The Weeknd was shown), before rec_link */
void rec_link_context(struct rec_kb *kb, struct rec_words *ws,
    struct rec_intent *in, const struct rec_intent *prev);
/* "his songs", "more of her", "I like him": the creator named last in
 * prev, when the message (after rec_link) names none; "I know Yellow,
 * what else by them?": the creator of the item the message names */
void rec_link_pronoun(struct rec_kb *kb, struct rec_words *ws,
    struct rec_intent *in, const struct rec_intent *prev);
/* a "yes" to the last reply's offer (rec_intent.offer): what its
 * sentences of taste named */
void rec_link_offer(struct rec_kb *kb, const struct rec_words *ws,
    struct rec_intent *in, const struct rec_intent *prev);
/* "more like that one": the one to three items the last reply showed
 * are the model */
void rec_link_shown(struct rec_words *ws, struct rec_intent *in,
    const struct rec_intent *prev);
/* evidence.c: what says words were meant as a name */
enum rec_name_kind { REC_NAME_CREATOR, REC_NAME_TITLE };
/* a word of everyday speech: filler, a word of the lexicon, or a word
 * of a common tag value; a name of such words needs more evidence */
int rec_link_common(const struct rec_kb *kb, const char *w);
/* whether w names whoever makes items: "artist", "band", "director" */
int rec_link_who(const char *w);
/* whether the message asks for creators other than those named or
 * liked so far (evidence.c): 1 for "other artists like X", "similar
 * bands", 2 for a change ("a different band", "someone else"), else 0;
 * the words that say so are used */
int rec_link_others(struct rec_kb *kb, struct rec_words *ws);
/* a cue before word i: "by X", "like X", "listen to X" */
int rec_link_cued(const struct rec_words *ws, size_t i);
/* whether word i is a thing of an occasion ("for cleaning the house"),
 * not a tag */
int rec_link_place(const struct rec_words *ws, size_t i);
int rec_link_opinion(const struct rec_words *ws, size_t i, size_t n);
int rec_link_which_one(const struct rec_words *ws, size_t i, size_t n);
/* bytitle.c: each liked title named with a creator liked or asked for,
 * that creator's item of the title */
void rec_link_title_by_creator(struct rec_kb *kb, struct rec_intent *in);
/* genre g named at word i, and in which stretch between conjunctions,
 * into in->alts */
void rec_link_alt(const struct rec_words *ws, size_t i, struct rec_intent *in,
    const char *g);
/* every word of [i, i + n) that counts written with a capital; *quoted:
 * all of them inside quotes */
int rec_link_all_cap(const struct rec_kb *kb, const struct rec_words *ws,
    size_t i, size_t n, int *quoted);
/* how many words of [i, i + n) are not everyday words */
size_t rec_link_rare(const struct rec_kb *kb, const struct rec_words *ws,
    size_t i, size_t n);
/* whether [i, i + n) is all the message says besides filler (content:
 * the message's words that are not filler) */
int rec_link_whole(const struct rec_words *ws, size_t i, size_t n,
    size_t content);
/* the evidence for [i, i + n) as a name of kind: 2 strong (quotes,
 * capitals, a cue, rare words, the whole message), 1 weak, 0 none */
int rec_link_evidence(const struct rec_kb *kb, const struct rec_words *ws,
    size_t i, size_t n, int kind, size_t content);
/* whether word i is inside a title or creator of two words or more
 * said with strong evidence ("like Slow Dance"): not a word of meaning */
int rec_link_name_at(const struct rec_kb *kb, const struct rec_words *ws,
    size_t i);
/* concept.c: the category a word of likeness stands for ("bluesy":
 * blues) into out, or 0 */
int rec_kb_tag_stem(const struct rec_kb *kb, const char *w,
    struct rec_buf *out);
/* concept.c: the concept whose words are at i, the longest phrase first
 * (its index, and *n its words), or -1 */
long rec_concept_at(const struct rec_words *ws, size_t i, size_t *n);
/* whether the concept word at i is the sentence's verb ("focus on X") */
int rec_concept_verb(const struct rec_words *ws, size_t i, size_t n);
/* adds concept c (an index of rec_concepts) in the catalog's terms, or
 * with neg its negation; said: the words that named it, or NULL */
void rec_add_concept(struct rec_kb *kb, struct rec_intent *in, size_t c,
    int neg, const char *said);
/* the categories of the concepts turned down ("not kids stuff":
 * children's), but those the message asks for ("animated"), are turned
 * down too; after every concept of the message is read */
void rec_concepts_not_categories(struct rec_kb *kb, struct rec_intent *in);
/* a need widened by the kinds of it preferred ("japanese pop": pop,
 * or j-pop and city pop, which are kinds of pop) */
void rec_concepts_narrower(struct rec_intent *in);
/* whether the n bytes at w are one of the alternatives "a|b|c" */
int rec_listed(const char *alts, const char *w, size_t n);
/* the tags of a genre kept to anyway ("comedy" of "funny zombie
 * movies": every item left is one), but a narrower kind said, left out
 * of the group g of a search where it has others: what is left is the
 * subject, zombies */
void rec_concepts_kept_anyway(const struct rec_kb *kb,
    const struct rec_intent *in, struct rec_strs *g);

/* parse.c: parses message (with the previous turn's intent and shown
 * items for references, or NULL) into in, by rules */
void rec_intent_parse(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, struct rec_intent *in);

/* state.c: whether the turn has a subject (items, creators, a genre);
 * prev's state merged into in (cont: the message goes on with the
 * request before, which stays whole); whether in says nothing new
 * (thanks, chit-chat, "sounds good") */
int rec_intent_has_subject(const struct rec_intent *in);
/* the message's intent in made the state: a creator liked is no
 * creator asked for where others like them are; then, after a turn
 * prev, in merged with it (cont: the message goes on from it), its genre
 * narrowing prev's where more than half its items are of prev's genre */
void rec_intent_settle(struct rec_kb *kb, struct rec_intent *in,
    const struct rec_intent *prev, int cont);
/* narrower: the message's genre narrows prev's, which goes on */
void rec_intent_merge(struct rec_intent *in, const struct rec_intent *prev,
    int cont, int narrower);
int rec_intent_nothing_new(const struct rec_intent *in);

/* intent.c */
void rec_intent_free(struct rec_intent *in);
/* a facet's name ("mood") and back (0 for none) */
const char *rec_facet_name(int facet);
int rec_facet_named(const char *name);
/* "mood:chill" -> "chill" with *facet set; no known prefix: s itself,
 * the facet genre */
const char *rec_facet_split(const char *s, int *facet);
/* adds a constraint (at most REC_MAXC; more are dropped) */
void rec_intent_cons(struct rec_intent *in, const char *col, const char *op,
    double v, const char *say, int facet);
/* adds to what was understood: fmt with one %s */
void rec_intent_said(struct rec_intent *in, const char *fmt, const char *a);
/* what a turn keeps from the one before (prev may be NULL): the shown
 * items, the dislikes, the creators named, the user */
void rec_intent_carry(struct rec_intent *in, const struct rec_intent *prev);
/* whether in names something to look for: items, creators, tags or
 * words */
int rec_intent_asks(const struct rec_intent *in);
/* whether in gives a plan anything to go on (else it asks back): what
 * to look for, limits, a user, likes from before */
int rec_intent_goes(const struct rec_intent *in);
/* the intent from its JSON form (as rec_intent_json writes it) */
void rec_intent_from(struct rec_intent *in, const msgpack_object *o);
void rec_intent_add_shown(struct rec_intent *in, const char *id);
/* A long-term profile (InteRecAgent's like / dislike / expect facets), a
 * JSON file: {"like":{"items":[],"creators":[],"tags":[]},"dislike":
 * {...},"expect":{"creators":[],"tags":[]}}; expect holds what the
 * person asks for, and fills a request with nothing to go on */
struct rec_profile {
	struct rec_strs like_items, like_creators, like_tags,
	    dislike_items, dislike_creators, dislike_tags;
	struct rec_strs expect_creators, expect_tags;	/* asked for, newest
							 * first */
};
void rec_profile_load(struct rec_profile *pf, const char *path);
/* writes it atomically; dies on a write error */
void rec_profile_save(const struct rec_profile *pf, const char *path);
void rec_profile_free(struct rec_profile *pf);
/* takes the taste the message states into the profile (1 if changed),
 * and the profile's dislikes and likes into the intent */
int rec_profile_learn(struct rec_profile *pf, const struct rec_intent *in);
void rec_profile_apply(const struct rec_profile *pf, struct rec_intent *in);

/* dialogue.c: the conversation so far, for a model: each earlier
 * turn's message and reply, oldest first */
struct rec_dialogue {
	struct rec_strs user, reply;
};
void rec_dialogue_add(struct rec_dialogue *d, const char *user,
    const char *reply);
void rec_dialogue_free(struct rec_dialogue *d);
struct rec_session;
void rec_dialogue_from_session(struct rec_dialogue *d,
    const struct rec_session *s);
/* Appends what a model is shown of the past: the last turns (d may be
 * NULL), the last list as "1. [id] Title by Creator", what prev (NULL:
 * none) says was liked, disliked and shown.  1 if it appended any. */
int rec_dialogue_text(struct rec_kb *kb, const struct rec_dialogue *d,
    const struct rec_intent *prev, struct rec_buf *b);
/* "[id] Title by Creator" */
void rec_item_describe(struct rec_kb *kb, const char *id, struct rec_buf *b);

/* The intent from the model (REC_LLM_URL), each name, tag, column and
 * value checked against the catalog and repaired where it can be; a
 * creator the catalog does not have is left out, said in notes (for
 * the reply; NULL: in log only); what else cannot be repaired is sent
 * back to the model with the problems, at most twice; then the rules.
 * The model sees the dialogue (dlg, may be NULL) and the state (prev)
 * before the message.  demos: a JSONL file of {"request","intent"}
 * pairs, the three most like the message go in the prompt (or NULL).
 * 0 when the model's intent is used, -1 after falling back; log says
 * what happened. */
int rec_intent_model(struct rec_kb *kb, const char *message,
    const struct rec_intent *prev, const struct rec_dialogue *dlg,
    const char *demos, struct rec_intent *in, struct rec_buf *log,
    struct rec_buf *notes);

/* session.c: the session file (rec-session(5)), one JSON object per
 * turn.  What a turn writes: the fields that are NULL (ms < 0) are left
 * out; items is a JSON array of objects, or else shown gives the ids;
 * full adds the intent and the plan (the file has them, rec-chat's
 * standard output not). */
struct rec_session_out {
	int turn;
	const char *user, *reply, *items;
	const struct rec_strs *shown, *liked, *disliked;
	const char *shell, *violated, *emptied, *relaxed, *model;
	int failed;
	double ms;
	const struct rec_intent *intent;
	const struct rec_plan *plan;
};
void rec_session_format(struct rec_buf *b, const struct rec_session_out *t,
    int full);
/* What a session file holds, turn by turn. */
struct rec_session_turn {
	char *user, *reply;
	struct rec_strs shown, liked, disliked;
	int has_intent;
	struct rec_intent intent;
};
struct rec_session {
	struct rec_session_turn *turn;
	size_t n;
};
/* reads path into s: 1, or 0 when there is no such file; a line that is
 * not a turn ends the program with "PATH:LINE: ..." */
int rec_session_read(const char *path, struct rec_session *s);
void rec_session_free(struct rec_session *s);
/* the last turn's intent of a session file, with every item shown so
 * far; 0 when there is no file or no turn */
int rec_session_last(const char *path, struct rec_intent *prev, int *turns);
/* opens path to append turns, locked for this process: a second writer
 * is refused with a message; returns the descriptor */
int rec_session_open(const char *path);
/* appends line (n bytes, one turn) whole or not at all; dies on error */
void rec_session_append(int fd, const char *path, const char *line,
    size_t n);

/* intent.c: the intent's JSON form */
void rec_intent_json(struct rec_buf *b, const struct rec_intent *in);
/* drops the constraint that narrows most (the last one added); returns
 * what was relaxed, or NULL when there is none */
const char *rec_intent_relax(struct rec_intent *in, struct rec_buf *note);

struct rec_stage {
	char **argv;
	int argc;
};

struct rec_plan {
	struct rec_stage *src;	/* run one after another into one stream */
	size_t nsrc;
	struct rec_stage *filt;	/* then each in turn */
	size_t nfilt;
	char *ask;		/* a question back instead of a plan */
	int fill;		/* it fills up with the best-known under the
				 * constraints (rec_intent's fill) */
};

void rec_plan_make(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_plan *p);
/* appends the intent's constraints as an SQL condition (none: nothing) */
void rec_intent_where(const struct rec_intent *in, struct rec_buf *b);
void rec_plan_free(struct rec_plan *p);
/* planout.c: a stage of the arguments (NULL-ended) added to v; an
 * argument added to s; "-W src=w" added to s (rec-rank's weight) */
void rec_stage_add(struct rec_stage **v, size_t *n, ...);
void rec_stage_arg(struct rec_stage *s, const char *a);
void rec_stage_weight(struct rec_stage *s, const char *src, double w);
/* a POSIX shell command line, every argument quoted */
void rec_plan_shell(struct rec_buf *b, const struct rec_plan *p);
void rec_plan_json(struct rec_buf *b, const struct rec_plan *p);
void rec_shell_quote(struct rec_buf *b, const char *s);

/* which stage of a plan failed, and how */
struct rec_plan_fail {
	const struct rec_stage *stage;	/* in the plan run; borrowed */
	int status;			/* its wait status */
	struct rec_buf err;		/* what it wrote on standard error */
};
/* run.c: runs a plan without a shell: the rec tools from bindir, stdin
 * of the sources /dev/null, msgpack between stages, REC_DB, REC_FORMAT
 * and REC_TRACE set for the stages alone; the last stage's output in
 * out; in err a line saying which stage failed and how, then what every
 * stage wrote on standard error.  0, or -1 when a stage failed: fail
 * (when not NULL) says which. */
int rec_plan_run(const struct rec_plan *p, const char *bindir,
    const char *catalog, struct rec_buf *out, struct rec_buf *err,
    struct rec_plan_fail *fail);
/* Whether every argument of p that came from a request or a model is
 * read as a value: each stage a tool of the table in run.c (or another
 * program without arguments), every option its own "-X" argument, a
 * value only right after an option that takes one, operands only
 * after "--".  0, or -1 with the first
 * offence in why.  rec_plan_assert dies on one; rec_plan_run and
 * rec_plan_shell call it, so no plan that breaks the rule runs or is
 * printed.  rec_plan_tool_opts: a tool's short options, or NULL. */
int rec_plan_check(const struct rec_plan *p, struct rec_buf *why);
void rec_plan_assert(const struct rec_plan *p);
const char *rec_plan_tool_opts(const char *tool);
/* the REC_TRACE lines of the last rec_plan_run, one JSON object per
 * stage in the order they ended */
const char *rec_plan_trace(void);
/* from the trace: the first stage that had records and wrote none, as
 * "rec-sql (-w ...) kept none of 284", or NULL */
char *rec_plan_emptied(void);

/* respond.c: the answer to a question about the catalog (in->question)
 * from what the catalog knows, or saying plainly what it cannot know;
 * appended to b */
void rec_answer(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_buf *b);
/* respond.c: the reply a person reads, from the final candidates */
void rec_respond(struct rec_kb *kb, const struct rec_intent *in,
    const char *records, size_t len, const char *notes,
    struct rec_buf *reply, struct rec_buf *items_json);

/* llm.c: an OpenAI-compatible chat completion through libcurl, from
 * REC_LLM_URL (the base URL), REC_LLM_MODEL, REC_LLM_KEY and
 * REC_LLM_TIMEOUT (seconds).  messages is a JSON array.  0 and the
 * assistant's content in out, or -1 with the reason in err. */
int rec_llm_chat(const char *messages, struct rec_buf *out,
    struct rec_buf *err);
/* Embeddings of n texts from REC_LLM_URL's /embeddings (model
 * REC_EMBED_MODEL, else REC_LLM_MODEL): 0 with *out (n x *dim floats,
 * caller frees), or -1 with err */
int rec_llm_embed(const char *const *texts, size_t n, float **out,
    size_t *dim, struct rec_buf *err);
/* 1 if a model is configured */
int rec_llm_enabled(void);
/* The same, naming the call in the trace ("intent", "respond").  Every
 * call appends {"tool":"model","call":WHAT,"ms","prompt_tokens",
 * "completion_tokens","status"} to REC_TRACE and adds to the cost.
 * REC_LLM_TIMEOUT bounds a call (seconds, default 60, fractions
 * allowed), REC_LLM_CONNECT_TIMEOUT its connection (default 10);
 * REC_LLM_RETRIES (default 1) more tries, REC_LLM_RETRY_WAIT seconds
 * apart (default 0.5), follow a refused connection, HTTP 429 or 5xx,
 * never a time-out; after a failure the endpoint is not asked again
 * until rec_llm_reset() (rec-chat: the next turn). */
int rec_llm_chat_as(const char *what, const char *messages,
    struct rec_buf *out, struct rec_buf *err);
/* A chat completion with tools (a JSON array of OpenAI function
 * definitions): 0 with the reply's choices[0].message as JSON in msg
 * (its content and tool_calls), or -1 with err. */
int rec_llm_tools(const char *what, const char *messages, const char *tools,
    struct rec_buf *msg, struct rec_buf *err);
struct rec_llm_cost {
	unsigned long calls, failed;
	long prompt_tokens, completion_tokens;
	double ms;
};
/* what the model calls of this process have cost so far */
void rec_llm_cost_get(struct rec_llm_cost *c);
void rec_llm_reset(void);

/* respond.c, with a model: the model writes an intro and a note per
 * numbered item, rec renders the list from the catalog, so the reply
 * names only the items it was given.  Falls back to rec_respond; 0 when
 * the model's words are used.  log says what happened. */
int rec_respond_model(struct rec_kb *kb, const struct rec_intent *in,
    const char *request, const char *records, size_t len, const char *notes,
    struct rec_buf *reply, struct rec_buf *items, struct rec_buf *log);

/* chat.c: a turn of the conversation once its intent is known */
struct rec_turn {
	struct rec_plan plan;
	struct rec_buf out;	/* the candidate records of the plan */
	struct rec_buf err, reply, items, notes, emptied, violated, shell;
	int failed;
	struct rec_plan_fail fail;	/* when failed: which stage, how */
	struct rec_buf calls;	/* the tools mode: the model's accepted
				 * calls, a JSON array */
	struct rec_buf said;	/* the model path's notes (what it left
				 * out), said in the reply */
};
/* where the rec tools are: $REC_BIN, else beside this program; caller
 * frees */
char *rec_bindir(void);
/* how many records p[0..n) holds; each one is added to in's shown
 * items when in is not NULL */
size_t rec_records_count(const char *p, size_t n, struct rec_intent *in);
/* id, one item of the last list shown: in shown and last, and its song
 * key in shown_keys */
void rec_intent_show(struct rec_kb *kb, struct rec_intent *in,
    const char *id, size_t len);
/* the records p[0..n) were shown: into in's shown items and the keys
 * (title and creator) that tell the same song on another release, and
 * as the last list (for "the second one") */
void rec_intent_shown(struct rec_kb *kb, struct rec_intent *in,
    const char *p, size_t n);
/* plansql.c: "title\tcreator" of an item into key, ASCII case folded:
 * one song, whatever the release; 0 when the catalog lacks either */
int rec_song_key_of(struct rec_kb *kb, const char *id, size_t len,
    struct rec_buf *key);
/* plans and runs in (relaxing it at most twice when the list comes out
 * short, which changes in), drops items that break its constraints,
 * and with respond writes the reply and its items (adding them to in's
 * shown).  t must be zeroed; free it with rec_turn_free. */
void rec_chat_answer(struct rec_kb *kb, const char *dbpath, const char *bin,
    const char *msg, struct rec_intent *in, int respond, struct rec_turn *t,
    struct rec_buf *mlog);
void rec_turn_free(struct rec_turn *t);
/* after t's plan ran (or asked back, or failed): items that break in's
 * constraints dropped, the shell line, and with respond the reply and
 * its items (t->notes said in it); rec_chat_answer ends with it */
void rec_turn_finish(struct rec_kb *kb, const char *msg,
    struct rec_intent *in, int respond, struct rec_turn *t,
    struct rec_buf *mlog);

/* toolplan.c: the model's two ways of planning: REC_MODE_INTENT (the
 * model fills the formatted intent, rec's policy picks the tools) and
 * REC_MODE_TOOLS (the model calls the tools) */
enum { REC_MODE_INTENT, REC_MODE_TOOLS };
/* the mode named by arg (-M), else by REC_LLM_MODE, else intent; a
 * usage error for another word */
int rec_llm_mode(const char *arg);
/* toolschema.c: the plan tools the catalog can serve, as OpenAI
 * function definitions ("tools"), from the tools' option tables
 * (opts.h) */
void rec_tools_json(struct rec_kb *kb, struct rec_buf *b);
/* the catalog for a prompt: counts, columns with types and roles, the
 * commonest values of each tag column, text fields, spaces */
void rec_schema_text(struct rec_kb *kb, struct rec_buf *b);
/* toolplan.c (checking each call: toolcheck.c): one turn's planning
 * conversation with the model */
struct rec_toolplan {
	struct rec_buf msgs;	/* the messages, a JSON array without ']' */
	struct rec_buf tools;	/* the tool definitions sent */
	struct rec_buf calls;	/* the calls accepted last, a JSON array
				 * of {"name","arguments"} */
	struct rec_buf log;	/* what happened */
	struct rec_buf notes;	/* for the reply: what was left out */
	int used;		/* the plan is the model's */
};
/* The tools mode: the model is shown the schema, the tools, the
 * dialogue (dlg, may be NULL) and the state (prev, may be NULL), with
 * the demonstrations most like message (demos, may be NULL); each call
 * it makes is checked (its tool's options, the catalog's columns,
 * values, ids and spaces, SQL read-only); what fails goes back once;
 * what still fails is dropped with a note.  rec then adds what in (the
 * rules' reading of the conversation) rules out: dislikes, what was
 * shown, the cut.  0 with the model's plan in p, or -1 (p empty): the
 * rules are to answer.  tp is zeroed by the caller, freed with
 * rec_toolplan_free. */
int rec_plan_tools(struct rec_kb *kb, const char *message,
    const struct rec_intent *in, const struct rec_intent *prev,
    const struct rec_dialogue *dlg, const char *demos,
    struct rec_toolplan *tp, struct rec_plan *p);
/* the critic's one re-plan: why goes to the model, 0 with a new plan
 * in p (zeroed by the caller), -1 when it gave none usable */
int rec_plan_tools_again(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_toolplan *tp, const char *why, struct rec_plan *p);
void rec_toolplan_free(struct rec_toolplan *tp);

/* critic.c: InteRecAgent's reflection.  What is wrong with the result
 * out[0..len) of the plan p, by the trace of its run (rec_plan_trace:
 * sources that found nothing, filters that kept nothing) and its top items (fewer than
 * want, items breaking in's constraints, items the person rejected or
 * was shown, one creator throughout when none was asked for); the
 * reasons in why, one "; " apart.  Returns how many. */
int rec_critic(struct rec_kb *kb, const struct rec_intent *in,
    const struct rec_plan *p, const char *out, size_t len, size_t want,
    struct rec_buf *why);
/* A turn in the tools mode: plans with the model (rec_plan_tools),
 * runs the plan, lets the critic look, re-plans once on its reasons
 * (kept when the critic finds it better: fewer reasons, or as many and
 * more items), and finishes the turn
 * (rec_turn_finish).  -1, t untouched, when the model gave no usable
 * plan: answer with rec_chat_answer.  mlog says what happened. */
int rec_chat_tools(struct rec_kb *kb, const char *dbpath, const char *bin,
    const char *msg, struct rec_intent *in, const struct rec_intent *prev,
    const struct rec_dialogue *dlg, const char *demos, int respond,
    struct rec_turn *t, struct rec_buf *mlog);

/* plansql.c: a factor of a score for rec-rank -b that halves the
 * Christmas songs and films (their title or collection says so) where
 * the request names no creator and says nothing of Christmas, the
 * holidays or winter: a season's, not the topic's (CPCD: one list in
 * seven had one, through a genre's best-known artists; a creator's
 * own may be what is asked for: Michael Buble's) */
void rec_plan_season(const struct rec_kb *kb, const struct rec_intent *in,
    struct rec_buf *b);
/* a factor of a score for rec-rank -b that halves the items
 * of the creators liked in earlier turns, not named in this one, of
 * whom four songs or more were shown: the person has had theirs (CPCD) */
void rec_plan_worn(const struct rec_kb *kb, const struct rec_intent *in,
    struct rec_buf *b);
/* plansql.c: the SQL pieces of the policy.  The order of "the most
 * popular first" (best: "the best"); a creator's best-known items (at
 * most max, comma-separated, into ids); the categories kept to; the
 * names() call for creators; an order o spread over creators, those of
 * the categories cats first in each round (the alternatives alt in
 * turn); none by the creators names;
 * a request's decades as tags, in a catalog without dates */
void rec_plan_order_by(struct rec_kb *kb, int best, struct rec_buf *o);
void rec_plan_top_items(struct rec_kb *kb, const char *creator, size_t max,
    struct rec_buf *ids);
/* the best-known items where the SQL condition where holds */
void rec_plan_where_items(struct rec_kb *kb, const char *where, size_t max,
    struct rec_buf *ids);
void rec_plan_need_where(struct rec_kb *kb, const struct rec_strs *need,
    struct rec_buf *b);
void rec_plan_names_sql(struct rec_kb *kb, const struct rec_strs *names,
    struct rec_buf *b);
void rec_plan_spread(const struct rec_kb *kb, const char *o,
    const char *cats, const char *alt, struct rec_buf *out);
void rec_plan_not_by(const struct rec_kb *kb, const struct rec_strs *names,
    struct rec_buf *cond);
void rec_plan_era_sql(struct rec_kb *kb, const struct rec_intent *in,
    struct rec_buf *out);

#endif
