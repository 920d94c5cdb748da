/*
 * llm.c: talking to a language model over HTTP (libcurl), the
 * OpenAI-compatible way a local llama.cpp or Ollama server speaks.  What
 * comes back is data: callers parse and check it; nothing here runs it.
 */
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "converse.h"

/* what the calls of this process cost, and whether the endpoint failed
 * (then it is not asked again until rec_llm_reset) */
static struct rec_llm_cost cost;
static int down;

void
rec_llm_cost_get(struct rec_llm_cost *c)
{
	*c = cost;
}

void
rec_llm_reset(void)
{
	down = 0;
}

/* seconds from the environment variable name (a number > 0, fractions
 * allowed), or def when it is unset, empty or not one */
static double
env_seconds(const char *name, double def)
{
	const char *e = getenv(name);
	char *end;
	double v;

	if (!e || !*e)
		return def;
	v = strtod(e, &end);
	return *end || !(v > 0) || v > 86400 ? def : v;
}

/* One REC_TRACE line per model call, as every tool writes one per run:
 * {"tool":"model","call":WHAT,"ms":..,"prompt_tokens":..,
 * "completion_tokens":..,"status":0|1[,"error":..]}, one write(2). */
static void
trace_call(const char *what, double ms, long pt, long ct, int status,
    const char *error)
{
	const char *path = getenv("REC_TRACE");
	struct rec_buf b = {0};
	int fd;

	if (!path || !*path)
		return;
	rec_buf_adds(&b, "{\"tool\":\"model\",\"call\":");
	rec_json_string(&b, what, strlen(what));
	rec_buf_printf(&b, ",\"pid\":%ld,\"ms\":%.3f,\"prompt_tokens\":%ld,"
	    "\"completion_tokens\":%ld,\"status\":%d", (long)getpid(), ms,
	    pt, ct, status);
	if (error && *error) {
		rec_buf_adds(&b, ",\"error\":");
		rec_json_string(&b, error, strlen(error));
	}
	rec_buf_adds(&b, "}\n");
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd >= 0) {
		if (write(fd, b.data, b.len) < 0)
			rec_warn("cannot write trace '%s': %m", path);
		close(fd);
	}
	rec_buf_free(&b);
}

int
rec_llm_enabled(void)
{
	const char *u = getenv("REC_LLM_URL");

	return u && *u;
}

static size_t
gather(char *p, size_t size, size_t n, void *data)
{
	struct rec_buf *b = data;

	if (b->len + size * n > (64u << 20))
		return 0;	/* a reply that large is not a reply */
	rec_buf_add(b, p, size * n);
	return size * n;
}

/* one POST: 0, or -1 with the reason in err and *again set when
 * another try could go better (no connection, HTTP 429 or 5xx) */
static int
post_once(const char *url, struct curl_slist *hdr, const struct rec_buf *body,
    struct rec_buf *reply, struct rec_buf *err, int *again)
{
	long code = 0;
	long tmo = (long)(env_seconds("REC_LLM_TIMEOUT", 60) * 1e3);
	long ctmo = (long)(env_seconds("REC_LLM_CONNECT_TIMEOUT", 10) * 1e3);
	CURLcode rc;
	CURL *c;
	int ret = -1;

	*again = 0;
	c = curl_easy_init();
	if (!c) {
		rec_buf_adds(err, "cannot start libcurl");
		return -1;
	}
	rec_buf_reset(reply);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body->data);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)body->len);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, gather);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, reply);
	/* the whole call, and the connection within it: a slow or silent
	 * server ends the call, never the conversation */
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, tmo > 0 ? tmo : 60000L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, ctmo < tmo ? ctmo :
	    tmo);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	rc = curl_easy_perform(c);
	if (rc != CURLE_OK) {
		rec_buf_printf(err, "%s: %s", url, curl_easy_strerror(rc));
		*again = rc == CURLE_COULDNT_CONNECT;
	} else if (curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code),
	    code != 200) {
		rec_buf_printf(err, "%s: HTTP %ld", url, code);
		*again = code == 429 || code >= 500;
	} else
		ret = 0;
	curl_easy_cleanup(c);
	return ret;
}

/* POSTs the JSON body to REC_LLM_URL + suffix, tried again up to
 * REC_LLM_RETRIES times (default 1) after REC_LLM_RETRY_WAIT seconds
 * (default 0.5) when that could help: 0 with the reply's body in reply
 * and the URL in url, or -1 with the reason in err.  After a failure
 * the endpoint is not asked again until rec_llm_reset(). */
static int
post_json(const char *suffix, const struct rec_buf *body,
    struct rec_buf *url, struct rec_buf *reply, struct rec_buf *err)
{
	const char *base = getenv("REC_LLM_URL"), *key = getenv("REC_LLM_KEY");
	const char *r = getenv("REC_LLM_RETRIES");
	struct rec_buf auth = {0};
	struct curl_slist *hdr = NULL;
	long retries = r && *r ? atol(r) : 1, i;
	double wait = env_seconds("REC_LLM_RETRY_WAIT", 0.5);
	int ret = -1, again = 0;

