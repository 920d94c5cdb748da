/*
 * fuzz/msgpack.c: libFuzzer harness for the msgpack reader, the record
 * builder and msgpack -> JSON.  A record that becomes JSON must read
 * back as JSON; one the reader took may fail to become JSON only for
 * what msgpack has and JSON has not (binary, extensions, keys that are
 * not strings), since the reader refuses bad UTF-8, NaN and infinity;
 * a refused record's message names the byte ("fuzz: byte N: ...").
 */
#include <stdlib.h>
#include <string.h>

#include "rec.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const char *const drop[] = { "score", "item", NULL };
	struct rec_reader r;
	struct rec_record rec;
	struct rec_buf out = {0}, back = {0}, err = {0}, built = {0};
	msgpack_packer pk;
	int rc;

	rec_reader_init_mem(&r, (const char *)data, size, "fuzz");
	r.maxrec = 1 << 16;
	r.format = REC_FMT_MSGPACK;
	while ((rc = rec_read(&r, &rec)) > 0) {
		rec_buf_reset(&built);
		msgpack_packer_init(&pk, &built, rec_buf_msgpack_write);
		rec_pack_map_except(&pk, &rec.map, drop, 1);
		msgpack_pack_str_with_body(&pk, "score", 5);
		msgpack_pack_double(&pk, rec.score);
		rec_buf_reset(&out);
		if (rec_json_write(&out, &rec.map, &err) == 0) {
			rec_buf_reset(&back);
			if (rec_json_to_msgpack(out.data, out.len, &back, NULL,
			    &err))
				abort();
		} else if (!strstr(err.data, "binary") &&
		    !strstr(err.data, "extension") &&
		    !strstr(err.data, "key is not a string"))
			abort();
	}
	if (rc < 0 && strncmp(r.err.data, "fuzz: byte ", 11))
		abort();
	rec_reader_free(&r);
	rec_buf_free(&out);
	rec_buf_free(&back);
	rec_buf_free(&err);
	rec_buf_free(&built);
	return 0;
}
