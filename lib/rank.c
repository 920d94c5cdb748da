/*
 * rank.c: the ranker of rec-rank: fusion, sort, caps and MMR (fuse.c)
 * with the catalog-dependent stages between (removals, jq rescoring,
 * personalisation, novelty, one record per song, the cut lists of a
 * grouped stream), so that the command holds only its options.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"

/* ---- the ranker of rec-rank ---- */

struct rec_ranker {
	struct rec_rank_opts o;
	sqlite3 *db;			/* borrowed; NULL: none */
	const struct rec_pool *pool;	/* the one being ranked */
	char *creator_col, *pop_col;
	struct rec_strs tag_cols;	/* roles tags and category */
	struct rec_hash fields;		/* field_of's statements, by field */
	sqlite3_stmt **field;
	sqlite3_stmt *hist;		/* a user's items */
	char *hist_user;		/* the last one asked for */
	struct rec_strs hist_items;	/* and their items */
	/* what is known of an item does not change from one list to the
	 * next (a grouped stream ranks many): kept by id */
	struct rec_hash items;		/* struct item, by id */
	size_t *gid;			/* the pool's ids in items */
	size_t capgid;
	uint32_t stamp;			/* the list being ranked */
	struct rec_hash tagdict;	/* every tag of a profile, folded:
					 * profiles hold their indexes */
	struct rec_hash credict;	/* the same for creators */
	double nitems;			/* items in the catalog; < 0: not
					 * counted yet */
	sqlite3_stmt *popcnt;		/* items less popular than ? */
	sqlite3_stmt *unique;		/* --unique's fields of an item */
	int nunique, first[64];		/* first: the field is the creator's */
	sqlite3_stmt *all;		/* every column of an item, for jq */
	msgpack_zone zone;
	struct rec_buf view, err;
	int txn;			/* a read transaction is open */
	int has_cut, sure;		/* rec_ranker_cut, rec_ranker_sure */
	double cut;
};

/* the value of a column for an item, as text (NULL when missing);
 * a role name stands for its column; caller frees */
static char *
field_of(struct rec_ranker *r, const char *field, const char *id,
    size_t idlen)
{
	sqlite3_stmt *st;
	char *v = NULL;
	size_t k;
	int added;

	k = rec_hash_put(&r->fields, field, strlen(field), &added);
	if (added) {
		struct rec_buf sql = {0};
		char *col = NULL;
		r->field = xrealloc(r->field, r->fields.cap *
		    sizeof *r->field);
		if (!rec_catalog_column(r->db, field, NULL, NULL, 0) &&
		    !(col = rec_catalog_role(r->db, field)))
			rec_usage_die("no column or role '%s' in the catalog",
			    field);
		rec_buf_printf(&sql, "SELECT \"%s\" FROM items WHERE id = ?",
		    col ? col : field);
		free(col);
		if (sqlite3_prepare_v2(r->db, sql.data, -1, &r->field[k], NULL))
			rec_sqlite_die(r->db, "items");
		rec_buf_free(&sql);
	}
	st = r->field[k];
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, id, (int)idlen, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	return v;
}

/* --unique: one statement that reads an item's fields, prepared before
 * any input is read so that a bad field is an error at once */
static void
unique_prepare(struct rec_ranker *r, const char *list)
{
	struct rec_buf sql = {0};
	char *fields = xstrdup(list), *f, *save = NULL;

	r->nunique = 0;
	rec_buf_adds(&sql, "SELECT ");
	for (f = strtok_r(fields, ",", &save); f;
	    f = strtok_r(NULL, ",", &save)) {
		char *col = NULL;
		if (r->nunique == 64)
			rec_usage_die("--unique: at most 64 fields");
		if (!rec_catalog_column(r->db, f, NULL, NULL, 0) &&
		    !(col = rec_catalog_role(r->db, f)))
			rec_usage_die("--unique: no column or role '%s' in the "
			    "catalog", f);
		r->first[r->nunique] = !strcmp(f, "creator") ||
		    (r->creator_col && !strcmp(col ? col : f, r->creator_col));
		rec_buf_printf(&sql, "%s\"%s\"", r->nunique++ ? ", " : "",
		    col ? col : f);
		free(col);
	}
	if (!r->nunique)
		rec_usage_die("--unique: give one field or more");
	rec_buf_adds(&sql, " FROM items WHERE id = ?");
	if (sqlite3_prepare_v2(r->db, sql.data, -1, &r->unique, NULL))
		rec_sqlite_die(r->db, "items");
	rec_buf_free(&sql);
	free(fields);
}

