/*
 * dbench-compare.c - side-by-side comparison of dbench JSON results
 * (dbench --json): one column per run, rows for the throughput, the worst
 * latency and each operation's p50 and p99, every value after the first
 * column with its change against the first run in percent.  Results of
 * dbench --disk-test compare the same way, a row per measurement (median
 * MB/s and p99 latency) and directory, under a row naming each
 * directory's filesystem (and whether it keeps files in memory).  Plain
 * text by default, a Markdown table with --markdown.  Runs whose workload
 * differs (loadfile, client count, backend, sync flags, ...; for disk
 * tests block size, size, runs, --drop-caches and the test file's size)
 * are compared all the same, under a warning
 * that names what differs, on stderr and above the table.
 */
#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "loadfile/program.h"
#include "report/result_load.h"

#define EXIT_USAGE 2

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dbench-compare [--markdown] [--label LABEL]... "
		"A.json B.json ...\n"
		"Compare dbench results (written by dbench --json) side by "
		"side:\n"
		"throughput, worst latency and per-operation p50/p99 latency, "
		"with the\n"
		"change against the first result in percent.  Disk tests "
		"(dbench --disk-test\n"
		"--json) compare per measurement: median MB/s and p99 "
		"latency.  A file\n"
		"named - is standard input.  Runs of different workloads "
		"(loadfile,\n"
		"clients, backend, sync flags, ...) get a warning naming what "
		"differs.\n\n"
		"  -l, --label LABEL  name the next column (in the order of "
		"the files;\n"
		"                     default: host:directory of the run)\n"
		"  -m, --markdown     print a Markdown table\n"
		"  -V, --version      print the version and exit\n"
		"  -h, --help         show this help\n");
}

struct table {
	unsigned ncols;		/* runs */
	unsigned nrows;
	char **head;		/* ncols labels */
	char **name;		/* nrows row names */
	char ***cell;		/* [row][col] */
};

/*
 * A row: v[c] formatted with fmt, and after the first column its change
 * against v[0]; v[c] < 0 shows text[c] if text and text[c] are set, else
 * "-".
 */
static int add_row_text(struct table *t, const char *name, const double *v,
			const char *fmt, const char *const *text)
{
	char **names = talloc_realloc(t, t->name, char *, t->nrows + 1);
	char ***cells;
	char **row;

	if (names == NULL)
		return -1;
	t->name = names;
	cells = talloc_realloc(t, t->cell, char **, t->nrows + 1);
	if (cells == NULL)
		return -1;
	t->cell = cells;
	row = talloc_array(t, char *, t->ncols);
	if (row == NULL)
		return -1;
	names[t->nrows] = talloc_strdup(t, name);
	for (unsigned c = 0; c < t->ncols; c++) {
		if (v[c] < 0) {
			row[c] = talloc_strdup(row, text && text[c] ? text[c]
								    : "-");
		} else {
			row[c] = talloc_asprintf(row, fmt, v[c]);
			if (c > 0 && v[0] > 0)
				row[c] = talloc_asprintf_append(
					row[c], " (%+.1f%%)",
					(v[c] - v[0]) / v[0] * 100);
			else if (c > 0 && v[0] >= 0)
				row[c] = talloc_asprintf_append(row[c],
								" (n/a)");
		}
		if (row[c] == NULL)
			return -1;
	}
	cells[t->nrows++] = row;
	return 0;
}

static int add_row(struct table *t, const char *name, const double *v,
		   const char *fmt)
{
	return add_row_text(t, name, v, fmt, NULL);
}

static void print_text(const struct table *t)
{
	size_t w0 = strlen("Metric");
	size_t *w = talloc_zero_array(NULL, size_t, t->ncols);

	if (w == NULL)
		return;
	for (unsigned r = 0; r < t->nrows; r++)
		if (strlen(t->name[r]) > w0)
			w0 = strlen(t->name[r]);
	for (unsigned c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->head[c]);
		for (unsigned r = 0; r < t->nrows; r++)
			if (strlen(t->cell[r][c]) > w[c])
				w[c] = strlen(t->cell[r][c]);
	}
	printf("%-*s", (int)w0, "Metric");
	for (unsigned c = 0; c < t->ncols; c++)
		printf("  %*s", (int)w[c], t->head[c]);
	printf("\n");
	for (unsigned r = 0; r < t->nrows; r++) {
		printf("%-*s", (int)w0, t->name[r]);
		for (unsigned c = 0; c < t->ncols; c++)
			printf("  %*s", (int)w[c], t->cell[r][c]);
		printf("\n");
	}
	talloc_free(w);
}

