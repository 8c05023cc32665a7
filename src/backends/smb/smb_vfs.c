/*
 * smb_vfs.c - the smb backend's vfs: each call one libsmbclient call on
 * the share (URLs built per call), handles in a table of their own.  The
 * server matches and looks up names itself, so the vfs has
 * VFS_CASE_INSENSITIVE and VFS_SERVER_LOOKUP (no stat of ours before a
 * path op, no fstat after an open: each would be one more round trip,
 * and most of the client's CPU).  libsmbclient has no byte-range lock
 * and no flush call: LockX, UnlockX and Flush are answered locally
 * (README).
 *
 * Two memos save requests libsmbclient would repeat because it keeps the
 * server's answer to itself (tests/integration/smb_wire.sh counts them):
 * a failed open or stat reads ENOENT for both OBJECT_NAME_NOT_FOUND and
 * OBJECT_PATH_NOT_FOUND, so the layer above stats the parent to tell
 * them apart; when that stat follows at once and the parent is one of
 * the directories this connection's own recent answers proved (and it
 * has not removed or renamed since), it is answered here.  And the open
 * of the directory a mkdir has just made needs no stat to know it is one.
 * Another client removing such a directory meanwhile could make a
 * PATH_NOT_FOUND read as NAME_NOT_FOUND: dbench's clients each keep to
 * their own tree.  Built into the module only.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <talloc.h>
#include <unistd.h>

#include "smb_conn.h"
#include "vfs/vfs.h"

struct smb_file {
	SMBCFILE *f;		/* NULL: a directory handle, or free */
	char *path;		/* NULL: slot free */
	int flags;		/* the open's access and O_* flags */
	bool gone;		/* unlinked while open (smb_unlink_open) */
};

/* How many directories the memo of proven ones holds (a ring). */
#define SMB_KNOWN_DIRS 16

struct smb_vfs {
	struct vfs vfs;		/* first: the vfs is the talloc object */
	uint64_t seq;		/* calls so far: a memo is for the next one */
	char *known[SMB_KNOWN_DIRS];	/* directories the server showed */
	unsigned known_next;
	char *missing;		/* the path of the last call's ENOENT */
	char *made;		/* the directory the last call made */
	uint64_t memo_seq;	/* the call missing or made is of */
	SMBCCTX **pctx;
	char *base;		/* smb://SERVER[:PORT]/SHARE */
	char *url[2];		/* built per call */
	size_t url_len[2];
	struct smb_file *files;
	size_t nfiles;
	SMBCFILE *root;		/* the share's root, open for QFSINFO */
	SMBCCTX *root_ctx;	/* the context root was opened in */
};

#define SMB_CTX(sv) (*(sv)->pctx)

/* Every vfs call starts here: the memos of the call before are now one
 * call old. */
#define SMB_ENTER(vfs) ((struct smb_vfs *)(vfs))->seq++

/* The directory part of path[0..len): its length (0: none). */
static size_t smb_dir_len(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? (size_t)(s - path) : 0;
}

/* Is dir[0..len) a directory the memo holds? */
static bool smb_known(const struct smb_vfs *sv, const char *dir, size_t len)
{
	for (unsigned i = 0; i < SMB_KNOWN_DIRS; i++)
		if (sv->known[i] != NULL && strlen(sv->known[i]) == len &&
		    strncasecmp(sv->known[i], dir, len) == 0)
			return true;
	return false;
}

/* The server showed dir[0..len) is a directory: remember it. */
static void smb_learn(struct smb_vfs *sv, const char *dir, size_t len)
{
	unsigned k = sv->known_next;

	if (len == 0 || smb_known(sv, dir, len))
		return;
	talloc_free(sv->known[k]);
	sv->known[k] = talloc_strndup(sv, dir, len);
	sv->known_next = (k + 1) % SMB_KNOWN_DIRS;
}

/* path is gone or moved (rmdir, rename): forget it and what is under it. */
static void smb_forget(struct smb_vfs *sv, const char *path)
{
	size_t len = strlen(path);

	for (unsigned i = 0; i < SMB_KNOWN_DIRS; i++)
		if (sv->known[i] != NULL &&
		    strncasecmp(sv->known[i], path, len) == 0 &&
		    (sv->known[i][len] == '\0' || sv->known[i][len] == '/'))
			TALLOC_FREE(sv->known[i]);
}

