/*
 * smb2_tree.c - the native path's directory ops: Rmdir, FIND_FIRST
 * (CREATE of the directory and QUERY_DIRECTORY with the loadfile's
 * pattern as one compound, more QUERY_DIRECTORY until the server says no
 * more or the loadfile's maximum is reached, CLOSE), Deltree and the
 * cleanup (a walk: list a directory, close it, remove its files, their
 * CREATEs with delete on close in flight and then the CLOSEs (up to
 * --smb-in-flight at once), recurse, remove it); and the listing of a whole directory (dbench
 * 5.0's READDIR).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <talloc.h>

#include "loadfile/ntstatus.h"
#include "smb2_ops_private.h"

#define QD_OUT_LEN	65536

/* SMB1 FIND level -> SMB2 directory information class. */
static uint8_t nat_find_class(int64_t level)
{
	if (level >= 1000 && level < 1256)
		return (uint8_t)(level - 1000);
	switch (level) {
	case 0x101: return 1;		/* directory */
	case 0x102: return 2;		/* full directory */
	case 0x103: return 12;		/* names */
	case 0x105: return 38;		/* id full directory */
	case 0x106: return 37;		/* id both directory */
	default: return 3;		/* both directory (0x104, ...) */
	}
}

/* QUERY_DIRECTORY on fid with pattern (UTF-16, plen bytes). */
static void nat_qdir(struct smb_native *n, struct smb2_req *r, unsigned k,
		     uint8_t cls, const uint8_t *fid, const uint8_t *pattern,
		     size_t plen)
{
	uint8_t *b = nat_buf(n, k, 32 + plen);

	*r = (struct smb2_req){ .cmd = SMB2_QUERY_DIRECTORY, .body = b,
				.body_len = 32 + plen };
	if (b == NULL)
		return;
	smb2_put16(b, 33);
	b[2] = cls;
	memcpy(b + 8, fid, 16);
	smb2_put16(b + 24, SMB2_HDR_SIZE + 32);
	smb2_put16(b + 26, (uint16_t)plen);
	smb2_put32(b + 28, QD_OUT_LEN);
	memcpy(b + 32, pattern, plen);
}

/* The entries of a QUERY_DIRECTORY response, each given to fn (if any);
 * returns how many. */
static uint64_t nat_entries(const struct smb2_req *r,
			    void (*fn)(void *arg, const uint8_t *e,
				       size_t len),
			    void *arg)
{
	size_t off, len, at = 0;
	uint64_t cnt = 0;

	if (r->rbody_len < 8)
		return 0;
	off = smb2_get16(r->rbody + 2);
	len = smb2_get32(r->rbody + 4);
	if (off < SMB2_HDR_SIZE || off - SMB2_HDR_SIZE + len > r->rbody_len)
		return 0;
	for (const uint8_t *b = r->rbody + off - SMB2_HDR_SIZE;
	     at + 4 <= len;) {
		uint32_t next = smb2_get32(b + at);

		if (fn != NULL)
			fn(arg, b + at, next != 0 ? next : len - at);
		cnt++;
		if (next == 0)
			break;
		at += next;
	}
	return cnt;
}

/* Split path at its last '/': the directory into name[0], the leaf into
 * name[1]; -1 on bad UTF-8. */
static int nat_split(struct smb_native *n, const char *path, long *dl,
		     long *ll)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (slash == NULL) {
		*dl = nat_path(n, 0, "");
		*ll = nat_path(n, 1, path);
		return *dl < 0 || *ll < 0 ? -1 : 0;
	}
	dir = talloc_strndup(n, path, (size_t)(slash - path));
	*dl = dir != NULL ? nat_path(n, 0, dir) : -1;
	talloc_free(dir);
	*ll = nat_path(n, 1, slash + 1);
	return *dl < 0 || *ll < 0 ? -1 : 0;
}

/* Count with QUERY_DIRECTORY on the open fid until the end or max. */
static uint32_t nat_find_more(struct smb_native *n, struct op_call *call,
			      const uint8_t *fid, uint8_t cls, size_t plen,
			      int64_t max, uint64_t *count)
{
	struct smb2_req req;
	uint32_t status = NT_STATUS_OK;

	while (max <= 0 || *count < (uint64_t)max) {
		nat_qdir(n, &req, 0, cls, fid, n->name[1], plen);
		status = nat_run(n, call, &req, 1);
		if (status != NT_STATUS_OK)
			break;
		*count += nat_entries(&req, NULL, NULL);
	}
	if (status == NT_STATUS_NO_MORE_FILES) {
		call->err = 0;
		status = NT_STATUS_OK;
	}
	return status;
}

