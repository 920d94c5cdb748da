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

#include "rec.h"

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

static char *
bindir(void)
{
	char buf[PATH_MAX];
	const char *e = getenv("REC_BIN");
	ssize_t n;
	char *slash;

	if (e && *e)
		return xstrdup(e);
	n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return xstrdup("/usr/local/bin");
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
	return xstrdup(buf);
}

static size_t
count_records(const char *p, size_t n, struct rec_intent *in)
{
	struct rec_reader r;
	struct rec_record rec;
	size_t k = 0;

	rec_reader_init_mem(&r, p, n, "results");
	while (rec_read(&r, &rec) > 0) {
		char *id = xstrndup(rec.id, rec.idlen);
		if (in)
			rec_intent_add_shown(in, id);
		free(id);
		k++;
	}
	rec_reader_free(&r);
	return k;
}

/* The critic's last look: items that break a constraint (a filter that
 * did not do its work) are taken out of out, and said in note.  Returns
 * how many. */
static size_t
drop_violations(const char *dbpath, const struct rec_intent *in,
    struct rec_buf *out, struct rec_buf *note)
{
	struct rec_buf where = {0}, sql = {0}, ids = {0}, kept = {0};
	struct rec_hash bad = {0};
	struct rec_reader r;
	struct rec_record rec;
	sqlite3 *db;
	sqlite3_stmt *st;
	size_t n = 0;

