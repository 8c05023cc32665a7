/*
 * test_loadfile.c - unit tests of the loadfile compiler (src/loadfile/)
 * and the op table (ops.c): every command and value form, the value
 * table, handle mapping, LOOP pairing and the control commands.  The
 * other test_loadfile_*.c programs test errors and input forms, paths
 * and dialects, and files (gzip, the read window, Debian's client.txt).
 */
#include "config.h"

#include "loadfile_helpers.h"

/* ---- op table ---- */

/*
 * dbench 5.0's smb dialect: its own names are found in capitals only;
 * those spelt like client.txt's commands find client.txt's kind, whose
 * twin (picked by the compiler) is the dialect's.
 */
static void check_smb5_name(int k)
{
	const char *n = op_info[k].name;
	int found = op_kind_from_name(n, strlen(n));
	char *lower = strdup(n);

	assert_non_null(lower);
	for (size_t i = 0; lower[i] != '\0'; i++)
		lower[i] = (char)(lower[i] >= 'A' && lower[i] <= 'Z' ?
					  lower[i] + 32 : lower[i]);
	if (found == k) {
		assert_int_equal(op_kind_from_name(lower, strlen(lower)), -1);
		assert_int_equal(op_kind_smb5_twin((unsigned)k), -1);
	} else {
		assert_true(found >= 0 && !op_kind_is_smb5((unsigned)found));
		assert_int_equal(op_kind_smb5_twin((unsigned)found), k);
	}
	free(lower);
}

static void test_op_names(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < OP_NUM_KINDS; k++) {
		const char *n = op_info[k].name, *s = op_info[k].short_name;
		char *lower;
		size_t i;

		if (op_kind_is_smb5((unsigned)k)) {
			check_smb5_name(k);
			continue;
		}
		if (op_kind_is_block((unsigned)k)) {
			/* spelt like the smb dialect's READ and WRITE */
			int twin = op_kind_from_name(n, strlen(n));

			assert_true(op_kind_is_smb5((unsigned)twin));
			assert_int_equal(op_kind_block_twin((unsigned)twin), k);
			continue;
		}
		if (op_kind_is_scsi((unsigned)k)) {
			/* in capitals only, as dbench 5.0 spells them */
			assert_int_equal(op_kind_from_name(n, strlen(n)), k);
			assert_string_equal(n, s);
			continue;
		}
		lower = strdup(n);

		assert_non_null(n);
		assert_non_null(s);
		assert_non_null(lower);
		assert_int_equal(op_kind_from_name(n, strlen(n)), k);
		assert_int_equal(op_kind_from_name(s, strlen(s)), k);
		for (i = 0; lower[i] != '\0'; i++)
			lower[i] = (char)(lower[i] >= 'A' && lower[i] <= 'Z' ?
						  lower[i] + 32 :
						  lower[i]);
		assert_int_equal(op_kind_from_name(lower, strlen(lower)), k);
		free(lower);
	}
	assert_int_equal(op_kind_from_name("Read", 4), -1);
	assert_int_equal(op_kind_from_name("ReadXX", 6), -1);
	assert_int_equal(op_kind_from_name("ReadX", 4), -1);
	assert_int_equal(op_kind_from_name("", 0), -1);
	/* the length is honoured: "ReadX" followed by more text */
	assert_int_equal(op_kind_from_name("ReadX 1 2", 5), OP_READX);
}

