/*
 * test_backend_hooks.c - the hooks a backend brings besides its ops:
 * fileio's (descriptors per client, shared paths) with rlimits' count of
 * the directories a program names, and the life a backend over a vfs
 * shares (src/backends/vfs_backend.c: the client trees and shared paths
 * on every target, the refusals), over a POSIX vfs standing in for a
 * server's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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
#include "backends/vfs_backend.h"
#include "loadfile/program.h"
#include "safety/rlimits.h"
#include "talloc_fixture.h"
#include "vfs/vfs.h"

/* ---- fileio's hooks and the descriptor estimate ---- */

static void test_fileio_client_fds(void **state)
{
	const struct dbench_options o = { 0 };

	/* its directory, kept directories (at most 32), handles, 4 more */
	assert_int_equal(fileio_backend.client_fds(&o, 0, 0), 5);
	assert_int_equal(fileio_backend.client_fds(&o, 3, 2), 10);
	assert_int_equal(fileio_backend.client_fds(&o, 1, 40), 38);
	assert_int_equal(fileio_backend.client_fds(&o, 1, UINT32_MAX), 38);
	assert_null(null_backend.client_fds);	/* none: no descriptor */
	assert_int_equal(rlimits_fds_needed(50, 38), 16 + 50 * 38);
}

static void test_rlimits_max_dirs(void **state)
{
	struct tstate *ts = *state;
	const char *text =
		"Mkdir \"\\clients\" *\n"
		"Mkdir \"\\clients\\client1\" *\n"
		"Mkdir \"\\clients\\client1\\a\" *\n"
		"NTCreateX \"\\clients\\client1\\a\\f\" 0x0 2 1 *\n"
		"NTCreateX \"\\clients\\client1\\a\\g\" 0x0 2 2 *\n"
		"Mkdir \"\\clients\\client1\\a\\b\" *\n"
		"QUERY_PATH_INFORMATION \"\\clients\\client1\\a\\b\\c\" 4 *\n"
		"Close 1 *\n"
		"Close 2 *\n";
	const char *random =
		"RANDOMSTRING 0 \"[a-z]\"\n"
		"Mkdir \"\\clients\\client1\\$0\" *\n";
	char *err = NULL;
	struct program *p;

	p = program_compile_buffer(ts->ctx, "t.txt", text, strlen(text),
				   &err);
	assert_non_null(p);
	/* clients, clients/client1, .../a, .../a/b */
	assert_int_equal(rlimits_max_dirs(p), 4);
	assert_int_equal(rlimits_max_open(p), 2);
	talloc_free(p);
	p = program_compile_buffer(ts->ctx, "r.txt", random, strlen(random),
				   &err);
	assert_non_null(p);
	assert_int_equal(rlimits_max_dirs(p), UINT32_MAX);
	talloc_free(p);
}

/* fileio's shared paths: noted before, removed after, only what is new
 * and empty, never through a symlink. */
