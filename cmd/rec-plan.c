/*
 * rec-plan: a request in plain words -> the formatted intent -> a
 * pipeline of rec tools, as a shell command line or as JSON.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "converse.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-plan [-j] [-d CATALOG] [-D DEMOS] [-M MODE] [-P PROFILE] "
	    "[-S SESSION]\n"
	    "                [-u USER] [MESSAGE ...]\n"
	    "       rec-plan -T [-d CATALOG]\n"
	    "  -d, --db CATALOG     the catalog (default $REC_DB)\n"
	    "  -D, --demos FILE     with a model: example requests and "
	    "plans, JSONL\n"
	    "  -j, --json           the intent and the plan as JSON\n"
	    "  -M, --mode MODE      with a model: intent or tools (default "
	    "$REC_LLM_MODE)\n"
	    "  -P, --profile FILE   the person's likes and dislikes "
	    "(rec-chat's), read only\n"
	    "  -S, --session FILE   the conversation so far (rec-chat's), for "
	    "references\n"
	    "  -T, --tools          print the tool definitions a model is "
	    "given, and exit\n"
	    "  -u, --user USER      the person, when the catalog knows them\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "demos", required_argument, NULL, 'D' },
		{ "mode", required_argument, NULL, 'M' },
		{ "profile", required_argument, NULL, 'P' },
		{ "session", required_argument, NULL, 'S' },
		{ "tools", no_argument, NULL, 'T' },
		{ "user", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dbpath = NULL, *session = NULL, *user = NULL;
	const char *demos = NULL, *profile = NULL, *why, *mode_arg = NULL;
	struct rec_dialogue dlg = {0};
	struct rec_toolplan tp = {0};
	struct rec_buf notes = {0};
	int mode, planned = 0, tools = 0;
	struct rec_buf log = {0};
	int model = -2;
	struct rec_buf msg = {0}, out = {0};
	struct rec_intent prev, in;
	struct rec_plan plan;
	struct rec_kb *kb;
	int c, json = 0, have = 0, turns;
	char buf[4096];
	size_t n;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, ":d:D:jM:P:S:Tu:hV", longopts, NULL)) != -1)
		switch (c) {
		case 'd': dbpath = optarg; break;
		case 'j': json = 1; break;
		case 'D': demos = optarg; break;
		case 'M': mode_arg = optarg; break;
		case 'P': profile = optarg; break;
		case 'S': session = optarg; break;
		case 'T': tools = 1; break;
		case 'u': user = optarg; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (tools) {
		if (optind < argc)
			rec_usage_die("-T takes no message");
		kb = rec_kb_load(rec_catalog_path(dbpath));
		rec_tools_json(kb, &out);
		rec_buf_addc(&out, '\n');
		rec_write_all(1, out.data, out.len);
		rec_kb_free(kb);
		rec_buf_free(&out);
		rec_exit(0);
	}
	if (optind < argc)
		for (; optind < argc; optind++) {
			rec_buf_adds(&msg, argv[optind]);
			rec_buf_addc(&msg, ' ');
		}
	else	/* no more than one byte past the limit: enough to refuse */
		while (msg.len <= rec_max_request() && (n = fread(buf, 1,
		    sizeof buf, stdin)) > 0)
			rec_buf_add(&msg, buf, n);
	if (ferror(stdin))
		rec_die("cannot read standard input: %m");
	if (!msg.len)
		rec_usage_die("give a MESSAGE (arguments or standard input)");
	if ((why = rec_message_bad(msg.data, msg.len)))
		rec_die("%s", why);
	mode = rec_llm_mode(mode_arg);
	dbpath = rec_catalog_path(dbpath);
	kb = rec_kb_load(dbpath);
	if (session)
		have = rec_session_last(session, &prev, &turns);
	/* what a model is shown of the past: the session's turns */
	if (session && rec_llm_enabled()) {
		struct rec_session ss;
		if (rec_session_read(session, &ss)) {
			rec_dialogue_from_session(&dlg, &ss);
			rec_session_free(&ss);
		}
	}
	if (rec_llm_enabled() && mode == REC_MODE_INTENT) {
		model = rec_intent_model(kb, msg.data, have ? &prev : NULL, &dlg,
		    demos, &in, &log, &notes);
		if (model < 0)
			rec_warn("%s", log.data);
	} else	/* the tools mode starts from the rules' reading too */
		rec_intent_parse(kb, msg.data, have ? &prev : NULL, &in);
	if (user && !in.user)
		in.user = xstrdup(user);
	if (profile) {
		struct rec_profile pf;
		rec_profile_load(&pf, profile);
		rec_profile_apply(&pf, &in);
		rec_profile_free(&pf);
	}
	if (rec_llm_enabled() && mode == REC_MODE_TOOLS) {
		planned = rec_plan_tools(kb, msg.data, &in, have ? &prev : NULL,
		    &dlg, demos, &tp, &plan) == 0;
		model = planned ? 0 : -1;
		rec_buf_adds(&log, tp.log.data ? tp.log.data : "");
		if (tp.notes.len)
			rec_buf_add(&notes, tp.notes.data, tp.notes.len);
		if (!planned)
			rec_warn("%s", log.data);
	}
	if (!planned)
		rec_plan_make(kb, &in, &plan);
	if (json) {
		rec_buf_adds(&out, "{\"intent\":");
		rec_intent_json(&out, &in);
		rec_buf_adds(&out, ",\"plan\":");
		rec_plan_json(&out, &plan);
		rec_buf_printf(&out, ",\"source\":\"%s\",\"log\":",
		    model == 0 ? "model" : "rules");
		rec_json_string(&out, log.data ? log.data : "", log.len);
		if (rec_llm_enabled()) {
			rec_buf_printf(&out, ",\"mode\":\"%s\",\"notes\":",
			    mode == REC_MODE_TOOLS ? "tools" : "intent");
			rec_json_string(&out, notes.data ? notes.data : "",
			    notes.len);
			if (planned)
				rec_buf_printf(&out, ",\"calls\":%s",
				    tp.calls.data);
		}
		rec_buf_adds(&out, ",\"shell\":");
		{
			struct rec_buf sh = {0};
			rec_plan_shell(&sh, &plan);
			rec_json_string(&out, sh.data ? sh.data : "", sh.len);
			rec_buf_free(&sh);
		}
		rec_buf_adds(&out, "}\n");
	} else if (plan.ask) {
		/* a comment: running it does nothing */
		rec_buf_printf(&out, "# %s\n", plan.ask);
	} else {
		rec_plan_shell(&out, &plan);
		rec_buf_addc(&out, '\n');
	}
	rec_write_all(1, out.data, out.len);
	rec_plan_free(&plan);
	rec_intent_free(&in);
	if (have)
		rec_intent_free(&prev);
	rec_kb_free(kb);
	rec_buf_free(&msg);
	rec_buf_free(&out);
	rec_buf_free(&log);
	rec_buf_free(&notes);
	rec_dialogue_free(&dlg);
	rec_toolplan_free(&tp);
	rec_exit(0);
}
