/*
 * sweep_table.c - what a load curve reports: the line after each point,
 * the table (clients, MB/s, ops/s, p50 and p99 over every op, each
 * bound's figure, VALID or INVALID with the bound that broke), the
 * answer ("at most 24 clients within p99<=20ms: 812.34 MB/sec"), the
 * overall response time, and the same as the JSON "curve" section.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "report/report.h"
#include "report/result_load.h"
#include "report/usl_json.h"
#include "sweep_curve.h"
#include "report/json_put.h"

/* A latency over every op of a run's document (-1: none). */
static double all_ops(const struct dbench_options *o, struct json_object *doc,
		      enum sweep_stat stat, double p)
{
	struct sweep_bound b = { .op = -1, .stat = stat, .percentile = p };
	bool resp;

	return doc != NULL ? sweep_bound_figure(&b, o, doc, &resp) : -1;
}

/* The status word of a point, and the bound that broke after it. */
static const char *status_of(const struct curve_point *cp)
{
	if (cp->pt.status >= 128)
		return "INTERRUPTED";
	if (cp->pt.doc == NULL || cp->pt.status != 0)
		return "FAILED";
	if (!cp->valid)
		return "INVALID";
	return cp->unsteady ? "UNSTEADY" : "VALID";
}

/* The line after a point of several runs: the medians, their intervals. */
static void repeated_line(FILE *f, const struct dbench_options *o,
			  const struct curve_point *cp)
{
	fprintf(f, "%u client%s, %u runs: %.2f MB/sec [%.2f-%.2f]",
		cp->pt.clients, cp->pt.clients == 1 ? "" : "s", cp->nruns,
		cp->pt.mb_per_s, cp->mb_lo, cp->mb_hi);
	for (unsigned b = 0; b < o->nbounds; b++)
		if (cp->figure[b] >= 0)
			fprintf(f, ", %s %.3f ms [%.3f-%.3f]",
				o->bounds[b].text, cp->figure[b],
				cp->fig_lo[b], cp->fig_hi[b]);
	fprintf(f, ": %s", status_of(cp));
	if (cp->broken >= 0)
		fprintf(f, " (%s)", o->bounds[cp->broken].text);
	fprintf(f, "%s\n", cp->sure_held || cp->sure_broken ? "" :
		" (within its noise of the bound)");
	fflush(f);
}

void curve_point_line(FILE *f, const struct dbench_options *o,
		      const struct curve_point *cp)
{
	fprintf(f, "Point %u: ", cp->order + 1);
	if (cp->nruns > 1 && cp->pt.doc != NULL && cp->pt.status == 0) {
		repeated_line(f, o, cp);
		return;
	}
	if (cp->pt.doc == NULL || cp->pt.status != 0) {
		fprintf(f, "%u client%s: failed (exit status %d)\n",
			cp->pt.clients, cp->pt.clients == 1 ? "" : "s",
			cp->pt.status);
	} else {
		fprintf(f, "%u client%s: %.2f MB/sec, %.2f ops/sec, p99 "
			"%.3f ms: %s", cp->pt.clients,
			cp->pt.clients == 1 ? "" : "s", cp->pt.mb_per_s,
			cp->pt.ops_per_s,
			all_ops(o, cp->pt.doc, SWEEP_PERCENTILE, 99),
			status_of(cp));
		if (cp->broken >= 0)
			fprintf(f, " (%s)", o->bounds[cp->broken].text);
		fprintf(f, "\n");
	}
	fflush(f);
}

/* The points in order of client count. */
static const struct curve_point **sorted(void *mem, const struct curve *cv)
{
	const struct curve_point **v = talloc_array(
		mem, const struct curve_point *, cv->n + 1);

	for (unsigned i = 0; v != NULL && i < cv->n; i++) {
		unsigned j = i;

		/* insertion: a curve has a few dozen points at most */
		while (j > 0 && v[j - 1]->count > cv->pts[i].count) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = &cv->pts[i];
	}
	return v;
}

/* A bound's column width. */
static int bound_width(const struct sweep_bound *b)
{
	int w = (int)strlen(b->text);

	return w < 10 ? 10 : w;
}

