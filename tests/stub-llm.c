/*
 * tests/stub-llm.c: a stand-in for an OpenAI-compatible server, on
 * loopback.  For each REPLY file in turn it accepts one request, checks
 * it (POST to .../chat/completions or .../embeddings, a JSON body with
 * "model" and "messages" or "input", the Authorization header when
 * STUB_KEY is set), saves it as LOGDIR/request-N, and answers with the
 * file's text as the assistant's message, or as the whole body when
 * the file's name ends in .raw.  A file ending in .tools holds a JSON
 * array of {"name", "arguments"} answered as the message's tool_calls
 * (arguments that are an object sent as its JSON text, as OpenAI does; a
 * string as it is); .500 answers HTTP 500; .slow waits STUB_SLOW seconds
 * (default 3) before answering.  A request with "tools" must define
 * them as OpenAI function definitions.  Every answer has "usage": the
 * request's body and the answer in bytes / 4.  The port goes to
 * PORTFILE.  It exits 1 if a request was wrong, and gives up after 20
 * seconds.
 *
 * usage: stub-llm PORTFILE LOGDIR REPLY ...
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rec.h"

static int
read_request(int fd, struct rec_buf *req, size_t *bodyat)
{
	char buf[8192], *end, *cl;
	ssize_t n;
	size_t want = 0;

	for (;;) {
		n = read(fd, buf, sizeof buf);
		if (n <= 0)
			return -1;
		rec_buf_add(req, buf, (size_t)n);
		if ((end = strstr(req->data, "\r\n\r\n"))) {
			*bodyat = (size_t)(end - req->data) + 4;
			cl = strcasestr(req->data, "Content-Length:");
			want = cl && cl < end ? strtoul(cl + 15, NULL, 10) : 0;
			break;
		}
	}
	while (req->len < *bodyat + want) {
		n = read(fd, buf, sizeof buf);
		if (n <= 0)
			return -1;
		rec_buf_add(req, buf, (size_t)n);
	}
	return 0;
}

static int
ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/* "tool_calls":[...] from text, a JSON array of {"name","arguments"};
 * text that is not one is a stub's error */
static void
tool_calls(struct rec_buf *body, const struct rec_buf *text)
{
	struct rec_buf pk = {0}, err = {0};
	msgpack_zone z;
	msgpack_object o;
	size_t off = 0;
	uint32_t i;

	if (rec_json_to_msgpack(text->data, text->len, &pk, NULL, &err))
		rec_die("a .tools file is not JSON: %s", err.data);
	msgpack_zone_init(&z, 4096);
	msgpack_unpack(pk.data, pk.len, &off, &z, &o);
	if (o.type != MSGPACK_OBJECT_ARRAY)
		rec_die("a .tools file is not a JSON array");
	rec_buf_adds(body, "\"content\":null,\"tool_calls\":[");
	for (i = 0; i < o.via.array.size; i++) {
		const msgpack_object *c = &o.via.array.ptr[i];
		const msgpack_object *n = rec_map_get(c, "name");
		const msgpack_object *a = rec_map_get(c, "arguments");
		struct rec_buf js = {0};
		rec_buf_printf(body, "%s{\"id\":\"call_%u\",\"type\":"
		    "\"function\",\"function\":{\"name\":", i ? "," : "",
		    i + 1);
		if (n)
			rec_json_write(body, n, &err);
		else
			rec_buf_adds(body, "\"\"");
		rec_buf_adds(body, ",\"arguments\":");
		if (a && a->type == MSGPACK_OBJECT_STR)
			rec_json_write(body, a, &err);
		else {
			if (a)
				rec_json_write(&js, a, &err);
			rec_json_string(body, js.data ? js.data : "{}", js.len);
		}
		rec_buf_adds(body, "}}");
		rec_buf_free(&js);
	}
	rec_buf_addc(body, ']');
	msgpack_zone_destroy(&z);
	rec_buf_free(&pk);
	rec_buf_free(&err);
}

