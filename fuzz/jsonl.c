/*
 * fuzz/jsonl.c: libFuzzer harness for the JSONL reader and the JSON
 * writer.  Properties checked: a record read from JSON, written as JSON
 * and read again packs to the same msgpack bytes; a refused record's
 * message names the line ("fuzz:N: ...").
 */
#include <stdlib.h>
#include <string.h>

#include "rec.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct rec_reader r;
	struct rec_record rec;
	struct rec_buf out = {0}, again = {0}, err = {0};
	int compact, rc;

	rec_reader_init_mem(&r, (const char *)data, size, "fuzz");
	r.maxrec = 1 << 16;
	r.format = REC_FMT_JSONL;
	while ((rc = rec_read(&r, &rec)) > 0) {
		rec_buf_reset(&out);
		if (rec_json_write(&out, &rec.map, &err))
			abort();	/* what was read as JSON is writable */
		rec_buf_reset(&again);
		if (rec_json_to_msgpack(out.data, out.len, &again, &compact,
		    &err) || !compact)
			abort();
		if (again.len != rec.rawlen ||
		    memcmp(again.data, rec.raw, rec.rawlen))
			abort();
	}
	if (rc < 0 && (strncmp(r.err.data, "fuzz:", 5) ||
	    r.err.data[5] < '1' || r.err.data[5] > '9'))
		abort();
	rec_reader_free(&r);
	rec_buf_free(&out);
	rec_buf_free(&again);
	rec_buf_free(&err);
	return 0;
}
