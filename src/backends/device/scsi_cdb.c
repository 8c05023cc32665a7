/*
 * scsi_cdb.c - the SCSI dialect's commands as CDBs (SBC, SPC): the one
 * place that lays out TESTUNITREADY, READ6/10/16, WRITE10/16, READ
 * CAPACITY, SYNCHRONIZE CACHE, INQUIRY, REPORT LUNS and the persistent
 * reservation commands, for SG_IO and libiscsi alike.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "backends/device/scsi_cdb.h"

static void put_be(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

static uint64_t get_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* The data ops: READ6/10/16, WRITE10/16. */
static int build_rw(unsigned kind, const int64_t *arg, uint32_t bs,
		    struct scsi_cmd *c, const char **why)
{
	uint64_t lba = (uint64_t)arg[0], n = (uint64_t)arg[1];
	uint8_t flags = (uint8_t)(arg[2] & 0xFF), group = (arg[2] >> 8) & 0x1F;
	bool w = kind == OP_WRITE10 || kind == OP_WRITE16;

	c->extent = c->data_io = true;
	c->lba = lba;
	c->blocks = kind == OP_READ6 && n == 0 ? 256 : n;
	c->dir = w ? SCSI_DIR_WRITE : SCSI_DIR_READ;
	if (c->blocks * bs > SCSI_MAX_XFER || c->blocks > SCSI_MAX_XFER) {
		*why = "blocks: more than 8 MiB in one command";
		return -1;
	}
	c->xfer = (uint32_t)(c->blocks * bs);
	switch (kind) {
	case OP_READ6:
		if (lba > 0x1FFFFF || n > 256) {
			*why = "READ6 holds a 21-bit lba and at most 256 blocks";
			return -1;
		}
		c->cdb_len = 6;
		c->cdb[0] = 0x08;
		put_be(&c->cdb[1], lba, 3);
		c->cdb[4] = (uint8_t)n;
		return 0;
	case OP_READ10:
	case OP_WRITE10:
		if (lba > 0xFFFFFFFFull || n > 0xFFFF) {
			*why = "a 10-byte CDB holds a 32-bit lba and at most "
			       "65535 blocks";
			return -1;
		}
		c->cdb_len = 10;
		c->cdb[0] = w ? 0x2A : 0x28;
		c->cdb[1] = flags;
		put_be(&c->cdb[2], lba, 4);
		c->cdb[6] = group;
		put_be(&c->cdb[7], n, 2);
		return 0;
	default:
		c->cdb_len = 16;
		c->cdb[0] = w ? 0x8A : 0x88;
		c->cdb[1] = flags;
		put_be(&c->cdb[2], lba, 8);
		put_be(&c->cdb[10], n, 4);
		c->cdb[14] = group;
		return 0;
	}
}

static int build_other(unsigned kind, const int64_t *arg, struct scsi_cmd *c,
		       const char **why)
{
	switch (kind) {
	case OP_TESTUNITREADY:
		c->cdb_len = 6;
		return 0;
	case OP_READCAPACITY10:
		c->cdb_len = 10;
		c->cdb[0] = 0x25;
		put_be(&c->cdb[2], (uint64_t)arg[0], 4);
		c->cdb[8] = arg[1] & 1;
		c->dir = SCSI_DIR_READ;
		c->xfer = 8;
		return 0;
	case OP_READCAPACITY16:
		c->cdb_len = 16;
		c->cdb[0] = 0x9E;
		c->cdb[1] = 0x10;
		put_be(&c->cdb[2], (uint64_t)arg[0], 8);
		put_be(&c->cdb[10], 32, 4);
		c->cdb[14] = arg[1] & 1;
		c->dir = SCSI_DIR_READ;
		c->xfer = 32;
		return 0;
	case OP_SYNCHRONIZECACHE10:
		if ((uint64_t)arg[0] > 0xFFFFFFFFull || arg[1] > 0xFFFF) {
			*why = "a 10-byte CDB holds a 32-bit lba and at most "
			       "65535 blocks";
			return -1;
		}
		c->cdb_len = 10;
		c->cdb[0] = 0x35;
		c->cdb[1] = (uint8_t)((arg[2] & 1) << 2 | (arg[2] & 2));
		put_be(&c->cdb[2], (uint64_t)arg[0], 4);
		put_be(&c->cdb[7], (uint64_t)arg[1], 2);
		c->extent = true;
		c->lba = (uint64_t)arg[0];
		c->blocks = (uint64_t)arg[1];
		return 0;
	case OP_INQUIRY:
		c->cdb_len = 6;
		c->cdb[0] = 0x12;
		c->cdb[1] = arg[0] & 1;
		c->cdb[2] = (uint8_t)arg[1];
		put_be(&c->cdb[3], 255, 2);
		c->dir = SCSI_DIR_READ;
		c->xfer = 255;
		return 0;
	case OP_REPORTLUNS:
		c->cdb_len = 12;
		c->cdb[0] = 0xA0;
		c->cdb[2] = (uint8_t)arg[0];
		put_be(&c->cdb[6], 1024, 4);
		c->dir = SCSI_DIR_READ;
		c->xfer = 1024;
		return 0;
	case OP_PROUT:
		c->cdb_len = 10;
		c->cdb[0] = 0x5F;
		c->cdb[1] = arg[0] & 0x1F;
		c->cdb[2] = (arg[0] >> 8) & 0x0F; /* scope: the LU */
		put_be(&c->cdb[5], SCSI_PROUT_PARAM_LEN, 4);
		put_be(&c->param[0], (uint64_t)arg[1], 8);
		put_be(&c->param[8], (uint64_t)arg[2], 8);
		c->dir = SCSI_DIR_WRITE;
		c->xfer = SCSI_PROUT_PARAM_LEN;
		return 0;
	case OP_PRIN:
		c->cdb_len = 10;
		c->cdb[0] = 0x5E;
		c->cdb[1] = arg[0] & 0x1F;
		put_be(&c->cdb[7], 1024, 2);
		c->dir = SCSI_DIR_READ;
		c->xfer = 1024;
		return 0;
	default:
		*why = "not a command of the SCSI dialect";
		return -1;
	}
}

