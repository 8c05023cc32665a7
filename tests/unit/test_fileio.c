/*
 * test_fileio.c - the fileio and null backends and the registry.
 *
 * Every test works in a fresh mkdtemp directory under /dev/shm and drives
 * the backend through its op table, as the client engine does, with hand
 * built struct op / struct path values.  The POSIX vfs (vfs_posix.c) is
 * included rather than linked so that its openat2 fallback can be forced,
 * so that pwrite() can be replaced to inject short writes,
 * EINTR and ENOSPC, openat() to refuse O_DIRECT as filesystems
 * without direct I/O do, and the lock and xattr calls to fail with
 * ENOSYS/ENOTSUP as filesystems without locks or attributes do (those
 * runs go through the client engine and the end-of-run summary too).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef HAVE_SYS_XATTR_H
#include <sys/xattr.h>
#endif

#include <cmocka.h>
#include <talloc.h>

/* ---- pwrite replacement (failure injection) ---- */

enum pw_mode {
	PW_REAL = 0,
	PW_SHORT,		/* at most 7 bytes per call */
	PW_EINTR_ONCE,		/* first call fails with EINTR */
	PW_SHORT_THEN_ENOSPC,	/* one short write, then ENOSPC */
};

static enum pw_mode pw_mode;
static unsigned pw_calls;

static ssize_t test_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	pw_calls++;
	switch (pw_mode) {
	case PW_SHORT:
		return pwrite(fd, buf, n > 7 ? 7 : n, off);
	case PW_EINTR_ONCE:
		if (pw_calls == 1) {
			errno = EINTR;
			return -1;
		}
		return pwrite(fd, buf, n, off);
	case PW_SHORT_THEN_ENOSPC:
		if (pw_calls == 1)
			return pwrite(fd, buf, n > 7 ? 7 : n, off);
		errno = ENOSPC;
		return -1;
	case PW_REAL:
	default:
		return pwrite(fd, buf, n, off);
	}
}

/* ---- openat replacement: refuse O_DIRECT with EINVAL on request ---- */

static bool oa_refuse_direct;

static int test_openat(int dfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & O_CREAT) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (oa_refuse_direct && (flags & O_DIRECT)) {
		errno = EINVAL;
		return -1;
	}
	return openat(dfd, path, flags, mode);
}

/* ---- lock and xattr replacements: filesystems without them ---- */

static int nosys_lock_err;	/* non-zero: F_SETLK fails with it */
static int nosys_xattr_err;	/* non-zero: every xattr call fails with it */

static int test_fcntl(int fd, int cmd, struct flock *fl)
{
	if (nosys_lock_err != 0 && (cmd == F_SETLK || cmd == F_SETLKW)) {
		errno = nosys_lock_err;
		return -1;
	}
	return fcntl(fd, cmd, fl);
}

#ifdef HAVE_SYS_XATTR_H
static ssize_t test_fgetxattr(int fd, const char *name, void *v, size_t n)
{
	if (nosys_xattr_err != 0) {
		errno = nosys_xattr_err;
		return -1;
	}
	return fgetxattr(fd, name, v, n);
}

static ssize_t test_lgetxattr(const char *path, const char *name, void *v,
			      size_t n)
{
	if (nosys_xattr_err != 0) {
		errno = nosys_xattr_err;
		return -1;
	}
	return lgetxattr(path, name, v, n);
}

static int test_fsetxattr(int fd, const char *name, const void *v, size_t n,
			  int flags)
{
	if (nosys_xattr_err != 0) {
		errno = nosys_xattr_err;
		return -1;
	}
	return fsetxattr(fd, name, v, n, flags);
}
#define fgetxattr test_fgetxattr
#define lgetxattr test_lgetxattr
#define fsetxattr test_fsetxattr
#endif

#define pwrite test_pwrite
#define openat test_openat
#define fcntl test_fcntl
#include "../../src/vfs/vfs_posix.c"
#include "../../src/vfs/vfs_posix_path.c"
#include "../../src/vfs/vfs_posix_dir.c"
#undef fcntl
#undef openat
#undef pwrite
#ifdef HAVE_SYS_XATTR_H
#undef fgetxattr
#undef lgetxattr
#undef fsetxattr
#endif

#include <ctype.h>
#include <dirent.h>

#include "backend.h"
#include "backends.h"
#include "client.h"
#include "nbvfs.h"
#include "ntstatus.h"
#include "options.h"
#include "report.h"
#include "util.h"
#include "wildcard.h"

/* ---- fixture ---- */

#define NHANDLES 16

