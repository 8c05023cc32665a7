/*
 * scsi.c - the scsi backend (-B scsi --scsi=/dev/sgN): dbench 5.0's SCSI
 * dialect sent to a SCSI generic node through the SG_IO ioctl.  The
 * commands, checks and statuses are scsi_run.c's, shared with -B iscsi.
 *
 * Safety as -B block's: the node is opened for writing only when the
 * command line allows writes, and then the block device behind it (from
 * sysfs) must hold nothing (device_safety.c) unless --force-device.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <popt.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"

#include "backends/device/device_range.h"
#include "backends/device/device_safety.h"
#include "backends/device/scsi_run.h"

enum { SCSI_OPT_DEVICE = 1 };

/* milliseconds one command may take (SG_IO's own timeout) */
#define SCSI_SG_TIMEOUT 5000

struct scsi_opts {
	const char *device;
};

static const struct poptOption scsi_options[] = {
	{ "scsi", 0, POPT_ARG_STRING, NULL, SCSI_OPT_DEVICE,
	  "the SCSI generic node the SCSI dialect goes to", "/dev/sgN" },
	POPT_TABLEEND
};

static int scsi_option(void *mem, void **bopts, int val, const char *arg,
		       char **err)
{
	struct scsi_opts *so = *bopts;

	if (so == NULL && (so = *bopts = talloc_zero(mem,
						     struct scsi_opts)) == NULL)
		return -1;
	if (val != SCSI_OPT_DEVICE || arg == NULL || arg[0] == '\0') {
		*err = talloc_strdup(mem, "expected a SCSI generic node, such "
				     "as /dev/sg0");
		return -1;
	}
	so->device = talloc_strdup(so, arg);
	return so->device != NULL ? 0 : -1;
}

static int scsi_options_done(void *mem, void **bopts, char **err)
{
	const struct scsi_opts *so = *bopts;

	if (so == NULL || so->device == NULL) {
		*err = talloc_strdup(mem, "--scsi=/dev/sgN is required (the "
				     "SCSI generic node to load)");
		return -1;
	}
	return 0;
}

struct sg_state {
	struct scsi_dev dev;
	int fd;
};

static int sg_exec(void *t, const struct scsi_cmd *c, uint8_t *buf,
		   struct scsi_outcome *o)
{
	struct sg_state *s = t;
	uint8_t sense[64];
	sg_io_hdr_t h;

	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	h.cmdp = (unsigned char *)c->cdb;
	h.cmd_len = c->cdb_len;
	h.dxfer_direction = c->dir == SCSI_DIR_READ  ? SG_DXFER_FROM_DEV :
			    c->dir == SCSI_DIR_WRITE ? SG_DXFER_TO_DEV :
						       SG_DXFER_NONE;
	h.dxferp = buf;
	h.dxfer_len = c->xfer;
	h.sbp = sense;
	h.mx_sb_len = sizeof(sense);
	h.timeout = SCSI_SG_TIMEOUT;
	if (ioctl(s->fd, SG_IO, &h) != 0) {
		o->err = errno;
		o->msg = "SG_IO failed";
		return -1;
	}
	if (h.host_status != 0 || (h.driver_status & ~0x08) != 0) {
		o->err = EIO;
		o->msg = h.host_status != 0 ? "the host adapter failed the "
					      "command (host status)" :
					      "the driver failed the command";
		return -1;
	}
	o->status = h.status;
	if (h.sb_len_wr > 0)
		scsi_sense_parse(sense, h.sb_len_wr, &o->sense_key, &o->ascq);
	o->got = c->xfer - (uint32_t)(h.resid > 0 ? h.resid : 0);
	return 0;
}

static const struct scsi_transport sg_transport = { .exec = sg_exec };

static int sg_state_free(struct sg_state *s)
{
	if (s->fd >= 0) {
		scsi_dev_release(&s->dev);
		close(s->fd);
	}
	scsi_dev_free(&s->dev);
	return 0;
}

/* The node opened (for writing only when allowed), checked as an sg
 * node, its capacity read. */
