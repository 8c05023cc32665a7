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

#include "options.h"
#include "program.h"

/*
 * The most handles a program holds open at once, from one pass over its
 * ops in file order (an open that replaces a still-open slot keeps the
 * count; loops are not unrolled).  A lower bound of what a client needs.
 */
uint32_t rlimits_max_open(const struct program *p);

/*
 * The file descriptors one worker process needs to run nclients clients of
 * a program that holds max_open handles at once (each client also keeps
 * its directory open and briefly opens parents; the process its stdio,
 * the start gate and a margin).
 */
uint64_t rlimits_fds_needed(unsigned nclients, uint32_t max_open);

/*
 * Check that the run o describes can start: enough file descriptors for
 * the busiest worker (the soft RLIMIT_NOFILE is raised towards the hard
 * limit when that is enough) and, for a user RLIMIT_NPROC applies to,
 * enough processes for every worker beside those the user already runs.
 * Returns 0, or -1 with *msg (allocated under mem_ctx) saying what is
 * short and what to do.
 */
int rlimits_check(void *mem_ctx, const struct dbench_options *o,
		  struct program *const *progs, unsigned nprogs, char **msg);

#endif
