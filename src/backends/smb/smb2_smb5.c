/*
 * smb2_smb5.c - dbench 5.0's smb loadfile dialect (OPEN, READ, WRITE,
 * CLOSE, MKDIR, RMDIR, UNLINK, READDIR, Deltree) over the project's SMB2
 * client (--smb-client=native), with the semantics nbsmb5.c gives it over
 * libsmbclient: OPEN's flags as open(2)'s (access, create, exclusive,
 * truncate) in one CREATE; READ and WRITE one request of at most 64 KiB,
 * short = a failure (END_OF_FILE, DISK_FULL); CLOSE one CLOSE; MKDIR,
 * RMDIR and UNLINK one related compound (CREATE, CLOSE); READDIR the
 * whole listing; Deltree the tree walk of client.txt's Deltree.  Before
 * the client's first command below its own directory ("client1"), that
 * directory and the ones on the way are made, existing ones fine, as
 * nbsmb5.c does.  Statuses are the server's.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <talloc.h>

#include "loadfile/ntstatus.h"
#include "loadfile/program.h"
#include "smb2_ops_private.h"

/* dbench 5.0's OPEN flags */
#define SMB5_WRONLY	0x02
#define SMB5_RDWR	0x04
#define SMB5_CREAT	0x08
#define SMB5_EXCL	0x10
#define SMB5_TRUNC	0x20

#define SMB5_IO_MAX	65536	/* bytes per READ or WRITE (nbsmb5.h's) */

/* Access masks: read (data, attributes, EAs), write (data, append,
 * attributes, EAs, and reading attributes) */
#define NAT5_ACCESS_READ	0x00120089u
#define NAT5_ACCESS_WRITE	0x00120196u