/*
 * Open directory dir and ask for its first entries matching mask (class
 * cls) in one compound.  True with *fid set when the directory is open
 * (*status the listing's; close it with nat_dir_close()); false with
 * *status the one to return when it did not open.
 */
static bool nat_dir_open(struct smb_native *n, struct op_call *call,
			 struct smb2_req req[2], const uint8_t *dir,
			 size_t dlen, uint8_t cls, const uint8_t *mask,
			 size_t mlen, uint8_t fid[16], uint32_t *status)
{
	nat_create(n, &req[0], 0, dir, dlen, 0x00100081u, 1, 1);
	nat_qdir(n, &req[1], 1, cls, nat_related, mask, mlen);
	*status = nat_run(n, call, req, 2);
	if (req[0].status != 0)
		return false;
	if (req[0].rbody_len < 80) {
		*status = nat_fail(call, NT_STATUS_UNSUCCESSFUL, EPROTO);
		return false;
	}
	memcpy(fid, req[0].rbody + 64, 16);
	return true;
}

/* Close what nat_dir_open() opened: NT_STATUS_OK, or the status of a
 * lost connection. */
static uint32_t nat_dir_close(struct smb_native *n, struct op_call *call,
			      struct smb2_req *req, const uint8_t fid[16])
{
	nat_close(n, req, 0, fid);
	if (req->body == NULL || smb2_exchange(n->c, req, 1) != 0)
		return nat_lost(n, call, -EIO);
	return NT_STATUS_OK;
}

uint32_t nat_find(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	const char *pattern = call->path[0] != NULL ? call->path[0] : "";
	uint8_t cls = nat_find_class(call->arg[0]), fid[16];
	int64_t max = call->arg[1];
	struct smb2_req req[2];
	uint64_t count = 0;
	uint32_t status, closed;
	long dl, ll;

	if (nat_split(n, pattern, &dl, &ll) != 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	if (!nat_dir_open(n, call, req, n->name[0], (size_t)dl, cls,
			  n->name[1], (size_t)ll, fid, &status))
		return status;
	if (status == NT_STATUS_OK) {
		count = nat_entries(&req[1], NULL, NULL);
		status = nat_find_more(n, call, fid, cls, (size_t)ll,
				       max, &count);
	}
	closed = nat_dir_close(n, call, req, fid);
	if (closed != NT_STATUS_OK)
		return closed;
	if (status == NT_STATUS_OK && count == 0)
		status = NT_STATUS_NO_SUCH_FILE;
	if (status != NT_STATUS_OK)
		return nat_fail(call, status, ENOENT);
	call->err = 0;
	if (max > 0 && count > (uint64_t)max)
		count = (uint64_t)max;
	call->result = (int64_t)count;
	return NT_STATUS_OK;
}

/*
 * CREATE, SET_INFO FileDispositionInformation, CLOSE: the disposition's
 * answer says DIRECTORY_NOT_EMPTY where the create option delete-on-close
 * would have the directory silently stay (Samba answers its CLOSE OK).
 */
uint32_t nat_rmdir(void *state, struct op_call *call)
{
	static const uint8_t delete_pending = 1;
	struct smb_native *n = state;
	struct smb2_req req[3];

	nat_sinfo(n, &req[1], 1, 13, nat_related, &delete_pending, 1);
	return nat_path_op(n, call, req, 3, NAT_ACCESS_DELETE, 1, 0x1);
}

/* ---- removing trees ---- */

struct nat_names {
	void *mem;
	const uint8_t *dir;		/* the directory's path (UTF-16) */
	size_t dlen;
	uint8_t **path;			/* its entries' paths */
	size_t *len;
	bool *is_dir;
	size_t n, cap;
	bool nomem;
	bool skim;			/* read the listing, keep nothing */
};

/* An entry of FileDirectoryInformation: its path kept (not . or ..). */
static void nat_keep_name(void *arg, const uint8_t *e, size_t elen)
{
	struct nat_names *l = arg;
	size_t nl = elen >= 64 ? smb2_get32(e + 60) : 0;
	size_t sep = l->dlen > 0 ? 2 : 0;
	uint8_t *p;

	if (nl == 0 || 64 + nl > elen ||
	    (nl == 2 && memcmp(e + 64, ".\0", 2) == 0) ||
	    (nl == 4 && memcmp(e + 64, ".\0.\0", 4) == 0))
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 32;

		l->path = talloc_realloc(l->mem, l->path, uint8_t *, cap);
		l->len = talloc_realloc(l->mem, l->len, size_t, cap);
		l->is_dir = talloc_realloc(l->mem, l->is_dir, bool, cap);
		if (l->path == NULL || l->len == NULL || l->is_dir == NULL) {
			l->nomem = true;
			return;
		}
		l->cap = cap;
	}
	p = talloc_size(l->mem, l->dlen + sep + nl);
	if (p == NULL) {
		l->nomem = true;
		return;
	}
	memcpy(p, l->dir, l->dlen);
	memcpy(p + l->dlen, "\\\0", sep);
	memcpy(p + l->dlen + sep, e + 64, nl);
	l->path[l->n] = p;
	l->len[l->n] = l->dlen + sep + nl;
	l->is_dir[l->n++] = (smb2_get32(e + 56) & 0x10) != 0;
}

