/*
 * test_fileio_inject.c - the POSIX vfs as test_fileio runs it: its sources
 * included rather than linked, so that pwrite() can be replaced to inject
 * short writes, EINTR and ENOSPC, openat() to refuse O_DIRECT as
 * filesystems without direct I/O do, and the lock and xattr calls to fail
 * with ENOSYS/ENOTSUP as filesystems without locks or attributes do; and
 * so that its openat2 fallback can be forced and its static helpers
 * tested.
 */
#include "config.h"

#include "fileio_fixture.h"

/* ---- pwrite replacement (failure injection) ---- */

enum pw_mode pw_mode;
unsigned pw_calls;

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

bool oa_refuse_direct;

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

int nosys_lock_err;	/* non-zero: F_SETLK fails with it */
int nosys_xattr_err;	/* non-zero: every xattr call fails with it */

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
/* (function-like, so that the vfs_ops members of these names, declared
 * by vfs.h before, are left alone) */
#define fgetxattr(...) test_fgetxattr(__VA_ARGS__)
#define lgetxattr(...) test_lgetxattr(__VA_ARGS__)
#define fsetxattr(...) test_fsetxattr(__VA_ARGS__)
#endif

#define pwrite(...) test_pwrite(__VA_ARGS__)
#define openat(...) test_openat(__VA_ARGS__)
#define fcntl(...) test_fcntl(__VA_ARGS__)
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

/* Force (or stop forcing) the walk the vfs makes where the kernel has no
 * openat2. */
void fx_no_openat2(bool on)
{
	vfs_posix_no_openat2 = on;
}

/* ---- the kept directories' check by words ---- */

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
void test_kept_directory_check_by_words(void **cm_state)
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