struct fx {
	void *ctx;		/* the backend's parent: leak-checked */
	size_t blocks;		/* talloc_total_blocks(ctx) at the start */
	void *tmp;		/* test scratch, a separate tree */
	char *dir;		/* the mkdtemp directory */
	int dfd;
	struct dbench_options opts;
	void *state;		/* fileio state once fx_open() ran */
	/* the engine's hint of each op's directories (struct vfs_hint), as
	 * client.c gives it, or none, or a wrong one: the results must not
	 * depend on it */
	struct vfs_hint hint;
	enum { HINT_RIGHT, HINT_NONE, HINT_WRONG } hint_mode;
	char *dirs[256];	/* the numbers given: dirs[n - 1] */
	unsigned ndirs;
};

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int fx_setup(void **cm_state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->ctx = talloc_new(NULL);
	fx->tmp = talloc_new(NULL);
	assert_non_null(fx->ctx);
	assert_non_null(fx->tmp);
	fx->blocks = talloc_total_blocks(fx->ctx);
	fx->dir = talloc_strdup(fx->tmp, "/dev/shm/test_fileio.XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	fx->dfd = open(fx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fx->dfd >= 0);
	*cm_state = fx;
	return 0;
}

static int fx_teardown(void **cm_state)
{
	struct fx *fx = *cm_state;

	pw_mode = PW_REAL;
	oa_refuse_direct = false;
	nosys_lock_err = 0;
	nosys_xattr_err = 0;
	vfs_posix_no_openat2 = false;
	talloc_free(fx->state);
	/* everything the backend allocated went with its state */
	assert_int_equal(talloc_total_blocks(fx->ctx), fx->blocks);
	close(fx->dfd);
	assert_int_equal(nftw(fx->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
	talloc_free(fx->tmp);
	talloc_free(fx->ctx);
	free(fx);
	return 0;
}

/* Set up the fileio backend on the test directory with fx->opts. */
static void fx_open(struct fx *fx)
{
	struct backend_client_config cfg = {
		.opts = &fx->opts,
		.client = 0,
		.directory = fx->dir,
		.nhandles = NHANDLES,
		.hint = &fx->hint,
	};
	char *err = NULL;

	talloc_free(fx->state);
	fx->state = NULL;
	assert_int_equal(fileio_backend.setup(fx->ctx, &cfg, &fx->state, &err),
			 0);
	assert_null(err);
	assert_non_null(fx->state);
}

/* One operation as the engine would hand it over. */
struct req {
	enum op_kind kind;
	const char *path[2];
	bool shared;		/* path[0] lies above the client directory */
	int32_t handle;
	int64_t arg[PROGRAM_MAX_ARGS];
	const uint8_t *data;
};

/* The number of path's parent directory in fx's hints (fx->hint_mode). */
static uint32_t fx_dir_number(struct fx *fx, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash != NULL ? (size_t)(slash - path) : 0;
	unsigned i;

	if (fx->hint_mode == HINT_NONE)
		return VFS_DIR_NONE;
	if (slash == NULL)
		return VFS_DIR_ROOT;
	if (fx->hint_mode == HINT_WRONG)
		return 1;	/* every directory claims the same number */
	for (i = 0; i < fx->ndirs; i++)
		if (strlen(fx->dirs[i]) == len &&
		    strncmp(fx->dirs[i], path, len) == 0)
			return i + 1;
	assert_true(fx->ndirs < 256);
	fx->dirs[fx->ndirs] = talloc_strndup(fx->tmp, path, len);
	return ++fx->ndirs;
}

static uint32_t run_call(struct fx *fx, const struct req *r,
			 struct op_call *call)
{
	uint32_t status;
	struct path p[2];
	struct op op;
	struct program prog = { .paths = p, .npaths = 2 };
	unsigned i;

	memset(&op, 0, sizeof(op));
	op.path[0] = op.path[1] = PATH_NONE;
	memset(p, 0, sizeof(p));
	memset(call, 0, sizeof(*call));
	op.kind = r->kind;
	op.line = 1;
	op.handle = r->handle;
	for (i = 0; i < 2; i++) {
		if (r->path[i] == NULL)
			continue;
		p[i].text = r->path[i];
		p[i].len = strlen(r->path[i]);
		p[i].client_pos = (i == 0 && r->shared) ? -1 : 0;
		op.path[i] = i;
		call->path[i] = r->path[i];
		fx->hint.path[i] = r->path[i];
		fx->hint.dir[i] = fx_dir_number(fx, r->path[i]);
		/* (the engine knows every path's length) */
		fx->hint.len[i] = fx->hint_mode == HINT_NONE ? 0 :
				  (uint32_t)strlen(r->path[i]);
	}
	for (i = 0; i < PROGRAM_MAX_ARGS; i++)
		call->arg[i] = r->arg[i];
	call->data = r->data;
	call->op = &op;
	call->prog = &prog;
	status = fileio_backend.ops[r->kind](fx->state, call);
	fx->hint.path[0] = fx->hint.path[1] = NULL;
	return status;
}

static uint32_t run(struct fx *fx, const struct req *r)
{
	struct op_call call;

	return run_call(fx, r, &call);
}

#define RUN(fx, ...) run((fx), &(struct req){ __VA_ARGS__ })

/* ---- helpers on the test directory (independent of the backend) ---- */

static void mk_file(struct fx *fx, const char *rel, const char *content)
{
	int fd = openat(fx->dfd, rel, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t len = strlen(content);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	close(fd);
}

static void mk_dir(struct fx *fx, const char *rel)
{
	assert_int_equal(mkdirat(fx->dfd, rel, 0755), 0);
}

/* -1 missing, otherwise the file type bits */
static int type_of(struct fx *fx, const char *rel)
{
	struct stat sb;

	if (fstatat(fx->dfd, rel, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	return (int)(sb.st_mode & S_IFMT);
}

static off_t size_of(struct fx *fx, const char *rel)
{
	struct stat sb;

	assert_int_equal(fstatat(fx->dfd, rel, &sb, AT_SYMLINK_NOFOLLOW), 0);
	return sb.st_size;
}

static unsigned count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned n = 0;

	assert_non_null(d);
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

static uint32_t ntcreatex(struct fx *fx, const char *path, int64_t options,
			  int64_t disp, int32_t handle)
{
	return RUN(fx, .kind = OP_NTCREATEX, .path = { path },
		   .handle = handle, .arg = { options, disp });
}

static uint32_t close_h(struct fx *fx, int32_t handle)
{
	return RUN(fx, .kind = OP_CLOSE, .handle = handle);
}

/* ---- NTCreateX ---- */

enum existing { NONE, FILE_, DIR_ };

struct create_case {
	enum existing before;
	int64_t options;
	int64_t disp;
	uint32_t status;
	enum existing after;
	off_t size;		/* the file's size afterwards (FILE_ only) */
};

#define OK	NT_STATUS_OK
#define NNF	NT_STATUS_OBJECT_NAME_NOT_FOUND
#define COLL	NT_STATUS_OBJECT_NAME_COLLISION
#define ISDIR	NT_STATUS_FILE_IS_A_DIRECTORY
#define NOTDIR	NT_STATUS_NOT_A_DIRECTORY

static const struct create_case create_cases[] = {
	/* files (0x40), nothing there */
	{ NONE, 0x40, 0, OK, FILE_, 0 },
	{ NONE, 0x40, 1, NNF, NONE, 0 },
	{ NONE, 0x40, 2, OK, FILE_, 0 },
	{ NONE, 0x40, 3, OK, FILE_, 0 },
	{ NONE, 0x40, 4, NNF, NONE, 0 },
	{ NONE, 0x40, 5, OK, FILE_, 0 },
	/* files (0x40), a 5-byte file there */
	{ FILE_, 0x40, 0, OK, FILE_, 0 },
	{ FILE_, 0x40, 1, OK, FILE_, 5 },
	{ FILE_, 0x40, 2, COLL, FILE_, 5 },
	{ FILE_, 0x40, 3, OK, FILE_, 5 },
	{ FILE_, 0x40, 4, OK, FILE_, 0 },
	{ FILE_, 0x40, 5, OK, FILE_, 0 },
	/* files (0x40), a directory there */
	{ DIR_, 0x40, 0, ISDIR, DIR_, 0 },
	{ DIR_, 0x40, 1, ISDIR, DIR_, 0 },
	{ DIR_, 0x40, 2, COLL, DIR_, 0 },
	{ DIR_, 0x40, 3, ISDIR, DIR_, 0 },
	{ DIR_, 0x40, 4, ISDIR, DIR_, 0 },
	{ DIR_, 0x40, 5, ISDIR, DIR_, 0 },
	/* no option: like 0x40 for files */
	{ NONE, 0, 0, OK, FILE_, 0 },
	{ NONE, 0, 1, NNF, NONE, 0 },
	{ NONE, 0, 3, OK, FILE_, 0 },
	{ FILE_, 0, 1, OK, FILE_, 5 },
	{ FILE_, 0, 2, COLL, FILE_, 5 },
	{ FILE_, 0, 5, OK, FILE_, 0 },
	/* no option, a directory there: opening it is fine */
	{ DIR_, 0, 0, ISDIR, DIR_, 0 },
	{ DIR_, 0, 1, OK, DIR_, 0 },
	{ DIR_, 0, 2, COLL, DIR_, 0 },
	{ DIR_, 0, 3, OK, DIR_, 0 },
	{ DIR_, 0, 4, ISDIR, DIR_, 0 },
	{ DIR_, 0, 5, ISDIR, DIR_, 0 },
	/* directories (0x1), nothing there */
	{ NONE, 0x1, 0, OK, DIR_, 0 },
	{ NONE, 0x1, 1, NNF, NONE, 0 },
	{ NONE, 0x1, 2, OK, DIR_, 0 },
	{ NONE, 0x1, 3, OK, DIR_, 0 },
	{ NONE, 0x1, 4, NNF, NONE, 0 },
	{ NONE, 0x1, 5, OK, DIR_, 0 },
	/* directories (0x1), a directory there */
	{ DIR_, 0x1, 0, OK, DIR_, 0 },
	{ DIR_, 0x1, 1, OK, DIR_, 0 },
	{ DIR_, 0x1, 2, COLL, DIR_, 0 },
	{ DIR_, 0x1, 3, OK, DIR_, 0 },
	{ DIR_, 0x1, 4, OK, DIR_, 0 },
	{ DIR_, 0x1, 5, OK, DIR_, 0 },
	/* directories (0x1), a file there */
	{ FILE_, 0x1, 0, NOTDIR, FILE_, 5 },
	{ FILE_, 0x1, 1, NOTDIR, FILE_, 5 },
	{ FILE_, 0x1, 2, COLL, FILE_, 5 },
	{ FILE_, 0x1, 3, NOTDIR, FILE_, 5 },
	{ FILE_, 0x1, 4, NOTDIR, FILE_, 5 },
	{ FILE_, 0x1, 5, NOTDIR, FILE_, 5 },
};

static void test_ntcreatex_dispositions(void **cm_state)
{
	struct fx *fx = *cm_state;
	size_t i;

	fx_open(fx);
	for (i = 0; i < sizeof(create_cases) / sizeof(create_cases[0]); i++) {
		const struct create_case *c = &create_cases[i];
		char *name = talloc_asprintf(fx->tmp, "obj%zu", i);
		int type;

		if (c->before == FILE_)
			mk_file(fx, name, "hello");
		else if (c->before == DIR_)
			mk_dir(fx, name);

		print_message("case %zu: existing %d options 0x%x disp %d\n", i,
			      c->before, (unsigned)c->options, (int)c->disp);
		assert_int_equal(ntcreatex(fx, name, c->options, c->disp, 3),
				 c->status);
		type = type_of(fx, name);
		switch (c->after) {
		case NONE:
			assert_int_equal(type, -1);
			break;
		case FILE_:
			assert_int_equal(type, S_IFREG);
			assert_int_equal(size_of(fx, name), c->size);
			break;
		case DIR_:
			assert_int_equal(type, S_IFDIR);
			break;
		}
		/* a handle exactly when the open succeeded */
		assert_int_equal(close_h(fx, 3), c->status == OK ?
				 NT_STATUS_OK : NT_STATUS_INVALID_HANDLE);
	}
}

static void test_ntcreatex_invalid(void **cm_state)
{
	struct fx *fx = *cm_state;
	struct op_call call;

	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 6, 0),
			 NT_STATUS_INVALID_PARAMETER);
	assert_int_equal(ntcreatex(fx, "f", 0x41, 2, 0),
			 NT_STATUS_INVALID_PARAMETER);
	assert_int_equal(type_of(fx, "f"), -1);
	/* a slot beyond the table */
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_NTCREATEX,
			.path = { "f" }, .handle = NHANDLES,
			.arg = { 0x40, 2 } }, &call), NT_STATUS_INVALID_HANDLE);
	assert_int_equal(call.err, EBADF);
}

static void test_shared_directories(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx_open(fx);
	/* another client made "clients" already: still success */
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "clients" },
			     .shared = true), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "clients" },
			     .shared = true), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "clients"), S_IFDIR);
	assert_int_equal(RUN(fx, .kind = OP_NTCREATEX, .path = { "clients" },
			     .shared = true, .handle = 1, .arg = { 0x1, 2 }),
			 NT_STATUS_OK);
	assert_int_equal(close_h(fx, 1), NT_STATUS_OK);

	/* a client's own directory: the second create collides */
	assert_int_equal(RUN(fx, .kind = OP_MKDIR,
			     .path = { "clients/client0" }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR,
			     .path = { "clients/client0" }),
			 NT_STATUS_OBJECT_NAME_COLLISION);
	assert_int_equal(ntcreatex(fx, "clients/client0", 0x1, 2, 1),
			 NT_STATUS_OBJECT_NAME_COLLISION);

	/* shared, but a file of that name is not a directory */
	mk_file(fx, "notdir", "x");
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "notdir" },
			     .shared = true), NT_STATUS_OBJECT_NAME_COLLISION);
	assert_int_equal(RUN(fx, .kind = OP_NTCREATEX, .path = { "notdir" },
			     .shared = true, .handle = 1, .arg = { 0x1, 2 }),
			 NT_STATUS_NOT_A_DIRECTORY);
}

