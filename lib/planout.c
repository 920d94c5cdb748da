/*
 * planout.c: a plan of rec tools: its stages made, its two renderings (a
 * shell command line, every argument quoted, and JSON), and freeing it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "converse.h"

void
rec_stage_arg(struct rec_stage *s, const char *a)
{
	s->argv = xrealloc(s->argv, (size_t)(s->argc + 2) * sizeof *s->argv);
	s->argv[s->argc++] = xstrdup(a);
	s->argv[s->argc] = NULL;
}

void
rec_stage_add(struct rec_stage **v, size_t *n, ...)
{
	va_list ap;
	const char *a;
	struct rec_stage *s;

	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	s = &(*v)[(*n)++];
	memset(s, 0, sizeof *s);
	va_start(ap, n);
	while ((a = va_arg(ap, const char *)))
		rec_stage_arg(s, a);
	va_end(ap);
}

void
rec_stage_weight(struct rec_stage *s, const char *src, double w)
{
	char b[64];

	snprintf(b, sizeof b, "%s=%g", src, w);
	rec_stage_arg(s, "-W");
	rec_stage_arg(s, b);
}

void
rec_plan_free(struct rec_plan *p)
{
	size_t i;
	int j;

	for (i = 0; i < p->nsrc; i++) {
		for (j = 0; j < p->src[i].argc; j++)
			free(p->src[i].argv[j]);
		free(p->src[i].argv);
	}
	for (i = 0; i < p->nfilt; i++) {
		for (j = 0; j < p->filt[i].argc; j++)
			free(p->filt[i].argv[j]);
		free(p->filt[i].argv);
	}
	free(p->src);
	free(p->filt);
	free(p->ask);
	memset(p, 0, sizeof *p);
}

void
rec_shell_quote(struct rec_buf *b, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-_.,/:=@%+") == strlen(s)) {
		rec_buf_adds(b, s);
		return;
	}
	rec_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			rec_buf_adds(b, "'\\''");
		else
			rec_buf_addc(b, *s);
	}
	rec_buf_addc(b, '\'');
}

static void
shell_stage(struct rec_buf *b, const struct rec_stage *s)
{
	int j;

	for (j = 0; j < s->argc; j++) {
		if (j)
			rec_buf_addc(b, ' ');
		rec_shell_quote(b, s->argv[j]);
	}
}

void
rec_plan_shell(struct rec_buf *b, const struct rec_plan *p)
{
	size_t i;

	if (p->ask)
		return;
	rec_plan_assert(p);
	if (p->nsrc > 1)
		rec_buf_adds(b, "{ ");
	for (i = 0; i < p->nsrc; i++) {
		shell_stage(b, &p->src[i]);
		if (p->nsrc > 1)
			rec_buf_adds(b, " < /dev/null; ");
		else
			rec_buf_adds(b, " < /dev/null");
	}
	if (p->nsrc > 1)
		rec_buf_adds(b, "}");
	for (i = 0; i < p->nfilt; i++) {
		rec_buf_adds(b, " | ");
		shell_stage(b, &p->filt[i]);
	}
}

static void
json_stages(struct rec_buf *b, const struct rec_stage *s, size_t n)
{
	size_t i;
	int j;

	rec_buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		rec_buf_adds(b, i ? ",[" : "[");
		for (j = 0; j < s[i].argc; j++) {
			if (j)
				rec_buf_addc(b, ',');
			rec_json_string(b, s[i].argv[j], strlen(s[i].argv[j]));
		}
		rec_buf_addc(b, ']');
	}
	rec_buf_addc(b, ']');
}

void
rec_plan_json(struct rec_buf *b, const struct rec_plan *p)
{
	rec_buf_adds(b, "{\"sources\":");
	json_stages(b, p->src, p->nsrc);
	rec_buf_adds(b, ",\"filters\":");
	json_stages(b, p->filt, p->nfilt);
	rec_buf_adds(b, ",\"ask\":");
	if (p->ask)
		rec_json_string(b, p->ask, strlen(p->ask));
	else
		rec_buf_adds(b, "null");
	rec_buf_addc(b, '}');
}
