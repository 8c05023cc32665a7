/*
 * test_backend.c - what a backend brings besides its ops: the registry
 * check (abi, required hooks, unique names, well-formed option tables),
 * the command line routing each backend option to its backend (and
 * refusing one of a backend not selected), -T, the target check, and the
 * check of a backend module against its stub.  The hooks themselves are
 * test_backend_hooks.c's.
 *
 * The command line is driven through cli_parse() with registries of fake
 * backends built here; what it says on stderr is captured from fd 2.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <popt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"
#include "cli/cli.h"
#include "loadfile/ntstatus.h"
#include "loadfile/program.h"
#include "safety/rlimits.h"
#include "talloc_fixture.h"
#include "vfs/vfs.h"

/* ---- fake backends ---- */

static uint32_t fake_op(void *state, struct op_call *call)
{
	return NT_STATUS_OK;
}

static int fake_setup(void *mem_ctx, const struct backend_client_config *cfg,
		      void **state, char **err)
{
	return 0;
}

static int fake_cleanup(void *state, const char *path)
{
	return 0;
}

/* accepts every target but "forbidden" */
static int fake_target_check(void *mem_ctx, const struct dbench_options *o,
			     const char *target, char **err)
{
	if (strcmp(target, "forbidden") != 0)
		return 0;
	*err = talloc_asprintf(mem_ctx, "fake: '%s' is refused", target);
	return -1;
}

static uint64_t fake_client_fds(const struct dbench_options *o,
				uint32_t max_open_handles, uint32_t max_dirs)
{
	return 1;
}

static int fake_shared_note(void *mem_ctx, const struct dbench_options *o,
			    const char *target, const char *const *paths,
			    size_t n, bool *existed)
{
	return 0;
}

static int fake_shared_remove(void *mem_ctx, const struct dbench_options *o,
			      const char *target, const char *const *paths,
			      size_t n)
{
	return 0;
}

/* What the alpha backend's option hooks gathered. */
struct alpha_opts {
	char *x;
	int flag;
	int calls;
	bool done;
};

#define ALPHA_X 7
#define ALPHA_FLAG 8

static int alpha_option(void *mem_ctx, void **bopts, int val, const char *arg,
			char **err)
{
	struct alpha_opts *a = *bopts;

	if (a == NULL) {
		a = talloc_zero(mem_ctx, struct alpha_opts);
		if (a == NULL)
			return -1;
		*bopts = a;
	}
	a->calls++;
	/* no assertion in a hook: stderr is redirected while it runs */
	if (val == ALPHA_FLAG && arg == NULL) {
		a->flag++;
		return 0;
	}
	if (val != ALPHA_X || arg == NULL) {
		*err = talloc_asprintf(mem_ctx, "unexpected val %d", val);
		return -1;
	}
	if (strcmp(arg, "bad") == 0) {
		*err = talloc_strdup(mem_ctx, "'bad' is not a value");
		return -1;
	}
	a->x = talloc_strdup(a, arg);
	return 0;
}

static int alpha_options_done(void *mem_ctx, void **bopts, char **err)
{
	struct alpha_opts *a = *bopts;

	if (a == NULL) {
		a = talloc_zero(mem_ctx, struct alpha_opts);
		if (a == NULL)
			return -1;
		*bopts = a;
	}
	if (a->x != NULL && strcmp(a->x, "late") == 0) {
		*err = talloc_strdup(mem_ctx, "'late' is refused at the end");
		return -1;
	}
	a->done = true;
	return 0;
}

/* beta is never selected here: its hook must never be called */
static unsigned beta_calls;

static int beta_option(void *mem_ctx, void **bopts, int val, const char *arg,
		       char **err)
{
	beta_calls++;
	*err = talloc_strdup(mem_ctx, "beta's hook was called");
	return -1;
}

static const struct poptOption alpha_table[] = {
	{ "alpha-x", 0, POPT_ARG_STRING, NULL, ALPHA_X, "alpha's x", "X" },
	{ "alpha-flag", 0, POPT_ARG_NONE, NULL, ALPHA_FLAG, "a flag", NULL },
	POPT_TABLEEND
};

