/*
 * sweep_stats.c - the statistics of repeated runs: mean, sample standard
 * deviation, coefficient of variation, median and MAD, and the 95%
 * confidence interval of the mean from Student's t distribution, whose
 * quantiles are computed here (the CDF through the regularised
 * incomplete beta function, inverted by bisection) rather than taken
 * from a table, so that any number of runs gets its exact interval.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"

/* 1.4826 * MAD estimates the standard deviation of normal data */
#define MAD_SCALE 1.4826
#define OUTLIER_MADS 3.0
/* nor is a run within 1% of the median: steadier runs than any machine
 * gives (a paced -R run) have a MAD near 0, and a benchmark does not
 * resolve such a difference */
#define OUTLIER_MIN_FRACTION 0.01

/*
 * The continued fraction of the incomplete beta function I_x(a, b)
 * (evaluated with the modified Lentz method); converges quickly for
 * x < (a + 1) / (a + b + 2).
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, num, delta;

		/* even step: m (b - m) x / ((a + 2m - 1)(a + 2m)) */
		num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = 1.0 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		/* odd step: -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) */
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = 1.0 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1.0) < 1e-15)
			break;
	}
	return h;
}

/* The regularised incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	/* I_x(a, b) = 1 - I_(1-x)(b, a): use the side that converges */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_fraction(a, b, x) / a;
	return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

double sweep_t_cdf(double t, unsigned df)
{
	double v = df, tail;

	if (df == 0 || isnan(t))
		return NAN;
	/* P(|T| > |t|) = I_(v / (v + t^2))(v / 2, 1 / 2); near t = 0
	 * that x rounds to 1, so there take 1 - I_(t^2 / (v + t^2))(1 / 2,
	 * v / 2), whose x keeps its digits */
	if (t * t < v)
		tail = 1.0 - incomplete_beta(0.5, v / 2.0, t * t / (v + t * t));
	else
		tail = incomplete_beta(v / 2.0, 0.5, v / (v + t * t));
	return t >= 0 ? 1.0 - tail / 2.0 : tail / 2.0;
}

double sweep_t_quantile(double p, unsigned df)
{
	double lo = -1e7, hi = 1e7;

	if (df == 0 || !(p > 0 && p < 1))
		return NAN;
	/* the CDF rises monotonically: halve the interval 200 times */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * fmax(1.0, fabs(hi));
	     i++) {
		double mid = (lo + hi) / 2.0;

		if (sweep_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n), n >= 1 (v is sorted in place). */
static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double sweep_median_coverage(unsigned n, unsigned k)
{
	double tail = 0;

	/* P(x_(k) <= median <= x_(n-k+1)) = 1 - 2 P(B(n, 1/2) <= k - 1) */
	if (n == 0 || k == 0 || 2 * k > n + 1)
		return 0;
	for (unsigned i = 0; i < k; i++)
		tail += exp(lgamma(n + 1.0) - lgamma(i + 1.0) -
			    lgamma(n - i + 1.0) - n * log(2.0));
	return 1.0 - 2.0 * tail;
}

/* The interval of the median from sorted v[0..n) into s. */
static void median_interval(const double *v, unsigned n,
			    struct sweep_stats *s)
{
	unsigned k = 1;

	while (sweep_median_coverage(n, k + 1) >= 0.95)
		k++;
	s->med_k = k;
	s->med_coverage = sweep_median_coverage(n, k);
	s->med_lo = v[k - 1];
	s->med_hi = v[n - k];
}

/*
 * Runs each side needs to tell a relative difference d apart at 5%
 * significance with 80% power, by the Mann-Whitney test on the logs
 * (its efficiency against the t test, 3/pi, applied to the normal
 * approximation), from the sample sd of the logs; at least 4, the
 * fewest with which that test can reach p < 0.05.  0 when n < 2 or a
 * figure is not above 0.  The same rule dbench-history compare gives.
 */
static unsigned runs_needed(const double *x, unsigned n, double d)
{
	const double z = 1.959964 + 0.841621;
	double sum = 0, ss = 0, mean, need;

	if (n < 2)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return 0;
		sum += log(x[i]);
	}
	mean = sum / n;
	for (unsigned i = 0; i < n; i++)
		ss += (log(x[i]) - mean) * (log(x[i]) - mean);
	need = ceil(2 * z * z * (ss / (n - 1)) / (log1p(d) * log1p(d)) *
		    M_PI / 3);
	if (!(need < 1e6))
		return 1000000;
	return need < 4 ? 4 : (unsigned)need;
}

void sweep_stats_compute(const double *x, unsigned n, struct sweep_stats *s)
{
	double sum = 0, ss = 0, *tmp;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (n == 0)
		return;
	s->min = s->max = x[0];
	for (unsigned i = 0; i < n; i++) {
		sum += x[i];
		s->min = fmin(s->min, x[i]);
		s->max = fmax(s->max, x[i]);
	}
	s->mean = sum / n;
	for (unsigned i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	s->cv = n > 1 && s->mean != 0 ? s->sd / fabs(s->mean) : 0;
	s->ci_lo = s->ci_hi = s->mean;
	if (n > 1) {
		s->t = sweep_t_quantile(0.975, n - 1);
		s->ci_lo = s->mean - s->t * s->sd / sqrt(n);
		s->ci_hi = s->mean + s->t * s->sd / sqrt(n);
	}
	tmp = malloc(n * sizeof(*tmp));
	if (tmp == NULL)
		return;
	memcpy(tmp, x, n * sizeof(*tmp));
	s->median = median_of(tmp, n);
	median_interval(tmp, n, s);
	for (unsigned i = 0; i < n; i++)
		tmp[i] = fabs(x[i] - s->median);
	s->mad = median_of(tmp, n);
	free(tmp);
	s->runs_needed = runs_needed(x, n, SWEEP_DETECT);
}

bool sweep_outlier(const struct sweep_stats *s, double x)
{
	if (s->n < SWEEP_OUTLIER_MIN_RUNS || !(s->mad > 0))
		return false;
	return fabs(x - s->median) > OUTLIER_MADS * MAD_SCALE * s->mad &&
	       fabs(x - s->median) > OUTLIER_MIN_FRACTION * fabs(s->median);
}