static void test_op_table(void **state)
{
	static const char *const shorts[OP_NUM_MEASURED] = {
		"NTCreateX", "Close", "Rename",	   "Unlink",	"Deltree",
		"Rmdir",     "Mkdir", "Qpathinfo", "Qfileinfo", "Qfsinfo",
		"Sfileinfo", "Find",  "WriteX",	   "ReadX",	"LockX",
		"UnlockX",   "Flush", "DropCache",
		/* the NFSv3 dialect */
		"GETATTR3", "SETATTR3", "LOOKUP3", "ACCESS3", "READLINK3",
		"READ3", "WRITE3", "CREATE3", "MKDIR3", "SYMLINK3", "REMOVE3",
		"RMDIR3", "RENAME3", "LINK3", "READDIRPLUS3", "FSSTAT3",
		"FSINFO3", "PATHCONF3", "COMMIT3", "LOCK4", "UNLOCK4", "TEST4",
		/* dbench 5.0's smb dialect */
		"OPEN", "READ", "WRITE", "CLOSE", "MKDIR", "RMDIR", "UNLINK",
		"READDIR", "DELTREE",
		/* dbench 5.0's block dialect */
		"READ", "WRITE",
		/* the SCSI dialect */
		"TESTUNITREADY", "READ6", "READ10", "READ16", "WRITE10",
		"WRITE16", "READCAPACITY10", "READCAPACITY16",
		"SYNCHRONIZECACHE10", "INQUIRY", "REPORTLUNS", "PROUT", "PRIN",
	};
	int k;

	(void)state;
	for (k = 0; k < OP_NUM_MEASURED; k++)
		assert_string_equal(op_info[k].short_name, shorts[k]);
	assert_string_equal(op_info[OP_QPATHINFO].name,
			    "QUERY_PATH_INFORMATION");
	assert_string_equal(op_info[OP_QFILEINFO].name,
			    "QUERY_FILE_INFORMATION");
	assert_string_equal(op_info[OP_QFSINFO].name, "QUERY_FS_INFORMATION");
	assert_string_equal(op_info[OP_SFILEINFO].name, "SET_FILE_INFORMATION");
	assert_string_equal(op_info[OP_FIND].name, "FIND_FIRST");
	for (k = 0; k < OP_NUM_KINDS; k++)
		assert_true(op_info[k].nargs <= PROGRAM_MAX_ARGS);
}

/* ---- every command ---- */

struct cmd_case {
	const char *text;
	unsigned index; /* the op checked */
	enum op_kind kind;
	const char *path0, *path1;
	int32_t handle;
	unsigned nargs;
	int64_t arg[PROGRAM_MAX_ARGS];
	enum status_check check;
	uint32_t status;
};