/* the fields of --unique for each candidate, as one key (NULL for an
 * item not in the catalog: such records are all kept) */
static char **
unique_keys(struct rec_ranker *r, const struct rec_cand *c, size_t n)
{
	const struct rec_pool *p = r->pool;
	char **key = xcalloc(n + 1, sizeof *key);
	size_t i;

	for (i = 0; i < n; i++) {
		struct rec_buf k = {0};
		int x;
		sqlite3_reset(r->unique);
		sqlite3_bind_text(r->unique, 1, p->ids.key[c[i].uid],
		    (int)p->ids.keylen[c[i].uid], SQLITE_STATIC);
		if (sqlite3_step(r->unique) != SQLITE_ROW)
			continue;
		for (x = 0; x < r->nunique; x++) {
			const char *v = (const char *)sqlite3_column_text(
			    r->unique, x);
			if (x)
				rec_buf_addc(&k, '\x1f');
			rec_song_key(&k, v ? v : "", r->first[x]);
		}
		key[i] = k.data ? k.data : xstrdup("");
	}
	return key;
}

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

static struct item *
item_at(struct rec_ranker *r, size_t k)
{
	return (struct item *)r->items.val + k;
}

/* the item's index in r->items (added when new) */
static size_t
item_index(struct rec_ranker *r, const char *id, size_t idlen)
{
	return rec_hash_put(&r->items, id, idlen, NULL);
}

static void
add_tags(struct rec_hash *h, const char *json)
{
	struct rec_buf pk = {0}, err = {0}, n = {0};
	msgpack_zone z;
	msgpack_object o;
	size_t off = 0;
	uint32_t i;

	if (!json)
		return;
	msgpack_zone_init(&z, 1024);
	if (json[0] == '[' && !rec_json_to_msgpack(json, strlen(json), &pk,
	    NULL, &err) && msgpack_unpack(pk.data, pk.len, &off, &z, &o) ==
	    MSGPACK_UNPACK_SUCCESS && o.type == MSGPACK_OBJECT_ARRAY) {
		for (i = 0; i < o.via.array.size; i++)
			if (o.via.array.ptr[i].type == MSGPACK_OBJECT_STR) {
				rec_buf_reset(&n);
				rec_norm(&n, o.via.array.ptr[i].via.str.ptr,
				    o.via.array.ptr[i].via.str.size);
				if (n.len)
					rec_hash_put(h, n.data, n.len, NULL);
			}
	} else {
		rec_norm(&n, json, strlen(json));
		if (n.len)
			rec_hash_put(h, n.data, n.len, NULL);
	}
	msgpack_zone_destroy(&z);
	rec_buf_free(&pk);
	rec_buf_free(&err);
	rec_buf_free(&n);
}

static void
profile_read(struct rec_ranker *r, struct profile *p, const char *id,
    size_t idlen)
{
	struct rec_hash tags = {0};
	size_t i;
	char *v;

	memset(p, 0, sizeof *p);
	p->creator = -1;
	if (r->creator_col && (v = field_of(r, r->creator_col, id, idlen))) {
		struct rec_buf n = {0};
		rec_norm(&n, v, strlen(v));
		if (n.data)
			p->creator = (int64_t)rec_hash_put(&r->credict,
			    n.data, n.len, NULL);
		rec_buf_free(&n);
		free(v);
	}
	for (i = 0; i < r->tag_cols.n; i++) {
		v = field_of(r, r->tag_cols.v[i], id, idlen);
		add_tags(&tags, v);
		free(v);
	}
	p->ntags = tags.n;
	p->tags = xcalloc(tags.n + 1, sizeof *p->tags);
	for (i = 0; i < tags.n; i++)
		p->tags[i] = (uint32_t)rec_hash_put(&r->tagdict, tags.key[i],
		    tags.keylen[i], NULL);
	rec_hash_free(&tags);
}

static void
profile_free(struct profile *p)
{
	free(p->tags);
}

/* the profile of item k, read once; borrowed until the next call */
static const struct profile *
profile_of(struct rec_ranker *r, size_t k)
{
	if (!(item_at(r, k)->has & HAS_PROFILE)) {
		struct profile p;
		profile_read(r, &p, r->items.key[k], r->items.keylen[k]);
		item_at(r, k)->prof = p;
		item_at(r, k)->has |= HAS_PROFILE;
	}
	return &item_at(r, k)->prof;
}

/* A taste: the creators and tags of several items, a mark per index of
 * the ranker's dictionaries (an index past the end is unmarked). */
