/*
 * disktest.h - `dbench --disk-test`: the dd measurements administrators
 * make by hand (sequential write with fdatasync, cold read, hot read,
 * O_DIRECT write and read), done on one file per directory with the checks
 * that make the numbers mean what they say: the cold read is verified cold
 * with mincore(), direct I/O uses buffers aligned as the filesystem asks,
 * the file never crowds a disk and is removed even when interrupted.
 *
 * disktest_run() measures and fills a struct disktest_result; the writers
 * (disktest_print() for text, report_disktest_json() in src/report/ for
 * JSON) only read it.
 */
#ifndef DBENCH_DISKTEST_H
#define DBENCH_DISKTEST_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/histogram.h"

/* The measurements, in the order they run and are printed. */
enum disktest_kind {
	DT_WRITE = 0,	  /* sequential write, then fdatasync (in the time) */
	DT_COLD_READ,	  /* sequential read after eviction (mincore-checked) */
	DT_HOT_READ,	  /* the same read again, from the page cache */
	DT_DIRECT_WRITE,  /* O_DIRECT overwrite of the file, no flush */
	DT_DIRECT_READ,	  /* O_DIRECT read of the file */
	DT_NUM_KINDS
};

/* Printed names, indexed by enum disktest_kind ("write+fdatasync", ...). */
extern const char *const disktest_kind_name[DT_NUM_KINDS];

enum disktest_state {
	DT_NOT_RUN = 0,	   /* not reached: interrupted, or an earlier step failed */
	DT_MEASURED,	   /* nruns >= 1 runs measured */
	DT_NOT_SUPPORTED,  /* direct I/O refused by this filesystem */
	DT_NOT_EVICTED,	   /* cold read: the pages stayed cached, no disk number */
	DT_FAILED,	   /* a system call failed; note says which and why */
};

/* One measurement in one directory, over all its runs. */
struct disktest_row {
	enum disktest_state state;
	bool interrupted;	/* a signal stopped it before all runs were done */
	unsigned nruns;		/* runs measured */
	double *mbps;		/* per run, 10^6 bytes per second (talloc) */
	double mbps_median, mbps_min, mbps_max;
	uint64_t *flush_ns;	/* DT_WRITE: the fdatasync of each run, else NULL */
	uint64_t flush_median_ns;
	/* every block read or write of every run, in ns */
	struct histogram *lat;	/* talloc */
	uint64_t lat_count, lat_min_ns, lat_max_ns;
	/*
	 * Reads: the largest share of the file's pages found in the page
	 * cache (mincore) just before a run's read, in percent; -1 when not
	 * looked at (writes, or not run).
	 */
	double resident_pct;
	char *note;		/* why it is not measured, or NULL (talloc) */
};

/* One directory's test. */
struct disktest_dir {
	const char *path;		/* as given */
	/* the test file's name inside it; NULL when it has none (O_TMPFILE:
	 * nothing is left behind even after a SIGKILL) */
	char *file;
	/* test files left by earlier runs (killed ones): reported, never
	 * removed (they are not this run's) */
	unsigned nstale;
	uint64_t stale_bytes;
	char *stale_names;		/* the first few, ", "-separated */
	unsigned failed_run;		/* the run (from 1) whose write failed */
	uint64_t size;			/* bytes of the test file */
	bool size_reduced;		/* default size lowered to fit free space */
	uint64_t free_bytes;		/* available before the test (statvfs) */
	uint64_t total_bytes;		/* size of the filesystem */
	/* direct I/O alignment used (bytes) and where it came from */
	uint32_t dio_mem_align, dio_offset_align;
	const char *dio_source;		/* "statx", "sysfs" or "default" */
	/* the file's pages could not be evicted: the filesystem keeps files
	 * in memory (tmpfs), so no figure of this directory is a disk's */
	bool memory_backed;
	struct disktest_row row[DT_NUM_KINDS];
};

struct disktest_result {
	uint64_t block_size;
	unsigned repeat;
	bool drop_caches;
	unsigned ndirs;
	struct disktest_dir *dirs;	/* ndirs entries (talloc) */
	bool interrupted;		/* a signal stopped the test */
	int signal;			/* that signal, 0 if none */
	bool failed;			/* some row is DT_FAILED */
};

/*
 * One run of one measurement starting (done false) or ending, for a
 * progress display.  Not called for measurements that do not run (direct
 * I/O refused, an earlier failure).
 */