static void test_missing_parent_vs_missing_file(void **cm_state)
{
	struct fx *fx = *cm_state;
	static const struct {
		const char *path;
		uint32_t status;
	} cases[] = {
		{ "nofile", NT_STATUS_OBJECT_NAME_NOT_FOUND },
		{ "dir/nofile", NT_STATUS_OBJECT_NAME_NOT_FOUND },
		{ "nodir/file", NT_STATUS_OBJECT_PATH_NOT_FOUND },
		{ "dir/nodir/file", NT_STATUS_OBJECT_PATH_NOT_FOUND },
		{ "file/x", NT_STATUS_OBJECT_PATH_NOT_FOUND },
	};
	size_t i;

	fx_open(fx);
	mk_dir(fx, "dir");
	mk_file(fx, "file", "x");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = cases[i].path;
		struct op_call call;

		print_message("path %s\n", p);
		assert_int_equal(run_call(fx, &(struct req){
				.kind = OP_NTCREATEX, .path = { p },
				.arg = { 0x40, 1 } }, &call), cases[i].status);
		assert_int_not_equal(call.err, 0);
		assert_int_equal(ntcreatex(fx, p, 0x1, 1, 0), cases[i].status);
		assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { p },
				     .arg = { 1004 }), cases[i].status);
		assert_int_equal(RUN(fx, .kind = OP_UNLINK, .path = { p }),
				 cases[i].status);
		assert_int_equal(RUN(fx, .kind = OP_RMDIR, .path = { p }),
				 cases[i].status);
	}
	/* creating below a missing directory: the path is what is missing */
	assert_int_equal(ntcreatex(fx, "nodir/f", 0x40, 2, 0),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(ntcreatex(fx, "nodir/d", 0x1, 2, 0),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "nodir/d" }),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "file/d" }),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
}