/* A path call's result r: learn its directory, or note its ENOENT. */
static int smb_noted(struct smb_vfs *sv, const char *path, int r)
{
	TALLOC_FREE(sv->missing);
	TALLOC_FREE(sv->made);
	if (r >= 0) {
		smb_learn(sv, path, smb_dir_len(path));
	} else if (r == -ENOENT) {
		smb_forget(sv, path);
		sv->missing = talloc_strdup(sv, path);
		sv->memo_seq = sv->seq;
	}
	return r;
}

/* Is path the parent of the path the call just before found missing,
 * and a directory the memo holds? */
static bool smb_parent_known(struct smb_vfs *sv, const char *path)
{
	size_t len;

	if (sv->missing == NULL || sv->memo_seq + 1 != sv->seq)
		return false;
	len = smb_dir_len(sv->missing);
	return len == strlen(path) && strncasecmp(path, sv->missing, len) == 0 &&
	       smb_known(sv, path, len);
}

/*
 * The URL of path[0..len) in buffer k; '%' and '?' are escaped (URL
 * syntax); "." or "" is the share's root.  NULL when out of memory.
 */
static const char *smb_url(struct smb_vfs *sv, int k, const char *path,
			   size_t len)
{
	size_t blen = strlen(sv->base), need = blen + 2 + 3 * len, o;

	if (need > sv->url_len[k]) {
		char *n = talloc_realloc(sv, sv->url[k], char, need);

		if (n == NULL)
			return NULL;
		sv->url[k] = n;
		sv->url_len[k] = need;
	}
	memcpy(sv->url[k], sv->base, blen);
	o = blen;
	sv->url[k][o++] = '/';
	if (!(len == 1 && path[0] == '.')) {
		for (size_t i = 0; i < len; i++) {
			if (path[i] == '%' || path[i] == '?') {
				o += (size_t)sprintf(&sv->url[k][o], "%%%02X",
						     (unsigned char)path[i]);
			} else {
				sv->url[k][o++] = path[i];
			}
		}
	}
	sv->url[k][o] = '\0';
	return sv->url[k];
}

#define SMB_URL(sv, k, p) smb_url((sv), (k), (p), strlen(p))

/* -errno of the libsmbclient call that just failed. */
static int smb_err(void)
{
	return errno != 0 ? -errno : -EIO;
}

static struct smb_file *smb_file(struct smb_vfs *sv, int fh)
{
	if (fh < 0 || (size_t)fh >= sv->nfiles || sv->files[fh].path == NULL)
		return NULL;
	return &sv->files[fh];
}

/* A free handle slot (growing the table), or -ENOMEM. */
static int smb_new_handle(struct smb_vfs *sv, const char *path, SMBCFILE *f)
{
	size_t i;

	for (i = 0; i < sv->nfiles && sv->files[i].path != NULL; i++)
		;
	if (i == sv->nfiles) {
		size_t n = sv->nfiles ? 2 * sv->nfiles : 16;
		struct smb_file *t = talloc_realloc(sv, sv->files,
						    struct smb_file, n);

		if (t == NULL)
			return -ENOMEM;
		memset(&t[sv->nfiles], 0, (n - sv->nfiles) * sizeof(*t));
		sv->files = t;
		sv->nfiles = n;
	}
	sv->files[i].path = talloc_strdup(sv, path);
	if (sv->files[i].path == NULL)
		return -ENOMEM;
	sv->files[i].f = f;
	return (int)i;
}

/* stat, without the memos (a call of its own, or part of one). */
static int smb_stat_call(struct smb_vfs *sv, const char *path,
			 struct stat *sb)
{
	const char *u = SMB_URL(sv, 0, path);
	int r;

	if (u == NULL)
		return -ENOMEM;
	errno = 0;
	r = smbc_getFunctionStat(SMB_CTX(sv))(SMB_CTX(sv), u, sb) == 0 ?
		    0 : smb_err();
	if (r == 0 && S_ISDIR(sb->st_mode))
		smb_learn(sv, path, strlen(path));
	return smb_noted(sv, path, r);
}

