/*
 * rec-import: build a rec catalog (one SQLite file) from CSV, TSV and
 * JSONL: items, interactions, users, and columns joined from another
 * file.  Every step builds into a temporary file renamed over the
 * catalog at the end, so a failed step leaves the catalog as it was,
 * and a failed first step leaves no catalog at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <getopt.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "converse.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-import -d CATALOG items [-fsv] [-F FORMAT] [-e ENC]"
	    " [-N NULL]\n"
	    "                  [-i IDCOL] [-R OLD=NEW] [-x COL,...]"
	    " [-l COL,...]\n"
	    "                  [-S COL=SEP] [-X NEW=COL:REGEX] [-r COL=ROLE]\n"
	    "                  [-t COL=TYPE] [-I USERCOL] FILE\n"
	    "       rec-import -d CATALOG interactions -u COL -i COL"
	    " [-w COL] [-T COL]\n"
	    "                  [-sv] [-F FORMAT] [-e ENC] [-N NULL] FILE\n"
	    "       rec-import -d CATALOG users [-sv] [-F FORMAT] [-e ENC]"
	    " [-N NULL]\n"
	    "                  [-i IDCOL] [-R OLD=NEW] [-x COL,...]"
	    " [-l COL,...]\n"
	    "                  [-S COL=SEP] [-X NEW=COL:REGEX]"
	    " [-t COL=TYPE] FILE\n"
	    "       rec-import -d CATALOG join -k COL -o ITEMCOL [-sv]"
	    " [-F FORMAT]\n"
	    "                  [-e ENC] [-N NULL] [-R OLD=NEW] [-x COL,...]"
	    " [-l COL,...]\n"
	    "                  [-S COL=SEP] [-X NEW=COL:REGEX] [-r COL=ROLE]\n"
	    "                  [-t COL=TYPE] FILE\n"
	    "       rec-import -d CATALOG vectors -a SPACE [-sv] [-n IDS]\n"
	    "                  FILE | -c COL,... | -E COL,...\n"
	    "  -d, -s and -v apply to every step, any other option only"
	    " where shown\n"
	    "  -d, --db CATALOG        the catalog to build or extend\n"
	    "  -F, --format FMT        csv, tsv or jsonl (default: from the "
	    "name; csv)\n"
	    "  -e, --encoding ENC      utf-8 (default) or latin1\n"
	    "  -N, --null VALUE        read VALUE as missing (repeatable)\n"
	    "  -s, --skip-bad          skip and count bad rows instead of "
	    "failing\n"
	    "  -f, --force             replace an existing catalog (items)\n"
	    "  -v, --verbose           print a summary line\n"
	    "  -i, --id COL            the id column (items, users) or the "
	    "item column\n"
	    "  -R, --rename OLD=NEW    store column OLD as NEW\n"
	    "  -x, --drop COL,...      leave these columns out\n"
	    "  -l, --list COL,...      gather the values of repeated rows "
	    "into a list\n"
	    "  -S, --split COL=SEP     split values on SEP into a list\n"
	    "  -X, --extract NEW=COL:REGEX  a new column from the first group"
	    " of REGEX\n"
	    "  -r, --role COL=ROLE     title creator collection date "
	    "popularity tags text\n"
	    "                          number category other\n"
	    "  -t, --type COL=TYPE     integer, real or text\n"
	    "  -I, --interactions COL  each row is also an interaction of "
	    "user COL\n"
	    "  -u, --user COL          interactions: the user column\n"
	    "  -w, --weight COL        interactions: the weight column\n"
	    "  -T, --time COL          interactions: the time column\n"
	    "  -k, --key COL           join: the file's key column\n"
	    "  -o, --on ITEMCOL        join: the items column it matches "
	    "(normalised)\n"
	    "  -a, --space SPACE       vectors: the space to fill\n"
	    "  -c, --columns COL,...   vectors: from numeric item columns, "
	    "standardised\n"
	    "  -n, --ids FILE          vectors: the ids of a .npy or .fvecs "
	    "file, a line each\n"
	    "  -E, --embed COL,...     vectors: these columns' text through "
	    "REC_LLM_URL's /embeddings\n"
	    "  -h, --help              print this help\n"
	    "  -V, --version           print the version\n");
}

/* --- options --- */

struct pair {
	char *a, *b;
};

struct opts {
	const char *db, *mode, *file;
	int kind, latin1, skip_bad, force, verbose;
	const char *nulls[33];
	size_t nnulls;
	const char *id, *user, *weight, *time, *key, *on, *member;
	const char *space, *columns, *ids, *embed;
	struct pair *rename, *split, *role, *type, *extract;
	size_t nrename, nsplit, nrole, ntype, nextract;
	char **drop, **list;
	size_t ndrop, nlist;
};

static struct opts o;

static void
add_pair(struct pair **v, size_t *n, const char *arg, int sep,
    const char *opt)
{
	const char *eq = strchr(arg, sep);

	if (!eq || eq == arg)
		rec_usage_die("%s: expected NAME%cVALUE, got '%s'", opt, sep,
		    arg);
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[*n].a = xstrndup(arg, (size_t)(eq - arg));
	(*v)[*n].b = xstrdup(eq + 1);
	(*n)++;
}

static void
add_names(char ***v, size_t *n, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok;
	    tok = strtok_r(NULL, ",", &save)) {
		*v = xrealloc(*v, (*n + 1) * sizeof **v);
		(*v)[(*n)++] = xstrdup(tok);
	}
	free(copy);
}

static const char *
pair_get(const struct pair *v, size_t n, const char *a)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].a, a))
			return v[i].b;
	return NULL;
}

static int
in_names(char **v, size_t n, const char *a)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], a))
			return 1;
	return 0;
}

/* --- reading rows into columns, shared by items and join --- */

struct cell {
	struct rec_buf v;	/* values, each NUL-terminated */
	uint32_t n;
};

struct target {
	char *name, *source;
	size_t src;		/* source column, or -1 for an extract */
	const char *split;
	int list, dropped;
	regex_t re;
	int isre;
	size_t resrc;		/* extract: source column */
	char type[8];
	const char *role;
};

struct shape {
	struct target *t;
	size_t nt;
	size_t *map;		/* source column -> target, or -1 */
	size_t nmap;
	size_t idcol;		/* source column of the key */
};

static size_t
target_named(const struct shape *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nt; i++)
		if (!strcmp(s->t[i].name, name))
			return i;
	return (size_t)-1;
}

static size_t
new_target(struct shape *s, const char *name, const char *source)
{
	struct target *t;

	if (!*name || strchr(name, '"'))
		rec_die("bad column name '%s'", name);
	if (target_named(s, name) != (size_t)-1)
		rec_die("two columns named '%s' (use --rename)", name);
	s->t = xrealloc(s->t, (s->nt + 1) * sizeof *s->t);
	t = &s->t[s->nt];
	memset(t, 0, sizeof *t);
	t->name = xstrdup(name);
	t->source = xstrdup(source);
	t->src = (size_t)-1;
	t->split = pair_get(o.split, o.nsplit, name);
	t->list = t->split || in_names(o.list, o.nlist, name);
	t->role = pair_get(o.role, o.nrole, name);
	return s->nt++;
}

/* Maps the source columns seen so far to targets (JSONL adds columns
 * as it goes). */
static void
update_shape(struct shape *s, const struct rec_table *tb)
{
	size_t i, j;
	const char *name;

	for (i = s->nmap; i < tb->ncol; i++) {
		s->map = xrealloc(s->map, (i + 1) * sizeof *s->map);
		s->map[i] = (size_t)-1;
		s->nmap = i + 1;
		if (i == s->idcol || in_names(o.drop, o.ndrop, tb->col[i]))
			continue;
		name = pair_get(o.rename, o.nrename, tb->col[i]);
		if (!name)
			name = tb->col[i];
		if (!strcmp(name, "id"))
			rec_die("%s: column 'id' is not the id column (use "
			    "--rename id=NAME or --id id)", tb->name);
		j = new_target(s, name, tb->col[i]);
		s->t[j].src = i;
	}
	for (i = 0; i < s->nt; i++)
		if (s->t[i].src < tb->ncol && tb->array[s->t[i].src])
			s->t[i].list = 1;
}

