/*
 * pool.c: a candidate pool held in memory, for the tools that score or
 * filter the records on standard input rather than the whole catalog.
 */
#include <stdlib.h>
#include <string.h>

#include "stream.h"

void
rec_pool_read(struct rec_pool *p, struct rec_reader *r)
{
	struct rec_record rec;

	memset(p, 0, sizeof *p);
	p->off = xmalloc(sizeof *p->off);
	p->off[0] = 0;
	while (rec_next(r, &rec))
		rec_pool_add(p, &rec);
}

void
rec_pool_get(const struct rec_pool *p, size_t i, msgpack_zone *zone,
    msgpack_object *obj)
{
	size_t off = 0;

	msgpack_zone_clear(zone);
	if (msgpack_unpack(p->raw.data + p->off[i], p->off[i + 1] - p->off[i],
	    &off, zone, obj) != MSGPACK_UNPACK_SUCCESS)
		rec_die("internal error: pool record %zu", i);
}

const char *
rec_pool_src(const struct rec_pool *p, size_t i, msgpack_zone *zone,
    size_t *len)
{
	msgpack_object obj;
	const msgpack_object *s;

	rec_pool_get(p, i, zone, &obj);
	s = rec_map_get(&obj, "src");
	if (!s || s->type != MSGPACK_OBJECT_STR)
		return NULL;
	*len = s->via.str.size;
	return s->via.str.ptr;
}

void
rec_pool_free(struct rec_pool *p)
{
	rec_buf_free(&p->raw);
	free(p->off);
	free(p->idoff);
	free(p->idlen);
	free(p->score);
	free(p->first);
	free(p->last);
	free(p->next);
	rec_hash_free(&p->ids);
	memset(p, 0, sizeof *p);
}

size_t
rec_write_scored(struct rec_writer *w, const struct rec_pool *pool,
    const char *id, size_t idlen, double score, const char *src,
    const char *why, size_t room)
{
	struct rec_buf out = {0};
	msgpack_packer pk;
	msgpack_zone zone;
	msgpack_object o;
	size_t n = 0, u, r;

	msgpack_packer_init(&pk, &out, rec_buf_msgpack_write);
	if (!pool || !pool->n) {
		if (room) {
			rec_pack_scored(&pk, NULL, id, idlen, score, src, why);
			rec_write_msgpack(w, out.data, out.len);
			n = 1;
		}
		rec_buf_free(&out);
		return n;
	}
	u = rec_hash_get(&pool->ids, id, idlen);
	msgpack_zone_init(&zone, 1024);
	for (r = u == (size_t)-1 ? (size_t)-1 : pool->first[u];
	    r != (size_t)-1 && n < room; r = pool->next[r], n++) {
		rec_pool_get(pool, r, &zone, &o);
		rec_buf_reset(&out);
		rec_pack_scored(&pk, &o, id, idlen, score, src, why);
		rec_write_msgpack(w, out.data, out.len);
	}
	msgpack_zone_destroy(&zone);
	rec_buf_free(&out);
	return n;
}

/* does the string object k equal s */
static int
is_str(const msgpack_object *k, const char *s)
{
	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == strlen(s) &&
	    !memcmp(k->via.str.ptr, s, k->via.str.size);
}

void
rec_write_fused(struct rec_writer *w, const struct rec_pool *pool,
    size_t uid, double score, const char *src, const char *cwhy)
{
	/* "cut" is rec-rank's to read (rec_ranker_cut), not to pass on */
	static const char *const mine[] = { "id", "score", "src", "scores",
	    "why", "cut", NULL };
	msgpack_object first, o;
	const msgpack_object *why, *sc;
	struct rec_buf tmp = {0}, out = {0};
	struct rec_hash names = {0};
	msgpack_packer tp, p, *pk = &p;
	msgpack_zone zone;
	size_t j, nkeys = 0, nsv = 0;
	uint32_t i;

	msgpack_zone_init(&zone, 4096);
	msgpack_packer_init(pk, &out, rec_buf_msgpack_write);
	rec_pool_get(pool, pool->first[uid], &zone, &first);
	msgpack_packer_init(&tp, &tmp, rec_buf_msgpack_write);
	/* every source's score from every record of this id, the first
	 * seen of each name, into tmp as the body of a map */
	for (j = pool->first[uid]; j != (size_t)-1; j = pool->next[j]) {
		const msgpack_object *s, *v;
		msgpack_zone z;
		int added;
		msgpack_zone_init(&z, 1024);
		rec_pool_get(pool, j, &z, &o);
		sc = rec_map_get(&o, "scores");
		for (i = 0; sc && sc->type == MSGPACK_OBJECT_MAP &&
		    i < sc->via.map.size; i++) {
			const msgpack_object *k = &sc->via.map.ptr[i].key;
			if (k->type != MSGPACK_OBJECT_STR || is_str(k, src))
				continue;
			rec_hash_put(&names, k->via.str.ptr, k->via.str.size,
			    &added);
			if (added) {
				msgpack_pack_object(&tp, *k);
				msgpack_pack_object(&tp,
				    sc->via.map.ptr[i].val);
				nsv++;
			}
		}
		s = rec_map_get(&o, "src");
		v = rec_map_get(&o, "score");
		if (s && v && s->type == MSGPACK_OBJECT_STR &&
		    !is_str(s, src)) {
			rec_hash_put(&names, s->via.str.ptr, s->via.str.size,
			    &added);
			if (added) {
				msgpack_pack_object(&tp, *s);
				msgpack_pack_object(&tp, *v);
				nsv++;
			}
		}
		msgpack_zone_destroy(&z);
	}
	for (i = 0; i < first.via.map.size; i++) {
		for (j = 0; mine[j]; j++)
			if (is_str(&first.via.map.ptr[i].key, mine[j]))
				break;
		nkeys += !mine[j];
	}
	why = rec_map_get(&first, "why");
	msgpack_pack_map(pk, (uint32_t)(nkeys + 4 + (why || cwhy ? 1 : 0)));
	msgpack_pack_str_with_body(pk, "id", 2);
	msgpack_pack_str_with_body(pk, pool->ids.key[uid],
	    pool->ids.keylen[uid]);
	msgpack_pack_str_with_body(pk, "score", 5);
	msgpack_pack_double(pk, score);
	msgpack_pack_str_with_body(pk, "src", 3);
	msgpack_pack_str_with_body(pk, src, strlen(src));
	msgpack_pack_str_with_body(pk, "scores", 6);
	msgpack_pack_map(pk, (uint32_t)nsv + 1);
	rec_buf_add(&out, tmp.data, tmp.len);
	msgpack_pack_str_with_body(pk, src, strlen(src));
	msgpack_pack_double(pk, score);
	rec_pack_why(pk, why, cwhy);
	for (i = 0; i < first.via.map.size; i++) {
		for (j = 0; mine[j]; j++)
			if (is_str(&first.via.map.ptr[i].key, mine[j]))
				break;
		if (!mine[j]) {
			msgpack_pack_object(pk, first.via.map.ptr[i].key);
			msgpack_pack_object(pk, first.via.map.ptr[i].val);
		}
	}
	rec_write_msgpack(w, out.data, out.len);
	msgpack_zone_destroy(&zone);
	rec_hash_free(&names);
	rec_buf_free(&tmp);
	rec_buf_free(&out);
}
