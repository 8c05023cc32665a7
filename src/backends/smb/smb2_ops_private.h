/*
 * smb2_ops_private.h - what the native path's files share (private to
 * src/backends/smb/): a client's state over the SMB2 client, its handle
 * table, the request builders (smb2_ops.c) and the ops (smb2_ops.c,
 * smb2_tree.c).
 */
#ifndef DBENCH_BACKENDS_SMB_SMB2_OPS_PRIVATE_H
#define DBENCH_BACKENDS_SMB_SMB2_OPS_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "loadfile/op_call.h"
#include "util/options.h"
#include "util/util.h"
#include "smb2.h"

/* Access masks: read, write and their attributes (files and the
 * directories the loadfile opens); attributes only; delete. */
#define NAT_ACCESS_RW		0x0012019Fu
#define NAT_ACCESS_ATTR		0x00100080u
#define NAT_ACCESS_DELETE	0x00110080u
#define NAT_ACCESS_LIST		0x00110081u	/* + delete, list, attrs */

struct nat_handle {
	uint8_t fid[16];
	bool open;
	bool is_dir;
};

struct smb_native {
	struct smb2_conn *c;
	struct smb2_params p;		/* to connect again (--keep-going) */
	char *errmsg;			/* why the last reconnection failed */
	const struct dbench_options *opts;
	struct nat_handle *h;		/* nh slots */
	uint32_t nh;
	uint8_t root[16];		/* the share's root, open */
	uint8_t *body[SMB2_MAX_CHAIN];	/* request bodies being built */
	size_t body_size[SMB2_MAX_CHAIN];
	uint8_t *name[2];		/* paths in UTF-16 */
	size_t name_size[2];
	bool dialect5_dir;		/* 5.0 dialect: the client's dir made */
	uint64_t ea_writes;		/* -x: EA values written so far */
	char *dfs_msg;			/* the last DFS referral's message */
};

/* The file id of a related compound's later requests. */
extern const uint8_t nat_related[16];

/* Request body buffer k, zeroed, len bytes; NULL when out of memory. */
uint8_t *nat_buf(struct smb_native *n, unsigned k, size_t len);

/* path ('/'-separated, "" or "." the root) in UTF-16 into n->name[which];
 * its length, or -1. */
long nat_path(struct smb_native *n, unsigned which, const char *path);

/* Builders of request r in body buffer k. */
void nat_create(struct smb_native *n, struct smb2_req *r, unsigned k,
		const uint8_t *name, size_t nlen, uint32_t access,
		uint32_t disp, uint32_t options);
void nat_close(struct smb_native *n, struct smb2_req *r, unsigned k,
	       const uint8_t *fid);
void nat_qinfo(struct smb_native *n, struct smb2_req *r, unsigned k,
	       uint8_t type, uint8_t cls, const uint8_t *fid);
/* SET_INFO of a file class with the value v (vlen bytes). */
void nat_sinfo(struct smb_native *n, struct smb2_req *r, unsigned k,
	       uint8_t cls, const uint8_t *fid, const uint8_t *v, size_t vlen);

/* CREATE of call's path (access, disposition, create options), the
 * request body k = 1 (cnt 3) if any, then CLOSE: one compound; its
 * status. */
uint32_t nat_path_op(struct smb_native *n, struct op_call *call,
		     struct smb2_req *req, unsigned cnt, uint32_t access,
		     uint32_t disp, uint32_t options);

/* Send the chain; the first failed request's status, or the lost
 * connection's (call->msg says why). */
uint32_t nat_run(struct smb_native *n, struct op_call *call,
		 struct smb2_req *req, unsigned cnt);

/* f's requests in flight (smb2_flight()) after a reconnection if the
 * connection was lost: NT_STATUS_OK when all were answered (f's
 * callbacks keep their verdicts), or the lost connection's status. */
uint32_t nat_flight(struct smb_native *n, struct op_call *call,
		    struct smb2_flight *f);

uint32_t nat_fail(struct op_call *call, uint32_t status, int err);
uint32_t nat_lost(struct smb_native *n, struct op_call *call, int r);
uint32_t nat_chain_status(struct op_call *call, const struct smb2_req *req,
			  unsigned n);

/* The open handle the op names, or NULL. */
struct nat_handle *nat_handle(struct smb_native *n,
			      const struct op_call *call);