static int smb_stat(struct vfs *vfs, const char *path, struct stat *sb)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;

	SMB_ENTER(vfs);
	if (smb_parent_known(sv, path)) {
		TALLOC_FREE(sv->missing);
		*sb = (struct stat){ .st_mode = S_IFDIR | 0755, .st_nlink = 2 };
		return 0;
	}
	return smb_stat_call(sv, path, sb);
}

static int smb_open(struct vfs *vfs, const char *path, int flags, mode_t mode)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	const char *u;
	SMBCFILE *f;
	int fh;

	SMB_ENTER(vfs);
	if (flags & O_DIRECTORY) {
		struct stat sb;
		int r = 0;

		/* the directory the call before made is one */
		if (sv->made == NULL || sv->memo_seq + 1 != sv->seq ||
		    strcasecmp(sv->made, path) != 0)
			r = smb_stat_call(sv, path, &sb);
		else
			sb.st_mode = S_IFDIR;
		TALLOC_FREE(sv->made);
		if (r != 0)
			return r;
		if (!S_ISDIR(sb.st_mode))
			return -ENOTDIR;
		return smb_new_handle(sv, path, NULL);
	}
	u = SMB_URL(sv, 0, path);
	if (u == NULL)
		return -ENOMEM;
	errno = 0;
	f = smbc_getFunctionOpen(SMB_CTX(sv))(
		SMB_CTX(sv), u,
		flags & (O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC), mode);
	fh = smb_noted(sv, path, f == NULL ? smb_err() : 0);
	if (fh != 0)
		return fh;
	fh = smb_new_handle(sv, path, f);
	if (fh < 0)
		smbc_getFunctionClose(SMB_CTX(sv))(SMB_CTX(sv), f);
	else
		sv->files[fh].flags = flags & O_ACCMODE;
	return fh;
}

static int smb_close(struct vfs *vfs, int fh)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);
	int r = 0;

	SMB_ENTER(vfs);
	if (sf == NULL)
		return -EBADF;
	errno = 0;
	if (sf->f != NULL &&
	    smbc_getFunctionClose(SMB_CTX(sv))(SMB_CTX(sv), sf->f) != 0)
		r = smb_err();
	TALLOC_FREE(sf->path);
	sf->f = NULL;
	sf->gone = false;
	return r;
}

static int smb_fstat(struct vfs *vfs, int fh, struct stat *sb)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);

	SMB_ENTER(vfs);
	if (sf == NULL)
		return -EBADF;
	if (sf->gone) {
		*sb = (struct stat){ .st_mode = S_IFREG | 0644, .st_nlink = 0 };
		return 0;
	}
	if (sf->f == NULL)
		return smb_stat_call(sv, sf->path, sb);
	errno = 0;
	return smbc_getFunctionFstat(SMB_CTX(sv))(SMB_CTX(sv), sf->f, sb) ==
			       0 ?
		       0 :
		       smb_err();
}

/* One path call of libsmbclient: which is SMB_MKDIR, SMB_RMDIR or
 * SMB_UNLINK. */
enum smb_path_call { SMB_MKDIR, SMB_RMDIR, SMB_UNLINK };

static int smb_path_call(struct vfs *vfs, const char *path,
			 enum smb_path_call which)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	SMBCCTX *ctx = SMB_CTX(sv);
	const char *u = SMB_URL(sv, 0, path);
	int r;

	if (u == NULL)
		return -ENOMEM;
	errno = 0;
	switch (which) {
	case SMB_MKDIR:
		r = smbc_getFunctionMkdir(ctx)(ctx, u, 0755);
		break;
	case SMB_RMDIR:
		r = smbc_getFunctionRmdir(ctx)(ctx, u);
		break;
	default:
		r = smbc_getFunctionUnlink(ctx)(ctx, u);
		break;
	}
	r = smb_noted(sv, path, r == 0 ? 0 : smb_err());
	if (r == 0 && which == SMB_MKDIR) {
		smb_learn(sv, path, strlen(path));
		sv->made = talloc_strdup(sv, path);
		sv->memo_seq = sv->seq;
	} else if (r == 0 && which == SMB_RMDIR) {
		smb_forget(sv, path);
	}
	return r;
}

