/*
 * space.c: a vector space of the catalog as a file beside it
 * (CATALOG.dense.SPACE), memory-mapped by rec-dense instead of read
 * from SQLite row by row: a query then costs the pages it touches, not
 * a load.  Like the BM25 index (bm25.c) it is derived from the catalog
 * and trusted only while the catalog's size and mtime are the ones it
 * was written for.
 *
 * The file:
 *   "RECDNS1\n", dim (u32), 0 (u32), n (u64), id bytes (u64), the
 *   catalog's size (u64) and mtime in nanoseconds (i64) when it was
 *   written;
 *   n * dim floats, padded to 8 bytes; n id offsets (u64); the ids,
 *   each ended by a NUL, ascending.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "retrieve.h"

#define HEAD 48

int64_t
rec_mtime_ns(const struct stat *sb)
{
	return (int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec;
}

char *
rec_side_path(const char *cat, const char *kind, const char *name)
{
	struct rec_buf b = {0};
	const char *p;

	for (p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_.-", *p))
			return NULL;
	rec_buf_printf(&b, "%s.%s.%s", cat, kind, name);
	return b.data;
}

char *
rec_space_path(const char *cat, const char *space)
{
	return rec_side_path(cat, "dense", space);
}

void
rec_space_read(sqlite3 *db, const char *space, int dim, struct rec_space *sp)
{
	sqlite3_stmt *st;
	size_t cap = 0, len, idlen = 0, idcap = 0;

	memset(sp, 0, sizeof *sp);
	if (sqlite3_prepare_v2(db, "SELECT id, vec FROM vectors WHERE space = ? "
	    "ORDER BY id", -1, &st, NULL))
		rec_sqlite_die(db, "vectors");
	sqlite3_bind_text(st, 1, space, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_bytes(st, 1) != dim * 4)
			continue;
		len = (size_t)sqlite3_column_bytes(st, 0);
		if (sp->n + 1 >= cap) {
			cap = cap ? cap * 2 : 4096;
			sp->m = xrealloc(sp->m, cap * (size_t)dim * sizeof *sp->m);
			sp->off = xrealloc(sp->off, (cap + 1) * sizeof *sp->off);
		}
		if (idlen + len + 1 > idcap) {
			idcap = (idlen + len + 1) * 2;
			sp->chars = xrealloc(sp->chars, idcap);
		}
		memcpy(sp->m + sp->n * (size_t)dim, sqlite3_column_blob(st, 1),
		    (size_t)dim * 4);
		sp->off[sp->n] = idlen;
		memcpy(sp->chars + idlen, sqlite3_column_text(st, 0), len);
		sp->chars[idlen + len] = 0;
		idlen += len + 1;
		sp->n++;
	}
	sqlite3_finalize(st);
}

int
rec_space_map(const char *cat, const char *space, int dim,
    struct rec_space *sp)
{
	char *path = rec_space_path(cat, space);
	unsigned char h[HEAD];
	struct stat cs, fs;
	uint32_t fdim;
	uint64_t n, idb, csize;
	int64_t cmtime;
	size_t fl;
	int fd;

	memset(sp, 0, sizeof *sp);
	if (!path || stat(cat, &cs) < 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		free(path);
		return -1;
	}
	free(path);
	if (fstat(fd, &fs) < 0 || read(fd, h, HEAD) != HEAD ||
	    memcmp(h, "RECDNS1\n", 8))
		goto no;
	memcpy(&fdim, h + 8, 4);
	memcpy(&n, h + 16, 8);
	memcpy(&idb, h + 24, 8);
	memcpy(&csize, h + 32, 8);
	memcpy(&cmtime, h + 40, 8);
	fl = ((size_t)n * (size_t)dim * 4 + 7) & ~(size_t)7;
	if (fdim != (uint32_t)dim || csize != (uint64_t)cs.st_size ||
	    cmtime != rec_mtime_ns(&cs) || n > (uint64_t)fs.st_size ||
	    (uint64_t)fs.st_size != HEAD + fl + n * 8 + idb)
		goto no;
	sp->mapsz = (size_t)fs.st_size;
	sp->map = mmap(NULL, sp->mapsz, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (sp->map == MAP_FAILED) {
		memset(sp, 0, sizeof *sp);
		return -1;
	}
	sp->n = (size_t)n;
	{
		char *base = sp->map;
		void *v = base + HEAD, *o = base + HEAD + fl;
		sp->m = v;
		sp->off = o;
		sp->chars = base + HEAD + fl + n * 8;
	}
	/* the ids must stay inside the file and end in a NUL */
	if (idb && sp->chars[idb - 1]) {
		munmap(sp->map, sp->mapsz);
		memset(sp, 0, sizeof *sp);
		return -1;
	}
	for (fl = 0; fl < sp->n; fl++)
		if (sp->off[fl] >= idb) {
			munmap(sp->map, sp->mapsz);
			memset(sp, 0, sizeof *sp);
			return -1;
		}
	return 0;
no:
	close(fd);
	return -1;
}

int
rec_space_write(const struct rec_space *sp, int dim, const char *path,
    const struct stat *cat)
{
	static const char zero[8];
	unsigned char h[HEAD] = "RECDNS1\n";
	struct rec_atomic a;
	uint32_t d = (uint32_t)dim;
	uint64_t n = sp->n, csize = (uint64_t)cat->st_size;
	uint64_t idb = sp->n ? sp->off[sp->n - 1] +
	    strlen(sp->chars + sp->off[sp->n - 1]) + 1 : 0;
	int64_t cmtime = rec_mtime_ns(cat);
	size_t fl = sp->n * (size_t)dim * 4;

	memcpy(h + 8, &d, 4);
	memcpy(h + 16, &n, 8);
	memcpy(h + 24, &idb, 8);
	memcpy(h + 32, &csize, 8);
	memcpy(h + 40, &cmtime, 8);
	if (rec_atomic_open(&a, path, 0644) < 0)
		return -1;
	if (rec_atomic_write(&a, h, HEAD) < 0 ||
	    rec_atomic_write(&a, sp->m, fl) < 0 ||
	    rec_atomic_write(&a, zero, fl % 8) < 0 ||
	    rec_atomic_write(&a, sp->off, sp->n * 8) < 0 ||
	    rec_atomic_write(&a, sp->chars, idb) < 0) {
		rec_atomic_abort(&a);
		return -1;
	}
	return rec_atomic_commit(&a);
}

size_t
rec_space_row(const struct rec_space *sp, const char *id)
{
	size_t lo = 0, hi = sp->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(sp->chars + sp->off[mid], id);
		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t)-1;
}

void
rec_space_free(struct rec_space *sp)
{
	if (sp->map)
		munmap(sp->map, sp->mapsz);
	else {
		free(sp->m);
		free(sp->off);
		free(sp->chars);
	}
	memset(sp, 0, sizeof *sp);
}
