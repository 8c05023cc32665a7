/*
 * test_histogram.c - bucket arithmetic, merging and percentile accuracy of
 * the log-linear latency histograms.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/histogram.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double uniform01(void)
{
	return (double)(xorshift() >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every value lands in a bucket whose bounds contain it. */
static void test_index_bounds(void **state)
{
	static const uint64_t fixed[] = {
		0, 1, 2, 127, 128, 255, 256, 257, 511, 512, 1000, 4095, 4096,
		1000000, 999999999, 1ull << 40, (1ull << 43) - 1,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		unsigned b = hist_index(fixed[i]);

		assert_true(b < HIST_BUCKETS);
		assert_true(hist_bucket_low(b) <= fixed[i]);
		assert_true(fixed[i] < hist_bucket_high(b));
	}
	for (int i = 0; i < 200000; i++) {
		uint64_t v = xorshift() >> (xorshift() % 64);
		unsigned b = hist_index(v);

		if (v >= (1ull << 43)) {
			assert_int_equal(b, HIST_BUCKETS - 1);
			continue;
		}
		assert_true(hist_bucket_low(b) <= v);
		assert_true(v < hist_bucket_high(b));
		/* width within 1/128 of the lower bound above 256 */
		if (b >= HIST_LINEAR && b + 1 < HIST_BUCKETS)
			assert_true((hist_bucket_high(b) - hist_bucket_low(b)) *
					    128 <= hist_bucket_low(b));
	}
	/* buckets tile the range: each starts where the last ended */
	for (unsigned b = 1; b < HIST_BUCKETS; b++)
		assert_true(hist_bucket_low(b) == hist_bucket_high(b - 1));
	/* one hour fits below the clamp bucket */
	assert_true(hist_index(3600ull * 1000000000ull) < HIST_BUCKETS - 1);
}

static void check_accuracy(uint64_t *v, size_t n)
{
	static const double ps[] = { 1, 10, 25, 50, 75, 90, 95, 99, 99.9,
				     99.99, 100 };
	struct histogram *h = calloc(1, sizeof(*h));
	uint64_t min = UINT64_MAX, max = 0;

	assert_non_null(h);
	for (size_t i = 0; i < n; i++) {
		hist_record(h, v[i]);
		if (v[i] < min)
			min = v[i];
		if (v[i] > max)
			max = v[i];
	}
	assert_int_equal(hist_total(h), n);
	qsort(v, n, sizeof(v[0]), cmp_u64);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		size_t rank = (size_t)ceil(ps[i] / 100.0 * (double)n);
		uint64_t exact = v[rank ? rank - 1 : 0];
		uint64_t got = hist_percentile(h, ps[i], min, max);
		double err = fabs((double)got - (double)exact);

		/* within 1%, or exact below the linear range */
		if (err > (double)exact * 0.01)
			fail_msg("p%g: exact %llu, histogram %llu", ps[i],
				 (unsigned long long)exact,
				 (unsigned long long)got);
	}
	free(h);
}

static void test_percentiles_uniform(void **state)
{
	size_t n = 100000;
	uint64_t *v = malloc(n * sizeof(*v));

	(void)state;
	for (size_t i = 0; i < n; i++)
		v[i] = 100 + xorshift() % 10000000;	/* 100 ns .. 10 ms */
	check_accuracy(v, n);
	free(v);
}

static void test_percentiles_heavy_tail(void **state)
{
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));

	(void)state;
	/* Pareto with alpha 1.1 from 1 us: a tail up to hours */
	for (size_t i = 0; i < n; i++) {
		double u = uniform01();
		double x = 1000.0 / pow(1.0 - u, 1.0 / 1.1);

		v[i] = x > 3.6e12 ? 3600000000000ull : (uint64_t)x;
	}
	check_accuracy(v, n);
	/* lognormal around 50 us */
	for (size_t i = 0; i < n; i++) {
		double z = sqrt(-2 * log(1 - uniform01())) *
			   cos(2 * M_PI * uniform01());

		v[i] = (uint64_t)(50000.0 * exp(1.5 * z)) + 100;
	}
	check_accuracy(v, n);
	free(v);
}

static void test_merge_exact(void **state)
{
	struct histogram *a = calloc(1, sizeof(*a));
	struct histogram *b = calloc(1, sizeof(*b));
	struct histogram *all = calloc(1, sizeof(*all));
	struct histogram *m = calloc(1, sizeof(*m));

	(void)state;
	for (int i = 0; i < 50000; i++) {
		uint64_t v = xorshift() % 100000000;

		hist_record(i % 3 ? a : b, v);
		hist_record(all, v);
	}
	hist_merge(m, a);
	hist_merge(m, b);
	assert_memory_equal(m, all, sizeof(*m));
	assert_int_equal(hist_total(m), 50000);
	free(a);
	free(b);
	free(all);
	free(m);
}

