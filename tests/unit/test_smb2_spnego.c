/*
 * test_smb2_spnego.c - the native SMB client's SPNEGO (smb2_spnego.c)
 * against known bytes: the security blobs of a capture (tshark) of
 * smbclient 4.17 logging on to Samba 4.17's AD DC with NTLMSSP (the
 * server's NEGOTIATE blob, the client's NegTokenInit, the server's
 * NegTokenResp with its CHALLENGE and its last one with a mechListMIC),
 * and tokens built by hand from RFC 4178's ASN.1 (DER, long lengths
 * included); bad DER is refused.  And the Kerberos mechanism's message
 * when there is no ticket (smb2_krb5.c).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <talloc.h>

#include "backends/smb/smb2_private.h"
#include "backends/smb/smb2_spnego.h"

/* Samba's NEGOTIATE blob: NegTokenInit2 with MS-KRB5, KRB5, NTLMSSP and
 * the negHints "not_defined_in_RFC4178@please_ignore". */
static const char server_neg[] =
	"605e06062b0601050502a0543052a024302206092a864882f71201020206"
	"092a864886f712010202060a2b06010401823702020aa32a3028a0261b24"
	"6e6f745f646566696e65645f696e5f5246433431373840706c656173655f"
	"69676e6f7265";

/* smbclient's first SESSION_SETUP: NegTokenInit, NTLMSSP alone, its
 * NEGOTIATE message inside. */
static const char client_init[] =
	"604806062b0601050502a03e303ca00e300c060a2b06010401823702020a"
	"a22a04284e544c4d53535000010000001582086200000000280000000000"
	"000028000000060100000000000f";

/* The server's answer: accept-incomplete, NTLMSSP, the CHALLENGE. */
static const char server_challenge[] =
	"a181c63081c3a0030a0101a10c060a2b06010401823702020aa281ad0481"
	"aa4e544c4d53535000020000000c000c003800000015828962e45898d702"
	"eacf6200000000000000006600660044000000060100000000000f440042"
	"0045004e004300480002000c004400420045004e00430048000100060044"
	"0043003100040016006400620065006e00630068002e0074006500730074"
	"0003001e006400630031002e006400620065006e00630068002e00740065"
	"007300740007000800727dea4b7f85dd0100000000";

/* The server's last answer: accept-completed and a mechListMIC. */
static const char server_done[] =
	"a11b3019a0030a0100a31204100100000073e3d3b7b70b819500000000";

/* hex into bytes under mem; *len their count. */
static uint8_t *unhex(void *mem, const char *hex, size_t *len)
{
	size_t n = strlen(hex) / 2;
	uint8_t *b = talloc_size(mem, n);

	assert_non_null(b);
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		b[i] = (uint8_t)v;
	}
	*len = n;
	return b;
}

static void test_server_mechs(void **state)
{
	void *mem = talloc_new(NULL);
	size_t n;
	uint8_t *b = unhex(mem, server_neg, &n);
	unsigned mechs = 0;

	(void)state;
	assert_int_equal(spnego_server_mechs(b, n, &mechs), 0);
	assert_int_equal(mechs, SPNEGO_MECH_KRB5 | SPNEGO_MECH_MS_KRB5 |
				SPNEGO_MECH_NTLMSSP);
	/* cut short anywhere, or not SPNEGO: refused */
	for (size_t cut = 0; cut < n; cut += 7)
		assert_int_equal(spnego_server_mechs(b, cut, &mechs), -1);
	b[3] = 0x07;	/* the OID: not SPNEGO's */
	assert_int_equal(spnego_server_mechs(b, n, &mechs), -1);
	talloc_free(mem);
}

/* Our NegTokenInit around smbclient's NTLMSSP NEGOTIATE is smbclient's. */
static void test_init_as_smbclient(void **state)
{
	void *mem = talloc_new(NULL);
	size_t n, len;
	uint8_t *want = unhex(mem, client_init, &n);
	/* the NTLMSSP message: the last 40 bytes */
	uint8_t *got = spnego_init(mem, SPNEGO_MECH_NTLMSSP, want + n - 40,
				   40, &len);

	(void)state;
	assert_non_null(got);
	assert_int_equal(len, n);
	assert_memory_equal(got, want, n);
	talloc_free(mem);
}

