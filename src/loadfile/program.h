/*
 * program.h - a loadfile compiled into an array of typed operations.
 *
 * The parent compiles every loadfile once (loadfile.c) before forking; the
 * workers only read the result, which they share copy-on-write.  Nothing in
 * a compiled program is text that has to be parsed again: op kinds are an
 * enum, numbers are decoded, paths are interned and normalised, handles are
 * mapped to dense slots.
 *
 * Ownership: a struct program is a talloc tree; everything it points to is
 * a talloc child of it.  It is never modified after program_compile()
 * returns.
 */
#ifndef DBENCH_PROGRAM_H
#define DBENCH_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/*
 * Operation kinds.  The measured operations come first, in the order in
 * which dbench prints its table; op_info[] (src/loadfile/ops.c) holds
 * their names.
 * Control commands follow OP_NUM_MEASURED and are never timed.
 */
enum op_kind {
	OP_NTCREATEX = 0,
	OP_CLOSE,
	OP_RENAME,
	OP_UNLINK,
	OP_DELTREE,
	OP_RMDIR,
	OP_MKDIR,
	OP_QPATHINFO,
	OP_QFILEINFO,
	OP_QFSINFO,
	OP_SFILEINFO,
	OP_FIND,
	OP_WRITEX,
	OP_READX,
	OP_LOCKX,
	OP_UNLOCKX,
	OP_FLUSH,
	OP_DROPCACHE,		/* flush a file, then drop its cached pages */

	/*
	 * dbench 5.0's NFSv3 dialect (its nfs loadfiles): paths name
	 * objects on the export, statuses are NFS3 codes (nfsstat3; NLM
	 * codes for the three lock ops).  Only a backend that speaks NFS
	 * fills these ops[] entries; with any other the run is refused
	 * before it starts (backend_program_check()).
	 */
	OP_GETATTR3,
	OP_SETATTR3,		/* set the times to now */
	OP_LOOKUP3,
	OP_ACCESS3,		/* arg0 = desired, arg1 = granted (unchecked) */
	OP_READLINK3,
	OP_READ3,		/* arg0 = offset, arg1 = size */
	OP_WRITE3,		/* arg0 = offset, arg1 = size, arg2 = stable */
	OP_CREATE3,
	OP_MKDIR3,
	OP_SYMLINK3,		/* path[0] = the link, path[1] = its target */
	OP_REMOVE3,
	OP_RMDIR3,
	OP_RENAME3,
	OP_LINK3,		/* path[0] = the new name, path[1] = the file */
	OP_READDIRPLUS3,
	OP_FSSTAT3,
	OP_FSINFO3,
	OP_PATHCONF3,
	OP_COMMIT3,
	OP_LOCK4,		/* NLM: arg0 = offset, arg1 = length */
	OP_UNLOCK4,
	OP_TEST4,

	/*
	 * dbench 5.0's smb dialect (its smb loadfiles): paths name objects
	 * inside the client's own directory (clients/clientN), open files
	 * are named by their path, statuses are SUCCESS, ERROR or '*'.
	 * A backend over the shared SMB semantics has them (nbsmb5.h);
	 * any other refuses such loadfiles (backend_program_check()).
	 */
	OP_OPEN5,		/* arg0 = flags (0x01 RDONLY ... 0x40 APPEND) */
	OP_READ5,		/* arg0 = offset, arg1 = size */
	OP_WRITE5,		/* arg0 = offset, arg1 = size */
	OP_CLOSE5,
	OP_MKDIR5,
	OP_RMDIR5,
	OP_UNLINK5,
	OP_READDIR5,
	OP_DELTREE5,

	/*
	 * dbench 5.0's block dialect (its block loadfiles, -B block):
	 * "READ offset size status", the statuses NT ones as for
	 * client.txt.  Spelt like the smb dialect's READ and WRITE, told
	 * apart by the shape of the line (no quoted path).
	 */
	OP_BREAD,		/* arg0 = offset, arg1 = size (bytes) */
	OP_BWRITE,

