/*
 * timer.c - choose and calibrate the op timer (see timer.h).
 */
#include "config.h"

#include <errno.h>
#include <time.h>

#include "util/timer.h"

#if TIMER_HAVE_TSC
#include <cpuid.h>
#endif

uint64_t timer_ns_per_tick;

#if TIMER_HAVE_TSC
/* Invariant TSC: CPUID 0x80000007, EDX bit 8. */
static bool tsc_invariant(void)
{
	unsigned a, b, c, d;

	if (__get_cpuid(0x80000000, &a, &b, &c, &d) == 0 || a < 0x80000007)
		return false;
	if (__get_cpuid(0x80000007, &a, &b, &c, &d) == 0)
		return false;
	return (d & (1u << 8)) != 0;
}

/* A (ns, tick) pair read as close together as the clock allows. */
static void pair(uint64_t *ns, uint64_t *tick)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t t0 = __rdtsc(), n = now_ns(), t1 = __rdtsc();

		if (t1 - t0 < best) {
			best = t1 - t0;
			*ns = n;
			*tick = t0 + (t1 - t0) / 2;
		}
	}
}
#endif

bool timer_init(void)
{
#if TIMER_HAVE_TSC
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	uint64_t n0 = 0, c0 = 0, n1 = 0, c1 = 0;

	timer_ns_per_tick = 0;
	if (!tsc_invariant())
		return false;
	pair(&n0, &c0);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	pair(&n1, &c1);
	if (c1 <= c0 || n1 <= n0)
		return false;
	timer_ns_per_tick = ((n1 - n0) << 32) / (c1 - c0);
	return timer_ns_per_tick != 0;
#else
	return false;
#endif
}

const char *timer_name(void)
{
	return timer_ns_per_tick != 0 ? "tsc" : "clock_gettime";
}
