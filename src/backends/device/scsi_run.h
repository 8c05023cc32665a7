/*
 * scsi_run.h - one SCSI-dialect op over a transport (SG_IO for -B scsi,
 * libiscsi for -B iscsi): the CDB (scsi_cdb.c), the range and write
 * checks, the status the loadfile expects, the persistent reservation a
 * client registered, released at its end.
 */
#ifndef DBENCH_SCSI_RUN_H
#define DBENCH_SCSI_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "backends/backend.h"
#include "backends/device/scsi_cdb.h"

/* What came back from a command. */
struct scsi_outcome {
	unsigned status;	/* SCSI status byte */
	uint8_t sense_key;	/* with CHECK CONDITION */
	uint16_t ascq;		/* asc << 8 | ascq */
	uint32_t got;		/* data bytes in */
	int err;		/* transport failure: an errno, status unset */
	const char *msg;	/* its words (the transport's), or NULL */
};

struct scsi_transport {
	/* Run c (data: c->xfer bytes at buf, in or out).  Returns 0 with
	 * o->status (and sense) set, or -1 with o->err and o->msg: the
	 * command got no status (the connection is gone, ...). */
	int (*exec)(void *t, const struct scsi_cmd *c, uint8_t *buf,
		    struct scsi_outcome *o);
};

struct scsi_dev {
	const struct scsi_transport *tr;
	void *t;
	const char *name;	/* in messages (never a password) */
	uint64_t blocks;
	uint32_t block_size;
	bool allow_writes;
	uint8_t *buf;		/* 4096-aligned, buf_len bytes */
	size_t buf_len;
	char *msg;		/* the last op's message (owned here) */
	bool registered;	/* a PROUT REGISTER of key holds */
	uint64_t key;
};

/* Read the capacity (READ CAPACITY 10, then 16 for a large device) into
 * d->blocks and d->block_size.  Returns 0, or -1 with *err under mem. */
int scsi_dev_capacity(void *mem, struct scsi_dev *d, char **err);

/* One op of the SCSI dialect: its status (OP_STATUS_NONE with call->msg
 * when it got none). */
uint32_t scsi_run_op(struct scsi_dev *d, struct op_call *call);

/* The end of a client: a key it registered (and any reservation it holds
 * with it) is unregistered.  Safe to call more than once. */
void scsi_dev_release(struct scsi_dev *d);

/*
 * The backend hooks of a state that begins with its struct scsi_dev (the
 * scsi and iscsi backends): one op, the end of a client, and the one
 * descriptor (device node or socket) a client holds.
 */
uint32_t scsi_backend_op(void *state, struct op_call *call);
int scsi_backend_cleanup(void *state, const char *path);
uint64_t scsi_backend_client_fds(const struct dbench_options *o,
				 uint32_t max_open_handles, uint32_t max_dirs);

/* The ops[] of such a backend: every kind of the SCSI dialect. */
#define SCSI_BACKEND_OPS                                                   \
	[OP_TESTUNITREADY] = scsi_backend_op, [OP_READ6] = scsi_backend_op, \
	[OP_READ10] = scsi_backend_op, [OP_READ16] = scsi_backend_op,       \
	[OP_WRITE10] = scsi_backend_op, [OP_WRITE16] = scsi_backend_op,     \
	[OP_READCAPACITY10] = scsi_backend_op,                              \
	[OP_READCAPACITY16] = scsi_backend_op,                              \
	[OP_SYNCHRONIZECACHE10] = scsi_backend_op,                          \
	[OP_INQUIRY] = scsi_backend_op, [OP_REPORTLUNS] = scsi_backend_op,  \
	[OP_PROUT] = scsi_backend_op, [OP_PRIN] = scsi_backend_op

/* Free d's buffer and message (its owner frees d). */
void scsi_dev_free(struct scsi_dev *d);

#endif