static void
add_extracts(struct shape *s, const struct rec_table *tb)
{
	size_t i, j;
	char msg[200];
	int rc;

	for (i = 0; i < o.nextract; i++) {
		char *colon = strchr(o.extract[i].b, ':');
		const char *src;
		size_t k;

		if (!colon)
			rec_usage_die("--extract: expected NEW=COL:REGEX, got "
			    "'%s=%s'", o.extract[i].a, o.extract[i].b);
		*colon = 0;
		src = o.extract[i].b;
		k = target_named(s, src);
		if (k == (size_t)-1 || s->t[k].src == (size_t)-1)
			rec_usage_die("--extract: no column '%s' in '%s'", src,
			    tb->name);
		j = new_target(s, o.extract[i].a, src);
		s->t[j].resrc = s->t[k].src;
		rc = regcomp(&s->t[j].re, colon + 1, REG_EXTENDED);
		if (rc) {
			regerror(rc, &s->t[j].re, msg, sizeof msg);
			rec_usage_die("--extract: bad regex '%s': %s",
			    colon + 1, msg);
		}
		s->t[j].isre = 1;
	}
}

static void
check_names(const struct shape *s, const struct rec_table *tb)
{
	size_t i;
	const char *const *r;

	for (i = 0; i < o.nrole; i++) {
		for (r = rec_roles; *r && strcmp(*r, o.role[i].b); r++)
			;
		if (!*r)
			rec_usage_die("--role: unknown role '%s'",
			    o.role[i].b);
	}
	for (i = 0; i < o.ntype; i++)
		if (strcmp(o.type[i].b, "integer") &&
		    strcmp(o.type[i].b, "real") && strcmp(o.type[i].b, "text"))
			rec_usage_die("--type: unknown type '%s' (integer, "
			    "real or text)", o.type[i].b);
	if (tb->kind == 'j')
		return;	/* JSONL columns appear as they come */
#define CHECK(v, n, field, what) \
	for (i = 0; i < (n); i++) \
		if (target_named(s, v[i] field) == (size_t)-1) \
			rec_usage_die("%s: no column '%s' in '%s'", what, \
			    v[i] field, tb->name);
	CHECK(o.list, o.nlist, , "--list")
	CHECK(o.split, o.nsplit, .a, "--split")
	CHECK(o.role, o.nrole, .a, "--role")
	CHECK(o.type, o.ntype, .a, "--type")
#undef CHECK
	for (i = 0; i < o.ndrop; i++)
		if (rec_table_col(tb, o.drop[i]) == (size_t)-1)
			rec_usage_die("--drop: no column '%s' in '%s'",
			    o.drop[i], tb->name);
	for (i = 0; i < o.nrename; i++)
		if (rec_table_col(tb, o.rename[i].a) == (size_t)-1)
			rec_usage_die("--rename: no column '%s' in '%s'",
			    o.rename[i].a, tb->name);
}

static void
cell_add(struct cell *c, const char *v, size_t n)
{
	const char *p = c->v.data;
	uint32_t i;

	for (i = 0; i < c->n; i++) {	/* keep values distinct */
		size_t len = strlen(p);
		if (len == n && !memcmp(p, v, n))
			return;
		p += len + 1;
	}
	rec_buf_add(&c->v, v, n);
	rec_buf_addc(&c->v, 0);
	c->n++;
}

/* Adds this row's values to an entity's cells. */
static void
merge_row(const struct shape *s, const struct rec_table *tb,
    struct cell **cells, size_t *ncells)
{
	size_t j, k;
	regmatch_t m[2];

	if (*ncells < s->nt) {
		*cells = xrealloc(*cells, s->nt * sizeof **cells);
		memset(*cells + *ncells, 0, (s->nt - *ncells) * sizeof **cells);
		*ncells = s->nt;
	}
	for (j = 0; j < s->nt; j++) {
		const struct target *t = &s->t[j];
		struct cell *c = &(*cells)[j];
		const char *v;

		if (t->isre) {
			v = rec_table_get(tb, t->resrc);
			if (v && !regexec(&t->re, v, 2, m, 0)) {
				int g = m[1].rm_so >= 0 ? 1 : 0;
				if (m[g].rm_eo > m[g].rm_so)
					cell_add(c, v + m[g].rm_so,
					    (size_t)(m[g].rm_eo - m[g].rm_so));
			}
			continue;
		}
		if (t->src >= tb->ncol)
			continue;
		v = tb->val[t->src].data;
		for (k = 0; k < tb->nval[t->src]; k++, v += strlen(v) + 1) {
			if (!t->split) {
				cell_add(c, v, strlen(v));
				continue;
			}
			for (const char *p = v;;) {
				const char *e = *t->split ? strstr(p, t->split) :
				    NULL;
				size_t n = e ? (size_t)(e - p) : strlen(p);
				if (n)
					cell_add(c, p, n);
				if (!e)
					break;
				p = e + strlen(t->split);
			}
		}
	}
}

static int
is_integer(const char *s)
{
	const char *p = s + (*s == '-');
	size_t n = strlen(p);

	if (!n || n > 18 || (p[0] == '0' && n > 1))
		return 0;
	return strspn(p, "0123456789") == n;
}

static int
is_real(const char *s)
{
	char *end;
	double d;

	if (!*s || strspn(s, "0123456789+-.eE") != strlen(s))
		return 0;
	d = strtod(s, &end);
	(void)d;
	return !*end;
}

static int
contains(const char *name, const char *const *words)
{
	for (; *words; words++)
		if (strstr(name, *words))
			return 1;
	return 0;
}

/* Types and roles of targets not given on the command line: types from
 * the values, roles from the name, the type and the values. */
struct entity {
	char *id;
	struct cell *c;
	size_t nc;
};

static void
infer(struct shape *s, struct entity *e, size_t n)
{
	static const char *const title[] = { "title", NULL };
	static const char *const creator[] = { "artist", "creator", "author",
	    "director", "composer", "band", "developer", NULL };
	static const char *const collection[] = { "album", "collection",
	    "series", NULL };
	static const char *const date[] = { "date", "year", "released",
	    NULL };
	static const char *const pop[] = { "popularity", "plays",
	    "listeners", "playcount", "hotttnesss", NULL };
	static const char *const tags[] = { "tag", "genre", "keyword",
	    "mood", "style", NULL };
	static const char *const text[] = { "description", "lyrics",
	    "summary", "overview", "text", "comment", "plot", NULL };
	size_t j, i, have_title = 0;
	struct rec_hash distinct = {0};

	for (j = 0; j < s->nt; j++) {
		struct target *t = &s->t[j];
		const char *ty = pair_get(o.type, o.ntype, t->name);
		char lower[128];
		int isint = 1, isreal = 1, any = 0;
		size_t k;

		if (t->list)
			strcpy(t->type, "text");
		else if (ty)
			strcpy(t->type, ty);
		else {
			for (i = 0; i < n; i++) {
				if (j >= e[i].nc || !e[i].c[j].n)
					continue;
				any = 1;
				if (isint && !is_integer(e[i].c[j].v.data))
					isint = 0;
				if (!isint && isreal &&
				    !is_real(e[i].c[j].v.data))
					isreal = 0;
				if (!isreal)
					break;
			}
			strcpy(t->type, !any ? "text" : isint ? "integer" :
			    isreal ? "real" : "text");
		}
		if (t->role)
			continue;
		for (k = 0; k < sizeof lower - 1 && t->name[k]; k++)
			lower[k] = (char)(t->name[k] >= 'A' &&
			    t->name[k] <= 'Z' ? t->name[k] + 32 : t->name[k]);
		lower[k] = 0;
		if (k >= 2 && !strcmp(lower + k - 2, "id"))
			t->role = "other";
		else if (contains(lower, creator))
			t->role = "creator";
		else if (contains(lower, collection))
			t->role = "collection";
		else if (t->list)
			t->role = "tags";
		else if ((contains(lower, title) || !strcmp(lower, "name") ||
		    (k > 5 && !strcmp(lower + k - 5, "_name"))) &&
		    !strcmp(t->type, "text") && !have_title++)
			t->role = "title";
		else if (contains(lower, date))
			t->role = "date";
		else if (contains(lower, pop) && strcmp(t->type, "text"))
			t->role = "popularity";
		else if (contains(lower, tags) && !strcmp(t->type, "text"))
			t->role = "category";
		else if (contains(lower, text))
			t->role = "text";
		else if (strcmp(t->type, "text"))
			t->role = "number";
		else {
			/* few distinct short values: a category */
			size_t total = 0;
			rec_hash_free(&distinct);
			for (i = 0; i < n && distinct.n <= 1000; i++)
				if (j < e[i].nc && e[i].c[j].n) {
					rec_hash_put(&distinct, e[i].c[j].v.data,
					    strlen(e[i].c[j].v.data), NULL);
					total++;
				}
			t->role = distinct.n <= 1000 &&
			    distinct.n * 4 <= total ? "category" : "text";
		}
	}
	rec_hash_free(&distinct);
}

