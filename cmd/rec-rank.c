/*
 * rec-rank: the final stage: fuse streams, personalise, boost, remove,
 * rescore, favour the less popular, one record per song, diversify, cut.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "retrieve.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-rank [-M] [-d CATALOG] [-F MODE] [-R K] [-W SRC=W] "
	    "[-u USER] [-P W]\n"
	    "                [-x USER] [-l ID,...] [-L W] [-n ID,...] "
	    "[-N W] [-U FIELD,...]\n"
	    "                [-D FIELD] [-p N] "
	    "[-m LAMBDA -S SPACE] [-b EXPR] [-w EXPR] [-k N]\n"
	    "                [-s NAME]\n"
	    "  -F, --fuse MODE         rrf, sum or max: merge the streams "
	    "told apart by src\n"
	    "  -R, --rrf-k K           the k of reciprocal rank fusion "
	    "(default 60)\n"
	    "  -W, --weight SRC=W      a source's weight in the fusion "
	    "(default 1)\n"
	    "  -u, --user USER         favour what the user's history "
	    "favours\n"
	    "  -P, --personal W        how much (default 0.3)\n"
	    "  -x, --exclude-seen USER drop what the user already has\n"
	    "  -l, --like ID,...       favour items like these\n"
	    "  -L, --like-weight W     how much (default 0.3)\n"
	    "  -n, --unwanted ID,...   remove these, and their creators' "
	    "other items with -n creator\n"
	    "  -N, --novelty W         trade relevance for the less popular, "
	    "0 to 1\n"
	    "  -U, --unique FIELD,...  keep the best of the records that "
	    "share these fields\n"
	    "                          (one song: title,creator)\n"
	    "  -D, --diversify FIELD   at most --per items per value of FIELD\n"
	    "  -p, --per N             (default 1)\n"
	    "  -m, --mmr LAMBDA        maximal marginal relevance over --space\n"
	    "  -S, --space SPACE       the vector space of --mmr\n"
	    "  -b, --by EXPR           the score from a jq expression (.score,"
	    " .item)\n"
	    "  -w, --where EXPR        keep records for which EXPR is true\n"
	    "  -k, --limit N           write at most N records\n"
	    "  -s, --as NAME           the src of the records (default rank)\n"
	    "  -d, --db CATALOG        the catalog (default $REC_DB)\n"
	    "  -M, --msgpack           write msgpack instead of JSONL\n"
	    "  -h, --help              print this help\n"
	    "  -V, --version           print the version\n");
}

static sqlite3 *db;
static const char *dbpath;
static struct rec_pool pool;
static char *creator_col, *pop_col, **tag_cols;
static size_t ntag_cols;

static void
need_db(const char *why)
{
	sqlite3_stmt *st;

	if (db)
		return;
	if (!dbpath && !getenv("REC_DB"))
		rec_usage_die("%s needs a catalog: give -d CATALOG or set "
		    "REC_DB", why);
	db = rec_catalog_open(dbpath);
	creator_col = rec_catalog_role(db, "creator");
	pop_col = rec_catalog_role(db, "popularity");
	if (sqlite3_prepare_v2(db, "SELECT name FROM columns WHERE role IN "
	    "('tags', 'category') ORDER BY position", -1, &st, NULL) ==
	    SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			tag_cols = xrealloc(tag_cols, (ntag_cols + 1) *
			    sizeof *tag_cols);
			tag_cols[ntag_cols++] = xstrdup((const char *)
			    sqlite3_column_text(st, 0));
		}
		sqlite3_finalize(st);
	}
}

/* the value of a column for an item, as text (NULL when missing);
 * a role name stands for its column; caller frees */
static char *
field_of(const char *field, const char *id, size_t idlen)
{
	static sqlite3_stmt *st;
	static char *for_field;
	char *v = NULL;

	if (!for_field || strcmp(for_field, field)) {
		struct rec_buf sql = {0};
		char *col = NULL;
		free(for_field);
		for_field = xstrdup(field);
		if (st)
			sqlite3_finalize(st);
		if (!rec_catalog_column(db, field, NULL, NULL, 0) &&
		    !(col = rec_catalog_role(db, field)))
			rec_usage_die("no column or role '%s' in the catalog",
			    field);
		rec_buf_printf(&sql, "SELECT \"%s\" FROM items WHERE id = ?",
		    col ? col : field);
		free(col);
		if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL))
			rec_sqlite_die(db, "items");
		rec_buf_free(&sql);
	}
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, id, (int)idlen, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	return v;
}

