/*
 * ops.c - the one table of operation kinds: loadfile spellings, the short
 * names printed in the results table, and the shape of each command's
 * arguments.  The parser, the statistics and every output writer use it.
 */
#include "config.h"

#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "loadfile/ntstatus.h"
#include "loadfile/program.h"

/*
 * Shapes, in loadfile order: npaths quoted paths, then the handle (if
 * has_handle), then nargs numbers, then the expected status for measured
 * kinds.  The one exception is NTCreateX, whose handle comes after its two
 * numbers ("NTCreateX path create_options disposition handle status"):
 * it produces the handle rather than using it.  RANDOMSTRING's quoted
 * pattern follows its number and is not a path.  Unlink's number (the
 * search attributes, as in Debian's client.txt) may be left out; it is
 * then 0.
 */
const struct op_info op_info[OP_NUM_KINDS] = {
	[OP_NTCREATEX] = { "NTCreateX", "NTCreateX", 1, 1, 2 },
	[OP_CLOSE] = { "Close", "Close", 0, 1, 0 },
	[OP_RENAME] = { "Rename", "Rename", 2, 0, 0 },
	[OP_UNLINK] = { "Unlink", "Unlink", 1, 0, 1 },
	[OP_DELTREE] = { "Deltree", "Deltree", 1, 0, 0 },
	[OP_RMDIR] = { "Rmdir", "Rmdir", 1, 0, 0 },
	[OP_MKDIR] = { "Mkdir", "Mkdir", 1, 0, 0 },
	[OP_QPATHINFO] = { "QUERY_PATH_INFORMATION", "Qpathinfo", 1, 0, 1 },
	[OP_QFILEINFO] = { "QUERY_FILE_INFORMATION", "Qfileinfo", 0, 1, 1 },
	[OP_QFSINFO] = { "QUERY_FS_INFORMATION", "Qfsinfo", 0, 0, 1 },
	[OP_SFILEINFO] = { "SET_FILE_INFORMATION", "Sfileinfo", 0, 1, 1 },
	[OP_FIND] = { "FIND_FIRST", "Find", 1, 0, 3 },
	[OP_WRITEX] = { "WriteX", "WriteX", 0, 1, 3 },
	[OP_READX] = { "ReadX", "ReadX", 0, 1, 3 },
	[OP_LOCKX] = { "LockX", "LockX", 0, 1, 2 },
	[OP_UNLOCKX] = { "UnlockX", "UnlockX", 0, 1, 2 },
	[OP_FLUSH] = { "Flush", "Flush", 0, 1, 0 },
	[OP_DROPCACHE] = { "DropCache", "DropCache", 0, 1, 0 },
	/* the NFSv3 dialect (dbench 5.0's nfs loadfiles) */
	[OP_GETATTR3] = { "GETATTR3", "GETATTR3", 1, 0, 0 },
	[OP_SETATTR3] = { "SETATTR3", "SETATTR3", 1, 0, 0 },
	[OP_LOOKUP3] = { "LOOKUP3", "LOOKUP3", 1, 0, 0 },
	[OP_ACCESS3] = { "ACCESS3", "ACCESS3", 1, 0, 2 },
	[OP_READLINK3] = { "READLINK3", "READLINK3", 1, 0, 0 },
	[OP_READ3] = { "READ3", "READ3", 1, 0, 2 },
	[OP_WRITE3] = { "WRITE3", "WRITE3", 1, 0, 3 },
	[OP_CREATE3] = { "CREATE3", "CREATE3", 1, 0, 0 },
	[OP_MKDIR3] = { "MKDIR3", "MKDIR3", 1, 0, 0 },
	[OP_SYMLINK3] = { "SYMLINK3", "SYMLINK3", 2, 0, 0 },
	[OP_REMOVE3] = { "REMOVE3", "REMOVE3", 1, 0, 0 },
	[OP_RMDIR3] = { "RMDIR3", "RMDIR3", 1, 0, 0 },
	[OP_RENAME3] = { "RENAME3", "RENAME3", 2, 0, 0 },
	[OP_LINK3] = { "LINK3", "LINK3", 2, 0, 0 },
	[OP_READDIRPLUS3] = { "READDIRPLUS3", "READDIRPLUS3", 1, 0, 0 },
	[OP_FSSTAT3] = { "FSSTAT3", "FSSTAT3", 0, 0, 0 },
	[OP_FSINFO3] = { "FSINFO3", "FSINFO3", 0, 0, 0 },
	[OP_PATHCONF3] = { "PATHCONF3", "PATHCONF3", 1, 0, 0 },
	[OP_COMMIT3] = { "COMMIT3", "COMMIT3", 1, 0, 0 },
	[OP_LOCK4] = { "LOCK4", "LOCK4", 1, 0, 2 },
	[OP_UNLOCK4] = { "UNLOCK4", "UNLOCK4", 1, 0, 2 },
	[OP_TEST4] = { "TEST4", "TEST4", 1, 0, 2 },
	/* dbench 5.0's smb dialect; the ones spelt like client.txt's
	 * commands differ in case, so that the names stay unique */
	[OP_OPEN5] = { "OPEN", "OPEN", 1, 0, 1 },
	[OP_READ5] = { "READ", "READ", 1, 0, 2 },
	[OP_WRITE5] = { "WRITE", "WRITE", 1, 0, 2 },
	[OP_CLOSE5] = { "CLOSE", "CLOSE", 1, 0, 0 },
	[OP_MKDIR5] = { "MKDIR", "MKDIR", 1, 0, 0 },
	[OP_RMDIR5] = { "RMDIR", "RMDIR", 1, 0, 0 },
	[OP_UNLINK5] = { "UNLINK", "UNLINK", 1, 0, 0 },
	[OP_READDIR5] = { "READDIR", "READDIR", 1, 0, 0 },
	[OP_DELTREE5] = { "Deltree", "DELTREE", 1, 0, 0 },
	/* dbench 5.0's block dialect: spelt like the smb dialect's READ
	 * and WRITE, which the compiler turns into these by the line */
	[OP_BREAD] = { "READ", "READ", 0, 0, 2 },
	[OP_BWRITE] = { "WRITE", "WRITE", 0, 0, 2 },
	/* the SCSI dialect; nargs are the stored arguments (device.c) */
	[OP_TESTUNITREADY] = { "TESTUNITREADY", "TESTUNITREADY", 0, 0, 0 },
	[OP_READ6] = { "READ6", "READ6", 0, 0, 2 },
	[OP_READ10] = { "READ10", "READ10", 0, 0, 3 },
	[OP_READ16] = { "READ16", "READ16", 0, 0, 3 },
	[OP_WRITE10] = { "WRITE10", "WRITE10", 0, 0, 3 },
	[OP_WRITE16] = { "WRITE16", "WRITE16", 0, 0, 3 },
	[OP_READCAPACITY10] = { "READCAPACITY10", "READCAPACITY10", 0, 0, 2 },
	[OP_READCAPACITY16] = { "READCAPACITY16", "READCAPACITY16", 0, 0, 2 },
	[OP_SYNCHRONIZECACHE10] = { "SYNCHRONIZECACHE10",
				    "SYNCHRONIZECACHE10", 0, 0, 3 },
	[OP_INQUIRY] = { "INQUIRY", "INQUIRY", 0, 0, 2 },
	[OP_REPORTLUNS] = { "REPORTLUNS", "REPORTLUNS", 0, 0, 1 },
	[OP_PROUT] = { "PROUT", "PROUT", 0, 0, 3 },
	[OP_PRIN] = { "PRIN", "PRIN", 0, 0, 1 },
	[OP_LOOP] = { "LOOP", "LOOP", 0, 0, 1 },
	[OP_ENDLOOP] = { "ENDLOOP", "ENDLOOP", 0, 0, 0 },
	[OP_REPEAT] = { "REPEAT", "REPEAT", 0, 0, 1 },
	[OP_SLEEP] = { "SLEEP", "SLEEP", 0, 0, 1 },
	[OP_SETSP] = { "SETSP", "SETSP", 0, 0, 1 },
	[OP_WAITSP] = { "WAITSP", "WAITSP", 0, 0, 2 },
	[OP_WRITEPATTERN] = { "WRITEPATTERN", "WRITEPATTERN", 0, 0, 0 },
	[OP_RANDOMSTRING] = { "RANDOMSTRING", "RANDOMSTRING", 0, 0, 1 },
};

