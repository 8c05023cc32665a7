/*
 * scsi_cdb.h - the SCSI dialect's commands as CDBs, shared by the scsi
 * backend (SG_IO) and the iscsi backend (libiscsi): scsi_cdb.c builds
 * them from an op's resolved arguments; scsi_run.c runs them over a
 * transport and turns the outcome into the op's status.
 */
#ifndef DBENCH_SCSI_CDB_H
#define DBENCH_SCSI_CDB_H

#include <stdbool.h>
#include <stdint.h>

#include "backends/backend.h"
#include "loadfile/program.h"

enum scsi_dir { SCSI_DIR_NONE = 0, SCSI_DIR_READ, SCSI_DIR_WRITE };

#define SCSI_PROUT_PARAM_LEN 24
/* the most a READ or WRITE of the loadfile may move at once */
#define SCSI_MAX_XFER (8u << 20)

/* SCSI status bytes (SAM) */
#define SCSI_GOOD		 0x00
#define SCSI_CHECK_CONDITION	 0x02
#define SCSI_RESERVATION_CONFLICT 0x18

struct scsi_cmd {
	uint8_t cdb[16];
	uint8_t cdb_len;
	uint8_t dir;		/* enum scsi_dir */
	uint32_t xfer;		/* bytes of data in or out */
	bool data_io;		/* a READ or WRITE: its bytes count */
	uint8_t param[SCSI_PROUT_PARAM_LEN]; /* PROUT's parameter list */
	uint64_t lba, blocks;	/* the extent, for the range check */
	bool extent;		/* lba and blocks name one */
};

/*
 * The command of kind (a SCSI-dialect op kind) with the resolved
 * arguments arg[] for a device of block_size bytes per block.  Returns 0,
 * or -1 with *why a static phrase (a value that does not fit the CDB).
 */
int scsi_cdb_build(unsigned kind, const int64_t arg[PROGRAM_MAX_ARGS],
		   uint32_t block_size, struct scsi_cmd *c, const char **why);

/* The capacity in READ CAPACITY(10) data (8 bytes): blocks and block
 * size; false when the data is short or the size is 0. */
bool scsi_capacity10(const uint8_t *d, uint32_t len, uint64_t *blocks,
		     uint32_t *block_size);

/* The same for READ CAPACITY(16) data (32 bytes). */
bool scsi_capacity16(const uint8_t *d, uint32_t len, uint64_t *blocks,
		     uint32_t *block_size);

/* The sense key and asc << 8 | ascq of sense data (fixed or descriptor
 * format, len bytes); 0 and 0 when it holds none. */
void scsi_sense_parse(const uint8_t *sb, unsigned len, uint8_t *key,
		      uint16_t *ascq);

/*
 * The fault a CHECK CONDITION says (the errno the engine's fault policy
 * sorts, see ntstatus_fault_class): EIO for a device that cannot carry
 * the load (NOT READY, MEDIUM ERROR, HARDWARE ERROR, a logical unit that
 * is gone), EROFS for DATA PROTECT, 0 for the others (an ILLEGAL REQUEST
 * of the loadfile's own making, a UNIT ATTENTION, ...).
 */
int scsi_sense_errno(uint8_t key, uint16_t ascq);

/* A SCSI status byte's name ("GOOD", "RESERVATION CONFLICT"), or NULL. */
const char *scsi_status_name(unsigned status);

/* A sense key's name ("ILLEGAL REQUEST"), or "sense key". */
const char *scsi_sense_key_name(unsigned key);

#endif