static int smb_mkdir(struct vfs *vfs, const char *path, mode_t mode)
{
	(void)mode;
	SMB_ENTER(vfs);
	return smb_path_call(vfs, path, SMB_MKDIR);
}

static int smb_rmdir(struct vfs *vfs, const char *path)
{
	SMB_ENTER(vfs);
	return smb_path_call(vfs, path, SMB_RMDIR);
}

/*
 * The server refuses to delete a file this client holds open (see
 * smb_rename_open); POSIX and a Windows client's delete-pending allow it.
 * Then: close this client's handles on path, unlink, and let the handles
 * live on detached (reads find nothing, writes vanish) until closed.
 */
static int smb_unlink_open(struct smb_vfs *sv, const char *path)
{
	SMBCCTX *ctx = SMB_CTX(sv);
	int held = 0;

	for (size_t i = 0; i < sv->nfiles; i++) {
		struct smb_file *sf = &sv->files[i];

		if (sf->f == NULL || strcasecmp(sf->path, path) != 0)
			continue;
		smbc_getFunctionClose(ctx)(ctx, sf->f);
		sf->f = NULL;
		sf->gone = true;
		held++;
	}
	return held == 0 ? -EBUSY : smb_path_call(&sv->vfs, path, SMB_UNLINK);
}

static int smb_unlink(struct vfs *vfs, const char *path)
{
	int r;

	SMB_ENTER(vfs);
	r = smb_path_call(vfs, path, SMB_UNLINK);

	if (r == -EBUSY || r == -EACCES)
		r = smb_unlink_open((struct smb_vfs *)vfs, path) == 0 ? 0 : r;
	return r;
}

static int smb_rename_call(struct smb_vfs *sv, const char *from,
			   const char *to)
{
	const char *u0 = SMB_URL(sv, 0, from), *u1 = SMB_URL(sv, 1, to);

	if (u0 == NULL || u1 == NULL)
		return -ENOMEM;
	errno = 0;
	if (smbc_getFunctionRename(SMB_CTX(sv))(SMB_CTX(sv), u0, SMB_CTX(sv),
						u1) != 0)
		return smb_noted(sv, from, smb_err());
	smb_forget(sv, from);
	return smb_noted(sv, to, 0);
}

/*
 * libsmbclient opens without FILE_SHARE_DELETE, so the server refuses to
 * rename a file this client holds open (a Windows client's opens allow
 * it).  Then: close this client's handles on from, rename, open them
 * again on to (README: differences).
 */
static int smb_rename_open(struct smb_vfs *sv, const char *from,
			   const char *to)
{
	SMBCCTX *ctx = SMB_CTX(sv);
	int r, held = 0;

	for (size_t i = 0; i < sv->nfiles; i++) {
		struct smb_file *sf = &sv->files[i];

		if (sf->f == NULL || strcasecmp(sf->path, from) != 0)
			continue;
		smbc_getFunctionClose(ctx)(ctx, sf->f);
		sf->f = NULL;
		held++;
	}
	if (held == 0)
		return -EBUSY;
	r = smb_rename_call(sv, from, to);
	for (size_t i = 0; i < sv->nfiles; i++) {
		struct smb_file *sf = &sv->files[i];
		const char *u;

		if (sf->path == NULL || sf->f != NULL ||
		    strcasecmp(sf->path, from) != 0)
			continue;
		if (r == 0 && talloc_free(sf->path) == 0)
			sf->path = talloc_strdup(sv, to);
		u = sf->path != NULL ? SMB_URL(sv, 0, sf->path) : NULL;
		sf->f = u != NULL ? smbc_getFunctionOpen(ctx)(ctx, u, sf->flags,
							      0) : NULL;
		if (sf->f == NULL && r == 0)
			r = smb_err();
	}
	return r;
}

static int smb_rename(struct vfs *vfs, const char *from, const char *to,
		      unsigned flags)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	int r;

	(void)flags;
	SMB_ENTER(vfs);
	r = smb_rename_call(sv, from, to);
	if (r == -EBUSY || r == -EACCES)
		r = smb_rename_open(sv, from, to) == 0 ? 0 : r;
	return r;
}

