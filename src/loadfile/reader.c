/*
 * reader.c - the loadfile compiler's input side: error messages (with
 * the file and line, tokens quoted safely), the line reader over a
 * buffer or a gzip stream through a bounded window, and the tokenizer
 * that splits a line into fields in place.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include <talloc.h>
#include <zlib.h>

#include "loadfile/program.h"
#include "lf_private.h"

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
int lf_error(struct lf_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lf_verror(st, true, fmt, ap);
	va_end(ap);
	return -1;
}

/* The same without a line: "FILE: message". */
LF_PRINTF(2, 3)
int lf_file_error(struct lf_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lf_verror(st, false, fmt, ap);
	va_end(ap);
	return -1;
}

int lf_nomem(struct lf_state *st)
{
	return lf_file_error(st, "out of memory");
}

/*
 * A token as shown in a message: at most LF_SHOW_MAX bytes, bytes that
 * are not printable ASCII shown as '?', "..." when cut.  Allocated in tmp.
 */
const char *lf_show(struct lf_state *st, const char *p, size_t len)
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

const char *lf_show_field(struct lf_state *st, const struct lf_field *f)
{
	const char *s;

	s = talloc_asprintf(st->tmp, f->quoted ? "\"%s\"" : "'%s'",
			    lf_show(st, f->p, f->len));
	return s != NULL ? s : "?";
}

/* A normalised path shown as the loadfile spells it, '\' between components
 * (without the leading one). */
const char *lf_show_dos(struct lf_state *st, const struct path *pp)
{
	char *s = (char *)lf_show(st, pp->text, pp->len);

	for (char *c = s; *c != '\0'; c++)
		if (*c == '/')
			*c = '\\';
	return s;
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
int lf_next_line(struct lf_state *st, const char **line, size_t *len)
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

/*
 * Split p[pos..len) into fields.  Counts every field in *nfields but
 * stores at most LF_MAX_FIELDS.  A field starting with '"' runs to the
 * next '"' and must be followed by whitespace or the end of the line.
 */
int lf_split(struct lf_state *st, const char *p, size_t len, size_t pos,
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
