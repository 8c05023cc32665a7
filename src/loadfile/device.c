/*
 * device.c - the loadfile dialects below the filesystem: dbench 5.0's
 * block dialect (READ and WRITE of bytes at an offset of a block device)
 * and its SCSI dialect (TESTUNITREADY, READ10, PROUT, ... sent to a
 * SCSI device or an iSCSI LUN).  One table says each command's fields;
 * the SCSI commands' small flag fields are packed into one argument so
 * that every command fits in an op's PROGRAM_MAX_ARGS.
 */
#include "config.h"

#include <stdint.h>

#include "loadfile/ntstatus.h"
#include "loadfile/program.h"
#include "lf_private.h"

/* A field: a value form (offsets, lengths) or a plain number up to max,
 * OR-ed into argument arg shifted left by shift. */
struct lf_dev_field {
	const char *name;
	int64_t max;		/* 0: a value form ('*', '+y', ...) */
	uint8_t arg;
	uint8_t shift;
};

struct lf_dev_shape {
	const char *usage;
	uint8_t nfields;
	struct lf_dev_field f[4];
};

#define LF_ANY 0			/* a value form */
#define LF_U32 0xFFFFFFFFll

/* clang-format off */
static const struct lf_dev_shape lf_dev_shapes[] = {
	[OP_BREAD - OP_BLOCK_FIRST] = { "READ offset size status", 2,
		{ { "offset", LF_ANY, 0, 0 }, { "size", LF_ANY, 1, 0 } } },
	[OP_BWRITE - OP_BLOCK_FIRST] = { "WRITE offset size status", 2,
		{ { "offset", LF_ANY, 0, 0 }, { "size", LF_ANY, 1, 0 } } },
	[OP_TESTUNITREADY - OP_BLOCK_FIRST] = { "TESTUNITREADY status", 0,
		{ { 0 } } },
	[OP_READ6 - OP_BLOCK_FIRST] = { "READ6 lba blocks status", 2,
		{ { "lba", LF_ANY, 0, 0 }, { "blocks", LF_ANY, 1, 0 } } },
	[OP_READ10 - OP_BLOCK_FIRST] = {
		"READ10 lba blocks flags group status", 4,
		{ { "lba", LF_ANY, 0, 0 }, { "blocks", LF_ANY, 1, 0 },
		  { "flags", 0xFF, 2, 0 }, { "group", 0x1F, 2, 8 } } },
	[OP_READ16 - OP_BLOCK_FIRST] = {
		"READ16 lba blocks flags group status", 4,
		{ { "lba", LF_ANY, 0, 0 }, { "blocks", LF_ANY, 1, 0 },
		  { "flags", 0xFF, 2, 0 }, { "group", 0x1F, 2, 8 } } },
	[OP_WRITE10 - OP_BLOCK_FIRST] = {
		"WRITE10 lba blocks flags group status", 4,
		{ { "lba", LF_ANY, 0, 0 }, { "blocks", LF_ANY, 1, 0 },
		  { "flags", 0xFF, 2, 0 }, { "group", 0x1F, 2, 8 } } },
	[OP_WRITE16 - OP_BLOCK_FIRST] = {
		"WRITE16 lba blocks flags group status", 4,
		{ { "lba", LF_ANY, 0, 0 }, { "blocks", LF_ANY, 1, 0 },
		  { "flags", 0xFF, 2, 0 }, { "group", 0x1F, 2, 8 } } },
	[OP_READCAPACITY10 - OP_BLOCK_FIRST] = {
		"READCAPACITY10 lba pmi status", 2,
		{ { "lba", LF_U32, 0, 0 }, { "pmi", 1, 1, 0 } } },
	[OP_READCAPACITY16 - OP_BLOCK_FIRST] = {
		"READCAPACITY16 lba pmi status", 2,
		{ { "lba", INT64_MAX, 0, 0 }, { "pmi", 1, 1, 0 } } },
	[OP_SYNCHRONIZECACHE10 - OP_BLOCK_FIRST] = {
		"SYNCHRONIZECACHE10 lba blocks syncnv immed status", 4,
		{ { "lba", LF_ANY, 0, 0 }, { "blocks", LF_ANY, 1, 0 },
		  { "syncnv", 1, 2, 0 }, { "immed", 1, 2, 1 } } },
	[OP_INQUIRY - OP_BLOCK_FIRST] = { "INQUIRY evpd page status", 2,
		{ { "evpd", 1, 0, 0 }, { "page", 0xFF, 1, 0 } } },
	[OP_REPORTLUNS - OP_BLOCK_FIRST] = { "REPORTLUNS select status", 1,
		{ { "select", 0xFF, 0, 0 } } },
	[OP_PROUT - OP_BLOCK_FIRST] = {
		"PROUT action type key action_key status", 4,
		{ { "action", 0x1F, 0, 0 }, { "type", 0xF, 0, 8 },
		  { "key", INT64_MAX, 1, 0 },
		  { "action_key", INT64_MAX, 2, 0 } } },
	[OP_PRIN - OP_BLOCK_FIRST] = { "PRIN action status", 1,
		{ { "action", 0x1F, 0, 0 } } },
};
/* clang-format on */

