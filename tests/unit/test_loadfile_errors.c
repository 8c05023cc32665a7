/*
 * test_loadfile_errors.c - unit tests of the loadfile compiler's parse
 * errors (every error with its line and message, LOOP depth, NUL bytes
 * and over-long lines) and of the input forms a line may take (CRLF,
 * tabs, a missing last newline, timed lines).
 */
#include "config.h"

#include "loadfile_helpers.h"

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
	/* removals and renames stay inside \clients\client1 */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_binary_and_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_line_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
