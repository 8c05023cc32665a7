/*
 * nfs.c - the nfs backend: NFSv3 spoken by dbench itself through libnfs's
 * synchronous API, no mount and no root needed.
 *
 * Two loadfile dialects run on it.  client.txt goes through the SMB
 * semantics (nbvfs) over the NFS vfs of this file, exactly as fileio runs
 * it over the POSIX vfs; dbench 5.0's NFSv3 dialect (GETATTR3, READ3,
 * WRITE3, ...) is filled in ops[] directly and answers NFS3 status codes.
 *
 * Each client has its own libnfs context, mounted in setup (before the
 * start gate) on --nfs entry (client id mod the number of entries).  The
 * client's tree is clients/clientN under the export.  A lost connection
 * is reported as its errno (a transport fault: the client stops under the
 * default policy); the next op of a client that goes on (--keep-going)
 * mounts again (at most NFS_MAX_REMOUNTS tries, one a second), and its
 * open handles are gone.  Removals check that no directory on the way is a symlink, and
 * the removal walk (nbvfs's) never descends through one.
 *
 * Byte-range locks need --enable-nlm: then each client is also one NLM
 * lock owner with a connection of its own to the server's NLM service
 * (nfs_nlm.c), made in setup beside the mount; LockX/UnlockX go through
 * it (a conflicting lock is EAGAIN to nbvfs, as fcntl's) and LOCK4,
 * UNLOCK4 and TEST4 answer NLM4 status codes.  A server without NLM is
 * a usage error before forking.  Without --enable-nlm, LockX answers
 * NT_STATUS_NOT_SUPPORTED and LOCK4/UNLOCK4/TEST4 NFS3ERR_NOTSUPP.
 *
 * The dialect's GETATTR3, LOOKUP3, ACCESS3, PATHCONF3, FSINFO3, READ3,
 * WRITE3, COMMIT3, CREATE3, MKDIR3, REMOVE3, RMDIR3 and READDIRPLUS3 are
 * single raw calls on the handles of the names met (nfs_raw.c), as dbench
 * 5.0 sends them, and so is Deltree's (and the cleanup's) removal of a
 * tree in both dialects; the other ops use libnfs's path calls.
 *
 * What NFS cannot do here: xattrs (-x), direct I/O; other path ops
 * than removals and the raw calls follow a symlink in a directory on
 * the way, as libnfs resolves paths.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <popt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <talloc.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "backends.h"
#include "nbvfs.h"
#include "ntstatus.h"
#include "vfs.h"
#include "vfs_kept.h"

/* the whole backend in its module (modules/nfs.so), a stub in dbench */
#if defined(HAVE_LIBNFS) && defined(DBENCH_MODULE)
#define NFS_WHOLE 1
#endif

#ifdef NFS_WHOLE
#include <nfsc/libnfs.h>

#include "nfs_nlm.h"
#include "nfs_raw.h"
#endif

/* ---- options (parsed in every build, so that --help lists them) ---- */

enum { NFS_OPT_URL = 1, NFS_OPT_NLM };

static const struct poptOption nfs_options[] = {
	{ "nfs", 0, POPT_ARG_STRING, NULL, NFS_OPT_URL,
	  "NFSv3 export(s); client i uses entry i mod n; libnfs URL "
	  "arguments (?version=3&uid=N&gid=N) pass through",
	  "nfs://SERVER/EXPORT[,...]" },
	{ "enable-nlm", 0, POPT_ARG_NONE, NULL, NFS_OPT_NLM,
	  "byte-range locks through the server's NLM service (without "
	  "it, lock ops answer NOT_SUPPORTED)", NULL },
	POPT_TABLEEND
};

/* The backend's options object (dbench_options.backend_opts). */
struct nfs_opts {
	const char **urls;
	unsigned nurls;
	bool nlm;
};

static int nfs_option(void *mem_ctx, void **bopts, int val, const char *arg,
		      char **err)
{
	struct nfs_opts *no = *bopts;
	char *copy, *save = NULL;

	if (no == NULL && (no = talloc_zero(mem_ctx, struct nfs_opts)) == NULL)
		return -1;
	*bopts = no;
	if (val == NFS_OPT_NLM) {
		no->nlm = true;
		return 0;
	}
	copy = talloc_strdup(no, arg);
	for (char *u = copy ? strtok_r(copy, ",", &save) : NULL; u != NULL;
	     u = strtok_r(NULL, ",", &save)) {
		const char **v;

		if (strncmp(u, "nfs://", 6) != 0 || u[6] == '\0' ||
		    u[6] == '/') {
			*err = talloc_asprintf(mem_ctx,
					       "--nfs: '%s' is not an NFS URL; "
					       "expected nfs://SERVER/EXPORT",
					       u);
			return -1;
		}
		v = talloc_realloc(no, no->urls, const char *, no->nurls + 1);
		if (v == NULL)
			return -1;
		no->urls = v;
		no->urls[no->nurls++] = u;
	}
	if (copy == NULL || no->nurls == 0) {
		*err = talloc_asprintf(mem_ctx, "--nfs: '%s' names no export; "
				       "expected nfs://SERVER/EXPORT[,...]",
				       arg);
		return -1;
	}
	return 0;
}

