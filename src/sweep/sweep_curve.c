/*
 * sweep_curve.c - --curve: how many clients stay within the latency
 * bounds.  Each point is a whole run (its warmup, its window, fresh
 * trees) at one client count: a LIST in order, or auto, which doubles
 * from one client (per rank) until a point breaks a bound or reaches
 * --curve-max, then bisects between the last valid and the first
 * invalid count until they are within 10% or one client apart.  The
 * table, the answer and the summary figure are in sweep_table.c.  A
 * point that fails, or a signal, ends the curve: the points so far are
 * reported and the status is the failed run's.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <talloc.h>

#include "sweep_curve.h"
#include "report/json_put.h"

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

/* Run the point of count clients (NUMCLIENTS over all ranks). */
static int run_point(void *mem, const struct sweep_setup *ss,
		     struct curve *cv, unsigned count)
{
	const struct dbench_options *o = ss->base->opts;
	FILE *text = options_text_stream(o);
	struct curve_point *cp;
	int rc;

	cv->pts = talloc_realloc(mem, cv->pts, struct curve_point, cv->n + 1);
	if (cv->pts == NULL)
		return 1;
	cp = &cv->pts[cv->n];
	*cp = (struct curve_point){ .order = cv->n };
	cp->figure = talloc_zero_array(cv->pts, double,
				       o->nbounds ? o->nbounds : 1);
	if (cp->figure == NULL)
		return 1;
	cv->n++;
	fprintf(text, "\nPoint %u: %u client%s\n", cv->n,
		count * o->clients_per_process,
		count * o->clients_per_process == 1 ? "" : "s");
	fflush(text);
	rc = sweep_run_point(mem, ss, count, &cp->pt);
	cp->count = count;
	curve_judge(o, cp);
	curve_point_line(text, o, cp);
	return rc;
}

/* Is the point just run valid (on every rank)? */
static bool last_valid(const struct sweep_setup *ss, const struct curve *cv)
{
	return sweep_agree(ss, cv->pts[cv->n - 1].valid) != 0;
}

/* --curve=LIST: every count in order, to the first failure. */
static int curve_list_run(void *mem, const struct sweep_setup *ss,
			  struct curve *cv)
{
	const struct dbench_options *o = ss->base->opts;
	int rc = 0;

	for (unsigned i = 0; i < o->ncurve_points && rc == 0; i++)
		rc = sweep_agree(ss, run_point(mem, ss, cv, o->curve_points[i]));
	return rc;
}

/* Round v down to a multiple of step, at least step. */
static unsigned round_step(unsigned v, unsigned step)
{
	v -= v % step;
	return v < step ? step : v;
}

/* --curve=auto.  Returns the exit status. */
static int curve_auto_run(void *mem, const struct sweep_setup *ss,
			  struct curve *cv)
{
	const struct dbench_options *o = ss->base->opts;
	unsigned step = ss->nranks > 0 ? ss->nranks : 1;
	unsigned max = round_step(o->curve_max, step);
	unsigned good = 0, bad = 0, c = step;
	int rc;

	/* doubling, to the first invalid point or the maximum */
	for (;;) {
		if ((rc = sweep_agree(ss, run_point(mem, ss, cv, c))) != 0)
			return rc;
		if (!last_valid(ss, cv)) {
			bad = c;
			break;
		}
		good = c;
		if (c >= max)
			return 0;
		c = c * 2 > max ? max : c * 2;
	}
	/* bisecting, to within 10% or one client (per rank) */
	while (good > 0 && bad - good > step &&
	       (double)(bad - good) > 0.1 * good) {
		c = round_step(good + (bad - good) / 2, step);
		if (c <= good || c >= bad)
			break;
		if ((rc = sweep_agree(ss, run_point(mem, ss, cv, c))) != 0)
			return rc;
		if (last_valid(ss, cv))
			good = c;
		else
			bad = c;
	}
	return 0;
}

int sweep_curve(void *mem, const struct sweep_setup *ss)
{
	const struct dbench_options *o = ss->base->opts;
	struct curve *cv = talloc_zero(mem, struct curve);
	const struct sweep_point **ptrs;
	struct json_object *sec;
	int rc, saved = 0;

	if (cv == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		return 1;
	}
	rc = o->curve_auto ? curve_auto_run(mem, ss, cv) :
			     curve_list_run(mem, ss, cv);
	cv->complete = rc == 0;
	sec = curve_report(mem, options_text_stream(o), o, cv);
	ptrs = talloc_zero_array(mem, const struct sweep_point *, cv->n + 1);
	for (unsigned i = 0; ptrs != NULL && i < cv->n; i++)
		ptrs[i] = &cv->pts[i].pt;
	if (ptrs == NULL || sec == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		rc = rc != 0 ? rc : 1;
	} else if (ss->rank == 0) {
		saved = sweep_save(mem, o, "curve", sec, ptrs, cv->n);
		curve_attach_results(sec, cv);
		if (sweep_write_json(mem, o, ptrs, cv->n, "curve",
				     json_object_get(sec)) != 0 && rc == 0)
			rc = 1;
	}
	json_object_put(sec);
	for (unsigned i = 0; i < cv->n; i++)
		json_object_put(cv->pts[i].pt.doc);
	return rc != 0 ? rc : saved;
}
