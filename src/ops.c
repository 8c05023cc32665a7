/*
 * ops.c - the one table of operation kinds: loadfile spellings, the short
 * names printed in the results table, and the shape of each command's
 * arguments.  The parser, the statistics and every output writer use it.
 */
#include "config.h"

#include <strings.h>

#include "program.h"

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
};

/* clang-format off */
#define SPELL(s, k) { s, sizeof(s) - 1, k }
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
};

int op_kind_from_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(op_spellings) / sizeof(op_spellings[0]); i++) {
		const struct op_spelling *s = &op_spellings[i];

		if (s->len == len && strncasecmp(s->name, name, len) == 0)
			return s->kind;
	}
	return -1;
}
