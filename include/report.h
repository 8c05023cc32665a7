/*
 * report.h - the text writers: progress lines and the end-of-run report in
 * dbench's shapes.  Each writer is a pure function of the aggregated
 * statistics it is given; none of them reads the clock or the region's
 * header.
 */
#ifndef DBENCH_REPORT_H
#define DBENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "options.h"
#include "program.h"
#include "stats.h"

struct series;

struct report {
	const struct dbench_options *opts;
	struct program *const *programs;	/* client i ran programs[slot.program] */
	unsigned nprograms;
	const struct stats_region *region;
	const struct stats_total *total;	/* all clients, phase below */
	uint32_t phase;				/* whose counters these are */
	double seconds;				/* duration of that phase */
	unsigned nprocs;
	bool interrupted;
	/* for --percentiles, --json and --series */
	const struct series *series;		/* NULL when not collected */
	struct timespec started;		/* CLOCK_REALTIME, the release */
	struct timespec ended;			/* ... when the clients stopped */
};

/* One progress line for a warmup or execute tick. */
void report_progress(FILE *f, const struct dbench_options *o,
		     enum run_phase ph, unsigned clients, double lines,
		     double mbps, double secs, double lat_ms);

/* One progress line of the cleanup phase. */
void report_cleanup(FILE *f, const struct dbench_options *o,
		    unsigned clients, double secs);

/*
 * The end-of-run report: operation table, mismatch summary, per-client
 * results, Throughput line, per-pass execute times.  mem_ctx is used for
 * temporaries only.
 */
void report_text(FILE *f, void *mem_ctx, const struct report *r);

/*
 * The percentile table (--percentiles): per op, the latency in ms at each
 * of the options' percentiles, from the merged histograms in ops.
 */
void report_percentiles(FILE *f, const struct dbench_options *o,
			const struct op_stats *ops);

/* Bytes per second as dbench's MB/sec (10^6 bytes). */
double report_mbps(uint64_t bytes, double seconds);

#endif