static const struct poptOption beta_table[] = {
	{ "beta-y", 0, POPT_ARG_STRING, NULL, 1, "beta's y", "Y" },
	POPT_TABLEEND
};

/* A complete available backend called name. */
static struct backend fake_backend(const char *name)
{
	struct backend b = {
		.abi = BACKEND_ABI,
		.name = name,
		.description = "a fake",
		.target_check = fake_target_check,
		.client_fds = fake_client_fds,
		.shared_note = fake_shared_note,
		.shared_remove = fake_shared_remove,
		.setup = fake_setup,
		.cleanup = fake_cleanup,
	};

	for (size_t i = 0; i < OP_NUM_MEASURED; i++)
		b.ops[i] = fake_op;
	return b;
}

/* alpha (options, a local fs), beta (options), gamma (sockets) */
struct fakes {
	struct backend alpha, beta, gamma;
	const struct backend *list[4];
};

static void fakes_init(struct fakes *f)
{
	f->alpha = fake_backend("alpha");
	f->alpha.flags = BACKEND_LOCAL_FS;
	f->alpha.options = alpha_table;
	f->alpha.option = alpha_option;
	f->alpha.options_done = alpha_options_done;
	f->beta = fake_backend("beta");
	f->beta.options = beta_table;
	f->beta.option = beta_option;
	f->gamma = fake_backend("gamma");
	f->gamma.flags = BACKEND_SOCKETS;
	f->list[0] = &f->alpha;
	f->list[1] = &f->beta;
	f->list[2] = &f->gamma;
	f->list[3] = NULL;
}

/* ---- the registry check ---- */

/* backend_list_check() of list; *bad and *why as it set them. */
static int list_check(const struct backend *const *list, const char **bad,
		      const char **why)
{
	*bad = NULL;
	*why = NULL;
	return backend_list_check(list, bad, why);
}

static void test_registry_real(void **state)
{
	const char *bad = "unset";

	assert_int_equal(backend_registry_check(&bad), 0);
	assert_null(bad);
	for (size_t i = 0; backend_registry[i] != NULL; i++) {
		assert_int_equal(backend_registry[i]->abi, BACKEND_ABI);
		assert_ptr_equal(backend_find_in(backend_registry,
						 backend_registry[i]->name),
				 backend_registry[i]);
	}
	assert_true(null_backend.flags & BACKEND_NO_STATUS);
	assert_true(fileio_backend.flags & BACKEND_LOCAL_FS);
	assert_false(fileio_backend.flags & BACKEND_SOCKETS);
}

static void test_registry_fakes_pass(void **state)
{
	struct fakes f;
	const char *bad, *why;

	fakes_init(&f);
	assert_int_equal(list_check(f.list, &bad, &why), 0);
	assert_null(bad);
	assert_ptr_equal(backend_find_in(f.list, "beta"), &f.beta);
	assert_null(backend_find_in(f.list, "delta"));
	assert_null(backend_find_in(f.list, NULL));
}

static void test_registry_abi(void **state)
{
	struct fakes f;
	const char *bad, *why;

	fakes_init(&f);
	f.beta.abi = BACKEND_ABI + 1;
	assert_int_equal(list_check(f.list, &bad, &why), -1);
	assert_string_equal(bad, "beta");
	assert_non_null(strstr(why, "BACKEND_ABI"));
	/* also a backend that is not available must match */
	f.beta.unavailable = "built without libfake";
	assert_int_equal(list_check(f.list, &bad, &why), -1);
	assert_string_equal(bad, "beta");
	f.beta.abi = 0;
	assert_int_equal(list_check(f.list, &bad, &why), -1);
}