/* NULL when tools is an array of valid OpenAI function definitions */
static const char *
bad_tools(const msgpack_object *tools)
{
	uint32_t i, j;

	if (tools->type != MSGPACK_OBJECT_ARRAY || !tools->via.array.size)
		return "tools is not a non-empty array";
	for (i = 0; i < tools->via.array.size; i++) {
		const msgpack_object *t = &tools->via.array.ptr[i], *f, *n, *d,
		    *p, *ty, *pr, *rq;
		ty = rec_map_get(t, "type");
		f = rec_map_get(t, "function");
		if (!ty || ty->type != MSGPACK_OBJECT_STR ||
		    ty->via.str.size != 8 || memcmp(ty->via.str.ptr,
		    "function", 8) || !f || f->type != MSGPACK_OBJECT_MAP)
			return "a tool is not {\"type\":\"function\","
			    "\"function\":{...}}";
		n = rec_map_get(f, "name");
		d = rec_map_get(f, "description");
		p = rec_map_get(f, "parameters");
		if (!n || n->type != MSGPACK_OBJECT_STR || !n->via.str.size ||
		    n->via.str.size > 64)
			return "a function without a name of 1 to 64 bytes";
		for (j = 0; j < n->via.str.size; j++) {
			char c = n->via.str.ptr[j];
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_' || c == '-'))
				return "a function name outside [a-zA-Z0-9_-]";
		}
		if (!d || d->type != MSGPACK_OBJECT_STR || !d->via.str.size)
			return "a function without a description";
		if (!p || p->type != MSGPACK_OBJECT_MAP)
			return "a function without parameters";
		ty = rec_map_get(p, "type");
		pr = rec_map_get(p, "properties");
		rq = rec_map_get(p, "required");
		if (!ty || ty->type != MSGPACK_OBJECT_STR || ty->via.str.size != 6
		    || memcmp(ty->via.str.ptr, "object", 6) || !pr ||
		    pr->type != MSGPACK_OBJECT_MAP)
			return "parameters is not an object schema with "
			    "properties";
		for (j = 0; j < pr->via.map.size; j++) {
			const msgpack_object *v = &pr->via.map.ptr[j].val, *vt;
			vt = rec_map_get(v, "type");
			if (v->type != MSGPACK_OBJECT_MAP || !vt ||
			    vt->type != MSGPACK_OBJECT_STR ||
			    !rec_map_get(v, "description"))
				return "a property without a type and a "
				    "description";
		}
		if (rq) {
			if (rq->type != MSGPACK_OBJECT_ARRAY)
				return "required is not an array";
			for (j = 0; j < rq->via.array.size; j++) {
				const msgpack_object *r = &rq->via.array.ptr[j];
				char name[128];
				if (r->type != MSGPACK_OBJECT_STR ||
				    r->via.str.size >= sizeof name)
					return "required holds a non-string";
				memcpy(name, r->via.str.ptr, r->via.str.size);
				name[r->via.str.size] = 0;
				if (!rec_map_get(pr, name))
					return "required names no property";
			}
		}
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int s, i, bad = 0, one = 1;
	FILE *fp;

	rec_init(argc, argv);
	if (argc < 4)
		rec_usage_die("usage: stub-llm PORTFILE LOGDIR REPLY ...");
	alarm(20);
	s = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 8) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) < 0)
		rec_die("cannot listen on loopback: %m");
	{
		struct rec_buf tmp = {0};
		rec_buf_printf(&tmp, "%s.tmp", argv[1]);
		fp = fopen(tmp.data, "w");
		if (!fp)
			rec_die("cannot write '%s': %m", tmp.data);
		fprintf(fp, "%d\n", ntohs(a.sin_port));
		fclose(fp);
		rename(tmp.data, argv[1]);
		rec_buf_free(&tmp);
	}
	for (i = 3; i < argc; i++) {
		struct rec_buf req = {0}, reply = {0}, body = {0}, pk = {0},
		    err = {0}, path = {0};
		const char *why = NULL, *key = getenv("STUB_KEY");
		char buf[4096];
		size_t bodyat = 0, n, off = 0;
		msgpack_zone z;
		msgpack_object o;
		int c = accept(s, NULL, NULL);

		if (c < 0)
			rec_die("accept: %m");
		if (read_request(c, &req, &bodyat) < 0) {
			close(c);
			bad = 1;
			continue;
		}
		rec_buf_printf(&path, "%s/request-%d", argv[2], i - 2);
		if ((fp = fopen(path.data, "w"))) {
			fwrite(req.data, 1, req.len, fp);
			fclose(fp);
		}
		msgpack_zone_init(&z, 4096);
		if (strncmp(req.data, "POST ", 5) ||
		    (!strstr(req.data, "/chat/completions HTTP/1.") &&
		    !strstr(req.data, "/embeddings HTTP/1.")))
			why = "not a POST to /chat/completions or /embeddings";
		else if (key && !strstr(req.data, key))
			why = "no Authorization with the key";
		else if (rec_json_to_msgpack(req.data + bodyat, req.len - bodyat,
		    &pk, NULL, &err))
			why = "the body is not JSON";
		else {
			msgpack_unpack(pk.data, pk.len, &off, &z, &o);
			if (!rec_map_get(&o, "model") ||
			    ((!rec_map_get(&o, "messages") ||
			    rec_map_get(&o, "messages")->type !=
			    MSGPACK_OBJECT_ARRAY) && (!rec_map_get(&o, "input") ||
			    rec_map_get(&o, "input")->type !=
			    MSGPACK_OBJECT_ARRAY)))
				why = "no model, or no messages or input";
			else if (rec_map_get(&o, "tools"))
				why = bad_tools(rec_map_get(&o, "tools"));
		}
		if (why) {
			bad = 1;
			rec_buf_printf(&reply, "HTTP/1.1 400 Bad Request\r\n"
			    "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
			    strlen(why), why);
		} else if (ends(argv[i], ".500")) {
			rec_buf_adds(&reply, "HTTP/1.1 500 Internal Server Error\r\n"
			    "Content-Length: 5\r\nConnection: close\r\n\r\nerror");
		} else {
			FILE *rf = fopen(argv[i], "r");
			struct rec_buf text = {0};
			if (!rf)
				rec_die("cannot open '%s': %m", argv[i]);
			while ((n = fread(buf, 1, sizeof buf, rf)) > 0)
				rec_buf_add(&text, buf, n);
			fclose(rf);
			while (text.len && text.data[text.len - 1] == '\n')
				text.data[--text.len] = 0;
			if (ends(argv[i], ".slow")) {
				const char *w = getenv("STUB_SLOW");
				sleep(w && *w ? (unsigned)atoi(w) : 3);
			}
			/* a .raw file is the whole body (for /embeddings) */
			if (ends(argv[i], ".raw"))
				rec_buf_add(&body, text.data, text.len);
			else {
				rec_buf_adds(&body, "{\"id\":\"stub\",\"object\":"
				    "\"chat.completion\",\"choices\":[{\"index\":0,"
				    "\"message\":{\"role\":\"assistant\",");
				if (ends(argv[i], ".tools"))
					tool_calls(&body, &text);
				else {
					rec_buf_adds(&body, "\"content\":");
					rec_json_string(&body, text.data ? text.data :
					    "", text.len);
				}
				rec_buf_printf(&body, "},\"finish_reason\":\"%s\"}],"
				    "\"usage\":{\"prompt_tokens\":%zu,"
				    "\"completion_tokens\":%zu,\"total_tokens\":"
				    "%zu}}", ends(argv[i], ".tools") ? "tool_calls" :
				    "stop", (req.len - bodyat) / 4, text.len / 4,
				    (req.len - bodyat) / 4 + text.len / 4);
			}
			rec_buf_printf(&reply, "HTTP/1.1 200 OK\r\nContent-Type: "
			    "application/json\r\nContent-Length: %zu\r\n"
			    "Connection: close\r\n\r\n", body.len);
			rec_buf_add(&reply, body.data, body.len);
			rec_buf_free(&text);
		}
		/* a client that gave up on a slow answer is no error */
		if (send(c, reply.data, reply.len, MSG_NOSIGNAL) < 0 &&
		    !ends(argv[i], ".slow"))
			bad = 1;
		close(c);
		msgpack_zone_destroy(&z);
		rec_buf_free(&req);
		rec_buf_free(&reply);
		rec_buf_free(&body);
		rec_buf_free(&pk);
		rec_buf_free(&err);
		rec_buf_free(&path);
	}
	close(s);
	return bad;
}
