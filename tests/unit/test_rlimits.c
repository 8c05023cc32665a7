/*
 * test_rlimits.c - the process room checked before forking, for root
 * too: rlimits_pids_fit() against kernel.pid_max, kernel.threads-max and
 * a cgroup's pids.max given as numbers, and rlimits_pids_cgroup() finding
 * the pids cgroup's directory from /proc/self/cgroup and mountinfo texts
 * (cgroup v1, v2, namespaced roots, nothing mounted); rlimits_max_open()
 * counting only the opens expected to succeed, until their Close.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <talloc.h>

#include "loadfile/program.h"
#include "safety/rlimits.h"

#include "talloc_fixture.h"

/* ---- rlimits_pids_fit ---- */

struct fit_case {
	struct rlimits_pids room;
	unsigned nprocs;
	const char *want; /* NULL: fits; else a part of the message */
};

/* clang-format off */
static const struct fit_case fit_cases[] = {
	/* nothing known: no limit */
	{ { 0 }, 100000, NULL },
	/* dbench 100000 on a default 32768 pid_max: refused, numbers named */
	{ { .pid_max = 32768, .threads_max = 193098, .tasks = 200 }, 100000,
	  "100000 clients need 100000 worker processes, but kernel.pid_max "
	  "is 32768 and 200 tasks already run on this system, which leaves "
	  "room for 32268, 64 of them kept for the rest of the system" },
	/* exactly the room: fits; one more: refused */
	{ { .pid_max = 32768, .tasks = 200 }, 32268 - 64, NULL },
	{ { .pid_max = 32768, .tasks = 200 }, 32268 - 63, "kernel.pid_max" },
	/* threads-max binds first */
	{ { .pid_max = 4194304, .threads_max = 1000, .tasks = 500 }, 436,
	  NULL },
	{ { .pid_max = 4194304, .threads_max = 1000, .tasks = 500 }, 437,
	  "kernel.threads-max is 1000 and 500 tasks already run" },
	/* more tasks than the limit (a pid namespace's count): no room */
	{ { .threads_max = 100, .tasks = 150 }, 1, "leaves room for 0" },
	/* the cgroup: max - current, no spare */
	{ { .pid_max = 4194304, .tasks = 10, .cg_max = 40, .cg_current = 3,
	    .cg_dir = "/sys/fs/cgroup/pids/job" }, 37, NULL },
	{ { .pid_max = 4194304, .tasks = 10, .cg_max = 40, .cg_current = 3,
	    .cg_dir = "/sys/fs/cgroup/pids/job" }, 38,
	  "38 clients need 38 worker processes, but the cgroup "
	  "/sys/fs/cgroup/pids/job allows 40 tasks (pids.max) and already "
	  "has 3 (pids.current)" },
	{ { .cg_max = 5, .cg_current = 9, .cg_dir = "/c" }, 1, "has 9" },
};
/* clang-format on */

static void test_fit(void **state)
{
	struct tstate *ts = *state;

	for (size_t i = 0; i < sizeof(fit_cases) / sizeof(fit_cases[0]); i++) {
		const struct fit_case *c = &fit_cases[i];
		char *msg = NULL;
		int rc = rlimits_pids_fit(ts->ctx, &c->room, c->nprocs,
					  c->nprocs, 1, &msg);

		if (c->want == NULL) {
			if (rc != 0)
				fail_msg("case %zu: refused: %s", i, msg);
			assert_null(msg);
			continue;
		}
		if (rc != -1 || msg == NULL || strstr(msg, c->want) == NULL)
			fail_msg("case %zu: rc %d, message '%s', expected '%s'",
				 i, rc, msg ? msg : "(none)", c->want);
		assert_non_null(strstr(msg, "--clients-per-process (now 1)"));
		talloc_free(msg);
	}
}

/* the message names the clients, not only the processes */
static void test_fit_clients_per_process(void **state)
{
	struct tstate *ts = *state;
	struct rlimits_pids room = { .pid_max = 1374, .tasks = 1000 };
	char *msg = NULL;

	assert_int_equal(rlimits_pids_fit(ts->ctx, &room, 10, 100, 10, &msg),
			 0);
	assert_int_equal(rlimits_pids_fit(ts->ctx, &room, 1000, 1000, 1, &msg),
			 -1);
	assert_non_null(strstr(msg, "1000 clients need 1000 worker"));
	talloc_free(msg);
}

/* ---- rlimits_pids_cgroup ---- */

#define MI_V1                                                                  \
	"24 30 0:22 / /sys rw,nosuid shared:7 - sysfs sysfs rw\n"              \
	"35 24 0:30 / /sys/fs/cgroup ro - tmpfs tmpfs ro,mode=755\n"           \
	"40 35 0:35 / /sys/fs/cgroup/pids rw,relatime shared:20 - cgroup "     \
	"cgroup rw,pids\n"                                                     \
	"41 35 0:36 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"    \
	"42 35 0:37 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"

