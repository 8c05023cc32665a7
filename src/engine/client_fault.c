/*
 * client_fault.c - the engine's judgement of a status that did not match
 * (a mismatch counted, or fatal: the policy of --strict, --keep-going and
 * the default) and the story of a handle for a fatal message.  Reached
 * only when a status differs from the loadfile's, never on the usual
 * path.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "engine/client.h"
#include "loadfile/ntstatus.h"
#include "util/options.h"

#include "client_private.h"

/* Describe what became of the handle an op used, for a fatal message. */
char *client_handle_story(struct client *c, const struct op *op)
{
	const struct handle_info *h;
	const struct op *o;
	char sb[11];

	/* the smb dialect's slots are its paths, named in the message */
	if (op->handle < 0 || op_kind_is_smb5(op->kind))
		return talloc_strdup(c, "");
	h = &c->handles[op->handle];
	if (h->open_op == 0)
		return talloc_asprintf(c, ": handle %lld was never opened "
				       "before this line",
				       (long long)c->prog->handle_nums[op->handle]);
	o = &c->prog->ops[h->open_op - 1];
	if (h->open_status != NT_STATUS_OK)
		return talloc_asprintf(
			c, ": handle %lld was never opened (its open at %s:%u "
			"failed: %s%s%s)", (long long)c->prog->handle_nums[op->handle],
			c->prog->filename, o->line,
			ntstatus_str(h->open_status, sb),
			h->open_err ? ", " : "",
			h->open_err ? strerror(h->open_err) : "");
	if (!h->open && h->close_op != 0)
		return talloc_asprintf(c, ": handle %lld was closed at %s:%u",
				       (long long)c->prog->handle_nums[op->handle],
				       c->prog->filename,
				       c->prog->ops[h->close_op - 1].line);
	return talloc_strdup(c, "");
}

bool client_mismatch_is_fatal(const struct client *c, const struct op *op,
			      uint32_t status)
{
	switch (c->opts->mismatch) {
	case MISMATCH_STRICT:
		return true;
	case MISMATCH_KEEP_GOING:
		return false;
	default:
		break;
	}
	if (status == NT_STATUS_INVALID_HANDLE && op->handle >= 0 &&
	    !c->handles[op->handle].open)
		return true;
	if (status == NT_STATUS_OK)
		return false;
	if (op->check == STATUS_SUCCESS ||
	    (op->check == STATUS_EXACT && op->status == NT_STATUS_OK)) {
		switch (op->kind) {
		case OP_WRITEX:
		case OP_UNLINK:
		case OP_RENAME:
		case OP_RMDIR:
		case OP_WRITE5:
		case OP_UNLINK5:
		case OP_RMDIR5:
			return true;
		default:
			break;
		}
	}
	return false;
}

/*
 * Under the default policy, a failure that says the system cannot carry
 * the load (disk full, read-only, out of descriptors or memory, I/O
 * error, a lost connection: ntstatus_fault_class) stops the run whatever
 * the op: going on would measure nothing.
 * --keep-going counts them like any mismatch; --strict stops anyway.
 */
bool client_fault_is_fatal(const struct client *c, int err)
{
	if (c->opts->mismatch != MISMATCH_DEFAULT)
		return false;
	return ntstatus_fault_class(err) != FAULT_NONE;
}