	if (!base || !*base) {
		rec_buf_adds(err, "REC_LLM_URL is not set");
		return -1;
	}
	rec_buf_adds(url, base);
	while (url->len && url->data[url->len - 1] == '/')
		url->data[--url->len] = 0;
	rec_buf_adds(url, suffix);
	if (down) {
		rec_buf_printf(err, "%s: not asked again after it failed",
		    url->data);
		return -1;
	}
	if (retries < 0 || retries > 10)
		retries = 1;
	hdr = curl_slist_append(hdr, "Content-Type: application/json");
	if (key && *key) {
		rec_buf_printf(&auth, "Authorization: Bearer %s", key);
		hdr = curl_slist_append(hdr, auth.data);
	}
	for (i = 0; i <= retries; i++) {
		if (i) {
			struct timespec ts;
			ts.tv_sec = (time_t)wait;
			ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
			while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
				;
			rec_buf_reset(err);
		}
		if ((ret = post_once(url->data, hdr, body, reply, err,
		    &again)) == 0 || !again)
			break;
	}
	if (ret < 0)
		down = 1;
	curl_slist_free_all(hdr);
	rec_buf_free(&auth);
	return ret;
}

/* POST body, then parse the JSON reply into o, which points into pack and
 * zone: the caller frees pack, and destroys zone when this returns 0 */
static int
post_parse(const char *suffix, const struct rec_buf *body, struct rec_buf *url,
    struct rec_buf *pack, msgpack_zone *zone, msgpack_object *o,
    struct rec_buf *err)
{
	struct rec_buf reply = {0}, jerr = {0};
	size_t off = 0;
	int ret = -1;

	if (post_json(suffix, body, url, &reply, err) < 0)
		goto out;
	if (rec_json_to_msgpack(reply.data ? reply.data : "", reply.len, pack,
	    NULL, &jerr)) {
		rec_buf_printf(err, "%s: the reply is not JSON (%s)", url->data,
		    jerr.data);
		goto out;
	}
	msgpack_zone_init(zone, 4096);
	if (msgpack_unpack(pack->data, pack->len, &off, zone, o) !=
	    MSGPACK_UNPACK_SUCCESS) {
		rec_buf_printf(err, "%s: the reply cannot be read", url->data);
		msgpack_zone_destroy(zone);
		goto out;
	}
	ret = 0;
out:
	rec_buf_free(&reply);
	rec_buf_free(&jerr);
	return ret;
}

/* the integer at key of o's map usage, or 0 */
static long
usage_of(const msgpack_object *o, const char *key)
{
	const msgpack_object *u = rec_map_get(o, "usage"), *v;

	v = u && u->type == MSGPACK_OBJECT_MAP ? rec_map_get(u, key) : NULL;
	if (v && v->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	    v->via.u64 < 1000000000)
		return (long)v->via.u64;
	return 0;
}

/* A chat completion: the body from messages (a JSON array) and, with
 * tools (a JSON array), the tool definitions; else the answer is asked
 * for as a JSON object.  0 with choices[0].message as JSON in msg, or
 * -1 with err.  Its time and tokens go to the trace and the cost. */
static int
complete(const char *what, const char *messages, const char *tools,
    struct rec_buf *msg, struct rec_buf *err)
{
	const char *model = getenv("REC_LLM_MODEL");
	struct rec_buf url = {0}, body = {0}, pack = {0}, jerr = {0};
	msgpack_zone zone;
	msgpack_object o;
	const msgpack_object *ch, *m = NULL;
	double t0 = rec_now();
	long pt = 0, ct = 0;
	int ret = -1, parsed = 0;

	rec_buf_reset(msg);
	rec_buf_reset(err);
	rec_buf_adds(&body, "{\"model\":");
	model = model && *model ? model : "default";
	rec_json_string(&body, model, strlen(model));
	if (tools)
		rec_buf_printf(&body, ",\"temperature\":0,\"tools\":%s,"
		    "\"tool_choice\":\"auto\",\"messages\":%s}", tools,
		    messages);
	else
		rec_buf_printf(&body, ",\"temperature\":0,\"response_format\":"
		    "{\"type\":\"json_object\"},\"messages\":%s}", messages);
	if (post_parse("/chat/completions", &body, &url, &pack, &zone,
	    &o, err) < 0)
		goto out;
	parsed = 1;
	pt = usage_of(&o, "prompt_tokens");
	ct = usage_of(&o, "completion_tokens");
	ch = rec_map_get(&o, "choices");
	if (ch && ch->type == MSGPACK_OBJECT_ARRAY && ch->via.array.size)
		m = rec_map_get(&ch->via.array.ptr[0], "message");
	if (!m || m->type != MSGPACK_OBJECT_MAP || rec_json_write(msg, m,
	    &jerr) < 0)
		rec_buf_printf(err, "%s: no choices[0].message in the reply",
		    url.data);
	else
		ret = 0;
out:
	if (parsed)
		msgpack_zone_destroy(&zone);
	{
		double ms = (rec_now() - t0) * 1e3;
		cost.calls++;
		cost.ms += ms;
		cost.prompt_tokens += pt;
		cost.completion_tokens += ct;
		if (ret < 0)
			cost.failed++;
		trace_call(what, ms, pt, ct, ret < 0, err->data);
	}
	rec_buf_free(&url);
	rec_buf_free(&body);
	rec_buf_free(&pack);
	rec_buf_free(&jerr);
	return ret;
}

