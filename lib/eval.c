/*
 * eval.c: rec-bench(5) conversations and the metrics rec-eval reports.
 *
 * A conversation is one JSON line; an evaluation point is a turn with
 * targets left once what was shown or liked before it is taken out.
 * Ids go through the conversation's "same" map first, so two releases
 * of one song are one id on both sides.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"

static int
key_is(const msgpack_object *k, const char *s)
{
	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == strlen(s) &&
	    !memcmp(k->via.str.ptr, s, k->via.str.size);
}

/* a list of ids (strings; numbers are read as their text) */
static int
read_ids(const msgpack_object *o, struct rec_strs *out)
{
	uint32_t i;
	char num[32];

	if (o->type == MSGPACK_OBJECT_NIL)
		return 0;
	if (o->type != MSGPACK_OBJECT_ARRAY)
		return -1;
	for (i = 0; i < o->via.array.size; i++) {
		const msgpack_object *e = &o->via.array.ptr[i];
		if (e->type == MSGPACK_OBJECT_STR)
			rec_strs_push(out, e->via.str.ptr, e->via.str.size);
		else if (e->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
			snprintf(num, sizeof num, "%llu",
			    (unsigned long long)e->via.u64);
			rec_strs_push(out, num, strlen(num));
		} else
			return -1;
	}
	return 0;
}

static char *
str_of(const msgpack_object *o)
{
	return o->type == MSGPACK_OBJECT_STR ?
	    xstrndup(o->via.str.ptr, o->via.str.size) : NULL;
}

int
rec_conv_parse(struct rec_conv *c, const char *line, size_t n,
    struct rec_buf *err)
{
	struct rec_buf pk = {0};
	msgpack_zone z;
	msgpack_object o;
	size_t off = 0;
	uint32_t i, j;
	int ok = -1;

	memset(c, 0, sizeof *c);
	msgpack_zone_init(&z, 4096);
	if (rec_json_to_msgpack(line, n, &pk, NULL, err) < 0)
		goto out;
	if (msgpack_unpack(pk.data, pk.len, &off, &z, &o) !=
	    MSGPACK_UNPACK_SUCCESS || o.type != MSGPACK_OBJECT_MAP) {
		rec_buf_adds(err, "not a JSON object");
		goto out;
	}
	for (i = 0; i < o.via.map.size; i++) {
		const msgpack_object *k = &o.via.map.ptr[i].key;
		const msgpack_object *v = &o.via.map.ptr[i].val;
		if (key_is(k, "id")) {
			if (!(c->id = str_of(v))) {
				rec_buf_adds(err, "\"id\" is not a string");
				goto out;
			}
		} else if (key_is(k, "user")) {
			c->user = str_of(v);
		} else if (key_is(k, "same")) {
			if (v->type != MSGPACK_OBJECT_MAP) {
				rec_buf_adds(err, "\"same\" is not an object");
				goto out;
			}
			for (j = 0; j < v->via.map.size; j++) {
				const msgpack_object *a = &v->via.map.ptr[j].key;
				const msgpack_object *b = &v->via.map.ptr[j].val;
				if (a->type != MSGPACK_OBJECT_STR ||
				    b->type != MSGPACK_OBJECT_STR) {
					rec_buf_adds(err, "\"same\" maps ids to ids "
					    "(strings)");
					goto out;
				}
				{
					int added;
					size_t k = rec_hash_put(&c->same,
					    a->via.str.ptr, a->via.str.size,
					    &added);
					if (!added) {	/* a repeated key: the last */
						free(c->same_to.v[k]);
						c->same_to.v[k] = xstrndup(
						    b->via.str.ptr,
						    b->via.str.size);
					} else
						rec_strs_push(&c->same_to,
						    b->via.str.ptr,
						    b->via.str.size);
				}
			}
		} else if (key_is(k, "turns")) {
			if (v->type != MSGPACK_OBJECT_ARRAY) {
				rec_buf_adds(err, "\"turns\" is not a list");
				goto out;
			}
			c->turn = xcalloc(v->via.array.size + 1, sizeof *c->turn);
			for (j = 0; j < v->via.array.size; j++) {
				const msgpack_object *t = &v->via.array.ptr[j];
				struct rec_conv_turn *ct = &c->turn[c->nturns++];
				uint32_t f;
				if (t->type != MSGPACK_OBJECT_MAP) {
					rec_buf_printf(err, "turn %u is not an "
					    "object", j + 1);
					goto out;
				}
				for (f = 0; f < t->via.map.size; f++) {
					const msgpack_object *tk =
					    &t->via.map.ptr[f].key;
					const msgpack_object *tv =
					    &t->via.map.ptr[f].val;
					struct rec_strs *list = NULL;
					if (key_is(tk, "user"))
						ct->user = str_of(tv);
					else if (key_is(tk, "assistant"))
						ct->assistant = str_of(tv);
					else if (key_is(tk, "shown"))
						list = &ct->shown;
					else if (key_is(tk, "liked"))
						list = &ct->liked;
					else if (key_is(tk, "disliked"))
						list = &ct->disliked;
					else if (key_is(tk, "targets"))
						list = &ct->targets;
					if (list && read_ids(tv, list) < 0) {
						rec_buf_printf(err, "turn %u: "
						    "\"%.*s\" is not a list of "
						    "ids", j + 1,
						    (int)tk->via.str.size,
						    tk->via.str.ptr);
						goto out;
					}
				}
				if (!ct->user) {
					rec_buf_printf(err, "turn %u has no "
					    "\"user\" text", j + 1);
					goto out;
				}
			}
		}
	}
	if (!c->id) {
		rec_buf_adds(err, "no \"id\"");
		goto out;
	}
	if (!c->nturns) {
		rec_buf_adds(err, "no \"turns\"");
		goto out;
	}
	ok = 0;
out:
	msgpack_zone_destroy(&z);
	rec_buf_free(&pk);
	return ok;
}