_Static_assert(sizeof(lf_dev_shapes) / sizeof(lf_dev_shapes[0]) ==
		       OP_SCSI_LAST - OP_BLOCK_FIRST + 1,
	       "a shape per command of the block and SCSI dialects");
_Static_assert(OP_SCSI_FIRST == OP_BLOCK_LAST + 1,
	       "the SCSI kinds follow the block ones");

bool lf_is_device_kind(unsigned kind)
{
	return kind >= OP_BLOCK_FIRST && kind <= OP_SCSI_LAST;
}

/* The status of a SCSI-dialect line: '*' or a SCSI status byte. */
static int lf_scsi_status(struct lf_state *st, struct op *op,
			  const struct lf_field *s)
{
	int64_t v;

	if (!s->quoted && s->len == 1 && s->p[0] == '*') {
		op->check = STATUS_ANY;
		return 0;
	}
	if (s->quoted)
		return lf_error(st, "%s: expected a SCSI status (0x00 GOOD, "
				"0x02 CHECK CONDITION, 0x18 RESERVATION "
				"CONFLICT, ...) or * as the last field, "
				"found %s", lf_op_name(op),
				lf_show_field(st, s));
	if (lf_plain(st, op, "SCSI status", s, 0xFF, &v) != 0)
		return -1;
	op->status = (uint32_t)v;
	op->check = v == 0 ? STATUS_SUCCESS : STATUS_EXACT;
	return 0;
}

/* The status of a block-dialect line: an NT status as client.txt's. */
static int lf_block_status(struct lf_state *st, struct op *op,
			   const struct lf_field *s)
{
	enum status_check check;

	if (s->quoted || ntstatus_parse(s->p, s->len, &check,
					&op->status) != 0)
		return lf_error(st,
				"%s: expected a status (0x<hex>, NT_STATUS_"
				"<name> or *) as the last field, found %s",
				lf_op_name(op), lf_show_field(st, s));
	op->check = (uint8_t)check;
	return 0;
}

int lf_device_command(struct lf_state *st, struct op *op,
		      const struct lf_field *f, unsigned nf)
{
	const struct lf_dev_shape *sh = &lf_dev_shapes[op->kind -
						       OP_BLOCK_FIRST];
	int64_t packed[PROGRAM_MAX_ARGS] = { 0 };
	bool plain[PROGRAM_MAX_ARGS] = { false };

	if (nf != 2u + sh->nfields)
		return lf_error(st, "%s: expected '%s', found %u field%s",
				lf_op_name(op), sh->usage, nf,
				nf == 1 ? "" : "s");
	for (unsigned i = 0; i < sh->nfields; i++) {
		const struct lf_dev_field *d = &sh->f[i];
		int64_t v;

		if (d->max == LF_ANY) {
			if (lf_value(st, op, d->name, &f[1 + i],
				     &op->arg[d->arg]) != 0)
				return -1;
			continue;
		}
		if (lf_plain(st, op, d->name, &f[1 + i], d->max, &v) != 0)
			return -1;
		packed[d->arg] |= v << d->shift;
		plain[d->arg] = true;
	}
	for (unsigned a = 0; a < PROGRAM_MAX_ARGS; a++) {
		if (plain[a] &&
		    lf_put_value(st, (struct value){ .v = packed[a] }, NULL, 0,
				 &op->arg[a]) != 0)
			return -1;
	}
	if (op_kind_is_block(op->kind))
		return lf_block_status(st, op, &f[nf - 1]);
	return lf_scsi_status(st, op, &f[nf - 1]);
}
