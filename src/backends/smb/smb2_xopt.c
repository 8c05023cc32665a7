/*
 * smb2_xopt.c - -x, --stat-check and --one-byte-write-fix on the native
 * path (--smb-client=native), as nbvfs does them over a local store, in
 * SMB2 requests:
 *
 * -x: where nbvfs reads "user.DosAttrib" (after an open, on
 * QUERY_FILE_INFORMATION, SET_FILE_INFORMATION and QUERY_PATH_INFORMATION)
 * one QUERY_INFO FileFullEaInformation; where it rewrites it (after
 * opening a file, after setting a file's times) a read and then one
 * SET_INFO FileFullEaInformation of the EA NAT_EA_NAME (a time stamp of
 * 44 bytes, one in five of whole seconds), which the server stores as an
 * extended attribute of its own file.  A read that finds no EA is normal;
 * a server or share without EAs answers NOT_SUPPORTED, a clear failure.
 *
 * --stat-check: before an op whose outcome a lookup decides (NTCreateX
 * that creates, Mkdir, Rmdir, Rename), one CREATE + CLOSE compound for the
 * attributes, and no op when they show it would fail: the statuses are
 * those the op itself would get, as nbvfs's.
 *
 * --one-byte-write-fix: a 1-byte WriteX asks the file's size (QUERY_INFO
 * FileStandardInformation); inside the file, a READ of that byte and no
 * write when it is the same; a zero at or past the end, SET_INFO
 * FileEndOfFileInformation (offset + 1) instead of the write.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "loadfile/ntstatus.h"
#include "loadfile/program.h"
#include "smb2_ops_private.h"

/* The EA -x writes; Samba keeps "DosAttrib" (user.DOSATTRIB) to itself,
 * so the name is dbench's own. */
#define NAT_EA_NAME	"dbench.DosAttrib"
#define NAT_EA_VALUE	44		/* bytes, as nbvfs's value */

#define NT_STATUS_EAS_NOT_SUPPORTED	0xC000004Fu

/* FileFullEaInformation, FileStandardInformation,
 * FileEndOfFileInformation */
#define CLS_FULL_EA	15
#define CLS_STANDARD	5
#define CLS_EOF		20

/* ---- -x ---- */

/* The status of an EA read that got status: OK but for a store without
 * EAs or a lost connection (nbvfs's reading of xattr failures). */
static uint32_t nat_ea_read_status(struct smb_native *n, struct op_call *call,
				   uint32_t status)
{
	if (status == NT_STATUS_OK || !smb2_connected(n->c))
		return status;
	if (status == NT_STATUS_EAS_NOT_SUPPORTED ||
	    status == NT_STATUS_NOT_SUPPORTED)
		return nat_fail(call, NT_STATUS_NOT_SUPPORTED, ENOTSUP);
	call->err = 0;
	return NT_STATUS_OK;
}

uint32_t nat_ea_read(struct smb_native *n, struct op_call *call,
		     const uint8_t *fid)
{
	struct smb2_req req;

	nat_qinfo(n, &req, 0, 1, CLS_FULL_EA, fid);
	return nat_ea_read_status(n, call, nat_run(n, call, &req, 1));
}

uint32_t nat_ea_write(struct smb_native *n, struct op_call *call,
		      const uint8_t *fid)
{
	uint8_t v[8 + sizeof(NAT_EA_NAME) + NAT_EA_VALUE];
	uint8_t *name = v + 8, *value = name + sizeof(NAT_EA_NAME);
	struct timespec now;
	struct smb2_req req;
	uint32_t status = nat_ea_read(n, call, fid);

	/* the original reads the old value before replacing it */
	if (status != NT_STATUS_OK)
		return status;
	memset(v, 0, sizeof(v));
	v[5] = (uint8_t)strlen(NAT_EA_NAME);
	smb2_put16(v + 6, NAT_EA_VALUE);
	memcpy(name, NAT_EA_NAME, sizeof(NAT_EA_NAME));
	clock_gettime(CLOCK_REALTIME, &now);
	if (n->ea_writes++ % 5 == 0)
		now.tv_nsec = 0;
	smb2_put64(value, (uint64_t)now.tv_sec);
	smb2_put64(value + 8, (uint64_t)now.tv_nsec);
	nat_sinfo(n, &req, 0, CLS_FULL_EA, fid, v, sizeof(v));
	return nat_run(n, call, &req, 1);
}

/* QUERY_PATH_INFORMATION with -x: CREATE, QUERY_INFO of the class,
 * QUERY_INFO of the EAs, CLOSE, one compound. */
