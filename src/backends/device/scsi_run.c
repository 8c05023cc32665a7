/*
 * scsi_run.c - one op of the SCSI dialect over a transport, for the scsi
 * and iscsi backends alike: the CDB, the device's end (an unbounded '*'
 * drawn within the device, anything else past it refused naming the
 * line), the data (the engine's WRITEPATTERN bytes for writes), the SCSI
 * status as the loadfile's status, and the persistent-reservation key
 * the client registered, unregistered at its end so that no reservation
 * outlives the run.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <talloc.h>

#include "backends/device/device_range.h"
#include "backends/device/scsi_run.h"

static uint8_t *dev_buf(struct scsi_dev *d, size_t n)
{
	void *p;

	if (n == 0)
		n = 1;
	if (n <= d->buf_len)
		return d->buf;
	if (posix_memalign(&p, 4096, n) != 0)
		return NULL;
	free(d->buf);
	d->buf = p;
	d->buf_len = n;
	return d->buf;
}

void scsi_dev_free(struct scsi_dev *d)
{
	free(d->buf);
	d->buf = NULL;
	d->buf_len = 0;
}

/* The words for a status other than GOOD, under d. */
static char *status_words(struct scsi_dev *d, const struct scsi_outcome *o)
{
	const char *name = scsi_status_name(o->status);

	if (o->status == SCSI_CHECK_CONDITION)
		return talloc_asprintf(d, "%s: CHECK CONDITION, sense key "
				       "0x%02X (%s), asc/ascq 0x%04X",
				       d->name, o->sense_key,
				       scsi_sense_key_name(o->sense_key),
				       o->ascq);
	return talloc_asprintf(d, "%s: status 0x%02X%s%s", d->name, o->status,
			       name ? " " : "", name ? name : "");
}

/* Run one command with the argument values arg; the outcome in *o. */
static int run_cmd(struct scsi_dev *d, unsigned kind, const int64_t *arg,
		   struct scsi_outcome *o)
{
	struct scsi_cmd c;
	const char *why = NULL;
	uint8_t *buf;

	memset(o, 0, sizeof(*o));
	if (scsi_cdb_build(kind, arg, d->block_size, &c, &why) != 0 ||
	    (buf = dev_buf(d, c.xfer)) == NULL) {
		o->err = why ? EINVAL : ENOMEM;
		o->msg = why ? why : "out of memory";
		return -1;
	}
	if (kind == OP_PROUT)
		memcpy(buf, c.param, sizeof(c.param));
	return d->tr->exec(d->t, &c, buf, o);
}

int scsi_dev_capacity(void *mem, struct scsi_dev *d, char **err)
{
	int64_t arg[PROGRAM_MAX_ARGS] = { 0 };
	struct scsi_outcome o;
	bool ok;

	d->block_size = 512;
	if (run_cmd(d, OP_READCAPACITY10, arg, &o) != 0 || o.status != 0)
		goto bad;
	ok = scsi_capacity10(d->buf, o.got, &d->blocks, &d->block_size);
	if (ok && d->blocks == 0x100000000ull) {
		if (run_cmd(d, OP_READCAPACITY16, arg, &o) != 0 ||
		    o.status != 0)
			goto bad;
		ok = scsi_capacity16(d->buf, o.got, &d->blocks,
				     &d->block_size);
	}
	if (ok)
		return 0;
	*err = talloc_asprintf(mem, "%s: READ CAPACITY returned no capacity",
			       d->name);
	return -1;
bad:
	if (o.msg != NULL || o.err != 0)
		*err = talloc_asprintf(mem, "%s: READ CAPACITY: %s", d->name,
				       o.msg ? o.msg : strerror(o.err));
	else
		*err = talloc_asprintf(mem, "READ CAPACITY: %s",
				       status_words(d, &o));
	return -1;
}

/* Say msg for this op (kept in d until its next op). */
static void say(struct scsi_dev *d, struct op_call *call, char *msg)
{
	talloc_free(d->msg);
	d->msg = msg;
	call->msg = msg;
}

/* The extent of the op after an unbounded '*' lba is drawn within the
 * device; -1 (said) when it is past the end. */
