/*
 * units: checks of library pieces the tools use but do not show
 * directly: the atomic writer's failure paths, the ranked-list order
 * and its top-k heap, the hash's values, the space file, and the check
 * that no value of a plan reads as an option.  Each subcommand says
 * what failed on stderr and exits 1.
 *
 * usage: units atomic DIR | sort | hash | space DIR | plan |
 *        planopts TOOL
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec.h"

static int failed;

#define CHECK(c) do { if (!(c)) { rec_warn("%s:%d: failed: %s", __FILE__, \
    __LINE__, #c); failed = 1; } } while (0)

/* the names in dir that hold ".tmp": what a failed write left */
static int
temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		rec_die("cannot open '%s': %m", dir);
	while ((e = readdir(d)))
		n += strstr(e->d_name, ".tmp") != NULL;
	closedir(d);
	return n;
}

static char *
slurp(const char *path)
{
	struct rec_buf b = {0};
	char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		rec_buf_add(&b, buf, n);
	fclose(fp);
	return b.data ? b.data : xstrdup("");
}

static int
has(const char *path, const char *want)
{
	char *s = slurp(path);
	int ok = s && !strcmp(s, want);

	free(s);
	return ok;
}

static void
atomic(const char *dir)
{
	struct rec_buf p = {0}, q = {0};
	struct rec_atomic a, b;
	struct rlimit old, small;
	char *big;
	pid_t pid;
	int st;

	rec_buf_printf(&p, "%s/f", dir);
	CHECK(rec_atomic_file(p.data, "old", 3, 0644) == 0);
	CHECK(has(p.data, "old"));
	CHECK(rec_atomic_file(p.data, "new", 3, 0644) == 0);
	CHECK(has(p.data, "new"));

	/* a directory that is not there: the real error, nothing made */
	rec_buf_printf(&q, "%s/missing/f", dir);
	errno = 0;
	CHECK(rec_atomic_file(q.data, "x", 1, 0644) < 0 && errno == ENOENT);

	/* a write past the file size limit: a short write, then EFBIG;
	 * the old file stays, the temporary one goes */
	big = xcalloc(1 << 20, 1);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	small = old;
	small.rlim_cur = 10000;
	if (setrlimit(RLIMIT_FSIZE, &small) < 0)
		rec_die("setrlimit: %m");
	errno = 0;
	CHECK(rec_atomic_file(p.data, big, 1 << 20, 0644) < 0 &&
	    errno == EFBIG);
	setrlimit(RLIMIT_FSIZE, &old);
	free(big);
	CHECK(has(p.data, "new"));
	CHECK(!temps(dir));

	/* the rename fails (the target is a directory): no temporary */
	rec_buf_reset(&q);
	rec_buf_printf(&q, "%s/sub", dir);
	if (mkdir(q.data, 0755) < 0)
		rec_die("mkdir '%s': %m", q.data);
	errno = 0;
	CHECK(rec_atomic_file(q.data, "x", 1, 0644) < 0 && errno == EISDIR);
	CHECK(!temps(dir));

	/* two at once for one path: two temporary files, the last commit
	 * wins; abort removes the file, and a second abort does nothing */
	CHECK(rec_atomic_open(&a, p.data, 0644) == 0);
	CHECK(rec_atomic_open(&b, p.data, 0644) == 0);
	CHECK(strcmp(a.tmp, b.tmp) != 0);
	CHECK(temps(dir) == 2);
	CHECK(rec_atomic_write(&a, "a", 1) == 0);
	CHECK(rec_atomic_write(&b, "b", 1) == 0);
	CHECK(rec_atomic_commit(&b) == 0);
	rec_atomic_abort(&b);
	CHECK(has(p.data, "b"));
	rec_atomic_abort(&a);
	rec_atomic_abort(&a);
	CHECK(has(p.data, "b"));
	CHECK(!temps(dir));

	/* exiting (rec_die) between open and commit removes the file */
	fflush(NULL);
	if ((pid = fork()) < 0)
		rec_die("fork: %m");
	if (!pid) {
		if (rec_atomic_open(&a, p.data, 0644) < 0 ||
		    rec_atomic_write(&a, "c", 1) < 0)
			_exit(3);
		fclose(stderr);
		rec_die("dying with a file half written");
	}
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 1);
	CHECK(has(p.data, "b"));
	CHECK(!temps(dir));

	/* but a forked child's exit leaves its parent's file alone */
	CHECK(rec_atomic_open(&a, p.data, 0644) == 0);
	fflush(NULL);
	if ((pid = fork()) < 0)
		rec_die("fork: %m");
	if (!pid)
		exit(0);
	CHECK(waitpid(pid, &st, 0) == pid && temps(dir) == 1);
	CHECK(rec_atomic_write(&a, "d", 1) == 0 && rec_atomic_commit(&a) == 0);
	CHECK(has(p.data, "d") && !temps(dir));
	rec_buf_free(&p);
	rec_buf_free(&q);
}