/* Markdown cells: escape the characters that would end or format one. */
static void md_cell(const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\*_`", *s) != NULL)
			putchar('\\');
		putchar(*s);
	}
}

static void print_markdown(const struct table *t)
{
	printf("| Metric |");
	for (unsigned c = 0; c < t->ncols; c++) {
		putchar(' ');
		md_cell(t->head[c]);
		printf(" |");
	}
	printf("\n|---|");
	for (unsigned c = 0; c < t->ncols; c++)
		printf("---:|");
	printf("\n");
	for (unsigned r = 0; r < t->nrows; r++) {
		printf("| ");
		md_cell(t->name[r]);
		printf(" |");
		for (unsigned c = 0; c < t->ncols; c++) {
			putchar(' ');
			md_cell(t->cell[r][c]);
			printf(" |");
		}
		printf("\n");
	}
}

static int build(struct table *t, struct json_object **docs)
{
	double *v = talloc_array(t, double, t->ncols);

	if (v == NULL)
		return -1;
	for (unsigned c = 0; c < t->ncols; c++)
		v[c] = result_num(result_get(docs[c], "result"),
				  "throughput_mb_per_s", -1);
	if (add_row(t, "Throughput MB/s", v, "%.2f") != 0)
		return -1;
	for (unsigned c = 0; c < t->ncols; c++)
		v[c] = result_num(result_get(docs[c], "result"),
				  "max_latency_ms", -1);
	if (add_row(t, "Max latency ms", v, "%.3f") != 0)
		return -1;
	/* operations in dbench's table order, if any run has them */
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		static const double ps[] = { 50, 99 };
		bool any = false;

		for (unsigned c = 0; c < t->ncols; c++)
			any |= result_op(docs[c],
					 op_info[k].short_name) != NULL;
		if (!any)
			continue;
		for (unsigned i = 0; i < 2; i++) {
			char *name = talloc_asprintf(t, "%s p%g ms",
						     op_info[k].short_name,
						     ps[i]);

			for (unsigned c = 0; c < t->ncols; c++) {
				struct json_object *op = result_op(
					docs[c], op_info[k].short_name);

				v[c] = op ? result_op_percentile(op, ps[i])
					  : -1;
			}
			if (name == NULL || add_row(t, name, v, "%.3f") != 0)
				return -1;
		}
	}
	return 0;
}

/* Measurement k of directory d of a disk-test document, or NULL. */
static struct json_object *dt_measurement(struct json_object *doc, size_t d,
					  size_t k)
{
	struct json_object *dirs = result_get(result_get(doc, "disk_test"),
					      "directories");
	struct json_object *m;

	if (dirs == NULL || d >= json_object_array_length(dirs))
		return NULL;
	m = result_get(json_object_array_get_idx(dirs, d), "measurements");
	if (m == NULL || !json_object_is_type(m, json_type_array) ||
	    k >= json_object_array_length(m))
		return NULL;
	return json_object_array_get_idx(m, k);
}

static size_t dt_ndirs(struct json_object *doc)
{
	struct json_object *dirs = result_get(result_get(doc, "disk_test"),
					      "directories");

	return dirs ? json_object_array_length(dirs) : 0;
}

/*
 * The filesystem of directory d in each run (the type the host saw, from
 * the document's "directories"), with "(in memory)" where the test found
 * that it keeps files in memory (tmpfs): its figures are no disk's.
 */
static int dt_filesystem_row(struct table *t, struct json_object **docs,
			     size_t d, size_t ndirs, double *v,
			     const char **text)
{
	char *row = ndirs > 1 ? talloc_asprintf(t, "filesystem [dir %zu]",
						d + 1)
			      : talloc_strdup(t, "filesystem");

	if (row == NULL)
		return -1;
	for (unsigned c = 0; c < t->ncols; c++) {
		struct json_object *dirs = result_get(docs[c], "directories");
		struct json_object *dt = result_get(result_get(docs[c],
							       "disk_test"),
						    "directories");
		const char *fs = NULL;
		bool mem = false;

		if (dirs != NULL && json_object_is_type(dirs, json_type_array)
		    && d < json_object_array_length(dirs))
			fs = result_str(json_object_array_get_idx(dirs, d),
					"fs_type", NULL);
		if (dt != NULL && d < json_object_array_length(dt))
			mem = json_object_get_boolean(result_get(
				json_object_array_get_idx(dt, d),
				"memory_backed"));
		v[c] = -1;
		text[c] = talloc_asprintf(t, "%s%s%s", fs ? fs : "",
					  fs && mem ? " " : "",
					  mem ? "(in memory)" : fs ? "" : "?");
		if (text[c] == NULL)
			return -1;
	}
	return add_row_text(t, row, v, "%.1f", text);
}

/*
 * Disk tests (dbench --disk-test): per directory, its filesystem, then
 * for each measurement its median MB/s and the p99 latency of one block;
 * a measurement that has no figure shows its state ("not evicted", "not
 * supported", ...).
 */
static int build_disktest(struct table *t, struct json_object **docs)
{
	double *v = talloc_array(t, double, t->ncols);
	const char **text = talloc_array(t, const char *, t->ncols);
	size_t ndirs = 0, nkinds = 0;

	if (v == NULL || text == NULL)
		return -1;
	for (unsigned c = 0; c < t->ncols; c++) {
		if (dt_ndirs(docs[c]) > ndirs)
			ndirs = dt_ndirs(docs[c]);
		while (dt_measurement(docs[c], 0, nkinds) != NULL)
			nkinds++;
	}
	for (size_t d = 0; d < ndirs; d++) {
		if (dt_filesystem_row(t, docs, d, ndirs, v, text) != 0)
			return -1;
		for (size_t k = 0; k < nkinds; k++) {
			const char *name = NULL;
			char *dir = ndirs > 1 ? talloc_asprintf(t, " [dir %zu]",
								d + 1)
					      : talloc_strdup(t, "");
			char *row;

			for (unsigned c = 0; c < t->ncols && !name; c++)
				name = result_str(dt_measurement(docs[c], d, k),
						  "name", NULL);
			if (dir == NULL)
				return -1;
			for (unsigned c = 0; c < t->ncols; c++) {
				struct json_object *m =
					dt_measurement(docs[c], d, k);
				const char *state = result_str(m, "state",
							       NULL);

				v[c] = result_num(m, "mb_per_s_median", -1);
				text[c] = v[c] < 0 ? state : NULL;
			}
			row = talloc_asprintf(t, "%s%s MB/s",
					      name ? name : "?", dir);
			if (row == NULL ||
			    add_row_text(t, row, v, "%.1f", text) != 0)
				return -1;
			for (unsigned c = 0; c < t->ncols; c++) {
				struct json_object *m =
					dt_measurement(docs[c], d, k);

				v[c] = result_num(m, "count", 0) > 0 ?
					result_op_percentile(m, 99) : -1;
			}
			row = talloc_asprintf(t, "%s%s p99 ms",
					      name ? name : "?", dir);
			if (row == NULL || add_row(t, row, v, "%.3f") != 0)
				return -1;
		}
	}
	return 0;
}

/* The options of a run that define its workload, and their names here. */
struct setting {
	const char *key;	/* member of the result's "options" */
	const char *name;
	/* a member of each disk_test directory instead, joined by "," */
	bool per_dir;
};

static const struct setting workload_options[] = {
	{ "loadfiles", "loadfile (-c)", false },
	{ "clients", "clients", false },
	{ "clients_per_process", "clients per process", false },
	{ "backend", "backend (-B)", false },
	{ "sync_open", "sync open (-s)", false },
	{ "sync_dirs", "sync directories (-S)", false },
	{ "fsync_writes", "fsync after writes (-F)", false },
	{ "xattr", "xattrs (-x)", false },
	{ "target_rate_mb_per_s", "target rate MB/s (-R)", false },
	{ "trunc_io", "--trunc-io", false },
	{ "fake_io", "--fake-io", false },
	{ "one_byte_write_fix", "--one-byte-write-fix", false },
	{ "no_resolve", "--no-resolve", false },
	{ "stat_check", "--stat-check", false },
};

/* The settings of a disk test that change its figures (direct I/O has
 * none: where it is refused, the cells say "not supported"). */
static const struct setting disktest_settings[] = {
	{ "block_size_bytes", "block size (--block-size)", false },
	{ "size_bytes", "size asked (--size, 0: the default)", false },
	{ "repeat", "runs (--repeat)", false },
	{ "drop_caches", "--drop-caches", false },
	{ "file_size_bytes", "test file size", true },
};

/* A value as text: integers in full (byte counts), the rest as
 * result_value_text() has it. */
static char *value_text(void *mem, struct json_object *v)
{
	if (v != NULL && json_object_is_type(v, json_type_int))
		return talloc_asprintf(mem, "%lld",
				       (long long)json_object_get_int64(v));
	return result_value_text(mem, v);
}

/* The text of setting s in doc (under mem), NULL if out of memory. */
static char *setting_text(void *mem, struct json_object *doc,
			  const struct setting *s)
{
	struct json_object *dirs;
	size_t n;
	char *t;

	if (!s->per_dir && !result_is_disktest(doc))
		return result_value_text(mem, result_get(result_get(
			doc, "options"), s->key));
	if (!s->per_dir)
		return value_text(mem, result_get(result_get(doc, "options"),
						  s->key));
	dirs = result_get(result_get(doc, "disk_test"), "directories");
	n = dirs != NULL && json_object_is_type(dirs, json_type_array) ?
	    json_object_array_length(dirs) : 0;
	t = talloc_strdup(mem, "");
	for (size_t d = 0; t != NULL && d < n; d++) {
		char *v = value_text(t, result_get(
			json_object_array_get_idx(dirs, d), s->key));

		t = v ? talloc_asprintf_append(t, "%s%s", d ? "," : "", v)
		      : NULL;
	}
	return t;
}

/*
 * The workload options (of a disk test: its settings) in which the n
 * runs differ, one line each,
 * "NAME: VALUE (FILE), VALUE (FILE)...", in *lines (under mem); returns
 * their number (0: the same workload), or -1 if out of memory.
 */
static int workload_diffs(void *mem, struct json_object **docs,
			  const char *const *files, unsigned n, char ***lines)
{
	bool dt = result_is_disktest(docs[0]);
	const struct setting *opts = dt ? disktest_settings : workload_options;
	size_t nopts = dt ? sizeof(disktest_settings) / sizeof(opts[0]) :
			    sizeof(workload_options) / sizeof(opts[0]);
	int count = 0;

	*lines = talloc_array(mem, char *, nopts);
	if (*lines == NULL)
		return -1;
	for (size_t k = 0; k < nopts; k++) {
		char **text = talloc_array(*lines, char *, n);
		bool differ = false;
		char *line;

		if (text == NULL)
			return -1;
		for (unsigned c = 0; c < n; c++) {
			text[c] = setting_text(text, docs[c], &opts[k]);
			if (text[c] == NULL)
				return -1;
			differ |= strcmp(text[c], text[0]) != 0;
		}
		if (!differ)
			continue;
		line = talloc_asprintf(*lines, "%s:", opts[k].name);
		for (unsigned c = 0; line != NULL && c < n; c++)
			line = talloc_asprintf_append(line, "%s %s (%s)",
						      c ? "," : "", text[c],
						      result_file_name(files[c]));
		if (line == NULL)
			return -1;
		(*lines)[count++] = line;
	}
	return count;
}

/* The warning above the table: plain text, or a Markdown quote. */
static void print_workload_warning(char **lines, int n, bool markdown)
{
	if (markdown) {
		printf("> **Warning:** these runs differ in workload; their "
		       "figures do not measure the same thing:\n>\n");
		for (int i = 0; i < n; i++) {
			printf("> - ");
			md_cell(lines[i]);
			printf("\n");
		}
	} else {
		printf("Warning: these runs differ in workload; their figures "
		       "do not measure the same thing:\n");
		for (int i = 0; i < n; i++)
			printf("  %s\n", lines[i]);
	}
	printf("\n");
}

struct args {
	const char **files;
	const char **labels;
	unsigned nfiles, nlabels;
	bool markdown;
};

/*
 * Parse the command line into a.  Returns -1 to go on, or the exit
 * status (after --help, --version or a usage error).
 */
static int parse_args(int argc, char **argv, struct args *a)
{
	bool opts_done = false, have_stdin = false;

	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (opts_done || s[0] != '-' || s[1] == '\0') {
			if (strcmp(s, "-") == 0 && have_stdin) {
				fprintf(stderr, "dbench-compare: - (standard "
					"input) can be given once\n");
				return EXIT_USAGE;
			}
			have_stdin |= strcmp(s, "-") == 0;
			a->files[a->nfiles++] = s;
		} else if (strcmp(s, "--") == 0) {
			opts_done = true;
		} else if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(s, "-V") == 0 ||
			   strcmp(s, "--version") == 0) {
			printf("dbench-compare %s\n", PACKAGE_VERSION);
			return 0;
		} else if (strcmp(s, "-m") == 0 ||
			   strcmp(s, "--markdown") == 0) {
			a->markdown = true;
		} else if (strcmp(s, "-l") == 0 || strcmp(s, "--label") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "dbench-compare: %s needs a "
					"label\n", s);
				return EXIT_USAGE;
			}
			a->labels[a->nlabels++] = argv[++i];
		} else if (strncmp(s, "--label=", 8) == 0) {
			a->labels[a->nlabels++] = s + 8;
		} else {
			fprintf(stderr, "dbench-compare: unknown option '%s' "
				"(try --help)\n", s);
			return EXIT_USAGE;
		}
	}
	if (a->nfiles == 0) {
		fprintf(stderr, "dbench-compare: no result files given "
			"(usage: dbench-compare [--markdown] [--label L]... "
			"A.json B.json ...)\n");
		return EXIT_USAGE;
	}
	if (a->nlabels > a->nfiles) {
		fprintf(stderr, "dbench-compare: %u labels for %u files\n",
			a->nlabels, a->nfiles);
		return EXIT_USAGE;
	}
	return -1;
}

/* Load every file into docs and head its column; 0, or 1 with a message. */
static int load_all(void *mem, struct table *t, const struct args *a,
		    struct json_object **docs)
{
	for (unsigned i = 0; i < a->nfiles; i++) {
		char *err = NULL;

		docs[i] = result_load(mem, a->files[i], &err);
		if (docs[i] == NULL) {
			fprintf(stderr, "dbench-compare: %s\n",
				err ? err : a->files[i]);
			return 1;
		}
		if (result_is_curve(docs[i])) {
			fprintf(stderr, "dbench-compare: %s is a load curve "
				"(dbench --curve): dbench-plot draws curves "
				"side by side\n", result_file_name(a->files[i]));
			return 1;
		}
		t->head[i] = i < a->nlabels ? talloc_strdup(t, a->labels[i]) :
					      result_label(t, docs[i]);
	}
	for (unsigned i = 1; i < a->nfiles; i++)
		if (result_is_disktest(docs[i]) !=
		    result_is_disktest(docs[0])) {
			unsigned dt = result_is_disktest(docs[i]) ? i : 0;

			fprintf(stderr, "dbench-compare: %s is a disk test "
				"(dbench --disk-test) and %s a load run: they "
				"cannot be compared\n",
				result_file_name(a->files[dt]),
				result_file_name(a->files[dt == 0 ? i : 0]));
			return 1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	void *mem = talloc_new(NULL);
	struct table *t = talloc_zero(mem, struct table);
	struct args a = {
		.files = talloc_array(mem, const char *, argc),
		.labels = talloc_array(mem, const char *, argc),
	};
	struct json_object **docs = NULL;
	char **diffs = NULL;
	int rc, ndiffs;

	if (t == NULL || a.files == NULL || a.labels == NULL) {
		fprintf(stderr, "dbench-compare: out of memory\n");
		return 1;
	}
	rc = parse_args(argc, argv, &a);
	if (rc >= 0) {
		talloc_free(mem);
		return rc;
	}
	rc = 1;
	docs = talloc_zero_array(mem, struct json_object *, a.nfiles);
	t->ncols = a.nfiles;
	t->head = talloc_array(t, char *, a.nfiles);
	if (docs == NULL || t->head == NULL) {
		fprintf(stderr, "dbench-compare: out of memory\n");
		goto out;
	}
	if (load_all(mem, t, &a, docs) != 0)
		goto out;
	ndiffs = workload_diffs(mem, docs, a.files, a.nfiles, &diffs);
	if (ndiffs < 0 || (result_is_disktest(docs[0]) ?
			   build_disktest(t, docs) : build(t, docs)) != 0) {
		fprintf(stderr, "dbench-compare: out of memory\n");
		goto out;
	}
	if (ndiffs > 0)
		fprintf(stderr, "dbench-compare: warning: these runs differ "
			"in workload; their figures do not measure the same "
			"thing:\n");
	for (int i = 0; i < ndiffs; i++)
		fprintf(stderr, "dbench-compare:   %s\n", diffs[i]);
	if (ndiffs > 0)
		print_workload_warning(diffs, ndiffs, a.markdown);
	if (a.markdown)
		print_markdown(t);
	else
		print_text(t);
	rc = fflush(stdout) != 0 ? 1 : 0;
out:
	for (unsigned i = 0; docs != NULL && i < a.nfiles; i++)
		json_object_put(docs[i]);
	talloc_free(mem);
	return rc;
}