/* A failed open names a handle but allocates none: the old one stays. */
static void test_failed_open_keeps_handle(void **cm_state)
{
	struct fx *fx = *cm_state;
	const uint8_t data[4] = { 1, 2, 3, 4 };
	unsigned fds;

	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "a", 0x40, 2, 5), NT_STATUS_OK);
	fds = count_fds();
	assert_int_equal(ntcreatex(fx, "missing", 0x40, 1, 5),
			 NT_STATUS_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 5,
			     .arg = { 0, 4, 4 }, .data = data), NT_STATUS_OK);
	assert_int_equal(size_of(fx, "a"), 4);

	/* a successful open on an open slot replaces it without a leak */
	assert_int_equal(ntcreatex(fx, "b", 0x40, 2, 5), NT_STATUS_OK);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 5,
			     .arg = { 0, 2, 2 }, .data = data), NT_STATUS_OK);
	assert_int_equal(size_of(fx, "b"), 2);
	assert_int_equal(size_of(fx, "a"), 4);
	assert_int_equal(close_h(fx, 5), NT_STATUS_OK);
	assert_int_equal(count_fds(), fds - 1);
}

/*
 * Cleanup closes exactly what is still open: slots opened, replaced and
 * closed in any order, once; the slots can be used again afterwards.
 */
