/*
 * test_steady.c - the steady-state detector of --warmup auto (steady.h)
 * on synthetic series (flat, ramp, noisy within and beyond the bound, a
 * step, an oscillation, no throughput), and the time rules it drives
 * (coord_policy_step()): the warmup ends at the first steady window, or
 * at --warmup-max when there is none.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <talloc.h>
#include <cmocka.h>

#include "run/coord.h"
#include "stats/steady.h"
#include "util/util.h"

/* Feed series v[0..n) into a window-5, 10% detector: the 1-based index
 * of the first sample at which it is steady, 0 if never. */
static unsigned first_steady(const double *v, unsigned n)
{
	struct steady s;

	steady_init(&s, 5, 10.0);
	for (unsigned i = 0; i < n; i++)
		if (steady_add(&s, v[i]))
			return i + 1;
	return 0;
}

static void test_flat(void **state)
{
	const double v[] = { 100, 100, 100, 100, 100, 100 };

	(void)state;
	/* steady once the window is full, not before */
	assert_int_equal(first_steady(v, 5), 5);
	assert_int_equal(first_steady(v, 4), 0);
}

static void test_ramp(void **state)
{
	/* +10% a second never settles; a ramp that flattens does, as soon
	 * as the window holds only the flat part */
	const double up[] = { 100, 110, 121, 133, 146, 161, 177, 195, 214 };
	const double settle[] = { 10, 40, 70, 100, 100, 100, 100, 100, 100 };

	(void)state;
	assert_int_equal(first_steady(up, 9), 0);
	assert_int_equal(first_steady(settle, 9), 8);
}

static void test_noisy(void **state)
{
	/* range 9 around a mean of 100: within 10%; range 20: not */
	const double within[] = { 96, 104, 100, 95, 103 };
	const double beyond[] = { 90, 110, 100, 95, 105, 90, 110, 100 };

	(void)state;
	assert_int_equal(first_steady(within, 5), 5);
	assert_int_equal(first_steady(beyond, 8), 0);
}

static void test_step(void **state)
{
	/* steady, then a step: steady again 5 samples after it */
	const double v[] = { 50, 50, 50, 50, 50, 200, 200, 200, 200, 200 };
	struct steady s;
	unsigned i;

	(void)state;
	steady_init(&s, 5, 10.0);
	for (i = 0; i < 5; i++)
		steady_add(&s, v[i]);
	for (; i < 9; i++)
		assert_false(steady_add(&s, v[i]));
	assert_true(steady_add(&s, v[9]));
}

static void test_oscillating(void **state)
{
	double v[40];

	(void)state;
	for (unsigned i = 0; i < 40; i++)
		v[i] = i % 2 ? 80 : 120;
	assert_int_equal(first_steady(v, 40), 0);
	/* the same swing of 4% is steady */
	for (unsigned i = 0; i < 40; i++)
		v[i] = i % 2 ? 98 : 102;
	assert_int_equal(first_steady(v, 40), 5);
}

static void test_idle(void **state)
{
	const double v[] = { 0, 0, 0, 0, 0, 0, 0 };
	struct steady s;

	(void)state;
	/* nothing runs: never a state worth measuring */
	assert_int_equal(first_steady(v, 7), 0);
	/* the window is clamped; a window of one is steady at once */
	steady_init(&s, 0, 10.0);
	assert_int_equal(s.window, 1);
	assert_true(steady_add(&s, 3));
	steady_init(&s, 1000, 10.0);
	assert_int_equal(s.window, STEADY_MAX_WINDOW);
}

static struct coord_sample sample(uint64_t lines)
{
	return (struct coord_sample){ .clients = 2, .running = 2, .started = 2,
				      .busy = 2, .alive = 2, .lines = lines };
}

/* Tick the policy over per-second line counts; the second the warmup
 * ended (the execute phase was decided), 0 if it did not. */
static unsigned ticks(struct coord_policy *p, const unsigned *per_s,
		      unsigned n)
{
	uint64_t lines = 0;

	for (unsigned k = 1; k <= n; k++) {
		struct coord_sample g;
		struct coord_out out;

		lines += per_s[k - 1];
		g = sample(lines);
		coord_policy_step(p, COORD_TICK, (uint64_t)k * NS_PER_SEC, &g,
				  &out);
		if (out.phase == PHASE_EXECUTE)
			return k;
	}
	return 0;
}

static void test_policy(void **state)
{
	struct dbench_options o = { .timelimit = 10, .warmup = 20,
				    .warmup_auto = true, .warmup_window = 5,
				    .warmup_bound_pct = 10 };
	const unsigned slow_start[] = { 5, 5, 200, 200, 200, 200, 200, 200 };
	unsigned swing[30];
	struct coord_policy p;

	(void)state;
	coord_policy_init(&p, &o);
	assert_int_equal(p.phase, PHASE_WARMUP);
	assert_int_equal(ticks(&p, slow_start, 8), 7);
	assert_true(p.steady_reached);
	/* never steady: execute at --warmup-max, said so */
	for (unsigned i = 0; i < 30; i++)
		swing[i] = i % 2 ? 100 : 200;
	coord_policy_init(&p, &o);
	assert_int_equal(ticks(&p, swing, 30), 20);
	assert_false(p.steady_reached);
	/* a fixed warmup ignores the throughput */
	o.warmup_auto = false;
	o.warmup = 3;
	coord_policy_init(&p, &o);
	assert_int_equal(ticks(&p, slow_start, 8), 3);
	assert_false(p.steady_reached);
}

/* A late tick: its sample covers more than a second, the next one's
 * less; at an even 200 lines/s every sample is still 200. */
static void test_late_tick(void **state)
{
	struct dbench_options o = { .timelimit = 10, .warmup = 20,
				    .warmup_auto = true, .warmup_window = 5,
				    .warmup_bound_pct = 1 };
	const double at[] = { 1.0, 2.0, 3.15, 4.0, 5.0, 6.0 };
	struct coord_policy p;
	unsigned ended = 0;

	(void)state;
	coord_policy_init(&p, &o);
	for (unsigned i = 0; i < 6 && ended == 0; i++) {
		struct coord_sample g = sample((uint64_t)(at[i] * 200 + 0.5));
		struct coord_out out;

		coord_policy_step(&p, COORD_TICK,
				  (uint64_t)(at[i] * NS_PER_SEC), &g, &out);
		if (out.phase == PHASE_EXECUTE)
			ended = i + 1;
	}
	assert_int_equal(ended, 5);
	assert_true(p.steady_reached);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_ramp),
		cmocka_unit_test(test_noisy),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_oscillating),
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_late_tick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
