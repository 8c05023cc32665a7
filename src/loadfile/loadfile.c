/*
 * loadfile.c - compile a loadfile (plain text or gzip) into a struct
 * program: typed ops with decoded numbers, interned and normalised paths,
 * dense handle slots, matched LOOP/ENDLOOP pairs.
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
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <talloc.h>
#include <zlib.h>

#include "ntstatus.h"
#include "util.h"
#include "program.h"

#define LF_MAX_LINE	  (1u << 20)   /* bytes, without the line end */
#define LF_MAX_INPUT	  (1ull << 30) /* bytes, after decompression */
#define LF_READ_CHUNK	  (1u << 20)   /* bytes asked of gzread at once */
#define LF_MAX_LOOP_DEPTH 64
#define LF_MAX_COMPONENT  255
#define LF_MAX_PATH	  4095
#define LF_MAX_RANDOM	  99 /* highest RANDOMSTRING index */
#define LF_MAX_FIELDS	  8  /* more than any command has */
#define LF_MAX_MODS	  16 /* modifiers after one '*' */
#define LF_SHOW_MAX	  40 /* bytes of a token quoted in errors */
#define LF_MAX_TIME	  1e9 /* seconds (31 years): nanoseconds fit in 63 bits */

#define LF_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* One whitespace-separated field of a line; quoted ones without quotes. */
struct lf_field {
	const char *p;
	size_t len;
	bool quoted;
};

/* A loadfile handle number and the dense slot it was given. */
struct lf_handle {
	int64_t num;
	int32_t slot;	    /* -1: entry unused */
	uint32_t first_use; /* line of the first op that used it, 0 if none */
	uint8_t first_kind; /* the kind of that op */
	bool produced;	    /* some NTCreateX opens it */
};

/* A path with "$i" in it, kept for the end-of-file checks. */
struct lf_random_path {
	uint32_t path;		/* id */
	uint32_t line;
};

/*
 * A column of the program that grows one element per op (the ops, the
 * times): in a reservation of address space made resident ahead of the
 * parser (see lf_col_reserve), or grown with realloc for small inputs.
 */
struct lf_col {
	void *base;		/* the array (copied to the program) */
	size_t elem;		/* bytes per element */
	uint32_t cap;
	size_t prefaulted;	/* bytes made resident */
	bool area;		/* in a reservation */
};

/* An interning table: open addressing on the text, ids + 1, 0 = empty. */
struct lf_itab {
	uint32_t *slot;
	uint32_t mask;
};

/* Bytes of the chunks program texts (paths, directories, patterns) are
 * copied into: one talloc header per chunk, not per text. */
#define LF_TEXT_CHUNK	(64u * 1024)

struct lf_state {
	void *mem_ctx;
	void *tmp; /* freed when compilation ends */
	const char *name;
	char **err;
	struct program *prog;
	uint32_t line;
	struct lf_col ops;	/* prog->ops */
	struct lf_col times;	/* prog->times, from the first timed op */
	uint64_t ops_bound;	/* the most ops the input can have; 0: small */
	struct path *paths;	/* prog->paths, writable */
	uint32_t paths_cap;
	struct program_dir *dirs; /* prog->dirs, writable */
	uint32_t dirs_cap;
	struct value *values;	/* prog->values, writable */
	uint32_t values_cap;
	struct program_text *texts; /* prog->texts, writable */
	uint32_t texts_cap;
	struct value_mod *mods; /* prog->mods, writable */
	uint32_t mods_cap;
	uint32_t handles_cap; /* of prog->handle_nums */
	char *text_chunk;	/* free room for texts: text_left bytes */
	size_t text_left;

	/* input: either a whole buffer or a gzip stream through a window */
	const char *buf;
	size_t buf_len;
	size_t buf_pos;
	gzFile gz;
	char *win;
	size_t win_cap, win_start, win_end;
	bool gz_eof;
	uint64_t total;

	struct lf_itab path_tab; /* interned paths */
	struct lf_itab dir_tab;	 /* interned directories */
	char *scratch;
	size_t scratch_cap;
	struct lf_random_path *rpaths;
	uint32_t nrpaths, rpaths_cap;

	/* handles: open addressing on the loadfile number */
	struct lf_handle *htab;
	uint32_t htab_mask;

	/* LOOP nesting: indices of the open LOOP ops */
	uint32_t loop_stack[LF_MAX_LOOP_DEPTH];
	uint32_t loop_depth;

	/* REPEAT waiting for the command it repeats */
	bool repeat_pending;
	uint32_t repeat_line;

	/* RANDOMSTRING indices: first line using $i, definitions */
	uint32_t random_use_line[LF_MAX_RANDOM + 1];
	bool random_defined[LF_MAX_RANDOM + 1];
	bool random_dots[LF_MAX_RANDOM + 1]; /* can be all dots */

	/* the SMB dialect: client.txt's or dbench 5.0's (lf_dialect()) */
	uint8_t dialect;	/* enum lf_dialect */
	uint8_t dialect_kind;	/* the kind of the line that decided it */
	uint32_t dialect_line;	/* that line */
	char *pfx;		/* an smb-dialect path with its prefix */
	size_t pfx_cap;
};

enum lf_dialect {
	LF_UNDECIDED = 0,	/* only lines both dialects have, so far */
	LF_CLIENT_TXT,
	LF_SMB5,
};

/* What each command looks like, for messages. */
static const char *const lf_usage[OP_NUM_KINDS] = {
	[OP_NTCREATEX] =
		"NTCreateX path create_options disposition handle status",
	[OP_CLOSE] = "Close handle status",
	[OP_RENAME] = "Rename old new status",
	[OP_UNLINK] = "Unlink path [attributes] status",
	[OP_DELTREE] = "Deltree path status",
	[OP_RMDIR] = "Rmdir path status",
	[OP_MKDIR] = "Mkdir path status",
	[OP_QPATHINFO] = "QUERY_PATH_INFORMATION path level status",
	[OP_QFILEINFO] = "QUERY_FILE_INFORMATION handle level status",
	[OP_QFSINFO] = "QUERY_FS_INFORMATION level status",
	[OP_SFILEINFO] = "SET_FILE_INFORMATION handle level status",
	[OP_FIND] = "FIND_FIRST pattern level maxcount count status",
	[OP_WRITEX] = "WriteX handle offset size returned status",
	[OP_READX] = "ReadX handle offset size returned status",
	[OP_LOCKX] = "LockX handle offset size status",
	[OP_UNLOCKX] = "UnlockX handle offset size status",
	[OP_FLUSH] = "Flush handle status",
	[OP_DROPCACHE] = "DropCache handle status",
	/* the NFSv3 dialect */
	[OP_GETATTR3] = "GETATTR3 path status",
	[OP_SETATTR3] = "SETATTR3 path status",
	[OP_LOOKUP3] = "LOOKUP3 path status",
	[OP_ACCESS3] = "ACCESS3 path desired granted status",
	[OP_READLINK3] = "READLINK3 path status",
	[OP_READ3] = "READ3 path offset size status",
	[OP_WRITE3] = "WRITE3 path offset size stable status",
	[OP_CREATE3] = "CREATE3 path status",
	[OP_MKDIR3] = "MKDIR3 path status",
	[OP_SYMLINK3] = "SYMLINK3 link target status",
	[OP_REMOVE3] = "REMOVE3 path status",
	[OP_RMDIR3] = "RMDIR3 path status",
	[OP_RENAME3] = "RENAME3 old new status",
	[OP_LINK3] = "LINK3 new existing status",
	[OP_READDIRPLUS3] = "READDIRPLUS3 path status",
	[OP_FSSTAT3] = "FSSTAT3 status",
	[OP_FSINFO3] = "FSINFO3 status",
	[OP_PATHCONF3] = "PATHCONF3 path status",
	[OP_COMMIT3] = "COMMIT3 path status",
	[OP_LOCK4] = "LOCK4 path offset length status",
	[OP_UNLOCK4] = "UNLOCK4 path offset length status",
	[OP_TEST4] = "TEST4 path offset length status",
	/* dbench 5.0's smb dialect */
	[OP_OPEN5] = "OPEN path flags status",
	[OP_READ5] = "READ path offset size status",
	[OP_WRITE5] = "WRITE path offset size status",
	[OP_CLOSE5] = "CLOSE path status",
	[OP_MKDIR5] = "MKDIR path status",
	[OP_RMDIR5] = "RMDIR path status",
	[OP_UNLINK5] = "UNLINK path status",
	[OP_READDIR5] = "READDIR path status",
	[OP_DELTREE5] = "Deltree path status",
	[OP_LOOP] = "LOOP count",
	[OP_ENDLOOP] = "ENDLOOP",
	[OP_REPEAT] = "REPEAT count",
	[OP_SLEEP] = "SLEEP usecs",
	[OP_SETSP] = "SETSP n",
	[OP_WAITSP] = "WAITSP client n",
	[OP_WRITEPATTERN] = "WRITEPATTERN text",
	[OP_RANDOMSTRING] = "RANDOMSTRING index \"pattern\"",
};

