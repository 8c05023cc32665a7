/*
 * loadfile_helpers.h - what the loadfile compiler's unit test programs
 * share (test_loadfile*.c): compiling a text that must compile or must
 * fail with a given message at a given line, a growing buffer for
 * generated loadfiles, and the cmocka fixture.  The helpers are static
 * inline so that a program using only some of them builds warning-free.
 */
#ifndef DBENCH_LOADFILE_HELPERS_H
#define DBENCH_LOADFILE_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <talloc.h>

#include "loadfile/ntstatus.h"
#include "loadfile/program.h"

#include "talloc_fixture.h"

#define H "NTCreateX \"\\f\" 0 0 77 *\n" /* opens handle 77 -> slot 0 */

static inline struct program *compile_ok_len(struct tstate *ts, const char *text,
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

static inline struct program *compile_ok(struct tstate *ts, const char *text)
{
	return compile_ok_len(ts, text, strlen(text));
}

/*
 * Compile text that must fail at line (0: a message without a line) with
 * a message containing want; nothing but the message may stay allocated.
 */
static inline void expect_error_len(struct tstate *ts, const char *text, size_t len,
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

static inline void expect_error(struct tstate *ts, const char *text, unsigned line,
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

static inline void sb_init(struct tstate *ts, struct sbuf *b)
{
	b->cap = 4096;
	b->len = 0;
	b->s = talloc_size(ts->ctx, b->cap);
	assert_non_null(b->s);
	b->s[0] = '\0';
}

static inline void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void sb_printf(struct sbuf *b, const char *fmt, ...)
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

#endif
