/*
 * util.h - small helpers shared by the modules: checked number parsing
 * and the clock.
 */
#ifndef DBENCH_UTIL_H
#define DBENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Marks the functions a worker runs for every op (the engine, the SMB
 * layer, the POSIX vfs).  GCC places them together (.text.hot), so that
 * the code run between two system calls, which evict much of it from the
 * caches, spans a few pages and cache lines rather than being spread
 * among the cold code of five files (with -fno-plt, about 3% of a
 * worker's user time: BENCHMARKS.md, round 6).
 */
#if defined(__GNUC__)
#define HOT_PATH __attribute__((hot))
#else
#define HOT_PATH
#endif

/* Nanoseconds in a second: the one spelling of it. */
#define NS_PER_SEC 1000000000ull

/* The monotonic clock (CLOCK_MONOTONIC) in nanoseconds. */
uint64_t now_ns(void);

/* The wall clock (CLOCK_REALTIME) in nanoseconds since the epoch. */
uint64_t wall_ns(void);

/*
 * Parse a whole string as a decimal or 0x-hex integer within [min, max].
 * Returns 0 and sets *out, or -1 (not a number, trailing junk, out of range).
 */
int parse_int64(const char *s, int64_t min, int64_t max, int64_t *out);

/* The same for a decimal floating-point number within [min, max]. */
int parse_double(const char *s, double min, double max, double *out);

/*
 * A size in bytes: decimal digits, optionally followed by one of the
 * binary suffixes K, M, G, T (any case; 1K = 1024), within [min, max].
 * Returns 0 and sets *out, or -1 (no digits, another suffix or trailing
 * text, overflow, out of range).
 */
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* The value of a hex digit, or -1 if c is not one. */
static inline int hex_digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * size bytes of zeroes that cost no memory until written: fresh anonymous
 * pages for a large table (talloc_zero would write every byte), plain
 * talloc_zero memory below ZERO_PAGES_MIN.  Freed with mem_ctx, never by
 * itself.  NULL when out of memory.
 */
#define ZERO_PAGES_MIN (64u * 1024)
void *util_zero_pages(void *mem_ctx, size_t size);

/*
 * size bytes of fresh anonymous memory, read-write, mmap()ed with
 * MAP_ANONYMOUS | flags (MAP_PRIVATE or MAP_SHARED, maybe MAP_NORESERVE)
 * and unmapped when mem_ctx is freed.  NULL if the kernel refuses.
 */
void *util_map(void *mem_ctx, size_t size, int flags);

/*
 * Zeroed memory shared with the processes forked afterwards (released with
 * mem_ctx).  A page the parent writes between forks is not copied on its
 * next write, as a private page would be after every fork.
 */
void *util_shared_pages(void *mem_ctx, size_t size);

/*
 * Sleep until the CLOCK_MONOTONIC time deadline (ns), or for ns
 * nanoseconds; signals do not end the sleep.  With a stop word, the
 * sleep ends as soon as *stop is non-zero: at once when it is already
 * set, and within microseconds of util_stop_raise() on it, however long
 * the sleep was to last (a deadline far away is fine).  The stop word may
 * live in memory shared between processes.
 */
void sleep_until_ns(uint64_t deadline, const volatile uint32_t *stop);
void sleep_ns(uint64_t ns, const volatile uint32_t *stop);

/* Set the stop word to 1 and wake every sleep_*() waiting on it, in
 * whatever process. */
void util_stop_raise(uint32_t *stop);

/*
 * The progress heartbeat of a process that talks to a server: a counter
 * in memory shared with the parent, moved on by every request that
 * completes outside the loadfile's own lines (a removal of the cleanup,
 * an RPC), so that the parent's stall watch tells a client that makes
 * progress from one whose library only polls a silent server (its CPU
 * time moves, its counter does not).  util_beat_at() points it at a
 * counter (NULL: nowhere, the default); util_beat() moves it on.
 */
void util_beat_at(uint64_t *counter);
void util_beat(void);

/*
 * Open the directory holding the last component of path, relative to dfd,
 * one component at a time with O_NOFOLLOW: a symlink (or "..") anywhere
 * before the last component makes it fail (ELOOP, ENOTDIR or EINVAL), so
 * the result is always beneath dfd.  Returns a new O_PATH directory fd
 * (dfd's own directory for a single component) and points *leaf at the
 * last component; -1 with errno set on failure.  For the calls that take
 * no RESOLVE_ flags: fstatat/unlinkat(fd, *leaf, AT_SYMLINK_NOFOLLOW...).
 */
int util_open_parent_nofollow(int dfd, const char *path, const char **leaf);

/*
 * In a build with LeakSanitizer (make check-sanitize): run its leak check
 * now, outside the process group, as the last thing before the process
 * leaves.  The check stops the process with ptrace, and a SIGCONT that
 * reaches it then (`timeout` sends one to the whole group after its
 * signal) throws away the stop it waits for, so it would wait forever.
 * A no-op in other builds.
 */
void util_leak_check_alone(void);

/*
 * The directory holding the running binary (/proc/self/exe), under mem;
 * NULL when it cannot be told or out of memory.  A build tree finds its
 * modules and its default loadfile beside the binary.
 */
char *util_exe_dir(void *mem);

#endif
