/*
 * steady.h - steady-state detection for --warmup auto: is the throughput
 * of the last few seconds flat enough to start measuring?
 *
 * The detector is fed one throughput sample per second (loadfile lines
 * per second of the whole run) and keeps the last `window` of them.  The
 * series is steady when the window is full, its mean is above zero and
 * its range (largest minus smallest sample) is at most bound_pct percent
 * of its mean: in the spirit of fio's ss=iops:N% criterion, with the
 * range rather than the deviation so that one outlying second is enough
 * to keep the warmup going.  Pure arithmetic: no clock, no I/O.
 */
#ifndef DBENCH_STEADY_H
#define DBENCH_STEADY_H

#include <stdbool.h>

/* the largest window the detector keeps, in samples */
#define STEADY_MAX_WINDOW 60
/* --warmup auto's window (seconds) and bound (percent of the mean) */
#define STEADY_DEFAULT_WINDOW 5
#define STEADY_DEFAULT_BOUND_PCT 10.0

struct steady {
	unsigned window;	/* samples that must agree */
	double bound_pct;	/* allowed range, percent of the mean */
	double rate[STEADY_MAX_WINDOW];	/* ring of the last samples */
	unsigned n;		/* samples held (at most window) */
	unsigned next;		/* where the next one goes */
};

/* Start a detector; window is clamped to [1, STEADY_MAX_WINDOW]. */
void steady_init(struct steady *s, unsigned window, double bound_pct);

/* Add one sample (a second's throughput, >= 0); returns whether the last
 * window samples are steady (see the top of this file). */
bool steady_add(struct steady *s, double rate);

#endif
