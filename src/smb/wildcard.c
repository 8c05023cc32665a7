/*
 * wildcard.c - SMB wildcard matching in O(mask * name) time.
 *
 * The obvious recursive matcher retries every split of the name at every
 * '*', which is exponential: "*a*a*a*a*a*a*a*a*c" against 40 'a's took
 * seconds.  Two bounded matchers replace it:
 *
 * - Masks without '<' (nearly all): the greedy matcher that only ever
 *   backtracks to the last '*'.  That is enough because every other mask
 *   character consumes one name character or none, decided by that
 *   character alone, so a piece of mask matched at an earlier start never
 *   ends later; the earliest match of the piece after a '*' is the best.
 *   Linear for the usual masks, O(mask * name) at worst.
 * - Masks with '<' (a run bounded by the name's last dot, which a later
 *   star cannot make up for): the mask is read once, left to right,
 *   carrying the set of name positions the mask read so far can end at
 *   (one byte per position); each mask character maps that set to the
 *   next one in one pass over the name.  O(mask * name).
 */
#include "config.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wildcard.h"

/* Position sets of names up to this long live on the stack. */
#define WILDCARD_STACK	256

/* '*': from the first reachable position on, everything is reachable. */
static void step_star(uint8_t *at, size_t n)
{
	size_t p = 0;

	while (p <= n && !at[p])
		p++;
	for (; p <= n; p++)
		at[p] = 1;
}

/*
 * '<': from p, any position up to the name's last '.' (p itself
 * included), or up to the end when that dot lies before p.
 */
static void step_dos_star(uint8_t *at, size_t n, const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t last = dot != NULL ? (size_t)(dot - name) : n;
	size_t p = 0;

	/* positions at or before the last dot run up to it */
	while (p <= last && !at[p])
		p++;
	for (; p <= last; p++)
		at[p] = 1;
	/* positions after it (if any was reachable) run to the end */
	while (p <= n && !at[p])
		p++;
	for (; p <= n; p++)
		at[p] = 1;
}

/*
 * A mask character that consumes one name character or none, depending
 * only on that character.  Returns 1 (consume), 0 (stay) or -1 (fail)
 * for the character at p (name[n] is the terminating NUL).
 */
static int step_of(char m, char c)
{
	switch (m) {
	case '>':	/* one character, none at a dot or the end */
		return c != '\0' && c != '.' ? 1 : 0;
	case '"':	/* a dot, or nothing at the end */
		return c == '.' ? 1 : c == '\0' ? 0 : -1;
	case '?':
		return c != '\0' ? 1 : -1;
	default:
		return c != '\0' && tolower((unsigned char)m) ==
					    tolower((unsigned char)c) ? 1 : -1;
	}
}

/* Apply one single-step mask character; false if nothing is reachable. */
static bool step_one(uint8_t *at, size_t n, const char *name, char m)
{
	bool any = false;

	/* downwards, so that at[p - 1] is still the old value */
	for (size_t q = n + 1; q-- > 0;) {
		bool reach = at[q] && step_of(m, name[q]) == 0;

		if (q > 0 && at[q - 1] && step_of(m, name[q - 1]) == 1)
			reach = true;
		at[q] = reach;
		any |= reach;
	}
	return any;
}

/* Masks without '<': greedy, backtracking to the last '*' only. */
static bool match_greedy(const char *mask, const char *name)
{
	const char *star = NULL, *resume = NULL;
	int step;

	for (;;) {
		if (*mask == '*') {
			while (*mask == '*')
				mask++;
			if (*mask == '\0')
				return true;	/* a trailing '*' takes the rest */
			star = mask;
			resume = name;
			continue;
		}
		if (*mask != '\0') {
			step = step_of(*mask, *name);
			if (step >= 0) {
				mask++;
				name += step;
				continue;
			}
		} else if (*name == '\0') {
			return true;
		}
		/* no match here: the last '*' takes one more character */
		if (star == NULL || *resume == '\0')
			return false;
		mask = star;
		name = ++resume;
	}
}

/* Masks with '<': the position sets (see the top of the file). */
static bool match_positions(const char *mask, const char *name)
{
	uint8_t stack[WILDCARD_STACK + 1], *at = stack;
	size_t n = strlen(name);
	bool ok = true;

	if (n > WILDCARD_STACK) {
		at = malloc(n + 1);
		if (at == NULL)
			return false;
	}
	memset(at, 0, n + 1);
	at[0] = 1;
	for (; ok && *mask != '\0'; mask++) {
		if (*mask == '*') {
			while (mask[1] == '*')
				mask++;
			if (mask[1] == '\0')
				break;	/* a trailing '*' takes the rest */
			step_star(at, n);
			continue;
		}
		if (*mask == '<')
			step_dos_star(at, n, name);
		else
			ok = step_one(at, n, name, *mask);
	}
	if (ok && *mask == '\0')
		ok = at[n];
	if (at != stack)
		free(at);
	return ok;
}

bool wildcard_match(const char *mask, const char *name)
{
	if (strchr(mask, '<') == NULL)
		return match_greedy(mask, name);
	return match_positions(mask, name);
}

bool wildcard_is_pattern(const char *mask)
{
	return strpbrk(mask, WILDCARD_CHARS) != NULL;
}
