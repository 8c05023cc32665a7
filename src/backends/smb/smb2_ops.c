/*
 * smb2_ops.c - the loadfile ops over the project's SMB2 client (the
 * native path of -B smb, --smb-client=native): each op is the SMB2
 * requests it needs and nothing else, and its status is the server's.
 * NTCreateX is one CREATE with the loadfile's disposition and create
 * options; Close one CLOSE; ReadX/WriteX one READ/WRITE per chunk (64
 * KiB, or the server's maximum when smaller), all of them sent before
 * the answers are read (up to --smb-in-flight at once, smb2_flight()),
 * and -F's FLUSH in the one compound with a single chunk's WRITE, after
 * the last answer otherwise (a read at the end of the file is one READ
 * answered END_OF_FILE);
 * QUERY_FILE_INFORMATION one QUERY_INFO, SET_FILE_INFORMATION one
 * SET_INFO, QUERY_FS_INFORMATION one QUERY_INFO on the share's root
 * (opened once at set-up); QUERY_PATH_INFORMATION, Unlink, Rmdir, Mkdir
 * and Rename one related compound (CREATE, the request, CLOSE; Rmdir's,
 * in smb2_tree.c, the delete disposition, which says DIRECTORY_NOT_EMPTY).
 * FIND_FIRST, Deltree and the cleanup are in smb2_tree.c.  Here too: the
 * client's set-up (the connection, the share's root open) and, after a
 * lost connection, the next op's one new attempt (--keep-going).
 *
 * SMB1's information levels (the loadfile's) map to SMB2 classes: a
 * level from 1000 up passes through (level - 1000), the SMB_QUERY_*
 * levels to their classes.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include <talloc.h>

#include "loadfile/ntstatus.h"
#include "loadfile/program.h"
#include "smb2_ops_private.h"

/* ---- buffers and errors ---- */

uint8_t *nat_buf(struct smb_native *n, unsigned k, size_t len)
{
	if (n->body_size[k] < len) {
		uint8_t *p = talloc_realloc_size(n, n->body[k], len + 256);

		if (p == NULL)
			return NULL;
		n->body[k] = p;
		n->body_size[k] = len + 256;
	}
	memset(n->body[k], 0, len);
	return n->body[k];
}

uint32_t nat_fail(struct op_call *call, uint32_t status, int err)
{
	call->err = err;
	return status;
}

uint32_t nat_lost(struct smb_native *n, struct op_call *call, int r)
{
	call->err = -r;
	call->msg = smb2_error(n->c);
	return ntstatus_failure(-r);
}

/* The status of a chain: the first request that failed, else OK; an
 * errno for it as the loadfile engine reports failures. */
uint32_t nat_chain_status(struct op_call *call, const struct smb2_req *req,
			  unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (req[i].status != 0)
			return nat_fail(call, req[i].status, EIO);
	return NT_STATUS_OK;
}

long nat_path(struct smb_native *n, unsigned which, const char *path)
{
	size_t len;
	long l;

	if (path == NULL || strcmp(path, ".") == 0)
		path = "";
	len = strlen(path);
	if (n->name_size[which] < 2 * len + 2) {
		uint8_t *p = talloc_realloc_size(n, n->name[which],
						 2 * len + 64);

		if (p == NULL)
			return -1;
		n->name[which] = p;
		n->name_size[which] = 2 * len + 64;
	}
	l = smb2_utf16(n->name[which], path, len, true);
	return l;
}

/* ---- request bodies ---- */

const uint8_t nat_related[16] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

