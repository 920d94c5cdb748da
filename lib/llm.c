/*
 * llm.c: talking to a language model over HTTP (libcurl), the
 * OpenAI-compatible way a local llama.cpp or Ollama server speaks.  What
 * comes back is data: callers parse and check it; nothing here runs it.
 */
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

#include "converse.h"

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

/* POSTs the JSON body to REC_LLM_URL + suffix: 0 with the reply's body
 * in reply and the URL in url, or -1 with the reason in err */
static int
post_json(const char *suffix, const struct rec_buf *body,
    struct rec_buf *url, struct rec_buf *reply, struct rec_buf *err)
{
	const char *base = getenv("REC_LLM_URL"), *key = getenv("REC_LLM_KEY");
	const char *t = getenv("REC_LLM_TIMEOUT");
	struct rec_buf auth = {0};
	struct curl_slist *hdr = NULL;
	long code = 0, timeout = t && *t ? atol(t) : 60;
	CURLcode rc;
	CURL *c;
	int ret = -1;

	if (!base || !*base) {
		rec_buf_adds(err, "REC_LLM_URL is not set");
		return -1;
	}
	rec_buf_adds(url, base);
	while (url->len && url->data[url->len - 1] == '/')
		url->data[--url->len] = 0;
	rec_buf_adds(url, suffix);
	c = curl_easy_init();
	if (!c) {
		rec_buf_adds(err, "cannot start libcurl");
		return -1;
	}
	hdr = curl_slist_append(hdr, "Content-Type: application/json");
	if (key && *key) {
		rec_buf_printf(&auth, "Authorization: Bearer %s", key);
		hdr = curl_slist_append(hdr, auth.data);
	}
	curl_easy_setopt(c, CURLOPT_URL, url->data);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body->data);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)body->len);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, gather);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, reply);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout > 0 ? timeout : 60);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	rc = curl_easy_perform(c);
	if (rc != CURLE_OK)
		rec_buf_printf(err, "%s: %s", url->data, curl_easy_strerror(rc));
	else if (curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code),
	    code != 200)
		rec_buf_printf(err, "%s: HTTP %ld", url->data, code);
	else
		ret = 0;
	curl_easy_cleanup(c);
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

int
rec_llm_chat(const char *messages, struct rec_buf *out, struct rec_buf *err)
{
	const char *model = getenv("REC_LLM_MODEL");
	struct rec_buf url = {0}, body = {0}, pack = {0};
	msgpack_zone zone;
	msgpack_object o;
	const msgpack_object *ch, *msg, *content;
	int ret = -1;

	rec_buf_reset(out);
	rec_buf_reset(err);
	rec_buf_adds(&body, "{\"model\":");
	model = model && *model ? model : "default";
	rec_json_string(&body, model, strlen(model));
	rec_buf_printf(&body, ",\"temperature\":0,\"response_format\":{\"type\":"
	    "\"json_object\"},\"messages\":%s}", messages);
	if (post_parse("/chat/completions", &body, &url, &pack, &zone,
	    &o, err) < 0)
		goto out;
	ch = rec_map_get(&o, "choices");
	msg = ch && ch->type == MSGPACK_OBJECT_ARRAY && ch->via.array.size ?
	    rec_map_get(&ch->via.array.ptr[0], "message") : NULL;
	content = msg ? rec_map_get(msg, "content") : NULL;
	if (!content || content->type != MSGPACK_OBJECT_STR)
		rec_buf_printf(err, "%s: no choices[0].message.content in the "
		    "reply", url.data);
	else {
		rec_buf_add(out, content->via.str.ptr, content->via.str.size);
		ret = 0;
	}
	msgpack_zone_destroy(&zone);
out:
	rec_buf_free(&url);
	rec_buf_free(&body);
	rec_buf_free(&pack);
	return ret;
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
