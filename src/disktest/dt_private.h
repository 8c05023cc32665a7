/*
 * dt_private.h - what the disk test's files share: one directory's test
 * in progress, the outcome of a run, the test data generator and the
 * calls between disktest.c (planning, checks, the mode),
 * disktest_measure.c (one run of one measurement), disktest_dir.c (a
 * directory's file and its runs) and disktest_text.c (the table).
 */
#ifndef DBENCH_DT_PRIVATE_H
#define DBENCH_DT_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "disktest/disktest.h"

#define DT_DROP_CACHES	"/proc/sys/vm/drop_caches"
#define DT_MIN_BLOCK	512u
#define DT_MINCORE_WIN	(1ull << 30)	/* bytes mapped at once by mincore */
#define DT_EVICT_ATTEMPTS 3		/* POSIX_FADV_DONTNEED calls */
#define DT_FALLBACK_ALIGN 4096u		/* a multiple of every logical
					 * block size in use */
#define DT_FILE_PREFIX	".dbench-disktest."
#define DT_NAME_ATTEMPTS 100		/* random names tried (O_EXCL) */
#define DT_STALE_SHOWN	3		/* stale names listed by name */

/* One directory's test in progress. */
struct dt_ctx {
	const struct disktest_config *cfg;
	struct disktest_result *res;
	struct disktest_dir *d;
	int dirfd;
	int fd;			/* buffered */
	int dfd;		/* O_DIRECT, -1 when not usable */
	char *reopen;		/* the path that opens fd's file again */
	uint8_t *buf;		/* block_size bytes, aligned */
	uint64_t seed;		/* data generator state */
	struct histogram *run_lat;	/* the run in progress */
	uint64_t run_min, run_max, run_count;
};

/* Outcome of one run of one measurement. */
enum dt_outcome {
	DT_RUN_OK = 0,
	DT_RUN_STOPPED,		/* a signal */
	DT_RUN_ROW_DONE,	/* this row says why it has no (more) runs */
	DT_RUN_FATAL,		/* the file is unusable: stop this directory */
};

static inline bool dt_stopped(const struct disktest_config *cfg)
{
	return cfg->stop != NULL && *cfg->stop != 0;
}

/*
 * Data no filesystem can compress or deduplicate: the buffer is filled
 * with random bytes once (before anything is timed) and every block
 * written gets its own first word.
 */
/*
 * Data no filesystem can compress or deduplicate: the buffer is filled
 * with random bytes once (before anything is timed) and every block
 * written gets its own first word.
 */
/* The next random number of the run (splitmix64). */
static inline uint64_t dt_next(struct dt_ctx *x)
{
	uint64_t z = (x->seed += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static inline void dt_fill(struct dt_ctx *x)
{
	uint64_t *w = (uint64_t *)(void *)x->buf;
	size_t n = x->res->block_size / sizeof(uint64_t);

	for (size_t i = 0; i < n; i++)
		w[i] = dt_next(x);
}

static inline void dt_stamp(struct dt_ctx *x, uint64_t block_no)
{
	uint64_t v = x->seed ^ (block_no * 0x9E3779B97F4A7C15ull);

	memcpy(x->buf, &v, sizeof(v));
}

/* "16 MiB", "1.5 GiB", "4096 bytes": for messages and the table title. */
char *dt_size_str(void *mem, uint64_t v);

/* Set the row's note; the arguments may include the old note. */
void dt_note(struct disktest_row *row, void *mem, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* dir's free and total bytes (statvfs); 0 or -1 with errno. */
int dt_fs_space(const char *dir, uint64_t *free_bytes, uint64_t *total_bytes);

/* A failed call during a run of row k. */
enum dt_outcome dt_failed(struct dt_ctx *x, enum disktest_kind k,
			  const char *what, int err);

/* One run of measurement k in x's directory. */
enum dt_outcome dt_run(struct dt_ctx *x, enum disktest_kind k);

/* The medians and spreads of the rows, once the runs are done. */
void dt_summarize(struct disktest_dir *d);

/* The progress line of p on f: its start, without a newline, then its
 * end (disktest_main() passes this as cfg->progress). */
void dt_print_progress(void *f, const struct disktest_progress *p);

/* Open the O_DIRECT descriptor (the same file) and decide its rows. */
void dt_setup_direct(struct dt_ctx *x);

#endif