/* CREATE of a directory at path[0..len) (FILE_OPEN_IF) and its CLOSE. */
static uint32_t nat5_mkdir_at(struct smb_native *n, struct op_call *call,
			      const char *path, size_t len)
{
	char *dir = talloc_strndup(n, path, len);
	struct smb2_req req[2];
	long l = dir != NULL ? nat_path(n, 0, dir) : -1;

	talloc_free(dir);
	if (l < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	nat_create(n, &req[0], 0, n->name[0], (size_t)l, NAT_ACCESS_ATTR, 3,
		   0x1);
	nat_close(n, &req[1], 1, nat_related);
	return nat_run(n, call, req, 2);
}

/*
 * Before the client's first command that names its directory: make it
 * and the ones on the way (an existing one, even a file, is left to the
 * command to meet), as nbsmb5.c's smb5_client_dir().
 */
static uint32_t nat5_client_dir(struct smb_native *n, struct op_call *call)
{
	const char *path = call->path[0], *end;
	const struct path *p;
	size_t len;

	if (n->dialect5_dir || call->prog == NULL || path == NULL)
		return NT_STATUS_OK;
	p = program_path(call->prog, call->op, 0);
	if (p == NULL || p->client_pos < 0 ||
	    (size_t)p->client_pos >= strlen(path))
		return NT_STATUS_OK;
	/* a command on the directory itself gets the ones on the way */
	end = strchr(path + p->client_pos, '/');
	if (end == NULL)
		end = strrchr(path, '/');
	if (end == NULL)
		return NT_STATUS_OK;
	len = (size_t)(end - path);
	for (size_t i = 1; i <= len; i++) {
		uint32_t status;

		if (i < len && path[i] != '/')
			continue;
		status = nat5_mkdir_at(n, call, path, i);
		if (status != NT_STATUS_OK &&
		    status != NT_STATUS_OBJECT_NAME_COLLISION &&
		    status != NT_STATUS_NOT_A_DIRECTORY)
			return status;
		call->err = 0;
	}
	if (len > (size_t)p->client_pos)
		n->dialect5_dir = true;
	return NT_STATUS_OK;
}

/* OPEN's flags: the access mask and the disposition open(2)'s flags give
 * (as libsmbclient maps them). */
static void nat5_open_mode(int64_t f, uint32_t *access, uint32_t *disp)
{
	*access = (f & SMB5_RDWR) ? NAT_ACCESS_RW :
		  (f & SMB5_WRONLY) ? NAT5_ACCESS_WRITE : NAT5_ACCESS_READ;
	if ((f & SMB5_CREAT) && (f & SMB5_EXCL))
		*disp = 2;		/* FILE_CREATE */
	else if ((f & SMB5_CREAT) && (f & SMB5_TRUNC))
		*disp = 5;		/* FILE_OVERWRITE_IF */
	else if (f & SMB5_CREAT)
		*disp = 3;		/* FILE_OPEN_IF */
	else if (f & SMB5_TRUNC)
		*disp = 4;		/* FILE_OVERWRITE */
	else
		*disp = 1;		/* FILE_OPEN */
}

uint32_t nat5_open(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	int32_t slot = call->op != NULL ? call->op->handle : -1;
	uint32_t access, disp, status = nat5_client_dir(n, call);
	struct smb2_req req;
	struct nat_handle *h;
	long l;

	if (status != NT_STATUS_OK)
		return status;
	if (slot < 0 || (uint32_t)slot >= n->nh)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	l = nat_path(n, 0, call->path[0]);
	if (l < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	nat5_open_mode(call->arg[0], &access, &disp);
	nat_create(n, &req, 0, n->name[0], (size_t)l, access, disp, 0x40);
	status = nat_run(n, call, &req, 1);
	if (status != NT_STATUS_OK)
		return status;
	if (req.rbody_len < 80)
		return nat_fail(call, NT_STATUS_UNSUCCESSFUL, EPROTO);
	h = &n->h[slot];
	if (h->open) {
		/* the slot's earlier handle is closed first, as nbsmb5's */
		uint8_t fid[16];

		memcpy(fid, req.rbody + 64, 16);
		nat_close(n, &req, 0, h->fid);
		(void)nat_run(n, call, &req, 1);
		call->err = 0;
		memcpy(h->fid, fid, 16);
	} else {
		memcpy(h->fid, req.rbody + 64, 16);
	}
	h->is_dir = false;
	h->open = true;
	return NT_STATUS_OK;
}

/* READ and WRITE: all of min(size, 64 KiB) at offset in one request, or
 * a failure (a short read: END_OF_FILE; a short write: DISK_FULL). */
static uint32_t nat5_io(struct smb_native *n, struct op_call *call,
			bool write)
{
	struct nat_handle *h = nat_handle(n, call);
	int64_t off = call->arg[0], size = call->arg[1];
	struct smb2_req req;
	uint32_t status, got;
	uint8_t *b;

	if (h == NULL)
		return nat_fail(call, NT_STATUS_INVALID_HANDLE, EBADF);
	if (off < 0 || size < 0)
		return nat_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (size > SMB5_IO_MAX)
		size = SMB5_IO_MAX;
	if (size == 0 || (write && call->data == NULL))
		return size == 0 ? NT_STATUS_OK :
			nat_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	b = nat_buf(n, 0, write ? 48 : 49);
	if (b == NULL)
		return nat_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	req = (struct smb2_req){ .cmd = write ? SMB2_WRITE : SMB2_READ,
				 .body = b, .body_len = write ? 48 : 49 };
	smb2_put16(b, 49);
	if (write) {
		smb2_put16(b + 2, SMB2_HDR_SIZE + 48);
		req.data = call->data;
		req.data_len = (size_t)size;
	} else {
		b[2] = 0x50;
	}
	smb2_put32(b + 4, (uint32_t)size);
	smb2_put64(b + 8, (uint64_t)off);
	memcpy(b + 16, h->fid, 16);
	status = nat_run(n, call, &req, 1);
	if (status == NT_STATUS_END_OF_FILE && !write)
		return nat_fail(call, status, 0);
	if (status != NT_STATUS_OK)
		return status;
	got = req.rbody_len >= 8 ? smb2_get32(req.rbody + 4) : 0;
	call->bytes = got;
	if (got != (uint32_t)size)
		return write ? nat_fail(call, NT_STATUS_DISK_FULL, ENOSPC) :
			       nat_fail(call, NT_STATUS_END_OF_FILE, 0);
	return NT_STATUS_OK;
}

uint32_t nat5_read(void *state, struct op_call *call)
{
	return nat5_io(state, call, false);
}

uint32_t nat5_write(void *state, struct op_call *call)
{
	return nat5_io(state, call, true);
}

uint32_t nat5_close(void *state, struct op_call *call)
{
	return nat_close_op(state, call);
}

/* MKDIR, RMDIR, UNLINK, READDIR: the client's directory first. */
uint32_t nat5_mkdir(void *state, struct op_call *call)
{
	struct smb_native *n = state;
	uint32_t status = nat5_client_dir(n, call);
	struct smb2_req req[2];
	long l;

	if (status != NT_STATUS_OK)
		return status;
	l = nat_path(n, 0, call->path[0]);
	if (l < 0)
		return nat_fail(call, NT_STATUS_OBJECT_NAME_INVALID, EINVAL);
	/* FILE_CREATE: an existing one is a failure, as mkdir(2)'s */
	nat_create(n, &req[0], 0, n->name[0], (size_t)l, NAT_ACCESS_ATTR, 2,
		   0x1);
	nat_close(n, &req[1], 1, nat_related);
	return nat_run(n, call, req, 2);
}

uint32_t nat5_rmdir(void *state, struct op_call *call)
{
	uint32_t status = nat5_client_dir(state, call);

	return status != NT_STATUS_OK ? status : nat_rmdir(state, call);
}

uint32_t nat5_unlink(void *state, struct op_call *call)
{
	uint32_t status = nat5_client_dir(state, call);

	return status != NT_STATUS_OK ? status : nat_unlink(state, call);
}

uint32_t nat5_readdir(void *state, struct op_call *call)
{
	uint32_t status = nat5_client_dir(state, call);

	if (status != NT_STATUS_OK)
		return status;
	return nat_list_all(state, call, call->path[0]);
}

uint32_t nat5_deltree(void *state, struct op_call *call)
{
	return nat_deltree(state, call);
}
