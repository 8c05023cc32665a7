/*
 * nbvfs_tree.c - Deltree, and the removal of a client's tree after a run:
 * the vfs's own remove_tree, or a walk with its plain calls.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <stdlib.h>

#include <talloc.h>

#include "smb_semantics/nbvfs.h"
#include "nbvfs_shared.h"
#include "loadfile/ntstatus.h"
#include "util/util.h"

/* ---- removing trees ---- */

/*
 * The generic removal (for a vfs without remove_tree) walks depth first
 * without recursion and without a descriptor held per level: each level
 * keeps only the names of its entries still to be removed (read first:
 * a listing is not to be trusted while its directory changes), and one
 * path buffer grows and shrinks with the depth, so that a deep tree costs
 * memory in proportion to its depth, not to its square.
 */
struct nb_level {
	void *mem;		/* the level's names */
	char **names;
	size_t n, next;
	size_t len;		/* strlen of the path of the level */
};

/* Read the names in directory path (without "." and "..") into l. */
static int nb_level_list(struct nbvfs *nb, const char *path,
			 struct nb_level *l)
{
	bool root = strcmp(path, ".") == 0;
	struct vfs *vfs = nb->vfs;
	struct vfs_dir d;
	const char *name;
	int r;

	l->mem = talloc_new(nb);
	l->names = NULL;
	l->n = l->next = 0;
	l->len = strlen(path);
	if (l->mem == NULL)
		return -ENOMEM;
	r = vfs->ops->opendir(vfs, path, root ? 0 : l->len, &d);
	if (r < 0)
		return r;
	while ((r = vfs->ops->readdir(vfs, &d, &name)) > 0) {
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		util_beat();	/* a name read: progress for the stall watch */
		l->names = talloc_realloc(l->mem, l->names, char *, l->n + 1);
		if (l->names == NULL ||
		    (l->names[l->n++] = talloc_strdup(l->mem, name)) == NULL) {
			r = -ENOMEM;
			break;
		}
	}
	vfs->ops->closedir(vfs, &d);
	return r;
}

/* Put path[0..len) "/" name (name alone when len is 0) into *p. */
static int nb_path_join(char **p, size_t *cap, size_t len, const char *name)
{
	size_t need = len + 1 + strlen(name) + 1;

	if (need > *cap) {
		char *n = realloc(*p, need * 2);

		if (n == NULL)
			return -ENOMEM;
		*p = n;
		*cap = need * 2;
	}
	if (len > 0)
		(*p)[len++] = '/';
	strcpy(*p + len, name);
	return 0;
}

/*
 * Remove everything inside directory path and, unless it is ".", the
 * directory itself, with the vfs's plain calls.  Returns 0 or a negative
 * errno; an entry already gone counts as removed.
 */
static int nb_walk_remove(struct nbvfs *nb, const char *path)
{
	bool root = strcmp(path, ".") == 0;
	struct vfs *vfs = nb->vfs;
	struct nb_level *lv = NULL;
	size_t depth = 0, cap = 0;
	char *p = NULL;
	int r;

	r = nb_path_join(&p, &cap, 0, path);
	if (r == 0 && (lv = malloc(sizeof(*lv))) == NULL)
		r = -ENOMEM;
	if (r == 0 && (r = nb_level_list(nb, p, &lv[depth++])) == -ENOENT)
		r = 0;
	if (r == 0 && root)
		lv[0].len = 0;	/* the root's entries are bare names */
	while (r == 0 && depth > 0) {
		struct nb_level *l = &lv[depth - 1];
		struct nb_level *more;
		struct stat sb;

		if (l->next == l->n) {	/* empty now: remove it, go up */
			if (depth > 1 || !root)
				r = vfs->ops->rmdir(vfs, p);
			r = r == -ENOENT ? 0 : r;
			talloc_free(l->mem);
			if (--depth > 0)
				p[lv[depth - 1].len] = '\0';
			continue;
		}
		r = nb_path_join(&p, &cap, l->len, l->names[l->next++]);
		if (r == 0)
			r = vfs->ops->stat(vfs, p, &sb);
		if (r == 0 && S_ISDIR(sb.st_mode)) {
			more = realloc(lv, (depth + 1) * sizeof(*lv));
			if (more == NULL) {
				r = -ENOMEM;
				break;
			}
			lv = more;
			r = nb_level_list(nb, p, &lv[depth++]);
			if (r == 0)
				continue;
			l = &lv[depth - 2];
			talloc_free(lv[--depth].mem);
		} else if (r == 0) {
			r = vfs->ops->unlink(vfs, p);
		}
		r = r == -ENOENT || r == -ENOTDIR ? 0 : r;
		p[l->len] = '\0';
		util_beat();	/* an entry done: progress for the stall watch */
	}
	while (depth > 0)
		talloc_free(lv[--depth].mem);
	free(lv);
	free(p);
	return r;
}

/* Remove path and what is below it; missing is removed already. */
static int nb_tree_remove(struct nbvfs *nb, const char *path)
{
	struct vfs *vfs = nb->vfs;
	struct stat sb;
	int r;

	if (vfs->ops->remove_tree != NULL)
		return vfs->ops->remove_tree(vfs, path);
	r = vfs->ops->stat(vfs, path, &sb);
	if (r == 0 && S_ISDIR(sb.st_mode))
		r = nb_walk_remove(nb, path);
	else if (r == 0)
		r = vfs->ops->unlink(vfs, path);
	return r == -ENOENT || r == -ENOTDIR ? 0 : r;
}

int nbvfs_cleanup(void *state, const char *path)
{
	struct nbvfs *nb = state;

	nb_close_all(nb);
	return nb_tree_remove(nb, nb_at_path(path));
}

uint32_t nbvfs_deltree(void *state, struct op_call *call)
{
	return nb_status(call, nb_tree_remove(state,
					      nb_at_path(call->path[0])));
}