	rec_intent_where(in, &where);
	if (!where.len || !out->len)
		return 0;
	rec_buf_addc(&ids, '[');
	rec_reader_init_mem(&r, out->data, out->len, "results");
	while (rec_read(&r, &rec) > 0) {
		if (ids.len > 1)
			rec_buf_addc(&ids, ',');
		rec_json_string(&ids, rec.id, rec.idlen);
	}
	rec_reader_free(&r);
	rec_buf_addc(&ids, ']');
	db = rec_catalog_open(dbpath);
	rec_buf_printf(&sql, "SELECT id FROM items WHERE id IN (SELECT value "
	    "FROM json_each(?)) AND NOT coalesce(%s, 0)", where.data);
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, ids.data, (int)ids.len, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW)
			rec_hash_put(&bad, (const char *)sqlite3_column_text(st, 0),
			    (size_t)sqlite3_column_bytes(st, 0), NULL);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	if (bad.n) {
		rec_reader_init_mem(&r, out->data, out->len, "results");
		while (rec_read(&r, &rec) > 0) {
			if (rec_hash_get(&bad, rec.id, rec.idlen) != (size_t)-1) {
				n++;
				continue;
			}
			rec_buf_add(&kept, rec.raw, rec.rawlen);
		}
		rec_reader_free(&r);
		rec_buf_reset(out);
		rec_buf_add(out, kept.data, kept.len);
		rec_buf_printf(note, "%zu item%s broke %s and %s left out", n,
		    n == 1 ? "" : "s", where.data, n == 1 ? "was" : "were");
	}
	rec_hash_free(&bad);
	rec_buf_free(&where);
	rec_buf_free(&sql);
	rec_buf_free(&ids);
	rec_buf_free(&kept);
	return n;
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
	struct rec_plan plan;
	struct rec_kb *kb;
	struct rec_buf out = {0}, err = {0}, reply = {0}, items = {0},
	    line = {0}, notes = {0}, shell = {0}, ij = {0}, pj = {0},
	    mlog = {0}, emptied = {0}, violated = {0};
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
	bin = bindir();
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
		int failed = 0, tries = 0;
		size_t got = 0;

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
		rec_buf_reset(&notes);
		rec_buf_reset(&emptied);
		for (;;) {
			rec_plan_make(kb, &in, &plan);
			if (plan.ask)
				break;
			failed = rec_plan_run(&plan, bin, dbpath, &out, &err) < 0;
			if (failed)
				break;
			got = count_records(out.data, out.len, NULL);
			if (got < (size_t)(in.k < 3 ? in.k : 3)) {
				/* the critic reads the trace: which stage
				 * emptied the list */
				char *e = rec_plan_emptied();
				if (e && !emptied.len)
					rec_buf_adds(&emptied, e);
				free(e);
			}
			/* the critic: too few under constraints, relax one,
			 * at most twice */
			if (got >= (size_t)(in.k < 3 ? in.k : 3) || tries == 2 ||
			    !rec_intent_relax(&in, &notes))
				break;
			tries++;
			rec_plan_free(&plan);
		}
		rec_buf_reset(&violated);
		if (!plan.ask && !failed)
			drop_violations(dbpath, &in, &out, &violated);
		rec_buf_reset(&shell);
		rec_plan_shell(&shell, &plan);
		if (plan.ask) {
			rec_buf_printf(&reply, "%s\n", plan.ask);
			/* the reply so far is kept: "Noted ..." */
			rec_buf_reset(&items);
			rec_buf_adds(&items, "[]");
		} else if (failed) {
			/* never shown as "no results": the summary, and the
			 * first thing a stage said */
			char *nl = strchr(err.data ? err.data : "", '\n'), *why;
			if (nl) {
				*nl = 0;
				why = nl + 1;
				while (!strncmp(why, "rec: stage", 10) &&
				    strchr(why, '\n'))
					why = strchr(why, '\n') + 1;
				if ((nl = strchr(why, '\n')))
					*nl = 0;
			} else
				why = NULL;
			rec_buf_printf(&reply, "Something went wrong on my side: %s",
			    err.data ? err.data : "a stage failed");
			if (why && *why && strncmp(why, "rec: stage", 10))
				rec_buf_printf(&reply, " (%s)", why);
			rec_buf_adds(&reply, ". This is not an empty result; please "
			    "try again.\n");
			rec_buf_reset(&items);
			rec_buf_adds(&items, "[]");
		} else {
			struct rec_buf r2 = {0};
			if (emptied.len && notes.len)
				rec_buf_printf(&notes, " (%s)", emptied.data);
			if (rec_llm_enabled()) {
				rec_buf_adds(&mlog, mlog.len ? "; " : "");
				rec_respond_model(kb, &in, msg, out.data, out.len,
				    notes.data, &r2, &items, &mlog);
			} else
				rec_respond(kb, &in, out.data, out.len,
				    notes.data, &r2, &items);
			rec_buf_add(&reply, r2.data, r2.len);
			rec_buf_free(&r2);
			if (violated.len)
				rec_buf_printf(&reply, "(%s.)\n", violated.data);
			if (!count_records(out.data, out.len, NULL) &&
			    emptied.len)
				rec_buf_printf(&reply, "(The list emptied at %s.)\n",
				    emptied.data);
			count_records(out.data, out.len, &in);
		}
		gettimeofday(&t1, NULL);
		rec_buf_reset(&ij);
		rec_intent_json(&ij, &in);
		rec_buf_reset(&pj);
		rec_plan_json(&pj, &plan);
		rec_buf_reset(&line);
		rec_buf_printf(&line, "{\"turn\":%d,\"user\":", turn);
		rec_json_string(&line, msg, strlen(msg));
		rec_buf_adds(&line, ",\"reply\":");
		rec_json_string(&line, reply.data, reply.len);
		rec_buf_printf(&line, ",\"items\":%s,\"shell\":", items.data);
		rec_json_string(&line, shell.data ? shell.data : "", shell.len);
		if (violated.len) {
			rec_buf_adds(&line, ",\"violated\":");
			rec_json_string(&line, violated.data, violated.len);
		}
		if (emptied.len) {
			rec_buf_adds(&line, ",\"emptied\":");
			rec_json_string(&line, emptied.data, emptied.len);
		}
		rec_buf_adds(&line, ",\"relaxed\":");
		rec_json_string(&line, notes.data ? notes.data : "", notes.len);
		if (mlog.len) {
			rec_buf_adds(&line, ",\"model\":");
			rec_json_string(&line, mlog.data, mlog.len);
		}
		rec_buf_printf(&line, ",\"failed\":%s,\"ms\":%.1f",
		    failed ? "true" : "false",
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
		rec_plan_free(&plan);
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
	rec_buf_free(&out);
	rec_buf_free(&err);
	rec_buf_free(&reply);
	rec_buf_free(&items);
	rec_buf_free(&line);
	rec_buf_free(&notes);
	rec_buf_free(&shell);
	rec_buf_free(&ij);
	rec_buf_free(&pj);
	rec_buf_free(&mlog);
	rec_buf_free(&emptied);
	rec_buf_free(&violated);
	if (fflush(stdout) || ferror(stdout))
		rec_die("write error");
	rec_exit(0);
}
