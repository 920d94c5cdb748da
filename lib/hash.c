/*
 * hash.c: string -> dense index (0, 1, 2, ... in order of insertion),
 * for ids, column names and vocabularies; optionally a value per key,
 * kept beside the keys so that the callers do not each grow an array
 * of their own in step with the hash.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

uint64_t
rec_hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h ^ (h >> 29);
}

size_t
rec_hash_get(const struct rec_hash *h, const char *key, size_t len)
{
	size_t i, k;

	if (!h->nslot)
		return (size_t)-1;
	for (i = rec_hash_str(key, len) & (h->nslot - 1);; i = (i + 1) & (h->nslot - 1)) {
		k = h->slot[i];
		if (!k)
			return (size_t)-1;
		if (h->keylen[k - 1] == len && !memcmp(h->key[k - 1], key, len))
			return k - 1;
	}
}

static void
rehash(struct rec_hash *h)
{
	size_t n = h->nslot ? h->nslot * 2 : 64, i, j;

	free(h->slot);
	h->slot = xcalloc(n, sizeof *h->slot);
	h->nslot = n;
	for (i = 0; i < h->n; i++) {
		for (j = rec_hash_str(h->key[i], h->keylen[i]) & (n - 1); h->slot[j];
		    j = (j + 1) & (n - 1))
			;
		h->slot[j] = i + 1;
	}
}

size_t
rec_hash_put(struct rec_hash *h, const char *key, size_t len, int *added)
{
	size_t i = rec_hash_get(h, key, len), j;

	if (added)
		*added = i == (size_t)-1;
	if (i != (size_t)-1)
		return i;
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->key = xrealloc(h->key, h->cap * sizeof *h->key);
		h->keylen = xrealloc(h->keylen, h->cap * sizeof *h->keylen);
		if (h->vsize)
			h->val = xrealloc(h->val, h->cap * h->vsize);
	}
	if (h->vsize)
		memset((char *)h->val + h->n * h->vsize, 0, h->vsize);
	h->key[h->n] = xstrndup(key, len);
	h->keylen[h->n] = len;
	h->n++;
	if (h->n * 2 > h->nslot)
		rehash(h);
	else {
		for (j = rec_hash_str(key, len) & (h->nslot - 1); h->slot[j];
		    j = (j + 1) & (h->nslot - 1))
			;
		h->slot[j] = h->n;
	}
	return h->n - 1;
}

void
rec_hash_free(struct rec_hash *h)
{
	size_t i, vsize = h->vsize;

	for (i = 0; i < h->n; i++)
		free(h->key[i]);
	free(h->key);
	free(h->keylen);
	free(h->slot);
	free(h->val);
	memset(h, 0, sizeof *h);
	h->vsize = vsize;	/* empty, ready for the same values */
}
