/*
 * fileio.c - the local filesystem backend.
 *
 * Every loadfile operation becomes the POSIX calls a file server would make
 * for it, against one client directory.  The directory is opened once at
 * setup and every path operation is made relative to that descriptor with
 * the *at() calls, so a client never depends on the working directory and
 * never builds long path strings.  Handles are a dense table of fds.
 *
 * Statuses follow COMPAT.md ("Operations on a local filesystem"): what a
 * Windows server would answer, decided from errno and, where errno cannot
 * tell two answers apart (a missing file or a missing parent directory), by
 * one more look at the filesystem on the failure path only.
 *
 * NTCreateX's create options FILE_WRITE_THROUGH (0x2) and
 * FILE_NO_INTERMEDIATE_BUFFERING (0x8) open files with O_DSYNC and
 * O_DIRECT.  Direct I/O needs aligned memory, so ReadX and WriteX on such
 * a handle go through a buffer from posix_memalign (the client's write
 * data is copied into it); offsets and sizes are the loadfile's business,
 * and the kernel's EINVAL for misaligned ones is returned as it is.
 *
 * Removal (Deltree, cleanup) walks the tree with openat/unlinkat and
 * O_NOFOLLOW: a symlink inside the tree is removed as a link, and whatever
 * it points at is left alone.
 *
 * No path ever leaves the directory through a symlink: every path is
 * resolved beneath the directory descriptor with openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS), the calls that take no such flags (stat, mkdir,
 * unlink, rename) act on the last component relative to a parent opened
 * that way, and where the kernel has no openat2 (ENOSYS) the path is walked
 * one component at a time with O_NOFOLLOW.  dbench never makes symlinks,
 * so any symlink met on the way is foreign and the call fails (ELOOP or
 * ENOTDIR); a symlink as the last component is acted on as a link.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_XATTR_H
#include <sys/xattr.h>
#endif

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define FILEIO_HAVE_OPENAT2 1
#endif
#endif

#include <talloc.h>

#include "backend.h"
#include "backends.h"
#include "ntstatus.h"
#include "options.h"
#include "util.h"

/* NTCreateX create_options bits this backend honours */
#define FILEIO_OPT_DIRECTORY		0x1	/* FILE_DIRECTORY_FILE */
#define FILEIO_OPT_WRITE_THROUGH	0x2	/* FILE_WRITE_THROUGH: O_DSYNC */
#define FILEIO_OPT_NO_BUFFERING		0x8	/* FILE_NO_INTERMEDIATE_BUFFERING:
						 * O_DIRECT */
#define FILEIO_OPT_NON_DIRECTORY	0x40	/* FILE_NON_DIRECTORY_FILE */

/* NTCreateX dispositions */
enum fileio_disposition {
	FILEIO_SUPERSEDE = 0,	/* create, or truncate what exists */
	FILEIO_OPEN = 1,	/* must exist */
	FILEIO_CREATE = 2,	/* must not exist */
	FILEIO_OPEN_IF = 3,	/* open, or create */
	FILEIO_OVERWRITE = 4,	/* must exist; truncate */
	FILEIO_OVERWRITE_IF = 5,	/* create, or truncate */
};

/* The attribute Samba keeps DOS attributes in, as dbench 4.00 used it. */
#define FILEIO_XATTR_NAME	"user.DosAttrib"
/* dbench 4.00 reads and writes values of this size. */
#define FILEIO_XATTR_SIZE	44

/* The read buffer grows to the largest ReadX seen, up to this; larger
 * reads are done in pieces of this size. */
#define FILEIO_RBUF_MAX		(16u * 1024 * 1024)
/* Alignment of the direct I/O buffer: a page, which is at least the
 * memory alignment any Linux filesystem asks for (STATX_DIOALIGN). */
#define FILEIO_DIO_ALIGN	4096u
/* Largest single pwrite: keeps every count well inside ssize_t. */
#define FILEIO_IO_MAX		(1u << 30)

/* SMB wildcards: '*' '?' and the DOS forms '<' '>' '"' */
#define FILEIO_WILDCARDS	"*?<>\""

/* All zero (the table is calloc'ed: untouched slots cost no memory; a
 * loadfile can have tens of thousands) means not open. */
struct fileio_handle {
	int fd;
	bool is_dir;
	bool open;
	bool direct;		/* opened with O_DIRECT: I/O through dbuf */
};

/* A kept directory; see fileio_dircache_get(). */
#define FILEIO_DIRCACHE	32

struct fileio_dircache {
	char *path;		/* relative to the client directory (talloc) */
	size_t len;
	int fd;			/* O_PATH | O_DIRECTORY, -1: entry unused */
	uint64_t used;		/* when last used, for eviction */
};

struct fileio_state {
	const struct dbench_options *opts;
	int dirfd;			/* the client directory */
	char *dirpath;			/* its absolute path (-x only) */
	struct fileio_handle *handles;	/* nhandles slots */
	uint32_t nhandles;
	uint32_t nopen;			/* slots open now */
	uint32_t hwm;			/* 1 + highest slot ever opened */
	uint8_t *rbuf;			/* ReadX target */
	size_t rbuf_size;
	uint8_t *dbuf;			/* O_DIRECT transfers (posix_memalign) */
	size_t dbuf_size;
	uint64_t xattr_writes;		/* attribute values written so far */
	struct fileio_dircache dircache[FILEIO_DIRCACHE];
	uint64_t dircache_clock;
	bool dircache_stale;		/* a kept directory was found removed */
	char *dents;			/* getdents64 buffer, see fileio_dir */
};

static const struct dbench_options fileio_default_opts;

/* ---- confined path resolution ---- */

/* Set once openat2 is known to be missing (tests set it too). */
static bool fileio_no_openat2;

/*
 * openat(dfd, path, flags, mode) that neither leaves dfd nor follows any
 * symlink on the way (nor the last component: O_NOFOLLOW is implied, so
 * O_PATH opens a final symlink as a link and other opens of it fail).
 */
static int fileio_open_beneath(int dfd, const char *path, int flags,
			       mode_t mode)
{
	const char *leaf;
	int pfd, fd, err;

	flags |= O_NOFOLLOW;
#ifdef FILEIO_HAVE_OPENAT2
	if (!fileio_no_openat2) {
		struct open_how how;
		int tries = 0;
		long r;

		memset(&how, 0, sizeof(how));
		how.flags = (uint64_t)(unsigned)flags;
		if (flags & O_CREAT)
			how.mode = mode;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
		do {
			/* EAGAIN: a rename raced with the lookup; retry */
			r = syscall(SYS_openat2, dfd, path, &how, sizeof(how));
		} while (r < 0 && errno == EAGAIN && ++tries < 100);
		if (r >= 0 || errno != ENOSYS)
			return (int)r;
		fileio_no_openat2 = true;
	}
#endif
	/* no openat2: walk to the parent one component at a time */
	if (strchr(path, '/') == NULL)
		return openat(dfd, path, flags, mode);
	pfd = util_open_parent_nofollow(dfd, path, &leaf);
	if (pfd < 0)
		return -1;
	fd = openat(pfd, leaf, flags, mode);
	err = errno;
	close(pfd);
	errno = err;
	return fd;
}

/*
 * Directories resolved so far, per client.  Resolving a directory safely
 * costs an openat2() (or a walk) and a close(); dbench 4.00 makes one
 * call on a full path instead.  So each directory is resolved once and
 * its O_PATH descriptor kept: the call on the path becomes one *at() call
 * on (kept descriptor, last component), the same system calls as 4.00's
 * (bench/syscalls.sh), and still nothing follows a symlink.  The cache is
 * emptied whenever this client removes or renames a directory; a kept
 * directory another client removed is noticed by the name lookup (its
 * link count is 0, see fileio_scan_open) and resolved again.
 */

/* Forget every kept directory (after this client removed or renamed one). */
static void fileio_dircache_flush(struct fileio_state *st)
{
	for (unsigned i = 0; i < FILEIO_DIRCACHE; i++) {
		struct fileio_dircache *e = &st->dircache[i];

		if (e->fd >= 0)
			close(e->fd);
		e->fd = -1;
		e->len = 0;
	}
}

