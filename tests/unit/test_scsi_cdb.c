/*
 * test_scsi_cdb.c - unit tests of the device dialects below the
 * filesystem: the block and SCSI lines as the compiler stores them
 * (packed flag fields, SCSI statuses, the dialect of READ and WRITE,
 * mixed dialects refused), the CDBs scsi_cdb.c builds for SG_IO and
 * libiscsi byte by byte, sense data and capacities decoded, and the
 * range check of offsets against a device (device_range.c).
 */
#include "config.h"

#include <errno.h>

#include "loadfile_helpers.h"

#include "backends/device/device_range.h"
#include "backends/device/scsi_cdb.h"

/* ---- the compiler ---- */

static void test_compile_scsi(void **state)
{
	struct tstate *ts = *state;
	struct program *p = compile_ok(
		ts, "0.000 TESTUNITREADY 0x00\n"
		    "READ10 * 2 0x08 3 0x00\n"
		    "PROUT 1 3 0xdeadbeef 0 0x18\n"
		    "SYNCHRONIZECACHE10 0 0 1 1 *\n"
		    "READ10 +8 8 0 0 0x02\n");

	assert_int_equal(p->nops, 5);
	assert_int_equal(p->ops[0].kind, OP_TESTUNITREADY);
	assert_int_equal(p->ops[0].check, STATUS_SUCCESS);
	assert_int_equal(p->ops[1].kind, OP_READ10);
	assert_int_equal(program_arg(p, &p->ops[1], 0).kind, VAL_RANDOM);
	assert_int_equal(program_arg_v(p, &p->ops[1], 1), 2);
	assert_int_equal(program_arg_v(p, &p->ops[1], 2), 0x08 | 3 << 8);
	assert_int_equal(p->ops[2].kind, OP_PROUT);
	assert_int_equal(program_arg_v(p, &p->ops[2], 0), 1 | 3 << 8);
	assert_int_equal(program_arg_v(p, &p->ops[2], 1), 0xdeadbeef);
	assert_int_equal(p->ops[2].check, STATUS_EXACT);
	assert_int_equal(p->ops[2].status, 0x18);
	assert_int_equal(program_arg_v(p, &p->ops[3], 2), 1 | 2);
	assert_int_equal(p->ops[3].check, STATUS_ANY);
	assert_int_equal(program_arg(p, &p->ops[4], 0).kind, VAL_RELATIVE);
	talloc_free(p);
}

static void test_compile_block(void **state)
{
	struct tstate *ts = *state;
	struct program *p = compile_ok(
		ts, "READ */0x1000%0x40000000 4096 0x00000000\n"
		    "WRITE 0 512 *\n");

	assert_int_equal(p->ops[0].kind, OP_BREAD);
	assert_int_equal(p->ops[1].kind, OP_BWRITE);
	assert_int_equal(p->ops[0].check, STATUS_SUCCESS);
	talloc_free(p);
	/* the smb dialect's READ keeps its quoted path */
	p = compile_ok(ts, "OPEN \"\\client1\\f\" 0x02 SUCCESS\n"
			   "READ \"\\client1\\f\" 0 10 SUCCESS\n"
			   "CLOSE \"\\client1\\f\" SUCCESS\n");
	assert_int_equal(p->ops[1].kind, OP_READ5);
	talloc_free(p);
}

static void test_compile_errors(void **state)
{
	struct tstate *ts = *state;

	expect_error(ts, "READ10 0 1 0 0x00\n", 1,
		     "READ10: expected 'READ10 lba blocks flags group status'");
	expect_error(ts, "READ10 0 1 0x100 0 0x00\n", 1, "flags");
	expect_error(ts, "READ10 0 1 0 0 0x100\n", 1, "SCSI status");
	expect_error(ts, "READ10 0 1 0 0 \"x\"\n", 1,
		     "expected a SCSI status");
	expect_error(ts, "PROUT 0x20 0 0 0 0x00\n", 1, "action");
	expect_error(ts, "READ 0 4096\n", 1,
		     "READ: expected 'READ offset size status'");
	expect_error(ts, "READ 0 4096 *\nTESTUNITREADY 0x00\n", 2,
		     "the SCSI dialect) mixes with the block dialect (READ on "
		     "line 1)");
	expect_error(ts, "TESTUNITREADY 0x00\nQfsinfo 1 *\n", 2,
		     "mixes with the SCSI dialect");
	expect_error(ts, "testunitready 0x00\n", 1, "unknown operation");
}

/* ---- CDBs ---- */

static void build(unsigned kind, int64_t a0, int64_t a1, int64_t a2,
		  uint32_t bs, struct scsi_cmd *c)
{
	const int64_t arg[PROGRAM_MAX_ARGS] = { a0, a1, a2 };
	const char *why = NULL;

	if (scsi_cdb_build(kind, arg, bs, c, &why) != 0)
		fail_msg("build failed: %s", why);
}