static const char *const lf_arg_names[OP_NUM_KINDS][PROGRAM_MAX_ARGS] = {
	[OP_NTCREATEX] = { "create_options", "disposition" },
	[OP_UNLINK] = { "attributes" },
	[OP_QPATHINFO] = { "level" },
	[OP_QFILEINFO] = { "level" },
	[OP_QFSINFO] = { "level" },
	[OP_SFILEINFO] = { "level" },
	[OP_FIND] = { "level", "maxcount", "count" },
	[OP_WRITEX] = { "offset", "size", "returned" },
	[OP_READX] = { "offset", "size", "returned" },
	[OP_LOCKX] = { "offset", "size" },
	[OP_UNLOCKX] = { "offset", "size" },
	[OP_ACCESS3] = { "desired", "granted" },
	[OP_READ3] = { "offset", "size" },
	[OP_WRITE3] = { "offset", "size", "stable" },
	[OP_LOCK4] = { "offset", "length" },
	[OP_UNLOCK4] = { "offset", "length" },
	[OP_TEST4] = { "offset", "length" },
	[OP_OPEN5] = { "flags" },
	[OP_READ5] = { "offset", "size" },
	[OP_WRITE5] = { "offset", "size" },
	[OP_LOOP] = { "count" },
	[OP_REPEAT] = { "count" },
	[OP_SLEEP] = { "usecs" },
	[OP_SETSP] = { "n" },
	[OP_WAITSP] = { "client", "n" },
	[OP_RANDOMSTRING] = { "index" },
};

/* ---- messages ---- */

static int lf_verror(struct lf_state *st, bool with_line, const char *fmt,
		     va_list ap)
{
	char *msg;

	if (st->err == NULL || *st->err != NULL)
		return -1;
	if (with_line)
		msg = talloc_asprintf(st->mem_ctx, "%s:%u: ", st->name,
				      st->line);
	else
		msg = talloc_asprintf(st->mem_ctx, "%s: ", st->name);
	if (msg != NULL)
		msg = talloc_vasprintf_append(msg, fmt, ap);
	*st->err = msg;
	return -1;
}

/* Set the error "FILE:LINE: message" (the first one wins); returns -1. */
LF_PRINTF(2, 3)
static int lf_error(struct lf_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lf_verror(st, true, fmt, ap);
	va_end(ap);
	return -1;
}

/* The same without a line: "FILE: message". */
LF_PRINTF(2, 3)
static int lf_file_error(struct lf_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lf_verror(st, false, fmt, ap);
	va_end(ap);
	return -1;
}

static int lf_nomem(struct lf_state *st)
{
	return lf_file_error(st, "out of memory");
}

/*
 * Array arr of elem-byte elements (a talloc child of the program, NULL at
 * first) with room for need of them: grown by doubling from first.
 * Returns the array, which may have moved, and sets *cap; NULL after
 * lf_nomem().
 */
static void *lf_grow(struct lf_state *st, void *arr, size_t elem,
		     uint32_t *cap, uint64_t need, uint32_t first)
{
	uint64_t c = *cap != 0 ? *cap : first;
	void *a;

	if (need <= *cap)
		return arr;
	while (c < need)
		c *= 2;
	a = c <= UINT32_MAX ? talloc_realloc_size(st->prog, arr, c * elem) :
			      NULL;
	if (a == NULL) {
		lf_nomem(st);
		return NULL;
	}
	*cap = (uint32_t)c;
	return a;
}

/* A NUL-terminated copy of p[0..len) that lives as long as the program:
 * small ones share chunks, a large one has its own.  NULL after
 * lf_nomem(). */
static const char *lf_keep_text(struct lf_state *st, const char *p,
				size_t len)
{
	bool own = len + 1 > LF_TEXT_CHUNK / 4;
	char *t;

	if (own || len + 1 > st->text_left) {
		t = talloc_size(st->prog, own ? len + 1 : LF_TEXT_CHUNK);
		if (t == NULL) {
			lf_nomem(st);
			return NULL;
		}
		talloc_set_name_const(t, "program text");
		if (!own) {
			st->text_chunk = t;
			st->text_left = LF_TEXT_CHUNK;
		}
	}
	if (!own) {
		t = st->text_chunk;
		st->text_chunk += len + 1;
		st->text_left -= len + 1;
	}
	memcpy(t, p, len);
	t[len] = '\0';
	return t;
}

/*
 * A token as shown in a message: at most LF_SHOW_MAX bytes, bytes that
 * are not printable ASCII shown as '?', "..." when cut.  Allocated in tmp.
 */
