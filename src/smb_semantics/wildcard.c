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
 *   star cannot make up for), once the greedy matcher reaches the '<'
 *   (failing before it is final): the mask is read once, left to right,
 *   carrying the set of name positions the mask read so far can end at
 *   (one byte per position); each mask character maps that set to the
 *   next one in one pass over the name.  O(mask * name).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "smb_semantics/wildcard.h"

/* Position sets of names up to this long live on the stack. */
#define WILDCARD_STACK	256

/*
 * A mask character that consumes one name character or none, depending
 * only on that character.  Returns 1 (consume), 0 (stay) or -1 (fail)
 * for the character at p (name[n] is the terminating NUL).
 */
/* ASCII case folding: what tolower() does in the C locale dbench runs
 * in, without a call per character. */
static inline char wc_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static inline int step_of(char m, char c)
{
	switch (m) {
	case '>':	/* one character, none at a dot or the end */
		return c != '\0' && c != '.' ? 1 : 0;
	case '"':	/* a dot, or nothing at the end */
		return c == '.' ? 1 : c == '\0' ? 0 : -1;
	case '?':
		return c != '\0' ? 1 : -1;
	default:
		return c != '\0' && wc_lower(m) == wc_lower(c) ? 1 : -1;
	}
}

/*
 * The set of name positions reachable so far: at[p] for p in [lo, hi]
 * (outside that range nothing is reachable; at[lo] and at[hi] are set).
 * Each step touches only the range, so a mask that pins the match down
 * early ("<.JNK") costs little more than the name's length.
 */
struct wc_set {
	uint8_t *at;
	size_t lo, hi, n;
};

/* '*': from the first reachable position on, everything is reachable. */
static void set_star(struct wc_set *s)
{
	memset(s->at + s->lo, 1, s->n - s->lo + 1);
	s->hi = s->n;
}

/*
 * '<': from p, any position up to the name's last '.' (p itself
 * included), or up to the end when that dot lies before p.
 */
static void set_dos_star(struct wc_set *s, const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t last = dot != NULL ? (size_t)(dot - name) : s->n;
	size_t p1 = s->lo > last ? s->lo : last + 1;
	bool after;

	/* a reachable position after the last dot (read before the fill) */
	while (p1 <= s->hi && !s->at[p1])
		p1++;
	after = p1 <= s->hi;
	/* s->lo is reachable: up to the dot from there */
	if (s->lo <= last) {
		memset(s->at + s->lo, 1, last - s->lo + 1);
		s->hi = last;
	}
	if (after) {
		memset(s->at + p1, 1, s->n - p1 + 1);
		s->hi = s->n;
	}
}

/* A single-step mask character; false if nothing is reachable. */
static bool set_one(struct wc_set *s, const char *name, char m)
{
	size_t lo = s->lo, top = s->hi < s->n ? s->hi + 1 : s->n;
	int here, below;
	bool any = false;

	if (top > s->hi)
		s->at[top] = 0;	/* outside the range until now */
	/* downwards, so that at[q - 1] is still the old value; one step_of
	 * per position (here: at q, below: at q - 1) */
	here = step_of(m, name[top]);
	for (size_t q = top + 1; q-- > lo; here = below) {
		bool reach = s->at[q] && here == 0;

		below = q > lo ? step_of(m, name[q - 1]) : -1;
		if (below == 1 && s->at[q - 1])
			reach = true;
		s->at[q] = reach;
		if (reach) {
			if (!any)
				s->hi = q;
			s->lo = q;
			any = true;
		}
	}
	return any;
}

/* What the greedy matcher found. */
enum wc_greedy {
	WC_NO = 0,
	WC_YES,
	WC_DOS_STAR,	/* reached a '<': the position sets must decide */
};

/*
 * Greedy, backtracking to the last '*' only.  A failure before any '<'
 * is final: the piece that failed was tried at every start the last '*'
 * allows, and earlier stars could only move those starts later.
 */
static enum wc_greedy match_greedy(const char *mask, const char *name)
{
	const char *star = NULL, *resume = NULL;
	int step;