static int nfs_options_done(void *mem_ctx, void **bopts, char **err)
{
	const struct nfs_opts *no = *bopts;

	if (no != NULL && no->nurls > 0)
		return 0;
	*err = talloc_strdup(mem_ctx,
			     "-B nfs needs --nfs=nfs://SERVER/EXPORT "
			     "(a comma-separated list spreads the "
			     "clients over several exports)");
	return -1;
}

#ifdef NFS_WHOLE

/* Times a client tries to mount again after a lost connection
 * (--keep-going), at most one try per NFS_REMOUNT_GAP_NS: a server that
 * restarts within about that many seconds is found again. */
#define NFS_MAX_REMOUNTS	30
#define NFS_REMOUNT_GAP_NS	1000000000ull
/* How long one NFS call may take before it fails (ms). */
#define NFS_TIMEOUT_MS		30000
/* Files the NFSv3 dialect keeps open by name (READ3, WRITE3, COMMIT3). */
#define NFS_FH_CACHE		16

/* NFS3 status codes (RFC 1813) the dialect's ops answer. */
enum {
	NFS3_OK = 0,
	NFS3ERR_PERM = 1,
	NFS3ERR_NOENT = 2,
	NFS3ERR_IO = 5,
	NFS3ERR_NXIO = 6,
	NFS3ERR_ACCES = 13,
	NFS3ERR_EXIST = 17,
	NFS3ERR_XDEV = 18,
	NFS3ERR_NOTDIR = 20,
	NFS3ERR_ISDIR = 21,
	NFS3ERR_INVAL = 22,
	NFS3ERR_FBIG = 27,
	NFS3ERR_NOSPC = 28,
	NFS3ERR_ROFS = 30,
	NFS3ERR_MLINK = 31,
	NFS3ERR_NAMETOOLONG = 63,
	NFS3ERR_NOTEMPTY = 66,
	NFS3ERR_DQUOT = 69,
	NFS3ERR_STALE = 70,
	NFS3ERR_BADHANDLE = 10001,
	NFS3ERR_NOTSUPP = 10004,
	NFS3ERR_SERVERFAULT = 10006,
};

struct nfs_handle {
	struct nfsfh *fh;	/* NULL: slot free */
	char *path;		/* absolute on the export (set_times) */
};

struct nfs_cached {
	char *path;		/* NULL: entry free */
	struct nfsfh *fh;
};

struct nfsv {
	struct vfs vfs;			/* first: a struct vfs * is one of these */
	struct nfs_context *ctx;	/* NULL: lost, not mounted again yet */
	const char *url;
	const struct dbench_options *opts;
	struct nfs_nlm *nlm;		/* --enable-nlm; NULL: lost */
	struct nfs_raw *raw;		/* the dialect's handle cache */
	bool want_nlm;			/* --enable-nlm */
	unsigned client;		/* the lock owner's number */
	unsigned remounts;
	uint64_t last_try_ns;		/* CLOCK_MONOTONIC of the last mount try */
	struct nfs_handle *h;
	size_t nh;
	char *abs[2];			/* "/" + path, for the two paths of an op */
	size_t abs_cap[2];
	struct nfs_cached cache[NFS_FH_CACHE];
	unsigned cache_next;
	uint8_t *buf;			/* READ3/WRITE3 data (zeros) */
	size_t buf_size;
};

static struct nfsv *nfsv_of(struct vfs *vfs)
{
	return (struct nfsv *)vfs;
}

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

/*
 * A libnfs context mounted on url, or NULL with *err (under mem_ctx):
 * "cannot mount URL: <libnfs's reason>".
 */
static struct nfs_context *nfs_connect(void *mem_ctx, const char *url,
				       char **err)
{
	struct nfs_context *ctx = nfs_init_context();
	struct addrinfo *ai = NULL;
	struct nfs_url *u;
	int gai = 0;

	if (ctx == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: cannot make an NFS "
				       "context (out of memory)", url);
		return NULL;
	}
	u = nfs_parse_url_dir(ctx, url);
	if (u == NULL) {
		const char *why = nfs_get_error(ctx);

		*err = talloc_asprintf(mem_ctx, "--nfs: '%s' is not a usable "
				       "NFS URL: %s", url,
				       why != NULL ? why : "no reason given");
		nfs_destroy_context(ctx);
		return NULL;
	}
	nfs_set_autoreconnect(ctx, 0);
	nfs_set_timeout(ctx, NFS_TIMEOUT_MS);
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
	if (nfs_mount(ctx, u->server, u->path) != 0) {
		const char *why = nfs_get_error(ctx);

		if (why == NULL)
			why = "no reason given";

		*err = talloc_asprintf(mem_ctx, "cannot mount %s: %s%s", url,
				       why, nfs_mount_hint(why));
		nfs_destroy_url(u);
		nfs_destroy_context(ctx);
		return NULL;
	}
	nfs_destroy_url(u);
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