/*
 * Every value from 100 ns to an hour is reported within 1%: the bucket's
 * midpoint (what a percentile returns) is that close to any value in it.
 */
static void test_relative_error_range(void **state)
{
	(void)state;
	for (int i = 0; i < 1000000; i++) {
		/* log-uniform over [100 ns, 1 h] */
		double x = 100.0 * pow(3.6e12 / 100.0, uniform01());
		uint64_t v = (uint64_t)x;
		unsigned b = hist_index(v);
		uint64_t lo = hist_bucket_low(b), hi = hist_bucket_high(b);
		uint64_t mid = lo + (hi - lo - 1) / 2;

		assert_true(b < HIST_BUCKETS - 1);
		if (fabs((double)mid - (double)v) > 0.01 * (double)v)
			fail_msg("%llu: bucket [%llu, %llu) midpoint %llu",
				 (unsigned long long)v, (unsigned long long)lo,
				 (unsigned long long)hi,
				 (unsigned long long)mid);
	}
}

/*
 * 1024 clients' histograms merged give exactly the histogram of all their
 * samples, and its percentiles are within 1% of the exact ones (heavy
 * tailed: a mix of lognormal service times and Pareto stalls).
 */
static void test_merge_many_accuracy(void **state)
{
	const unsigned nclients = 1024, per = 200;
	size_t n = (size_t)nclients * per;
	uint64_t *v = malloc(n * sizeof(*v));
	struct histogram *one = calloc(1, sizeof(*one));
	struct histogram *all = calloc(1, sizeof(*all));
	struct histogram *merged = calloc(1, sizeof(*merged));
	uint64_t min = UINT64_MAX, max = 0;
	static const double ps[] = { 50, 90, 99, 99.9, 99.99 };

	(void)state;
	assert_non_null(v);
	for (unsigned c = 0; c < nclients; c++) {
		hist_clear(one);
		for (unsigned i = 0; i < per; i++) {
			size_t k = (size_t)c * per + i;
			double x;

			if (uniform01() < 0.05) {
				x = 1e5 / pow(1.0 - uniform01(), 1.0 / 1.3);
			} else {
				double z = sqrt(-2 * log(1 - uniform01())) *
					   cos(2 * M_PI * uniform01());

				x = 20000.0 * exp(z);
			}
			v[k] = x > 3.6e12 ? 3600000000000ull
					  : (uint64_t)x + 100;
			if (v[k] < min)
				min = v[k];
			if (v[k] > max)
				max = v[k];
			hist_record(one, v[k]);
			hist_record(all, v[k]);
		}
		hist_merge(merged, one);
	}
	assert_memory_equal(merged, all, sizeof(*all));
	assert_int_equal(hist_total(merged), n);
	qsort(v, n, sizeof(v[0]), cmp_u64);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		size_t rank = (size_t)ceil(ps[i] / 100.0 * (double)n);
		uint64_t exact = v[rank - 1];
		uint64_t got = hist_percentile(merged, ps[i], min, max);

		if (fabs((double)got - (double)exact) > 0.01 * (double)exact)
			fail_msg("p%g of %zu: exact %llu, merged %llu", ps[i],
				 n,
				 (unsigned long long)exact,
				 (unsigned long long)got);
	}
	/* the extremes are exact when min and max are passed */
	assert_int_equal(hist_percentile(merged, 100, min, max), max);
	assert_int_equal(hist_percentile(merged, 1e-9, min, max), min);
	free(v);
	free(one);
	free(all);
	free(merged);
}

static void test_empty_and_single(void **state)
{
	struct histogram *h = calloc(1, sizeof(*h));

	(void)state;
	assert_int_equal(hist_percentile(h, 99, 0, UINT64_MAX), 0);
	hist_record(h, 123456);
	/* clamped to the known min/max: a single sample is exact */
	assert_int_equal(hist_percentile(h, 50, 123456, 123456), 123456);
	assert_int_equal(hist_percentile(h, 100, 123456, 123456), 123456);
	/* the used range covers exactly the buckets recorded into */
	assert_int_equal(h->lo, hist_index(123456));
	assert_int_equal(h->end, hist_index(123456) + 1);
	hist_record(h, 10);
	hist_record(h, 1ull << 30);
	assert_int_equal(h->lo, 10);
	assert_int_equal(h->end, hist_index(1ull << 30) + 1);
	assert_int_equal(hist_total(h), 3);
	hist_clear(h);
	assert_int_equal(h->end, 0);
	assert_int_equal(hist_total(h), 0);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		assert_int_equal(h->count[i], 0);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_bounds),
		cmocka_unit_test(test_percentiles_uniform),
		cmocka_unit_test(test_percentiles_heavy_tail),
		cmocka_unit_test(test_merge_exact),
		cmocka_unit_test(test_relative_error_range),
		cmocka_unit_test(test_merge_many_accuracy),
		cmocka_unit_test(test_empty_and_single),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
