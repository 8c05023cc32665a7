/*
 * plot_private.h - what dbench-plot.c (one result's charts),
 * plot_multi.c (several results on the same charts), plot_disktest.c
 * (disk tests) and plot_curve.c (load curves) share: the state of
 * a drawing, and gnuplot quoting and the data writers, which live in
 * plot_gp.c, below all of them.
 */
#ifndef DBENCH_PLOT_PRIVATE_H
#define DBENCH_PLOT_PRIVATE_H

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

struct plot {
	void *mem;
	const char *tmp;	/* scratch directory */
	const char *out;	/* output directory (absolute) */
	const char *qout;	/* the same, quoted for gnuplot */
	struct json_object *doc;	/* the first (or only) result */
	FILE *gp;		/* the script */
	char *title;
	/* every result, with its label for the legends (ndocs >= 1) */
	struct json_object **docs;
	const char **labels;	/* given with -l, else NULL */
	unsigned ndocs;
};

/* The smallest and largest positive value seen (a log axis's extent). */
struct plot_range {
	double lo, hi;
};

static inline void plot_range_add(struct plot_range *r, double v)
{
	if (r == NULL || !(v > 0) || isinf(v))
		return;
	if (v < r->lo)
		r->lo = v;
	if (v > r->hi)
		r->hi = v;
}

static inline bool is_array(struct json_object *o)
{
	return o != NULL && json_object_is_type(o, json_type_array);
}

/* A string as the body of a gnuplot double-quoted literal. */
char *gp_quote(void *mem, const char *s);

/* Open name in the scratch directory for writing. */
FILE *open_data(struct plot *p, const char *name);

/*
 * A line per operation of doc with ops: index, "name", each of the
 * document's percentiles (NAN where unknown), the max; widens r (may be
 * NULL) to the values.  Returns the number of lines.
 */
unsigned write_percentiles(FILE *f, struct json_object *doc,
			   struct plot_range *r);

/* The curves of one percentile chart of data (a write_percentiles()
 * file), after "plot ", ending the line. */
void gp_percentile_curves(FILE *gp, const char *data,
			  struct json_object *plist);

/* The legend text of result i: its -l label or host:dir, and its start
 * time (quoted for gnuplot). */
char *plot_run_title(struct plot *p, unsigned i);

/* Several load runs: throughput.png (every run's MB/s per second) and
 * latency_percentiles.png (a panel per run, side by side, one scale). */
int plot_multi_throughput(struct plot *p);
int plot_multi_percentiles(struct plot *p);

/* disk_test.png: a bar per measurement and directory (of every result:
 * with several, named by the run's label or host and start time). */
int plot_disktest(struct plot *p);

/* curve.png: load curves (dbench --curve): MB/s and p99 against clients,
 * the bounds as lines, invalid points marked. */
int plot_curve(struct plot *p);

#endif
