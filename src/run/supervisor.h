/*
 * supervisor.h - the run of a benchmark on this host: the worker pool,
 * the run loop under a coordinator, the run result, then the report and
 * the exit status computed from that result (src/run/).
 */
#ifndef DBENCH_SUPERVISOR_H
#define DBENCH_SUPERVISOR_H

#include <stdbool.h>

#include "backends/backend.h"
#include "util/options.h"
#include "loadfile/program.h"

struct coord;
struct run_result;

struct run_setup {
	const struct dbench_options *opts;
	struct program *const *programs;	/* client i runs i % nprograms */
	unsigned nprograms;
	const struct backend *backend;
	/*
	 * Writes every output of the finished run r (report_write_all()
	 * for dbench); called by the rank that prints, with report_arg
	 * as arg (the hook's own state: a sweep's point).  Returns 0, -1
	 * when an output could not be written, which fails the run, or a
	 * positive exit status for a run that succeeded but whose outputs
	 * are incomplete (HISTORY_EXIT_SAVE_FAILED: --label could not
	 * save it).  NULL: nothing is written.
	 */
	int (*report)(void *mem_ctx, void *arg, const struct dbench_options *o,
		      const struct run_result *r);
	void *report_arg;
	/* a client's target is in memory (tmpfs, ramfs): the run stops
	 * when available memory runs low (memcheck_low()) */
	bool memory_target;
};

/*
 * Run the benchmark on this host under the local coordinator, print its
 * progress, and hand its result to setup->report.  Returns the
 * process exit status (run_exit_status()), or 1 when the run could not
 * start, 2 when a client tree already holds something (pool_check_trees),
 * 128+signal when a signal stopped the start.
 */
int run_benchmark(void *mem_ctx, const struct run_setup *setup);

/* The same as run_benchmark() (the name dbench_main() calls: the default
 * run hook). */
int supervisor_run(void *mem_ctx, const struct run_setup *setup);

/*
 * run_benchmark() under coordinator c (e.g. one rank of an MPI job): the
 * rank whose c->prints is set prints and writes the merged result.
 */
int run_benchmark_with(void *mem_ctx, const struct run_setup *setup,
		       struct coord *c);

/*
 * The exit status of a finished run: 128+signal when interrupted, 1 when
 * a client failed or a worker died, every op of a kind failed
 * (run_failed_kind()), or mismatches were counted under --keep-going,
 * else 0.
 */
int run_exit_status(const struct run_result *r, const struct dbench_options *o);

/*
 * The first op kind of r that moves data (the reads and writes of every
 * dialect), ran in the reported phase and never once did what the
 * loadfile asks (each of its ops a mismatch, none fatal): a run that
 * moved none of that data is no success.  -1 when there is none.
 */
int run_failed_kind(const struct run_result *r);

#endif
