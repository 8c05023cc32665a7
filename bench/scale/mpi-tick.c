/*
 * mpi-tick.c - the cost of dbench-mpi's per-second tick: every rank calls
 * the MPI coordinator's step(COORD_TICK) (src/run/coord_mpi.c: the tree
 * reduction of the fixed-size sample to rank 0, the time rules there, the
 * broadcast of the decision) ITER times, each after a barrier so that
 * only the exchange is timed, with a sample whose histogram spans ten
 * octaves.  Rank 0 prints: ranks, message bytes, median, 99th percentile
 * and worst time per tick in microseconds.  Run by bench/scale/mpi-tick.sh.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "run/coord_mpi.h"
#include "stats/histogram.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A second's histogram: 1,000 latencies from 1 us to 1 ms. */
static void fill(struct tick_stats *t)
{
	for (unsigned i = 0; i < 1000; i++) {
		uint64_t v = 1000ull << (i % 10);

		hist_record(&t->hist, v + i);
		t->ops++;
		if (v + i > t->max_ns)
			t->max_ns = v + i;
	}
	t->bytes = 1 << 20;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 200, rank, size;
	struct dbench_options o;
	struct tick_stats *t = calloc(1, sizeof(*t));
	uint64_t *dt = calloc((size_t)(iters > 0 ? iters : 1), sizeof(*dt));
	struct coord *c;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	c = coord_mpi_new(NULL, MPI_COMM_WORLD);
	if (c == NULL || t == NULL || dt == NULL || iters < 1)
		MPI_Abort(MPI_COMM_WORLD, 1);
	memset(&o, 0, sizeof(o));
	o.timelimit = 1 << 30;
	coord_mpi_setup(c, &o, 1);
	fill(t);
	for (int i = 0; i < iters; i++) {
		struct coord_sample s = {
			.clients = 1, .running = 1, .started = 1, .busy = 1,
			.alive = 1, .lines = 100, .bytes = 1 << 20,
			.max_ns = t->max_ns, .tick = t,
		};
		struct coord_out out;
		uint64_t t0;

		MPI_Barrier(MPI_COMM_WORLD);
		t0 = now_ns();
		if (c->ops->step(c, COORD_TICK, (uint64_t)(i + 1) * 1000000000u,
				 &s, &out) != 0)
			MPI_Abort(MPI_COMM_WORLD, 1);
		dt[i] = now_ns() - t0;
	}
	if (rank == 0) {
		qsort(dt, (size_t)iters, sizeof(*dt), cmp_u64);
		printf("ranks %d  message %zu bytes  median %.1f us  p99 %.1f us"
		       "  max %.1f us\n", size, coord_mpi_tick_bytes(),
		       (double)dt[iters / 2] / 1e3,
		       (double)dt[(size_t)iters * 99 / 100] / 1e3,
		       (double)dt[iters - 1] / 1e3);
	}
	talloc_free(c);
	free(dt);
	free(t);
	MPI_Finalize();
	return 0;
}
