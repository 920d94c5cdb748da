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

/* appends the ids of in, canonical and distinct, less those in before,
 * to out while it holds fewer than max */
static void
fresh_ids(const struct rec_conv *c, const struct rec_hash *before,
    const struct rec_strs *in, size_t max, struct rec_strs *out)
{
	struct rec_hash seen = {0};
	size_t j;

	for (j = 0; j < in->n && out->n < max; j++) {
		const char *id = rec_conv_canon(c, in->v[j]);
		int added;
		if (rec_hash_get(before, id, strlen(id)) != (size_t)-1)
			continue;
		rec_hash_put(&seen, id, strlen(id), &added);
		if (added)
			rec_strs_push(out, id, strlen(id));
	}
	rec_hash_free(&seen);
}

size_t
rec_conv_targets(const struct rec_conv *c, size_t t, struct rec_strs *out)
{
	struct rec_hash before = {0};

	rec_conv_before(c, t, &before);
	fresh_ids(c, &before, &c->turn[t].targets, (size_t)-1, out);
	rec_hash_free(&before);
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

/* ---- the figures of a run ---- */

static void
sum_add(struct rec_score_sum *a, const struct rec_point_score *s, size_t nk)
{
	size_t k;

	for (k = 0; k < nk; k++) {
		a->hit[k] += s->hit[k];
		a->recall[k] += s->recall[k];
		a->ndcg[k] += s->ndcg[k];
		a->mrr[k] += s->mrr[k];
	}
	a->n++;
}

/* a conversation's mean scores, as one sample of the macro average */
static void
sum_close(struct rec_score_sum *conv, struct rec_score_sum *macro, size_t nk)
{
	struct rec_point_score m;
	size_t k;

	if (!conv->n)
		return;
	for (k = 0; k < nk; k++) {
		m.hit[k] = conv->hit[k] / (double)conv->n;
		m.recall[k] = conv->recall[k] / (double)conv->n;
		m.ndcg[k] = conv->ndcg[k] / (double)conv->n;
		m.mrr[k] = conv->mrr[k] / (double)conv->n;
	}
	sum_add(macro, &m, nk);
	memset(conv, 0, sizeof *conv);
}

/* popularity: in how many conversations an item is a target; the 50
 * most popular (ties to the first seen) make Pop50 */
static void
popular(struct rec_hash *top, const struct rec_conv *convs, size_t nconvs)
{
	struct rec_hash all = { .vsize = sizeof(size_t) };
	struct rec_scored *order;
	size_t i, j, k, p;

	for (i = 0; i < nconvs; i++) {
		struct rec_hash mine = {0};
		for (j = 0; j < convs[i].nturns; j++)
			for (k = 0; k < convs[i].turn[j].targets.n; k++) {
				const char *id = rec_conv_canon(&convs[i],
				    convs[i].turn[j].targets.v[k]);
				int added;
				rec_hash_put(&mine, id, strlen(id), &added);
				if (!added)
					continue;
				p = rec_hash_put(&all, id, strlen(id), NULL);
				((size_t *)all.val)[p]++;
			}
		rec_hash_free(&mine);
	}
	order = xcalloc(all.n + 1, sizeof *order);
	for (i = 0; i < all.n; i++) {
		order[i].score = (double)((size_t *)all.val)[i];
		order[i].index = i;
	}
	rec_scored_sort(order, all.n, sizeof *order);
	for (i = 0; i < all.n && i < 50; i++)
		rec_hash_put(top, all.key[order[i].index],
		    all.keylen[order[i].index], NULL);
	free(order);
	rec_hash_free(&all);
}

void
rec_metrics_init(struct rec_metrics *m, const size_t *ks, size_t nk,
    const struct rec_conv *convs, size_t nconvs, sqlite3 *db)
{
	sqlite3_stmt *st;
	size_t k;

	memset(m, 0, sizeof *m);
	memcpy(m->ks, ks, nk * sizeof *ks);
	m->nk = nk;
	m->cur = (size_t)-1;
	for (k = 0; k < nk; k++)
		m->shown[k].vsize = sizeof(size_t);
	/* the catalog's ids, for Factual */
	if (sqlite3_prepare_v2(db, "SELECT id FROM items", -1, &st, NULL))
		rec_sqlite_die(db, "items");
	while (sqlite3_step(st) == SQLITE_ROW)
		rec_hash_put(&m->catalog, (const char *)sqlite3_column_text(st,
		    0), (size_t)sqlite3_column_bytes(st, 0), NULL);
	sqlite3_finalize(st);
	popular(&m->popular, convs, nconvs);
}

void
rec_metrics_add(struct rec_metrics *m, const struct rec_conv *c,
    size_t conv, size_t t, const struct rec_strs *ids, struct rec_strs *list,
    struct rec_strs *tg, struct rec_point_score *sc)
{
	struct rec_hash before = {0};
	size_t i, k, intop = 0;

	rec_conv_targets(c, t, tg);
	rec_conv_before(c, t, &before);
	for (k = 0; k < m->nk; k++) {
		size_t f = 0, n;
		for (n = 0; n < m->ks[k] && n < ids->n; n++)
			f += rec_hash_get(&m->catalog, ids->v[n],
			    strlen(ids->v[n])) != (size_t)-1;
		if (n) {
			m->factual[k] += (double)f / n;
			m->factual_n[k]++;
		}
	}
	fresh_ids(c, &before, ids, m->ks[m->nk - 1], list);
	rec_point_score(list, tg, m->ks, m->nk, sc);
	sum_add(&m->micro, sc, m->nk);
	if (conv != m->cur) {
		sum_close(&m->conv, &m->macro, m->nk);
		m->cur = conv;
	}
	sum_add(&m->conv, sc, m->nk);
	if (t >= m->nturns) {
		m->turn = xrealloc(m->turn, (t + 1) * sizeof *m->turn);
		memset(m->turn + m->nturns, 0, (t + 1 - m->nturns) *
		    sizeof *m->turn);
		m->nturns = t + 1;
	}
	sum_add(&m->turn[t], sc, m->nk);
	for (i = 0; i < tg->n; i++)
		intop += rec_hash_get(&m->popular, tg->v[i],
		    strlen(tg->v[i])) != (size_t)-1;
	m->pop50_targets += tg->n ? (double)intop / tg->n : 0;
	for (k = 0; k < m->nk; k++) {
		size_t n, pn = 0;
		for (n = 0; n < m->ks[k] && n < list->n; n++) {
			size_t x = rec_hash_put(&m->shown[k], list->v[n],
			    strlen(list->v[n]), NULL);
			((size_t *)m->shown[k].val)[x]++;
			pn += rec_hash_get(&m->popular, list->v[n],
			    strlen(list->v[n])) != (size_t)-1;
		}
		m->pop50[k] += n ? (double)pn / n : 0;
	}
	m->npoints++;
	rec_hash_free(&before);
}

void
rec_metrics_end(struct rec_metrics *m, struct rec_figures *f)
{
	size_t i, k;

	sum_close(&m->conv, &m->macro, m->nk);
	memset(f, 0, sizeof *f);
	for (k = 0; k < m->nk; k++) {
		const size_t *cnt = m->shown[k].val;
		double total = 0, e = 0;
		size_t mx = 0;
		for (i = 0; i < m->shown[k].n; i++) {
			total += (double)cnt[i];
			if (cnt[i] > mx)
				mx = cnt[i];
		}
		for (i = 0; i < m->shown[k].n; i++) {
			double q = (double)cnt[i] / total;
			e -= q * log2(q);
		}
		f->entropy[k] = e;
		f->maxfreq[k] = (double)mx / (double)m->npoints;
		f->pop50_ratio[k] = m->pop50_targets > 0 ? m->pop50[k] /
		    m->pop50_targets : 0;
		f->factual[k] = m->factual_n[k] > 0 ? m->factual[k] /
		    m->factual_n[k] : 0;
	}
}

void
rec_metrics_free(struct rec_metrics *m)
{
	size_t k;

	for (k = 0; k < REC_MAXK; k++)
		rec_hash_free(&m->shown[k]);
	rec_hash_free(&m->popular);
	rec_hash_free(&m->catalog);
	free(m->turn);
	memset(m, 0, sizeof *m);
}