static void test_cleanup_closes_open_handles(void **cm_state)
{
	struct fx *fx = *cm_state;
	unsigned fds;

	fx_open(fx);
	fds = count_fds();
	assert_int_equal(ntcreatex(fx, "a", 0x40, 2, 9), NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "b", 0x40, 2, 2), NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "c", 0x40, 2, 4), NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "d", 0x40, 2, 9), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 4), NT_STATUS_OK);
	assert_int_equal(count_fds(), fds + 2);

	assert_int_equal(fileio_backend.cleanup(fx->state, "nothing/here"), 0);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(close_h(fx, 9), NT_STATUS_INVALID_HANDLE);
	assert_int_equal(close_h(fx, 2), NT_STATUS_INVALID_HANDLE);
	assert_int_equal(fileio_backend.cleanup(fx->state, "nothing/here"), 0);
	assert_int_equal(count_fds(), fds);

	assert_int_equal(ntcreatex(fx, "a", 0x40, 1, 2), NT_STATUS_OK);
	assert_int_equal(count_fds(), fds + 1);
	assert_int_equal(fileio_backend.cleanup(fx->state, "nothing/here"), 0);
	assert_int_equal(count_fds(), fds);
}

/* ---- handles ---- */

static void test_unopened_handles(void **cm_state)
{
	struct fx *fx = *cm_state;
	static const enum op_kind kinds[] = {
		OP_CLOSE, OP_FLUSH, OP_WRITEX, OP_READX, OP_QFILEINFO,
		OP_SFILEINFO, OP_LOCKX, OP_UNLOCKX,
	};
	static const int32_t slots[] = { 0, NHANDLES - 1, NHANDLES, -1 };
	const uint8_t data[8] = { 0 };
	size_t i, j;

	fx_open(fx);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		for (j = 0; j < sizeof(slots) / sizeof(slots[0]); j++) {
			struct op_call call;

			assert_int_equal(run_call(fx, &(struct req){
					.kind = kinds[i], .handle = slots[j],
					.arg = { 0, 8, 8 }, .data = data },
					&call), NT_STATUS_INVALID_HANDLE);
			assert_int_equal(call.err, EBADF);
		}
	}
	/* closed twice: the second close finds nothing */
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 0), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 0), NT_STATUS_INVALID_HANDLE);
}

/* ---- data ---- */

static void test_write_read_round_trip(void **cm_state)
{
	struct fx *fx = *cm_state;
	const size_t total = 200000, chunk = 65536;
	uint8_t *pattern = talloc_array(fx->tmp, uint8_t, total);
	uint8_t *back = talloc_array(fx->tmp, uint8_t, total);
	struct op_call call;
	size_t off, i;
	int fd;

	for (i = 0; i < total; i++)
		pattern[i] = (uint8_t)(i * 7 + i / 251);
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "data", 0x40, 2, 2), NT_STATUS_OK);
	/* written back to front, in pieces, each from its own offset */
	for (off = (total - 1) / chunk * chunk;; off -= chunk) {
		size_t n = total - off < chunk ? total - off : chunk;

		assert_int_equal(run_call(fx, &(struct req){
				.kind = OP_WRITEX, .handle = 2,
				.arg = { (int64_t)off, (int64_t)n, (int64_t)n },
				.data = pattern + off }, &call), NT_STATUS_OK);
		assert_int_equal(call.bytes, n);
		if (off == 0)
			break;
	}
	assert_int_equal(RUN(fx, .kind = OP_FLUSH, .handle = 2), NT_STATUS_OK);
	assert_int_equal(size_of(fx, "data"), (off_t)total);

	fd = openat(fx->dfd, "data", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, back, total, 0), (ssize_t)total);
	close(fd);
	assert_memory_equal(back, pattern, total);

	for (off = 0; off < total; off += chunk) {
		size_t n = total - off < chunk ? total - off : chunk;

		assert_int_equal(run_call(fx, &(struct req){
				.kind = OP_READX, .handle = 2,
				.arg = { (int64_t)off, (int64_t)chunk,
					 (int64_t)n } }, &call), NT_STATUS_OK);
		assert_int_equal(call.bytes, chunk);
	}
	assert_int_equal(RUN(fx, .kind = OP_QFILEINFO, .handle = 2,
			     .arg = { 258 }), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 2), NT_STATUS_OK);
}

static void test_readx_past_eof(void **cm_state)
{
	struct fx *fx = *cm_state;
	static const struct {
		int64_t off, size, returned;
		uint32_t status;
	} cases[] = {
		{ 0, 100, 100, NT_STATUS_OK },
		/* short, as the loadfile says */
		{ 50, 100, 50, NT_STATUS_OK },
		/* short, but the loadfile expected more */
		{ 50, 100, 100, NT_STATUS_END_OF_FILE },
		{ 200, 10, 0, NT_STATUS_OK },
		{ 200, 10, 10, NT_STATUS_END_OF_FILE },
		{ 0, 0, 0, NT_STATUS_OK },
		{ -1, 10, 0, NT_STATUS_INVALID_PARAMETER },
	};
	char content[101];
	size_t i;

	memset(content, 'z', 100);
	content[100] = '\0';
	mk_file(fx, "f", content);
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 1, 0), NT_STATUS_OK);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct op_call call;

		assert_int_equal(run_call(fx, &(struct req){
				.kind = OP_READX, .handle = 0,
				.arg = { cases[i].off, cases[i].size,
					 cases[i].returned } }, &call),
				 cases[i].status);
		/* dbench counts the requested size, whatever came back */
		assert_int_equal(call.bytes, (uint64_t)cases[i].size);
		if (cases[i].status == NT_STATUS_END_OF_FILE)
			assert_int_equal(call.err, 0);
	}
}