/* -U: one statement that reads an item's fields, prepared before any
 * input is read so that a bad field is an error at once */
struct unique {
	sqlite3_stmt *st;
	int nf, first[64];	/* first: the field is the creator's */
};

static void
unique_prepare(struct unique *u, const char *list)
{
	struct rec_buf sql = {0};
	char *fields = xstrdup(list), *f, *save = NULL;

	u->nf = 0;
	rec_buf_adds(&sql, "SELECT ");
	for (f = strtok_r(fields, ",", &save); f;
	    f = strtok_r(NULL, ",", &save)) {
		char *col = NULL;
		if (u->nf == 64)
			rec_usage_die("--unique: at most 64 fields");
		if (!rec_catalog_column(db, f, NULL, NULL, 0) &&
		    !(col = rec_catalog_role(db, f)))
			rec_usage_die("--unique: no column or role '%s' in the "
			    "catalog", f);
		u->first[u->nf] = !strcmp(f, "creator") || (creator_col &&
		    !strcmp(col ? col : f, creator_col));
		rec_buf_printf(&sql, "%s\"%s\"", u->nf++ ? ", " : "",
		    col ? col : f);
		free(col);
	}
	if (!u->nf)
		rec_usage_die("--unique: give one field or more");
	rec_buf_adds(&sql, " FROM items WHERE id = ?");
	if (sqlite3_prepare_v2(db, sql.data, -1, &u->st, NULL))
		rec_sqlite_die(db, "items");
	rec_buf_free(&sql);
	free(fields);
}

/* the fields of -U for each candidate, as one key (NULL for an item not
 * in the catalog: such records are all kept) */
static char **
unique_keys(struct unique *u, const struct rec_cand *c, size_t n)
{
	char **key = xcalloc(n + 1, sizeof *key);
	size_t i;

	for (i = 0; i < n; i++) {
		struct rec_buf k = {0};
		int x;
		sqlite3_reset(u->st);
		sqlite3_bind_text(u->st, 1, pool.ids.key[c[i].uid],
		    (int)pool.ids.keylen[c[i].uid], SQLITE_STATIC);
		if (sqlite3_step(u->st) != SQLITE_ROW)
			continue;
		for (x = 0; x < u->nf; x++) {
			const char *v = (const char *)sqlite3_column_text(u->st,
			    x);
			if (x)
				rec_buf_addc(&k, '\x1f');
			rec_song_key(&k, v ? v : "", u->first[x]);
		}
		key[i] = k.data ? k.data : xstrdup("");
	}
	return key;
}

/* An item's profile: its creator, folded, and its tags, folded. */
struct profile {
	char *creator;
	struct rec_hash tags;
};

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
profile_of(struct profile *p, const char *id, size_t idlen)
{
	size_t i;
	char *v;

	memset(p, 0, sizeof *p);
	if (creator_col && (v = field_of(creator_col, id, idlen))) {
		struct rec_buf n = {0};
		rec_norm(&n, v, strlen(v));
		p->creator = n.data;
		free(v);
	}
	for (i = 0; i < ntag_cols; i++) {
		v = field_of(tag_cols[i], id, idlen);
		add_tags(&p->tags, v);
		free(v);
	}
}

static void
profile_free(struct profile *p)
{
	free(p->creator);
	rec_hash_free(&p->tags);
}

/* A taste: creators and tags of several items, with counts. */
struct taste {
	struct rec_hash creators, tags;
	size_t items;
};

static void
taste_add(struct taste *t, const char *id, size_t idlen)
{
	struct profile p;
	size_t i;

	profile_of(&p, id, idlen);
	if (p.creator)
		rec_hash_put(&t->creators, p.creator, strlen(p.creator), NULL);
	for (i = 0; i < p.tags.n; i++)
		rec_hash_put(&t->tags, p.tags.key[i], p.tags.keylen[i], NULL);
	t->items++;
	profile_free(&p);
}

