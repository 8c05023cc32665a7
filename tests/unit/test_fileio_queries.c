/*
 * test_fileio_queries.c - test_fileio's queries, locks and options:
 * QUERY_PATH_INFORMATION and the case-insensitive lookup, file and fs
 * information, FIND_FIRST's masks, readdir_many, lock conflicts, -S/-F,
 * --stat-check and -x.
 */
#include "config.h"

#include "fileio_fixture.h"

/* ---- queries ---- */

void test_qpathinfo_resolve(void **cm_state)
{
	struct fx *fx = *cm_state;
	static const struct {
		const char *path;
		uint32_t resolve;	/* status with resolution on */
		uint32_t no_resolve;	/* and off */
	} cases[] = {
		{ "Dir/File.TXT", NT_STATUS_OK, NT_STATUS_OK },
		{ "Dir/file.txt", NT_STATUS_OK,
		  NT_STATUS_OBJECT_NAME_NOT_FOUND },
		{ "Dir/FILE.txt", NT_STATUS_OK,
		  NT_STATUS_OBJECT_NAME_NOT_FOUND },
		{ "Dir/other.txt", NT_STATUS_OBJECT_NAME_NOT_FOUND,
		  NT_STATUS_OBJECT_NAME_NOT_FOUND },
		{ "dir/File.TXT", NT_STATUS_OBJECT_PATH_NOT_FOUND,
		  NT_STATUS_OBJECT_PATH_NOT_FOUND },
		{ "Dir", NT_STATUS_OK, NT_STATUS_OK },
		{ "", NT_STATUS_OK, NT_STATUS_OK },
	};
	size_t i;

	mk_dir(fx, "Dir");
	mk_file(fx, "Dir/File.TXT", "x");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("path '%s'\n", cases[i].path);
		fx->opts.no_resolve = false;
		fx_open(fx);
		assert_int_equal(RUN(fx, .kind = OP_QPATHINFO,
				     .path = { cases[i].path },
				     .arg = { 1004 }), cases[i].resolve);
		fx->opts.no_resolve = true;
		fx_open(fx);
		assert_int_equal(RUN(fx, .kind = OP_QPATHINFO,
				     .path = { cases[i].path },
				     .arg = { 1004 }), cases[i].no_resolve);
	}
}

void test_fs_and_file_info(void **cm_state)
{
	struct fx *fx = *cm_state;
	struct timespec old[2] = { { 1000, 0 }, { 1000, 0 } };
	struct stat sb;

	mk_file(fx, "f", "data");
	assert_int_equal(utimensat(fx->dfd, "f", old, 0), 0);
	fx_open(fx);
	assert_int_equal(RUN(fx, .kind = OP_QFSINFO, .arg = { 259 }),
			 NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 1, 7), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_QFILEINFO, .handle = 7,
			     .arg = { 1004 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_SFILEINFO, .handle = 7,
			     .arg = { 1004 }), NT_STATUS_OK);
	assert_int_equal(fstatat(fx->dfd, "f", &sb, 0), 0);
	assert_true(sb.st_mtime > 1000);
	/* a directory handle too */
	assert_int_equal(ntcreatex(fx, "", 0x1, 1, 8), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_QFILEINFO, .handle = 8,
			     .arg = { 1004 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_SFILEINFO, .handle = 8,
			     .arg = { 1004 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_FLUSH, .handle = 8), NT_STATUS_OK);
}

void test_mask_match(void **cm_state)
{
	static const struct {
		const char *mask, *name;
		bool match;
	} cases[] = {
		{ "*", "anything", true },
		{ "*", ".", true },
		{ "*", "..", true },
		{ "*", "", true },
		{ "*.*", "a.b", true },
		{ "*.*", "ab", false },
		{ "*.jnk", "FILE.JNK", true },
		{ "*.JNK", "file.jnk", true },
		{ "*.jnk", "file.jnkx", false },
		{ "FILLER.*", "filler.000", true },
		{ "FILLER.*", "filler", false },
		{ "?", "a", true },
		{ "?", "", false },
		{ "?", "ab", false },
		{ "a?c", "ABC", true },
		{ "a**c", "abbbc", true },
		{ "abc", "ABC", true },
		{ "abc", "abd", false },
		/* DOS_STAR: a run that stops at the last dot */
		{ "<.JNK", "x.jnk", true },
		{ "<.JNK", "a.b.jnk", true },
		{ "<.JNK", ".jnk", true },
		{ "<.JNK", "x.jnk.txt", false },
		{ "<.JNK", ".", false },
		{ "<.JNK", "..", false },
		{ "<", "noext", true },
		{ "<", "a.b", false },
		{ "<.<", "a.b", true },
		/* DOS_QM: one character, or none at a dot or the end */
		{ "a>>", "a", true },
		{ "a>>", "ab", true },
		{ "a>>", "abc", true },
		{ "a>>", "abcd", false },
		{ "a>.txt", "a.txt", true },
		{ "a>.txt", "ab.txt", true },
		/* DOS_DOT: a dot, or nothing at the end */
		{ "abc\"", "abc", true },
		{ "abc\"", "abc.", true },
		{ "abc\"*", "abc.def", true },
		{ "abc\"", "abcd", false },
	};
	size_t i;

	(void)cm_state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("mask '%s' name '%s'\n", cases[i].mask,
			      cases[i].name);
		assert_int_equal(wildcard_match(cases[i].mask,
						   cases[i].name),
				 cases[i].match);
	}
}