static const char *lf_show(struct lf_state *st, const char *p, size_t len)
{
	size_t n = len > LF_SHOW_MAX ? LF_SHOW_MAX : len;
	char *s = talloc_array(st->tmp, char, n + 4);
	size_t i;

	if (s == NULL)
		return "?";
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		s[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (n < len) {
		memcpy(s + n, "...", 3);
		n += 3;
	}
	s[n] = '\0';
	return s;
}

static const char *lf_show_field(struct lf_state *st, const struct lf_field *f)
{
	const char *s;

	s = talloc_asprintf(st->tmp, f->quoted ? "\"%s\"" : "'%s'",
			    lf_show(st, f->p, f->len));
	return s != NULL ? s : "?";
}

/* ---- input ---- */

/* Report a gzip stream that failed; gzerror's text without its path. */
static int lf_gz_error(struct lf_state *st, int saved_errno)
{
	int errnum = Z_OK;
	const char *msg = gzerror(st->gz, &errnum);
	size_t nlen = strlen(st->name);

	if (errnum == Z_ERRNO)
		return lf_file_error(st, "%s",
				     saved_errno != 0 ? strerror(saved_errno) :
							"read error");
	if (errnum == Z_MEM_ERROR)
		return lf_nomem(st);
	if (msg == NULL)
		msg = "unknown error";
	if (strncmp(msg, st->name, nlen) == 0 &&
	    strncmp(msg + nlen, ": ", 2) == 0)
		msg += nlen + 2;
	if (errnum == Z_BUF_ERROR)
		return lf_file_error(st, "truncated gzip data (%s)", msg);
	return lf_file_error(st, "corrupt gzip data (%s)", msg);
}

/* Move what is left of the window to its start and read more. */
static int lf_refill(struct lf_state *st)
{
	size_t avail = st->win_end - st->win_start;
	int n, saved_errno, errnum = Z_OK;

	memmove(st->win, st->win + st->win_start, avail);
	st->win_start = 0;
	st->win_end = avail;
	errno = 0;
	n = gzread(st->gz, st->win + avail, (unsigned)(st->win_cap - avail));
	saved_errno = errno;
	if (n < 0)
		return lf_gz_error(st, saved_errno);
	if (n == 0) {
		gzerror(st->gz, &errnum);
		if (errnum != Z_OK)
			return lf_gz_error(st, saved_errno);
		st->gz_eof = true;
		return 0;
	}
	st->total += (unsigned)n;
	if (st->total > LF_MAX_INPUT)
		return lf_file_error(st,
				     "input larger than %llu bytes "
				     "(after decompression); not a loadfile?",
				     (unsigned long long)LF_MAX_INPUT);
	st->win_end += (unsigned)n;
	return 0;
}

/*
 * The next line, without its '\n'.  Returns 1 and sets *line and *len, 0 at
 * the end of the input, -1 on error.  Lines point into the input buffer
 * or the window and stay valid until the next call.
 */
static int lf_next_line(struct lf_state *st, const char **line, size_t *len)
{
	const char *p, *nl;
	size_t avail;

	if (st->gz == NULL) {
		if (st->buf_pos >= st->buf_len)
			return 0;
		p = st->buf + st->buf_pos;
		avail = st->buf_len - st->buf_pos;
		st->line++;
		nl = memchr(p, '\n',
			    avail > LF_MAX_LINE ? LF_MAX_LINE + 1 : avail);
		if (nl == NULL && avail > LF_MAX_LINE)
			goto too_long;
		*line = p;
		*len = nl != NULL ? (size_t)(nl - p) : avail;
		st->buf_pos += *len + (nl != NULL);
		return 1;
	}

	for (;;) {
		p = st->win + st->win_start;
		avail = st->win_end - st->win_start;
		nl = memchr(p, '\n',
			    avail > LF_MAX_LINE ? LF_MAX_LINE + 1 : avail);
		if (nl != NULL) {
			st->line++;
			*line = p;
			*len = (size_t)(nl - p);
			st->win_start += *len + 1;
			return 1;
		}
		if (avail > LF_MAX_LINE) {
			st->line++;
			goto too_long;
		}
		if (st->gz_eof) {
			if (avail == 0)
				return 0;
			st->line++;
			*line = p;
			*len = avail;
			st->win_start = st->win_end;
			return 1;
		}
		if (lf_refill(st) != 0)
			return -1;
	}

too_long:
	return lf_error(st, "line longer than %u bytes; not a loadfile?",
			LF_MAX_LINE);
}

/* ---- tokens ---- */

static inline bool lf_is_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Split p[pos..len) into fields.  Counts every field in *nfields but
 * stores at most LF_MAX_FIELDS.  A field starting with '"' runs to the
 * next '"' and must be followed by whitespace or the end of the line.
 */
static int lf_split(struct lf_state *st, const char *p, size_t len, size_t pos,
		    struct lf_field *fields, unsigned *nfields)
{
	unsigned n = 0;

	for (;;) {
		struct lf_field f;

		while (pos < len && lf_is_space(p[pos]))
			pos++;
		if (pos == len)
			break;
		if (p[pos] == '"') {
			const char *q = memchr(p + pos + 1, '"', len - pos - 1);

			if (q == NULL)
				return lf_error(st,
						"unterminated quoted string "
						"'%s'; expected a closing '\"'",
						lf_show(st, p + pos,
							len - pos));
			f.p = p + pos + 1;
			f.len = (size_t)(q - f.p);
			f.quoted = true;
			pos = (size_t)(q - p) + 1;
			if (pos < len && !lf_is_space(p[pos]))
				return lf_error(
					st,
					"expected a space after the "
					"quoted string \"%s\", found '%c'",
					lf_show(st, f.p, f.len),
					(p[pos] >= 0x20 && p[pos] < 0x7f) ?
						p[pos] :
						'?');
		} else {
			f.p = p + pos;
			while (pos < len && !lf_is_space(p[pos]))
				pos++;
			f.len = (size_t)(p + pos - f.p);
			f.quoted = false;
		}
		if (n < LF_MAX_FIELDS)
			fields[n] = f;
		n++;
	}
	*nfields = n;
	return 0;
}

/* ---- numbers ---- */


/*
 * A non-negative decimal or 0x-hex number at p[*pos], stopping at the
 * first byte that is not part of it.  Returns 0, -1 if there is no number
 * there, -2 if it does not fit in an int64_t.
 */
static int lf_number(const char *p, size_t len, size_t *pos, int64_t *out)
{
	size_t i = *pos;
	uint64_t v = 0;

	if (i >= len || p[i] < '0' || p[i] > '9')
		return -1;
	if (p[i] == '0' && i + 1 < len &&
	    (p[i + 1] == 'x' || p[i + 1] == 'X')) {
		size_t start = i + 2;
		int d;

		for (i = start;
		     i < len && (d = hex_digit_value(p[i])) >= 0; i++) {
			if (v > (uint64_t)INT64_MAX >> 4)
				return -2;
			v = (v << 4) | (uint64_t)d;
		}
		if (i == start)
			return -1;
		if (v > (uint64_t)INT64_MAX)
			return -2;
	} else {
		for (; i < len && p[i] >= '0' && p[i] <= '9'; i++) {
			uint64_t d = (uint64_t)(p[i] - '0');

			if (v > ((uint64_t)INT64_MAX - d) / 10)
				return -2;
			v = v * 10 + d;
		}
	}
	*pos = i;
	*out = (int64_t)v;
	return 0;
}

static const char *lf_op_name(const struct op *op)
{
	return op_info[op->kind].name;
}

static int lf_bad_number(struct lf_state *st, const struct op *op,
			 const char *what, const struct lf_field *f, int rc,
			 const char *expected)
{
	if (rc == -2)
		return lf_error(st,
				"%s: %s: %s is too large; expected at most "
				"%lld",
				lf_op_name(op), what, lf_show_field(st, f),
				(long long)INT64_MAX);
	return lf_error(st, "%s: %s: expected %s, found %s", lf_op_name(op),
			what, expected, lf_show_field(st, f));
}

/* A field that must be one plain number in [0, max]. */
static int lf_plain(struct lf_state *st, const struct op *op, const char *what,
		    const struct lf_field *f, int64_t max, int64_t *out)
{
	size_t pos = 0;
	int rc = f->quoted ? -1 : lf_number(f->p, f->len, &pos, out);

	if (rc == 0 && pos != f->len)
		rc = -1;
	if (rc != 0)
		return lf_bad_number(st, op, what, f, rc,
				     "a number (decimal or 0x hex)");
	if (*out > max)
		return lf_error(st,
				"%s: %s: %s is too large; expected at most "
				"%lld",
				lf_op_name(op), what, lf_show_field(st, f),
				(long long)max);
	return 0;
}

static const char lf_value_expected[] =
	"a number (decimal or 0x hex), '*' optionally followed by /y %y +y, "
	"or '+y'";

/*
 * A numeric argument: a constant, '*' with modifiers, or '+y'.  Modifiers
 * after a constant are applied here, leaving a constant.
 */
/*
 * Store val (whose modifiers, if any, are mods[0..nmods)) as an op
 * argument: the number itself when it is a small constant, else a new
 * entry of prog->values.
 */
static int lf_put_value(struct lf_state *st, struct value val,
			const struct value_mod *mods, unsigned nmods,
			op_arg *out)
{
	struct program *prog = st->prog;
	void *a;

	if (val.kind == VAL_CONST && val.v >= 0 && val.v < (int64_t)OP_ARG_REF) {
		*out = (op_arg)val.v;
		return 0;
	}
	if (prog->nvalues == OP_ARG_REF - 1)
		return lf_error(st, "too many arguments that are not small "
				    "constants");
	if (nmods > 0) {
		a = lf_grow(st, st->mods, sizeof(*mods), &st->mods_cap,
			    (uint64_t)prog->nmods + nmods, 64);
		if (a == NULL)
			return -1;
		prog->mods = st->mods = a;
		memcpy(st->mods + prog->nmods, mods, nmods * sizeof(mods[0]));
		val.mods = prog->nmods;
		val.nmods = (uint8_t)nmods;
		prog->nmods += nmods;
	}
	a = lf_grow(st, st->values, sizeof(val), &st->values_cap,
		    (uint64_t)prog->nvalues + 1, 64);
	if (a == NULL)
		return -1;
	prog->values = st->values = a;
	st->values[prog->nvalues] = val;
	*out = OP_ARG_REF | prog->nvalues++;
	return 0;
}

static int lf_value(struct lf_state *st, const struct op *op, const char *what,
		    const struct lf_field *f, op_arg *out)
{
	struct value_mod mods[LF_MAX_MODS];
	struct value value = { 0 }, *val = &value;
	unsigned nmods = 0;
	size_t pos = 0;
	int64_t v = 0;
	int rc;

	if (f->quoted || f->len == 0)
		return lf_bad_number(st, op, what, f, -1, lf_value_expected);

	if (f->p[0] == '+') {
		pos = 1;
		rc = lf_number(f->p, f->len, &pos, &v);
		if (rc == 0 && pos != f->len)
			rc = -1;
		if (rc != 0)
			return lf_bad_number(st, op, what, f, rc,
					     lf_value_expected);
		val->kind = VAL_RELATIVE;
		val->v = v;
		st->prog->relative = true;
		return lf_put_value(st, value, NULL, 0, out);
	}

	if (f->p[0] == '*') {
		pos = 1;
		val->kind = VAL_RANDOM;
	} else {
		rc = lf_number(f->p, f->len, &pos, &v);
		if (rc != 0)
			return lf_bad_number(st, op, what, f, rc,
					     lf_value_expected);
		val->kind = VAL_CONST;
	}

	while (pos < f->len) {
		char c = f->p[pos];
		int64_t y;

		if (c != '/' && c != '%' && c != '+')
			return lf_bad_number(st, op, what, f, -1,
					     lf_value_expected);
		pos++;
		rc = lf_number(f->p, f->len, &pos, &y);
		if (rc != 0)
			return lf_bad_number(st, op, what, f, rc,
					     lf_value_expected);
		if (y == 0 && c != '+')
			return lf_error(st,
					"%s: %s: %s has '%c0'; expected a "
					"non-zero divisor",
					lf_op_name(op), what,
					lf_show_field(st, f), c);
		if (val->kind == VAL_CONST) {
			if (c == '/')
				v -= v % y;
			else if (c == '%')
				v %= y;
			else if (v > INT64_MAX - y)
				return lf_bad_number(st, op, what, f, -2, NULL);
			else
				v += y;
			continue;
		}
		if (nmods == LF_MAX_MODS)
			return lf_error(st,
					"%s: %s: %s has more than %u "
					"modifiers",
					lf_op_name(op), what,
					lf_show_field(st, f), LF_MAX_MODS);
		mods[nmods].op = c;
		mods[nmods].y = y;
		nmods++;
	}

	val->v = v;
	return lf_put_value(st, value, mods, nmods, out);
}

/* ---- handles ---- */

static inline uint32_t lf_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (uint32_t)x;
}

static int lf_handles_grow(struct lf_state *st)
{
	uint32_t old_cap = st->htab != NULL ? st->htab_mask + 1 : 0;
	uint32_t cap = old_cap != 0 ? old_cap * 2 : 256;
	struct lf_handle *old = st->htab;
	struct lf_handle *tab = talloc_array(st->tmp, struct lf_handle, cap);
	uint32_t i;

	if (tab == NULL)
		return lf_nomem(st);
	for (i = 0; i < cap; i++)
		tab[i].slot = -1;
	for (i = 0; i < old_cap; i++) {
		uint32_t h;

		if (old[i].slot < 0)
			continue;
		h = lf_hash64((uint64_t)old[i].num) & (cap - 1);
		while (tab[h].slot >= 0)
			h = (h + 1) & (cap - 1);
		tab[h] = old[i];
	}
	talloc_free(old);
	st->htab = tab;
	st->htab_mask = cap - 1;
	return 0;
}

