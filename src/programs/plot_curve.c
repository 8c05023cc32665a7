/*
 * plot_curve.c - dbench-plot's chart of load curves (dbench --curve
 * --json): curve.png, two panels against the client count: MB/s above,
 * the p99 latency over every op below with each bound's limit as a
 * horizontal line; invalid points (a bound broken, or the run failed)
 * are marked.  Several curves (two servers) go on the same panels.
 * Over each curve's MB/s, the Universal Scalability Law fitted to its
 * points (stats/usl.h, the fit dbench-history's usl.py makes): a thin
 * line whose legend gives sigma, kappa, the predicted peak and R^2; a
 * poor fit is still drawn, dashed, its legend saying "fit poor" first.
 */
#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "programs/plot_private.h"
#include "report/result_load.h"
#include "report/usl_json.h"

/* A figure in ms for a log axis: "?" where there is none. */
static void put_ms(FILE *f, double ms)
{
	if (ms > 0)
		fprintf(f, " %.6f", ms);
	else
		fprintf(f, " ?");
}

/* curve_I.dat of result i: clients, MB/s, p99 ms, valid (1/0), then
 * each bound's figure in ms. */
static int curve_write_data(struct plot *p, unsigned i, unsigned *npoints)
{
	struct json_object *pts = result_get(result_get(p->docs[i], "curve"),
					     "points");
	char *name = talloc_asprintf(p->mem, "curve_%u.dat", i);
	FILE *f = name ? open_data(p, name) : NULL;
	size_t n = is_array(pts) ? json_object_array_length(pts) : 0;

	if (f == NULL)
		return -1;
	*npoints = 0;
	for (size_t k = 0; k < n; k++) {
		struct json_object *pt = json_object_array_get_idx(pts, k);
		const char *st = result_str(pt, "status", "");
		double p99 = result_num(pt, "p99_ms", -1);

		if (strcmp(st, "FAILED") == 0 ||
		    strcmp(st, "INTERRUPTED") == 0)
			continue;	/* no figures to draw */
		struct json_object *b = result_get(pt, "bounds");
		size_t nb = is_array(b) ? json_object_array_length(b) : 0;

		fprintf(f, "%.0f %.6f", result_num(pt, "clients", 0),
			result_num(pt, "mb_per_s", 0));
		put_ms(f, p99);
		fprintf(f, " %d", strcmp(st, "INVALID") == 0 ? 0 : 1);
		for (size_t j = 0; j < nb; j++)
			put_ms(f, result_num(json_object_array_get_idx(b, j),
					     "figure_ms", -1));
		fprintf(f, "\n");
		(*npoints)++;
	}
	return fclose(f) != 0 ? -1 : 0;
}

/* The legend text of curve i. */
static char *curve_title(struct plot *p, unsigned i)
{
	const char *answer = result_str(result_get(p->docs[i], "curve"),
					"answer", "");

	if (p->ndocs <= 1)
		return gp_quote(p->mem, answer);
	return talloc_asprintf(p->mem, "%s: %s", plot_run_title(p, i),
			       gp_quote(p->mem, answer));
}

/* Each bound of the first curve on the latency panel: its limit as a
 * dashed line, and (one curve) its figure at each point, same colour. */
static void curve_bounds(struct plot *p)
{
	struct json_object *b = result_get(result_get(p->doc, "curve"),
					   "bounds");
	size_t n = is_array(b) ? json_object_array_length(b) : 0;

	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(b, k);
		const char *text = gp_quote(p->mem, result_str(e, "text", "?"));

		fprintf(p->gp, ", %.9g with lines dt 2 lw 2 lc %zu title "
			"\"bound %s\"", result_num(e, "limit_ms", 0),
			k + 3, text);
		if (p->ndocs == 1)
			fprintf(p->gp, ", 'curve_0.dat' using 1:%zu with "
				"linespoints pt 6 lc %zu title \"%s: figure\"",
				5 + k, k + 3, text);
	}
}

/*
 * The USL fit of curve i: its function usl_I(x) defined in the script,
 * *poor whether the fit is poor.  Returns the fit's legend (quoted for
 * gnuplot: plain text), or NULL without a fit (fewer than 3 points).
 */
