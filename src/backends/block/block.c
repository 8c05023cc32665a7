/*
 * block.c - the block backend (-B block --block=DEV): dbench 5.0's block
 * dialect, READ and WRITE of bytes at an offset of a block device.
 *
 * Safety first: the device is opened read-only unless the command line
 * allows writes (--allow-block-writes or --allow-scsi-writes), a
 * loadfile that writes is refused without that, and a device that is
 * mounted or holds data (device_safety.c) is refused for writes unless
 * --force-device.  An offset past the device's end is an error naming
 * the loadfile's line, never a wrap: before the run for constants and
 * bounded random values, at the op for relative ones.  Reads and writes
 * use O_DIRECT when the offset and size fit the device's logical block
 * size, so that the page cache does not make the numbers.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <popt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"
#include "loadfile/ntstatus.h"
#include "util/util.h"

#include "backends/device/device_safety.h"
#include "backends/device/device_range.h"

enum { BLOCK_OPT_DEVICE = 1 };

struct block_opts {
	const char *device;
};

static const struct poptOption block_options[] = {
	{ "block", 0, POPT_ARG_STRING, NULL, BLOCK_OPT_DEVICE,
	  "the block device READ and WRITE go to (its writes need "
	  "--allow-block-writes)", "DEV" },
	POPT_TABLEEND
};

static int block_option(void *mem, void **bopts, int val, const char *arg,
			char **err)
{
	struct block_opts *bo = *bopts;

	if (bo == NULL && (bo = *bopts = talloc_zero(mem,
						     struct block_opts)) == NULL)
		return -1;
	if (val != BLOCK_OPT_DEVICE || arg == NULL || arg[0] == '\0') {
		*err = talloc_strdup(mem, "expected a block device, such as "
				     "/dev/loop0");
		return -1;
	}
	bo->device = talloc_strdup(bo, arg);
	return bo->device != NULL ? 0 : -1;
}

static int block_options_done(void *mem, void **bopts, char **err)
{
	const struct block_opts *bo = *bopts;

	if (bo == NULL || bo->device == NULL) {
		*err = talloc_strdup(mem, "--block=DEV is required (the block "
				     "device to load)");
		return -1;
	}
	return 0;
}

/* The device's size and logical block size; 0 or -1 with *err. */
static int block_probe(void *mem, const char *dev, int fd, struct stat *st,
		       uint64_t *size, unsigned *lbs, char **err)
{
	int ss = 512;

	if (fstat(fd, st) != 0 || !S_ISBLK(st->st_mode)) {
		*err = talloc_asprintf(mem, "--block: '%s' is not a block "
				       "device", dev);
		return -1;
	}
	if (ioctl(fd, BLKGETSIZE64, size) != 0) {
		*err = talloc_asprintf(mem, "--block: '%s': cannot read its "
				       "size: %s", dev, strerror(errno));
		return -1;
	}
	if (ioctl(fd, BLKSSZGET, &ss) != 0 || ss <= 0)
		ss = 512;
	*lbs = (unsigned)ss;
	return 0;
}

