/*
 * catalog.h: the catalog (one SQLite file) and the CSV, TSV and JSONL tables
 * it is built from
 *
 * Ownership is stated once, in core.h, for every rec header.
 */
#ifndef REC_CATALOG_H
#define REC_CATALOG_H

#include <sqlite3.h>
#include "core.h"

/* csv.c: RFC 4180 CSV and plain TSV, streamed */
struct rec_csv {
	FILE *fp;
	const char *name;
	int sep;		/* ',' or '\t' */
	int quoted;		/* honour "quotes" */
	int latin1;		/* input is Latin-1 */
	unsigned long line;	/* line where the current row starts */
	unsigned long nextline;
	struct rec_buf field;	/* field bytes, NUL-separated */
	size_t *off;		/* offsets of fields in field.data */
	size_t nfield, capfield;
	struct rec_buf conv;
	struct rec_buf err;
	int bomchecked;
};

void rec_csv_init(struct rec_csv *c, FILE *fp, const char *name, int sep);
void rec_csv_free(struct rec_csv *c);
/* 1 and a row in c->nfield fields (rec_csv_field), 0 at the end, -1 on
 * an error that ends the input, -2 for a bad row that was read whole
 * (reading may go on); the message is in c->err */
int rec_csv_read(struct rec_csv *c);
const char *rec_csv_field(const struct rec_csv *c, size_t i, size_t *len);

/* table.c: rows of named columns from CSV, TSV or JSONL.  A cell holds
 * zero values (null), one, or several (a JSON array; a split field),
 * each NUL-terminated one after the other in val[i]. */
struct rec_table {
	int kind;		/* 'c' CSV, 't' TSV, 'j' JSONL */
	FILE *fp;
	const char *name;
	struct rec_csv csv;
	char **col;		/* column names */
	size_t ncol;
	struct rec_hash colidx;
	struct rec_buf *val;	/* per column, this row */
	size_t *nval;
	unsigned char *array;	/* JSONL: the column held an array */
	size_t capcol;
	unsigned long line;
	struct rec_buf err;
	struct rec_buf pack, jerr;
	char *line_buf;
	size_t line_cap;
	const char *const *nulls;	/* values read as null */
};

/* kind 0 picks from the name's extension; dies when it cannot open */
void rec_table_open(struct rec_table *t, const char *path, int kind,
    int latin1, const char *const *nulls);
void rec_table_close(struct rec_table *t);
/* 1 row, 0 end, -1 error that ends the input, -2 bad row (skippable) */
int rec_table_next(struct rec_table *t);
/* column index or (size_t)-1 */
size_t rec_table_col(const struct rec_table *t, const char *name);
/* the first value of column i, or NULL when null */
const char *rec_table_get(const struct rec_table *t, size_t i);

/* catalog.c */
/* opens the catalog named by path, else REC_DB, read-only; dies with a
 * clear message when it is missing or not a rec catalog */
sqlite3 *rec_catalog_open(const char *path);
/* the same, for a connection another thread interrupts
 * (rec_sql_readonly's watchdog), which needs its mutex */
sqlite3 *rec_catalog_open_guarded(const char *path);
const char *rec_catalog_path(const char *path);
/* The catalog as a process holds it: opened once (read-only), its
 * columns by role, and the statements it has prepared, kept for the
 * next call.  Every SQLite error through it ends the program with the
 * statement's purpose: "reading an item: no such column: x". */
struct rec_catalog {
	sqlite3 *db;
	char *path;
	/* the first column with each role, or NULL */
	char *title, *creator, *collection, *date, *popularity;
	struct rec_hash sql;	/* the statements' SQL text */
	sqlite3_stmt **stmt;	/* by the index in sql */
};
/* opens path (else REC_DB) as rec_catalog_open does */
struct rec_catalog *rec_catalog_load(const char *path);
void rec_catalog_close(struct rec_catalog *c);
/* the statement for sql, prepared on first use, reset and unbound;
 * borrowed (the handle finalises it) */
sqlite3_stmt *rec_catalog_prepare(struct rec_catalog *c, const char *sql,
    const char *purpose);
/* sqlite3_step: 1 for a row, 0 at the end; dies on an error */
int rec_catalog_step(struct rec_catalog *c, sqlite3_stmt *st,
    const char *purpose);
/* the text of column col of item id, or NULL when the item or the value
 * is missing (col NULL: NULL); caller frees */
char *rec_catalog_field(struct rec_catalog *c, const char *col,
    const char *id, size_t idlen);