struct taste {
	unsigned char *cre, *tag;
	size_t ncre, ntag;
	size_t items;
};

static void
mark(unsigned char **m, size_t *n, size_t i)
{
	if (i >= *n) {
		size_t nn = *n ? *n : 64;
		while (nn <= i)
			nn *= 2;
		*m = xrealloc(*m, nn);
		memset(*m + *n, 0, nn - *n);
		*n = nn;
	}
	(*m)[i] = 1;
}

static void
taste_add(struct rec_ranker *r, struct taste *t, const char *id,
    size_t idlen)
{
	const struct profile *p = profile_of(r, item_index(r, id, idlen));
	size_t i;

	if (p->creator >= 0)
		mark(&t->cre, &t->ncre, (size_t)p->creator);
	for (i = 0; i < p->ntags; i++)
		mark(&t->tag, &t->ntag, p->tags[i]);
	t->items++;
}

static void
taste_free(struct taste *t)
{
	free(t->cre);
	free(t->tag);
}

/* 0..1: half for a shared creator, half for the share of the item's
 * tags the taste holds; *creator and *shared say which */
static double
affinity(struct rec_ranker *r, const struct taste *t, size_t k,
    int *creator, size_t *shared)
{
	const struct profile *p = profile_of(r, k);
	double a = 0;
	size_t i, n = 0;

	*creator = p->creator >= 0 && (size_t)p->creator < t->ncre &&
	    t->cre[p->creator];
	for (i = 0; i < p->ntags; i++)
		n += p->tags[i] < t->ntag && t->tag[p->tags[i]];
	a = 0.5 * *creator + (p->ntags ? 0.5 * (double)n / p->ntags : 0);
	*shared = n;
	return a;
}

/* the user's items marked seen in this list (seen 1), their taste into
 * t (or NULL); the last user's items are kept, as -u and -x name the
 * same one */
static void
history(struct rec_ranker *r, const char *user, int seen, struct taste *t)
{
	struct rec_strs *h = &r->hist_items;
	size_t i;

	if (!r->hist_user || strcmp(r->hist_user, user)) {
		sqlite3_stmt *st;
		if (!r->hist && sqlite3_prepare_v2(r->db, "SELECT item FROM "
		    "interactions WHERE user = ?", -1, &r->hist, NULL))
			rec_sqlite_die(r->db, "interactions");
		st = r->hist;
		rec_strs_free(h);
		free(r->hist_user);
		r->hist_user = xstrdup(user);
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW)
			rec_strs_push(h, (const char *)sqlite3_column_text(st,
			    0), (size_t)sqlite3_column_bytes(st, 0));
		sqlite3_reset(st);
	}
	if (!h->n)
		rec_die("user '%s' has no history in the catalog", user);
	for (i = 0; i < h->n; i++) {
		size_t len = strlen(h->v[i]);
		if (seen)
			item_at(r, item_index(r, h->v[i], len))->seen =
			    r->stamp;
		if (t)
			taste_add(r, t, h->v[i], len);
	}
}

static void
add_why(struct rec_cand *c, const char *fmt, const char *a)
{
	struct rec_buf b = {0};

	if (c->why)
		rec_buf_printf(&b, "%s; ", c->why);
	rec_buf_printf(&b, fmt, a);
	free(c->why);
	c->why = b.data;
}

/* The ranker's reasons, in the order they are written: a bit each in
 * rec_cand.reasons while ranking (most candidates are cut), the text
 * for those kept. */
static const char *const reason_text[] = {
	"by a creator in your history",
	"shares tags with your history",
	"same creator as one you like",
	"shares tags with ones you like",
	"less known",
	NULL
};
enum { WHY_U_CREATOR = 1, WHY_U_TAGS = 2, WHY_L_CREATOR = 4,
	WHY_L_TAGS = 8, WHY_LESS_KNOWN = 16 };

static void
write_reasons(struct rec_cand *c, size_t n)
{
	size_t i, b;

	for (i = 0; i < n; i++)
		for (b = 0; reason_text[b]; b++)
			if (c[i].reasons & (1u << b))
				add_why(&c[i], "%s", reason_text[b]);
}

/* The record jq sees: the first record, its score now, and "item" with
 * every catalog column when there is a catalog. */
