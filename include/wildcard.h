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

/* Does mask hold a wildcard character (is it a pattern, not a name)? */
bool wildcard_is_pattern(const char *mask);

#endif