/* The ops (state: a struct smb_native *). */
uint32_t nat_ntcreatex(void *state, struct op_call *call);
uint32_t nat_close_op(void *state, struct op_call *call);
uint32_t nat_readx(void *state, struct op_call *call);
uint32_t nat_writex(void *state, struct op_call *call);
uint32_t nat_qfileinfo(void *state, struct op_call *call);
uint32_t nat_sfileinfo(void *state, struct op_call *call);
uint32_t nat_qpathinfo(void *state, struct op_call *call);
uint32_t nat_qfsinfo(void *state, struct op_call *call);
uint32_t nat_unlink(void *state, struct op_call *call);
uint32_t nat_rmdir(void *state, struct op_call *call);
uint32_t nat_mkdir(void *state, struct op_call *call);
uint32_t nat_rename(void *state, struct op_call *call);
uint32_t nat_flush(void *state, struct op_call *call);
uint32_t nat_lockx(void *state, struct op_call *call);
uint32_t nat_unlockx(void *state, struct op_call *call);
uint32_t nat_dropcache(void *state, struct op_call *call);
uint32_t nat_find(void *state, struct op_call *call);
uint32_t nat_deltree(void *state, struct op_call *call);

/* List the whole directory path ("" the root), keeping nothing: the
 * CREATE's status when it failed, else the listing's (smb2_tree.c). */
uint32_t nat_list_all(struct smb_native *n, struct op_call *call,
		      const char *path);

/* dbench 5.0's smb dialect (smb2_smb5.c; state: a struct smb_native *). */
uint32_t nat5_open(void *state, struct op_call *call);
uint32_t nat5_read(void *state, struct op_call *call);
uint32_t nat5_write(void *state, struct op_call *call);
uint32_t nat5_close(void *state, struct op_call *call);
uint32_t nat5_mkdir(void *state, struct op_call *call);
uint32_t nat5_rmdir(void *state, struct op_call *call);
uint32_t nat5_unlink(void *state, struct op_call *call);
uint32_t nat5_readdir(void *state, struct op_call *call);
uint32_t nat5_deltree(void *state, struct op_call *call);

/* -x, --stat-check, --one-byte-write-fix (smb2_xopt.c).  An EA read on
 * fid (OK when the file has none), a read then a write of -x's EA; a
 * path query with the EA read in its compound (QUERY_PATH_INFORMATION,
 * class cls).  Statuses. */
uint32_t nat_ea_read(struct smb_native *n, struct op_call *call,
		     const uint8_t *fid);
uint32_t nat_ea_write(struct smb_native *n, struct op_call *call,
		      const uint8_t *fid);
uint32_t nat_qpath_ea(struct smb_native *n, struct op_call *call,
		      uint8_t cls);
/* --stat-check before NTCreateX, Mkdir, Rmdir, Rename: true when the
 * lookup decided the op (*status its status, no request of the op's). */
bool nat_stat_check(struct smb_native *n, struct op_call *call,
		    uint32_t *status);
/* --one-byte-write-fix: true when the 1-byte write at off was handled
 * (skipped, or a truncate), *status set; false: write it. */
bool nat_one_byte_write(struct smb_native *n, struct op_call *call,
			const struct nat_handle *h, int64_t off,
			uint32_t *status);

/* The ops of the options: the plain op when none of -x, --stat-check
 * and --one-byte-write-fix applies (smb2_xopt.c). */
uint32_t natx_ntcreatex(void *state, struct op_call *call);
uint32_t natx_qfileinfo(void *state, struct op_call *call);
uint32_t natx_sfileinfo(void *state, struct op_call *call);
uint32_t natx_qpathinfo(void *state, struct op_call *call);
uint32_t natx_mkdir(void *state, struct op_call *call);
uint32_t natx_rmdir(void *state, struct op_call *call);
uint32_t natx_rename(void *state, struct op_call *call);
uint32_t natx_writex(void *state, struct op_call *call);

/* SMB1 file information level -> SMB2 class; 0: unknown. */
uint8_t nat_file_class(int64_t level);

/* The client's state over a connection made with p, under mem: the
 * share's root opened; NULL with *err (one line under mem). */
struct smb_native *nat_new(void *mem, const struct smb2_params *p,
			   const struct dbench_options *opts,
			   uint32_t nhandles, char **err);

/* After a lost connection: connect again (once per call), every handle
 * gone; 0, or -1 with call->msg and call->err set. */
int nat_reconnect(struct smb_native *n, struct op_call *call);

/* ->cleanup: close every handle, remove the tree at path ("" or ".":
 * empty the root). 0 or a negative errno. */
int nat_cleanup(struct smb_native *n, const char *path);

#endif