static void
jq_view(struct rec_ranker *r, const struct rec_cand *c, msgpack_object *obj)
{
	static const char *const drop[] = { "score", "item", NULL };
	const struct rec_pool *p = r->pool;
	struct rec_buf *out = &r->view;
	msgpack_packer pk;
	msgpack_object first;
	size_t off = 0;
	int i, n;

	rec_pool_get(p, p->first[c->uid], &r->zone, &first);
	rec_buf_reset(out);
	msgpack_packer_init(&pk, out, rec_buf_msgpack_write);
	if (r->db && !r->all && sqlite3_prepare_v2(r->db, "SELECT * FROM "
	    "items WHERE id = ?", -1, &r->all, NULL))
		rec_sqlite_die(r->db, "items");
	if (r->all) {
		sqlite3_reset(r->all);
		sqlite3_bind_text(r->all, 1, p->ids.key[c->uid],
		    (int)p->ids.keylen[c->uid], SQLITE_STATIC);
	}
	rec_pack_map_except(&pk, &first, drop, 2);
	msgpack_pack_str_with_body(&pk, "score", 5);
	msgpack_pack_double(&pk, c->r.score);
	msgpack_pack_str_with_body(&pk, "item", 4);
	if (r->all && sqlite3_step(r->all) == SQLITE_ROW) {
		n = sqlite3_column_count(r->all);
		msgpack_pack_map(&pk, (uint32_t)n);
		for (i = 0; i < n; i++) {
			const char *name = sqlite3_column_name(r->all, i);
			msgpack_pack_str_with_body(&pk, name, strlen(name));
			switch (sqlite3_column_type(r->all, i)) {
			case SQLITE_NULL: msgpack_pack_nil(&pk); break;
			case SQLITE_INTEGER:
				msgpack_pack_int64(&pk,
				    sqlite3_column_int64(r->all, i));
				break;
			case SQLITE_FLOAT:
				msgpack_pack_double(&pk,
				    sqlite3_column_double(r->all, i));
				break;
			default: {
				const char *t = (const char *)
				    sqlite3_column_text(r->all, i);
				size_t len = (size_t)
				    sqlite3_column_bytes(r->all, i);
				struct rec_buf tmp = {0}, err = {0};
				if (t[0] == '[' && !rec_json_to_msgpack(t, len,
				    &tmp, NULL, &err))
					rec_buf_add(out, tmp.data, tmp.len);
				else
					msgpack_pack_str_with_body(&pk, t, len);
				rec_buf_free(&tmp);
				rec_buf_free(&err);
			}
			}
		}
	} else {
		const msgpack_object *it = rec_map_get(&first, "item");
		if (it)
			msgpack_pack_object(&pk, *it);
		else
			msgpack_pack_map(&pk, 0);
	}
	msgpack_zone_clear(&r->zone);
	msgpack_unpack(out->data, out->len, &off, &r->zone, obj);
}

/* libjq keeps the failed run's state until teardown: free it first */
static void __attribute__((noreturn))
jq_die(struct rec_ranker *r, const char *opt)
{
	rec_jq_free(r->o.by);
	rec_jq_free(r->o.where);
	rec_die("%s: %s", opt, r->err.data);
}

struct rec_ranker *
rec_ranker_new(const struct rec_rank_opts *o, sqlite3 *db)
{
	struct rec_ranker *r = xcalloc(1, sizeof *r);
	sqlite3_stmt *st;

	r->o = *o;
	r->db = db;
	r->items.vsize = sizeof(struct item);
	r->nitems = -1;
	if (db) {
		/* one read transaction for all the lists: a statement
		 * outside one takes and lets go of the file's lock (four
		 * system calls) each time, and items are read one by one */
		r->txn = sqlite3_get_autocommit(db) &&
		    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
		r->creator_col = rec_catalog_role(db, "creator");
		r->pop_col = rec_catalog_role(db, "popularity");
		if (sqlite3_prepare_v2(db, "SELECT name FROM columns WHERE "
		    "role IN ('tags', 'category') ORDER BY position", -1, &st,
		    NULL) == SQLITE_OK) {
			while (sqlite3_step(st) == SQLITE_ROW)
				rec_strs_push(&r->tag_cols, (const char *)
				    sqlite3_column_text(st, 0),
				    (size_t)sqlite3_column_bytes(st, 0));
			sqlite3_finalize(st);
		}
	}
	if (o->unique)
		unique_prepare(r, o->unique);
	if (o->novelty > 0 && !r->pop_col)
		rec_die("--novelty: the catalog has no popularity column");
	return r;
}