	/*
	 * The SCSI dialect (dbench 5.0's scsi and iscsi loadfiles, -B scsi
	 * and -B iscsi): statuses are SCSI status bytes (0x00 GOOD, 0x02
	 * CHECK CONDITION, 0x18 RESERVATION CONFLICT).  A line's small
	 * flag fields are packed into one argument so that every command
	 * fits in PROGRAM_MAX_ARGS (src/loadfile/device.c).
	 */
	OP_TESTUNITREADY,
	OP_READ6,		/* arg0 = lba, arg1 = blocks */
	OP_READ10,		/* arg2 = rdprotect/dpo/fua byte | group << 8 */
	OP_READ16,
	OP_WRITE10,		/* arg2 = flags byte | group << 8 */
	OP_WRITE16,
	OP_READCAPACITY10,	/* arg0 = lba, arg1 = pmi */
	OP_READCAPACITY16,
	OP_SYNCHRONIZECACHE10,	/* arg0 = lba, arg1 = blocks,
				 * arg2 = syncnv | immed << 1 */
	OP_INQUIRY,		/* arg0 = evpd, arg1 = page code */
	OP_REPORTLUNS,		/* arg0 = select report */
	OP_PROUT,		/* arg0 = service action | type << 8,
				 * arg1 = key, arg2 = service action key */
	OP_PRIN,		/* arg0 = service action */
	OP_NUM_MEASURED,

	/* control commands: handled by the client engine, not a backend */
	OP_LOOP = OP_NUM_MEASURED, /* arg0 = count; jump = index of ENDLOOP */
	OP_ENDLOOP,		   /* jump = index of the matching LOOP */
	OP_REPEAT,		   /* arg0 = count: run the next op that often */
	OP_SLEEP,		   /* arg0 = microseconds */
	OP_SETSP,		   /* arg0 = sequence point */
	OP_WAITSP,		   /* arg0 = client, arg1 = sequence point */
	OP_WRITEPATTERN,	   /* text = bytes later WriteX ops write */
	OP_RANDOMSTRING,	   /* arg0 = index i, text = pattern */
	OP_NUM_KINDS
};

/* ops_used and the other per-kind masks are 64-bit */
_Static_assert(OP_NUM_MEASURED <= 64, "a 64-bit mask holds every measured kind");

/* Static facts about an op kind; indexed by enum op_kind. */
struct op_info {
	const char *name;	/* loadfile spelling, e.g. "QUERY_PATH_INFORMATION" */
	const char *short_name; /* table spelling, e.g. "Qpathinfo" (== name if none) */
	uint8_t npaths;		/* quoted path arguments */
	uint8_t has_handle;	/* a handle number follows the paths */
	uint8_t nargs;		/* numeric arguments after paths/handle */
};

extern const struct op_info op_info[OP_NUM_KINDS];

/* The NFSv3 dialect's kinds: OP_NFS3_FIRST .. OP_NFS3_LAST. */
#define OP_NFS3_FIRST	OP_GETATTR3
#define OP_NFS3_LAST	OP_TEST4

/* dbench 5.0's smb dialect's kinds: OP_SMB5_FIRST .. OP_SMB5_LAST. */
#define OP_SMB5_FIRST	OP_OPEN5
#define OP_SMB5_LAST	OP_DELTREE5

/* dbench 5.0's block dialect: OP_BLOCK_FIRST .. OP_BLOCK_LAST. */
#define OP_BLOCK_FIRST	OP_BREAD
#define OP_BLOCK_LAST	OP_BWRITE

/* The SCSI dialect: OP_SCSI_FIRST .. OP_SCSI_LAST. */
#define OP_SCSI_FIRST	OP_TESTUNITREADY
#define OP_SCSI_LAST	OP_PRIN

/*
 * What an op of the block or SCSI dialect returns when it was not carried
 * out and has no status at all (the transport failed, the device went
 * away, the loadfile's offset is past the device's end): never a status
 * a loadfile can expect, always fatal to the client; the backend says
 * why in op_call's msg.
 */
#define OP_STATUS_NONE 0xFFFFFFFFu

/* WRITE10 and WRITE16 get the engine's WRITEPATTERN bytes as op_call's
 * data: OP_SCSI_DATA_BLOCK bytes per block, for blocks up to
 * OP_SCSI_DATA_MAX (more: no data, the backend writes zeros). */
#define OP_SCSI_DATA_BLOCK 4096
#define OP_SCSI_DATA_MAX 2048

/*
 * A status an op of this kind returns, for messages: the NT status name
 * (or 0x%08X when it has none); for the NFSv3 dialect, whose statuses are
 * NFS3 codes, always 0x%08X; for the SCSI dialect 0x%02X (or "no
 * status" for OP_STATUS_NONE).  Returns a name or buf.
 */
const char *op_status_str(unsigned kind, uint32_t code, char buf[static 11]);

/* Is kind one of the NFSv3 dialect's (which only an NFS backend has)? */
static inline bool op_kind_is_nfs3(unsigned kind)
{
	return kind >= OP_NFS3_FIRST && kind <= OP_NFS3_LAST;
}

/* Is kind one of dbench 5.0's smb dialect's (OPEN, READ, ...)? */
static inline bool op_kind_is_smb5(unsigned kind)
{
	return kind >= OP_SMB5_FIRST && kind <= OP_SMB5_LAST;
}

