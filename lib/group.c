/*
 * group.c: grouped candidate streams (rec-candidates(5)): many lists in
 * one stream, each record carrying a group key whose value names its
 * list, the records of a group one after the other.  A tool that works
 * per group reads the stream a group at a time, as a pool, and does to
 * each what it does to a whole ungrouped stream.
 *
 * The values of the groups already read are kept, so that a group seen
 * again after another one is an error rather than two lists for the same
 * user; they live in one arena, a few bytes more than the values
 * themselves (about 40 MB for a million users).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

/* whether the value is in the set of finished groups */
static int
seen_has(const struct rec_groups *g, const char *v, size_t n, uint64_t h)
{
	size_t i, k;

	if (!g->nslot)
		return 0;
	for (i = h & (g->nslot - 1);; i = (i + 1) & (g->nslot - 1)) {
		if (!(k = g->slot[i]))
			return 0;
		k--;
		if (g->hash[k] == h && g->vlen[k] == n &&
		    !memcmp(g->arena.data + g->voff[k], v, n))
			return 1;
	}
}

static void
seen_add(struct rec_groups *g, const char *v, size_t n, uint64_t h)
{
	size_t i, j;

	if (g->nseen == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->voff = xrealloc(g->voff, g->cap * sizeof *g->voff);
		g->vlen = xrealloc(g->vlen, g->cap * sizeof *g->vlen);
		g->hash = xrealloc(g->hash, g->cap * sizeof *g->hash);
	}
	g->voff[g->nseen] = g->arena.len;
	g->vlen[g->nseen] = (uint32_t)n;
	g->hash[g->nseen] = h;
	rec_buf_add(&g->arena, v, n);
	g->nseen++;
	if (g->nseen * 2 > g->nslot) {
		size_t ns = g->nslot ? g->nslot * 2 : 2048;
		free(g->slot);
		g->slot = xcalloc(ns, sizeof *g->slot);
		g->nslot = ns;
		for (j = 0; j < g->nseen; j++) {
			for (i = g->hash[j] & (ns - 1); g->slot[i];
			    i = (i + 1) & (ns - 1))
				;
			g->slot[i] = j + 1;
		}
		return;
	}
	for (i = h & (g->nslot - 1); g->slot[i]; i = (i + 1) & (g->nslot - 1))
		;
	g->slot[i] = g->nseen;
}

void
rec_groups_init(struct rec_groups *g, struct rec_reader *r, const char *key)
{
	memset(g, 0, sizeof *g);
	g->r = r;
	g->key = key;
	g->keylen = strlen(key);
}

void
rec_groups_free(struct rec_groups *g)
{
	rec_buf_free(&g->cur);
	rec_buf_free(&g->held);
	rec_buf_free(&g->prev);
	rec_buf_free(&g->value);
	rec_buf_free(&g->arena);
	free(g->voff);
	free(g->vlen);
	free(g->hash);
	free(g->slot);
	memset(g, 0, sizeof *g);
}

/* where the reader's last record is, for a message */
static void __attribute__((noreturn, format(printf, 2, 3)))
group_die(struct rec_groups *g, const char *fmt, ...)
{
	struct rec_reader *r = g->r;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (r->format == REC_FMT_MSGPACK)
		rec_die("%s: byte %llu: %s", r->name, r->off, msg);
	rec_die("%s:%lu: %s", r->name, r->line, msg);
}

int
rec_groups_check(struct rec_groups *g, const struct rec_record *rec)
{
	const msgpack_object *v = rec_map_get(&rec->map, g->key);
	const char *s;
	size_t n;
	uint64_t h;

	if (!v)
		group_die(g, "record has no group key \"%s\"", g->key);
	if (v->type != MSGPACK_OBJECT_STR)
		group_die(g, "group key \"%s\" is not a string", g->key);
	s = v->via.str.ptr;
	n = v->via.str.size;
	if (g->started && g->cur.len == n && !memcmp(g->cur.data, s, n))
		return 0;
	h = rec_hash_str(s, n);
	if (seen_has(g, s, n, h))
		group_die(g, "group \"%.*s\" again after another group (the "
		    "records of a group must be together)", (int)(n > 200 ?
		    200 : n), s);
	if (g->started)
		seen_add(g, g->cur.data, g->cur.len, rec_hash_str(g->cur.data,
		    g->cur.len));
	rec_buf_reset(&g->prev);
	rec_buf_add(&g->prev, g->cur.data ? g->cur.data : "", g->cur.len);
	rec_buf_reset(&g->cur);
	rec_buf_add(&g->cur, s, n);
	g->started = 1;
	g->ngroups++;
	return 1;
}

