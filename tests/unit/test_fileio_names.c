/*
 * test_fileio_names.c - test_fileio's namespace tests: Rename, Unlink and
 * Rmdir, the kept directories (with the engine's hints right, absent or
 * wrong), the descriptor budget, Deltree, and symlinks met on the way.
 */
#include "config.h"

#include "fileio_fixture.h"

/* ---- namespace operations ---- */

void test_rename_unlink_rmdir(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx_open(fx);
	mk_dir(fx, "d");
	mk_file(fx, "d/a", "aaa");
	mk_dir(fx, "e");

	assert_int_equal(RUN(fx, .kind = OP_RENAME, .path = { "d/a", "e/b" }),
			 NT_STATUS_OK);
	assert_int_equal(type_of(fx, "d/a"), -1);
	assert_int_equal(type_of(fx, "e/b"), S_IFREG);
	assert_int_equal(RUN(fx, .kind = OP_RENAME, .path = { "d/a", "e/c" }),
			 NT_STATUS_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_RENAME,
			     .path = { "nodir/a", "e/c" }),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_RENAME,
			     .path = { "e/b", "nodir/c" }),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(type_of(fx, "e/b"), S_IFREG);

	assert_int_equal(RUN(fx, .kind = OP_UNLINK, .path = { "d" }),
			 NT_STATUS_FILE_IS_A_DIRECTORY);
	assert_int_equal(RUN(fx, .kind = OP_RMDIR, .path = { "e" }),
			 NT_STATUS_DIRECTORY_NOT_EMPTY);
	assert_int_equal(RUN(fx, .kind = OP_RMDIR, .path = { "e/b" }),
			 NT_STATUS_NOT_A_DIRECTORY);
	assert_int_equal(RUN(fx, .kind = OP_UNLINK, .path = { "e/b" }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_UNLINK, .path = { "e/b" }),
			 NT_STATUS_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_RMDIR, .path = { "e" }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_RMDIR, .path = { "e" }),
			 NT_STATUS_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(type_of(fx, "e"), -1);
	assert_int_equal(type_of(fx, "d"), S_IFDIR);
}

/*
 * Directories are resolved once per client and kept (vp_dircache_get):
 * what this client renames or removes is forgotten, and a kept directory
 * that someone else removed and made again is looked up anew.
 */
static void kept_directories(struct fx *fx)
{
	unsigned fds;

	fx_open(fx);
	mk_dir(fx, "a");
	mk_file(fx, "a/x", "x");
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "a/x" }),
			 NT_STATUS_OK);		/* "a" is kept now */

	/* renamed by this client: a new "a" is a new directory */
	assert_int_equal(RUN(fx, .kind = OP_RENAME, .path = { "a", "b" }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "a" }),
			 NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "a/y", 0x40, 2, 1), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "a/y"), S_IFREG);
	assert_int_equal(type_of(fx, "b/y"), -1);
	assert_int_equal(type_of(fx, "b/x"), S_IFREG);

	/* removed by this client (Rmdir, Deltree), then made again */
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "b/x" }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_DELTREE, .path = { "b" }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "b/x" }),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "b" }),
			 NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "b/z", 0x40, 2, 2), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "b/z"), S_IFREG);

	/* removed and made again by someone else (another client sharing
	 * the directory): the lookup notices and finds the new one */
	assert_int_equal(close_h(fx, 2), NT_STATUS_OK);
	assert_int_equal(unlinkat(fx->dfd, "b/z", 0), 0);
	assert_int_equal(unlinkat(fx->dfd, "b", AT_REMOVEDIR), 0);
	mk_dir(fx, "b");
	mk_file(fx, "b/new", "n");
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "b/new" }),
			 NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "b/w", 0x40, 2, 3), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "b/w"), S_IFREG);

	/* more directories than are kept: still right, no descriptor leak */
	fds = count_fds();
	for (int i = 0; i < 100; i++) {
		char *d = talloc_asprintf(fx->tmp, "m%d", i);
		char *p = talloc_asprintf(fx->tmp, "m%d/f", i);

		assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { d }),
				 NT_STATUS_OK);
		assert_int_equal(ntcreatex(fx, p, 0x40, 2, 4), NT_STATUS_OK);
		assert_int_equal(close_h(fx, 4), NT_STATUS_OK);
	}
	for (int i = 0; i < 100; i++)
		assert_int_equal(RUN(fx, .kind = OP_QPATHINFO,
				     .path = { talloc_asprintf(fx->tmp, "m%d/f",
							       i) }),
				 NT_STATUS_OK);
	assert_true(count_fds() <= fds + 32);
}

void test_kept_directories(void **cm_state)
{
	kept_directories(*cm_state);
}

