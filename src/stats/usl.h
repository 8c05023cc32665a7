/*
 * usl.h - the Universal Scalability Law (Gunther) fitted to a load
 * curve's points: throughput X(N) = lambda N / (1 + sigma (N - 1) +
 * kappa N (N - 1)) against N clients, lambda the throughput of one
 * client, sigma the contention (work done one client at a time), kappa
 * the coherency cost (clients waiting on each other's data).  With
 * kappa > 0 the curve peaks at N* = sqrt((1 - sigma) / kappa) clients.
 *
 * The C twin of dbench-history's usl.py, kept in agreement with it: the
 * same least squares on X (lambda in closed form for each sigma and
 * kappa, those two by a grid and then a pattern search within [0, 1]),
 * the same sums (correctly rounded, as Python's math.fsum) and the same
 * "poor fit" rule (fewer than USL_MIN_POINTS points, or R^2 below
 * USL_GOOD_R2).  An aid to reading a curve, never its answer.  Pure
 * arithmetic: no clock, no I/O.
 */
#ifndef DBENCH_USL_H
#define DBENCH_USL_H

#include <stdbool.h>
#include <stddef.h>

/* below this R^2, or with fewer than USL_MIN_POINTS points, the fit is
 * poor (usl.py's GOOD_R2 and MIN_POINTS) */
#define USL_GOOD_R2 0.9
#define USL_MIN_POINTS 4

struct usl_fit {
	double lambda;		/* throughput of one client */
	double sigma;		/* contention, in [0, 1] */
	double kappa;		/* coherency, in [0, 1] */
	double r2;		/* 1 - SSE / SST (1 when SST is 0) */
	unsigned n;		/* points used */
	double max_clients;	/* the most clients among them */
	bool has_peak;		/* kappa > 0 and sigma < 1 */
	double peak_clients;	/* sqrt((1 - sigma) / kappa), if has_peak */
	double peak;		/* the model's throughput there */
	bool poor;		/* the fit cannot be trusted: why says why */
	char why[48];		/* "3 points for 3 parameters", "R² 0.42" */
};

/* The model's throughput at n clients. */
double usl_model(double lambda, double sigma, double kappa, double n);

/*
 * Fit the model to the points (clients[i], x[i]), i < count; points
 * with clients below 1 or a throughput not above 0 (or either not
 * finite) are left out, as usl.py does.  Returns 1 with *out filled,
 * 0 when fewer than 3 points are left (*out zeroed but for n), or -1
 * when out of memory.
 */
int usl_fit(const double *clients, const double *x, size_t count,
	    struct usl_fit *out);

/* May a curve point of this status (its JSON "status") be fitted?  Not
 * when it FAILED or was INTERRUPTED: its figures are not a measurement
 * (usl.py's curve_points()). */
bool usl_status_usable(const char *status);

/*
 * The fit in one line, as usl.py's text(): "USL model: ..." with its
 * parameters and peak, or saying plainly that it is poor or that there
 * were too few points (f NULL).  unit names the throughput ("MB/s").
 * Writes at most size bytes to buf (NUL-terminated); returns buf.
 */
char *usl_text(char *buf, size_t size, const struct usl_fit *f,
	       const char *unit);

#endif
