/*
 * loadfile.c - compile a loadfile (plain text or gzip) into a struct
 * program: typed ops with decoded numbers, interned and normalised paths,
 * dense handle slots, matched LOOP/ENDLOOP pairs.  This file holds the
 * entry points, the per-line dispatch and the whole-file checks; the
 * parts are listed in lf_private.h.
 *
 * The input is read once, line by line, through a bounded window (a line
 * may be at most LF_MAX_LINE bytes; the whole input at most LF_MAX_INPUT
 * bytes after decompression).  Each line is split in place by a small
 * hand-written tokenizer; nothing is copied except what the program keeps
 * (one copy of each distinct path, WRITEPATTERN and RANDOMSTRING texts).
 * Checks that need the whole file (handles never opened, $i without its
 * RANDOMSTRING, unclosed LOOPs) run once at the end.
 *
 * Any error stops the compilation; the message names the file and line,
 * quotes what was found and says what was expected.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include <talloc.h>
#include <zlib.h>

#include "loadfile/program.h"
#include "lf_private.h"

/* The leading time "12.345": digits, '.', digits. */
static int lf_time(struct lf_state *st, const char *p, size_t len, double *out)
{
	double v = 0, scale = 1;
	size_t i = 0;

	while (i < len && p[i] >= '0' && p[i] <= '9')
		v = v * 10 + (p[i++] - '0');
	if (i < len && p[i] == '.') {
		for (i++; i < len && p[i] >= '0' && p[i] <= '9'; i++) {
			scale /= 10;
			v += (p[i] - '0') * scale;
		}
	}
	if (i != len || !isfinite(v))
		return lf_error(st,
				"bad time '%s'; expected seconds such as "
				"12.345 before the command",
				lf_show(st, p, len));
	if (v > LF_MAX_TIME)
		return lf_error(st,
				"time '%s' is more than %.0f seconds (31 "
				"years) into the pass; expected a smaller "
				"timestamp",
				lf_show(st, p, len), LF_MAX_TIME);
	*out = v;
	return 0;
}

/* Checks between an op and the one before it (REPEAT). */
static int lf_sequence(struct lf_state *st, const struct op *op)
{
	if (st->repeat_pending) {
		st->repeat_pending = false;
		if (op->kind == OP_LOOP || op->kind == OP_ENDLOOP ||
		    op->kind == OP_REPEAT)
			return lf_error(st,
					"%s after REPEAT (line %u); expected "
					"an operation to repeat",
					lf_op_name(op), st->repeat_line);
	}
	return 0;
}

/*
 * Strip what surrounds the command of line *p (*len bytes): a UTF-8 byte
 * order mark on the first line, the CR of a CRLF, blanks.  Sets *start to
 * its first byte.  Returns 1 if the line has a command, 0 if it is blank
 * or a comment, -1 after an error.
 */
static int lf_line_trim(struct lf_state *st, const char **p, size_t *len,
			size_t *start)
{
	const char *s = *p;
	size_t n = *len, i = 0;

	if (memchr(s, '\0', n) != NULL)
		return lf_error(st, "binary data (a NUL byte); expected a text "
				    "loadfile");
	/* a UTF-8 byte order mark, as some Windows editors write */
	if (st->line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3;
		n -= 3;
	}
	if (n > 0 && s[n - 1] == '\r')
		n--;
	while (n > 0 && lf_is_space(s[n - 1]))
		n--;
	while (i < n && lf_is_space(s[i]))
		i++;
	*p = s;
	*len = n;
	*start = i;
	return i == n || s[i] == '#' ? 0 : 1;
}

/*
 * The command word p[*w..*w + *wlen) of a line whose first word starts
 * at *i, after the time that may come first (then *t is set).  Leaves
 * *i just past the command word.
 */
static int lf_command_word(struct lf_state *st, const char *p, size_t len,
			   size_t *i, size_t *w, size_t *wlen, double *t)
{
	size_t j = *i, start = j, n;

	while (j < len && !lf_is_space(p[j]))
		j++;
	n = j - start;
	if (p[start] >= '0' && p[start] <= '9' &&
	    memchr(p + start, '.', n) != NULL) {
		if (lf_time(st, p + start, n, t) != 0)
			return -1;
		while (j < len && lf_is_space(p[j]))
			j++;
		if (j == len)
			return lf_error(st,
					"a time but no command; expected "
					"e.g. '%s ReadX ...'",
					lf_show(st, p + start, n));
		start = j;
		while (j < len && !lf_is_space(p[j]))
			j++;
		n = j - start;
	}
	*i = j;
	*w = start;
	*wlen = n;
	return 0;
}

/* The error for a command word w[0..wlen) that names no command. */
static int lf_unknown_command(struct lf_state *st, const char *w, size_t wlen)
{
	if (wlen >= 3 && strncmp(w, "SMB", 3) == 0)
		return lf_error(st,
				"'%s': this is a dbench-1 loadfile "
				"(SMB commands), which is not supported; "
				"expected NTCreateX, ReadX, WriteX, ...",
				lf_show(st, w, wlen));
	return lf_error(st,
			"unknown operation '%s'; expected a command "
			"such as NTCreateX, ReadX, WriteX or LOOP",
			lf_show(st, w, wlen));
}

