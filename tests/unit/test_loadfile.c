/*
 * test_loadfile.c - unit tests of the loadfile compiler (loadfile.c) and
 * the op table (ops.c): every command and value form, every parse error
 * with its line, input forms (CRLF, tabs, missing last newline, timed,
 * gzip, large files through the read window), path normalisation, handle
 * mapping, LOOP pairing, and Debian's client.txt when it is installed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <talloc.h>
#include <zlib.h>

#include "ntstatus.h"
#include "program.h"

#define DEBIAN_CLIENT_TXT "/usr/share/dbench/client.txt"

#include "talloc_fixture.h"

static struct program *compile_ok_len(struct tstate *ts, const char *text,
				      size_t len)
{
	char *err = NULL;
	struct program *p =
		program_compile_buffer(ts->ctx, "t.txt", text, len, &err);

	if (p == NULL)
		fail_msg("unexpected error: %s\ninput:\n%s", err, text);
	assert_null(err);
	return p;
}

static struct program *compile_ok(struct tstate *ts, const char *text)
{
	return compile_ok_len(ts, text, strlen(text));
}

/*
 * Compile text that must fail at line (0: a message without a line) with
 * a message containing want; nothing but the message may stay allocated.
 */
static void expect_error_len(struct tstate *ts, const char *text, size_t len,
			     unsigned line, const char *want)
{
	size_t before = talloc_total_blocks(ts->ctx);
	char *err = NULL;
	char *prefix;
	struct program *p =
		program_compile_buffer(ts->ctx, "t.txt", text, len, &err);

	if (p != NULL)
		fail_msg("compiled, expected an error with '%s':\n%s", want,
			 text);
	assert_non_null(err);
	if (line != 0)
		prefix = talloc_asprintf(ts->ctx, "t.txt:%u: ", line);
	else
		prefix = talloc_strdup(ts->ctx, "t.txt: ");
	if (strncmp(err, prefix, strlen(prefix)) != 0 ||
	    strstr(err, want) == NULL)
		fail_msg(
			"error '%s'\nexpected prefix '%s' and '%s'\ninput:\n%s",
			err, prefix, want, text);
	talloc_free(prefix);
	assert_ptr_equal(talloc_parent(err), ts->ctx);
	assert_int_equal(talloc_total_blocks(ts->ctx), before + 1);
	talloc_free(err);
}

static void expect_error(struct tstate *ts, const char *text, unsigned line,
			 const char *want)
{
	expect_error_len(ts, text, strlen(text), line, want);
}

/*
 * A growing text buffer for generated loadfiles (appending with doubling:
 * talloc_asprintf_append would copy the whole text on every line).
 */
struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_init(struct tstate *ts, struct sbuf *b)
{
	b->cap = 4096;
	b->len = 0;
	b->s = talloc_size(ts->ctx, b->cap);
	assert_non_null(b->s);
	b->s[0] = '\0';
}

