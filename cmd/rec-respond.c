/*
 * rec-respond: the reply a person reads, from the final candidates and
 * the request: each item with its key facts and why it was picked.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "converse.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-respond [-j] [-d CATALOG] [-r REQUEST] [-n NOTE]\n"
	    "  -d, --db CATALOG     the catalog (default $REC_DB)\n"
	    "  -j, --json           the reply and the items as JSON\n"
	    "  -n, --note NOTE      what was relaxed to find enough\n"
	    "  -r, --request TEXT   what the person asked for\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "note", required_argument, NULL, 'n' },
		{ "request", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dbpath = NULL, *request = "", *note = NULL;
	struct rec_buf in = {0}, reply = {0}, items = {0}, out = {0};
	struct rec_intent intent;
	struct rec_kb *kb;
	char buf[65536];
	ssize_t n;
	int c, json = 0;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, ":d:jn:r:hV", longopts, NULL)) != -1)
		switch (c) {
		case 'd': dbpath = optarg; break;
		case 'j': json = 1; break;
		case 'n': note = optarg; break;
		case 'r': request = optarg; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (optind < argc)
		rec_usage_die("unexpected argument '%s'", argv[optind]);
	dbpath = rec_catalog_path(dbpath);
	kb = rec_kb_load(dbpath);
	while ((n = read(0, buf, sizeof buf)) > 0)
		rec_buf_add(&in, buf, (size_t)n);
	if (n < 0)
		rec_die("read error: %m");
	{
		/* check the stream first: bad input is an error, not a reply */
		struct rec_reader r;
		struct rec_record rec;
		rec_reader_init_mem(&r, in.data ? in.data : "", in.len, "stdin");
		while (rec_next(&r, &rec))
			;
		rec_reader_free(&r);
	}
	rec_intent_parse(kb, request, NULL, &intent);
	if (rec_llm_enabled()) {
		struct rec_buf log = {0};
		if (rec_respond_model(kb, &intent, request, in.data ? in.data :
		    "", in.len, note, &reply, &items, &log) < 0 && log.len)
			rec_warn("%s", log.data);
		rec_buf_free(&log);
	} else
		rec_respond(kb, &intent, in.data ? in.data : "", in.len, note,
		    &reply, &items);
	if (json) {
		rec_buf_adds(&out, "{\"reply\":");
		rec_json_string(&out, reply.data, reply.len);
		rec_buf_printf(&out, ",\"items\":%s}\n", items.data);
	} else
		rec_buf_add(&out, reply.data, reply.len);
	rec_write_all(1, out.data, out.len);
	rec_intent_free(&intent);
	rec_kb_free(kb);
	rec_buf_free(&in);
	rec_buf_free(&reply);
	rec_buf_free(&items);
	rec_buf_free(&out);
	rec_exit(0);
}