/* Compile one line. */
static int lf_line(struct lf_state *st, const char *p, size_t len)
{
	struct lf_field f[LF_MAX_FIELDS];
	size_t i = 0, w = 0, wlen = 0;
	unsigned nf = 0;
	double t = -1;
	struct op *op;
	int kind, rc;

	rc = lf_line_trim(st, &p, &len, &i);
	if (rc <= 0)
		return rc;
	if (lf_command_word(st, p, len, &i, &w, &wlen, &t) != 0)
		return -1;
	kind = op_kind_from_name(p + w, wlen);
	if (kind < 0)
		return lf_unknown_command(st, p + w, wlen);

	op = lf_new_op(st);
	if (op == NULL)
		return -1;
	op->kind = (uint8_t)kind;
	if (lf_set_time(st, st->prog->nops - 1, t) != 0 ||
	    lf_sequence(st, op) != 0)
		return -1;

	if (kind == OP_WRITEPATTERN)
		return lf_writepattern(st, op, p, len, i);
	if (lf_split(st, p, len, w, f, &nf) != 0)
		return -1;
	if (lf_dialect(st, op, f, nf) != 0)
		return -1;
	return lf_command(st, op, f, nf);
}

/* ---- whole-file checks ---- */

/* The checks that need the whole file, then the arrays trimmed. */
static int lf_finish(struct lf_state *st)
{
	struct program *prog = st->prog;

	prog->nlines = st->line;
	if (st->dialect == LF_UNDECIDED &&
	    lf_confine_earlier(st, prog->nops) != 0)
		return -1;
	if (prog->nops > 0 && lf_one_dialect(st) != 0)
		return -1;
	if (prog->nops == 0)
		return lf_file_error(st, "no operations (the file is empty or "
					 "has only comments and blank lines)");
	if (st->loop_depth > 0) {
		st->line = prog->ops[st->loop_stack[st->loop_depth - 1]].line;
		return lf_error(st, "LOOP without a matching ENDLOOP");
	}
	if (st->repeat_pending) {
		st->line = st->repeat_line;
		return lf_error(st, "REPEAT is the last command; expected a "
				    "command after it to repeat");
	}
	if (lf_check_handles(st) != 0 || lf_check_randoms(st) != 0 ||
	    lf_check_random_dots(st) != 0)
		return -1;
	lf_trim(st);
	return 0;
}

/* ---- entry points ---- */

static struct program *lf_run(struct lf_state *st)
{
	const char *line = NULL;
	size_t len = 0;
	int rc;

	st->prog = talloc_zero(st->mem_ctx, struct program);
	st->tmp = talloc_new(st->mem_ctx);
	if (st->prog == NULL || st->tmp == NULL) {
		lf_nomem(st);
		goto fail;
	}
	st->prog->filename = talloc_strdup(st->prog, st->name);
	if (st->prog->filename == NULL) {
		lf_nomem(st);
		goto fail;
	}
	st->ops.elem = sizeof(struct op);
	st->times.elem = sizeof(double);
	if (lf_dirs_init(st) != 0)
		goto fail;
	if (st->gz != NULL) {
		st->win_cap = LF_MAX_LINE + 1 + LF_READ_CHUNK;
		st->win = talloc_size(st->tmp, st->win_cap);
		if (st->win == NULL) {
			lf_nomem(st);
			goto fail;
		}
	}

	while ((rc = lf_next_line(st, &line, &len)) > 0) {
		if (lf_line(st, line, len) != 0)
			goto fail;
	}
	if (rc < 0 || lf_finish(st) != 0)
		goto fail;
	talloc_free(st->tmp);
	if (!st->ops.area)
		lf_huge_ops(st->prog);
	return st->prog;

fail:
	talloc_free(st->tmp);
	talloc_free(st->prog);
	return NULL;
}

struct program *program_compile_buffer(void *mem_ctx, const char *name,
				       const char *buf, size_t len, char **err)
{
	struct lf_state st = {
		.mem_ctx = mem_ctx,
		.name = name != NULL ? name : "(buffer)",
		.err = err,
		.buf = buf != NULL ? buf : "",
		.buf_len = buf != NULL ? len : 0,
		.ops_bound = buf != NULL ? len / 2 + 1 : 0,
	};

	if (err != NULL)
		*err = NULL;
	if (st.buf_len > LF_MAX_INPUT) {
		lf_file_error(&st,
			      "input larger than %llu bytes; not a "
			      "loadfile?",
			      (unsigned long long)LF_MAX_INPUT);
		return NULL;
	}
	return lf_run(&st);
}

struct program *program_compile(void *mem_ctx, const char *filename, char **err)
{
	struct lf_state st = {
		.mem_ctx = mem_ctx,
		.name = filename,
		.err = err,
	};
	struct program *prog;
	struct stat sb;

	if (err != NULL)
		*err = NULL;
	errno = 0;
	st.gz = gzopen(filename, "rb");
	if (st.gz == NULL) {
		if (errno != 0)
			lf_file_error(&st, "%s", strerror(errno));
		else
			lf_nomem(&st);
		return NULL;
	}
	gzbuffer(st.gz, 256 * 1024);
	/* the most ops any file can have, where it is a large one (a small
	 * gzip file with many lines gets its huge pages by lf_huge_ops) */
	if (stat(filename, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (uint64_t)sb.st_size / 2 >= LF_AREA_MIN_OPS)
		st.ops_bound = LF_MAX_INPUT / 2;
	prog = lf_run(&st);
	gzclose_r(st.gz);
	return prog;
}