static void test_registry_missing_hooks(void **state)
{
	static const struct {
		size_t offset;
		const char *hook;
	} hooks[] = {
		{ offsetof(struct backend, target_check), "target_check" },
		{ offsetof(struct backend, setup), "setup" },
		{ offsetof(struct backend, cleanup), "cleanup" },
	};
	const char *bad, *why;

	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		struct fakes f;
		void (*none)(void) = NULL;

		fakes_init(&f);
		memcpy((char *)&f.gamma + hooks[i].offset, &none,
		       sizeof(none));
		assert_int_equal(list_check(f.list, &bad, &why), -1);
		assert_string_equal(bad, "gamma");
		assert_non_null(strstr(why, hooks[i].hook));
		/* an unavailable backend needs none of them */
		f.gamma.unavailable = "built without libgamma";
		assert_int_equal(list_check(f.list, &bad, &why), 0);
	}
	for (size_t k = 0; k < OP_NUM_MEASURED; k++) {
		struct fakes f;

		fakes_init(&f);
		f.alpha.ops[k] = NULL;
		if (op_kind_is_nfs3((unsigned)k) ||
		    op_kind_is_smb5((unsigned)k) ||
		    op_kind_is_block((unsigned)k) ||
		    op_kind_is_scsi((unsigned)k)) {
			/* a dialect's kinds are optional (refused per
			 * loadfile by backend_program_check) */
			assert_int_equal(list_check(f.list, &bad, &why), 0);
			continue;
		}
		assert_int_equal(list_check(f.list, &bad, &why), -1);
		assert_string_equal(bad, "alpha");
		assert_non_null(strstr(why, "ops[]"));
	}
}

/* The optional hooks (backend.h): a backend without any of them passes. */
static void test_registry_optional_hooks(void **state)
{
	struct fakes f;
	const char *bad, *why;

	fakes_init(&f);
	f.gamma.client_fds = NULL;
	f.gamma.trees_check = NULL;
	f.gamma.trees_kept = NULL;
	f.gamma.shared_note = NULL;
	f.gamma.shared_remove = NULL;
	f.gamma.options_done = NULL;
	assert_int_equal(list_check(f.list, &bad, &why), 0);
	assert_null(bad);
}

static void test_registry_names(void **state)
{
	struct fakes f;
	const char *bad, *why;

	fakes_init(&f);
	f.gamma.name = "alpha";
	assert_int_equal(list_check(f.list, &bad, &why), -1);
	assert_string_equal(bad, "alpha");
	assert_non_null(strstr(why, "name"));
	/* unavailable or not: one name, one backend */
	f.gamma.unavailable = "built without libgamma";
	assert_int_equal(list_check(f.list, &bad, &why), -1);
	fakes_init(&f);
	f.beta.name = "";
	assert_int_equal(list_check(f.list, &bad, &why), -1);
	assert_non_null(strstr(bad, "without a name"));
	f.beta.name = NULL;
	assert_int_equal(list_check(f.list, &bad, &why), -1);
}

static void test_registry_options(void **state)
{
	static char *stored;
	const struct poptOption with_arg[] = {
		{ "beta-y", 0, POPT_ARG_STRING, &stored, 1, "y", "Y" },
		POPT_TABLEEND
	};
	const struct poptOption val_zero[] = {
		{ "beta-y", 0, POPT_ARG_STRING, NULL, 0, "y", "Y" },
		POPT_TABLEEND
	};
	const struct poptOption an_int[] = {
		{ "beta-y", 0, POPT_ARG_INT, NULL, 1, "y", "Y" },
		POPT_TABLEEND
	};
	const struct poptOption no_long[] = {
		{ NULL, 'y', POPT_ARG_STRING, NULL, 1, "y", "Y" },
		POPT_TABLEEND
	};
	const struct poptOption alphas[] = {
		{ "alpha-x", 0, POPT_ARG_STRING, NULL, 1, "x", "X" },
		POPT_TABLEEND
	};
	const struct poptOption *bad_tables[] = {
		with_arg, val_zero, an_int, no_long, alphas,
	};
	struct fakes f;
	const char *bad, *why;

	for (size_t i = 0; i < sizeof(bad_tables) / sizeof(bad_tables[0]);
	     i++) {
		fakes_init(&f);
		f.beta.options = bad_tables[i];
		assert_int_equal(list_check(f.list, &bad, &why), -1);
		assert_string_equal(bad, "beta");
	}
	/* options need the hook that takes them */
	fakes_init(&f);
	f.beta.option = NULL;
	assert_int_equal(list_check(f.list, &bad, &why), -1);
	assert_string_equal(bad, "beta");
	assert_non_null(strstr(why, "option hook"));
}