static void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0);
	if (b->len + (size_t)n + 1 > b->cap) {
		while (b->len + (size_t)n + 1 > b->cap)
			b->cap *= 2;
		b->s = talloc_realloc_size(NULL, b->s, b->cap);
		assert_non_null(b->s);
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

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

#define H "NTCreateX \"\\f\" 0 0 77 *\n" /* opens handle 77 -> slot 0 */

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

/* ---- errors ---- */

struct error_case {
	const char *text;
	unsigned line; /* 0: "t.txt: message" */
	const char *want;
};

#define LONG_COMPONENT                                                     \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define C250                                                                   \
	"\\bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" \
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"   \
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"   \
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define C250x4 C250 C250 C250 C250

static const struct error_case error_cases[] = {
	/* whole file */
	{ "", 0, "no operations" },
	{ "# only a comment\n\n   \n\t\n", 0, "no operations" },
	/* commands */
	{ "Qfsinfo 1 *\nFoo 1 2 *", 2, "unknown operation 'Foo'" },
	{ "Qfsinfo 1 *\n\"ReadX\" 1 *", 2, "unknown operation '\"ReadX\"'" },
	{ "SMBopenX 1 2 *", 1, "dbench-1 loadfile" },
	{ "# x\nSMBclose 1", 2, "'SMBclose': this is a dbench-1 loadfile" },
	/* field counts */
	{ H "WriteX 77 0 1", 2,
	  "WriteX: expected 'WriteX handle offset size returned status', "
	  "found 4 fields" },
	{ H "WriteX 77 0 1 1 * extra", 2, "found 7 fields" },
	{ "NTCreateX \"\\a\" 0 0 1", 1,
	  "NTCreateX: expected 'NTCreateX path create_options disposition "
	  "handle status', found 5 fields" },
	{ H "Close 77", 2, "expected 'Close handle status', found 2 fields" },
	{ "Rename \"\\a\" *", 1, "expected 'Rename old new status'" },
	{ "Unlink *", 1, "expected 'Unlink path [attributes] status'" },
	{ "Unlink \"\\a\" 1 2 *", 1, "found 5 fields" },
	{ "Deltree \"\\a\" 1 *", 1, "expected 'Deltree path status'" },
	{ "Rmdir \"\\a\"", 1, "expected 'Rmdir path status'" },
	{ "Mkdir", 1, "expected 'Mkdir path status', found 1 field" },
	{ "QUERY_PATH_INFORMATION \"\\a\" *", 1,
	  "QUERY_PATH_INFORMATION: expected 'QUERY_PATH_INFORMATION path "
	  "level status'" },
	{ H "QUERY_FILE_INFORMATION 77 *", 2,
	  "expected 'QUERY_FILE_INFORMATION handle level status'" },
	{ "QUERY_FS_INFORMATION *", 1,
	  "expected 'QUERY_FS_INFORMATION level status'" },
	{ H "SET_FILE_INFORMATION 77 *", 2,
	  "expected 'SET_FILE_INFORMATION handle level status'" },
	{ "FIND_FIRST \"\\a\" 1 2 *", 1,
	  "expected 'FIND_FIRST pattern level maxcount count status'" },
	{ H "ReadX 77 0 1 *", 2,
	  "expected 'ReadX handle offset size "
	  "returned status'" },
	{ H "LockX 77 0 *", 2, "expected 'LockX handle offset size status'" },
	{ H "UnlockX 77 *", 2, "expected 'UnlockX handle offset size status'" },
	{ H "Flush *", 2, "expected 'Flush handle status'" },
	{ H "DropCache", 2, "DropCache: expected 'DropCache handle status', "
	  "found 1 field" },
	{ H "DropCache 77", 2, "expected 'DropCache handle status', found 2" },
	{ "LOOP\nENDLOOP", 1, "expected 'LOOP count', found 1 field" },
	{ "LOOP 1 2\nENDLOOP", 1, "expected 'LOOP count', found 3 fields" },
	{ "LOOP 1\nENDLOOP 1", 2, "expected 'ENDLOOP', found 2 fields" },
	{ "REPEAT\nQfsinfo 1 *", 1, "expected 'REPEAT count'" },
	{ "SLEEP 10 NT_STATUS_OK", 1, "expected 'SLEEP usecs', found 3" },
	{ "SETSP", 1, "expected 'SETSP n'" },
	{ "WAITSP 1", 1, "expected 'WAITSP client n'" },
	{ "RANDOMSTRING 1", 1, "expected 'RANDOMSTRING index \"pattern\"'" },
	{ "WRITEPATTERN", 1,
	  "WRITEPATTERN: expected 'WRITEPATTERN text', "
	  "found no text" },
	{ "WRITEPATTERN  \t \r\n", 1, "found no text" },
	/* statuses */
	{ "Qfsinfo 1 OK", 1,
	  "expected a status (NT_STATUS_<name>, 0x<hex>, "
	  "SUCCESS, ERROR or *) as the last field, found 'OK'" },
	{ "Qfsinfo 1 NT_STATUS_BOGUS", 1, "found 'NT_STATUS_BOGUS'" },
	{ "Qfsinfo 1 0x1G", 1, "found '0x1G'" },
	{ "Qfsinfo 1 0x100000000", 1, "expected a status" },
	{ "Qfsinfo 1 0", 1, "expected a status" },
	{ "Qfsinfo 1 \"NT_STATUS_OK\"", 1, "found \"NT_STATUS_OK\"" },
	/* tokens */
	{ "Unlink \"\\a *", 1, "unterminated quoted string '\"\\a *'" },
	{ "Unlink \"\\a\"x *", 1,
	  "expected a space after the quoted string \"\\a\", found 'x'" },
	{ "Unlink \\a *", 1, "Unlink: path: expected a quoted path" },
	{ "Rename \"\\a\" b *", 1, "Rename: new path: expected a quoted path" },
	/* paths */
	{ "Unlink \"\\a\\..\\b\" *", 1, "has a '..' component" },
	{ "Unlink \"..\" *", 1, "'..'" },
	{ "Unlink \"a/../../etc\" *", 1, "'..'" },
	{ "Unlink \"\\" LONG_COMPONENT "\" *", 1,
	  "is 256 bytes long; expected at most 255" },
	{ "Unlink \"" C250x4 C250x4 C250x4 C250x4 C250x4 "\" *", 1,
	  "longer than 4095 bytes" },
	{ "Mkdir \"\\a$100\" *", 1, "uses $100; expected $0 to $99" },
	{ "Mkdir \"\\a$3\" *", 1,
	  "path uses $3, but the file has no "
	  "RANDOMSTRING 3" },
	{ "RANDOMSTRING 1 \"x\"\nQfsinfo 1 *\nMkdir \"\\a$1\\$2\" *", 3,
	  "no RANDOMSTRING 2" },
	{ "RANDOMSTRING 0 \"[.]\"\nMkdir \"\\a\\$0\\b\" *", 2,
	  "component \"$0\" may expand to '.' or '..'" },
	{ "RANDOMSTRING 0 \"[.a]\"\nMkdir \"\\a\\.$0\" *", 2,
	  "may expand to" },
	{ "RANDOMSTRING 0 \".\"\nRANDOMSTRING 1 \"[x.]\"\n"
	  "Mkdir \"\\$1$0\" *",
	  3, "may expand to" },
	/* removals and renames stay inside \clients\client1 (issue 18) */
	{ "Deltree \"\\\" *", 1,
	  "Deltree: path \"\\\" is outside the client's directory; "
	  "expected a path inside it, \"\\clients\\client1\\...\"" },
	{ "Deltree \"/\" NT_STATUS_OK", 1, "outside the client's directory" },
	{ "Deltree \"\\clients\" *", 1,
	  "path \"\\clients\" is outside the client's directory" },
	{ "Rmdir \"\\clients\" *", 1, "outside the client's directory" },
	{ "Unlink \"\\foo\" *", 1,
	  "Unlink: path \"\\foo\" is outside the client's directory" },
	{ "Unlink \"\\clients\\client1\" *", 1,
	  "Unlink: path \"\\clients\\client1\" is the client's own "
	  "directory; expected a path inside it" },
	{ "Unlink \"\\clients\\client10\\b\" *", 1,
	  "\"\\clients\\client10\\b\" is outside" },
	{ "Unlink \"\\clients\\client2\\b\" *", 1, "is outside" },
	{ "Unlink \"\\a\\clients\\client1\\b\" *", 1, "is outside" },
	{ "RANDOMSTRING 0 \"[ab]\"\nDeltree \"\\$0\\clients\\client1\\x\" *", 2,
	  "is outside" },
	{ "Rename \"\\clients\\client1\\a\" \"\\b\" *", 1,
	  "Rename: path \"\\b\" is outside" },
	{ "Rename \"\\etc\\x\" \"\\clients\\client1\\b\" *", 1,
	  "Rename: path \"\\etc\\x\" is outside" },
	{ "Rename \"\\clients\\client1\" \"\\clients\\client1\\b\" *",
	  1, "is the client's own directory" },
	{ "Qfsinfo 1 *\nDeltree \"\\clients\\client1\" *\n"
	  "Deltree \"\\clients\\\" *", 3, "outside" },
	/* a byte order mark is skipped at the start of the file only */
	{ "Qfsinfo 1 *\n\xef\xbb\xbfQfsinfo 1 *", 2, "unknown operation" },
	{ "\xef\xbb\xbf\xef\xbb\xbfQfsinfo 1 *", 1, "unknown operation" },
	/* numbers */
	{ "Qfsinfo abc *", 1,
	  "QUERY_FS_INFORMATION: level: expected a "
	  "number (decimal or 0x hex), '*' optionally followed by /y %y +y, "
	  "or '+y', found 'abc'" },
	{ "Qfsinfo -1 *", 1, "level: expected a number" },
	{ "Qfsinfo 1.5 *", 1, "level: expected a number" },
	{ "Qfsinfo 0x *", 1, "found '0x'" },
	{ "Qfsinfo 9223372036854775808 *", 1,
	  "'9223372036854775808' is too large" },
	{ "Qfsinfo 0x8000000000000000 *", 1, "is too large" },
	{ "Qfsinfo 99999999999999999999999 *", 1, "is too large" },
	{ "Qfsinfo *%0 *", 1, "'*%0' has '%0'; expected a non-zero divisor" },
	{ "Qfsinfo */0 *", 1, "has '/0'" },
	{ "Qfsinfo *%5/0x0 *", 1, "has '/0'" },
	{ "Qfsinfo 10%0 *", 1, "has '%0'" },
	{ "Qfsinfo *x5 *", 1, "found '*x5'" },
	{ "Qfsinfo *% *", 1, "found '*%'" },
	{ "Qfsinfo ** *", 1, "found '**'" },
	{ "Qfsinfo + *", 1, "found '+'" },
	{ "Qfsinfo +5%3 *", 1, "found '+5%3'" },
	{ "Qfsinfo 9223372036854775807+1 *", 1, "is too large" },
	{ "Qfsinfo *+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1 *", 1,
	  "has more than 16 modifiers" },
	{ "Qfsinfo \"1\" *", 1, "found \"1\"" },
	/* handles */
	{ "Close 99 *", 1, "Close: handle 99 is never opened" },
	{ H "Qfsinfo 1 *\nDropCache 9 NT_STATUS_OK", 3,
	  "DropCache: handle 9 is never opened" },
	{ H "DropCache x NT_STATUS_OK", 2, "DropCache: handle: expected a "
	  "number" },
	{ H "Close 77 *\nQfsinfo 1 *\nReadX 5 0 1 1 *\nClose 6 *", 4,
	  "ReadX: handle 5 is never opened" },
	{ H "Close abc *", 2, "Close: handle: expected a number" },
	{ H "Close * *", 2, "handle: expected a number" },
	{ H "Close +1 *", 2, "handle: expected a number" },
	{ "NTCreateX \"\\a\" 0 0 -1 *", 1, "handle: expected a number" },
	/* loops */
	{ "LOOP 2\nQfsinfo 1 *", 1, "LOOP without a matching ENDLOOP" },
	{ "LOOP 2\nLOOP 3\nQfsinfo 1 *\nENDLOOP", 1,
	  "LOOP without a "
	  "matching ENDLOOP" },
	{ "LOOP 2\nQfsinfo 1 *\nENDLOOP\nLOOP 1\nLOOP 1\nENDLOOP", 4,
	  "LOOP without a matching ENDLOOP" },
	{ "Qfsinfo 1 *\nENDLOOP", 2, "ENDLOOP without a matching LOOP" },
	{ "LOOP 1\nENDLOOP\nENDLOOP", 3, "ENDLOOP without a matching LOOP" },
	{ "LOOP x\nENDLOOP", 1,
	  "LOOP: count: expected a number (decimal or "
	  "0x hex), found 'x'" },
	{ "LOOP *\nENDLOOP", 1, "count: expected a number" },
	{ "REPEAT 2", 1, "REPEAT is the last command" },
	{ "Qfsinfo 1 *\nREPEAT 2\n# trailing comment\n", 2,
	  "REPEAT is the last command" },
	{ "REPEAT 2\nLOOP 1\nENDLOOP", 2, "LOOP after REPEAT (line 1)" },
	{ "LOOP 1\nREPEAT 2\nENDLOOP", 3, "ENDLOOP after REPEAT (line 2)" },
	{ "REPEAT 2\nREPEAT 2\nQfsinfo 1 *", 2, "REPEAT after REPEAT" },
	{ "SLEEP *%5", 1, "SLEEP: usecs: expected a number" },
	{ "WAITSP 1 x", 1, "WAITSP: n: expected a number" },
	/* RANDOMSTRING */
	{ "RANDOMSTRING 0 abc", 1, "expected a quoted pattern" },
	{ "RANDOMSTRING 0 \"\"", 1, "the pattern is empty" },
	{ "RANDOMSTRING 0 \"[ab\"", 1, "has a '[' without its ']'" },
	{ "RANDOMSTRING 0 \"x[]\"", 1, "has an empty set '[]'" },
	{ "RANDOMSTRING 0 \"a/b\"", 1, "has '/'; expected no path separators" },
	{ "RANDOMSTRING 0 \"a\\b\"", 1, "has '\\'" },
	{ "RANDOMSTRING 0 \"[a/]\"", 1, "a path separator in a set" },
	{ "RANDOMSTRING 100 \"a\"", 1,
	  "RANDOMSTRING: index: '100' is too "
	  "large; expected at most 99" },
	{ "RANDOMSTRING x \"a\"", 1, "index: expected a number" },
	/* times */
	{ "1.2.3 Qfsinfo 1 *", 1, "bad time '1.2.3'" },
	{ "1.5x Qfsinfo 1 *", 1, "bad time '1.5x'" },
	{ "Qfsinfo 1 *\n12.5", 2, "a time but no command" },
	{ "12 Qfsinfo 1 *", 1, "unknown operation '12'" },
	/* error after good lines, CRLF, tabs: the line number is right */
	{ "Qfsinfo 1 *\r\n# c\r\n\r\n\tQfsinfo\t1\t*\r\nQfsinfo 1 x\r\n", 5,
	  "found 'x'" },
	/* messages quote only a bounded, printable part of a token */
	{ "Qfsinfo 1 " LONG_COMPONENT, 1,
	  "found 'aaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaa...'" },
	{ "Qfsinfo 1 \x01\x7f", 1, "found '?\?'" },
};

static void test_errors(void **state)
{
	struct tstate *ts = *state;
	size_t i;

	for (i = 0; i < sizeof(error_cases) / sizeof(error_cases[0]); i++)
		expect_error(ts, error_cases[i].text, error_cases[i].line,
			     error_cases[i].want);
}

/* LOOP nesting: 64 levels are fine, 65 are not */
static void test_loop_depth(void **state)
{
	struct tstate *ts = *state;
	char *text = talloc_strdup(ts->ctx, "");
	struct program *p;
	int i;

	for (i = 0; i < 64; i++)
		text = talloc_asprintf_append(text, "LOOP 1\n");
	text = talloc_asprintf_append(text, "Qfsinfo 1 *\n");
	for (i = 0; i < 64; i++)
		text = talloc_asprintf_append(text, "ENDLOOP\n");
	p = compile_ok(ts, text);
	assert_int_equal(p->max_loop_depth, 64);
	assert_int_equal(p->nops, 129);
	assert_int_equal(p->ops[0].jump, 128);
	assert_int_equal(p->ops[63].jump, 65);
	assert_int_equal(p->ops[65].jump, 63);
	talloc_free(p);
	talloc_free(text);

	text = talloc_strdup(ts->ctx, "Qfsinfo 1 *\n");
	for (i = 0; i < 65; i++)
		text = talloc_asprintf_append(text, "LOOP 1\n");
	expect_error(ts, text, 66, "LOOP nested more than 64 deep");
	talloc_free(text);
}

/* NUL bytes, over-long lines, err == NULL */
static void test_binary_and_limits(void **state)
{
	struct tstate *ts = *state;
	static const char nul[] = "Qfsinfo 1 *\nQfs\0info 1 *\n";
	static const char nul_path[] = "Unlink \"\\a\0b\" *\n";
	size_t big = (1u << 20) + 1;
	char *line = talloc_size(ts->ctx, big + 40);
	struct program *p;

	expect_error_len(ts, nul, sizeof(nul) - 1, 2, "binary data");
	expect_error_len(ts, nul_path, sizeof(nul_path) - 1, 1,
			 "binary data (a NUL byte)");

	/* a line of exactly 1 MiB is accepted (and then rejected as a
	 * command), one byte more is too long */
	memset(line, 'x', big + 40);
	memcpy(line, "Qfsinfo 1 *\n", 12);
	expect_error_len(ts, line, 12 + (1u << 20), 2,
			 "unknown operation 'xxxxxxxx");
	expect_error_len(ts, line, 12 + big, 2,
			 "line longer than 1048576 bytes");
	line[12 + big] = '\n';
	expect_error_len(ts, line, 12 + big + 1, 2, "line longer than");
	talloc_free(line);

	/* no message wanted: still fails cleanly */
	p = program_compile_buffer(ts->ctx, "t.txt", "Foo", 3, NULL);
	assert_null(p);
	p = program_compile_buffer(ts->ctx, "t.txt", NULL, 0, NULL);
	assert_null(p);
}

/* ---- input forms ---- */

static void check_two_ops(struct program *p)
{
	assert_int_equal(p->nops, 2);
	assert_int_equal(p->ops[0].kind, OP_NTCREATEX);
	assert_int_equal(p->ops[0].check, STATUS_SUCCESS);
	assert_int_equal(p->ops[1].kind, OP_CLOSE);
	assert_int_equal(p->ops[1].check, STATUS_EXACT);
	assert_int_equal(p->ops[1].status, NT_STATUS_INVALID_HANDLE);
	assert_int_equal(p->ops[1].handle, p->ops[0].handle);
	assert_string_equal(program_path(p, &p->ops[0], 0)->text, "a b/c");
}

static void test_line_forms(void **state)
{
	struct tstate *ts = *state;
	static const char *const forms[] = {
		/* plain */
		"NTCreateX \"\\a b\\c\" 0 1 5 NT_STATUS_OK\n"
		"Close 5 NT_STATUS_INVALID_HANDLE\n",
		/* CRLF */
		"NTCreateX \"\\a b\\c\" 0 1 5 NT_STATUS_OK\r\n"
		"Close 5 NT_STATUS_INVALID_HANDLE\r\n",
		/* no final newline, CRLF */
		"NTCreateX \"\\a b\\c\" 0 1 5 NT_STATUS_OK\r\n"
		"Close 5 NT_STATUS_INVALID_HANDLE",
		/* no final newline, trailing CR */
		"NTCreateX \"\\a b\\c\" 0 1 5 NT_STATUS_OK\n"
		"Close 5 NT_STATUS_INVALID_HANDLE\r",
		/* tabs and runs of blanks, leading and trailing */
		"\tNTCreateX\t\"\\a b\\c\"  \t0\t1 5\tNT_STATUS_OK \t\n"
		"  Close\t\t5 NT_STATUS_INVALID_HANDLE\t\n",
		/* comments and blank lines */
		"# a comment\n\n   # indented comment\n\t\n"
		"NTCreateX \"\\a b\\c\" 0 1 5 NT_STATUS_OK\n\n"
		"Close 5 NT_STATUS_INVALID_HANDLE\n# end\n",
		/* a UTF-8 byte order mark before the first command */
		"\xef\xbb\xbfNTCreateX \"\\a b\\c\" 0 1 5 NT_STATUS_OK\r\n"
		"Close 5 NT_STATUS_INVALID_HANDLE\r\n",
	};
	size_t i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct program *p = compile_ok(ts, forms[i]);

		check_two_ops(p);
		assert_false(p->timed);
		talloc_free(p);
	}

	/* line numbers count every line, comments and blanks included */
	{
		struct program *p = compile_ok(ts, forms[5]);

		assert_int_equal(p->ops[0].line, 5);
		assert_int_equal(p->ops[1].line, 7);
		assert_int_equal(p->nlines, 8);
		assert_string_equal(p->filename, "t.txt");
		talloc_free(p);
	}
}

