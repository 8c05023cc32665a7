/*
 * dbench-mpi.c - many hosts in one run: `mpirun -np R dbench-mpi
 * [dbench options] N`.  Every rank parses the same command line with
 * dbench's own program, dbench_main() (src/cli/dbench_main.c), whose hooks
 * run N clients under the MPI coordinator (src/run/coord_mpi.c); rank 0
 * prints the progress and the one report, the other ranks' stdout goes
 * to /dev/null.  Every line a rank or its clients write on stderr is
 * prefixed with "rank R (host H): " by a small forwarding process, so a
 * client's failure names its rank, host, client and loadfile line, under
 * mpirun, srun --mpi=pmix or any launcher (MPI_Comm_rank's rank when the
 * launcher's variables say none or another).
 */
#include "config.h"

#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>
#include <unistd.h>

#include "run/coord_mpi.h"
#include "report/report_json.h"
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

/* The launchers' variables naming a rank, most specific first: Open MPI's
 * mpirun, any PMIx launcher (srun --mpi=pmix, prterun), MPICH's Hydra
 * and PMI-1/2 launchers, then Slurm's task id (which a batch script's
 * own mpirun passes on to every rank, so it comes last). */
static const char *const rank_vars[] = {
	"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID",
};

/* This rank's number as its launcher gave it, or -1. */
static long launcher_rank(void)
{
	for (size_t i = 0; i < sizeof(rank_vars) / sizeof(rank_vars[0]); i++) {
		const char *v = getenv(rank_vars[i]);
		char *end;
		long r;

		if (v == NULL || *v == '\0')
			continue;
		r = strtol(v, &end, 10);
		if (*end == '\0' && r >= 0 && r < INT_MAX)
			return r;
	}
	return -1;
}

/* the rank the prefix of stderr names, or -1: none yet; and the
 * launcher's stderr, which every forwarder writes to */
static long prefixed_rank = -1;
static int launcher_stderr = -1;

/*
 * Prefix this rank's stderr (and its clients') with "rank R (host H): "
 * through a forwarding process.  Called before MPI_Init with the rank its
 * launcher gave (so MPI_Init's own complaints carry it), and again after
 * with MPI_Comm_rank's when that differs or none was given: the new
 * forwarder takes over fd 2 and the old one ends at its EOF (no client
 * is forked yet, so fd 2 of this process was its only writer; the fork
 * is safe after MPI_Init: the forwarder never calls MPI and leaves with
 * _exit).  Best effort: without a pipe or a process, stderr stays as is.
 */
static void prefix_stderr(long rank)
{
	char host[64] = "", prefix[128];
	int p[2];
	pid_t pid;

	if (rank < 0 || rank == prefixed_rank)
		return;
	if (launcher_stderr < 0)
		launcher_stderr = fcntl(2, F_DUPFD_CLOEXEC, 3);
	if (launcher_stderr < 0 || pipe(p) != 0)
		return;
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "?");
	snprintf(prefix, sizeof(prefix), "rank %ld (host %s): ", rank, host);
	fflush(stderr);
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
		dup2(launcher_stderr, 2);
		forward_lines(p[0], prefix);
		_exit(0);
	}
	close(p[0]);
	dup2(p[1], 2);
	close(p[1]);
	prefixed_rank = rank;
}

/* Has this rank reached the run (and so the coordinator)? */
static bool run_reached;

/*
 * Test hook (DBENCH_MPI_MERGE_CHECK=FILE, on every rank): the job's
 * results were also merged the old, flat way (coord_mpi_merge.c); rank 0
 * writes that merge's JSON document to FILE, to be compared with --json's.
 */
static void write_flat_merge(void *mem_ctx, const struct dbench_options *o)
{
	const char *path = getenv("DBENCH_MPI_MERGE_CHECK");
	struct run_result *flat = coord_mpi_flat_result(the_coord);
	struct json_object *doc;
	char *err = NULL;

	if (path == NULL || flat == NULL)
		return;
	doc = report_json_build(mem_ctx, o, flat);
	if (doc == NULL || report_json_write(mem_ctx, doc, path, &err) != 0)
		fprintf(stderr, "dbench-mpi: DBENCH_MPI_MERGE_CHECK: %s\n",
			err != NULL ? err : "out of memory");
	if (doc != NULL)
		json_object_put(doc);
}

/* The run hook: N clients of this rank under the MPI coordinator. */
static int dbench_mpi_run(void *mem_ctx, const struct run_setup *su)
{
	int rc;

	run_reached = true;
	/* ranks that ran different things must not add up into one
	 * report: refuse before any client is prepared */
	if (coord_mpi_check_workload(the_coord, su->opts) != 0)
		return 2;	/* a usage error, as dbench's */
	coord_mpi_setup(the_coord, su->opts, su->opts->nclients);
	rc = run_benchmark_with(mem_ctx, su, the_coord);
	write_flat_merge(mem_ctx, su->opts);
	return rc;
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

	prefix_stderr(launcher_rank());
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "dbench-mpi: MPI_Init failed\n");
		return 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* MPI's own word on the rank, whatever (or whoever) launched it */
	prefix_stderr(rank);
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