void
rec_ranker_free(struct rec_ranker *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->fields.n; i++)
		sqlite3_finalize(r->field[i]);
	free(r->field);
	rec_hash_free(&r->fields);
	for (i = 0; i < r->items.n; i++) {
		profile_free(&item_at(r, i)->prof);
		free(item_at(r, i)->divkey);
	}
	rec_hash_free(&r->items);
	free(r->gid);
	rec_hash_free(&r->tagdict);
	rec_hash_free(&r->credict);
	sqlite3_finalize(r->hist);
	free(r->hist_user);
	rec_strs_free(&r->hist_items);
	sqlite3_finalize(r->popcnt);
	sqlite3_finalize(r->unique);
	sqlite3_finalize(r->all);
	if (r->txn)
		sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL);
	free(r->creator_col);
	free(r->pop_col);
	rec_strs_free(&r->tag_cols);
	rec_jq_free(r->o.by);
	rec_jq_free(r->o.where);
	rec_buf_free(&r->view);
	rec_buf_free(&r->err);
	free(r);
}

/* with a fusion: which streams ranked each item, and where */
static void
provenance(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	const struct rec_pool *p = r->pool;
	struct rec_hash srcs = {0};
	size_t *rank = xcalloc(p->n + 1, sizeof *rank);
	size_t *cnt = xcalloc(p->n + 1, sizeof *cnt);
	char **label = xcalloc(p->n + 1, sizeof *label);
	msgpack_object o;
	size_t i, j;

	for (j = 0; j < p->n; j++) {
		const msgpack_object *s;
		size_t k;
		rec_pool_get(p, j, &r->zone, &o);
		s = rec_map_get(&o, "src");
		k = s && s->type == MSGPACK_OBJECT_STR ?
		    rec_hash_put(&srcs, s->via.str.ptr, s->via.str.size,
		    NULL) : rec_hash_put(&srcs, "?", 1, NULL);
		rank[j] = ++cnt[k];
		label[j] = srcs.key[k];
	}
	for (i = 0; i < n; i++) {
		struct rec_buf b = {0};
		for (j = p->first[c[i].uid]; j != (size_t)-1; j = p->next[j])
			rec_buf_printf(&b, "%s%s #%zu", b.len ? ", " : "",
			    label[j], rank[j]);
		add_why(&c[i], "ranked by %s", b.data);
		rec_buf_free(&b);
	}
	free(rank);
	free(cnt);
	free(label);
	rec_hash_free(&srcs);
}

/* removals: unwanted, seen, --where; returns the count left */
static size_t
removals(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	const struct rec_pool *p = r->pool;
	struct rec_hash unw = {0};
	size_t i, j;

	for (i = 0; i < r->o.unwanted.n; i++)
		rec_hash_put(&unw, r->o.unwanted.v[i],
		    strlen(r->o.unwanted.v[i]), NULL);
	if (r->o.seen_user)
		history(r, r->o.seen_user, 1, NULL);
	for (i = j = 0; i < n; i++) {
		const char *id = p->ids.key[c[i].uid];
		size_t len = p->ids.keylen[c[i].uid];
		int keep = (!unw.n || rec_hash_get(&unw, id, len) ==
		    (size_t)-1) && (!r->o.seen_user ||
		    item_at(r, r->gid[c[i].uid])->seen != r->stamp);
		if (keep && r->o.where) {
			msgpack_object o;
			jq_view(r, &c[i], &o);
			if (!rec_jq_truth(r->o.where, &o, &keep, &r->err))
				jq_die(r, "--where");
		}
		if (keep)
			c[j++] = c[i];
		else
			free(c[i].why);
	}
	rec_hash_free(&unw);
	return j;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Every item's share of the catalog less popular than it (what
 * "SELECT count(*) FROM items WHERE pop < value" over the count of
 * items says), from one read of the column: its values sorted, each
 * one's place found by bisection.  A column holding anything but
 * numbers that doubles hold exactly is left to the query, item by
 * item. */
