/*
 * test_memcheck.c - the estimate of the data one client may hold at once
 * (memcheck_program_bytes): pages, sparse writes, loops, relative
 * offsets, removals, renames and Deltree, and a pass that starts from
 * what the previous one left; and the meminfo reader.
 */
#include "config.h"

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

#include "safety/memcheck.h"
#include "loadfile/program.h"

#include "talloc_fixture.h"

#define K 1024ull
#define P "NTCreateX \"\\clients\\client1\\"

struct est_case {
	const char *text;
	uint64_t want;
};

/* clang-format off */
static const struct est_case est_cases[] = {
	/* one 64 KiB file; a 1-byte write takes a page */
	{ P "a\" 0 2 1 *\nWriteX 1 0 65536 65536 *\nClose 1 *\n", 64 * K },
	{ P "a\" 0 2 1 *\nWriteX 1 0 1 1 *\nClose 1 *\n", 4 * K },
	/* sparse: a write at 1 TB holds its pages, not the hole (the
	 * second pass's write counts again: the estimate cannot tell the
	 * same pages of a sparse file from new ones) */
	{ P "a\" 0 2 1 *\nWriteX 1 1099511627776 8192 8192 *\n", 16 * K },
	/* a file removed before the next is made: the larger one */
	{ P "a\" 0 2 1 *\nWriteX 1 0 65536 65536 *\nClose 1 *\n"
	  "Unlink \"\\clients\\client1\\a\" 0x16 *\n"
	  P "b\" 0 2 2 *\nWriteX 2 0 8192 8192 *\nClose 2 *\n"
	  "Unlink \"\\clients\\client1\\b\" 0x16 *\n", 64 * K },
	/* ... but kept at the end of a pass: there when the next makes a */
	{ P "a\" 0 2 1 *\nWriteX 1 0 65536 65536 *\nClose 1 *\n"
	  "Unlink \"\\clients\\client1\\a\" 0x16 *\n"
	  P "b\" 0 2 2 *\nWriteX 2 0 8192 8192 *\nClose 2 *\n", 72 * K },
	/* both kept: the sum; the second pass rewrites the same bytes */
	{ P "a\" 0 2 1 *\nWriteX 1 0 65536 65536 *\nClose 1 *\n"
	  P "b\" 0 2 2 *\nWriteX 2 0 8192 8192 *\nClose 2 *\n", 72 * K },
	/* LOOP 100 of relative 4 KiB appends: 400 KiB a pass, and the
	 * offsets go on growing in the second */
	{ P "a\" 0 2 1 *\nLOOP 100\nWriteX 1 +4096 4096 4096 *\nENDLOOP\n",
	  800 * K },
	/* REPEAT 10 of the same write: one page range, written 10 times */
	{ P "a\" 0 2 1 *\nREPEAT 10\nWriteX 1 0 4096 4096 *\n", 4 * K },
	/* renamed: its figures move (counted once); the next pass's a
	 * sits beside the b the first left */
	{ P "a\" 0 2 1 *\nWriteX 1 0 65536 65536 *\nClose 1 *\n"
	  "Rename \"\\clients\\client1\\a\" \"\\clients\\client1\\b\" *\n",
	  128 * K },
	/* Deltree at the start of each pass: one pass's files */
	{ "Deltree \"\\clients\\client1\" *\n"
	  "Mkdir \"\\clients\" *\nMkdir \"\\clients\\client1\" *\n"
	  P "a\" 0 2 1 *\nWriteX 1 0 65536 65536 *\nClose 1 *\n", 64 * K },
	/* a random offset below 1 MiB, 4 KiB long, in each of the passes */
	{ P "a\" 0 2 1 *\nWriteX 1 *%1048576 4096 4096 *\n", 8 * K },
	/* dbench 5.0's smb dialect: WRITE by path */
	{ "OPEN \"/client1/x\" 0x0e SUCCESS\n"
	  "WRITE \"/client1/x\" 0 131072 SUCCESS\n", 128 * K },
};
/* clang-format on */

static void test_estimate(void **state)
{
	struct tstate *ts = *state;

	for (size_t i = 0; i < sizeof(est_cases) / sizeof(est_cases[0]); i++) {
		const struct est_case *c = &est_cases[i];
		char *err = NULL;
		struct program *p = program_compile_buffer(
			ts->ctx, "t.txt", c->text, strlen(c->text), &err);

		if (p == NULL)
			fail_msg("case %zu: %s", i, err);
		if (memcheck_program_bytes(p, 0) != c->want)
			fail_msg("case %zu: %llu bytes, expected %llu", i,
				 (unsigned long long)memcheck_program_bytes(p, 0),
				 (unsigned long long)c->want);
		talloc_free(p);
	}
}

/* --trunc-io caps each write */
static void test_trunc(void **state)
{
	struct tstate *ts = *state;
	const char *text = P "a\" 0 2 1 *\nWriteX 1 0 65536 65536 *\n";
	struct program *p = program_compile_buffer(ts->ctx, "t.txt", text,
						   strlen(text), NULL);

	assert_non_null(p);
	assert_int_equal(memcheck_program_bytes(p, 4096), 4 * K);
	talloc_free(p);
}

/* The meminfo file of $DBENCH_TEST_MEMINFO, and "low" under 1/20. */
static void test_meminfo(void **state)
{
	char path[] = "/dev/shm/test_memcheck.XXXXXX";
	int fd = mkstemp(path);
	uint64_t total = 0, avail = 0;
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "MemTotal:        2000000 kB\nMemFree: 5 kB\n"
		   "MemAvailable:      99999 kB\n");
	fclose(f);
	setenv(MEMCHECK_TEST_ENV, path, 1);
	assert_int_equal(memcheck_meminfo(&total, &avail), 0);
	assert_int_equal(total, 2000000 * K);
	assert_int_equal(avail, 99999 * K);
	assert_true(memcheck_low(&total, &avail));
	f = fopen(path, "w");
	fprintf(f, "MemTotal: 2000000 kB\nMemAvailable: 100000 kB\n");
	fclose(f);
	assert_false(memcheck_low(&total, &avail));
	f = fopen(path, "w");
	fprintf(f, "MemTotal: 2000000 kB\n");
	fclose(f);
	assert_int_equal(memcheck_meminfo(&total, &avail), -1);
	assert_false(memcheck_low(&total, &avail));
	unsetenv(MEMCHECK_TEST_ENV);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_estimate),
		T(test_trunc),
		T(test_meminfo),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
