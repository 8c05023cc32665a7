/*
 * dbench-compare.c - side-by-side comparison of dbench JSON results
 * (dbench --json): one column per run, rows for the throughput, the
 * operations per second, the worst latency and each operation's p50 and
 * p99, every value after the first column with its change against the
 * first run in percent (none on latencies too small to compare), values
 * and changes in aligned columns.  With --a FILES --b FILES, a column per
 * side (its runs' medians) and a verdict per figure (compare_verdict.c).
 * Results of
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

#include "compare_table.h"
#include "compare_verdict.h"
#include "loadfile/program.h"
#include "report/result_load.h"

#define EXIT_USAGE 2

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dbench-compare [--markdown] [--label LABEL]... "
		"A.json B.json ...\n"
		"       dbench-compare [--markdown] [--label LABEL]... "
		"--a A.json... --b B.json...\n"
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
		"differs.\nWith --a and --b, a column per side (the medians) "
		"and a verdict\n"
		"per figure (Hodges-Lehmann on the logarithms, Mann-Whitney "
		"test).\n\n"
		"  -l, --label LABEL  name the next column (in the order of "
		"the files;\n"
		"                     default: host:directory of the run)\n"
		"  -m, --markdown     print a Markdown table\n"
		"  --a FILE... --b FILE...\n"
		"                     two sides of one or more runs each\n"
		"  -V, --version      print the version and exit\n"
		"  -h, --help         show this help\n");
}

/* A figure of a load run: result.KEY, or op OP's percentile PCT. */
struct metric {
	const char *key;
	const char *op;
	double pct;
};

/* The figure m of doc, or -1 when it has none. */
static double metric_value(struct json_object *doc, const struct metric *m)
{
	struct json_object *op;

	if (m->op == NULL)
		return result_num(result_get(doc, "result"), m->key, -1);
	op = result_op(doc, m->op);
	return op != NULL ? result_op_percentile(op, m->pct) : -1;
}

/*
 * Figure m of each run of column c into vals (those that have it); their
 * number.
 */
static unsigned column_figures(const struct table *t, unsigned c,
			       const struct metric *m, double *vals)
{
	unsigned n = 0;

	for (unsigned i = 0; i < t->ncol[c]; i++) {
		double x = metric_value(t->cols[c][i], m);

		if (x >= 0)
			vals[n++] = x;
	}
	return n;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/*
 * v[c]: figure m of column c (a side of several runs: their median), -1
 * where none has it.  Returns 0 or -1 (out of memory).
 */
static int column_values(struct table *t, const struct metric *m, double *v)
{
	for (unsigned c = 0; c < t->ncols; c++) {
		double *vals = talloc_array(t, double, t->ncol[c] + 1);
		unsigned n;

		if (vals == NULL)
			return -1;
		n = column_figures(t, c, m, vals);
		qsort(vals, n, sizeof(double), cmp_double);
		v[c] = n == 0 ? -1 : n % 2 ? vals[n / 2] :
		       (vals[n / 2 - 1] + vals[n / 2]) / 2;
		talloc_free(vals);
	}
	return 0;
}

/* The rows of the whole run, before the operations'. */
static const struct total {
	const char *name;
	const char *key;
	const char *fmt;
	double min;
	bool higher_better;
} totals[] = {
	{ "Throughput MB/s", "throughput_mb_per_s", "%.2f", 0, true },
	{ "Operations/s", "ops_per_s", "%.1f", 0, true },
	{ "Max latency ms", "max_latency_ms", "%.3f", MIN_COMPARABLE_MS,
	  false },
};
#define NTOTALS (sizeof(totals) / sizeof(totals[0]))

/* Does any run of the table have operation name? */
static bool any_has_op(const struct table *t, const char *name)
{
	for (unsigned c = 0; c < t->ncols; c++)
		for (unsigned i = 0; i < t->ncol[c]; i++)
			if (result_op(t->cols[c][i], name) != NULL)
				return true;
	return false;
}

static int build(struct table *t)
{
	double *v = talloc_array(t, double, t->ncols);

	if (v == NULL)
		return -1;
	for (size_t k = 0; k < NTOTALS; k++) {
		struct metric m = { .key = totals[k].key };

		if (column_values(t, &m, v) != 0 ||
		    add_row(t, totals[k].name, v, totals[k].fmt,
			    totals[k].min) != 0)
			return -1;
	}
	/* operations in dbench's table order, if any run has them */
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		static const double ps[] = { 50, 99 };

		if (!any_has_op(t, op_info[k].short_name))
			continue;
		for (unsigned i = 0; i < 2; i++) {
			struct metric m = { .op = op_info[k].short_name,
					    .pct = ps[i] };
			char *name = talloc_asprintf(t, "%s p%g ms",
						     op_info[k].short_name,
						     ps[i]);

			if (name == NULL || column_values(t, &m, v) != 0 ||
			    add_row(t, name, v, "%.3f",
				    MIN_COMPARABLE_MS) != 0)
				return -1;
		}
	}
	return 0;
}

