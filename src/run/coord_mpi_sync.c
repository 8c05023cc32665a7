/*
 * coord_mpi_sync.c - what the ranks of dbench-mpi tell rank 0 outside
 * the ticks, and the end of the job:
 *   - the counts of the progress lines ("N of M processes prepared for
 *     launch", "N  cleanup"): each rank sends its count point-to-point
 *     when it changes (never blocking: one message in flight per count,
 *     a newer value waits for it), rank 0 adds up the latest of each
 *     rank; a rank's last count is marked final, so that rank 0 knows
 *     when every rank has prepared, and has cleaned up;
 *   - the turns around the record of kept trees, which ranks sharing a
 *     directory would otherwise rewrite at once (the last rename wins):
 *     rank r updates it after rank r - 1 said it is done, then all meet
 *     at a barrier, so no rank is still working when the job ends.
 * Every wait is bounded (coord_mpi_wait); a rank lost meanwhile costs
 * the turns, never the job's end.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "coord_mpi_private.h"

int coord_mpi_counts_init(struct mpi_coord *m, unsigned clients)
{
	size_t n = (size_t)m->size * COORD_COUNT_N;

	m->clients = clients;
	for (unsigned w = 0; w < COORD_COUNT_N; w++)
		m->out[w].req = MPI_REQUEST_NULL;
	if (m->rank != 0)
		return 0;
	talloc_free(m->counts);
	talloc_free(m->finals);
	m->counts = talloc_zero_array(m, uint32_t, n);
	m->finals = talloc_zero_array(m, bool, n);
	if (m->counts == NULL || m->finals == NULL)
		return -1;
	/* until a rank says otherwise, all its clients are busy */
	for (int r = 0; r < m->size; r++)
		m->counts[(size_t)r * COORD_COUNT_N + COORD_COUNT_BUSY] =
			clients;
	return 0;
}

/* A rank > 0: send (what, local, final) unless it is what was sent or
 * the last message is still in flight (a final one waits for it). */
static void count_send(struct mpi_coord *m, enum coord_count what,
		       unsigned local, bool final)
{
	struct count_out *o = &m->out[what];
	int done = 1;

	if (o->sent_any && o->sent == local && o->sent_final == final)
		return;
	if (o->req != MPI_REQUEST_NULL)
		MPI_Test(&o->req, &done, MPI_STATUS_IGNORE);
	if (!done && !final)
		return;	/* the next call sends the newer value */
	if (!done && coord_mpi_wait(m, &o->req, LONG_TIMEOUT_NS,
				    "a count") != 0)
		return;
	o->msg[0] = what;
	o->msg[1] = local;
	o->msg[2] = final;
	o->sent = local;
	o->sent_final = final;
	o->sent_any = true;
	MPI_Isend(o->msg, 3, MPI_UINT32_T, 0, TAG_COUNT, m->comm, &o->req);
}

/* Rank 0: take every count that arrived. */
static void count_drain(struct mpi_coord *m)
{
	for (;;) {
		MPI_Status st;
		uint32_t msg[3];
		int flag = 0;
		size_t k;

		MPI_Iprobe(MPI_ANY_SOURCE, TAG_COUNT, m->comm, &flag, &st);
		if (!flag)
			return;
		MPI_Recv(msg, 3, MPI_UINT32_T, st.MPI_SOURCE, TAG_COUNT,
			 m->comm, MPI_STATUS_IGNORE);
		if (msg[0] >= COORD_COUNT_N || st.MPI_SOURCE <= 0 ||
		    st.MPI_SOURCE >= m->size)
			continue;
		k = (size_t)st.MPI_SOURCE * COORD_COUNT_N + msg[0];
		m->counts[k] = msg[1];
		m->finals[k] = msg[2] != 0;
	}
}

unsigned coord_mpi_count(struct coord *c, enum coord_count what,
			 unsigned local, bool final, bool *others_final)
{
	struct mpi_coord *m = c->priv;
	unsigned sum = local;

	*others_final = true;
	if (m->broken || what >= COORD_COUNT_N)
		return local;
	if (m->rank != 0) {
		count_send(m, what, local, final);
		return local;
	}
	if (m->counts == NULL)
		return local;
	count_drain(m);
	for (int r = 1; r < m->size; r++) {
		size_t k = (size_t)r * COORD_COUNT_N + what;

		sum += m->counts[k];
		*others_final = *others_final && m->finals[k];
	}
	/* a rank lost while preparing is the start barrier's to name:
	 * wait for the others as long as it would */
	if (what == COORD_COUNT_PREPARED && final && !*others_final) {
		if (m->prepared_wait == 0)
			m->prepared_wait = now_ns();
		*others_final = now_ns() - m->prepared_wait >= LONG_TIMEOUT_NS;
	}
	return sum;
}

void coord_mpi_serial(struct coord *c, bool enter)
{
	struct mpi_coord *m = c->priv;
	uint32_t token = 1;
	MPI_Request req;

	if (m->broken || m->signalled)
		return;
	if (enter && m->rank > 0) {
		MPI_Irecv(&token, 1, MPI_UINT32_T, m->rank - 1, TAG_TURN,
			  m->comm, &req);
		coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the turns at the end");
		return;
	}
	if (enter)
		return;
	/* the counts sent last must not be in flight at the end */
	for (unsigned w = 0; w < COORD_COUNT_N; w++)
		if (m->out[w].req != MPI_REQUEST_NULL &&
		    coord_mpi_wait(m, &m->out[w].req, LONG_TIMEOUT_NS,
				   "a count") != 0)
			return;
	if (m->rank + 1 < m->size) {
		MPI_Isend(&token, 1, MPI_UINT32_T, m->rank + 1, TAG_TURN,
			  m->comm, &req);
		if (coord_mpi_wait(m, &req, LONG_TIMEOUT_NS,
				   "the turns at the end") != 0)
			return;
	}
	/* every rank's work is done when this completes */
	MPI_Ibarrier(m->comm, &req);
	coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the end of the job");
}
