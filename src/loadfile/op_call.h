/*
 * op_call.h - one op of a compiled program as it is called: the op, its
 * paths resolved for one client, its arguments resolved to numbers, and
 * what the call answers (bytes, entries found, errno, message).  The
 * engine fills one per op and hands it to a backend's op function
 * (backends/backend.h); the libraries that backends are built from (the
 * SMB semantics, tbench's wire format) take it as it is.
 */
#ifndef DBENCH_OP_CALL_H
#define DBENCH_OP_CALL_H

#include <stdint.h>

#include "loadfile/program.h"

struct op_call {
	const struct op *op;
	const struct program *prog;	/* op's program (NULL in some tests) */
	const char *path[2];	/* resolved, relative to cfg->directory, '/'-separated */
	int64_t arg[PROGRAM_MAX_ARGS];	/* op->arg[] resolved to numbers */
	const uint8_t *data;	/* WriteX: at least arg[1] bytes to write */
	uint64_t bytes;		/* out: bytes read or written (ReadX/WriteX) */
	int64_t result;		/* out: FIND_FIRST entries found (compared
				 * with arg[2] by the engine on success) */
	int err;		/* out: errno behind a failure, 0 if none */
	/* out: NULL, or what went wrong in the backend's words (owned by
	 * its state, valid until its next op).  A BACKEND_NO_STATUS
	 * backend's failure is fatal to the client, said with this. */
	const char *msg;
};

/* One operation; returns its NT status (NT_STATUS_OK on success). */
typedef uint32_t (*backend_op_fn)(void *state, struct op_call *call);

#endif /* DBENCH_OP_CALL_H */