/* 0..1: half for a shared creator, half for the share of the item's
 * tags the taste holds; *why says which */
static double
affinity(const struct taste *t, const char *id, size_t idlen, int *creator,
    size_t *shared)
{
	struct profile p;
	double a = 0;
	size_t i, n = 0;

	profile_of(&p, id, idlen);
	*creator = p.creator && rec_hash_get(&t->creators, p.creator,
	    strlen(p.creator)) != (size_t)-1;
	for (i = 0; i < p.tags.n; i++)
		n += rec_hash_get(&t->tags, p.tags.key[i], p.tags.keylen[i]) !=
		    (size_t)-1;
	a = 0.5 * *creator + (p.tags.n ? 0.5 * (double)n / p.tags.n : 0);
	*shared = n;
	profile_free(&p);
	return a;
}

static void
history(const char *user, struct rec_hash *seen, struct taste *t)
{
	sqlite3_stmt *st;
	size_t n = 0;

	if (sqlite3_prepare_v2(db, "SELECT item FROM interactions WHERE user "
	    "= ?", -1, &st, NULL))
		rec_sqlite_die(db, "interactions");
	sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *it = (const char *)sqlite3_column_text(st, 0);
		size_t len = (size_t)sqlite3_column_bytes(st, 0);
		if (seen)
			rec_hash_put(seen, it, len, NULL);
		if (t)
			taste_add(t, it, len);
		n++;
	}
	sqlite3_finalize(st);
	if (!n)
		rec_die("user '%s' has no history in the catalog", user);
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

static void
split_list(char ***v, size_t *n, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok;
	    tok = strtok_r(NULL, ",", &save)) {
		*v = xrealloc(*v, (*n + 1) * sizeof **v);
		(*v)[(*n)++] = xstrdup(tok);
	}
	free(copy);
}

/* The record as written: its first record's keys, every source's
 * score under scores, the new score, src and reasons; item fields when
 * the expression needs them (item_map). */
