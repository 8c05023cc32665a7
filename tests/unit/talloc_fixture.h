/*
 * talloc_fixture.h - the cmocka fixture shared by the unit tests: a talloc
 * context per test, and a check at teardown that the test freed every
 * block it allocated under it.  Include after <cmocka.h> and <talloc.h>.
 */
#ifndef DBENCH_TEST_TALLOC_FIXTURE_H
#define DBENCH_TEST_TALLOC_FIXTURE_H

#include <stdlib.h>

struct tstate {
	void *ctx;
	size_t blocks;
};

static int setup(void **state)
{
	struct tstate *ts = calloc(1, sizeof(*ts));

	if (ts == NULL)
		return -1;
	ts->ctx = talloc_new(NULL);
	if (ts->ctx == NULL) {
		free(ts);
		return -1;
	}
	ts->blocks = talloc_total_blocks(ts->ctx);
	*state = ts;
	return 0;
}

static int teardown(void **state)
{
	struct tstate *ts = *state;

	/* nothing may be left behind under the test's context */
	assert_int_equal(talloc_total_blocks(ts->ctx), ts->blocks);
	talloc_free(ts->ctx);
	free(ts);
	return 0;
}

#endif
