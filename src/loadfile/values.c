/*
 * values.c - the loadfile compiler's numbers: plain numbers, value forms
 * (constants, '*' random values with /y %y +y modifiers, '+y' relative
 * values), handle numbers mapped to dense slots, and the texts of
 * WRITEPATTERN and RANDOMSTRING.
 */
#include "config.h"

#include <string.h>

#include <talloc.h>

#include "util/util.h"
#include "loadfile/program.h"
#include "lf_private.h"

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
int lf_plain(struct lf_state *st, const struct op *op, const char *what,
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
 * Store val (whose modifiers, if any, are mods[0..nmods)) as an op
 * argument: the number itself when it is a small constant, else a new
 * entry of prog->values.
 */
int lf_put_value(struct lf_state *st, struct value val,
		 const struct value_mod *mods, unsigned nmods, op_arg *out)
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

/*
 * A numeric argument: a constant, '*' with modifiers, or '+y'.  Modifiers
 * after a constant are applied here, leaving a constant.
 */
int lf_value(struct lf_state *st, const struct op *op, const char *what,
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
int lf_handle_num(struct lf_state *st, struct op *op, int64_t num, bool produce)
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
int lf_handle(struct lf_state *st, struct op *op, const struct lf_field *f,
	      bool produce)
{
	int64_t num;

	if (lf_plain(st, op, "handle", f, INT64_MAX, &num) != 0)
		return -1;
	return lf_handle_num(st, op, num, produce);
}

/* A handle used but never opened anywhere: an error at its first use. */
int lf_check_handles(struct lf_state *st)
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

/* ---- texts ---- */

/* A copy of p[0..len) in prog->texts, the op's text. */
int lf_text(struct lf_state *st, struct op *op, const char *p, size_t len)
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
int lf_random_pattern(struct lf_state *st, struct op *op,
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

/* lf_check_handles()'s refusal for a path the smb dialect never opens. */
int lf_smb5_never_opened(struct lf_state *st, const struct lf_handle *bad)
{
	const struct path *pp = &st->prog->paths[bad->num];

	return lf_error(st,
			"%s: \"\\%s\" is never opened; expected an OPEN of "
			"it somewhere in the file",
			op_info[bad->first_kind].name, lf_show_dos(st, pp));
}