static void
pack_out(msgpack_packer *pk, const struct rec_cand *c, const char *src,
    msgpack_zone *zone)
{
	msgpack_object first, o;
	const msgpack_object *why, *sc;
	struct rec_buf tmp = {0};
	msgpack_packer tp;
	size_t j, nkeys = 0;
	uint32_t i;
	static const char *const mine[] = { "id", "score", "src", "scores",
	    "why", NULL };
	struct rec_hash names = {0};
	size_t nsv = 0;

	rec_pool_get(&pool, pool.first[c->uid], zone, &first);
	msgpack_packer_init(&tp, &tmp, rec_buf_msgpack_write);
	/* every source's score from every record of this id, the first
	 * seen of each name, into tmp as the body of a map */
	for (j = pool.first[c->uid]; j != (size_t)-1; j = pool.next[j]) {
		msgpack_zone z;
		msgpack_zone_init(&z, 1024);
		rec_pool_get(&pool, j, &z, &o);
		sc = rec_map_get(&o, "scores");
		for (i = 0; sc && sc->type == MSGPACK_OBJECT_MAP &&
		    i < sc->via.map.size; i++) {
			const msgpack_object *k = &sc->via.map.ptr[i].key;
			if (k->type != MSGPACK_OBJECT_STR ||
			    (k->via.str.size == strlen(src) &&
			    !memcmp(k->via.str.ptr, src, strlen(src))))
				continue;
			{
				int added;
				rec_hash_put(&names, k->via.str.ptr,
				    k->via.str.size, &added);
				if (added) {
					msgpack_pack_object(&tp, *k);
					msgpack_pack_object(&tp,
					    sc->via.map.ptr[i].val);
					nsv++;
				}
			}
		}
		{
			const msgpack_object *s = rec_map_get(&o, "src"),
			    *v = rec_map_get(&o, "score");
			int added;
			if (s && v && s->type == MSGPACK_OBJECT_STR &&
			    (s->via.str.size != strlen(src) ||
			    memcmp(s->via.str.ptr, src, strlen(src)))) {
				rec_hash_put(&names, s->via.str.ptr,
				    s->via.str.size, &added);
				if (added) {
					msgpack_pack_object(&tp, *s);
					msgpack_pack_object(&tp, *v);
					nsv++;
				}
			}
		}
		msgpack_zone_destroy(&z);
	}
	for (i = 0; i < first.via.map.size; i++) {
		for (j = 0; mine[j]; j++) {
			const msgpack_object *k = &first.via.map.ptr[i].key;
			if (k->type == MSGPACK_OBJECT_STR &&
			    k->via.str.size == strlen(mine[j]) &&
			    !memcmp(k->via.str.ptr, mine[j], k->via.str.size))
				break;
		}
		nkeys += !mine[j];
	}
	why = rec_map_get(&first, "why");
	msgpack_pack_map(pk, (uint32_t)(nkeys + 4 + (why || c->why ? 1 : 0)));
	msgpack_pack_str_with_body(pk, "id", 2);
	msgpack_pack_str_with_body(pk, pool.ids.key[c->uid],
	    pool.ids.keylen[c->uid]);
	msgpack_pack_str_with_body(pk, "score", 5);
	msgpack_pack_double(pk, c->r.score);
	msgpack_pack_str_with_body(pk, "src", 3);
	msgpack_pack_str_with_body(pk, src, strlen(src));
	msgpack_pack_str_with_body(pk, "scores", 6);
	msgpack_pack_map(pk, (uint32_t)nsv + 1);
	rec_buf_add(pk->data, tmp.data, tmp.len);
	msgpack_pack_str_with_body(pk, src, strlen(src));
	msgpack_pack_double(pk, c->r.score);
	if (why || c->why) {
		uint32_t nw = why ? (why->type == MSGPACK_OBJECT_ARRAY ?
		    why->via.array.size : 1) : 0;
		msgpack_pack_str_with_body(pk, "why", 3);
		if (!c->why)
			msgpack_pack_object(pk, *why);
		else if (!why)
			msgpack_pack_str_with_body(pk, c->why, strlen(c->why));
		else {
			msgpack_pack_array(pk, nw + 1);
			if (why->type == MSGPACK_OBJECT_ARRAY)
				for (i = 0; i < nw; i++)
					msgpack_pack_object(pk,
					    why->via.array.ptr[i]);
			else
				msgpack_pack_object(pk, *why);
			msgpack_pack_str_with_body(pk, c->why, strlen(c->why));
		}
	}
	for (i = 0; i < first.via.map.size; i++) {
		for (j = 0; mine[j]; j++) {
			const msgpack_object *k = &first.via.map.ptr[i].key;
			if (k->type == MSGPACK_OBJECT_STR &&
			    k->via.str.size == strlen(mine[j]) &&
			    !memcmp(k->via.str.ptr, mine[j], k->via.str.size))
				break;
		}
		if (!mine[j]) {
			msgpack_pack_object(pk, first.via.map.ptr[i].key);
			msgpack_pack_object(pk, first.via.map.ptr[i].val);
		}
	}
	rec_hash_free(&names);
	rec_buf_free(&tmp);
}

/* The record jq sees: the first record, its score now, and "item" with
 * every catalog column when there is a catalog. */