/* The same without the engine's hint: the kept directories are scanned. */
void test_kept_directories_unhinted(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx->hint_mode = HINT_NONE;
	kept_directories(fx);
}

/* The same with a hint that lies (every directory has one number): the
 * vfs checks what the hint points at, so only speed could suffer. */
void test_kept_directories_wrong_hint(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx->hint_mode = HINT_WRONG;
	kept_directories(fx);
}

/*
 * With the hint, a directory once found is found again through its
 * number: the map points at the kept entry of that very directory, and
 * a lookup through it counts as a use (the eviction order is the scan's).
 */
void test_kept_directories_by_number(void **cm_state)
{
	struct fx *fx = *cm_state;
	struct vfs_posix *vp;
	const struct vp_dircache *e;
	uint64_t used;

	fx_open(fx);
	vp = vp_of(nbvfs_vfs(fx->state));
	mk_dir(fx, "a");
	mk_dir(fx, "a/b");
	mk_file(fx, "a/b/x", "x");
	mk_file(fx, "a/y", "y");
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "a/b/x" }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "a/y" }),
			 NT_STATUS_OK);
	assert_int_equal(fx->ndirs, 2);		/* "a/b" is 1, "a" is 2 */
	assert_true(vp->ndirmap > 2);
	assert_int_not_equal(vp->dirmap[1], 0);
	assert_int_not_equal(vp->dirmap[2], 0);
	e = &vp->dircache[vp->dirmap[1] - 1];
	assert_int_equal(e->len, 3);
	assert_memory_equal(e->path, "a/b", 3);
	assert_int_equal(e->dir, 1);
	used = e->used;
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "a/b/x" }),
			 NT_STATUS_OK);
	assert_true(e->used > used);
	assert_int_equal(e->used, vp->dircache_clock);
	e = &vp->dircache[vp->dirmap[2] - 1];
	assert_int_equal(e->len, 1);
	assert_memory_equal(e->path, "a", 1);

	/* forgotten with the kept directories (Rmdir of one of them) */
	assert_int_equal(unlinkat(fx->dfd, "a/b/x", 0), 0);
	assert_int_equal(RUN(fx, .kind = OP_RMDIR, .path = { "a/b" }),
			 NT_STATUS_OK);
	for (unsigned i = 0; i < VP_DIRCACHE; i++)
		assert_int_equal(vp->dircache[i].fd, -1);
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "a/b/x" }),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "a/y" }),
			 NT_STATUS_OK);
}

/*
 * The descriptors a client keeps beyond its handles stay within what
 * vfs_posix_fds_per_client() announces (the up-front budget counts on
 * it), however many directories the loadfile touches.
 */
void test_fds_per_client(void **cm_state)
{
	struct fx *fx = *cm_state;
	unsigned base = count_fds();

	assert_int_equal(vfs_posix_fds_per_client(), 34);
	fx_open(fx);
	for (int i = 0; i < 40; i++) {
		char *d = talloc_asprintf(fx->tmp, "dir%d", i);
		char *f = talloc_asprintf(fx->tmp, "dir%d/sub/f", i);
		char *p = talloc_asprintf(fx->tmp, "dir%d/sub/*", i);

		assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { d }),
				 NT_STATUS_OK);
		assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = {
			talloc_asprintf(fx->tmp, "%s/sub", d) }), NT_STATUS_OK);
		assert_int_equal(ntcreatex(fx, f, 0x40, 2, 0), NT_STATUS_OK);
		assert_int_equal(close_h(fx, 0), NT_STATUS_OK);
		assert_int_equal(RUN(fx, .kind = OP_FIND, .path = { p },
				     .arg = { 260, 100, 3 }), NT_STATUS_OK);
		assert_int_equal(RUN(fx, .kind = OP_QPATHINFO,
				     .path = { talloc_asprintf(fx->tmp,
						"dir%d/sub/F", i) } ),
				 NT_STATUS_OK);
		assert_true(count_fds() - base <= vfs_posix_fds_per_client());
	}
}

/* Build a nested tree under root: files, empty and full directories. */
static void mk_tree(struct fx *fx, const char *root)
{
	static const char *const dirs[] = {
		"", "/a", "/a/b", "/a/b/c", "/a/empty", "/z",
	};
	static const char *const files[] = {
		"/f1", "/a/f2", "/a/b/f3", "/a/b/c/f4", "/a/b/c/f5", "/z/f6",
	};
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		mk_dir(fx, talloc_asprintf(fx->tmp, "%s%s", root, dirs[i]));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		mk_file(fx, talloc_asprintf(fx->tmp, "%s%s", root, files[i]),
			"content");
}

