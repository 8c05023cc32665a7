/*
 * sweep_curve.h - a load curve's points, shared by sweep_curve.c (the
 * search) and sweep_table.c (the table, the answer, the JSON section).
 */
#ifndef DBENCH_SWEEP_CURVE_H
#define DBENCH_SWEEP_CURVE_H

#include "sweep_private.h"

struct curve_point {
	unsigned order;		/* 0.. in the order run */
	unsigned count;		/* NUMCLIENTS over all ranks */
	struct sweep_point pt;	/* the run shown: the only one, or (with
				 * --repeat) the one nearest the median
				 * MB/s, with the medians of MB/s and ops/s
				 * (its doc is runs[]'s: not released
				 * through pt) */
	bool valid;		/* ran, and held every bound */
	bool unsteady;		/* its warmup never reached a steady state */
	bool response;		/* a bound read the response time */
	int broken;		/* the first bound broken, or -1 */
	double *figure;		/* each bound's figure in ms (-1: none); the
				 * median of the runs' with --repeat */
	/* --repeat with --curve: every run of the point, in order */
	struct sweep_point *runs;
	unsigned nruns;
	double *run_figure;	/* [run * nbounds + bound] */
	double *fig_lo, *fig_hi;	/* each figure's interval (of the
					 * median); = figure with one run */
	double mb_lo, mb_hi;	/* the interval of the median MB/s */
	double mb_coverage;	/* those intervals' coverage, 0..1 */
	bool confirmed;		/* re-run: a figure lay within its noise
				 * of its bound */
	bool sure_held;		/* every figure's interval within its bound */
	bool sure_broken;	/* some figure's interval beyond its bound */
};

struct curve {
	struct curve_point *pts;	/* in the order run */
	unsigned n;
	bool complete;		/* no point failed or was interrupted */
};

/*
 * Judge cp from its runs (cp->runs[0..nruns), cp->figure, fig_lo,
 * fig_hi and run_figure sized for o's bounds and the runs): one run is
 * judged by curve_judge(); a run that failed makes the point that run;
 * else each bound's figure is the median of the runs', with its
 * order-statistic interval, and sure_held/sure_broken say whether the
 * intervals lie wholly within or beyond the bounds.
 */
void curve_judge_runs(const struct dbench_options *o, struct curve_point *cp);

/* Does a figure of cp (judged from several runs) lie within its noise of
 * its bound: neither surely held nor surely broken? */
bool curve_near_bound(const struct curve_point *cp);

/*
 * Judge cp (its run done, cp->figure sized for o's bounds) against the
 * bounds of o: each bound's figure, valid, the first bound broken, and
 * unsteady when the document's warmup says it never became steady (on
 * rank 0, which has the document).
 */
void curve_judge(const struct dbench_options *o, struct curve_point *cp);

/* The line after a point's run. */
void curve_point_line(FILE *f, const struct dbench_options *o,
		      const struct curve_point *cp);

/*
 * The table, the answer and the summary figure on f; returns the curve
 * section for the JSON (without the runs' documents), or NULL when out
 * of memory.
 */
struct json_object *curve_report(void *mem, FILE *f,
				 const struct dbench_options *o,
				 const struct curve *cv);

/* Each point of section gets its run's whole document as "result". */
void curve_attach_results(struct json_object *section,
			  const struct curve *cv);

#endif
