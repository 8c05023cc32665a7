/*
 * rlimits.h - resource limits checked before a run starts.
 *
 * A run that cannot get the processes or file descriptors it needs must
 * be refused with a clear message before anything is forked, not fail
 * half-started.  dbench_main() (src/cli/dbench_main.c) calls
 * rlimits_check() once the loadfiles are compiled.
 */
#ifndef DBENCH_RLIMITS_H
#define DBENCH_RLIMITS_H

#include <stdbool.h>
#include <stdint.h>

#include "backends/backend.h"
#include "util/options.h"
#include "loadfile/program.h"

/*
 * The most handles a program holds open at once, from one pass over its
 * ops in file order: an open the loadfile expects to succeed (or does not
 * check) holds its handle until its Close; an open expected to fail holds
 * nothing; an open that replaces a still-open slot keeps the count; loops
 * are not unrolled.
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
 * The room the kernel and the pids cgroup leave for new tasks (processes
 * and threads alike).  A limit of 0 is "none, or unknown".
 */
struct rlimits_pids {
	uint64_t pid_max;     /* kernel.pid_max */
	uint64_t threads_max; /* kernel.threads-max */
	uint64_t tasks;	      /* tasks on the whole system now */
	uint64_t cg_max;      /* pids.max of the tightest cgroup level */
	uint64_t cg_current;  /* pids.current of that level */
	const char *cg_dir;   /* that level's directory, for the message */
};

/* Tasks kept free for the rest of the system (a shell to stop us). */
#define RLIMITS_PIDS_SPARE 64

/*
 * Can nprocs more worker processes start within room?  Pure (no system
 * calls): 0 if they fit; -1 with *msg (under mem_ctx) naming the limit,
 * its numbers and what to change (nclients and clients_per_process are
 * for the message).  Root is not exempt: these limits bind everyone.
 */
int rlimits_pids_fit(void *mem_ctx, const struct rlimits_pids *room,
		     unsigned nprocs, unsigned nclients,
		     unsigned clients_per_process, char **msg);

/*
 * The directory of this process's pids cgroup (v1 "pids" hierarchy, else
 * v2) and the mount point above it, from the texts of /proc/self/cgroup
 * and /proc/self/mountinfo.  Pure.  Returns 0 with *dir and *top
 * allocated under mem_ctx, or -1 when no such cgroup is mounted here.
 */
int rlimits_pids_cgroup(void *mem_ctx, const char *proc_cgroup,
			const char *mountinfo, char **dir, char **top);

/*
 * Check that the run o describes can start with backend be: enough file
 * descriptors for the busiest worker (be->client_fds() per client of the
 * busiest program; the soft RLIMIT_NOFILE is raised towards the hard
 * limit when that is enough) and, for a user RLIMIT_NPROC applies to,
 * enough processes for every worker beside those the user already runs;
 * for everyone, root included, room under kernel.pid_max,
 * kernel.threads-max and the pids.max of the cgroup and its ancestors.
 * Returns 0, or -1 with *msg (allocated under mem_ctx) saying what is
 * short and what to do.
 */
int rlimits_check(void *mem_ctx, const struct dbench_options *o,
		  const struct backend *be, struct program *const *progs,
		  unsigned nprogs, char **msg);

#endif
