/*
 * ranker.h: the ranker's insides, shared by rank.c (its stages) and
 * taste.c (personalisation and novelty); not part of any public header.
 * Ownership as core.h states it: the ranker owns everything it points
 * to but db and pool.
 */
#ifndef REC_RANKER_H
#define REC_RANKER_H

#include "retrieve.h"

struct rec_ranker {
	struct rec_rank_opts o;
	sqlite3 *db;			/* borrowed; NULL: none */
	const struct rec_pool *pool;	/* the one being ranked */
	char *creator_col, *pop_col;
	struct rec_strs tag_cols;	/* roles tags and category */
	struct rec_hash fields;		/* rec_ranker_field's statements */
	sqlite3_stmt **field;
	sqlite3_stmt *hist;		/* a user's items */
	char *hist_user;		/* the last one asked for */
	size_t *hist_items;		/* and their items, in items */
	size_t nhist, caphist;
	/* what is known of an item does not change from one list to the
	 * next (a grouped stream ranks many): kept by id */
	struct rec_hash items;		/* struct item, by id */
	size_t *gid;			/* the pool's ids in items */
	size_t capgid;
	uint32_t stamp;			/* the list being ranked */
	struct rec_hash tagdict;	/* every tag of a profile, folded:
					 * profiles hold their indexes */
	struct rec_hash credict;	/* the same for creators */
	struct rec_hash tagtext;	/* a tag column's text: its tags
					 * (struct tagset), parsed once */
	size_t nprofiles;		/* profiles read one by one */
	struct rec_popshares pop;	/* --novelty's, once needed */
	int pop_open;
	sqlite3_stmt *unique;		/* --unique's fields of an item */
	int nunique, first[64];		/* first: the field is the creator's */
	sqlite3_stmt *all;		/* every column of an item, for jq */
	msgpack_zone zone;
	struct rec_buf view, err;
	int txn;			/* a read transaction is open */
	int has_cut, sure;		/* rec_ranker_cut, rec_ranker_sure */
	double cut;
};

/* An item's profile: its creator, folded, and its tags, folded, each
 * kept as its index in the ranker's dictionaries, so that a taste is a
 * mark per index and an affinity counts marks: no string is hashed per
 * candidate. */
struct profile {
	int64_t creator;	/* in credict, or -1 */
	uint32_t *tags;		/* in tagdict, each once */
	size_t ntags;
};

/* What is known of an item, read when first needed (has says what):
 * it does not change from one list to the next */
struct item {
	struct profile prof;
	double pct;		/* novelty: the share of items less popular */
	char *divkey;		/* diversify: the value's key, or NULL */
	uint32_t seen;		/* the stamp of the list whose user has it */
	unsigned char has;	/* HAS_* */
};
enum { HAS_PROFILE = 1, HAS_PCT = 2, HAS_DIVKEY = 4 };

static inline struct item *
item_at(struct rec_ranker *r, size_t k)
{
	return (struct item *)r->items.val + k;
}

/* the item's index in r->items (added when new) */
static inline size_t
item_index(struct rec_ranker *r, const char *id, size_t idlen)
{
	return rec_hash_put(&r->items, id, idlen, NULL);
}

/* the ranker's reasons, a bit each in rec_cand.reasons */
enum { WHY_U_CREATOR = 1, WHY_U_TAGS = 2, WHY_L_CREATOR = 4,
	WHY_L_TAGS = 8, WHY_LESS_KNOWN = 16 };

/* the value of a column for an item, as text (NULL when missing); a
 * role name stands for its column; caller frees */
char *rec_ranker_field(struct rec_ranker *r, const char *field,
    const char *id, size_t idlen);
/* the user's items marked seen in this list (seen 1), their taste
 * added to t (or NULL) */
struct taste;
void rec_ranker_history(struct rec_ranker *r, const char *user, int seen,
    struct taste *t);
/* -u, --like and --novelty on the candidates' scores, scaled to 0..1 */
void rec_ranker_boosts(struct rec_ranker *r, struct rec_cand *c, size_t n);
void rec_ranker_profile_free(struct profile *p);
void rec_ranker_tagtext_free(struct rec_ranker *r);

#endif
