/*
 * commands.c - one loadfile command's fields: the shape each command
 * has (for the field count and for messages), the control commands
 * (LOOP, ENDLOOP, REPEAT, RANDOMSTRING, ...) and the measured ones
 * (paths, handle, arguments, status).
 */
#include "config.h"

#include "loadfile/ntstatus.h"
#include "loadfile/program.h"
#include "lf_private.h"

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

		if (lf_path(st, op, what, &f[k], &op->path[i]) != 0)
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

/* WRITEPATTERN: its text is the rest of the line, p[i..len). */
int lf_writepattern(struct lf_state *st, struct op *op, const char *p,
		    size_t len, size_t i)
{
	while (i < len && lf_is_space(p[i]))
		i++;
	if (i == len)
		return lf_error(st,
				"WRITEPATTERN: expected '%s', found "
				"no text",
				lf_usage[OP_WRITEPATTERN]);
	return lf_text(st, op, p + i, len - i);
}

/* Compile the fields f[0..nf) of a line (f[0] its command) into op, whose
 * kind is known and its dialect decided. */
int lf_command(struct lf_state *st, struct op *op, const struct lf_field *f,
	       unsigned nf)
{
	int kind = op->kind;
	unsigned expected = lf_expected_fields(op->kind);

	if (lf_is_device_kind((unsigned)kind))
		return lf_device_command(st, op, f, nf);
	if (nf != expected && !(kind == OP_UNLINK && nf == expected - 1))
		return lf_error(st, "%s: expected '%s', found %u field%s",
				lf_op_name(op), lf_usage[kind], nf,
				nf == 1 ? "" : "s");
	if (kind >= OP_NUM_MEASURED)
		return lf_control(st, op, f);
	return lf_measured(st, op, f, nf);
}