/*
 * Every accepted spelling with its length, so that a lookup compares
 * lengths (cheap) before bytes.  Kept in step with op_info[] by the unit
 * tests, which look up every name and short name.
 */
struct op_spelling {
	const char *name;
	uint8_t len;
	uint8_t kind;
	bool exact;		/* matched in this case only */
};

/* clang-format off */
#define SPELL(s, k) { s, sizeof(s) - 1, k, false }
#define SPELL_EXACT(s, k) { s, sizeof(s) - 1, k, true }
/* clang-format on */

static const struct op_spelling op_spellings[] = {
	/* most frequent first: this is on the parser's per-line path */
	SPELL("ReadX", OP_READX),
	SPELL("NTCreateX", OP_NTCREATEX),
	SPELL("QUERY_PATH_INFORMATION", OP_QPATHINFO),
	SPELL("Close", OP_CLOSE),
	SPELL("WriteX", OP_WRITEX),
	SPELL("FIND_FIRST", OP_FIND),
	SPELL("Unlink", OP_UNLINK),
	SPELL("QUERY_FS_INFORMATION", OP_QFSINFO),
	SPELL("QUERY_FILE_INFORMATION", OP_QFILEINFO),
	SPELL("SET_FILE_INFORMATION", OP_SFILEINFO),
	SPELL("Flush", OP_FLUSH),
	SPELL("Rename", OP_RENAME),
	SPELL("LockX", OP_LOCKX),
	SPELL("UnlockX", OP_UNLOCKX),
	SPELL("Deltree", OP_DELTREE),
	SPELL("DropCache", OP_DROPCACHE),
	SPELL("Rmdir", OP_RMDIR),
	SPELL("Mkdir", OP_MKDIR),
	SPELL("Qpathinfo", OP_QPATHINFO),
	SPELL("Qfileinfo", OP_QFILEINFO),
	SPELL("Qfsinfo", OP_QFSINFO),
	SPELL("Sfileinfo", OP_SFILEINFO),
	SPELL("Find", OP_FIND),
	SPELL("LOOP", OP_LOOP),
	SPELL("ENDLOOP", OP_ENDLOOP),
	SPELL("REPEAT", OP_REPEAT),
	SPELL("SLEEP", OP_SLEEP),
	SPELL("SETSP", OP_SETSP),
	SPELL("WAITSP", OP_WAITSP),
	SPELL("WRITEPATTERN", OP_WRITEPATTERN),
	SPELL("RANDOMSTRING", OP_RANDOMSTRING),
	/* the NFSv3 dialect */
	SPELL("READ3", OP_READ3),
	SPELL("WRITE3", OP_WRITE3),
	SPELL("GETATTR3", OP_GETATTR3),
	SPELL("LOOKUP3", OP_LOOKUP3),
	SPELL("ACCESS3", OP_ACCESS3),
	SPELL("SETATTR3", OP_SETATTR3),
	SPELL("READLINK3", OP_READLINK3),
	SPELL("CREATE3", OP_CREATE3),
	SPELL("MKDIR3", OP_MKDIR3),
	SPELL("SYMLINK3", OP_SYMLINK3),
	SPELL("REMOVE3", OP_REMOVE3),
	SPELL("RMDIR3", OP_RMDIR3),
	SPELL("RENAME3", OP_RENAME3),
	SPELL("LINK3", OP_LINK3),
	SPELL("READDIRPLUS3", OP_READDIRPLUS3),
	SPELL("FSSTAT3", OP_FSSTAT3),
	SPELL("FSINFO3", OP_FSINFO3),
	SPELL("PATHCONF3", OP_PATHCONF3),
	SPELL("COMMIT3", OP_COMMIT3),
	SPELL("LOCK4", OP_LOCK4),
	SPELL("UNLOCK4", OP_UNLOCK4),
	SPELL("TEST4", OP_TEST4),
	/* dbench 5.0's smb dialect: only the names no client.txt command
	 * has (op_kind_smb5_twin() maps the others), in capitals as its
	 * loadfiles spell them ("Read" stays unknown, not a ReadX typo
	 * taken for another dialect) */
	SPELL_EXACT("OPEN", OP_OPEN5),
	SPELL_EXACT("READ", OP_READ5),
	SPELL_EXACT("WRITE", OP_WRITE5),
	SPELL_EXACT("READDIR", OP_READDIR5),
	/* the SCSI dialect, in capitals as dbench 5.0's loadfiles spell
	 * it (the block dialect's READ and WRITE are the smb dialect's,
	 * op_kind_block_twin()) */
	SPELL_EXACT("TESTUNITREADY", OP_TESTUNITREADY),
	SPELL_EXACT("READ6", OP_READ6),
	SPELL_EXACT("READ10", OP_READ10),
	SPELL_EXACT("READ16", OP_READ16),
	SPELL_EXACT("WRITE10", OP_WRITE10),
	SPELL_EXACT("WRITE16", OP_WRITE16),
	SPELL_EXACT("READCAPACITY10", OP_READCAPACITY10),
	SPELL_EXACT("READCAPACITY16", OP_READCAPACITY16),
	SPELL_EXACT("SYNCHRONIZECACHE10", OP_SYNCHRONIZECACHE10),
	SPELL_EXACT("INQUIRY", OP_INQUIRY),
	SPELL_EXACT("REPORTLUNS", OP_REPORTLUNS),
	SPELL_EXACT("PROUT", OP_PROUT),
	SPELL_EXACT("PRIN", OP_PRIN),
};

