/*
 * dbench-mpi.c - many hosts in one run: `mpirun -np R dbench-mpi
 * [dbench options] N`.  Every rank parses the same command line with
 * dbench's own program, dbench_main() (src/cli/dbench_main.c), whose hooks
 * run N clients under the MPI coordinator (src/run/coord_mpi.c); rank 0
 * prints the progress and the one report, the other ranks' stdout goes
 * to /dev/null.  Every line a rank or its clients write on stderr is
 * prefixed with "rank R (host H): " by a small forwarding process, so a
 * client's failure names its rank, host, client and loadfile line.
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>
#include <unistd.h>

#include "run/coord_mpi.h"
#include "cli/dbench_main.h"
#include "safety/dirlock.h"
#include "run/supervisor.h"

/* how long a rank told to abort waits for rank 0 to end the job */
#define ABORT_WAIT_S 60

static struct coord *the_coord;

/* The forwarding process: copy in to fd 2, each line after prefix. */
static void forward_lines(int in, const char *prefix)
{
	size_t plen = strlen(prefix);
	bool bol = true;
	char buf[4096];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) > 0) {
		char *p = buf, *end = buf + n;

		while (p < end) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			char *stop = nl != NULL ? nl + 1 : end;

			if ((bol && write(2, prefix, plen) < 0) ||
			    write(2, p, (size_t)(stop - p)) < 0)
				return;
			bol = nl != NULL;
			p = stop;
		}
	}
}

/*
 * Prefix this rank's stderr (and its clients') with "rank R (host H): ".
 * Done before MPI_Init, so that the fork is safe: the rank comes from the
 * launcher's environment (Open MPI, MPICH).  Best effort.
 */
static void prefix_stderr(void)
{
	const char *rank = getenv("OMPI_COMM_WORLD_RANK");
	char host[64] = "", prefix[128];
	int p[2];
	pid_t pid;

	if (rank == NULL)
		rank = getenv("PMI_RANK");
	if (rank == NULL || pipe(p) != 0)
		return;
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "?");
	snprintf(prefix, sizeof(prefix), "rank %s (host %s): ", rank, host);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		/* the launcher signals a rank's children too: outlive the
		 * rank's last words, end with the last writer (EOF) */
		signal(SIGTERM, SIG_IGN);
		signal(SIGINT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		close(p[1]);
		forward_lines(p[0], prefix);
		_exit(0);
	}
	close(p[0]);
	dup2(p[1], 2);
	close(p[1]);
}

/* Has this rank reached the run (and so the coordinator)? */
static bool run_reached;

/* The run hook: N clients of this rank under the MPI coordinator. */
static int dbench_mpi_run(void *mem_ctx, const struct run_setup *su)
{
	run_reached = true;
	/* ranks that ran different things must not add up into one
	 * report: refuse before any client is prepared */
	if (coord_mpi_check_workload(the_coord, su->opts) != 0)
		return 2;	/* a usage error, as dbench's */
	coord_mpi_setup(the_coord, su->opts, su->opts->nclients);
	return run_benchmark_with(mem_ctx, su, the_coord);
}

/*
 * The lock hook, dirlock_acquire() under MPI: the ranks share their -D
 * directories by design, so only rank 0 takes the lock (a run of plain
 * dbench or another job on rank 0's directories is still refused);
 * the other ranks get an empty object to free.
 */
static struct dirlock *dbench_mpi_dirlock_acquire(void *mem_ctx,
						  const char *const *dirs,
						  unsigned ndirs, char **msg)
{
	int rank = 0;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0)
		return dirlock_acquire(mem_ctx, dirs, ndirs, msg);
	return talloc_named_const(mem_ctx, 0, "struct dirlock (rank > 0)");
}

/* --repeat and --curve: the clients of a run are spread over every
 * rank; each decision (go on, the next count) is rank 0's. */
static unsigned dbench_mpi_nranks(void)
{
	int size = 1;

	MPI_Comm_size(MPI_COMM_WORLD, &size);
	return size > 0 ? (unsigned)size : 1;
}

static void dbench_mpi_agree(int *v)
{
	MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

static int dbench_mpi_rank(void)
{
	int rank = 0;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	return rank;
}

int main(int argc, char **argv)
{
	static const struct dbench_hooks hooks = {
		.run = dbench_mpi_run,
		.dirlock_acquire = dbench_mpi_dirlock_acquire,
		.nranks = dbench_mpi_nranks,
		.agree = dbench_mpi_agree,
		.rank = dbench_mpi_rank,
	};
	int rank = 0, rc;

	prefix_stderr();
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "dbench-mpi: MPI_Init failed\n");
		return 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* errors come back to us: a lost rank must not abort in a call */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (rank != 0 && freopen("/dev/null", "w", stdout) == NULL)
		fprintf(stderr, "dbench-mpi: /dev/null: cannot open\n");
	the_coord = coord_mpi_new(NULL, MPI_COMM_WORLD);
	if (the_coord == NULL)
		MPI_Abort(MPI_COMM_WORLD, 1);
	rc = dbench_main(argc, (const char **)argv, &hooks);
	fflush(stdout);
	fflush(stderr);
	if (rc != 0 && !run_reached) {
		/* refused before the run (its message is said): the other
		 * ranks would wait for this one at the start; end the job */
		usleep(200000);
		MPI_Abort(MPI_COMM_WORLD, rc);
	}
	switch (coord_mpi_end(the_coord)) {
	case COORD_MPI_FINALIZE:
		break;
	case COORD_MPI_EXIT:
		_exit(rc != 0 ? rc : 1);
	case COORD_MPI_WAIT:
		/* rank 0 aborts the job once its own clients are cleaned
		 * up; leave anyway if that never comes */
		sleep(ABORT_WAIT_S);
		_exit(rc != 0 ? rc : 1);
	case COORD_MPI_ABORT:
		/* let the message naming the lost rank travel first */
		usleep(500000);
		MPI_Abort(MPI_COMM_WORLD, rc != 0 ? rc : 1);
	}
	talloc_free(the_coord);
	MPI_Finalize();
	return rc;
}
