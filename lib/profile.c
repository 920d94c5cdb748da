/*
 * profile.c: the long-term profile, InteRecAgent's like, dislike and
 * expect facets kept in a JSON file across sessions.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "converse.h"

void
rec_profile_load(struct rec_profile *pf, const char *path)
{
	FILE *fp = fopen(path, "r");
	struct rec_buf txt = {0}, pack = {0}, err = {0};
	char buf[4096];
	size_t n, off = 0;
	msgpack_zone z;
	msgpack_object o;
	const msgpack_object *l, *d;

	memset(pf, 0, sizeof *pf);
	if (!fp)
		return;		/* a new profile */
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		rec_buf_add(&txt, buf, n);
	fclose(fp);
	while (txt.len && (txt.data[txt.len - 1] == '\n' ||
	    txt.data[txt.len - 1] == ' '))
		txt.len--;
	if (!txt.len)
		goto out;
	if (rec_json_to_msgpack(txt.data, txt.len, &pack, NULL, &err))
		rec_die("profile '%s': %s", path, err.data);
	msgpack_zone_init(&z, 4096);
	msgpack_unpack(pack.data, pack.len, &off, &z, &o);
	if (o.type != MSGPACK_OBJECT_MAP)
		rec_die("profile '%s': not a JSON object", path);
	if ((l = rec_map_get(&o, "like"))) {
		rec_strs_from(&pf->like_items, rec_map_get(l, "items"));
		rec_strs_from(&pf->like_creators, rec_map_get(l, "creators"));
		rec_strs_from(&pf->like_tags, rec_map_get(l, "tags"));
	}
	if ((d = rec_map_get(&o, "dislike"))) {
		rec_strs_from(&pf->dislike_items, rec_map_get(d, "items"));
		rec_strs_from(&pf->dislike_creators, rec_map_get(d, "creators"));
		rec_strs_from(&pf->dislike_tags, rec_map_get(d, "tags"));
	}
	if ((d = rec_map_get(&o, "expect"))) {
		rec_strs_from(&pf->expect_creators, rec_map_get(d, "creators"));
		rec_strs_from(&pf->expect_tags, rec_map_get(d, "tags"));
	}
	msgpack_zone_destroy(&z);
out:
	rec_buf_free(&txt);
	rec_buf_free(&pack);
	rec_buf_free(&err);
}

void
rec_profile_save(const struct rec_profile *pf, const char *path)
{
	struct rec_buf b = {0};

	rec_buf_adds(&b, "{\"like\":{");
	rec_strs_json(&b, "items", &pf->like_items);
	rec_buf_addc(&b, ',');
	rec_strs_json(&b, "creators", &pf->like_creators);
	rec_buf_addc(&b, ',');
	rec_strs_json(&b, "tags", &pf->like_tags);
	rec_buf_adds(&b, "},\"dislike\":{");
	rec_strs_json(&b, "items", &pf->dislike_items);
	rec_buf_addc(&b, ',');
	rec_strs_json(&b, "creators", &pf->dislike_creators);
	rec_buf_addc(&b, ',');
	rec_strs_json(&b, "tags", &pf->dislike_tags);
	rec_buf_adds(&b, "},\"expect\":{");
	rec_strs_json(&b, "creators", &pf->expect_creators);
	rec_buf_addc(&b, ',');
	rec_strs_json(&b, "tags", &pf->expect_tags);
	rec_buf_adds(&b, "}}\n");
	if (rec_atomic_file(path, b.data, b.len, 0666) < 0)
		rec_die("cannot write profile '%s': %m", path);
	rec_buf_free(&b);
}

void
rec_profile_free(struct rec_profile *pf)
{
	rec_strs_free(&pf->like_items);
	rec_strs_free(&pf->like_creators);
	rec_strs_free(&pf->like_tags);
	rec_strs_free(&pf->dislike_items);
	rec_strs_free(&pf->dislike_creators);
	rec_strs_free(&pf->dislike_tags);
	rec_strs_free(&pf->expect_creators);
	rec_strs_free(&pf->expect_tags);
}

