/*
 * plot_multi.c - dbench-plot with several results: every run's
 * throughput per second on one chart, and the runs' latency percentiles
 * in panels side by side on one scale, each run named by its label (or
 * host:directory) and start time.  One result's charts are drawn by
 * dbench-plot.c alone, unchanged.
 */
#include "config.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "programs/plot_private.h"
#include "report/result_load.h"

/* Line colours of the runs, in order (then again). */
static const char *const run_colour[] = {
	"#1f6fb4", "#d0501b", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
	"#7f7f7f", "#bcbd22",
};
#define NCOLOURS (sizeof(run_colour) / sizeof(run_colour[0]))

/* Run i's per-second series as series_I.dat; the last second in *end. */
static int write_series(struct plot *p, unsigned i, double *end)
{
	struct json_object *series = result_get(p->docs[i], "series");
	size_t n = is_array(series) ? json_object_array_length(series) : 0;
	char *name = talloc_asprintf(p->mem, "series_%u.dat", i);
	FILE *f = name ? open_data(p, name) : NULL;

	if (f == NULL)
		return -1;
	fprintf(f, "# mid_s mb_per_s phase\n");
	for (size_t k = 0; k < n; k++) {
		struct json_object *r = json_object_array_get_idx(series, k);
		double e = result_num(r, "elapsed_s", 0);
		double d = result_num(r, "duration_s", 1);

		fprintf(f, "%.6f %.6f %s\n", e - d / 2,
			result_num(r, "mb_per_s", 0),
			result_str(r, "phase", "?"));
		if (e > *end)
			*end = e;
	}
	return fclose(f) != 0 ? -1 : 0;
}

int plot_multi_throughput(struct plot *p)
{
	double end = 0;

	for (unsigned i = 0; i < p->ndocs; i++)
		if (write_series(p, i, &end) != 0)
			return -1;
	fprintf(p->gp, "set output \"%s/throughput.png\"\n", p->qout);
	fprintf(p->gp, "reset\nset title \"%u runs: throughput per second "
		"(warmup seconds as open points)\"\n", p->ndocs);
	fprintf(p->gp, "set xlabel 'seconds since the start'\n"
		"set ylabel 'MB/s'\nset yrange [0:*]\nset grid ytics\n"
		"set offsets 0, 0, graph 0.08, 0\n"
		"set key outside bottom center vertical\n");
	fprintf(p->gp, "set xrange [0:%g]\n", end > 0 ? end : 1);
	fprintf(p->gp, "plot ");
	for (unsigned i = 0; i < p->ndocs; i++) {
		const char *c = run_colour[i % NCOLOURS];

		fprintf(p->gp, "%s'series_%u.dat' using 1:2 with lines lw 2 "
			"lc rgb '%s' title \"%s\", "
			"'' using 1:(strcol(3) eq 'warmup' ? $2 : 1/0) "
			"with points pt 6 ps 0.6 lc rgb '%s' notitle",
			i ? ", " : "", i, c, plot_run_title(p, i), c);
	}
	fprintf(p->gp, "\n");
	return 0;
}

int plot_multi_percentiles(struct plot *p)
{
	struct plot_range r = { .lo = INFINITY, .hi = 0 };
	unsigned *rows = talloc_array(p->mem, unsigned, p->ndocs);
	unsigned cols = p->ndocs > 3 ? 3 : p->ndocs;
	unsigned nrows = (p->ndocs + cols - 1) / cols;

	if (rows == NULL)
		return -1;
	for (unsigned i = 0; i < p->ndocs; i++) {
		char *name = talloc_asprintf(p->mem, "percentiles_%u.dat", i);
		FILE *f = name ? open_data(p, name) : NULL;

		if (f == NULL)
			return -1;
		rows[i] = write_percentiles(f, p->docs[i], &r);
		if (fclose(f) != 0)
			return -1;
	}
	fprintf(p->gp, "reset\nset terminal pngcairo size %u,%u "
		"font 'sans,10' noenhanced\n", 560 * cols, 80 + 500 * nrows);
	fprintf(p->gp, "set output \"%s/latency_percentiles.png\"\n", p->qout);
	fprintf(p->gp, "set multiplot layout %u,%u title \"%u runs: latency "
		"percentiles per operation, side by side on one scale\"\n",
		nrows, cols, p->ndocs);
	fprintf(p->gp, "set ylabel 'latency (ms, log scale)'\n"
		"set logscale y\nset format y '%%g'\nset grid ytics mytics\n"
		"set xtics rotate by -35 left\nset key inside left top "
		"vertical\nset bmargin 6\n");
	if (r.hi > 0)
		fprintf(p->gp, "set yrange [%g:%g]\n",
			pow(10, floor(log10(r.lo))),
			pow(10, ceil(log10(r.hi))));
	for (unsigned i = 0; i < p->ndocs; i++) {
		struct json_object *plist = result_get(result_get(
			p->docs[i], "options"), "percentiles");
		char *data = talloc_asprintf(p->mem, "percentiles_%u.dat", i);

		if (data == NULL)
			return -1;
		fprintf(p->gp, "set title \"%s\"\nset xrange [-0.5:%u-0.5]\n",
			plot_run_title(p, i), rows[i] ? rows[i] : 1);
		if (rows[i] == 0) {
			fprintf(p->gp, "set label 2 'no operations' at graph "
				"0.5, graph 0.5 center\nplot 1/0 notitle\n"
				"unset label 2\n");
			continue;
		}
		fprintf(p->gp, "plot ");
		gp_percentile_curves(p->gp, data, plist);
	}
	fprintf(p->gp, "unset multiplot\n");
	return 0;
}
