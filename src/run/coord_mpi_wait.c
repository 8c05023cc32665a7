/*
 * coord_mpi_wait.c - the bounded wait of dbench-mpi's coordinator, under
 * coord_mpi.c (ticks, start, gather) and coord_mpi_sync.c (counts,
 * turns): an MPI request tested until done, a signal shortening the
 * wait, rank 0 pinging the others when it runs out and the others
 * answering its pings meanwhile; a rank lost is named with its host.
 * It calls neither of them.
 */
#include "config.h"

#include <sched.h>
#include <stdio.h>
#include <talloc.h>

#include "coord_mpi_private.h"
#include "pool.h"
#include "util/util.h"

#define PONG_WAIT_NS (2 * NS_PER_SEC)
#define POLL_SLEEP_NS 200000ull
#define SPIN_NS 2000000ull

const char *coord_mpi_host_of(const struct mpi_coord *m, int rank)
{
	return m->rank == 0 ? m->hosts + (size_t)rank * HOST_LEN : m->hosts;
}

int coord_mpi_broken(struct mpi_coord *m)
{
	m->broken = true;
	return -1;
}

/*
 * Rank 0: ping every rank and wait PONG_WAIT_NS for the answers.  Returns
 * 0 when all answered; otherwise names the silent ones, tells the others
 * to abort and returns -1.
 */
static int liveness_round(struct mpi_coord *m, const char *what)
{
	bool *alive = talloc_zero_array(NULL, bool, (size_t)m->size);
	MPI_Request *reqs = talloc_array(alive, MPI_Request, (size_t)m->size);
	uint64_t deadline = now_ns() + PONG_WAIT_NS;
	int missing = m->size - 1;

	if (alive == NULL || reqs == NULL) {
		talloc_free(alive);
		return coord_mpi_broken(m);
	}
	m->round++;
	for (int r = 1; r < m->size; r++)
		MPI_Isend(&m->round, 1, MPI_UINT32_T, r, TAG_PING, m->comm,
			  &reqs[r]);
	while (missing > 0 && now_ns() < deadline) {
		MPI_Status st;
		uint32_t v;
		int flag = 0;

		MPI_Iprobe(MPI_ANY_SOURCE, TAG_PONG, m->comm, &flag, &st);
		if (!flag) {
			sleep_ns(POLL_SLEEP_NS, NULL);
			continue;
		}
		MPI_Recv(&v, 1, MPI_UINT32_T, st.MPI_SOURCE, TAG_PONG,
			 m->comm, MPI_STATUS_IGNORE);
		if (!alive[st.MPI_SOURCE]) {
			alive[st.MPI_SOURCE] = true;
			missing--;
		}
	}
	for (int r = 1; r < m->size; r++) {
		MPI_Request_free(&reqs[r]);
		if (missing == 0)
			continue;
		if (!alive[r])
			fprintf(stderr, "dbench-mpi: rank %d (host %s) did not "
				"answer during %s: lost; stopping the job\n", r,
				coord_mpi_host_of(m, r), what);
		if (alive[r]) {
			MPI_Isend(&m->round, 1, MPI_UINT32_T, r, TAG_ABORT,
				  m->comm, &reqs[r]);
			MPI_Request_free(&reqs[r]);
		}
	}
	talloc_free(alive);
	return missing == 0 ? 0 : coord_mpi_broken(m);
}

/*
 * Other ranks: answer a ping from rank 0 (pushing *deadline on), or take
 * its abort.  Returns 0, or -1 on an abort.
 */
static int serve_control(struct mpi_coord *m, uint64_t *deadline,
			 uint64_t timeout)
{
	MPI_Status st;
	uint32_t v;
	int flag = 0;

	/* only rank 0's control messages: the turns (coord_mpi_sync.c)
	 * travel on their own tag */
	MPI_Iprobe(0, TAG_PING, m->comm, &flag, &st);
	if (!flag)
		MPI_Iprobe(0, TAG_ABORT, m->comm, &flag, &st);
	if (!flag)
		return 0;
	MPI_Recv(&v, 1, MPI_UINT32_T, 0, st.MPI_TAG, m->comm,
		 MPI_STATUS_IGNORE);
	if (st.MPI_TAG == TAG_PING) {
		MPI_Send(&v, 1, MPI_UINT32_T, 0, TAG_PONG, m->comm);
		if (!m->signalled)
			*deadline = now_ns() + timeout;
		return 0;
	}
	m->told = true;
	return -1;
}

int coord_mpi_wait(struct mpi_coord *m, MPI_Request *req, uint64_t timeout,
		    const char *what)
{
	uint64_t start = now_ns(), deadline;

	/* the others wait longer than rank 0, which pings them after its
	 * own timeout: a rank that started waiting a little earlier must
	 * not give up before the ping can come */
	if (m->rank != 0 && !m->signalled)
		timeout = 2 * timeout + PONG_WAIT_NS;
	deadline = start + timeout;

	for (;;) {
		int done = 0;

		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
			fprintf(stderr, "dbench-mpi: MPI failed during %s\n",
				what);
			return coord_mpi_broken(m);
		}
		if (done)
			return 0;
		if (!m->signalled && pool_signal() != 0) {
			/* waiting for a rank that is gone, maybe, and the
			 * launcher's SIGKILL follows its SIGTERM */
			m->signalled = true;
			if (deadline > now_ns() + SIGNAL_TIMEOUT_NS)
				deadline = now_ns() + SIGNAL_TIMEOUT_NS;
		}
		if (m->rank != 0 && serve_control(m, &deadline, timeout) != 0)
			return coord_mpi_broken(m);
		if (now_ns() < deadline) {
			/* the tree's inner ranks move it on only when they
			 * test: yield for the first moments, sleep after */
			if (now_ns() - start < SPIN_NS)
				sched_yield();
			else
				sleep_ns(POLL_SLEEP_NS, NULL);
			continue;
		}
		if (m->signalled) {
			fprintf(stderr, "dbench-mpi: the job did not answer "
				"during %s after the signal; cleaning up "
				"alone\n", what);
			return coord_mpi_broken(m);
		}
		if (m->rank == 0) {
			if (liveness_round(m, what) != 0)
				return -1;
			deadline = now_ns() + timeout;
			continue;
		}
		fprintf(stderr, "dbench-mpi: no word from rank 0 (host %s) "
			"during %s: lost; stopping\n", coord_mpi_host_of(m, 0), what);
		return coord_mpi_broken(m);
	}
}