static int smb_opendir(struct vfs *vfs, const char *path, size_t len,
		       struct vfs_dir *d)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	const char *u = len == 0 ? smb_url(sv, 0, ".", 1) :
				   smb_url(sv, 0, path, len);
	SMBCFILE *dir;

	if (u == NULL)
		return -ENOMEM;
	SMB_ENTER(vfs);
	errno = 0;
	dir = smbc_getFunctionOpendir(SMB_CTX(sv))(SMB_CTX(sv), u);
	TALLOC_FREE(sv->missing);
	if (dir == NULL)
		return smb_err();
	smb_learn(sv, path, len);
	*d = (struct vfs_dir){ .p = dir };
	return 0;
}

static int smb_readdir(struct vfs *vfs, struct vfs_dir *d, const char **name)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smbc_dirent *e;

	SMB_ENTER(vfs);
	errno = 0;
	e = smbc_getFunctionReaddir(SMB_CTX(sv))(SMB_CTX(sv), d->p);
	if (e == NULL)
		return errno != 0 ? -errno : 0;
	*name = e->name;
	return 1;
}

static void smb_closedir(struct vfs *vfs, struct vfs_dir *d)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;

	SMB_ENTER(vfs);
	if (d->p != NULL)
		smbc_getFunctionClosedir(SMB_CTX(sv))(SMB_CTX(sv), d->p);
	d->p = NULL;
}

/* Position the file at off (a local operation in libsmbclient). */
static int smb_seek(struct smb_vfs *sv, struct smb_file *sf, off_t off)
{
	errno = 0;
	return smbc_getFunctionLseek(SMB_CTX(sv))(SMB_CTX(sv), sf->f, off,
						  SEEK_SET) == off ?
		       0 : smb_err();
}

static ssize_t smb_pread(struct vfs *vfs, int fh, void *buf, size_t n,
			 off_t off)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);
	ssize_t r;

	SMB_ENTER(vfs);
	if (sf != NULL && sf->gone)
		return 0;
	if (sf == NULL || sf->f == NULL)
		return sf == NULL ? -EBADF : -EISDIR;
	if ((r = smb_seek(sv, sf, off)) != 0)
		return r;
	r = smbc_getFunctionRead(SMB_CTX(sv))(SMB_CTX(sv), sf->f, buf, n);
	return r >= 0 ? r : smb_err();
}

static ssize_t smb_pwrite(struct vfs *vfs, int fh, const void *buf, size_t n,
			  off_t off)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);
	ssize_t r;

	SMB_ENTER(vfs);
	if (sf != NULL && sf->gone)
		return (ssize_t)n;
	if (sf == NULL || sf->f == NULL)
		return sf == NULL ? -EBADF : -EISDIR;
	if ((r = smb_seek(sv, sf, off)) != 0)
		return r;
	r = smbc_getFunctionWrite(SMB_CTX(sv))(SMB_CTX(sv), sf->f, buf, n);
	return r >= 0 ? r : smb_err();
}

/* libsmbclient sends no flush: the server has the data once a write is
 * answered (README: differences). */
static int smb_fsync(struct vfs *vfs, int fh)
{
	SMB_ENTER(vfs);
	return smb_file((struct smb_vfs *)vfs, fh) != NULL ? 0 : -EBADF;
}

static int smb_ftruncate(struct vfs *vfs, int fh, off_t size)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);

	SMB_ENTER(vfs);
	if (sf != NULL && sf->gone)
		return 0;
	if (sf == NULL || sf->f == NULL)
		return sf == NULL ? -EBADF : -EISDIR;
	errno = 0;
	return smbc_getFunctionFtruncate(SMB_CTX(sv))(SMB_CTX(sv), sf->f,
						      size) == 0 ?
		       0 : smb_err();
}

/* libsmbclient has no byte-range lock call: granted locally. */
static int smb_lock(struct vfs *vfs, int fh, off_t off, off_t len)
{
	SMB_ENTER(vfs);
	(void)off;
	(void)len;
	return smb_file((struct smb_vfs *)vfs, fh) != NULL ? 0 : -EBADF;
}

