/*
 * demos.c: demonstrations for a model (InteRecAgent's dynamic
 * few-shot): a JSONL file of requests and the plans (or intents) that
 * served them, which rec-chat -D adds to when a person likes a result.
 * The few whose requests are most like the message, by Okapi BM25 over
 * the requests (the scoring of bm25.c, here over a file small enough to
 * read whole), go into the prompt.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demos.h"

/* the folded words of s, each once per occurrence */
static void
words(const char *s, struct rec_strs *w)
{
	struct rec_buf f = {0};
	char *tok, *save = NULL;

	rec_norm(&f, s, strlen(s));
	for (tok = f.data ? strtok_r(f.data, " ", &save) : NULL; tok;
	    tok = strtok_r(NULL, " ", &save))
		rec_strs_push(w, tok, strlen(tok));
	rec_buf_free(&f);
}

struct demo {
	char *line;
	struct rec_strs w;
	double score;
};

static int
by_score(const void *a, const void *b)
{
	const struct demo *x = a, *y = b;

	return x->score < y->score ? 1 : x->score > y->score ? -1 : 0;
}

size_t
rec_demos_best(const char *path, const char *message, const char *key,
    size_t k, char **lines)
{
	FILE *fp = fopen(path, "r");
	struct demo *d = NULL;
	struct rec_strs q = {0};
	char *line = NULL;
	size_t cap = 0, n = 0, i, j, t, got = 0;
	double avg = 0, k1 = 1.2, b = 0.75;
	unsigned long ln = 0;
	ssize_t len;

	if (!fp) {
		if (errno != ENOENT)
			rec_warn("cannot open demonstrations '%s': %m", path);
		return 0;
	}
	while ((len = getline(&line, &cap, fp)) > 0) {
		struct rec_buf pk = {0}, err = {0};
		msgpack_zone z;
		msgpack_object o;
		const msgpack_object *r;
		size_t off = 0;

		ln++;
		if (rec_json_to_msgpack(line, (size_t)len, &pk, NULL, &err)) {
			rec_warn("%s:%lu: not JSON (%s): left out", path, ln,
			    err.data);
			rec_buf_free(&pk);
			rec_buf_free(&err);
			continue;
		}
		msgpack_zone_init(&z, 1024);
		msgpack_unpack(pk.data, pk.len, &off, &z, &o);
		r = rec_map_get(&o, "request");
		if (r && r->type == MSGPACK_OBJECT_STR && rec_map_get(&o, key)) {
			char *req = xstrndup(r->via.str.ptr, r->via.str.size);
			d = xrealloc(d, (n + 1) * sizeof *d);
			memset(&d[n], 0, sizeof d[n]);
			d[n].line = xstrndup(line, (size_t)len);
			words(req, &d[n].w);
			avg += (double)d[n].w.n;
			n++;
			free(req);
		}
		msgpack_zone_destroy(&z);
		rec_buf_free(&pk);
		rec_buf_free(&err);
	}
	fclose(fp);
	free(line);
	if (!n)
		return 0;
	avg /= (double)n;
	words(message, &q);
	for (t = 0; t < q.n; t++) {
		size_t df = 0;
		double idf;
		/* a word said twice counts once */
		for (j = 0; j < t; j++)
			if (!strcmp(q.v[j], q.v[t]))
				break;
		if (j < t)
			continue;
		for (i = 0; i < n; i++)
			df += rec_strs_has(&d[i].w, q.v[t], 0) ? 1 : 0;
		if (!df)
			continue;
		idf = log(1 + ((double)n - (double)df + 0.5) /
		    ((double)df + 0.5));
		for (i = 0; i < n; i++) {
			double tf = 0;
			for (j = 0; j < d[i].w.n; j++)
				tf += !strcmp(d[i].w.v[j], q.v[t]);
			if (tf > 0)
				d[i].score += idf * tf * (k1 + 1) / (tf + k1 *
				    (1 - b + b * (double)d[i].w.n /
				    (avg > 0 ? avg : 1)));
		}
	}
	qsort(d, n, sizeof *d, by_score);
	for (i = 0; i < n; i++) {
		if (got < k && d[i].score > 0)
			lines[got++] = d[i].line;
		else
			free(d[i].line);
		rec_strs_free(&d[i].w);
	}
	free(d);
	rec_strs_free(&q);
	return got;
}

void
rec_demos_prompt(const char *path, const char *message, const char *key,
    size_t k, struct rec_buf *b)
{
	char **lines = xcalloc(k ? k : 1, sizeof *lines);
	size_t n = rec_demos_best(path, message, key, k, lines), i;

	if (n)
		rec_buf_printf(b, "Examples of requests and the %ss that served "
		    "them:\n", key);
	/* the best last, nearest the request */
	for (i = n; i > 0; i--) {
		char *l = lines[i - 1];
		size_t len = strlen(l);
		while (len && (l[len - 1] == '\n' || l[len - 1] == '\r'))
			len--;
		rec_buf_add(b, l, len);
		rec_buf_addc(b, '\n');
		free(l);
	}
	free(lines);
}

void
rec_demos_record(const char *path, const char *request, const char *key,
    const char *value)
{
	struct rec_buf b = {0};
	int fd;

	rec_buf_adds(&b, "{\"request\":");
	rec_json_string(&b, request, strlen(request));
	rec_buf_printf(&b, ",\"%s\":%s}\n", key, value);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0 || write(fd, b.data, b.len) != (ssize_t)b.len)
		rec_warn("cannot add to demonstrations '%s': %m", path);
	if (fd >= 0 && close(fd) < 0)
		rec_warn("cannot add to demonstrations '%s': %m", path);
	rec_buf_free(&b);
}

void
rec_demos_intent(const struct rec_intent *in, struct rec_buf *b)
{
	char num[40];
	int c;

	rec_buf_addc(b, '{');
	rec_strs_json(b, "liked_items", &in->liked_items);
	rec_buf_addc(b, ',');
	rec_strs_json(b, "liked_creators", &in->liked_creators);
	rec_buf_addc(b, ',');
	rec_strs_json(b, "disliked_creators", &in->disliked_creators);
	rec_buf_addc(b, ',');
	rec_strs_json(b, "tags", &in->tags);
	rec_buf_addc(b, ',');
	rec_strs_json(b, "disliked_tags", &in->disliked_tags);
	rec_buf_addc(b, ',');
	rec_strs_json(b, "words", &in->words);
	rec_buf_adds(b, ",\"constraints\":[");
	for (c = 0; c < in->ncons; c++) {
		rec_json_double(num, sizeof num, in->cons[c].v);
		rec_buf_adds(b, c ? ",{\"column\":" : "{\"column\":");
		rec_json_string(b, in->cons[c].col, strlen(in->cons[c].col));
		rec_buf_printf(b, ",\"op\":\"%s\",\"value\":%s}", in->cons[c].op,
		    num);
	}
	rec_buf_printf(b, "],\"popularity\":%d,\"k\":%d}", in->popular > 1 ? 1 :
	    in->popular, in->k);
}
