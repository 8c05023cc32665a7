/*
 * plot_disktest.c - dbench-plot's chart of disk tests (dbench --disk-test
 * --json): disk_test.png, bars of the median MB/s of each measurement, a
 * bar per directory of every result given.
 */
#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <talloc.h>

#include "programs/plot_private.h"
#include "report/result_load.h"

/* The directories of every disk test, in order: a bar series each. */
struct dt_series {
	size_t n;
	struct json_object **dir;
	char **title;		/* quoted for gnuplot */
};

/* Series title of dir of result i: its path, after the run's label (or
 * host) and before its start time when there are several results. */
static char *dt_series_title(struct plot *p, unsigned i,
			     struct json_object *dir)
{
	struct json_object *mb = result_get(dir, "memory_backed");
	const char *mem = mb && json_object_get_boolean(mb) ?
		" (in memory: not a disk)" : "";
	const char *path = result_str(dir, "path", "?");

	if (p->ndocs <= 1)
		return talloc_asprintf(p->mem, "%s%s", gp_quote(p->mem, path),
				       mem);
	return gp_quote(p->mem, talloc_asprintf(p->mem, "%s%s%s%s, %s",
		p->labels ? p->labels[i] : result_str(result_get(
			p->docs[i], "host"), "hostname", "?"),
		p->labels ? ": " : ":", path, mem,
		result_str(p->docs[i], "start_time", "?")));
}

static int dt_collect(struct plot *p, struct dt_series *s)
{
	s->n = 0;
	for (unsigned i = 0; i < p->ndocs; i++) {
		struct json_object *dirs = result_get(result_get(
			p->docs[i], "disk_test"), "directories");
		size_t nd = is_array(dirs) ? json_object_array_length(dirs) : 0;

		s->dir = talloc_realloc(p->mem, s->dir, struct json_object *,
					s->n + nd + 1);
		s->title = talloc_realloc(p->mem, s->title, char *,
					  s->n + nd + 1);
		if (s->dir == NULL || s->title == NULL)
			return -1;
		for (size_t d = 0; d < nd; d++) {
			s->dir[s->n] = json_object_array_get_idx(dirs, d);
			s->title[s->n] = dt_series_title(p, i, s->dir[s->n]);
			if (s->title[s->n++] == NULL)
				return -1;
		}
	}
	return 0;
}

/* Measurement k of series directory dir, or NULL. */
static struct json_object *dt_measure(struct json_object *dir, size_t k)
{
	struct json_object *ms = result_get(dir, "measurements");

	return is_array(ms) && k < json_object_array_length(ms) ?
	       json_object_array_get_idx(ms, k) : NULL;
}

/* disktest.dat: a line per measurement, three columns per series. */
static int dt_write_data(struct plot *p, const struct dt_series *s,
			 size_t *nk)
{
	FILE *f = open_data(p, "disktest.dat");

	if (f == NULL)
		return -1;
	*nk = 0;
	for (size_t d = 0; d < s->n; d++) {
		struct json_object *m = result_get(s->dir[d], "measurements");

		if (is_array(m) && json_object_array_length(m) > *nk)
			*nk = json_object_array_length(m);
	}
	for (size_t k = 0; k < *nk; k++) {
		const char *name = NULL;

		for (size_t d = 0; d < s->n && name == NULL; d++)
			name = result_str(dt_measure(s->dir[d], k), "name",
					  NULL);
		fprintf(f, "\"%s\"", gp_quote(p->mem, name ? name : "?"));
		for (size_t d = 0; d < s->n; d++) {
			struct json_object *m = dt_measure(s->dir[d], k);
			double med = result_num(m, "mb_per_s_median", -1);

			if (med < 0)
				fprintf(f, " ? ? ?");
			else
				fprintf(f, " %.3f %.3f %.3f", med,
					result_num(m, "mb_per_s_min", med),
					result_num(m, "mb_per_s_max", med));
		}
		fprintf(f, "\n");
	}
	return fclose(f) != 0 ? -1 : 0;
}

/*
 * disk_test.png (--disk-test documents): one group of bars per
 * measurement, a bar per directory (of every result given) at the median
 * MB/s with the lowest and highest run as an error bar; a measurement
 * without a figure (not evicted, not supported, failed) has no bar.
 */
int plot_disktest(struct plot *p)
{
	struct dt_series s = { 0 };
	size_t nk;

	if (dt_collect(p, &s) != 0 || dt_write_data(p, &s, &nk) != 0)
		return -1;
	fprintf(p->gp, "set output \"%s/disk_test.png\"\n", p->qout);
	if (p->ndocs > 1)
		fprintf(p->gp, "reset\nset title \"%u disk tests\\nmedian "
			"MB/s per measurement (bar: lowest to highest run; "
			"no bar: no figure)\"\n", p->ndocs);
	else
		fprintf(p->gp, "reset\nset title \"%s\\nmedian MB/s per "
			"measurement (bar: lowest to highest run; no bar: no "
			"figure)\"\n", p->title);
	fprintf(p->gp, "set datafile missing '?'\nset ylabel 'MB/s "
		"(10^6 bytes/s)'\nset yrange [0:*]\nset grid ytics\n"
		"set style data histograms\n"
		"set style histogram errorbars gap 1 lw 1\n"
		"set style fill solid 0.7 border -1\nset boxwidth 0.9\n"
		"set key outside bottom center horizontal\n");
	if (nk == 0 || s.n == 0) {
		fprintf(p->gp, "set label 2 'no measurements' at graph 0.5, "
			"graph 0.5 center\nplot 1/0 notitle\n");
		return 0;
	}
	fprintf(p->gp, "plot ");
	for (size_t d = 0; d < s.n; d++)
		fprintf(p->gp, "%s'disktest.dat' using %zu:%zu:%zu%s title "
			"\"%s\"", d ? ", " : "", 2 + 3 * d, 3 + 3 * d,
			4 + 3 * d, d == 0 ? ":xtic(1)" : "", s.title[d]);
	fprintf(p->gp, "\n");
	return 0;
}