/*
 * The kept descriptor of directory path[0..len) (relative to the client
 * directory), resolving it on a miss.  The cache owns it: never close it.
 * -1 with errno set when the directory cannot be resolved.
 */
static int fileio_dircache_get(struct fileio_state *st, const char *path,
			       size_t len)
{
	struct fileio_dircache *victim = NULL;
	char *copy;
	int fd;

	st->dircache_clock++;
	for (unsigned i = 0; i < FILEIO_DIRCACHE; i++) {
		struct fileio_dircache *e = &st->dircache[i];

		if (e->fd < 0) {
			if (victim == NULL || victim->fd >= 0)
				victim = e;	/* a free entry first */
			continue;
		}
		if (e->len == len && memcmp(e->path, path, len) == 0) {
			e->used = st->dircache_clock;
			return e->fd;
		}
		if (victim == NULL || (victim->fd >= 0 && e->used < victim->used))
			victim = e;	/* else the least recently used */
	}
	copy = talloc_realloc(st, victim->path, char, len + 1);
	if (copy == NULL) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(copy, path, len);
	copy[len] = '\0';
	victim->path = copy;
	fd = fileio_open_beneath(st->dirfd, copy,
				 O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	if (victim->fd >= 0) {
		int err = errno;

		close(victim->fd);	/* its path was overwritten above */
		errno = err;
	}
	if (fd < 0) {
		victim->fd = -1;
		victim->len = 0;
		return -1;
	}
	victim->fd = fd;
	victim->len = len;
	victim->used = st->dircache_clock;
	return fd;
}

/*
 * The directory holding path's last component, resolved safely: the
 * client directory for a single component, else a kept O_PATH descriptor.
 * *leaf is pointed at the last component.  -1 with errno set on failure.
 * The descriptor is never to be closed by the caller.
 */
static int fileio_parent(struct fileio_state *st, const char *path,
			 const char **leaf)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		*leaf = path;
		return st->dirfd;
	}
	*leaf = slash + 1;
	return fileio_dircache_get(st, path, (size_t)(slash - path));
}

/* An open of path in the client directory: no symlink is followed on the
 * way (the parent is resolved safely) nor as the last component. */
static int fileio_openat(struct fileio_state *st, const char *path,
			 int flags, mode_t mode)
{
	const char *leaf;
	int pfd = fileio_parent(st, path, &leaf);

	if (pfd < 0)
		return -1;
	return openat(pfd, leaf[0] != '\0' ? leaf : ".", flags | O_NOFOLLOW,
		      mode);
}

/* fstatat of path; a symlink anywhere is not followed. */
static int fileio_fstatat(struct fileio_state *st, const char *path,
			  struct stat *sb, int flags)
{
	const char *leaf;
	int pfd = fileio_parent(st, path, &leaf);

	return pfd < 0 ? -1 : fstatat(pfd, leaf, sb, flags | AT_SYMLINK_NOFOLLOW);
}

static int fileio_mkdirat(struct fileio_state *st, const char *path,
			  mode_t mode)
{
	const char *leaf;
	int pfd = fileio_parent(st, path, &leaf);

	return pfd < 0 ? -1 : mkdirat(pfd, leaf, mode);
}

static int fileio_unlinkat(struct fileio_state *st, const char *path,
			   int flags)
{
	const char *leaf;
	int pfd = fileio_parent(st, path, &leaf);

	return pfd < 0 ? -1 : unlinkat(pfd, leaf, flags);
}

static int fileio_renameat(struct fileio_state *st, const char *from,
			   const char *to)
{
	const char *from_leaf, *to_leaf;
	int from_fd, to_fd;

	from_fd = fileio_parent(st, from, &from_leaf);
	if (from_fd < 0)
		return -1;
	/* the second lookup cannot evict the first: it was just used */
	to_fd = fileio_parent(st, to, &to_leaf);
	if (to_fd < 0)
		return -1;
	return renameat(from_fd, from_leaf, to_fd, to_leaf);
}

/* ---- statuses ---- */

static uint32_t fileio_fail(struct op_call *call, uint32_t status, int err)
{
	call->err = err;
	return status;
}

/* A directory on the way to the path is missing or not a directory. */
static uint32_t fileio_no_path(struct op_call *call, int err)
{
	return fileio_fail(call, NT_STATUS_OBJECT_PATH_NOT_FOUND, err);
}

/* The status for a failed call whose errno says all there is to say. */
static uint32_t fileio_errno(struct op_call *call, int err)
{
	uint32_t status;

	call->err = err;
	switch (err) {
	case ENOSPC:
#ifdef EDQUOT
	case EDQUOT:
#endif
		return NT_STATUS_DISK_FULL;
	case ENOTSUP:
#if defined(EOPNOTSUPP) && EOPNOTSUPP != ENOTSUP
	case EOPNOTSUPP:
#endif
		return NT_STATUS_NOT_SUPPORTED;
	case ENOMEM:
		return NT_STATUS_NO_MEMORY;
	default:
		break;
	}
	status = ntstatus_from_errno(err);
	/* a failure must never read as success */
	return status == NT_STATUS_OK ? NT_STATUS_UNSUCCESSFUL : status;
}

/* ---- paths ---- */

/* A path as the *at() calls take it: the empty path is the directory. */
static const char *fileio_at_path(const char *path)
{
	return (path == NULL || path[0] == '\0') ? "." : path;
}

/* Is path[i] of this op above the per-client directory (shared)? */
static bool fileio_shared(const struct op_call *call, unsigned i)
{
	return call->op != NULL && call->op->path[i] != NULL &&
	       call->op->path[i]->client_pos < 0;
}

/*
 * Open the directory holding path (the client directory for a single
 * component).  Returns a new fd, or -1 with errno set.  *name, if not
 * NULL, is pointed at the last component of path.
 */
