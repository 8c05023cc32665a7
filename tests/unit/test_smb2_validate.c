/*
 * test_smb2_validate.c - SMB 3.0/3.0.2's secure negotiate without a
 * server (smb2_validate.c): the IOCTL FSCTL_VALIDATE_NEGOTIATE_INFO's
 * body, byte by byte, repeats what the NEGOTIATE offered; the server's
 * answer passes when it repeats the NEGOTIATE's answer and fails, naming
 * the field, when any one field (dialect, GUID, security mode,
 * capabilities) differs or the answer is short.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "backends/smb/smb2_private.h"

static struct smb2_neg_info info(void)
{
	struct smb2_neg_info ni = {
		.client_caps = 0x44, .client_secmode = 1,
		.dialects = { 0x0202, 0x0210, 0x0300, 0x0302 },
		.ndialects = 4,
		.server_caps = 0x2f, .server_secmode = 3,
	};

	for (int i = 0; i < 16; i++) {
		ni.client_guid[i] = (uint8_t)(0xa0 + i);
		ni.server_guid[i] = (uint8_t)(0x10 + i);
	}
	return ni;
}

static void test_request_encoding(void **state)
{
	struct smb2_neg_info ni = info();
	uint8_t b[SMB2_VNEG_MAX];
	size_t len;

	(void)state;
	memset(b, 0x5a, sizeof(b));
	len = smb2_vneg_request(&ni, b);
	assert_int_equal(len, 56 + 24 + 2 * 4);
	assert_int_equal(smb2_get16(b), 57);		/* StructureSize */
	assert_int_equal(smb2_get16(b + 2), 0);
	assert_int_equal(smb2_get32(b + 4), 0x00140204);	/* CtlCode */
	for (int i = 8; i < 24; i++)			/* no file id */
		assert_int_equal(b[i], 0xff);
	assert_int_equal(smb2_get32(b + 24), 64 + 56);	/* InputOffset */
	assert_int_equal(smb2_get32(b + 28), 24 + 8);	/* InputCount */
	assert_int_equal(smb2_get32(b + 32), 0);	/* MaxInputResponse */
	assert_int_equal(smb2_get32(b + 36), 0);	/* OutputOffset */
	assert_int_equal(smb2_get32(b + 40), 0);	/* OutputCount */
	assert_int_equal(smb2_get32(b + 44), 24);	/* MaxOutputResponse */
	assert_int_equal(smb2_get32(b + 48), 1);	/* SMB2_0_IOCTL_IS_FSCTL */
	assert_int_equal(smb2_get32(b + 52), 0);
	/* VALIDATE_NEGOTIATE_INFO: what the NEGOTIATE offered */
	assert_int_equal(smb2_get32(b + 56), 0x44);
	assert_memory_equal(b + 60, ni.client_guid, 16);
	assert_int_equal(smb2_get16(b + 76), 1);
	assert_int_equal(smb2_get16(b + 78), 4);
	assert_int_equal(smb2_get16(b + 80), 0x0202);
	assert_int_equal(smb2_get16(b + 82), 0x0210);
	assert_int_equal(smb2_get16(b + 84), 0x0300);
	assert_int_equal(smb2_get16(b + 86), 0x0302);
}

/* The server's IOCTL response (after the header) repeating ni's answer
 * with dialect, into r (48 + 24 bytes). */
static size_t answer(const struct smb2_neg_info *ni, uint16_t dialect,
		     uint8_t *r)
{
	memset(r, 0, 72);
	smb2_put16(r, 49);
	smb2_put32(r + 4, 0x00140204);
	memset(r + 8, 0xff, 16);
	smb2_put32(r + 32, 64 + 48);		/* OutputOffset */
	smb2_put32(r + 36, 24);			/* OutputCount */
	smb2_put32(r + 48, ni->server_caps);
	memcpy(r + 52, ni->server_guid, 16);
	smb2_put16(r + 68, ni->server_secmode);
	smb2_put16(r + 70, dialect);
	return 72;
}

static void test_answer_matches(void **state)
{
	struct smb2_neg_info ni = info();
	uint8_t r[72];

	(void)state;
	assert_null(smb2_vneg_check(&ni, 0x0302, r, answer(&ni, 0x0302, r)));
	assert_null(smb2_vneg_check(&ni, 0x0300, r, answer(&ni, 0x0300, r)));
}

static void test_mismatches(void **state)
{
	struct smb2_neg_info ni = info();
	uint8_t r[72];
	size_t len;

	(void)state;
	/* a NEGOTIATE rewritten down to 3.0: the signed answer says 3.0.2 */
	len = answer(&ni, 0x0302, r);
	assert_string_equal(smb2_vneg_check(&ni, 0x0300, r, len),
			    "another dialect");
	len = answer(&ni, 0x0300, r);
	r[52 + 7] ^= 1;
	assert_string_equal(smb2_vneg_check(&ni, 0x0300, r, len),
			    "another server GUID");
	/* signing required, taken off on the way */
	len = answer(&ni, 0x0300, r);
	smb2_put16(r + 68, 1);
	assert_string_equal(smb2_vneg_check(&ni, 0x0300, r, len),
			    "another security mode");
	len = answer(&ni, 0x0300, r);
	smb2_put32(r + 48, 0x2e);
	assert_string_equal(smb2_vneg_check(&ni, 0x0300, r, len),
			    "other capabilities");
	len = answer(&ni, 0x0300, r);
	assert_string_equal(smb2_vneg_check(&ni, 0x0300, r, 60),
			    "an answer of the wrong size");
	smb2_put32(r + 36, 20);
	assert_string_equal(smb2_vneg_check(&ni, 0x0300, r, len),
			    "an answer of the wrong size");
	assert_string_equal(smb2_vneg_check(&ni, 0x0300, r, 40),
			    "a short or foreign IOCTL response");
	len = answer(&ni, 0x0300, r);
	smb2_put32(r + 4, 0x00060194);
	assert_string_equal(smb2_vneg_check(&ni, 0x0300, r, len),
			    "a short or foreign IOCTL response");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_encoding),
		cmocka_unit_test(test_answer_matches),
		cmocka_unit_test(test_mismatches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
