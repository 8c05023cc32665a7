/*
 * compare_verdict.c - dbench-compare's verdict on two sets of runs
 * (compare_verdict.h): the Hodges-Lehmann shift of the logarithms, its
 * interval and the Mann-Whitney test, exact for small samples without
 * ties, else the normal approximation.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <talloc.h>

#include "compare_verdict.h"

#define EXACT_MAX_PAIRS 2500
#define Z_975 1.959963984540054

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/*
 * The exact null distribution of U for samples of n and m without ties:
 * into cum[u], P(U <= u) for u = 0..n*m.  The counts follow
 * f(n, m, u) = f(n - 1, m, u - m) + f(n, m - 1, u), kept a row of n at
 * a time.  Returns 0 or -1 (out of memory).
 */
static int exact_cdf(void *mem, unsigned n, unsigned m, double *cum)
{
	size_t len = (size_t)n * m + 1;
	double *prev = talloc_zero_array(mem, double, (m + 1) * len);
	double *cur = talloc_zero_array(mem, double, (m + 1) * len);
	double total = 0, *swap;

	if (prev == NULL || cur == NULL)
		return -1;
	for (unsigned j = 0; j <= m; j++)
		prev[j * len] = 1;		/* n = 0: U is 0 */
	for (unsigned i = 1; i <= n; i++) {
		for (unsigned j = 0; j <= m; j++)
			for (size_t u = 0; u < len; u++) {
				double v = j == 0 ? (u == 0) :
					   cur[(j - 1) * len + u];

				if (j > 0 && u >= j)
					v += prev[j * len + u - j];
				cur[j * len + u] = v;
			}
		swap = prev;
		prev = cur;
		cur = swap;
	}
	for (size_t u = 0; u < len; u++)
		total += prev[m * len + u];
	for (size_t u = 0; u < len; u++)
		cum[u] = (u ? cum[u - 1] : 0) + prev[m * len + u] / total;
	return 0;
}

/* U of b against a (pairs where b is higher, ties a half); *ties set. */
static double mann_whitney_u(const double *a, unsigned na, const double *b,
			     unsigned nb, bool *ties)
{
	double u = 0;

	*ties = false;
	for (unsigned i = 0; i < na; i++)
		for (unsigned j = 0; j < nb; j++) {
			if (b[j] > a[i])
				u += 1;
			else if (b[j] == a[i]) {
				u += 0.5;
				*ties = true;
			}
		}
	return u;
}

/* The normal approximation's standard deviation of U, ties corrected. */
static double u_sd(void *mem, const double *a, unsigned na, const double *b,
		   unsigned nb)
{
	unsigned n = na + nb;
	double *all = talloc_array(mem, double, n), t = 0;

	if (all == NULL)
		return -1;
	for (unsigned i = 0; i < n; i++)
		all[i] = i < na ? a[i] : b[i - na];
	qsort(all, n, sizeof(double), cmp_double);
	for (unsigned i = 0, k; i < n; i = k) {
		for (k = i + 1; k < n && all[k] == all[i]; k++)
			;
		t += pow(k - i, 3) - (k - i);
	}
	return sqrt((double)na * nb / 12.0 *
		    ((n + 1) - (n > 1 ? t / ((double)n * (n - 1)) : 0)));
}

/*
 * p, the smallest p and the interval's count c (the c lowest and the c
 * highest pairwise differences lie outside; -1: no interval).
 */