static void
popularity_shares(struct rec_ranker *r)
{
	struct rec_buf sql = {0};
	sqlite3_stmt *st, *tot;
	double *v = NULL, *val = NULL;
	size_t n = 0, nv = 0, cap = 0, i, k;
	char **ids = NULL;
	size_t *idlen = NULL;
	int exact = 1;

	rec_buf_printf(&sql, "SELECT count(*) FROM items WHERE \"%s\" < ?",
	    r->pop_col);
	if (sqlite3_prepare_v2(r->db, sql.data, -1, &r->popcnt, NULL) ||
	    sqlite3_prepare_v2(r->db, "SELECT count(*) FROM items", -1, &tot,
	    NULL) || sqlite3_step(tot) != SQLITE_ROW)
		rec_sqlite_die(r->db, "popularity");
	r->nitems = (double)sqlite3_column_int64(tot, 0);
	sqlite3_finalize(tot);
	rec_buf_reset(&sql);
	rec_buf_printf(&sql, "SELECT id, \"%s\" FROM items", r->pop_col);
	if (sqlite3_prepare_v2(r->db, sql.data, -1, &st, NULL))
		rec_sqlite_die(r->db, "popularity");
	while (exact && sqlite3_step(st) == SQLITE_ROW) {
		int t = sqlite3_column_type(st, 1);
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			v = xrealloc(v, cap * sizeof *v);
			val = xrealloc(val, cap * sizeof *val);
			ids = xrealloc(ids, cap * sizeof *ids);
			idlen = xrealloc(idlen, cap * sizeof *idlen);
		}
		ids[n] = xstrndup((const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0));
		idlen[n] = (size_t)sqlite3_column_bytes(st, 0);
		if (t == SQLITE_NULL)
			val[n] = NAN;	/* unknown */
		else if (t == SQLITE_FLOAT || (t == SQLITE_INTEGER &&
		    sqlite3_column_int64(st, 1) < (1LL << 53) &&
		    sqlite3_column_int64(st, 1) > -(1LL << 53))) {
			/* as field_of's text, read back by atof */
			val[n] = atof((const char *)
			    sqlite3_column_text(st, 1));
			v[nv++] = sqlite3_column_double(st, 1);
		} else
			exact = 0;
		n++;
	}
	sqlite3_finalize(st);
	if (exact) {
		qsort(v, nv, sizeof *v, cmp_double);
		for (i = 0; i < n; i++) {
			double pct = 0.5;
			if (!isnan(val[i]) && r->nitems > 0) {
				size_t lo = 0, hi = nv;	/* first >= val */
				while (lo < hi) {
					size_t mid = lo + (hi - lo) / 2;
					if (v[mid] < val[i])
						lo = mid + 1;
					else
						hi = mid;
				}
				pct = (double)(sqlite3_int64)lo / r->nitems;
			}
			k = item_index(r, ids[i], idlen[i]);
			item_at(r, k)->pct = pct;
			item_at(r, k)->has |= HAS_PCT;
		}
	}
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	free(idlen);
	free(v);
	free(val);
	rec_buf_free(&sql);
}

/* --novelty: (1 - novelty) of the boosted score (back to 0..1) plus
 * novelty times the share of items more popular than this one */
static void
novelty(struct rec_ranker *r, struct rec_cand *c, size_t n, double scale)
{
	const struct rec_pool *p = r->pool;
	double nov = r->o.novelty;
	size_t i;

	if (r->nitems < 0)
		popularity_shares(r);
	for (i = 0; i < n; i++) {
		const char *id = p->ids.key[c[i].uid];
		size_t len = p->ids.keylen[c[i].uid], k = r->gid[c[i].uid];
		double pct = 0.5;	/* unknown: middling */

		if (!(item_at(r, k)->has & HAS_PCT)) {
			char *pv = field_of(r, r->pop_col, id, len);
			if (pv) {
				sqlite3_reset(r->popcnt);
				sqlite3_bind_double(r->popcnt, 1, atof(pv));
				if (sqlite3_step(r->popcnt) == SQLITE_ROW &&
				    r->nitems > 0)
					pct = sqlite3_column_int64(r->popcnt,
					    0) / r->nitems;
				sqlite3_reset(r->popcnt);
				free(pv);
			}
			item_at(r, k)->pct = pct;
			item_at(r, k)->has |= HAS_PCT;
		} else
			pct = item_at(r, k)->pct;
		c[i].r.score = (1 - nov) * c[i].r.score / scale +
		    nov * (1 - pct);
		if (pct < 0.5)
			c[i].reasons |= WHY_LESS_KNOWN;
	}
}

/* w times c's affinity to the taste t, and why: a shared creator, else
 * shared tags */
static double
boost(struct rec_ranker *r, const struct taste *t, double w,
    struct rec_cand *c, unsigned creator, unsigned tags)
{
	size_t sh;
	int cr;
	double a = affinity(r, t, r->gid[c->uid], &cr, &sh);

	if (cr)
		c->reasons |= creator;
	else if (sh)
		c->reasons |= tags;
	return w * a;
}

