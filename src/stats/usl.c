/*
 * usl.c - the Universal Scalability Law fit (usl.h): the points sorted
 * as usl.py sorts them, a coarse grid over (sigma, kappa) with lambda in
 * closed form, a pattern search from the grid's best, R^2, the peak and
 * the poor-fit rule; and the one-line text.  Each step mirrors usl.py's
 * (same order of evaluation, same correctly rounded sums) so that the
 * two agree to the last bits, not just roughly.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/usl.h"

struct pt {
	double n, x;
};

/*
 * A correctly rounded sum (Shewchuk's non-overlapping partials, the
 * method of Python's math.fsum): terms are added one at a time, the
 * partials kept exact, the total rounded once at the end.  Finite
 * doubles need at most about 40 partials.
 */
#define XSUM_PARTIALS 64

struct xsum {
	double p[XSUM_PARTIALS];
	unsigned n;
};

static void xsum_add(struct xsum *s, double x)
{
	unsigned i = 0;

	for (unsigned j = 0; j < s->n; j++) {
		double y = s->p[j], hi, lo;

		if (fabs(x) < fabs(y)) {
			double t = x;

			x = y;
			y = t;
		}
		hi = x + y;
		lo = y - (hi - x);
		if (lo != 0.0)
			s->p[i++] = lo;
		x = hi;
	}
	s->n = i;
	if (x != 0.0 && s->n < XSUM_PARTIALS)
		s->p[s->n++] = x;
}

static double xsum_total(const struct xsum *s)
{
	unsigned n = s->n;
	double hi = 0.0, lo = 0.0;

	if (n == 0)
		return 0.0;
	hi = s->p[--n];
	while (n > 0) {
		double x = hi, y = s->p[--n];

		hi = x + y;
		lo = y - (hi - x);
		if (lo != 0.0)
			break;
	}
	/* half-way cases: round to even as if on the exact sum */
	if (n > 0 && ((lo < 0.0 && s->p[n - 1] < 0.0) ||
		      (lo > 0.0 && s->p[n - 1] > 0.0))) {
		double y = lo * 2.0, x = hi + y;

		if (y == x - hi)
			hi = x;
	}
	return hi;
}

double usl_model(double lambda, double sigma, double kappa, double n)
{
	return lambda * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0));
}

/* The lambda best for this sigma and kappa, and the sum of squared
 * errors with it (usl.py's _fit_lam). */
static double fit_lambda(const struct pt *v, size_t n, double sigma,
			 double kappa, double *sse)
{
	double num = 0.0, den = 0.0, lam;
	struct xsum e = { .n = 0 };

	for (size_t i = 0; i < n; i++) {
		double g = usl_model(1.0, sigma, kappa, v[i].n);

		num += v[i].x * g;
		den += g * g;
	}
	lam = den > 0 ? num / den : 0.0;
	for (size_t i = 0; i < n; i++) {
		double r = v[i].x - lam * usl_model(1.0, sigma, kappa, v[i].n);

		xsum_add(&e, r * r);
	}
	*sse = xsum_total(&e);
	return lam;
}

/* The usable points of the input, sorted by clients then throughput;
 * NULL when out of memory (*n the count). */
static struct pt *usable_points(const double *clients, const double *x,
				size_t count, size_t *n)
{
	struct pt *v = malloc((count ? count : 1) * sizeof(*v));

	*n = 0;
	if (v == NULL)
		return NULL;
	for (size_t i = 0; i < count; i++) {
		struct pt p = { clients[i], x[i] };
		size_t j;

		if (!(isfinite(p.n) && isfinite(p.x) && p.n >= 1 && p.x > 0))
			continue;
		/* insertion: a curve has a few dozen points at most */
		for (j = *n; j > 0 && (v[j - 1].n > p.n ||
				       (v[j - 1].n == p.n && v[j - 1].x > p.x));
		     j--)
			v[j] = v[j - 1];
		v[j] = p;
		(*n)++;
	}
	return v;
}

struct search {
	double sse, s, k, lam;
};

/* The best (sigma, kappa) of the grid: 0 and 10^(e/4), e from -16 (sigma)
 * or -28 (kappa) to 0; the first of equal ones. */
static struct search grid_best(const struct pt *v, size_t n)
{
	struct search b = { .sse = -1 };

	for (int es = -17; es <= 0; es++) {
		double s = es < -16 ? 0.0 : pow(10.0, es / 4.0);

		for (int ek = -29; ek <= 0; ek++) {
			double k = ek < -28 ? 0.0 : pow(10.0, ek / 4.0);
			double sse, lam = fit_lambda(v, n, s, k, &sse);

			if (b.sse < 0 || sse < b.sse)
				b = (struct search){ sse, s, k, lam };
		}
	}
	return b;
}

