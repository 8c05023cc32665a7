/*
 * coord_mpi_private.h - what coord_mpi.c (ticks, start), coord_mpi_sync.c
 * (the counts of the progress lines, the turns at the end) and
 * coord_mpi_merge.c (the results merged at the end) share: the coordinator's state and its bounded wait.
 */
#ifndef DBENCH_COORD_MPI_PRIVATE_H
#define DBENCH_COORD_MPI_PRIVATE_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "run/coord.h"
#include "stats/result.h"
#include "util/util.h"

/* the start waits for every rank to prepare its clients, the gather for
 * every rank to clean up: both may take long on a slow filesystem */
#define LONG_TIMEOUT_NS (600 * NS_PER_SEC)
/* a wait cut short by a signal (coord_mpi_wait.c, the ticks) */
#define SIGNAL_TIMEOUT_NS (400 * 1000000ull)
/* the room of one host name in the table of hosts */
#define HOST_LEN 64

/* point-to-point tags: rank 0's control, the counts, the turns, the
 * results merged up the tree */
enum { TAG_PING = 7101, TAG_PONG, TAG_ABORT, TAG_COUNT, TAG_TURN,
       TAG_RESULT };

/* Rank 0's decision, broadcast. */
struct decision_msg {
	uint32_t phase;
	uint32_t stop;
	uint64_t stop_ns;
};

/* A count on its way to rank 0: what, the count, final. */
struct count_out {
	uint32_t msg[3];
	MPI_Request req;	/* MPI_REQUEST_NULL when none is in flight */
	uint32_t sent, sent_final;	/* the last sent */
	bool sent_any;
};

struct mpi_coord {
	MPI_Comm comm;
	int rank, size;
	MPI_Datatype tick_type;
	MPI_Op tick_op;
	char *hosts;		/* rank 0: size * HOST_LEN, every rank's
				 * host name; others: rank 0's only */
	struct tick_stats *gtick;	/* rank 0: the job's second */
	uint32_t phase;		/* the last phase decided */
	uint32_t round;		/* liveness rounds so far */
	bool signalled;		/* this rank stopped on a signal by itself */
	bool decided;		/* a tick already brought the stop: the
				 * final step does not exchange again */
	struct decision_msg last;	/* that tick's decision */
	bool told;		/* rank 0 said abort */
	bool broken;
	/* the counts (coord_mpi_sync.c): ranks > 0 send theirs ... */
	struct count_out out[COORD_COUNT_N];
	/* ... rank 0 keeps every rank's latest: [rank * N + what] */
	uint32_t *counts;
	bool *finals;
	unsigned clients;	/* clients per rank (the same on all) */
	uint64_t cleanup_wait;	/* rank 0: when its own cleanup ended */
	uint64_t prepared_wait;	/* rank 0: when its own preparation did */
	/* the end (coord_mpi_merge.c) */
	struct run_result *flat;	/* rank 0, test hook: the flat merge */
	uint64_t merge_sent;	/* bytes this rank sent its parent */
	uint64_t merge_held;	/* the largest result it received */
};

/* The host name of rank (rank 0 knows all; the others know rank 0's). */
const char *coord_mpi_host_of(const struct mpi_coord *m, int rank);

/* Wait for req within timeout (coord_mpi_wait.c; see coord_mpi.c's
 * top).  Returns 0, or -1 with the coordination broken. */
int coord_mpi_wait(struct mpi_coord *m, MPI_Request *req, uint64_t timeout,
		   const char *what);

/* Mark the coordination broken; returns -1 (for return coord_mpi_broken(m)). */
int coord_mpi_broken(struct mpi_coord *m);

/* The count hook of coord.h, and the turns (serial hook). */
unsigned coord_mpi_count(struct coord *c, enum coord_count what,
			 unsigned local, bool final, bool *others_final);
void coord_mpi_serial(struct coord *c, bool enter);

/* The gather hook: the results merged up the tree (coord_mpi_merge.c). */
int coord_mpi_gather(struct coord *c, void *mem, struct run_result *local,
		     struct run_result **merged);

/* Rank 0's table of counts for size ranks of clients each (under m). */
int coord_mpi_counts_init(struct mpi_coord *m, unsigned clients);

#endif