/* A latency column: the figure, or "-" where there is none. */
static void latency_cell(FILE *f, int width, double ms)
{
	if (ms < 0)
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.3f", width, ms);
}

/* A latency member: the figure, or null. */
static void put_latency(struct json_object *j, const char *key, double ms)
{
	put(j, key, ms >= 0 ? new_num(ms, 6) : NULL);
}

static void table_print(FILE *f, const struct dbench_options *o,
			const struct curve_point *const *v, unsigned n)
{
	fprintf(f, "\n%8s %10s %12s %9s %9s", "Clients", "MB/sec", "ops/sec",
		"p50 ms", "p99 ms");
	for (unsigned b = 0; b < o->nbounds; b++)
		fprintf(f, " %*s", bound_width(&o->bounds[b]),
			o->bounds[b].text);
	fprintf(f, "  Status\n");
	for (unsigned i = 0; i < n; i++) {
		const struct curve_point *cp = v[i];
		struct json_object *d = cp->pt.doc;

		fprintf(f, "%8u %10.2f %12.2f", cp->pt.clients,
			cp->pt.mb_per_s, cp->pt.ops_per_s);
		latency_cell(f, 9, all_ops(o, d, SWEEP_PERCENTILE, 50));
		latency_cell(f, 9, all_ops(o, d, SWEEP_PERCENTILE, 99));
		for (unsigned b = 0; b < o->nbounds; b++)
			latency_cell(f, bound_width(&o->bounds[b]),
				     cp->figure[b]);
		fprintf(f, "  %s", status_of(cp));
		if (cp->broken >= 0)
			fprintf(f, " (%s)", o->bounds[cp->broken].text);
		else if (cp->pt.status != 0)
			fprintf(f, " (exit status %d)", cp->pt.status);
		fprintf(f, "\n");
	}
}

/* The bounds as one text ("p99<=20ms and Flush:max<=1s"). */
static char *bounds_text(void *mem, const struct dbench_options *o)
{
	char *s = talloc_strdup(mem, "");

	for (unsigned b = 0; s != NULL && b < o->nbounds; b++)
		s = talloc_asprintf_append(s, "%s%s", b == 0 ? "" :
					   b + 1 == o->nbounds ? " and " : ", ",
					   o->bounds[b].text);
	return s;
}

double sweep_overall_response(const double *x, const double *y, unsigned n)
{
	double area = 0, px = 0, py;

	if (n == 0)
		return -1;
	py = y[0];
	/* a point whose throughput falls below one before it adds nothing:
	 * the area is over the throughput reached so far */
	for (unsigned i = 0; i < n; i++) {
		if (!(x[i] > px))
			continue;
		area += (x[i] - px) * (y[i] + py) / 2;
		px = x[i];
		py = y[i];
	}
	return px > 0 ? area / px : -1;
}

/*
 * The answer: the last point (by clients) before the first that is not
 * valid; *last its index in v (-1: none), *capped when every point held.
 */
static int answer_index(const struct curve_point *const *v, unsigned n,
			bool *all)
{
	int last = -1;

	*all = true;
	for (unsigned i = 0; i < n; i++) {
		if (!v[i]->valid) {
			*all = false;
			break;
		}
		last = (int)i;
	}
	return last;
}

/* The bounds of o as JSON. */
static struct json_object *bounds_json(const struct dbench_options *o)
{
	static const char *const stat[] = { "percentile", "max", "mean" };
	struct json_object *a = json_object_new_array();

	for (unsigned b = 0; b < o->nbounds; b++) {
		const struct sweep_bound *sb = &o->bounds[b];
		struct json_object *j = json_object_new_object();

		put_str(j, "text", sb->text);
		put_str(j, "op", sb->op >= 0 ?
			op_info[sb->op].short_name : NULL);
		put_str(j, "stat", stat[sb->stat]);
		if (sb->stat == SWEEP_PERCENTILE)
			put_num(j, "percentile", sb->percentile, 6);
		put_num(j, "limit_ms", sb->limit_ms, 9);
		add(a, j);
	}
	return a;
}

