/*
 * supervisor.h - the parent's side of a run: fork the workers, open the
 * start gate, tick once a second, switch phases, stop, reap, and hand the
 * aggregated statistics to the report writers.
 */
#ifndef DBENCH_SUPERVISOR_H
#define DBENCH_SUPERVISOR_H

#include <stdbool.h>

#include "backend.h"
#include "options.h"
#include "program.h"

struct run_setup {
	const struct dbench_options *opts;
	struct program *const *programs;	/* client i runs i % nprograms */
	unsigned nprograms;
	const struct backend *backend;
};

/*
 * Run the benchmark and print its progress and report on stdout.
 * Returns the process exit status: 0 success, 1 the run failed (a client
 * error, a crashed worker, mismatches under --keep-going), 128+signal when
 * interrupted by SIGINT or SIGTERM.
 */
int supervisor_run(void *mem_ctx, const struct run_setup *setup);

#endif