/*
 * --a/--b: the verdict on each figure of the whole run, as dbench-history
 * compare gives it (compare_verdict.h).  Returns 0 or -1.
 */
static int print_verdicts(struct table *t)
{
	printf("\n");
	for (size_t k = 0; k < NTOTALS; k++) {
		struct metric m = { .key = totals[k].key };
		double *a = talloc_array(t, double, t->ncol[0] + 1);
		double *b = talloc_array(t, double, t->ncol[1] + 1);
		unsigned na, nb;
		char *line;

		if (a == NULL || b == NULL)
			return -1;
		na = column_figures(t, 0, &m, a);
		nb = column_figures(t, 1, &m, b);
		if (na == 0 || nb == 0)
			continue;
		line = verdict_sentence(t, totals[k].name,
					totals[k].higher_better, a, na, b, nb);
		if (line == NULL)
			return -1;
		printf("%s\n", line);
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
	return add_row_text(t, row, v, "%.1f", text, 0);
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
			    add_row_text(t, row, v, "%.1f", text, 0) != 0)
				return -1;
			for (unsigned c = 0; c < t->ncols; c++) {
				struct json_object *m =
					dt_measurement(docs[c], d, k);

				v[c] = result_num(m, "count", 0) > 0 ?
					result_op_percentile(m, 99) : -1;
			}
			row = talloc_asprintf(t, "%s%s p99 ms",
					      name ? name : "?", dir);
			if (row == NULL ||
			    add_row(t, row, v, "%.3f", MIN_COMPARABLE_MS) != 0)
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
	unsigned char *side;	/* per file: 0, or 1 (--a) or 2 (--b) */
	unsigned nfiles, nlabels;
	bool markdown;
	bool sides;		/* --a/--b given */
};

/* A file argument s: its side (after --a or --b) noted. */
static int add_file(struct args *a, const char *s, unsigned char side,
		    bool *have_stdin)
{
	if (strcmp(s, "-") == 0 && *have_stdin) {
		fprintf(stderr, "dbench-compare: - (standard input) can be "
			"given once\n");
		return EXIT_USAGE;
	}
	*have_stdin |= strcmp(s, "-") == 0;
	a->side[a->nfiles] = side;
	a->files[a->nfiles++] = s;
	return -1;
}

/* The checks of --a/--b: every file on a side, both sides given. */
static int check_sides(const struct args *a)
{
	unsigned n[3] = { 0, 0, 0 };

	if (!a->sides)
		return -1;
	for (unsigned i = 0; i < a->nfiles; i++)
		n[a->side[i]]++;
	if (n[0] > 0 || n[1] == 0 || n[2] == 0) {
		fprintf(stderr, "dbench-compare: --a FILE... --b FILE...: "
			"%s\n", n[0] > 0 ? "every file goes after --a or --b" :
			"each side needs one file or more");
		return EXIT_USAGE;
	}
	if (a->nlabels > 2) {
		fprintf(stderr, "dbench-compare: %u labels for the two sides "
			"of --a/--b\n", a->nlabels);
		return EXIT_USAGE;
	}
	return -1;
}

/* The option s (not a file): -1 to go on, or the exit status. */
static int parse_option(int argc, char **argv, int *i, struct args *a,
			unsigned char *side)
{
	const char *s = argv[*i];

	if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
		usage(stdout);
		return 0;
	} else if (strcmp(s, "-V") == 0 || strcmp(s, "--version") == 0) {
		printf("dbench-compare %s\n", PACKAGE_VERSION);
		return 0;
	} else if (strcmp(s, "-m") == 0 || strcmp(s, "--markdown") == 0) {
		a->markdown = true;
	} else if (strcmp(s, "--a") == 0 || strcmp(s, "--b") == 0) {
		*side = s[2] == 'a' ? 1 : 2;
		a->sides = true;
	} else if (strcmp(s, "-l") == 0 || strcmp(s, "--label") == 0) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "dbench-compare: %s needs a label\n",
				s);
			return EXIT_USAGE;
		}
		a->labels[a->nlabels++] = argv[++*i];
	} else if (strncmp(s, "--label=", 8) == 0) {
		a->labels[a->nlabels++] = s + 8;
	} else {
		fprintf(stderr, "dbench-compare: unknown option '%s' (try "
			"--help)\n", s);
		return EXIT_USAGE;
	}
	return -1;
}

/*
 * Parse the command line into a.  Returns -1 to go on, or the exit
 * status (after --help, --version or a usage error).
 */