/* The slot of handle number num, created on first sight. */
static int lf_handle_num(struct lf_state *st, struct op *op, int64_t num,
			 bool produce)
{
	struct lf_handle *e;
	uint32_t h;

	if (st->htab == NULL ||
	    (st->prog->nhandles + 1) * 2 > st->htab_mask + 1) {
		if (lf_handles_grow(st) != 0)
			return -1;
	}
	h = lf_hash64((uint64_t)num) & st->htab_mask;
	while (st->htab[h].slot >= 0 && st->htab[h].num != num)
		h = (h + 1) & st->htab_mask;
	e = &st->htab[h];
	if (e->slot < 0) {
		if (st->prog->nhandles == INT32_MAX)
			return lf_error(st, "too many handles");
		int64_t *a = lf_grow(st, st->prog->handle_nums, sizeof(*a),
				     &st->handles_cap,
				     (uint64_t)st->prog->nhandles + 1, 64);

		if (a == NULL)
			return -1;
		st->prog->handle_nums = a;
		st->prog->handle_nums[st->prog->nhandles] = num;
		e->num = num;
		e->slot = (int32_t)st->prog->nhandles++;
		e->first_use = 0;
		e->produced = false;
	}
	if (produce)
		e->produced = true;
	else if (e->first_use == 0) {
		e->first_use = st->line;
		e->first_kind = (uint8_t)op->kind;
	}
	op->handle = e->slot;
	return 0;
}

/* The slot of the loadfile handle in field f. */
static int lf_handle(struct lf_state *st, struct op *op,
		     const struct lf_field *f, bool produce)
{
	int64_t num;

	if (lf_plain(st, op, "handle", f, INT64_MAX, &num) != 0)
		return -1;
	return lf_handle_num(st, op, num, produce);
}

/* ---- paths ---- */

static inline uint32_t lf_hash_bytes(const char *p, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)p[i];
		h *= 16777619u;
	}
	return h;
}

/* The text of entry id of an interning table (paths or directories). */
typedef const char *lf_itab_text_fn(const struct lf_state *st, uint32_t id,
				    uint32_t *len);

static const char *lf_path_text(const struct lf_state *st, uint32_t id,
				uint32_t *len)
{
	*len = st->paths[id].len;
	return st->paths[id].text;
}

static const char *lf_dir_text(const struct lf_state *st, uint32_t id,
			       uint32_t *len)
{
	*len = st->dirs[id].len;
	return st->dirs[id].text;
}

/* Make t hold n entries at most half full (ids 0..n-1 hashed again). */
static int lf_itab_size(struct lf_state *st, struct lf_itab *t, uint32_t n,
			lf_itab_text_fn *text)
{
	uint32_t cap = t->slot != NULL ? t->mask + 1 : 512;
	uint32_t *tab;

	if (t->slot != NULL && (uint64_t)n * 2 <= cap)
		return 0;
	while ((uint64_t)n * 2 > cap)
		cap *= 2;
	tab = talloc_zero_array(st->tmp, uint32_t, cap);
	if (tab == NULL)
		return lf_nomem(st);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t len;
		const char *p = text(st, i, &len);
		uint32_t h = lf_hash_bytes(p, len) & (cap - 1);

		while (tab[h] != 0)
			h = (h + 1) & (cap - 1);
		tab[h] = i + 1;
	}
	talloc_free(t->slot);
	t->slot = tab;
	t->mask = cap - 1;
	return 0;
}

/*
 * Look p[0..n) up in t: returns its id, or UINT32_MAX with *h set to the
 * free slot a new entry of that text goes into.
 */
static uint32_t lf_itab_find(const struct lf_state *st,
			     const struct lf_itab *t, lf_itab_text_fn *text,
			     const char *p, size_t n, uint32_t *h)
{
	uint32_t i = lf_hash_bytes(p, n) & t->mask, id;

	while ((id = t->slot[i]) != 0) {
		uint32_t len;
		const char *q = text(st, id - 1, &len);

		if (len == n && memcmp(q, p, n) == 0)
			return id - 1;
		i = (i + 1) & t->mask;
	}
	*h = i;
	return UINT32_MAX;
}

static inline bool lf_word_is(const char *p, size_t len, const char *word,
			      size_t wlen)
{
	return len == wlen && strncasecmp(p, word, wlen) == 0;
}

/* Note "$i" uses in a normalised path; returns whether there are any. */
static int lf_path_randoms(struct lf_state *st, const struct op *op,
			   const char *t, size_t len, bool *has_random)
{
	size_t i, j;

	*has_random = false;
	for (i = 0; i + 1 < len; i = j) {
		unsigned idx = 0;
		bool big = false;

		j = i + 1;
		if (t[i] != '$' || t[j] < '0' || t[j] > '9')
			continue;
		for (; j < len && t[j] >= '0' && t[j] <= '9'; j++) {
			idx = idx * 10 + (unsigned)(t[j] - '0');
			if (idx > LF_MAX_RANDOM)
				big = true;
			if (big)
				idx = LF_MAX_RANDOM + 1;
		}
		if (big)
			return lf_error(st,
					"%s: path \"%s\" uses $%s; "
					"expected $0 to $%u",
					lf_op_name(op), lf_show(st, t, len),
					lf_show(st, t + i + 1, j - i - 1),
					LF_MAX_RANDOM);
		if (st->random_use_line[idx] == 0)
			st->random_use_line[idx] = st->line;
		*has_random = true;
	}
	return 0;
}

/*
 * Normalise the quoted path f into st->scratch (see struct path): '/' and
 * '\\' separate, empty and "." components go, ".." and NUL bytes are
 * refused.  The substitution point is the first component "client1"
 * that follows a component "clients" (both case-insensitive).  Sets *len
 * and *client_pos (-1: none).  Returns 0, or -1 after lf_error().
 */
static int lf_path_normalise(struct lf_state *st, struct op *op,
			     const char *what, const struct lf_field *f,
			     size_t *len, int32_t *client_pos)
{
	const char *p = f->p;
	size_t flen = f->len, i = 0, n = 0;
	bool prev_clients = false;

	*client_pos = -1;
	while (i < flen) {
		size_t start, clen;

		while (i < flen && (p[i] == '/' || p[i] == '\\'))
			i++;
		start = i;
		while (i < flen && p[i] != '/' && p[i] != '\\')
			i++;
		clen = i - start;
		if (clen == 0 || (clen == 1 && p[start] == '.'))
			continue;
		if (clen == 2 && p[start] == '.' && p[start + 1] == '.')
			return lf_error(st,
					"%s: %s: path \"%s\" has a '..' "
					"component; expected a path that stays "
					"inside the client's directory",
					lf_op_name(op), what,
					lf_show(st, p, flen));
		if (memchr(p + start, '\0', clen) != NULL)
			return lf_error(st, "%s: %s: path has a NUL byte",
					lf_op_name(op), what);
		if (clen > LF_MAX_COMPONENT)
			return lf_error(st,
					"%s: %s: path component \"%s\" is "
					"%zu bytes long; expected at most %u",
					lf_op_name(op), what,
					lf_show(st, p + start, clen), clen,
					LF_MAX_COMPONENT);
		if (n > 0)
			st->scratch[n++] = '/';
		if (n + clen > LF_MAX_PATH)
			return lf_error(st,
					"%s: %s: path \"%s\" is longer than "
					"%u bytes",
					lf_op_name(op), what,
					lf_show(st, p, flen), LF_MAX_PATH);
		if (*client_pos < 0 && prev_clients &&
		    lf_word_is(p + start, clen, "client1", 7))
			*client_pos = (int32_t)n;
		prev_clients = lf_word_is(p + start, clen, "clients", 7);
		memcpy(st->scratch + n, p + start, clen);
		n += clen;
	}
	st->scratch[n] = '\0';
	*len = n;
	return 0;
}

/* Remember a path with a $i substitution, checked when the program ends. */
static int lf_note_random_path(struct lf_state *st, uint32_t id)
{
	if (st->nrpaths == st->rpaths_cap) {
		uint32_t cap = st->rpaths_cap ? st->rpaths_cap * 2 : 16;
		struct lf_random_path *a = talloc_realloc(
			st->tmp, st->rpaths, struct lf_random_path, cap);

		if (a == NULL)
			return lf_nomem(st);
		st->rpaths = a;
		st->rpaths_cap = cap;
	}
	st->rpaths[st->nrpaths].path = id;
	st->rpaths[st->nrpaths].line = st->line;
	st->nrpaths++;
	return 0;
}

/* Does text[0..n) have a "$<digit>"? */
static bool lf_has_random(const char *t, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (t[i] == '$' && t[i + 1] >= '0' && t[i + 1] <= '9')
			return true;
	return false;
}

/*
 * The directory (an index in prog->dirs, interned) holding the path
 * text[0..n): see struct path's dir.  UINT32_MAX - 1 after an error.
 */
static uint32_t lf_path_dir(struct lf_state *st, const char *text, size_t n)
{
	const char *slash = memrchr(text, '/', n);
	struct program *prog = st->prog;
	uint32_t h = 0, id;
	size_t len;
	void *a;

	if (slash == NULL)
		return PATH_DIR_ROOT;
	len = (size_t)(slash - text);
	if (lf_has_random(text, len))
		return PATH_DIR_NONE;
	id = lf_itab_find(st, &st->dir_tab, lf_dir_text, text, len, &h);
	if (id != UINT32_MAX)
		return id;
	a = lf_grow(st, st->dirs, sizeof(*st->dirs), &st->dirs_cap,
		    (uint64_t)prog->ndirs + 1, 64);
	if (a == NULL)
		return UINT32_MAX - 1;
	prog->dirs = st->dirs = a;
	id = prog->ndirs;
	st->dirs[id].text = lf_keep_text(st, text, len);
	st->dirs[id].len = (uint32_t)len;
	if (st->dirs[id].text == NULL)
		return UINT32_MAX - 1;
	prog->ndirs++;
	st->dir_tab.slot[h] = id + 1;
	if (lf_itab_size(st, &st->dir_tab, prog->ndirs, lf_dir_text) != 0)
		return UINT32_MAX - 1;
	return id;
}

