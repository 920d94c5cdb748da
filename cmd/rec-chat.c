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

/* One line of standard input into b, without its end: no more than max
 * + 1 bytes kept (the rest is read and dropped), so a line too long is
 * refused in bounded memory.  0 at the end of the input. */
static int
read_line(struct rec_buf *b, size_t max)
{
	int c, any = 0;

	rec_buf_reset(b);
	rec_buf_adds(b, "");
	while ((c = getchar()) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (b->len <= max)
			rec_buf_addc(b, (char)c);
	}
	if (ferror(stdin))
		rec_die("cannot read standard input: %m");
	while (b->len && b->data[b->len - 1] == '\r')
		b->data[--b->len] = 0;
	return any;
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
	struct rec_buf reply = {0}, line = {0}, mlog = {0}, in_line = {0};
	char *msg, *bin;
	const char *why;
	unsigned long ln = 0;
	int c, have, turn = 0, tty = isatty(0) && isatty(1), sfd = -1;
	int refused = 0;

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
	/* one writer per session: taken before reading it */
	if (session)
		sfd = rec_session_open(session);
	have = session ? rec_session_last(session, &prev, &turn) : 0;
	memset(&pf, 0, sizeof pf);
	if (profile)
		rec_profile_load(&pf, profile);
	if (!have)
		memset(&prev, 0, sizeof prev);
	if (tty)
		printf("rec: say what you would like to hear; an empty line "
		    "ends.\n> ");
	fflush(stdout);
	while (read_line(&in_line, rec_max_request())) {
		struct timeval t0, t1;

		ln++;
		msg = in_line.data;
		if (!in_line.len) {
			if (tty)
				break;
			continue;
		}
		/* refused, never written: the conversation goes on */
		if ((why = rec_message_bad(msg, in_line.len))) {
			rec_warn("stdin:%lu: %s", ln, why);
			refused = 1;
			if (tty)
				printf("> ");
			fflush(stdout);
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
		{
			struct rec_session_out o = {
				.turn = turn, .user = msg,
				.reply = reply.data ? reply.data : "",
				.items = t.items.data ? t.items.data : "[]",
				.shell = t.shell.data ? t.shell.data : "",
				.violated = t.violated.len ? t.violated.data : NULL,
				.emptied = t.emptied.len ? t.emptied.data : NULL,
				.relaxed = t.notes.data ? t.notes.data : "",
				.model = mlog.len ? mlog.data : NULL,
				.failed = t.failed,
				.ms = (t1.tv_sec - t0.tv_sec) * 1e3 +
				    (t1.tv_usec - t0.tv_usec) / 1e3,
				.intent = &in, .plan = &t.plan,
			};
			if (sfd >= 0) {
				rec_buf_reset(&line);
				rec_session_format(&line, &o, 1);
				rec_session_append(sfd, session, line.data,
				    line.len);
			}
			rec_buf_reset(&line);
			rec_session_format(&line, &o, 0);
		}
		if (tty)
			printf("%s> ", reply.data);
		else
			fputs(line.data, stdout);
		fflush(stdout);
		rec_turn_free(&t);
		if (have)
			rec_intent_free(&prev);
		prev = in;
		have = 1;
		rec_buf_reset(&reply);
	}
	if (sfd >= 0 && close(sfd) < 0)
		rec_die("cannot write session '%s': %m", session);
	if (have)
		rec_intent_free(&prev);
	rec_profile_free(&pf);
	rec_kb_free(kb);
	free(bin);
	rec_buf_free(&in_line);
	rec_buf_free(&reply);
	rec_buf_free(&line);
	rec_buf_free(&mlog);
	if (fflush(stdout) || ferror(stdout))
		rec_die("write error");
	rec_exit(refused ? 1 : 0);
}
