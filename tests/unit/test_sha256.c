/*
 * test_sha256.c - SHA-256 against digests computed by coreutils'
 * sha256sum (printf '%s' TEXT | sha256sum): the FIPS 180-4 examples, the
 * padding edges, a million 'a's fed in odd pieces.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "sha256.h"

static void digest_of(const char *data, size_t len, size_t piece,
		      char hex[65])
{
	struct sha256 s;

	sha256_init(&s);
	for (size_t off = 0; off < len; off += piece)
		sha256_update(&s, data + off,
			      len - off < piece ? len - off : piece);
	sha256_hex(&s, hex);
}

/* Each test runs twice: the CPU's fastest code, then the portable one
 * (the same where the CPU has no SHA extensions). */
static void both(void (*fn)(void))
{
	sha256_portable_only(false);
	fn();
	sha256_portable_only(true);
	fn();
	sha256_portable_only(false);
}

static void vectors(void)
{
	static const struct {
		const char *text, *hex;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	char hex[65];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		for (size_t piece = 1; piece <= 64; piece += 21) {
			digest_of(v[i].text, strlen(v[i].text), piece, hex);
			assert_string_equal(hex, v[i].hex);
		}
	}
}

/* 119 bytes: the length crosses a block and needs a second pad block;
 * a million 'a's in pieces of 997. */
static void long_inputs(void)
{
	static char buf[1000000];
	char hex[65];

	for (int i = 0; i < 119; i++)
		buf[i] = (char)('A' + i % 26);
	digest_of(buf, 119, 7, hex);
	assert_string_equal(hex, "774836b19af4f3015a8dff4e9cb353b11899645ade4626c677a21c84cdb00050");
	memset(buf, 'a', sizeof(buf));
	digest_of(buf, sizeof(buf), 997, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_vectors(void **state)
{
	(void)state;
	both(vectors);
}

static void test_long(void **state)
{
	(void)state;
	both(long_inputs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