void test_deltree(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx_open(fx);
	mk_dir(fx, "clients");
	mk_tree(fx, "clients/client0");
	mk_file(fx, "clients/other", "keep");
	assert_int_equal(RUN(fx, .kind = OP_DELTREE,
			     .path = { "clients/client0" }), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "clients/client0"), -1);
	assert_int_equal(type_of(fx, "clients/other"), S_IFREG);
	/* a missing tree is no error, nor one below a file */
	assert_int_equal(RUN(fx, .kind = OP_DELTREE,
			     .path = { "clients/client0" }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_DELTREE,
			     .path = { "clients/other/x" }), NT_STATUS_OK);
	/* a single file */
	assert_int_equal(RUN(fx, .kind = OP_DELTREE,
			     .path = { "clients/other" }), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "clients/other"), -1);
	assert_int_equal(type_of(fx, "clients"), S_IFDIR);
}

/*
 * Links inside the tree to a directory of precious files outside it (and
 * to one of them): removing the tree removes the links only.
 */
static void mk_trap(struct fx *fx, const char *root)
{
	const char *precious = talloc_asprintf(fx->tmp, "%s/precious",
					       fx->dir);

	mk_tree(fx, root);
	assert_int_equal(symlinkat(precious, fx->dfd,
		talloc_asprintf(fx->tmp, "%s/a/b/link", root)), 0);
	assert_int_equal(symlinkat(talloc_asprintf(fx->tmp, "%s/p1", precious),
		fx->dfd, talloc_asprintf(fx->tmp, "%s/filelink", root)), 0);
	assert_int_equal(symlinkat("nowhere", fx->dfd,
		talloc_asprintf(fx->tmp, "%s/a/dangling", root)), 0);
	/* the link resolves to the precious directory */
	assert_int_equal(type_of(fx, talloc_asprintf(fx->tmp,
				 "%s/a/b/link/p2", root)), S_IFREG);
}

static void check_precious(struct fx *fx)
{
	assert_int_equal(type_of(fx, "precious"), S_IFDIR);
	assert_int_equal(type_of(fx, "precious/p1"), S_IFREG);
	assert_int_equal(type_of(fx, "precious/p2"), S_IFREG);
	assert_int_equal(type_of(fx, "precious/sub/p3"), S_IFREG);
	assert_int_equal(size_of(fx, "precious/p1"), 4);
}

void test_deltree_and_cleanup_keep_symlink_targets(void **cm_state)
{
	struct fx *fx = *cm_state;

	mk_dir(fx, "precious");
	mk_dir(fx, "precious/sub");
	mk_file(fx, "precious/p1", "gold");
	mk_file(fx, "precious/p2", "gold");
	mk_file(fx, "precious/sub/p3", "gold");
	fx_open(fx);

	mk_trap(fx, "tree");
	assert_int_equal(RUN(fx, .kind = OP_DELTREE, .path = { "tree" }),
			 NT_STATUS_OK);
	assert_int_equal(type_of(fx, "tree"), -1);
	check_precious(fx);

	/* cleanup also closes what is open in the tree first */
	mk_dir(fx, "clients");
	mk_trap(fx, "clients/client0");
	assert_int_equal(ntcreatex(fx, "clients/client0/f1", 0x40, 1, 4),
			 NT_STATUS_OK);
	assert_int_equal(fileio_backend.cleanup(fx->state, "clients/client0"),
			 0);
	assert_int_equal(type_of(fx, "clients/client0"), -1);
	assert_int_equal(type_of(fx, "clients"), S_IFDIR);
	assert_int_equal(close_h(fx, 4), NT_STATUS_INVALID_HANDLE);
	check_precious(fx);

	/* a link as the top of the tree is removed as a link */
	assert_int_equal(symlinkat("precious", fx->dfd, "toplink"), 0);
	assert_int_equal(fileio_backend.cleanup(fx->state, "toplink"), 0);
	assert_int_equal(type_of(fx, "toplink"), -1);
	check_precious(fx);

	/* a missing tree is success */
	assert_int_equal(fileio_backend.cleanup(fx->state, "nothing/here"), 0);
}

/*
 * A symlink as an intermediate component never leads out of the client
 * directory: every path operation through one fails and leaves the
 * target alone; as the last component it is never opened through.
 * Checked with openat2 and with the fallback walk used without it.
 */