static char *curve_fit_define(struct plot *p, unsigned i, bool *poor)
{
	struct usl_fit f;
	char peak[96];

	if (usl_fit_curve(result_get(result_get(p->docs[i], "curve"),
				     "points"), &f) != 1)
		return NULL;
	fprintf(p->gp, "usl_%u(x) = %.17g * x / (1 + %.17g * (x - 1) + "
		"%.17g * x * (x - 1))\n", i, f.lambda, f.sigma, f.kappa);
	if (f.has_peak)
		snprintf(peak, sizeof(peak), "predicted peak %.0f MB/s at "
			 "%.1f clients%s", f.peak, f.peak_clients,
			 f.peak_clients > f.max_clients ? " (beyond the "
			 "points)" : "");
	else
		snprintf(peak, sizeof(peak), "no peak");
	*poor = f.poor;
	/* the colour ties it to its curve: no run title, a short legend */
	return talloc_asprintf(p->mem, "USL fit%s%s%s: \xcf\x83 %.3g, "
			       "\xce\xba %.3g, %s, R\xc2\xb2 %.3f%s",
			       !f.poor ? "" : f.n < USL_MIN_POINTS ?
			       " poor (" : " poor (dashed)",
			       f.poor && f.n < USL_MIN_POINTS ? f.why : "",
			       f.poor && f.n < USL_MIN_POINTS ? "; dashed)" :
			       "", f.sigma, f.kappa, peak, f.r2,
			       f.poor ? ": read the points, not the model" :
			       "");
}

/* The MB/s panel: each curve's points, its invalid ones marked, and its
 * USL fit (defined before the plot command). */
static void curve_mbps_panel(struct plot *p)
{
	char **fit = talloc_zero_array(p->mem, char *, p->ndocs);
	bool *poor = talloc_zero_array(p->mem, bool, p->ndocs);

	for (unsigned i = 0; fit != NULL && poor != NULL && i < p->ndocs; i++)
		fit[i] = curve_fit_define(p, i, &poor[i]);
	fprintf(p->gp, "set ylabel 'MB/s'\nset yrange [0:*]\nplot ");
	for (unsigned i = 0; i < p->ndocs; i++) {
		fprintf(p->gp, "%s'curve_%u.dat' using 1:2 with linespoints "
			"pt 7 lc %u title \"%s\", '' using 1:($4 == 0 ? $2 : "
			"1/0) with points pt 2 ps 2.5 lw 2 lc rgb 'red' "
			"notitle", i ? ", " : "", i, i + 1,
			curve_title(p, i));
		if (fit != NULL && poor != NULL && fit[i] != NULL)
			fprintf(p->gp, ", usl_%u(x) with lines lw 1.5 dt %d "
				"lc %u title \"%s\"", i, poor[i] ? 2 : 1,
				i + 1, fit[i]);
	}
}

/*
 * curve.png: MB/s (above) and p99 ms (below) against clients, a line
 * per curve through its points in order of clients, the invalid ones
 * marked with a cross; each bound's limit a dashed line.
 */
int plot_curve(struct plot *p)
{
	unsigned npoints = 0, n;

	for (unsigned i = 0; i < p->ndocs; i++) {
		if (curve_write_data(p, i, &n) != 0)
			return -1;
		npoints += n;
	}
	fprintf(p->gp, "set terminal pngcairo size 1000,900 font 'sans,10' "
		"noenhanced\nset output \"%s/curve.png\"\nreset\n"
		"set datafile missing '?'\nset encoding utf8\nset samples 400\n"
		"set multiplot layout 2,1 title "
		"\"%s\\nload curve: invalid points (a bound broken) marked "
		"x\"\nset grid\nset xlabel 'clients'\nset key inside left "
		"top opaque font ',8'\n", p->qout,
		p->ndocs > 1 ? "load curves" : p->title);
	if (npoints == 0) {
		fprintf(p->gp, "set label 2 'no points' at graph 0.5, graph "
			"0.5 center\nplot 1/0 notitle\nplot 1/0 notitle\n"
			"unset multiplot\n");
		return 0;
	}
	curve_mbps_panel(p);
	fprintf(p->gp, "\nset ylabel 'latency (ms)'\nset logscale y\n"
		"set yrange [*:*]\nplot ");
	for (unsigned i = 0; i < p->ndocs; i++)
		fprintf(p->gp, "%s'curve_%u.dat' using 1:3 with linespoints "
			"pt 7 lc %u title \"p99, every op%s%s\", '' using 1:($4 == 0 ? "
			"$3 : 1/0) with points pt 2 ps 2.5 lw 2 lc rgb 'red' "
			"title \"%s\"", i ? ", " : "", i, i + 1,
			p->ndocs > 1 ? " " : "",
			p->ndocs > 1 ? plot_run_title(p, i) : "",
			i == 0 ? "invalid" : "");
	curve_bounds(p);
	fprintf(p->gp, "\nunset multiplot\n");
	return 0;
}
