/*
 * nbsmb5.h - dbench 5.0's smb loadfile dialect (OPEN, READ, WRITE, CLOSE,
 * MKDIR, RMDIR, UNLINK, READDIR, Deltree) over an nbvfs, for every
 * backend built on the shared SMB semantics.
 *
 * The compiler (loadfile.c) has put every path below the client's own
 * directory and given each path that OPEN opens a handle slot of its own;
 * these ops keep the vfs handles in the nbvfs's table (so cleanup closes
 * them) and answer NT_STATUS_OK or a failure status (the dialect checks
 * only success or failure).
 */
#ifndef DBENCH_NBSMB5_H
#define DBENCH_NBSMB5_H

#include <stdint.h>

#include "loadfile/op_call.h"

/* dbench 5.0 moves at most this much per READ or WRITE (a larger size
 * is cut to it, and only what was moved counts). */
#define NBSMB5_IO_MAX	65536

/* The op functions (state: a struct nbvfs *). */
uint32_t nbsmb5_open(void *state, struct op_call *call);
uint32_t nbsmb5_read(void *state, struct op_call *call);
uint32_t nbsmb5_write(void *state, struct op_call *call);
uint32_t nbsmb5_close(void *state, struct op_call *call);
uint32_t nbsmb5_mkdir(void *state, struct op_call *call);
uint32_t nbsmb5_rmdir(void *state, struct op_call *call);
uint32_t nbsmb5_unlink(void *state, struct op_call *call);
uint32_t nbsmb5_readdir(void *state, struct op_call *call);
uint32_t nbsmb5_deltree(void *state, struct op_call *call);

/* The designated initialisers of a backend's ops[] over an nbvfs that
 * also runs the dialect: `.ops = { NBVFS_OPS, NBSMB5_OPS },` */
#define NBSMB5_OPS \
	[OP_OPEN5] = nbsmb5_open, \
	[OP_READ5] = nbsmb5_read, \
	[OP_WRITE5] = nbsmb5_write, \
	[OP_CLOSE5] = nbsmb5_close, \
	[OP_MKDIR5] = nbsmb5_mkdir, \
	[OP_RMDIR5] = nbsmb5_rmdir, \
	[OP_UNLINK5] = nbsmb5_unlink, \
	[OP_READDIR5] = nbsmb5_readdir, \
	[OP_DELTREE5] = nbsmb5_deltree

#endif