/* puts v first in s (moving it if there), keeping at most 20 */
static int
strs_front(struct rec_strs *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->n && strcmp(s->v[i], v); i++)
		;
	if (i == 0 && s->n)
		return 0;	/* already the newest */
	if (i == s->n) {
		if (s->n == 20)
			free(s->v[--s->n]);
		s->v = xrealloc(s->v, (s->n + 1) * sizeof *s->v);
		memmove(s->v + 1, s->v, s->n * sizeof *s->v);
		s->v[0] = xstrdup(v);
		s->n++;
	} else {
		char *t = s->v[i];
		memmove(s->v + 1, s->v, i * sizeof *s->v);
		s->v[0] = t;
	}
	return 1;
}

static int
strs_merge(struct rec_strs *to, const struct rec_strs *from,
    struct rec_strs *unless)
{
	size_t i, j, n = to->n;

	for (i = 0; i < from->n; i++) {
		rec_strs_add(to, from->v[i]);
		/* a new taste overrides the opposite one */
		for (j = 0; j < unless->n; j++)
			if (!strcmp(unless->v[j], from->v[i])) {
				free(unless->v[j]);
				unless->v[j] = unless->v[--unless->n];
				break;
			}
	}
	return to->n != n;
}

int
rec_profile_learn(struct rec_profile *pf, const struct rec_intent *in)
{
	int changed = 0;

	if (in->taste > 0) {
		changed |= strs_merge(&pf->like_items, &in->liked_items,
		    &pf->dislike_items);
		changed |= strs_merge(&pf->like_creators, &in->liked_creators,
		    &pf->dislike_creators);
		changed |= strs_merge(&pf->like_tags, &in->tags,
		    &pf->dislike_tags);
	}
	if (!in->taste) {
		/* a request: what the person asks for, newest first */
		size_t i;
		for (i = 0; i < in->liked_creators.n; i++)
			changed |= strs_front(&pf->expect_creators,
			    in->liked_creators.v[i]);
		for (i = 0; i < in->tags.n; i++)
			changed |= strs_front(&pf->expect_tags, in->tags.v[i]);
	}
	if (in->taste) {
		/* "not a fan of rap": the negation scope holds the taste */
		changed |= strs_merge(&pf->dislike_items, &in->disliked_items,
		    &pf->like_items);
		changed |= strs_merge(&pf->dislike_creators,
		    &in->disliked_creators, &pf->like_creators);
		changed |= strs_merge(&pf->dislike_tags, &in->disliked_tags,
		    &pf->like_tags);
	}
	return changed;
}

void
rec_profile_apply(const struct rec_profile *pf, struct rec_intent *in)
{
	rec_strs_copy(&in->disliked_items, &pf->dislike_items);
	rec_strs_copy(&in->disliked_creators, &pf->dislike_creators);
	rec_strs_copy(&in->disliked_tags, &pf->dislike_tags);
	rec_strs_copy(&in->boost, &pf->like_items);
	/* nothing to go on: what the person usually asks for */
	if (!in->liked_items.n && !in->liked_creators.n && !in->tags.n &&
	    !in->words.n && !in->user && !in->ncons && (!in->popular ||
	    in->open) && !in->taste && (pf->expect_creators.n ||
	    pf->expect_tags.n)) {
		size_t i;
		if (in->open)
			in->popular = 0;
		for (i = 0; i < pf->expect_creators.n && i < 2; i++)
			rec_strs_add(&in->liked_creators, pf->expect_creators.v[i]);
		for (i = 0; i < pf->expect_tags.n && i < 3; i++)
			rec_strs_add(&in->tags, pf->expect_tags.v[i]);
		rec_intent_said(in, "%s", "going by what you usually ask for");
	}
}