void test_find(void **cm_state)
{
	struct fx *fx = *cm_state;
	static const struct {
		const char *pattern;
		int64_t maxcount;
		uint32_t status;
		uint64_t count;		/* FIND_FIRST with a wildcard */
	} cases[] = {
		/* four entries, plus "." and ".." */
		{ "d/*", 1366, NT_STATUS_OK, 6 },
		{ "d/*", 3, NT_STATUS_OK, 3 },
		{ "d/*", 0, NT_STATUS_OK, 6 },
		{ "d/*.jnk", 1366, NT_STATUS_OK, 2 },
		{ "d/<.JNK", 1366, NT_STATUS_OK, 2 },
		{ "d/?.TXT", 1366, NT_STATUS_OK, 1 },
		{ "d/*.doc", 1366, NT_STATUS_NO_SUCH_FILE, 0 },
		{ "e/*", 1366, NT_STATUS_OK, 2 },	/* empty: . and .. */
		{ "e/<.JNK", 1366, NT_STATUS_NO_SUCH_FILE, 0 },
		{ "FILLER.*", 1366, NT_STATUS_OK, 1 },
		{ "*", 1366, NT_STATUS_OK, 5 },
		{ "nodir/*", 1366, NT_STATUS_OBJECT_PATH_NOT_FOUND, 0 },
		{ "d/c.txt/*", 1366, NT_STATUS_OBJECT_PATH_NOT_FOUND, 0 },
		/* no wildcard: one name */
		{ "d/c.txt", 1366, NT_STATUS_OK, 0 },
		/* case-insensitive, as on an SMB server (--no-resolve: exact) */
		{ "d/C.TXT", 1366, NT_STATUS_OK, 0 },
		{ "d/none", 1366, NT_STATUS_NO_SUCH_FILE, 0 },
	};
	size_t i;

	mk_dir(fx, "d");
	mk_dir(fx, "e");
	mk_file(fx, "d/A.JNK", "");
	mk_file(fx, "d/b.jnk", "");
	mk_file(fx, "d/c.txt", "");
	mk_file(fx, "d/D", "");
	mk_file(fx, "filler.000", "");
	fx_open(fx);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = cases[i].pattern;
		struct op_call call;

		print_message("pattern %s max %d\n", p,
			      (int)cases[i].maxcount);
		assert_int_equal(RUN(fx, .kind = OP_FIND, .path = { p },
				     .arg = { 260, cases[i].maxcount,
					      (int64_t)cases[i].count }),
				 cases[i].status);
		if (strpbrk(p, WILDCARD_CHARS) != NULL &&
		    cases[i].status != NT_STATUS_OBJECT_PATH_NOT_FOUND) {
			uint64_t n = 99;

			memset(&call, 0, sizeof(call));
			assert_int_equal(nbvfs_find_count(fx->state, &call, p,
					 cases[i].maxcount, &n), NT_STATUS_OK);
			assert_int_equal(n, cases[i].count);
		}
	}
}

/*
 * readdir_many hands out what readdir does, in the same order, in pieces
 * of at most max, with each name's length (found from the record's end,
 * so names of every length modulo 8 are listed, and the buffer is filled
 * with 0xff first: the padding after a name's NUL is then not zero);
 * readdir_find finds each of them in another case, and not a name that
 * is not there.
 */
