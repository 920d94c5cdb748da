/*
 * fuzz/table.c: libFuzzer harness for the tables rec-import reads: CSV,
 * TSV and JSONL with named columns (lib/table.c over lib/csv.c and the
 * JSON parser).  The first byte picks the kind: 't' TSV, 'j' JSONL,
 * anything else CSV; in upper case the input is Latin-1.  The rest is
 * the file, written to a memfd, since rec_table_open takes a path.
 * Properties checked: no crash, no leak, and every value of a row that
 * was read is UTF-8 and NUL-terminated where the row says it ends.
 * rec_table_open dies on a bad header; the exit hook jumps back here.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rec.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static jmp_buf died;
static struct rec_table t;	/* static: it outlives a longjmp */

static void
on_exit_hook(int status)
{
	(void)status;
	longjmp(died, 1);
}

static void
check_row(void)
{
	size_t i, k, len;
	const char *v;

	for (i = 0; i < t.ncol; i++) {
		v = t.val[i].data;
		for (k = 0; k < t.nval[i]; k++) {
			len = strlen(v);
			if (rec_utf8_valid(v, len) != len)
				abort();	/* a value that is not UTF-8 */
			v += len + 1;
		}
		if (t.nval[i] && (size_t)(v - t.val[i].data) != t.val[i].len)
			abort();	/* values and their count disagree */
		if (rec_table_get(&t, i) && !t.nval[i])
			abort();
	}
	if (t.ncol && rec_table_col(&t, t.col[0]) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const char *const nulls[] = { "NA", "\\N", NULL };
	static int fd = -1;
	static char path[64];
	int kind, rc;

	if (size < 1)
		return 0;
	if (fd < 0) {
		fd = memfd_create("fuzz-table", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size > 1 && pwrite(fd, data + 1, size - 1,
	    0) != (ssize_t)(size - 1)))
		abort();
	kind = tolower(data[0]) == 't' ? 't' : tolower(data[0]) == 'j' ?
	    'j' : 'c';
	rec_exit_hook = on_exit_hook;
	if (setjmp(died)) {
		rec_table_close(&t);	/* the header was refused */
		return 0;
	}
	rec_table_open(&t, path, kind, isupper(data[0]) != 0, nulls);
	while ((rc = rec_table_next(&t)) != 0 && rc != -1)
		if (rc == 1)
			check_row();
	rec_table_close(&t);
	return 0;
}