static void test_write_failures(void **cm_state)
{
	struct fx *fx = *cm_state;
	uint8_t data[100];
	struct op_call call;
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i + 1);
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0), NT_STATUS_OK);

	/* short writes are continued until everything is written */
	pw_mode = PW_SHORT;
	pw_calls = 0;
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 0, 100, 100 }, .data = data),
			 NT_STATUS_OK);
	assert_int_equal(pw_calls, 15);
	assert_int_equal(size_of(fx, "f"), 100);

	/* EINTR is retried */
	pw_mode = PW_EINTR_ONCE;
	pw_calls = 0;
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 100, 50, 50 }, .data = data),
			 NT_STATUS_OK);
	assert_int_equal(size_of(fx, "f"), 150);

	/* a write that cannot complete: the disk is full */
	pw_mode = PW_SHORT_THEN_ENOSPC;
	pw_calls = 0;
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 0, .arg = { 150, 100, 100 }, .data = data },
			&call), NT_STATUS_DISK_FULL);
	assert_int_equal(call.err, ENOSPC);
	assert_int_equal(call.bytes, 100);
	pw_mode = PW_REAL;

	/* writing to a directory handle fails */
	assert_int_equal(ntcreatex(fx, "d", 0x1, 2, 1), NT_STATUS_OK);
	assert_int_not_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 1, .arg = { 0, 10, 10 }, .data = data },
			&call), NT_STATUS_OK);
	assert_int_not_equal(call.err, 0);
}

/* The fd behind a handle slot, to look at its flags. */
static int fd_of(struct fx *fx, int32_t slot)
{
	return nbvfs_handle_fh(fx->state, slot);
}

/* Create options 0x2 and 0x8: O_DSYNC and O_DIRECT, aligned transfers. */
static void test_create_options(void **cm_state)
{
	struct fx *fx = *cm_state;
	uint8_t *raw = malloc(8192 + 1), *data = raw + 1;	/* misaligned */
	uint8_t back[8192];
	struct op_call call;
	uint32_t st;
	int fd;

	assert_non_null(raw);
	for (unsigned i = 0; i < 8192; i++)
		data[i] = (uint8_t)(i * 7 + 3);
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "plain", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(fcntl(fd_of(fx, 0), F_GETFL) & (O_DSYNC | O_DIRECT),
			 0);
	assert_int_equal(ntcreatex(fx, "dsync", 0x42, 2, 1), NT_STATUS_OK);
	assert_true(fcntl(fd_of(fx, 1), F_GETFL) & O_DSYNC);
	assert_false(fcntl(fd_of(fx, 1), F_GETFL) & O_DIRECT);

	st = ntcreatex(fx, "direct", 0x48, 2, 2);
	if (st == NT_STATUS_NOT_SUPPORTED) {
		/* tmpfs before Linux 6.6: the refusal is tested below */
		free(raw);
		return;
	}
	assert_int_equal(st, NT_STATUS_OK);
	assert_true(fcntl(fd_of(fx, 2), F_GETFL) & O_DIRECT);
	/* client data at any address goes through the aligned buffer */
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 2, .arg = { 4096, 8192, 8192 },
			.data = data }, &call), NT_STATUS_OK);
	assert_int_equal(call.bytes, 8192);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_READX,
			.handle = 2, .arg = { 4096, 8192, 8192 } }, &call),
			 NT_STATUS_OK);
	assert_int_equal(call.bytes, 8192);
	assert_int_equal(size_of(fx, "direct"), 4096 + 8192);
	fd = openat(fx->dfd, "direct", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, back, sizeof(back), 4096), 8192);
	close(fd);
	assert_memory_equal(back, data, 8192);
	/* 0x1 (directory) ignores the buffering bits */
	assert_int_equal(ntcreatex(fx, "d", 0x9, 2, 3), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "d"), S_IFDIR);
	free(raw);
}

/* A filesystem that refuses O_DIRECT: NOT_SUPPORTED, no handle. */
static void test_direct_refused(void **cm_state)
{
	struct fx *fx = *cm_state;
	const uint8_t data[512] = { 0 };
	struct op_call call;

	oa_refuse_direct = true;
	/* the stand-in is openat(): take the path that calls it */
	vfs_posix_no_openat2 = true;
	fx_open(fx);
	memset(&call, 0, sizeof(call));
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_NTCREATEX,
			.path = { "f" }, .handle = 0, .arg = { 0x48, 2 } },
			&call), NT_STATUS_NOT_SUPPORTED);
	assert_int_equal(call.err, EINVAL);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 0, 512, 512 }, .data = data),
			 NT_STATUS_INVALID_HANDLE);
	/* without 0x8 the same open works */
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0), NT_STATUS_OK);
	vfs_posix_no_openat2 = false;
}

/* Pages of a file in the page cache, in percent (mincore). */
static double cached_pct(int fd, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n = (len + (size_t)page - 1) / (size_t)page, in = 0;
	unsigned char *vec = malloc(n);
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);

	assert_non_null(vec);
	assert_true(map != MAP_FAILED);
	assert_int_equal(mincore(map, len, vec), 0);
	for (size_t i = 0; i < n; i++)
		in += vec[i] & 1;
	munmap(map, len);
	free(vec);
	return 100.0 * (double)in / (double)n;
}