/* From the grid's best: try a step each way on each of sigma and kappa
 * (kept in [0, 1]), take what lowers the error, else halve the steps. */
static struct search pattern_search(const struct pt *v, size_t n,
				    struct search b)
{
	double ds = b.s > 1e-3 ? b.s : 1e-3, dk = b.k > 1e-5 ? b.k : 1e-5;

	for (int it = 0; it < 200; it++) {
		/* the four candidates, all from where this round starts */
		const double cs[4] = { b.s + ds, b.s - ds, b.s, b.s };
		const double ck[4] = { b.k, b.k, b.k + dk, b.k - dk };
		bool moved = false;

		for (int c = 0; c < 4; c++) {
			double sse, lam;

			if (!(cs[c] >= 0.0 && cs[c] <= 1.0 && ck[c] >= 0.0 &&
			      ck[c] <= 1.0))
				continue;
			lam = fit_lambda(v, n, cs[c], ck[c], &sse);
			if (sse < b.sse) {
				b = (struct search){ sse, cs[c], ck[c], lam };
				moved = true;
			}
		}
		if (!moved) {
			ds /= 2.0;
			dk /= 2.0;
			if (ds < 1e-9 && dk < 1e-12)
				break;
		}
	}
	return b;
}

/* R^2 of the fit whose error is sse. */
static double r_squared(const struct pt *v, size_t n, double sse)
{
	struct xsum m = { .n = 0 }, t = { .n = 0 };
	double mean;

	for (size_t i = 0; i < n; i++)
		xsum_add(&m, v[i].x);
	mean = xsum_total(&m) / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = v[i].x - mean;

		xsum_add(&t, d * d);
	}
	return xsum_total(&t) > 0 ? 1.0 - sse / xsum_total(&t) : 1.0;
}

int usl_fit(const double *clients, const double *x, size_t count,
	    struct usl_fit *out)
{
	size_t n;
	struct pt *v = usable_points(clients, x, count, &n);
	struct search b;

	memset(out, 0, sizeof(*out));
	if (v == NULL)
		return -1;
	out->n = (unsigned)n;
	if (n < 3) {
		free(v);
		return 0;
	}
	b = pattern_search(v, n, grid_best(v, n));
	out->lambda = b.lam;
	out->sigma = b.s;
	out->kappa = b.k;
	out->r2 = r_squared(v, n, b.sse);
	out->max_clients = v[n - 1].n;
	free(v);
	if (b.k > 0 && b.s < 1.0) {
		out->has_peak = true;
		out->peak_clients = sqrt((1.0 - b.s) / b.k);
		out->peak = usl_model(b.lam, b.s, b.k, out->peak_clients);
	}
	if (n < USL_MIN_POINTS) {
		out->poor = true;
		snprintf(out->why, sizeof(out->why),
			 "%zu points for 3 parameters", n);
	} else if (out->r2 < USL_GOOD_R2) {
		out->poor = true;
		snprintf(out->why, sizeof(out->why), "R\xc2\xb2 %.2f", out->r2);
	}
	return 1;
}

bool usl_status_usable(const char *status)
{
	return status == NULL || (strcmp(status, "FAILED") != 0 &&
				  strcmp(status, "INTERRUPTED") != 0);
}

/* "no peak: ..." or "predicted peak ..." after the parameters. */
static void peak_text(char *buf, size_t size, const struct usl_fit *f,
		      const char *unit)
{
	const char *where = "";

	if (!f->has_peak) {
		if (f->sigma > 0)
			snprintf(buf, size, "; no peak: it levels off towards "
				 "%.4g %s", f->lambda / f->sigma, unit);
		else
			snprintf(buf, size, "; no peak: linear");
		return;
	}
	if (f->peak_clients > 2 * f->max_clients)
		where = ", far beyond the points measured";
	else if (f->peak_clients > f->max_clients)
		where = ", beyond the points measured";
	snprintf(buf, size, "; predicted peak %.0f %s at %.1f clients%s",
		 f->peak, unit, f->peak_clients, where);
}

char *usl_text(char *buf, size_t size, const struct usl_fit *f,
	       const char *unit)
{
	size_t len;

	if (size == 0)
		return buf;
	if (f == NULL) {
		snprintf(buf, size, "USL model: too few points to fit (3 or "
			 "more needed)");
		return buf;
	}
	if (f->poor) {
		snprintf(buf, size, "USL model: poor fit (%s): the model does "
			 "not describe this curve; read the points", f->why);
		return buf;
	}
	snprintf(buf, size, "USL model: %.3g %s a client, contention sigma "
		 "%.3g, coherency kappa %.3g, R\xc2\xb2 %.3f (%u points)",
		 f->lambda, unit, f->sigma, f->kappa, f->r2, f->n);
	len = strlen(buf);
	if (len + 1 < size)
		peak_text(buf + len, size - len, f, unit);
	return buf;
}
