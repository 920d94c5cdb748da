/*
 * rec-chat: the conversation.  Each turn: read what the person says,
 * plan, run the plan, check the result, answer, remember.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "converse.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-chat [-d CATALOG] [-P PROFILE] [-S SESSION] [-u USER]\n"
	    "  -d, --db CATALOG     the catalog (default $REC_DB)\n"
	    "  -P, --profile FILE   what the person likes and dislikes, kept "
	    "across sessions\n"
	    "  -S, --session FILE   the conversation: read to go on, a turn "
	    "appended per message\n"
	    "  -u, --user USER      the person, when the catalog knows them\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "profile", required_argument, NULL, 'P' },
		{ "session", required_argument, NULL, 'S' },
		{ "user", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dbpath = NULL, *session = NULL, *user = NULL;
	const char *profile = NULL;
	struct rec_profile pf;
	struct rec_intent prev, in;
	struct rec_turn t;
	struct rec_kb *kb;
	struct rec_buf reply = {0}, line = {0}, ij = {0}, pj = {0},
	    mlog = {0};
	char *msg = NULL, *bin;
	size_t cap = 0;
	ssize_t n;
	int c, have, turn = 0, tty = isatty(0) && isatty(1);
	FILE *sf = NULL;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, ":d:P:S:u:hV", longopts, NULL)) != -1)
		switch (c) {
		case 'd': dbpath = optarg; break;
		case 'P': profile = optarg; break;
		case 'S': session = optarg; break;
		case 'u': user = optarg; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (optind < argc)
		rec_usage_die("unexpected argument '%s' (messages come on "
		    "standard input)", argv[optind]);
	dbpath = rec_catalog_path(dbpath);
	kb = rec_kb_load(dbpath);
	bin = rec_bindir();
	have = session ? rec_session_last(session, &prev, &turn) : 0;
	memset(&pf, 0, sizeof pf);
	if (profile)
		rec_profile_load(&pf, profile);
	if (!have)
		memset(&prev, 0, sizeof prev);
	if (session && !(sf = fopen(session, "a")))
		rec_die("cannot open session '%s': %m", session);
	if (tty)
		printf("rec: say what you would like to hear; an empty line "
		    "ends.\n> ");
	fflush(stdout);
	while ((n = getline(&msg, &cap, stdin)) > 0) {
		struct timeval t0, t1;

		while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
			msg[--n] = 0;
		if (!n) {
			if (tty)
				break;
			continue;
		}
		gettimeofday(&t0, NULL);
		turn++;
		rec_buf_reset(&mlog);
		if (rec_llm_enabled())
			rec_intent_model(kb, msg, have ? &prev : NULL, NULL, &in,
			    &mlog);
		else
			rec_intent_parse(kb, msg, have ? &prev : NULL, &in);
		if (user && !in.user)
			in.user = xstrdup(user);
		rec_buf_reset(&reply);
		if (profile) {
			/* a taste stated now is kept, and every plan honours
			 * the profile's dislikes */
			if (rec_profile_learn(&pf, &in)) {
				rec_profile_save(&pf, profile);
				rec_buf_printf(&reply, "Noted (%s).\n",
				    in.said.len ? in.said.data : "your taste");
			}
			rec_profile_apply(&pf, &in);
		}
		memset(&t, 0, sizeof t);
		rec_chat_answer(kb, dbpath, bin, msg, &in, 1, &t, &mlog);
		rec_buf_add(&reply, t.reply.data, t.reply.len);
		gettimeofday(&t1, NULL);
		rec_buf_reset(&ij);
		rec_intent_json(&ij, &in);
		rec_buf_reset(&pj);
		rec_plan_json(&pj, &t.plan);
		rec_buf_reset(&line);
		rec_buf_printf(&line, "{\"turn\":%d,\"user\":", turn);
		rec_json_string(&line, msg, strlen(msg));
		rec_buf_adds(&line, ",\"reply\":");
		rec_json_string(&line, reply.data, reply.len);
		rec_buf_printf(&line, ",\"items\":%s,\"shell\":",
		    t.items.data ? t.items.data : "[]");
		rec_json_string(&line, t.shell.data ? t.shell.data : "",
		    t.shell.len);
		if (t.violated.len) {
			rec_buf_adds(&line, ",\"violated\":");
			rec_json_string(&line, t.violated.data, t.violated.len);
		}
		if (t.emptied.len) {
			rec_buf_adds(&line, ",\"emptied\":");
			rec_json_string(&line, t.emptied.data, t.emptied.len);
		}
		rec_buf_adds(&line, ",\"relaxed\":");
		rec_json_string(&line, t.notes.data ? t.notes.data : "",
		    t.notes.len);
		if (mlog.len) {
			rec_buf_adds(&line, ",\"model\":");
			rec_json_string(&line, mlog.data, mlog.len);
		}
		rec_buf_printf(&line, ",\"failed\":%s,\"ms\":%.1f",
		    t.failed ? "true" : "false",
		    (t1.tv_sec - t0.tv_sec) * 1e3 +
		    (t1.tv_usec - t0.tv_usec) / 1e3);
		if (sf) {
			fprintf(sf, "%s,\"intent\":%s,\"plan\":%s}\n", line.data,
			    ij.data, pj.data);
			if (fflush(sf))
				rec_die("cannot write session '%s': %m", session);
		}
		if (tty)
			printf("%s> ", reply.data);
		else
			printf("%s}\n", line.data);
		fflush(stdout);
		rec_turn_free(&t);
		if (have)
			rec_intent_free(&prev);
		prev = in;
		have = 1;
		rec_buf_reset(&reply);
	}
	if (sf && fclose(sf))
		rec_die("cannot write session '%s': %m", session);
	if (have)
		rec_intent_free(&prev);
	rec_profile_free(&pf);
	rec_kb_free(kb);
	free(bin);
	free(msg);
	rec_buf_free(&reply);
	rec_buf_free(&line);
	rec_buf_free(&ij);
	rec_buf_free(&pj);
	rec_buf_free(&mlog);
	if (fflush(stdout) || ferror(stdout))
		rec_die("write error");
	rec_exit(0);
}
