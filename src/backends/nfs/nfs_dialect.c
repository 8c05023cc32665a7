/*
 * nfs_dialect.c - dbench 5.0's NFSv3 loadfile dialect on the nfs
 * backend: GETATTR3, READ3, WRITE3, ... filled in the backend's ops[]
 * directly, answering NFS3 status codes (LOCK4, UNLOCK4 and TEST4: NLM4
 * ones).
 *
 * GETATTR3, LOOKUP3, ACCESS3, PATHCONF3, FSINFO3, READ3, WRITE3, COMMIT3,
 * CREATE3, MKDIR3, REMOVE3, RMDIR3 and READDIRPLUS3 are single raw calls
 * on the handles of the names met (nfs_raw.c), as dbench 5.0 sends them;
 * the other ops use libnfs's path calls on the client's mount
 * (nfs_vfs.h).  The files the dialect reads, writes and locks are kept
 * open by name (NFS_FH_CACHE of them).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/statvfs.h>
#include <talloc.h>

#include "smb_semantics/nbvfs.h"
#include "nfs_status.h"
#include "nfs_vfs.h"

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

/* One op of the NFSv3 dialect. */
uint32_t nfs3_op(void *state, struct op_call *call)
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
uint32_t nfs_deltree(void *state, struct op_call *call)
{
	nfs3_files_close(nfs3_vfs(state));
	return nbvfs_deltree(state, call);
}

int nfs_cleanup(void *state, const char *path)
{
	nfs3_cache_flush(nfs3_vfs(state));
	return nbvfs_cleanup(state, path);
}