static struct sg_state *sg_open(void *mem, const struct dbench_options *o,
				char **err)
{
	const struct scsi_opts *so = o->backend_opts;
	struct sg_state *s = talloc_zero(mem, struct sg_state);
	int vers = 0;

	if (s == NULL)
		return NULL;
	s->fd = -1;
	talloc_set_destructor(s, sg_state_free);
	s->dev.tr = &sg_transport;
	s->dev.t = s;
	s->dev.name = so->device;
	s->dev.allow_writes = o->allow_device_writes;
	/* SG_IO wants a descriptor open for writing for most commands */
	s->fd = open(so->device, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0) {
		*err = talloc_asprintf(mem, "--scsi: cannot open '%s': %s",
				       so->device, strerror(errno));
		goto fail;
	}
	if (ioctl(s->fd, SG_GET_VERSION_NUM, &vers) != 0 || vers < 30000) {
		*err = talloc_asprintf(mem, "--scsi: '%s' is not a SCSI "
				       "generic (sg) node", so->device);
		goto fail;
	}
	if (scsi_dev_capacity(mem, &s->dev, err) != 0)
		goto fail;
	return s;
fail:
	talloc_free(s);
	return NULL;
}

/* What the block device behind sg node path holds (NULL: nothing, or no
 * block device behind it). */
static char *sg_block_in_use(void *mem, const char *path)
{
	const char *base = strrchr(path, '/');
	char *dir = talloc_asprintf(mem, "/sys/class/scsi_generic/%s/device/"
				    "block", base ? base + 1 : path);
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	char *found = NULL;

	while (d != NULL && found == NULL && (e = readdir(d)) != NULL) {
		char *dev = talloc_asprintf(mem, "/dev/%s", e->d_name);
		struct stat st;

		if (e->d_name[0] != '.' && dev && stat(dev, &st) == 0 &&
		    S_ISBLK(st.st_mode))
			found = device_in_use(mem, dev, st.st_rdev);
	}
	if (d != NULL)
		closedir(d);
	return found;
}

static int scsi_target_check(void *mem, const struct dbench_options *o,
			     const char *target, char **err)
{
	const struct scsi_opts *so = o->backend_opts;
	struct sg_state *s;
	char *found;

	(void)target;
	s = sg_open(mem, o, err);
	if (s == NULL)
		return -1;
	talloc_free(s);
	if (!o->allow_device_writes || o->force_device)
		return 0;
	found = sg_block_in_use(mem, so->device);
	if (found == NULL)
		return 0;
	*err = talloc_asprintf(mem, "--scsi: refusing to write to '%s': %s; "
			       "dbench writes only to a device that holds "
			       "nothing (--force-device to write anyway)",
			       so->device, found);
	return -1;
}

static int scsi_program_check(void *mem, const struct dbench_options *o,
			      const struct program *p, char **err)
{
	const struct scsi_opts *so = o->backend_opts;
	struct sg_state *s = sg_open(mem, o, err);
	struct device_range r = { .device = so->device };

	if (s == NULL)
		return -1;
	r.unit = s->dev.block_size;
	r.size = s->dev.blocks * s->dev.block_size;
	r.allow_writes = o->allow_device_writes;
	r.writes_flag = "--allow-scsi-writes";
	talloc_free(s);
	return device_range_check(mem, &r, p, err);
}

static int scsi_setup(void *mem, const struct backend_client_config *cfg,
		      void **state, char **err)
{
	struct sg_state *s = sg_open(mem, cfg->opts, err);

	if (s == NULL)
		return -1;
	*state = s;
	return 0;
}

const struct backend scsi_backend = {
	.abi = BACKEND_ABI,
	.name = "scsi",
	.description = "the SCSI dialect to a SCSI generic node (SG_IO)",
	.unavailable = NULL,
	.flags = BACKEND_OWN_TARGET | BACKEND_DEVICE,
	.options = scsi_options,
	.option = scsi_option,
	.options_done = scsi_options_done,
	.target_check = scsi_target_check,
	.client_fds = scsi_backend_client_fds,
	.program_check = scsi_program_check,
	.setup = scsi_setup,
	.cleanup = scsi_backend_cleanup,
	.ops = { SCSI_BACKEND_OPS },
};