/* DropCache: flushed and evicted on a disk; a bad handle is refused. */
static void test_dropcache(void **cm_state)
{
	struct fx *fx = *cm_state;
	const size_t len = 1 << 20;
	uint8_t *data = calloc(1, len);
	char *dir = talloc_strdup(fx->tmp, "/var/tmp/test_fileio.XXXXXX");
	struct backend_client_config cfg = {
		.opts = &fx->opts, .directory = NULL, .nhandles = NHANDLES,
	};
	struct statfs sf;
	char *err = NULL;
	int fd;

	assert_non_null(data);
	fx_open(fx);
	assert_int_equal(RUN(fx, .kind = OP_DROPCACHE, .handle = 0),
			 NT_STATUS_INVALID_HANDLE);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 0, 4096, 4096 }, .data = data),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_DROPCACHE, .handle = 0),
			 NT_STATUS_OK);
	assert_int_equal(close_h(fx, 0), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_DROPCACHE, .handle = 0),
			 NT_STATUS_INVALID_HANDLE);

	/* eviction needs a filesystem on a device */
	assert_non_null(mkdtemp(dir));
	if (statfs(dir, &sf) != 0 || sf.f_type == 0x01021994 /* tmpfs */) {
		rmdir(dir);
		free(data);
		return;
	}
	talloc_free(fx->state);
	fx->state = NULL;
	cfg.directory = dir;
	assert_int_equal(fileio_backend.setup(fx->ctx, &cfg, &fx->state, &err),
			 0);
	assert_int_equal(ntcreatex(fx, "g", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 0, (int64_t)len, (int64_t)len },
			     .data = data), NT_STATUS_OK);
	fd = fd_of(fx, 0);
	assert_true(cached_pct(fd, len) > 50.0);
	assert_int_equal(RUN(fx, .kind = OP_DROPCACHE, .handle = 0),
			 NT_STATUS_OK);
	assert_true(cached_pct(fd, len) < 1.0);
	talloc_free(fx->state);
	fx->state = NULL;
	free(data);
	assert_int_equal(nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void test_write_options(void **cm_state)
{
	struct fx *fx = *cm_state;
	const uint8_t zero = 0, x = 'x';
	struct op_call call;
	uint8_t c;
	int fd;

	/* --fake-io: nothing moves, the bytes still count */
	fx->opts.fake_io = true;
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "fake", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 0, .arg = { 0, 4096, 4096 }, .data = NULL },
			&call), NT_STATUS_OK);
	assert_int_equal(call.bytes, 4096);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_READX,
			.handle = 0, .arg = { 0, 4096, 4096 } }, &call),
			 NT_STATUS_OK);
	assert_int_equal(call.bytes, 4096);
	assert_int_equal(size_of(fx, "fake"), 0);

	/* --one-byte-write-fix: a zero byte past the end is a truncate */
	fx->opts.fake_io = false;
	fx->opts.one_byte_write_fix = true;
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "one", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 0, .arg = { 65534, 1, 1 }, .data = &zero },
			&call), NT_STATUS_OK);
	assert_int_equal(call.bytes, 1);
	assert_int_equal(size_of(fx, "one"), 65535);
	/* a non-zero byte past the end is really written */
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 70000, 1, 1 }, .data = &x),
			 NT_STATUS_OK);
	assert_int_equal(size_of(fx, "one"), 70001);
	/* inside the file, a different byte is written, the same skipped */
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 10, 1, 1 }, .data = &x), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 10, 1, 1 }, .data = &x), NT_STATUS_OK);
	fd = openat(fx->dfd, "one", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, 10), 1);
	assert_int_equal(c, 'x');
	assert_int_equal(pread(fd, &c, 1, 70000), 1);
	assert_int_equal(c, 'x');
	assert_int_equal(pread(fd, &c, 1, 65534), 1);
	assert_int_equal(c, 0);
	close(fd);
}

/* ---- namespace operations ---- */

static void test_rename_unlink_rmdir(void **cm_state)
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

static void test_kept_directories(void **cm_state)
{
	kept_directories(*cm_state);
}

/* The same without the engine's hint: the kept directories are scanned. */
static void test_kept_directories_unhinted(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx->hint_mode = HINT_NONE;
	kept_directories(fx);
}

/* The same with a hint that lies (every directory has one number): the
 * vfs checks what the hint points at, so only speed could suffer. */
static void test_kept_directories_wrong_hint(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx->hint_mode = HINT_WRONG;
	kept_directories(fx);
}

/* What vp_entry_holds() must answer: the strncmp() and strchr() check. */
static bool entry_holds_ref(const char *parent, const char *path)
{
	size_t n = strlen(parent);

	return strncmp(parent, path, n) == 0 && path[n] == '/' &&
	       strchr(path + n + 1, '/') == NULL;
}

/*
 * The word-at-a-time check of a hinted entry against a path of known
 * length agrees with the byte-wise one: every parent length from 8 to
 * 40 (held in the entry and not), every leaf length to 20, a '/' or a
 * differing byte at every place, and the bytes next to '/' in value
 * ('.' and '0': a borrow between bytes would flag them).
 */
