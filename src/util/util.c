/*
 * util.c - the clocks, checked number parsing, sleeping, and opening a
 * path's directory without following symlinks.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <talloc.h>

#include "util/util.h"

/* a build with LeakSanitizer (see util_leak_check_alone()) */
#if defined(__SANITIZE_ADDRESS__)
#define UTIL_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UTIL_LSAN 1
#endif
#endif
#ifdef UTIL_LSAN
#include <sanitizer/lsan_interface.h>
#endif

int parse_int64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end = NULL;
	long long v;

	/* strtoll would skip leading blanks: " 3" is not a number here */
	if (s == NULL || !(isdigit((unsigned char)*s) || *s == '-' ||
			   *s == '+'))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0')
		return -1;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *end = NULL;
	double v;

	if (s == NULL || !(isdigit((unsigned char)*s) || *s == '-' ||
			   *s == '+' || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v))
		return -1;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;

	if (s == NULL || !isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	switch (*s) {
	case '\0':
		break;
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	case 't':
	case 'T':
		shift = 40;
		break;
	default:
		return -1;
	}
	if (shift != 0 && s[1] != '\0')
		return -1;
	if (v > (UINT64_MAX >> shift))
		return -1;
	v <<= shift;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/*
 * Wait on the stop word until the CLOCK_MONOTONIC deadline: a futex wait
 * (shared, not private: the word lives in pages shared with the other
 * processes of the run) that util_stop_raise() ends at once, whatever is
 * left of the wait.  A signal or a spurious wake-up just waits again.
 */
static void wait_stop_until(uint64_t deadline, const volatile uint32_t *stop)
{
	for (;;) {
		struct timespec ts = {
			.tv_sec = (time_t)(deadline / NS_PER_SEC),
			.tv_nsec = (long)(deadline % NS_PER_SEC),
		};

		if (__atomic_load_n(stop, __ATOMIC_ACQUIRE) != 0)
			return;
		if (now_ns() >= deadline)
			return;
		if (syscall(SYS_futex, stop, FUTEX_WAIT_BITSET, 0u, &ts, NULL,
			    FUTEX_BITSET_MATCH_ANY) != 0 &&
		    errno != EAGAIN && errno != EINTR && errno != ETIMEDOUT) {
			/* no futex here: sleep in short slices instead */
			struct timespec slice = { 0, 1000000 };

			nanosleep(&slice, NULL);
		}
	}
}

void sleep_until_ns(uint64_t deadline, const volatile uint32_t *stop)
{
	if (stop != NULL) {
		wait_stop_until(deadline, stop);
		return;
	}
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / NS_PER_SEC),
		.tv_nsec = (long)(deadline % NS_PER_SEC),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

void sleep_ns(uint64_t ns, const volatile uint32_t *stop)
{
	uint64_t t = now_ns();

	sleep_until_ns(ns > UINT64_MAX - t ? UINT64_MAX : t + ns, stop);
}

void util_stop_raise(uint32_t *stop)
{
	__atomic_store_n(stop, 1u, __ATOMIC_RELEASE);
	(void)syscall(SYS_futex, stop, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Owner of a mapping made by util_map(). */
struct zero_pages {
	void *p;
	size_t len;
};

static int zero_pages_destructor(struct zero_pages *z)
{
	munmap(z->p, z->len);
	return 0;
}

void *util_map(void *mem_ctx, size_t size, int flags)
{
	struct zero_pages *z;

	z = talloc(mem_ctx, struct zero_pages);
	if (z == NULL)
		return NULL;
	z->p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS,
		    -1, 0);
	if (z->p == MAP_FAILED) {
		talloc_free(z);
		return NULL;
	}
	z->len = size;
	talloc_set_destructor(z, zero_pages_destructor);
	return z->p;
}

void *util_zero_pages(void *mem_ctx, size_t size)
{
	if (size < ZERO_PAGES_MIN)
		return talloc_zero_size(mem_ctx, size > 0 ? size : 1);
	return util_map(mem_ctx, size, MAP_PRIVATE);
}

void *util_shared_pages(void *mem_ctx, size_t size)
{
	return util_map(mem_ctx, size > 0 ? size : 1, MAP_SHARED);
}

int util_open_parent_nofollow(int dfd, const char *path, const char **leaf)
{
	const char *p = path, *slash;
	int cur = openat(dfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

	while (cur >= 0 && (slash = strchr(p, '/')) != NULL) {
		size_t len = (size_t)(slash - p);
		char *comp = strndup(p, len);
		int next = -1, err = ENOMEM;

		if (comp != NULL && strcmp(comp, "..") == 0) {
			err = EINVAL;
		} else if (comp != NULL) {
			next = openat(cur, len > 0 ? comp : ".",
				      O_PATH | O_DIRECTORY | O_NOFOLLOW |
					      O_CLOEXEC);
			err = errno;
		}
		free(comp);
		close(cur);
		cur = next;
		errno = err;
		p = slash + 1;
	}
	if (cur >= 0 && strcmp(p, "..") == 0) {
		close(cur);
		errno = EINVAL;
		return -1;
	}
	*leaf = p;
	return cur;
}

void util_leak_check_alone(void)
{
#ifdef UTIL_LSAN
	/* a group leader cannot leave its group, but then the group is its
	 * own and signals to it come from the terminal or a script's kill
	 * -- -PGID, which sends no SIGCONT */
	if (getpgrp() != getpid())
		(void)setpgid(0, 0);
	__lsan_do_leak_check();
#endif
}

char *util_exe_dir(void *mem)
{
	size_t len = 256;

	for (;;) {
		char *buf = talloc_array(mem, char, len);
		ssize_t n;
		char *slash;

		if (buf == NULL)
			return NULL;
		n = readlink("/proc/self/exe", buf, len);
		if (n < 0) {
			talloc_free(buf);
			return NULL;
		}
		if ((size_t)n < len) {
			buf[n] = '\0';
			slash = strrchr(buf, '/');
			if (slash == NULL) {
				talloc_free(buf);
				return NULL;
			}
			*slash = '\0';
			return buf;
		}
		talloc_free(buf);	/* truncated: try a larger buffer */
		len *= 2;
	}
}

/* See util_beat_at(): the counter of this process, or NULL. */
static uint64_t *beat_counter;

void util_beat_at(uint64_t *counter)
{
	beat_counter = counter;
}

void util_beat(void)
{
	/* one writer (this process): a plain increment, stored whole for
	 * the parent's reads */
	if (beat_counter != NULL)
		__atomic_store_n(beat_counter,
				 __atomic_load_n(beat_counter,
						 __ATOMIC_RELAXED) + 1,
				 __ATOMIC_RELAXED);
}
