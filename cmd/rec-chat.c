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

#include "demos.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-chat [-d CATALOG] [-D DEMOS] [-M MODE] [-P PROFILE] "
	    "[-S SESSION]\n"
	    "                [-u USER]\n"
	    "  -d, --db CATALOG     the catalog (default $REC_DB)\n"
	    "  -D, --demos FILE     with a model: example requests and "
	    "plans, JSONL; a\n"
	    "                       result the person likes is added\n"
	    "  -M, --mode MODE      with a model: intent or tools (default "
	    "$REC_LLM_MODE)\n"
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

/* whether the message likes what the last turn showed: an item of the
 * last list named as liked, or a taste stated with nothing new named
 * ("I love these") */
static int
liked_last(const struct rec_intent *prev, const struct rec_intent *in)
{
	size_t i;

	for (i = 0; i < in->liked_items.n; i++)
		if (rec_strs_has(&prev->last, in->liked_items.v[i], 0))
			return 1;
	return in->taste > 0 && prev->last.n && !in->liked_items.n &&
	    !in->liked_creators.n && !in->tags.n;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "demos", required_argument, NULL, 'D' },
		{ "mode", required_argument, NULL, 'M' },
		{ "profile", required_argument, NULL, 'P' },
		{ "session", required_argument, NULL, 'S' },
		{ "user", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dbpath = NULL, *session = NULL, *user = NULL;
	const char *profile = NULL, *demos = NULL, *mode_arg = NULL;
	struct rec_dialogue dlg = {0};
	struct rec_buf last_req = {0}, last_plan = {0}, mnotes = {0};
	int mode;
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
	while ((c = getopt_long(argc, argv, ":d:D:M:P:S:u:hV", longopts, NULL)) != -1)
		switch (c) {
		case 'd': dbpath = optarg; break;
		case 'D': demos = optarg; break;
		case 'M': mode_arg = optarg; break;
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
	mode = rec_llm_mode(mode_arg);
	dbpath = rec_catalog_path(dbpath);
	kb = rec_kb_load(dbpath);
	bin = rec_bindir();
	/* one writer per session: taken before reading it */
	if (session)
		sfd = rec_session_open(session);
	have = session ? rec_session_last(session, &prev, &turn) : 0;
	/* what a model is shown of the past: the session's turns, then
	 * this one's */
	if (have && rec_llm_enabled()) {
		struct rec_session ss;
		if (rec_session_read(session, &ss)) {
			rec_dialogue_from_session(&dlg, &ss);
			rec_session_free(&ss);
		}
	}
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
		rec_buf_reset(&mnotes);
		rec_llm_reset();	/* a new turn asks a failed endpoint again */
		if (rec_llm_enabled() && mode == REC_MODE_INTENT)
			rec_intent_model(kb, msg, have ? &prev : NULL, &dlg, demos,
			    &in, &mlog, &mnotes);
		else	/* the tools mode starts from the rules' reading too */
			rec_intent_parse(kb, msg, have ? &prev : NULL, &in);
		/* a result liked: the request and the plan that served it
		 * are a demonstration */
		if (demos && have && last_req.len && liked_last(&prev, &in))
			rec_demos_record(demos, last_req.data, mode ==
			    REC_MODE_TOOLS ? "plan" : "intent", last_plan.data);
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
		if (mnotes.len)
			rec_buf_add(&t.said, mnotes.data, mnotes.len);
		if (!rec_llm_enabled() || mode != REC_MODE_TOOLS ||
		    rec_chat_tools(kb, dbpath, bin, msg, &in, have ? &prev :
		    NULL, &dlg, demos, 1, &t, &mlog) < 0)
			rec_chat_answer(kb, dbpath, bin, msg, &in, 1, &t, &mlog);
		/* the one line a fallback gets on standard error */
		if (mlog.data && strstr(mlog.data, "fell back to the rules"))
			rec_warn("stdin:%lu: the rules answered (%s)", ln,
			    mlog.data);
		/* what a demonstration would show of this turn */
		rec_buf_reset(&last_req);
		rec_buf_reset(&last_plan);
		if (demos && rec_llm_enabled() && !t.failed && !t.plan.ask) {
			rec_buf_adds(&last_req, msg);
			if (mode == REC_MODE_TOOLS && t.calls.len)
				rec_buf_add(&last_plan, t.calls.data, t.calls.len);
			else if (mode == REC_MODE_INTENT)
				rec_demos_intent(&in, &last_plan);
			if (!last_plan.len)
				rec_buf_reset(&last_req);
		}
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
		if (rec_llm_enabled())
			rec_dialogue_add(&dlg, msg, reply.data);
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
	rec_buf_free(&mnotes);
	rec_buf_free(&last_req);
	rec_buf_free(&last_plan);
	rec_dialogue_free(&dlg);
	if (fflush(stdout) || ferror(stdout))
		rec_die("write error");
	rec_exit(refused ? 1 : 0);
}