/*
 * A new path of the program for the normalised text[0..n), entered in
 * the hash table's slot h.  Returns its id, or PATH_NONE after an error.
 */
static uint32_t lf_path_add(struct lf_state *st, struct op *op,
			    const char *text, size_t n, int32_t client_pos,
			    uint32_t h)
{
	struct program *prog = st->prog;
	struct path *pp;
	bool has_random;
	uint32_t dir;
	void *a;

	if (lf_path_randoms(st, op, text, n, &has_random) != 0)
		return PATH_NONE;
	a = lf_grow(st, st->paths, sizeof(*pp), &st->paths_cap,
		    (uint64_t)prog->npaths + 1, 256);
	if (a == NULL)
		return PATH_NONE;
	prog->paths = st->paths = a;
	dir = lf_path_dir(st, text, n);
	if (dir == UINT32_MAX - 1)
		return PATH_NONE;
	pp = &st->paths[prog->npaths];
	pp->text = lf_keep_text(st, text, n);
	if (pp->text == NULL)
		return PATH_NONE;
	pp->len = (uint32_t)n;
	pp->client_pos = client_pos;
	pp->client_len = client_pos >= 0 ? 7 : 0;
	pp->has_random = has_random;
	pp->dir = dir;
	pp->id = prog->npaths++;
	if (n > prog->max_path_len)
		prog->max_path_len = (uint32_t)n;
	st->path_tab.slot[h] = pp->id + 1;
	if (has_random && lf_note_random_path(st, pp->id) != 0)
		return PATH_NONE;
	return pp->id;
}

/*
 * Normalise a quoted path (see struct path) and intern it: the same text
 * is one struct path however often the loadfile names it.  Sets *out to
 * its id.
 */
static int lf_path(struct lf_state *st, struct op *op, const char *what,
		   const struct lf_field *f, uint32_t *out)
{
	int32_t client_pos = -1;
	uint32_t h = 0;
	size_t n = 0;

	if (!f->quoted)
		return lf_error(st,
				"%s: %s: expected a quoted path such as "
				"\"\\clients\\client1\\file\", found %s",
				lf_op_name(op), what, lf_show_field(st, f));
	if (f->len + 1 > st->scratch_cap) {
		char *s = talloc_realloc(st->tmp, st->scratch, char,
					 f->len + 1);

		if (s == NULL)
			return lf_nomem(st);
		st->scratch = s;
		st->scratch_cap = f->len + 1;
	}
	if (lf_path_normalise(st, op, what, f, &n, &client_pos) != 0)
		return -1;
	*out = lf_itab_find(st, &st->path_tab, lf_path_text, st->scratch, n,
			    &h);
	if (*out != UINT32_MAX)
		return 0;
	*out = lf_path_add(st, op, st->scratch, n, client_pos, h);
	if (*out == PATH_NONE)
		return -1;
	return lf_itab_size(st, &st->path_tab, st->prog->npaths, lf_path_text);
}

/* ---- commands ---- */

/* A copy of p[0..len) in prog->texts, the op's text. */
static int lf_text(struct lf_state *st, struct op *op, const char *p,
		   size_t len)
{
	struct program *prog = st->prog;
	void *a = lf_grow(st, st->texts, sizeof(*st->texts), &st->texts_cap,
			  (uint64_t)prog->ntexts + 1, 16);
	const char *t;

	if (a == NULL)
		return -1;
	prog->texts = st->texts = a;
	t = lf_keep_text(st, p, len);
	if (t == NULL)
		return -1;
	st->texts[prog->ntexts].p = t;
	st->texts[prog->ntexts].len = len;
	op->text = prog->ntexts++;
	return 0;
}

/*
 * RANDOMSTRING's pattern: literal bytes and [set]s, each set closed and
 * non-empty.  '/' and '\' are refused anywhere (the string goes into
 * paths).  Also notes whether the string can come out as dots only.
 */
static int lf_random_pattern(struct lf_state *st, struct op *op,
			     const struct lf_field *f, unsigned idx)
{
	const char *p = f->p;
	size_t len = f->len, i = 0;
	bool dots = true;

	if (!f->quoted)
		return lf_error(st,
				"RANDOMSTRING: expected a quoted pattern "
				"such as \"[abc][0-9]x\", found %s",
				lf_show_field(st, f));
	if (len == 0)
		return lf_error(st, "RANDOMSTRING: the pattern is empty; "
				    "expected at least one character or [set]");
	while (i < len) {
		if (p[i] == '/' || p[i] == '\\')
			return lf_error(st,
					"RANDOMSTRING: pattern \"%s\" has "
					"'%c'; expected no path separators",
					lf_show(st, p, len), p[i]);
		if (p[i] != '[') {
			dots = dots && p[i] == '.';
			i++;
			continue;
		}
		{
			const char *close = memchr(p + i + 1, ']', len - i - 1);
			size_t slen;

			if (close == NULL)
				return lf_error(st,
						"RANDOMSTRING: pattern "
						"\"%s\" has a '[' without its "
						"']'",
						lf_show(st, p, len));
			slen = (size_t)(close - (p + i + 1));
			if (slen == 0)
				return lf_error(st,
						"RANDOMSTRING: pattern "
						"\"%s\" has an empty set '[]'; "
						"expected characters to choose "
						"from",
						lf_show(st, p, len));
			if (memchr(p + i + 1, '/', slen) != NULL ||
			    memchr(p + i + 1, '\\', slen) != NULL)
				return lf_error(
					st,
					"RANDOMSTRING: pattern "
					"\"%s\" has a path separator in "
					"a set; expected none",
					lf_show(st, p, len));
			dots = dots && memchr(p + i + 1, '.', slen) != NULL;
			i += slen + 2;
		}
	}
	st->random_defined[idx] = true;
	st->random_dots[idx] = dots;
	return lf_text(st, op, p, len);
}

/*
 * The op array of a large loadfile lives in its own reservation of address
 * space, aligned to 2 MiB and marked for transparent huge pages before the
 * parser writes it: the pages come in huge from the first fault, and the
 * array never moves (nor is it ever copied: growing by realloc would need
 * the old and the new array at once, 1.5 times the final size at the
 * peak).  Huge pages matter at fork: see lf_huge_ops().  The reservation
 * holds as many ops as the input can have (each takes a line of at least
 * 2 bytes: half the length of a buffer, half of LF_MAX_INPUT for a file,
 * whose size may change and may be compressed) and costs nothing where it
 * is not written.  If the kernel refuses it (ulimit -v, strict overcommit)
 * the array is grown with realloc, as for small inputs.  The times of a
 * timed loadfile are a second column of the same kind.
 */
#define LF_HUGE		 (2u << 20)
#define LF_AREA_MIN_OPS	 (64u * 1024)	/* smaller arrays: plain realloc */

/* Reserve room for st->ops_bound elements of col; false (nothing
 * changed) if not. */
static bool lf_col_reserve(struct lf_state *st, struct lf_col *col)
{
	uint64_t bytes = st->ops_bound * col->elem;
	uintptr_t start;
	void *map;

	if (st->ops_bound < LF_AREA_MIN_OPS || st->ops_bound > UINT32_MAX ||
	    bytes > SIZE_MAX - LF_HUGE)
		return false;
	/* unmapped with the program */
	map = util_map(st->prog, (size_t)bytes + LF_HUGE,
		       MAP_PRIVATE | MAP_NORESERVE);
	if (map == NULL)
		return false;
	start = ((uintptr_t)map + LF_HUGE - 1) & ~(uintptr_t)(LF_HUGE - 1);
#ifdef MADV_HUGEPAGE
	(void)madvise((void *)start, (size_t)bytes, MADV_HUGEPAGE);
#endif
	col->area = true;
	col->base = (void *)start;
	col->cap = (uint32_t)st->ops_bound;
	col->prefaulted = 0;
	return true;
}

/*
 * Make the next stretch of a reserved column resident in one call before
 * the parser writes it.  The op array is the bulk of a large program
 * (Debian's client.txt: about 16 MB); taking one page fault per 4 KiB
 * costs more than the parsing itself, notably in virtual machines.  Only
 * a hint: if the kernel does not know MADV_POPULATE_WRITE, pages fault in
 * as usual.
 */
static void lf_col_prefault(struct lf_col *col)
{
	size_t end = (size_t)col->cap * col->elem;
#ifdef MADV_POPULATE_WRITE
	const size_t ahead = 2u << 20;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t base = (uintptr_t)col->base;
	uintptr_t from = (base + col->prefaulted) & ~(page - 1);
	size_t want = col->prefaulted + ahead;

	if (want > end)
		want = end;
	(void)madvise((void *)from, base + want - from, MADV_POPULATE_WRITE);
	col->prefaulted = want;
#else
	col->prefaulted = end;
#endif
}

/* Element i of col (i <= its length: at most one more), made room for.
 * NULL after lf_nomem(). */
