/*
 * wildcard.h - SMB wildcard masks (FIND_FIRST), matched in bounded time.
 *
 * A mask is one path component that may hold '*' and '?' and the DOS
 * forms clients send for 8.3-style masks ('<' '>' '"').  Matching is
 * case-insensitive (ASCII), as on a Windows server.
 */
#ifndef DBENCH_WILDCARD_H
#define DBENCH_WILDCARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The characters that make a mask a wildcard rather than one name. */
#define WILDCARD_CHARS	"*?<>\""

/*
 * Does name match mask?  '*' matches any run of characters, '?' exactly
 * one.  '<' matches any run that does not go past the last '.' of the
 * name, '>' one character but nothing at a '.' or at the end, '"' a '.'
 * or the end of the name.  Takes O(strlen(mask) * strlen(name)) time
 * whatever the mask; allocates only for names over 255 bytes (false if
 * that allocation fails).
 */
bool wildcard_match(const char *mask, const char *name);

/* A mask prepared once for matching many names (a directory's). */
struct wildcard {
	const char *mask;	/* the caller's; must outlive the struct */
	uint32_t pre, suf;	/* plain runs around the one '*' or '<' */
	uint8_t form;		/* enum wildcard_form */
	bool suf_dot;		/* the run after a '<' has a '.' */
};

enum wildcard_form {
	WILDCARD_GENERAL = 0,	/* anything else: the general matchers */
	WILDCARD_STAR,		/* plain '*' plain */
	WILDCARD_DOS_STAR,	/* plain '<' plain */
};

/* Prepare mask (kept by pointer) for wildcard_matches(). */
void wildcard_prepare(struct wildcard *w, const char *mask);

/* Does w match every name (the mask "*")? */
static inline bool wildcard_any(const struct wildcard *w)
{
	return w->form == WILDCARD_STAR && w->pre + w->suf == 0;
}

/* wildcard_matches() for a WILDCARD_GENERAL mask. */
bool wildcard_matches_general(const struct wildcard *w, const char *name);

/* wildcard_matches()' last test for a '<' without a '.' after it: the
 * run it takes stops at the name's last dot. */
bool wildcard_dos_star_ok(const struct wildcard *w, const char *name,
			  size_t n);

/* a[0..n) and b[0..n) are equal but for ASCII case; compared from the
 * end, where a directory's names differ most. */
static inline bool wildcard_same_folded(const char *a, const char *b,
					size_t n)
{
	while (n-- > 0) {
		unsigned char x = (unsigned char)a[n], y = (unsigned char)b[n];

		if (x != y && ((x ^ y) != 0x20 ||
			       (unsigned char)((x | 0x20) - 'a') > 'z' - 'a'))
			return false;
	}
	return true;
}

/*
 * wildcard_match(w's mask, name), without reading the mask again; n is
 * strlen(name).  Inline for the masks with one '*' or '<' between plain
 * runs (wildcard_prepare): the name's two ends are compared with them.
 */
static inline bool wildcard_matches(const struct wildcard *w,
				    const char *name, size_t n)
{
	if (w->form == WILDCARD_GENERAL)
		return wildcard_matches_general(w, name);
	if (n < (size_t)w->pre + w->suf ||
	    !wildcard_same_folded(w->mask + w->pre + 1, name + n - w->suf,
				  w->suf) ||
	    !wildcard_same_folded(w->mask, name, w->pre))
		return false;
	return w->form == WILDCARD_STAR || w->suf_dot ||
	       wildcard_dos_star_ok(w, name, n);
}

/* Does mask hold a wildcard character (is it a pattern, not a name)? */
bool wildcard_is_pattern(const char *mask);

#endif
