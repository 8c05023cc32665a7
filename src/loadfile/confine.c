/*
 * confine.c - where the loadfile's removals and moves may reach: only
 * inside the client's own directory, so that a run never removes what
 * it did not create.  Checked per op once the file's dialect is known
 * (dbench 5.0's smb dialect names the client's directory its own way).
 */
#include "config.h"

#include "loadfile/program.h"
#include "lf_private.h"

/* the client's directory, "clients/client1", at the start of a path */
#define LF_CLIENT_POS	  8  /* strlen("clients/") */
#define LF_CLIENT_DIR_LEN 15 /* strlen("clients/client1") */

/* The NFSv3 dialect's removals and moves (confined like Unlink and
 * Rename below). */
static bool lf_removes_nfs3(unsigned kind)
{
	return kind == OP_REMOVE3 || kind == OP_RMDIR3 || kind == OP_RENAME3;
}

/*
 * dbench 5.0's smb dialect: the client's own directory is the one its
 * path names "client1" (lf_smb5_client()), wherever it is, so a removal
 * reaches inside it only (Deltree and RMDIR may name it).
 */
static int lf_smb5_removal_confined(struct lf_state *st, const struct op *op,
				    bool own_dir_ok)
{
	const struct path *pp = &st->paths[op->path[0]];
	uint32_t end = pp->client_pos >= 0 ?
			       (uint32_t)pp->client_pos + pp->client_len : 0;
	bool inside = pp->client_pos >= 0 && pp->len > end;
	bool own = pp->client_pos >= 0 && pp->len == end;

	if (inside || (own && own_dir_ok))
		return 0;
	return lf_error(st,
			"%s: path \"\\%s\" is %s; expected a path inside "
			"it, \"\\...\\client1\\...\" (a run never removes "
			"what it did not create)",
			lf_op_name(op), lf_show_dos(st, pp),
			own ? "the client's own directory" :
			      "outside the client's directory");
}

/*
 * Deltree, Rmdir, Unlink and Rename remove or move what they name, so
 * their paths must lie inside the client's own directory
 * (\clients\client1\...): anything at or above it, or beside it, may
 * hold files the run did not create (the user's, or another client's).
 * Deltree and Rmdir may name the client's directory itself (dbench 4.00's
 * client.txt starts and ends with Deltree "\clients\client1").
 */
int lf_removal_confined(struct lf_state *st, const struct op *op)
{
	const struct op_info *oi = &op_info[op->kind];
	bool own_dir_ok = op->kind == OP_DELTREE || op->kind == OP_RMDIR ||
			  op->kind == OP_RMDIR3;

	if (op->kind == OP_DELTREE5 || op->kind == OP_RMDIR5 ||
	    op->kind == OP_UNLINK5)
		return lf_smb5_removal_confined(st, op,
						op->kind != OP_UNLINK5);
	if (op->kind != OP_DELTREE && op->kind != OP_RMDIR &&
	    op->kind != OP_UNLINK && op->kind != OP_RENAME &&
	    !lf_removes_nfs3(op->kind))
		return 0;
	for (unsigned i = 0; i < oi->npaths; i++) {
		const struct path *pp = &st->paths[op->path[i]];
		bool inside = pp->client_pos == LF_CLIENT_POS &&
			      pp->len > LF_CLIENT_DIR_LEN;
		bool own = pp->client_pos == LF_CLIENT_POS &&
			   pp->len == LF_CLIENT_DIR_LEN;

		if (inside || (own && own_dir_ok))
			continue;
		return lf_error(st,
				"%s: path \"\\%s\" is %s; expected a path "
				"inside it, \"\\clients\\client1\\...\" "
				"(a run never removes or moves what it did "
				"not create)",
				lf_op_name(op), lf_show_dos(st, pp),
				own ? "the client's own directory" :
				      "outside the client's directory");
	}
	return 0;
}

/* Run the removal checks deferred while the dialect was undecided on
 * the first n ops. */
int lf_confine_earlier(struct lf_state *st, uint32_t n)
{
	uint32_t line = st->line;

	for (uint32_t i = 0; i < n; i++) {
		st->line = st->prog->ops[i].line;
		if (st->prog->ops[i].kind < OP_NUM_MEASURED &&
		    lf_removal_confined(st, &st->prog->ops[i]) != 0)
			return -1;
	}
	st->line = line;
	return 0;
}
