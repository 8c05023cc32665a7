/*
 * device_range.c - a block or SCSI loadfile against the size of its
 * device, before the run: writes the command line did not allow, and
 * offsets past the end (constants, random values a '%' bounds, and
 * unbounded random values whose smallest value is past it), each refused
 * naming the loadfile's line; and at the op, the draw of an unbounded
 * random offset among the values its '/' and '+' terms allow that fit in
 * the device.  Never a wrap: dbench 5.0 wrapped such offsets around the
 * device, which hides a loadfile written for a larger device and moves
 * an offset below the floor its '+' term sets.
 */
#include "config.h"

#include <talloc.h>

#include "backends/device/device_range.h"

/* The largest value argument i of op can take, or false when that is not
 * known before the run (relative, or an unbounded '*'). */
static bool range_max(const struct program *p, const struct op *op,
		      unsigned i, uint64_t *max)
{
	struct value v = program_arg(p, op, i);
	bool bounded = false;
	uint64_t x = (uint64_t)INT64_MAX, al = 1;

	if (v.kind == VAL_CONST) {
		*max = (uint64_t)v.v;
		return true;
	}
	if (v.kind != VAL_RANDOM)
		return false;
	/* al: what the value is a multiple of so far (the engine applies
	 * the modifiers left to right: '*' /4096 %1G reaches 1G - 4096) */
	for (unsigned m = 0; m < v.nmods; m++) {
		const struct value_mod *mod = &p->mods[v.mods + m];
		uint64_t y = (uint64_t)mod->y;

		switch (mod->op) {
		case '/':
			x -= x % y;
			al = y;
			break;
		case '%':
			if (y % al == 0) {
				if (y - al < x)
					x = y - al;
			} else {
				if (y - 1 < x)
					x = y - 1;
				al = 1;
			}
			bounded = true;
			break;
		default:
			x = x > UINT64_MAX - y ? UINT64_MAX : x + y;
			if (y % al != 0)
				al = 1;
			break;
		}
	}
	*max = x;
	return bounded;
}

/* The value the '/' and '+' modifiers of v make of r (no '%': see
 * device_range_unbounded), saturating instead of wrapping. */
static uint64_t apply_mods(const struct program *p, const struct value *v,
			   uint64_t r)
{
	for (unsigned m = 0; m < v->nmods; m++) {
		const struct value_mod *mod = &p->mods[v->mods + m];
		uint64_t y = (uint64_t)mod->y;

		if (mod->op == '/')
			r -= r % y;
		else
			r = r > UINT64_MAX - y ? UINT64_MAX : r + y;
	}
	return r;
}

/*
 * The largest random number r whose value (apply_mods) is at most limit,
 * or false when even r = 0 gives more.  The modifiers only round down and
 * add, so the value never falls as r grows: undo them right to left.
 */
static bool largest_draw(const struct program *p, const struct value *v,
			 uint64_t limit, uint64_t *r)
{
	uint64_t x = limit;

	for (unsigned m = v->nmods; m-- > 0;) {
		const struct value_mod *mod = &p->mods[v->mods + m];
		uint64_t y = (uint64_t)mod->y;

		if (mod->op == '/') {
			/* r - r % y <= x  <=>  r <= x - x % y + y - 1 */
			uint64_t top = x - x % y;

			x = top > UINT64_MAX - (y - 1) ? UINT64_MAX
						       : top + y - 1;
		} else {
			if (x < y)
				return false;
			x -= y;
		}
	}
	*r = x < (uint64_t)INT64_MAX ? x : (uint64_t)INT64_MAX;
	return apply_mods(p, v, 0) <= limit;
}

/* The smallest value an unbounded '*' argument takes (its draw of 0). */
static uint64_t unbounded_min(const struct program *p, const struct op *op,
			      unsigned i)
{
	struct value v = program_arg(p, op, i);

	return apply_mods(p, &v, 0);
}

static bool kind_writes(unsigned kind)
{
	return kind == OP_BWRITE || kind == OP_WRITE10 || kind == OP_WRITE16;
}

/* Does the kind name an extent of the device (offset or LBA, then size
 * or blocks)? */