/* clang-format off */
static const struct cmd_case cmd_cases[] = {
	{ "NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 9938 NT_STATUS_OK",
	  0, OP_NTCREATEX, "clients/client1/f", NULL, 0, 2, { 0x40, 2 },
	  STATUS_SUCCESS, 0 },
	{ "NTCreateX \"\\d\" 0x1 5 0 NT_STATUS_OBJECT_NAME_COLLISION",
	  0, OP_NTCREATEX, "d", NULL, 0, 2, { 1, 5 },
	  STATUS_EXACT, NT_STATUS_OBJECT_NAME_COLLISION },
	{ H "Close 77 NT_STATUS_OK", 1, OP_CLOSE, NULL, NULL, 0, 0, { 0 },
	  STATUS_SUCCESS, 0 },
	{ "Rename \"\\clients\\client1\\a\\b\" \"/clients/client1/c/d\" "
	  "NT_STATUS_OK", 0, OP_RENAME, "clients/client1/a/b",
	  "clients/client1/c/d", -1, 0, { 0 }, STATUS_SUCCESS, 0 },
	{ "Unlink \"\\clients\\client1\\a\" 0x6 NT_STATUS_OK", 0, OP_UNLINK,
	  "clients/client1/a", NULL, -1, 1, { 6 }, STATUS_SUCCESS, 0 },
	{ "Unlink \"\\clients\\client1\\a\" NT_STATUS_NO_SUCH_FILE", 0,
	  OP_UNLINK, "clients/client1/a", NULL, -1, 1, { 0 }, STATUS_EXACT,
	  NT_STATUS_NO_SUCH_FILE },
	{ "Deltree \"\\clients\\client1\" NT_STATUS_OK", 0, OP_DELTREE,
	  "clients/client1", NULL, -1, 0, { 0 }, STATUS_SUCCESS, 0 },
	{ "Rmdir \"\\clients\\client1\\a\" ERROR", 0, OP_RMDIR,
	  "clients/client1/a", NULL, -1, 0, { 0 }, STATUS_FAILURE, 0 },
	{ "Mkdir \"\\clients\" *", 0, OP_MKDIR, "clients", NULL, -1, 0,
	  { 0 }, STATUS_ANY, 0 },
	{ "QUERY_PATH_INFORMATION \"\\a\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND",
	  0, OP_QPATHINFO, "a", NULL, -1, 1, { 1004 }, STATUS_EXACT,
	  NT_STATUS_OBJECT_NAME_NOT_FOUND },
	{ "Qpathinfo \"\\a\" 1004 0xC000003A", 0, OP_QPATHINFO, "a", NULL,
	  -1, 1, { 1004 }, STATUS_EXACT, NT_STATUS_OBJECT_PATH_NOT_FOUND },
	{ H "QUERY_FILE_INFORMATION 77 258 NT_STATUS_OK", 1, OP_QFILEINFO,
	  NULL, NULL, 0, 1, { 258 }, STATUS_SUCCESS, 0 },
	{ H "Qfileinfo 77 1005 SUCCESS", 1, OP_QFILEINFO, NULL, NULL, 0, 1,
	  { 1005 }, STATUS_SUCCESS, 0 },
	{ "QUERY_FS_INFORMATION 1 NT_STATUS_OK", 0, OP_QFSINFO, NULL, NULL,
	  -1, 1, { 1 }, STATUS_SUCCESS, 0 },
	{ "Qfsinfo 0x105 0x00000000", 0, OP_QFSINFO, NULL, NULL, -1, 1,
	  { 0x105 }, STATUS_SUCCESS, 0 },
	{ H "SET_FILE_INFORMATION 77 1004 NT_STATUS_OK", 1, OP_SFILEINFO,
	  NULL, NULL, 0, 1, { 1004 }, STATUS_SUCCESS, 0 },
	{ H "Sfileinfo 77 1 *", 1, OP_SFILEINFO, NULL, NULL, 0, 1, { 1 },
	  STATUS_ANY, 0 },
	{ "FIND_FIRST \"\\a\\<.JNK\" 260 1366 0 NT_STATUS_NO_SUCH_FILE", 0,
	  OP_FIND, "a/<.JNK", NULL, -1, 3, { 260, 1366, 0 }, STATUS_EXACT,
	  NT_STATUS_NO_SUCH_FILE },
	{ "Find \"\\a\\*\" 260 10 4 NT_STATUS_OK", 0, OP_FIND, "a/*", NULL,
	  -1, 3, { 260, 10, 4 }, STATUS_SUCCESS, 0 },
	{ H "WriteX 77 65534 1 1 NT_STATUS_OK", 1, OP_WRITEX, NULL, NULL, 0,
	  3, { 65534, 1, 1 }, STATUS_SUCCESS, 0 },
	{ H "ReadX 77 0 65536 65536 NT_STATUS_OK", 1, OP_READX, NULL, NULL,
	  0, 3, { 0, 65536, 65536 }, STATUS_SUCCESS, 0 },
	{ H "ReadX 77 4096 100 0 NT_STATUS_END_OF_FILE", 1, OP_READX, NULL,
	  NULL, 0, 3, { 4096, 100, 0 }, STATUS_EXACT,
	  NT_STATUS_END_OF_FILE },
	{ H "LockX 77 10 1 NT_STATUS_OK", 1, OP_LOCKX, NULL, NULL, 0, 2,
	  { 10, 1 }, STATUS_SUCCESS, 0 },
	{ H "LockX 77 10 1 NT_STATUS_LOCK_NOT_GRANTED", 1, OP_LOCKX, NULL,
	  NULL, 0, 2, { 10, 1 }, STATUS_EXACT, NT_STATUS_LOCK_NOT_GRANTED },
	{ H "UnlockX 77 10 1 NT_STATUS_OK", 1, OP_UNLOCKX, NULL, NULL, 0, 2,
	  { 10, 1 }, STATUS_SUCCESS, 0 },
	{ H "Flush 77 NT_STATUS_OK", 1, OP_FLUSH, NULL, NULL, 0, 0, { 0 },
	  STATUS_SUCCESS, 0 },
	{ H "DropCache 77 NT_STATUS_OK", 1, OP_DROPCACHE, NULL, NULL, 0, 0,
	  { 0 }, STATUS_SUCCESS, 0 },
	{ H "dropcache 77 *", 1, OP_DROPCACHE, NULL, NULL, 0, 0, { 0 },
	  STATUS_ANY, 0 },
	{ "LOOP 3\nQfsinfo 1 *\nENDLOOP", 0, OP_LOOP, NULL, NULL, -1, 1,
	  { 3 }, STATUS_ANY, 0 },
	{ "LOOP 0\nQfsinfo 1 *\nENDLOOP", 2, OP_ENDLOOP, NULL, NULL, -1, 0,
	  { 0 }, STATUS_ANY, 0 },
	{ "REPEAT 0x10\nQfsinfo 1 *", 0, OP_REPEAT, NULL, NULL, -1, 1,
	  { 16 }, STATUS_ANY, 0 },
	{ "SLEEP 250000", 0, OP_SLEEP, NULL, NULL, -1, 1, { 250000 },
	  STATUS_ANY, 0 },
	{ "SETSP 5", 0, OP_SETSP, NULL, NULL, -1, 1, { 5 }, STATUS_ANY, 0 },
	{ "WAITSP 2 5", 0, OP_WAITSP, NULL, NULL, -1, 2, { 2, 5 },
	  STATUS_ANY, 0 },
	{ "WRITEPATTERN abc", 0, OP_WRITEPATTERN, NULL, NULL, -1, 0, { 0 },
	  STATUS_ANY, 0 },
	{ "RANDOMSTRING 7 \"[ab]x\"", 0, OP_RANDOMSTRING, NULL, NULL, -1, 1,
	  { 7 }, STATUS_ANY, 0 },
	/* spellings are case-insensitive, statuses too */
	{ "ntcreatex \"\\f\" 0 1 5 nt_status_ok", 0, OP_NTCREATEX, "f", NULL,
	  0, 2, { 0, 1 }, STATUS_SUCCESS, 0 },
	{ "query_fs_information 2 success", 0, OP_QFSINFO, NULL, NULL, -1, 1,
	  { 2 }, STATUS_SUCCESS, 0 },
	{ "sleep 1", 0, OP_SLEEP, NULL, NULL, -1, 1, { 1 }, STATUS_ANY, 0 },
	{ "Qfsinfo 1 0xc0000034", 0, OP_QFSINFO, NULL, NULL, -1, 1, { 1 },
	  STATUS_EXACT, NT_STATUS_OBJECT_NAME_NOT_FOUND },
};
/* clang-format on */

