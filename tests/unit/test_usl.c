/*
 * test_usl.c - the Universal Scalability Law fit (stats/usl.h, and its
 * JSON side, report/usl_json.h) against known values: points made from
 * known lambda, sigma and kappa (the fit finds them again); a noisy
 * curve fitted once by SciPy's curve_fit (the "usl" case of
 * tests/integration/data/history_stats.json, from
 * bench/history/stats_reference.py); noisy, poor and degenerate curves
 * whose fit was computed once with dbench-history's usl.py (the C fit
 * must agree with it to the last bits); too few points, a flat curve,
 * every point at one client count, no coherency cost (no peak); and the
 * points of a FAILED or INTERRUPTED run left out.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/usl_json.h"
#include "stats/usl.h"

/* |got - want| within rel of |want| (or exactly 0 when want is 0) */
static void assert_rel(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want))) {
		print_error("got %.17g, want %.17g (relative %g)\n", got, want,
			    rel);
		fail();
	}
}

static int fit(const double *c, const double *x, size_t n, struct usl_fit *f)
{
	return usl_fit(c, x, n, f);
}

static const char *text(const struct usl_fit *f)
{
	static char buf[320];

	return usl_text(buf, sizeof(buf), f, "MB/s");
}

/* Points of lambda 100, sigma 0.05, kappa 0.002 at 1..64 clients: found
 * again, the peak at sqrt(0.95 / 0.002) = 21.79 clients. */
static void test_known_parameters(void **state)
{
	const double c[] = { 1, 2, 4, 8, 16, 32, 64 };
	double x[7];
	struct usl_fit f;

	(void)state;
	for (int i = 0; i < 7; i++)
		x[i] = usl_model(100, 0.05, 0.002, c[i]);
	assert_int_equal(fit(c, x, 7, &f), 1);
	assert_rel(f.lambda, 100, 1e-6);
	assert_rel(f.sigma, 0.05, 1e-5);
	assert_rel(f.kappa, 0.002, 1e-5);
	assert_rel(f.r2, 1, 1e-12);
	assert_true(f.has_peak);
	assert_rel(f.peak_clients, sqrt(0.95 / 0.002), 1e-5);
	assert_rel(f.peak, usl_model(100, 0.05, 0.002, sqrt(0.95 / 0.002)),
		   1e-6);
	assert_false(f.poor);
	assert_int_equal(f.n, 7);
	assert_string_equal(text(&f), "USL model: 100 MB/s a client, "
			    "contention sigma 0.05, coherency kappa 0.002, "
			    "R\xc2\xb2 1.000 (7 points); predicted peak 740 "
			    "MB/s at 21.8 clients");
}

/* kappa 0: no peak, the curve levels off towards lambda / sigma; sigma
 * 0 too: linear. */
static void test_no_peak(void **state)
{
	const double c[] = { 1, 2, 4, 8, 16 };
	double x[5], y[5];
	struct usl_fit f;

	(void)state;
	for (int i = 0; i < 5; i++) {
		x[i] = usl_model(50, 0.1, 0, c[i]);
		y[i] = 30 * c[i];
	}
	assert_int_equal(fit(c, x, 5, &f), 1);
	assert_rel(f.lambda, 50, 1e-6);
	assert_rel(f.sigma, 0.1, 1e-6);
	assert_false(f.has_peak);
	assert_true(strstr(text(&f), "; no peak: it levels off towards 500 "
			   "MB/s") != NULL);
	assert_int_equal(fit(c, y, 5, &f), 1);
	assert_rel(f.lambda, 30, 1e-12);
	assert_true(f.sigma == 0 && f.kappa == 0 && !f.has_peak);
	assert_true(strstr(text(&f), "; no peak: linear") != NULL);
}

/* The noisy curve SciPy's curve_fit fitted (history_stats.json "usl"):
 * the same parameters to 5 significant digits, as usl.py's test asks. */
