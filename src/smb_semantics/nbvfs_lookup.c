/*
 * nbvfs_lookup.c - finding names: the lookup a server makes before a path
 * op, the statuses its answer tells apart, and FIND_FIRST.
 *
 * errno cannot tell a missing file from a missing directory on the way:
 * the lookup's answer does, or one more stat on the failure path only.
 * The lookup is a stat and, when that finds nothing, a scan of the
 * directory for the name in another case; FIND_FIRST makes the same
 * lookup, then counts the names of the directory that match its pattern.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include <talloc.h>

#include "smb_semantics/nbvfs.h"
#include "nbvfs_shared.h"
#include "nbvfs_lookup.h"
#include "loadfile/ntstatus.h"
#include "util/util.h"
#include "smb_semantics/wildcard.h"

/* ---- statuses ---- */

/*
 * path does not exist (ENOENT): was it the last component that is missing
 * (OBJECT_NAME_NOT_FOUND) or a directory on the way (OBJECT_PATH_NOT_FOUND)?
 */
static uint32_t nb_missing(struct nbvfs *nb, struct op_call *call,
			   const char *path, int err)
{
	struct stat sb;
	char *parent;
	int r;

	call->err = err;
	if (strchr(path, '/') == NULL)
		return NT_STATUS_OBJECT_NAME_NOT_FOUND;
	parent = talloc_strndup(nb, path, nb_dir_len(path));
	if (parent == NULL)
		return nb_fail(call, NT_STATUS_NO_MEMORY, ENOMEM);
	r = nb->vfs->ops->stat(nb->vfs, parent, &sb);
	talloc_free(parent);
	if (r == 0 && S_ISDIR(sb.st_mode))
		return NT_STATUS_OBJECT_NAME_NOT_FOUND;
	return NT_STATUS_OBJECT_PATH_NOT_FOUND;
}

/* The common failures of a call on path: missing, or not reachable. */
uint32_t nb_path_errno(struct nbvfs *nb, struct op_call *call,
		       const char *path, int err)
{
	if (err == ENOENT)
		return nb_missing(nb, call, path, err);
	if (err == ENOTDIR)
		return nb_no_path(call, err);
	return nb_errno(call, err);
}

/*
 * -S: flush the directory holding path, the way knfsd flushes directories
 * after a namespace change.  Returns 0 or an errno.
 */
static int nb_sync_parent(struct nbvfs *nb, const char *path)
{
	struct vfs *vfs = nb->vfs;
	char *parent = NULL;
	int fh, r;

	if (strchr(path, '/') != NULL) {
		parent = talloc_strndup(nb, path, nb_dir_len(path));
		if (parent == NULL)
			return ENOMEM;
	}
	fh = vfs->ops->open(vfs, parent != NULL ? parent : ".",
			    O_RDONLY | O_DIRECTORY, 0);
	talloc_free(parent);
	if (fh < 0)
		return -fh;
	r = vfs->ops->fsync(vfs, fh);
	vfs->ops->close(vfs, fh);
	return -r;
}

/* After a successful namespace change: -S, and its failure if any. */
HOT_PATH
uint32_t nb_synced(struct nbvfs *nb, struct op_call *call,
		   const char *path)
{
	int err;

	if (!nb->opts->sync_dirs)
		return NT_STATUS_OK;
	err = nb_sync_parent(nb, path);
	return err != 0 ? nb_errno(call, err) : NT_STATUS_OK;
}

/* ---- the name lookup ---- */

/* Names taken from a directory at once by the scans below. */
#define NB_DIRENTS	64

/* The next names of d (and their lengths, unless lens is NULL): the
 * vfs's readdir_many(), else one readdir(). */
HOT_PATH
static int nb_dir_names(struct vfs *vfs, struct vfs_dir *d,
			const char **names, size_t *lens)
{
	int r;

	if (vfs->ops->readdir_many != NULL)
		return vfs->ops->readdir_many(vfs, d, names, lens, NB_DIRENTS);
	r = vfs->ops->readdir(vfs, d, &names[0]);
	if (r > 0 && lens != NULL)
		lens[0] = strlen(names[0]);
	return r;
}

/*
 * Is want among names[0..n), ASCII case folded?  Most names differ from
 * it in their first byte by more than case (another bit than 0x20), and
 * are passed over at that.
 */
static bool nb_name_in(const char *const *names, int n, const char *want)
{
	unsigned char w0 = (unsigned char)want[0];

	for (int i = 0; i < n; i++)
		if ((((unsigned char)names[i][0] ^ w0) & ~0x20u) == 0 &&
		    vfs_same_name_folded(names[i], want))
			return true;
	return false;
}

/*
 * Samba's name resolution for a path that does not exist as spelled: scan
 * its directory for a name that matches case-insensitively.  Returns 1 if
 * one does, 0 if none does, a negative errno if the directory cannot be
 * read.  *stale is set when the vfs found its resolution of the directory
 * stale (see vfs_ops.opendir).
 */
