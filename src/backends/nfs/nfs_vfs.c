/*
 * nfs_vfs.c - the nfs backend's vfs: a client's mount through libnfs's
 * synchronous API, its handles, and the vfs ops nbvfs calls to replay
 * client.txt over it (nfs.c says what the backend does with it).
 *
 * A lost connection is reported as its errno (a transport fault); the
 * context is then abandoned, not destroyed, and the next op mounts again
 * (nfsv_remount).  Removals check that no directory on the way is a
 * symlink (libnfs resolves paths and would follow one); Deltree and the
 * cleanup remove a tree by single calls on the handles met (nfs_raw.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <talloc.h>
#include <unistd.h>

#include "nfs_status.h"
#include "nfs_vfs.h"
#include "util/util.h"

/* ---- mounting ---- */

/* What a failed mount's libnfs message most likely means. */
static const char *nfs_mount_hint(const char *why)
{
	if (strstr(why, "MNT3ERR_ACCES") != NULL ||
	    strstr(why, "MNT3ERR_NOENT") != NULL)
		return " (the export does not exist or does not allow this "
		       "client)";
	if (strstr(why, "nfs_service") != NULL ||
	    strstr(why, "connect") != NULL || strstr(why, "portmap") != NULL)
		return " (no answer: the server is down or unreachable, or "
		       "its portmapper (rpcbind) or mountd is not running)";
	return "";
}

/* A mount in flight (nfs_mount_within). */
struct nfs_mount_wait {
	bool done;
	int status;
};

static void nfs_mount_cb(int status, struct nfs_context *ctx, void *data,
			 void *private_data)
{
	struct nfs_mount_wait *w = private_data;

	(void)ctx;
	(void)data;
	w->done = true;
	w->status = status;
}

/*
 * nfs_mount() within NFS_CONNECT_TIMEOUT_S: libnfs's own timeout covers
 * its calls but not a connection the server never accepts (a SYN without
 * an answer waits for the kernel's two minutes).  0, -ETIMEDOUT,
 * -ENOTCONN (the connection failed), or -1 (libnfs's error says why).  w lives in the caller, who destroys ctx
 * (which completes the mount, cancelled) before w goes.
 */
static int nfs_mount_within(struct nfs_context *ctx, const char *server,
			    const char *path, struct nfs_mount_wait *w)
{
	uint64_t end = now_ns() + NFS_CONNECT_TIMEOUT_S * 1000000000ull;

	if (nfs_mount_async(ctx, server, path, nfs_mount_cb, w) != 0)
		return -1;
	while (!w->done) {
		struct pollfd p = { .fd = nfs_get_fd(ctx),
				    .events = (short)nfs_which_events(ctx) };
		int r = poll(&p, 1, 100);

		if (r < 0 && errno != EINTR)
			return -1;
		if (nfs_service(ctx, r > 0 ? p.revents : 0) < 0)
			return -ENOTCONN;
		if (!w->done && now_ns() > end)
			return -ETIMEDOUT;
	}
	return w->status == 0 ? 0 : -1;
}

struct nfs_context *nfs_connect(void *mem_ctx, const char *url, char **err)
{
	struct nfs_mount_wait w = { .done = false };
	struct nfs_context *ctx = nfs_init_context();
	struct addrinfo *ai = NULL;
	struct nfs_url *u;
	int gai = 0, r = 0;

	if (ctx == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: cannot make an NFS "
				       "context (out of memory)", url);
		return NULL;
	}
	u = nfs_parse_url_dir(ctx, url);
	if (u == NULL) {
		const char *why = r == -ENOTCONN ? "nfs_service failed" :
				  nfs_get_error(ctx);

		*err = talloc_asprintf(mem_ctx, "--nfs: '%s' is not a usable "
				       "NFS URL: %s", url,
				       why != NULL ? why : "no reason given");
		nfs_destroy_context(ctx);
		return NULL;
	}
	nfs_set_autoreconnect(ctx, 0);
	nfs_set_timeout(ctx, NFS_CONNECT_TIMEOUT_S * 1000);
	/* libnfs 4.0 crashes on a server name it cannot resolve */
	if (u->server == NULL || u->path == NULL ||
	    (gai = getaddrinfo(u->server, NULL, NULL, &ai)) != 0) {
		*err = talloc_asprintf(mem_ctx, "cannot mount %s: %s%s", url,
				       u->server == NULL || u->path == NULL ?
				       "no server or export in the URL" :
				       "cannot resolve the server name: ",
				       u->server == NULL || u->path == NULL ?
				       "" : gai_strerror(gai));
		nfs_destroy_url(u);
		nfs_destroy_context(ctx);
		return NULL;
	}
	freeaddrinfo(ai);
	if ((r = nfs_mount_within(ctx, u->server, u->path, &w)) != 0) {
		const char *why = r == -ENOTCONN ? "nfs_service failed" :
				  nfs_get_error(ctx);

		if (why == NULL)
			why = "no reason given";
		if (r == -ETIMEDOUT || strstr(why, "timed out") != NULL)
			*err = talloc_asprintf(mem_ctx, "cannot mount %s: "
					       "server %s sent no reply within "
					       "%d s", url, u->server,
					       NFS_CONNECT_TIMEOUT_S);
		else
			*err = talloc_asprintf(mem_ctx, "cannot mount %s: "
					       "%s%s", url, why,
					       nfs_mount_hint(why));
		nfs_destroy_url(u);
		nfs_destroy_context(ctx);
		return NULL;
	}
	nfs_destroy_url(u);
	/* the run's calls: the longer bound (the stall watch ends a client
	 * that waits too long) */
	nfs_set_timeout(ctx, NFS_TIMEOUT_MS);
	return ctx;
}

