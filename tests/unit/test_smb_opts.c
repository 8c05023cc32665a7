/*
 * test_smb_opts.c - the smb backend's logon, without a server: the
 * password of $DBENCH_SMB_PASSWORD is taken once and leaves the
 * environment the workers inherit, and a refused logon when no user was
 * given says so and what to give (smb_connect_message).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <talloc.h>

#include "backends/smb/smb_conn.h"
#include "backends/smb/smb_private.h"

#include "talloc_fixture.h"

/* The options of `-B smb --smb-share=//h/s [--smb-user=USER]`. */
static struct smb_opts *opts_of(void *mem, const char *user)
{
	void *bopts = NULL;
	char *err = NULL;

	assert_int_equal(smb_option(mem, &bopts, SMB_OPT_SHARE, "//h/s",
				    &err), 0);
	if (user != NULL)
		assert_int_equal(smb_option(mem, &bopts, SMB_OPT_USER, user,
					    &err), 0);
	assert_int_equal(smb_options_done(mem, &bopts, &err), 0);
	return bopts;
}

static void test_env_password_taken_once(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	struct smb_opts *so;

	assert_int_equal(setenv("DBENCH_SMB_PASSWORD", "s3cret", 1), 0);
	so = opts_of(mem, "alice");
	assert_string_equal(so->password, "s3cret");
	assert_null(getenv("DBENCH_SMB_PASSWORD"));
	/* --smb-user's password wins, and the variable is gone all the same */
	assert_int_equal(setenv("DBENCH_SMB_PASSWORD", "other", 1), 0);
	so = opts_of(mem, "bob%given");
	assert_string_equal(so->password, "given");
	assert_null(getenv("DBENCH_SMB_PASSWORD"));
	talloc_free(mem);
}

static void test_guest_refused_message(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	struct smb_opts *so;
	char *m;

	unsetenv("DBENCH_SMB_PASSWORD");
	so = opts_of(mem, NULL);
	assert_true(so->guest);
	m = smb_connect_message(mem, so, EINVAL, true);
	assert_non_null(strstr(m, "smb: //h:445/s: the guest logon was "
			       "refused (Invalid argument): no user given; "
			       "give --smb-user=[DOMAIN/]USER[%PASSWORD] or "
			       "--smb-auth-file=FILE"));
	m = smb_connect_message(mem, so, EACCES, true);
	assert_non_null(strstr(m, "no user given"));
	/* no server asked (the context could not be made): not the logon */
	m = smb_connect_message(mem, so, EINVAL, false);
	assert_string_equal(m, "smb: //h:445/s: Invalid argument");
	/* a user was given: the message names that user, as before */
	so = opts_of(mem, "alice%pw");
	assert_false(so->guest);
	m = smb_connect_message(mem, so, EACCES, true);
	assert_non_null(strstr(m, "logon failure as user 'alice'"));
	assert_null(strstr(m, "pw"));
	talloc_free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_env_password_taken_once,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_guest_refused_message,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