/* ---- the command line ---- */

struct parsed {
	int rc;
	char *err;		/* what went to stderr (under mem) */
	struct cli cli;
};

/* cli_parse(args...) against list, stderr captured. */
static struct parsed parse(void *mem, const struct backend *const *list,
			   const char *arg, ...)
{
	const char *argv[32] = { "dbench" };
	struct parsed p;
	char buf[4096];
	int argc = 1, saved, fd;
	FILE *tmp = tmpfile();
	va_list ap;
	size_t n;

	va_start(ap, arg);
	for (; arg != NULL && argc < 31; arg = va_arg(ap, const char *))
		argv[argc++] = arg;
	va_end(ap);
	argv[argc] = NULL;
	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	fd = fileno(tmp);
	assert_true(saved >= 0 && dup2(fd, 2) == 2);
	p.rc = cli_parse(mem, argc, argv, list, &p.cli);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	p.err = talloc_strdup(mem, buf);
	return p;
}

/* A command-line test: fake backends, and a context for what cli_parse
 * leaves to its caller (freed before the leak check). */
struct cli_fx {
	struct fakes f;
	void *mem;
	void *ts;		/* the talloc fixture's state */
};

static int cli_setup(void **state)
{
	struct cli_fx *x = calloc(1, sizeof(*x));

	if (x == NULL || setup(&x->ts) != 0) {
		free(x);
		return -1;
	}
	x->mem = talloc_new(((struct tstate *)x->ts)->ctx);
	fakes_init(&x->f);
	*state = x;
	return x->mem != NULL ? 0 : -1;
}

static int cli_teardown(void **state)
{
	struct cli_fx *x = *state;
	void *ts = x->ts;

	talloc_free(x->mem);
	free(x);
	return teardown(&ts);
}

#define PARSE(x, ...) parse((x)->mem, (x)->f.list, __VA_ARGS__, NULL)

static void test_cli_routes_options(void **state)
{
	struct cli_fx *x = *state;
	const struct alpha_opts *a;
	struct parsed p;

	/* the option comes before -B: routed once -B is known */
	p = PARSE(x, "--alpha-x", "5", "--alpha-flag", "-B", "alpha",
		  "-c", "lf.txt", "3");
	assert_int_equal(p.rc, 0);
	assert_string_equal(p.err, "");
	assert_int_equal(p.cli.action, CLI_RUN);
	assert_ptr_equal(p.cli.backend, &x->f.alpha);
	assert_int_equal(p.cli.opts.nclients, 3);
	a = p.cli.opts.backend_opts;
	assert_non_null(a);
	assert_string_equal(a->x, "5");
	assert_int_equal(a->flag, 1);
	assert_int_equal(a->calls, 2);
	assert_true(a->done);
	/* repeated: each one is handed over, in order */
	p = PARSE(x, "-B", "alpha", "--alpha-x", "1", "--alpha-x=2",
		  "-c", "lf.txt", "1");
	assert_int_equal(p.rc, 0);
	a = p.cli.opts.backend_opts;
	assert_string_equal(a->x, "2");
	assert_int_equal(a->calls, 2);
	/* none given: options_done still makes the object */
	p = PARSE(x, "-B", "alpha", "-c", "lf.txt", "1");
	assert_int_equal(p.rc, 0);
	a = p.cli.opts.backend_opts;
	assert_non_null(a);
	assert_int_equal(a->calls, 0);
	assert_true(a->done);
	/* a backend without options has no options object */
	p = PARSE(x, "-B", "gamma", "-c", "lf.txt", "1");
	assert_int_equal(p.rc, 0);
	assert_null(p.cli.opts.backend_opts);
}