/* adds a record given as its msgpack bytes, its id's place in them and
 * its score */
static void
pool_add(struct rec_pool *p, const char *raw, size_t rawlen, size_t idat,
    size_t idlen, double score)
{
	size_t k, at;
	int added;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 1024;
		p->off = xrealloc(p->off, (p->cap + 1) * sizeof *p->off);
		p->idoff = xrealloc(p->idoff, p->cap * sizeof *p->idoff);
		p->idlen = xrealloc(p->idlen, p->cap * sizeof *p->idlen);
		p->score = xrealloc(p->score, p->cap * sizeof *p->score);
		p->next = xrealloc(p->next, p->cap * sizeof *p->next);
	}
	at = p->raw.len;
	rec_buf_add(&p->raw, raw, rawlen);
	p->off[p->n + 1] = p->raw.len;
	p->idoff[p->n] = at + idat;
	p->idlen[p->n] = idlen;
	p->score[p->n] = score;
	p->next[p->n] = (size_t)-1;
	k = rec_hash_put(&p->ids, p->raw.data + at + idat, idlen, &added);
	if (added) {
		if (p->ids.n > p->capids) {	/* grow with the hash */
			p->capids = p->ids.cap;
			p->first = xrealloc(p->first, p->capids *
			    sizeof *p->first);
			p->last = xrealloc(p->last, p->capids *
			    sizeof *p->last);
		}
		p->first[k] = p->n;
	} else
		p->next[p->last[k]] = p->n;	/* keeps pool order */
	p->last[k] = p->n;
	p->n++;
}

void
rec_pool_add(struct rec_pool *p, const struct rec_record *rec)
{
	if (!p->off) {
		p->off = xmalloc(sizeof *p->off);
		p->off[0] = 0;
	}
	pool_add(p, rec->raw, rec->rawlen, (size_t)(rec->id - rec->raw),
	    rec->idlen, rec->score);
}

void
rec_pool_reset(struct rec_pool *p)
{
	rec_buf_reset(&p->raw);
	p->n = 0;
	rec_hash_free(&p->ids);
}

int
rec_groups_pool(struct rec_groups *g, struct rec_pool *p)
{
	struct rec_record rec;

	rec_pool_reset(p);
	if (!p->off) {
		p->off = xmalloc(sizeof *p->off);
		p->off[0] = 0;
	}
	if (g->have_held) {
		pool_add(p, g->held.data, g->held.len, g->held_idat,
		    g->held_idlen, g->held_score);
		g->have_held = 0;
	} else {
		if (g->ended || !rec_next(g->r, &rec)) {
			g->ended = 1;
			return 0;
		}
		rec_groups_check(g, &rec);
		rec_pool_add(p, &rec);
	}
	while (rec_next(g->r, &rec)) {
		if (rec_groups_check(g, &rec)) {
			/* the first record of the next group waits */
			rec_buf_reset(&g->held);
			rec_buf_add(&g->held, rec.raw, rec.rawlen);
			g->held_idat = (size_t)(rec.id - rec.raw);
			g->held_idlen = rec.idlen;
			g->held_score = rec.score;
			g->have_held = 1;
			/* the value now is the next group's: keep this one's
			 * for the caller */
			rec_buf_reset(&g->value);
			rec_buf_add(&g->value, g->prev.data, g->prev.len);
			return 1;
		}
		rec_pool_add(p, &rec);
	}
	g->ended = 1;
	rec_buf_reset(&g->value);
	rec_buf_add(&g->value, g->cur.data, g->cur.len);
	return 1;
}
