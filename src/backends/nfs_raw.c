/*
 * nfs_raw.c - the NFSv3 dialect's LOOKUP3, GETATTR3, ACCESS3, PATHCONF3
 * and FSINFO3 as single raw calls on the mount's own RPC context, with a
 * small cache of the handles of the names met (see nfs_raw.h); and the
 * wait for one raw call that nfs_nlm.c shares.
 */
#include "config.h"

#ifdef HAVE_LIBNFS

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <talloc.h>
#include <time.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nfs.h>

#include "nfs_raw.h"

/* Names whose handles a client keeps (replaced in turn). */
#define NFS_RAW_CACHE	64
/* How often the wait lets libnfs look at its timeouts (ms). */
#define NFS_RAW_POLL_MS	100

struct raw_entry {
	char *path;		/* NULL: free */
	char *fh;
	u_int len;
};

struct nfs_raw {
	int timeout_ms;
	struct raw_entry cache[NFS_RAW_CACHE];
	unsigned next;
};

/* One call in flight: its answer, and for a LOOKUP where to keep the
 * handle found. */
struct raw_call {
	bool done;
	int status;		/* NFS3 status, or -errno */
	struct nfs_raw *r;
	const char *path;	/* LOOKUP: the name looked up */
};

static uint64_t raw_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int nfs_rpc_wait(struct rpc_context *rpc, const bool *done, int timeout_ms)
{
	uint64_t end = raw_now_ms() + (uint64_t)timeout_ms;

	while (!*done) {
		struct pollfd p = { .fd = rpc_get_fd(rpc),
				    .events = (short)rpc_which_events(rpc) };
		int r = poll(&p, 1, NFS_RAW_POLL_MS);

		if (r < 0 && errno != EINTR)
			return -errno;
		if (rpc_service(rpc, r > 0 ? p.revents : 0) < 0)
			return *done ? 0 : -ENOTCONN;
		if (!*done && raw_now_ms() > end)
			return -ETIMEDOUT;
	}
	return 0;
}

struct nfs_raw *nfs_raw_new(void *mem_ctx, int timeout_ms)
{
	struct nfs_raw *r = talloc_zero(mem_ctx, struct nfs_raw);

	if (r != NULL)
		r->timeout_ms = timeout_ms;
	return r;
}

void nfs_raw_forget(struct nfs_raw *r)
{
	for (unsigned i = 0; r != NULL && i < NFS_RAW_CACHE; i++)
		TALLOC_FREE(r->cache[i].path);
}

/* The cached handle of path, or NULL. */
static struct raw_entry *raw_find(struct nfs_raw *r, const char *path)
{
	for (unsigned i = 0; i < NFS_RAW_CACHE; i++)
		if (r->cache[i].path != NULL &&
		    strcmp(r->cache[i].path, path) == 0)
			return &r->cache[i];
	return NULL;
}

/* Keep fh as path's handle (out of memory: not kept). */
static void raw_keep(struct nfs_raw *r, const char *path, const nfs_fh3 *fh)
{
	struct raw_entry *e = raw_find(r, path);

	if (e == NULL) {
		e = &r->cache[r->next];
		r->next = (r->next + 1) % NFS_RAW_CACHE;
	}
	TALLOC_FREE(e->path);
	e->path = talloc_strdup(r, path);
	e->fh = e->path != NULL ? talloc_memdup(e->path, fh->data.data_val,
						fh->data.data_len) : NULL;
	e->len = fh->data.data_len;
	if (e->fh == NULL)
		TALLOC_FREE(e->path);
}

/* Drop path's handle, if kept. */
static void raw_drop(struct nfs_raw *r, const char *path)
{
	struct raw_entry *e = raw_find(r, path);

	if (e != NULL)
		TALLOC_FREE(e->path);
}

/* Every call's callback: the NFS3 status of the answer (the status is
 * the first field of every NFSv3 result), -ENOTCONN without one; a
 * LOOKUP's handle is kept. */
static void raw_done(struct rpc_context *rpc, int status, void *data,
		     void *private_data)
{
	struct raw_call *c = private_data;

	(void)rpc;
	c->done = true;
	if (status != RPC_STATUS_SUCCESS) {
		c->status = status == RPC_STATUS_TIMEOUT ? -ETIMEDOUT :
							   -ENOTCONN;
		return;
	}
	c->status = (int)*(const nfsstat3 *)data;
	if (c->path != NULL && c->status == NFS3_OK)
		raw_keep(c->r, c->path,
			 &((LOOKUP3res *)data)->LOOKUP3res_u.resok.object);
}

/* Send one call of op on fh (LOOKUP: of name in the directory fh, kept
 * as path) and wait for it.  The status, or -errno. */