static uint64_t nfs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Is m mounted?  After a lost connection, mount again (at most
 * NFS_MAX_REMOUNTS tries, one per NFS_REMOUNT_GAP_NS; in between the op
 * fails at once).  0 or a negative errno.
 */
static int nfsv_ready(struct nfsv *m)
{
	uint64_t now;
	char *err = NULL;

	if (m->ctx != NULL)
		return 0;
	now = nfs_now_ns();
	if (m->remounts >= NFS_MAX_REMOUNTS ||
	    (m->last_try_ns != 0 && now - m->last_try_ns < NFS_REMOUNT_GAP_NS))
		return -ENOTCONN;
	m->remounts++;
	m->last_try_ns = now;
	m->ctx = nfs_connect(m, m->url, &err);
	if (m->ctx != NULL && m->want_nlm && m->nlm == NULL)
		m->nlm = nfs_nlm_new(m, m->url, m->client, NFS_TIMEOUT_MS,
				     &err);
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
static void nfsv_abandon(struct nfsv *m)
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

/* A libnfs result r: a lost connection (libnfs says EIO, or a transport
 * errno) abandons the context; the next op mounts again. */
static int nfsv_ret(struct nfsv *m, int r)
{
	if (r == -EIO || (r < 0 && ntstatus_fault_class(-r) == FAULT_TRANSPORT))
		nfsv_abandon(m);
	return r;
}

/* "/" + path[0..len) in scratch k ("." and "" are the export's root). */
static const char *nfsv_abs(struct nfsv *m, unsigned k, const char *path,
			    size_t len)
{
	if (len == 1 && path[0] == '.')
		len = 0;
	if (len + 2 > m->abs_cap[k]) {
		char *p = talloc_realloc(m, m->abs[k], char, len + 64);

		if (p == NULL)
			return NULL;
		m->abs[k] = p;
		m->abs_cap[k] = len + 64;
	}
	m->abs[k][0] = '/';
	memcpy(m->abs[k] + 1, path, len);
	m->abs[k][len + 1] = '\0';
	return m->abs[k];
}

static const char *nfsv_path(struct nfsv *m, unsigned k, const char *path)
{
	return nfsv_abs(m, k, path, strlen(path));
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

/*
 * Does every directory on the way to path's last component exist as a
 * directory, not a symlink?  0, or -ELOOP (a symlink on the way) or the
 * lookup's errno.  Removals check this: libnfs would follow the link.
 */
static int nfsv_parents_plain(struct nfsv *m, const char *path)
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

/*
 * One NLM call of m's lock owner on the open file fh: the NLM4 status
 * (>= 0), or a negative errno (the connection is lost: the mount goes
 * too, and the next op makes both again).
 */
static int nfsv_nlm_call(struct nfsv *m, enum nfs_nlm_call what,
			 struct nfsfh *fh, int64_t off, int64_t len)
{
	int r;

	if (off < 0 || len < 0)
		return -EINVAL;
	r = m->nlm != NULL ? nfs_nlm_call(m->nlm, what, fh, (uint64_t)off,
					  (uint64_t)len) :
			     -ENOTCONN;
	return r < 0 ? nfsv_ret(m, r) : r;
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

/* Set the access and modification times of the file at abs to now. */
static int nfsv_touch(struct nfsv *m, const char *abs)
{
	struct timeval tv[2];

	gettimeofday(&tv[0], NULL);
	tv[1] = tv[0];
	return nfsv_ret(m, nfs_utimes(m->ctx, abs, tv));
}

static int nfsv_set_times(struct vfs *vfs, int fh)
{
	struct nfsv *m = nfsv_of(vfs);
	struct nfs_handle *h = nfsv_handle(m, fh);

	return h != NULL ? nfsv_touch(m, h->path) : -EBADF;
}

static int nfs3_errno_of(uint32_t st);

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

/* ---- the NFSv3 dialect ---- */

/* The NFS3 status of a libnfs result (0 or -errno). */
static uint32_t nfs3_status_of(int err)
{
	static const struct {
		int err;
		uint32_t st;
	} map[] = {
		{ EPERM, NFS3ERR_PERM },	{ ENOENT, NFS3ERR_NOENT },
		{ EIO, NFS3ERR_IO },		{ ENXIO, NFS3ERR_NXIO },
		{ EACCES, NFS3ERR_ACCES },	{ EEXIST, NFS3ERR_EXIST },
		{ EXDEV, NFS3ERR_XDEV },	{ ENOTDIR, NFS3ERR_NOTDIR },
		{ EISDIR, NFS3ERR_ISDIR },	{ EINVAL, NFS3ERR_INVAL },
		{ EFBIG, NFS3ERR_FBIG },	{ ENOSPC, NFS3ERR_NOSPC },
		{ EROFS, NFS3ERR_ROFS },	{ EMLINK, NFS3ERR_MLINK },
		{ ENAMETOOLONG, NFS3ERR_NAMETOOLONG },
		{ ENOTEMPTY, NFS3ERR_NOTEMPTY }, { EDQUOT, NFS3ERR_DQUOT },
		{ ESTALE, NFS3ERR_STALE },	{ EBADF, NFS3ERR_BADHANDLE },
		{ EOPNOTSUPP, NFS3ERR_NOTSUPP }, { ELOOP, NFS3ERR_INVAL },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].err == err)
			return map[i].st;
	return NFS3ERR_SERVERFAULT;
}

/* Finish a dialect op: its NFS3 status, the errno in call->err. */
static uint32_t nfs3_done(struct op_call *call, int r)
{
	if (r >= 0)
		return NFS3_OK;
	call->err = -r;
	return nfs3_status_of(-r);
}

static struct nfsv *nfs3_vfs(void *state)
{
	return nfsv_of(nbvfs_vfs(state));
}

/* Close every file the dialect keeps open (for NLM) after a removal. */
static void nfs3_files_close(struct nfsv *m)
{
	for (unsigned i = 0; i < NFS_FH_CACHE; i++) {
		if (m->cache[i].path != NULL && m->ctx != NULL)
			nfs_close(m->ctx, m->cache[i].fh);
		TALLOC_FREE(m->cache[i].path);
	}
}

/* nfs3_files_close, and forget the handles of all the names met (after
 * a rename). */
static void nfs3_cache_flush(struct nfsv *m)
{
	nfs_raw_forget(m->raw);
	nfs3_files_close(m);
}

/*
 * The open file at abs (kept by name), opened or created now if need be.
 * 0 or a negative errno.
 */
static int nfs3_file(struct nfsv *m, const char *abs, bool create,
		     struct nfsfh **out)
{
	struct nfs_cached *c;
	struct nfsfh *fh = NULL;
	int r;

	for (unsigned i = 0; i < NFS_FH_CACHE; i++) {
		if (m->cache[i].path != NULL &&
		    strcmp(m->cache[i].path, abs) == 0) {
			*out = m->cache[i].fh;
			return 0;
		}
	}
	r = create ? nfs_create(m->ctx, abs, O_RDWR, 0644, &fh) :
		     nfs_open(m->ctx, abs, O_RDWR, &fh);
	if ((r = nfsv_ret(m, r)) < 0)
		return r;
	c = &m->cache[m->cache_next];
	m->cache_next = (m->cache_next + 1) % NFS_FH_CACHE;
	if (c->path != NULL)
		nfs_close(m->ctx, c->fh);
	talloc_free(c->path);
	c->path = talloc_strdup(m, abs);
	if (c->path == NULL) {
		nfs_close(m->ctx, fh);
		return -ENOMEM;
	}
	c->fh = fh;
	*out = fh;
	return 0;
}

/* The dialect's ops, by what they need. */
enum nfs3_kind_class {
	NFS3_PATH, NFS3_TWO, NFS3_NONE, NFS3_NLM, NFS3_RAW
};

static enum nfs3_kind_class nfs3_class(unsigned kind)
{
	switch (kind) {
	case OP_SYMLINK3:
	case OP_RENAME3:
	case OP_LINK3:
		return NFS3_TWO;
	case OP_FSSTAT3:
		return NFS3_NONE;
	case OP_GETATTR3:
	case OP_LOOKUP3:
	case OP_ACCESS3:
	case OP_PATHCONF3:
	case OP_FSINFO3:
	case OP_READ3:
	case OP_WRITE3:
	case OP_COMMIT3:
	case OP_CREATE3:
	case OP_MKDIR3:
	case OP_REMOVE3:
	case OP_RMDIR3:
	case OP_READDIRPLUS3:
		return NFS3_RAW;
	case OP_LOCK4:
	case OP_UNLOCK4:
	case OP_TEST4:
		return NFS3_NLM;
	default:
		return NFS3_PATH;
	}
}

/* A dialect op on one path (no open file). */
static int nfs3_path_op(struct nfsv *m, struct op_call *call, const char *p)
{
	unsigned kind = call->op->kind;
	char link[1024];

	switch (kind) {
	case OP_SETATTR3:
		return nfsv_touch(m, p);
	case OP_READLINK3:
		return nfsv_ret(m, nfs_readlink(m->ctx, p, link,
						sizeof(link)));
	default:
		return -EINVAL;
	}
}

/*
 * READ3's and WRITE3's size (arg1, cut to --trunc-io) in io->count, with
 * m->buf (zeros) at least that large as the data.  0 or a negative errno.
 */
static int nfs3_io_size(struct nfsv *m, const struct op_call *call,
			struct nfs_raw_io *io)
{
	int64_t size = call->arg[1];

	if (size < 0 || size > UINT32_MAX)
		return -EINVAL;
	if (m->opts != NULL && m->opts->trunc_io > 0 &&
	    size > m->opts->trunc_io)
		size = m->opts->trunc_io;
	if ((size_t)size > m->buf_size) {
		uint8_t *b = talloc_zero_size(m, (size_t)size);

		if (b == NULL)
			return -ENOMEM;
		talloc_free(m->buf);
		m->buf = b;
		m->buf_size = (size_t)size;
	}
	io->offset = (uint64_t)call->arg[0];
	io->count = (uint32_t)size;
	io->data = m->buf;
	return 0;
}

/* SYMLINK3, RENAME3, LINK3. */
static int nfs3_two_op(struct nfsv *m, struct op_call *call, const char *a,
		       const char *b)
{
	int r;

	switch (call->op->kind) {
	case OP_SYMLINK3:	/* the link a points at b */
		return nfsv_ret(m, nfs_symlink(m->ctx, b, a));
	case OP_LINK3:		/* the new name a for the file b */
		return nfsv_ret(m, nfs_link(m->ctx, b, a));
	default:
		nfs3_cache_flush(m);
		if ((r = nfsv_parents_plain(m, call->path[0])) < 0 ||
		    (r = nfsv_parents_plain(m, call->path[1])) < 0)
			return r;
		a = nfsv_path(m, 0, call->path[0]);
		b = nfsv_path(m, 1, call->path[1]);
		if (a == NULL || b == NULL)
			return -ENOMEM;
		return nfsv_ret(m, nfs_rename(m->ctx, a, b));
	}
}

/*
 * LOCK4, UNLOCK4, TEST4 (exclusive, [arg0, arg0 + arg1)) through NLM on
 * the file kept open by name: the NLM4 status the server answered.  A
 * lost connection is its NFS3 status (a transport fault); a file that
 * cannot be opened is NLM4_STALE_FH or NLM4_FAILED, with the errno in
 * call->err.  Without --enable-nlm: NFS3ERR_NOTSUPP.
 */
static uint32_t nfs3_nlm_op(struct nfsv *m, struct op_call *call,
			    const char *p)
{
	unsigned kind = call->op->kind;
	struct nfsfh *fh;
	int r;

	if (!m->want_nlm)
		return nfs3_done(call, -EOPNOTSUPP);
	r = nfs3_file(m, p, false, &fh);
	if (r == 0)
		r = nfsv_nlm_call(m, kind == OP_LOCK4 ? NFS_NLM_LOCK :
				  kind == OP_UNLOCK4 ? NFS_NLM_UNLOCK :
						       NFS_NLM_TEST,
				  fh, call->arg[0], call->arg[1]);
	if (r < 0 && ntstatus_fault_class(-r) == FAULT_TRANSPORT &&
	    r != -ESTALE)
		return nfs3_done(call, r);
	if (r < 0) {
		call->err = -r;
		return r == -ESTALE ? NFS_NLM4_STALE_FH : NFS_NLM4_FAILED;
	}
	if (r > 0)
		call->err = -nfs_nlm_errno(r);
	return (uint32_t)r;
}

/* The errno an NFS3 status other than NFS3_OK stands for (EIO when none
 * does), for messages. */
static int nfs3_errno_of(uint32_t st)
{
	for (int e = 1; e < 256; e++)
		if (nfs3_status_of(e) == st)
			return e;
	return EIO;
}

/*
 * The dialect's single calls (see nfs_raw.h) on the handles met before,
 * answering the server's own NFS3 status: GETATTR3, LOOKUP3, ACCESS3
 * (arg0: the ACCESS3 bits asked; none: READ), PATHCONF3, FSINFO3,
 * READ3/WRITE3 (arg0 offset, arg1 size; WRITE3's arg2 its stable_how, as
 * 5.0 sends it), COMMIT3, CREATE3, MKDIR3, REMOVE3, RMDIR3 (a symlink on
 * the way: refused, -ELOOP) and READDIRPLUS3.
 */
static uint32_t nfs3_raw_op(struct nfsv *m, struct op_call *call,
			    const char *p)
{
	static const enum nfs_raw_op raw[] = {
		[OP_GETATTR3] = NFS_RAW_GETATTR, [OP_LOOKUP3] = NFS_RAW_LOOKUP,
		[OP_ACCESS3] = NFS_RAW_ACCESS, [OP_PATHCONF3] = NFS_RAW_PATHCONF,
		[OP_FSINFO3] = NFS_RAW_FSINFO, [OP_READ3] = NFS_RAW_READ,
		[OP_WRITE3] = NFS_RAW_WRITE, [OP_COMMIT3] = NFS_RAW_COMMIT,
		[OP_CREATE3] = NFS_RAW_CREATE, [OP_MKDIR3] = NFS_RAW_MKDIR,
		[OP_REMOVE3] = NFS_RAW_REMOVE, [OP_RMDIR3] = NFS_RAW_RMDIR,
		[OP_READDIRPLUS3] = NFS_RAW_READDIRPLUS,
	};
	unsigned kind = call->op->kind;
	struct nfs_raw_io io = {
		.access = kind == OP_ACCESS3 && call->arg[0] > 0 ?
				  (uint32_t)call->arg[0] : 0x01,
		.stable = kind == OP_WRITE3 ? (uint32_t)call->arg[2] : 0,
	};
	int s = 0;

	if (kind == OP_READ3 || kind == OP_WRITE3)
		s = nfs3_io_size(m, call, &io);
	if (kind == OP_REMOVE3 || kind == OP_RMDIR3)
		nfs3_files_close(m);
	if (s == 0)
		s = nfs_raw_call(m->raw, m->ctx, raw[kind],
				 kind == OP_FSINFO3 ? "/" : p, &io);
	if (s < 0)
		return nfs3_done(call, nfsv_ret(m, s));
	if (s > 0)
		call->err = nfs3_errno_of((uint32_t)s);
	else if (kind == OP_READ3 || kind == OP_WRITE3)
		call->bytes = io.done;
	return (uint32_t)s;
}

/* One op of the NFSv3 dialect (state: the client's nbvfs). */
static uint32_t nfs3_op(void *state, struct op_call *call)
{
	struct nfsv *m = nfs3_vfs(state);
	enum nfs3_kind_class cls = nfs3_class(call->op->kind);
	struct statvfs sv;
	const char *a = NULL, *b = NULL;
	int r;

	if ((r = nfsv_ready(m)) < 0)
		return nfs3_done(call, r);
	if (cls != NFS3_NONE && call->op->kind != OP_FSINFO3 &&
	    (a = nfsv_path(m, 0, call->path[0])) == NULL)
		return nfs3_done(call, -ENOMEM);
	if (cls == NFS3_TWO && (b = nfsv_path(m, 1, call->path[1])) == NULL)
		return nfs3_done(call, -ENOMEM);
	switch (cls) {
	case NFS3_TWO:
		r = nfs3_two_op(m, call, a, b);
		break;
	case NFS3_PATH:
		r = nfs3_path_op(m, call, a);
		break;
	case NFS3_NLM:
		return nfs3_nlm_op(m, call, a);
	case NFS3_RAW:
		return nfs3_raw_op(m, call, a);
	default:	/* FSSTAT3 */
		r = nfsv_ret(m, nfs_statvfs(m->ctx, "/", &sv));
		break;
	}
	return nfs3_done(call, r);
}

/* Deltree and the client's cleanup close the files kept open first (the
 * tree's removal keeps the handle cache right; the cleanup forgets it). */
static uint32_t nfs_deltree(void *state, struct op_call *call)
{
	nfs3_files_close(nfs3_vfs(state));
	return nbvfs_deltree(state, call);
}

static int nfs_cleanup(void *state, const char *path)
{
	nfs3_cache_flush(nfs3_vfs(state));
	return nbvfs_cleanup(state, path);
}

/* ---- backend hooks ---- */

static const struct nfs_opts *nfs_opts_of(const struct dbench_options *o)
{
	return o != NULL ? o->backend_opts : NULL;
}

static int nfs_setup(void *mem_ctx, const struct backend_client_config *cfg,
		     void **state, char **err)
{
	const struct nfs_opts *no = nfs_opts_of(cfg->opts);
	struct nfsv *m;
	struct nbvfs *nb;

	if (no == NULL || no->nurls == 0) {
		*err = talloc_strdup(mem_ctx, "no --nfs export given");
		return -1;
	}
	m = talloc_zero(mem_ctx, struct nfsv);
	if (m == NULL)
		goto nomem;
	m->vfs.ops = &nfsv_ops;
	m->vfs.caps = 0;	/* NFS servers are case-sensitive: scan */
	m->opts = cfg->opts;
	m->url = no->urls[cfg->client % no->nurls];
	m->want_nlm = no->nlm;
	m->client = cfg->client;
	if ((m->raw = nfs_raw_new(m, NFS_TIMEOUT_MS)) == NULL) {
		talloc_free(m);
		goto nomem;
	}
	talloc_set_destructor(m, nfsv_destructor);
	m->ctx = nfs_connect(mem_ctx, m->url, err);
	if (m->ctx != NULL && m->want_nlm)
		m->nlm = nfs_nlm_new(m, m->url, m->client, NFS_TIMEOUT_MS,
				     err);
	if (m->ctx == NULL || (m->want_nlm && m->nlm == NULL)) {
		talloc_free(m);
		return -1;
	}
	nb = nbvfs_new(mem_ctx, &m->vfs, cfg->opts, cfg->nhandles);
	if (nb == NULL)
		goto nomem;
	*state = nb;
	return 0;
nomem:
	*err = talloc_strdup(mem_ctx, "out of memory");
	return -1;
}

/*
 * -D has no meaning here (the exports are --nfs's): only its default "."
 * passes.  Then every export is mounted once (and with --enable-nlm, its
 * server's NLM service reached), so that an unreachable server, a missing
 * portmapper, a missing or forbidden export or a server without NLM is
 * one line before anything is forked.
 */
static int nfs_target_check(void *mem_ctx, const struct dbench_options *o,
			    const char *target, char **err)
{
	const struct nfs_opts *no = nfs_opts_of(o);

	if (strcmp(target, ".") != 0) {
		*err = talloc_asprintf(mem_ctx,
				       "-D '%s' does not apply to -B nfs: the "
				       "clients' trees are clients/clientN on "
				       "the --nfs export(s)",
				       target);
		return -1;
	}
	for (unsigned i = 0; no != NULL && i < no->nurls; i++) {
		struct nfs_context *ctx = nfs_connect(mem_ctx, no->urls[i],
						      err);

		if (ctx == NULL)
			return -1;
		nfs_destroy_context(ctx);
		if (no->nlm) {
			struct nfs_nlm *n = nfs_nlm_new(mem_ctx, no->urls[i],
							0, NFS_TIMEOUT_MS,
							err);

			if (n == NULL)
				return -1;
			talloc_free(n);
		}
	}
	return 0;
}

/* One socket per client (the mount's own comes and goes in setup), one
 * more for NLM. */
static uint64_t nfs_client_fds(const struct dbench_options *o,
			       uint32_t max_open_handles, uint32_t max_dirs)
{
	const struct nfs_opts *no = nfs_opts_of(o);

	(void)max_open_handles;
	(void)max_dirs;
	return no != NULL && no->nlm ? 3 : 2;
}

/*
 * Over every export: existed[i] when paths[i] exists on any of them (or
 * cannot be told), so that shared_remove leaves it alone everywhere.
 */
static int nfs_shared_note(void *mem_ctx, const struct dbench_options *o,
			   const char *target, const char *const *paths,
			   size_t n, bool *existed)
{
	const struct nfs_opts *no = nfs_opts_of(o);

	(void)target;
	for (size_t i = 0; i < n; i++)
		existed[i] = false;
	for (unsigned u = 0; no != NULL && u < no->nurls; u++) {
		char *err = NULL;
		struct nfs_context *ctx = nfs_connect(mem_ctx, no->urls[u],
						      &err);

		for (size_t i = 0; i < n; i++) {
			char *p = talloc_asprintf(mem_ctx, "/%s", paths[i]);
			struct nfs_stat_64 ns;

			existed[i] = existed[i] || ctx == NULL || p == NULL ||
				     nfs_lstat64(ctx, p, &ns) != -ENOENT;
			talloc_free(p);
		}
		talloc_free(err);
		if (ctx != NULL)
			nfs_destroy_context(ctx);
	}
	return 0;
}

/* Remove path (a file, or a directory if empty) from one export, never
 * through a symlink on the way. */
static void nfs_remove_shared(struct nfsv *m, const char *path)
{
	struct stat sb;

	if (nfsv_parents_plain(m, path) != 0 || nfsv_stat(&m->vfs, path,
							   &sb) != 0)
		return;
	if (S_ISDIR(sb.st_mode))
		(void)nfsv_rmdir(&m->vfs, path);
	else
		(void)nfsv_unlink(&m->vfs, path);
}

/*
 * A vfs on url for the run's own bookkeeping (before or after the
 * clients): never mounted again once lost.  NULL when out of memory;
 * ->ctx NULL when the export cannot be mounted (the target check said
 * why already).
 */
static struct nfsv *nfsv_admin(void *mem_ctx, const char *url)
{
	struct nfsv *m = talloc_zero(mem_ctx, struct nfsv);
	char *err = NULL;

	if (m == NULL)
		return NULL;
	m->vfs.ops = &nfsv_ops;
	m->url = url;
	m->remounts = NFS_MAX_REMOUNTS;
	talloc_set_destructor(m, nfsv_destructor);
	m->ctx = nfs_connect(m, m->url, &err);
	talloc_free(err);
	return m;
}

static int nfs_shared_remove(void *mem_ctx, const struct dbench_options *o,
			     const char *target, const char *const *paths,
			     size_t n)
{
	const struct nfs_opts *no = nfs_opts_of(o);

	(void)target;
	for (unsigned u = 0; no != NULL && u < no->nurls; u++) {
		struct nfsv *m = nfsv_admin(mem_ctx, no->urls[u]);

		if (m == NULL)
			return -ENOMEM;
		for (size_t i = 0; m->ctx != NULL && i < n; i++)
			nfs_remove_shared(m, paths[i]);
		talloc_free(m);
	}
	return 0;
}

/* Why path on one export may not be a client's tree, or NULL when it may
 * (absent, an empty directory, or one an earlier run kept and recorded);
 * never through a symlink. */
static const char *nfs_tree_why(struct nfsv *m, const char *path)
{
	struct vfs_dir d = { 0 };
	const char *name = NULL;
	struct stat sb;
	int r;

	r = nfsv_parents_plain(m, path);
	if (r == -ENOENT)
		return NULL;	/* a directory on the way is missing */
	if (r != 0)
		return BACKEND_TREE_BEHIND;
	r = nfsv_stat(&m->vfs, path, &sb);
	if (r == -ENOENT)
		return NULL;
	if (r != 0 || S_ISLNK(sb.st_mode))
		return BACKEND_TREE_SYMLINK;
	if (!S_ISDIR(sb.st_mode))
		return BACKEND_TREE_NOT_DIR;
	if (nfsv_opendir(&m->vfs, path, strlen(path), &d) != 0)
		return BACKEND_TREE_NOT_EMPTY;
	while (nfsv_readdir(&m->vfs, &d, &name) > 0 &&
	       (strcmp(name, ".") == 0 || strcmp(name, "..") == 0))
		name = NULL;
	nfsv_closedir(&m->vfs, &d);
	return name != NULL && !vfs_kept_has_tree(&m->vfs, path) ?
		       BACKEND_TREE_NOT_EMPTY : NULL;
}

/* Every client tree must be absent or empty on every export (which
 * export a client uses is its id mod n: check them all). */
static int nfs_trees_check(void *mem_ctx, const struct dbench_options *o,
			   const char *target, const char *const *paths,
			   size_t n, char **err)
{
	const struct nfs_opts *no = nfs_opts_of(o);

	for (unsigned u = 0; no != NULL && u < no->nurls; u++) {
		struct nfsv *m = nfsv_admin(mem_ctx, no->urls[u]);
		const char *why = NULL;
		size_t i;

		if (m == NULL)
			return -1;
		for (i = 0; m->ctx != NULL && why == NULL && i < n; i++)
			why = nfs_tree_why(m, paths[i]);
		talloc_free(m);
		if (why != NULL) {
			*err = backend_tree_refusal(mem_ctx, no->urls[u],
						    paths[i - 1], why);
			return -1;
		}
	}
	(void)target;
	return 0;
}

/*
 * The record of kept trees (clients/.dbench-kept) on every export, as
 * fileio keeps it in its directory: each export records the trees that
 * are on it (client i is on export i mod n).  The first failure is
 * returned, the other exports are still updated.
 */
static int nfs_trees_kept(void *mem_ctx, const struct dbench_options *o,
			  const char *target, const char *const *paths,
			  size_t n, bool kept)
{
	const struct nfs_opts *no = nfs_opts_of(o);
	int first = 0;

	(void)target;
	for (unsigned u = 0; no != NULL && u < no->nurls; u++) {
		struct nfsv *m = nfsv_admin(mem_ctx, no->urls[u]);
		int r = m == NULL ? -ENOMEM : m->ctx == NULL ? -ENOTCONN :
			vfs_kept_update(m, &m->vfs, paths, n, kept);

		talloc_free(m);
		if (first == 0)
			first = r;
	}
	return first;
}

/* Deltree replaces NBVFS_OPS's entry (designated initialisers: the last
 * one wins, which is the point here). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
const struct backend nfs_backend = {
	.abi = BACKEND_ABI,
	.name = "nfs",
	.description = "an NFSv3 server through libnfs (--nfs=nfs://SERVER/"
		       "EXPORT); client.txt and the NFSv3 dialect",
	.unavailable = NULL,
	.flags = 0,
	.options = nfs_options,
	.option = nfs_option,
	.options_done = nfs_options_done,
	.target_check = nfs_target_check,
	.client_fds = nfs_client_fds,
	.shared_note = nfs_shared_note,
	.shared_remove = nfs_shared_remove,
	.trees_check = nfs_trees_check,
	.trees_kept = nfs_trees_kept,
	.setup = nfs_setup,
	.cleanup = nfs_cleanup,
	.ops = {
		NBVFS_OPS,
		[OP_DELTREE] = nfs_deltree,
		[OP_GETATTR3] = nfs3_op,
		[OP_SETATTR3] = nfs3_op,
		[OP_LOOKUP3] = nfs3_op,
		[OP_ACCESS3] = nfs3_op,
		[OP_READLINK3] = nfs3_op,
		[OP_READ3] = nfs3_op,
		[OP_WRITE3] = nfs3_op,
		[OP_CREATE3] = nfs3_op,
		[OP_MKDIR3] = nfs3_op,
		[OP_SYMLINK3] = nfs3_op,
		[OP_REMOVE3] = nfs3_op,
		[OP_RMDIR3] = nfs3_op,
		[OP_RENAME3] = nfs3_op,
		[OP_LINK3] = nfs3_op,
		[OP_READDIRPLUS3] = nfs3_op,
		[OP_FSSTAT3] = nfs3_op,
		[OP_FSINFO3] = nfs3_op,
		[OP_PATHCONF3] = nfs3_op,
		[OP_COMMIT3] = nfs3_op,
		[OP_LOCK4] = nfs3_op,
		[OP_UNLOCK4] = nfs3_op,
		[OP_TEST4] = nfs3_op,
	},
};
#pragma GCC diagnostic pop

#else /* !NFS_WHOLE */

const struct backend nfs_backend = {
	.abi = BACKEND_ABI,
	.name = "nfs",
	.description = "an NFSv3 server through libnfs",
#ifdef HAVE_LIBNFS
	.module = "nfs",
#else
	.unavailable = NFS_UNAVAILABLE_WHY,
#endif
	.flags = 0,
	.options = nfs_options,
	.option = nfs_option,
	.options_done = nfs_options_done,
};

#endif /* NFS_WHOLE */
