/*
 * test_timer.c - the op timer's arithmetic: tick differences converted to
 * nanoseconds, the CLOCK_MONOTONIC fallback, and a calibration that agrees
 * with itself.  No wall-clock assertions: the machine may be busy.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/timer.h"

/* Without a calibration, ticks are nanoseconds. */
static void test_fallback(void **state)
{
	(void)state;
	timer_ns_per_tick = 0;
	assert_string_equal(timer_name(), "clock_gettime");
	assert_int_equal(timer_ns(100, 350), 250);
	assert_int_equal(timer_ns(350, 100), 0);	/* never negative */
	assert_int_equal(timer_ns(7, 7), 0);
	assert_true(timer_now() > 0);
}

/* 32.32 fixed point: exact for whole rates, no overflow for long waits. */
static void test_conversion(void **state)
{
	(void)state;
	timer_ns_per_tick = 1ull << 32;			/* 1 ns a tick */
	assert_int_equal(timer_ns(0, 123456789), 123456789);
	timer_ns_per_tick = 1ull << 30;			/* 4 ticks a ns */
	assert_int_equal(timer_ns(1000, 5000), 1000);
	/* an hour at 4 GHz: the product needs more than 64 bits */
	assert_int_equal(timer_ns(0, 3600ull * 4000000000ull),
			 3600 * NS_PER_SEC);
	assert_string_equal(timer_name(), "tsc");
	timer_ns_per_tick = 0;
}

/* Where a counter is used, successive readings never go back and the
 * rate is a plausible clock rate (between 10 MHz and 100 GHz). */
static void test_calibration(void **state)
{
	uint64_t a, b;

	(void)state;
	if (!timer_init()) {
		assert_int_equal(timer_ns_per_tick, 0);
		skip();
	}
	assert_true(timer_ns_per_tick > (1ull << 32) / 100);	/* < 100 GHz */
	assert_true(timer_ns_per_tick < (1ull << 32) * 100);	/* > 10 MHz */
	a = timer_now();
	b = timer_now();
	assert_true(b >= a);
	timer_ns_per_tick = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_conversion),
		cmocka_unit_test(test_calibration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
