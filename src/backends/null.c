/*
 * null.c - a backend that performs nothing.
 *
 * Every operation succeeds at once; ReadX and WriteX count their requested
 * size as dbench does.  Running a loadfile against it measures the cost of
 * the engine itself (dispatch, timing, statistics), so each op is kept to
 * the least work possible: no state is touched.
 */
#include "config.h"

#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"
#include "loadfile/ntstatus.h"

static int null_setup(void *mem_ctx, const struct backend_client_config *cfg,
		      void **state, char **err)
{
	(void)cfg;

	/* a real (empty) object, so that no caller meets a NULL state */
	*state = talloc_named_const(mem_ctx, 0, "null_backend_state");
	if (*state == NULL) {
		*err = talloc_strdup(mem_ctx, "null backend: out of memory");
		return -1;
	}
	return 0;
}

static int null_cleanup(void *state, const char *path)
{
	(void)state;
	(void)path;
	return 0;
}

static uint32_t null_op(void *state, struct op_call *call)
{
	(void)state;
	(void)call;
	return NT_STATUS_OK;
}

static uint32_t null_io(void *state, struct op_call *call)
{
	(void)state;
	call->bytes = (uint64_t)call->arg[1];
	return NT_STATUS_OK;
}

const struct backend null_backend = {
	.abi = BACKEND_ABI,
	.name = "null",
	.description = "performs no operation: measures the engine's overhead",
	.unavailable = NULL,
	.flags = BACKEND_NO_STATUS,
	/* the same -D as fileio's, so that the same command lines compare */
	.target_check = backend_dir_target_check,
	.setup = null_setup,
	.cleanup = null_cleanup,
	.ops = {
		[OP_NTCREATEX] = null_op,
		[OP_CLOSE] = null_op,
		[OP_RENAME] = null_op,
		[OP_UNLINK] = null_op,
		[OP_DELTREE] = null_op,
		[OP_RMDIR] = null_op,
		[OP_MKDIR] = null_op,
		[OP_QPATHINFO] = null_op,
		[OP_QFILEINFO] = null_op,
		[OP_QFSINFO] = null_op,
		[OP_SFILEINFO] = null_op,
		[OP_FIND] = null_op,
		[OP_WRITEX] = null_io,
		[OP_READX] = null_io,
		[OP_LOCKX] = null_op,
		[OP_UNLOCKX] = null_op,
		[OP_FLUSH] = null_op,
		[OP_DROPCACHE] = null_op,
	},
};