/* Drop every libnfs object of m and its context. */
static void nfsv_disconnect(struct nfsv *m)
{
	if (m->ctx == NULL)
		return;
	for (size_t i = 0; i < m->nh; i++) {
		if (m->h[i].fh != NULL)
			nfs_close(m->ctx, m->h[i].fh);
		m->h[i].fh = NULL;
	}
	for (unsigned i = 0; i < NFS_FH_CACHE; i++) {
		if (m->cache[i].path != NULL)
			nfs_close(m->ctx, m->cache[i].fh);
		TALLOC_FREE(m->cache[i].path);
	}
	TALLOC_FREE(m->nlm);
	nfs_destroy_context(m->ctx);
	m->ctx = NULL;
}

int nfsv_remount(struct nfsv *m)
{
	uint64_t now;
	char *err = NULL;

	if (m->ctx != NULL)
		return 0;
	now = now_ns();
	if (m->remounts >= NFS_MAX_REMOUNTS ||
	    (m->last_try_ns != 0 && now - m->last_try_ns < NFS_REMOUNT_GAP_NS))
		return -ENOTCONN;
	m->remounts++;
	m->last_try_ns = now;
	m->ctx = nfs_connect(m, m->url, &err);
	if (m->ctx != NULL && m->want_nlm && m->nlm == NULL)
		m->nlm = nfs_nlm_new(m, m->url, m->client,
				     NFS_CONNECT_TIMEOUT_S * 1000, &err);
	if (m->nlm != NULL)
		nfs_nlm_set_timeout(m->nlm, NFS_TIMEOUT_MS);
	talloc_free(err);
	return m->ctx != NULL ? 0 : -ENOTCONN;
}

/*
 * The libnfs objects of abandoned contexts (see nfsv_abandon), kept
 * reachable for the life of the process: they are never used or freed
 * again, and a leak checker must not count them as lost.  Per process,
 * at most (NFS_MAX_REMOUNTS + 1) contexts per client with their handles.
 */
static void **nfs_kept;
static size_t nfs_nkept;

static void nfs_keep(void *p)
{
	void **v;

	if (p == NULL)
		return;
	v = realloc(nfs_kept, (nfs_nkept + 1) * sizeof(*v));
	if (v == NULL)
		return;
	nfs_kept = v;
	nfs_kept[nfs_nkept++] = p;
}

/*
 * Let go of a context whose connection failed, without a call on it: a
 * synchronous call that failed half-way (a large read split into several
 * RPCs) leaves requests queued whose completion data lived on its stack,
 * and destroying the context would complete them.  The context and its
 * file handles stay allocated (nfs_keep).
 */
void nfsv_abandon(struct nfsv *m)
{
	for (size_t i = 0; i < m->nh; i++) {
		nfs_keep(m->h[i].fh);
		m->h[i].fh = NULL;
	}
	for (unsigned i = 0; i < NFS_FH_CACHE; i++) {
		if (m->cache[i].path != NULL)
			nfs_keep(m->cache[i].fh);
		TALLOC_FREE(m->cache[i].path);
	}
	nfs_keep(m->ctx);
	m->ctx = NULL;
	nfs_raw_forget(m->raw);
	TALLOC_FREE(m->nlm);	/* its calls completed or were given up */
}

/* ---- the vfs ---- */