/* Is kind one of dbench 5.0's block dialect's (READ, WRITE)? */
static inline bool op_kind_is_block(unsigned kind)
{
	return kind >= OP_BLOCK_FIRST && kind <= OP_BLOCK_LAST;
}

/* Is kind one of the SCSI dialect's (TESTUNITREADY, READ10, PROUT...)? */
static inline bool op_kind_is_scsi(unsigned kind)
{
	return kind >= OP_SCSI_FIRST && kind <= OP_SCSI_LAST;
}

/*
 * The smb dialect's kind spelt like client.txt's kind (CLOSE and Close,
 * MKDIR and Mkdir, RMDIR, UNLINK, Deltree), or -1: op_kind_from_name()
 * finds client.txt's; the compiler picks by the line and the file (see
 * README, "Loadfile dialects").
 */
int op_kind_smb5_twin(unsigned kind);

/*
 * The block dialect's kind spelt like the smb dialect's (READ, WRITE:
 * OP_BREAD, OP_BWRITE), or -1: op_kind_from_name() finds the smb
 * dialect's; the compiler picks by the line (no quoted path: block).
 */
int op_kind_block_twin(unsigned kind);

/*
 * Look up an op kind by its loadfile or short name, case-insensitively.
 * Returns the kind, or -1 if the name is unknown.
 */
int op_kind_from_name(const char *name, size_t len);

#define PROGRAM_MAX_ARGS 3

enum value_kind {
	VAL_CONST = 0,	/* v */
	VAL_RANDOM,	/* a random 64-bit value, then mods[] left to right */
	VAL_RELATIVE,	/* same argument of this client's previous op + v */
};

struct value_mod {
	char op;	/* '/' align down, '%' modulo, '+' add */
	int64_t y;	/* never 0 for '/' and '%' */
};

/*
 * A numeric argument that does not fit in an op (see op_arg): a '*' or
 * '+y' value, or a constant of 2^31 or more.  The modifiers of a '*'
 * value live in one array of the program: program->mods[mods .. mods +
 * nmods).
 */
struct value {
	int64_t v;
	uint32_t mods;		/* index in program->mods (when nmods > 0) */
	uint8_t kind;		/* enum value_kind */
	uint8_t nmods;
};

/*
 * An op's argument as stored: a constant below 2^31 itself, else
 * OP_ARG_REF | the index of a struct value in program->values.
 */
typedef uint32_t op_arg;
#define OP_ARG_REF	0x80000000u

/*
 * A path as written in the loadfile, normalised: '\' became '/', the
 * leading separator is gone, duplicate separators and "." components are
 * removed, and ".." was refused by the compiler.  The result is relative
 * to the client's target directory (-D).
 *
 * If the path has the per-client substitution point (the component
 * "client1" right after a component "clients"), client_pos is the byte
 * offset of that component in text and client_len its length; otherwise
 * client_pos is -1.  has_random is set when text contains "$<digit>",
 * which is substituted at run time with the RANDOMSTRING of that index.
 *
 * dir is the path's parent directory, an index in the program's table of
 * directories (program->dirs): the same for every path in one directory,
 * whichever client runs it (the substitution changes the text, not the
 * index).  PATH_DIR_ROOT for a path of one component (its parent is the
 * client's target directory), PATH_DIR_NONE when the parent has a "$i"
 * (it changes from run to run).
 */
struct path {
	const char *text;
	uint32_t len;
	int32_t client_pos;
	uint32_t client_len;
	uint32_t id;		/* index in program->paths */
	uint32_t dir;		/* index in program->dirs, see above */
	bool has_random;
};

/* client_pos of a path that starts "clients/client1" (in any case) */
#define PATH_CLIENTS_POS 8

#define PATH_NONE	UINT32_MAX	/* op->path[i] unused */
#define PATH_DIR_ROOT	0u		/* program->dirs[0] is "" */
#define PATH_DIR_NONE	UINT32_MAX

enum status_check {
	STATUS_ANY = 0,		/* '*': not checked */
	STATUS_SUCCESS,		/* NT_STATUS_OK, 0x0, SUCCESS */
	STATUS_FAILURE,		/* ERROR: any failure */
	STATUS_EXACT,		/* a specific NT status */
};

/*
 * One compiled line.  Kept small (36 bytes, 4-byte aligned): a large
 * loadfile has tens of millions of them, every worker walks them all, and
 * the parent compiles them before forking.  Everything that is rare or
 * large lives in the program's side tables and is reached by a 32-bit
 * index: paths (program->paths), arguments that are not small constants
 * (program->values), texts (program->texts), times (program->times, only
 * in a timed loadfile).  Fields that never coexist share space: a control
 * command has neither paths nor a status.
 */
