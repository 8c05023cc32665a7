/*
 * timer.h - the clock that times each operation.
 *
 * Every op is timed, so reading the clock is the largest part of the
 * engine's own cost: clock_gettime(CLOCK_MONOTONIC) through the vDSO costs
 * about 33 ns on the (KVM) machine of BENCHMARKS.md, two of them per op.
 * Where the CPU has an invariant time-stamp counter (x86-64 with
 * "constant_tsc" and "nonstop_tsc": it ticks at a fixed rate in every
 * state and on every core), op latencies are read from it instead (14 ns
 * a read), the way fio's "cpu" clock source does, and converted with a
 * rate calibrated against CLOCK_MONOTONIC.  Anywhere else, or before
 * timer_init(), the timer is CLOCK_MONOTONIC itself.
 *
 * Only durations come from this timer; points in time (pacing, phases,
 * pass records) keep using now_ns().
 */
#ifndef DBENCH_TIMER_H
#define DBENCH_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TIMER_HAVE_TSC 1
#include <x86intrin.h>
#else
#define TIMER_HAVE_TSC 0
#endif

/* 0: the timer is now_ns(); otherwise nanoseconds per tick, 32.32 fixed */
extern uint64_t timer_ns_per_tick;

/*
 * Choose the timer and calibrate it (about 10 ms; call it once, in the
 * parent before forking, so that all workers share the calibration).
 * Returns true when the time-stamp counter is used.
 */
bool timer_init(void);

/*
 * A reading of the timer, in ticks, for rate = timer_ns_per_tick read
 * once by the caller: an engine that times an op reads the variable
 * before the op, so that no load of it follows the op's system call
 * (which evicts its cache line).
 */
static inline uint64_t timer_read(uint64_t rate)
{
#if TIMER_HAVE_TSC
	if (rate != 0)
		return __rdtsc();
#else
	(void)rate;
#endif
	return now_ns();
}

/* Nanoseconds between two readings a <= b at rate (0 if the counter went
 * back). */
static inline uint64_t timer_ns_at(uint64_t a, uint64_t b, uint64_t rate)
{
	if (b <= a)
		return 0;
	if (rate == 0)
		return b - a;
	return (uint64_t)(((unsigned __int128)(b - a) * rate) >> 32);
}

/* A reading of the timer, in ticks. */
static inline uint64_t timer_now(void)
{
	return timer_read(timer_ns_per_tick);
}

/* Nanoseconds between two readings a <= b (0 if the counter went back). */
static inline uint64_t timer_ns(uint64_t a, uint64_t b)
{
	return timer_ns_at(a, b, timer_ns_per_tick);
}

/* What timer_init() chose, for the report: "tsc" or "clock_gettime". */
const char *timer_name(void);

#endif
