/*
 * tests/stub-llm.c: a stand-in for an OpenAI-compatible server, on
 * loopback.  For each REPLY file in turn it accepts one request, checks
 * it (POST to .../chat/completions or .../embeddings, a JSON body with
 * "model" and "messages" or "input", the Authorization header when
 * STUB_KEY is set), saves it as LOGDIR/request-N, and answers with the
 * file's text as the assistant's message, or as the whole body when
 * the file's name ends in .raw.  The port goes to PORTFILE.  It exits 1 if a
 * request was wrong, and gives up after 20 seconds.
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
		}
		if (why) {
			bad = 1;
			rec_buf_printf(&reply, "HTTP/1.1 400 Bad Request\r\n"
			    "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
			    strlen(why), why);
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
			/* a .raw file is the whole body (for /embeddings) */
			if (strlen(argv[i]) > 4 && !strcmp(argv[i] +
			    strlen(argv[i]) - 4, ".raw"))
				rec_buf_add(&body, text.data, text.len);
			else {
			rec_buf_adds(&body, "{\"id\":\"stub\",\"object\":"
			    "\"chat.completion\",\"choices\":[{\"index\":0,"
			    "\"message\":{\"role\":\"assistant\",\"content\":");
			rec_json_string(&body, text.data ? text.data : "",
			    text.len);
			rec_buf_adds(&body, "},\"finish_reason\":\"stop\"}]}");
			}
			rec_buf_printf(&reply, "HTTP/1.1 200 OK\r\nContent-Type: "
			    "application/json\r\nContent-Length: %zu\r\n"
			    "Connection: close\r\n\r\n", body.len);
			rec_buf_add(&reply, body.data, body.len);
			rec_buf_free(&text);
		}
		if (write(c, reply.data, reply.len) < 0)
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