const char *
rec_conv_canon(const struct rec_conv *c, const char *id)
{
	size_t k = rec_hash_get(&c->same, id, strlen(id));

	return k == (size_t)-1 ? id : c->same_to.v[k];
}

/* the canonical ids shown or liked in turns [0, t), into h */
void
rec_conv_before(const struct rec_conv *c, size_t t, struct rec_hash *h)
{
	size_t i, j;

	for (i = 0; i < t && i < c->nturns; i++) {
		const struct rec_conv_turn *ct = &c->turn[i];
		for (j = 0; j < ct->shown.n; j++) {
			const char *id = rec_conv_canon(c, ct->shown.v[j]);
			rec_hash_put(h, id, strlen(id), NULL);
		}
		for (j = 0; j < ct->liked.n; j++) {
			const char *id = rec_conv_canon(c, ct->liked.v[j]);
			rec_hash_put(h, id, strlen(id), NULL);
		}
	}
}

size_t
rec_conv_targets(const struct rec_conv *c, size_t t, struct rec_strs *out)
{
	struct rec_hash before = {0}, seen = {0};
	size_t j;

	rec_conv_before(c, t, &before);
	for (j = 0; j < c->turn[t].targets.n; j++) {
		const char *id = rec_conv_canon(c, c->turn[t].targets.v[j]);
		int added;
		if (rec_hash_get(&before, id, strlen(id)) != (size_t)-1)
			continue;
		rec_hash_put(&seen, id, strlen(id), &added);
		if (added)
			rec_strs_push(out, id, strlen(id));
	}
	rec_hash_free(&before);
	rec_hash_free(&seen);
	return out->n;
}

void
rec_conv_free(struct rec_conv *c)
{
	size_t i;

	for (i = 0; i < c->nturns; i++) {
		free(c->turn[i].user);
		free(c->turn[i].assistant);
		rec_strs_free(&c->turn[i].shown);
		rec_strs_free(&c->turn[i].liked);
		rec_strs_free(&c->turn[i].disliked);
		rec_strs_free(&c->turn[i].targets);
	}
	free(c->turn);
	free(c->id);
	free(c->user);
	rec_strs_free(&c->same_to);
	rec_hash_free(&c->same);
	memset(c, 0, sizeof *c);
}

/* ---- metrics ---- */

void
rec_point_score(const struct rec_strs *list, const struct rec_strs *targets,
    const size_t *ks, size_t nk, struct rec_point_score *ps)
{
	struct rec_hash t = {0};
	size_t i, k, hits = 0, first = 0;
	double dcg = 0, idcg = 0;

	memset(ps, 0, sizeof *ps);
	for (i = 0; i < targets->n; i++)
		rec_hash_put(&t, targets->v[i], strlen(targets->v[i]), NULL);
	for (k = 0, i = 0; k < nk; k++) {
		size_t j;
		for (; i < ks[k] && i < list->n; i++)
			if (rec_hash_get(&t, list->v[i], strlen(list->v[i])) !=
			    (size_t)-1) {
				hits++;
				dcg += 1 / log2((double)i + 2);
				if (!first)
					first = i + 1;
			}
		idcg = 0;
		for (j = 0; j < ks[k] && j < targets->n; j++)
			idcg += 1 / log2((double)j + 2);
		ps->hit[k] = hits > 0;
		ps->recall[k] = targets->n ? (double)hits / targets->n : 0;
		ps->ndcg[k] = idcg > 0 ? dcg / idcg : 0;
		ps->mrr[k] = first ? 1.0 / first : 0;
	}
	rec_hash_free(&t);
}
