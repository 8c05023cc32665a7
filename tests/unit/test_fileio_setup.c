/*
 * test_fileio_setup.c - test_fileio's tests of what surrounds the ops:
 * stores without locks or extended attributes (through the client engine
 * and its summary), util_open_parent_nofollow, set-up errors, the null
 * backend and the registry, tree removal with few descriptors, and the
 * check of the trees before a run.
 */
#include "config.h"

#include "fileio_fixture.h"

/* ---- filesystems without locks or extended attributes ---- */

/* The backend: the status says "not supported", the errno is kept for
 * the message, and a failed attribute write leaves no descriptor open. */
void test_no_locks_no_xattrs(void **cm_state)
{
	struct fx *fx = *cm_state;
	struct op_call call;
	unsigned fds;

	mk_file(fx, "f", "0123456789");
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 1, 1), NT_STATUS_OK);
	nosys_lock_err = ENOSYS;
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_LOCKX,
			.handle = 1, .arg = { 0, 1 } }, &call),
			 NT_STATUS_NOT_SUPPORTED);
	assert_int_equal(call.err, ENOSYS);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_UNLOCKX,
			.handle = 1, .arg = { 0, 1 } }, &call),
			 NT_STATUS_NOT_SUPPORTED);
	assert_int_equal(call.err, ENOSYS);
	/* the handle is still good for everything else */
	assert_int_equal(RUN(fx, .kind = OP_READX, .handle = 1,
			     .arg = { 0, 4, 4 }), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 1), NT_STATUS_OK);
#ifdef HAVE_SYS_XATTR_H
	fx->opts.xattr = true;
	fx_open(fx);
	nosys_xattr_err = ENOTSUP;
	fds = count_fds();
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_NTCREATEX,
			.path = { "f" }, .handle = 2, .arg = { 0x40, 1 } },
			&call), NT_STATUS_NOT_SUPPORTED);
	assert_int_equal(call.err, ENOTSUP);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_QPATHINFO,
			.path = { "f" }, .arg = { 1004 } }, &call),
			 NT_STATUS_NOT_SUPPORTED);
	assert_int_equal(call.err, ENOTSUP);
	/* a filesystem whose attribute calls are missing altogether */
	nosys_xattr_err = ENOSYS;
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_NTCREATEX,
			.path = { "f" }, .handle = 2, .arg = { 0x40, 1 } },
			&call), NT_STATUS_NOT_SUPPORTED);
	assert_int_equal(call.err, ENOSYS);
	assert_int_equal(count_fds(), fds);
#else
	(void)fds;
#endif
}

static const char *nolock_text =
	"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 7 NT_STATUS_OK\n"
	"LockX 7 0 1 NT_STATUS_OK\n"
	"WriteX 7 0 5 5 NT_STATUS_OK\n"
	"UnlockX 7 0 1 NT_STATUS_OK\n"
	"LockX 7 8 1 NT_STATUS_OK\n"
	"Close 7 NT_STATUS_OK\n";

/*
 * One pass of nolock_text by the client engine on the fileio backend with
 * F_SETLK failing with ENOSYS, under the policy given: the pass runs to
 * its end, each failed lock call is counted under its op, and the summary
 * names the op, the count, the loadfile line and the error.
 */
