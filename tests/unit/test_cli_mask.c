/*
 * test_cli_mask.c - URL passwords masked for the results and the
 * history (cli_mask_url): every URL of a list, only the password, and
 * nothing that only looks like one.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <talloc.h>

#include "talloc_fixture.h"
#include "cli/cli_shared.h"

static void test_mask(void **state)
{
	struct tstate *ts = *state;
	static const struct {
		const char *in, *out;
	} c[] = {
		{ "nfs://srv/export", "nfs://srv/export" },
		{ "nfs://u:s3cret@srv/export", "nfs://u:***@srv/export" },
		{ "--nfs=nfs://a/x,nfs://u:p%40ss@b:2049/y?uid=1",
		  "--nfs=nfs://a/x,nfs://u:***@b:2049/y?uid=1" },
		{ "smb://u:one@a/s smb://v:two@b/t",
		  "smb://u:***@a/s smb://v:***@b/t" },
		{ "smb://user@host/share", "smb://user@host/share" },
		{ "nfs://srv/x?note=a:b@c", "nfs://srv/x?note=a:b@c" },
		{ "nfs://u:@srv/x", "nfs://u:@srv/x" },
		{ "plain text: no URL @ all", "plain text: no URL @ all" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *m = cli_mask_url(ts->ctx, c[i].in);

		assert_non_null(m);
		assert_string_equal(m, c[i].out);
		talloc_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mask, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
