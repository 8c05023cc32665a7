/*
 * nfs_status.h - NFS3 status codes (RFC 1813) and their errno values,
 * both ways: what the dialect's ops answer (nfs_dialect.c) and what a
 * status means in a message (nfs_vfs.c).  Kept apart from libnfs's own
 * names, which the raw calls (nfs_raw.c) use.
 */
#ifndef DBENCH_NFS_STATUS_H
#define DBENCH_NFS_STATUS_H

#include <stdint.h>

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

/* The NFS3 status of a libnfs result's errno err (NFS3ERR_SERVERFAULT
 * when none matches). */
uint32_t nfs3_status_of(int err);

/* The errno an NFS3 status other than NFS3_OK stands for (EIO when none
 * does), for messages. */
int nfs3_errno_of(uint32_t st);

#endif