static int test_u(void *mem, const double *a, unsigned na, const double *b,
		  unsigned nb, struct shift *s, long *c)
{
	size_t pairs = (size_t)na * nb;
	bool ties;
	double u = mann_whitney_u(a, na, b, nb, &ties), sd;

	s->min_p = fmin(1, 2 * exp(lgamma(na + 1.0) + lgamma(nb + 1.0) -
				   lgamma(na + nb + 1.0)));
	if (pairs <= EXACT_MAX_PAIRS && !ties) {
		double *cum = talloc_array(mem, double, pairs + 1);
		size_t k = (size_t)u;	/* an integer without ties */

		/* U's distribution is the same for (na, nb) and (nb, na):
		 * the smaller as m keeps the rows short */
		if (cum == NULL || exact_cdf(mem, na > nb ? na : nb,
					     na > nb ? nb : na, cum) != 0)
			return -1;
		s->p = fmin(1, 2 * fmin(cum[k], k ? 1 - cum[k - 1] : 1));
		*c = -1;
		while ((size_t)(*c + 1) < pairs && cum[*c + 1] <= 0.025)
			(*c)++;
		*c = *c >= 0 ? *c + 1 : -1;
		return 0;
	}
	sd = u_sd(mem, a, na, b, nb);
	if (sd < 0)
		return -1;
	s->p = sd > 0 ? fmin(1, erfc(fmax(0, fabs(u - pairs / 2.0) - 0.5) /
				     sd / sqrt(2))) : 1;
	*c = (long)floor(pairs / 2.0 - Z_975 * sd - 0.5) + 1;
	*c = *c > 0 ? *c : -1;
	return 0;
}

int verdict_shift(const double *a, unsigned na, const double *b,
		  unsigned nb, struct shift *s)
{
	void *mem = talloc_new(NULL);
	size_t pairs = (size_t)na * nb;
	double *la = talloc_array(mem, double, na);
	double *lb = talloc_array(mem, double, nb);
	double *d = talloc_array(mem, double, pairs);
	struct shift r = { 0 };
	long c = -1;
	int rc = -1;

	if (la == NULL || lb == NULL || d == NULL || na == 0 || nb == 0)
		goto out;
	for (unsigned i = 0; i < na + nb; i++) {
		double v = i < na ? a[i] : b[i - na];

		if (!(v > 0) || !isfinite(v))
			goto out;
		if (i < na)
			la[i] = log(v);
		else
			lb[i - na] = log(v);
	}
	for (unsigned i = 0; i < na; i++)
		for (unsigned j = 0; j < nb; j++)
			d[(size_t)i * nb + j] = lb[j] - la[i];
	qsort(d, pairs, sizeof(double), cmp_double);
	r.ratio = exp(pairs % 2 ? d[pairs / 2] :
		      (d[pairs / 2 - 1] + d[pairs / 2]) / 2);
	if (test_u(mem, la, na, lb, nb, &r, &c) != 0)
		goto out;
	/* the interval: the c-th lowest and highest differences (1-based) */
	r.have_ci = c > 0 && (size_t)c <= pairs - (size_t)c + 1;
	if (r.have_ci) {
		r.lo = exp(d[c - 1]);
		r.hi = exp(d[pairs - (size_t)c]);
	}
	*s = r;
	rc = 0;
out:
	talloc_free(mem);
	return rc;
}

char *verdict_sentence(void *mem, const char *title, bool higher_better,
		       const double *a, unsigned na, const double *b,
		       unsigned nb)
{
	struct shift s;
	double change;
	const char *word;
	char p[32], ci[64], few[96] = "";

	if (verdict_shift(a, na, b, nb, &s) != 0)
		return talloc_asprintf(mem, "%s: no verdict (a figure is zero "
				       "or missing)", title);
	change = (s.ratio - 1) * 100;
	if (higher_better)
		word = change > 0 ? "faster" : "slower";
	else
		word = change > 0 ? "higher (worse)" : "lower (better)";
	if (s.p < 0.001)
		snprintf(p, sizeof(p), "p<0.001");
	else
		snprintf(p, sizeof(p), "p=%.3f", s.p);
	if (s.have_ci)
		snprintf(ci, sizeof(ci), "95%% CI %+.1f%% to %+.1f%%",
			 (s.lo - 1) * 100, (s.hi - 1) * 100);
	else
		snprintf(ci, sizeof(ci), "no 95%% interval from so few runs");
	if (s.min_p >= 0.05)
		snprintf(few, sizeof(few), "; %u and %u runs cannot reach "
			 "p<0.05", na, nb);
	if (s.p < 0.05)
		return talloc_asprintf(mem, "%s: B is %.1f%% %s than A (%s, "
				       "%s, %u vs %u runs)", title,
				       fabs(change), word, ci, p, na, nb);
	return talloc_asprintf(mem, "%s: no significant difference (%s, %u "
			       "vs %u runs; B/A %+.1f%%, %s%s)", title, p, na,
			       nb, change, ci, few);
}
