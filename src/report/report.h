/*
 * report.h - the writers of a run result: the end-of-run report in
 * dbench's text shapes, and report_write_all() for every output a run
 * asks for (text, --json, --series).  Each writer is a pure function of what it is given
 * (the run result, and the options for formatting flags); none of them
 * reads the clock, the statistics region or the programs.
 */
#ifndef DBENCH_REPORT_H
#define DBENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "util/options.h"
#include "loadfile/program.h"
#include "stats/result.h"
#include "stats/stats.h"

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
 * One line when every op of kind k (run_failed_kind()) failed in the
 * reported phase: the op, how many, and the first failure with its
 * loadfile line and error.
 */
void report_failed_kind(FILE *f, void *mem_ctx,
			const struct dbench_options *o,
			const struct run_result *r, unsigned k);

/* Op kind k's name in o's dialect ("Qpathinfo" / "QUERY_PATH_INFORMATION"). */
const char *report_op_name(const struct dbench_options *o, unsigned k);

/*
 * The percentile table (--percentiles): per op, the latency in ms at each
 * of the options' percentiles, from the merged histograms in ops.
 */
void report_percentiles(FILE *f, const struct dbench_options *o,
			const struct op_stats *ops);

/*
 * The one line on stderr when run r's machine was busy besides dbench or
 * dbench itself was client-bound (noise_note()); nothing otherwise, nor
 * for an interrupted run.
 */
void report_noise_note(void *mem, const struct run_result *r);

/*
 * Every output of a finished run r: the mismatch summary on stderr, the
 * text report on options_text_stream(o), and the --json and --series
 * files, then saves the run to the history (--label).  Returns 0, -1
 * when an output could not be written (said on stderr), or
 * HISTORY_EXIT_SAVE_FAILED when only the save failed.  arg is unused
 * (the report hook's argument, struct run_setup).
 */
int report_write_all(void *mem_ctx, void *arg, const struct dbench_options *o,
		     const struct run_result *r);

/*
 * Complete doc, the document of load run r, for the history: each op's
 * percentiles gain the 50th and 99th where --percentiles did not ask for
 * them (the printed output and --json stay as asked).
 */
struct json_object;
void report_json_history_percentiles(struct json_object *doc,
				     const struct run_result *r);

/*
 * Save doc, a run's whole document, to the history under o's --label as
 * a group of one run that ended with exit_status; r, the load run's
 * result (NULL for a disk test), gives its warnings (interrupted, warmup
 * figures, mismatches, a failure).  Returns 0, or
 * HISTORY_EXIT_SAVE_FAILED after one line on stderr naming the file.
 */
int report_history_save(void *mem_ctx, const struct dbench_options *o,
			struct json_object *doc, const struct run_result *r,
			int exit_status);

struct disktest_result;
struct host_facts;

/*
 * The "disk_test" section of a --disk-test document: the configuration
 * and, per directory, its details and the five measurements (state,
 * MB/s of every run with median/min/max, latency percentiles at
 * o->percentiles and histogram buckets as for a load run's operations).
 * Returns a new object (attach it with report_json_attach()), or NULL
 * when out of memory.
 */
struct json_object *report_disktest_json(const struct dbench_options *o,
					 const struct disktest_result *res);

/*
 * The outputs of a finished disk test res (also an interrupted or failed
 * one) besides its table: the document (report_json_header() with host,
 * the facts gathered before it or NULL, and its wall-clock times, plus
 * the "disk_test" section) written to --json, then saved to the history
 * (--label) with exit status rc.  Returns rc, or 1 when rc was 0 and
 * --json could not be written, or HISTORY_EXIT_SAVE_FAILED when rc was
 * 0 and only the save failed (each said on stderr).
 */
int report_disktest_write(void *mem_ctx, const struct dbench_options *o,
			  const struct disktest_result *res,
			  const struct host_facts *host,
			  const struct timespec *started,
			  const struct timespec *ended, int rc);

#endif
