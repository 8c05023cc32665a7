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
#include "report.h"

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