/* --- reading a whole file into entities grouped by key --- */

struct group {
	struct shape s;
	struct entity *e;
	size_t n, cap;
	struct rec_hash ids;
	unsigned long rows, bad;
	/* items --interactions: (user, item) pairs, distinct */
	struct rec_hash pairs;
};

static void
free_group(struct group *g)
{
	size_t i, j;

	for (i = 0; i < g->n; i++) {
		for (j = 0; j < g->e[i].nc; j++)
			rec_buf_free(&g->e[i].c[j].v);
		free(g->e[i].c);
		free(g->e[i].id);
	}
	free(g->e);
	for (j = 0; j < g->s.nt; j++) {
		free(g->s.t[j].name);
		free(g->s.t[j].source);
		if (g->s.t[j].isre)
			regfree(&g->s.t[j].re);
	}
	free(g->s.t);
	free(g->s.map);
	rec_hash_free(&g->ids);
	rec_hash_free(&g->pairs);
}

static void
bad_row(struct group *g, const char *msg)
{
	if (!o.skip_bad)
		rec_die("%s", msg);
	g->bad++;
}

/* Reads FILE grouping rows on the key column: normalised when norm. */
static void
read_groups(struct group *g, struct rec_table *tb, const char *keycol,
    int norm)
{
	struct rec_buf key = {0};
	size_t i, member = (size_t)-1;
	int rc, added;

	memset(g, 0, sizeof *g);
	g->s.idcol = rec_table_col(tb, keycol);
	if (g->s.idcol == (size_t)-1 && tb->kind != 'j')
		rec_usage_die("no column '%s' in '%s' (columns: %s%s)", keycol,
		    tb->name, tb->col[0], tb->ncol > 1 ? ", ..." : "");
	update_shape(&g->s, tb);
	add_extracts(&g->s, tb);
	check_names(&g->s, tb);
	if (o.member) {
		member = rec_table_col(tb, o.member);
		if (member == (size_t)-1)
			rec_usage_die("--interactions: no column '%s' in '%s'",
			    o.member, tb->name);
	}
	while ((rc = rec_table_next(tb)) != 0) {
		const char *id;

		if (rc == -1)
			rec_die("%s", tb->err.data);
		if (rc == -2) {
			bad_row(g, tb->err.data);
			continue;
		}
		if (tb->kind == 'j') {
			if (g->s.idcol == (size_t)-1)
				g->s.idcol = rec_table_col(tb, keycol);
			update_shape(&g->s, tb);
		}
		id = g->s.idcol == (size_t)-1 ? NULL :
		    rec_table_get(tb, g->s.idcol);
		if (!id) {
			char msg[300];
			snprintf(msg, sizeof msg, "%s:%lu: no value in the key "
			    "column '%s'", tb->name, tb->line, keycol);
			bad_row(g, msg);
			continue;
		}
		g->rows++;
		rec_buf_reset(&key);
		if (norm)
			rec_norm(&key, id, strlen(id));
		else
			rec_buf_adds(&key, id);
		i = rec_hash_put(&g->ids, key.data ? key.data : "", key.len,
		    &added);
		if (added) {
			if (g->n == g->cap) {
				g->cap = g->cap ? g->cap * 2 : 1024;
				g->e = xrealloc(g->e, g->cap * sizeof *g->e);
			}
			memset(&g->e[i], 0, sizeof g->e[i]);
			g->e[i].id = xstrdup(id);
			g->n++;
		}
		merge_row(&g->s, tb, &g->e[i].c, &g->e[i].nc);
		if (member != (size_t)-1 && rec_table_get(tb, member)) {
			rec_buf_reset(&key);
			rec_buf_adds(&key, rec_table_get(tb, member));
			rec_buf_addc(&key, 0);
			rec_buf_adds(&key, id);
			rec_hash_put(&g->pairs, key.data, key.len, NULL);
		}
	}
	rec_buf_free(&key);
	infer(&g->s, g->e, g->n);
}

/* Binds an entity's cell: a JSON array for lists, else the first value
 * as the column's type. */
static void
bind_cell(sqlite3_stmt *st, int at, const struct target *t,
    const struct cell *c)
{
	struct rec_buf b = {0};
	const char *v;
	uint32_t k;

	if (!c || !c->n) {
		sqlite3_bind_null(st, at);
		return;
	}
	v = c->v.data;
	if (t->list) {
		rec_buf_addc(&b, '[');
		for (k = 0; k < c->n; k++, v += strlen(v) + 1) {
			if (k)
				rec_buf_addc(&b, ',');
			rec_json_string(&b, v, strlen(v));
		}
		rec_buf_addc(&b, ']');
		sqlite3_bind_text(st, at, b.data, (int)b.len, SQLITE_TRANSIENT);
		rec_buf_free(&b);
	} else if (!strcmp(t->type, "integer") && is_integer(v))
		sqlite3_bind_int64(st, at, strtoll(v, NULL, 10));
	else if (strcmp(t->type, "text") && is_real(v))
		sqlite3_bind_double(st, at, strtod(v, NULL));
	else
		sqlite3_bind_text(st, at, v, -1, SQLITE_TRANSIENT);
}

static const char *
decl(const struct target *t)
{
	if (!strcmp(t->type, "integer"))
		return "INTEGER";
	if (!strcmp(t->type, "real"))
		return "REAL";
	return "TEXT COLLATE NOCASE";
}

static int
indexed_role(const char *role)
{
	return !strcmp(role, "creator") || !strcmp(role, "collection") ||
	    !strcmp(role, "date") || !strcmp(role, "popularity") ||
	    !strcmp(role, "category") || !strcmp(role, "number");
}