static void test_cli_refuses_foreign_option(void **state)
{
	struct cli_fx *x = *state;
	struct parsed p;

	beta_calls = 0;
	p = PARSE(x, "--beta-y", "1", "-B", "alpha", "-c", "l", "1");
	assert_int_equal(beta_calls, 0);
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err, "dbench: --beta-y belongs to backend "
			    "'beta', but backend 'alpha' is selected\n");
	/* whichever comes first on the command line */
	p = PARSE(x, "-B", "gamma", "--alpha-flag", "-c", "lf.txt", "1");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err, "dbench: --alpha-flag belongs to backend "
			    "'alpha', but backend 'gamma' is selected\n");
	/* and with --disk-test, which has no backend */
	p = PARSE(x, "--disk-test", "--alpha-flag");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err, "dbench: --alpha-flag does not go with "
			    "--disk-test (it is for load runs)\n");
}

static void test_cli_option_errors(void **state)
{
	struct cli_fx *x = *state;
	struct parsed p;

	p = PARSE(x, "-B", "alpha", "--alpha-x", "bad", "-c", "l", "1");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err,
			    "dbench: --alpha-x: 'bad' is not a value\n");
	p = PARSE(x, "-B", "alpha", "--alpha-x", "late", "-c", "l", "1");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err, "dbench: backend 'alpha': 'late' is "
			    "refused at the end\n");
	/* popt's own complaint names the option */
	p = PARSE(x, "-B", "alpha", "-c", "l", "1", "--alpha-x");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_non_null(strstr(p.err, "--alpha-x"));
	/* a backend option that shadows a common one: internal error */
	{
		const struct poptOption shadow[] = {
			{ "timelimit", 0, POPT_ARG_STRING, NULL, 1, "t", "T" },
			POPT_TABLEEND
		};

		x->f.beta.options = shadow;
		p = PARSE(x, "-B", "alpha", "-c", "l", "1");
		assert_int_equal(p.rc, 1);
		assert_non_null(strstr(p.err, "internal error"));
	}
	/* a backend that is not built: its options are still known, so
	 * they are refused with its name, and selecting it says why */
	fakes_init(&x->f);
	x->f.beta.unavailable = "built without libbeta";
	p = PARSE(x, "-B", "beta", "--beta-y", "1", "-c", "l", "1");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err, "dbench: backend 'beta' is not available: "
			    "built without libbeta\n");
	p = PARSE(x, "-B", "gamma", "--beta-y", "1", "-c", "l", "1");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err, "dbench: --beta-y belongs to backend "
			    "'beta', but backend 'gamma' is selected\n");
	p = PARSE(x, "-B", "nosuch", "-c", "l", "1");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	/* the list names every backend, the unavailable one with why */
	assert_string_equal(p.err, "dbench: unknown backend 'nosuch'; "
			    "the backends: alpha, beta (not available: "
			    "built without libbeta), gamma\n");
	/* a malformed registry: internal error naming the backend */
	fakes_init(&x->f);
	x->f.gamma.setup = NULL;
	p = PARSE(x, "-B", "alpha", "-c", "l", "1");
	assert_int_equal(p.rc, 1);
	assert_string_equal(p.err, "dbench: internal error: backend 'gamma': "
			    "its setup hook is missing\n");
}

static void test_cli_tcp_options(void **state)
{
	struct cli_fx *x = *state;
	struct parsed p;

	p = PARSE(x, "-B", "gamma", "-T", "TCP_NODELAY", "-c", "l", "1");
	assert_int_equal(p.rc, 0);
	assert_string_equal(p.cli.opts.tcp_options, "TCP_NODELAY");
	p = PARSE(x, "-B", "alpha", "-T", "TCP_NODELAY", "-c", "l", "1");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err, "dbench: --tcp-options applies to the "
			    "socket backend (tbench) only, not to backend "
			    "'alpha'\n");
	p = PARSE(x, "-B", "alpha", "-c", "l", "1");
	assert_int_equal(p.rc, 0);
	assert_null(p.cli.opts.tcp_options);
}