/* A point of several runs: each run's figures, the medians' intervals. */
static struct json_object *repeats_json(const struct dbench_options *o,
					const struct curve_point *cp)
{
	struct json_object *j = json_object_new_object();
	struct json_object *runs = json_object_new_array();
	struct json_object *bs = json_object_new_array();

	put_int(j, "n", cp->nruns);
	put_bool(j, "confirmed", cp->confirmed);
	put_num(j, "mb_per_s_low", cp->mb_lo, 6);
	put_num(j, "mb_per_s_high", cp->mb_hi, 6);
	put_num(j, "interval_coverage", cp->mb_coverage, 6);
	put_bool(j, "surely_held", cp->sure_held);
	put_bool(j, "surely_broken", cp->sure_broken);
	for (unsigned b = 0; b < o->nbounds; b++) {
		struct json_object *e = json_object_new_object();

		put_str(e, "text", o->bounds[b].text);
		put_latency(e, "figure_ms", cp->figure[b]);
		put_latency(e, "low_ms", cp->fig_lo[b]);
		put_latency(e, "high_ms", cp->fig_hi[b]);
		add(bs, e);
	}
	put(j, "bounds", bs);
	for (unsigned i = 0; i < cp->nruns; i++) {
		const struct sweep_point *pt = &cp->runs[i];
		struct json_object *r = json_object_new_object();
		struct json_object *f = json_object_new_array();

		put_int(r, "exit_status", pt->status);
		put_num(r, "mb_per_s", pt->mb_per_s, 6);
		put_num(r, "ops_per_s", pt->ops_per_s, 3);
		for (unsigned b = 0; b < o->nbounds; b++)
			add(f, cp->run_figure[i * o->nbounds + b] >= 0 ?
			    new_num(cp->run_figure[i * o->nbounds + b], 6) :
			    NULL);
		put(r, "figures_ms", f);
		add(runs, r);
	}
	put(j, "runs", runs);
	return j;
}

/* One point as JSON (without its document). */
static struct json_object *point_json(const struct dbench_options *o,
				      const struct curve_point *cp)
{
	struct json_object *j = json_object_new_object();
	struct json_object *bs = json_object_new_array();

	put_int(j, "clients", cp->pt.clients);
	put_int(j, "order", cp->order);
	put_str(j, "status", status_of(cp));
	put_int(j, "exit_status", cp->pt.status);
	put_num(j, "mb_per_s", cp->pt.mb_per_s, 6);
	put_num(j, "ops_per_s", cp->pt.ops_per_s, 3);
	put_latency(j, "p50_ms", all_ops(o, cp->pt.doc, SWEEP_PERCENTILE, 50));
	put_latency(j, "p99_ms", all_ops(o, cp->pt.doc, SWEEP_PERCENTILE, 99));
	put_latency(j, "mean_ms", all_ops(o, cp->pt.doc, SWEEP_MEAN, 0));
	put_bool(j, "steady", !cp->unsteady);
	put_str(j, "broken", cp->broken >= 0 ? o->bounds[cp->broken].text :
		NULL);
	for (unsigned b = 0; b < o->nbounds; b++) {
		struct json_object *e = json_object_new_object();

		put_str(e, "text", o->bounds[b].text);
		put_latency(e, "figure_ms", cp->figure[b]);
		put_bool(e, "held", !(cp->figure[b] > o->bounds[b].limit_ms));
		add(bs, e);
	}
	put(j, "bounds", bs);
	if (cp->nruns > 1)
		put(j, "repeats", repeats_json(o, cp));
	return j;
}

/* The point (of cv, in the order run) that ended the curve: the one that
 * failed or was interrupted, or NULL. */
static const struct curve_point *ending_point(const struct curve *cv)
{
	for (unsigned i = cv->n; i-- > 0;)
		if (cv->pts[i].pt.status != 0 || cv->pts[i].pt.doc == NULL)
			return &cv->pts[i];
	return NULL;
}

