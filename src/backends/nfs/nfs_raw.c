/*
 * nfs_raw.c - the NFSv3 dialect's calls (LOOKUP3, GETATTR3, ACCESS3,
 * PATHCONF3, FSINFO3, READ3, WRITE3, COMMIT3, CREATE3, MKDIR3, REMOVE3,
 * RMDIR3, READDIRPLUS3) as single raw calls on the mount's own RPC
 * context, with a small cache of the handles of the names met, and a
 * tree's removal by the same calls (see nfs_raw.h); and the wait for one
 * raw call that nfs_nlm.c shares.
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
#include "util/util.h"

/* Names whose handles a client keeps (replaced in turn). */
#define NFS_RAW_CACHE	64
/* How often the wait lets libnfs look at its timeouts (ms). */
#define NFS_RAW_POLL_MS	100

struct raw_entry {
	char *path;		/* NULL: free */
	char *fh;
	u_int len;
	ftype3 type;		/* 0: not known */
};

/* A directory's entries (READDIRPLUS), for a tree's removal. */
struct raw_list {
	char **names;
	ftype3 *types;		/* 0: not known */
	size_t n, cap;
};

struct nfs_raw {
	int timeout_ms;
	struct raw_entry cache[NFS_RAW_CACHE];
	unsigned next;
};

/* One call in flight: its answer, for a LOOKUP, CREATE or MKDIR where to
 * keep the handle found, for a READDIRPLUS where to go on. */
struct raw_call {
	bool done;
	int status;		/* NFS3 status, or -errno */
	struct nfs_raw *r;
	enum nfs_raw_op op;
	const char *path;	/* the name's path (handle kept under it) */
	struct nfs_raw_io *io;
	bool more;		/* READDIRPLUS: not at the end yet */
	struct raw_list *list;	/* READDIRPLUS: the entries, or NULL */
	cookie3 cookie;
	cookieverf3 verf;
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
	util_beat();	/* an answer: progress for the stall watch */
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

void nfs_raw_forget_tree(struct nfs_raw *r, const char *abs)
{
	size_t n = strlen(abs);

	while (n > 1 && abs[n - 1] == '/')
		n--;
	for (unsigned i = 0; r != NULL && i < NFS_RAW_CACHE; i++) {
		const char *p = r->cache[i].path;

		if (p != NULL && strncmp(p, abs, n) == 0 &&
		    (p[n] == '\0' || p[n] == '/' || n == 1))
			TALLOC_FREE(r->cache[i].path);
	}
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

/* Keep fh (of type, 0: not known) as path's handle (out of memory: not
 * kept). */
static void raw_keep(struct nfs_raw *r, const char *path, const nfs_fh3 *fh,
		     ftype3 type)
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
	e->type = type;
	if (e->fh == NULL)
		TALLOC_FREE(e->path);
}

/* The type in a post_op_attr, 0 when the server sent none. */
static ftype3 raw_type(const post_op_attr *a)
{
	return a->attributes_follow ? a->post_op_attr_u.attributes.type :
				      (ftype3)0;
}

/* A handle the server gave for c's name: kept. */
static void raw_keep_new(struct raw_call *c, const post_op_fh3 *fh,
			 ftype3 type)
{
	if (fh->handle_follows)
		raw_keep(c->r, c->path, &fh->post_op_fh3_u.handle, type);
}

/* Add name (of type) to l, "." and ".." left out.  False: out of
 * memory. */
static bool raw_list_add(struct raw_list *l, const char *name, ftype3 type)
{
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return true;
	if (l->n == l->cap) {
		size_t cap = l->cap > 0 ? 2 * l->cap : 16;
		char **n = talloc_realloc(l, l->names, char *, cap);
		ftype3 *t = n != NULL ? talloc_realloc(l, l->types, ftype3,
						       cap) : NULL;

		if (n != NULL)
			l->names = n;
		if (t == NULL)
			return false;
		l->types = t;
		l->cap = cap;
	}
	l->types[l->n] = type;
	l->names[l->n] = talloc_strdup(l, name);
	return l->names[l->n++] != NULL;
}

/* A READDIRPLUS answer: its entries listed (if asked), where the next
 * one starts, if any.  libnfs 4.0 decodes the entries at addresses only
 * 4-aligned: each is copied out before its fields are read. */
static void raw_dir_next(struct raw_call *c, READDIRPLUS3resok *ok)
{
	const entryplus3 *p = ok->reply.entries;
	entryplus3 e;

	c->more = !ok->reply.eof && p != NULL;
	for (; p != NULL; p = e.nextentry) {
		memcpy(&e, p, sizeof(e));
		if (c->list != NULL &&
		    !raw_list_add(c->list, e.name,
				  raw_type(&e.name_attributes)))
			c->status = -ENOMEM;
		c->cookie = e.cookie;
	}
	if (c->more)
		memcpy(c->verf, ok->cookieverf, sizeof(c->verf));
}

/* What an NFS3_OK answer of c's op brings: handles to keep, bytes. */
static void raw_answer(struct raw_call *c, void *data)
{
	switch (c->op) {
	case NFS_RAW_LOOKUP: {
		LOOKUP3resok *ok = &((LOOKUP3res *)data)->LOOKUP3res_u.resok;

		raw_keep(c->r, c->path, &ok->object,
			 raw_type(&ok->obj_attributes));
		break;
	}
	case NFS_RAW_CREATE:
		raw_keep_new(c, &((CREATE3res *)data)->CREATE3res_u.resok.obj,
			     NF3REG);
		break;
	case NFS_RAW_MKDIR:
		raw_keep_new(c, &((MKDIR3res *)data)->MKDIR3res_u.resok.obj,
			     NF3DIR);
		break;
	case NFS_RAW_READ:
		c->io->done = ((READ3res *)data)->READ3res_u.resok.count;
		break;
	case NFS_RAW_WRITE:
		c->io->done = ((WRITE3res *)data)->WRITE3res_u.resok.count;
		break;
	case NFS_RAW_READDIRPLUS:
		raw_dir_next(c,
			&((READDIRPLUS3res *)data)->READDIRPLUS3res_u.resok);
		break;
	default:
		break;
	}
}

/* Every call's callback: the NFS3 status of the answer (the status is
 * the first field of every NFSv3 result), -ENOTCONN without one. */
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
	if (c->status == NFS3_OK)
		raw_answer(c, data);
}