/* List directory p into l (then closed).  The CREATE's status when it
 * failed, else the listing's. */
static uint32_t nat_list(struct smb_native *n, struct op_call *call,
			 struct nat_names *l)
{
	static const uint8_t star[2] = { '*', 0 };
	struct smb2_req req[2];
	uint32_t status, closed;
	uint8_t fid[16];

	if (!nat_dir_open(n, call, req, l->dir, l->dlen, 1, star, 2, fid,
			  &status))
		return status;
	while (status == NT_STATUS_OK && !l->nomem) {
		nat_entries(&req[1], l->skim ? NULL : nat_keep_name, l);
		nat_qdir(n, &req[1], 1, 1, fid, star, 2);
		status = nat_run(n, call, &req[1], 1);
	}
	if (status == NT_STATUS_NO_MORE_FILES || status == NT_STATUS_NO_SUCH_FILE)
		status = NT_STATUS_OK;
	if (l->nomem)
		status = NT_STATUS_NO_MEMORY;
	closed = nat_dir_close(n, call, req, fid);
	return closed != NT_STATUS_OK ? closed : status;
}

uint32_t nat_list_all(struct smb_native *n, struct op_call *call,
		      const char *path)
{
	struct nat_names l = { .skim = true };
	long len = nat_path(n, 0, path);
	uint32_t status;

	if (len < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	l.dir = n->name[0];
	l.dlen = (size_t)len;
	status = nat_list(n, call, &l);
	if (status == NT_STATUS_OK)
		call->err = 0;
	return status;
}

/* Remove p (a file, or a directory with delete on close) by CREATE and
 * CLOSE. */
static uint32_t nat_remove(struct smb_native *n, struct op_call *call,
			   const uint8_t *p, size_t len, bool dir)
{
	struct smb2_req req[2];

	nat_create(n, &req[0], 0, p, len, NAT_ACCESS_DELETE, 1,
		   dir ? 0x1001 : 0x1040);
	nat_close(n, &req[1], 1, nat_related);
	return nat_run(n, call, req, 2);
}

static bool nat_missing(uint32_t status)
{
	return status == NT_STATUS_OBJECT_NAME_NOT_FOUND ||
	       status == NT_STATUS_OBJECT_PATH_NOT_FOUND;
}

/*
 * A directory's files removed with several requests in flight: the
 * CREATE (delete on close) of each, then the CLOSE of each that opened.
 */
struct nat_rm {
	struct smb_native *n;
	const struct nat_names *l;
	size_t *file;		/* the files' indexes in l */
	uint8_t (*fid)[16];	/* the opened ones' file ids */
	size_t nfiles, nopen;
	bool closing;
	uint32_t status;	/* the first failure but a missing file */
};

static int nat_rm_build(void *arg, unsigned k, struct smb2_req *req)
{
	struct nat_rm *rm = arg;
	size_t i = rm->closing ? 0 : rm->file[k];

	if (rm->closing)
		nat_close(rm->n, req, 0, rm->fid[k]);
	else
		nat_create(rm->n, req, 0, rm->l->path[i], rm->l->len[i],
			   NAT_ACCESS_DELETE, 1, 0x1040);
	if (req->body != NULL)
		return 0;
	rm->status = NT_STATUS_NO_MEMORY;
	return 1;
}

static int nat_rm_done(void *arg, unsigned k, const struct smb2_req *req)
{
	struct nat_rm *rm = arg;
	uint32_t status = req->status;

	(void)k;
	if (!rm->closing && status == NT_STATUS_OK) {
		if (req->rbody_len >= 80)
			memcpy(rm->fid[rm->nopen++], req->rbody + 64, 16);
		else
			status = NT_STATUS_UNSUCCESSFUL;
	}
	if (status != NT_STATUS_OK && !nat_missing(status) &&
	    rm->status == NT_STATUS_OK)
		rm->status = status;
	return 0;
}

/* Remove the files (not the directories) of l. */
static uint32_t nat_rm_files(struct smb_native *n, struct op_call *call,
			     const struct nat_names *l)
{
	struct nat_rm rm = { .n = n, .l = l };
	struct smb2_flight f = { .build = nat_rm_build, .done = nat_rm_done,
				 .arg = &rm };
	uint32_t status;

	rm.file = talloc_array(l->mem, size_t, l->n + 1);
	rm.fid = talloc_size(l->mem, 16 * (l->n + 1));
	if (rm.file == NULL || rm.fid == NULL)
		return nat_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	for (size_t i = 0; i < l->n; i++)
		if (!l->is_dir[i])
			rm.file[rm.nfiles++] = i;
	if (rm.nfiles == 0)
		return NT_STATUS_OK;
	f.cnt = (unsigned)rm.nfiles;
	status = nat_flight(n, call, &f);
	if (status == NT_STATUS_OK && rm.nopen > 0) {
		rm.closing = true;
		f.cnt = (unsigned)rm.nopen;
		status = nat_flight(n, call, &f);
	}
	if (status == NT_STATUS_OK && rm.status != NT_STATUS_OK)
		status = nat_fail(call, rm.status, EIO);
	return status;
}

/* Remove the tree at p (its contents only when !self). */
static uint32_t nat_tree_rm(struct smb_native *n, struct op_call *call,
			    const uint8_t *p, size_t len, bool self)
{
	struct nat_names l = { .mem = talloc_new(n), .dir = p, .dlen = len };
	uint32_t status, st;

	if (l.mem == NULL)
		return nat_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	status = nat_list(n, call, &l);
	if (status == NT_STATUS_NOT_A_DIRECTORY && self)
		status = nat_remove(n, call, p, len, false);
	else if (status == NT_STATUS_OK) {
		status = nat_rm_files(n, call, &l);
		for (size_t i = 0; i < l.n; i++) {
			if (!l.is_dir[i])
				continue;
			st = nat_tree_rm(n, call, l.path[i], l.len[i], true);
			if (st != NT_STATUS_OK && !nat_missing(st) &&
			    status == NT_STATUS_OK)
				status = st;
		}
		if (self && status == NT_STATUS_OK)
			status = nat_remove(n, call, p, len, true);
	}
	talloc_free(l.mem);
	if (nat_missing(status)) {
		call->err = 0;
		return NT_STATUS_OK;
	}
	return status;
}

uint32_t nat_deltree(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	long l = nat_path(n, 0, call->path[0]);
	uint8_t *p;
	uint32_t status;

	if (l < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	p = talloc_memdup(n, n->name[0], (size_t)l + 1);
	if (p == NULL)
		return nat_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	status = nat_tree_rm(n, call, p, (size_t)l, l > 0);
	talloc_free(p);
	return status;
}

/* The cleanup's CLOSEs of the handles still open, in flight. */
struct nat_closes {
	struct smb_native *n;
	uint32_t *slot;
};

static int nat_closes_build(void *arg, unsigned k, struct smb2_req *req)
{
	struct nat_closes *cl = arg;

	nat_close(cl->n, req, 0, cl->n->h[cl->slot[k]].fid);
	return req->body == NULL;
}

static int nat_closes_done(void *arg, unsigned k, const struct smb2_req *req)
{
	(void)arg;
	(void)k;
	(void)req;
	return 0;
}

static void nat_close_all(struct smb_native *n, struct op_call *call)
{
	struct nat_closes cl = { .n = n };
	struct smb2_flight f = { .build = nat_closes_build,
				 .done = nat_closes_done, .arg = &cl };

	cl.slot = talloc_array(n, uint32_t, n->nh + 1);
	for (uint32_t i = 0; i < n->nh; i++) {
		if (n->h[i].open && cl.slot != NULL)
			cl.slot[f.cnt++] = i;
		n->h[i].open = false;
	}
	if (f.cnt > 0)
		(void)nat_flight(n, call, &f);
	talloc_free(cl.slot);
}

int nat_cleanup(struct smb_native *n, const char *path)
{
	struct op_call call = { .path = { path } };

	nat_close_all(n, &call);
	call.err = 0;
	if (nat_deltree(n, &call) == NT_STATUS_OK)
		return 0;
	return -(call.err != 0 ? call.err : EIO);
}