/* A curve that ended early: what it found so far, never a capacity. */
static char *ended_line(void *mem, const char *bt,
			const struct curve_point *end,
			const struct curve_point *held)
{
	char *s = talloc_asprintf(mem, "the curve ended early: the point of "
				  "%u client%s %s (exit status %d), so it "
				  "gives no capacity; ", end->pt.clients,
				  end->pt.clients == 1 ? "" : "s",
				  end->pt.status >= 128 ? "was interrupted" :
				  "failed", end->pt.status);

	if (held == NULL)
		return talloc_asprintf_append(s, "no point held within %s "
					      "before it", bt);
	return talloc_asprintf_append(s, "up to then %u client%s held within "
				      "%s: %.2f MB/sec", held->pt.clients,
				      held->pt.clients == 1 ? "" : "s", bt,
				      held->pt.mb_per_s);
}

/*
 * The interval of the capacity from points of several runs: *lo the
 * most clients up to which every point surely held (0: not the first),
 * *hi the most clients before the first point that surely broke.
 */
static void capacity_interval(const struct curve_point *const *v,
			      unsigned n, unsigned *lo, unsigned *hi)
{
	*lo = *hi = 0;
	for (unsigned i = 0; i < n && v[i]->sure_held; i++)
		*lo = v[i]->pt.clients;
	for (unsigned i = 0; i < n && !v[i]->sure_broken; i++)
		*hi = v[i]->pt.clients;
}

/* The answer of a complete curve (a: its point, -1 none). */
static char *capacity_line(void *mem, const struct dbench_options *o,
			   const char *bt, const struct curve_point *const *v,
			   unsigned n, int a, bool all,
			   struct json_object *sec)
{
	unsigned lo, hi;
	char *s;

	if (a < 0)
		return talloc_asprintf(mem, "no client count within %s: %u "
				       "client%s already breaks it", bt,
				       n ? v[0]->pt.clients : 0,
				       n && v[0]->pt.clients == 1 ? "" : "s");
	s = talloc_asprintf(mem, "%s %u client%s", all ? "at least" :
			    "at most", v[a]->pt.clients,
			    v[a]->pt.clients == 1 ? "" : "s");
	if (o->repeat > 1) {
		capacity_interval(v, n, &lo, &hi);
		s = talloc_asprintf_append(s, " [%u-%u]", lo, hi);
		put_int(sec, "answer_clients_low", lo);
		put_int(sec, "answer_clients_high", hi);
		put_num(sec, "answer_mb_per_s_low", v[a]->mb_lo, 6);
		put_num(sec, "answer_mb_per_s_high", v[a]->mb_hi, 6);
	}
	s = talloc_asprintf_append(s, " within %s: %.2f MB/sec",
				   o->nbounds ? bt : "no bound",
				   v[a]->pt.mb_per_s);
	if (o->repeat > 1)
		s = talloc_asprintf_append(s, " [%.2f-%.2f] (medians of %u "
					   "runs a point)", v[a]->mb_lo,
					   v[a]->mb_hi, o->repeat);
	if (v[a]->unsteady)
		s = talloc_asprintf_append(s, " (UNSTEADY: its warmup never "
					   "settled; run longer)");
	return s;
}

/* The answer lines on f and into sec. */
static void answer(void *mem, FILE *f, const struct dbench_options *o,
		   const struct curve *cv, const struct curve_point *const *v,
		   unsigned n, struct json_object *sec)
{
	char *bt = bounds_text(mem, o);
	const struct curve_point *end = ending_point(cv);
	bool all;
	int a = answer_index(v, n, &all);
	double *x = talloc_array(mem, double, n + 1);
	double *y = talloc_array(mem, double, n + 1);
	double ort;
	char *line;

	if (end != NULL || !cv->complete) {
		line = end != NULL ? ended_line(mem, bt, end, a >= 0 ? v[a] :
						NULL) :
			talloc_strdup(mem, "the curve ended early: it gives "
				      "no capacity");
		all = false;
	} else {
		line = capacity_line(mem, o, bt, v, n, a, all, sec);
	}
	for (int i = 0; x != NULL && y != NULL && i <= a; i++) {
		x[i] = v[i]->pt.ops_per_s;
		y[i] = all_ops(o, v[i]->pt.doc, SWEEP_MEAN, 0);
	}
	ort = x != NULL && y != NULL ? sweep_overall_response(x, y,
		(unsigned)(a + 1)) : -1;
	fprintf(f, "\n%s\n", line ? line : "");
	if (ort >= 0)
		fprintf(f, "Overall response time %.3f ms (mean latency over "
			"ops/sec, to %u client%s)\n", ort, v[a]->pt.clients,
			v[a]->pt.clients == 1 ? "" : "s");
	put_str(sec, "answer", line);
	put_bool(sec, "ended_early", !cv->complete || end != NULL);
	if (cv->complete && end == NULL) {
		put(sec, "answer_clients", a >= 0 ?
		    json_object_new_int64(v[a]->pt.clients) : NULL);
		put(sec, "answer_mb_per_s", a >= 0 ?
		    new_num(v[a]->pt.mb_per_s, 6) : NULL);
	} else {
		put(sec, "answer_clients", NULL);
		put(sec, "answer_mb_per_s", NULL);
		put(sec, "held_clients", a >= 0 ?
		    json_object_new_int64(v[a]->pt.clients) : NULL);
	}
	put_bool(sec, "answer_is_lower_bound", a >= 0 && all);
	put(sec, "overall_response_time_ms", ort >= 0 ? new_num(ort, 6) : NULL);
}

