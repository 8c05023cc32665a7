/*
 * dbench-compare.c - side-by-side comparison of dbench JSON results
 * (dbench --json): one column per run, rows for the throughput, the worst
 * latency and each operation's p50 and p99, every value after the first
 * column with its change against the first run in percent.  Results of
 * dbench --disk-test compare the same way, a row per measurement (median
 * MB/s and p99 latency) and directory.  Plain text by default, a Markdown
 * table with --markdown.
 */
#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "program.h"
#include "result_load.h"

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
		"latency.\n\n"
		"  -l, --label LABEL  name the next column (in the order of "
		"the files;\n"
		"                     default: host:directory of the run)\n"
		"  -m, --markdown     print a Markdown table\n"
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
 * Disk tests (dbench --disk-test): per directory, for each measurement
 * its median MB/s and the p99 latency of one block; a measurement that
 * has no figure shows its state ("not evicted", "not supported", ...).
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

int main(int argc, char **argv)
{
	void *mem = talloc_new(NULL);
	struct table *t = talloc_zero(mem, struct table);
	const char **files = talloc_array(mem, const char *, argc);
	const char **labels = talloc_array(mem, const char *, argc);
	struct json_object **docs;
	unsigned nfiles = 0, nlabels = 0;
	bool markdown = false, opts_done = false;
	int rc = 0;

	if (t == NULL || files == NULL || labels == NULL) {
		fprintf(stderr, "dbench-compare: out of memory\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || a[0] != '-' || a[1] == '\0') {
			files[nfiles++] = a;
		} else if (strcmp(a, "--") == 0) {
			opts_done = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			talloc_free(mem);
			return 0;
		} else if (strcmp(a, "-m") == 0 ||
			   strcmp(a, "--markdown") == 0) {
			markdown = true;
		} else if (strcmp(a, "-l") == 0 || strcmp(a, "--label") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "dbench-compare: %s needs a "
					"label\n", a);
				talloc_free(mem);
				return EXIT_USAGE;
			}
			labels[nlabels++] = argv[++i];
		} else if (strncmp(a, "--label=", 8) == 0) {
			labels[nlabels++] = a + 8;
		} else {
			fprintf(stderr, "dbench-compare: unknown option '%s' "
				"(try --help)\n", a);
			talloc_free(mem);
			return EXIT_USAGE;
		}
	}
	if (nfiles == 0) {
		fprintf(stderr, "dbench-compare: no result files given "
			"(usage: dbench-compare [--markdown] [--label L]... "
			"A.json B.json ...)\n");
		talloc_free(mem);
		return EXIT_USAGE;
	}
	if (nlabels > nfiles) {
		fprintf(stderr, "dbench-compare: %u labels for %u files\n",
			nlabels, nfiles);
		talloc_free(mem);
		return EXIT_USAGE;
	}
	docs = talloc_zero_array(mem, struct json_object *, nfiles);
	t->ncols = nfiles;
	t->head = talloc_array(t, char *, nfiles);
	if (docs == NULL || t->head == NULL) {
		fprintf(stderr, "dbench-compare: out of memory\n");
		talloc_free(mem);
		return 1;
	}
	for (unsigned i = 0; i < nfiles; i++) {
		char *err = NULL;

		docs[i] = result_load(mem, files[i], &err);
		if (docs[i] == NULL) {
			fprintf(stderr, "dbench-compare: %s\n",
				err ? err : files[i]);
			rc = 1;
			goto out;
		}
		t->head[i] = i < nlabels ? talloc_strdup(t, labels[i]) :
					   result_label(t, docs[i]);
	}
	for (unsigned i = 1; i < nfiles; i++)
		if (result_is_disktest(docs[i]) !=
		    result_is_disktest(docs[0])) {
			unsigned dt = result_is_disktest(docs[i]) ? i : 0;

			fprintf(stderr, "dbench-compare: %s is a disk test "
				"(dbench --disk-test) and %s a load run: they "
				"cannot be compared\n", files[dt],
				files[dt == 0 ? i : 0]);
			rc = 1;
			goto out;
		}
	if ((result_is_disktest(docs[0]) ? build_disktest(t, docs)
					 : build(t, docs)) != 0) {
		fprintf(stderr, "dbench-compare: out of memory\n");
		rc = 1;
		goto out;
	}
	if (markdown)
		print_markdown(t);
	else
		print_text(t);
	if (fflush(stdout) != 0)
		rc = 1;
out:
	for (unsigned i = 0; i < nfiles; i++)
		json_object_put(docs[i]);
	talloc_free(mem);
	return rc;
}
