/*
 * sweep_curve.c - --curve: how many clients stay within the latency
 * bounds.  Each point is a whole run (its warmup, its window, fresh
 * trees) at one client count: a LIST in order, or auto, which doubles
 * from one client (per rank) until a point breaks a bound or reaches
 * --curve-max, then bisects between the last valid and the first
 * invalid count until they are within 10% or one client apart.  The
 * table, the answer and the summary figure are in sweep_table.c.  With
 * --repeat N each point is N runs, judged on the medians of their
 * figures (sweep_curve_runs.c); a point whose figure lies within its
 * own noise of its bound runs N more before the search turns on it.  A
 * point that fails, or a signal, ends the curve: the points so far are
 * reported (the answer says the curve ended early, never that a bound
 * broke) and the status is the failed run's.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <talloc.h>

#include "sweep_curve.h"
#include "report/json_put.h"

/* Runs first..last-1 of the point cp (of nclients clients on each rank);
 * with several, a line each.  Returns the exit status of the last run
 * made. */
static int run_runs(void *mem, const struct sweep_setup *ss,
		    struct curve_point *cp, unsigned nclients, unsigned last)
{
	const struct dbench_options *o = ss->base->opts;
	FILE *text = options_text_stream(o);
	unsigned nb = o->nbounds ? o->nbounds : 1;
	int rc = 0;

	cp->runs = talloc_realloc(mem, cp->runs, struct sweep_point, last);
	cp->run_figure = talloc_realloc(mem, cp->run_figure, double,
					last * nb);
	if (cp->runs == NULL || cp->run_figure == NULL)
		return 1;
	for (unsigned i = cp->nruns * nb; i < last * nb; i++)
		cp->run_figure[i] = -1;
	while (rc == 0 && cp->nruns < last) {
		struct sweep_point *pt = &cp->runs[cp->nruns++];
		char prefix[64];

		rc = sweep_agree(ss, sweep_run_point(mem, ss, nclients, pt));
		pt->status = rc;
		if (o->repeat < 2)
			continue;
		snprintf(prefix, sizeof(prefix), "Point %u, run %u: ",
			 cp->order + 1, cp->nruns);
		if (rc == 0 && pt->doc != NULL)
			sweep_point_line(text, prefix, pt);
		else
			fprintf(text, "%s%s (exit status %d)\n", prefix,
				rc >= 128 ? "interrupted" : "failed", rc);
		fflush(text);
	}
	return rc;
}

/* Run the point of count clients (NUMCLIENTS over all ranks): once, or
 * --repeat times and as many again when a figure lies within its noise
 * of its bound. */
static int run_point(void *mem, const struct sweep_setup *ss,
		     struct curve *cv, unsigned count)
{
	const struct dbench_options *o = ss->base->opts;
	FILE *text = options_text_stream(o);
	unsigned nb = o->nbounds ? o->nbounds : 1;
	unsigned reps = o->repeat > 1 ? o->repeat : 1;
	unsigned ranks = ss->nranks > 0 ? ss->nranks : 1;
	unsigned nclients = clients_count(count, ranks,
					  o->clients_per_process);
	unsigned total = clients_total(nclients, ranks);
	struct curve_point *cp;
	int rc;

	cv->pts = talloc_realloc(mem, cv->pts, struct curve_point, cv->n + 1);
	if (cv->pts == NULL)
		return 1;
	cp = &cv->pts[cv->n];
	*cp = (struct curve_point){ .order = cv->n, .count = count };
	cp->figure = talloc_zero_array(mem, double, nb);
	cp->fig_lo = talloc_zero_array(mem, double, nb);
	cp->fig_hi = talloc_zero_array(mem, double, nb);
	if (cp->figure == NULL || cp->fig_lo == NULL || cp->fig_hi == NULL)
		return 1;
	cv->n++;
	fprintf(text, "\nPoint %u: %u client%s\n", cv->n, total,
		total == 1 ? "" : "s");
	fflush(text);
	rc = run_runs(mem, ss, cp, nclients, reps);
	curve_judge_runs(o, cp);
	if (rc == 0 && sweep_agree(ss, curve_near_bound(cp))) {
		fprintf(text, "Point %u: a figure lies within its noise of "
			"its bound: %u more runs to confirm\n", cv->n, reps);
		fflush(text);
		cp->confirmed = true;
		rc = run_runs(mem, ss, cp, nclients, 2 * reps);
		curve_judge_runs(o, cp);
	}
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
	unsigned nruns = 0;
	int rc, saved = 0;

	if (cv == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		return 1;
	}
	rc = o->curve_auto ? curve_auto_run(mem, ss, cv) :
			     curve_list_run(mem, ss, cv);
	cv->complete = rc == 0;
	sec = curve_report(mem, options_text_stream(o), o, cv);
	for (unsigned i = 0; i < cv->n; i++)
		nruns += cv->pts[i].nruns;
	ptrs = talloc_zero_array(mem, const struct sweep_point *, nruns + 1);
	nruns = 0;
	for (unsigned i = 0; ptrs != NULL && i < cv->n; i++)
		for (unsigned k = 0; k < cv->pts[i].nruns; k++)
			ptrs[nruns++] = &cv->pts[i].runs[k];
	if (ptrs == NULL || sec == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		rc = rc != 0 ? rc : 1;
	} else if (ss->rank == 0) {
		saved = sweep_save(mem, o, "curve", sec, ptrs, nruns);
		curve_attach_results(sec, cv);
		if (sweep_write_json(mem, o, ptrs, nruns, "curve",
				     json_object_get(sec)) != 0 && rc == 0)
			rc = 1;
	}
	json_object_put(sec);
	for (unsigned i = 0; i < cv->n; i++)
		for (unsigned k = 0; k < cv->pts[i].nruns; k++)
			json_object_put(cv->pts[i].runs[k].doc);
	return rc != 0 ? rc : saved;
}
