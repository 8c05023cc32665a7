/*
 * nbvfs_io.c - the ops on an open handle: Close, Flush, DropCache, ReadX,
 * WriteX, LockX and UnlockX.
 *
 * Transfers on a handle opened with O_DIRECT go through the vfs's aligned
 * buffer (the client's write data is copied into it); offsets and sizes
 * are the loadfile's business, and the vfs's EINVAL for misaligned ones
 * is returned as it is.  Other reads land in one buffer that grows to the
 * largest ReadX seen.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include <talloc.h>

#include "smb_semantics/nbvfs.h"
#include "nbvfs_shared.h"
#include "loadfile/ntstatus.h"
#include "util/util.h"

/* The read buffer grows to the largest ReadX seen, up to this; larger
 * reads (and direct transfers) are done in pieces of this size. */
#define NB_RBUF_MAX		(16u * 1024 * 1024)
/* Largest single pwrite: keeps every count well inside ssize_t. */
#define NB_IO_MAX		(1u << 30)

/* ---- handle operations ---- */

HOT_PATH
uint32_t nbvfs_close(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct nb_handle *h = nb_handle(nb, call);

	if (h == NULL)
		return nb_bad_handle(call);
	h->open = false;
	nb->nopen--;
	return nb_status(call, nb->vfs->ops->close(nb->vfs, h->fh));
}

/* An op that is one vfs call on the op's handle (NULL: nothing to do). */
static uint32_t nb_handle_call(struct nbvfs *nb, struct op_call *call,
			       int (*fn)(struct vfs *vfs, int fh))
{
	struct nb_handle *h = nb_handle(nb, call);

	if (h == NULL)
		return nb_bad_handle(call);
	return fn != NULL ? nb_status(call, fn(nb->vfs, h->fh)) :
			    NT_STATUS_OK;
}

HOT_PATH
uint32_t nbvfs_flush(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;

	return nb_handle_call(nb, call, nb->vfs->ops->fsync);
}

/*
 * DropCache: write the file's dirty pages out and drop its cached ones,
 * so that the next read comes from the device.  A store without a cache
 * (no drop_cache) has nothing to drop.
 */
uint32_t nbvfs_dropcache(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;

	return nb_handle_call(nb, call, nb->vfs->ops->drop_cache);
}

/*
 * --one-byte-write-fix, as dbench 4.00 does it.  Windows clients extend a
 * file by writing one zero byte at its new end; Samba can turn that into a
 * truncate, which is much cheaper on some filesystems.  So: a 1-byte write
 * inside the file of the byte already there is skipped, and a 1-byte write
 * of a zero at or past the end becomes ftruncate(offset + 1), which leaves
 * the same contents.  (The original always wrote zeros; a non-zero byte
 * past the end cannot be a truncate and is written normally.)
 * Returns true when the write was handled here, with *status set.
 */
static bool nb_one_byte_write(struct nbvfs *nb, struct op_call *call, int fh,
			      int64_t off, uint32_t *status)
{
	struct vfs *vfs = nb->vfs;
	struct stat sb;
	uint8_t old;
	int r;

	if (vfs->ops->fstat(vfs, fh, &sb) != 0)
		return false;
	if (sb.st_size > off) {
		if (vfs->ops->pread(vfs, fh, &old, 1, off) == 1 &&
		    old == call->data[0]) {
			*status = NT_STATUS_OK;
			return true;
		}
		return false;
	}
	if (call->data[0] != 0)
		return false;
	r = vfs->ops->ftruncate(vfs, fh, off + 1);
	*status = nb_status(call, r);
	return true;
}

/* Make the read buffer hold at least want bytes (want <= NB_RBUF_MAX). */
HOT_PATH
static uint8_t *nb_rbuf(struct nbvfs *nb, size_t want)
{
	uint8_t *p;

	if (nb->rbuf_size >= want)
		return nb->rbuf;
	p = talloc_realloc(nb, nb->rbuf, uint8_t, want);
	if (p == NULL)
		return NULL;
	nb->rbuf = p;
	nb->rbuf_size = want;
	return p;
}

/* The common checks of ReadX and WriteX: the handle, the range. */
HOT_PATH
static uint32_t nb_io_check(struct op_call *call, const struct nb_handle *h,
			    int64_t off, int64_t size)
{
	call->bytes = size > 0 ? (uint64_t)size : 0;
	if (h == NULL)
		return nb_bad_handle(call);
	if (off < 0 || size < 0 || size > INT64_MAX - off)
		return nb_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	return NT_STATUS_OK;
}

/* Write size bytes at off, in pieces, through the direct I/O buffer on a
 * direct handle; then -F's fsync. */