void nat_create(struct smb_native *n, struct smb2_req *r, unsigned k,
		const uint8_t *name, size_t nlen, uint32_t access,
		uint32_t disp, uint32_t options)
{
	size_t len = 56 + (nlen > 0 ? nlen : 1);
	uint8_t *b = nat_buf(n, k, len);

	*r = (struct smb2_req){ .cmd = SMB2_CREATE, .body = b,
				.body_len = len };
	if (b == NULL) {
		r->body_len = 0;
		return;
	}
	smb2_put16(b, 57);
	smb2_put32(b + 4, 2);			/* impersonation */
	smb2_put32(b + 24, access);
	smb2_put32(b + 32, 7);			/* share read, write, delete */
	smb2_put32(b + 36, disp);
	smb2_put32(b + 40, options);
	smb2_put16(b + 44, SMB2_HDR_SIZE + 56);
	smb2_put16(b + 46, (uint16_t)nlen);
	if (nlen > 0)
		memcpy(b + 56, name, nlen);
}

/* A request of the fixed part len whose file id is at fid_at. */
static uint8_t *nat_fixed(struct smb_native *n, struct smb2_req *r,
			  unsigned k, uint16_t cmd, size_t len, uint16_t size,
			  size_t fid_at, const uint8_t *fid)
{
	uint8_t *b = nat_buf(n, k, len);

	*r = (struct smb2_req){ .cmd = cmd, .body = b, .body_len = len };
	if (b == NULL) {
		r->body_len = 0;
		return NULL;
	}
	smb2_put16(b, size);
	memcpy(b + fid_at, fid, 16);
	return b;
}

void nat_close(struct smb_native *n, struct smb2_req *r, unsigned k,
	       const uint8_t *fid)
{
	nat_fixed(n, r, k, SMB2_CLOSE, 24, 24, 8, fid);
}

void nat_qinfo(struct smb_native *n, struct smb2_req *r, unsigned k,
	       uint8_t type, uint8_t cls, const uint8_t *fid)
{
	uint8_t *b = nat_fixed(n, r, k, SMB2_QUERY_INFO, 41, 41, 24, fid);

	if (b == NULL)
		return;
	b[2] = type;
	b[3] = cls;
	smb2_put32(b + 4, 4096);
}

void nat_sinfo(struct smb_native *n, struct smb2_req *r, unsigned k,
	       uint8_t cls, const uint8_t *fid, const uint8_t *v, size_t vlen)
{
	uint8_t *b = nat_fixed(n, r, k, SMB2_SET_INFO, 32 + vlen, 33, 16,
			       fid);

	if (b == NULL)
		return;
	b[2] = 1;			/* file */
	b[3] = cls;
	smb2_put32(b + 4, (uint32_t)vlen);
	smb2_put16(b + 8, SMB2_HDR_SIZE + 32);
	memcpy(b + 32, v, vlen);
}

#define NT_STATUS_PATH_NOT_COVERED 0xC0000257u

/* A DFS referral: the path, and which client follows it, as call->msg. */
static uint32_t nat_dfs(struct smb_native *n, struct op_call *call,
			uint32_t status)
{
	talloc_free(n->dfs_msg);
	n->dfs_msg = talloc_asprintf(n, "//%s/%s/%s: a DFS referral "
				     "(STATUS_PATH_NOT_COVERED): "
				     "--smb-client=native follows none; "
				     "--smb-client=libsmbclient does",
				     n->p.server, n->p.share,
				     call->path[0] != NULL ? call->path[0] :
							     "");
	call->msg = n->dfs_msg;	/* with EIO, a fault: the client stops */
	return status;
}

/* Send the chain; its status (the first failure), or the lost
 * connection's. */
uint32_t nat_run(struct smb_native *n, struct op_call *call,
		 struct smb2_req *req, unsigned cnt)
{
	uint32_t status;
	int r;

	for (unsigned i = 0; i < cnt; i++) {
		/* a request that got no answer failed */
		req[i].status = STATUS_CONNECTION_DISCONNECTED;
		req[i].rbody = NULL;
		req[i].rbody_len = 0;
	}
	for (unsigned i = 0; i < cnt; i++)
		if (req[i].body == NULL)
			return nat_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	if (!smb2_connected(n->c) && nat_reconnect(n, call) != 0)
		return ntstatus_failure(call->err);
	r = smb2_exchange(n->c, req, cnt);
	if (r != 0)
		return nat_lost(n, call, r);
	status = nat_chain_status(call, req, cnt);
	return status == NT_STATUS_PATH_NOT_COVERED ?
		nat_dfs(n, call, status) : status;
}

