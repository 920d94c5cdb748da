/*
 * sort.c: the one order of every ranked list in rec: the higher score
 * first, ties to the lower index (the earlier record, the lower
 * document or row), so that a list never depends on how qsort breaks
 * ties; and the bounded heap that keeps the best k of a stream in that
 * order.
 */
#include <stdlib.h>

#include "core.h"

int
rec_scored_cmp(const void *a, const void *b)
{
	/* a pointer to a struct is a pointer to its first member */
	const struct rec_scored *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void
rec_scored_sort(void *v, size_t n, size_t size)
{
	if (n)
		qsort(v, n, size, rec_scored_cmp);
}

/* the same order as a test: a goes after b */
static int
worse(const struct rec_scored *a, const struct rec_scored *b)
{
	return a->score < b->score || (a->score == b->score &&
	    a->index > b->index);
}

/* a min-heap of the k best: the root is the worst kept */
void
rec_topk_push(struct rec_scored *h, size_t *n, size_t k, double score,
    size_t index)
{
	struct rec_scored e = { score, index };
	size_t i, c;

	if (*n < k) {
		for (i = (*n)++; i > 0 && worse(&e, &h[(i - 1) / 2]);
		    i = (i - 1) / 2)
			h[i] = h[(i - 1) / 2];
		h[i] = e;
		return;
	}
	if (!k || !worse(&h[0], &e))
		return;
	for (i = 0; (c = 2 * i + 1) < *n; i = c) {
		if (c + 1 < *n && worse(&h[c + 1], &h[c]))
			c++;
		if (!worse(&h[c], &e))
			break;
		h[i] = h[c];
	}
	h[i] = e;
}

void
rec_topk_sort(struct rec_scored *h, size_t n)
{
	struct rec_scored e;
	size_t end, i, c;

	/* heapsort: the worst kept, at the root, goes to the end each
	 * time; no allocation, unlike qsort's merge sort */
	for (end = n; end > 1; end--) {
		e = h[end - 1];
		h[end - 1] = h[0];
		for (i = 0; (c = 2 * i + 1) < end - 1; i = c) {
			if (c + 1 < end - 1 && worse(&h[c + 1], &h[c]))
				c++;
			if (!worse(&h[c], &e))
				break;
			h[i] = h[c];
		}
		h[i] = e;
	}
}
