/*
 * test_skeleton.c - the template of a backend (doc/skeleton/skel.c) as
 * the registry sees it, built both ways: whole (with its library,
 * -DHAVE_LIBSKEL: the object linked beside this file) and without it
 * (included below with HAVE_LIBSKEL undefined, as skel_stub_backend),
 * and the stubs BACKEND_UNAVAILABLE and BACKEND_MODULE_STUB
 * (backends/backend.h) make of it.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <popt.h>
#include <talloc.h>

#include "backends/backend.h"
#include "loadfile/ntstatus.h"
#include "talloc_fixture.h"

/* the whole backend: doc/skeleton/skel.c built with -DHAVE_LIBSKEL */
extern const struct backend skel_backend;

/* the same file built without its library: only the stub */
#undef HAVE_LIBSKEL
#define skel_backend skel_stub_backend
#include "../../doc/skeleton/skel.c"
#undef skel_backend

/* what a module-backed skel leaves in the binary */
#define skel_backend skel_module_backend
BACKEND_MODULE_STUB(skel, SKEL_DESCRIPTION, SKEL_FLAGS, skel_options);
#undef skel_backend

/* Whole, the template passes the registry's check and runs a client. */
static void skeleton_whole(void **state)
{
	struct tstate *ts = *state;
	const struct backend *list[] = { &skel_backend, NULL };
	const char *bad = NULL, *why = NULL;
	void *bopts = NULL, *client = NULL;
	char *err = NULL;
	struct op_call call = { 0 };
	struct backend_client_config cfg = { 0 };

	assert_int_equal(backend_list_check(list, &bad, &why), 0);
	assert_null(skel_backend.unavailable);
	assert_null(skel_backend.module);
	assert_int_equal(skel_backend.option(ts->ctx, &bopts, SKEL_OPT_SERVER,
					     "host", &err), 0);
	assert_non_null(bopts);
	assert_int_equal(skel_backend.target_check(ts->ctx, NULL, ".", &err),
			 0);
	assert_int_equal(skel_backend.setup(ts->ctx, &cfg, &client, &err), 0);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		if (skel_backend.ops[k] != NULL)
			assert_int_equal(skel_backend.ops[k](client, &call),
					 NT_STATUS_OK);
	assert_int_equal(skel_backend.cleanup(client, "clients/client0"), 0);
	talloc_free(client);
	talloc_free(bopts);
}

/* Without its library: BACKEND_UNAVAILABLE's stub, the whole one's name,
 * description, flags and options, why, and no hook but the stub's. */
static void skeleton_unavailable(void **state)
{
	struct tstate *ts = *state;
	const struct backend *b = &skel_stub_backend;
	const struct backend *list[] = { b, NULL };
	const char *bad = NULL;
	void *bopts = NULL;
	char *err = NULL;

	assert_int_equal(backend_list_check(list, &bad, NULL), 0);
	assert_int_equal(b->abi, BACKEND_ABI);
	assert_string_equal(b->name, "skel");
	assert_string_equal(b->description, skel_backend.description);
	assert_int_equal(b->flags, skel_backend.flags);
	assert_string_equal(b->unavailable, "built without libskel (install "
			    "libskel-dev and run configure again)");
	assert_null(b->module);
	assert_string_equal(b->options[0].longName, "skel-server");
	assert_ptr_equal(b->option, backend_stub_option);
	assert_null(b->options_done);
	assert_null(b->target_check);
	assert_null(b->setup);
	assert_null(b->ops[OP_NTCREATEX]);
	/* never called; if it were, it refuses */
	assert_int_equal(b->option(ts->ctx, &bopts, SKEL_OPT_SERVER, "host",
				   &err), -1);
	assert_non_null(err);
	assert_null(bopts);
	talloc_free(err);
}

/* BACKEND_MODULE_STUB: the stub of module "skel", which the whole
 * backend matches as its module (backend_module_check()). */
static void skeleton_module_stub(void **state)
{
	struct tstate *ts = *state;
	const struct backend *b = &skel_module_backend;
	const struct backend *list[] = { b, NULL };
	const char *bad = NULL;

	assert_int_equal(backend_list_check(list, &bad, NULL), 0);
	assert_string_equal(b->module, "skel");
	assert_null(b->unavailable);
	assert_ptr_equal(b->option, backend_stub_option);
	assert_null(backend_module_check(ts->ctx, b, &skel_backend,
					 BACKEND_MODULE_STAMP));
	/* a stub is no module: it has no hooks */
	assert_non_null(backend_module_check(ts->ctx, b, &skel_stub_backend,
					     BACKEND_MODULE_STAMP));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(skeleton_whole, setup,
						teardown),
		cmocka_unit_test_setup_teardown(skeleton_unavailable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(skeleton_module_stub, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
