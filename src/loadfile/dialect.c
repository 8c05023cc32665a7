/*
 * dialect.c - the loadfile dialects: client.txt's SMB commands (the
 * default), dbench 5.0's smb dialect (paths from the share's root,
 * "client1" the client's name, files named by path rather than handle)
 * and the NFSv3 dialect; the block and SCSI dialects' lines are told
 * apart here (device.c compiles them).  Decides a file's SMB dialect from its lines, converts the
 * lines compiled before the decision, and refuses files that mix
 * dialects.
 */
#include "config.h"

#include <string.h>

#include <talloc.h>

#include "loadfile/program.h"
#include "lf_private.h"

/* ---- dbench 5.0's smb dialect ---- */

/* The smb dialect names an open file by its path: one handle slot per
 * path, opened by OPEN, used by READ, WRITE and CLOSE. */
int lf_smb5_handle(struct lf_state *st, struct op *op)
{
	if (op->kind != OP_OPEN5 && op->kind != OP_READ5 &&
	    op->kind != OP_WRITE5 && op->kind != OP_CLOSE5)
		return 0;
	return lf_handle_num(st, op, op->path[0], op->kind == OP_OPEN5);
}

/* Is s a status as dbench 5.0 writes it: SUCCESS, ERROR or '*'? */
bool lf_smb5_status(const struct lf_field *s)
{
	return !s->quoted &&
	       ((s->len == 7 && memcmp(s->p, "SUCCESS", 7) == 0) ||
		(s->len == 5 && memcmp(s->p, "ERROR", 5) == 0) ||
		(s->len == 1 && s->p[0] == '*'));
}

/* Does a line have the shape both dialects share: NAME "path" STATUS,
 * the status as dbench 5.0 writes it? */
static bool lf_smb5_shape(const struct lf_field *f, unsigned nf)
{
	return nf == 3 && f[1].quoted && lf_smb5_status(&f[2]);
}

/* ---- which SMB dialect ---- */

/*
 * The first n ops were compiled as client.txt's commands, but the file
 * turned out to be in the smb dialect: make them its twins, with their
 * paths and removals under its rules.  (They are all lines both dialects
 * share, so the path and directory tables hold only their paths: they
 * start again; the texts stay in their chunks, which never move.)
 */
