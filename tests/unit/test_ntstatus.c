/*
 * test_ntstatus.c - unit tests of ntstatus.c: names <-> codes, decoding
 * loadfile status fields, the errno mapping and the matching rules with
 * their families.
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

#include "loadfile/ntstatus.h"

#include "talloc_fixture.h"

/* clang-format off */
#define NT(n) { #n, n }
/* clang-format on */

/* every status ntstatus.h names */
static const struct {
	const char *name;
	uint32_t code;
} header_statuses[] = {
	NT(NT_STATUS_OK),
	NT(NT_STATUS_UNSUCCESSFUL),
	NT(NT_STATUS_NOT_IMPLEMENTED),
	NT(NT_STATUS_INVALID_HANDLE),
	NT(NT_STATUS_INVALID_PARAMETER),
	NT(NT_STATUS_NO_SUCH_FILE),
	NT(NT_STATUS_END_OF_FILE),
	NT(NT_STATUS_NO_MEMORY),
	NT(NT_STATUS_ACCESS_DENIED),
	NT(NT_STATUS_OBJECT_NAME_INVALID),
	NT(NT_STATUS_OBJECT_NAME_NOT_FOUND),
	NT(NT_STATUS_OBJECT_NAME_COLLISION),
	NT(NT_STATUS_OBJECT_PATH_NOT_FOUND),
	NT(NT_STATUS_SHARING_VIOLATION),
	NT(NT_STATUS_LOCK_NOT_GRANTED),
	NT(NT_STATUS_DISK_FULL),
	NT(NT_STATUS_MEDIA_WRITE_PROTECTED),
	NT(NT_STATUS_FILE_IS_A_DIRECTORY),
	NT(NT_STATUS_NOT_SUPPORTED),
	NT(NT_STATUS_DIRECTORY_NOT_EMPTY),
	NT(NT_STATUS_NOT_A_DIRECTORY),
	NT(NT_STATUS_TOO_MANY_OPENED_FILES),
	NT(NT_STATUS_CANNOT_DELETE),
	NT(NT_STATUS_FILE_CLOSED),
	NT(NT_STATUS_RANGE_NOT_LOCKED),
	NT(NT_STATUS_NO_MORE_FILES),
};

#define N_HEADER (sizeof(header_statuses) / sizeof(header_statuses[0]))

static void test_names(void **state)
{
	char buf[11];
	size_t i;

	(void)state;
	for (i = 0; i < N_HEADER; i++) {
		const char *name = ntstatus_name(header_statuses[i].code);

		if (name == NULL || strcmp(name, header_statuses[i].name) != 0)
			fail_msg("0x%08X: name %s, expected %s",
				 header_statuses[i].code, name ? name : "NULL",
				 header_statuses[i].name);
		assert_string_equal(ntstatus_str(header_statuses[i].code, buf),
				    header_statuses[i].name);
	}
	/* a few beyond the header, as found in captures */
	assert_string_equal(ntstatus_name(0xC0000044u),
			    "NT_STATUS_QUOTA_EXCEEDED");
	assert_string_equal(ntstatus_name(0x80000005u),
			    "NT_STATUS_BUFFER_OVERFLOW");
	assert_null(ntstatus_name(0x12345678u));
	assert_string_equal(ntstatus_str(0x12345678u, buf), "0x12345678");
	assert_string_equal(ntstatus_str(0xC0FFEE00u, buf), "0xC0FFEE00");
}

struct parse_case {
	const char *tok;
	int rc;
	enum status_check check;
	uint32_t code;
};

static const struct parse_case parse_cases[] = {
	{ "*", 0, STATUS_ANY, 0 },
	{ "SUCCESS", 0, STATUS_SUCCESS, 0 },
	{ "success", 0, STATUS_SUCCESS, 0 },
	{ "ERROR", 0, STATUS_FAILURE, 0 },
	{ "NT_STATUS_OK", 0, STATUS_SUCCESS, 0 },
	{ "nt_status_ok", 0, STATUS_SUCCESS, 0 },
	{ "0x00000000", 0, STATUS_SUCCESS, 0 },
	{ "0x0", 0, STATUS_SUCCESS, 0 },
	{ "0xC0000034", 0, STATUS_EXACT, NT_STATUS_OBJECT_NAME_NOT_FOUND },
	{ "0xc0000034", 0, STATUS_EXACT, NT_STATUS_OBJECT_NAME_NOT_FOUND },
	{ "0X80000006", 0, STATUS_EXACT, NT_STATUS_NO_MORE_FILES },
	{ "0x000000000C0000034", 0, STATUS_EXACT, 0xC0000034u },
	{ "0x12345678", 0, STATUS_EXACT, 0x12345678u },
	{ "0xFFFFFFFF", 0, STATUS_EXACT, 0xFFFFFFFFu },
	{ "NT_STATUS_NO_SUCH_FILE", 0, STATUS_EXACT, NT_STATUS_NO_SUCH_FILE },
	{ "NT_STATUS_QUOTA_EXCEEDED", 0, STATUS_EXACT, 0xC0000044u },
	{ "0x100000000", -1, 0, 0 },
	{ "0x", -1, 0, 0 },
	{ "0", -1, 0, 0 },
	{ "0xC000003G", -1, 0, 0 },
	{ "NT_STATUS_", -1, 0, 0 },
	{ "NT_STATUS_BOGUS", -1, 0, 0 },
	{ "NT_STATUS_OKAY", -1, 0, 0 },
	{ "OK", -1, 0, 0 },
	{ "**", -1, 0, 0 },
	{ "", -1, 0, 0 },
	{ "SUCCESSFUL", -1, 0, 0 },
};