static void nfs_fill_stat(const struct nfs_stat_64 *ns, struct stat *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->st_dev = (dev_t)ns->nfs_dev;
	sb->st_ino = (ino_t)ns->nfs_ino;
	sb->st_mode = (mode_t)ns->nfs_mode;
	sb->st_nlink = (nlink_t)ns->nfs_nlink;
	sb->st_uid = (uid_t)ns->nfs_uid;
	sb->st_gid = (gid_t)ns->nfs_gid;
	sb->st_size = (off_t)ns->nfs_size;
	sb->st_blocks = (blkcnt_t)ns->nfs_blocks;
	sb->st_atim.tv_sec = (time_t)ns->nfs_atime;
	sb->st_atim.tv_nsec = (long)ns->nfs_atime_nsec;
	sb->st_mtim.tv_sec = (time_t)ns->nfs_mtime;
	sb->st_mtim.tv_nsec = (long)ns->nfs_mtime_nsec;
	sb->st_ctim.tv_sec = (time_t)ns->nfs_ctime;
	sb->st_ctim.tv_nsec = (long)ns->nfs_ctime_nsec;
}

static int nfsv_stat(struct vfs *vfs, const char *path, struct stat *sb)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_stat_64 ns;
	const char *p;
	int r;

	if ((r = nfsv_ready(m)) < 0)
		return r;
	if ((p = nfsv_path(m, 0, path)) == NULL)
		return -ENOMEM;
	r = nfsv_ret(m, nfs_lstat64(m->ctx, p, &ns));
	if (r == 0)
		nfs_fill_stat(&ns, sb);
	return r;
}

int nfsv_parents_plain(struct nfsv *m, const char *path)
{
	const char *slash = path;
	struct nfs_stat_64 ns;

	while ((slash = strchr(slash, '/')) != NULL) {
		const char *p = nfsv_abs(m, 1, path, (size_t)(slash - path));
		int r;

		if (p == NULL)
			return -ENOMEM;
		if ((r = nfsv_ret(m, nfs_lstat64(m->ctx, p, &ns))) < 0)
			return r;
		if ((ns.nfs_mode & S_IFMT) != S_IFDIR)
			return (ns.nfs_mode & S_IFMT) == S_IFLNK ? -ELOOP :
								   -ENOTDIR;
		slash++;
	}
	return 0;
}

/* A free handle slot for fh (the lowest, as with fds); -ENOMEM. */
static int nfsv_handle_new(struct nfsv *m, struct nfsfh *fh, const char *abs)
{
	size_t i = 0;

	while (i < m->nh && m->h[i].fh != NULL)
		i++;
	if (i == m->nh) {
		size_t want = m->nh > 0 ? 2 * m->nh : 16;
		struct nfs_handle *t = talloc_realloc(m, m->h,
						      struct nfs_handle, want);

		if (t == NULL)
			return -ENOMEM;
		memset(t + m->nh, 0, (want - m->nh) * sizeof(*t));
		m->h = t;
		m->nh = want;
	}
	talloc_free(m->h[i].path);
	m->h[i].path = talloc_strdup(m, abs);
	if (m->h[i].path == NULL)
		return -ENOMEM;
	m->h[i].fh = fh;
	return (int)i;
}

static struct nfs_handle *nfsv_handle(struct nfsv *m, int fh)
{
	if (m->ctx == NULL || fh < 0 || (size_t)fh >= m->nh ||
	    m->h[fh].fh == NULL)
		return NULL;
	return &m->h[fh];
}

static int nfsv_open(struct vfs *vfs, const char *path, int flags,
		     mode_t mode)
{
	struct nfsv *m = nfsv_of(vfs);
	int pass = flags & (O_ACCMODE | O_TRUNC | O_SYNC | O_DSYNC | O_EXCL);
	struct nfsfh *fh = NULL;
	struct stat sb;
	const char *p;
	int r;

	if ((r = nfsv_ready(m)) < 0)
		return r;
	if ((flags & O_DIRECTORY) && (r = nfsv_stat(vfs, path, &sb)) == 0 &&
	    !S_ISDIR(sb.st_mode))
		return -ENOTDIR;
	if (r < 0 || (r = nfsv_ready(m)) < 0)
		return r;
	if ((p = nfsv_path(m, 0, path)) == NULL)
		return -ENOMEM;
	if (flags & O_CREAT)
		r = nfs_create(m->ctx, p, pass, (int)(mode & 07777), &fh);
	else
		r = nfs_open(m->ctx, p, pass & ~O_EXCL, &fh);
	if ((r = nfsv_ret(m, r)) < 0)
		return r;
	r = nfsv_handle_new(m, fh, p);
	if (r < 0)
		nfs_close(m->ctx, fh);
	return r;
}