static void test_kept_directory_check_by_words(void **cm_state)
{
	static const char fill[] = "ab.0/Z~";
	char parent[64], path[128], text[64];
	struct vp_dircache e;
	unsigned checked = 0, held = 0;

	(void)cm_state;
	for (size_t n = 8; n <= 40; n++) {
		for (size_t i = 0; i < n; i++)
			parent[i] = (char)('a' + (i * 7 + n) % 26);
		parent[n] = '\0';
		memset(&e, 0, sizeof(e));
		e.len = n;
		e.fd = 3;
		/* held in the entry when short, as vp_dircache_get() does */
		e.path = n < VP_DIRCACHE_INLINE ? e.text : text;
		memcpy(e.path, parent, n + 1);
		for (size_t l = 1; l <= 20; l++) {
			size_t len = n + 1 + l;

			memcpy(path, parent, n);
			path[n] = '/';
			for (size_t i = 0; i < l; i++)
				path[n + 1 + i] = fill[(i + l) % 4];
			path[len] = '\0';
			assert_true(vp_entry_holds(&e, path, len));
			held++;
			/* one byte changed anywhere, to each of fill's */
			for (size_t at = 0; at < len; at++) {
				char was = path[at];

				for (const char *f = fill; *f != '\0'; f++) {
					path[at] = *f;
					assert_int_equal(vp_entry_holds(&e, path,
									len),
							 entry_holds_ref(parent,
									 path));
					checked++;
				}
				path[at] = was;
			}
			/* the path cut short: the parent, or less */
			for (size_t cut = 9; cut <= n + 1; cut++) {
				char was = path[cut];

				path[cut] = '\0';
				assert_false(vp_entry_holds(&e, path, cut));
				path[cut] = was;
			}
			/* a length short of the path's, its leaf going on with
			 * a '/' (or not) */
			memcpy(path + len, "/x", 3);
			assert_false(vp_entry_holds(&e, path, len));
			memcpy(path + len, "yz", 3);
			assert_false(vp_entry_holds(&e, path, len));
			path[len] = '\0';
			assert_true(vp_entry_holds(&e, path, len));
		}
	}
	assert_true(held == 33 * 20);
	assert_true(checked > 100000);
}

/*
 * With the hint, a directory once found is found again through its
 * number: the map points at the kept entry of that very directory, and
 * a lookup through it counts as a use (the eviction order is the scan's).
 */
static void test_kept_directories_by_number(void **cm_state)
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
static void test_fds_per_client(void **cm_state)
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

static void test_deltree(void **cm_state)
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

static void test_deltree_and_cleanup_keep_symlink_targets(void **cm_state)
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
	vfs_posix_no_openat2 = walk;

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
	vfs_posix_no_openat2 = false;
}

static void test_symlinks_on_the_way(void **cm_state)
{
	symlinks_on_the_way(*cm_state, false);
}

static void test_symlinks_on_the_way_no_openat2(void **cm_state)
{
	symlinks_on_the_way(*cm_state, true);
}

/* A hint that lies never leads through a symlink either. */
static void test_symlinks_on_the_way_wrong_hint(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx->hint_mode = HINT_WRONG;
	symlinks_on_the_way(fx, false);
}

/* ---- queries ---- */

static void test_qpathinfo_resolve(void **cm_state)
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

static void test_fs_and_file_info(void **cm_state)
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

static void test_mask_match(void **cm_state)
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

static void test_find(void **cm_state)
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
static void test_readdir_many(void **cm_state)
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

static void test_lock_conflict(void **cm_state)
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

static void test_sync_options(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx->opts.sync_open = true;
	fx->opts.sync_dirs = true;
	fx->opts.fsync_writes = true;
	fx_open(fx);
	run_script(fx);
}

static void test_stat_check(void **cm_state)
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

static void test_xattr(void **cm_state)
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

/* ---- filesystems without locks or extended attributes ---- */

/* The backend: the status says "not supported", the errno is kept for
 * the message, and a failed attribute write leaves no descriptor open. */
static void test_no_locks_no_xattrs(void **cm_state)
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

static void test_no_locks_keep_going(void **cm_state)
{
	no_locks_run(*cm_state, MISMATCH_KEEP_GOING);
}

/* A missing feature is not one of the faults that stop a run (disk full,
 * read-only, out of descriptors): the default policy counts it too. */
static void test_no_locks_default(void **cm_state)
{
	no_locks_run(*cm_state, MISMATCH_DEFAULT);
}

/* --strict: the first one stops the client. */
static void test_no_locks_strict(void **cm_state)
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
static void test_open_parent_nofollow(void **cm_state)
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

static void test_setup_errors(void **cm_state)
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

static void test_null_backend(void **cm_state)
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

		if (op_kind_is_nfs3(k) || op_kind_is_smb5(k))
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

static void test_registry(void **cm_state)
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
static void test_deep_tree_bounded_fds(void **cm_state)
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
static void test_trees_check(void **cm_state)
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
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)
		T(test_ntcreatex_dispositions),
		T(test_no_locks_no_xattrs),
		T(test_no_locks_keep_going),
		T(test_no_locks_default),
		T(test_no_locks_strict),
		T(test_open_parent_nofollow),
		T(test_ntcreatex_invalid),
		T(test_shared_directories),
		T(test_missing_parent_vs_missing_file),
		T(test_failed_open_keeps_handle),
		T(test_cleanup_closes_open_handles),
		T(test_unopened_handles),
		T(test_write_read_round_trip),
		T(test_readx_past_eof),
		T(test_write_failures),
		T(test_write_options),
		T(test_create_options),
		T(test_direct_refused),
		T(test_dropcache),
		T(test_rename_unlink_rmdir),
		T(test_deltree),
		T(test_deltree_and_cleanup_keep_symlink_targets),
		T(test_symlinks_on_the_way),
		T(test_deep_tree_bounded_fds),
		T(test_trees_check),
		T(test_symlinks_on_the_way_no_openat2),
	T(test_symlinks_on_the_way_wrong_hint),
		T(test_kept_directories),
	T(test_kept_directories_unhinted),
	T(test_kept_directories_wrong_hint),
	T(test_kept_directories_by_number),
	T(test_kept_directory_check_by_words),
		T(test_fds_per_client),
		T(test_qpathinfo_resolve),
		T(test_fs_and_file_info),
		T(test_mask_match),
		T(test_find),
		T(test_readdir_many),
		T(test_lock_conflict),
		T(test_sync_options),
		T(test_stat_check),
		T(test_xattr),
		T(test_setup_errors),
		T(test_null_backend),
		T(test_registry),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