/* boosts work on scores scaled to 0..1 */
static void
boosts(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	const struct rec_rank_opts *o = &r->o;
	double lo = INFINITY, hi = -INFINITY;
	struct taste ut, lt;
	size_t i;

	memset(&ut, 0, sizeof ut);
	memset(&lt, 0, sizeof lt);
	if (o->user)
		history(r, o->user, 0, &ut);
	for (i = 0; i < o->like.n; i++)
		taste_add(r, &lt, o->like.v[i], strlen(o->like.v[i]));
	for (i = 0; i < n; i++) {
		if (c[i].r.score < lo)
			lo = c[i].r.score;
		if (c[i].r.score > hi)
			hi = c[i].r.score;
	}
	for (i = 0; i < n; i++) {
		double s = hi > lo ? (c[i].r.score - lo) / (hi - lo) : 1;
		if (o->user)
			s += boost(r, &ut, o->personal, &c[i], WHY_U_CREATOR,
			    WHY_U_TAGS);
		if (o->like.n)
			s += boost(r, &lt, o->like_weight, &c[i],
			    WHY_L_CREATOR, WHY_L_TAGS);
		c[i].r.score = s;
	}
	if (o->novelty > 0)
		novelty(r, c, n, 1 + (o->user ? o->personal : 0) +
		    (o->like.n ? o->like_weight : 0));
	taste_free(&ut);
	taste_free(&lt);
}

/* --unique: the same song twice (two releases, two sources): the
 * better placed stays */
static size_t
unique(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	char **key = unique_keys(r, c, n);
	struct rec_hash h = {0};
	size_t i, j;

	for (i = j = 0; i < n; i++) {
		int added = 1;
		if (key[i])
			rec_hash_put(&h, key[i], strlen(key[i]), &added);
		if (added)
			c[j++] = c[i];
		else
			free(c[i].why);
		free(key[i]);
	}
	free(key);
	rec_hash_free(&h);
	return j;
}

/* --diversify: at most per candidates for each value of the field; a
 * value naming several ("Lady Gaga, Beyoncé", "A feat. B") counts as
 * its first name, so one artist's duets do not get round the cap */
static size_t
diversify(struct rec_ranker *r, struct rec_cand *c, size_t n)
{
	const struct rec_pool *p = r->pool;
	char **key = xcalloc(n + 1, sizeof *key);
	size_t i, m;

	for (i = 0; i < n; i++) {
		const char *id = p->ids.key[c[i].uid];
		size_t len = p->ids.keylen[c[i].uid], k = r->gid[c[i].uid];

		if (!(item_at(r, k)->has & HAS_DIVKEY)) {
			char *v = field_of(r, r->o.diversify, id, len), *dk = NULL;
			if (v) {
				struct rec_buf b = {0};
				rec_song_key(&b, v, 1);
				dk = b.data ? b.data : xstrdup("");
				free(v);
			}
			item_at(r, k)->divkey = dk;
			item_at(r, k)->has |= HAS_DIVKEY;
		}
		key[i] = item_at(r, k)->divkey;	/* borrowed */
	}
	m = rec_rank_cap(c, n, key, r->o.per);
	free(key);
	return m;
}

/* --mmr over the vectors of --space, for the first k */
static void
mmr(struct rec_ranker *r, struct rec_cand *c, size_t n, size_t k)
{
	const struct rec_pool *p = r->pool;
	int dim = rec_catalog_space(r->db, r->o.space);
	float **vec, *store;
	size_t i;

	if (!dim)
		rec_die("no vector space '%s' in the catalog (add one with "
		    "rec-import vectors)", r->o.space);
	store = xcalloc(n * (size_t)dim + 1, sizeof *store);
	vec = xcalloc(n + 1, sizeof *vec);
	for (i = 0; i < n; i++)
		if (rec_catalog_vector(r->db, r->o.space, p->ids.key[c[i].uid],
		    p->ids.keylen[c[i].uid], store + i * (size_t)dim, dim))
			vec[i] = store + i * (size_t)dim;
	rec_rank_mmr(c, n, (const float *const *)vec, (size_t)dim, r->o.mmr,
	    k);
	free(vec);
	free(store);
}

void
rec_ranker_cut(struct rec_ranker *r, int has, double cut)
{
	r->has_cut = has;
	r->cut = cut;
}

int
rec_ranker_sure(const struct rec_ranker *r)
{
	return r->sure;
}

/* Whether the list of a cut pool is the whole pool's.  The records left
 * out scored between lo, the last record's (the lowest of the list), and
 * r->cut.  With the last record kept by the removals, lo and hi are the
 * whole pool's, so every candidate ranked has the score it would have
 * had; one left out would have had at most its scaled score plus the
 * largest boosts (an affinity of 0.5 per creator and per tags the
 * catalog has, a novelty of 1).  Sorting puts everything scored below
 * the limit-th candidate after it, and the per-value caps and --unique
 * keep the first of each in that order, so such candidates change
 * nothing before it: the list is the whole one's when the bound is
 * below the limit-th's score (by a margin for rounding). */
