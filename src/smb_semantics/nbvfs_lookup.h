/*
 * nbvfs_lookup.h - the name lookup of the SMB semantics (nbvfs_lookup.c),
 * as the ops that run one before a path operation see it: what it found,
 * the status of a failed call on a path, and the inline pre-lookup.
 */
#ifndef DBENCH_NBVFS_LOOKUP_H
#define DBENCH_NBVFS_LOOKUP_H

#include <sys/stat.h>

#include "nbvfs_shared.h"

/* What the name lookup before a path operation found. */
enum nb_found {
	FOUND_YES = 0,	/* the path exists as spelled (*sb filled) */
	FOUND_CASE,	/* not as spelled, but in another case */
	FOUND_NAME,	/* missing; its directory exists */
	FOUND_NO_PATH,	/* missing; so is a directory on the way */
	FOUND_MISSING,	/* missing; its directory was not looked at */
};

/* A path op's path[0] and what the lookup before it found. */
struct nb_looked {
	const char *path;
	enum nb_found found;
	struct stat sb;		/* filled for FOUND_YES */
	int err;		/* why not, otherwise */
};

/* The status of a failed call on path: missing (and what), or not
 * reachable. */
uint32_t nb_path_errno(struct nbvfs *nb, struct op_call *call,
		       const char *path, int err);
/* After a successful namespace change: -S's flush of the directory. */
uint32_t nb_synced(struct nbvfs *nb, struct op_call *call, const char *path);
/* The name lookup a server makes before an op on path (*sb filled for
 * FOUND_YES, else *err says why not). */
enum nb_found nb_lookup(struct nbvfs *nb, const char *path, struct stat *sb,
			int *err);

/*
 * The lookup before a path op that changes the store: none when the
 * store is a server that looks names up itself (VFS_SERVER_LOOKUP, and
 * no option needs the answer); then FOUND_MISSING with *err 0, and a
 * failure is placed afterwards (nb_late_lookup(), nb_path_errno()).
 */
HOT_PATH
static inline enum nb_found nb_pre_lookup(struct nbvfs *nb, const char *path,
					  struct stat *sb, int *err)
{
	if (nb->pre_lookup)
		return nb_lookup(nb, path, sb, err);
	*err = 0;
	return FOUND_MISSING;
}

#endif /* DBENCH_NBVFS_LOOKUP_H */