static void test_cdb_rw(void **state)
{
	static const uint8_t r10[10] = { 0x28, 0x08, 0x01, 0x02, 0x03, 0x04,
					 0x05, 0x00, 0x10, 0 };
	static const uint8_t w16[16] = { 0x8A, 0x06, 0, 0, 0, 1, 0, 0, 0, 2,
					 0, 0, 0, 1, 0, 0 };
	static const uint8_t r6[6] = { 0x08, 0x1F, 0xFF, 0xFF, 0, 0 };
	struct scsi_cmd c;

	(void)state;
	build(OP_READ10, 0x01020304, 16, 0x08 | 5 << 8, 512, &c);
	assert_int_equal(c.cdb_len, 10);
	assert_memory_equal(c.cdb, r10, 10);
	assert_int_equal(c.dir, SCSI_DIR_READ);
	assert_int_equal(c.xfer, 16 * 512);
	assert_true(c.data_io && c.extent);
	build(OP_WRITE16, 0x100000002ll, 1, 0x06, 4096, &c);
	assert_memory_equal(c.cdb, w16, 16);
	assert_int_equal(c.dir, SCSI_DIR_WRITE);
	assert_int_equal(c.xfer, 4096);
	/* READ6: 21-bit lba, 0 blocks means 256 */
	build(OP_READ6, 0x1FFFFF, 0, 0, 512, &c);
	assert_memory_equal(c.cdb, r6, 6);
	assert_int_equal(c.blocks, 256);
	assert_int_equal(c.xfer, 256 * 512);
}

static void test_cdb_limits(void **state)
{
	const int64_t big_lba[PROGRAM_MAX_ARGS] = { 0x100000000ll, 1, 0 };
	const int64_t big_n[PROGRAM_MAX_ARGS] = { 0, 0x10000, 0 };
	const int64_t r6[PROGRAM_MAX_ARGS] = { 0x200000, 1, 0 };
	const int64_t huge[PROGRAM_MAX_ARGS] = { 0, 1 << 20, 0 };
	struct scsi_cmd c;
	const char *why = NULL;

	(void)state;
	assert_int_equal(scsi_cdb_build(OP_READ10, big_lba, 512, &c, &why), -1);
	assert_non_null(strstr(why, "32-bit lba"));
	assert_int_equal(scsi_cdb_build(OP_WRITE10, big_n, 1, &c, &why), -1);
	assert_int_equal(scsi_cdb_build(OP_READ6, r6, 512, &c, &why), -1);
	assert_int_equal(scsi_cdb_build(OP_READ16, huge, 512, &c, &why), -1);
	assert_non_null(strstr(why, "8 MiB"));
	/* READ16 takes what READ10 cannot */
	assert_int_equal(scsi_cdb_build(OP_READ16, big_lba, 512, &c, &why), 0);
}

static void test_cdb_other(void **state)
{
	static const uint8_t prout[10] = { 0x5F, 0x01, 0x03, 0, 0, 0, 0, 0,
					   24, 0 };
	static const uint8_t param[16] = { 0, 0, 0, 0, 0xDE, 0xAD, 0xBE, 0xEF,
					   0, 0, 0, 0, 0, 0, 0x0F, 0xEE };
	static const uint8_t sync[10] = { 0x35, 0x06, 0, 0, 0, 9, 0, 0, 2, 0 };
	static const uint8_t rc16[16] = { 0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0,
					  0, 0, 0, 32, 1, 0 };
	struct scsi_cmd c;

	(void)state;
	build(OP_PROUT, 1 | 3 << 8, 0xdeadbeef, 0xfee, 512, &c);
	assert_memory_equal(c.cdb, prout, 10);
	assert_memory_equal(c.param, param, 16);
	assert_int_equal(c.dir, SCSI_DIR_WRITE);
	assert_int_equal(c.xfer, SCSI_PROUT_PARAM_LEN);
	assert_false(c.data_io);
	build(OP_SYNCHRONIZECACHE10, 9, 2, 1 | 2, 512, &c);
	assert_memory_equal(c.cdb, sync, 10);
	assert_int_equal(c.dir, SCSI_DIR_NONE);
	build(OP_READCAPACITY16, 0, 1, 0, 512, &c);
	assert_memory_equal(c.cdb, rc16, 16);
	build(OP_TESTUNITREADY, 0, 0, 0, 512, &c);
	assert_int_equal(c.cdb_len, 6);
	assert_int_equal(c.cdb[0], 0);
	build(OP_INQUIRY, 1, 0x80, 0, 512, &c);
	assert_int_equal(c.cdb[0], 0x12);
	assert_int_equal(c.cdb[1], 1);
	assert_int_equal(c.cdb[2], 0x80);
	build(OP_PRIN, 1, 0, 0, 512, &c);
	assert_int_equal(c.cdb[0], 0x5E);
	assert_int_equal(c.cdb[1], 1);
	build(OP_REPORTLUNS, 2, 0, 0, 512, &c);
	assert_int_equal(c.cdb[0], 0xA0);
	assert_int_equal(c.cdb[2], 2);
}