static void *lf_col_at(struct lf_state *st, struct lf_col *col, uint32_t i)
{
	if (i == col->cap && (col->cap != 0 || !lf_col_reserve(st, col))) {
		/* a full reservation cannot happen: it holds the most ops
		 * an input of the allowed size can have */
		void *a = col->area ? NULL :
				      lf_grow(st, col->base, col->elem,
					      &col->cap, (uint64_t)i + 1, 1024);

		if (a == NULL) {
			lf_nomem(st);
			return NULL;
		}
		col->base = a;
	}
	if (col->area && (size_t)(i + 1) * col->elem > col->prefaulted)
		lf_col_prefault(col);
	return (char *)col->base + (size_t)i * col->elem;
}

/*
 * Record the time of the op just made (i), t seconds or -1.  The column
 * starts at the first timed op, all earlier ones untimed.
 */
static int lf_set_time(struct lf_state *st, uint32_t i, double t)
{
	struct program *prog = st->prog;

	if (t < 0 && st->times.base == NULL)
		return 0;
	if (st->times.base == NULL) {
		for (uint32_t j = 0; j < i; j++) {
			double *d = lf_col_at(st, &st->times, j);

			if (d == NULL)
				return -1;
			*d = -1;
		}
		prog->timed = true;
	}
	double *d = lf_col_at(st, &st->times, i);

	if (d == NULL)
		return -1;
	*d = t;
	prog->times = st->times.base;
	return 0;
}

static struct op *lf_new_op(struct lf_state *st)
{
	struct program *prog = st->prog;
	struct op *op = lf_col_at(st, &st->ops, prog->nops);

	if (op == NULL)
		return NULL;
	prog->ops = st->ops.base;
	prog->nops++;
	memset(op, 0, sizeof(*op));
	op->handle = -1;
	op->line = st->line;
	op->path[0] = op->path[1] = PATH_NONE;
	return op;
}

static unsigned lf_expected_fields(enum op_kind kind)
{
	const struct op_info *oi = &op_info[kind];
	unsigned n = 1u + oi->npaths + oi->has_handle + oi->nargs;

	if (kind < OP_NUM_MEASURED)
		n++; /* the status */
	if (kind == OP_RANDOMSTRING)
		n++; /* the pattern */
	return n;
}

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

static int lf_control(struct lf_state *st, struct op *op,
		      const struct lf_field *f)
{
	const struct op_info *oi = &op_info[op->kind];
	int64_t v = 0;
	unsigned i;

	for (i = 0; i < oi->nargs; i++) {
		int64_t max = op->kind == OP_RANDOMSTRING ? LF_MAX_RANDOM :
							    INT64_MAX;

		if (lf_plain(st, op, lf_arg_names[op->kind][i], &f[1 + i], max,
			     &v) != 0 ||
		    lf_put_value(st, (struct value){ .v = v }, NULL, 0,
				 &op->arg[i]) != 0)
			return -1;
	}

	switch (op->kind) {
	case OP_LOOP:
		if (st->loop_depth == LF_MAX_LOOP_DEPTH)
			return lf_error(st, "LOOP nested more than %u deep",
					LF_MAX_LOOP_DEPTH);
		st->loop_stack[st->loop_depth++] = st->prog->nops - 1;
		if (st->loop_depth > st->prog->max_loop_depth)
			st->prog->max_loop_depth = st->loop_depth;
		break;
	case OP_ENDLOOP: {
		uint32_t loop;

		if (st->loop_depth == 0)
			return lf_error(st, "ENDLOOP without a matching LOOP");
		loop = st->loop_stack[--st->loop_depth];
		st->prog->ops[loop].jump = st->prog->nops - 1;
		op->jump = loop;
		break;
	}
	case OP_REPEAT:
		st->repeat_pending = true;
		st->repeat_line = st->line;
		break;
	case OP_RANDOMSTRING:
		return lf_random_pattern(st, op, &f[2], (unsigned)v);
	default:
		break;
	}
	return 0;
}

/* A normalised path shown as the loadfile spells it, '\' between components
 * (without the leading one). */
static const char *lf_show_dos(struct lf_state *st, const struct path *pp)
{
	char *s = (char *)lf_show(st, pp->text, pp->len);

	for (char *c = s; *c != '\0'; c++)
		if (*c == '/')
			*c = '\\';
	return s;
}

/* the client's directory, "clients/client1", at the start of a path */
#define LF_CLIENT_POS	  8  /* strlen("clients/") */
#define LF_CLIENT_DIR_LEN 15 /* strlen("clients/client1") */

/* The NFSv3 dialect's removals and moves (confined like Unlink and
 * Rename below). */
static bool lf_removes_nfs3(unsigned kind)
{
	return kind == OP_REMOVE3 || kind == OP_RMDIR3 || kind == OP_RENAME3;
}

/*
 * Deltree, Rmdir, Unlink and Rename remove or move what they name, so
 * their paths must lie inside the client's own directory
 * (\clients\client1\...): anything at or above it, or beside it, may
 * hold files the run did not create (the user's, or another client's).
 * Deltree and Rmdir may name the client's directory itself (dbench 4.00's
 * client.txt starts and ends with Deltree "\clients\client1").
 */
static int lf_removal_confined(struct lf_state *st, const struct op *op)
{
	const struct op_info *oi = &op_info[op->kind];
	bool own_dir_ok = op->kind == OP_DELTREE || op->kind == OP_RMDIR ||
			  op->kind == OP_RMDIR3;

	if (op->kind != OP_DELTREE && op->kind != OP_RMDIR &&
	    op->kind != OP_UNLINK && op->kind != OP_RENAME &&
	    !lf_removes_nfs3(op->kind))
		return 0;
	for (unsigned i = 0; i < oi->npaths; i++) {
		const struct path *pp = &st->paths[op->path[i]];
		bool inside = pp->client_pos == LF_CLIENT_POS &&
			      pp->len > LF_CLIENT_DIR_LEN;
		bool own = pp->client_pos == LF_CLIENT_POS &&
			   pp->len == LF_CLIENT_DIR_LEN;

		if (inside || (own && own_dir_ok))
			continue;
		return lf_error(st,
				"%s: path \"\\%s\" is %s; expected a path "
				"inside it, \"\\clients\\client1\\...\" "
				"(a run never removes or moves what it did "
				"not create)",
				lf_op_name(op), lf_show_dos(st, pp),
				own ? "the client's own directory" :
				      "outside the client's directory");
	}
	return 0;
}

/* ---- dbench 5.0's smb dialect ---- */

/*
 * Its paths name objects inside the client's own directory: "\file" is
 * \clients\client1\file (then substituted per client, as usual).
 */
#define LF_SMB5_PREFIX "\\clients\\client1\\"
#define LF_SMB5_PREFIX_LEN (sizeof(LF_SMB5_PREFIX) - 1)

/* Intern text[0..len), an smb-dialect path, below the client's
 * directory. */
static int lf_smb5_path(struct lf_state *st, struct op *op, const char *what,
			const char *text, size_t len, uint32_t *out)
{
	struct lf_field g;

	if (LF_SMB5_PREFIX_LEN + len + 1 > st->pfx_cap) {
		size_t cap = (LF_SMB5_PREFIX_LEN + len + 1) * 2;
		char *a = talloc_realloc(st->tmp, st->pfx, char, cap);

		if (a == NULL)
			return lf_nomem(st);
		st->pfx = a;
		st->pfx_cap = cap;
	}
	memcpy(st->pfx, LF_SMB5_PREFIX, LF_SMB5_PREFIX_LEN);
	memcpy(st->pfx + LF_SMB5_PREFIX_LEN, text, len);
	st->pfx[LF_SMB5_PREFIX_LEN + len] = '\0';
	g.p = st->pfx;
	g.len = LF_SMB5_PREFIX_LEN + len;
	g.quoted = true;
	return lf_path(st, op, what, &g, out);
}

/* A path argument of op: below the client's directory in the smb
 * dialect, as written in the others. */
static int lf_op_path(struct lf_state *st, struct op *op, const char *what,
		      const struct lf_field *f, uint32_t *out)
{
	if (!op_kind_is_smb5(op->kind) || !f->quoted)
		return lf_path(st, op, what, f, out);
	return lf_smb5_path(st, op, what, f->p, f->len, out);
}

/* The smb dialect names an open file by its path: one handle slot per
 * path, opened by OPEN, used by READ, WRITE and CLOSE. */
static int lf_smb5_handle(struct lf_state *st, struct op *op)
{
	if (op->kind != OP_OPEN5 && op->kind != OP_READ5 &&
	    op->kind != OP_WRITE5 && op->kind != OP_CLOSE5)
		return 0;
	return lf_handle_num(st, op, op->path[0], op->kind == OP_OPEN5);
}

/* lf_check_handles()'s refusal for a path the smb dialect never opens. */
static int lf_smb5_never_opened(struct lf_state *st,
				const struct lf_handle *bad)
{
	const struct path *pp = &st->prog->paths[bad->num];
	size_t skip = LF_SMB5_PREFIX_LEN - 1; /* "clients/client1/" */

	return lf_error(st,
			"%s: \"\\%s\" is never opened; expected an OPEN of "
			"it somewhere in the file",
			op_info[bad->first_kind].name,
			pp->len > skip ? lf_show_dos(st, pp) + skip : "");
}