/*
 * The Universal Scalability Law fitted to the points of the section (as
 * usl.py fits them; an aid to reading the curve, never its answer): its
 * line on f, after the answer, and the section's "usl" member (null with
 * fewer than 3 points to fit).
 */
static void model_line(FILE *f, struct json_object *sec)
{
	/* the points as the JSON holds them (MB/s to 6 decimals): read back,
	 * they give the fit anyone reading the document gets */
	const char *held = json_object_to_json_string_ext(
		result_get(sec, "points"), JSON_C_TO_STRING_PLAIN);
	struct json_object *pts = held != NULL ? json_tokener_parse(held) :
				  NULL;
	struct usl_fit fit;
	char line[320];
	int rc = pts != NULL ? usl_fit_curve(pts, &fit) : -1;

	json_object_put(pts);
	if (rc < 0)
		return;		/* out of memory: no model, nothing else lost */
	fprintf(f, "%s\n", usl_text(line, sizeof(line), rc ? &fit : NULL,
				    "MB/s"));
	put(sec, "usl", rc ? usl_json(&fit) : NULL);
}

struct json_object *curve_report(void *mem, FILE *f,
				 const struct dbench_options *o,
				 const struct curve *cv)
{
	const struct curve_point **v = sorted(mem, cv);
	struct json_object *sec = json_object_new_object();
	struct json_object *pts = json_object_new_array();
	bool resp = false;

	if (v == NULL || sec == NULL) {
		json_object_put(sec);
		json_object_put(pts);
		return NULL;
	}
	for (unsigned i = 0; i < cv->n; i++) {
		resp |= cv->pts[i].response;
		add(pts, point_json(o, v[i]));
	}
	fprintf(f, "\nLoad curve: %u point%s%s\n", cv->n,
		cv->n == 1 ? "" : "s",
		cv->complete ? "" : " (ended early: a point failed or was "
		"interrupted)");
	if (resp)
		fprintf(f, "Bounds apply to the response time, measured from "
			"when each op was due\n");
	table_print(f, o, v, cv->n);
	put_str(sec, "mode", o->curve_auto ? "auto" : "list");
	put(sec, "bounds", bounds_json(o));
	put_bool(sec, "response_time", resp);
	put_bool(sec, "complete", cv->complete);
	put(sec, "points", pts);
	answer(mem, f, o, cv, v, cv->n, sec);
	model_line(f, sec);
	fflush(f);
	return sec;
}

void curve_attach_results(struct json_object *sec, const struct curve *cv)
{
	struct json_object *pts = NULL;

	if (!json_object_object_get_ex(sec, "points", &pts))
		return;
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		struct json_object *p = json_object_array_get_idx(pts, i);
		struct json_object *ord = NULL;
		int64_t k;

		if (!json_object_object_get_ex(p, "order", &ord))
			continue;
		k = json_object_get_int64(ord);
		if (k >= 0 && k < (int64_t)cv->n && cv->pts[k].pt.doc != NULL)
			put(p, "result", json_object_get(cv->pts[k].pt.doc));
	}
}