static int nfsv_close(struct vfs *vfs, int fh)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_handle *h = nfsv_handle(m, fh);
	int r;

	if (h == NULL)
		return -EBADF;
	r = nfs_close(m->ctx, h->fh);
	h->fh = NULL;
	return nfsv_ret(m, r);
}

static int nfsv_fstat(struct vfs *vfs, int fh, struct stat *sb)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_handle *h = nfsv_handle(m, fh);
	struct nfs_stat_64 ns;
	int r;

	if (h == NULL)
		return -EBADF;
	r = nfsv_ret(m, nfs_fstat64(m->ctx, h->fh, &ns));
	if (r == 0)
		nfs_fill_stat(&ns, sb);
	return r;
}

/* The path ops of one path: which libnfs call. */
enum nfsv_path_op { NFSV_MKDIR, NFSV_RMDIR, NFSV_UNLINK };

static int nfsv_path_op(struct vfs *vfs, const char *path,
			enum nfsv_path_op op)
{
	struct nfsv *m = nfsv_of(vfs);
	const char *p;
	int r;

	if ((r = nfsv_ready(m)) < 0)
		return r;
	if (op != NFSV_MKDIR && (r = nfsv_parents_plain(m, path)) < 0)
		return r;
	if ((p = nfsv_path(m, 0, path)) == NULL)
		return -ENOMEM;
	if (op != NFSV_MKDIR)	/* names gone: their cached handles too */
		nfs_raw_forget(m->raw);
	switch (op) {
	case NFSV_MKDIR:
		r = nfs_mkdir(m->ctx, p);
		break;
	case NFSV_RMDIR:
		r = nfs_rmdir(m->ctx, p);
		break;
	default:
		r = nfs_unlink(m->ctx, p);
		break;
	}
	return nfsv_ret(m, r);
}

static int nfsv_mkdir(struct vfs *vfs, const char *path, mode_t mode)
{
	(void)mode;
	return nfsv_path_op(vfs, path, NFSV_MKDIR);
}

static int nfsv_rmdir(struct vfs *vfs, const char *path)
{
	return nfsv_path_op(vfs, path, NFSV_RMDIR);
}

static int nfsv_unlink(struct vfs *vfs, const char *path)
{
	return nfsv_path_op(vfs, path, NFSV_UNLINK);
}

static int nfsv_rename(struct vfs *vfs, const char *from, const char *to,
		       unsigned flags)
{
	struct nfsv *m = nfsv_of(vfs);
	const char *a, *b;
	int r;

	(void)flags;	/* nothing is cached by name */
	if ((r = nfsv_ready(m)) < 0 || (r = nfsv_parents_plain(m, from)) < 0 ||
	    (r = nfsv_parents_plain(m, to)) < 0)
		return r;
	a = nfsv_path(m, 0, from);
	b = nfsv_path(m, 1, to);
	if (a == NULL || b == NULL)
		return -ENOMEM;
	nfs_raw_forget(m->raw);
	return nfsv_ret(m, nfs_rename(m->ctx, a, b));
}

static int nfsv_opendir(struct vfs *vfs, const char *path, size_t len,
			struct vfs_dir *d)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfsdir *dir = NULL;
	const char *p;
	int r;

	if ((r = nfsv_ready(m)) < 0)
		return r;
	if ((p = nfsv_abs(m, 0, path, len)) == NULL)
		return -ENOMEM;
	if ((r = nfsv_ret(m, nfs_opendir(m->ctx, p, &dir))) < 0)
		return r;
	d->p = dir;
	d->h = 0;
	return 0;
}

static int nfsv_readdir(struct vfs *vfs, struct vfs_dir *d, const char **name)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfsdirent *e;

	if (m->ctx == NULL)
		return -ENOTCONN;
	e = nfs_readdir(m->ctx, d->p);
	if (e == NULL)
		return 0;
	*name = e->name;
	return 1;
}

static void nfsv_closedir(struct vfs *vfs, struct vfs_dir *d)
{
	struct nfsv *m = nfsv_of(vfs);

	/* after a lost connection the listing stays with the context */
	if (m->ctx != NULL && d->p != NULL)
		nfs_closedir(m->ctx, d->p);
	else
		nfs_keep(d->p);
	d->p = NULL;
}

static ssize_t nfsv_pread(struct vfs *vfs, int fh, void *buf, size_t n,
			  off_t off)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_handle *h = nfsv_handle(m, fh);

	if (h == NULL)
		return -EBADF;
	return nfsv_ret(m, nfs_pread(m->ctx, h->fh, (uint64_t)off, n, buf));
}

