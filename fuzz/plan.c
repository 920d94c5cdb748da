/*
 * fuzz/plan.c: libFuzzer harness for the planner's reading of a
 * request: the rules (words.c, parse.c, link.c, state.c) and the policy
 * (policy.c) over a small catalog that make fuzz builds from the test
 * fixtures ($REC_FUZZ_CATALOG, else build/fuzz/plan.db).  The input is
 * two turns of a conversation, split at the first newline; the second
 * is read with the first's intent as the state.  Properties checked: no
 * crash, no leak, no hang (the parse is linear), and every plan passes
 * the plan check (no value of a request is read as an option).  A
 * message rec-plan would refuse (not UTF-8, a NUL, too long) is skipped
 * as rec-plan skips it.
 */
#include <stdlib.h>
#include <string.h>

#include "rec.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static struct rec_kb *kb;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *cat = getenv("REC_FUZZ_CATALOG");

	(void)argc;
	(void)argv;
	kb = rec_kb_load(cat ? cat : "build/fuzz/plan.db");
	return 0;
}

/* one turn: its intent into in (with prev the state) and its plan
 * checked */
static void
turn(const char *msg, size_t n, const struct rec_intent *prev,
    struct rec_intent *in)
{
	struct rec_plan p;
	struct rec_buf why = {0};

	if (rec_message_bad(msg, n)) {
		memset(in, 0, sizeof *in);
		return;
	}
	rec_intent_parse(kb, msg, prev, in);
	rec_plan_make(kb, in, &p);
	if (!p.ask && rec_plan_check(&p, &why))
		abort();	/* a value read as an option */
	rec_plan_free(&p);
	rec_buf_free(&why);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct rec_intent a, b;
	const char *nl;
	char *m;
	size_t n1;

	if (size > 4096)
		return 0;
	m = malloc(size + 1);
	memcpy(m, data, size);
	m[size] = 0;
	nl = memchr(m, '\n', size);
	n1 = nl ? (size_t)(nl - m) : size;
	m[n1] = 0;
	turn(m, n1, NULL, &a);
	if (nl) {
		turn(m + n1 + 1, size - n1 - 1, &a, &b);
		rec_intent_free(&b);
	}
	rec_intent_free(&a);
	free(m);
	return 0;
}