/* Opens a temporary copy of the catalog at path for writing (a new empty
 * one when fresh; an existing catalog is refused unless force), in a
 * transaction; rec_catalog_save() renames it into place.  A failure or a
 * signal before that removes the copy, leaving the catalog as it was.
 * One writer at a time: it first takes DIR/.NAME.lock (flock), waiting
 * for another writer at most REC_LOCK_TIMEOUT seconds (default 600,
 * 0 to refuse at once), then removes the copies that writers killed
 * with -9 left; rec_catalog_save (or the end of the process) lets the
 * lock go and removes its file. */
sqlite3 *rec_catalog_edit(const char *path, int fresh, int force);
void rec_catalog_save(sqlite3 *db);
/* creates the tables of an empty catalog (all but items) */
void rec_catalog_schema(sqlite3 *db);
/* runs sql, dying with what on error */
void rec_sql_exec(sqlite3 *db, const char *sql, const char *what);
extern const char *const rec_roles[];
/* the dimension of a vector space of the catalog, or 0 if it has none */
int rec_catalog_space(sqlite3 *db, const char *space);
/* the columns whose text rec-bm25 indexes and rec-train text learns
 * from (roles title, creator, collection, tags, text, category), in
 * catalog order: *names holds them and a NULL (room for one more);
 * returns how many.  The caller frees each and the array. */
size_t rec_text_columns(sqlite3 *db, char ***names);

/* the vector of id in space into out (dim floats); 0 if it has none */
int rec_catalog_vector(sqlite3 *db, const char *space, const char *id,
    size_t idlen, float *out, int dim);
/* the column with this role (the first one), or NULL; caller frees */
char *rec_catalog_role(sqlite3 *db, const char *role);
/* how many items the catalog has */
size_t rec_catalog_nitems(sqlite3 *db);

/* The share of the catalog less popular than an item: what "SELECT
 * count(*) FROM items WHERE pop < value" over the count of items says,
 * by the column of role popularity; 0.5 for an item without a value.
 * rec_popshares_open reads the column once when it holds plain numbers
 * (the shares then come from its sorted values), and else asks item by
 * item; it returns -1 when the catalog has no popularity column. */
struct rec_popshares {
	char *col;
	double nitems;
	struct rec_hash pct;	/* id -> double: the items known */
	int all;		/* every item of the catalog is in pct */
	sqlite3_stmt *val, *cnt;
};
int rec_popshares_open(struct rec_popshares *p, sqlite3 *db);
double rec_popshare(struct rec_popshares *p, const char *id, size_t len);
void rec_popshares_close(struct rec_popshares *p);

/* sql.c: the guard and the help around queries from people and models */
/* Reads REC_SQL_TIMEOUT, REC_SQL_MAX_LENGTH and REC_SQL_MAX_MEMORY (a
 * usage error when one is bad; rec_sql_readonly reads them if no one
 * did) and returns the timeout in milliseconds. */
long rec_sql_limits(void);
/* Allows reads, functions and the pragmas that only report, from now
 * on; bounds a value's length and the memory SQLite may take, and stops
 * the statements after timeout_ms (0: no limit) even when one step is
 * a costly function call.  rec_sql_refusal() says why a statement was
 * denied; rec_sql_explain() says so for a stopped one. */
void rec_sql_readonly(sqlite3 *db, long timeout_ms);
const char *rec_sql_refusal(void);
/* lifts the guard (on) for rec's own queries, and puts it back */
void rec_sql_trusted(sqlite3 *db, int on);
/* has(list, value, ...): a JSON list column holds any of the values
 * (folded);
 * names(text, name, ...): the value is one of the names, or names
 * several of which one is (rec_name_parts; folded, "the" aside);
 * norm(text): text folded as rec_norm() does */
void rec_sql_functions(sqlite3 *db);
/* 1 when text s, folded, holds the folded words of phrase next to each
 * other and in order; where s is a JSON list of strings, within one
 * element */
int rec_has_phrase(const char *s, const char *phrase);
/* Turns a failed prepare into a message a planner can act on: unknown
 * columns get the closest names.  Appends to msg. */
void rec_sql_explain(sqlite3 *db, struct rec_buf *msg);
/* The closest values of text column col to value (folded edit distance,
 * containment), best first, at most max, as a NUL-separated list in
 * out; returns how many. */
size_t rec_sql_closest_values(sqlite3 *db, const char *col,
    const char *value, size_t max, struct rec_buf *out);
/* 1 if col is an items column, with *list set when it holds lists */
int rec_catalog_column(sqlite3 *db, const char *col, int *list,
    char *type, size_t typesz);
void rec_sqlite_die(sqlite3 *db, const char *what) __attribute__((noreturn));

#endif
