/*
 * sweep_curve_runs.c - a curve point of several runs (--curve with
 * --repeat N): each bound's figure is the median of the runs' figures,
 * with the distribution-free interval of that median (the order
 * statistics of sweep_stats_compute()); the point holds when every
 * median is within its bound, holds surely when every interval is, and
 * breaks surely when some interval lies wholly beyond its bound.  A
 * point between the two is within its own noise of the bound: the
 * search runs it again before it turns on it (sweep_curve.c).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <talloc.h>

#include "sweep_curve.h"

/* One run judged against the bounds (the figure of each, the first it
 * broke, steady or not); what sweep_curve.c and the medians below use. */
void curve_judge(const struct dbench_options *o, struct curve_point *cp)
{
	struct json_object *wu = NULL, *st = NULL;

	cp->valid = cp->pt.status == 0 && cp->pt.doc != NULL;
	cp->broken = -1;
	for (unsigned i = 0; i < o->nbounds; i++)
		cp->figure[i] = -1;
	for (unsigned i = 0; cp->pt.doc != NULL && i < o->nbounds; i++) {
		bool resp = false;

		cp->figure[i] = sweep_bound_figure(&o->bounds[i], o,
						   cp->pt.doc, &resp);
		cp->response |= resp;
		if (cp->figure[i] > o->bounds[i].limit_ms) {
			cp->valid = false;
			if (cp->broken < 0)
				cp->broken = (int)i;
		}
	}
	if (cp->pt.doc != NULL &&
	    json_object_object_get_ex(cp->pt.doc, "warmup", &wu) &&
	    json_object_object_get_ex(wu, "steady", &st) &&
	    json_object_is_type(st, json_type_boolean))
		cp->unsteady = !json_object_get_boolean(st);
}

/* Did run pt fail (no document, or a non-zero status)? */
static bool run_failed(const struct sweep_point *pt)
{
	return pt->status != 0 || pt->doc == NULL;
}

/* Judge cp as the single run pt (its intervals the figures). */
static void judge_single(const struct dbench_options *o,
			 struct curve_point *cp, const struct sweep_point *pt)
{
	cp->pt = *pt;
	curve_judge(o, cp);
	for (unsigned b = 0; b < o->nbounds; b++)
		cp->fig_lo[b] = cp->fig_hi[b] = cp->figure[b];
	cp->mb_lo = cp->mb_hi = pt->mb_per_s;
	cp->mb_coverage = 0;
	cp->sure_held = cp->valid;
	cp->sure_broken = cp->broken >= 0;
}

/* Each run's figures into cp->run_figure; unsteady and response from
 * any run.  Returns false when out of memory. */
static bool run_figures(const struct dbench_options *o,
			struct curve_point *cp)
{
	double *fig = talloc_zero_array(NULL, double,
					o->nbounds ? o->nbounds : 1);

	if (fig == NULL)
		return false;
	for (unsigned i = 0; i < cp->nruns; i++) {
		struct curve_point one = { .pt = cp->runs[i], .figure = fig };

		curve_judge(o, &one);
		for (unsigned b = 0; b < o->nbounds; b++)
			cp->run_figure[i * o->nbounds + b] = fig[b];
		cp->unsteady |= one.unsteady;
		cp->response |= one.response;
	}
	talloc_free(fig);
	return true;
}

/* The run whose MB/s lies nearest m. */
static unsigned nearest(const struct curve_point *cp, double m)
{
	unsigned k = 0;

	for (unsigned i = 1; i < cp->nruns; i++)
		if (fabs(cp->runs[i].mb_per_s - m) <
		    fabs(cp->runs[k].mb_per_s - m))
			k = i;
	return k;
}

/* The medians and intervals of the figures, and the judgement. */
static void judge_medians(const struct dbench_options *o,
			  struct curve_point *cp, double *x)
{
	struct sweep_stats s;

	cp->valid = true;
	cp->sure_held = true;
	cp->sure_broken = false;
	cp->broken = -1;
	for (unsigned b = 0; b < o->nbounds; b++) {
		for (unsigned i = 0; i < cp->nruns; i++)
			x[i] = cp->run_figure[i * o->nbounds + b];
		sweep_stats_compute(x, cp->nruns, &s);
		cp->figure[b] = s.median;
		cp->fig_lo[b] = s.med_lo;
		cp->fig_hi[b] = s.med_hi;
		if (s.median > o->bounds[b].limit_ms) {
			cp->valid = false;
			if (cp->broken < 0)
				cp->broken = (int)b;
		}
		if (s.med_hi > o->bounds[b].limit_ms)
			cp->sure_held = false;
		if (s.med_lo > o->bounds[b].limit_ms)
			cp->sure_broken = true;
	}
}

void curve_judge_runs(const struct dbench_options *o, struct curve_point *cp)
{
	struct sweep_stats s;
	double *x;

	cp->unsteady = cp->response = false;
	if (cp->nruns == 0)
		return;
	for (unsigned i = 0; i < cp->nruns; i++)
		if (run_failed(&cp->runs[i])) {
			judge_single(o, cp, &cp->runs[i]);
			cp->sure_held = cp->sure_broken = false;
			return;
		}
	x = talloc_array(NULL, double, cp->nruns);
	if (cp->nruns == 1 || x == NULL || !run_figures(o, cp)) {
		talloc_free(x);
		judge_single(o, cp, &cp->runs[0]);
		return;
	}
	for (unsigned i = 0; i < cp->nruns; i++)
		x[i] = cp->runs[i].mb_per_s;
	sweep_stats_compute(x, cp->nruns, &s);
	cp->pt = cp->runs[nearest(cp, s.median)];
	cp->pt.mb_per_s = s.median;
	cp->mb_lo = s.med_lo;
	cp->mb_hi = s.med_hi;
	cp->mb_coverage = s.med_coverage;
	for (unsigned i = 0; i < cp->nruns; i++)
		x[i] = cp->runs[i].ops_per_s;
	sweep_stats_compute(x, cp->nruns, &s);
	cp->pt.ops_per_s = s.median;
	judge_medians(o, cp, x);
	talloc_free(x);
}

bool curve_near_bound(const struct curve_point *cp)
{
	return cp->nruns > 1 && !cp->sure_held && !cp->sure_broken &&
	       !run_failed(&cp->pt);
}