static void symlinks_on_the_way(struct fx *fx, bool walk)
{
	static const char *const links[] = { "c/abs", "c/rel", "top" };
	const char *precious = talloc_asprintf(fx->tmp, "%s/precious",
					       fx->dir);
	uint64_t n = 0;
	unsigned i;

	mk_dir(fx, "precious");
	mk_dir(fx, "precious/sub");
	mk_dir(fx, "precious/empty");
	mk_file(fx, "precious/p1", "gold");
	mk_file(fx, "precious/p2", "gold");
	mk_file(fx, "precious/sub/p3", "gold");
	mk_dir(fx, "c");
	mk_file(fx, "c/mine", "x");
	assert_int_equal(symlinkat(precious, fx->dfd, "c/abs"), 0);
	assert_int_equal(symlinkat("../precious", fx->dfd, "c/rel"), 0);
	assert_int_equal(symlinkat("precious", fx->dfd, "top"), 0);
	assert_int_equal(symlinkat("/", fx->dfd, "c/root"), 0);
	fx_open(fx);
	fx_no_openat2(walk);

	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		const char *l = links[i];
#define P(s) talloc_asprintf(fx->tmp, "%s/%s", l, s)
		assert_int_not_equal(ntcreatex(fx, P("p1"), 0x40, 0, 1), OK);
		assert_int_not_equal(ntcreatex(fx, P("p1"), 0x40, 1, 1), OK);
		assert_int_not_equal(ntcreatex(fx, P("new"), 0x40, 2, 1), OK);
		assert_int_not_equal(ntcreatex(fx, P("nd"), 0x1, 2, 1), OK);
		assert_int_not_equal(ntcreatex(fx, P("sub"), 0x1, 1, 1), OK);
		assert_int_not_equal(RUN(fx, .kind = OP_MKDIR,
					 .path = { P("md") }), OK);
		assert_int_not_equal(RUN(fx, .kind = OP_UNLINK,
					 .path = { P("p2") }), OK);
		assert_int_not_equal(RUN(fx, .kind = OP_RMDIR,
					 .path = { P("empty") }), OK);
		assert_int_not_equal(RUN(fx, .kind = OP_RENAME,
					 .path = { P("p2"), "c/stolen" }), OK);
		assert_int_not_equal(RUN(fx, .kind = OP_RENAME,
					 .path = { "c/mine", P("planted") }),
				     OK);
		assert_int_not_equal(RUN(fx, .kind = OP_QPATHINFO,
					 .path = { P("p1") }), OK);
		assert_int_not_equal(RUN(fx, .kind = OP_FIND,
					 .path = { P("*") },
					 .arg = { 0, 100, 0 }), OK);
		(void)RUN(fx, .kind = OP_DELTREE, .path = { P("sub") });
		assert_int_equal(fileio_backend.cleanup(fx->state, P("sub")),
				 0);
#undef P
		/* the link itself, as the last component */
		assert_int_not_equal(ntcreatex(fx, l, 0x40, 0, 1), OK);
		assert_int_not_equal(ntcreatex(fx, l, 0x1, 1, 1), OK);
		check_precious(fx);
		assert_int_equal(type_of(fx, "precious/empty"), S_IFDIR);
		assert_int_equal(type_of(fx, "precious/new"), -1);
		assert_int_equal(type_of(fx, "precious/nd"), -1);
		assert_int_equal(type_of(fx, "precious/md"), -1);
		assert_int_equal(type_of(fx, "precious/planted"), -1);
		assert_int_equal(type_of(fx, "c/stolen"), -1);
		assert_int_equal(type_of(fx, "c/mine"), S_IFREG);
	}
	/* a link to / : nothing there is even looked at */
	assert_int_not_equal(RUN(fx, .kind = OP_QPATHINFO,
				 .path = { "c/root/etc" }), OK);
	assert_int_not_equal(nbvfs_find_count(fx->state, &(struct op_call){0},
					       "c/root/*", 0, &n), OK);
	assert_int_equal(n, 0);

	/* Deltree and cleanup remove the links as links */
	assert_int_equal(RUN(fx, .kind = OP_DELTREE, .path = { "top" }), OK);
	assert_int_equal(fileio_backend.cleanup(fx->state, "c"), 0);
	assert_int_equal(type_of(fx, "c"), -1);
	assert_int_equal(type_of(fx, "top"), -1);
	check_precious(fx);
	assert_int_equal(type_of(fx, "precious/sub"), S_IFDIR);
	fx_no_openat2(false);
}

void test_symlinks_on_the_way(void **cm_state)
{
	symlinks_on_the_way(*cm_state, false);
}

void test_symlinks_on_the_way_no_openat2(void **cm_state)
{
	symlinks_on_the_way(*cm_state, true);
}

/* A hint that lies never leads through a symlink either. */
void test_symlinks_on_the_way_wrong_hint(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx->hint_mode = HINT_WRONG;
	symlinks_on_the_way(fx, false);
}
