/*
 * batch.c: rec-batch's command for one user, started as one of
 * proc.c's jobs, which run several at once and keep what each writes
 * until it ends, so memory is bounded by the number of jobs, not of
 * users.
 */
#include <stdlib.h>
#include <string.h>

#include "batch.h"

/* s with every place replaced by user */
static char *
substitute(const char *s, const char *place, const char *user)
{
	struct rec_buf b = {0};
	const char *p;
	size_t pl = strlen(place);

	while ((p = strstr(s, place))) {
		rec_buf_add(&b, s, (size_t)(p - s));
		rec_buf_adds(&b, user);
		s = p + pl;
	}
	rec_buf_adds(&b, s);
	return b.data ? b.data : xstrdup("");
}

struct rec_job *
rec_batch_start(struct rec_jobs *j, char *const *argv, size_t argc,
    const char *placeholder, const char *user)
{
	struct rec_child c = {0};
	struct rec_job *job;
	char **av = xcalloc(argc + 2, sizeof *av);
	size_t i, n = 0;

	if (placeholder && !*placeholder)
		placeholder = NULL;
	for (i = 0; i < argc; i++)
		if (placeholder && strstr(argv[i], placeholder))
			av[n++] = substitute(argv[i], placeholder, user);
		else
			av[n++] = xstrdup(argv[i]);
	if (!placeholder)
		av[n++] = xstrdup(user);
	av[n] = NULL;
	c.argv = av;
	c.in = REC_DEVNULL;
	job = rec_jobs_start(j, &c, user);
	for (i = 0; i < n; i++)
		free(av[i]);
	free(av);
	return job;
}
