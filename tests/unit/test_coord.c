/*
 * test_coord.c - the coordinator's time rules and the local coordinator
 * (coord.h): warmup then --timelimit seconds of execute, the stops that
 * come at once (signal before failure before "all finished"), the time
 * of a run whose clients all ended by themselves, the cleanup phase; and
 * the exit status computed from a result (run_exit_status()).
 */
#include "config.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <talloc.h>
#include <cmocka.h>

#include "talloc_fixture.h"
#include "run/coord.h"
#include "run/supervisor.h"
#include "util/util.h"

#define S NS_PER_SEC

static struct coord_sample running(void)
{
	return (struct coord_sample){ .clients = 3, .running = 3,
				      .started = 3, .busy = 3, .alive = 3 };
}

/* 2 s of warmup, 3 s of execute, then the time limit. */
static void test_phases(void **state)
{
	struct tstate *ts = *state;
	struct dbench_options o = { .warmup = 2, .timelimit = 3 };
	struct coord *c = coord_local_new(ts->ctx, &o);
	struct coord_sample s = running();
	struct coord_out out;

	assert_non_null(c);
	assert_int_equal(c->policy.phase, PHASE_WARMUP);
	assert_int_equal(c->ops->step(c, COORD_POLL, S / 2, &s, &out), 0);
	assert_int_equal(out.stop, COORD_RUN);
	assert_false(out.print);
	c->ops->step(c, COORD_TICK, S, &s, &out);
	assert_true(out.print);
	assert_int_equal(out.line_phase, PHASE_WARMUP);
	assert_int_equal(out.phase, PHASE_WARMUP);
	assert_int_equal(out.global.clients, 3);
	/* the second that ends the warmup is still shown as warmup */
	c->ops->step(c, COORD_TICK, 2 * S, &s, &out);
	assert_int_equal(out.line_phase, PHASE_WARMUP);
	assert_int_equal(out.phase, PHASE_EXECUTE);
	assert_true(out.line_secs == 2.0);
	c->ops->step(c, COORD_TICK, 4 * S, &s, &out);
	assert_int_equal(out.line_phase, PHASE_EXECUTE);
	assert_true(out.line_secs == 2.0);
	/* 3 s into execute: stop, without a line */
	c->ops->step(c, COORD_TICK, 5 * S, &s, &out);
	assert_int_equal(out.stop, COORD_TIMELIMIT);
	assert_false(out.print);
	c->ops->step(c, COORD_FINAL, 5 * S + 1000, &s, &out);
	assert_int_equal(out.stop, COORD_TIMELIMIT);
	assert_false(out.print);
	assert_int_equal(out.stop_ns, 5 * S + 1000);
	assert_int_equal(out.phase, PHASE_EXECUTE);
	talloc_free(c);
}

/* A signal, then a failure, then "every client ended" stop at once. */
static void test_stops(void **state)
{
	struct tstate *ts = *state;
	struct dbench_options o = { .warmup = 0, .timelimit = 60 };
	struct coord *c = coord_local_new(ts->ctx, &o);
	struct coord_sample s = running();
	struct coord_out out;

	assert_int_equal(c->policy.phase, PHASE_EXECUTE);
	s.signal = SIGTERM;
	s.failed = 1;
	s.running = 0;
	c->ops->step(c, COORD_POLL, S, &s, &out);
	assert_int_equal(out.stop, COORD_INTERRUPTED);
	s.signal = 0;
	c->ops->step(c, COORD_TICK, S, &s, &out);
	assert_int_equal(out.stop, COORD_FAILED);
	assert_false(out.print);
	s.failed = 0;
	c->ops->step(c, COORD_POLL, 3 * S, &s, &out);
	assert_int_equal(out.stop, COORD_FINISHED);
	/* all ended by themselves: the time ends with the last of them,
	 * and the last partial second gets its line */
	s.end_ns = 2 * S + 500;
	c->ops->step(c, COORD_FINAL, 3 * S, &s, &out);
	assert_int_equal(out.stop, COORD_FINISHED);
	assert_true(out.print);
	assert_int_equal(out.stop_ns, 2 * S + 500);
	/* cleanup: lines until no worker is left */
	c->ops->step(c, COORD_CLEANUP, 4 * S, &s, &out);
	assert_int_equal(out.stop, COORD_RUN);
	assert_int_equal(out.phase, PHASE_CLEANUP);
	assert_int_equal(out.global.busy, 3);
	s.alive = 0;
	c->ops->step(c, COORD_CLEANUP, 5 * S, &s, &out);
	assert_int_equal(out.stop, COORD_FINISHED);
	talloc_free(c);
}

/* The local coordinator: the barrier passes what it is told; the
 * gathered result is the local one. */
static void test_local_start_gather(void **state)
{
	struct tstate *ts = *state;
	struct dbench_options o = { .timelimit = 1 };
	struct coord *c = coord_local_new(ts->ctx, &o);
	struct run_result *r = result_new(ts->ctx), *m = NULL;
	bool go = true;

	assert_true(c->prints);
	assert_int_equal(c->client_id_base, 0);
	assert_int_equal(c->ops->start(c, false, &go), 0);
	assert_false(go);
	assert_int_equal(c->ops->start(c, true, &go), 0);
	assert_true(go);
	assert_int_equal(c->ops->gather(c, ts->ctx, r, &m), 0);
	assert_ptr_equal(m, r);
	talloc_free(r);
	talloc_free(c);
}

static void test_exit_status(void **state)
{
	struct tstate *ts = *state;
	struct dbench_options o = { .mismatch = MISMATCH_DEFAULT };
	struct run_result *r = result_new(ts->ctx);

	assert_int_equal(run_exit_status(r, &o), 0);
	r->mm[OP_QPATHINFO].count = 1;
	assert_int_equal(run_exit_status(r, &o), 0);
	o.mismatch = MISMATCH_KEEP_GOING;
	assert_int_equal(run_exit_status(r, &o), 1);
	r->mm[OP_QPATHINFO].count = 0;
	r->failed = true;
	assert_int_equal(run_exit_status(r, &o), 1);
	r->interrupted = true;
	r->signal = SIGTERM;
	assert_int_equal(run_exit_status(r, &o), 128 + SIGTERM);
	r->signal = 0;
	assert_int_equal(run_exit_status(r, &o), 128 + SIGINT);
	talloc_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_phases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_local_start_gather, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_exit_status, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