static void test_commands(void **state)
{
	struct tstate *ts = *state;
	size_t i;
	unsigned a;

	for (i = 0; i < sizeof(cmd_cases) / sizeof(cmd_cases[0]); i++) {
		const struct cmd_case *c = &cmd_cases[i];
		struct program *p = compile_ok(ts, c->text);
		const struct op *op;

		assert_true(c->index < p->nops);
		op = &p->ops[c->index];
		if (op->kind != c->kind)
			fail_msg("case %zu: kind %d, expected %d", i, op->kind,
				 c->kind);
		assert_int_equal(op->line, c->index + 1);
		assert_true(program_time(p, c->index) == -1);
		assert_null(p->times);
		/* (a control command's paths share space with its text) */
		if (c->path0 != NULL) {
			assert_non_null(program_path(p, op, 0));
			assert_string_equal(program_path(p, op, 0)->text,
					    c->path0);
		} else if (c->kind < OP_NUM_MEASURED) {
			assert_null(program_path(p, op, 0));
		}
		if (c->path1 != NULL) {
			assert_non_null(program_path(p, op, 1));
			assert_string_equal(program_path(p, op, 1)->text,
					    c->path1);
		} else if (c->kind < OP_NUM_MEASURED) {
			assert_null(program_path(p, op, 1));
		}
		assert_int_equal(op->handle, c->handle);
		for (a = 0; a < PROGRAM_MAX_ARGS; a++) {
			int64_t want = a < c->nargs ? c->arg[a] : 0;
			struct value v = program_arg(p, op, a);

			if (v.kind != VAL_CONST || v.v != want)
				fail_msg("case %zu arg %u: kind %d v %lld, "
					 "expected %lld",
					 i, a, v.kind, (long long)v.v,
					 (long long)want);
			assert_int_equal(v.nmods, 0);
			assert_null(program_mods(p, &v));
		}
		if (c->kind < OP_NUM_MEASURED) {
			assert_int_equal(op->check, c->check);
			assert_int_equal(op->status, c->status);
		} else {
			assert_int_equal(op->check, STATUS_ANY);
		}
		talloc_free(p);
	}
}