static void test_parse(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		const struct parse_case *c = &parse_cases[i];
		enum status_check check = STATUS_EXACT;
		uint32_t code = 0xdeadbeef;
		int rc = ntstatus_parse(c->tok, strlen(c->tok), &check, &code);

		if (rc != c->rc)
			fail_msg("'%s': rc %d, expected %d", c->tok, rc, c->rc);
		if (rc == 0 && (check != c->check || code != c->code))
			fail_msg("'%s': check %d code 0x%08X, expected %d "
				 "0x%08X",
				 c->tok, check, code, c->check, c->code);
	}

	/* every name parses back to its code; the length is honoured */
	for (i = 0; i < N_HEADER; i++) {
		enum status_check check;
		uint32_t code;
		char *padded = malloc(strlen(header_statuses[i].name) + 3);

		assert_non_null(padded);
		strcpy(padded, header_statuses[i].name);
		strcat(padded, " *");
		assert_int_equal(ntstatus_parse(padded,
						strlen(header_statuses[i].name),
						&check, &code),
				 0);
		assert_int_equal(code, header_statuses[i].code);
		assert_int_equal(check,
				 code == 0 ? STATUS_SUCCESS : STATUS_EXACT);
		free(padded);
	}
	assert_int_equal(ntstatus_parse(NULL, 0, NULL, NULL), -1);
}

static const struct {
	int err;
	uint32_t status;
} errno_cases[] = {
	{ 0, NT_STATUS_OK },
	{ ENOENT, NT_STATUS_OBJECT_NAME_NOT_FOUND },
	{ -ENOENT, NT_STATUS_OBJECT_NAME_NOT_FOUND },
	{ EEXIST, NT_STATUS_OBJECT_NAME_COLLISION },
	{ ENOTEMPTY, NT_STATUS_DIRECTORY_NOT_EMPTY },
	{ EISDIR, NT_STATUS_FILE_IS_A_DIRECTORY },
	{ ENOTDIR, NT_STATUS_NOT_A_DIRECTORY },
	{ EACCES, NT_STATUS_ACCESS_DENIED },
	{ EPERM, NT_STATUS_ACCESS_DENIED },
	{ ENOSPC, NT_STATUS_DISK_FULL },
	{ EDQUOT, NT_STATUS_DISK_FULL },
	{ EFBIG, NT_STATUS_DISK_FULL },
	{ EROFS, NT_STATUS_MEDIA_WRITE_PROTECTED },
	{ EMFILE, NT_STATUS_TOO_MANY_OPENED_FILES },
	{ ENFILE, NT_STATUS_TOO_MANY_OPENED_FILES },
	{ EBADF, NT_STATUS_INVALID_HANDLE },
	{ ENOSYS, NT_STATUS_NOT_SUPPORTED },
	{ EOPNOTSUPP, NT_STATUS_NOT_SUPPORTED },
	{ ENOTSUP, NT_STATUS_NOT_SUPPORTED },
	{ ENAMETOOLONG, NT_STATUS_OBJECT_NAME_INVALID },
	{ EINVAL, NT_STATUS_INVALID_PARAMETER },
	{ ENOMEM, NT_STATUS_NO_MEMORY },
	{ EBUSY, NT_STATUS_SHARING_VIOLATION },
	{ ELOOP, 0x8000002Du },
	{ EXDEV, 0xC00000D4u },
	{ EIO, NT_STATUS_UNSUCCESSFUL },
	{ EAGAIN, NT_STATUS_UNSUCCESSFUL },
	{ 99999, NT_STATUS_UNSUCCESSFUL },
};

