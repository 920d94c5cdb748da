/* bench/bench.h: the clock and the sort the benchmarks share. */
#ifndef BENCH_H
#define BENCH_H

#include "rec.h"

/* seconds on the monotonic clock */
#define now rec_now

/* for qsort: doubles, ascending */
static inline int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