struct disktest_progress {
	const char *dir;
	unsigned dir_width;	/* the longest directory name (alignment) */
	enum disktest_kind kind;
	unsigned run, repeat;	/* the run, from 1, of repeat */
	bool done;
	/* when done: measured (mbps set), or why not: the row's state, or
	 * stopped by a signal */
	bool measured, stopped;
	enum disktest_state state;
	double mbps;		/* 10^6 bytes per second */
	double seconds;		/* the run's wall time */
};

struct disktest_config {
	const char *const *dirs;
	unsigned ndirs;
	uint64_t size;		/* bytes per file; 0 = 1 GiB or what fits */
	uint64_t block_size;	/* bytes per read or write */
	unsigned repeat;	/* runs of each measurement, >= 1 */
	bool drop_caches;	/* also drop the whole page cache (root) */
	/*
	 * Set (to the signal number) by the caller's signal handler: the
	 * test stops before the next block, removes its file and returns
	 * what it measured so far.  May be NULL.
	 */
	const volatile sig_atomic_t *stop;
	/* called as each run starts and ends; may be NULL */
	void (*progress)(void *arg, const struct disktest_progress *p);
	void *progress_arg;
};

#define DISKTEST_DEFAULT_SIZE	(1ull << 30)
#define DISKTEST_DEFAULT_BLOCK	(1ull << 20)
#define DISKTEST_DEFAULT_REPEAT	3
/* a cold read is believed cold when at most this much of the file is
 * cached before it starts (percent) */
#define DISKTEST_COLD_MAX_RESIDENT 1.0

/*
 * Free space kept for others: a test file never leaves less than this
 * free on a filesystem of total_bytes (5% of it, and at least 256 MiB or a
 * quarter of a small filesystem).
 */
uint64_t disktest_margin(uint64_t total_bytes);

/*
 * Decide the file size for a directory with free_bytes available on a
 * filesystem of total_bytes.  requested == 0 means the default: 1 GiB,
 * or less (rounded down to whole blocks) when that does not fit, with
 * *reduced set.  Returns 0 and sets *size, or -1 when the request does not
 * fit (or no block fits) with *why set to a message naming the directory,
 * the free space and the size asked for (allocated under mem_ctx).
 */
int disktest_plan_size(void *mem_ctx, const char *dir, uint64_t requested,
		       uint64_t block_size, uint64_t free_bytes,
		       uint64_t total_bytes, uint64_t *size, bool *reduced,
		       char **why);

/*
 * Can direct I/O be used?  open_err is the errno of the O_DIRECT open (0
 * when it succeeded); the alignments are those the filesystem gave
 * (mem_align == 0 with align_known: it reports no direct I/O support).
 * Returns DT_MEASURED when the measurement can go ahead, otherwise
 * DT_NOT_SUPPORTED (refused here: EINVAL, no support reported, a block
 * size the alignment does not divide) or DT_FAILED (another error), with
 * *why set to a message allocated under mem_ctx.
 */
enum disktest_state disktest_direct_verdict(void *mem_ctx, int open_err,
					    bool align_known,
					    uint32_t mem_align,
					    uint32_t offset_align,
					    uint64_t block_size, char **why);

/*
 * Check the configuration and the free space of every directory before
 * anything is written.  Returns 0, or -1 with *err set (allocated under
 * mem_ctx): the run is impossible (a usage error).
 */
int disktest_check(void *mem_ctx, const struct disktest_config *cfg,
		   char **err);

/*
 * Run the test on every directory, one after the other, and return the
 * result (allocated under mem_ctx), or NULL when out of memory.  Each
 * directory's file is created with O_EXCL and O_NOFOLLOW and removed
 * before the next directory starts, also when cfg->stop is set.  Nothing
 * is printed; failures are recorded in the rows.  Call disktest_check()
 * first.
 */
struct disktest_result *disktest_run(void *mem_ctx,
				     const struct disktest_config *cfg);

/* Print the result: a table of MB/s and one of latencies, a row per
 * directory and a column per measurement (80 columns for names up to 20
 * characters, longer ones numbered), then the notes. */
void disktest_print(FILE *f, const struct disktest_result *res);

/*
 * The whole mode for dbench_main(): checks (nothing is printed on stdout when
 * they fail), signal handlers (SIGINT, SIGTERM, SIGHUP), run with a
 * progress line per run of each measurement, print on stdout.  Returns the exit status: 0, 1 when a
 * measurement failed, 2 when the request is impossible (message on
 * stderr), 128 + signal when interrupted.  If result is not NULL, the
 * result is left allocated under mem_ctx in *result (NULL when nothing
 * ran) for other writers (report_disktest_write()); otherwise it is
 * freed.
 */
int disktest_main(void *mem_ctx, const struct disktest_config *cfg,
		  struct disktest_result **result);

#endif