void test_readdir_many(void **cm_state)
{
	struct fx *fx = *cm_state;
	char *want[64], rel[64];
	const char *names[3], *name;
	unsigned nwant = 0, seen;
	struct vfs_posix *vp;
	struct vfs_dir d;
	struct vfs *vfs;
	size_t lens[3];
	int r;

	mk_dir(fx, "n");
	for (unsigned len = 1; len <= 40; len++) {
		strcpy(rel, "n/");
		for (unsigned i = 0; i < len; i++)
			rel[2 + i] = (char)('a' + (len + i) % 26);
		rel[2 + len] = '\0';
		mk_file(fx, rel, "");
	}
	fx_open(fx);
	vfs = nbvfs_vfs(fx->state);
	vp = vp_of(vfs);
	assert_true(vfs->ops->opendir(vfs, "n", 1, &d) >= 0);
	while ((r = vfs->ops->readdir(vfs, &d, &name)) > 0)
		want[nwant++] = talloc_strdup(fx->tmp, name);
	assert_int_equal(r, 0);
	vfs->ops->closedir(vfs, &d);
	assert_int_equal(nwant, 42);	/* with . and .. */
	for (int with_lens = 0; with_lens < 2; with_lens++) {
		assert_true(vfs->ops->opendir(vfs, "n", 1, &d) >= 0);
		memset(vp->dents, 0xff, VP_DENTS_SIZE);
		seen = 0;
		while ((r = vfs->ops->readdir_many(vfs, &d, names,
						  with_lens ? lens : NULL,
						  3)) > 0) {
			assert_true(r <= 3);
			for (int i = 0; i < r; i++, seen++) {
				assert_true(seen < nwant);
				assert_string_equal(names[i], want[seen]);
				if (with_lens)
					assert_int_equal(lens[i],
							 strlen(want[seen]));
			}
		}
		assert_int_equal(r, 0);
		assert_int_equal(seen, nwant);
		vfs->ops->closedir(vfs, &d);
	}
	/* readdir_find: every name in upper case, and one that is not */
	for (unsigned i = 0; i <= nwant; i++) {
		char up[64];
		size_t n = i < nwant ? strlen(want[i]) : 3;

		for (size_t j = 0; j < n; j++)
			up[j] = i < nwant ? (char)toupper((unsigned char)
							 want[i][j]) : 'x';
		up[n] = '\0';
		assert_true(vfs->ops->opendir(vfs, "n", 1, &d) >= 0);
		memset(vp->dents, 0xff, VP_DENTS_SIZE);
		assert_int_equal(vfs->ops->readdir_find(vfs, &d, up),
				 i < nwant ? 1 : 0);
		vfs->ops->closedir(vfs, &d);
	}
}

/* ---- locks ---- */

void test_lock_conflict(void **cm_state)
{
	struct fx *fx = *cm_state;
	int ready[2], done[2];
	struct op_call call;
	char c = 0;
	pid_t pid;
	int status;

	mk_file(fx, "lockme", "0123456789abcdefghij");
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "lockme", 0x40, 1, 1), NT_STATUS_OK);
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(done), 0);

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* another process holds a write lock on [0, 10) */
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
				    .l_start = 0, .l_len = 10 };
		int fd;

		/* only the parent may hold the write end: EOF if it dies */
		close(ready[0]);
		close(done[1]);
		alarm(60);	/* never outlive a parent stuck elsewhere */
		fd = openat(fx->dfd, "lockme", O_RDWR);
		if (fd < 0 || fcntl(fd, F_SETLK, &fl) != 0)
			_exit(2);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		if (read(done[0], &c, 1) != 1)
			_exit(4);
		_exit(0);
	}
	close(ready[1]);
	close(done[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);

	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_LOCKX,
			.handle = 1, .arg = { 5, 10 } }, &call),
			 NT_STATUS_LOCK_NOT_GRANTED);
	assert_int_not_equal(call.err, 0);
	assert_int_equal(RUN(fx, .kind = OP_LOCKX, .handle = 1,
			     .arg = { 10, 10 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_UNLOCKX, .handle = 1,
			     .arg = { 10, 10 }), NT_STATUS_OK);
	/* an empty range locks nothing, so nothing conflicts */
	assert_int_equal(RUN(fx, .kind = OP_LOCKX, .handle = 1,
			     .arg = { 0, 0 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_LOCKX, .handle = 1,
			     .arg = { -1, 10 }), NT_STATUS_INVALID_PARAMETER);

	assert_int_equal(write(done[1], "d", 1), 1);
	/*
	 * Its exit status is not checked: "r" already proved it held the
	 * lock, and under valgrind the child's exit reports the parent's
	 * heap as its own leak.
	 */
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(ready[0]);
	close(done[1]);

	/* the other process is gone, and its lock with it */
	assert_int_equal(RUN(fx, .kind = OP_LOCKX, .handle = 1,
			     .arg = { 5, 10 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_UNLOCKX, .handle = 1,
			     .arg = { 5, 10 }), NT_STATUS_OK);
}

/* ---- options ---- */

/* A short script of every kind of op; all must succeed. */
static void run_script(struct fx *fx)
{
	const uint8_t data[512] = { 7 };
	struct op_call call;

	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "clients" },
			     .shared = true), NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "clients/client0", 0x1, 2, 0),
			 NT_STATUS_OK);
	assert_int_equal(close_h(fx, 0), NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "clients/client0/f", 0x40, 2, 1),
			 NT_STATUS_OK);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 1, .arg = { 0, 512, 512 }, .data = data },
			&call), NT_STATUS_OK);
	assert_int_equal(call.bytes, 512);
	assert_int_equal(RUN(fx, .kind = OP_READX, .handle = 1,
			     .arg = { 0, 512, 512 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_FLUSH, .handle = 1), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_QFILEINFO, .handle = 1,
			     .arg = { 1004 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_SFILEINFO, .handle = 1,
			     .arg = { 1004 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_LOCKX, .handle = 1,
			     .arg = { 0, 1 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_UNLOCKX, .handle = 1,
			     .arg = { 0, 1 }), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 1), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO,
			     .path = { "clients/client0/f" }, .arg = { 1004 }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_QFSINFO, .arg = { 259 }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_FIND,
			     .path = { "clients/client0/*" },
			     .arg = { 260, 1366, 3 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR,
			     .path = { "clients/client0/sub" }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_RENAME,
			     .path = { "clients/client0/f",
				       "clients/client0/sub/g" }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_RENAME,
			     .path = { "clients/client0/sub/g",
				       "clients/client0/sub/h" }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_UNLINK,
			     .path = { "clients/client0/sub/h" }),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_RMDIR,
			     .path = { "clients/client0/sub" }), NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "clients/client0/g", 0x40, 5, 2),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_DELTREE,
			     .path = { "clients/client0" }), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "clients/client0"), -1);
	assert_int_equal(fileio_backend.cleanup(fx->state, "clients"), 0);
	assert_int_equal(type_of(fx, "clients"), -1);
}