static void test_timed(void **state)
{
	struct tstate *ts = *state;
	struct program *p =
		compile_ok(ts, "0.000 NTCreateX \"\\a\" 0 1 5 NT_STATUS_OK\n"
			       "1.5 QUERY_FS_INFORMATION 1 NT_STATUS_OK\n"
			       "Qfsinfo 2 *\n"
			       "\t12.345\tClose 5 NT_STATUS_OK\n"
			       "3. SLEEP 10\n");

	assert_true(p->timed);
	assert_int_equal(p->nops, 5);
	assert_true(program_time(p, 0) == 0.0);
	assert_true(program_time(p, 1) == 1.5);
	assert_true(program_time(p, 2) == -1);
	assert_true(program_time(p, 3) > 12.3449 &&
		    program_time(p, 3) < 12.3451);
	assert_int_equal(p->ops[3].kind, OP_CLOSE);
	assert_true(program_time(p, 4) == 3.0);
	assert_int_equal(p->ops[4].kind, OP_SLEEP);
	talloc_free(p);

	/* the largest time accepted, and what would overflow nanoseconds */
	p = compile_ok(ts, "1000000000.0 Qfsinfo 1 *\n");
	assert_true(program_time(p, 0) == 1e9);
	talloc_free(p);

	/* untimed until a later line: the earlier ones have no time */
	p = compile_ok(ts, "Qfsinfo 1 *\nQfsinfo 1 *\n2.5 Qfsinfo 1 *\n");
	assert_true(p->timed);
	assert_non_null(p->times);
	assert_true(program_time(p, 0) == -1 && program_time(p, 1) == -1);
	assert_true(program_time(p, 2) == 2.5);
	talloc_free(p);
	p = compile_ok(ts, "Qfsinfo 1 *\n");
	assert_false(p->timed);
	assert_null(p->times);
	talloc_free(p);
	expect_error(ts, "Qfsinfo 1 *\n1000000000.001 Qfsinfo 1 *\n", 2,
		     "time '1000000000.001' is more than 1000000000 seconds");
	expect_error(ts, "18446744073.8 Qfsinfo 1 *\n", 1,
		     "more than 1000000000 seconds (31 years)");
	expect_error(ts, "99999999999999999999999999.0 Qfsinfo 1 *\n", 1,
		     "expected a smaller timestamp");
}

