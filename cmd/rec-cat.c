/*
 * rec-cat: convert, check and look at candidate streams.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "stream.h"
#include "catalog.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: rec-cat [-cMt] [-d CATALOG] [-f FIELD,...] [-g KEY] [-k N] "
	    "[FILE ...]\n"
	    "  -c, --check          validate the stream, print a summary\n"
	    "  -d, --db CATALOG     catalog for --fields (default $REC_DB)\n"
	    "  -f, --fields LIST    add these catalog fields under \"item\""
	    " (all: every one)\n"
	    "  -g, --group KEY      a grouped stream: check its groups, -k per "
	    "group\n"
	    "  -k, --limit N        pass at most N records (per group with "
	    "-g)\n"
	    "  -M, --msgpack        write msgpack instead of JSONL\n"
	    "  -t, --table          print a table for people\n"
	    "  -h, --help           print this help\n"
	    "  -V, --version        print the version\n");
}

struct field {
	char *name;
	int list;		/* stored as a JSON array */
};

static struct field *fields;
static size_t nfields;
static sqlite3 *db;
static sqlite3_stmt *lookup;
static unsigned long misses;

/* Splits LIST and checks every name against the catalog's columns. */
static void
setup_fields(const char *dbpath, const char *list)
{
	sqlite3_stmt *st;
	struct rec_buf sql = {0};
	char *copy = xstrdup(list), *tok, *save = NULL;
	size_t i;
	int all = !strcmp(list, "all");

	db = rec_catalog_open(dbpath);
	if (sqlite3_prepare_v2(db, "SELECT name, list FROM columns ORDER BY "
	    "position", -1, &st, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "columns");
	if (all) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			fields = xrealloc(fields, (nfields + 1) * sizeof *fields);
			fields[nfields].name = xstrdup((const char *)
			    sqlite3_column_text(st, 0));
			fields[nfields++].list = sqlite3_column_int(st, 1);
		}
	}
	for (tok = strtok_r(all ? NULL : copy, ",", &save); tok && !all;
	    tok = strtok_r(NULL, ",", &save)) {
		const char *best = NULL;
		char *bestcopy = NULL;
		int found = 0, bd = 4, d;

		sqlite3_reset(st);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)
			    sqlite3_column_text(st, 0);
			if (!strcmp(name, tok)) {
				fields = xrealloc(fields,
				    (nfields + 1) * sizeof *fields);
				fields[nfields].name = xstrdup(name);
				fields[nfields++].list =
				    sqlite3_column_int(st, 1);
				found = 1;
				break;
			}
			d = rec_edit_distance(tok, strlen(tok), name,
			    strlen(name), 3);
			if (d < bd) {
				bd = d;
				free(bestcopy);
				best = bestcopy = xstrdup(name);
			}
		}
		if (!found) {
			if (best)
				rec_usage_die("no such field '%s' (did you mean "
				    "'%s'?)", tok, best);
			rec_usage_die("no such field '%s'", tok);
		}
		free(bestcopy);
	}
	sqlite3_finalize(st);
	free(copy);
	rec_buf_adds(&sql, "SELECT ");
	for (i = 0; i < nfields; i++)
		rec_buf_printf(&sql, "%s\"%s\"", i ? ", " : "",
		    fields[i].name);
	if (!nfields)
		rec_buf_adds(&sql, "1");
	rec_buf_adds(&sql, " FROM items WHERE id = ?");
	if (sqlite3_prepare_v2(db, sql.data, -1, &lookup, NULL) != SQLITE_OK)
		rec_sqlite_die(db, "lookup");
	rec_buf_free(&sql);
}

/* Packs the record with "item" holding the catalog fields; 0 when the
 * id is not in the catalog. */
static int
add_fields(const struct rec_record *rec, struct rec_buf *out,
    struct rec_buf *tmp)
{
	static const char *const drop[] = { "item", NULL };
	msgpack_packer pk;
	size_t i;
	int rc;

