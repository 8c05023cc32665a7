/*
 * coord_mpi_merge.c - the end of a dbench-mpi job: every rank's result
 * becomes the job's on rank 0 (the gather hook of coord.h).
 *
 * The results merge up a tree whose every subtree is a contiguous run of
 * ranks: rank r owns [r, end), and [r + 1, end) is split into at most
 * MERGE_FANOUT contiguous runs, each led by its first rank (r's
 * children).  A rank merges its own result, then each child's in rank
 * order as it arrives, and sends the one result of its run to its parent
 * (a header: length and the first rank whose result could not be read;
 * then the serialised result).  So rank 0 receives at most MERGE_FANOUT
 * results however large the job, holds one of them at a time besides its
 * own, and the result is the flat merge in rank order regrouped:
 * result_merge() is associative (sums of integers, maxima, "the earliest,
 * the first on a tie", concatenation in order), except the CPU seconds,
 * summed as doubles, whose rounding differences lie far below the
 * microseconds that the report and the JSON show.
 *
 * The flat gather it replaced (rank 0 gathers every serialised result,
 * then merges them in rank order) stays as a test hook: with
 * DBENCH_MPI_MERGE_CHECK set (on every rank) the job merges both ways,
 * and the flat merge's result is kept for coord_mpi_flat_result().
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "coord_mpi.h"
#include "coord_mpi_private.h"

/* the most results a rank receives at the end */
#define MERGE_FANOUT 4
/* "no rank": every result of the run could be read */
#define NO_RANK UINT64_MAX

/* The header a rank sends its parent before its run's result. */
enum { H_LEN, H_BAD, H_N };

void coord_mpi_tree(int size, int rank, int *parent, int *end)
{
	int lo = 0, hi = size;

	*parent = -1;
	while (lo != rank) {
		int first = lo + 1, n = hi - first;

		for (int i = 0; i < MERGE_FANOUT; i++) {
			int a = first + (int)((long)n * i / MERGE_FANOUT);
			int b = first + (int)((long)n * (i + 1) / MERGE_FANOUT);

			if (rank >= a && rank < b) {
				*parent = lo;
				lo = a;
				hi = b;
				break;
			}
		}
	}
	*end = hi;
}

/* The children of the rank that owns [rank, end), in rank order, into
 * kids; returns how many. */
static int children(int rank, int end, int *kids)
{
	int first = rank + 1, n = end - first, k = 0;

	for (int i = 0; i < MERGE_FANOUT; i++) {
		int a = first + (int)((long)n * i / MERGE_FANOUT);
		int b = first + (int)((long)n * (i + 1) / MERGE_FANOUT);

		if (a < b)
			kids[k++] = a;
	}
	return k;
}

/* Rank 0: the job's facts on the merged result. */
static struct run_result *finish(struct mpi_coord *m, struct run_result *res)
{
	res->nhosts = (uint32_t)m->size;
	res->host_names = talloc_array(res, char *, (size_t)m->size);
	for (int r = 0; res->host_names != NULL && r < m->size; r++)
		res->host_names[r] = talloc_strdup(res->host_names,
						   coord_mpi_host_of(m, r));
	return res;
}

static void unreadable(struct mpi_coord *m, uint64_t r)
{
	fprintf(stderr, "dbench-mpi: the result of rank %llu (host %s) "
		"cannot be read\n", (unsigned long long)r,
		coord_mpi_host_of(m, (int)r));
}

/* Merge this rank's own result into res; the series is rank 0's alone
 * (from the job's samples). */
static int merge_own(struct mpi_coord *m, struct run_result *res,
		     struct run_result *local)
{
	struct series *s = local->series;
	int rc;

	if (m->rank != 0)
		local->series = NULL;
	rc = result_merge(res, local);
	local->series = s;
	return rc;
}

/* Receive child's header and result and merge it into res (unless a
 * result already failed: *bad).  Returns 0, or -1 when the coordination
 * broke. */
