/*
 * coord_mpi.h - the coordinator of a run over MPI (src/run/coord_mpi.c):
 * every rank runs its own clients; rank 0 decides the phases and the
 * stop and prints.  Only dbench-mpi includes this (it pulls in mpi.h).
 */
#ifndef DBENCH_COORD_MPI_H
#define DBENCH_COORD_MPI_H

#include <mpi.h>

#include "run/coord.h"
#include "stats/result.h"

/*
 * The MPI coordinator of this rank in comm, under mem_ctx: rank 0 prints,
 * the host label is the rank.  Exchanges the host names (a blocking
 * collective: call it on every rank right after MPI_Init, before any
 * client is forked).  Free it before MPI_Finalize.  NULL after a message
 * on stderr.
 */
struct coord *coord_mpi_new(void *mem_ctx, MPI_Comm comm);

/* Once the command line is read: rank r's clients get ids from
 * r * clients_per_rank; the time rules follow o. */
void coord_mpi_setup(struct coord *c, const struct dbench_options *o,
		     unsigned clients_per_rank);

/* How this rank's process must end. */
enum coord_mpi_end {
	COORD_MPI_FINALIZE = 0,	/* all went well: MPI_Finalize */
	COORD_MPI_ABORT,	/* the coordination failed here (a rank
				 * lost): MPI_Abort ends the job */
	COORD_MPI_EXIT,		/* stopped on the launcher's signal: it is
				 * ending the job and names what it lost;
				 * just exit */
	COORD_MPI_WAIT,		/* rank 0 said abort: it ends the job (and
				 * must be heard first); wait for that */
};

/*
 * Before the run (a collective, every rank): do all ranks run the same
 * workload (backend, loadfiles and their content, client counts, -t,
 * --warmup and the options that change what a client does)?  Returns 0;
 * or -1 on every rank, rank 0 having named the first option that differs
 * and the ranks (or a lost rank broke the coordination).
 */
int coord_mpi_check_workload(struct coord *c, const struct dbench_options *o);

/* How this rank must end, once the run is over. */
enum coord_mpi_end coord_mpi_end(const struct coord *c);

/*
 * The merge tree of the end (coord_mpi_merge.c): of rank in a job of size
 * ranks, its parent (-1 for rank 0) and the end of the run of ranks it
 * merges, [rank, *end).
 */
void coord_mpi_tree(int size, int rank, int *parent, int *end);

/*
 * Test hook: with DBENCH_MPI_MERGE_CHECK in the environment of every
 * rank, the last run's results were also merged the old way (rank 0
 * gathers them all, then merges in rank order); that flat merge on rank 0
 * (NULL elsewhere, or when the hook is off), freed with the coordinator
 * or at the next run's gather.
 */
struct run_result *coord_mpi_flat_result(struct coord *c);

/* For bench/: the bytes this rank sent up the tree at the last run's end,
 * and the largest result it received there. */
void coord_mpi_merge_stats(struct coord *c, uint64_t *sent, uint64_t *held);

/* The size of the per-second message every rank sends (for bench/). */
size_t coord_mpi_tick_bytes(void);

#endif
