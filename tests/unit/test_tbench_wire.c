/*
 * test_tbench_wire.c - the tbench wire format: header encoding and
 * decoding (bounds included), the original's request and reply sizes per
 * op, the -T socket option parser and HOST[:PORT] splitting.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <talloc.h>

#include "loadfile/program.h"
#include "net/tbench_wire.h"

/* The original's header: total - 4, then wanted reply total - 4. */
static void test_request_roundtrip(void **state)
{
	uint8_t hdr[TBENCH_REQ_HDR];
	uint32_t body, want;

	(void)state;
	tbench_encode_request(hdr, 154, 87);
	assert_memory_equal(hdr, "\0\0\0\x96\0\0\0\x53", 8);
	assert_int_equal(tbench_decode_request(hdr, &body, &want), 0);
	assert_int_equal(body, 154 - 8);
	assert_int_equal(want, 87 - 4);
	/* the opening exchange: 8 bytes each way, no filler */
	tbench_encode_request(hdr, 8, 8);
	assert_int_equal(tbench_decode_request(hdr, &body, &want), 0);
	assert_int_equal(body, 0);
	assert_int_equal(want, 4);
}

/* Lengths over the maximum, or too short to hold WANT, are refused. */
static void test_request_bounds(void **state)
{
	uint8_t hdr[TBENCH_REQ_HDR];
	uint32_t body, want;
	const struct {
		uint32_t len, want;
		int rc;
	} cases[] = {
		{ 4, 0, 0 },
		{ 3, 0, -1 },
		{ 0, 0, -1 },
		{ TBENCH_MAX_LEN, TBENCH_MAX_LEN, 0 },
		{ TBENCH_MAX_LEN + 1, 0, -1 },
		{ 100, TBENCH_MAX_LEN + 1, -1 },
		{ 0xffffffffu, 0xffffffffu, -1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tbench_put_be32(hdr, cases[i].len);
		tbench_put_be32(hdr + 4, cases[i].want);
		assert_int_equal(tbench_decode_request(hdr, &body, &want),
				 cases[i].rc);
	}
}

static void test_reply_check(void **state)
{
	uint8_t hdr[TBENCH_REPLY_HDR];
	uint32_t got;

	(void)state;
	tbench_put_be32(hdr, 1555);
	assert_int_equal(tbench_check_reply(hdr, 1555, &got), 0);
	assert_int_equal(tbench_check_reply(hdr, 35, &got), -1);
	assert_int_equal(got, 1555);
	tbench_put_be32(hdr, 0xfffffff0u);
	assert_int_equal(tbench_check_reply(hdr, 35, &got), -1);
	assert_int_equal(got, 0xfffffff0u);
}

/* The sizes dbench 4.00's tbench sends (checked against its traffic:
 * NTCreateX of a 38-byte path under "." is 154 bytes, reply 87). */
static void test_op_sizes(void **state)
{
	const char *p38 = "clients/client1/~dmtmp/PWRPNT/ZD16.BMP";
	const struct {
		enum op_kind kind;
		int64_t arg[3];
		uint32_t send, recv;
		uint64_t bytes;
	} cases[] = {
		{ OP_NTCREATEX, { 0, 1, 0 }, 154, 87, 0 },
		{ OP_WRITEX, { 0, 1000, 1000 }, 1059, 55, 1000 },
		{ OP_READX, { 0, 2000, 1500 }, 59, 1559, 1500 },
		{ OP_CLOSE, { 0 }, 47, 39, 0 },
		{ OP_UNLINK, { 0 }, 123, 39, 0 },
		{ OP_QPATHINFO, { 0 }, 135, 71, 0 },
		{ OP_QFILEINFO, { 0 }, 59, 71, 0 },
		{ OP_FIND, { 0, 100, 3 }, 139, 309, 0 },
		{ OP_SFILEINFO, { 0 }, 71, 47, 0 },
		{ OP_LOCKX, { 0 }, 51, 39, 0 },
		{ OP_FLUSH, { 0 }, 41, 39, 0 },
		{ OP_READX, { 0, 10, -5 }, 59, 59, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct op_call call = { .path = { p38, NULL } };
		uint32_t s = 0, r = 0;
		uint64_t b = 99;

		memcpy(call.arg, cases[i].arg, sizeof(call.arg));
		assert_int_equal(tbench_op_sizes(cases[i].kind, &call, 1, &s,
						 &r, &b), 1);
		assert_int_equal(s, cases[i].send);
		assert_int_equal(r, cases[i].recv);
		assert_int_equal(b, cases[i].bytes);
	}
}

/* Deltree sends nothing; sizes never exceed the maximum. */
static void test_op_sizes_edges(void **state)
{
	struct op_call call = { .path = { "a", "bb" } };
	uint32_t s, r;
	uint64_t b;

	(void)state;
	assert_int_equal(tbench_op_sizes(OP_DELTREE, &call, 1, &s, &r, &b), 0);
	assert_int_equal(tbench_op_sizes(OP_DROPCACHE, &call, 1, &s, &r, &b),
			 0);
	assert_int_equal(tbench_op_sizes(OP_RENAME, &call, 1, &s, &r, &b), 1);
	assert_int_equal(s, 39 + 8 + 2 * 3 + 2 * 4);
	call.arg[1] = INT64_MAX;
	assert_int_equal(tbench_op_sizes(OP_WRITEX, &call, 1, &s, &r, &b), 1);
	assert_true(s - 4 <= TBENCH_MAX_LEN);
	call.arg[2] = INT64_MAX;
	assert_int_equal(tbench_op_sizes(OP_READX, &call, 1, &s, &r, &b), 1);
	assert_true(r - 4 <= TBENCH_MAX_LEN);
	assert_int_equal(tbench_op_sizes(OP_FIND, &call, 1, &s, &r, &b), 1);
	assert_true(r - 4 <= TBENCH_MAX_LEN);
}

static void test_sockopts(void **state)
{
	void *mem = talloc_new(NULL);
	struct tbench_sockopt o[TBENCH_MAX_SOCKOPTS];
	char *err = NULL;

	(void)state;
	assert_int_equal(tbench_parse_sockopts(mem, "TCP_NODELAY,SO_SNDBUF="
					       "65536 so_rcvbuf=131072\t"
					       "IPTOS_LOWDELAY", o, 16, &err),
			 4);
	assert_string_equal(o[0].name, "TCP_NODELAY");
	assert_int_equal(o[0].level, IPPROTO_TCP);
	assert_int_equal(o[0].optname, TCP_NODELAY);
	assert_int_equal(o[0].value, 1);
	assert_int_equal(o[1].optname, SO_SNDBUF);
	assert_int_equal(o[1].value, 65536);
	assert_int_equal(o[2].optname, SO_RCVBUF);
	assert_int_equal(o[2].value, 131072);
	assert_int_equal(o[3].optname, IP_TOS);
	assert_int_equal(o[3].value, IPTOS_LOWDELAY);
	assert_int_equal(tbench_parse_sockopts(mem, "TCP_NODELAY=0", o, 16,
					       &err), 1);
	assert_int_equal(o[0].value, 0);
	assert_int_equal(tbench_parse_sockopts(mem, "", o, 16, &err), 0);

	assert_int_equal(tbench_parse_sockopts(mem, "TCP_FASTER", o, 16, &err),
			 -1);
	assert_non_null(strstr(err, "unknown socket option 'TCP_FASTER'"));
	assert_int_equal(tbench_parse_sockopts(mem, "SO_SNDBUF", o, 16, &err),
			 -1);
	assert_non_null(strstr(err, "SO_SNDBUF needs a value"));
	assert_int_equal(tbench_parse_sockopts(mem, "SO_RCVBUF=12x", o, 16,
					       &err), -1);
	assert_non_null(strstr(err, "'12x' is not a whole number"));
	assert_int_equal(tbench_parse_sockopts(mem, "TCP_NODELAY,TCP_NODELAY",
					       o, 1, &err), -1);
	talloc_free(mem);
}

static void test_split_server(void **state)
{
	void *mem = talloc_new(NULL);
	char *host = NULL, *port = NULL, *err = NULL;
	const struct {
		const char *spec, *host, *port;
	} good[] = {
		{ "localhost", "localhost", "7003" },
		{ "127.0.0.1:7100", "127.0.0.1", "7100" },
		{ "[::1]:8000", "::1", "8000" },
		{ "::1", "::1", "7003" },
	};
	const char *bad[] = { "", ":7003", "h:0", "h:65536", "h:x", "[::1",
			      "[::1]x" };

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(tbench_split_server(mem, good[i].spec, &host,
						     &port, &err), 0);
		assert_string_equal(host, good[i].host);
		assert_string_equal(port, good[i].port);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = NULL;
		assert_int_equal(tbench_split_server(mem, bad[i], &host, &port,
						     &err), -1);
		assert_non_null(err);
	}
	talloc_free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_roundtrip),
		cmocka_unit_test(test_request_bounds),
		cmocka_unit_test(test_reply_check),
		cmocka_unit_test(test_op_sizes),
		cmocka_unit_test(test_op_sizes_edges),
		cmocka_unit_test(test_sockopts),
		cmocka_unit_test(test_split_server),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
