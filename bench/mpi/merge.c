/*
 * merge.c - the cost of the end of a dbench-mpi job: every rank builds a
 * result shaped like one of 1 client of client.txt (every measured op
 * with a histogram spanning twelve octaves, its host's facts), then calls
 * the MPI coordinator's gather (src/run/coord_mpi_merge.c: the results
 * merged up the tree) ITER times, each after a barrier.  Rank 0 prints
 * one line of key=value: ranks; result, one rank's serialised result;
 * sent, the most bytes a rank sent up the tree; received, the largest
 * result rank 0 received; merged, its merged result's size; flat, what a
 * flat gather would have made rank 0 hold (every rank's result at once);
 * median_ms, the median time of the merge.  Run by bench/mpi/scale.sh.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "run/coord_mpi.h"
#include "stats/histogram.h"
#include "util/util.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* This rank's result: one client, every op measured. */
static struct run_result *fake_result(void *mem, int rank)
{
	static const char *const dirs[] = { "/tmp" };
	struct run_result *r = result_new(mem);

	if (r == NULL)
		return NULL;
	r->nclients = r->nprocs = 1;
	r->seconds = 60;
	r->lines = r->bytes = 1000000;
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		for (unsigned i = 0; i < 5000; i++) {
			uint64_t v = (1000ull << (i % 12)) + i * 37 + (unsigned)rank;

			hist_record(&r->ops[k].hist, v);
			r->ops[k].count++;
			r->ops[k].sum_ns += v;
			if (v > r->ops[k].max_ns)
				r->ops[k].max_ns = v;
		}
	r->clients = talloc_zero_array(r, struct result_client, 1);
	r->host_facts = host_facts_gather(r, dirs, 1);
	if (r->clients == NULL || r->host_facts == NULL)
		return NULL;
	r->nclient_results = 1;
	r->nhost_facts = 1;
	r->clients[0].client_id = (uint32_t)rank;
	r->clients[0].host = (uint32_t)rank;
	r->clients[0].loadfile = talloc_strdup(r, "/usr/share/dbench/client.txt");
	return r;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 20, rank, size;
	uint64_t *dt = calloc((size_t)(iters > 0 ? iters : 1), sizeof(*dt));
	uint64_t sent = 0, held = 0, one = 0, flat = 0, maxsent = 0;
	size_t len = 0, mlen = 0;
	struct run_result *local, *merged = NULL;
	struct dbench_options o;
	struct coord *c;
	void *mem;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	mem = talloc_new(NULL);
	c = coord_mpi_new(mem, MPI_COMM_WORLD);
	local = fake_result(mem, rank);
	if (c == NULL || local == NULL || dt == NULL || iters < 1)
		MPI_Abort(MPI_COMM_WORLD, 1);
	memset(&o, 0, sizeof(o));
	o.timelimit = 60;
	coord_mpi_setup(c, &o, 1);
	talloc_free(result_serialise(mem, local, &len));
	one = len;
	for (int i = 0; i < iters; i++) {
		void *tmp = talloc_new(mem);
		uint64_t t0;

		MPI_Barrier(MPI_COMM_WORLD);
		t0 = now_ns();
		if (c->ops->gather(c, tmp, local, &merged) != 0)
			MPI_Abort(MPI_COMM_WORLD, 1);
		dt[i] = now_ns() - t0;
		if (rank == 0 && i == 0)
			talloc_free(result_serialise(tmp, merged, &mlen));
		talloc_free(tmp);
	}
	coord_mpi_merge_stats(c, &sent, &held);
	MPI_Reduce(&sent, &maxsent, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
	MPI_Reduce(&one, &flat, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		qsort(dt, (size_t)iters, sizeof(*dt), cmp_u64);
		printf("merge ranks=%d result=%llu sent=%llu received=%llu "
		       "merged=%zu flat=%llu median_ms=%.2f\n", size,
		       (unsigned long long)one, (unsigned long long)maxsent,
		       (unsigned long long)held, mlen,
		       (unsigned long long)flat, (double)dt[iters / 2] / 1e6);
	}
	talloc_free(mem);
	free(dt);
	MPI_Finalize();
	return 0;
}