/* ---- paths ---- */

struct path_case {
	const char *raw;
	const char *norm;
	int32_t client_pos;
	bool has_random;
};

static const struct path_case path_cases[] = {
	{ "\\clients\\client1\\f", "clients/client1/f", 8, false },
	{ "/clients/client1", "clients/client1", 8, false },
	{ "\\clients\\client1", "clients/client1", 8, false },
	{ "\\CLIENTS\\Client1\\x", "CLIENTS/Client1/x", 8, false },
	{ "\\clients\\client10\\f", "clients/client10/f", -1, false },
	{ "\\clients\\xclient1", "clients/xclient1", -1, false },
	{ "\\client1\\f", "client1/f", -1, false },
	{ "\\clients1\\client1", "clients1/client1", -1, false },
	{ "\\x\\clients\\client1\\y", "x/clients/client1/y", 10, false },
	{ "\\clients\\a\\client1", "clients/a/client1", -1, false },
	{ "\\clients\\client1\\clients\\client1",
	  "clients/client1/clients/"
	  "client1",
	  8, false },
	{ "\\\\clients\\\\\\client1\\", "clients/client1", 8, false },
	{ "\\clients\\.\\client1", "clients/client1", 8, false },
	{ "\\\\a\\\\\\b\\.\\c\\", "a/b/c", -1, false },
	{ "./a/./b/.", "a/b", -1, false },
	{ "\\a\\...\\b", "a/.../b", -1, false },
	{ "\\a\\..b\\c..", "a/..b/c..", -1, false },
	{ "", "", -1, false },
	{ "\\", "", -1, false },
	{ "a b\\ c ", "a b/ c ", -1, false },
	{ "\\~dmtmp\\WORD\\~$CHAP10.DOC", "~dmtmp/WORD/~$CHAP10.DOC", -1,
	  false },
	{ "\\a$", "a$", -1, false },
	{ "\\a\\$0", "a/$0", -1, true },
	{ "\\clients\\client1\\f$12x", "clients/client1/f$12x", 8, true },
};

