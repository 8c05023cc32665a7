/*
 * memcheck.h - a target in memory (tmpfs, ramfs) that the run would fill.
 *
 * On such a filesystem every byte the clients write is memory: 1,024
 * clients of client.txt on /dev/shm took 97% of a 24 GiB host until the
 * OOM killer ended a process.  Before the run, the data the clients may
 * hold is estimated from the compiled loadfiles (memcheck_program_bytes)
 * and compared with the memory available; during it, the run loop stops
 * the run when available memory runs low (memcheck_low).
 *
 * MemTotal and MemAvailable come from /proc/meminfo, or, for tests only,
 * from the file named by $DBENCH_TEST_MEMINFO (same format), which a test
 * can rewrite during a run.
 */
#ifndef DBENCH_MEMCHECK_H
#define DBENCH_MEMCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "util/options.h"
#include "loadfile/program.h"

/* the environment variable that replaces /proc/meminfo (tests only) */
#define MEMCHECK_TEST_ENV "DBENCH_TEST_MEMINFO"

/*
 * The data one client running p may hold at once, in bytes, an upper
 * estimate: over the files p names, the sum for each of the smaller of
 * its furthest extent (offset + length of a write, rounded up to 4 KiB
 * pages) and the pages its writes cover in one pass (each write's length
 * rounded up to pages, repeated as often as its LOOP/REPEAT runs it); a
 * renamed file's figures move with it.  trunc_io > 0 caps each write.
 */
uint64_t memcheck_program_bytes(const struct program *p, int64_t trunc_io);

/* MemTotal and MemAvailable in bytes: 0, or -1 when unknown. */
int memcheck_meminfo(uint64_t *total, uint64_t *avail);

/* "tmpfs" or "ramfs" when dir is on one, else NULL. */
const char *memcheck_fs_type(const char *dir);

/*
 * The check before a run of o whose clients run progs[i % nprogs]: when
 * the clients on tmpfs/ramfs targets may hold more than half the
 * memory available, returns -1 with *why (under mem_ctx, one line
 * with the numbers) unless force.  *in_memory tells whether any target
 * is in memory (the run loop then watches memory).  Returns 0 otherwise.
 */
int memcheck_run(void *mem_ctx, const struct dbench_options *o,
		 struct program *const *progs, unsigned nprogs, bool force,
		 bool *in_memory, char **why);

/*
 * Is available memory low (under 1/20 of MemTotal)?  Sets *total and
 * *avail (bytes) when it is.  Unknown figures: false.
 */
bool memcheck_low(uint64_t *total, uint64_t *avail);

#endif
