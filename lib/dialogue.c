/*
 * dialogue.c: the conversation so far as a model is shown it: the
 * earlier messages and replies, the last list with titles and creators
 * (so "the second one" can be read), and the state the turns left
 * (rec-session(5)): what was liked, disliked and shown.  Both model
 * modes put it before the request.
 */
#include <stdlib.h>
#include <string.h>

#include "converse.h"

/* how much of the past a prompt holds */
#define TURNS 6
#define REPLY_MAX 800
#define LIST_MAX 20

void
rec_dialogue_add(struct rec_dialogue *d, const char *user, const char *reply)
{
	rec_strs_push(&d->user, user ? user : "", user ? strlen(user) : 0);
	rec_strs_push(&d->reply, reply ? reply : "", reply ? strlen(reply) : 0);
}

void
rec_dialogue_from_session(struct rec_dialogue *d, const struct rec_session *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		rec_dialogue_add(d, s->turn[i].user, s->turn[i].reply);
}

void
rec_dialogue_free(struct rec_dialogue *d)
{
	rec_strs_free(&d->user);
	rec_strs_free(&d->reply);
	memset(d, 0, sizeof *d);
}

/* s, at most max bytes of it, cut between characters */
static void
add_cut(struct rec_buf *b, const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n > max) {
		n = max;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	rec_buf_add(b, s, n);
	if (n < strlen(s))
		rec_buf_adds(b, "...");
}

void
rec_item_describe(struct rec_kb *kb, const char *id, struct rec_buf *b)
{
	char *t = rec_catalog_field(kb->cat, kb->c_title, id, strlen(id));
	char *c = rec_catalog_field(kb->cat, kb->c_creator, id, strlen(id));

	rec_buf_printf(b, "[%s] %s", id, t ? t : "(no title)");
	if (c && *c)
		rec_buf_printf(b, " by %s", c);
	free(t);
	free(c);
}

/* "label: [id] Title by Creator; ..." for the ids of s, at most max */
static void
items(struct rec_kb *kb, const char *label, const struct rec_strs *s,
    size_t max, int numbered, struct rec_buf *b)
{
	size_t i, from = s->n > max ? s->n - max : 0;

	if (!s->n)
		return;
	rec_buf_printf(b, "%s:", label);
	for (i = from; i < s->n; i++) {
		rec_buf_adds(b, i > from ? ";" : "");
		if (numbered)
			rec_buf_printf(b, " %zu.", i + 1);
		rec_buf_addc(b, ' ');
		rec_item_describe(kb, s->v[i], b);
	}
	rec_buf_adds(b, "\n");
}

static void
names(const char *label, const struct rec_strs *s, struct rec_buf *b)
{
	size_t i;

	if (!s->n)
		return;
	rec_buf_printf(b, "%s: ", label);
	for (i = 0; i < s->n; i++)
		rec_buf_printf(b, "%s%s", i ? ", " : "",
		    rec_facet_split(s->v[i], NULL));
	rec_buf_adds(b, "\n");
}

int
rec_dialogue_text(struct rec_kb *kb, const struct rec_dialogue *d,
    const struct rec_intent *prev, struct rec_buf *b)
{
	size_t i, from, len = b->len;
	struct rec_strs liked = {0};

	if (d && d->user.n) {
		from = d->user.n > TURNS ? d->user.n - TURNS : 0;
		rec_buf_adds(b, "The conversation so far (items as [id] "
		    "Title by Creator):\n");
		for (i = from; i < d->user.n; i++) {
			rec_buf_adds(b, "Person: ");
			add_cut(b, d->user.v[i], REPLY_MAX);
			rec_buf_adds(b, "\nYou: ");
			add_cut(b, d->reply.v[i], REPLY_MAX);
			while (b->len && b->data[b->len - 1] == '\n')
				b->data[--b->len] = 0;
			rec_buf_addc(b, '\n');
		}
	}
	if (prev) {
		items(kb, "The last list shown", &prev->last, LIST_MAX, 1, b);
		rec_strs_copy(&liked, &prev->boost);
		for (i = 0; i < prev->liked_items.n; i++)
			rec_strs_add(&liked, prev->liked_items.v[i]);
		items(kb, "Liked", &liked, LIST_MAX, 0, b);
		names("Creators asked for", &prev->liked_creators, b);
		items(kb, "Disliked (never again)", &prev->disliked_items,
		    LIST_MAX, 0, b);
		names("Creators disliked (never again)",
		    &prev->disliked_creators, b);
		names("Tags disliked", &prev->disliked_tags, b);
		if (prev->shown.n)
			rec_buf_printf(b, "Items shown so far: %zu (rec leaves "
			    "them out).\n", prev->shown.n);
		rec_strs_free(&liked);
	}
	return b->len > len;
}