static void
record_columns(sqlite3 *db, const struct shape *s, int position)
{
	sqlite3_stmt *st;
	size_t j;

	if (sqlite3_prepare_v2(db, "INSERT INTO columns(name, type, role, "
	    "list, position, source) VALUES(?, ?, ?, ?, ?, ?)", -1, &st,
	    NULL) != SQLITE_OK)
		rec_sqlite_die(db, "columns");
	for (j = 0; j < s->nt; j++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, s->t[j].name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, s->t[j].type, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, s->t[j].role, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 4, s->t[j].list);
		sqlite3_bind_int(st, 5, position + (int)j);
		sqlite3_bind_text(st, 6, s->t[j].source, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rec_die("column '%s': %s", s->t[j].name,
			    sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
}

static void
make_indexes(sqlite3 *db, const struct shape *s)
{
	struct rec_buf sql = {0};
	size_t j;

	for (j = 0; j < s->nt; j++)
		if (!s->t[j].list && indexed_role(s->t[j].role))
			rec_buf_printf(&sql, "CREATE INDEX \"items_%s\" ON "
			    "items(\"%s\");", s->t[j].name, s->t[j].name);
	if (sql.len)
		rec_sql_exec(db, sql.data, "indexes");
	rec_buf_free(&sql);
}

static unsigned long
insert_pairs(sqlite3 *db, const struct rec_hash *pairs)
{
	sqlite3_stmt *st, *us;
	size_t i;

	if (sqlite3_prepare_v2(db, "INSERT INTO interactions(user, item, "
	    "weight) VALUES(?, ?, 1)", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO users(id) "
	    "VALUES(?)", -1, &us, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "interactions");
	for (i = 0; i < pairs->n; i++) {
		const char *user = pairs->key[i];
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, user + strlen(user) + 1, -1,
		    SQLITE_STATIC);
		sqlite3_reset(us);
		sqlite3_bind_text(us, 1, user, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE ||
		    sqlite3_step(us) != SQLITE_DONE)
			rec_sqlite_die(db, "interactions");
	}
	sqlite3_finalize(st);
	sqlite3_finalize(us);
	return (unsigned long)pairs->n;
}

static void
interaction_indexes(sqlite3 *db)
{
	rec_sql_exec(db, "DROP INDEX IF EXISTS interactions_user;"
	    "DROP INDEX IF EXISTS interactions_item;"
	    "CREATE INDEX interactions_user ON interactions(user);"
	    "CREATE INDEX interactions_item ON interactions(item)",
	    "indexes");
}

/* adds to the items the column name that rec-import derives from the
 * data (source, in brackets), indexed, after the others */
static void
derived_column(sqlite3 *db, const char *name, const char *decl,
    const char *type, const char *role, const char *source)
{
	struct rec_buf sql = {0};

	rec_buf_printf(&sql, "ALTER TABLE items ADD COLUMN \"%s\" %s; INSERT "
	    "INTO columns(name, type, role, list, position, source) SELECT "
	    "'%s', '%s', '%s', 0, coalesce(max(position), 0) + 1, '%s' FROM "
	    "columns; CREATE INDEX \"items_%s\" ON items(\"%s\")", name, decl,
	    name, type, role, source, name, name);
	rec_sql_exec(db, sql.data, name);
	rec_buf_free(&sql);
}

/* pow(0.5, x): an interaction x half-lives old */
static void
fn_halves(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	sqlite3_result_double(ctx, pow(0.5, sqlite3_value_double(argv[0])));
}

/* How many users each item has, as the items column "interactions"
 * (role popularity), and their mean weight as "mean_weight" (a rating,
 * where weights are ratings): a catalog whose only popularity is its
 * interactions has one for the planner's "popular" and "best".  Where
 * the interactions have times, "recent" counts each one half as much
 * for every year (of seconds) it is older than the latest, and is the
 * popularity instead: what people watch or play now, not what they did
 * twenty years ago (an interaction without a time counts one).  Kept
 * up to date by every step that adds interactions; a column of the
 * data with one of these names is left alone. */
static void
interaction_counts(sqlite3 *db)
{
	static const char *const cols[] = { "interactions", "mean_weight",
	    "recent" };
	static const char *const decls[] = { "INTEGER", "REAL", "REAL" };
	static const char *const types[] = { "integer", "real", "real" };
	static const char *const roles[] = { "popularity", "number",
	    "popularity" };
	static const char *const fill[] = {
	    "(SELECT count(DISTINCT user) FROM interactions WHERE item = "
	    "items.id)",
	    "(SELECT avg(weight) FROM interactions WHERE item = items.id)",
	    "(SELECT coalesce(sum(CASE WHEN time IS NULL THEN 1 ELSE "
	    "halves((m.t - time) / 31557600.0) END), 0) FROM interactions, "
	    "(SELECT max(time) AS t FROM interactions) AS m WHERE item = "
	    "items.id)" };
	struct rec_buf sql = {0};
	sqlite3_stmt *st;
	size_t i, n = 2;
	int ours[3] = {0};

	/* times to go by */
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM interactions WHERE time IS "
	    "NOT NULL LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "interactions");
	if (sqlite3_step(st) == SQLITE_ROW)
		n = 3;
	sqlite3_finalize(st);
	sqlite3_create_function(db, "halves", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, fn_halves, NULL, NULL);
	for (i = 0; i < n; i++) {
		int have = 0;
		if (sqlite3_prepare_v2(db, "SELECT source FROM columns WHERE "
		    "name = ?", -1, &st, NULL) != SQLITE_OK)
			rec_sqlite_die(db, "columns");
		sqlite3_bind_text(st, 1, cols[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			have = 1;
			ours[i] = sqlite3_column_text(st, 0) &&
			    !strcmp((const char *)sqlite3_column_text(st, 0),
			    "(interactions)");
		}
		sqlite3_finalize(st);
		if (have && !ours[i])
			continue;
		if (!have)
			derived_column(db, cols[i], decls[i], types[i], roles[i],
			    "(interactions)");
		ours[i] = 1;
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "UPDATE items SET \"%s\" = %s", cols[i],
		    fill[i]);
		rec_sql_exec(db, sql.data, "counting interactions");
	}
	/* one popularity of the interactions: the recent one */
	if (ours[0] && ours[2])
		rec_sql_exec(db, "UPDATE columns SET role = 'number' WHERE "
		    "name = 'interactions'", "columns");
	rec_buf_free(&sql);
}

/* How many items of the catalog are the same song, as the items column
 * "releases" (source "(releases)"): items whose title and first creator
 * give one key as rec-rank -U title,creator makes it (a single, its
 * album, a compilation, a remaster).  A song on many releases is a
 * well-known one: the planner breaks ties of popularity with it (a
 * creator's songs, where the catalog's popularity is the creator's).
 * Only for a catalog with a title and a creator; a column of the data
 * with the name is left alone. */
static void
release_counts(sqlite3 *db)
{
	char *title = rec_catalog_role(db, "title"),
	    *creator = rec_catalog_role(db, "creator");
	struct rec_buf sql = {0}, k = {0};
	struct rec_hash h = {0};
	sqlite3_stmt *st, *up;
	int64_t *rowid = NULL;
	size_t *key = NULL, n = 0, cap = 0, i;

	if (!title || !creator || rec_catalog_column(db, "releases", NULL,
	    NULL, 0))
		goto out;
	h.vsize = sizeof(size_t);
	rec_buf_printf(&sql, "SELECT rowid, \"%s\", \"%s\" FROM items", title,
	    creator);
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "items");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 1),
		    *c = (const char *)sqlite3_column_text(st, 2);
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			rowid = xrealloc(rowid, cap * sizeof *rowid);
			key = xrealloc(key, cap * sizeof *key);
		}
		rec_buf_reset(&k);
		rec_song_key(&k, t ? t : "", 0);
		rec_buf_addc(&k, '\x1f');
		rec_song_key(&k, c ? c : "", 1);
		rowid[n] = sqlite3_column_int64(st, 0);
		key[n] = rec_hash_put(&h, k.data, k.len, NULL);
		((size_t *)h.val)[key[n]]++;
		n++;
	}
	sqlite3_finalize(st);
	derived_column(db, "releases", "INTEGER", "integer", "number",
	    "(releases)");
	if (sqlite3_prepare_v2(db, "UPDATE items SET \"releases\" = ? WHERE "
	    "rowid = ?", -1, &up, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "items");
	for (i = 0; i < n; i++) {
		sqlite3_reset(up);
		sqlite3_bind_int64(up, 1, (int64_t)((size_t *)h.val)[key[i]]);
		sqlite3_bind_int64(up, 2, rowid[i]);
		if (sqlite3_step(up) != SQLITE_DONE)
			rec_sqlite_die(db, "items");
	}
	sqlite3_finalize(up);
out:
	free(rowid);
	free(key);
	rec_hash_free(&h);
	rec_buf_free(&k);
	rec_buf_free(&sql);
	free(title);
	free(creator);
}

static void
do_items(void)
{
	struct rec_table tb;
	struct group g;
	struct rec_buf sql = {0};
	sqlite3 *db;
	sqlite3_stmt *st;
	size_t i, j;
	unsigned long pairs = 0;

	rec_table_open(&tb, o.file, o.kind, o.latin1, o.nulls);
	read_groups(&g, &tb, o.id ? o.id : tb.kind == 'j' ||
	    rec_table_col(&tb, "id") != (size_t)-1 ? "id" : tb.col[0], 0);
	if (!g.n)
		rec_die("%s: no items (%lu rows, %lu bad)", tb.name, g.rows,
		    g.bad);
	db = rec_catalog_edit(o.db, 1, o.force);
	rec_buf_adds(&sql, "CREATE TABLE items(id TEXT PRIMARY KEY NOT NULL");
	for (j = 0; j < g.s.nt; j++)
		rec_buf_printf(&sql, ", \"%s\" %s", g.s.t[j].name,
		    decl(&g.s.t[j]));
	rec_buf_adds(&sql, ")");
	rec_sql_exec(db, sql.data, "items");
	rec_buf_reset(&sql);
	rec_buf_adds(&sql, "INSERT INTO items VALUES(?");
	for (j = 0; j < g.s.nt; j++)
		rec_buf_adds(&sql, ", ?");
	rec_buf_adds(&sql, ")");
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "items");
	for (i = 0; i < g.n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, g.e[i].id, -1, SQLITE_STATIC);
		for (j = 0; j < g.s.nt; j++)
			bind_cell(st, (int)j + 2, &g.s.t[j],
			    j < g.e[i].nc ? &g.e[i].c[j] : NULL);
		if (sqlite3_step(st) != SQLITE_DONE)
			rec_die("item '%s': %s", g.e[i].id,
			    sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	record_columns(db, &g.s, 1);
	make_indexes(db, &g.s);
	release_counts(db);
	if (o.member) {
		pairs = insert_pairs(db, &g.pairs);
		interaction_indexes(db);
		interaction_counts(db);
	}
	rec_catalog_save(db);
	if (o.verbose) {
		fprintf(stderr, "%s: %s: %zu items from %lu rows",
		    rec_progname, o.db, g.n, g.rows);
		if (o.member)
			fprintf(stderr, ", %lu interactions", pairs);
		fprintf(stderr, ", %lu bad rows skipped\n", g.bad);
	}
	rec_buf_free(&sql);
	free_group(&g);
	rec_table_close(&tb);
}