HOT_PATH
static int nb_case_scan(struct nbvfs *nb, const char *path, bool *stale)
{
	const char *names[NB_DIRENTS], *want;
	size_t dir_len = nb_split(path, &want);
	struct vfs *vfs = nb->vfs;
	struct vfs_dir d;
	int r;

	r = vfs->ops->opendir(vfs, path, dir_len, &d);
	if (r < 0)
		return r;
	*stale = r == 1;
	if (vfs->ops->readdir_find != NULL)
		r = vfs->ops->readdir_find(vfs, &d, want);
	else
		while ((r = nb_dir_names(vfs, &d, names, NULL)) > 0) {
			if (nb_name_in(names, r, want)) {
				r = 1;
				break;
			}
		}
	vfs->ops->closedir(vfs, &d);
	return r;	/* a failed read is not "no match" */
}

/*
 * The name lookup a file server makes before every operation on a path
 * (Samba: a stat; if that finds nothing, unless --no-resolve or the store
 * matches names itself, a scan of the directory for the name in another
 * case).  dbench 4.00 makes these same calls before NTCreateX, Mkdir,
 * Rmdir, Unlink, Rename (both names), QUERY_PATH_INFORMATION and
 * FIND_FIRST; doing the same work is what makes the two tools'
 * throughputs comparable.  The answer also tells a failed call apart
 * (missing name or missing directory) without another look.  On anything
 * but FOUND_YES *err says why the path was not found.
 */
HOT_PATH
enum nb_found nb_lookup(struct nbvfs *nb, const char *path,
			struct stat *sb, int *err)
{
	struct vfs *vfs = nb->vfs;
	bool stale = false;
	int r;

	r = vfs->ops->stat(vfs, path, sb);
	if (r == 0)
		return FOUND_YES;
	*err = -r;
	if (r == -ENOTDIR)
		return FOUND_NO_PATH;
	if (r != -ENOENT || !nb->scan)
		return FOUND_MISSING;
	r = nb_case_scan(nb, path, &stale);
	/* the directory had been removed and made again by someone else:
	 * look again in the one now there */
	if (stale && vfs->ops->stat(vfs, path, sb) == 0)
		return FOUND_YES;
	if (r >= 0) {
		*err = ENOENT;
		return r > 0 ? FOUND_CASE : FOUND_NAME;
	}
	*err = -r;
	return -r == ENOENT || -r == ENOTDIR ? FOUND_NO_PATH : FOUND_MISSING;
}

/* ---- FIND_FIRST ---- */

HOT_PATH
uint32_t nbvfs_find_count(struct nbvfs *nb, struct op_call *call,
			  const char *pattern, int64_t maxcount,
			  uint64_t *count)
{
	uint64_t n = 0, max = maxcount > 0 ? (uint64_t)maxcount : UINT64_MAX;
	const char *names[NB_DIRENTS], *leaf;
	size_t lens[NB_DIRENTS], dir_len = nb_split(pattern, &leaf);
	struct vfs *vfs = nb->vfs;
	struct wildcard mask;
	struct vfs_dir d;
	bool any;
	int r;

	r = vfs->ops->opendir(vfs, pattern, dir_len, &d);
	if (r < 0) {
		if (r == -ENOENT || r == -ENOTDIR)
			return nb_no_path(call, -r);
		return nb_errno(call, -r);
	}
	wildcard_prepare(&mask, leaf);
	any = wildcard_any(&mask);
	/* no more names are read than the count needs */
	while (n < max &&
	       (r = nb_dir_names(vfs, &d, names, any ? NULL : lens)) > 0) {
		if (any) {
			n += (uint64_t)r < max - n ? (uint64_t)r : max - n;
			continue;
		}
		for (int i = 0; i < r && n < max; i++)
			n += wildcard_matches(&mask, names[i], lens[i]);
	}
	vfs->ops->closedir(vfs, &d);
	if (r < 0)
		return nb_errno(call, -r);
	*count = n;
	return NT_STATUS_OK;
}

HOT_PATH
uint32_t nbvfs_find(void *state, struct op_call *call)
{
	struct nbvfs *nb = state;
	const char *pattern = call->path[0] != NULL ? call->path[0] : "";
	struct stat sb;
	uint64_t count = 0;
	enum nb_found found;
	uint32_t status;
	int err = 0;

	/*
	 * The name lookup first, as before any path operation; for a
	 * pattern with wildcards it cannot succeed (dbench 4.00 makes it
	 * anyway, so it is part of the same work).  Without a wildcard it
	 * is the whole answer, case-insensitive unless --no-resolve.  (A
	 * server that looks names up itself makes the failing one itself.)
	 */
	if (wildcard_is_pattern(nb_leaf(pattern))) {
		(void)nb_pre_lookup(nb, nb_at_path(pattern), &sb, &err);
	} else {
		found = nb_lookup(nb, nb_at_path(pattern), &sb, &err);
		if (found == FOUND_YES || found == FOUND_CASE) {
			call->result = 1;
			return NT_STATUS_OK;
		}
		return nb_fail(call, NT_STATUS_NO_SUCH_FILE, err);
	}

	status = nbvfs_find_count(nb, call, pattern, call->arg[1], &count);
	if (status != NT_STATUS_OK)
		return status;
	if (count == 0)
		return nb_fail(call, NT_STATUS_NO_SUCH_FILE, ENOENT);
	call->result = (int64_t)count;
	return NT_STATUS_OK;
}
