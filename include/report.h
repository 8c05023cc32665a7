/*
 * report.h - the text writers: progress lines and the end-of-run report in
 * dbench's shapes.  Each writer is a pure function of what it is given
 * (the run result, and the options for formatting flags); none of them
 * reads the clock, the statistics region or the programs.
 */
#ifndef DBENCH_REPORT_H
#define DBENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "options.h"
#include "program.h"
#include "result.h"
#include "stats.h"

/* One progress line for a warmup or execute tick. */
void report_progress(FILE *f, const struct dbench_options *o,
		     enum run_phase ph, unsigned clients, double lines,
		     double mbps, double secs, double lat_ms);

/*
 * One progress line of the cleanup phase: clients still cleaning up,
 * seconds.  The 5.0 machine form also carries lines per client and MB/s
 * (those the execute phase ended with).
 */
void report_cleanup(FILE *f, const struct dbench_options *o,
		    unsigned clients, double lines, double mbps, double secs);

/*
 * The end-of-run report of result r: operation table, per-client
 * results, Throughput line, per-pass execute times.  o gives the
 * formatting flags and the dialect.  mem_ctx is used for temporaries
 * only.
 */
void report_text(FILE *f, void *mem_ctx, const struct dbench_options *o,
		 const struct run_result *r);

/*
 * The status-mismatch summary of r (nothing when there was none).  It is
 * not part of the text report: table parsers (mmtests reads every line
 * after "Operation") would take its rows for operations, so the caller
 * writes it to stderr, before the report.
 */
void report_mismatches(FILE *f, void *mem_ctx,
		       const struct dbench_options *o,
		       const struct run_result *r);

/*
 * Where the text (header, progress, report) goes: stdout, or stderr when
 * the JSON document goes to stdout (--json -).
 */
FILE *report_text_stream(const struct dbench_options *o);

/* Op kind k's name in o's dialect ("Qpathinfo" / "QUERY_PATH_INFORMATION"). */
const char *report_op_name(const struct dbench_options *o, unsigned k);

/*
 * The percentile table (--percentiles): per op, the latency in ms at each
 * of the options' percentiles, from the merged histograms in ops.
 */
void report_percentiles(FILE *f, const struct dbench_options *o,
			const struct op_stats *ops);

#endif