uint32_t nat_flight(struct smb_native *n, struct op_call *call,
		    struct smb2_flight *f)
{
	int r;

	if (!smb2_connected(n->c) && nat_reconnect(n, call) != 0)
		return ntstatus_failure(call->err);
	r = smb2_flight(n->c, f);
	return r != 0 ? nat_lost(n, call, r) : NT_STATUS_OK;
}

/* CREATE of path, then the request body k = 1 (if any), then CLOSE: one
 * compound. */
uint32_t nat_path_op(struct smb_native *n, struct op_call *call,
		     struct smb2_req *req, unsigned cnt, uint32_t access,
		     uint32_t disp, uint32_t options)
{
	long l = nat_path(n, 0, call->path[0]);

	if (l < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	nat_create(n, &req[0], 0, n->name[0], (size_t)l, access, disp,
		   options);
	nat_close(n, &req[cnt - 1], cnt - 1, nat_related);
	return nat_run(n, call, req, cnt);
}

/* ---- information levels ---- */

uint8_t nat_file_class(int64_t level)
{
	if (level >= 1000 && level < 1256)
		return (uint8_t)(level - 1000);
	switch (level) {
	case 1: case 2: case 0x101: return 4;	/* basic */
	case 0x102: return 5;			/* standard */
	case 3: case 4: case 0x103: return 7;	/* EA */
	case 0x104: return 9;			/* name */
	case 0x107: return 18;			/* all */
	case 0x108: return 21;			/* alternate name */
	case 0x109: return 22;			/* streams */
	case 0x10b: return 28;			/* compression */
	default: return 0;
	}
}

/* SMB1 file system information level -> SMB2 class; 0: unknown. */
static uint8_t nat_fs_class(int64_t level)
{
	if (level >= 1000 && level < 1256)
		return (uint8_t)(level - 1000);
	switch (level) {
	case 1: case 0x103: return 3;		/* size */
	case 2: case 0x102: return 1;		/* volume */
	case 0x104: return 4;			/* device */
	case 0x105: return 5;			/* attribute */
	default: return 0;
	}
}

#define NT_STATUS_INVALID_LEVEL 0xC0000148u

/* ---- the ops ---- */

/*
 * A directory above the per-client one (\clients): every client makes it,
 * so an existing one is no collision there (FILE_OPEN_IF instead of
 * FILE_CREATE, in the same one CREATE), as nbvfs has it.
 */
static uint32_t nat_dir_disp(const struct op_call *call, int64_t disp)
{
	const struct path *p = call->op != NULL && call->prog != NULL ?
				       program_path(call->prog, call->op, 0) :
				       NULL;

	return disp == 2 && p != NULL && p->client_pos < 0 ? 3 :
							     (uint32_t)disp;
}

struct nat_handle *nat_handle(struct smb_native *n, const struct op_call *call)
{
	int32_t slot = call->op != NULL ? call->op->handle : -1;

	if (slot < 0 || (uint32_t)slot >= n->nh || !n->h[slot].open)
		return NULL;
	return &n->h[slot];
}

HOT_PATH
uint32_t nat_ntcreatex(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	int64_t options = call->arg[0], disp = call->arg[1];
	int32_t slot = call->op != NULL ? call->op->handle : -1;
	struct smb2_req req[2];
	struct nat_handle *h;
	uint32_t status;
	uint8_t fid[16];
	bool is_dir;
	long l;

	if (disp < 0 || disp > 5 || options < 0 || options > 0xffffff)
		return nat_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (slot < 0 || (uint32_t)slot >= n->nh)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	l = nat_path(n, 0, call->path[0]);
	if (l < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	if (n->opts->sync_open)
		options |= 0x2;			/* write through */
	nat_create(n, &req[0], 0, n->name[0], (size_t)l, NAT_ACCESS_RW,
		   options & 1 ? nat_dir_disp(call, disp) : (uint32_t)disp,
		   (uint32_t)options);
	status = nat_run(n, call, req, 1);
	if (status != NT_STATUS_OK || req[0].rbody_len < 80)
		return status != NT_STATUS_OK ? status :
			nat_fail(call, NT_STATUS_UNSUCCESSFUL, EPROTO);
	memcpy(fid, req[0].rbody + 64, 16);
	is_dir = (smb2_get32(req[0].rbody + 56) & 0x10) != 0;
	h = &n->h[slot];
	if (h->open) {
		/* the slot's earlier handle is replaced, as a server would */
		nat_close(n, &req[1], 0, h->fid);
		(void)nat_run(n, call, &req[1], 1);
		call->err = 0;
	}
	memcpy(h->fid, fid, 16);
	h->is_dir = is_dir;
	h->open = true;
	return NT_STATUS_OK;
}

HOT_PATH
uint32_t nat_close_op(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	struct nat_handle *h = nat_handle(n, call);
	struct smb2_req req;

	if (h == NULL)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	h->open = false;
	nat_close(n, &req, 0, h->fid);
	return nat_run(n, call, &req, 1);
}

/* ---- ReadX and WriteX: their chunks in flight ---- */

/* A ReadX's (data NULL) or WriteX's chunks: chunk k is the bytes from
 * off + k * chunk. */
struct nat_io {
	struct smb_native *n;
	const uint8_t *fid;
	const uint8_t *data;
	int64_t off, size;
	uint32_t chunk;
	int64_t moved;		/* bytes the answers say were moved */
	uint32_t status;	/* the first failed chunk's */
	unsigned fail_k;
	bool short_read;	/* an answer ended the file */
};

static uint32_t nat_io_len(const struct nat_io *io, unsigned k)
{
	int64_t left = io->size - (int64_t)k * io->chunk;

	return left > io->chunk ? io->chunk : (uint32_t)left;
}

/* Chunk k failed with status: the earliest chunk's failure is the op's;
 * no more chunks are sent. */
static int nat_io_fail(struct nat_io *io, unsigned k, uint32_t status)
{
	if (io->status == NT_STATUS_OK || k < io->fail_k) {
		io->status = status;
		io->fail_k = k;
	}
	return 1;
}

/* smb2_flight's build: READ or WRITE of chunk k. */
static int nat_io_build(void *arg, unsigned k, struct smb2_req *req)
{
	struct nat_io *io = arg;
	uint32_t len = nat_io_len(io, k);
	uint64_t at = (uint64_t)io->off + (uint64_t)k * io->chunk;
	uint8_t *b;

	if (io->data == NULL) {
		b = nat_fixed(io->n, req, 0, SMB2_READ, 49, 49, 16, io->fid);
		if (b != NULL)
			b[2] = 0x50;
	} else {
		b = nat_fixed(io->n, req, 0, SMB2_WRITE, 48, 49, 16, io->fid);
		if (b != NULL)
			smb2_put16(b + 2, SMB2_HDR_SIZE + 48);
		req->data = io->data + (size_t)k * io->chunk;
		req->data_len = len;
	}
	if (b == NULL)
		return nat_io_fail(io, k, NT_STATUS_NO_MEMORY);
	smb2_put32(b + 4, len);
	smb2_put64(b + 8, at);
	return 0;
}

/* smb2_flight's done: chunk k's answer.  A read answered END_OF_FILE or
 * short ends the file; a write's short answer is a full disk. */
static int nat_io_done(void *arg, unsigned k, const struct smb2_req *r)
{
	struct nat_io *io = arg;
	uint32_t len = nat_io_len(io, k), got;
	bool write = io->data != NULL;

	if (!write && r->status == NT_STATUS_END_OF_FILE) {
		io->short_read = true;
		return 1;
	}
	if (r->status != NT_STATUS_OK)
		return nat_io_fail(io, k, r->status);
	got = r->rbody_len >= (write ? 8u : 16u) ? smb2_get32(r->rbody + 4) :
						   0;
	io->moved += got < len ? got : len;
	if (got >= len)
		return 0;
	if (write)
		return nat_io_fail(io, k, NT_STATUS_DISK_FULL);
	io->short_read = true;
	return 1;
}

/* Every chunk of io, several in flight: the first failed chunk's status,
 * or the lost connection's. */
static uint32_t nat_io_run(struct smb_native *n, struct op_call *call,
			   struct nat_io *io)
{
	struct smb2_flight f = { .build = nat_io_build, .done = nat_io_done,
				 .arg = io };
	uint32_t status;

	io->chunk = smb2_io_max(n->c, io->data != NULL);
	if (io->size / io->chunk >= UINT32_MAX)
		return nat_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	f.cnt = (unsigned)((io->size + io->chunk - 1) / io->chunk);
	status = nat_flight(n, call, &f);
	if (status != NT_STATUS_OK)
		return status;
	switch (io->status) {
	case NT_STATUS_OK:
		return NT_STATUS_OK;
	case NT_STATUS_DISK_FULL:
		return nat_fail(call, io->status, ENOSPC);
	case NT_STATUS_NO_MEMORY:
		return nat_fail(call, io->status, ENOMEM);
	default:
		return nat_fail(call, io->status, EIO);
	}
}

HOT_PATH
uint32_t nat_readx(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	struct nat_handle *h = nat_handle(n, call);
	struct nat_io io = { .n = n, .off = call->arg[0],
			     .size = call->arg[1] };
	uint32_t status;

	call->bytes = io.size > 0 ? (uint64_t)io.size : 0;
	if (h == NULL)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	if (io.off < 0 || io.size < 0 || io.size > INT64_MAX - io.off)
		return nat_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (n->opts->fake_io || io.size == 0)
		return NT_STATUS_OK;
	io.fid = h->fid;
	status = nat_io_run(n, call, &io);
	if (status != NT_STATUS_OK)
		return status;
	/* fewer bytes than the loadfile says came back: the file is short */
	if (io.moved < call->arg[2])
		return nat_fail(call, NT_STATUS_END_OF_FILE, 0);
	return NT_STATUS_OK;
}

/* -F and a WriteX of one chunk: the WRITE and its FLUSH in one
 * compound. */
static uint32_t nat_write_flush(struct smb_native *n, struct op_call *call,
				struct nat_handle *h)
{
	struct smb2_req req[2];
	uint8_t *b = nat_fixed(n, &req[0], 0, SMB2_WRITE, 48, 49, 16, h->fid);
	uint32_t status;

	if (b == NULL)
		return nat_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	smb2_put16(b + 2, SMB2_HDR_SIZE + 48);
	smb2_put32(b + 4, (uint32_t)call->arg[1]);
	smb2_put64(b + 8, (uint64_t)call->arg[0]);
	req[0].data = call->data;
	req[0].data_len = (size_t)call->arg[1];
	nat_fixed(n, &req[1], 1, SMB2_FLUSH, 24, 24, 8, nat_related);
	status = nat_run(n, call, req, 2);
	if (status != NT_STATUS_OK)
		return status;
	if (req[0].rbody_len < 8 ||
	    smb2_get32(req[0].rbody + 4) < (uint32_t)call->arg[1])
		return nat_fail(call, NT_STATUS_DISK_FULL, ENOSPC);
	return NT_STATUS_OK;
}

HOT_PATH
uint32_t nat_writex(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	struct nat_handle *h = nat_handle(n, call);
	struct nat_io io = { .n = n, .off = call->arg[0],
			     .size = call->arg[1], .data = call->data };
	struct smb2_req req;
	uint32_t status;

	call->bytes = io.size > 0 ? (uint64_t)io.size : 0;
	if (h == NULL)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	if (io.off < 0 || io.size < 0 || io.size > INT64_MAX - io.off)
		return nat_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (n->opts->fake_io || io.size == 0)
		return NT_STATUS_OK;
	if (call->data == NULL)
		return nat_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (n->opts->fsync_writes && io.size <= smb2_io_max(n->c, true))
		return nat_write_flush(n, call, h);
	io.fid = h->fid;
	status = nat_io_run(n, call, &io);
	if (status != NT_STATUS_OK || !n->opts->fsync_writes)
		return status;
	/* -F: the flush after every chunk is answered */
	nat_fixed(n, &req, 0, SMB2_FLUSH, 24, 24, 8, h->fid);
	return nat_run(n, call, &req, 1);
}

HOT_PATH
uint32_t nat_qfileinfo(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	struct nat_handle *h = nat_handle(n, call);
	uint8_t cls = nat_file_class(call->arg[0]);
	struct smb2_req req;

	if (h == NULL)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	if (cls == 0)
		return nat_fail(call, NT_STATUS_INVALID_LEVEL, EINVAL);
	nat_qinfo(n, &req, 0, 1, cls, h->fid);
	return nat_run(n, call, &req, 1);
}

/* FileBasicInformation: the access and write times now, the rest
 * unchanged (0), as dbench sets a file's times.  The loadfile carries no
 * value for another level, so every level sets these. */
static void nat_basic_now(uint8_t v[40])
{
	struct timespec ts;
	uint64_t ft;

	clock_gettime(CLOCK_REALTIME, &ts);
	ft = ((uint64_t)ts.tv_sec + 11644473600ull) * 10000000ull +
	     (uint64_t)ts.tv_nsec / 100;
	memset(v, 0, 40);
	smb2_put64(v + 8, ft);
	smb2_put64(v + 16, ft);
}

HOT_PATH
uint32_t nat_sfileinfo(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	struct nat_handle *h = nat_handle(n, call);
	struct smb2_req req;
	uint8_t v[40];

	if (h == NULL)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	nat_basic_now(v);
	nat_sinfo(n, &req, 0, 4, h->fid, v, sizeof(v));
	return nat_run(n, call, &req, 1);
}

HOT_PATH
uint32_t nat_qpathinfo(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	uint8_t cls = nat_file_class(call->arg[0]);
	struct smb2_req req[3];

	if (cls == 0)
		return nat_fail(call, NT_STATUS_INVALID_LEVEL, EINVAL);
	nat_qinfo(n, &req[1], 1, 1, cls, nat_related);
	return nat_path_op(n, call, req, 3, NAT_ACCESS_ATTR, 1, 0);
}

HOT_PATH
uint32_t nat_qfsinfo(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	uint8_t cls = nat_fs_class(call->arg[0]);
	struct smb2_req req;

	if (cls == 0)
		return nat_fail(call, NT_STATUS_INVALID_LEVEL, EINVAL);
	nat_qinfo(n, &req, 0, 2, cls, n->root);
	return nat_run(n, call, &req, 1);
}

uint32_t nat_unlink(void *state, struct op_call *call)
{
	struct smb2_req req[2];

	/* non-directory, delete on close */
	return nat_path_op(state, call, req, 2, NAT_ACCESS_DELETE, 1, 0x1040);
}

uint32_t nat_mkdir(void *state, struct op_call *call)
{
	struct smb2_req req[2];

	/* create a directory */
	return nat_path_op(state, call, req, 2, NAT_ACCESS_ATTR,
			   nat_dir_disp(call, 2), 0x1);
}

uint32_t nat_rename(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	long l = nat_path(n, 1, call->path[1]);
	struct smb2_req req[3];
	uint8_t *v;

	if (l < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	/* FileRenameInformation: no replace, no root, the new name */
	v = talloc_zero_size(n, 20 + (size_t)l);
	if (v == NULL)
		return nat_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	smb2_put32(v + 16, (uint32_t)l);
	memcpy(v + 20, n->name[1], (size_t)l);
	nat_sinfo(n, &req[1], 1, 10, nat_related, v, 20 + (size_t)l);
	talloc_free(v);
	return nat_path_op(n, call, req, 3, NAT_ACCESS_DELETE, 1, 0);
}

/* Flush, LockX, UnlockX: one request on the handle. */
HOT_PATH
uint32_t nat_flush(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	struct nat_handle *h = nat_handle(n, call);
	struct smb2_req req;

	if (h == NULL)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	nat_fixed(n, &req, 0, SMB2_FLUSH, 24, 24, 8, h->fid);
	return nat_run(n, call, &req, 1);
}

static uint32_t nat_lock(struct smb_native *n, struct op_call *call,
			 bool lock)
{
	struct nat_handle *h = nat_handle(n, call);
	int64_t off = call->arg[0], size = call->arg[1];
	struct smb2_req req;
	uint8_t *b;

	if (h == NULL)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	if (off < 0 || size < 0 || size > INT64_MAX - off)
		return nat_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	b = nat_fixed(n, &req, 0, SMB2_LOCK, 48, 48, 8, h->fid);
	if (b == NULL)
		return nat_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	smb2_put16(b + 2, 1);
	smb2_put64(b + 24, (uint64_t)off);
	smb2_put64(b + 32, (uint64_t)size);
	/* exclusive, fail at once; or unlock */
	smb2_put32(b + 40, lock ? 0x12 : 0x4);
	return nat_run(n, call, &req, 1);
}

uint32_t nat_lockx(void *state, struct op_call *call)
{
	return nat_lock(state, call, true);
}

uint32_t nat_unlockx(void *state, struct op_call *call)
{
	return nat_lock(state, call, false);
}

/* DropCache: a server's cache is not the client's to drop. */
uint32_t nat_dropcache(void *state, struct op_call *call)
{
	struct smb_native *n = state;

	return nat_handle(n, call) != NULL ? NT_STATUS_OK :
		nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
}

/* ---- set-up ---- */

/* Open the share's root into n->root. */
static int nat_open_root(struct smb_native *n, struct op_call *call)
{
	struct smb2_req req;

	nat_create(n, &req, 0, NULL, 0, NAT_ACCESS_ATTR, 1, 1);
	if (req.body == NULL || smb2_exchange(n->c, &req, 1) != 0 ||
	    req.status != 0 || req.rbody_len < 80) {
		call->err = EIO;
		call->msg = smb2_connected(n->c) ? "the share's root cannot "
			    "be opened" : smb2_error(n->c);
		return -1;
	}
	memcpy(n->root, req.rbody + 64, 16);
	return 0;
}

int nat_reconnect(struct smb_native *n, struct op_call *call)
{
	struct smb2_conn *c;
	char *err = NULL;

	c = smb2_connect(n, &n->p, &err);
	if (c == NULL) {
		talloc_free(n->errmsg);
		n->errmsg = err;
		call->err = ECONNRESET;
		call->msg = err != NULL ? err : "out of memory";
		return -1;
	}
	talloc_free(n->c);
	n->c = c;
	for (uint32_t i = 0; i < n->nh; i++)
		n->h[i].open = false;
	return nat_open_root(n, call);
}

struct smb_native *nat_new(void *mem, const struct smb2_params *p,
			   const struct dbench_options *opts,
			   uint32_t nhandles, char **err)
{
	struct smb_native *n = talloc_zero(mem, struct smb_native);
	struct op_call call = { 0 };

	*err = NULL;
	if (n == NULL)
		return NULL;
	n->opts = opts;
	n->p = *p;
	n->nh = nhandles;
	n->h = talloc_zero_array(n, struct nat_handle, nhandles ? nhandles : 1);
	n->c = n->h != NULL ? smb2_connect(n, p, err) : NULL;
	if (n->c == NULL) {
		if (*err != NULL)
			*err = talloc_steal(mem, *err);
		talloc_free(n);
		return NULL;
	}
	if (nat_open_root(n, &call) != 0) {
		*err = talloc_strdup(mem, call.msg);
		talloc_free(n);
		return NULL;
	}
	return n;
}
