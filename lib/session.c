/*
 * session.c: the session file, a conversation as JSON lines, one object
 * per turn (rec-session(5)).  rec-chat writes it and reads it back to go
 * on, rec-plan reads it for context, rec-eval writes the turns of a
 * logged conversation in the same form for any command it scores.  This
 * file is the only place that knows the format.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "converse.h"

static void
opt_string(struct rec_buf *b, const char *key, const char *v)
{
	if (!v)
		return;
	rec_buf_printf(b, ",\"%s\":", key);
	rec_json_string(b, v, strlen(v));
}

void
rec_session_format(struct rec_buf *b, const struct rec_session_out *t,
    int full)
{
	size_t i;

	rec_buf_printf(b, "{\"turn\":%d,\"user\":", t->turn);
	rec_json_string(b, t->user, strlen(t->user));
	opt_string(b, "reply", t->reply);
	if (t->items)
		rec_buf_printf(b, ",\"items\":%s", t->items);
	else if (t->shown) {
		rec_buf_adds(b, ",\"items\":[");
		for (i = 0; i < t->shown->n; i++) {
			rec_buf_adds(b, i ? ",{\"id\":" : "{\"id\":");
			rec_json_string(b, t->shown->v[i], strlen(t->shown->v[i]));
			rec_buf_addc(b, '}');
		}
		rec_buf_addc(b, ']');
	}
	if (t->liked) {
		rec_buf_addc(b, ',');
		rec_strs_json(b, "liked", t->liked);
	}
	if (t->disliked) {
		rec_buf_addc(b, ',');
		rec_strs_json(b, "disliked", t->disliked);
	}
	opt_string(b, "shell", t->shell);
	opt_string(b, "violated", t->violated);
	opt_string(b, "emptied", t->emptied);
	opt_string(b, "relaxed", t->relaxed);
	opt_string(b, "model", t->model);
	if (t->ms >= 0)
		rec_buf_printf(b, ",\"failed\":%s,\"ms\":%.1f", t->failed ?
		    "true" : "false", t->ms);
	if (full && t->intent) {
		rec_buf_adds(b, ",\"intent\":");
		rec_intent_json(b, t->intent);
	}
	if (full && t->plan) {
		rec_buf_adds(b, ",\"plan\":");
		rec_plan_json(b, t->plan);
	}
	rec_buf_adds(b, "}\n");
}

/* the ids of a turn's "items" (objects with an id, or plain ids) */
static void
items_from(struct rec_strs *s, const msgpack_object *o)
{
	uint32_t i;

	if (!o || o->type != MSGPACK_OBJECT_ARRAY)
		return;
	for (i = 0; i < o->via.array.size; i++) {
		const msgpack_object *e = &o->via.array.ptr[i], *id;
		id = e->type == MSGPACK_OBJECT_MAP ? rec_map_get(e, "id") : e;
		if (id && id->type == MSGPACK_OBJECT_STR)
			rec_strs_push(s, id->via.str.ptr, id->via.str.size);
	}
}

static char *
str_dup(const msgpack_object *o)
{
	if (!o || o->type != MSGPACK_OBJECT_STR)
		return NULL;
	return xstrndup(o->via.str.ptr, o->via.str.size);
}

int
rec_session_read(const char *path, struct rec_session *s)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	struct rec_buf pack = {0}, err = {0};
	msgpack_zone z;
	unsigned long ln = 0;

	memset(s, 0, sizeof *s);
	if (!fp) {
		if (errno == ENOENT)
			return 0;
		rec_die("cannot read session '%s': %m", path);
	}
	msgpack_zone_init(&z, 4096);
	while ((n = getline(&line, &cap, fp)) > 0) {
		struct rec_session_turn *t;
		msgpack_object o;
		const msgpack_object *u, *in;
		size_t off = 0;

		ln++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		if (!n)
			continue;
		rec_buf_reset(&pack);
		rec_buf_reset(&err);
		if (rec_json_to_msgpack(line, (size_t)n, &pack, NULL, &err))
			rec_die("%s:%lu: %s", path, ln, err.data);
		msgpack_zone_clear(&z);
		msgpack_unpack(pack.data, pack.len, &off, &z, &o);
		u = rec_map_get(&o, "user");
		if (o.type != MSGPACK_OBJECT_MAP || !u ||
		    u->type != MSGPACK_OBJECT_STR)
			rec_die("%s:%lu: not a turn of a rec session (an object "
			    "with \"user\" is expected)", path, ln);
		s->turn = xrealloc(s->turn, (s->n + 1) * sizeof *s->turn);
		t = &s->turn[s->n++];
		memset(t, 0, sizeof *t);
		t->user = str_dup(u);
		t->reply = str_dup(rec_map_get(&o, "reply"));
		items_from(&t->shown, rec_map_get(&o, "items"));
		rec_strs_from(&t->liked, rec_map_get(&o, "liked"));
		rec_strs_from(&t->disliked, rec_map_get(&o, "disliked"));
		if ((in = rec_map_get(&o, "intent")) &&
		    in->type == MSGPACK_OBJECT_MAP) {
			rec_intent_from(&t->intent, in);
			t->has_intent = 1;
		}
	}
	if (ferror(fp))
		rec_die("cannot read session '%s': %m", path);
	free(line);
	fclose(fp);
	msgpack_zone_destroy(&z);
	rec_buf_free(&pack);
	rec_buf_free(&err);
	return 1;
}

void
rec_session_free(struct rec_session *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct rec_session_turn *t = &s->turn[i];
		free(t->user);
		free(t->reply);
		rec_strs_free(&t->shown);
		rec_strs_free(&t->liked);
		rec_strs_free(&t->disliked);
		if (t->has_intent)
			rec_intent_free(&t->intent);
	}
	free(s->turn);
	memset(s, 0, sizeof *s);
}

int
rec_session_last(const char *path, struct rec_intent *prev, int *turns)
{
	struct rec_session s;
	size_t i;
	int have = 0;

	*turns = 0;
	memset(prev, 0, sizeof *prev);
	if (!rec_session_read(path, &s))
		return 0;
	for (i = 0; i < s.n; i++) {
		struct rec_session_turn *t = &s.turn[i];
		if (t->has_intent) {
			/* keep what every turn showed */
			struct rec_intent keep = *prev;
			*prev = t->intent;
			t->has_intent = 0;
			rec_strs_copy(&prev->shown, &keep.shown);
			if (have)
				rec_intent_free(&keep);
		} else if (!have)
			rec_intent_from(prev, NULL);
		rec_strs_copy(&prev->shown, &t->shown);
		have = 1;
	}
	*turns = (int)s.n;
	rec_session_free(&s);
	return have;
}

int
rec_session_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		rec_die("cannot open session '%s': %m", path);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			rec_die("session '%s' is in use by another rec-chat "
			    "(one writer at a time)", path);
		rec_die("cannot lock session '%s': %m", path);
	}
	return fd;
}

void
rec_session_append(int fd, const char *path, const char *line, size_t n)
{
	struct stat st;
	size_t done = 0;

	if (fstat(fd, &st) < 0)
		rec_die("cannot write session '%s': %m", path);
	while (done < n) {
		ssize_t w = write(fd, line + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : ENOSPC;
			/* all or nothing: a partial line would make the
			 * session unreadable */
			if (ftruncate(fd, st.st_size) < 0) {
				/* nothing more to do than say it */
			}
			errno = e;
			rec_die("cannot write session '%s': %m", path);
		}
		done += (size_t)w;
	}
}