/* Queue c's call of a name in the directory dir (LOOKUP, CREATE, MKDIR,
 * REMOVE, RMDIR).  0, or -1 when libnfs could not queue it. */
static int raw_queue_name(struct rpc_context *rpc, struct raw_call *c,
			  nfs_fh3 dir, const char *name)
{
	diropargs3 where = { .dir = dir, .name = (char *)name };
	sattr3 attr = { .mode = { .set_it = 1 } };

	switch (c->op) {
	case NFS_RAW_LOOKUP: {
		LOOKUP3args a = { .what = where };

		return rpc_nfs3_lookup_async(rpc, raw_done, &a, c);
	}
	case NFS_RAW_CREATE: {
		CREATE3args a = { .where = where, .how = { .mode = UNCHECKED } };

		attr.mode.set_mode3_u.mode = 0644;
		a.how.createhow3_u.obj_attributes = attr;
		return rpc_nfs3_create_async(rpc, raw_done, &a, c);
	}
	case NFS_RAW_MKDIR: {
		MKDIR3args a = { .where = where };

		attr.mode.set_mode3_u.mode = 0755;
		a.attributes = attr;
		return rpc_nfs3_mkdir_async(rpc, raw_done, &a, c);
	}
	case NFS_RAW_REMOVE: {
		REMOVE3args a = { .object = where };

		return rpc_nfs3_remove_async(rpc, raw_done, &a, c);
	}
	default: {
		RMDIR3args a = { .object = where };

		return rpc_nfs3_rmdir_async(rpc, raw_done, &a, c);
	}
	}
}