static void test_from_errno(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(errno_cases) / sizeof(errno_cases[0]); i++) {
		uint32_t st = ntstatus_from_errno(errno_cases[i].err);

		if (st != errno_cases[i].status)
			fail_msg("errno %d: 0x%08X, expected 0x%08X",
				 errno_cases[i].err, st, errno_cases[i].status);
	}
}

struct match_case {
	enum status_check check;
	uint32_t expected, actual;
	bool match;
};

#define OK     NT_STATUS_OK
#define NAME   NT_STATUS_OBJECT_NAME_NOT_FOUND
#define PATH   NT_STATUS_OBJECT_PATH_NOT_FOUND
#define NOFILE NT_STATUS_NO_SUCH_FILE
#define NOMORE NT_STATUS_NO_MORE_FILES
#define NOTDIR NT_STATUS_NOT_A_DIRECTORY

static const struct match_case match_cases[] = {
	/* '*' accepts anything */
	{ STATUS_ANY, 0, OK, true },
	{ STATUS_ANY, 0, NAME, true },
	{ STATUS_ANY, NAME, OK, true },
	/* SUCCESS needs 0 */
	{ STATUS_SUCCESS, 0, OK, true },
	{ STATUS_SUCCESS, 0, NAME, false },
	{ STATUS_SUCCESS, 0, NOMORE, false },
	/* ERROR needs any failure */
	{ STATUS_FAILURE, 0, OK, false },
	{ STATUS_FAILURE, 0, NAME, true },
	{ STATUS_FAILURE, 0, NT_STATUS_UNSUCCESSFUL, true },
	{ STATUS_FAILURE, 0, 0x12345678u, true },
	/* an exact 0 means success */
	{ STATUS_EXACT, OK, OK, true },
	{ STATUS_EXACT, OK, NAME, false },
	/* an exact failure never accepts success */
	{ STATUS_EXACT, NAME, OK, false },
	{ STATUS_EXACT, NT_STATUS_UNSUCCESSFUL, OK, false },
	/* identical */
	{ STATUS_EXACT, NAME, NAME, true },
	{ STATUS_EXACT, 0x12345678u, 0x12345678u, true },
	{ STATUS_EXACT, NT_STATUS_UNSUCCESSFUL, NT_STATUS_UNSUCCESSFUL, true },
	/* the "not found" family, both ways */
	{ STATUS_EXACT, NAME, PATH, true },
	{ STATUS_EXACT, PATH, NAME, true },
	{ STATUS_EXACT, NOFILE, NAME, true },
	{ STATUS_EXACT, NAME, NOFILE, true },
	{ STATUS_EXACT, NOMORE, NAME, true },
	{ STATUS_EXACT, NOFILE, NOMORE, true },
	{ STATUS_EXACT, PATH, NOTDIR, true },
	{ STATUS_EXACT, NOTDIR, NAME, true },
	/* other families */
	{ STATUS_EXACT, NT_STATUS_CANNOT_DELETE, NT_STATUS_ACCESS_DENIED,
	  true },
	{ STATUS_EXACT, NT_STATUS_FILE_CLOSED, NT_STATUS_INVALID_HANDLE, true },
	{ STATUS_EXACT, NT_STATUS_NOT_IMPLEMENTED, NT_STATUS_NOT_SUPPORTED,
	  true },
	{ STATUS_EXACT, 0xC0000044u, NT_STATUS_DISK_FULL, true },
	{ STATUS_EXACT, 0xC0000054u, NT_STATUS_LOCK_NOT_GRANTED, true },
	{ STATUS_EXACT, 0xC0000039u, NT_STATUS_OBJECT_NAME_INVALID, true },
	/* different families, or none */
	{ STATUS_EXACT, NAME, NT_STATUS_ACCESS_DENIED, false },
	{ STATUS_EXACT, NAME, NT_STATUS_OBJECT_NAME_COLLISION, false },
	{ STATUS_EXACT, NT_STATUS_OBJECT_NAME_COLLISION, NAME, false },
	{ STATUS_EXACT, NT_STATUS_DIRECTORY_NOT_EMPTY, NT_STATUS_ACCESS_DENIED,
	  false },
	{ STATUS_EXACT, NT_STATUS_UNSUCCESSFUL, NT_STATUS_ACCESS_DENIED,
	  false },
	{ STATUS_EXACT, NT_STATUS_ACCESS_DENIED, NT_STATUS_UNSUCCESSFUL,
	  false },
	{ STATUS_EXACT, NT_STATUS_SHARING_VIOLATION, NT_STATUS_ACCESS_DENIED,
	  false },
	{ STATUS_EXACT, 0x12345678u, 0x12345679u, false },
	{ STATUS_EXACT, NAME, 0x12345678u, false },
	{ (enum status_check)42, 0, OK, false },
};