#define MI_V2                                                                  \
	"24 30 0:22 / /sys rw,nosuid - sysfs sysfs rw\n"                       \
	"35 24 0:30 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 "    \
	"rw,nsdelegate\n"

struct cg_case {
	const char *proc_cgroup, *mountinfo;
	const char *dir, *top; /* NULL: none found */
};

static const struct cg_case cg_cases[] = {
	/* v1: the pids hierarchy, not the v2 one beside it */
	{ "12:pids:/user.slice/job\n4:memory:/x\n0::/other\n", MI_V1,
	  "/sys/fs/cgroup/pids/user.slice/job", "/sys/fs/cgroup/pids" },
	{ "8:pids:/\n0::/\n", MI_V1, "/sys/fs/cgroup/pids",
	  "/sys/fs/cgroup/pids" },
	/* a hierarchy with several controllers */
	{ "3:cpu,pids:/a\n",
	  "1 0 0:1 / /cg rw - cgroup cgroup rw,cpu,pids\n", "/cg/a", "/cg" },
	/* "pidsx" is not "pids" */
	{ "3:pidsx:/a\n", "1 0 0:1 / /cg rw - cgroup cgroup rw,pidsx\n", NULL,
	  NULL },
	/* v2 only */
	{ "0::/system.slice/ssh.service\n", MI_V2,
	  "/sys/fs/cgroup/system.slice/ssh.service", "/sys/fs/cgroup" },
	/* v2 with a mount whose root is our cgroup (a container) */
	{ "0::/lxc/c1/inner\n",
	  "5 1 0:9 /lxc/c1 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
	  "/sys/fs/cgroup/inner", "/sys/fs/cgroup" },
	/* a mount root that is not above our path, and a prefix that is not
	 * a whole component */
	{ "0::/lxc/c10\n",
	  "5 1 0:9 /lxc/c1 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", NULL,
	  NULL },
	/* v1 pids in /proc/self/cgroup but not mounted: none */
	{ "12:pids:/a\n0::/b\n", MI_V2, NULL, NULL },
	/* nothing, or garbage */
	{ "", MI_V2, NULL, NULL },
	{ "0::/a\n", "", NULL, NULL },
	{ "garbage\n::\n0:\n", "x y z - w\n", NULL, NULL },
};

static void test_cgroup_dir(void **state)
{
	struct tstate *ts = *state;

	for (size_t i = 0; i < sizeof(cg_cases) / sizeof(cg_cases[0]); i++) {
		const struct cg_case *c = &cg_cases[i];
		char *dir = NULL, *top = NULL;
		int rc = rlimits_pids_cgroup(ts->ctx, c->proc_cgroup,
					     c->mountinfo, &dir, &top);

		if (c->dir == NULL) {
			if (rc != -1)
				fail_msg("case %zu: found '%s'", i, dir);
			continue;
		}
		if (rc != 0 || strcmp(dir, c->dir) != 0 ||
		    strcmp(top, c->top) != 0)
			fail_msg("case %zu: rc %d, '%s' under '%s', expected "
				 "'%s' under '%s'", i, rc, dir ? dir : "",
				 top ? top : "", c->dir, c->top);
		talloc_free(dir);
		talloc_free(top);
	}
}

/* ---- rlimits_max_open ---- */

/* An open the loadfile expects to fail holds nothing; a Close releases
 * its handle; '*' is counted (it may succeed). */
static void test_max_open(void **state)
{
	const char *text =
		"NTCreateX \"\\a\" 0x0 2 1 NT_STATUS_OK\n"
		"NTCreateX \"\\b\" 0x0 1 2 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"NTCreateX \"\\c\" 0x0 1 3 ERROR\n"
		"NTCreateX \"\\d\" 0x0 1 4 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"Close 1 NT_STATUS_OK\n"
		"NTCreateX \"\\e\" 0x0 2 5 *\n"
		"NTCreateX \"\\f\" 0x0 2 6 0x0\n"
		"Close 5 *\n"
		"Close 6 *\n"
		"NTCreateX \"\\g\" 0x0 2 7 NT_STATUS_OK\n"
		"Close 7 NT_STATUS_OK\n";
	char *err = NULL;
	struct tstate *ts = *state;
	struct program *p = program_compile_buffer(ts->ctx, "t.txt", text,
						   strlen(text), &err);

	assert_non_null(p);
	assert_int_equal(rlimits_max_open(p), 2);
	talloc_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fit_clients_per_process,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_dir, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