/* Queue c's call on the handle fh (the other ops).  0, or -1. */
static int raw_queue_fh(struct rpc_context *rpc, struct raw_call *c,
			nfs_fh3 fh)
{
	struct nfs_raw_io *io = c->io;

	switch (c->op) {
	case NFS_RAW_GETATTR: {
		GETATTR3args a = { .object = fh };

		return rpc_nfs3_getattr_async(rpc, raw_done, &a, c);
	}
	case NFS_RAW_ACCESS: {
		ACCESS3args a = { .object = fh, .access = io->access };

		return rpc_nfs3_access_async(rpc, raw_done, &a, c);
	}
	case NFS_RAW_PATHCONF: {
		PATHCONF3args a = { .object = fh };

		return rpc_nfs3_pathconf_async(rpc, raw_done, &a, c);
	}
	case NFS_RAW_FSINFO: {
		FSINFO3args a = { .fsroot = fh };

		return rpc_nfs3_fsinfo_async(rpc, raw_done, &a, c);
	}
	case NFS_RAW_READ: {
		READ3args a = { .file = fh, .offset = io->offset,
				.count = io->count };

		return rpc_nfs3_read_async(rpc, raw_done, &a, c);
	}
	case NFS_RAW_WRITE: {
		WRITE3args a = { .file = fh, .offset = io->offset,
				 .count = io->count,
				 .stable = (stable_how)io->stable,
				 .data = { .data_len = io->count,
					   .data_val = (char *)io->data } };

		return rpc_nfs3_write_async(rpc, raw_done, &a, c);
	}
	case NFS_RAW_COMMIT: {
		COMMIT3args a = { .file = fh };

		return rpc_nfs3_commit_async(rpc, raw_done, &a, c);
	}
	default: {	/* READDIRPLUS, from c's cookie */
		READDIRPLUS3args a = { .dir = fh, .cookie = c->cookie,
				       .dircount = 8000, .maxcount = 8000 };

		memcpy(a.cookieverf, c->verf, sizeof(a.cookieverf));
		return rpc_nfs3_readdirplus_async(rpc, raw_done, &a, c);
	}
	}
}

/* Is op one of the calls sent for a name in its directory? */
static bool raw_by_name(enum nfs_raw_op op)
{
	return op == NFS_RAW_LOOKUP || op == NFS_RAW_CREATE ||
	       op == NFS_RAW_MKDIR || op == NFS_RAW_REMOVE ||
	       op == NFS_RAW_RMDIR;
}

/* Send c's call (on the directory's handle fh with name, or on the
 * handle fh; a READDIRPLUS until its end) and wait for it.  The status,
 * or -errno. */
static int raw_send(struct nfs_raw *r, struct rpc_context *rpc,
		    struct raw_call *c, nfs_fh3 fh, const char *name)
{
	int s;

	do {
		c->done = false;
		c->more = false;
		s = raw_by_name(c->op) ? raw_queue_name(rpc, c, fh, name) :
					 raw_queue_fh(rpc, c, fh);
		if (s != 0)
			return -ENOTCONN;
		s = nfs_rpc_wait(rpc, &c->done, r->timeout_ms);
		if (s < 0)
			return s;
	} while (c->status == NFS3_OK && c->more);
	return c->status;
}

/*
 * The handle of path in *fh (valid until the cache changes): the root's,
 * a cached one, or found by LOOKUPs from the nearest directory known.
 * plain: a symlink on the way (path itself included) is -ELOOP.  0, an
 * NFS3 status, or -errno.
 */
static int raw_resolve(struct nfs_raw *r, struct nfs_context *ctx,
		       char *path, nfs_fh3 *fh, bool plain)
{
	struct raw_entry *e;
	char *slash;
	int s;

	if (path[0] == '/' && path[1] == '\0') {
		const struct nfs_fh *root = nfs_get_rootfh(ctx);

		fh->data.data_len = (u_int)root->len;
		fh->data.data_val = root->val;
		return 0;
	}
	if ((e = raw_find(r, path)) == NULL) {
		struct raw_call c = { .r = r, .op = NFS_RAW_LOOKUP,
				      .path = path };

		slash = strrchr(path, '/');
		*slash = '\0';
		s = raw_resolve(r, ctx, slash == path ? (char *)"/" : path, fh,
				plain);
		*slash = '/';
		if (s != 0)
			return s;
		s = raw_send(r, nfs_get_rpc_context(ctx), &c, *fh, slash + 1);
		if (s != 0 || (e = raw_find(r, path)) == NULL)
			return s != 0 ? s : -ENOMEM;
	}
	if (plain && e->type == NF3LNK)
		return -ELOOP;
	fh->data.data_len = e->len;
	fh->data.data_val = e->fh;
	return 0;
}

/* nfs_raw_call once: *stale when a handle was called stale (a cached
 * one, most likely). */
static int raw_call_once(struct nfs_raw *r, struct nfs_context *ctx,
			 enum nfs_raw_op op, char *path,
			 struct nfs_raw_io *io, struct raw_list *list,
			 bool *stale)
{
	struct rpc_context *rpc = nfs_get_rpc_context(ctx);
	char *slash = strrchr(path, '/');
	struct raw_call c = { .r = r, .op = op, .path = path, .io = io,
			      .list = list };
	bool plain = op == NFS_RAW_REMOVE || op == NFS_RAW_RMDIR;
	nfs_fh3 fh;
	int s;

	if (raw_by_name(op) && slash != NULL && slash[1] != '\0') {
		*slash = '\0';
		s = raw_resolve(r, ctx, slash == path ? (char *)"/" : path,
				&fh, plain);
		*slash = '/';
		if (s == 0)
			s = raw_send(r, rpc, &c, fh, slash + 1);
	} else {
		s = raw_resolve(r, ctx, path, &fh, false);
		/* a name op on the root itself: on "." in it */
		if (s == 0)
			s = raw_send(r, rpc, &c, fh, ".");
	}
	*stale = s == NFS3ERR_STALE;
	return s;
}