static void test_parse_challenge(void **state)
{
	void *mem = talloc_new(NULL);
	size_t n;
	uint8_t *b = unhex(mem, server_challenge, &n);
	struct spnego_resp r;

	(void)state;
	assert_int_equal(spnego_parse_resp(b, n, &r), 0);
	assert_int_equal(r.state, SPNEGO_ACCEPT_INCOMPLETE);
	assert_int_equal(r.mech, SPNEGO_MECH_NTLMSSP);
	assert_int_equal(r.token_len, 170);
	assert_ptr_equal(r.token, b + n - 170);
	assert_memory_equal(r.token, "NTLMSSP\0\2\0\0\0", 12);
	assert_null(r.mic);
	/* a length beyond the buffer */
	assert_int_equal(spnego_parse_resp(b, n - 1, &r), -1);
	talloc_free(mem);
}

static void test_parse_done(void **state)
{
	void *mem = talloc_new(NULL);
	size_t n;
	uint8_t *b = unhex(mem, server_done, &n);
	struct spnego_resp r;

	(void)state;
	assert_int_equal(spnego_parse_resp(b, n, &r), 0);
	assert_int_equal(r.state, SPNEGO_ACCEPT_COMPLETED);
	assert_int_equal(r.mech, 0);
	assert_null(r.token);
	assert_int_equal(r.mic_len, 16);
	assert_memory_equal(r.mic, "\1\0\0\0\x73\xe3\xd3\xb7", 8);
	/* a NegTokenInit is not a NegTokenResp */
	b[0] = 0xa0;
	assert_int_equal(spnego_parse_resp(b, n, &r), -1);
	talloc_free(mem);
}

/* NegTokenResp ::= [1] SEQUENCE { responseToken [2] OCTET STRING,
 * mechListMIC [3] OCTET STRING }, both optional. */
static void test_resp_by_hand(void **state)
{
	void *mem = talloc_new(NULL);
	static const uint8_t tok_only[] = { 0xa1, 0x08, 0x30, 0x06, 0xa2, 0x04,
					    0x04, 0x02, 0x01, 0x02 };
	static const uint8_t both[] = { 0xa1, 0x0e, 0x30, 0x0c, 0xa2, 0x04,
					0x04, 0x02, 0x01, 0x02, 0xa3, 0x04,
					0x04, 0x02, 0x03, 0x04 };
	static const uint8_t mic_only[] = { 0xa1, 0x08, 0x30, 0x06, 0xa3, 0x04,
					    0x04, 0x02, 0x03, 0x04 };
	size_t len;
	uint8_t *got;

	(void)state;
	got = spnego_resp(mem, (const uint8_t *)"\1\2", 2, NULL, 0, &len);
	assert_int_equal(len, sizeof(tok_only));
	assert_memory_equal(got, tok_only, len);
	got = spnego_resp(mem, (const uint8_t *)"\1\2", 2,
			  (const uint8_t *)"\3\4", 2, &len);
	assert_int_equal(len, sizeof(both));
	assert_memory_equal(got, both, len);
	got = spnego_resp(mem, NULL, 0, (const uint8_t *)"\3\4", 2, &len);
	assert_int_equal(len, sizeof(mic_only));
	assert_memory_equal(got, mic_only, len);
	talloc_free(mem);
}

