/*
 * bench/gen.c: writes N candidate records as JSONL, shaped like what a
 * retriever writes: id, score, src and a scores map.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rec.h"

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i;
	const char *src = argc > 2 ? argv[2] : "bm25";
	unsigned long x = 88172645463325252ull;

	rec_init(argc, argv);
	for (i = 0; i < n; i++) {
		double s;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		s = (double)(x % 100000) / 997.0;
		printf("{\"id\":\"item%07ld\",\"score\":%.6g,\"src\":\"%s\","
		    "\"scores\":{\"%s\":%.6g}}\n", (long)(x % 5000000), s, src,
		    src, s);
	}
	return fclose(stdout) ? 1 : 0;
}