static int raw_send(struct nfs_raw *r, struct rpc_context *rpc,
		    enum nfs_raw_op op, nfs_fh3 fh, const char *name,
		    const char *path, uint32_t access)
{
	struct raw_call c = { .r = r };
	int s;

	if (op == NFS_RAW_LOOKUP) {
		LOOKUP3args a = { .what = { .dir = fh,
					    .name = (char *)name } };

		c.path = path;
		s = rpc_nfs3_lookup_async(rpc, raw_done, &a, &c);
	} else if (op == NFS_RAW_GETATTR) {
		GETATTR3args a = { .object = fh };

		s = rpc_nfs3_getattr_async(rpc, raw_done, &a, &c);
	} else if (op == NFS_RAW_ACCESS) {
		ACCESS3args a = { .object = fh, .access = access };

		s = rpc_nfs3_access_async(rpc, raw_done, &a, &c);
	} else if (op == NFS_RAW_PATHCONF) {
		PATHCONF3args a = { .object = fh };

		s = rpc_nfs3_pathconf_async(rpc, raw_done, &a, &c);
	} else {
		FSINFO3args a = { .fsroot = fh };

		s = rpc_nfs3_fsinfo_async(rpc, raw_done, &a, &c);
	}
	if (s != 0)
		return -ENOTCONN;
	s = nfs_rpc_wait(rpc, &c.done, r->timeout_ms);
	return s < 0 ? s : c.status;
}

/*
 * The handle of path in *fh (valid until the cache changes): the root's,
 * a cached one (*cached set), or found by LOOKUPs from the nearest
 * directory known.  0, an NFS3 status, or -errno.
 */
static int raw_resolve(struct nfs_raw *r, struct nfs_context *ctx,
		       char *path, nfs_fh3 *fh, bool *cached)
{
	struct raw_entry *e;
	char *slash;
	int s;

	*cached = true;
	if (path[0] == '/' && path[1] == '\0') {
		const struct nfs_fh *root = nfs_get_rootfh(ctx);

		fh->data.data_len = (u_int)root->len;
		fh->data.data_val = root->val;
		return 0;
	}
	if ((e = raw_find(r, path)) == NULL) {
		*cached = false;
		slash = strrchr(path, '/');
		*slash = '\0';
		s = raw_resolve(r, ctx, slash == path ? (char *)"/" : path, fh,
				cached);
		*slash = '/';
		*cached = false;
		if (s != 0)
			return s;
		s = raw_send(r, nfs_get_rpc_context(ctx), NFS_RAW_LOOKUP, *fh,
			     slash + 1, path, 0);
		if (s != 0 || (e = raw_find(r, path)) == NULL)
			return s != 0 ? s : -ENOMEM;
	}
	fh->data.data_len = e->len;
	fh->data.data_val = e->fh;
	return 0;
}

/* nfs_raw_call once: *stale when a handle was called stale (a cached
 * one, most likely). */
static int raw_call_once(struct nfs_raw *r, struct nfs_context *ctx,
			 enum nfs_raw_op op, char *path, uint32_t access,
			 bool *stale)
{
	struct rpc_context *rpc = nfs_get_rpc_context(ctx);
	char *slash = strrchr(path, '/');
	bool cached;
	nfs_fh3 fh;
	int s;

	if (op == NFS_RAW_LOOKUP && slash != NULL && slash[1] != '\0') {
		*slash = '\0';
		s = raw_resolve(r, ctx, slash == path ? (char *)"/" : path,
				&fh, &cached);
		*slash = '/';
		if (s == 0)
			s = raw_send(r, rpc, op, fh, slash + 1, path, 0);
	} else {
		s = raw_resolve(r, ctx, path, &fh, &cached);
		if (s == 0)
			s = raw_send(r, rpc, op, fh, NULL, NULL, access);
	}
	*stale = s == NFS3ERR_STALE;
	return s;
}

int nfs_raw_call(struct nfs_raw *r, struct nfs_context *ctx,
		 enum nfs_raw_op op, const char *abs, uint32_t access)
{
	char *path = talloc_strdup(r, abs);
	bool stale = false;
	int s;

	if (path == NULL)
		return -ENOMEM;
	/* "/a/b/" and "/a/b" are one name */
	for (size_t n = strlen(path); n > 1 && path[n - 1] == '/'; n--)
		path[n - 1] = '\0';
	s = raw_call_once(r, ctx, op, path, access, &stale);
	if (stale) {
		nfs_raw_forget(r);
		s = raw_call_once(r, ctx, op, path, access, &stale);
	}
	if (s == NFS3ERR_NOENT || s == NFS3ERR_STALE)
		raw_drop(r, path);
	talloc_free(path);
	return s;
}

#endif /* HAVE_LIBNFS */