uint32_t nat_qpath_ea(struct smb_native *n, struct op_call *call,
		      uint8_t cls)
{
	long l = nat_path(n, 0, call->path[0]);
	struct smb2_req req[4];
	uint32_t status;

	if (l < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	nat_create(n, &req[0], 0, n->name[0], (size_t)l,
		   NAT_ACCESS_ATTR | 0x8, 1, 0);
	nat_qinfo(n, &req[1], 1, 1, cls, nat_related);
	nat_qinfo(n, &req[2], 2, 1, CLS_FULL_EA, nat_related);
	nat_close(n, &req[3], 3, nat_related);
	status = nat_run(n, call, req, 4);
	if (status == NT_STATUS_OK || !smb2_connected(n->c))
		return status;
	call->err = EIO;
	if (req[0].status != 0 || req[1].status != 0)
		return req[0].status != 0 ? req[0].status : req[1].status;
	status = nat_ea_read_status(n, call, req[2].status);
	return status != NT_STATUS_OK ? status : nat_chain_status(call, &req[3], 1);
}

/* ---- --stat-check ---- */

/* The attributes of path: the CREATE's status, *is_dir from them. */
static uint32_t nat_stat(struct smb_native *n, struct op_call *call,
			 const char *path, bool *is_dir)
{
	long l = nat_path(n, 0, path);
	struct smb2_req req[2];
	uint32_t status;

	if (l < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	nat_create(n, &req[0], 0, n->name[0], (size_t)l, NAT_ACCESS_ATTR, 1,
		   0);
	nat_close(n, &req[1], 1, nat_related);
	status = nat_run(n, call, req, 2);
	if (req[0].status != 0)
		return req[0].status;
	*is_dir = req[0].rbody_len >= 80 &&
		  (smb2_get32(req[0].rbody + 56) & 0x10) != 0;
	return status;
}

/* Is the op's path i above the client's own directory (every client
 * makes it)? */
static bool nat_shared(const struct op_call *call, unsigned i)
{
	const struct path *p = call->op != NULL && call->prog != NULL ?
				       program_path(call->prog, call->op, i) :
				       NULL;

	return p != NULL && p->client_pos < 0;
}

/* A lookup that found nothing: the op goes ahead (and meets the server's
 * answer itself, or connects again after a lost connection). */
static bool nat_go_ahead(struct op_call *call)
{
	call->err = 0;
	call->msg = NULL;
	return false;
}

/* NTCreateX: what exists is not created exclusively (FILE_CREATE). */
static bool nat_check_create(struct smb_native *n, struct op_call *call,
			     uint32_t *status)
{
	bool is_dir = false;

	if (call->arg[1] != 2 || ((call->arg[0] & 1) && nat_shared(call, 0)))
		return false;
	if (nat_stat(n, call, call->path[0], &is_dir) != NT_STATUS_OK)
		return nat_go_ahead(call);
	*status = nat_fail(call, NT_STATUS_OBJECT_NAME_COLLISION, EEXIST);
	return true;
}

bool nat_stat_check(struct smb_native *n, struct op_call *call,
		    uint32_t *status)
{
	bool is_dir = false;
	uint32_t st;

	if (call->op == NULL)
		return false;
	if (call->op->kind == OP_NTCREATEX)
		return nat_check_create(n, call, status);
	if (call->op->kind != OP_MKDIR && call->op->kind != OP_RMDIR &&
	    call->op->kind != OP_RENAME)
		return false;
	st = nat_stat(n, call, call->path[0], &is_dir);
	if (call->op->kind == OP_MKDIR) {
		if (st != NT_STATUS_OK)
			return nat_go_ahead(call);
		*status = is_dir && nat_shared(call, 0) ? NT_STATUS_OK :
			nat_fail(call, NT_STATUS_OBJECT_NAME_COLLISION, EEXIST);
		return true;
	}
	if (st != NT_STATUS_OK) {
		*status = nat_fail(call, st, ENOENT);
		return true;
	}
	if (call->op->kind == OP_RMDIR && !is_dir) {
		*status = nat_fail(call, NT_STATUS_NOT_A_DIRECTORY, ENOTDIR);
		return true;
	}
	return false;
}

/* ---- --one-byte-write-fix ---- */

/* The end of file of the open fid into *size; a status. */
static uint32_t nat_file_size(struct smb_native *n, struct op_call *call,
			      const uint8_t *fid, int64_t *size)
{
	struct smb2_req req;
	uint32_t status;
	size_t off;

	nat_qinfo(n, &req, 0, 1, CLS_STANDARD, fid);
	status = nat_run(n, call, &req, 1);
	if (status != NT_STATUS_OK)
		return status;
	off = req.rbody_len >= 8 ? smb2_get16(req.rbody + 2) : 0;
	if (off < SMB2_HDR_SIZE || off - SMB2_HDR_SIZE + 16 > req.rbody_len)
		return nat_fail(call, NT_STATUS_UNSUCCESSFUL, EPROTO);
	*size = (int64_t)smb2_get64(req.rbody + off - SMB2_HDR_SIZE + 8);
	return NT_STATUS_OK;
}

/* The byte at off of fid into *b; a status (a short read: EOF). */
static uint32_t nat_read_byte(struct smb_native *n, struct op_call *call,
			      const uint8_t *fid, int64_t off, uint8_t *b)
{
	struct smb2_req req;
	uint32_t status;
	uint8_t *r = nat_buf(n, 0, 49);
	size_t doff;

	if (r == NULL)
		return nat_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	req = (struct smb2_req){ .cmd = SMB2_READ, .body = r, .body_len = 49 };
	smb2_put16(r, 49);
	r[2] = 0x50;
	smb2_put32(r + 4, 1);
	smb2_put64(r + 8, (uint64_t)off);
	memcpy(r + 16, fid, 16);
	status = nat_run(n, call, &req, 1);
	if (status != NT_STATUS_OK)
		return status;
	doff = req.rbody_len >= 16 ? req.rbody[2] : 0;
	if (smb2_get32(req.rbody + 4) != 1 || doff < SMB2_HDR_SIZE ||
	    doff - SMB2_HDR_SIZE >= req.rbody_len)
		return nat_fail(call, NT_STATUS_END_OF_FILE, 0);
	*b = req.rbody[doff - SMB2_HDR_SIZE];
	return NT_STATUS_OK;
}

bool nat_one_byte_write(struct smb_native *n, struct op_call *call,
			const struct nat_handle *h, int64_t off,
			uint32_t *status)
{
	struct smb2_req req;
	int64_t size = 0;
	uint8_t old = 0, eof[8];

	if (nat_file_size(n, call, h->fid, &size) != NT_STATUS_OK) {
		call->err = 0;
		return false;
	}
	if (size > off) {
		if (nat_read_byte(n, call, h->fid, off, &old) == NT_STATUS_OK &&
		    old == call->data[0]) {
			*status = NT_STATUS_OK;
			return true;
		}
		call->err = 0;
		return false;
	}
	if (call->data[0] != 0)
		return false;
	smb2_put64(eof, (uint64_t)off + 1);
	nat_sinfo(n, &req, 0, CLS_EOF, h->fid, eof, sizeof(eof));
	*status = nat_run(n, call, &req, 1);
	return true;
}

/* ---- the ops with the options (smb.c dispatches to these) ---- */

/* -x's write after a file's open failed: the handle goes, the status
 * stays. */
static uint32_t nat_drop(struct smb_native *n, struct op_call *call,
			 struct nat_handle *h, uint32_t status)
{
	int err = call->err;
	const char *msg = call->msg;

	(void)nat_close_op(n, call);
	h->open = false;
	call->err = err;
	call->msg = msg;
	return status;
}

uint32_t natx_ntcreatex(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	struct nat_handle *h;
	uint32_t status;

	if (n->opts->stat_check && nat_stat_check(n, call, &status))
		return status;
	status = nat_ntcreatex(n, call);
	if (status != NT_STATUS_OK || !n->opts->xattr ||
	    (h = nat_handle(n, call)) == NULL || h->is_dir)
		return status;
	/* -x: the attribute write after a file's open */
	status = nat_ea_write(n, call, h->fid);
	return status == NT_STATUS_OK ? status : nat_drop(n, call, h, status);
}

uint32_t natx_qfileinfo(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	uint32_t status = nat_qfileinfo(n, call);
	struct nat_handle *h;

	if (status != NT_STATUS_OK || !n->opts->xattr ||
	    (h = nat_handle(n, call)) == NULL)
		return status;
	return nat_ea_read(n, call, h->fid);
}

uint32_t natx_sfileinfo(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	struct nat_handle *h = nat_handle(n, call);
	uint32_t status;

	if (!n->opts->xattr || h == NULL)
		return nat_sfileinfo(n, call);
	/* -x: the attributes read before, written after (a file's) */
	status = nat_ea_read(n, call, h->fid);
	if (status == NT_STATUS_OK)
		status = nat_sfileinfo(n, call);
	if (status != NT_STATUS_OK || h->is_dir)
		return status;
	return nat_ea_write(n, call, h->fid);
}

uint32_t natx_qpathinfo(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	uint8_t cls = nat_file_class(call->arg[0]);

	if (!n->opts->xattr || cls == 0)
		return nat_qpathinfo(n, call);
	return nat_qpath_ea(n, call, cls);
}

/* Mkdir, Rmdir, Rename: --stat-check's lookup first. */
static uint32_t natx_checked(struct smb_native *n, struct op_call *call,
			     uint32_t (*op)(void *state, struct op_call *call))
{
	uint32_t status;

	if (n->opts->stat_check && nat_stat_check(n, call, &status))
		return status;
	return op(n, call);
}

uint32_t natx_mkdir(void *state, struct op_call *call)
{
	return natx_checked(state, call, nat_mkdir);
}

uint32_t natx_rmdir(void *state, struct op_call *call)
{
	return natx_checked(state, call, nat_rmdir);
}

uint32_t natx_rename(void *state, struct op_call *call)
{
	return natx_checked(state, call, nat_rename);
}

HOT_PATH
uint32_t natx_writex(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	struct nat_handle *h;
	uint32_t status;

	if (n->opts->one_byte_write_fix && call->arg[1] == 1 &&
	    call->arg[0] >= 0 && call->data != NULL && !n->opts->fake_io &&
	    (h = nat_handle(n, call)) != NULL && !h->is_dir &&
	    nat_one_byte_write(n, call, h, call->arg[0], &status)) {
		call->bytes = 1;
		return status;
	}
	return nat_writex(n, call);
}
