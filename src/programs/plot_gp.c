/*
 * plot_gp.c - what every chart of dbench-plot uses: a string quoted for
 * gnuplot, a data file in the scratch directory, the percentile table
 * of one result and its curves, and the title of one run.  The charts
 * (dbench-plot.c, plot_multi.c, plot_disktest.c, plot_curve.c) call it;
 * it calls none of them.
 */
#include "config.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <talloc.h>

#include "programs/plot_private.h"
#include "report/result_load.h"

/* A string as the body of a gnuplot double-quoted literal. */
char *gp_quote(void *mem, const char *s)
{
	char *q = talloc_strdup(mem, "");

	for (; q != NULL && s != NULL && *s; s++)
		q = *s == '"' || *s == '\\' ?
			    talloc_asprintf_append(q, "\\%c", *s) :
			    talloc_asprintf_append(q, "%c", *s);
	return q;
}

FILE *open_data(struct plot *p, const char *name)
{
	char *path = talloc_asprintf(p->mem, "%s/%s", p->tmp, name);

	return path ? fopen(path, "w") : NULL;
}

unsigned write_percentiles(FILE *f, struct json_object *doc,
			   struct plot_range *r)
{
	struct json_object *ops = result_get(doc, "operations");
	struct json_object *plist = result_get(result_get(doc, "options"),
					       "percentiles");
	size_t nops = is_array(ops) ? json_object_array_length(ops) : 0;
	size_t np = is_array(plist) ? json_object_array_length(plist) : 0;
	unsigned row = 0;

	for (size_t i = 0; i < nops; i++) {
		struct json_object *op = json_object_array_get_idx(ops, i);
		double max = result_num(op, "max_ms", NAN);

		if (result_num(op, "count", 0) <= 0)
			continue;
		fprintf(f, "%u \"%s\"", row++, result_str(op, "name", "?"));
		for (size_t j = 0; j < np; j++) {
			double v = result_op_percentile(op,
				json_object_get_double(
					json_object_array_get_idx(plist, j)));

			fprintf(f, " %.6f", v > 0 ? v : NAN);
			plot_range_add(r, v);
		}
		fprintf(f, " %.6f\n", max);
		plot_range_add(r, max);
	}
	return row;
}

void gp_percentile_curves(FILE *gp, const char *data,
			  struct json_object *plist)
{
	size_t np = is_array(plist) ? json_object_array_length(plist) : 0;

	for (size_t j = 0; j < np; j++)
		fprintf(gp, "'%s' using 1:%zu:xtic(2) "
			"with linespoints lw 1.5 pt %zu ps 1.2 title 'p%g', ",
			data, j + 3, 5 + (j % 8), json_object_get_double(
				json_object_array_get_idx(plist, j)));
	fprintf(gp, "'%s' using 1:%zu:xtic(2) with points "
		"pt 2 ps 1.5 lc rgb 'black' title 'max'\n", data, np + 3);
}

char *plot_run_title(struct plot *p, unsigned i)
{
	struct json_object *doc = p->docs[i];
	const char *label = p->labels != NULL ? p->labels[i] : NULL;
	char *dflt = label ? NULL : result_label(p->mem, doc);

	return gp_quote(p->mem, talloc_asprintf(p->mem, "%s, %s",
		label ? label : dflt ? dflt : "?",
		result_str(doc, "start_time", "?")));
}
