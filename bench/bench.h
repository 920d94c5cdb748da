/* bench/bench.h: the clock and the sort the benchmarks share. */
#ifndef BENCH_H
#define BENCH_H

#include <time.h>

/* seconds on the monotonic clock */
static inline double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* for qsort: doubles, ascending */
static inline int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