static int fileio_open_parent(struct fileio_state *st, const char *path,
			      const char **name)
{
	const char *slash = strrchr(path, '/');
	char *parent;
	int fd, err;

	if (name != NULL)
		*name = slash != NULL ? slash + 1 : path;
	if (slash == NULL)
		return fileio_openat(st, ".",
				     O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	parent = talloc_strndup(st, path, (size_t)(slash - path));
	if (parent == NULL) {
		errno = ENOMEM;
		return -1;
	}
	fd = fileio_openat(st, parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	err = errno;
	talloc_free(parent);
	errno = err;
	return fd;
}

/*
 * path does not exist (ENOENT): was it the last component that is missing
 * (OBJECT_NAME_NOT_FOUND) or a directory on the way (OBJECT_PATH_NOT_FOUND)?
 */
static uint32_t fileio_missing(struct fileio_state *st, struct op_call *call,
			       const char *path, int err)
{
	const char *slash = strrchr(path, '/');
	struct stat sb;
	char *parent;
	int r;

	call->err = err;
	if (slash == NULL)
		return NT_STATUS_OBJECT_NAME_NOT_FOUND;
	parent = talloc_strndup(st, path, (size_t)(slash - path));
	if (parent == NULL)
		return fileio_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	r = fileio_fstatat(st, parent, &sb, 0);
	talloc_free(parent);
	if (r == 0 && S_ISDIR(sb.st_mode))
		return NT_STATUS_OBJECT_NAME_NOT_FOUND;
	return NT_STATUS_OBJECT_PATH_NOT_FOUND;
}

/*
 * ENOTDIR for path: either path itself exists and is not a directory
 * (NOT_A_DIRECTORY, when a directory was asked for) or a component on the
 * way is not a directory (OBJECT_PATH_NOT_FOUND).
 */
static uint32_t fileio_not_dir(struct fileio_state *st, struct op_call *call,
			       const char *path, int err)
{
	struct stat sb;

	call->err = err;
	if (fileio_fstatat(st, path, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !S_ISDIR(sb.st_mode))
		return NT_STATUS_NOT_A_DIRECTORY;
	return NT_STATUS_OBJECT_PATH_NOT_FOUND;
}

/* The common failures of a call on path: missing, or not reachable. */
static uint32_t fileio_path_errno(struct fileio_state *st,
				  struct op_call *call, const char *path,
				  int err)
{
	if (err == ENOENT)
		return fileio_missing(st, call, path, err);
	if (err == ENOTDIR)
		return fileio_no_path(call, err);
	return fileio_errno(call, err);
}

/*
 * -S: flush the directory holding path, the way knfsd flushes directories
 * after a namespace change.  Returns 0 or an errno.
 */
static int fileio_sync_parent(struct fileio_state *st, const char *path)
{
	int fd, err = 0;

	fd = fileio_open_parent(st, path, NULL);
	if (fd < 0)
		return errno;
	if (fsync(fd) != 0)
		err = errno;
	close(fd);
	return err;
}

/* After a successful namespace change: -S, and its failure if any. */
static uint32_t fileio_synced(struct fileio_state *st, struct op_call *call,
			      const char *path)
{
	int err;

	if (!st->opts->sync_dirs)
		return NT_STATUS_OK;
	err = fileio_sync_parent(st, path);
	return err != 0 ? fileio_errno(call, err) : NT_STATUS_OK;
}

/* ---- handles ---- */

/* The open handle the op names, or NULL (slot out of range or closed). */
static struct fileio_handle *fileio_handle(struct fileio_state *st,
					   const struct op_call *call)
{
	int32_t slot = call->op != NULL ? call->op->handle : -1;

	if (slot < 0 || (uint32_t)slot >= st->nhandles ||
	    !st->handles[slot].open)
		return NULL;
	return &st->handles[slot];
}

static uint32_t fileio_bad_handle(struct op_call *call)
{
	return fileio_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
}

/*
 * Close what is open.  The scan stops at the highest slot ever used and as
 * soon as the open ones are found: the table can have tens of thousands of
 * slots, and reading the pages a short run never touched would fault each
 * one in (at the end of a 1,024-client run, that was most of its CPU).
 */
static void fileio_close_all(struct fileio_state *st)
{
	for (uint32_t i = 0; i < st->hwm && st->nopen > 0; i++) {
		if (st->handles[i].open) {
			close(st->handles[i].fd);
			st->handles[i].open = false;
			st->nopen--;
		}
	}
}

/* ---- extended attributes (-x) ---- */

/*
 * dbench 4.00 with -x reads "user.DosAttrib" where Samba would read the DOS
 * attributes (after a path lookup, on QUERY_FILE_INFORMATION and
 * SET_FILE_INFORMATION) and rewrites it where Samba would store them (after
 * opening a file, and after setting its times).  The same calls are made
 * here.  A read that finds no attribute is normal; a filesystem without
 * user attributes is reported as NT_STATUS_NOT_SUPPORTED, so that -x on
 * such a filesystem is a clear error instead of a silent no-op.
 */
#ifdef HAVE_SYS_XATTR_H

static bool fileio_xattr_unsupported(int err)
{
#if defined(EOPNOTSUPP) && EOPNOTSUPP != ENOTSUP
	if (err == EOPNOTSUPP)
		return true;
#endif
	return err == ENOTSUP;
}

static uint32_t fileio_xattr_fd_read(struct op_call *call, int fd)
{
	uint8_t buf[FILEIO_XATTR_SIZE];

	if (fgetxattr(fd, FILEIO_XATTR_NAME, buf, sizeof(buf)) < 0 &&
	    fileio_xattr_unsupported(errno))
		return fileio_errno(call, errno);
	return NT_STATUS_OK;
}

static uint32_t fileio_xattr_path_read(struct fileio_state *st,
				       struct op_call *call, const char *path)
{
	uint8_t buf[FILEIO_XATTR_SIZE];
	const char *leaf;
	char *full;
	ssize_t r;
	int err, pfd;

	/*
	 * There is no getxattrat(): name the last component through the
	 * parent's fd, which was reached without following a symlink (the
	 * l-call does not follow the last component either).
	 */
	pfd = fileio_parent(st, path, &leaf);
	if (pfd < 0)
		return fileio_path_errno(st, call, path, errno);
	if (pfd == st->dirfd)
		full = talloc_asprintf(st, "%s/%s", st->dirpath, leaf);
	else
		full = talloc_asprintf(st, "/proc/self/fd/%d/%s", pfd, leaf);
	if (full == NULL)
		return fileio_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	r = lgetxattr(full, FILEIO_XATTR_NAME, buf, sizeof(buf));
	err = errno;
	talloc_free(full);
	if (r < 0 && fileio_xattr_unsupported(err))
		return fileio_errno(call, err);
	return NT_STATUS_OK;
}

static uint32_t fileio_xattr_fd_write(struct fileio_state *st,
				      struct op_call *call, int fd)
{
	uint8_t buf[FILEIO_XATTR_SIZE];
	struct timespec now;
	uint32_t status;

	/* the original reads the old value before replacing it */
	status = fileio_xattr_fd_read(call, fd);
	if (status != NT_STATUS_OK)
		return status;

	/*
	 * The value is a time stamp.  One write in five keeps whole seconds
	 * only, so that some files carry identical values: filesystems that
	 * share identical attribute blocks see both cases, as with the
	 * original.
	 */
	memset(buf, 0, sizeof(buf));
	clock_gettime(CLOCK_REALTIME, &now);
	if (st->xattr_writes++ % 5 == 0)
		now.tv_nsec = 0;
	memcpy(buf, &now, sizeof(now));
	if (fsetxattr(fd, FILEIO_XATTR_NAME, buf, sizeof(buf), 0) != 0)
		return fileio_errno(call, errno);
	return NT_STATUS_OK;
}

#else /* !HAVE_SYS_XATTR_H */

static uint32_t fileio_xattr_fd_read(struct op_call *call, int fd)
{
	(void)fd;
	return fileio_fail(call, NT_STATUS_NOT_SUPPORTED, ENOTSUP);
}

static uint32_t fileio_xattr_path_read(struct fileio_state *st,
				       struct op_call *call, const char *path)
{
	(void)st;
	(void)path;
	return fileio_fail(call, NT_STATUS_NOT_SUPPORTED, ENOTSUP);
}

static uint32_t fileio_xattr_fd_write(struct fileio_state *st,
				      struct op_call *call, int fd)
{
	(void)st;
	(void)fd;
	return fileio_fail(call, NT_STATUS_NOT_SUPPORTED, ENOTSUP);
}

#endif /* HAVE_SYS_XATTR_H */

/* ---- names and wildcards ---- */

/*
 * Does name match the SMB wildcard mask?  Case-insensitive, like a Windows
 * server.  '*' matches any run of characters, '?' exactly one.  The DOS
 * forms that clients send for 8.3-style masks: '<' matches any run that
 * does not go past the last '.' of the name, '>' one character but nothing
 * at a '.' or at the end, '"' a '.' or the end of the name.
 */
static bool fileio_mask_match(const char *mask, const char *name)
{
	for (; *mask != '\0'; mask++) {
		switch (*mask) {
		case '*':
			while (mask[1] == '*')
				mask++;
			if (mask[1] == '\0')
				return true;
			for (;; name++) {
				if (fileio_mask_match(mask + 1, name))
					return true;
				if (*name == '\0')
					return false;
			}
		case '<': {
			const char *end = strrchr(name, '.');

			if (end == NULL)
				end = name + strlen(name);

			for (;; name++) {
				if (fileio_mask_match(mask + 1, name))
					return true;
				if (name == end)
					return false;
			}
		}
		case '>':
			if (*name != '\0' && *name != '.')
				name++;
			break;
		case '"':
			if (*name == '.')
				name++;
			else if (*name != '\0')
				return false;
			break;
		case '?':
			if (*name == '\0')
				return false;
			name++;
			break;
		default:
			if (tolower((unsigned char)*mask) !=
			    tolower((unsigned char)*name))
				return false;
			name++;
			break;
		}
	}
	return *name == '\0';
}

/*
 * A directory read with getdents64() into a 32 KiB buffer: what glibc's
 * opendir()/readdir() do (openat, fstat, getdents64, close), without the
 * fcntl() fdopendir() would add, and opened relative to a kept directory
 * so that no symlink is followed on the way.
 */
#define FILEIO_DENTS_SIZE	32768

struct fileio_dir {
	int fd;
	size_t pos, end;
};

struct fileio_dirent64 {	/* the kernel's struct linux_dirent64 */
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Open the directory path[0..dir_len) (0: the client directory) for
 * reading.  A kept directory that another client removed (no links left)
 * is resolved again once.  0, or -1 with errno set.
 */
static int fileio_dir_open(struct fileio_state *st, const char *path,
			   size_t dir_len, struct fileio_dir *d)
{
	struct stat sb;
	int pfd, err;

	if (st->dents == NULL) {
		st->dents = talloc_size(st, FILEIO_DENTS_SIZE);
		if (st->dents == NULL) {
			errno = ENOMEM;
			return -1;
		}
	}
	for (int attempt = 0;; attempt++) {
		pfd = dir_len > 0 ? fileio_dircache_get(st, path, dir_len) :
				    st->dirfd;
		if (pfd < 0)
			return -1;
		d->fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (d->fd < 0)
			return -1;
		if (fstat(d->fd, &sb) != 0) {
			err = errno;
			close(d->fd);
			errno = err;
			return -1;
		}
		if (sb.st_nlink > 0 || dir_len == 0 || attempt > 0)
			break;
		close(d->fd);
		fileio_dircache_flush(st);
		st->dircache_stale = true;
	}
	d->pos = d->end = 0;
	return 0;
}

/* The next name, or NULL at the end (errno 0) or on an error (errno set). */
static const char *fileio_dir_next(struct fileio_state *st,
				   struct fileio_dir *d)
{
	const struct fileio_dirent64 *de;

	if (d->pos >= d->end) {
		long n = syscall(SYS_getdents64, d->fd, st->dents,
				 FILEIO_DENTS_SIZE);

		if (n <= 0) {
			if (n == 0)
				errno = 0;
			return NULL;
		}
		d->pos = 0;
		d->end = (size_t)n;
	}
	de = (const struct fileio_dirent64 *)(st->dents + d->pos);
	d->pos += de->d_reclen;
	return de->d_name;
}

static void fileio_dir_close(struct fileio_dir *d)
{
	int err = errno;

	close(d->fd);
	errno = err;
}

/*
 * Samba's name resolution for a path that does not exist as spelled: scan
 * its directory for a name that matches case-insensitively.  Returns 1 if
 * one does, 0 if none does, -1 with errno set if the directory cannot be
 * read.
 */
static int fileio_case_scan(struct fileio_state *st, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *want = slash != NULL ? slash + 1 : path;
	const char *name;
	struct fileio_dir d;
	int found = 0;

	if (fileio_dir_open(st, path,
			    slash != NULL ? (size_t)(slash - path) : 0,
			    &d) != 0)
		return -1;
	while ((name = fileio_dir_next(st, &d)) != NULL) {
		if (strcasecmp(name, want) == 0) {
			found = 1;
			break;
		}
	}
	if (name == NULL && errno != 0) {
		fileio_dir_close(&d);	/* a failed read is not "no match" */
		return -1;
	}
	fileio_dir_close(&d);
	return found;
}

/* What the name lookup before a path operation found. */
enum fileio_found {
	FOUND_YES = 0,	/* the path exists as spelled (*sb filled) */
	FOUND_CASE,	/* not as spelled, but in another case */
	FOUND_NAME,	/* missing; its directory exists */
	FOUND_NO_PATH,	/* missing; so is a directory on the way */
	FOUND_MISSING,	/* missing; its directory was not looked at */
};

/*
 * The name lookup a file server makes before every operation on a path.
 * On anything but FOUND_YES and FOUND_CASE errno says why the path was
 * not found (ENOENT, ENOTDIR, or what the stat or the scan failed with).
 * It is what a file server does (Samba: a stat; if that finds nothing, unless --no-resolve, a scan of
 * the directory for the name in another case).  dbench 4.00 makes these
 * same calls before NTCreateX, Mkdir, Rmdir, Unlink, Rename (both names),
 * QUERY_PATH_INFORMATION and FIND_FIRST; doing the same work is what makes
 * the two tools' throughputs comparable.  The answer also tells a failed
 * call apart (missing name or missing directory) without another look.
 */
static enum fileio_found fileio_lookup(struct fileio_state *st,
				       const char *path, struct stat *sb)
{
	int r;

	if (fileio_fstatat(st, path, sb, AT_SYMLINK_NOFOLLOW) == 0)
		return FOUND_YES;
	if (errno == ENOTDIR)
		return FOUND_NO_PATH;
	if (errno != ENOENT || st->opts->no_resolve)
		return FOUND_MISSING;
	st->dircache_stale = false;
	r = fileio_case_scan(st, path);
	/* the kept directory had been removed by another client: look again
	 * in the one now there */
	if (st->dircache_stale &&
	    fileio_fstatat(st, path, sb, AT_SYMLINK_NOFOLLOW) == 0)
		return FOUND_YES;
	if (r > 0)
		return FOUND_CASE;
	if (r == 0) {
		errno = ENOENT;
		return FOUND_NAME;
	}
	return errno == ENOENT || errno == ENOTDIR ? FOUND_NO_PATH :
						     FOUND_MISSING;
}

/*
 * fileio_path_errno() for a call made after a lookup: a missing path the
 * lookup already placed needs no other look at the filesystem.
 */
static uint32_t fileio_found_errno(struct fileio_state *st,
				   struct op_call *call, const char *path,
				   int err, enum fileio_found found)
{
	if (err == ENOENT && found == FOUND_NAME)
		return fileio_fail(call, NT_STATUS_OBJECT_NAME_NOT_FOUND, err);
	if (err == ENOENT && found == FOUND_NO_PATH)
		return fileio_no_path(call, err);
	return fileio_path_errno(st, call, path, err);
}

/*
 * FIND_FIRST with a wildcard: count the entries of the pattern's directory
 * that match its last component, "." and ".." included (as a Windows server
 * lists them), stopping at maxcount (<= 0: no limit).  Returns a status;
 * *count is set on success.
 */
static uint32_t fileio_find_count(struct fileio_state *st,
				  struct op_call *call, const char *pattern,
				  int64_t maxcount, uint64_t *count)
{
	const char *slash = strrchr(pattern, '/');
	const char *mask = slash != NULL ? slash + 1 : pattern;
	const char *name;
	struct fileio_dir d;
	uint64_t n = 0;
	int err;

	if (fileio_dir_open(st, pattern,
			    slash != NULL ? (size_t)(slash - pattern) : 0,
			    &d) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return fileio_no_path(call, errno);
		return fileio_errno(call, errno);
	}
	for (;;) {
		if (maxcount > 0 && n >= (uint64_t)maxcount)
			break;
		name = fileio_dir_next(st, &d);
		if (name == NULL) {
			err = errno;
			if (err != 0) {
				fileio_dir_close(&d);
				return fileio_errno(call, err);
			}
			break;
		}
		if (fileio_mask_match(mask, name))
			n++;
	}
	fileio_dir_close(&d);
	*count = n;
	return NT_STATUS_OK;
}

/* ---- removing trees ---- */

static int fileio_tree_remove(int dfd, const char *name, bool is_dir);

/*
 * Remove everything inside the directory name (relative to dfd), never
 * following a symlink.  A missing directory is already empty.  Returns 0
 * or a negative errno.
 */
static int fileio_tree_empty(int dfd, const char *name)
{
	char *buf;
	int fd, ret = 0;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	buf = malloc(FILEIO_DENTS_SIZE);	/* one per level of the tree */
	if (buf == NULL) {
		close(fd);
		return -ENOMEM;
	}
	/* getdents64 directly (see fileio_dir): no fcntl() per directory */
	while (ret == 0) {
		long n = syscall(SYS_getdents64, fd, buf, FILEIO_DENTS_SIZE);

		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		for (long pos = 0; pos < n && ret == 0;) {
			const struct fileio_dirent64 *de =
				(const struct fileio_dirent64 *)(buf + pos);

			pos += de->d_reclen;
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			ret = fileio_tree_remove(fd, de->d_name,
						 de->d_type == DT_DIR);
		}
	}
	free(buf);
	close(fd);
	return ret;
}

/*
 * Remove the entry name (relative to dfd) and, when it is a directory,
 * everything in it.  A symlink is removed as a link.  A missing entry counts
 * as removed.  is_dir is a hint (from d_type) that saves the failing
 * unlink.  Returns 0 or a negative errno.
 */
static int fileio_tree_remove(int dfd, const char *name, bool is_dir)
{
	int attempt, ret, unlink_err = 0;

	if (!is_dir) {
		if (unlinkat(dfd, name, 0) == 0)
			return 0;
		/* ENOTDIR: a directory on the way is not one, so no entry */
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		/* a directory: EISDIR on Linux, EPERM elsewhere */
		if (errno != EISDIR && errno != EPERM)
			return -errno;
		unlink_err = errno;
	}
	/* entries created while we read are seen by the next attempt */
	for (attempt = 0; attempt < 3; attempt++) {
		ret = fileio_tree_empty(dfd, name);
		if (ret == -ENOTDIR && unlink_err != 0)
			return -unlink_err;	/* EPERM on a non-directory */
		if (ret != 0)
			return ret;
		if (unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			return 0;
		if (errno != ENOTEMPTY && errno != EEXIST)
			return -errno;
	}
	return -ENOTEMPTY;
}

/* Remove the tree at path; the empty path only empties the directory. */
static int fileio_remove_path(struct fileio_state *st, const char *path)
{
	const char *leaf;
	int pfd, ret;

	if (path == NULL || path[0] == '\0' || strcmp(path, ".") == 0) {
		fileio_dircache_flush(st);
		return fileio_tree_empty(st->dirfd, ".");
	}
	/* the tree's parent, reached without following a symlink */
	pfd = fileio_parent(st, path, &leaf);
	if (pfd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	ret = fileio_tree_remove(pfd, leaf, false);
	fileio_dircache_flush(st);	/* kept directories may be gone */
	return ret;
}

/* ---- setup and cleanup ---- */

static int fileio_state_destructor(struct fileio_state *st)
{
	fileio_close_all(st);
	fileio_dircache_flush(st);
	free(st->dbuf);
	st->dbuf = NULL;
	if (st->dirfd >= 0) {
		close(st->dirfd);
		st->dirfd = -1;
	}
	return 0;
}

static int fileio_setup(void *mem_ctx, const struct backend_client_config *cfg,
			void **state, char **err)
{
	struct fileio_state *st;

	st = talloc_zero(mem_ctx, struct fileio_state);
	if (st == NULL)
		goto nomem;
	st->dirfd = -1;
	for (unsigned i = 0; i < FILEIO_DIRCACHE; i++)
		st->dircache[i].fd = -1;
	st->opts = cfg->opts != NULL ? cfg->opts : &fileio_default_opts;
	st->nhandles = cfg->nhandles;
	talloc_set_destructor(st, fileio_state_destructor);

	st->handles = util_zero_pages(st, sizeof(struct fileio_handle) *
				      (cfg->nhandles > 0 ? cfg->nhandles : 1));
	if (st->handles == NULL)
		goto nomem;

	st->dirfd = open(cfg->directory, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (st->dirfd < 0) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", cfg->directory,
				       strerror(errno));
		talloc_free(st);
		return -1;
	}

	if (st->opts->xattr) {
		/* the by-name attribute reads need a path, see above */
		char *real = realpath(cfg->directory, NULL);

		if (real == NULL) {
			*err = talloc_asprintf(mem_ctx, "%s: %s",
					       cfg->directory, strerror(errno));
			talloc_free(st);
			return -1;
		}
		st->dirpath = talloc_strdup(st, real);
		free(real);
		if (st->dirpath == NULL)
			goto nomem;
	}

	*state = st;
	return 0;

nomem:
	talloc_free(st);
	*err = talloc_asprintf(mem_ctx, "%s: out of memory", cfg->directory);
	return -1;
}

static int fileio_cleanup(void *state, const char *path)
{
	struct fileio_state *st = state;

	fileio_close_all(st);
	return fileio_remove_path(st, path);
}

/* ---- NTCreateX ---- */

/*
 * NTCreateX with option 0x1 and a disposition that creates: make the
 * directory unless it exists.  An existing one is a collision for
 * FILE_CREATE, except above the per-client directory, where another
 * client may have made it.
 */
static uint32_t fileio_make_dir(struct fileio_state *st, struct op_call *call,
				const char *path, int64_t disp)
{
	bool exclusive = disp == FILEIO_CREATE && !fileio_shared(call, 0);
	struct stat sb;

	/* --stat-check: no mkdir for what a stat shows exists */
	if (st->opts->stat_check &&
	    fileio_fstatat(st, path, &sb, AT_SYMLINK_NOFOLLOW) == 0)
		goto exists;

	if (fileio_mkdirat(st, path, 0755) == 0)
		return fileio_synced(st, call, path);
	if (errno == EEXIST)
		goto exists;
	if (errno == ENOENT || errno == ENOTDIR)
		return fileio_no_path(call, errno);
	return fileio_errno(call, errno);

exists:
	if (exclusive)
		return fileio_fail(call, NT_STATUS_OBJECT_NAME_COLLISION,
				   EEXIST);
	return NT_STATUS_OK;
}

/* NTCreateX with option 0x1: a directory, created if the disposition says. */
static uint32_t fileio_open_dir(struct fileio_state *st, struct op_call *call,
				const char *path, int64_t disp,
				enum fileio_found found, int *fdp)
{
	uint32_t status;
	int fd;

	if (disp != FILEIO_OPEN && disp != FILEIO_OVERWRITE) {
		status = fileio_make_dir(st, call, path, disp);
		if (status != NT_STATUS_OK)
			return status;
	}

	fd = fileio_openat(st, path,
			   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0) {
		if (errno == ENOTDIR || errno == ELOOP)
			return fileio_not_dir(st, call, path, errno);
		return fileio_found_errno(st, call, path, errno, found);
	}
	*fdp = fd;
	return NT_STATUS_OK;
}

/* NTCreateX without option 0x1: a file, or an existing directory opened. */
static uint32_t fileio_open_file(struct fileio_state *st, struct op_call *call,
				 const char *path, int64_t disp,
				 enum fileio_found found, bool non_dir,
				 int extra, int *fdp, bool *is_dir)
{
	int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | extra;
	struct stat sb;
	int fd, err;

	if (st->opts->sync_open)
		flags |= O_SYNC;
	switch (disp) {
	case FILEIO_SUPERSEDE:
	case FILEIO_OVERWRITE_IF:
		flags |= O_CREAT | O_TRUNC;
		break;
	case FILEIO_OPEN:
		break;
	case FILEIO_CREATE:
		flags |= O_CREAT | O_EXCL;
		break;
	case FILEIO_OPEN_IF:
		flags |= O_CREAT;
		break;
	case FILEIO_OVERWRITE:
		flags |= O_TRUNC;
		break;
	default:
		return fileio_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	}

	/* --stat-check: no exclusive create of what a stat shows exists */
	if (st->opts->stat_check && disp == FILEIO_CREATE &&
	    fileio_fstatat(st, path, &sb, AT_SYMLINK_NOFOLLOW) == 0)
		return fileio_fail(call, NT_STATUS_OBJECT_NAME_COLLISION,
				   EEXIST);

	*is_dir = false;
	fd = fileio_openat(st, path, flags, 0644);
	if (fd >= 0) {
		if (flags & O_CREAT) {
			uint32_t status = fileio_synced(st, call, path);

			if (status != NT_STATUS_OK) {
				close(fd);
				return status;
			}
		}
		*fdp = fd;
		return NT_STATUS_OK;
	}

	err = errno;
	/* the filesystem refuses direct I/O (tmpfs before Linux 6.6, some
	 * network and FUSE filesystems) */
	if (err == EINVAL && (flags & O_DIRECT))
		return fileio_fail(call, NT_STATUS_NOT_SUPPORTED, err);
	switch (err) {
	case EISDIR:
		/*
		 * A directory opened without option 0x1 is fine for the
		 * dispositions that only open; 0x40 forbids it, and a
		 * directory cannot be truncated.
		 */
		if (non_dir || (disp != FILEIO_OPEN && disp != FILEIO_OPEN_IF))
			return fileio_fail(call, NT_STATUS_FILE_IS_A_DIRECTORY,
					   err);
		fd = fileio_openat(st, path,
				   O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					   O_CLOEXEC, 0);
		if (fd < 0)
			return fileio_path_errno(st, call, path, errno);
		*is_dir = true;
		*fdp = fd;
		return NT_STATUS_OK;
	case EEXIST:
		return fileio_fail(call, NT_STATUS_OBJECT_NAME_COLLISION, err);
	default:
		return fileio_found_errno(st, call, path, err, found);
	}
}

static uint32_t fileio_ntcreatex(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	const char *path = fileio_at_path(call->path[0]);
	int64_t options = call->arg[0];
	int64_t disp = call->arg[1];
	int32_t slot = call->op != NULL ? call->op->handle : -1;
	bool want_dir = (options & FILEIO_OPT_DIRECTORY) != 0;
	bool non_dir = (options & FILEIO_OPT_NON_DIRECTORY) != 0;
	bool is_dir = false;
	enum fileio_found found;
	struct stat sb;
	uint32_t status;
	int fd = -1, extra = 0;

	if (disp < FILEIO_SUPERSEDE || disp > FILEIO_OVERWRITE_IF ||
	    (want_dir && non_dir))
		return fileio_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (slot >= 0 && (uint32_t)slot >= st->nhandles)
		return fileio_bad_handle(call);

	found = fileio_lookup(st, path, &sb);
	if (want_dir) {
		status = fileio_open_dir(st, call, path, disp, found, &fd);
		is_dir = true;
	} else {
		if (options & FILEIO_OPT_WRITE_THROUGH)
			extra |= O_DSYNC;
		if (options & FILEIO_OPT_NO_BUFFERING)
			extra |= O_DIRECT;
		status = fileio_open_file(st, call, path, disp, found, non_dir,
					  extra,
					  &fd, &is_dir);
	}
	if (status != NT_STATUS_OK)
		return status;
	/* what the server answers an open with: size, times, attributes */
	if (fstat(fd, &sb) != 0) {
		int err = errno;

		close(fd);
		return fileio_errno(call, err);
	}

	if (st->opts->xattr && !is_dir) {
		status = fileio_xattr_fd_write(st, call, fd);
		if (status != NT_STATUS_OK) {
			close(fd);
			return status;
		}
	}

	if (slot < 0) {
		/* no slot to keep it in: the status is all that counts */
		close(fd);
		return NT_STATUS_OK;
	}
	/*
	 * A slot still open is replaced only now: a failed open allocates
	 * no handle on a server, and Debian's client.txt has failed opens
	 * naming a handle number that is still open and used afterwards.
	 */
	if (st->handles[slot].open)
		close(st->handles[slot].fd);
	else
		st->nopen++;
	if ((uint32_t)slot >= st->hwm)
		st->hwm = (uint32_t)slot + 1;
	st->handles[slot].fd = fd;
	st->handles[slot].is_dir = is_dir;
	st->handles[slot].open = true;
	st->handles[slot].direct = !is_dir && (extra & O_DIRECT) != 0;
	return NT_STATUS_OK;
}

/* ---- handle operations ---- */

static uint32_t fileio_close(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	struct fileio_handle *h = fileio_handle(st, call);
	int fd;

	if (h == NULL)
		return fileio_bad_handle(call);
	fd = h->fd;
	h->open = false;
	st->nopen--;
	/* the fd is gone whatever close() says; EINTR is not a failure */
	if (close(fd) != 0 && errno != EINTR)
		return fileio_errno(call, errno);
	return NT_STATUS_OK;
}

static uint32_t fileio_flush(void *state, struct op_call *call)
{
	struct fileio_handle *h = fileio_handle(state, call);

	if (h == NULL)
		return fileio_bad_handle(call);
	if (fsync(h->fd) != 0)
		return fileio_errno(call, errno);
	return NT_STATUS_OK;
}

/*
 * DropCache: write the file's dirty pages out, then ask the kernel to drop
 * its cached pages, so that the next read comes from the device.  Needs
 * no privilege and touches no other file.  The kernel may keep pages it
 * cannot drop (tmpfs keeps them all); that is not reported as a failure.
 */
static uint32_t fileio_dropcache(void *state, struct op_call *call)
{
	struct fileio_handle *h = fileio_handle(state, call);
	int err;

	if (h == NULL)
		return fileio_bad_handle(call);
	if (fdatasync(h->fd) != 0)
		return fileio_errno(call, errno);
	err = posix_fadvise(h->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err != 0)
		return fileio_errno(call, err);
	return NT_STATUS_OK;
}

/*
 * --one-byte-write-fix, as dbench 4.00 does it.  Windows clients extend a
 * file by writing one zero byte at its new end; Samba can turn that into a
 * truncate, which is much cheaper on some filesystems.  So: a 1-byte write
 * inside the file of the byte already there is skipped, and a 1-byte write
 * of a zero at or past the end becomes ftruncate(offset + 1), which leaves
 * the same contents.  (The original always wrote zeros; a non-zero byte
 * past the end cannot be a truncate and is written normally.)
 * Returns true when the write was handled here, with *status set.
 */
static bool fileio_one_byte_write(struct op_call *call, int fd, int64_t off,
				  uint32_t *status)
{
	struct stat sb;
	uint8_t old;

	if (fstat(fd, &sb) != 0)
		return false;
	if (sb.st_size > off) {
		if (pread(fd, &old, 1, off) == 1 && old == call->data[0]) {
			*status = NT_STATUS_OK;
			return true;
		}
		return false;
	}
	if (call->data[0] != 0)
		return false;
	if (ftruncate(fd, off + 1) != 0)
		*status = fileio_errno(call, errno);
	else
		*status = NT_STATUS_OK;
	return true;
}

/*
 * Make the direct I/O buffer hold at least want bytes (want <=
 * FILEIO_RBUF_MAX), aligned for O_DIRECT.  Returns 0 or -1 (no memory).
 */
static int fileio_dbuf(struct fileio_state *st, size_t want)
{
	void *p = NULL;

	if (st->dbuf_size >= want)
		return 0;
	if (posix_memalign(&p, FILEIO_DIO_ALIGN, want) != 0)
		return -1;
	free(st->dbuf);
	st->dbuf = p;
	st->dbuf_size = want;
	return 0;
}

/* WriteX on an O_DIRECT handle: the data goes through the aligned buffer. */
static uint32_t fileio_write_direct(struct fileio_state *st,
				    struct fileio_handle *h,
				    struct op_call *call, int64_t off,
				    int64_t size)
{
	int64_t done = 0;

	while (done < size) {
		size_t chunk = size - done > FILEIO_RBUF_MAX ?
			       FILEIO_RBUF_MAX : (size_t)(size - done);
		ssize_t n;

		if (fileio_dbuf(st, chunk) != 0)
			return fileio_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
		memcpy(st->dbuf, call->data + done, chunk);
		n = pwrite(h->fd, st->dbuf, chunk, off + done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fileio_errno(call, errno);
		}
		if (n == 0)
			return fileio_errno(call, EIO);
		done += n;
	}
	if (st->opts->fsync_writes && fsync(h->fd) != 0)
		return fileio_errno(call, errno);
	return NT_STATUS_OK;
}

static uint32_t fileio_writex(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	struct fileio_handle *h = fileio_handle(st, call);
	int64_t off = call->arg[0];
	int64_t size = call->arg[1];
	int64_t done = 0;
	uint32_t status;

	call->bytes = size > 0 ? (uint64_t)size : 0;
	if (h == NULL)
		return fileio_bad_handle(call);
	if (off < 0 || size < 0 || size > INT64_MAX - off)
		return fileio_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (st->opts->fake_io || size == 0)
		return NT_STATUS_OK;
	/* (pwrite would say EBADF: the fd is read-only) */
	if (h->is_dir)
		return fileio_fail(call, NT_STATUS_FILE_IS_A_DIRECTORY, EISDIR);
	if (call->data == NULL)
		return fileio_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);

	if (st->opts->one_byte_write_fix && size == 1 && !h->direct &&
	    fileio_one_byte_write(call, h->fd, off, &status))
		return status;
	if (h->direct)
		return fileio_write_direct(st, h, call, off, size);

	while (done < size) {
		size_t chunk = size - done > FILEIO_IO_MAX ?
			       FILEIO_IO_MAX : (size_t)(size - done);
		ssize_t n = pwrite(h->fd, call->data + done, chunk, off + done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fileio_errno(call, errno);
		}
		if (n == 0)	/* no progress and no reason given */
			return fileio_errno(call, EIO);
		done += n;
	}
	if (st->opts->fsync_writes && fsync(h->fd) != 0)
		return fileio_errno(call, errno);
	return NT_STATUS_OK;
}

/* Make the read buffer hold at least want bytes (want <= FILEIO_RBUF_MAX). */
static int fileio_rbuf(struct fileio_state *st, size_t want)
{
	uint8_t *p;

	if (st->rbuf_size >= want)
		return 0;
	p = talloc_realloc(st, st->rbuf, uint8_t, want);
	if (p == NULL)
		return -1;
	st->rbuf = p;
	st->rbuf_size = want;
	return 0;
}

static uint32_t fileio_readx(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	struct fileio_handle *h = fileio_handle(st, call);
	int64_t off = call->arg[0];
	int64_t size = call->arg[1];
	int64_t expected = call->arg[2];
	int64_t got = 0;

	call->bytes = size > 0 ? (uint64_t)size : 0;
	if (h == NULL)
		return fileio_bad_handle(call);
	if (off < 0 || size < 0 || size > INT64_MAX - off)
		return fileio_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (st->opts->fake_io)
		return NT_STATUS_OK;

	while (got < size) {
		size_t chunk = size - got > FILEIO_RBUF_MAX ?
			       FILEIO_RBUF_MAX : (size_t)(size - got);
		uint8_t *buf;
		ssize_t n;


		if ((h->direct ? fileio_dbuf(st, chunk) :
				 fileio_rbuf(st, chunk)) != 0)
			return fileio_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
		buf = h->direct ? st->dbuf : st->rbuf;
		n = pread(h->fd, buf, chunk, off + got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fileio_errno(call, errno);
		}
		if (n == 0)	/* end of file */
			break;
		got += n;
	}
	/* fewer bytes than the loadfile says came back: the file is short */
	if (got < expected)
		return fileio_fail(call, NT_STATUS_END_OF_FILE, 0);
	return NT_STATUS_OK;
}

static uint32_t fileio_qfileinfo(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	struct fileio_handle *h = fileio_handle(st, call);
	struct stat sb;

	if (h == NULL)
		return fileio_bad_handle(call);
	if (fstat(h->fd, &sb) != 0)
		return fileio_errno(call, errno);
	if (st->opts->xattr)
		return fileio_xattr_fd_read(call, h->fd);
	return NT_STATUS_OK;
}

static uint32_t fileio_sfileinfo(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	struct fileio_handle *h = fileio_handle(st, call);
	struct stat sb;
	uint32_t status;

	if (h == NULL)
		return fileio_bad_handle(call);
	/* the current attributes and times, which the server reads before
	 * it changes them (dbench 4.00 makes the same fstat) */
	if (fstat(h->fd, &sb) != 0)
		return fileio_errno(call, errno);
	if (st->opts->xattr) {
		status = fileio_xattr_fd_read(call, h->fd);
		if (status != NT_STATUS_OK)
			return status;
	}
	if (futimens(h->fd, NULL) != 0)
		return fileio_errno(call, errno);
	if (st->opts->xattr && !h->is_dir)
		return fileio_xattr_fd_write(st, call, h->fd);
	return NT_STATUS_OK;
}

/* LockX / UnlockX: an fcntl record lock on [offset, offset + size). */
static uint32_t fileio_lock(struct fileio_state *st, struct op_call *call,
			    short type)
{
	struct fileio_handle *h = fileio_handle(st, call);
	int64_t off = call->arg[0];
	int64_t size = call->arg[1];
	struct flock fl;

	if (h == NULL)
		return fileio_bad_handle(call);
	if (off < 0 || size < 0 || size > INT64_MAX - off)
		return fileio_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	/* an empty range locks nothing (to fcntl, length 0 means "to EOF") */
	if (size == 0)
		return NT_STATUS_OK;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = (off_t)off;
	fl.l_len = (off_t)size;
	if (fcntl(h->fd, F_SETLK, &fl) != 0) {
		if (type == F_WRLCK && (errno == EAGAIN || errno == EACCES))
			return fileio_fail(call, NT_STATUS_LOCK_NOT_GRANTED,
					   errno);
		return fileio_errno(call, errno);
	}
	return NT_STATUS_OK;
}

static uint32_t fileio_lockx(void *state, struct op_call *call)
{
	return fileio_lock(state, call, F_WRLCK);
}

static uint32_t fileio_unlockx(void *state, struct op_call *call)
{
	return fileio_lock(state, call, F_UNLCK);
}

/* ---- path operations ---- */

static uint32_t fileio_rename(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	const char *from = fileio_at_path(call->path[0]);
	const char *to = fileio_at_path(call->path[1]);
	enum fileio_found found;
	struct stat sb, tsb;
	uint32_t status;
	int err;

	found = fileio_lookup(st, from, &sb);
	err = errno;
	(void)fileio_lookup(st, to, &tsb);

	/* --stat-check: no rename of what the lookup shows is missing */
	if (st->opts->stat_check && found != FOUND_YES)
		return fileio_found_errno(st, call, from,
					  found == FOUND_CASE ? ENOENT : err,
					  found);

	if (fileio_renameat(st, from, to) != 0) {
		err = errno;
		if (err != ENOENT && err != ENOTDIR)
			return fileio_errno(call, err);
		/* the source is there: the target's directory is not */
		if (found == FOUND_YES)
			return fileio_no_path(call, err);
		return fileio_found_errno(st, call, from, err, found);
	}
	/* a directory moved: kept descriptors may name the wrong place */
	if (found != FOUND_YES || S_ISDIR(sb.st_mode))
		fileio_dircache_flush(st);

	status = fileio_synced(st, call, to);
	if (status != NT_STATUS_OK)
		return status;
	/* a move between directories changed the source's directory too */
	if (st->opts->sync_dirs) {
		const char *fs = strrchr(from, '/');
		const char *ts = strrchr(to, '/');
		size_t fl = fs != NULL ? (size_t)(fs - from) : 0;
		size_t tl = ts != NULL ? (size_t)(ts - to) : 0;

		if (fl != tl || strncmp(from, to, fl) != 0)
			return fileio_synced(st, call, from);
	}
	return NT_STATUS_OK;
}

static uint32_t fileio_unlink(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	const char *path = fileio_at_path(call->path[0]);
	enum fileio_found found;
	struct stat sb;
	int err;

	found = fileio_lookup(st, path, &sb);
	if (fileio_unlinkat(st, path, 0) != 0) {
		err = errno;
		if (err == EISDIR ||
		    (err == EPERM && found == FOUND_YES && S_ISDIR(sb.st_mode)))
			return fileio_fail(call, NT_STATUS_FILE_IS_A_DIRECTORY,
					   err);
		return fileio_found_errno(st, call, path, err, found);
	}
	return fileio_synced(st, call, path);
}

static uint32_t fileio_deltree(void *state, struct op_call *call)
{
	int r = fileio_remove_path(state, call->path[0]);

	return r != 0 ? fileio_errno(call, -r) : NT_STATUS_OK;
}

static uint32_t fileio_rmdir(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	const char *path = fileio_at_path(call->path[0]);
	enum fileio_found found;
	struct stat sb;
	int err;

	found = fileio_lookup(st, path, &sb);
	err = errno;
	/* --stat-check: no rmdir of what the lookup shows is not a directory */
	if (st->opts->stat_check) {
		if (found != FOUND_YES)
			return fileio_found_errno(
				st, call, path,
				found == FOUND_CASE ? ENOENT : err, found);
		if (!S_ISDIR(sb.st_mode))
			return fileio_fail(call, NT_STATUS_NOT_A_DIRECTORY,
					   ENOTDIR);
	}

	if (fileio_unlinkat(st, path, AT_REMOVEDIR) != 0) {
		err = errno;
		if (err == ENOTEMPTY || err == EEXIST)
			return fileio_fail(call, NT_STATUS_DIRECTORY_NOT_EMPTY,
					   err);
		if (err == ENOTDIR)
			return fileio_not_dir(st, call, path, err);
		return fileio_found_errno(st, call, path, err, found);
	}
	fileio_dircache_flush(st);	/* it may have been kept */
	return fileio_synced(st, call, path);
}

static uint32_t fileio_mkdir(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	const char *path = fileio_at_path(call->path[0]);
	enum fileio_found found;
	struct stat sb;
	int err;

	found = fileio_lookup(st, path, &sb);
	/* --stat-check: no mkdir of what the lookup shows exists */
	if (st->opts->stat_check && found == FOUND_YES) {
		err = EEXIST;
		goto exists;
	}

	if (fileio_mkdirat(st, path, 0755) == 0)
		return fileio_synced(st, call, path);
	err = errno;
	if (err == ENOENT || err == ENOTDIR)
		return fileio_no_path(call, err);
	if (err != EEXIST || (found != FOUND_YES &&
			      fileio_fstatat(st, path, &sb,
					     AT_SYMLINK_NOFOLLOW) != 0))
		return fileio_errno(call, err);

exists:
	/* a shared directory: another client made it already */
	if (fileio_shared(call, 0) && S_ISDIR(sb.st_mode))
		return NT_STATUS_OK;
	return fileio_fail(call, NT_STATUS_OBJECT_NAME_COLLISION, err);
}

static uint32_t fileio_qpathinfo(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	const char *path = fileio_at_path(call->path[0]);
	struct stat sb;

	switch (fileio_lookup(st, path, &sb)) {
	case FOUND_YES:
		if (st->opts->xattr)
			return fileio_xattr_path_read(st, call, path);
		return NT_STATUS_OK;
	case FOUND_CASE:
		return NT_STATUS_OK;
	case FOUND_NAME:
		return fileio_fail(call, NT_STATUS_OBJECT_NAME_NOT_FOUND,
				   ENOENT);
	case FOUND_NO_PATH:
		return fileio_no_path(call, errno);
	default:
		return fileio_path_errno(st, call, path, errno);
	}
}

static uint32_t fileio_qfsinfo(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	struct statvfs sv;

	if (fstatvfs(st->dirfd, &sv) != 0)
		return fileio_errno(call, errno);
	return NT_STATUS_OK;
}

static uint32_t fileio_find(void *state, struct op_call *call)
{
	struct fileio_state *st = state;
	const char *pattern = call->path[0] != NULL ? call->path[0] : "";
	const char *slash = strrchr(pattern, '/');
	const char *mask = slash != NULL ? slash + 1 : pattern;
	struct stat sb;
	uint64_t count = 0;
	uint32_t status;

	/*
	 * The name lookup first, as before any path operation; for a
	 * pattern with wildcards it cannot succeed (dbench 4.00 makes it
	 * anyway, so it is part of the same work).  Without a wildcard it
	 * is the whole answer, case-insensitive unless --no-resolve.
	 */
	enum fileio_found found = fileio_lookup(st, fileio_at_path(pattern),
						&sb);

	if (strpbrk(mask, FILEIO_WILDCARDS) == NULL) {
		if (found == FOUND_YES || found == FOUND_CASE) {
			call->result = 1;
			return NT_STATUS_OK;
		}
		return fileio_fail(call, NT_STATUS_NO_SUCH_FILE,
				   found == FOUND_NAME ? ENOENT : errno);
	}

	status = fileio_find_count(st, call, pattern, call->arg[1], &count);
	if (status != NT_STATUS_OK)
		return status;
	if (count == 0)
		return fileio_fail(call, NT_STATUS_NO_SUCH_FILE, ENOENT);
	call->result = (int64_t)count;
	return NT_STATUS_OK;
}

/* ---- backend hooks: target, descriptors, shared paths ---- */

/*
 * Descriptors one op opens for a moment beside the kept ones: a parent
 * or a directory being read, and the two of a component-by-component
 * walk where the kernel has no openat2.
 */
#define FILEIO_TRANSIENT_FDS	4

int fileio_target_check(void *mem_ctx, const struct dbench_options *o,
			const char *target, char **err)
{
	struct stat sb;

	(void)o;
	if (stat(target, &sb) != 0)
		*err = talloc_asprintf(mem_ctx, "directory '%s': %s", target,
				       strerror(errno));
	else if (!S_ISDIR(sb.st_mode))
		*err = talloc_asprintf(mem_ctx, "directory '%s': %s", target,
				       strerror(ENOTDIR));
	else if (access(target, W_OK | X_OK) != 0)
		*err = talloc_asprintf(mem_ctx,
				       "directory '%s' is not writable: %s",
				       target, strerror(errno));
	else
		return 0;
	return -1;
}

/*
 * The client directory, the kept directories (at most FILEIO_DIRCACHE,
 * one per distinct directory the loadfile names), every open handle and
 * what one op opens for a moment.
 */
static uint64_t fileio_client_fds(const struct dbench_options *o,
				  uint32_t max_open_handles, uint32_t max_dirs)
{
	uint32_t kept = max_dirs < FILEIO_DIRCACHE ? max_dirs : FILEIO_DIRCACHE;

	(void)o;
	return 1 + (uint64_t)kept + max_open_handles + FILEIO_TRANSIENT_FDS;
}

static int fileio_shared_note(void *mem_ctx, const struct dbench_options *o,
			      const char *target, const char *const *paths,
			      size_t n, bool *existed)
{
	(void)o;
	for (size_t i = 0; i < n; i++) {
		char *full = talloc_asprintf(mem_ctx, "%s/%s", target,
					     paths[i]);
		struct stat sb;

		existed[i] = full == NULL || lstat(full, &sb) == 0;
		talloc_free(full);
	}
	return 0;
}

static int fileio_shared_remove(void *mem_ctx, const struct dbench_options *o,
				const char *target, const char *const *paths,
				size_t n)
{
	int dfd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	(void)mem_ctx;
	(void)o;
	if (dfd < 0)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		const char *leaf;
		struct stat sb;
		int pfd;

		/* a symlink on the way (planted during the run) makes this
		 * fail: nothing behind it is removed */
		pfd = util_open_parent_nofollow(dfd, paths[i], &leaf);
		if (pfd < 0)
			continue;
		/* only what is empty now: never another's data */
		if (fstatat(pfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    unlinkat(pfd, leaf,
			     S_ISDIR(sb.st_mode) ? AT_REMOVEDIR : 0) != 0 &&
		    errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST &&
		    ret == 0)
			ret = -errno;
		close(pfd);
	}
	close(dfd);
	return ret;
}

const struct backend fileio_backend = {
	.abi = BACKEND_ABI,
	.name = "fileio",
	.description = "local filesystem through POSIX calls",
	.unavailable = NULL,
	.flags = BACKEND_LOCAL_FS,
	.target_check = fileio_target_check,
	.client_fds = fileio_client_fds,
	.shared_note = fileio_shared_note,
	.shared_remove = fileio_shared_remove,
	.setup = fileio_setup,
	.cleanup = fileio_cleanup,
	.ops = {
		[OP_NTCREATEX] = fileio_ntcreatex,
		[OP_CLOSE] = fileio_close,
		[OP_RENAME] = fileio_rename,
		[OP_UNLINK] = fileio_unlink,
		[OP_DELTREE] = fileio_deltree,
		[OP_RMDIR] = fileio_rmdir,
		[OP_MKDIR] = fileio_mkdir,
		[OP_QPATHINFO] = fileio_qpathinfo,
		[OP_QFILEINFO] = fileio_qfileinfo,
		[OP_QFSINFO] = fileio_qfsinfo,
		[OP_SFILEINFO] = fileio_sfileinfo,
		[OP_FIND] = fileio_find,
		[OP_WRITEX] = fileio_writex,
		[OP_READX] = fileio_readx,
		[OP_LOCKX] = fileio_lockx,
		[OP_UNLOCKX] = fileio_unlockx,
		[OP_FLUSH] = fileio_flush,
		[OP_DROPCACHE] = fileio_dropcache,
	},
};