static int
cut_sure(const struct rec_ranker *r, const struct rec_cand *c, size_t n,
    double lo, double hi, int last_kept)
{
	const struct rec_rank_opts *o = &r->o;
	double ub, amax, t;

	if (o->fuse.mode != REC_FUSE_BEST || o->by || o->where ||
	    o->mmr >= 0 || !last_kept || !o->limit ||
	    o->limit == (size_t)-1 || n < o->limit || !(r->cut >= lo))
		return 0;
	t = c[o->limit - 1].r.score;
	if (o->user || o->like.n || o->novelty > 0) {
		amax = (r->creator_col ? 0.5 : 0) + (r->tag_cols.n ? 0.5 : 0);
		ub = hi > lo ? (r->cut - lo) / (hi - lo) : 1;
		if (o->user)
			ub += o->personal * amax;
		if (o->like.n)
			ub += o->like_weight * amax;
		if (o->novelty > 0)
			ub = (1 - o->novelty) * ub / (1 + (o->user ?
			    o->personal : 0) + (o->like.n ? o->like_weight :
			    0)) + o->novelty;
	} else
		ub = r->cut;
	return ub + 1e-9 * (fabs(ub) + 1) < t;
}

void
rec_ranker_user(struct rec_ranker *r, const char *user,
    const char *seen_user)
{
	r->o.user = user;
	r->o.seen_user = seen_user;
}

size_t
rec_ranker_rank(struct rec_ranker *r, const struct rec_pool *p,
    struct rec_cand **out)
{
	const struct rec_rank_opts *o = &r->o;
	struct rec_cand *c;
	size_t n, i;
	double cut_lo = 0, cut_hi = 0;
	int last_kept = 0;

	r->pool = p;
	msgpack_zone_init(&r->zone, 4096);
	if (++r->stamp == 0) {
		/* a new stamp for this list; on wrapping, none is current */
		for (i = 0; i < r->items.n; i++)
			item_at(r, i)->seen = 0;
		r->stamp = 1;
	}
	if (r->db) {
		/* the pool's ids once into the ranker's items: the stages
		 * below find an item by its index */
		if (p->ids.n + 1 > r->capgid) {
			r->capgid = p->ids.n + 1;
			r->gid = xrealloc(r->gid, r->capgid * sizeof *r->gid);
		}
		for (i = 0; i < p->ids.n; i++)
			r->gid[i] = item_index(r, p->ids.key[i],
			    p->ids.keylen[i]);
	}
	n = rec_fuse(p, &o->fuse, &c);
	if (o->fuse.mode != REC_FUSE_BEST)
		provenance(r, c, n);
	n = removals(r, c, n);
	if (r->has_cut && p->n) {
		/* the pool's last record, the lowest of the cut list: its
		 * id once in the pool, kept, its score the lowest */
		size_t last = rec_hash_get(&p->ids, p->raw.data +
		    p->idoff[p->n - 1], p->idlen[p->n - 1]), at = n;
		cut_lo = INFINITY;
		cut_hi = -INFINITY;
		for (i = 0; i < n; i++) {
			if (c[i].r.score < cut_lo)
				cut_lo = c[i].r.score;
			if (c[i].r.score > cut_hi)
				cut_hi = c[i].r.score;
			if (c[i].uid == last)
				at = i;
		}
		last_kept = at < n && p->first[last] == p->n - 1 &&
		    c[at].r.score == cut_lo;
	}
	if (o->by)
		for (i = 0; i < n; i++) {
			msgpack_object obj;
			jq_view(r, &c[i], &obj);
			if (!rec_jq_number(o->by, &obj, &c[i].r.score, &r->err))
				jq_die(r, "--by");
		}
	if ((o->user || o->like.n || o->novelty > 0) && n)
		boosts(r, c, n);
	rec_rank_sort(c, n);
	if (o->unique)
		n = unique(r, c, n);
	if (o->diversify)
		n = diversify(r, c, n);
	if (o->mmr >= 0)
		mmr(r, c, n, o->limit < n ? o->limit : n);
	r->sure = !r->has_cut || cut_sure(r, c, n, cut_lo, cut_hi, last_kept);
	for (i = o->limit; i < n; i++)
		free(c[i].why);
	if (n > o->limit)
		n = o->limit;
	write_reasons(c, n);
	msgpack_zone_destroy(&r->zone);
	r->pool = NULL;
	*out = c;
	return n;
}