static void test_paths(void **state)
{
	struct tstate *ts = *state;
	size_t i;

	for (i = 0; i < sizeof(path_cases) / sizeof(path_cases[0]); i++) {
		const struct path_case *c = &path_cases[i];
		char *text = talloc_asprintf(ts->ctx,
					     "RANDOMSTRING 0 \"x\"\n"
					     "RANDOMSTRING 12 \"[ab]\"\n"
					     "Mkdir \"%s\" *\n",
					     c->raw);
		struct program *p = compile_ok(ts, text);
		const struct path *pp = program_path(p, &p->ops[2], 0);

		if (strcmp(pp->text, c->norm) != 0 ||
		    pp->client_pos != c->client_pos)
			fail_msg("'%s' -> '%s' pos %d, expected '%s' pos %d",
				 c->raw, pp->text, pp->client_pos, c->norm,
				 c->client_pos);
		assert_int_equal(pp->len, strlen(c->norm));
		assert_int_equal(pp->client_len, c->client_pos >= 0 ? 7 : 0);
		if (c->client_pos >= 0)
			assert_int_equal(strncasecmp(pp->text + pp->client_pos,
						     "client1", 7),
					 0);
		assert_int_equal(pp->has_random, c->has_random);
		assert_int_equal(pp->id, 0);
		assert_int_equal(p->npaths, 1);
		assert_ptr_equal(&p->paths[0], pp);
		talloc_free(p);
		talloc_free(text);
	}

	/* the longest path and component that are accepted */
	{
		char *comp = talloc_zero_size(ts->ctx, 256);
		char *text;
		struct program *p;

		memset(comp, 'c', 255);
		text = talloc_asprintf(ts->ctx,
				       "Mkdir \"\\%s\\%s\\%s\\%s\\"
				       "%s\\%s\\%s\\%s\\%s\\%s\\%s\\%s\\%s"
				       "\\%s\\%s\\%.255s\" *",
				       comp, comp, comp, comp, comp, comp, comp,
				       comp, comp, comp, comp, comp, comp, comp,
				       comp, comp);
		/* 16 components of 255 + 15 separators = 4095 */
		p = compile_ok(ts, text);
		assert_int_equal(program_path(p, &p->ops[0], 0)->len, 4095);
		talloc_free(p);
		talloc_free(text);
		talloc_free(comp);
	}
}

/*
 * What may be removed or moved: anything inside the client's directory
 * (in any case, with any separators), and the directory itself for
 * Deltree and Rmdir; paths outside it are fine for other commands.
 */
/* ---- dbench 5.0's smb dialect ---- */

static void test_smb5_dialect(void **state)
{
	struct tstate *ts = *state;
	/* lines both dialects share come first: the OPEN decides */
	struct program *p = compile_ok(
		ts, "Deltree \"/\" *\n"
		    "MKDIR \"\\d\" SUCCESS\n"
		    "OPEN \"\\d\\f\" 0x0c SUCCESS\n"
		    "WRITE \"/d/f\" 0 4096 SUCCESS\n"
		    "REPEAT 2\n"
		    "WRITE \"/d/f\" +4096 4096 ERROR\n"
		    "READ \"\\d\\f\" *%0x10000000/4096 4096 *\n"
		    "CLOSE \"\\d\\f\" SUCCESS\n"
		    "OPEN \"\\d\\g\" 0x01 ERROR\n"
		    "READDIR \"\\d\" SUCCESS\n"
		    "UNLINK \"\\d\\f\" SUCCESS\n"
		    "RMDIR \"\\d\" SUCCESS\n"
		    "Deltree \"\\d\" SUCCESS\n");
	static const enum op_kind kinds[] = {
		OP_DELTREE5, OP_MKDIR5, OP_OPEN5, OP_WRITE5, OP_REPEAT,
		OP_WRITE5, OP_READ5, OP_CLOSE5, OP_OPEN5, OP_READDIR5,
		OP_UNLINK5, OP_RMDIR5, OP_DELTREE5,
	};

	assert_int_equal(p->nops, 13);
	for (unsigned i = 0; i < p->nops; i++)
		assert_int_equal(p->ops[i].kind, kinds[i]);
	/* below the client's directory, substituted per client */
	assert_string_equal(program_path(p, &p->ops[0], 0)->text, "clients/client1");
	assert_string_equal(program_path(p, &p->ops[1], 0)->text, "clients/client1/d");
	assert_int_equal(program_path(p, &p->ops[1], 0)->client_pos, 8);
	assert_string_equal(program_path(p, &p->ops[2], 0)->text, "clients/client1/d/f");
	assert_int_equal(p->ops[3].path[0], p->ops[2].path[0]);
	/* the earlier paths were interned again: no stale ones */
	assert_int_equal(p->npaths, 4);
	/* one handle slot per opened path */
	assert_int_equal(p->nhandles, 2);
	assert_int_equal(p->ops[2].handle, 0);
	assert_int_equal(p->ops[3].handle, 0);
	assert_int_equal(p->ops[7].handle, 0);
	assert_int_equal(p->ops[8].handle, 1);
	assert_int_equal(p->ops[9].handle, -1);
	assert_int_equal(program_arg(p, &p->ops[2], 0).v, 0x0c);
	assert_int_equal(program_arg(p, &p->ops[5], 0).kind, VAL_RELATIVE);
	assert_int_equal(program_arg(p, &p->ops[6], 0).kind, VAL_RANDOM);
	assert_int_equal(program_arg(p, &p->ops[6], 0).nmods, 2);
	assert_int_equal(p->ops[1].check, STATUS_SUCCESS);
	assert_int_equal(p->ops[5].check, STATUS_FAILURE);
	assert_int_equal(p->ops[6].check, STATUS_ANY);
	talloc_free(p);

	/* without a line only dbench 5.0 has, the shared ones are
	 * client.txt's, as before */
	p = compile_ok(ts, "Mkdir \"\\clients\" SUCCESS\n"
			   "MKDIR \"\\clients\\client1\\x\" ERROR\n"
			   "Rmdir \"\\clients\\client1\\x\" *\n");
	assert_int_equal(p->ops[0].kind, OP_MKDIR);
	assert_int_equal(p->ops[1].kind, OP_MKDIR);
	assert_string_equal(program_path(p, &p->ops[1], 0)->text, "clients/client1/x");
	assert_int_equal(p->ops[2].kind, OP_RMDIR);
	talloc_free(p);
	/* a client.txt line decides too; CLOSE with a handle is Close */
	p = compile_ok(ts, "NTCreateX \"\\clients\\client1\\f\" 0 2 7 *\n"
			   "CLOSE 7 SUCCESS\n"
			   "UNLINK \"\\clients\\client1\\f\" SUCCESS\n");
	assert_int_equal(p->ops[1].kind, OP_CLOSE);
	assert_int_equal(p->ops[2].kind, OP_UNLINK);
	talloc_free(p);

	expect_error(ts, "OPEN \"\\f\" 0x0c SUCCESS\nClose 1 *\n", 2,
		     "Close is client.txt's dialect, but OPEN on line 1 is "
		     "dbench 5.0's smb dialect");
	expect_error(ts, "NTCreateX \"\\clients\\client1\\f\" 0 2 1 *\n"
			 "OPEN \"\\f\" 0x0c SUCCESS\n", 2,
		     "OPEN is dbench 5.0's smb dialect, but NTCreateX on "
		     "line 1 is client.txt's");
	expect_error(ts, "OPEN \"\\f\" 0x0c NT_STATUS_OK\n", 1,
		     "OPEN: expected SUCCESS, ERROR or * as the last field");
	expect_error(ts, "OPEN \"\\f\" 0x0c SUCCESS\nREAD \"\\g\" 0 1 *\n", 2,
		     "READ: \"\\g\" is never opened; expected an OPEN of it");
	expect_error(ts, "OPEN \"\\f\" SUCCESS\n", 1,
		     "OPEN: expected 'OPEN path flags status'");
	expect_error(ts, "OPEN \"\\..\\f\" 0 SUCCESS\n", 1, "'..' component");
	/* the names only dbench 5.0 has are its capitals */
	expect_error(ts, "Open \"\\f\" 0x0c SUCCESS\n", 1,
		     "unknown operation 'Open'");
	/* an undecided file's removals are client.txt's, confined as ever */
	expect_error(ts, "MKDIR \"\\foo\" SUCCESS\nRMDIR \"\\foo\" SUCCESS\n",
		     2, "outside the client's directory");
}

