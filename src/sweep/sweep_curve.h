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
	struct sweep_point pt;
	bool valid;		/* ran, and held every bound */
	bool unsteady;		/* its warmup never reached a steady state */
	bool response;		/* a bound read the response time */
	int broken;		/* the first bound broken, or -1 */
	double *figure;		/* each bound's figure in ms (-1: none) */
};

struct curve {
	struct curve_point *pts;	/* in the order run */
	unsigned n;
	bool complete;		/* no point failed or was interrupted */
};

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