static int parse_args(int argc, char **argv, struct args *a)
{
	bool opts_done = false, have_stdin = false;
	unsigned char side = 0;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (opts_done || s[0] != '-' || s[1] == '\0')
			rc = add_file(a, s, side, &have_stdin);
		else if (strcmp(s, "--") == 0)
			opts_done = true, rc = -1;
		else
			rc = parse_option(argc, argv, &i, a, &side);
		if (rc >= 0)
			return rc;
	}
	if (a->nfiles == 0) {
		fprintf(stderr, "dbench-compare: no result files given "
			"(usage: dbench-compare [--markdown] [--label L]... "
			"A.json B.json ...)\n");
		return EXIT_USAGE;
	}
	if (!a->sides && a->nlabels > a->nfiles) {
		fprintf(stderr, "dbench-compare: %u labels for %u files\n",
			a->nlabels, a->nfiles);
		return EXIT_USAGE;
	}
	return check_sides(a);
}

/* Load every file into docs; 0, or 1 with a message. */
static int load_all(void *mem, const struct args *a,
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
	if (a->sides && result_is_disktest(docs[0])) {
		fprintf(stderr, "dbench-compare: --a/--b compares load runs; "
			"disk tests compare one file a column\n");
		return 1;
	}
	return 0;
}

/*
 * The columns of t: a file each, or the two sides of --a/--b (headed
 * "A (N runs)" unless labelled), each side's files listed above the
 * table.  Returns 0 or -1 (out of memory).
 */
static int make_columns(struct table *t, const struct args *a,
			struct json_object **docs)
{
	t->ncols = a->sides ? 2 : a->nfiles;
	t->head = talloc_array(t, char *, t->ncols);
	t->cols = talloc_zero_array(t, struct json_object **, t->ncols);
	t->ncol = talloc_zero_array(t, unsigned, t->ncols);
	if (t->head == NULL || t->cols == NULL || t->ncol == NULL)
		return -1;
	for (unsigned c = 0; c < t->ncols; c++) {
		t->cols[c] = talloc_array(t, struct json_object *, a->nfiles);
		if (t->cols[c] == NULL)
			return -1;
	}
	for (unsigned i = 0; i < a->nfiles; i++) {
		unsigned c = a->sides ? a->side[i] - 1u : i;

		t->cols[c][t->ncol[c]++] = docs[i];
	}
	for (unsigned c = 0; c < t->ncols; c++) {
		if (c < a->nlabels)
			t->head[c] = talloc_strdup(t, a->labels[c]);
		else if (a->sides)
			t->head[c] = talloc_asprintf(t, "%c (%u run%s)",
						     'A' + c, t->ncol[c],
						     t->ncol[c] == 1 ? "" :
						     "s");
		else
			t->head[c] = result_label(t, docs[c]);
		if (t->head[c] == NULL)
			return -1;
	}
	for (unsigned c = 0; a->sides && c < 2; c++) {
		printf("%c:", 'A' + c);
		for (unsigned i = 0; i < a->nfiles; i++)
			if (a->side[i] == c + 1)
				printf(" %s", result_file_name(a->files[i]));
		printf("\n");
	}
	if (a->sides)
		printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	void *mem = talloc_new(NULL);
	struct table *t = talloc_zero(mem, struct table);
	struct args a = {
		.files = talloc_array(mem, const char *, argc),
		.labels = talloc_array(mem, const char *, argc),
		.side = talloc_zero_array(mem, unsigned char, argc),
	};
	struct json_object **docs = NULL;
	char **diffs = NULL;
	int rc, ndiffs;

	if (t == NULL || a.files == NULL || a.labels == NULL ||
	    a.side == NULL) {
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
	if (docs == NULL) {
		fprintf(stderr, "dbench-compare: out of memory\n");
		goto out;
	}
	if (load_all(mem, &a, docs) != 0)
		goto out;
	ndiffs = workload_diffs(mem, docs, a.files, a.nfiles, &diffs);
	if (ndiffs > 0)
		fprintf(stderr, "dbench-compare: warning: these runs differ "
			"in workload; their figures do not measure the same "
			"thing:\n");
	for (int i = 0; i < ndiffs; i++)
		fprintf(stderr, "dbench-compare:   %s\n", diffs[i]);
	if (ndiffs < 0 || make_columns(t, &a, docs) != 0 ||
	    (result_is_disktest(docs[0]) ? build_disktest(t, docs) :
					   build(t)) != 0) {
		fprintf(stderr, "dbench-compare: out of memory\n");
		goto out;
	}
	if (ndiffs > 0)
		print_workload_warning(diffs, ndiffs, a.markdown);
	if (a.markdown)
		print_markdown(t);
	else
		print_text(t);
	if (a.sides && print_verdicts(t) != 0) {
		fprintf(stderr, "dbench-compare: out of memory\n");
		goto out;
	}
	rc = fflush(stdout) != 0 ? 1 : 0;
out:
	for (unsigned i = 0; docs != NULL && i < a.nfiles; i++)
		json_object_put(docs[i]);
	talloc_free(mem);
	return rc;
}