static void
sort(void)
{
	struct rec_scored all[300], heap[300];
	uint64_t s = 1;
	size_t i, j, k, nh;
	static const size_t ks[] = { 0, 1, 7, 64, 299, 300 };

	/* few distinct scores: many ties, to be broken by index */
	for (i = 0; i < 300; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		all[i].score = (double)(s % 9) / 2;
		all[i].index = i;
	}
	for (j = 0; j < sizeof ks / sizeof *ks; j++) {
		k = ks[j];
		nh = 0;
		for (i = 0; i < 300; i++)
			rec_topk_push(heap, &nh, k, all[i].score, all[i].index);
		CHECK(nh == k);
		rec_scored_sort(heap, nh, sizeof *heap);
		if (j == 0)
			rec_scored_sort(all, 300, sizeof *all);
		for (i = 0; i < nh; i++)
			CHECK(heap[i].score == all[i].score &&
			    heap[i].index == all[i].index);
	}
	for (i = 1; i < 300; i++)
		CHECK(all[i - 1].score > all[i].score ||
		    (all[i - 1].score == all[i].score &&
		    all[i - 1].index < all[i].index));
	/* a struct that starts with one sorts the same way */
	{
		struct { struct rec_scored r; char tag; } v[3] = {
			{ { 1, 2 }, 'c' }, { { 2, 9 }, 'a' },
			{ { 1, 1 }, 'b' } };
		rec_scored_sort(v, 3, sizeof *v);
		CHECK(v[0].tag == 'a' && v[1].tag == 'b' && v[2].tag == 'c');
	}
}

static void
hash(void)
{
	struct rec_hash h = { .vsize = sizeof(size_t) };
	char key[32];
	size_t i, k, *v;

	/* values survive the hash's growth; new ones start at zero */
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof key, "k%zu", i % 1000);
		k = rec_hash_put(&h, key, strlen(key), NULL);
		v = h.val;
		CHECK(i >= 1000 || v[k] == 0);
		v[k] += i;
	}
	CHECK(h.n == 1000);
	v = h.val;
	for (i = 0; i < 1000; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		k = rec_hash_get(&h, key, strlen(key));
		CHECK(k == i && v[k] == 5 * i + 10000);
	}
	/* freed: empty, with the same values, and usable again */
	rec_hash_free(&h);
	CHECK(h.n == 0 && !h.val && h.vsize == sizeof(size_t));
	k = rec_hash_put(&h, "x", 1, NULL);
	CHECK(((size_t *)h.val)[k] == 0);
	rec_hash_free(&h);
}