	for (;;) {
		if (*mask == '*') {
			while (*mask == '*')
				mask++;
			if (*mask == '\0')
				return WC_YES;	/* a trailing '*' takes the rest */
			star = mask;
			resume = name;
			continue;
		}
		if (*mask == '<')
			return WC_DOS_STAR;
		if (*mask != '\0') {
			step = step_of(*mask, *name);
			if (step >= 0) {
				mask++;
				name += step;
				continue;
			}
		} else if (*name == '\0') {
			return WC_YES;
		}
		/* no match here: the last '*' takes one more character */
		if (star == NULL || *resume == '\0')
			return WC_NO;
		mask = star;
		name = ++resume;
	}
}

/* Masks with '<': the position sets (see the top of the file). */
static bool match_positions(const char *mask, const char *name)
{
	uint8_t stack[WILDCARD_STACK + 1];
	struct wc_set s = { .at = stack, .n = strlen(name) };
	bool ok = true;

	if (s.n > WILDCARD_STACK) {
		s.at = malloc(s.n + 1);
		if (s.at == NULL)
			return false;
	}
	s.at[0] = 1;
	for (; ok && *mask != '\0'; mask++) {
		if (*mask == '*') {
			while (mask[1] == '*')
				mask++;
			if (mask[1] == '\0')
				break;	/* a trailing '*' takes the rest */
			set_star(&s);
		} else if (*mask == '<') {
			set_dos_star(&s, name);
		} else {
			ok = set_one(&s, name, *mask);
		}
	}
	if (ok && *mask == '\0')
		ok = s.hi == s.n && s.at[s.n];
	if (s.at != stack)
		free(s.at);
	return ok;
}

/*
 * Nearly every FIND_FIRST mask is one '*' or one '<' between two plain
 * runs ("*", "*.DOC", "CHAP*.DOC", "<.JNK").  Every other character of
 * such a mask consumes exactly one name character, so the run the star
 * takes has a known length: the name matches when it is long enough,
 * its two ends are the runs and, for '<', that run stops at the name's
 * last dot (see wildcard.h).  Each name byte is compared at most once,
 * where the general matchers retry the suffix at every position.
 */
HOT_PATH
void wildcard_prepare(struct wildcard *w, const char *mask)
{
	const char *star = NULL;
	size_t m;

	w->mask = mask;
	w->form = WILDCARD_GENERAL;
	w->suf_dot = false;
	for (m = 0; mask[m] != '\0'; m++) {
		switch (mask[m]) {
		case '*':
		case '<':
			if (star != NULL)
				return;
			star = mask + m;
			break;
		case '?':
		case '>':
		case '"':
			return;
		default:
			break;
		}
	}
	if (star == NULL || m > UINT32_MAX)
		return;
	w->form = *star == '*' ? WILDCARD_STAR : WILDCARD_DOS_STAR;
	w->pre = (uint32_t)(star - mask);
	w->suf = (uint32_t)(m - w->pre - 1);
	w->suf_dot = strchr(star + 1, '.') != NULL;
}

/*
 * '<' at position pre takes name[pre, q), q = n - suf: from pre, q may go
 * up to the name's last dot, or to the end when there is no dot at or
 * after pre (set_dos_star).  (A suffix with a dot puts one at or after q:
 * wildcard_matches() does not ask.)
 */
bool wildcard_dos_star_ok(const struct wildcard *w, const char *name,
			  size_t n)
{
	const char *dot = strrchr(name, '.');
	size_t last = dot != NULL ? (size_t)(dot - name) : n;

	return last < w->pre || n - w->suf <= last;
}

bool wildcard_matches_general(const struct wildcard *w, const char *name)
{
	switch (match_greedy(w->mask, name)) {
	case WC_YES:
		return true;
	case WC_NO:
		return false;
	default:
		return match_positions(w->mask, name);
	}
}

bool wildcard_match(const char *mask, const char *name)
{
	struct wildcard w;

	wildcard_prepare(&w, mask);
	return wildcard_matches(&w, name, strlen(name));
}

HOT_PATH
bool wildcard_is_pattern(const char *mask)
{
	return strpbrk(mask, WILDCARD_CHARS) != NULL;
}