/* nfs_raw_call on path (a copy, "/a/b" form), listing a READDIRPLUS's
 * entries in list when not NULL. */
static int raw_call(struct nfs_raw *r, struct nfs_context *ctx,
		    enum nfs_raw_op op, char *path, struct nfs_raw_io *io,
		    struct raw_list *list)
{
	bool stale = false;
	int s = raw_call_once(r, ctx, op, path, io, list, &stale);

	if (stale) {
		nfs_raw_forget(r);
		if (list != NULL)
			list->n = 0;
		s = raw_call_once(r, ctx, op, path, io, list, &stale);
	}
	if ((s == NFS3_OK && (op == NFS_RAW_REMOVE || op == NFS_RAW_RMDIR)) ||
	    s == NFS3ERR_NOENT || s == NFS3ERR_STALE)
		nfs_raw_forget_tree(r, path);
	return s;
}

/* A talloc copy of abs under mem_ctx without trailing slashes (but
 * "/"), or NULL. */
static char *raw_path(void *mem_ctx, const char *abs)
{
	char *path = talloc_strdup(mem_ctx, abs);

	for (size_t n = path != NULL ? strlen(path) : 0;
	     n > 1 && path[n - 1] == '/'; n--)
		path[n - 1] = '\0';
	return path;
}

int nfs_raw_call(struct nfs_raw *r, struct nfs_context *ctx,
		 enum nfs_raw_op op, const char *abs, struct nfs_raw_io *io)
{
	char *path = raw_path(r, abs);
	int s;

	if (path == NULL)
		return -ENOMEM;
	s = raw_call(r, ctx, op, path, io, NULL);
	talloc_free(path);
	return s;
}

/* A missing name (or one below a non-directory) is removed already. */
static int raw_gone(int s)
{
	return s == NFS3ERR_NOENT || s == NFS3ERR_NOTDIR ? 0 : s;
}

/* Remove every entry of the directory path, what is below them first;
 * then the directory itself unless it is the root. */
static int raw_dir_remove(struct nfs_raw *r, struct nfs_context *ctx,
			  char *path)
{
	struct raw_list *l = talloc_zero(r, struct raw_list);
	bool root = strcmp(path, "/") == 0;
	int s = l != NULL ? raw_call(r, ctx, NFS_RAW_READDIRPLUS, path, NULL,
				     l) : -ENOMEM;

	for (size_t i = 0; s == 0 && i < l->n; i++) {
		char *p = talloc_asprintf(l, "%s/%s", root ? "" : path,
					  l->names[i]);

		if (p == NULL)
			s = -ENOMEM;
		else if (l->types[i] == NF3DIR || l->types[i] == 0)
			s = raw_dir_remove(r, ctx, p);
		else
			s = raw_gone(raw_call(r, ctx, NFS_RAW_REMOVE, p, NULL,
					      NULL));
	}
	talloc_free(l);
	if (s == NFS3ERR_NOTDIR)	/* not a directory after all */
		return raw_gone(raw_call(r, ctx, NFS_RAW_REMOVE, path, NULL,
					 NULL));
	if (s == 0 && !root)
		s = raw_call(r, ctx, NFS_RAW_RMDIR, path, NULL, NULL);
	return raw_gone(s);
}

int nfs_raw_remove_tree(struct nfs_raw *r, struct nfs_context *ctx,
			const char *abs)
{
	char *path = raw_path(r, abs);
	struct raw_entry *e;
	nfs_fh3 fh;
	int s;

	if (path == NULL)
		return -ENOMEM;
	s = raw_resolve(r, ctx, path, &fh, false);
	if (s == 0 && strcmp(path, "/") != 0 &&
	    (e = raw_find(r, path)) != NULL && e->type != NF3DIR &&
	    e->type != 0)
		s = raw_call(r, ctx, NFS_RAW_REMOVE, path, NULL, NULL);
	else if (s == 0)
		s = raw_dir_remove(r, ctx, path);
	talloc_free(path);
	return raw_gone(s);
}

#endif /* HAVE_LIBNFS */