int scsi_cdb_build(unsigned kind, const int64_t arg[PROGRAM_MAX_ARGS],
		   uint32_t block_size, struct scsi_cmd *c, const char **why)
{
	memset(c, 0, sizeof(*c));
	switch (kind) {
	case OP_READ6:
	case OP_READ10:
	case OP_READ16:
	case OP_WRITE10:
	case OP_WRITE16:
		return build_rw(kind, arg, block_size, c, why);
	default:
		return build_other(kind, arg, c, why);
	}
}

bool scsi_capacity10(const uint8_t *d, uint32_t len, uint64_t *blocks,
		     uint32_t *block_size)
{
	if (len < 8 || get_be(&d[4], 4) == 0)
		return false;
	*blocks = get_be(d, 4) + 1;
	*block_size = (uint32_t)get_be(&d[4], 4);
	return true;
}

bool scsi_capacity16(const uint8_t *d, uint32_t len, uint64_t *blocks,
		     uint32_t *block_size)
{
	if (len < 12 || get_be(&d[8], 4) == 0)
		return false;
	*blocks = get_be(d, 8) + 1;
	*block_size = (uint32_t)get_be(&d[8], 4);
	return true;
}

void scsi_sense_parse(const uint8_t *sb, unsigned len, uint8_t *key,
		      uint16_t *ascq)
{
	unsigned code = len > 0 ? sb[0] & 0x7F : 0;

	*key = 0;
	*ascq = 0;
	if ((code == 0x70 || code == 0x71) && len >= 3) {
		*key = sb[2] & 0x0F;
		if (len >= 14)
			*ascq = (uint16_t)(sb[12] << 8 | sb[13]);
	} else if ((code == 0x72 || code == 0x73) && len >= 4) {
		*key = sb[1] & 0x0F;
		*ascq = (uint16_t)(sb[2] << 8 | sb[3]);
	}
}

int scsi_sense_errno(uint8_t key, uint16_t ascq)
{
	switch (key) {
	case 0x2: /* NOT READY */
	case 0x3: /* MEDIUM ERROR */
	case 0x4: /* HARDWARE ERROR */
		return EIO;
	case 0x5: /* ILLEGAL REQUEST: LOGICAL UNIT NOT SUPPORTED */
		return (ascq >> 8) == 0x25 ? EIO : 0;
	case 0x7: /* DATA PROTECT */
		return EROFS;
	default:
		return 0;
	}
}

const char *scsi_status_name(unsigned status)
{
	switch (status) {
	case 0x00:
		return "GOOD";
	case 0x02:
		return "CHECK CONDITION";
	case 0x04:
		return "CONDITION MET";
	case 0x08:
		return "BUSY";
	case 0x18:
		return "RESERVATION CONFLICT";
	case 0x28:
		return "TASK SET FULL";
	case 0x30:
		return "ACA ACTIVE";
	case 0x40:
		return "TASK ABORTED";
	default:
		return NULL;
	}
}

const char *scsi_sense_key_name(unsigned key)
{
	static const char *const names[] = {
		"NO SENSE", "RECOVERED ERROR", "NOT READY", "MEDIUM ERROR",
		"HARDWARE ERROR", "ILLEGAL REQUEST", "UNIT ATTENTION",
		"DATA PROTECT", "BLANK CHECK", "VENDOR SPECIFIC",
		"COPY ABORTED", "ABORTED COMMAND", "sense key 0xC",
		"VOLUME OVERFLOW", "MISCOMPARE", "sense key 0xF",
	};

	return names[key & 0xF];
}