static void
jq_view(struct rec_buf *out, const struct rec_cand *c, msgpack_zone *zone,
    msgpack_object *obj)
{
	static const char *const drop[] = { "score", "item", NULL };
	static sqlite3_stmt *all;
	msgpack_packer pk;
	msgpack_object first;
	size_t off = 0;
	int i, n;

	rec_pool_get(&pool, pool.first[c->uid], zone, &first);
	rec_buf_reset(out);
	msgpack_packer_init(&pk, out, rec_buf_msgpack_write);
	if (db && !all && sqlite3_prepare_v2(db, "SELECT * FROM items WHERE "
	    "id = ?", -1, &all, NULL))
		rec_sqlite_die(db, "items");
	if (all) {
		sqlite3_reset(all);
		sqlite3_bind_text(all, 1, pool.ids.key[c->uid],
		    (int)pool.ids.keylen[c->uid], SQLITE_STATIC);
	}
	rec_pack_map_except(&pk, &first, drop, 2);
	msgpack_pack_str_with_body(&pk, "score", 5);
	msgpack_pack_double(&pk, c->r.score);
	msgpack_pack_str_with_body(&pk, "item", 4);
	if (all && sqlite3_step(all) == SQLITE_ROW) {
		n = sqlite3_column_count(all);
		msgpack_pack_map(&pk, (uint32_t)n);
		for (i = 0; i < n; i++) {
			const char *name = sqlite3_column_name(all, i);
			msgpack_pack_str_with_body(&pk, name, strlen(name));
			switch (sqlite3_column_type(all, i)) {
			case SQLITE_NULL: msgpack_pack_nil(&pk); break;
			case SQLITE_INTEGER:
				msgpack_pack_int64(&pk,
				    sqlite3_column_int64(all, i));
				break;
			case SQLITE_FLOAT:
				msgpack_pack_double(&pk,
				    sqlite3_column_double(all, i));
				break;
			default: {
				const char *t = (const char *)
				    sqlite3_column_text(all, i);
				size_t len = (size_t)sqlite3_column_bytes(all, i);
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
	msgpack_zone_clear(zone);
	msgpack_unpack(out->data, out->len, &off, zone, obj);
}

/* libjq keeps the failed run's state until teardown: free it first */
static void __attribute__((noreturn))
jq_die(const char *opt, struct rec_buf *err, struct rec_jq *a,
    struct rec_jq *b)
{
	rec_jq_free(a);
	rec_jq_free(b);
	rec_die("%s: %s", opt, err->data);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "fuse", required_argument, NULL, 'F' },
		{ "rrf-k", required_argument, NULL, 'R' },
		{ "weight", required_argument, NULL, 'W' },
		{ "user", required_argument, NULL, 'u' },
		{ "personal", required_argument, NULL, 'P' },
		{ "exclude-seen", required_argument, NULL, 'x' },
		{ "like", required_argument, NULL, 'l' },
		{ "like-weight", required_argument, NULL, 'L' },
		{ "unwanted", required_argument, NULL, 'n' },
		{ "novelty", required_argument, NULL, 'N' },
		{ "unique", required_argument, NULL, 'U' },
		{ "diversify", required_argument, NULL, 'D' },
		{ "per", required_argument, NULL, 'p' },
		{ "mmr", required_argument, NULL, 'm' },
		{ "space", required_argument, NULL, 'S' },
		{ "by", required_argument, NULL, 'b' },
		{ "where", required_argument, NULL, 'w' },
		{ "limit", required_argument, NULL, 'k' },
		{ "as", required_argument, NULL, 's' },
		{ "db", required_argument, NULL, 'd' },
		{ "msgpack", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct rec_fuse_opts fo = { REC_FUSE_BEST, 60, NULL, NULL, 0 };
	const char **wsrc = NULL, *user = NULL, *seenuser = NULL;
	const char *divfield = NULL, *unique = NULL, *space = NULL, *by = NULL, *where = NULL;
	const char *src = "rank";
	double *w = NULL, personal = 0.3, likew = 0.3, novelty = 0, mmr = -1;
	char **like = NULL, **unwanted = NULL;
	size_t nlike = 0, nunwanted = 0, per = 1, limit = (size_t)-1;
	size_t n, i, j;
	struct rec_cand *c;
	struct rec_reader r;
	struct rec_writer wr;
	struct rec_buf out = {0}, err = {0}, view = {0};
	struct rec_jq *jby = NULL, *jwhere = NULL;
	msgpack_packer pk;
	msgpack_zone zone;
	struct unique uq;
	int ch, mp = 0;

	rec_init(argc, argv);
	while ((ch = getopt_long(argc, argv,
	    ":F:R:W:u:P:x:l:L:n:N:U:D:p:m:S:b:w:k:s:d:MhV", longopts, NULL)) != -1)
		switch (ch) {
		case 'F':
			if (!strcmp(optarg, "rrf"))
				fo.mode = REC_FUSE_RRF;
			else if (!strcmp(optarg, "sum"))
				fo.mode = REC_FUSE_SUM;
			else if (!strcmp(optarg, "max"))
				fo.mode = REC_FUSE_MAX;
			else
				rec_usage_die("--fuse: unknown mode '%s' (rrf, "
				    "sum or max)", optarg);
			break;
		case 'R': fo.rrf_k = rec_arg_number("--rrf-k", optarg, 0, 1e9); break;
		case 'W': {
			const char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				rec_usage_die("--weight: expected SRC=W, got "
				    "'%s'", optarg);
			wsrc = xrealloc(wsrc, (fo.nw + 1) * sizeof *wsrc);
			w = xrealloc(w, (fo.nw + 1) * sizeof *w);
			wsrc[fo.nw] = xstrndup(optarg, (size_t)(eq - optarg));
			w[fo.nw++] = rec_arg_number("--weight", eq + 1, -1e9, 1e9);
			break;
		}
		case 'u': user = optarg; break;
		case 'P': personal = rec_arg_number("--personal", optarg, 0, 100); break;
		case 'x': seenuser = optarg; break;
		case 'l': split_list(&like, &nlike, optarg); break;
		case 'L': likew = rec_arg_number("--like-weight", optarg, 0, 100); break;
		case 'n': split_list(&unwanted, &nunwanted, optarg); break;
		case 'N': novelty = rec_arg_number("--novelty", optarg, 0, 1); break;
		case 'U': unique = optarg; break;
		case 'D': divfield = optarg; break;
		case 'p': per = (size_t)rec_arg_number("--per", optarg, 1, 1e9); break;
		case 'm': mmr = rec_arg_number("--mmr", optarg, 0, 1); break;
		case 'S': space = optarg; break;
		case 'b': by = optarg; break;
		case 'w': where = optarg; break;
		case 'k': limit = rec_arg_count("-k", optarg); break;
		case 's': src = optarg; break;
		case 'd': dbpath = optarg; break;
		case 'M': mp = 1; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, ch);
		}
	if (optind < argc)
		rec_usage_die("unexpected argument '%s'", argv[optind]);
	if (mmr >= 0 && !space)
		rec_usage_die("--mmr needs --space");
	fo.wsrc = wsrc;
	fo.w = w;
	if (by && !(jby = rec_jq_compile(by, &err)))
		rec_usage_die("--by: %s", err.data);
	if (where && !(jwhere = rec_jq_compile(where, &err)))
		rec_usage_die("--where: %s", err.data);
	if (user)
		need_db("--user");
	if (seenuser)
		need_db("--exclude-seen");
	if (nlike)
		need_db("--like");
	if (novelty > 0)
		need_db("--novelty");
	if (divfield)
		need_db("--diversify");
	if (unique) {
		need_db("--unique");
		unique_prepare(&uq, unique);
	}
	if (space)
		need_db("--space");
	if ((by || where) && (dbpath || getenv("REC_DB")))
		need_db("--by");
	if (novelty > 0 && !pop_col)
		rec_die("--novelty: the catalog has no popularity column");

	rec_reader_init(&r, 0, "stdin");
	rec_pool_read(&pool, &r);
	rec_reader_free(&r);
	n = rec_fuse(&pool, &fo, &c);
	msgpack_zone_init(&zone, 4096);
	if (fo.mode == REC_FUSE_RRF || fo.mode == REC_FUSE_SUM ||
	    fo.mode == REC_FUSE_MAX) {
		/* say which streams ranked each item, and where */
		struct rec_hash srcs = {0};
		size_t *rank = xcalloc(pool.n + 1, sizeof *rank);
		size_t *cnt = xcalloc(pool.n + 1, sizeof *cnt);
		msgpack_object o;
		char **label = xcalloc(pool.n + 1, sizeof *label);
		for (j = 0; j < pool.n; j++) {
			const msgpack_object *s;
			size_t k;
			rec_pool_get(&pool, j, &zone, &o);
			s = rec_map_get(&o, "src");
			k = s && s->type == MSGPACK_OBJECT_STR ?
			    rec_hash_put(&srcs, s->via.str.ptr, s->via.str.size,
			    NULL) : rec_hash_put(&srcs, "?", 1, NULL);
			rank[j] = ++cnt[k];
			label[j] = srcs.key[k];
		}
		for (i = 0; i < n; i++) {
			struct rec_buf b = {0};
			for (j = pool.first[c[i].uid]; j != (size_t)-1;
			    j = pool.next[j])
				rec_buf_printf(&b, "%s%s #%zu", b.len ? ", " :
				    "", label[j], rank[j]);
			add_why(&c[i], "ranked by %s", b.data);
			rec_buf_free(&b);
		}
		free(rank);
		free(cnt);
		free(label);
		rec_hash_free(&srcs);
	}

	/* removals: unwanted, seen, --where */
	{
		struct rec_hash seen = {0}, unw = {0};
		for (i = 0; i < nunwanted; i++)
			rec_hash_put(&unw, unwanted[i], strlen(unwanted[i]),
			    NULL);
		if (seenuser)
			history(seenuser, &seen, NULL);
		for (i = j = 0; i < n; i++) {
			const char *id = pool.ids.key[c[i].uid];
			size_t len = pool.ids.keylen[c[i].uid];
			int keep = rec_hash_get(&unw, id, len) == (size_t)-1 &&
			    rec_hash_get(&seen, id, len) == (size_t)-1;
			if (keep && jwhere) {
				msgpack_object o;
				jq_view(&view, &c[i], &zone, &o);
				if (!rec_jq_truth(jwhere, &o, &keep, &err))
					jq_die("--where", &err, jby, jwhere);
			}
			if (keep)
				c[j++] = c[i];
			else
				free(c[i].why);
		}
		n = j;
		rec_hash_free(&seen);
		rec_hash_free(&unw);
	}
	if (jby)
		for (i = 0; i < n; i++) {
			msgpack_object o;
			jq_view(&view, &c[i], &zone, &o);
			if (!rec_jq_number(jby, &o, &c[i].r.score, &err))
				jq_die("--by", &err, jby, jwhere);
		}
	/* boosts work on scores scaled to 0..1 */
	if ((user || nlike || novelty > 0) && n) {
		double lo = INFINITY, hi = -INFINITY;
		struct taste ut, lt;
		int cr;
		size_t sh;

		memset(&ut, 0, sizeof ut);
		memset(&lt, 0, sizeof lt);
		if (user)
			history(user, NULL, &ut);
		for (i = 0; i < nlike; i++)
			taste_add(&lt, like[i], strlen(like[i]));
		for (i = 0; i < n; i++) {
			if (c[i].r.score < lo)
				lo = c[i].r.score;
			if (c[i].r.score > hi)
				hi = c[i].r.score;
		}
		for (i = 0; i < n; i++) {
			const char *id = pool.ids.key[c[i].uid];
			size_t len = pool.ids.keylen[c[i].uid];
			double s = hi > lo ? (c[i].r.score - lo) / (hi - lo) : 1;
			if (user) {
				double a = affinity(&ut, id, len, &cr, &sh);
				s += personal * a;
				if (cr)
					add_why(&c[i], "%s", "by a creator in "
					    "your history");
				else if (sh)
					add_why(&c[i], "%s", "shares tags with "
					    "your history");
			}
			if (nlike) {
				double a = affinity(&lt, id, len, &cr, &sh);
				s += likew * a;
				if (cr)
					add_why(&c[i], "%s", "same creator as "
					    "one you like");
				else if (sh)
					add_why(&c[i], "%s", "shares tags with "
					    "ones you like");
			}
			c[i].r.score = s;
		}
		if (novelty > 0) {
			sqlite3_stmt *cnt, *tot;
			struct rec_buf sql = {0};
			double total, scale = 1 + (user ? personal : 0) +
			    (nlike ? likew : 0);
			rec_buf_printf(&sql, "SELECT count(*) FROM items WHERE "
			    "\"%s\" < ?", pop_col);
			if (sqlite3_prepare_v2(db, sql.data, -1, &cnt, NULL) ||
			    sqlite3_prepare_v2(db, "SELECT count(*) FROM items",
			    -1, &tot, NULL) || sqlite3_step(tot) != SQLITE_ROW)
				rec_sqlite_die(db, "popularity");
			total = (double)sqlite3_column_int64(tot, 0);
			sqlite3_finalize(tot);
			for (i = 0; i < n; i++) {
				char *pv = field_of(pop_col,
				    pool.ids.key[c[i].uid],
				    pool.ids.keylen[c[i].uid]);
				double pct = 0.5;	/* unknown: middling */
				if (pv) {
					sqlite3_reset(cnt);
					sqlite3_bind_double(cnt, 1, atof(pv));
					if (sqlite3_step(cnt) == SQLITE_ROW &&
					    total > 0)
						pct = sqlite3_column_int64(cnt,
						    0) / total;
					free(pv);
				}
				c[i].r.score = (1 - novelty) * c[i].r.score / scale +
				    novelty * (1 - pct);
				if (pct < 0.5)
					add_why(&c[i], "%s", "less known");
			}
			sqlite3_finalize(cnt);
			rec_buf_free(&sql);
		}
		rec_hash_free(&ut.creators);
		rec_hash_free(&ut.tags);
		rec_hash_free(&lt.creators);
		rec_hash_free(&lt.tags);
	}
	rec_rank_sort(c, n);
	if (unique) {
		/* the same song twice (two releases, two sources): the
		 * better placed stays */
		char **key = unique_keys(&uq, c, n);
		struct rec_hash h = {0};
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
		n = j;
		free(key);
		rec_hash_free(&h);
		sqlite3_finalize(uq.st);
	}
	if (divfield) {
		char **key = xcalloc(n + 1, sizeof *key);
		for (i = 0; i < n; i++) {
			char *v = field_of(divfield, pool.ids.key[c[i].uid],
			    pool.ids.keylen[c[i].uid]);
			if (v) {
				struct rec_buf b = {0};
				rec_norm(&b, v, strlen(v));
				key[i] = b.data ? b.data : xstrdup("");
				free(v);
			}
		}
		{
			/* rec_rank_cap moves candidates; keep keys in step */
			struct rec_cand *cc = xcalloc(n + 1, sizeof *cc);
			size_t m;
			memcpy(cc, c, n * sizeof *c);
			m = rec_rank_cap(cc, n, key, per);
			memcpy(c, cc, m * sizeof *c);
			free(cc);
			for (i = 0; i < n; i++)
				free(key[i]);
			n = m;
		}
		free(key);
	}
	if (mmr >= 0) {
		int dim = rec_catalog_space(db, space);
		float **vec, *store;
		if (!dim)
			rec_die("no vector space '%s' in the catalog (add one "
			    "with rec-import vectors)", space);
		store = xcalloc(n * (size_t)dim + 1, sizeof *store);
		vec = xcalloc(n + 1, sizeof *vec);
		for (i = 0; i < n; i++)
			if (rec_catalog_vector(db, space, pool.ids.key[c[i].uid],
			    pool.ids.keylen[c[i].uid], store + i * (size_t)dim,
			    dim))
				vec[i] = store + i * (size_t)dim;
		rec_rank_mmr(c, n, (const float *const *)vec, (size_t)dim, mmr,
		    limit < n ? limit : n);
		free(vec);
		free(store);
	}
	rec_writer_init(&wr, 1, mp);
	msgpack_packer_init(&pk, &out, rec_buf_msgpack_write);
	for (i = 0; i < n && i < limit; i++) {
		rec_buf_reset(&out);
		pack_out(&pk, &c[i], src, &zone);
		rec_write_msgpack(&wr, out.data, out.len);
	}
	rec_writer_close(&wr);
	rec_trace_count(pool.n, i);
	for (i = 0; i < n; i++)
		free(c[i].why);
	free(c);
	msgpack_zone_destroy(&zone);
	rec_pool_free(&pool);
	rec_jq_free(jby);
	rec_jq_free(jwhere);
	rec_buf_free(&out);
	rec_buf_free(&err);
	rec_buf_free(&view);
	if (db)
		sqlite3_close(db);
	rec_exit(0);
}
