/*
 * skel.c - the template of a backend (doc/ARCHITECTURE.md, "Adding a
 * backend"): copy this folder to src/backends/NAME/, rename skel to NAME
 * everywhere, and say here what the backend talks to and how.
 *
 * As it stands it talks to nothing: every op succeeds.  Built with its
 * library (HAVE_LIBSKEL, from configure.ac) it is the whole backend;
 * without, only its name, options and why it is unavailable remain.
 * tests/unit/test_skeleton.c builds it both ways.
 */
#include "config.h"

#include <popt.h>
#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"
#include "loadfile/ntstatus.h"

enum { SKEL_OPT_SERVER = 1 };

/* in every build: --help lists an unavailable backend's options too */
static const struct poptOption skel_options[] = {
	{ "skel-server", 0, POPT_ARG_STRING, NULL, SKEL_OPT_SERVER,
	  "the server", "HOST" },
	POPT_TABLEEND
};

#define SKEL_DESCRIPTION "a skel server through libskel"
#define SKEL_FLAGS (BACKEND_OWN_TARGET | BACKEND_REMOTE)

#ifdef HAVE_LIBSKEL

/* the backend's options object (dbench_options.backend_opts) */
struct skel_opts {
	const char *server;
};

static int skel_option(void *mem, void **bopts, int val, const char *arg,
		       char **err)
{
	struct skel_opts *so = *bopts;

	if (so == NULL &&
	    (so = *bopts = talloc_zero(mem, struct skel_opts)) == NULL)
		return -1;
	so->server = talloc_strdup(so, arg);
	return so->server != NULL ? 0 : -1;
}

/* Before anything is forked: the server answers (BACKEND_OWN_TARGET:
 * called once, with target "."). */
static int skel_target_check(void *mem, const struct dbench_options *o,
			     const char *target, char **err)
{
	return 0;
}

/* One client: its connection, under mem (a destructor closes it). */
static int skel_setup(void *mem, const struct backend_client_config *cfg,
		      void **state, char **err)
{
	*state = talloc_named_const(mem, 0, "skel_client");
	if (*state == NULL) {
		*err = talloc_strdup(mem, "skel backend: out of memory");
		return -1;
	}
	return 0;
}

/* Remove the client's tree at path; a missing tree is success. */
static int skel_cleanup(void *state, const char *path)
{
	return 0;
}

/* One op: its resolved arguments in call, its NT status back. */
static uint32_t skel_op(void *state, struct op_call *call)
{
	return NT_STATUS_OK;
}

const struct backend skel_backend = {
	.abi = BACKEND_ABI,
	.name = "skel",
	.description = SKEL_DESCRIPTION,
	.flags = SKEL_FLAGS,
	.options = skel_options,
	.option = skel_option,
	.target_check = skel_target_check,
	.setup = skel_setup,
	.cleanup = skel_cleanup,
	/* every kind of client.txt's dialect; another dialect's are
	 * optional (a loadfile that needs one is refused before the run) */
	.ops = {
		[OP_NTCREATEX] = skel_op,
		[OP_CLOSE] = skel_op,
		[OP_RENAME] = skel_op,
		[OP_UNLINK] = skel_op,
		[OP_DELTREE] = skel_op,
		[OP_RMDIR] = skel_op,
		[OP_MKDIR] = skel_op,
		[OP_QPATHINFO] = skel_op,
		[OP_QFILEINFO] = skel_op,
		[OP_QFSINFO] = skel_op,
		[OP_SFILEINFO] = skel_op,
		[OP_FIND] = skel_op,
		[OP_WRITEX] = skel_op,
		[OP_READX] = skel_op,
		[OP_LOCKX] = skel_op,
		[OP_UNLOCKX] = skel_op,
		[OP_FLUSH] = skel_op,
		[OP_DROPCACHE] = skel_op,
	},
};

#else /* !HAVE_LIBSKEL */

BACKEND_UNAVAILABLE(skel, SKEL_DESCRIPTION, SKEL_FLAGS, skel_options,
		    "built without libskel (install libskel-dev and run "
		    "configure again)");

#endif
