/*
 * rlimits.h - resource limits checked before a run starts.
 *
 * A run that cannot get the processes or file descriptors it needs must
 * be refused with a clear message before anything is forked, not fail
 * half-started.  main.c calls rlimits_check() once the loadfiles are
 * compiled.
 */
#ifndef DBENCH_RLIMITS_H
#define DBENCH_RLIMITS_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "options.h"
#include "program.h"

/*
 * The most handles a program holds open at once, from one pass over its
 * ops in file order (an open that replaces a still-open slot keeps the
 * count; loops are not unrolled).  A lower bound of what a client needs.
 */
uint32_t rlimits_max_open(const struct program *p);

/*
 * The distinct directories a program's paths name (each path's parent,
 * as written, per client), or UINT32_MAX when that is not known (a path
 * with a $N substitution, no memory): what a backend that keeps
 * directories open may keep.
 */
uint32_t rlimits_max_dirs(const struct program *p);

/*
 * The file descriptors one worker process needs to run nclients clients
 * that hold client_fds each (the backend's ->client_fds), with the
 * process's own (stdio, the start gate, a margin).
 */
uint64_t rlimits_fds_needed(unsigned nclients, uint64_t client_fds);

/*
 * Check that the run o describes can start with backend be: enough file
 * descriptors for the busiest worker (be->client_fds() per client of the
 * busiest program; the soft RLIMIT_NOFILE is raised towards the hard
 * limit when that is enough) and, for a user RLIMIT_NPROC applies to,
 * enough processes for every worker beside those the user already runs.
 * Returns 0, or -1 with *msg (allocated under mem_ctx) saying what is
 * short and what to do.
 */
int rlimits_check(void *mem_ctx, const struct dbench_options *o,
		  const struct backend *be, struct program *const *progs,
		  unsigned nprogs, char **msg);

#endif
