/*
 * series.h - the once-a-second series of a run: for every tick of the
 * parent, the phase, the time, and what the clients did in that second
 * (bytes, ops, worst latency, 99th percentile).  Collected by the
 * run loop from the coordinator's samples, kept in the run result, written
 * as CSV (--series) and into the JSON document.
 */
#ifndef DBENCH_SERIES_H
#define DBENCH_SERIES_H

#include <stdint.h>

#include "stats/stats.h"

struct series_row {
	uint32_t phase;		/* enum run_phase */
	double elapsed_s;	/* since the release, at the end of the row */
	double duration_s;	/* usually 1; more after a late tick */
	uint64_t bytes;		/* ReadX + WriteX bytes */
	uint64_t ops;		/* measured ops completed */
	uint64_t max_ns;	/* worst latency */
	uint64_t p99_ns;	/* 99th percentile of the latencies */
};

struct series {
	struct series_row *rows;
	unsigned nrows;
};

/* A new, empty series under mem_ctx, or NULL when out of memory. */
struct series *series_new(void *mem_ctx);

/*
 * Append the row of one second: t holds what every client did in it (for
 * a run on several hosts, the merge of their samples).  Returns 0, or -1
 * when out of memory (the row is lost).
 */
int series_add(struct series *s, const struct tick_stats *t, uint32_t phase,
	       double elapsed_s, double duration_s);

/* "warmup", "execute", ... */
const char *series_phase_name(uint32_t phase);

/*
 * Write the series as CSV to path (a header line, then one line per row).
 * Returns 0, or -1 with *err (under mem_ctx) naming the file and the
 * errno text.  A regular file is replaced whole or not at all (written
 * beside it, then renamed): a failed write (ENOSPC) leaves no partial or
 * empty CSV, and the file that was there before stays.
 */
int series_write_csv(void *mem_ctx, const struct series *s, const char *path,
		     char **err);

#endif