static int extent(struct scsi_dev *d, struct op_call *call, int64_t *arg)
{
	uint64_t n = (uint64_t)arg[1];
	unsigned kind = call->op->kind;

	if (kind == OP_READ6 && n == 0)
		n = 256;
	if (n > d->blocks) {
		say(d, call, talloc_asprintf(d, "%llu blocks is more than %s "
					     "holds (%llu blocks)",
					     (unsigned long long)n, d->name,
					     (unsigned long long)d->blocks));
		return -1;
	}
	if (device_range_unbounded(call->prog, call->op, 0))
		arg[0] = (int64_t)device_range_draw(call->prog, call->op, 0,
						    (uint64_t)arg[0],
						    d->blocks - n + 1);
	if ((uint64_t)arg[0] > d->blocks - n) {
		say(d, call, talloc_asprintf(d, "lba %llu + %llu blocks is "
					     "past the end of %s (%llu "
					     "blocks)",
					     (unsigned long long)arg[0],
					     (unsigned long long)n, d->name,
					     (unsigned long long)d->blocks));
		return -1;
	}
	return 0;
}

/* What a PROUT that succeeded did to this client's registration. */
static void note_prout(struct scsi_dev *d, const int64_t *arg)
{
	unsigned action = arg[0] & 0x1F;

	if (action == 0 || action == 6) { /* REGISTER (AND IGNORE) */
		d->registered = arg[2] != 0;
		d->key = (uint64_t)arg[2];
	} else if (action == 3) { /* CLEAR: every registration goes */
		d->registered = false;
	}
}

static bool kind_has_extent(unsigned kind)
{
	return kind == OP_READ6 || kind == OP_READ10 || kind == OP_READ16 ||
	       kind == OP_WRITE10 || kind == OP_WRITE16 ||
	       kind == OP_SYNCHRONIZECACHE10;
}

uint32_t scsi_run_op(struct scsi_dev *d, struct op_call *call)
{
	unsigned kind = call->op->kind;
	int64_t arg[PROGRAM_MAX_ARGS];
	struct scsi_outcome o;
	struct scsi_cmd c;
	const char *why = NULL;
	uint8_t *buf;

	memcpy(arg, call->arg, sizeof(arg));
	if (kind_has_extent(kind) && extent(d, call, arg) != 0)
		return OP_STATUS_NONE;
	if (scsi_cdb_build(kind, arg, d->block_size, &c, &why) != 0) {
		say(d, call, talloc_strdup(d, why));
		return OP_STATUS_NONE;
	}
	if (c.dir == SCSI_DIR_WRITE && c.data_io && !d->allow_writes) {
		say(d, call, talloc_asprintf(d, "%s: writes are not allowed",
					     d->name));
		return OP_STATUS_NONE;
	}
	buf = dev_buf(d, c.xfer);
	if (buf == NULL) {
		call->err = ENOMEM;
		return OP_STATUS_NONE;
	}
	if (kind == OP_PROUT)
		memcpy(buf, c.param, sizeof(c.param));
	else if (c.dir == SCSI_DIR_WRITE && call->data != NULL &&
		 d->block_size <= OP_SCSI_DATA_BLOCK)
		memcpy(buf, call->data, c.xfer);
	else if (c.dir == SCSI_DIR_WRITE)
		memset(buf, 0, c.xfer);
	memset(&o, 0, sizeof(o));
	if (d->tr->exec(d->t, &c, buf, &o) != 0) {
		call->err = o.err;
		say(d, call, talloc_asprintf(d, "%s: %s", d->name,
					     o.msg ? o.msg : strerror(o.err)));
		return OP_STATUS_NONE;
	}
	if (o.status != SCSI_GOOD) {
		if (o.status == SCSI_CHECK_CONDITION)
			call->err = scsi_sense_errno(o.sense_key, o.ascq);
		say(d, call, status_words(d, &o));
		return o.status;
	}
	if (c.data_io)
		call->bytes = c.xfer;
	if (kind == OP_PROUT)
		note_prout(d, arg);
	return SCSI_GOOD;
}

void scsi_dev_release(struct scsi_dev *d)
{
	int64_t arg[PROGRAM_MAX_ARGS] = { 0, 0, 0 };
	struct scsi_outcome o;

	if (!d->registered)
		return;
	/* REGISTER with the key held and 0 as the new one: unregisters, and
	 * releases a reservation the key holds */
	arg[1] = (int64_t)d->key;
	d->registered = false;
	(void)run_cmd(d, OP_PROUT, arg, &o);
}

uint32_t scsi_backend_op(void *state, struct op_call *call)
{
	return scsi_run_op(state, call);	/* the state begins with it */
}

int scsi_backend_cleanup(void *state, const char *path)
{
	(void)path;
	scsi_dev_release(state);
	return 0;
}

uint64_t scsi_backend_client_fds(const struct dbench_options *o,
				 uint32_t max_open_handles, uint32_t max_dirs)
{
	(void)o;
	(void)max_open_handles;
	(void)max_dirs;
	return 1;
}