int op_kind_block_twin(unsigned kind)
{
	switch (kind) {
	case OP_READ5:
		return OP_BREAD;
	case OP_WRITE5:
		return OP_BWRITE;
	default:
		return -1;
	}
}

int op_kind_smb5_twin(unsigned kind)
{
	switch (kind) {
	case OP_CLOSE:
		return OP_CLOSE5;
	case OP_MKDIR:
		return OP_MKDIR5;
	case OP_RMDIR:
		return OP_RMDIR5;
	case OP_UNLINK:
		return OP_UNLINK5;
	case OP_DELTREE:
		return OP_DELTREE5;
	default:
		return -1;
	}
}

int op_kind_from_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(op_spellings) / sizeof(op_spellings[0]); i++) {
		const struct op_spelling *s = &op_spellings[i];

		if (s->len == len &&
		    (s->exact ? strncmp(s->name, name, len) :
				strncasecmp(s->name, name, len)) == 0)
			return s->kind;
	}
	return -1;
}

const char *op_status_str(unsigned kind, uint32_t code, char buf[static 11])
{
	if (op_kind_is_scsi(kind)) {
		if (code == OP_STATUS_NONE)
			return "no status";
		snprintf(buf, 11, "0x%02X", (unsigned)code & 0xFFFFFFu);
		return buf;
	}
	if (!op_kind_is_nfs3(kind))
		return ntstatus_str(code, buf);
	snprintf(buf, 11, "0x%08X", (unsigned)code);
	return buf;
}