	sqlite3_reset(lookup);
	sqlite3_bind_text(lookup, 1, rec->id, (int)rec->idlen,
	    SQLITE_STATIC);
	rc = sqlite3_step(lookup);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		rec_sqlite_die(db, "lookup");
	rec_buf_reset(out);
	msgpack_packer_init(&pk, out, rec_buf_msgpack_write);
	rec_pack_map_except(&pk, &rec->map, drop, 1);
	msgpack_pack_str_with_body(&pk, "item", 4);
	msgpack_pack_map(&pk, (uint32_t)nfields);
	for (i = 0; i < nfields; i++) {
		int n;
		const char *t;

		msgpack_pack_str_with_body(&pk, fields[i].name,
		    strlen(fields[i].name));
		switch (sqlite3_column_type(lookup, (int)i)) {
		case SQLITE_NULL:
			msgpack_pack_nil(&pk);
			break;
		case SQLITE_INTEGER:
			msgpack_pack_int64(&pk,
			    sqlite3_column_int64(lookup, (int)i));
			break;
		case SQLITE_FLOAT:
			msgpack_pack_double(&pk,
			    sqlite3_column_double(lookup, (int)i));
			break;
		default:
			t = (const char *)sqlite3_column_text(lookup, (int)i);
			n = sqlite3_column_bytes(lookup, (int)i);
			if (fields[i].list) {
				rec_buf_reset(tmp);
				if (!rec_json_to_msgpack(t, (size_t)n, tmp, NULL,
				    tmp + 1)) {
					rec_buf_add(out, tmp->data, tmp->len);
					break;
				}
			}
			msgpack_pack_str_with_body(&pk, t, (size_t)n);
		}
	}
	return 1;
}

/* --- the table view --- */

struct row {
	char **cell;
};
static struct row *rows;
static size_t nrows, ncols;
static size_t *width;

static size_t
display_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static char *
cell_text(const msgpack_object *o)
{
	struct rec_buf b = {0}, err = {0};

	if (!o || o->type == MSGPACK_OBJECT_NIL)
		;
	else if (o->type == MSGPACK_OBJECT_STR)
		rec_buf_add(&b, o->via.str.ptr, o->via.str.size);
	else if (o->type == MSGPACK_OBJECT_FLOAT64 ||
	    o->type == MSGPACK_OBJECT_FLOAT32)
		rec_buf_printf(&b, "%.4g", o->via.f64);
	else if (rec_json_write(&b, o, &err))
		rec_buf_adds(&b, "?");
	rec_buf_free(&err);
	if (!b.data)
		return xstrdup("");
	/* one line per row: control characters become spaces */
	for (size_t i = 0; i < b.len; i++)
		if ((unsigned char)b.data[i] < 0x20)
			b.data[i] = ' ';
	return b.data;
}

static void
table_add(const msgpack_object *map)
{
	const msgpack_object *item = rec_map_get(map, "item");
	struct row r;
	size_t i;
	char num[24];

	ncols = 4 + nfields;
	r.cell = xcalloc(ncols, sizeof *r.cell);
	snprintf(num, sizeof num, "%zu", nrows + 1);
	r.cell[0] = xstrdup(num);
	r.cell[1] = cell_text(rec_map_get(map, "id"));
	r.cell[2] = cell_text(rec_map_get(map, "score"));
	r.cell[3] = cell_text(rec_map_get(map, "src"));
	for (i = 0; i < nfields; i++)
		r.cell[4 + i] = cell_text(item ? rec_map_get(item,
		    fields[i].name) : NULL);
	rows = xrealloc(rows, (nrows + 1) * sizeof *rows);
	rows[nrows++] = r;
}

