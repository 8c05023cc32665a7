/*
 * dbench_main.h - dbench's whole program as a function: parse the command
 * line, then run the loadfiles, or --disk-test, or print the version.
 * The dbench binary calls it with no hooks; dbench-mpi calls it on every
 * rank with hooks that put the run under the MPI coordinator and let
 * only rank 0 take the -D lock.
 */
#ifndef DBENCH_DBENCH_MAIN_H
#define DBENCH_DBENCH_MAIN_H

struct dirlock;
struct run_setup;

/* What a caller may put in place of the local defaults; a NULL member
 * (or NULL hooks) means the default. */
struct dbench_hooks {
	/* runs the checked load run; default supervisor_run() */
	int (*run)(void *mem_ctx, const struct run_setup *setup);
	/* takes the one-dbench-per-directory lock of -D (load runs on a
	 * local filesystem, --disk-test); default dirlock_acquire() */
	struct dirlock *(*dirlock_acquire)(void *mem_ctx,
					   const char *const *dirs,
					   unsigned ndirs, char **msg);
	/* --repeat and --curve under dbench-mpi: the number of ranks the
	 * clients are spread over (default 1), and rank 0's value of *v
	 * made every rank's (default: nothing to do) */
	unsigned (*nranks)(void);
	void (*agree)(int *v);
	/* this process's rank: only rank 0 writes a sweep's --json and
	 * saves it (default 0) */
	int (*rank)(void);
};

/*
 * dbench with argv (argv's strings must be writable: secrets in them are
 * masked in place).  Returns the exit status: 0 success, 1 the run
 * failed, 2 a usage error, 128 + signal when interrupted.
 */
int dbench_main(int argc, const char **argv,
		const struct dbench_hooks *hooks);

#endif