static void test_removal_confinement(void **state)
{
	struct tstate *ts = *state;
	struct program *p = compile_ok(
		ts, "Deltree \"\\clients\\client1\" *\n"
		    "Rmdir \"/clients/client1/\" *\n"
		    "Deltree \"\\CLIENTS\\Client1\\sub\" *\n"
		    "Unlink \"clients//client1/./f\" *\n"
		    "Rename \"\\clients\\client1\\a\" \"\\clients\\client1\\d\\b\" *\n"
		    "Mkdir \"\\shared\" *\n"
		    "NTCreateX \"\\shared\\f\" 0 0 1 *\n"
		    "Close 1 *\n"
		    "Qpathinfo \"\\\" 1004 *\n");

	assert_int_equal(p->nops, 9);
	assert_int_equal(p->ops[0].kind, OP_DELTREE);
	assert_string_equal(program_path(p, &p->ops[0], 0)->text,
			    "clients/client1");
	assert_int_equal(p->ops[1].kind, OP_RMDIR);
	assert_string_equal(program_path(p, &p->ops[2], 0)->text,
			    "CLIENTS/Client1/sub");
	assert_string_equal(program_path(p, &p->ops[3], 0)->text,
			    "clients/client1/f");
	assert_string_equal(program_path(p, &p->ops[4], 1)->text,
			    "clients/client1/d/b");
	talloc_free(p);
}

static void test_path_interning(void **state)
{
	struct tstate *ts = *state;
	/* Rename's paths must be inside the client's directory */
	struct program *p = compile_ok(
		ts, "Unlink \"\\clients\\client1\\a\\b\" *\n"
		    "Unlink \"/clients/client1//a//b/\" *\n"
		    "Rename \"clients/client1/a/./b\" \"\\clients\\client1\\c\" *\n"
		    "Unlink \"\\clients\\client1\\A\\b\" *\n"
		    "Rename \"\\clients\\client1\\c\" \"\\clients\\client1\\a\\b\" *\n");
	uint32_t i;

	assert_int_equal(p->npaths, 3);
	assert_int_equal(p->ops[0].path[0], p->ops[1].path[0]);
	assert_int_equal(p->ops[0].path[0], p->ops[2].path[0]);
	assert_int_equal(p->ops[2].path[1], p->ops[4].path[0]);
	assert_int_equal(p->ops[0].path[0], p->ops[4].path[1]);
	assert_int_not_equal(p->ops[0].path[0], p->ops[3].path[0]);
	for (i = 0; i < p->npaths; i++)
		assert_int_equal(p->paths[i].id, i);
	assert_string_equal(p->paths[0].text, "clients/client1/a/b");
	assert_string_equal(p->paths[1].text, "clients/client1/c");
	assert_string_equal(p->paths[2].text, "clients/client1/A/b");
	talloc_free(p);
}

/* many distinct paths: the intern table grows and still finds them all */
static void test_many_paths(void **state)
{
	struct tstate *ts = *state;
	struct sbuf b;
	struct program *p;
	int i;

	sb_init(ts, &b);
	for (i = 0; i < 5000; i++)
		sb_printf(&b, "Mkdir \"\\d\\f%d\" *\n", i);
	for (i = 4999; i >= 0; i--)
		sb_printf(&b, "Mkdir \"/d/f%d\" *\n", i);
	p = compile_ok(ts, b.s);
	assert_int_equal(p->npaths, 5000);
	for (i = 0; i < 5000; i++) {
		assert_int_equal(p->ops[i].path[0], p->ops[9999 - i].path[0]);
		assert_int_equal(program_path(p, &p->ops[i], 0)->id, i);
	}
	talloc_free(p);
	talloc_free(b.s);
}

/*
 * Every path knows its parent directory, interned program-wide: one
 * number per directory text (before the per-client substitution), the
 * root for a path of one component, none when the directory has a $i.
 */