/* Loads the items' ids, to check that interactions name real items. */
static void
load_ids(sqlite3 *db, struct rec_hash *h)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "SELECT id FROM items", -1, &st, NULL) !=
	    SQLITE_OK)
		rec_sqlite_die(db, "items");
	while (sqlite3_step(st) == SQLITE_ROW)
		rec_hash_put(h, (const char *)sqlite3_column_text(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), NULL);
	sqlite3_finalize(st);
}

static size_t
need_col(const struct rec_table *tb, const char *name, const char *opt)
{
	size_t i;

	if (!name)
		rec_usage_die("interactions: %s is required", opt);
	i = rec_table_col(tb, name);
	if (i == (size_t)-1 && tb->kind != 'j')
		rec_usage_die("%s: no column '%s' in '%s'", opt, name,
		    tb->name);
	return i;
}

static void
do_interactions(void)
{
	struct rec_table tb;
	struct rec_hash ids = {0};
	struct group g = {0};
	sqlite3 *db;
	sqlite3_stmt *st, *us;
	size_t cu, ci, cw = (size_t)-1, ct = (size_t)-1;
	char msg[400];
	int rc;

	rec_table_open(&tb, o.file, o.kind, o.latin1, o.nulls);
	cu = need_col(&tb, o.user, "--user");
	ci = need_col(&tb, o.id, "--id");
	if (o.weight)
		cw = need_col(&tb, o.weight, "--weight");
	if (o.time)
		ct = need_col(&tb, o.time, "--time");
	db = rec_catalog_edit(o.db, 0, 0);
	load_ids(db, &ids);
	if (sqlite3_prepare_v2(db, "INSERT INTO interactions(user, item, "
	    "weight, time) VALUES(?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO users(id) "
	    "VALUES(?)", -1, &us, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "interactions");
	while ((rc = rec_table_next(&tb)) != 0) {
		const char *u, *it, *w = NULL, *t = NULL;

		if (rc == -1)
			rec_die("%s", tb.err.data);
		if (rc == -2) {
			bad_row(&g, tb.err.data);
			continue;
		}
		if (tb.kind == 'j') {
			cu = rec_table_col(&tb, o.user);
			ci = rec_table_col(&tb, o.id);
			cw = o.weight ? rec_table_col(&tb, o.weight) : cw;
			ct = o.time ? rec_table_col(&tb, o.time) : ct;
		}
		u = rec_table_get(&tb, cu);
		it = rec_table_get(&tb, ci);
		if (cw != (size_t)-1)
			w = rec_table_get(&tb, cw);
		if (ct != (size_t)-1)
			t = rec_table_get(&tb, ct);
		msg[0] = 0;
		if (!u || !it)
			snprintf(msg, sizeof msg, "%s:%lu: no %s", tb.name,
			    tb.line, !u ? "user" : "item");
		else if (rec_hash_get(&ids, it, strlen(it)) == (size_t)-1)
			snprintf(msg, sizeof msg, "%s:%lu: item '%.100s' is not "
			    "in the catalog", tb.name, tb.line, it);
		else if (w && !is_real(w))
			snprintf(msg, sizeof msg, "%s:%lu: weight '%.40s' is "
			    "not a number", tb.name, tb.line, w);
		else if (t && !is_real(t))
			snprintf(msg, sizeof msg, "%s:%lu: time '%.40s' is "
			    "not a number", tb.name, tb.line, t);
		if (msg[0]) {
			bad_row(&g, msg);
			continue;
		}
		g.rows++;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, u, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, it, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 3, w ? strtod(w, NULL) : 1.0);
		if (t)
			sqlite3_bind_int64(st, 4, (sqlite3_int64)strtod(t,
			    NULL));
		else
			sqlite3_bind_null(st, 4);
		sqlite3_reset(us);
		sqlite3_bind_text(us, 1, u, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE ||
		    sqlite3_step(us) != SQLITE_DONE)
			rec_sqlite_die(db, "interactions");
	}
	sqlite3_finalize(st);
	sqlite3_finalize(us);
	interaction_indexes(db);
	interaction_counts(db);
	rec_catalog_save(db);
	if (o.verbose)
		fprintf(stderr, "%s: %s: %lu interactions, %lu bad rows "
		    "skipped\n", rec_progname, o.db, g.rows, g.bad);
	rec_hash_free(&ids);
	rec_table_close(&tb);
}

/* Adds the shape's columns to table and fills them from the groups:
 * join matches on the normalised column on, users on id. */
static void
add_columns(sqlite3 *db, const char *table, struct group *g,
    const char *on, int *matched)
{
	struct rec_buf sql = {0}, key = {0};
	sqlite3_stmt *sel, *up;
	size_t j, i;
	int pos = 1;

	if (sqlite3_prepare_v2(db, "SELECT coalesce(max(position), 0) + 1 "
	    "FROM columns", -1, &sel, NULL) == SQLITE_OK &&
	    sqlite3_step(sel) == SQLITE_ROW)
		pos = sqlite3_column_int(sel, 0);
	sqlite3_finalize(sel);
	for (j = 0; j < g->s.nt; j++) {
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "ALTER TABLE %s ADD COLUMN \"%s\" %s",
		    table, g->s.t[j].name, decl(&g->s.t[j]));
		if (sqlite3_exec(db, sql.data, NULL, NULL, NULL) != SQLITE_OK)
			rec_die("cannot add column '%s' to %s: %s",
			    g->s.t[j].name, table, sqlite3_errmsg(db));
	}
	if (!strcmp(table, "items")) {
		record_columns(db, &g->s, pos);
		make_indexes(db, &g->s);
	}
	rec_buf_reset(&sql);
	rec_buf_printf(&sql, "UPDATE %s SET ", table);
	for (j = 0; j < g->s.nt; j++)
		rec_buf_printf(&sql, "%s\"%s\" = ?", j ? ", " : "",
		    g->s.t[j].name);
	rec_buf_adds(&sql, " WHERE id = ?");
	if (sqlite3_prepare_v2(db, sql.data, -1, &up, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "update");
	rec_buf_reset(&sql);
	rec_buf_printf(&sql, "SELECT id, \"%s\" FROM %s", on, table);
	if (sqlite3_prepare_v2(db, sql.data, -1, &sel, NULL) != SQLITE_OK)
		rec_die("no column '%s' in %s", on, table);
	*matched = 0;
	while (sqlite3_step(sel) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(sel, 1);
		if (!v)
			continue;
		rec_buf_reset(&key);
		if (strcmp(table, "users"))
			rec_norm(&key, v, strlen(v));
		else
			rec_buf_adds(&key, v);
		i = rec_hash_get(&g->ids, key.data ? key.data : "", key.len);
		if (i == (size_t)-1 && strcmp(table, "users")) {
			/* "Shaggy, Sean Paul", "A feat. B": the first name */
			rec_buf_reset(&key);
			rec_song_key(&key, v, 1);
			i = rec_hash_get(&g->ids, key.data ? key.data : "",
			    key.len);
		}
		if (i == (size_t)-1)
			continue;
		sqlite3_reset(up);
		for (j = 0; j < g->s.nt; j++)
			bind_cell(up, (int)j + 1, &g->s.t[j],
			    j < g->e[i].nc ? &g->e[i].c[j] : NULL);
		sqlite3_bind_text(up, (int)g->s.nt + 1,
		    (const char *)sqlite3_column_text(sel, 0), -1,
		    SQLITE_TRANSIENT);
		if (sqlite3_step(up) != SQLITE_DONE)
			rec_sqlite_die(db, "update");
		(*matched)++;
	}
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	rec_buf_free(&sql);
	rec_buf_free(&key);
}

static void
do_join(void)
{
	struct rec_table tb;
	struct group g;
	sqlite3 *db;
	int matched;

	if (!o.key || !o.on)
		rec_usage_die("join: --key and --on are required");
	rec_table_open(&tb, o.file, o.kind, o.latin1, o.nulls);
	read_groups(&g, &tb, o.key, 1);
	db = rec_catalog_edit(o.db, 0, 0);
	add_columns(db, "items", &g, o.on, &matched);
	rec_catalog_save(db);
	if (o.verbose)
		fprintf(stderr, "%s: %s: joined %zu keys from %lu rows; %d "
		    "items matched, %lu bad rows skipped\n", rec_progname,
		    o.db, g.n, g.rows, matched, g.bad);
	free_group(&g);
	rec_table_close(&tb);
}

