/*
 * test_report_text.c - the end-of-run text report reads everything from
 * the result: the connection set-up line appears when the result says
 * the backend's target is a server of its own (not by looking the backend
 * up), and the Throughput line's MB/sec is result_mbps().
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>
#include <cmocka.h>

#include "talloc_fixture.h"
#include "report/report.h"

/* The report of r under o, as a string under mem. */
static char *text_of(void *mem, const struct dbench_options *o,
		     const struct run_result *r)
{
	char *buf = NULL, *s;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_text(f, mem, o, r);
	assert_int_equal(fclose(f), 0);
	s = talloc_strndup(mem, buf, len);
	free(buf);
	assert_non_null(s);
	return s;
}

static void test_connection_line(void **state)
{
	struct tstate *ts = *state;
	struct dbench_options o;
	struct run_result *r = result_new(ts->ctx);
	static const char line[] =
		"Connection set-up: avg 1.500 ms, max 2.000 ms (2 clients)\n";

	assert_non_null(r);
	memset(&o, 0, sizeof(o));
	o.backend = "smb";	/* the name alone decides nothing */
	r->nclients = 2;
	r->nprocs = 2;
	r->seconds = 4;
	r->bytes = 10000000;
	r->setup_sum_ns = 3000000;
	r->setup_max_ns = 2000000;
	assert_null(strstr(text_of(r, &o, r), "Connection"));
	r->own_target = true;
	assert_non_null(strstr(text_of(r, &o, r),
			       "Throughput 2.5 MB/sec  2 clients  2 procs  "
			       "max_latency=0.000 ms\n"));
	assert_non_null(strstr(text_of(r, &o, r), line));
	/* the machine-readable report has no such line */
	o.machine_readable = true;
	assert_null(strstr(text_of(r, &o, r), "Connection"));
	assert_non_null(strstr(text_of(r, &o, r), ";2.5;2;2;0.000;\n"));
	talloc_free(r);
}

/* --warmup auto's line, and the response table of a schedule: only when
 * asked for or scheduled. */
static void test_warmup_and_response(void **state)
{
	struct tstate *ts = *state;
	struct dbench_options o;
	struct run_result *r = result_new(ts->ctx);
	static const double pct[] = { 50, 99 };
	char *t;

	assert_non_null(r);
	memset(&o, 0, sizeof(o));
	o.percentiles = pct;
	o.npercentiles = 2;
	r->nclients = r->nprocs = 1;
	r->seconds = 2;
	r->phase = PHASE_EXECUTE;
	r->phase_seconds[PHASE_WARMUP] = 7.0001;
	r->ops[OP_CLOSE].count = 1;
	r->ops[OP_CLOSE].sum_ns = r->ops[OP_CLOSE].max_ns = 1000;
	hist_record(&r->ops[OP_CLOSE].hist, 1000);
	t = text_of(r, &o, r);
	assert_null(strstr(t, "Warmup"));
	assert_null(strstr(t, "Response"));
	o.warmup_auto = true;
	o.warmup = 30;
	o.warmup_window = 5;
	o.warmup_bound_pct = 10;
	r->warmup_steady = true;
	assert_non_null(strstr(text_of(r, &o, r),
			       "\nWarmup: steady after 7 s (lines/s within 10% "
			       "of their mean over 5 s)\n"));
	r->warmup_steady = false;
	assert_non_null(strstr(text_of(r, &o, r),
			       "\nWarmup: NOT steady after 7 s (--warmup-max "
			       "30 s): measured anyway\n"));
	r->phase = PHASE_WARMUP;
	assert_non_null(strstr(text_of(r, &o, r),
			       "\nWarmup: not steady after 7 s, when the run "
			       "ended\n"));
	r->response = talloc_zero_array(r, struct op_stats, OP_NUM_MEASURED);
	assert_non_null(r->response);
	r->response[OP_CLOSE].count = 1;
	r->response[OP_CLOSE].sum_ns = r->response[OP_CLOSE].max_ns = 500000;
	hist_record(&r->response[OP_CLOSE].hist, 500000);
	t = text_of(r, &o, r);
	assert_non_null(strstr(t, "\nResponse time from when each op was due "
			       "(the loadfile's timestamps), in ms:\n"
			       "Operation      Count   AvgResp   MaxResp"
			       "       p50       p99\n---"));
	assert_non_null(strstr(t, "\nClose              1     0.500     "
			       "0.500     0.500     0.500\n"));
	o.target_rate = 1;
	assert_non_null(strstr(text_of(r, &o, r), "(the -R pace), in ms:\n"));
	o.machine_readable = true;
	assert_null(strstr(text_of(r, &o, r), "Response"));
	talloc_free(r);
}

static void test_mbps(void **state)
{
	(void)state;
	assert_true(result_mbps(3000000, 2) == 1.5);
	assert_true(result_mbps(3000000, 0) == 0);
	assert_true(result_mbps(3000000, -1) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_connection_line, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_mbps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_warmup_and_response, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