static void test_cli_target_check(void **state)
{
	struct cli_fx *x = *state;
	struct parsed p;

	p = PARSE(x, "-B", "beta", "-D", "a,forbidden", "-c", "l", "2");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err, "dbench: fake: 'forbidden' is refused\n");
	p = PARSE(x, "-B", "beta", "-D", "a,b", "-c", "l", "2");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.cli.opts.ndirectories, 2);
	/* --disk-test: a local-filesystem backend checks -D */
	p = PARSE(x, "--disk-test", "-D", "forbidden");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
	assert_string_equal(p.err, "dbench: fake: 'forbidden' is refused\n");
	p = PARSE(x, "--disk-test", "-D", "x");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.cli.action, CLI_DISK_TEST);
	/* without one, --disk-test cannot run */
	x->f.alpha.flags = 0;
	p = PARSE(x, "--disk-test", "-D", "x");
	assert_int_equal(p.rc, CLI_EXIT_USAGE);
}

/* ---- modules: a module's backend against its stub ---- */

static void test_module_check(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);	/* the messages */
	struct fakes f;
	struct backend stub = { .abi = BACKEND_ABI, .name = "alpha",
				.description = "alpha's stub",
				.module = "alpha", .flags = BACKEND_LOCAL_FS,
				.options = alpha_table,
				.option = alpha_option };
	const struct backend *reg[] = { &stub, NULL };
	const char *bad, *why;
	struct backend b;

	fakes_init(&f);
	/* a stub passes the registry check without the run hooks */
	assert_int_equal(list_check(reg, &bad, &why), 0);
	assert_null(backend_module_check(mem, &stub, &f.alpha,
					 BACKEND_MODULE_STAMP));
	assert_non_null(backend_module_check(mem, &stub, &f.alpha, NULL));
	assert_string_equal(backend_module_check(mem, &stub, &f.alpha,
						 "dbench 0.1, backend ABI 1"),
			    "it was built for dbench 0.1, backend ABI 1, this "
			    "is " BACKEND_MODULE_STAMP);
	assert_string_equal(backend_module_check(mem, &stub, NULL,
						 BACKEND_MODULE_STAMP),
			    "it has no alpha_backend");
	b = f.alpha;
	b.abi = BACKEND_ABI - 1;
	assert_string_equal(backend_module_check(mem, &stub, &b,
						 BACKEND_MODULE_STAMP),
			    "it was built for another BACKEND_ABI");
	/* not the backend the stub stands for */
	assert_non_null(backend_module_check(mem, &stub, &f.beta,
					     BACKEND_MODULE_STAMP));
	b = f.alpha;
	b.flags = 0;
	assert_non_null(backend_module_check(mem, &stub, &b,
					     BACKEND_MODULE_STAMP));
	b = f.alpha;
	b.options = beta_table;
	assert_non_null(backend_module_check(mem, &stub, &b,
					     BACKEND_MODULE_STAMP));
	b = f.alpha;
	b.module = "alpha";
	assert_non_null(backend_module_check(mem, &stub, &b,
					     BACKEND_MODULE_STAMP));
	b = f.alpha;
	b.setup = NULL;
	assert_string_equal(backend_module_check(mem, &stub, &b,
						 BACKEND_MODULE_STAMP),
			    "its setup hook is missing");
	talloc_free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
#define C(f) cmocka_unit_test_setup_teardown(f, cli_setup, cli_teardown)
		T(test_registry_real),
		T(test_registry_fakes_pass),
		T(test_registry_abi),
		T(test_registry_missing_hooks),
		T(test_registry_optional_hooks),
		T(test_registry_names),
		T(test_registry_options),
		C(test_cli_routes_options),
		C(test_cli_refuses_foreign_option),
		C(test_cli_option_errors),
		C(test_cli_tcp_options),
		C(test_cli_target_check),
		T(test_module_check),
#undef T
#undef C
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