/* --- vectors --- */

static void
vec_tables(sqlite3 *db)
{
	rec_sql_exec(db, "CREATE TABLE IF NOT EXISTS spaces(name TEXT PRIMARY "
	    "KEY, dim INTEGER NOT NULL, source TEXT);"
	    "CREATE TABLE IF NOT EXISTS vectors(space TEXT NOT NULL, id TEXT "
	    "NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(space, id)) WITHOUT "
	    "ROWID", "vectors");
}

/* ids, one per line, for .npy and .fvecs files */
static char **
read_ids(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL, **v = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!fp)
		rec_die("cannot open '%s': %m", path);
	*n = 0;
	while ((len = getline(&line, &cap, fp)) > 0) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		v = xrealloc(v, (*n + 1) * sizeof *v);
		v[(*n)++] = xstrdup(line);
	}
	free(line);
	fclose(fp);
	return v;
}

struct vecset {
	char **id;
	float *v;
	size_t n, dim;
};

static void
vec_add(struct vecset *s, const char *id, const float *v)
{
	s->id = xrealloc(s->id, (s->n + 1) * sizeof *s->id);
	s->v = xrealloc(s->v, (s->n + 1) * s->dim * sizeof *s->v);
	s->id[s->n] = xstrdup(id);
	memcpy(s->v + s->n * s->dim, v, s->dim * sizeof *v);
	s->n++;
}

static void
vec_jsonl(struct vecset *s, const char *path)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct rec_buf pack = {0}, err = {0};
	char *line = NULL;
	size_t cap = 0, off;
	unsigned long ln = 0;
	ssize_t len;
	msgpack_zone z;
	msgpack_object o;
	float *tmp = NULL;

	if (!fp)
		rec_die("cannot open '%s': %m", path);
	msgpack_zone_init(&z, 4096);
	while ((len = getline(&line, &cap, fp)) > 0) {
		const msgpack_object *id, *vec;
		uint32_t i;
		ln++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (!len)
			continue;
		rec_buf_reset(&pack);
		if (rec_json_to_msgpack(line, (size_t)len, &pack, NULL, &err))
			rec_die("%s:%lu: %s", path, ln, err.data);
		off = 0;
		msgpack_zone_clear(&z);
		msgpack_unpack(pack.data, pack.len, &off, &z, &o);
		id = rec_map_get(&o, "id");
		vec = rec_map_get(&o, "vec");
		if (!id || id->type != MSGPACK_OBJECT_STR || !id->via.str.size)
			rec_die("%s:%lu: no string \"id\"", path, ln);
		if (memchr(id->via.str.ptr, 0, id->via.str.size))
			rec_die("%s:%lu: NUL in field 'id'", path, ln);
		if (!vec || vec->type != MSGPACK_OBJECT_ARRAY ||
		    !vec->via.array.size)
			rec_die("%s:%lu: no \"vec\" array", path, ln);
		if (!s->dim) {
			s->dim = vec->via.array.size;
			tmp = xmalloc(s->dim * sizeof *tmp);
		}
		if (vec->via.array.size != s->dim)
			rec_die("%s:%lu: dimension %u, expected %zu", path, ln,
			    vec->via.array.size, s->dim);
		for (i = 0; i < s->dim; i++) {
			const msgpack_object *e = &vec->via.array.ptr[i];
			if (e->type == MSGPACK_OBJECT_FLOAT64 ||
			    e->type == MSGPACK_OBJECT_FLOAT32)
				tmp[i] = (float)e->via.f64;
			else if (e->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
				tmp[i] = (float)e->via.u64;
			else if (e->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
				tmp[i] = (float)e->via.i64;
			else
				rec_die("%s:%lu: vec[%u] is not a number", path,
				    ln, i);
		}
		{
			char *idc = xstrndup(id->via.str.ptr, id->via.str.size);
			vec_add(s, idc, tmp);
			free(idc);
		}
	}
	free(tmp);
	free(line);
	msgpack_zone_destroy(&z);
	rec_buf_free(&pack);
	rec_buf_free(&err);
	if (fp != stdin)
		fclose(fp);
}

/* .npy version 1-3, little-endian float32, C order, 2 dimensions */
static void
vec_npy(struct vecset *s, const char *path, char **ids, size_t nids)
{
	FILE *fp = fopen(path, "rb");
	unsigned char pre[10];
	char *hdr, *p;
	size_t hlen, rows, cols, i;
	float *row;

	if (!fp)
		rec_die("cannot open '%s': %m", path);
	if (fread(pre, 1, 10, fp) != 10 || memcmp(pre, "\x93NUMPY", 6))
		rec_die("%s: not a .npy file", path);
	if (pre[6] == 1)
		hlen = pre[8] | (size_t)pre[9] << 8;
	else {
		unsigned char b[2];
		if (fread(b, 1, 2, fp) != 2)
			rec_die("%s: truncated header", path);
		hlen = (pre[8] | (size_t)pre[9] << 8 | (size_t)b[0] << 16 |
		    (size_t)b[1] << 24) - 2;
	}
	if (hlen > 1 << 20)
		rec_die("%s: header too long", path);
	hdr = xcalloc(hlen + 1, 1);
	if (fread(hdr, 1, hlen, fp) != hlen)
		rec_die("%s: truncated header", path);
	for (p = hdr + strlen(hdr); p > hdr && (p[-1] == ' ' || p[-1] == '\n');)
		*--p = 0;	/* the padding */
	if (!strstr(hdr, "'<f4'"))
		rec_die("%s: not float32 ('<f4'): %s", path, hdr);
	if (strstr(hdr, "'fortran_order': True"))
		rec_die("%s: Fortran order is not supported", path);
	p = strstr(hdr, "'shape':");
	if (!p || sscanf(p, "'shape': (%zu, %zu)", &rows, &cols) != 2)
		rec_die("%s: expected a 2-dimensional array: %s", path, hdr);
	if (rows != nids)
		rec_die("%s: %zu rows but %zu ids", path, rows, nids);
	s->dim = cols;
	row = xmalloc(cols * sizeof *row + 1);
	for (i = 0; i < rows; i++) {
		if (fread(row, sizeof *row, cols, fp) != cols)
			rec_die("%s: truncated at row %zu", path, i + 1);
		vec_add(s, ids[i], row);
	}
	free(row);
	free(hdr);
	fclose(fp);
}

static void
vec_fvecs(struct vecset *s, const char *path, char **ids, size_t nids)
{
	FILE *fp = fopen(path, "rb");
	int32_t d;
	float *row = NULL;
	size_t i = 0;

	if (!fp)
		rec_die("cannot open '%s': %m", path);
	while (fread(&d, 4, 1, fp) == 1) {
		if (d <= 0 || d > 1 << 16)
			rec_die("%s: vector %zu: bad dimension %d", path, i + 1,
			    d);
		if (!s->dim) {
			s->dim = (size_t)d;
			row = xmalloc(s->dim * sizeof *row);
		}
		if ((size_t)d != s->dim)
			rec_die("%s: vector %zu: dimension %d, expected %zu",
			    path, i + 1, d, s->dim);
		if (fread(row, 4, s->dim, fp) != s->dim)
			rec_die("%s: vector %zu is truncated", path, i + 1);
		if (i >= nids)
			rec_die("%s: more vectors than the %zu ids", path, nids);
		vec_add(s, ids[i++], row);
	}
	if (i != nids)
		rec_die("%s: %zu vectors but %zu ids", path, i, nids);
	free(row);
	fclose(fp);
}

/* a space from numeric item columns, each standardised (z-scores;
 * missing values at the mean) */
static void
vec_columns(struct vecset *s, sqlite3 *db, const char *list)
{
	struct rec_buf sql = {0};
	char *copy = xstrdup(list), *tok, *save = NULL;
	char **cols = NULL;
	size_t n = 0, i;
	double *mean, *sd;
	float *row;
	sqlite3_stmt *st;

	for (tok = strtok_r(copy, ",", &save); tok;
	    tok = strtok_r(NULL, ",", &save)) {
		char type[16];
		if (!rec_catalog_column(db, tok, NULL, type, sizeof type))
			rec_usage_die("--columns: no column '%s'", tok);
		if (!strcmp(type, "text"))
			rec_usage_die("--columns: '%s' is not numeric", tok);
		cols = xrealloc(cols, (n + 1) * sizeof *cols);
		cols[n++] = xstrdup(tok);
	}
	mean = xcalloc(n, sizeof *mean);
	sd = xcalloc(n, sizeof *sd);
	for (i = 0; i < n; i++) {
		rec_buf_reset(&sql);
		rec_buf_printf(&sql, "SELECT avg(\"%s\"), avg(\"%s\" * \"%s\") "
		    "FROM items", cols[i], cols[i], cols[i]);
		if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL) ||
		    sqlite3_step(st) != SQLITE_ROW)
			rec_sqlite_die(db, "columns");
		mean[i] = sqlite3_column_double(st, 0);
		sd[i] = sqrt(fmax(sqlite3_column_double(st, 1) -
		    mean[i] * mean[i], 0));
		if (sd[i] == 0)
			sd[i] = 1;
		sqlite3_finalize(st);
	}
	rec_buf_reset(&sql);
	rec_buf_adds(&sql, "SELECT id");
	for (i = 0; i < n; i++)
		rec_buf_printf(&sql, ", \"%s\"", cols[i]);
	rec_buf_adds(&sql, " FROM items ORDER BY rowid");
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL))
		rec_sqlite_die(db, "columns");
	s->dim = n;
	row = xmalloc(n * sizeof *row + 1);
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (i = 0; i < n; i++)
			row[i] = sqlite3_column_type(st, (int)i + 1) ==
			    SQLITE_NULL ? 0 : (float)((sqlite3_column_double(st,
			    (int)i + 1) - mean[i]) / sd[i]);
		vec_add(s, (const char *)sqlite3_column_text(st, 0), row);
	}
	sqlite3_finalize(st);
	for (i = 0; i < n; i++)
		free(cols[i]);
	free(cols);
	free(copy);
	free(mean);
	free(sd);
	free(row);
	rec_buf_free(&sql);
}