/* ---- numeric values and modifiers ---- */

struct value_case {
	const char *tok;
	enum value_kind kind;
	int64_t v;
	unsigned nmods;
	struct value_mod mods[3];
};

static const struct value_case value_cases[] = {
	{ "0", VAL_CONST, 0, 0, { { 0, 0 } } },
	{ "65536", VAL_CONST, 65536, 0, { { 0, 0 } } },
	{ "0x10", VAL_CONST, 16, 0, { { 0, 0 } } },
	{ "0XfF", VAL_CONST, 255, 0, { { 0, 0 } } },
	{ "9223372036854775807", VAL_CONST, INT64_MAX, 0, { { 0, 0 } } },
	{ "0x7fffffffffffffff", VAL_CONST, INT64_MAX, 0, { { 0, 0 } } },
	{ "007", VAL_CONST, 7, 0, { { 0, 0 } } },
	/* modifiers after a constant are folded into it */
	{ "100/8", VAL_CONST, 96, 0, { { 0, 0 } } },
	{ "100%7", VAL_CONST, 2, 0, { { 0, 0 } } },
	{ "100+5", VAL_CONST, 105, 0, { { 0, 0 } } },
	{ "100%7+0x10/4", VAL_CONST, 16, 0, { { 0, 0 } } },
	{ "*", VAL_RANDOM, 0, 0, { { 0, 0 } } },
	{ "*%10", VAL_RANDOM, 0, 1, { { '%', 10 } } },
	{ "*/4096", VAL_RANDOM, 0, 1, { { '/', 4096 } } },
	{ "*+5", VAL_RANDOM, 0, 1, { { '+', 5 } } },
	{ "*+0", VAL_RANDOM, 0, 1, { { '+', 0 } } },
	{ "*%1048576/4096+0x10",
	  VAL_RANDOM,
	  0,
	  3,
	  { { '%', 1048576 }, { '/', 4096 }, { '+', 16 } } },
	{ "*/8%3", VAL_RANDOM, 0, 2, { { '/', 8 }, { '%', 3 } } },
	{ "+5", VAL_RELATIVE, 5, 0, { { 0, 0 } } },
	{ "+0x10", VAL_RELATIVE, 16, 0, { { 0, 0 } } },
	{ "+0", VAL_RELATIVE, 0, 0, { { 0, 0 } } },
};

static void test_values(void **state)
{
	struct tstate *ts = *state;
	size_t i;
	unsigned m;

	for (i = 0; i < sizeof(value_cases) / sizeof(value_cases[0]); i++) {
		const struct value_case *c = &value_cases[i];
		char *text = talloc_asprintf(ts->ctx, H "ReadX 77 %s %s 1 *",
					     c->tok, c->tok);
		struct program *p = compile_ok(ts, text);
		unsigned a;

		for (a = 0; a < 2; a++) {
			struct value val = program_arg(p, &p->ops[1], a);
			const struct value *v = &val;

			if (v->kind != c->kind || v->v != c->v ||
			    v->nmods != c->nmods)
				fail_msg("'%s': kind %d v %lld nmods %u",
					 c->tok, v->kind, (long long)v->v,
					 v->nmods);
			for (m = 0; m < c->nmods; m++) {
				const struct value_mod *vm = program_mods(p, v);

				assert_int_equal(vm[m].op, c->mods[m].op);
				assert_int_equal(vm[m].y, c->mods[m].y);
			}
			if (c->nmods == 0)
				assert_null(program_mods(p, v));
		}
		assert_int_equal(program_arg(p, &p->ops[1], 2).kind,
				 VAL_CONST);
		assert_int_equal(program_arg_v(p, &p->ops[1], 2), 1);
		talloc_free(p);
		talloc_free(text);
	}
}