static void test_fileio_shared_paths(void **state)
{
	struct tstate *ts = *state;
	const struct dbench_options o = { 0 };
	char dir[] = "/dev/shm/dbench-test-backend.XXXXXX";
	const char *paths[] = { "top", "top/sub", "top/file", "old",
				"full", "link/x" };
	const char *rev[6];
	bool existed[6];
	size_t n = 0;
	char *p;

	assert_non_null(mkdtemp(dir));
	p = talloc_asprintf(ts->ctx, "%s/old", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	talloc_free(p);
	assert_int_equal(fileio_backend.shared_note(ts->ctx, &o, dir, paths,
						    6, existed), 0);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(existed[i], strcmp(paths[i], "old") == 0);
	/* the run makes them; "full" gets a file of someone else, "link"
	 * becomes a symlink to a directory holding an x */
	p = talloc_asprintf(ts->ctx, "mkdir -p %s/top/sub %s/full %s/else/x &&"
			    " touch %s/top/file %s/full/data && ln -s else "
			    "%s/link", dir, dir, dir, dir, dir, dir);
	assert_int_equal(system(p), 0);
	talloc_free(p);
	/* as the supervisor does: the new ones, deepest first */
	for (size_t i = 6; i-- > 0;)
		if (!existed[i])
			rev[n++] = paths[i];
	assert_int_equal(n, 5);
	assert_int_equal(fileio_backend.shared_remove(ts->ctx, &o, dir, rev,
						      n), 0);
	p = talloc_asprintf(ts->ctx, "cd %s && test ! -e top && test -d old &&"
			    " test -f full/data && test -d else/x && "
			    "test -L link", dir);
	assert_int_equal(system(p), 0);
	talloc_free(p);
	p = talloc_asprintf(ts->ctx, "rm -rf %s", dir);
	assert_int_equal(system(p), 0);
	talloc_free(p);
	/* a target that is gone: an error, nothing else */
	assert_true(fileio_backend.shared_remove(ts->ctx, &o, dir, rev, n) < 0);
}

/* ---- the life of a backend over a vfs (vfs_backend.c) ---- */

/* The fake's options: its targets, local directories standing in for
 * a server's; "!quiet" cannot be reached and says nothing (its target
 * check spoke), "!loud" cannot be reached and says why, "!nomem" is out
 * of memory. */
struct vb_opts {
	const char *dirs[2];
	unsigned n;
};

static unsigned vb_ntargets(const struct dbench_options *o)
{
	return ((const struct vb_opts *)o->backend_opts)->n;
}

static const char *vb_target_name(void *mem, const struct dbench_options *o,
				  unsigned t)
{
	const struct vb_opts *v = o->backend_opts;

	return talloc_asprintf(mem, "fake:%s", v->dirs[t]);
}

static int vb_connect(void *mem, const struct dbench_options *o, unsigned t,
		      struct vfs **vfs, char **err)
{
	const char *d = ((const struct vb_opts *)o->backend_opts)->dirs[t];

	*err = NULL;
	if (strcmp(d, "!quiet") == 0)
		return -ENOTCONN;
	if (strcmp(d, "!nomem") == 0)
		return -ENOMEM;
	if (strcmp(d, "!loud") == 0) {
		*err = talloc_strdup(mem, "fake: no answer");
		return -ECONNREFUSED;
	}
	*vfs = vfs_posix_new(mem, d, 0, err);
	return *vfs != NULL ? 0 : -ENOENT;
}

static int vb_client_vfs(void *mem, const struct backend_client_config *cfg,
			 struct vfs **vfs, char **err)
{
	*vfs = vfs_posix_new(mem, cfg->directory, 0, err);
	return *vfs != NULL ? 0 : -1;
}

static const struct vfs_backend vb_fake = {
	.ntargets = vb_ntargets,
	.target_name = vb_target_name,
	.connect = vb_connect,
	.client_vfs = vb_client_vfs,
};

/* A fresh directory under /dev/shm with what cmd (run in it) makes. */
static char *vb_dir(void *mem, const char *cmd)
{
	char *dir = talloc_strdup(mem, "/dev/shm/dbench-test-vb.XXXXXX");
	char *sh;

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	sh = talloc_asprintf(mem, "cd %s && %s", dir, cmd);
	assert_int_equal(system(sh), 0);
	talloc_free(sh);
	return dir;
}

static void vb_rmdir(void *mem, const char *dir)
{
	char *sh = talloc_asprintf(mem, "rm -rf %s", dir);

	assert_int_equal(system(sh), 0);
	talloc_free(sh);
}

/* trees_check's one path: its refusal (under mem), or NULL when it may
 * be a client's tree. */
static char *vb_refusal(void *mem, const struct dbench_options *o,
			const char *path)
{
	char *err = NULL;
	int r = vfs_backend_trees_check(&vb_fake, mem, o, ".", &path, 1,
					&err);

	assert_int_equal(r, err != NULL ? -1 : 0);
	return err;
}

/* Absent, empty or kept passes; entries, a file, a symlink, a file on
 * the way are refused, naming the target. */
static void test_vfs_backend_trees(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	char *dir = vb_dir(mem, "mkdir -p clients/c1 clients/c2 && "
			   "touch clients/c2/f clients/c3 && "
			   "ln -s c1 clients/c4");
	struct vb_opts v = { { dir }, 1 };
	const struct dbench_options o = { .backend_opts = &v };
	const char *c2 = "clients/c2";
	char *err;

	assert_null(vb_refusal(mem, &o, "clients/c0"));
	assert_null(vb_refusal(mem, &o, "clients/c1"));
	assert_null(vb_refusal(mem, &o, "nothing/c1"));
	err = vb_refusal(mem, &o, c2);
	assert_non_null(err);
	assert_string_equal(err, talloc_asprintf(mem, "fake:%s/clients/c2 "
			    BACKEND_TREE_NOT_EMPTY ": dbench removes only "
			    "what it creates; remove it or use another -D",
			    dir));
	assert_non_null(strstr(vb_refusal(mem, &o, "clients/c3"),
			       BACKEND_TREE_NOT_DIR));
	assert_non_null(strstr(vb_refusal(mem, &o, "clients/c4"),
			       BACKEND_TREE_SYMLINK));
	assert_non_null(strstr(vb_refusal(mem, &o, "clients/c3/x"),
			       BACKEND_TREE_BEHIND));
	/* kept and recorded: a later run may use it; gone: forgotten */
	assert_int_equal(vfs_backend_trees_kept(&vb_fake, mem, &o, ".", &c2,
						1, true), 0);
	assert_null(vb_refusal(mem, &o, c2));
	assert_int_equal(system(talloc_asprintf(mem, "rm -r %s/clients/c2 &&"
						" test -f %s/clients/.dbench-"
						"kept", dir, dir)), 0);
	assert_int_equal(vfs_backend_trees_kept(&vb_fake, mem, &o, ".", &c2,
						1, false), 0);
	assert_int_equal(system(talloc_asprintf(mem, "test ! -e %s/clients/"
						".dbench-kept", dir)), 0);
	vb_rmdir(mem, dir);
	talloc_free(mem);
}

/* Every target is checked; one that cannot be reached refuses the run
 * with its words, or is skipped when its target check spoke. */
static void test_vfs_backend_targets(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	char *dir = vb_dir(mem, "mkdir -p clients/c2 && touch clients/c2/f");
	struct vb_opts v = { { "!quiet", dir }, 2 };
	const struct dbench_options o = { .backend_opts = &v };
	const char *c2 = "clients/c2";
	char *err = NULL;

	/* the second target's tree is refused, the first skipped */
	assert_non_null(strstr(vb_refusal(mem, &o, c2), dir));
	assert_int_equal(vfs_backend_trees_kept(&vb_fake, mem, &o, ".", &c2,
						1, false), -ENOTCONN);
	v.dirs[0] = "!loud";
	assert_string_equal(vb_refusal(mem, &o, "clients/c0"),
			    "fake: no answer");
	assert_int_equal(vfs_backend_target_check(&vb_fake, mem, &o, ".",
						  &err), -1);
	assert_string_equal(err, "fake: no answer");
	assert_int_equal(vfs_backend_trees_kept(&vb_fake, mem, &o, ".", &c2,
						1, false), -ECONNREFUSED);
	v.dirs[0] = "!nomem";
	err = NULL;
	assert_int_equal(vfs_backend_trees_check(&vb_fake, mem, &o, ".", &c2,
						 1, &err), -1);
	assert_null(err);
	v.dirs[0] = dir;
	assert_int_equal(vfs_backend_target_check(&vb_fake, mem, &o, ".",
						  &err), 0);
	vb_rmdir(mem, dir);
	talloc_free(mem);
}

/* Shared paths: noted on every target, removed where new and empty. */
static void test_vfs_backend_shared(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	char *dir = vb_dir(mem, "mkdir old");
	struct vb_opts v = { { dir }, 1 };
	const struct dbench_options o = { .backend_opts = &v };
	const char *paths[] = { "top", "top/sub", "old", "full" };
	const char *rev[] = { "full", "top/sub", "top" };
	bool existed[4];

	assert_int_equal(vfs_backend_shared_note(&vb_fake, mem, &o, ".",
						 paths, 4, existed), 0);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(existed[i], strcmp(paths[i], "old") == 0);
	/* a target that cannot be told: every path counts as existing */
	v.dirs[1] = "!quiet";
	v.n = 2;
	assert_int_equal(vfs_backend_shared_note(&vb_fake, mem, &o, ".",
						 paths, 4, existed), -ENOTCONN);
	for (size_t i = 0; i < 4; i++)
		assert_true(existed[i]);
	v.n = 1;
	assert_int_equal(system(talloc_asprintf(mem, "cd %s && mkdir -p "
						"top/sub full && touch "
						"full/data", dir)), 0);
	assert_int_equal(vfs_backend_shared_remove(&vb_fake, mem, &o, ".", rev,
						   3), 0);
	assert_int_equal(system(talloc_asprintf(mem, "cd %s && test ! -e top "
						"&& test -f full/data && "
						"test -d old", dir)), 0);
	vb_rmdir(mem, dir);
	talloc_free(mem);
}

/* A client's state: nbvfs over the client's vfs; its failure is said. */
static void test_vfs_backend_setup(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	char *dir = vb_dir(mem, "true");
	const struct dbench_options o = { 0 };
	struct backend_client_config cfg = {
		.opts = &o, .directory = dir, .nhandles = 4,
	};
	void *nb = NULL;
	char *err = NULL;

	assert_int_equal(vfs_backend_setup(&vb_fake, mem, &cfg, &nb, &err), 0);
	assert_non_null(nb);
	cfg.directory = "/nonexistent/dbench-test-vb";
	assert_int_equal(vfs_backend_setup(&vb_fake, mem, &cfg, &nb, &err),
			 -1);
	assert_non_null(strstr(err, "/nonexistent/dbench-test-vb"));
	vb_rmdir(mem, dir);
	talloc_free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_fileio_client_fds),
		T(test_rlimits_max_dirs),
		T(test_fileio_shared_paths),
		T(test_vfs_backend_trees),
		T(test_vfs_backend_targets),
		T(test_vfs_backend_shared),
		T(test_vfs_backend_setup),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