static void no_locks_run(struct fx *fx, enum mismatch_policy policy)
{
	struct stats_region region;
	struct stats_total *tot;
	struct program *prog, *progs[1];
	struct client *c;
	enum client_step_result r;
	char *err = NULL, *out = NULL;
	size_t outlen = 0;
	unsigned guard = 0;
	FILE *f;

	fx->opts.nclients = 1;
	fx->opts.clients_per_process = 1;
	fx->opts.mismatch = policy;
	assert_int_equal(stats_map(&region, 1), 0);
	mk_dir(fx, "clients");
	mk_dir(fx, "clients/client0");
	prog = program_compile_buffer(fx->tmp, "nolock.txt", nolock_text,
				      strlen(nolock_text), &err);
	assert_non_null(prog);
	c = client_new(fx->tmp, &fx->opts, prog, 0, &fileio_backend, fx->dir,
		       &region, 0);
	assert_non_null(c);
	nosys_lock_err = ENOSYS;
	client_start(c, now_ns());
	while ((r = client_step(c)) == STEP_OK && guard++ < 1000)
		;
	assert_int_equal(r, STEP_PASS_DONE);
	assert_false(client_failed(c));
	/* the write after the failed lock went through */
	assert_int_equal(size_of(fx, "clients/client0/f"), 5);
	assert_int_equal(region.slots[0].mm[OP_LOCKX].count, 2);
	assert_int_equal(region.slots[0].mm[OP_LOCKX].fatal, 0);
	assert_int_equal(region.slots[0].mm[OP_LOCKX].first_err, ENOSYS);
	assert_int_equal(region.slots[0].mm[OP_UNLOCKX].count, 1);
	assert_int_equal(region.slots[0].mm[OP_WRITEX].count, 0);

	tot = talloc_zero(fx->tmp, struct stats_total);
	assert_non_null(tot);
	stats_sum(&region, 0, 1, PHASE_EXECUTE, 0, false, tot);
	progs[0] = prog;
	f = open_memstream(&out, &outlen);
	assert_non_null(f);
	report_mismatches(f, fx->tmp, &fx->opts, result_build(fx->tmp, &region,
		&(struct result_params){ .programs = progs, .nprograms = 1,
		.phase = PHASE_EXECUTE, .seconds = 1, .nprocs = 1 }));
	fclose(f);
	assert_non_null(strstr(out, "Status mismatches (not fatal):\n"));
	assert_non_null(strstr(out, " LockX              2   first: client 0, "
			       "nolock.txt:2: expected NT_STATUS_OK, got "
			       "NT_STATUS_NOT_SUPPORTED: Function not "
			       "implemented\n"));
	assert_non_null(strstr(out, " UnlockX            1   first: client 0, "
			       "nolock.txt:4: expected NT_STATUS_OK, got "
			       "NT_STATUS_NOT_SUPPORTED: Function not "
			       "implemented\n"));
	free(out);
	assert_int_equal(client_cleanup(c), 0);
	stats_unmap(&region);
	talloc_free_children(fx->tmp);
}

void test_no_locks_keep_going(void **cm_state)
{
	no_locks_run(*cm_state, MISMATCH_KEEP_GOING);
}

/* A missing feature is not one of the faults that stop a run (disk full,
 * read-only, out of descriptors): the default policy counts it too. */
void test_no_locks_default(void **cm_state)
{
	no_locks_run(*cm_state, MISMATCH_DEFAULT);
}

/* --strict: the first one stops the client. */
void test_no_locks_strict(void **cm_state)
{
	struct fx *fx = *cm_state;
	struct stats_region region;
	struct program *prog;
	struct client *c;
	enum client_step_result r;
	char *err = NULL;
	unsigned guard = 0;

	fx->opts.nclients = 1;
	fx->opts.clients_per_process = 1;
	fx->opts.mismatch = MISMATCH_STRICT;
	assert_int_equal(stats_map(&region, 1), 0);
	mk_dir(fx, "clients");
	mk_dir(fx, "clients/client0");
	prog = program_compile_buffer(fx->tmp, "nolock.txt", nolock_text,
				      strlen(nolock_text), &err);
	assert_non_null(prog);
	c = client_new(fx->tmp, &fx->opts, prog, 0, &fileio_backend, fx->dir,
		       &region, 0);
	assert_non_null(c);
	nosys_lock_err = ENOSYS;
	client_start(c, now_ns());
	while ((r = client_step(c)) == STEP_OK && guard++ < 1000)
		;
	assert_int_equal(r, STEP_FAILED);
	assert_int_equal(region.slots[0].mm[OP_LOCKX].fatal, 1);
	assert_int_equal(size_of(fx, "clients/client0/f"), 0);
	assert_int_equal(client_cleanup(c), 0);
	stats_unmap(&region);
	talloc_free_children(fx->tmp);
}

/* util_open_parent_nofollow (the supervisor's removal of shared paths):
 * a symlink before the last component, or "..", makes it fail. */