static void test_decode(void **state)
{
	static const uint8_t rc10[8] = { 0, 0x0F, 0xFF, 0xFF, 0, 0, 2, 0 };
	static const uint8_t rc16[12] = { 0, 0, 0, 1, 0, 0, 0, 0,
					  0, 0, 0x10, 0 };
	static const uint8_t fixed[18] = { 0x70, 0, 0x05, 0, 0, 0, 0, 10,
					   0, 0, 0, 0, 0x24, 0x00 };
	static const uint8_t desc[8] = { 0x72, 0x06, 0x29, 0x00 };
	uint64_t blocks;
	uint32_t bs;
	uint8_t key;
	uint16_t ascq;

	(void)state;
	assert_true(scsi_capacity10(rc10, 8, &blocks, &bs));
	assert_int_equal(blocks, 0x100000);
	assert_int_equal(bs, 512);
	assert_false(scsi_capacity10(rc10, 7, &blocks, &bs));
	assert_true(scsi_capacity16(rc16, 12, &blocks, &bs));
	assert_int_equal(blocks, 0x100000001ll);
	assert_int_equal(bs, 4096);
	scsi_sense_parse(fixed, sizeof(fixed), &key, &ascq);
	assert_int_equal(key, 5);
	assert_int_equal(ascq, 0x2400);
	scsi_sense_parse(desc, sizeof(desc), &key, &ascq);
	assert_int_equal(key, 6);
	assert_int_equal(ascq, 0x2900);
	assert_string_equal(scsi_sense_key_name(5), "ILLEGAL REQUEST");
	assert_string_equal(scsi_status_name(0x18), "RESERVATION CONFLICT");
	assert_null(scsi_status_name(0x77));
	/* the faults: a LUN gone, a medium error; not the loadfile's own */
	assert_int_equal(scsi_sense_errno(0x5, 0x2500), EIO);
	assert_int_equal(scsi_sense_errno(0x3, 0x1100), EIO);
	assert_int_equal(scsi_sense_errno(0x7, 0x2700), EROFS);
	assert_int_equal(scsi_sense_errno(0x5, 0x2400), 0);
	assert_int_equal(scsi_sense_errno(0x6, 0x2900), 0);
}

/* ---- offsets against the device ---- */

static void test_range(void **state)
{
	struct tstate *ts = *state;
	struct device_range r = { .device = "dev", .size = 1ull << 30,
				  .unit = 1, .allow_writes = false,
				  .writes_flag = "--allow-block-writes" };
	struct program *p;
	char *err = NULL;

	/* 5.0's block1G4krr.load: '*' /4096 %1G reaches 1G - 4096 */
	p = compile_ok(ts, "READ */0x1000%0x40000000 4096 0x00000000\n");
	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), 0);
	r.size = 64 << 20;
	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), -1);
	assert_non_null(strstr(err, "t.txt:1: READ: a random offset "
				    "1073737728 + size 4096 is past the end"));
	/* a '*' without %: drawn within the device, so no refusal */
	p = compile_ok(ts, "READ */4096 4096 *\nREAD +4096 4096 *\n");
	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), 0);
	assert_true(device_range_unbounded(p, &p->ops[0], 0));
	assert_false(device_range_unbounded(p, &p->ops[1], 0));
	assert_int_equal(device_range_draw(p, &p->ops[0], 0, 3 * 4096 + 5, 8192)
				 % 4096, 0);
	assert_true(device_range_draw(p, &p->ops[0], 0, 3 * 4096 + 5, 8192) <
		    8192);
	p = compile_ok(ts, "READ 67104768 4097 *\n");
	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), -1);
	assert_non_null(strstr(err, "offset 67104768 + size 4097"));
	p = compile_ok(ts, "READ 0 4096 *\nWRITE 0 4096 *\n");
	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), -1);
	assert_non_null(strstr(err, "t.txt:2: WRITE writes to 'dev'; dbench "
				    "writes to a device only with "
				    "--allow-block-writes"));
	/* SCSI: lba and blocks in blocks of unit bytes */
	r.unit = 512;
	r.allow_writes = true;
	p = compile_ok(ts, "WRITE10 131071 1 0 0 0x00\nREAD10 131071 2 0 0 0x00\n");
	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), -1);
	assert_non_null(strstr(err, "t.txt:2: READ10: lba 131071 + blocks 2 "
				    "is past the end of 'dev' (131072 blocks)"));
	talloc_free(ts->ctx);
	ts->ctx = talloc_new(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_compile_scsi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compile_block, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compile_errors, setup, teardown),
		cmocka_unit_test(test_cdb_rw),
		cmocka_unit_test(test_cdb_limits),
		cmocka_unit_test(test_cdb_other),
		cmocka_unit_test(test_decode),
		cmocka_unit_test_setup_teardown(test_range, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