static void
put_cell(struct rec_buf *b, const char *s, size_t w, int last)
{
	size_t n = 0, used = 0;

	/* cut at a character boundary, at most w characters */
	while (s[n] && used < w) {
		n++;
		while (((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
		used++;
	}
	rec_buf_add(b, s, n);
	if (!last)
		for (; used < w + 2; used++)
			rec_buf_addc(b, ' ');
}

static void
table_print(void)
{
	static const char *const head[] = { "#", "id", "score", "src" };
	struct rec_buf b = {0};
	size_t i, j;

	ncols = 4 + nfields;
	width = xcalloc(ncols, sizeof *width);
	for (j = 0; j < ncols; j++) {
		width[j] = display_width(j < 4 ? head[j] :
		    fields[j - 4].name);
		for (i = 0; i < nrows; i++) {
			size_t w = display_width(rows[i].cell[j]);
			if (w > width[j])
				width[j] = w;
		}
		if (width[j] > 40)
			width[j] = 40;
	}
	for (j = 0; j < ncols; j++)
		put_cell(&b, j < 4 ? head[j] : fields[j - 4].name, width[j],
		    j + 1 == ncols);
	rec_buf_addc(&b, '\n');
	for (i = 0; i < nrows; i++) {
		for (j = 0; j < ncols; j++) {
			put_cell(&b, rows[i].cell[j], width[j], j + 1 == ncols);
			free(rows[i].cell[j]);
		}
		rec_buf_addc(&b, '\n');
		free(rows[i].cell);
		if (b.len > 65536) {
			rec_write_all(1, b.data, b.len);
			rec_buf_reset(&b);
		}
	}
	rec_write_all(1, b.data ? b.data : "", b.len);
	rec_buf_free(&b);
	free(rows);
	free(width);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "db", required_argument, NULL, 'd' },
		{ "fields", required_argument, NULL, 'f' },
		{ "limit", required_argument, NULL, 'k' },
		{ "group", required_argument, NULL, 'g' },
		{ "msgpack", no_argument, NULL, 'M' },
		{ "table", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct rec_writer w;
	struct rec_reader r;
	struct rec_record rec;
	struct rec_buf out = {0}, tmp[2] = {{0}};
	const char *dbpath = NULL, *flist = NULL;
	unsigned long in = 0, limit = (unsigned long)-1, ingroup = 0;
	const char *group = NULL;
	struct rec_groups g;
	int c, check = 0, mp = 0, table = 0, i, nfiles;

	rec_init(argc, argv);
	while ((c = getopt_long(argc, argv, ":cd:f:g:k:MthV", longopts,
	    NULL)) != -1)
		switch (c) {
		case 'c': check = 1; break;
		case 'd': dbpath = optarg; break;
		case 'f': flist = optarg; break;
		case 'k': limit = rec_arg_count("-k", optarg); break;
		case 'g':
			if (!*optarg)
				rec_usage_die("--group: an empty key");
			group = optarg;
			break;
		case 'M': mp = 1; break;
		case 't': table = 1; break;
		case 'h': usage(stdout); rec_exit(0);
		case 'V': rec_version();
		default: rec_bad_option(argv, c);
		}
	if (check + table + mp > 1)
		rec_usage_die("--check, --table and --msgpack exclude each "
		    "other");
	if (flist)
		setup_fields(dbpath, flist);
	if (!check && !table)
		rec_writer_init(&w, 1, mp);
	nfiles = argc - optind;
	for (i = 0; i < (nfiles ? nfiles : 1); i++) {
		const char *name = nfiles ? argv[optind + i] : "-";
		int fd = 0;

		if (strcmp(name, "-")) {
			fd = open(name, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				rec_die("cannot open '%s': %m", name);
		}
		rec_reader_init(&r, fd, fd ? name : "stdin");
		if (group && i == 0)
			rec_groups_init(&g, &r, group);
		while ((group || in < limit) && rec_next(&r, &rec)) {
			if (group) {
				if (rec_groups_check(&g, &rec))
					ingroup = 0;
				if (ingroup >= limit)
					continue;
				ingroup++;
			}
			in++;
			if (check)
				continue;
			if (flist && add_fields(&rec, &out, tmp)) {
				if (table) {
					msgpack_zone z;
					msgpack_object o;
					size_t off = 0;
					msgpack_zone_init(&z, 1024);
					msgpack_unpack(out.data, out.len, &off,
					    &z, &o);
					table_add(&o);
					msgpack_zone_destroy(&z);
				} else
					rec_write_msgpack(&w, out.data,
					    out.len);
				continue;
			}
			if (flist)
				misses++;
			if (table)
				table_add(&rec.map);
			else
				rec_write(&w, &rec);
		}
		if (check && group)
			printf("%s: %lu records in %lu groups (%s)\n", r.name,
			    r.nrec, g.ngroups, r.format == REC_FMT_MSGPACK ?
			    "msgpack" : r.nrec ? "jsonl" : "empty");
		else if (check)
			printf("%s: %lu records (%s)\n", r.name, r.nrec,
			    r.format == REC_FMT_MSGPACK ? "msgpack" :
			    r.nrec ? "jsonl" : "empty");
		rec_reader_free(&r);
		if (fd)
			close(fd);
	}
	if (group)
		rec_groups_free(&g);
	if (misses)
		rec_warn("%lu ids not in the catalog: written without "
		    "\"item\"", misses);
	if (table)
		table_print();
	else if (!check)
		rec_writer_close(&w);
	rec_trace_count(in, check ? 0 : in);
	if (fflush(stdout) || ferror(stdout))
		rec_die("write error");
	rec_buf_free(&out);
	rec_buf_free(&tmp[0]);
	rec_buf_free(&tmp[1]);
	if (lookup)
		sqlite3_finalize(lookup);
	if (db)
		sqlite3_close(db);
	rec_exit(0);
}