static void
space(const char *dir)
{
	struct rec_space sp = {0}, mp;
	struct rec_buf cat = {0}, path = {0};
	static const char ids[] = "a\0bb\0c";
	uint64_t off[3] = { 0, 2, 5 };
	float m[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct stat cs;
	FILE *fp;

	rec_buf_printf(&cat, "%s/cat.db", dir);
	if (!(fp = fopen(cat.data, "w")) || fputs("a catalog", fp) < 0 ||
	    fclose(fp))
		rec_die("cannot write '%s': %m", cat.data);
	CHECK(!rec_space_path(cat.data, "no/slash"));
	path.data = rec_space_path(cat.data, "toy");
	CHECK(path.data && strstr(path.data, "/cat.db.dense.toy"));
	sp.m = m;
	sp.chars = (char *)ids;
	sp.off = off;
	sp.n = 3;
	if (stat(cat.data, &cs) < 0)
		rec_die("cannot stat '%s': %m", cat.data);
	/* 3 x 3 floats: 36 bytes, padded to 40 */
	CHECK(rec_space_write(&sp, 3, path.data, &cs) == 0);
	CHECK(!temps(dir));
	CHECK(rec_space_map(cat.data, "toy", 3, &mp) == 0);
	CHECK(mp.map && mp.n == 3 && !memcmp(mp.m, m, sizeof m));
	CHECK(rec_space_row(&mp, "a") == 0 && rec_space_row(&mp, "bb") == 1 &&
	    rec_space_row(&mp, "c") == 2 && rec_space_row(&mp, "b") ==
	    (size_t)-1);
	rec_space_free(&mp);
	/* another dimension, or a changed catalog: not this space's file */
	CHECK(rec_space_map(cat.data, "toy", 2, &mp) < 0 && !mp.map);
	if (!(fp = fopen(cat.data, "a")) || fputs(", changed", fp) < 0 ||
	    fclose(fp))
		rec_die("cannot write '%s': %m", cat.data);
	CHECK(rec_space_map(cat.data, "toy", 3, &mp) < 0 && !mp.map);
	rec_buf_free(&cat);
	rec_buf_free(&path);
}

/* a plan of one stage, argv given; the check's verdict */
static int
plan_ok(const char *const *argv)
{
	struct rec_stage s;
	struct rec_plan p;
	struct rec_buf why = {0};
	int r;

	memset(&p, 0, sizeof p);
	for (s.argc = 0; argv[s.argc]; s.argc++)
		;
	s.argv = (char **)argv;	/* only read */
	p.src = &s;
	p.nsrc = 1;
	r = rec_plan_check(&p, &why);
	rec_buf_free(&why);
	return r == 0;
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* what the plan check lets through: values after their option, or
 * after "--", whatever they start with; nothing else that starts
 * with '-' */
static void
plan(void)
{
	CHECK(plan_ok(ARGS("rec-bm25", "-e", "-k", "3", "--", "-d/etc/passwd",
	    "--db=x")));
	CHECK(plan_ok(ARGS("rec-dense", "-t", "-d/etc/passwd", "-k", "3")));
	CHECK(plan_ok(ARGS("rec-cf", "-l", "-x,--db=y", "-u", "--db=z")));
	CHECK(plan_ok(ARGS("rec-rank", "-n", "-d/etc/passwd", "-k", "3")));
	CHECK(plan_ok(ARGS("rec-sql", "-w", "--", "-k", "1")));
	CHECK(plan_ok(ARGS("rec-sql")));
	/* an operand without "--", a value without its option */
	CHECK(!plan_ok(ARGS("rec-bm25", "-k", "3", "-d/etc/passwd")));
	CHECK(!plan_ok(ARGS("rec-bm25", "-k", "3", "rock")));
	CHECK(!plan_ok(ARGS("rec-dense", "-t", "a", "--db=x")));
	CHECK(!plan_ok(ARGS("rec-dense", "-t", "a", "-")));
	/* clusters, long options, unknown letters, a missing value */
	CHECK(!plan_ok(ARGS("rec-cf", "-ek", "3")));
	CHECK(!plan_ok(ARGS("rec-cf", "--all")));
	CHECK(!plan_ok(ARGS("rec-cf", "-:")));
	CHECK(!plan_ok(ARGS("rec-cf", "-t", "x")));
	CHECK(!plan_ok(ARGS("rec-cf", "-k")));
	/* another program only without arguments */
	CHECK(!plan_ok(ARGS("sh", "-c", "x")));
	CHECK(!plan_ok(ARGS("rec-import", "-h")));
	CHECK(plan_ok(ARGS("upper")));
}

/* edit distances, with the swap of two neighbours one edit, and the
 * names of a value naming several */
static void
text(void)
{
	struct rec_strs p = {0};
#define ED(a, b, m) rec_edit_distance(a, strlen(a), b, strlen(b), m)
	CHECK(ED("kehlani", "kehlani", 2) == 0);
	CHECK(ED("khelani", "kehlani", 2) == 1);
	CHECK(ED("metalica", "metallica", 2) == 1);
	CHECK(ED("ab", "ba", 2) == 1);
	CHECK(ED("abc", "ca", 3) == 3);
	CHECK(ED("kitten", "sitting", 5) == 3);
	CHECK(ED("kitten", "sitting", 2) == 3);	/* capped at max + 1 */
	CHECK(ED("", "abc", 5) == 3);
#undef ED
	rec_name_parts("Cardi B, Megan Thee Stallion", 0, &p);
	CHECK(p.n == 2 && !strcmp(p.v[0], "Cardi B") &&
	    !strcmp(p.v[1], "Megan Thee Stallion"));
	rec_strs_free(&p);
	rec_name_parts("Drake feat. Rihanna & Future", 1, &p);
	CHECK(p.n == 3 && !strcmp(p.v[2], "Future"));
	rec_strs_free(&p);
	rec_name_parts("Brooks & Dunn", 0, &p);
	CHECK(p.n == 0);
	rec_strs_free(&p);
	rec_name_parts("Radiohead", 1, &p);
	CHECK(p.n == 0);
	rec_strs_free(&p);
}

int
main(int argc, char **argv)
{
	rec_init(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "atomic"))
		atomic(argv[2]);
	else if (argc == 2 && !strcmp(argv[1], "sort"))
		sort();
	else if (argc == 2 && !strcmp(argv[1], "hash"))
		hash();
	else if (argc == 3 && !strcmp(argv[1], "space"))
		space(argv[2]);
	else if (argc == 2 && !strcmp(argv[1], "plan"))
		plan();
	else if (argc == 2 && !strcmp(argv[1], "text"))
		text();
	else if (argc == 3 && !strcmp(argv[1], "planopts")) {
		const char *o = rec_plan_tool_opts(argv[2]);
		if (!o)
			rec_die("no tool '%s' in the plan table", argv[2]);
		printf("%s\n", o);
	} else
		rec_usage_die("usage: units atomic DIR | sort | hash | "
		    "space DIR | plan | text | planopts TOOL");
	rec_exit(failed);
}