static bool kind_has_extent(unsigned kind)
{
	switch (kind) {
	case OP_BREAD:
	case OP_BWRITE:
	case OP_READ6:
	case OP_READ10:
	case OP_READ16:
	case OP_WRITE10:
	case OP_WRITE16:
	case OP_SYNCHRONIZECACHE10:
		return true;
	default:
		return false;
	}
}

/* An unbounded '*' offset is drawn within the device at the op, among
 * the values its modifiers allow: refuse one whose smallest value is
 * already past limit (the last offset at which the op's extent fits). */
static int range_unbounded(void *mem, const struct device_range *r,
			   const struct program *p, const struct op *op,
			   uint64_t limit, char **err)
{
	bool blocks = op_kind_is_scsi(op->kind);
	uint64_t lo = unbounded_min(p, op, 0);

	if (lo <= limit)
		return 0;
	*err = talloc_asprintf(mem, "%s:%u: %s: a random %s is at least "
			       "%llu, past the last %s at which the op fits "
			       "in '%s' (%llu)", p->filename, op->line,
			       op_info[op->kind].name,
			       blocks ? "lba" : "offset",
			       (unsigned long long)lo,
			       blocks ? "lba" : "offset", r->device,
			       (unsigned long long)limit);
	return -1;
}

static int range_op(void *mem, const struct device_range *r,
		    const struct program *p, const struct op *op, char **err)
{
	const char *name = op_info[op->kind].name;
	bool blocks = op_kind_is_scsi(op->kind);
	uint64_t units = r->size / r->unit, omax = 0, nmax = 0;
	bool oknown = range_max(p, op, 0, &omax);
	bool nknown = range_max(p, op, 1, &nmax);

	if (kind_writes(op->kind) && !r->allow_writes) {
		*err = talloc_asprintf(mem, "%s:%u: %s writes to '%s'; dbench "
				       "writes to a device only with %s",
				       p->filename, op->line, name, r->device,
				       r->writes_flag);
		return -1;
	}
	if (!kind_has_extent(op->kind) || !nknown)
		return 0;
	if (nmax == 0 && (op->kind == OP_BREAD || op->kind == OP_BWRITE)) {
		*err = talloc_asprintf(mem, "%s:%u: %s: size 0 transfers "
				       "nothing; expected at least 1 byte",
				       p->filename, op->line, name);
		return -1;
	}
	if (nmax > units) {
		*err = talloc_asprintf(mem, "%s:%u: %s: %s %llu is more than "
				       "'%s' holds (%llu %s)", p->filename,
				       op->line, name,
				       blocks ? "blocks" : "size",
				       (unsigned long long)nmax, r->device,
				       (unsigned long long)units,
				       blocks ? "blocks" : "bytes");
		return -1;
	}
	if (!oknown && device_range_unbounded(p, op, 0))
		return range_unbounded(mem, r, p, op, units - nmax, err);
	if (oknown && omax > units - nmax) {
		struct value v = program_arg(p, op, 0);

		*err = talloc_asprintf(mem, "%s:%u: %s: %s%s %llu + %s %llu "
				       "is past the end of '%s' (%llu %s)",
				       p->filename, op->line, name,
				       v.kind == VAL_RANDOM ? "a random " : "",
				       blocks ? "lba" : "offset",
				       (unsigned long long)omax,
				       blocks ? "blocks" : "size",
				       (unsigned long long)nmax, r->device,
				       (unsigned long long)units,
				       blocks ? "blocks" : "bytes");
		return -1;
	}
	return 0;
}

int device_range_check(void *mem, const struct device_range *r,
		       const struct program *p, char **err)
{
	for (uint32_t i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];

		if (op->kind >= OP_NUM_MEASURED)
			continue;
		if (range_op(mem, r, p, op, err) != 0)
			return -1;
	}
	return 0;
}

/* A well-mixed 64-bit number from x (the engine's draw has lost its low
 * bits to '/' and gained the '+' terms). */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ull;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dull;
	x ^= x >> 33;
	return x;
}

uint64_t device_range_draw(const struct program *p, const struct op *op,
			   unsigned i, uint64_t raw, uint64_t span)
{
	struct value v = program_arg(p, op, i);
	uint64_t rmax;

	if (span == 0 || !largest_draw(p, &v, span - 1, &rmax))
		return apply_mods(p, &v, 0);
	return apply_mods(p, &v, mix(raw) % (rmax + 1));
}