static void test_scipy(void **state)
{
	const double c[] = { 1, 2, 4, 8, 12, 16, 24, 32, 48, 64 };
	const double x[] = { 97.9, 200.35, 342.52, 559.31, 675.02, 701.26,
			     734.26, 694.31, 620.02, 529.57 };
	struct usl_fit f;

	(void)state;
	assert_int_equal(fit(c, x, 10, &f), 1);
	assert_rel(f.lambda, 105.37716785494045, 1e-5);
	assert_rel(f.sigma, 0.059017198502536825, 1e-5);
	assert_rel(f.kappa, 0.0019862382880215792, 1e-5);
	assert_rel(f.r2, 0.9986093606288612, 1e-5);
	assert_false(f.poor);
	assert_string_equal(text(&f), "USL model: 105 MB/s a client, "
			    "contention sigma 0.059, coherency kappa 0.00199, "
			    "R\xc2\xb2 0.999 (10 points); predicted peak 734 "
			    "MB/s at 21.8 clients");
}

/* Curves fitted once with usl.py (its fit() and text()): the C fit gives
 * the same figures (to 1e-12: in practice to the bit), the points given
 * in any order. */
static void test_usl_py(void **state)
{
	/* noisy, peaking inside the points; shuffled */
	const double c[] = { 8, 1, 21, 3, 13, 2, 5 };
	const double x[] = { 222.5, 48.2, 219.6, 130.4, 238.0, 91.7, 180.9 };
	/* poor: R^2 0.17 */
	const double pc[] = { 1, 2, 4, 8, 16 };
	const double px[] = { 100, 30, 500, 20, 400 };
	struct usl_fit f;

	(void)state;
	assert_int_equal(fit(c, x, 7, &f), 1);
	assert_rel(f.lambda, 50.15338911912149, 1e-12);
	assert_rel(f.sigma, 0.06816062855238694, 1e-12);
	assert_rel(f.kappa, 0.005827195935179679, 1e-12);
	assert_rel(f.r2, 0.9996627437229727, 1e-12);
	assert_rel(f.peak_clients, 12.64563718726475, 1e-12);
	assert_rel(f.peak, 239.15519116653886, 1e-12);
	assert_true(f.max_clients == 21);
	assert_string_equal(text(&f), "USL model: 50.2 MB/s a client, "
			    "contention sigma 0.0682, coherency kappa 0.00583, "
			    "R\xc2\xb2 1.000 (7 points); predicted peak 239 "
			    "MB/s at 12.6 clients");
	assert_int_equal(fit(pc, px, 5, &f), 1);
	assert_rel(f.lambda, 99.32467025364008, 1e-12);
	assert_rel(f.sigma, 0.27242293383944466, 1e-12);
	assert_true(f.kappa == 0 && !f.has_peak);
	assert_rel(f.r2, 0.1686867226904496, 1e-12);
	assert_true(f.poor);
	assert_string_equal(f.why, "R\xc2\xb2 0.17");
	assert_string_equal(text(&f), "USL model: poor fit (R\xc2\xb2 0.17): "
			    "the model does not describe this curve; read the "
			    "points");
}

/* Fewer than 3 usable points: no fit; 3: fitted but poor; points with no
 * clients or no throughput left out; a flat curve (sigma 1, no peak);
 * every point at one client count (R^2 0: poor). */