/*
 * libsmbclient's statvfs of a path is a stat, a listing of the directory
 * and the query on it: the query on a handle of the share's root, opened
 * once, is the query alone.  When that fails (a connection made again
 * since), the path's way.
 */
static int smb_statfs(struct vfs *vfs)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	SMBCCTX *ctx = SMB_CTX(sv);
	const char *u = smb_url(sv, 0, ".", 1);
	struct statvfs st;

	SMB_ENTER(vfs);
	if (u == NULL)
		return -ENOMEM;
	if (sv->root == NULL || sv->root_ctx != ctx) {
		sv->root = smbc_getFunctionOpendir(ctx)(ctx, u);
		sv->root_ctx = ctx;
	}
	if (sv->root != NULL &&
	    smbc_getFunctionFstatVFS(ctx)(ctx, sv->root, &st) == 0)
		return 0;
	if (sv->root != NULL)
		smbc_getFunctionClosedir(ctx)(ctx, sv->root);
	sv->root = NULL;
	errno = 0;
	return smbc_getFunctionStatVFS(ctx)(ctx, (char *)u, &st) == 0 ?
		       0 : smb_err();
}

static int smb_set_times(struct vfs *vfs, int fh)
{
	struct smb_vfs *sv = (struct smb_vfs *)vfs;
	struct smb_file *sf = smb_file(sv, fh);
	const char *u;

	SMB_ENTER(vfs);
	if (sf == NULL)
		return -EBADF;
	if (sf->gone)
		return 0;
	if ((u = SMB_URL(sv, 0, sf->path)) == NULL)
		return -ENOMEM;
	errno = 0;
	return smbc_getFunctionUtimes(SMB_CTX(sv))(SMB_CTX(sv), u, NULL) ==
			       0 ?
		       0 : smb_err();
}

static const struct vfs_ops smb_vfs_ops = {
	.open = smb_open,
	.close = smb_close,
	.stat = smb_stat,
	.fstat = smb_fstat,
	.mkdir = smb_mkdir,
	.rmdir = smb_rmdir,
	.unlink = smb_unlink,
	.rename = smb_rename,
	.opendir = smb_opendir,
	.readdir = smb_readdir,
	.closedir = smb_closedir,
	.pread = smb_pread,
	.pwrite = smb_pwrite,
	.fsync = smb_fsync,
	.ftruncate = smb_ftruncate,
	.lock = smb_lock,
	.unlock = smb_lock,
	.statfs = smb_statfs,
	.set_times = smb_set_times,
};

/* Close what is still open before the context goes. */
static int smb_vfs_destroy(struct smb_vfs *sv)
{
	for (size_t i = 0; i < sv->nfiles; i++)
		if (sv->files[i].f != NULL)
			smbc_getFunctionClose(SMB_CTX(sv))(SMB_CTX(sv),
							   sv->files[i].f);
	if (sv->root != NULL && sv->root_ctx == SMB_CTX(sv))
		smbc_getFunctionClosedir(SMB_CTX(sv))(SMB_CTX(sv), sv->root);
	return 0;
}

struct vfs *smb_vfs_new(void *mem, const struct smb_opts *so, char **err)
{
	struct smb_vfs *sv = talloc_zero(mem, struct smb_vfs);
	int e = ENOMEM;

	if (sv == NULL || (sv->base = smb_base_url(sv, so)) == NULL)
		goto fail;
	sv->vfs.ops = &smb_vfs_ops;
	sv->vfs.caps = VFS_CASE_INSENSITIVE | VFS_SERVER_LOOKUP;
	sv->pctx = smb_context_new(sv, so, &e);
	if (sv->pctx == NULL) {
		e = -e;
		goto fail;
	}
	if ((e = smb_connect(SMB_CTX(sv), sv->base)) != 0)
		goto fail;
	talloc_set_destructor(sv, smb_vfs_destroy);
	return &sv->vfs;
fail:
	*err = smb_connect_message(mem, so, e,
				   sv != NULL && sv->pctx != NULL);
	talloc_free(sv);
	return NULL;
}
