/*
 * test_disktest_text.c - the disk test's text report from a result made
 * by hand: the tables' exact headers, 80 columns for names up to 20
 * characters, the lowest and highest only with several runs, longer
 * names numbered with a legend.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <talloc.h>

#include "disktest/disktest.h"
#include "talloc_fixture.h"

/* The text the printer makes of res (allocated under mem). */
static char *printed(void *mem, const struct disktest_result *res)
{
	char *buf = NULL, *s;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	disktest_print(f, res);
	fclose(f);
	s = talloc_strdup(mem, buf);
	free(buf);
	return s;
}

/* A result made by hand: dirs[0] has a 20-character name, dirs[1] a
 * longer one; every row measured with the given figures. */
static struct disktest_result *fake_result(void *mem, unsigned repeat)
{
	static const char *const paths[] = {
		"/srv/disk-twenty-chr",
		"/srv/a/directory/name/longer/than/twenty",
	};
	struct disktest_result *res = talloc_zero(mem, struct disktest_result);

	assert_non_null(res);
	res->block_size = 1u << 20;
	res->repeat = repeat;
	res->ndirs = 2;
	res->dirs = talloc_zero_array(res, struct disktest_dir, 2);
	assert_non_null(res->dirs);
	for (unsigned i = 0; i < 2; i++) {
		struct disktest_dir *d = &res->dirs[i];

		d->path = paths[i];
		d->size = 16u << 20;
		for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
			struct disktest_row *row = &d->row[k];

			row->state = DT_MEASURED;
			row->nruns = repeat;
			row->mbps_min = 100000.5;
			row->mbps_median = 123456.7;
			row->mbps_max = 234567.8;
			row->lat = talloc_zero(res, struct histogram);
			assert_non_null(row->lat);
			hist_record(row->lat, 2500000);
			row->lat_count = 1;
			row->lat_min_ns = row->lat_max_ns = 2500000;
			row->resident_pct = -1;
		}
	}
	return res;
}

/* The tables' exact headers, 80 columns, the ranges only with several
 * runs, long names numbered with a legend. */
static void test_print_shape(void **state)
{
	static const char head1[] = "\n\nMB/s                             "
				    "write+      cold       hot  O_DIRECT  "
				    "O_DIRECT\n";
	static const char head1l[] = "\n\nlatency ms                       "
				     "write+      cold       hot  O_DIRECT  "
				     "O_DIRECT\n";
	static const char head2[] = "\ndirectory                     fdatasync"
				    "      read      read     write      read\n";
	struct tstate *ts = *state;

	for (unsigned repeat = 1; repeat <= 3; repeat += 2) {
		struct disktest_result *res = fake_result(ts->ctx, repeat);
		char *out = printed(ts->ctx, res), *line, *save = NULL;
		unsigned nlines = 0;

		assert_non_null(strstr(out, head1));
		assert_non_null(strstr(out, head1l));
		assert_non_null(strstr(out, head2));
		assert_non_null(strstr(out, "\n/srv/disk-twenty-chr  p50   "
					    "      2.500     2.500"));
		assert_non_null(strstr(out, "\n#2 = /srv/a/directory/name/"
					    "longer/than/twenty\n"));
		assert_true((strstr(out, " lowest ") != NULL) == (repeat > 1));
		assert_true((strstr(out, "[") != NULL) == false);
		if (repeat == 1)
			assert_non_null(strstr(out, "\n/srv/disk-twenty-chr  "
						    "         123456.7  "));
		else
			assert_non_null(strstr(out, "\n#2                    "
						    "median   123456.7  "));
		/* every line up to the notes fits 80 columns */
		for (line = strtok_r(out, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save)) {
			if (line[0] == '/' && strchr(line, ':') != NULL)
				break;
			if (strlen(line) > 80)
				fail_msg("wider than 80 columns: '%s'", line);
			nlines++;
		}
		/* title, 2 legend lines, 2 x (2 header lines + rows), #2 */
		assert_int_equal(nlines, 3 + 4 + 2 * (repeat == 1 ? 1 : 3) +
						 2 * 3 + 1);
		talloc_free(out);
		talloc_free(res);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_print_shape, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