/* Long lengths: 0x81 n for 128..255, 0x82 n n for 256..65535. */
static void test_long_lengths(void **state)
{
	void *mem = talloc_new(NULL);
	static const uint8_t tok[300];
	static const uint8_t hdr300[] = { 0xa1, 0x82, 0x01, 0x38, 0x30, 0x82,
					  0x01, 0x34, 0xa2, 0x82, 0x01, 0x30,
					  0x04, 0x82, 0x01, 0x2c };
	static const uint8_t hdr200[] = { 0xa1, 0x81, 0xd1, 0x30, 0x81, 0xce,
					  0xa2, 0x81, 0xcb, 0x04, 0x81, 0xc8 };
	struct spnego_resp r;
	size_t len;
	uint8_t *got;

	(void)state;
	got = spnego_resp(mem, tok, 300, NULL, 0, &len);
	assert_int_equal(len, sizeof(hdr300) + 300);
	assert_memory_equal(got, hdr300, sizeof(hdr300));
	assert_int_equal(spnego_parse_resp(got, len, &r), 0);
	assert_int_equal(r.token_len, 300);
	assert_int_equal(r.state, SPNEGO_STATE_ABSENT);
	got = spnego_resp(mem, tok, 200, NULL, 0, &len);
	assert_int_equal(len, sizeof(hdr200) + 200);
	assert_memory_equal(got, hdr200, sizeof(hdr200));
	talloc_free(mem);
}

/* mechTypes ::= SEQUENCE OF OID: what mechListMIC signs. */
static void test_mech_types(void **state)
{
	void *mem = talloc_new(NULL);
	static const uint8_t krb5[] = { 0x30, 0x0b, 0x06, 0x09, 0x2a, 0x86,
					0x48, 0x86, 0xf7, 0x12, 0x01, 0x02,
					0x02 };
	size_t len;
	uint8_t *got = spnego_mech_types(mem, SPNEGO_MECH_KRB5, &len);

	(void)state;
	assert_int_equal(len, sizeof(krb5));
	assert_memory_equal(got, krb5, len);
	assert_null(spnego_mech_types(mem, SPNEGO_MECH_OTHER, &len));
	talloc_free(mem);
}

#ifdef HAVE_GSSAPI
/* Kerberos without a ticket: the logon's first step fails with one line
 * naming the service, GSS-API's major status and the mechanism's minor
 * one (which names the credential cache); no server is asked. */
static void test_krb5_no_ticket(void **state)
{
	void *mem = talloc_new(NULL);
	struct smb2_conn *c = talloc_zero(mem, struct smb2_conn);
	struct smb2_params p = { .server = "fs1.example.test" };
	struct smb2_mech m;
	char conf[] = "/tmp/test_smb2_krb5-XXXXXX";
	int fd = mkstemp(conf);
	static const char text[] = "[libdefaults]\n\tdefault_realm = "
				   "EXAMPLE.TEST\n";
	uint8_t *out = NULL;
	size_t out_len = 0;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	assert_int_equal(setenv("KRB5_CONFIG", conf, 1), 0);
	assert_int_equal(setenv("KRB5CCNAME", "FILE:/nonexistent/dbench-cc", 1),
			 0);
	c->fd = -1;
	assert_int_equal(smb2_krb5_mech(c, &p, &m, mem), 0);
	assert_int_equal(m.oid, SPNEGO_MECH_KRB5);
	assert_int_equal(m.step(c, &m, NULL, 0, mem, &out, &out_len), -EACCES);
	assert_false(m.done);
	assert_non_null(c->err);
	assert_non_null(strstr(c->err, "Kerberos logon to cifs@fs1.example.test: "
				       "gss_init_sec_context: "));
	/* the major status's words, then the minor's naming the cache */
	assert_non_null(strstr(c->err, "credentials"));
	assert_non_null(strstr(c->err, ": "));
	assert_non_null(strstr(c->err, "/nonexistent/dbench-cc"));
	assert_null(strchr(c->err, '\n'));
	unlink(conf);
	talloc_free(mem);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#ifdef HAVE_GSSAPI
		cmocka_unit_test(test_krb5_no_ticket),
#endif
		cmocka_unit_test(test_server_mechs),
		cmocka_unit_test(test_init_as_smbclient),
		cmocka_unit_test(test_parse_challenge),
		cmocka_unit_test(test_parse_done),
		cmocka_unit_test(test_resp_by_hand),
		cmocka_unit_test(test_long_lengths),
		cmocka_unit_test(test_mech_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