/* Open the device (read-write only when allowed) and probe it. */
static int block_open(void *mem, const struct dbench_options *o, int extra,
		      struct stat *st, uint64_t *size, unsigned *lbs,
		      char **err)
{
	const struct block_opts *bo = o->backend_opts;
	int fd = open(bo->device, (o->allow_device_writes ? O_RDWR :
					O_RDONLY) | O_CLOEXEC | extra);

	if (fd < 0) {
		*err = talloc_asprintf(mem, "--block: cannot open '%s'%s: %s",
				       bo->device, o->allow_device_writes ?
				       " for writing" : "", strerror(errno));
		return -1;
	}
	if (block_probe(mem, bo->device, fd, st, size, lbs, err) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int block_target_check(void *mem, const struct dbench_options *o,
			      const char *target, char **err)
{
	const struct block_opts *bo = o->backend_opts;
	struct stat st;
	uint64_t size;
	unsigned lbs;
	char *found;
	int fd;

	(void)target;
	fd = block_open(mem, o, 0, &st, &size, &lbs, err);
	if (fd < 0)
		return -1;
	close(fd);
	if (!o->allow_device_writes || o->force_device)
		return 0;
	found = device_in_use(mem, bo->device, st.st_rdev);
	if (found == NULL)
		return 0;
	*err = talloc_asprintf(mem, "--block: refusing to write to '%s': %s; "
			       "dbench writes only to a device that holds "
			       "nothing (--force-device to write anyway)",
			       bo->device, found);
	return -1;
}

static int block_program_check(void *mem, const struct dbench_options *o,
			       const struct program *p, char **err)
{
	const struct block_opts *bo = o->backend_opts;
	struct device_range r = { .device = bo->device, .unit = 1 };
	struct stat st;
	unsigned lbs;
	int fd = block_open(mem, o, 0, &st, &r.size, &lbs, err);

	if (fd < 0)
		return -1;
	close(fd);
	r.allow_writes = o->allow_device_writes;
	r.writes_flag = "--allow-block-writes (or --allow-scsi-writes)";
	return device_range_check(mem, &r, p, err);
}

/* ---- a client ---- */

struct block_state {
	int fd_direct;		/* -1 when the device refused O_DIRECT */
	int fd;			/* buffered, for what O_DIRECT cannot do */
	uint64_t size;
	unsigned lbs;
	const char *device;
	uint8_t *buf;		/* aligned, buf_len bytes */
	size_t buf_len;
	char *msg;
};

static int block_state_free(struct block_state *s)
{
	if (s->fd_direct >= 0)
		close(s->fd_direct);
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	return 0;
}

static int block_setup(void *mem, const struct backend_client_config *cfg,
		       void **state, char **err)
{
	const struct block_opts *bo = cfg->opts->backend_opts;
	struct block_state *s = talloc_zero(mem, struct block_state);
	struct stat st;

	if (s == NULL)
		return -1;
	s->fd_direct = s->fd = -1;
	s->device = bo->device;
	talloc_set_destructor(s, block_state_free);
	s->fd = block_open(mem, cfg->opts, 0, &st, &s->size, &s->lbs, err);
	if (s->fd < 0) {
		talloc_free(s);
		return -1;
	}
	s->fd_direct = open(bo->device, (cfg->opts->allow_device_writes ?
					 O_RDWR : O_RDONLY) |
					O_CLOEXEC | O_DIRECT);
	*state = s;
	return 0;
}

static int block_cleanup(void *state, const char *path)
{
	(void)state;
	(void)path;
	return 0;
}

/* An aligned buffer of at least n bytes; NULL when out of memory. */
static uint8_t *block_buf(struct block_state *s, size_t n)
{
	void *p;

	if (n <= s->buf_len)
		return s->buf;
	if (posix_memalign(&p, 4096, n) != 0)
		return NULL;
	free(s->buf);
	s->buf = p;
	s->buf_len = n;
	return s->buf;
}

/* Resolve the op's offset and size: an unbounded '*' is drawn within the
 * device; anything else past its end is refused (OP_STATUS_NONE). */
static int block_range(struct block_state *s, struct op_call *call,
		       uint64_t *off, size_t *len)
{
	int64_t o = call->arg[0], n = call->arg[1];

	if (n < 0 || (uint64_t)n > s->size) {
		talloc_free(s->msg);
		s->msg = talloc_asprintf(s, "size %lld is more than '%s' "
					 "holds (%llu bytes)", (long long)n,
					 s->device,
					 (unsigned long long)s->size);
		call->msg = s->msg;
		return -1;
	}
	if (device_range_unbounded(call->prog, call->op, 0))
		o = (int64_t)device_range_draw(call->prog, call->op, 0,
					       (uint64_t)o,
					       s->size - (uint64_t)n + 1);
	if (o < 0 || (uint64_t)o > s->size - (uint64_t)n) {
		talloc_free(s->msg);
		s->msg = talloc_asprintf(s, "offset %lld + size %lld is past "
					 "the end of '%s' (%llu bytes)",
					 (long long)o, (long long)n,
					 s->device,
					 (unsigned long long)s->size);
		call->msg = s->msg;
		return -1;
	}
	*off = (uint64_t)o;
	*len = (size_t)n;
	return 0;
}

/* The descriptor for this request: O_DIRECT when it fits. */
static int block_fd(const struct block_state *s, uint64_t off, size_t len)
{
	if (s->fd_direct >= 0 && off % s->lbs == 0 && len % s->lbs == 0)
		return s->fd_direct;
	return s->fd;
}

static uint32_t block_fail(struct block_state *s, struct op_call *call,
			   int err, const char *what)
{
	call->err = err;
	talloc_free(s->msg);
	s->msg = talloc_asprintf(s, "%s '%s': %s", what, s->device,
				 strerror(err));
	call->msg = s->msg;
	return ntstatus_failure(err);
}

HOT_PATH
static uint32_t block_read(void *state, struct op_call *call)
{
	struct block_state *s = state;
	uint64_t off;
	size_t len;
	uint8_t *buf;
	ssize_t got;

	if (block_range(s, call, &off, &len) != 0)
		return OP_STATUS_NONE;
	if (len == 0) /* a random size drew 0 (a constant 0 is refused) */
		return NT_STATUS_OK;
	buf = block_buf(s, len);
	if (buf == NULL)
		return block_fail(s, call, ENOMEM, "reading");
	got = pread(block_fd(s, off, len), buf, len, (off_t)off);
	if (got < 0)
		return block_fail(s, call, errno, "reading");
	call->bytes = (uint64_t)got;
	return NT_STATUS_OK;
}

HOT_PATH
static uint32_t block_write(void *state, struct op_call *call)
{
	struct block_state *s = state;
	const uint8_t *data = call->data;
	uint64_t off;
	size_t len;
	int fd;
	ssize_t put;

	if (block_range(s, call, &off, &len) != 0)
		return OP_STATUS_NONE;
	fd = block_fd(s, off, len);
	/* O_DIRECT wants the data aligned too: the pattern's buffer is not */
	if (fd == s->fd_direct && ((uintptr_t)data % 4096) != 0) {
		uint8_t *buf = block_buf(s, len);

		if (buf == NULL)
			return block_fail(s, call, ENOMEM, "writing");
		memcpy(buf, data, len);
		data = buf;
	}
	put = pwrite(fd, data, len, (off_t)off);
	if (put < 0)
		return block_fail(s, call, errno, "writing");
	call->bytes = (uint64_t)put;
	return NT_STATUS_OK;
}

static uint64_t block_client_fds(const struct dbench_options *o,
				 uint32_t max_open_handles, uint32_t max_dirs)
{
	(void)o;
	(void)max_open_handles;
	(void)max_dirs;
	return 2;
}

const struct backend block_backend = {
	.abi = BACKEND_ABI,
	.name = "block",
	.description = "READ and WRITE on a block device (dbench 5.0's "
		       "block loadfiles)",
	.unavailable = NULL,
	.flags = BACKEND_OWN_TARGET | BACKEND_DEVICE,
	.options = block_options,
	.option = block_option,
	.options_done = block_options_done,
	.target_check = block_target_check,
	.client_fds = block_client_fds,
	.program_check = block_program_check,
	.setup = block_setup,
	.cleanup = block_cleanup,
	.ops = {
		[OP_BREAD] = block_read,
		[OP_BWRITE] = block_write,
	},
};