static void test_path_dirs(void **state)
{
	struct tstate *ts = *state;
	struct program *p = compile_ok(
		ts, "RANDOMSTRING 0 \"[ab]\"\n"
		    "Mkdir \"\\clients\\client1\\d\" *\n"
		    "NTCreateX \"\\clients\\client1\\d\\f\" 0 2 1 *\n"
		    "Unlink \"/clients/client1/d/g\" *\n"
		    "Mkdir \"\\top\" *\n"
		    "Mkdir \"\\clients\\client1\\$0\" *\n"
		    "Mkdir \"\\clients\\client1\\$0\\x\" *\n"
		    "Rename \"\\clients\\client1\\d\\f\" "
		    "\"\\clients\\client1\\e\" *\n");
	const struct path *d = program_path(p, &p->ops[1], 0);
	const struct path *f = program_path(p, &p->ops[2], 0);
	const struct path *g = program_path(p, &p->ops[3], 0);

	assert_int_equal(p->dirs[PATH_DIR_ROOT].len, 0);
	assert_string_equal(p->dirs[PATH_DIR_ROOT].text, "");
	assert_true(d->dir != PATH_DIR_ROOT && d->dir < p->ndirs);
	assert_string_equal(p->dirs[d->dir].text, "clients/client1");
	assert_int_equal(p->dirs[d->dir].len, 15);
	assert_true(f->dir < p->ndirs && f->dir != d->dir);
	assert_string_equal(p->dirs[f->dir].text, "clients/client1/d");
	assert_int_equal(g->dir, f->dir);
	assert_int_equal(program_path(p, &p->ops[4], 0)->dir, PATH_DIR_ROOT);
	assert_int_equal(program_path(p, &p->ops[5], 0)->dir, d->dir);
	assert_int_equal(program_path(p, &p->ops[6], 0)->dir, PATH_DIR_NONE);
	assert_int_equal(program_path(p, &p->ops[7], 0)->dir, f->dir);
	assert_int_equal(program_path(p, &p->ops[7], 1)->dir, d->dir);
	/* "", "clients/client1", "clients/client1/d" */
	assert_int_equal(p->ndirs, 3);
	talloc_free(p);
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

/* ---- files and gzip ---- */

struct tdir {
	char *path;
};

static char *make_dir(struct tstate *ts)
{
	char *tmpl = talloc_strdup(ts->ctx, "/dev/shm/test_loadfile.XXXXXX");

	assert_non_null(tmpl);
	if (mkdtemp(tmpl) == NULL) {
		/* no /dev/shm: fall back to /tmp */
		talloc_free(tmpl);
		tmpl = talloc_strdup(ts->ctx, "/tmp/test_loadfile.XXXXXX");
		assert_non_null(mkdtemp(tmpl));
	}
	return tmpl;
}

static char *write_file(struct tstate *ts, const char *dir, const char *name,
			const void *data, size_t len)
{
	char *path = talloc_asprintf(ts->ctx, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static char *write_gz_mode(struct tstate *ts, const char *dir, const char *name,
			   const void *data, size_t len, const char *mode)
{
	char *path = talloc_asprintf(ts->ctx, "%s/%s", dir, name);
	gzFile gz = gzopen(path, mode);

	assert_non_null(gz);
	while (len > 0) {
		unsigned n = len > (1u << 30) ? (1u << 30) : (unsigned)len;

		assert_int_equal(gzwrite(gz, data, n), (int)n);
		data = (const char *)data + n;
		len -= n;
	}
	assert_int_equal(gzclose(gz), Z_OK);
	return path;
}

static char *write_gz(struct tstate *ts, const char *dir, const char *name,
		      const void *data, size_t len)
{
	return write_gz_mode(ts, dir, name, data, len, "wb6");
}

static void *read_all(struct tstate *ts, const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = talloc_size(ts->ctx, (size_t)n);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void expect_file_error(struct tstate *ts, const char *path,
			      const char *want)
{
	size_t before = talloc_total_blocks(ts->ctx);
	char *err = NULL;
	struct program *p = program_compile(ts->ctx, path, &err);

	if (p != NULL)
		fail_msg("%s compiled, expected '%s'", path, want);
	assert_non_null(err);
	if (strncmp(err, path, strlen(path)) != 0 || strstr(err, want) == NULL)
		fail_msg("error '%s', expected '%s: ...%s...'", err, path,
			 want);
	assert_int_equal(talloc_total_blocks(ts->ctx), before + 1);
	talloc_free(err);
}

static const char small_loadfile[] =
	"# small\n"
	"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 9938 NT_STATUS_OK\n"
	"WriteX 9938 0 65536 65536 NT_STATUS_OK\n"
	"ReadX 9938 0 65536 65536 NT_STATUS_OK\n"
	"Close 9938 NT_STATUS_OK\n";

static void check_small(struct program *p)
{
	assert_int_equal(p->nops, 4);
	assert_int_equal(p->nlines, 5);
	assert_int_equal(p->ops[3].kind, OP_CLOSE);
	assert_int_equal(p->ops[3].line, 5);
	assert_int_equal(program_arg_v(p, &p->ops[2], 1), 65536);
	assert_string_equal(program_path(p, &p->ops[0], 0)->text,
			    "clients/client1/f");
}

static void test_files(void **state)
{
	struct tstate *ts = *state;
	char *dir = make_dir(ts);
	char *plain = write_file(ts, dir, "plain.txt", small_loadfile,
				 sizeof(small_loadfile) - 1);
	char *gz = write_gz(ts, dir, "c.txt.gz", small_loadfile,
			    sizeof(small_loadfile) - 1);
	char *missing = talloc_asprintf(ts->ctx, "%s/missing.txt", dir);
	char *trunc, *corrupt, *bad_line, *empty, *msg;
	unsigned char *gzdata;
	size_t gzlen;
	struct program *p;
	char *err = NULL;

	p = program_compile(ts->ctx, plain, &err);
	assert_non_null(p);
	assert_null(err);
	check_small(p);
	assert_string_equal(p->filename, plain);
	talloc_free(p);

	p = program_compile(ts->ctx, gz, &err);
	assert_non_null(p);
	check_small(p);
	talloc_free(p);

	/* a truncated gzip stream: an error, not a partial program */
	gzdata = read_all(ts, gz, &gzlen);
	trunc = write_gz(ts, dir, "big.gz", small_loadfile,
			 sizeof(small_loadfile) - 1);
	talloc_free(trunc);
	trunc = write_file(ts, dir, "trunc.gz", gzdata, gzlen - 12);
	expect_file_error(ts, trunc, "truncated gzip data");
	talloc_free(trunc);
	trunc = write_file(ts, dir, "trunc2.gz", gzdata, gzlen / 2);
	expect_file_error(ts, trunc, "truncated gzip data");
	talloc_free(trunc);
	/* only the 8-byte trailer missing: the data is all there */
	trunc = write_file(ts, dir, "trunc3.gz", gzdata, gzlen - 8);
	expect_file_error(ts, trunc, "truncated gzip data");
	talloc_free(trunc);

	/* a corrupt stream: bad CRC, then bad deflate data */
	gzdata[gzlen - 6] ^= 0xff;
	corrupt = write_file(ts, dir, "crc.gz", gzdata, gzlen);
	expect_file_error(ts, corrupt, "corrupt gzip data");
	talloc_free(corrupt);
	gzdata[gzlen - 6] ^= 0xff;
	gzdata[10] = 0xff; /* first deflate block: reserved type 3 */
	gzdata[11] = 0xff;
	corrupt = write_file(ts, dir, "data.gz", gzdata, gzlen);
	expect_file_error(ts, corrupt, "corrupt gzip data");
	talloc_free(corrupt);
	talloc_free(gzdata);

	/* errors inside a gzip file carry the decompressed line number */
	msg = talloc_asprintf(ts->ctx, "%s\nQfsinfo 1 bogus\n", small_loadfile);
	bad_line = write_gz(ts, dir, "bad.gz", msg, strlen(msg));
	talloc_free(msg);
	msg = talloc_asprintf(ts->ctx, "%s:7: ", bad_line);
	expect_file_error(ts, bad_line, msg);
	talloc_free(msg);

	empty = write_gz(ts, dir, "empty.gz", "", 0);
	expect_file_error(ts, empty, "no operations");
	unlink(empty);
	talloc_free(empty);
	empty = write_file(ts, dir, "empty.txt", "", 0);
	expect_file_error(ts, empty, "no operations");

	msg = talloc_asprintf(ts->ctx, ": %s", strerror(ENOENT));
	expect_file_error(ts, missing, msg);
	talloc_free(msg);
	msg = talloc_asprintf(ts->ctx, ": %s", strerror(EISDIR));
	expect_file_error(ts, dir, msg);
	talloc_free(msg);

	/* err may be NULL */
	assert_null(program_compile(ts->ctx, missing, NULL));

	unlink(plain);
	unlink(gz);
	unlink(bad_line);
	unlink(empty);
	unlink(talloc_asprintf(ts->ctx, "%s/trunc.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/trunc2.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/trunc3.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/crc.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/data.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/big.gz", dir));
	assert_int_equal(rmdir(dir), 0);
	talloc_free_children(ts->ctx);
}

/*
 * A file much larger than the read window, with lines of every length
 * (up to 300 KiB), compiles from plain text, from gzip and from memory to
 * the same program: lines that straddle window refills are read whole.
 */
static void test_window(void **state)
{
	struct tstate *ts = *state;
	char *dir = make_dir(ts);
	struct sbuf sb;
	char *text;
	char *pattern = talloc_zero_size(ts->ctx, 300 * 1024 + 1);
	char *plain, *gz;
	struct program *p[3];
	char *err = NULL;
	size_t len;
	uint32_t i;
	int k;

	for (i = 0; i < 300 * 1024; i++)
		pattern[i] = (char)('a' + i % 26);
	sb_init(ts, &sb);
	for (i = 0; i < 60000; i++) {
		if (i % 1000 == 7)
			sb_printf(&sb, "WRITEPATTERN %.*s\n",
				  (int)(i * 61 % 300000) + 1, pattern);
		else
			sb_printf(&sb, "Qpathinfo \"\\d%u\\f%u\" %u *\r\n", i % 97,
				  i, i);
	}
	text = sb.s;
	len = sb.len;
	assert_true(len > 4 * (1u << 20));
	plain = write_file(ts, dir, "w.txt", text, len);
	gz = write_gz(ts, dir, "w.gz", text, len);
	p[0] = compile_ok_len(ts, text, len);
	p[1] = program_compile(ts->ctx, plain, &err);
	assert_non_null(p[1]);
	p[2] = program_compile(ts->ctx, gz, &err);
	assert_non_null(p[2]);
	for (k = 1; k < 3; k++) {
		assert_int_equal(p[k]->nops, p[0]->nops);
		assert_int_equal(p[k]->npaths, p[0]->npaths);
		assert_int_equal(p[k]->nlines, 60000);
		for (i = 0; i < p[0]->nops; i++) {
			const struct op *a = &p[0]->ops[i], *b = &p[k]->ops[i];

			assert_int_equal(a->kind, b->kind);
			assert_int_equal(a->line, b->line);
			assert_int_equal(program_arg_v(p[0], a, 0),
					 program_arg_v(p[k], b, 0));
			if (a->kind == OP_WRITEPATTERN) {
				const struct program_text *ta =
					&p[0]->texts[a->text];
				const struct program_text *tb =
					&p[k]->texts[b->text];

				assert_int_equal(ta->len, tb->len);
				assert_memory_equal(ta->p, tb->p, ta->len);
			} else if (program_path(p[0], a, 0) != NULL) {
				assert_string_equal(
					program_path(p[0], a, 0)->text,
					program_path(p[k], b, 0)->text);
			}
		}
	}
	assert_int_equal(p[0]->texts[p[0]->ops[7].text].len, 7 * 61 + 1);
	assert_int_equal(program_arg_v(p[0], &p[0]->ops[59999], 0), 59999);
	for (k = 0; k < 3; k++)
		talloc_free(p[k]);

	/* an over-long line inside a file, plain and gzip */
	talloc_free(text);
	text = talloc_size(ts->ctx, (3u << 20));
	memset(text, 'y', 3u << 20);
	memcpy(text, "Qfsinfo 1 *\nQfsinfo 2 *\n", 24);
	unlink(plain);
	unlink(gz);
	plain = write_file(ts, dir, "w.txt", text, 3u << 20);
	gz = write_gz(ts, dir, "w.gz", text, 3u << 20);
	expect_file_error(ts, plain, ":3: line longer than 1048576 bytes");
	expect_file_error(ts, gz, ":3: line longer than 1048576 bytes");

	unlink(plain);
	unlink(gz);
	assert_int_equal(rmdir(dir), 0);
	talloc_free_children(ts->ctx);
}

/*
 * The 1 GiB cap on decompressed input: 1025 copies of a gzip member that
 * holds 1 MiB of comment lines (zlib reads concatenated members as one
 * stream), so the file is small and the test quick.
 */
static void test_input_cap(void **state)
{
	struct tstate *ts = *state;
	char *dir = make_dir(ts);
	size_t mib = 1u << 20, i, gzlen;
	char *text = talloc_size(ts->ctx, mib);
	char *member, *path, *big;
	unsigned char *gzdata;
	FILE *f;

	for (i = 0; i < mib; i += 1024) {
		memset(text + i, 'x', 1023);
		text[i] = '#';
		text[i + 1023] = '\n';
	}
	/* level 1: its short matches inflate several times faster */
	member = write_gz_mode(ts, dir, "member.gz", text, mib, "wb1");
	gzdata = read_all(ts, member, &gzlen);
	big = talloc_asprintf(ts->ctx, "%s/big.gz", dir);
	f = fopen(big, "wb");
	assert_non_null(f);
	for (i = 0; i < 1025; i++)
		assert_int_equal(fwrite(gzdata, 1, gzlen, f), gzlen);
	assert_int_equal(fclose(f), 0);
	expect_file_error(ts, big, "input larger than 1073741824 bytes");

	/* 1024 copies are exactly 1 GiB: accepted (and then empty) */
	path = talloc_asprintf(ts->ctx, "%s/max.gz", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	for (i = 0; i < 1024; i++)
		assert_int_equal(fwrite(gzdata, 1, gzlen, f), gzlen);
	assert_int_equal(fclose(f), 0);
	expect_file_error(ts, path, "no operations");

	unlink(member);
	unlink(big);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	talloc_free_children(ts->ctx);
}

/* ---- Debian's client.txt ---- */

static void test_debian_client_txt(void **state)
{
	struct tstate *ts = *state;
	/* counted with: awk '{print $1}' client.txt | sort | uniq -c */
	static const struct {
		enum op_kind kind;
		uint32_t count;
	} counts[] = {
		{ OP_READX, 124199 },	 { OP_NTCREATEX, 79230 },
		{ OP_QPATHINFO, 71814 }, { OP_CLOSE, 58200 },
		{ OP_WRITEX, 39502 },	 { OP_FIND, 27765 },
		{ OP_UNLINK, 16000 },	 { OP_QFSINFO, 13168 },
		{ OP_QFILEINFO, 12585 }, { OP_SFILEINFO, 6454 },
		{ OP_FLUSH, 5553 },	 { OP_RENAME, 3355 },
		{ OP_UNLOCKX, 258 },	 { OP_LOCKX, 258 },
		{ OP_DELTREE, 2 },	 { OP_MKDIR, 1 },
	};
	uint32_t seen[OP_NUM_KINDS] = { 0 };
	struct program *p;
	char *err = NULL;
	uint32_t i, nstatus[4] = { 0 };
	size_t k;

	if (access(DEBIAN_CLIENT_TXT, R_OK) != 0)
		skip();
	p = program_compile(ts->ctx, DEBIAN_CLIENT_TXT, &err);
	if (p == NULL)
		fail_msg("%s", err);
	/* wc -l client.txt */
	assert_int_equal(p->nops, 458344);
	assert_int_equal(p->nlines, 458344);
	assert_false(p->timed);
	assert_int_equal(p->nrandom, 0);
	assert_int_equal(p->max_loop_depth, 0);
	/* grep -o '"[^"]*"' client.txt | sort -u | wc -l */
	assert_int_equal(p->npaths, 261);
	for (i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];

		seen[op->kind]++;
		nstatus[op->check]++;
		assert_int_equal(op->line, i + 1);
		assert_true(op->handle < (int32_t)p->nhandles);
		assert_true((op->handle >= 0) == op_info[op->kind].has_handle);
	}
	for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
		assert_int_equal(seen[counts[k].kind], counts[k].count);
	/* awk '{print $NF}' client.txt | sort | uniq -c */
	assert_int_equal(nstatus[STATUS_SUCCESS], 398601);
	assert_int_equal(nstatus[STATUS_EXACT], 14328 + 45286 + 129);
	assert_int_equal(nstatus[STATUS_ANY] + nstatus[STATUS_FAILURE], 0);

	/* the first lines, field by field */
	assert_int_equal(p->ops[0].kind, OP_DELTREE);
	assert_string_equal(program_path(p, &p->ops[0], 0)->text,
			    "clients/client1");
	assert_int_equal(program_path(p, &p->ops[0], 0)->client_pos, 8);
	assert_int_equal(p->ops[2].kind, OP_NTCREATEX);
	assert_int_equal(program_arg_v(p, &p->ops[2], 0), 1);
	assert_int_equal(program_arg_v(p, &p->ops[2], 1), 2);
	assert_int_equal(p->ops[3].handle, p->ops[2].handle);
	assert_int_equal(p->ops[4].status, NT_STATUS_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(p->ops[6].kind, OP_FIND);
	assert_string_equal(program_path(p, &p->ops[6], 0)->text,
			    "clients/client1/FILLER.*");
	assert_int_equal(program_arg_v(p, &p->ops[6], 1), 1366);
	talloc_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_op_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_op_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(test_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_depth, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_binary_and_limits, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_line_forms, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_timed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_removal_confinement, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_smb5_dialect, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_path_interning, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_path_dirs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_value_table, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_many_paths, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_handles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_handles, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_texts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_input_cap, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_debian_client_txt, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
