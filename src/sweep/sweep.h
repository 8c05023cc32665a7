/*
 * sweep.h - several load runs in one command (src/sweep/): --repeat N
 * runs the same measurement N times and summarises it with honest
 * statistics; --curve steps the number of clients and finds how many
 * stay within latency bounds (--slo).  Each run is a whole run of its
 * own (warmup, window, cleanup) started through the program's run hook,
 * so dbench-mpi runs the same loop on every rank.
 */
#ifndef DBENCH_SWEEP_H
#define DBENCH_SWEEP_H

#include <stdbool.h>

#include "util/options.h"
#include "loadfile/program.h"

struct run_setup;
struct json_object;

/* Summary statistics of n measurements (sweep_stats_compute()). */
struct sweep_stats {
	unsigned n;
	double mean, sd;	/* sd: sample standard deviation (n - 1) */
	double min, max;
	double cv;		/* sd / mean, as a fraction; 0 when n < 2 */
	double median;
	double mad;		/* median absolute deviation, unscaled */
	double t;		/* Student t quantile 0.975, n - 1 degrees */
	double ci_lo, ci_hi;	/* 95% CI of the mean; = mean when n < 2 */
	/* the distribution-free interval of the median: the k-th smallest
	 * and k-th largest value, k the largest whose coverage (from the
	 * binomial distribution with p = 1/2) is at least 95%, or k = 1
	 * (min and max) when fewer than 6 runs reach it */
	double med_lo, med_hi;
	unsigned med_k;
	double med_coverage;	/* that interval's coverage, 0..1 */
	/* runs each side of a comparison would need to tell a
	 * SWEEP_DETECT difference apart, from this spread (the sample sd
	 * of the logs, as dbench-history compare says it); 0 when it
	 * cannot be said (fewer than 2 runs, a figure not above 0) */
	unsigned runs_needed;
};

/* The difference the advice on runs is for: 5%, dbench-history
 * compare's default (--difference). */
#define SWEEP_DETECT 0.05

/* The statistics of x[0..n) (n >= 1) into *s. */
void sweep_stats_compute(const double *x, unsigned n, struct sweep_stats *s);

/*
 * The p quantile (0 < p < 1) of Student's t distribution with df degrees
 * of freedom (df >= 1), from its CDF by bisection; NaN for bad input.
 */
double sweep_t_quantile(double p, unsigned df);

/* The CDF of Student's t with df degrees of freedom at t. */
double sweep_t_cdf(double t, unsigned df);

/*
 * Does x lie beyond 3 MADs of the median of s?  The MAD is scaled by
 * 1.4826 (so that it estimates the standard deviation of normal data);
 * never with fewer than SWEEP_OUTLIER_MIN_RUNS measurements (the median
 * and MAD of fewer say too little) or a MAD of 0.
 */
#define SWEEP_OUTLIER_MIN_RUNS 5
bool sweep_outlier(const struct sweep_stats *s, double x);

/*
 * The coverage (0..1) of the interval from the k-th smallest to the k-th
 * largest of n values as an interval of their median: 1 - 2 P(B <= k-1),
 * B binomial with n trials of p = 1/2; 0 when there is no such interval.
 */
double sweep_median_coverage(unsigned n, unsigned k);

/* The CV over which the runs are said to vary. */
#define SWEEP_CV_WARN 0.05

/* What a bound (--slo) holds down. */
enum sweep_stat {
	SWEEP_PERCENTILE = 0,	/* pNN: the NN-th percentile */
	SWEEP_MAX,		/* max */
	SWEEP_MEAN,		/* mean (or avg) */
};

/* One latency bound: "[OP:]STAT<=TIME". */
struct sweep_bound {
	const char *text;	/* as given */
	int op;			/* enum op_kind, or -1: every op together */
	enum sweep_stat stat;
	double percentile;	/* SWEEP_PERCENTILE: (0, 100] */
	double limit_ms;
};

/*
 * Parse text ("p99<=20ms", "NTCreateX:p99<=50ms", "Flush:max<=1s"; the
 * op by either of its names, any case; units ns, us, ms, s) into *b.
 * Returns 0, or -1 with *err (under mem) saying what is wrong.
 */
int sweep_bound_parse(void *mem, const char *text, struct sweep_bound *b,
		      char **err);

/*
 * Does every op a bound of o names occur in one of the programs?
 * Returns 0, or -1 with *err naming the first bound whose op the
 * loadfiles never run.
 */
int sweep_bounds_check(void *mem, const struct dbench_options *o,
		       struct program *const *progs, unsigned nprogs,
		       char **err);

/*
 * Bound b's figure in ms in the --json document doc of a run, and in
 * *response whether it is the response time (from when each op was
 * due) rather than the service time.  Returns -1 when the op never ran.
 */
double sweep_bound_figure(const struct sweep_bound *b,
			  const struct dbench_options *o,
			  struct json_object *doc, bool *response);

/*
 * The overall response time in ms: the area under the mean latency
 * plotted against ops/s, over the points in order of clients up to
 * the last one before the first invalid point, by the trapezoid rule
 * (from zero ops/s at the first point's latency), divided by the
 * highest ops/s reached; a point whose ops/s is below an earlier
 * point's adds nothing (the area is over the throughput reached).  -1 when there is no such point.  x[i], y[i]: ops/s
 * and mean latency of the n points taken.
 */
double sweep_overall_response(const double *x, const double *y, unsigned n);

/* What a sweep needs from the program (dbench_main()). */
struct sweep_setup {
	const struct run_setup *base;	/* opts, programs, backend */
	/* the program's run hook (supervisor_run, or dbench-mpi's) */
	int (*run)(void *mem_ctx, const struct run_setup *setup);
	/* the rank count the client counts are spread over (dbench-mpi), 1
	 * on one host; and, under MPI, a way to agree on rank 0's value
	 * (NULL on one host) */
	unsigned nranks;
	void (*agree)(int *value);
	int rank;		/* only rank 0 writes --json and saves */
};

/*
 * Run --repeat or --curve as o (setup->base->opts) asks.  Prints a line
 * per run and the summary; writes --json.  Returns the exit status.
 */
int sweep_main(void *mem_ctx, const struct sweep_setup *setup);

/*
 * Before anything starts: the bounds' ops run by the programs, a
 * curve's counts a multiple of nranks; *checked = o with the largest
 * client count a run of the sweep has (for the resource checks).
 * Returns 0, or -1 with *err.
 */
int sweep_check(void *mem, const struct dbench_options *o,
		struct program *const *progs, unsigned nranks,
		struct dbench_options *checked, char **err);

/*
 * Is o a sweep (--repeat N > 1 or --curve)?
 */
bool sweep_wanted(const struct dbench_options *o);

#endif
