/*
 * backend.h - the interface every backend implements.
 *
 * A backend is one file in src/backends/ exporting one const struct
 * backend, listed in the registry (src/backends/registry.c).  The client
 * engine resolves everything that is loadfile-specific (paths per client,
 * $i substitution, random and relative values, the write pattern) and hands
 * the backend one struct op_call per operation.
 *
 * Backends never print and never exit: an op returns an NT status (0 for
 * success) and leaves the errno behind a failure in call->err; the engine
 * compares it with the expectation and reports it with context.
 */
#ifndef DBENCH_BACKEND_H
#define DBENCH_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "program.h"

struct backend_client_config {
	const struct dbench_options *opts;
	unsigned client;	/* 0-based client number */
	const char *directory;	/* this client's target directory (one -D entry) */
	uint32_t nhandles;	/* handle slots the program uses: 0..nhandles-1 */
};

struct op_call {
	const struct op *op;
	const char *path[2];	/* resolved, relative to cfg->directory, '/'-separated */
	int64_t arg[PROGRAM_MAX_ARGS];	/* op->arg[] resolved to numbers */
	const uint8_t *data;	/* WriteX: at least arg[1] bytes to write */
	uint64_t bytes;		/* out: bytes read or written (ReadX/WriteX) */
	int64_t result;		/* out: FIND_FIRST entries found (compared
				 * with arg[2] by the engine on success) */
	int err;		/* out: errno behind a failure, 0 if none */
};

/* One operation; returns its NT status (NT_STATUS_OK on success). */
typedef uint32_t (*backend_op_fn)(void *state, struct op_call *call);

struct backend {
	const char *name;
	const char *description;
	/* NULL when usable; otherwise why this backend is not available */
	const char *unavailable;
	/* true for a backend that performs nothing (null): its results
	 * say nothing about the loadfile, so they are not compared with
	 * the expected statuses */
	bool ignore_status;

	/*
	 * Prepare one client.  Allocate the state under mem_ctx (a talloc
	 * destructor should release fds and connections) and store it in
	 * *state.  Return 0, or -1 with *err set to a message allocated
	 * under mem_ctx.
	 */
	int (*setup)(void *mem_ctx, const struct backend_client_config *cfg,
		     void **state, char **err);

	/*
	 * Remove the tree at path (relative to the client's directory) and
	 * everything in it; close any handles first.  A missing tree is
	 * success.  Returns 0 or a negative errno.
	 */
	int (*cleanup)(void *state, const char *path);

	/* Indexed by enum op_kind; every entry must be set. */
	backend_op_fn ops[OP_NUM_MEASURED];
};

/* NULL-terminated list of all backends, available or not. */
extern const struct backend *const backend_registry[];

/* Find a backend by name; NULL if there is none of that name. */
const struct backend *backend_find(const char *name);

/*
 * Check the registry (every available backend fills every hook).  Returns
 * 0, or -1 with the name of the faulty backend in *bad.
 */
int backend_registry_check(const char **bad);

#endif