static int lf_to_smb5(struct lf_state *st, uint32_t n)
{
	struct program *prog = st->prog;
	uint32_t nold = prog->npaths, line = st->line;
	struct path *old = NULL;

	if (nold > 0) {
		old = talloc_memdup(st->tmp, st->paths, nold * sizeof(*old));
		if (old == NULL)
			return lf_nomem(st);
	}
	prog->npaths = 0;
	prog->ndirs = 0;
	prog->max_path_len = 0;
	st->nrpaths = 0;
	memset(st->path_tab.slot, 0,
	       ((size_t)st->path_tab.mask + 1) * sizeof(uint32_t));
	memset(st->dir_tab.slot, 0,
	       ((size_t)st->dir_tab.mask + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < n; i++) {
		struct op *op = &prog->ops[i];
		int twin = op_kind_smb5_twin(op->kind);

		if (op->kind >= OP_NUM_MEASURED)
			continue;
		if (twin >= 0)
			op->kind = (uint8_t)twin;
		st->line = op->line;
		for (unsigned j = 0; j < 2 && op->path[j] != PATH_NONE; j++) {
			const struct path *pp = &old[op->path[j]];
			struct lf_field g = { pp->text, pp->len, true };

			if (lf_path(st, op, "path", &g, &op->path[j]) != 0)
				return -1;
		}
		if (lf_removal_confined(st, op) != 0)
			return -1;
	}
	st->line = line;
	talloc_free(old);
	return 0;
}

/* The file's dialect is d from this line on; the others must agree. */
static int lf_decide(struct lf_state *st, const struct op *op,
		     enum lf_dialect d)
{
	uint32_t earlier = st->prog->nops - 1; /* the ops before op */

	if (st->dialect == d)
		return 0;
	if (st->dialect != LF_UNDECIDED)
		return lf_error(st,
				"%s is %s, but %s on line %u is %s; expected "
				"the commands of one dialect per loadfile",
				lf_op_name(op),
				d == LF_SMB5 ? "dbench 5.0's smb dialect" :
					       "client.txt's dialect",
				op_info[st->dialect_kind].name,
				st->dialect_line,
				d == LF_SMB5 ? "client.txt's" :
					       "dbench 5.0's smb dialect");
	st->dialect = (uint8_t)d;
	st->dialect_kind = op->kind;
	st->dialect_line = st->line;
	return d == LF_SMB5 ? lf_to_smb5(st, earlier) :
			      lf_confine_earlier(st, earlier);
}

/*
 * Which SMB dialect a measured line is in, before its fields are
 * compiled (see README, "Loadfile dialects").  OPEN, READ, WRITE,
 * READDIR and CLOSE "path" are dbench 5.0's only; MKDIR, RMDIR, UNLINK
 * and Deltree with a path and a SUCCESS, ERROR or '*' status are
 * either, and follow the file's other lines (client.txt's when none
 * decides); any other SMB command is client.txt's.
 */
int lf_dialect(struct lf_state *st, struct op *op, const struct lf_field *f,
	       unsigned nf)
{
	int twin = op_kind_smb5_twin(op->kind);

	if (op->kind >= OP_NUM_MEASURED || op_kind_is_nfs3(op->kind) ||
	    lf_is_device_kind(op->kind))
		return 0;
	/* READ and WRITE without a quoted path: the block dialect's */
	if (op_kind_block_twin(op->kind) >= 0 && !(nf >= 2 && f[1].quoted)) {
		op->kind = (uint8_t)op_kind_block_twin(op->kind);
		return 0;
	}
	if (op->kind == OP_CLOSE && nf >= 2 && f[1].quoted)
		op->kind = OP_CLOSE5;
	else if (twin >= 0 && lf_smb5_shape(f, nf)) {
		if (st->dialect == LF_SMB5)
			op->kind = (uint8_t)twin;
		return 0;
	}
	return lf_decide(st, op,
			 op_kind_is_smb5(op->kind) ? LF_SMB5 : LF_CLIENT_TXT);
}

/* ---- NFSv3, SMB, block or SCSI ---- */

enum lf_group { LF_G_SMB, LF_G_NFS3, LF_G_BLOCK, LF_G_SCSI, LF_G_N };

static enum lf_group lf_group_of(unsigned kind)
{
	return op_kind_is_nfs3(kind)  ? LF_G_NFS3 :
	       op_kind_is_block(kind) ? LF_G_BLOCK :
	       op_kind_is_scsi(kind)  ? LF_G_SCSI :
					LF_G_SMB;
}

/*
 * One dialect per loadfile: the NFSv3 dialect's commands (with Deltree,
 * which its loadfiles use too), the SMB ones, the block ones or the SCSI
 * ones, never two.  (A client touches the statistics of one dialect's
 * kinds only.)
 */
int lf_one_dialect(struct lf_state *st)
{
	static const char *const names[LF_G_N] = {
		"the SMB dialect", "the NFSv3 dialect", "the block dialect",
		"the SCSI dialect",
	};
	const struct program *prog = st->prog;
	const struct op *first[LF_G_N] = { NULL };
	const struct op *later = NULL, *earlier = NULL;

	for (uint32_t i = 0; i < prog->nops && later == NULL; i++) {
		const struct op *op = &prog->ops[i];
		enum lf_group g;

		if (op->kind >= OP_NUM_MEASURED || op->kind == OP_DELTREE)
			continue;
		g = lf_group_of(op->kind);
		if (first[g] == NULL)
			first[g] = op;
		for (unsigned o = 0; o < LF_G_N && later == NULL; o++)
			if (o != g && first[o] != NULL) {
				later = op;
				earlier = first[o];
			}
	}
	if (later == NULL)
		return 0;
	st->line = later->line;
	if (lf_group_of(later->kind) + lf_group_of(earlier->kind) ==
	    LF_G_SMB + LF_G_NFS3)
		return lf_error(st,
				"%s mixes the NFSv3 dialect with the SMB one "
				"(%s on line %u); expected the commands of one "
				"dialect per loadfile (Deltree goes with both)",
				op_info[later->kind].name,
				op_info[earlier->kind].name, earlier->line);
	return lf_error(st,
			"%s (%s) mixes with %s (%s on line %u); expected the "
			"commands of one dialect per loadfile",
			op_info[later->kind].name,
			names[lf_group_of(later->kind)],
			names[lf_group_of(earlier->kind)],
			op_info[earlier->kind].name, earlier->line);
}