int
rec_llm_chat_as(const char *what, const char *messages, struct rec_buf *out,
    struct rec_buf *err)
{
	struct rec_buf msg = {0}, pk = {0}, jerr = {0};
	msgpack_zone z;
	msgpack_object o;
	const msgpack_object *content;
	size_t off = 0;
	int ret = -1;

	rec_buf_reset(out);
	if (complete(what, messages, NULL, &msg, err) < 0)
		goto out;
	rec_json_to_msgpack(msg.data, msg.len, &pk, NULL, &jerr);
	msgpack_zone_init(&z, 1024);
	msgpack_unpack(pk.data, pk.len, &off, &z, &o);
	content = rec_map_get(&o, "content");
	if (!content || content->type != MSGPACK_OBJECT_STR)
		rec_buf_printf(err, "%s/chat/completions: no "
		    "choices[0].message.content in the reply",
		    getenv("REC_LLM_URL"));
	else {
		rec_buf_add(out, content->via.str.ptr, content->via.str.size);
		ret = 0;
	}
	msgpack_zone_destroy(&z);
out:
	rec_buf_free(&msg);
	rec_buf_free(&pk);
	rec_buf_free(&jerr);
	return ret;
}

int
rec_llm_chat(const char *messages, struct rec_buf *out, struct rec_buf *err)
{
	return rec_llm_chat_as("chat", messages, out, err);
}

int
rec_llm_tools(const char *what, const char *messages, const char *tools,
    struct rec_buf *msg, struct rec_buf *err)
{
	return complete(what, messages, tools, msg, err);
}

int
rec_llm_embed(const char *const *texts, size_t n, float **out, size_t *dim,
    struct rec_buf *err)
{
	const char *model = getenv("REC_EMBED_MODEL");
	struct rec_buf url = {0}, body = {0}, pack = {0};
	msgpack_zone zone;
	msgpack_object o;
	const msgpack_object *data;
	size_t i;
	uint32_t j;
	int ret = -1;

	*out = NULL;
	*dim = 0;
	rec_buf_reset(err);
	if (!model || !*model)
		model = getenv("REC_LLM_MODEL");
	if (!model || !*model)
		model = "default";
	rec_buf_adds(&body, "{\"model\":");
	rec_json_string(&body, model, strlen(model));
	rec_buf_adds(&body, ",\"input\":[");
	for (i = 0; i < n; i++) {
		if (i)
			rec_buf_addc(&body, ',');
		rec_json_string(&body, texts[i], strlen(texts[i]));
	}
	rec_buf_adds(&body, "]}");
	if (post_parse("/embeddings", &body, &url, &pack, &zone,
	    &o, err) < 0)
		goto out;
	data = rec_map_get(&o, "data");
	if (!data || data->type != MSGPACK_OBJECT_ARRAY ||
	    data->via.array.size != n) {
		rec_buf_printf(err, "%s: expected data with %zu embeddings",
		    url.data, n);
		msgpack_zone_destroy(&zone);
		goto out;
	}
	for (i = 0; i < n; i++) {
		const msgpack_object *e = rec_map_get(&data->via.array.ptr[i],
		    "embedding");
		if (!e || e->type != MSGPACK_OBJECT_ARRAY || !e->via.array.size ||
		    (*dim && e->via.array.size != *dim)) {
			rec_buf_printf(err, "%s: embedding %zu is missing or of "
			    "another dimension", url.data, i);
			free(*out);
			*out = NULL;
			*dim = 0;
			msgpack_zone_destroy(&zone);
			goto out;
		}
		if (!*dim) {
			*dim = e->via.array.size;
			*out = xmalloc(n * *dim * sizeof **out);
		}
		for (j = 0; j < e->via.array.size; j++) {
			const msgpack_object *v = &e->via.array.ptr[j];
			float *f = &(*out)[i * *dim + j];

			if (v->type == MSGPACK_OBJECT_FLOAT64 ||
			    v->type == MSGPACK_OBJECT_FLOAT32)
				*f = (float)v->via.f64;
			else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
				*f = (float)v->via.u64;
			else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
				*f = (float)v->via.i64;
			else {
				rec_buf_printf(err, "%s: embedding %zu: value "
				    "%u is not a number", url.data, i, j);
				free(*out);
				*out = NULL;
				*dim = 0;
				msgpack_zone_destroy(&zone);
				goto out;
			}
		}
	}
	msgpack_zone_destroy(&zone);
	ret = 0;
out:
	rec_buf_free(&url);
	rec_buf_free(&body);
	rec_buf_free(&pack);
	return ret;
}
