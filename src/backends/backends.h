/*
 * backends.h - the backend objects the registry lists.
 *
 * Each one is defined in its own file (or folder) under src/backends/ and
 * is constant: per-client data lives in the state its setup hook
 * allocates.
 */
#ifndef DBENCH_BACKENDS_H
#define DBENCH_BACKENDS_H

#include "backends/backend.h"

/*
 * Every backend, available or not, once: X(NAME) for the object
 * NAME_backend, in the registry's order (the order -B's list of the
 * available ones and --help follow).
 *
 * fileio: a local filesystem through POSIX calls (fileio.c).
 * null:   does nothing; measures the engine's own cost (null.c).
 * memfs:  nbvfs over an in-memory tree per process (memfs.c).
 * sockio: tbench, each op a request and reply with a tbench server
 *         (sockio.c).
 * nfs:    NFSv3 through libnfs, both loadfile dialects (nfs/).
 * smb:    an SMB2/SMB3 share through libsmbclient (smb/); built without
 *         it, only its name, options and why it is unavailable.
 * block:  READ and WRITE on a block device, dbench 5.0's block dialect
 *         (block/).
 * iscsi:  the SCSI dialect to an iSCSI LUN through libiscsi (iscsi/);
 *         built without it, only its name, options and why it is
 *         unavailable.
 * scsi:   the SCSI dialect to a SCSI generic node through SG_IO (scsi/).
 * The device backends (block, iscsi, scsi) share device/: the device
 * checks, the offsets against its size, the SCSI CDBs and op runner.
 */
#define DBENCH_BACKENDS(X) \
	X(fileio) \
	X(null) \
	X(memfs) \
	X(sockio) \
	X(nfs) \
	X(smb) \
	X(block) \
	X(iscsi) \
	X(scsi)

#define BACKENDS_DECLARE_(name) extern const struct backend name##_backend;
DBENCH_BACKENDS(BACKENDS_DECLARE_)
#undef BACKENDS_DECLARE_

#endif
