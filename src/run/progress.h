/*
 * progress.h - the run's own progress lines (progress.c).
 */
#ifndef DBENCH_RUN_PROGRESS_H
#define DBENCH_RUN_PROGRESS_H

#include <stdio.h>

#include "util/options.h"
#include "stats/stats.h"

/* One progress line for a warmup or execute tick, flushed. */
void progress_line(FILE *f, const struct dbench_options *o,
		   enum run_phase ph, unsigned clients, double lines,
		   double mbps, double secs, double lat_ms);

/*
 * One progress line of the cleanup phase, flushed: clients still
 * cleaning up, seconds.  The 5.0 machine form also carries lines per
 * client and MB/s (those the execute phase ended with).
 */
void progress_cleanup(FILE *f, const struct dbench_options *o,
		      unsigned clients, double lines, double mbps,
		      double secs);

/*
 * The line of the preparation, flushed: processes prepared of total,
 * seconds (nothing but the flush in the machine-readable forms).
 */
void progress_prepared(FILE *f, const struct dbench_options *o,
		       unsigned ready, unsigned total, double secs);

#endif