void test_sync_options(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx->opts.sync_open = true;
	fx->opts.sync_dirs = true;
	fx->opts.fsync_writes = true;
	fx_open(fx);
	run_script(fx);
}

void test_stat_check(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx->opts.stat_check = true;
	fx_open(fx);
	run_script(fx);
	/* the statuses are those the skipped calls would have returned */
	mk_dir(fx, "d");
	mk_file(fx, "f", "x");
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "d" }),
			 NT_STATUS_OBJECT_NAME_COLLISION);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "d" },
			     .shared = true), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_RMDIR, .path = { "f" }),
			 NT_STATUS_NOT_A_DIRECTORY);
	assert_int_equal(RUN(fx, .kind = OP_RMDIR, .path = { "nothing" }),
			 NT_STATUS_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0),
			 NT_STATUS_OBJECT_NAME_COLLISION);
	assert_int_equal(ntcreatex(fx, "d", 0x1, 2, 0),
			 NT_STATUS_OBJECT_NAME_COLLISION);
	assert_int_equal(ntcreatex(fx, "d", 0x1, 3, 0), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_RENAME, .path = { "nothing", "x" }),
			 NT_STATUS_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_RENAME,
			     .path = { "nodir/x", "x" }),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
}

void test_xattr(void **cm_state)
{
	struct fx *fx = *cm_state;
#ifdef HAVE_SYS_XATTR_H
	uint8_t val[64];
	bool supported;
	ssize_t n;

	/* does this filesystem keep user attributes at all? */
	mk_file(fx, "probe", "");
	supported = setxattr(talloc_asprintf(fx->tmp, "%s/probe", fx->dir),
			     "user.probe", "1", 1, 0) == 0;
	fx->opts.xattr = true;
	fx_open(fx);
	if (!supported) {
		assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0),
				 NT_STATUS_NOT_SUPPORTED);
		return;
	}
	run_script(fx);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0), NT_STATUS_OK);
	n = getxattr(talloc_asprintf(fx->tmp, "%s/f", fx->dir),
		     NBVFS_XATTR_NAME, val, sizeof(val));
	assert_int_equal(n, NBVFS_XATTR_SIZE);
	assert_int_equal(RUN(fx, .kind = OP_QFILEINFO, .handle = 0,
			     .arg = { 1004 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_SFILEINFO, .handle = 0,
			     .arg = { 1004 }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { "f" },
			     .arg = { 1004 }), NT_STATUS_OK);
	/* directories are opened without writing one */
	assert_int_equal(ntcreatex(fx, "d", 0x1, 2, 1), NT_STATUS_OK);
	assert_true(getxattr(talloc_asprintf(fx->tmp, "%s/d", fx->dir),
			     NBVFS_XATTR_NAME, val, sizeof(val)) < 0);
#else
	fx->opts.xattr = true;
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0),
			 NT_STATUS_NOT_SUPPORTED);
#endif
}