/* a space from an /embeddings endpoint: each item's text columns */
static void
vec_embed(struct vecset *s, sqlite3 *db, const char *list)
{
	struct rec_buf sql = {0}, err = {0};
	char *copy = xstrdup(list), *tok, *save = NULL;
	char **txt = NULL, **idv = NULL;
	size_t n = 0, cap = 0, i, dim, b;
	sqlite3_stmt *st;
	float *v;

	rec_buf_adds(&sql, "SELECT id, ''");
	for (tok = strtok_r(copy, ",", &save); tok;
	    tok = strtok_r(NULL, ",", &save)) {
		if (!rec_catalog_column(db, tok, NULL, NULL, 0))
			rec_usage_die("--embed: no column '%s'", tok);
		rec_buf_printf(&sql, " || coalesce(\"%s\", '') || ' '", tok);
	}
	rec_buf_adds(&sql, " FROM items ORDER BY rowid");
	if (sqlite3_prepare_v2(db, sql.data, -1, &st, NULL))
		rec_sqlite_die(db, "items");
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			txt = xrealloc(txt, cap * sizeof *txt);
			idv = xrealloc(idv, cap * sizeof *idv);
		}
		idv[n] = xstrdup((const char *)sqlite3_column_text(st, 0));
		txt[n++] = xstrdup((const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	for (b = 0; b < n; b += 64) {
		size_t m = n - b < 64 ? n - b : 64;
		if (rec_llm_embed((const char *const *)txt + b, m, &v, &dim,
		    &err) < 0)
			rec_die("vectors: %s", err.data);
		if (s->dim && dim != s->dim)
			rec_die("vectors: the server changed dimension (%zu, "
			    "then %zu)", s->dim, dim);
		s->dim = dim;
		for (i = 0; i < m; i++)
			vec_add(s, idv[b + i], v + i * dim);
		free(v);
	}
	for (i = 0; i < n; i++) {
		free(txt[i]);
		free(idv[i]);
	}
	free(txt);
	free(idv);
	free(copy);
	rec_buf_free(&sql);
	rec_buf_free(&err);
}

static void
do_vectors(void)
{
	struct vecset s = {0};
	struct rec_hash ids = {0};
	sqlite3 *db;
	sqlite3_stmt *st;
	char **fids = NULL;
	size_t nfids = 0, i;
	const char *dot;
	unsigned long bad = 0;

	if (!o.space)
		rec_usage_die("vectors: --space is required");
	if (!o.columns && !o.file && !o.embed)
		rec_usage_die("vectors: give a FILE, --columns or --embed");
	db = rec_catalog_edit(o.db, 0, 0);
	vec_tables(db);
	if (o.embed)
		vec_embed(&s, db, o.embed);
	else if (o.columns)
		vec_columns(&s, db, o.columns);
	else {
		dot = strrchr(o.file, '.');
		if (dot && (!strcmp(dot, ".npy") || !strcmp(dot, ".fvecs"))) {
			if (!o.ids)
				rec_usage_die("vectors: %s needs --ids FILE (one "
				    "id per line)", dot);
			fids = read_ids(o.ids, &nfids);
			if (!strcmp(dot, ".npy"))
				vec_npy(&s, o.file, fids, nfids);
			else
				vec_fvecs(&s, o.file, fids, nfids);
		} else
			vec_jsonl(&s, o.file);
	}
	if (!s.n)
		rec_die("vectors: no vectors in '%s'", o.columns || o.embed ?
		    "items" : o.file);
	load_ids(db, &ids);
	rec_sql_exec(db, "SAVEPOINT v", "vectors");
	if (sqlite3_prepare_v2(db, "DELETE FROM vectors WHERE space = ?", -1,
	    &st, NULL))
		rec_sqlite_die(db, "vectors");
	sqlite3_bind_text(st, 1, o.space, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO spaces VALUES(?, ?, "
	    "?)", -1, &st, NULL))
		rec_sqlite_die(db, "spaces");
	sqlite3_bind_text(st, 1, o.space, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)s.dim);
	sqlite3_bind_text(st, 3, o.embed ? "embeddings" : o.columns ?
	    o.columns : o.file, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO vectors VALUES(?, "
	    "?, ?)", -1, &st, NULL))
		rec_sqlite_die(db, "vectors");
	for (i = 0; i < s.n; i++) {
		if (rec_hash_get(&ids, s.id[i], strlen(s.id[i])) ==
		    (size_t)-1) {
			if (!o.skip_bad)
				rec_die("vectors: id '%s' is not in the catalog",
				    s.id[i]);
			bad++;
			continue;
		}
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, o.space, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, s.id[i], -1, SQLITE_STATIC);
		sqlite3_bind_blob(st, 3, s.v + i * s.dim, (int)(s.dim * 4),
		    SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rec_sqlite_die(db, "vectors");
	}
	sqlite3_finalize(st);
	rec_sql_exec(db, "RELEASE v", "vectors");
	rec_catalog_save(db);
	if (o.verbose)
		fprintf(stderr, "%s: %s: space '%s': %zu vectors of dimension "
		    "%zu, %lu skipped\n", rec_progname, o.db, o.space,
		    s.n - bad, s.dim, bad);
	for (i = 0; i < s.n; i++)
		free(s.id[i]);
	for (i = 0; i < nfids; i++)
		free(fids[i]);
	free(fids);
	free(s.id);
	free(s.v);
	rec_hash_free(&ids);
}

static void
do_users(void)
{
	struct rec_table tb;
	struct group g;
	sqlite3 *db;
	sqlite3_stmt *st;
	size_t i;
	int matched;

	rec_table_open(&tb, o.file, o.kind, o.latin1, o.nulls);
	read_groups(&g, &tb, o.id ? o.id : tb.kind == 'j' ||
	    rec_table_col(&tb, "id") != (size_t)-1 ? "id" : tb.col[0], 0);
	db = rec_catalog_edit(o.db, 0, 0);
	if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO users(id) "
	    "VALUES(?)", -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "users");
	for (i = 0; i < g.n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, g.e[i].id, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rec_sqlite_die(db, "users");
	}
	sqlite3_finalize(st);
	add_columns(db, "users", &g, "id", &matched);
	rec_catalog_save(db);
	if (o.verbose)
		fprintf(stderr, "%s: %s: %zu users, %lu bad rows skipped\n",
		    rec_progname, o.db, g.n, g.bad);
	free_group(&g);
	rec_table_close(&tb);
}