/*
 * An op holds a constant below 2^31 itself; other arguments ('*', '+y',
 * larger constants) are entries of the program's value table.
 */
static void test_value_table(void **state)
{
	struct tstate *ts = *state;
	struct program *p = compile_ok(
		ts, "NTCreateX \"\\a\" 0 2 1 *\n"
		    "ReadX 1 2147483647 2147483648 0 *\n"
		    "ReadX 1 *%4096 +7 0x7fffffffffffffff *\n"
		    "LOOP 3000000000\nENDLOOP\n");
	struct value v;

	assert_int_equal(p->ops[1].arg[0], 2147483647u);
	assert_true(p->ops[1].arg[1] & OP_ARG_REF);
	assert_int_equal(program_arg_v(p, &p->ops[1], 1), 2147483648ll);
	assert_int_equal(p->ops[1].arg[2], 0);
	v = program_arg(p, &p->ops[2], 0);
	assert_int_equal(v.kind, VAL_RANDOM);
	assert_int_equal(v.nmods, 1);
	assert_int_equal(program_mods(p, &v)[0].op, '%');
	assert_int_equal(program_mods(p, &v)[0].y, 4096);
	v = program_arg(p, &p->ops[2], 1);
	assert_int_equal(v.kind, VAL_RELATIVE);
	assert_int_equal(v.v, 7);
	assert_int_equal(program_arg_v(p, &p->ops[2], 2), INT64_MAX);
	assert_int_equal(program_arg_v(p, &p->ops[3], 0), 3000000000ll);
	assert_int_equal(p->nvalues, 5);
	talloc_free(p);
}

/* ---- handles ---- */

static void test_handles(void **state)
{
	struct tstate *ts = *state;
	struct program *p = compile_ok(
		ts, "NTCreateX \"\\a\" 0 1 9938 *\n" /* slot 0 */
		    "NTCreateX \"\\b\" 0 1 0 *\n"    /* slot 1 */
		    "ReadX 0 0 1 1 *\n"
		    "Close 16385 *\n" /* used first: slot 2 */
		    "NTCreateX \"\\c\" 0 1 16385 *\n"
		    "Close 9938 *\n"
		    "NTCreateX \"\\d\" 0 1 0x0 *\n" /* 0 again: slot 1 */
		    "NTCreateX \"\\e\" 0 1 9223372036854775807 *\n");

	assert_int_equal(p->nhandles, 4);
	assert_int_equal(p->ops[0].handle, 0);
	assert_int_equal(p->ops[1].handle, 1);
	assert_int_equal(p->ops[2].handle, 1);
	assert_int_equal(p->ops[3].handle, 2);
	assert_int_equal(p->ops[4].handle, 2);
	assert_int_equal(p->ops[5].handle, 0);
	assert_int_equal(p->ops[6].handle, 1);
	assert_int_equal(p->ops[7].handle, 3);
	/* the number as written is kept for messages */
	assert_int_equal(p->handle_nums[p->ops[0].handle], 9938);
	assert_int_equal(p->handle_nums[p->ops[2].handle], 0);
	assert_int_equal(p->handle_nums[p->ops[3].handle], 16385);
	assert_int_equal(p->handle_nums[p->ops[6].handle], 0);
	assert_int_equal(p->handle_nums[p->ops[7].handle], INT64_MAX);
	talloc_free(p);
}

/* many handles: the handle table grows, slots stay dense and stable */
static void test_many_handles(void **state)
{
	struct tstate *ts = *state;
	struct sbuf b;
	struct program *p;
	int i;

	sb_init(ts, &b);
	for (i = 0; i < 3000; i++)
		sb_printf(&b, "NTCreateX \"\\f\" 0 1 %d *\n", i * 7919);
	for (i = 0; i < 3000; i++)
		sb_printf(&b, "Close %d *\n", i * 7919);
	p = compile_ok(ts, b.s);
	assert_int_equal(p->nhandles, 3000);
	for (i = 0; i < 3000; i++) {
		assert_int_equal(p->ops[i].handle, i);
		assert_int_equal(p->ops[3000 + i].handle, i);
	}
	talloc_free(p);
	talloc_free(b.s);
}