static uint32_t nb_write_all(struct nbvfs *nb, struct op_call *call,
			     const struct nb_handle *h, int64_t off,
			     int64_t size)
{
	size_t max = h->direct ? NB_RBUF_MAX : NB_IO_MAX;
	struct vfs *vfs = nb->vfs;
	int64_t done = 0;
	int r;

	while (done < size) {
		size_t chunk = size - done > (int64_t)max ?
				       max : (size_t)(size - done);
		const void *src = call->data + done;
		ssize_t n;

		if (h->direct) {
			void *dbuf = vfs->ops->dio_buffer(vfs, chunk);

			if (dbuf == NULL)
				return nb_fail(call, NT_STATUS_NO_MEMORY,
					       ENOMEM);
			memcpy(dbuf, src, chunk);
			src = dbuf;
		}
		n = vfs->ops->pwrite(vfs, h->fh, src, chunk, off + done);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return nb_errno(call, (int)-n);
		if (n == 0)	/* no progress and no reason given */
			return nb_errno(call, EIO);
		done += n;
	}
	if (nb->opts->fsync_writes &&
	    (r = vfs->ops->fsync(vfs, h->fh)) < 0)
		return nb_errno(call, -r);
	return NT_STATUS_OK;
}

HOT_PATH
uint32_t nbvfs_writex(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct nb_handle *h = nb_handle(nb, call);
	int64_t off = call->arg[0];
	int64_t size = call->arg[1];
	uint32_t status = nb_io_check(call, h, off, size);

	if (status != NT_STATUS_OK)
		return status;
	if (nb->opts->fake_io || size == 0)
		return NT_STATUS_OK;
	/* (pwrite would say EBADF: the handle is read-only) */
	if (h->is_dir)
		return nb_fail(call, NT_STATUS_FILE_IS_A_DIRECTORY, EISDIR);
	if (call->data == NULL)
		return nb_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	if (nb->opts->one_byte_write_fix && size == 1 && !h->direct &&
	    nb_one_byte_write(nb, call, h->fh, off, &status))
		return status;
	return nb_write_all(nb, call, h, off, size);
}

HOT_PATH
uint32_t nbvfs_readx(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	struct nb_handle *h = nb_handle(nb, call);
	struct vfs *vfs = nb->vfs;
	int64_t off = call->arg[0];
	int64_t size = call->arg[1];
	int64_t expected = call->arg[2];
	int64_t got = 0;
	uint32_t status = nb_io_check(call, h, off, size);

	if (status != NT_STATUS_OK || nb->opts->fake_io)
		return status;
	while (got < size) {
		size_t chunk = size - got > NB_RBUF_MAX ?
				       NB_RBUF_MAX : (size_t)(size - got);
		void *buf = h->direct ? vfs->ops->dio_buffer(vfs, chunk) :
					nb_rbuf(nb, chunk);
		ssize_t n;

		if (buf == NULL)
			return nb_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
		n = vfs->ops->pread(vfs, h->fh, buf, chunk, off + got);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return nb_errno(call, (int)-n);
		if (n == 0)	/* end of file */
			break;
		got += n;
	}
	/* fewer bytes than the loadfile says came back: the file is short */
	if (got < expected)
		return nb_fail(call, NT_STATUS_END_OF_FILE, 0);
	return NT_STATUS_OK;
}

/* LockX / UnlockX: a record lock on [offset, offset + size). */
static uint32_t nb_lock(struct nbvfs *nb, struct op_call *call, bool lock)
{
	struct nb_handle *h = nb_handle(nb, call);
	int64_t off = call->arg[0];
	int64_t size = call->arg[1];
	int r;

	if (h == NULL)
		return nb_bad_handle(call);
	if (off < 0 || size < 0 || size > INT64_MAX - off)
		return nb_fail(call, NT_STATUS_INVALID_PARAMETER, EINVAL);
	/* an empty range locks nothing (to fcntl, length 0 means "to EOF") */
	if (size == 0)
		return NT_STATUS_OK;
	r = (lock ? nb->vfs->ops->lock : nb->vfs->ops->unlock)(
		nb->vfs, h->fh, (off_t)off, (off_t)size);
	if (r == 0)
		return NT_STATUS_OK;
	if (lock && (r == -EAGAIN || r == -EACCES))
		return nb_fail(call, NT_STATUS_LOCK_NOT_GRANTED, -r);
	return nb_errno(call, -r);
}

uint32_t nbvfs_lockx(void *state, struct op_call *call)
{
	return nb_lock(state, call, true);
}

uint32_t nbvfs_unlockx(void *state, struct op_call *call)
{
	return nb_lock(state, call, false);
}