/* --- steps and the options each takes --- */

enum {
	ITEMS = 1, INTERACTIONS = 2, USERS = 4, JOIN = 8, VECTORS = 16,
	ALL = 31,
	TABLES = ITEMS | INTERACTIONS | USERS | JOIN,	/* they read a table */
	SHAPED = ITEMS | USERS | JOIN	/* they add columns from a table */
};

/* The steps, in the order usage() lists them: the dispatcher and every
 * message that names the steps read this table. */
static const struct step {
	const char *name;
	unsigned bit;
	void (*run)(void);
} steps[] = {
	{ "items", ITEMS, do_items },
	{ "interactions", INTERACTIONS, do_interactions },
	{ "users", USERS, do_users },
	{ "join", JOIN, do_join },
	{ "vectors", VECTORS, do_vectors },
};

/* Every option and the steps it applies to.  getopt's long options and
 * short letters are built from it, and an option given to a step it
 * does not apply to is a usage error, so an option is never silently
 * ignored.  usage() and the SYNOPSIS of rec-import(1) say the same
 * (tests/import.t checks all three agree). */
static const struct opt {
	const char *name;
	int arg, c;
	unsigned steps;
} opts[] = {
	{ "db", required_argument, 'd', ALL },
	{ "format", required_argument, 'F', TABLES },
	{ "encoding", required_argument, 'e', TABLES },
	{ "null", required_argument, 'N', TABLES },
	{ "skip-bad", no_argument, 's', ALL },
	{ "force", no_argument, 'f', ITEMS },
	{ "verbose", no_argument, 'v', ALL },
	{ "id", required_argument, 'i', ITEMS | INTERACTIONS | USERS },
	{ "item", required_argument, 'i', ITEMS | INTERACTIONS | USERS },
	{ "rename", required_argument, 'R', SHAPED },
	{ "drop", required_argument, 'x', SHAPED },
	{ "list", required_argument, 'l', SHAPED },
	{ "split", required_argument, 'S', SHAPED },
	{ "extract", required_argument, 'X', SHAPED },
	{ "role", required_argument, 'r', ITEMS | JOIN },
	{ "type", required_argument, 't', SHAPED },
	{ "interactions", required_argument, 'I', ITEMS },
	{ "user", required_argument, 'u', INTERACTIONS },
	{ "weight", required_argument, 'w', INTERACTIONS },
	{ "time", required_argument, 'T', INTERACTIONS },
	{ "key", required_argument, 'k', JOIN },
	{ "on", required_argument, 'o', JOIN },
	{ "space", required_argument, 'a', VECTORS },
	{ "columns", required_argument, 'c', VECTORS },
	{ "ids", required_argument, 'n', VECTORS },
	{ "embed", required_argument, 'E', VECTORS },
	{ "help", no_argument, 'h', ALL },
	{ "version", no_argument, 'V', ALL },
};

#define NSTEPS (sizeof steps / sizeof *steps)
#define NOPTS (sizeof opts / sizeof *opts)

/* Appends the names of the steps in mask, e.g. "items, join". */
static void
step_names(struct rec_buf *b, unsigned mask)
{
	size_t i;
	int first = 1;

	for (i = 0; i < NSTEPS; i++)
		if (steps[i].bit & mask) {
			rec_buf_printf(b, "%s%s", first ? "" : ", ",
			    steps[i].name);
			first = 0;
		}
}

static void
no_step(void)
{
	struct rec_buf b = {0};

	step_names(&b, ALL);
	rec_usage_die("expected a step (%s) and a FILE", b.data);
}

static const struct step *
find_step(const char *name)
{
	struct rec_buf b = {0};
	size_t i;

	for (i = 0; i < NSTEPS; i++)
		if (!strcmp(steps[i].name, name))
			return &steps[i];
	step_names(&b, ALL);
	rec_usage_die("unknown step '%s' (%s)", name, b.data);
}

/* An option as given: its row in opts, and whether it was spelt long,
 * so that a message names it as the user wrote it. */
struct given {
	size_t opt;
	int islong;
};

/* Dies naming the first option given that does not apply to step s. */
static void
check_options(const struct step *s, const struct given *g, size_t n)
{
	struct rec_buf b = {0};
	const struct opt *p;
	size_t i;

	for (i = 0; i < n; i++) {
		p = &opts[g[i].opt];
		if (p->steps & s->bit)
			continue;
		step_names(&b, p->steps);
		if (g[i].islong)
			rec_usage_die("option '--%s' does not apply to step "
			    "'%s' (it is for: %s)", p->name, s->name, b.data);
		rec_usage_die("option '-%c' does not apply to step '%s' (it "
		    "is for: %s)", p->c, s->name, b.data);
	}
}

int
main(int argc, char **argv)
{
	static struct option longopts[NOPTS + 1];
	static char optstring[1 + 2 * NOPTS + 1] = ":";
	struct given *given = NULL;	/* in order: a bundle gives several */
	const struct step *step;
	size_t i, k, ngiven = 0;
	int c, li;

	rec_init(argc, argv);
	for (i = 0; i < NOPTS; i++) {
		longopts[i].name = opts[i].name;
		longopts[i].has_arg = opts[i].arg;
		longopts[i].val = opts[i].c;
		if (!strchr(optstring, opts[i].c)) {
			k = strlen(optstring);
			optstring[k++] = (char)opts[i].c;
			if (opts[i].arg == required_argument)
				optstring[k++] = ':';
		}
	}
	while ((li = -1, c = getopt_long(argc, argv, optstring, longopts,
	    &li)) != -1) {
		switch (c) {
		case 'd': o.db = optarg; break;
		case 'F':
			if (!strcmp(optarg, "csv"))
				o.kind = 'c';
			else if (!strcmp(optarg, "tsv"))
				o.kind = 't';
			else if (!strcmp(optarg, "jsonl"))
				o.kind = 'j';
			else
				rec_usage_die("--format: unknown format '%s' "
				    "(csv, tsv or jsonl)", optarg);
			break;
		case 'e':
			if (!strcmp(optarg, "latin1") ||
			    !strcmp(optarg, "iso-8859-1"))
				o.latin1 = 1;
			else if (strcmp(optarg, "utf-8") &&
			    strcmp(optarg, "utf8"))
				rec_usage_die("--encoding: unknown encoding "
				    "'%s' (utf-8 or latin1)", optarg);
			break;
		case 'N':
			if (o.nnulls == 32)
				rec_usage_die("--null: at most 32 values");
			o.nulls[o.nnulls++] = optarg;
			break;
		case 's': o.skip_bad = 1; break;
		case 'f': o.force = 1; break;
		case 'v': o.verbose = 1; break;
		case 'i': o.id = optarg; break;
		case 'R': add_pair(&o.rename, &o.nrename, optarg, '=',
		    "--rename"); break;
		case 'x': add_names(&o.drop, &o.ndrop, optarg); break;
		case 'l': add_names(&o.list, &o.nlist, optarg); break;
		case 'S': add_pair(&o.split, &o.nsplit, optarg, '=',
		    "--split"); break;
		case 'X': add_pair(&o.extract, &o.nextract, optarg, '=',
		    "--extract"); break;
		case 'r': add_pair(&o.role, &o.nrole, optarg, '=', "--role");
			break;
		case 't': add_pair(&o.type, &o.ntype, optarg, '=', "--type");
			break;
		case 'I': o.member = optarg; break;
		case 'u': o.user = optarg; break;
		case 'w': o.weight = optarg; break;
		case 'T': o.time = optarg; break;
		case 'k': o.key = optarg; break;
		case 'o': o.on = optarg; break;
		case 'a': o.space = optarg; break;
		case 'c': o.columns = optarg; break;
		case 'n': o.ids = optarg; break;
		case 'E': o.embed = optarg; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
		/* getopt_long sets li only for a long option */
		for (k = 0; li < 0 && opts[k].c != c; k++)
			;
		given = xrealloc(given, (ngiven + 1) * sizeof *given);
		given[ngiven].opt = li < 0 ? k : (size_t)li;
		given[ngiven++].islong = li >= 0;
	}
	if (optind == argc)
		no_step();
	step = find_step(argv[optind]);
	check_options(step, given, ngiven);
	free(given);
	if (argc - optind == 2)
		o.file = argv[optind + 1];
	else if (argc - optind != 1 || step->bit != VECTORS ||
	    (!o.columns && !o.embed))
		no_step();
	o.db = rec_catalog_path(o.db);
	step->run();
	rec_exit(0);
}