/* ---- control commands ---- */

static void test_loops(void **state)
{
	struct tstate *ts = *state;
	struct program *p = compile_ok(ts, "LOOP 2\n"	     /* 0 */
					   "Qfsinfo 1 *\n"   /* 1 */
					   "LOOP 0\n"	     /* 2 */
					   "Qfsinfo 1 *\n"   /* 3 */
					   "ENDLOOP\n"	     /* 4 */
					   "ENDLOOP\n"	     /* 5 */
					   "LOOP 3\n"	     /* 6 */
					   "ENDLOOP\n"	     /* 7 */
					   "REPEAT 4\n"	     /* 8 */
					   "Qfsinfo 1 *\n"); /* 9 */

	assert_int_equal(p->nops, 10);
	assert_int_equal(p->max_loop_depth, 2);
	assert_int_equal(p->ops[0].jump, 5);
	assert_int_equal(p->ops[5].jump, 0);
	assert_int_equal(p->ops[2].jump, 4);
	assert_int_equal(p->ops[4].jump, 2);
	assert_int_equal(p->ops[6].jump, 7);
	assert_int_equal(p->ops[7].jump, 6);
	assert_int_equal(program_arg_v(p, &p->ops[0], 0), 2);
	assert_int_equal(program_arg_v(p, &p->ops[2], 0), 0);
	assert_int_equal(p->ops[8].kind, OP_REPEAT);
	assert_int_equal(program_arg_v(p, &p->ops[8], 0), 4);
	assert_int_equal(p->ops[1].jump, 0);
	talloc_free(p);
}

static void test_texts(void **state)
{
	struct tstate *ts = *state;
	struct program *p =
		compile_ok(ts, "WRITEPATTERN  hello  world \t\r\n"
			       "WRITEPATTERN\tx\n"
			       "RANDOMSTRING 3 \"[abc][0-9]-[[]x y\"\n"
			       "RANDOMSTRING 0 \"..[.a]\"\n"
			       "Mkdir \"\\d\\f$3.$0\" *\n"
			       "WRITEPATTERN \"quoted\" #not a comment");

	assert_int_equal(p->ops[0].kind, OP_WRITEPATTERN);
	assert_int_equal(p->texts[p->ops[0].text].len, 12);
	assert_memory_equal(p->texts[p->ops[0].text].p, "hello  world", 12);
	assert_int_equal(p->texts[p->ops[0].text].p[12], '\0');
	assert_int_equal(p->texts[p->ops[1].text].len, 1);
	assert_string_equal(p->texts[p->ops[1].text].p, "x");
	assert_int_equal(p->ops[2].kind, OP_RANDOMSTRING);
	assert_int_equal(program_arg_v(p, &p->ops[2], 0), 3);
	assert_string_equal(p->texts[p->ops[2].text].p, "[abc][0-9]-[[]x y");
	assert_int_equal(p->texts[p->ops[2].text].len, 17);
	assert_string_equal(p->texts[p->ops[3].text].p, "..[.a]");
	assert_int_equal(p->nrandom, 4);
	assert_true(program_path(p, &p->ops[4], 0)->has_random);
	assert_string_equal(program_path(p, &p->ops[4], 0)->text, "d/f$3.$0");
	assert_string_equal(p->texts[p->ops[5].text].p, "\"quoted\" #not a comment");
	talloc_free(p);

	/* RANDOMSTRING may come after the paths that use it */
	p = compile_ok(ts, "Mkdir \"\\$7\" *\nRANDOMSTRING 7 \"[ab]\"\n");
	assert_int_equal(p->nrandom, 8);
	talloc_free(p);

	p = compile_ok(ts, "Mkdir \"\\a\" *\n");
	assert_int_equal(p->nrandom, 0);
	talloc_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_op_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_op_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(test_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_value_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_handles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_handles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_texts, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