static ssize_t nfsv_pwrite(struct vfs *vfs, int fh, const void *buf,
			   size_t n, off_t off)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_handle *h = nfsv_handle(m, fh);

	if (h == NULL)
		return -EBADF;
	return nfsv_ret(m, nfs_pwrite(m->ctx, h->fh, (uint64_t)off, n, buf));
}

static int nfsv_fsync(struct vfs *vfs, int fh)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_handle *h = nfsv_handle(m, fh);

	if (h == NULL)
		return -EBADF;
	return nfsv_ret(m, nfs_fsync(m->ctx, h->fh));
}

static int nfsv_ftruncate(struct vfs *vfs, int fh, off_t size)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_handle *h = nfsv_handle(m, fh);

	if (h == NULL)
		return -EBADF;
	return nfsv_ret(m, nfs_ftruncate(m->ctx, h->fh, (uint64_t)size));
}

/* A lock or an unlock through NLM (--enable-nlm), or NOT_SUPPORTED. */
static int nfsv_nlm_lock(struct vfs *vfs, int fh, off_t off, off_t len,
			 enum nfs_nlm_call what)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_handle *h = nfsv_handle(m, fh);
	int r;

	if (h == NULL)
		return -EBADF;
	if (!m->want_nlm)
		return -EOPNOTSUPP;
	r = nfsv_nlm_call(m, what, h->fh, off, len);
	return r > 0 ? nfs_nlm_errno(r) : r;
}

static int nfsv_lock(struct vfs *vfs, int fh, off_t off, off_t len)
{
	return nfsv_nlm_lock(vfs, fh, off, len, NFS_NLM_LOCK);
}

static int nfsv_unlock(struct vfs *vfs, int fh, off_t off, off_t len)
{
	return nfsv_nlm_lock(vfs, fh, off, len, NFS_NLM_UNLOCK);
}

static int nfsv_statfs(struct vfs *vfs)
{
	struct nfsv *m = nfsv_of(vfs);
	struct statvfs sv;
	int r;

	if ((r = nfsv_ready(m)) < 0)
		return r;
	return nfsv_ret(m, nfs_statvfs(m->ctx, "/", &sv));
}

static int nfsv_set_times(struct vfs *vfs, int fh)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_handle *h = nfsv_handle(m, fh);

	return h != NULL ? nfsv_touch(m, h->path) : -EBADF;
}

/* Deltree and the cleanup: the tree removed by single calls on the
 * handles met (nfs_raw.h), never through a symlink. */
static int nfsv_remove_tree(struct vfs *vfs, const char *path)
{
	struct nfsv *m = nfsv_of(vfs);
	const char *p;
	int r;

	if ((r = nfsv_ready(m)) < 0)
		return r;
	if (m->raw == NULL && (m->raw = nfs_raw_new(m, NFS_TIMEOUT_MS)) == NULL)
		return -ENOMEM;
	if ((p = nfsv_path(m, 0, path)) == NULL)
		return -ENOMEM;
	r = nfs_raw_remove_tree(m->raw, m->ctx, p);
	return r > 0 ? -nfs3_errno_of((uint32_t)r) : nfsv_ret(m, r);
}

static const struct vfs_ops nfsv_ops = {
	.open = nfsv_open,
	.close = nfsv_close,
	.stat = nfsv_stat,
	.fstat = nfsv_fstat,
	.mkdir = nfsv_mkdir,
	.rmdir = nfsv_rmdir,
	.unlink = nfsv_unlink,
	.rename = nfsv_rename,
	.opendir = nfsv_opendir,
	.readdir = nfsv_readdir,
	.closedir = nfsv_closedir,
	.pread = nfsv_pread,
	.pwrite = nfsv_pwrite,
	.fsync = nfsv_fsync,
	.ftruncate = nfsv_ftruncate,
	.lock = nfsv_lock,
	.unlock = nfsv_unlock,
	.statfs = nfsv_statfs,
	.set_times = nfsv_set_times,
	.remove_tree = nfsv_remove_tree,
	/* no xattrs, no direct I/O, no cache to drop */
};

static int nfsv_destructor(struct nfsv *m)
{
	nfsv_disconnect(m);
	return 0;
}

struct nfsv *nfsv_new(void *mem, const char *url)
{
	struct nfsv *m = talloc_zero(mem, struct nfsv);

	if (m == NULL)
		return NULL;
	m->vfs.ops = &nfsv_ops;
	m->vfs.caps = 0;	/* NFS servers are case-sensitive: scan */
	m->url = url;
	talloc_set_destructor(m, nfsv_destructor);
	return m;
}