static void test_matches(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(match_cases) / sizeof(match_cases[0]); i++) {
		const struct match_case *c = &match_cases[i];

		if (ntstatus_matches(c->check, c->expected, c->actual) !=
		    c->match)
			fail_msg("case %zu: check %d expected 0x%08X actual "
				 "0x%08X: should %smatch",
				 i, c->check, c->expected, c->actual,
				 c->match ? "" : "not ");
	}
}

/* what errno maps to satisfies the loadfile's expectation */
static void test_errno_roundtrip(void **state)
{
	(void)state;
	assert_true(ntstatus_matches(STATUS_EXACT, PATH,
				     ntstatus_from_errno(ENOENT)));
	assert_true(ntstatus_matches(STATUS_EXACT, NOFILE,
				     ntstatus_from_errno(ENOENT)));
	assert_true(ntstatus_matches(STATUS_EXACT, PATH,
				     ntstatus_from_errno(ENOTDIR)));
	assert_true(ntstatus_matches(STATUS_EXACT,
				     NT_STATUS_OBJECT_NAME_COLLISION,
				     ntstatus_from_errno(EEXIST)));
	assert_false(ntstatus_matches(STATUS_EXACT,
				      NT_STATUS_OBJECT_NAME_COLLISION,
				      ntstatus_from_errno(ENOENT)));
	assert_true(
		ntstatus_matches(STATUS_SUCCESS, 0, ntstatus_from_errno(0)));
}

/* the one fault classification: what stops a run under the default
 * policy, and the statuses of a lost connection */
static void test_fault_classes(void **state)
{
	static const struct {
		int err;
		enum ntstatus_fault fault;
		const char *status;	/* NULL: not checked by name */
	} cases[] = {
		{ ENOSPC, FAULT_DISK_FULL, "NT_STATUS_DISK_FULL" },
		{ EDQUOT, FAULT_DISK_FULL, "NT_STATUS_DISK_FULL" },
		{ EFBIG, FAULT_NONE, "NT_STATUS_DISK_FULL" },
		{ EROFS, FAULT_READ_ONLY, "NT_STATUS_MEDIA_WRITE_PROTECTED" },
		{ EMFILE, FAULT_NO_HANDLES, "NT_STATUS_TOO_MANY_OPENED_FILES" },
		{ ENFILE, FAULT_NO_HANDLES, "NT_STATUS_TOO_MANY_OPENED_FILES" },
		{ ENOMEM, FAULT_NO_MEMORY, "NT_STATUS_NO_MEMORY" },
		{ -EIO, FAULT_IO, "NT_STATUS_UNSUCCESSFUL" },
		{ ECONNRESET, FAULT_TRANSPORT, "NT_STATUS_CONNECTION_RESET" },
		{ ECONNABORTED, FAULT_TRANSPORT,
		  "NT_STATUS_CONNECTION_ABORTED" },
		{ ETIMEDOUT, FAULT_TRANSPORT, "NT_STATUS_IO_TIMEOUT" },
		{ EPIPE, FAULT_TRANSPORT, "NT_STATUS_PIPE_BROKEN" },
		{ ESTALE, FAULT_TRANSPORT, "NT_STATUS_FILE_INVALID" },
		{ ENOTCONN, FAULT_TRANSPORT,
		  "NT_STATUS_CONNECTION_DISCONNECTED" },
		{ EHOSTUNREACH, FAULT_TRANSPORT, "NT_STATUS_HOST_UNREACHABLE" },
		{ ENOENT, FAULT_NONE, "NT_STATUS_OBJECT_NAME_NOT_FOUND" },
		{ EACCES, FAULT_NONE, "NT_STATUS_ACCESS_DENIED" },
		{ EAGAIN, FAULT_NONE, "NT_STATUS_UNSUCCESSFUL" },
		{ 0, FAULT_NONE, "NT_STATUS_OK" },
		{ 99999, FAULT_NONE, "NT_STATUS_UNSUCCESSFUL" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("errno %d\n", cases[i].err);
		assert_int_equal(ntstatus_fault_class(cases[i].err),
				 cases[i].fault);
		assert_string_equal(ntstatus_name(ntstatus_from_errno(
					    cases[i].err)), cases[i].status);
	}
	assert_string_equal(ntstatus_fault_name(FAULT_TRANSPORT),
			    "transport lost");
	assert_string_equal(ntstatus_fault_name(FAULT_NONE), "none");
	/* a failure without a reason never reads as success */
	assert_int_equal(ntstatus_failure(0), NT_STATUS_UNSUCCESSFUL);
	assert_int_equal(ntstatus_failure(ENOSPC), NT_STATUS_DISK_FULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_from_errno, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_matches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errno_roundtrip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fault_classes, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