struct op {
	uint8_t kind;			/* enum op_kind */
	uint8_t check;			/* enum status_check */
	uint32_t line;			/* 1-based line in the loadfile */
	union {
		uint32_t status;	/* measured: expected NT status when
					 * check == STATUS_EXACT */
		uint32_t jump;		/* LOOP <-> ENDLOOP partner index */
	};
	int32_t handle;			/* dense handle slot, or -1; its number
					 * as written is handle_nums[handle] */
	union {
		/* measured ops: ids in program->paths, PATH_NONE when unused */
		uint32_t path[2];
		/* WRITEPATTERN text / RANDOMSTRING pattern: program->texts */
		uint32_t text;
	};
	op_arg arg[PROGRAM_MAX_ARGS];	/* see op_arg; 0 when unused */
};

/* A WRITEPATTERN text or RANDOMSTRING pattern (NUL-terminated). */
struct program_text {
	const char *p;
	size_t len;
};

/* A parent directory of the program's paths (see struct path's dir). */
struct program_dir {
	const char *text;	/* normalised; "" for PATH_DIR_ROOT */
	uint32_t len;
};

struct program {
	const char *filename;		/* as given on the command line */
	struct op *ops;
	uint32_t nops;
	const double *times;		/* NULL unless timed: ops[i]'s time in
					 * seconds since pass start, or -1 */
	const struct value *values;	/* arguments not stored in an op */
	uint32_t nvalues;
	const struct value_mod *mods;	/* modifiers of all '*' values */
	uint32_t nmods;
	const struct program_text *texts; /* indexed by op->text */
	uint32_t ntexts;
	int64_t *handle_nums;		/* handle number of each dense slot */
	const struct path *paths;	/* interned, indexed by path->id */
	uint32_t npaths;
	const struct program_dir *dirs;	/* indexed by path->dir */
	uint32_t ndirs;
	uint32_t max_path_len;		/* longest path->len */
	uint32_t nhandles;		/* dense handle slots in use */
	uint32_t nrandom;		/* RANDOMSTRING indices used: 0..nrandom-1 */
	bool timed;			/* at least one op has a time */
	bool relative;			/* an argument is +y (VAL_RELATIVE) */
	uint32_t nlines;		/* lines in the file */
	uint32_t max_loop_depth;
};

/* The modifiers of value v of program p (NULL when it has none). */
static inline const struct value_mod *program_mods(const struct program *p,
						   const struct value *v)
{
	return v->nmods != 0 ? &p->mods[v->mods] : NULL;
}

/* Path i (0 or 1) of measured op op of program p, NULL when it has none. */
static inline const struct path *program_path(const struct program *p,
					      const struct op *op, unsigned i)
{
	return op->path[i] != PATH_NONE ? &p->paths[op->path[i]] : NULL;
}

/*
 * Argument i of op of program p as a struct value (a constant when the op
 * holds it).  For control commands, whose arguments are plain numbers,
 * .v is the number.
 */
static inline struct value program_arg(const struct program *p,
				       const struct op *op, unsigned i)
{
	op_arg a = op->arg[i];

	if (a & OP_ARG_REF)
		return p->values[a & ~OP_ARG_REF];
	return (struct value){ .v = (int64_t)a, .kind = VAL_CONST };
}

/* The number behind argument i of op (see program_arg). */
static inline int64_t program_arg_v(const struct program *p,
				    const struct op *op, unsigned i)
{
	op_arg a = op->arg[i];

	return (a & OP_ARG_REF) ? p->values[a & ~OP_ARG_REF].v : (int64_t)a;
}

/* The time of the op at index i: seconds since pass start, or -1. */
static inline double program_time(const struct program *p, uint32_t i)
{
	return p->times != NULL ? p->times[i] : -1;
}

/*
 * Compile a loadfile (plain text or gzip, detected by content).
 *
 * On success returns a program allocated under mem_ctx.  On failure
 * returns NULL and, if err is not NULL, sets *err to a message allocated
 * under mem_ctx of the form "FILE:LINE: what was found; what was expected"
 * (or "FILE: strerror" when the file cannot be read).
 */
struct program *program_compile(void *mem_ctx, const char *filename,
				char **err);

/*
 * The same, from a buffer already in memory (used by tests and the fuzzer).
 * name is used in messages only.
 */
struct program *program_compile_buffer(void *mem_ctx, const char *name,
				       const char *buf, size_t len,
				       char **err);

#endif