static int merge_child(struct mpi_coord *m, int child, struct run_result *res,
		       uint64_t *bad)
{
	uint64_t h[H_N] = { 0, NO_RANK };
	void *tmp;
	uint8_t *buf;
	struct run_result *part;
	MPI_Request req;

	MPI_Irecv(h, H_N, MPI_UINT64_T, child, TAG_RESULT, m->comm, &req);
	if (coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the final merge") != 0)
		return -1;
	if (h[H_LEN] == 0 || h[H_LEN] >= INT_MAX) {
		if (*bad == NO_RANK)
			*bad = h[H_BAD] != NO_RANK ? h[H_BAD] : (uint64_t)child;
		return 0;
	}
	tmp = talloc_new(NULL);
	buf = tmp ? talloc_size(tmp, h[H_LEN]) : NULL;
	if (buf == NULL) {
		/* the child waits for its send: end the job */
		fprintf(stderr, "dbench-mpi: out of memory for the result of "
			"rank %d\n", child);
		talloc_free(tmp);
		m->broken = true;
		return -1;
	}
	MPI_Irecv(buf, (int)h[H_LEN], MPI_BYTE, child, TAG_RESULT, m->comm,
		  &req);
	if (coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the final merge") != 0) {
		talloc_free(tmp);
		return -1;
	}
	if (m->merge_held < h[H_LEN])
		m->merge_held = h[H_LEN];
	part = *bad == NO_RANK ? result_parse(tmp, buf, h[H_LEN]) : NULL;
	if (*bad == NO_RANK && (part == NULL || result_merge(res, part) != 0))
		*bad = h[H_BAD] != NO_RANK ? h[H_BAD] : (uint64_t)child;
	talloc_free(tmp);
	return 0;
}

/* A rank > 0: send the header and the result of its run to parent. */
static int send_up(struct mpi_coord *m, int parent, struct run_result *res,
		   uint64_t bad)
{
	void *tmp = talloc_new(NULL);
	size_t len = 0;
	uint8_t *buf = tmp && bad == NO_RANK ?
		       result_serialise(tmp, res, &len) : NULL;
	uint64_t h[H_N] = { buf != NULL && len < INT_MAX ? len : 0, bad };
	MPI_Request req[2];
	int rc;

	if (h[H_LEN] == 0 && bad == NO_RANK)
		h[H_BAD] = (uint64_t)m->rank;
	m->merge_sent = sizeof(h) + h[H_LEN];
	MPI_Isend(h, H_N, MPI_UINT64_T, parent, TAG_RESULT, m->comm, &req[0]);
	rc = coord_mpi_wait(m, &req[0], LONG_TIMEOUT_NS, "the final merge");
	if (rc == 0 && h[H_LEN] != 0) {
		MPI_Isend(buf, (int)h[H_LEN], MPI_BYTE, parent, TAG_RESULT,
			  m->comm, &req[1]);
		rc = coord_mpi_wait(m, &req[1], LONG_TIMEOUT_NS,
				    "the final merge");
	}
	talloc_free(tmp);
	return rc;
}

/* The tree merge: on rank 0 the job's result in *merged. */
static int gather_tree(struct mpi_coord *m, void *mem,
		       struct run_result *local, struct run_result **merged)
{
	void *tmp = talloc_new(NULL);
	struct run_result *res = tmp ? result_new(tmp) : NULL;
	uint64_t bad = NO_RANK;
	int parent, end, kids[MERGE_FANOUT], n;

	coord_mpi_tree(m->size, m->rank, &parent, &end);
	n = children(m->rank, end, kids);
	if (res == NULL || merge_own(m, res, local) != 0)
		bad = (uint64_t)m->rank;
	for (int i = 0; i < n; i++)
		if (merge_child(m, kids[i], res, &bad) != 0) {
			talloc_free(tmp);
			return -1;
		}
	if (m->rank != 0) {
		int rc = send_up(m, parent, res, bad);

		talloc_free(tmp);
		return rc;
	}
	if (bad != NO_RANK) {
		if (bad != 0)
			unreadable(m, bad);
		talloc_free(tmp);
		return -1;
	}
	*merged = finish(m, talloc_steal(mem, res));
	talloc_free(tmp);
	return 0;
}

/* The flat merge (test hook): rank 0 merges every rank's result (bufs at
 * displs; its own is local) in rank order. */
static struct run_result *merge_all(struct mpi_coord *m, void *mem,
				    struct run_result *local,
				    const uint8_t *all, const int *counts,
				    const int *displs)
{
	struct run_result *res = result_new(mem);

	for (int r = 0; res != NULL && r < m->size; r++) {
		struct run_result *part = local;

		if (r != 0) {
			part = result_parse(res, all + displs[r],
					    (size_t)counts[r]);
			if (part == NULL) {
				unreadable(m, (uint64_t)r);
				return NULL;
			}
			/* the series is rank 0's, from the job's samples */
			part->series = NULL;
		}
		if (result_merge(res, part) != 0)
			return NULL;
	}
	return res != NULL ? finish(m, res) : NULL;
}

/* The flat gather (test hook): on rank 0 the merge in *merged, under
 * mem.  Returns 0, or -1. */
static int gather_flat(struct mpi_coord *m, void *mem,
		       struct run_result *local, struct run_result **merged)
{
	void *tmp = talloc_new(NULL);
	size_t len = 0;
	uint8_t *buf = tmp ? result_serialise(tmp, local, &len) : NULL;
	uint64_t mylen = buf != NULL && len < INT_MAX ? len : 0;
	uint64_t *lens = NULL, total = 0;
	int *counts = NULL, *displs = NULL, rc = -1;
	uint8_t *all = NULL;
	MPI_Request req;

	if (m->rank == 0 &&
	    (lens = talloc_zero_array(tmp, uint64_t, (size_t)m->size)) == NULL)
		goto out;
	MPI_Igather(&mylen, 1, MPI_UINT64_T, lens, 1, MPI_UINT64_T, 0,
		    m->comm, &req);
	if (coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the final gather") != 0)
		goto out;
	if (m->rank == 0) {
		counts = talloc_array(tmp, int, (size_t)m->size);
		displs = talloc_array(tmp, int, (size_t)m->size);
		for (int r = 0; counts && displs && r < m->size; r++) {
			counts[r] = (int)lens[r];
			displs[r] = (int)total;
			total += lens[r];
		}
		if (total >= INT_MAX || counts == NULL || displs == NULL ||
		    (all = talloc_size(tmp, total + 1)) == NULL)
			total = UINT64_MAX;
	}
	MPI_Igatherv(buf, (int)mylen, MPI_BYTE, all, counts, displs, MPI_BYTE,
		     0, m->comm, &req);
	if (coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the final gather") != 0)
		goto out;
	rc = 0;
	if (m->rank == 0 && (total == UINT64_MAX ||
	    (*merged = merge_all(m, mem, local, all, counts, displs)) == NULL))
		rc = -1;
	if (rc == 0 && m->rank == 0)
		(*merged)->noise = local->noise;	/* not serialised */
out:
	talloc_free(tmp);
	return rc;
}

int coord_mpi_gather(struct coord *c, void *mem, struct run_result *local,
		     struct run_result **merged)
{
	struct mpi_coord *m = c->priv;
	int rc = 0, flat = 0;

	*merged = NULL;
	m->merge_sent = 0;
	m->merge_held = 0;
	TALLOC_FREE(m->flat);
	/* a failed flat merge still lets the others through the tree */
	if (!m->broken && getenv("DBENCH_MPI_MERGE_CHECK") != NULL)
		flat = gather_flat(m, m, local, &m->flat);
	if (!m->broken)
		rc = gather_tree(m, mem, local, merged);
	if (rc == 0 && flat != 0)
		rc = -1;
	if (m->broken || rc != 0) {
		if (!m->broken && m->rank == 0)
			fprintf(stderr, "dbench-mpi: the results could not "
				"be gathered\n");
		*merged = NULL;
		return -1;
	}
	return 0;
}

struct run_result *coord_mpi_flat_result(struct coord *c)
{
	struct mpi_coord *m = c->priv;

	return m->flat;
}

void coord_mpi_merge_stats(struct coord *c, uint64_t *sent, uint64_t *held)
{
	struct mpi_coord *m = c->priv;

	*sent = m->merge_sent;
	*held = m->merge_held;
}
