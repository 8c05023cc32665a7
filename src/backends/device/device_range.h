/*
 * device_range.h - offsets and sizes of the block and SCSI dialects
 * against the size of the device (device_range.c): the check of a whole
 * loadfile before the run, and the draw of an unbounded random value
 * within the device at the op.
 */
#ifndef DBENCH_DEVICE_RANGE_H
#define DBENCH_DEVICE_RANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "loadfile/program.h"

struct device_range {
	const char *device;	/* its name in messages */
	uint64_t size;		/* bytes */
	uint64_t unit;		/* bytes per offset unit: 1, or the block size */
	bool allow_writes;
	const char *writes_flag; /* the option that allows them, for messages */
};

/*
 * Check every op of p against r: a write without r->allow_writes, a
 * constant or bounded random offset (with its size) past the device's
 * end, an unbounded random offset whose smallest value is past it, a
 * block READ or WRITE of size 0.  Returns 0, or -1 with *err (under mem)
 * "FILE:LINE: ...".
 */
int device_range_check(void *mem, const struct device_range *r,
		       const struct program *p, char **err);

/* Is argument i of op a '*' value without a '%' modifier (a random 63-bit
 * number, which the device backends draw within the device instead)? */
static inline bool device_range_unbounded(const struct program *p,
					  const struct op *op, unsigned i)
{
	struct value v;

	if (p == NULL || !(op->arg[i] & OP_ARG_REF))
		return false;
	v = p->values[op->arg[i] & ~OP_ARG_REF];
	if (v.kind != VAL_RANDOM)
		return false;
	for (unsigned m = 0; m < v.nmods; m++)
		if (p->mods[v.mods + m].op == '%')
			return false;
	return true;
}

/*
 * An offset below span for argument i of op, an unbounded '*' value (see
 * above), from raw (the engine's draw of it): a value its modifiers can
 * make (every '/' alignment and '+' term, left to right) at most span - 1,
 * never a wrap.  When there is none (span 0, or the smallest value is
 * span or more; device_range_check refuses that before the run when the
 * size is known) it returns the smallest value, which the caller finds
 * past the end.
 */
uint64_t device_range_draw(const struct program *p, const struct op *op,
			   unsigned i, uint64_t raw, uint64_t span);

#endif