/* Is s a status as dbench 5.0 writes it: SUCCESS, ERROR or '*'? */
static bool lf_smb5_status(const struct lf_field *s)
{
	return !s->quoted &&
	       ((s->len == 7 && memcmp(s->p, "SUCCESS", 7) == 0) ||
		(s->len == 5 && memcmp(s->p, "ERROR", 5) == 0) ||
		(s->len == 1 && s->p[0] == '*'));
}

/* Does a line have the shape both dialects share: NAME "path" STATUS,
 * the status as dbench 5.0 writes it? */
static bool lf_smb5_shape(const struct lf_field *f, unsigned nf)
{
	return nf == 3 && f[1].quoted && lf_smb5_status(&f[2]);
}

/* Run the removal checks deferred while the dialect was undecided on
 * the first n ops. */
static int lf_confine_earlier(struct lf_state *st, uint32_t n)
{
	uint32_t line = st->line;

	for (uint32_t i = 0; i < n; i++) {
		st->line = st->prog->ops[i].line;
		if (st->prog->ops[i].kind < OP_NUM_MEASURED &&
		    lf_removal_confined(st, &st->prog->ops[i]) != 0)
			return -1;
	}
	st->line = line;
	return 0;
}

/*
 * The first n ops were compiled as client.txt's commands, but the file
 * turned out to be in the smb dialect: make them its twins, with their
 * paths below the client's directory.  (They are all lines both dialects
 * share, so the path and directory tables hold only their paths: they
 * start again; the texts stay in their chunks, which never move.)
 */