static void test_degenerate(void **state)
{
	const double c[] = { 1, 2, 4, 8, 0 };
	const double x[] = { 100, 190, 350, 0, 500 };
	const double fc[] = { 1, 2, 4, 8 };
	const double fx[] = { 200, 200, 200, 200 };
	const double sc[] = { 4, 4, 4, 4 };
	const double sx[] = { 100, 120, 90, 110 };
	const double nc[] = { 1, NAN, 2, INFINITY };
	const double nx[] = { 10, 20, NAN, 40 };
	struct usl_fit f;

	(void)state;
	assert_int_equal(fit(c, x, 0, &f), 0);
	assert_int_equal(fit(c, x, 2, &f), 0);
	assert_int_equal(f.n, 2);
	assert_int_equal(fit(nc, nx, 4, &f), 0);
	assert_int_equal(f.n, 1);
	assert_string_equal(text(NULL), "USL model: too few points to fit "
			    "(3 or more needed)");
	/* 8 clients at 0 MB/s and 0 clients: left out, 3 points remain */
	assert_int_equal(fit(c, x, 5, &f), 1);
	assert_int_equal(f.n, 3);
	assert_true(f.poor);
	assert_string_equal(f.why, "3 points for 3 parameters");
	assert_rel(f.lambda, 99.56069391697297, 1e-12);
	assert_rel(f.sigma, 0.04602258962530026, 1e-12);
	assert_rel(f.kappa, 1.4725476365394542e-12, 1e-9);
	assert_true(strstr(text(&f), "poor fit (3 points for 3 parameters)")
		    != NULL);
	assert_int_equal(fit(fc, fx, 4, &f), 1);
	assert_true(f.lambda == 200 && f.sigma == 1 && f.kappa == 0);
	assert_true(f.r2 == 1 && !f.poor && !f.has_peak);
	assert_true(strstr(text(&f), "it levels off towards 200 MB/s") !=
		    NULL);
	assert_int_equal(fit(sc, sx, 4, &f), 1);
	assert_true(f.lambda == 26.25 && f.sigma == 0 && f.kappa == 0);
	assert_true(f.r2 == 0 && f.poor);
	assert_string_equal(f.why, "R\xc2\xb2 0.00");
}

/* A curve's JSON points: FAILED and INTERRUPTED ones (whatever figures
 * they carry) and those without clients or MB/s are left out; INVALID
 * (a bound broken) and UNSTEADY ones are measurements and count. */
static void test_json_points(void **state)
{
	static const char *const doc =
		"[{\"clients\": 1, \"status\": \"VALID\", \"mb_per_s\": "
		"95.238095238095241},"
		"{\"clients\": 2, \"status\": \"VALID\", \"mb_per_s\": "
		"181.37},"
		"{\"clients\": 96, \"status\": \"FAILED\", \"mb_per_s\": 1.0},"
		"{\"clients\": 3, \"status\": \"INTERRUPTED\", \"mb_per_s\": "
		"9000},"
		"{\"clients\": 5, \"status\": \"VALID\"},"
		"{\"clients\": \"7\", \"status\": \"VALID\", \"mb_per_s\": 9},"
		"{\"clients\": 4, \"status\": \"INVALID\", \"mb_per_s\": "
		"322.58},"
		"{\"clients\": 8, \"status\": \"UNSTEADY\", \"mb_per_s\": "
		"497.51}]";
	const double c[] = { 1, 2, 4, 8 };
	const double x[] = { 95.238095238095241, 181.37, 322.58, 497.51 };
	struct json_object *pts = json_tokener_parse(doc);
	struct json_object *j;
	struct usl_fit f, g;

	(void)state;
	assert_non_null(pts);
	assert_int_equal(usl_fit_curve(pts, &f), 1);
	assert_int_equal(fit(c, x, 4, &g), 1);
	assert_int_equal(f.n, 4);
	assert_true(f.lambda == g.lambda && f.sigma == g.sigma &&
		    f.kappa == g.kappa && f.r2 == g.r2);
	assert_true(f.max_clients == 8);
	j = usl_json(&f);
	assert_non_null(j);
	assert_string_equal(json_object_get_string(json_object_object_get(
		j, "model")), "USL");
	assert_true(json_object_get_double(json_object_object_get(
		j, "sigma")) == f.sigma);
	assert_true(json_object_get_double(json_object_object_get(
		j, "kappa")) == f.kappa);
	assert_int_equal(json_object_get_int(json_object_object_get(
		j, "n_points")), 4);
	assert_int_equal(json_object_get_boolean(json_object_object_get(
		j, "poor")), f.poor);
	json_object_put(j);
	json_object_put(pts);
	assert_int_equal(usl_fit_curve(NULL, &f), 0);
	assert_null(usl_json(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_parameters),
		cmocka_unit_test(test_no_peak),
		cmocka_unit_test(test_scipy),
		cmocka_unit_test(test_usl_py),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_json_points),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
