/*
 * spd-inverse: checks lib/ease.c's blocked inverse against the
 * definition, A times its inverse is I, on random symmetric positive
 * definite matrices of several blocks.  Prints the largest error of
 * A A^-1 - I and exits 1 if it is above the tolerance given.
 *
 * usage: spd-inverse N TOLERANCE
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"

int
main(int argc, char **argv)
{
	size_t n, ld, i, j, k;
	float *A, *B, *R;
	double tol, err = 0;
	uint64_t s = 7;

	rec_init(argc, argv);
	if (argc != 3)
		rec_usage_die("usage: spd-inverse N TOLERANCE");
	n = (size_t)atoi(argv[1]);
	tol = atof(argv[2]);
	ld = rec_spd_size(n);
	A = xcalloc(ld * ld, sizeof *A);
	B = xcalloc(ld * ld, sizeof *B);
	R = xmalloc(n * 16 * sizeof *R + 1);
	/* A = R R^T + I over the first n rows, the identity past them */
	for (i = 0; i < n * 16; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		R[i] = (float)((double)(s % 2001) / 1000 - 1);
	}
	for (i = 0; i < ld; i++)
		for (j = 0; j < ld; j++) {
			double d = i == j;
			if (i < n && j < n)
				for (k = 0; k < 16; k++)
					d += (double)R[i * 16 + k] * R[j * 16 + k];
			A[i * ld + j] = (float)d;
		}
	memcpy(B, A, ld * ld * sizeof *A);
	if (!rec_spd_inverse(B, ld, 0))
		rec_die("not positive definite");
	for (i = 0; i < ld; i++)
		for (j = 0; j < ld; j++) {
			double d = -(double)(i == j);
			for (k = 0; k < ld; k++)
				d += (double)A[i * ld + k] * B[k * ld + j];
			if (fabs(d) > err)
				err = fabs(d);
		}
	printf("%zu (as %zu): max |A A^-1 - I| %.3g\n", n, ld, err);
	free(A);
	free(B);
	free(R);
	return err <= tol ? 0 : 1;
}