static int lf_to_smb5(struct lf_state *st, uint32_t n)
{
	struct program *prog = st->prog;
	uint32_t nold = prog->npaths, line = st->line;
	struct path *old = NULL;

	if (nold > 0) {
		old = talloc_memdup(st->tmp, st->paths, nold * sizeof(*old));
		if (old == NULL)
			return lf_nomem(st);
	}
	prog->npaths = 0;
	prog->ndirs = 0;
	prog->max_path_len = 0;
	st->nrpaths = 0;
	memset(st->path_tab.slot, 0,
	       ((size_t)st->path_tab.mask + 1) * sizeof(uint32_t));
	memset(st->dir_tab.slot, 0,
	       ((size_t)st->dir_tab.mask + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < n; i++) {
		struct op *op = &prog->ops[i];
		int twin = op_kind_smb5_twin(op->kind);

		if (op->kind >= OP_NUM_MEASURED)
			continue;
		if (twin >= 0)
			op->kind = (uint8_t)twin;
		st->line = op->line;
		for (unsigned j = 0; j < 2 && op->path[j] != PATH_NONE; j++) {
			const struct path *pp = &old[op->path[j]];
			struct lf_field g = { pp->text, pp->len, true };

			if ((op_kind_is_smb5(op->kind) ?
				     lf_smb5_path(st, op, "path", pp->text,
						  pp->len, &op->path[j]) :
				     lf_path(st, op, "path", &g,
					     &op->path[j])) != 0)
				return -1;
		}
	}
	st->line = line;
	talloc_free(old);
	return 0;
}

/* The file's dialect is d from this line on; the others must agree. */
static int lf_decide(struct lf_state *st, const struct op *op,
		     enum lf_dialect d)
{
	uint32_t earlier = st->prog->nops - 1; /* the ops before op */

	if (st->dialect == d)
		return 0;
	if (st->dialect != LF_UNDECIDED)
		return lf_error(st,
				"%s is %s, but %s on line %u is %s; expected "
				"the commands of one dialect per loadfile",
				lf_op_name(op),
				d == LF_SMB5 ? "dbench 5.0's smb dialect" :
					       "client.txt's dialect",
				op_info[st->dialect_kind].name,
				st->dialect_line,
				d == LF_SMB5 ? "client.txt's" :
					       "dbench 5.0's smb dialect");
	st->dialect = (uint8_t)d;
	st->dialect_kind = op->kind;
	st->dialect_line = st->line;
	return d == LF_SMB5 ? lf_to_smb5(st, earlier) :
			      lf_confine_earlier(st, earlier);
}

/*
 * Which SMB dialect a measured line is in, before its fields are
 * compiled (see README, "Loadfile dialects").  OPEN, READ, WRITE,
 * READDIR and CLOSE "path" are dbench 5.0's only; MKDIR, RMDIR, UNLINK
 * and Deltree with a path and a SUCCESS, ERROR or '*' status are
 * either, and follow the file's other lines (client.txt's when none
 * decides); any other SMB command is client.txt's.
 */
static int lf_dialect(struct lf_state *st, struct op *op,
		      const struct lf_field *f, unsigned nf)
{
	int twin = op_kind_smb5_twin(op->kind);

	if (op->kind >= OP_NUM_MEASURED || op_kind_is_nfs3(op->kind))
		return 0;
	if (op->kind == OP_CLOSE && nf >= 2 && f[1].quoted)
		op->kind = OP_CLOSE5;
	else if (twin >= 0 && lf_smb5_shape(f, nf)) {
		if (st->dialect == LF_SMB5)
			op->kind = (uint8_t)twin;
		return 0;
	}
	return lf_decide(st, op,
			 op_kind_is_smb5(op->kind) ? LF_SMB5 : LF_CLIENT_TXT);
}

static int lf_measured(struct lf_state *st, struct op *op,
		       const struct lf_field *f, unsigned nf)
{
	const struct op_info *oi = &op_info[op->kind];
	const struct lf_field *status;
	enum status_check check;
	unsigned i, k = 1, nargs = oi->nargs;

	if (nf < lf_expected_fields(op->kind))
		nargs--; /* Unlink without its attributes */

	for (i = 0; i < oi->npaths; i++, k++) {
		const char *what = oi->npaths == 1 ? "path" :
				   i == 0	   ? "old path" :
						     "new path";

		if (lf_op_path(st, op, what, &f[k], &op->path[i]) != 0)
			return -1;
	}
	if (lf_smb5_handle(st, op) != 0)
		return -1;
	if (oi->has_handle && op->kind != OP_NTCREATEX) {
		if (lf_handle(st, op, &f[k++], false) != 0)
			return -1;
	}
	for (i = 0; i < nargs; i++, k++) {
		if (lf_value(st, op, lf_arg_names[op->kind][i], &f[k],
			     &op->arg[i]) != 0)
			return -1;
	}
	if (op->kind == OP_NTCREATEX) {
		if (lf_handle(st, op, &f[k++], true) != 0)
			return -1;
	}
	status = &f[k];
	if (status->quoted || ntstatus_parse(status->p, status->len, &check,
					     &op->status) != 0)
		return lf_error(st,
				"%s: expected a status (NT_STATUS_<name>, "
				"0x<hex>, SUCCESS, ERROR or *) as the last "
				"field, found %s",
				lf_op_name(op), lf_show_field(st, status));
	if (op_kind_is_smb5(op->kind) && !lf_smb5_status(status))
		return lf_error(st,
				"%s: expected SUCCESS, ERROR or * as the "
				"last field (dbench 5.0's smb dialect), "
				"found %s",
				lf_op_name(op), lf_show_field(st, status));
	op->check = (uint8_t)check;
	/* undecided: lf_decide() checks it when the dialect is known */
	if (st->dialect == LF_UNDECIDED)
		return 0;
	return lf_removal_confined(st, op);
}

/* Compile one line. */
static int lf_line(struct lf_state *st, const char *p, size_t len)
{
	struct lf_field f[LF_MAX_FIELDS];
	size_t i = 0, w, wlen;
	unsigned nf = 0, expected;
	double t = -1;
	struct op *op;
	int kind;

	if (memchr(p, '\0', len) != NULL)
		return lf_error(st, "binary data (a NUL byte); expected a text "
				    "loadfile");
	/* a UTF-8 byte order mark, as some Windows editors write */
	if (st->line == 1 && len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;
		len -= 3;
	}
	if (len > 0 && p[len - 1] == '\r')
		len--;
	while (len > 0 && lf_is_space(p[len - 1]))
		len--;
	while (i < len && lf_is_space(p[i]))
		i++;
	if (i == len || p[i] == '#')
		return 0;

	/* the first word: a time, or the command */
	w = i;
	while (i < len && !lf_is_space(p[i]))
		i++;
	wlen = i - w;
	if (p[w] >= '0' && p[w] <= '9' && memchr(p + w, '.', wlen) != NULL) {
		if (lf_time(st, p + w, wlen, &t) != 0)
			return -1;
		while (i < len && lf_is_space(p[i]))
			i++;
		if (i == len)
			return lf_error(st,
					"a time but no command; expected "
					"e.g. '%s ReadX ...'",
					lf_show(st, p + w, wlen));
		w = i;
		while (i < len && !lf_is_space(p[i]))
			i++;
		wlen = i - w;
	}

	kind = op_kind_from_name(p + w, wlen);
	if (kind < 0) {
		if (wlen >= 3 && strncmp(p + w, "SMB", 3) == 0)
			return lf_error(
				st,
				"'%s': this is a dbench-1 loadfile "
				"(SMB commands), which is not supported; "
				"expected NTCreateX, ReadX, WriteX, ...",
				lf_show(st, p + w, wlen));
		return lf_error(st,
				"unknown operation '%s'; expected a command "
				"such as NTCreateX, ReadX, WriteX or LOOP",
				lf_show(st, p + w, wlen));
	}

	op = lf_new_op(st);
	if (op == NULL)
		return -1;
	op->kind = (uint8_t)kind;
	if (lf_set_time(st, st->prog->nops - 1, t) != 0 ||
	    lf_sequence(st, op) != 0)
		return -1;

	if (kind == OP_WRITEPATTERN) {
		while (i < len && lf_is_space(p[i]))
			i++;
		if (i == len)
			return lf_error(st,
					"WRITEPATTERN: expected '%s', found "
					"no text",
					lf_usage[kind]);
		return lf_text(st, op, p + i, len - i);
	}

	if (lf_split(st, p, len, w, f, &nf) != 0)
		return -1;
	if (lf_dialect(st, op, f, nf) != 0)
		return -1;
	kind = op->kind;
	expected = lf_expected_fields(op->kind);
	if (nf != expected && !(kind == OP_UNLINK && nf == expected - 1))
		return lf_error(st, "%s: expected '%s', found %u field%s",
				lf_op_name(op), lf_usage[kind], nf,
				nf == 1 ? "" : "s");
	if (kind >= OP_NUM_MEASURED)
		return lf_control(st, op, f);
	return lf_measured(st, op, f, nf);
}

/* ---- whole-file checks ---- */

/* A handle used but never opened anywhere: an error at its first use. */
static int lf_check_handles(struct lf_state *st)
{
	const struct lf_handle *bad = NULL;

	for (uint32_t i = 0; st->htab != NULL && i <= st->htab_mask; i++) {
		const struct lf_handle *e = &st->htab[i];

		if (e->slot >= 0 && !e->produced &&
		    (bad == NULL || e->first_use < bad->first_use))
			bad = e;
	}
	if (bad == NULL)
		return 0;
	st->line = bad->first_use;
	if (op_kind_is_smb5(bad->first_kind))
		return lf_smb5_never_opened(st, bad);
	return lf_error(st,
			"%s: handle %lld is never opened; expected an "
			"NTCreateX somewhere in the file that opens it",
			op_info[bad->first_kind].name, (long long)bad->num);
}

/* A $i with no RANDOMSTRING i: an error at the first such line. */
static int lf_check_randoms(struct lf_state *st)
{
	uint32_t i, bad_line = 0;

	for (i = 0; i <= LF_MAX_RANDOM; i++) {
		if (st->random_use_line[i] != 0 && !st->random_defined[i] &&
		    (bad_line == 0 || st->random_use_line[i] < bad_line))
			bad_line = st->random_use_line[i];
		if (st->random_defined[i])
			st->prog->nrandom = i + 1;
	}
	if (bad_line == 0)
		return 0;
	for (i = 0; i <= LF_MAX_RANDOM; i++) {
		if (st->random_use_line[i] == bad_line &&
		    !st->random_defined[i])
			break;
	}
	st->line = bad_line;
	return lf_error(st, "path uses $%u, but the file has no RANDOMSTRING %u",
			i, i);
}

/*
 * Does the path component at *tp (up to end or '/') consist of dots and
 * $i only, some $i among them, each of which may be all dots?  Moves *tp
 * past the component.
 */
static bool lf_component_may_be_dots(const struct lf_state *st,
				     const char **tp, const char *end)
{
	const char *t = *tp;
	bool dots = true, any_random = false;

	while (t < end && *t != '/') {
		if (*t == '$' && t + 1 < end && t[1] >= '0' && t[1] <= '9') {
			unsigned idx = 0;

			for (t++; t < end && *t >= '0' && *t <= '9'; t++)
				idx = idx * 10 + (unsigned)(*t - '0');
			any_random = true;
			dots = dots && st->random_dots[idx];
			continue;
		}
		dots = dots && *t == '.';
		t++;
	}
	*tp = t;
	return any_random && dots;
}

/* A component made of dots and $i that may expand to "." or "..". */
static int lf_check_random_dots(struct lf_state *st)
{
	for (uint32_t i = 0; i < st->nrpaths; i++) {
		const struct path *pp = &st->paths[st->rpaths[i].path];
		const char *t = pp->text, *end = t + pp->len;

		while (t < end) {
			const char *c = t;

			if (lf_component_may_be_dots(st, &t, end)) {
				st->line = st->rpaths[i].line;
				return lf_error(st,
						"path \"%s\": component "
						"\"%s\" may expand to '.' or "
						"'..'; expected a RANDOMSTRING "
						"that cannot be all dots",
						lf_show(st, pp->text, pp->len),
						lf_show(st, c,
							(size_t)(t - c)));
			}
			if (t < end)
				t++;
		}
	}
	return 0;
}

/* arr (cap elements of elem bytes, n used) without its unused tail;
 * arr itself if it cannot shrink. */
static void *lf_shrink(struct lf_state *st, void *arr, size_t elem,
		       uint32_t cap, uint32_t n)
{
	void *a;

	if (arr == NULL || n == 0 || cap <= n)
		return arr;
	a = talloc_realloc_size(st->prog, arr, (size_t)n * elem);
	return a != NULL ? a : arr;
}

/* Give back the unused tails of the growing arrays (a reserved column's
 * tail was never written: it costs nothing). */
static void lf_trim(struct lf_state *st)
{
	struct program *prog = st->prog;

	if (!st->ops.area)
		prog->ops = lf_shrink(st, st->ops.base, st->ops.elem,
				      st->ops.cap, prog->nops);
	if (!st->times.area)
		prog->times = lf_shrink(st, st->times.base, st->times.elem,
					st->times.cap, prog->nops);
	prog->mods = lf_shrink(st, st->mods, sizeof(*st->mods), st->mods_cap,
			       prog->nmods);
	prog->values = lf_shrink(st, st->values, sizeof(*st->values),
				 st->values_cap, prog->nvalues);
	prog->texts = lf_shrink(st, st->texts, sizeof(*st->texts),
				st->texts_cap, prog->ntexts);
	prog->handle_nums = lf_shrink(st, prog->handle_nums,
				      sizeof(*prog->handle_nums),
				      st->handles_cap, prog->nhandles);
	prog->paths = lf_shrink(st, st->paths, sizeof(*st->paths),
				st->paths_cap, prog->npaths);
	prog->dirs = lf_shrink(st, st->dirs, sizeof(*st->dirs), st->dirs_cap,
			       prog->ndirs);
}

/*
 * One dialect per loadfile: the NFSv3 dialect's commands (with Deltree,
 * which its loadfiles use too) or the SMB ones, never both.  (A client
 * touches the statistics of one dialect's kinds only.)
 */
static int lf_one_dialect(struct lf_state *st)
{
	const struct program *prog = st->prog;
	const struct op *nfs = NULL, *smb = NULL;

	for (uint32_t i = 0; i < prog->nops && (nfs == NULL || smb == NULL);
	     i++) {
		const struct op *op = &prog->ops[i];

		if (op->kind >= OP_NUM_MEASURED || op->kind == OP_DELTREE)
			continue;
		if (op_kind_is_nfs3(op->kind)) {
			if (nfs == NULL)
				nfs = op;
		} else if (smb == NULL) {
			smb = op;
		}
	}
	const struct op *later, *earlier;

	if (nfs == NULL || smb == NULL)
		return 0;
	later = nfs->line > smb->line ? nfs : smb;
	earlier = later == nfs ? smb : nfs;
	st->line = later->line;
	return lf_error(st,
			"%s mixes the NFSv3 dialect with the SMB one (%s on "
			"line %u); expected the commands of one dialect per "
			"loadfile (Deltree goes with both)",
			op_info[later->kind].name, op_info[earlier->kind].name,
			earlier->line);
}

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

/*
 * Back the finished op array with transparent huge pages where the kernel
 * allows it (a hint; any failure leaves 4 KiB pages).  The array is read
 * by every worker: forking 1,024 workers copies the page tables of the
 * parent's private memory each time, 4,000 entries for the 16 MB of
 * Debian's client.txt with small pages, 8 with huge ones (and walking
 * the array needs 500 times fewer TLB entries).
 */
static void lf_huge_ops(struct program *prog)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = 2u << 20;
	uintptr_t a = (uintptr_t)prog->ops;
	uintptr_t e = a + (uintptr_t)prog->nops * sizeof(struct op);
	uintptr_t lo = (a + huge - 1) & ~(huge - 1), hi = e & ~(huge - 1);

	if (hi <= lo)
		return;
	if (madvise((void *)lo, hi - lo, MADV_HUGEPAGE) != 0)
		return;
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25	/* Linux 6.1; older kernels say EINVAL */
#endif
	(void)madvise((void *)lo, hi - lo, MADV_COLLAPSE);
#endif
}

/* ---- entry points ---- */

/* The empty interning tables; the directory table's entry
 * PATH_DIR_ROOT, "". */
static int lf_dirs_init(struct lf_state *st)
{
	struct program *prog = st->prog;

	if (lf_itab_size(st, &st->path_tab, 0, lf_path_text) != 0)
		return -1;
	prog->dirs = st->dirs = lf_grow(st, NULL, sizeof(*st->dirs),
					&st->dirs_cap, 1, 64);
	if (st->dirs == NULL)
		return -1;
	st->dirs[PATH_DIR_ROOT].text = "";
	st->dirs[PATH_DIR_ROOT].len = 0;
	prog->ndirs = 1;
	return lf_itab_size(st, &st->dir_tab, prog->ndirs, lf_dir_text);
}

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