void test_open_parent_nofollow(void **cm_state)
{
	struct fx *fx = *cm_state;
	const char *leaf = NULL;
	struct stat st;
	int fd;

	mk_dir(fx, "a");
	mk_dir(fx, "a/b");
	mk_file(fx, "a/b/f", "x");
	assert_int_equal(symlinkat("b", fx->dfd, "a/l"), 0);
	fd = util_open_parent_nofollow(fx->dfd, "a/b/f", &leaf);
	assert_true(fd >= 0);
	assert_string_equal(leaf, "f");
	assert_int_equal(fstatat(fd, leaf, &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(st.st_mode));
	close(fd);
	fd = util_open_parent_nofollow(fx->dfd, "top", &leaf);
	assert_true(fd >= 0);
	assert_string_equal(leaf, "top");
	assert_int_equal(fstatat(fd, "a", &st, 0), 0);
	close(fd);
	/* the link as the last component is named, not followed */
	fd = util_open_parent_nofollow(fx->dfd, "a/l", &leaf);
	assert_true(fd >= 0);
	assert_int_equal(fstatat(fd, leaf, &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISLNK(st.st_mode));
	close(fd);
	errno = 0;
	assert_int_equal(util_open_parent_nofollow(fx->dfd, "a/l/f", &leaf), -1);
	assert_true(errno == ELOOP || errno == ENOTDIR);
	assert_int_equal(util_open_parent_nofollow(fx->dfd, "a/../a/b/f", &leaf),
			 -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(util_open_parent_nofollow(fx->dfd, "a/b/..", &leaf),
			 -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(util_open_parent_nofollow(fx->dfd, "nodir/f", &leaf),
			 -1);
	assert_int_equal(errno, ENOENT);
}

/* ---- setup ---- */

void test_setup_errors(void **cm_state)
{
	struct fx *fx = *cm_state;
	struct backend_client_config cfg = { .opts = &fx->opts,
					     .nhandles = 4 };
	void *state = NULL;
	char *err = NULL;

	cfg.directory = talloc_asprintf(fx->tmp, "%s/missing", fx->dir);
	assert_int_equal(fileio_backend.setup(fx->ctx, &cfg, &state, &err),
			 -1);
	assert_non_null(err);
	assert_non_null(strstr(err, "/missing: "));
	assert_non_null(strstr(err, strerror(ENOENT)));
	talloc_free(err);

	mk_file(fx, "file", "");
	cfg.directory = talloc_asprintf(fx->tmp, "%s/file", fx->dir);
	err = NULL;
	assert_int_equal(fileio_backend.setup(fx->ctx, &cfg, &state, &err),
			 -1);
	assert_non_null(strstr(err, strerror(ENOTDIR)));
	talloc_free(err);

	/* no handle slots at all is a valid program */
	cfg.directory = fx->dir;
	cfg.nhandles = 0;
	assert_int_equal(fileio_backend.setup(fx->ctx, &cfg, &state, &err), 0);
	assert_int_equal(fileio_backend.cleanup(state, "nothing"), 0);
	talloc_free(state);
}

/* ---- null backend and registry ---- */

void test_null_backend(void **cm_state)
{
	struct fx *fx = *cm_state;
	struct backend_client_config cfg = { .opts = &fx->opts,
					     .directory = "/nonexistent",
					     .nhandles = 4 };
	struct op op = { .handle = 99 };
	void *state = NULL;
	char *err = NULL;
	unsigned k;

	assert_int_equal(null_backend.setup(fx->ctx, &cfg, &state, &err), 0);
	for (k = 0; k < OP_NUM_MEASURED; k++) {
		struct op_call call = { .op = &op,
					.arg = { 12, 4096, 17 } };

		if (op_kind_is_nfs3(k) || op_kind_is_smb5(k) ||
		    op_kind_is_block(k) || op_kind_is_scsi(k))
			continue;	/* not its dialect: refused per loadfile */
		op.kind = (enum op_kind)k;
		assert_int_equal(null_backend.ops[k](state, &call),
				 NT_STATUS_OK);
		assert_int_equal(call.err, 0);
		assert_int_equal(call.bytes, (k == OP_READX || k == OP_WRITEX) ?
				 4096 : 0);
	}
	assert_int_equal(null_backend.cleanup(state, "clients"), 0);
	talloc_free(state);
}

void test_registry(void **cm_state)
{
	const char *bad = NULL;
	size_t i;

	(void)cm_state;
	assert_ptr_equal(backend_find("fileio"), &fileio_backend);
	assert_ptr_equal(backend_find("null"), &null_backend);
	assert_null(backend_find("nfs-does-not-exist"));
	assert_null(backend_find(""));
	assert_null(backend_find(NULL));
	assert_int_equal(backend_registry_check(&bad), 0);
	assert_null(bad);
	for (i = 0; backend_registry[i] != NULL; i++) {
		assert_non_null(backend_registry[i]->name);
		assert_non_null(backend_registry[i]->description);
		/* each entry is found by its name (no two share one) */
		assert_ptr_equal(backend_find(backend_registry[i]->name),
				 backend_registry[i]);
	}
	/* fileio and null at least: a new backend is one more line */
	assert_true(i >= 2);
}

/* ---- deep trees: a bounded number of descriptors ---- */

/* A descriptor limit that leaves exactly n descriptors free (new ones
 * take the lowest free numbers, and must stay below the limit). */
static rlim_t limit_leaving(unsigned n)
{
	int fd = 0;

	for (;; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && --n == 0)
			return (rlim_t)fd + 1;
}

/*
 * A 50-deep chain top/d/d/... with a file at every level and, at depth
 * 30, a link to a scratch directory outside and one to a file there:
 * emptied with 3 kept descriptors under a limit that leaves it 4 (the
 * old walk, one per level, ran out), the links removed as links.
 */
void test_deep_tree_bounded_fds(void **cm_state)
{
	struct fx *fx = *cm_state;
	struct rlimit old, low;
	int fd, r;

	mk_dir(fx, "outside");
	mk_file(fx, "outside/precious.txt", "precious");
	mk_dir(fx, "top");
	fd = openat(fx->dfd, "top", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	for (int depth = 1; depth <= 50; depth++) {
		int next, f = openat(fd, "f", O_WRONLY | O_CREAT, 0644);

		assert_true(f >= 0);
		close(f);
		if (depth == 30) {
			char *out = talloc_asprintf(fx->tmp, "%s/outside",
						    fx->dir);

			assert_int_equal(symlinkat(out, fd, "lnk"), 0);
			out = talloc_asprintf(fx->tmp, "%s/outside/precious.txt",
					      fx->dir);
			assert_int_equal(symlinkat(out, fd, "flnk"), 0);
		}
		assert_int_equal(mkdirat(fd, "d", 0755), 0);
		next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
		assert_true(next >= 0);
		close(fd);
		fd = next;
	}
	close(fd);

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = limit_leaving(4);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	r = vfs_posix_empty_tree(fx->dfd, "top", 3);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(r, 0);

	assert_int_equal(type_of(fx, "top"), S_IFDIR);
	assert_int_equal(type_of(fx, "top/d"), -1);
	assert_int_equal(type_of(fx, "outside"), S_IFDIR);
	assert_int_equal(size_of(fx, "outside/precious.txt"), 8);
	/* a missing directory is empty; a file is not a directory */
	assert_int_equal(vfs_posix_empty_tree(fx->dfd, "gone", 3), 0);
	assert_int_equal(vfs_posix_empty_tree(fx->dfd, "outside/precious.txt",
					      3), -ENOTDIR);
	assert_int_equal(size_of(fx, "outside/precious.txt"), 8);
}

/* trees_check: absent or empty is new; anything else is refused with
 * the path and why, nothing followed or changed. */
void test_trees_check(void **cm_state)
{
	struct fx *fx = *cm_state;
	const char *paths[] = { "clients/client0", "clients/client1" };
	char *err = NULL;

	assert_int_equal(fileio_backend.trees_check(fx->tmp, &fx->opts,
						    fx->dir, paths, 2, &err), 0);
	mk_dir(fx, "clients");
	mk_dir(fx, "clients/client0");
	assert_int_equal(fileio_backend.trees_check(fx->tmp, &fx->opts,
						    fx->dir, paths, 2, &err), 0);
	mk_dir(fx, "outside");
	mk_file(fx, "outside/x", "x");
	assert_int_equal(symlinkat("../outside", fx->dfd, "clients/client1"),
			 0);
	assert_int_equal(fileio_backend.trees_check(fx->tmp, &fx->opts,
						    fx->dir, paths, 2, &err), -1);
	assert_non_null(strstr(err, "/clients/client1 already exists as a "
				    "symlink: dbench removes only what it "
				    "creates; remove it or use another -D"));
	assert_int_equal(unlinkat(fx->dfd, "clients/client1", 0), 0);
	mk_file(fx, "clients/client0/old", "old");
	assert_int_equal(fileio_backend.trees_check(fx->tmp, &fx->opts,
						    fx->dir, paths, 2, &err), -1);
	assert_non_null(strstr(err, "/clients/client0 already exists (left "
				    "by an earlier run, or someone else's "
				    "files)"));
	assert_int_equal(size_of(fx, "clients/client0/old"), 3);
	assert_int_equal(size_of(fx, "outside/x"), 1);
	/* client.txt's ~dmtmp in it: dbench 4.00's leftovers, and how to
	 * remove them */
	mk_dir(fx, "clients/client0/~dmtmp");
	assert_int_equal(fileio_backend.trees_check(fx->tmp, &fx->opts,
						    fx->dir, paths, 2, &err), -1);
	assert_non_null(strstr(err, "/clients/client0 looks like dbench 4.00's "
				    "leftovers (client.txt's ~dmtmp tree"));
	assert_non_null(strstr(err, "remove it (rm -r -- '"));
	assert_int_equal(size_of(fx, "clients/client0/old"), 3);
	/* on a share no local rm applies */
	err = backend_tree_refusal(fx->tmp, "//srv/share", "clients/client0",
				   BACKEND_TREE_OLD_RUN);
	assert_non_null(strstr(err, "//srv/share/clients/client0 looks like "
				    "dbench 4.00's leftovers"));
	assert_non_null(strstr(err, "remove it on the server"));
	assert_null(strstr(err, "rm -r"));
}
