/*
 * noise.h - how busy the machine was besides dbench during a run
 * (src/stats/noise.c): the load average, the CPU time other processes
 * and the hypervisor took, dbench's own CPU share, and the kernel's
 * pressure stall figures, sampled at the start and the end of the
 * reported phase.
 */
#ifndef DBENCH_NOISE_H
#define DBENCH_NOISE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Above these a run is "busy" (other processes or the hypervisor took
 * that share of every CPU) or "client-bound" (dbench itself did). */
#define NOISE_BUSY_SHARE 0.25
#define NOISE_CLIENT_BOUND_SHARE 0.9

enum { NOISE_PSI_CPU, NOISE_PSI_IO, NOISE_PSI_MEMORY, NOISE_PSI_N };

/* One sample of the machine's CPU counters and dbench's own CPU. */
struct noise_sample {
	bool ok;		/* /proc/stat was read */
	uint64_t busy;		/* user+nice+system+irq+softirq, ticks */
	uint64_t steal;
	uint64_t total;		/* every field, idle too: CPUs x time */
	double own_s;		/* dbench's CPU seconds so far */
	uint64_t mono_ns;	/* CLOCK_MONOTONIC */
	bool has_psi[NOISE_PSI_N];	/* its "some total" was read */
	uint64_t psi_total_us[NOISE_PSI_N];
};

/* What a run records (the JSON "noise" object); has_* false: unknown. */
struct run_noise {
	bool has_loadavg;
	double loadavg_1m;
	bool has_cpu;		/* the shares below */
	double other_cpu_share;	/* 0..1 of every CPU over the window */
	double steal_share;
	double dbench_cpu_share;
	bool has_psi[NOISE_PSI_N];
	/* percent of the window some task stalled on it (from the "some
	 * total" counters; "some avg10" at the end without a start) */
	double psi_some_avg[NOISE_PSI_N];
	bool busy;		/* other or steal share over NOISE_BUSY_SHARE */
	bool client_bound;	/* dbench's over NOISE_CLIENT_BOUND_SHARE */
};

/* The CPU seconds (user + system) live process pid has used; 0 when it
 * is gone or unreadable. */
double noise_proc_cpu_s(pid_t pid);

/* The CPU seconds this process and its reaped children have used. */
double noise_own_cpu_s(void);

/* Sample the machine's counters now; own_s is dbench's CPU so far
 * (noise_own_cpu_s() plus its live workers'). */
void noise_sample(struct noise_sample *s, double own_s);

/*
 * The noise of the window from start to end: the shares (when both
 * samples were read and time passed), the load average and the
 * pressure figures now, busy and client_bound.
 */
void noise_finish(const struct noise_sample *start,
		  const struct noise_sample *end, struct run_noise *n);

/*
 * The shares from counter deltas (ticks): busy_d, steal_d and total_d
 * of the machine, own_ticks of dbench.  Sets has_cpu, the shares, busy
 * and client_bound (from the shares only).  Exposed for the unit test.
 */
void noise_shares(uint64_t busy_d, uint64_t steal_d, uint64_t total_d,
		  double own_ticks, struct run_noise *n);

/*
 * The one line a reader should see when the run was busy or
 * client-bound ("dbench: note: ..."), or NULL.  Under mem.
 */
char *noise_note(void *mem, const struct run_noise *n);

#endif
