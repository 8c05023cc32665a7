/*
 * vfs_kept.c - the record of the client trees a run kept (--skip-cleanup)
 * through the vfs calls (see vfs_kept.h), for the backends whose trees
 * are not local files.  Same file and same rules as fileio's record.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "vfs.h"
#include "vfs_kept.h"

/* A record larger than this is not dbench's. */
#define VFS_KEPT_MAX	(1 << 20)

/* Is name one a client tree may have (a single, ordinary component)? */
static bool kept_name_ok(const char *name)
{
	return name[0] != '\0' && strchr(name, '/') == NULL &&
	       strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* dir + "/" + name under mem ("." is the root: name alone). */
static char *kept_join(void *mem, const char *dir, const char *name)
{
	if (dir[0] == '\0' || strcmp(dir, ".") == 0)
		return talloc_strdup(mem, name);
	return talloc_asprintf(mem, "%s/%s", dir, name);
}

/* Is path a directory itself, not a symlink to one? */
static bool kept_real_dir(struct vfs *vfs, const char *path)
{
	struct stat sb;

	return path != NULL && vfs->ops->stat(vfs, path, &sb) == 0 &&
	       S_ISDIR(sb.st_mode);
}

/* The whole of the regular file path (size bytes) as a string under
 * mem, in *text.  0 or a negative errno. */
static int kept_slurp(void *mem, struct vfs *vfs, const char *path,
		      size_t size, char **text)
{
	size_t got = 0;
	int fh = vfs->ops->open(vfs, path, O_RDONLY, 0);
	int r = 0;

	if (fh < 0)
		return fh;
	*text = talloc_zero_size(mem, size + 1);
	if (*text == NULL)
		r = -ENOMEM;
	while (r == 0 && got < size) {
		ssize_t k = vfs->ops->pread(vfs, fh, *text + got, size - got,
					    (off_t)got);

		if (k > 0)
			got += (size_t)k;
		else if (k == 0)
			break;	/* shorter than it was: what is there */
		else if (k != -EINTR)
			r = (int)k;
	}
	vfs->ops->close(vfs, fh);
	return r;
}

/*
 * The names in the record rec, one a line, as a talloc array under mem
 * (*count of them).  No record: none.  0, -ELOOP (a symlink), -EEXIST
 * (not a regular file, or too large) or another negative errno.
 */
static int kept_read(void *mem, struct vfs *vfs, const char *rec,
		     char ***names, size_t *count)
{
	char *text = NULL, *line, *save = NULL;
	struct stat sb;
	int r;

	*count = 0;
	if ((*names = talloc_array(mem, char *, 0)) == NULL)
		return -ENOMEM;
	r = vfs->ops->stat(vfs, rec, &sb);
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	if (S_ISLNK(sb.st_mode))
		return -ELOOP;
	if (!S_ISREG(sb.st_mode) || sb.st_size > VFS_KEPT_MAX)
		return -EEXIST;
	if ((r = kept_slurp(*names, vfs, rec, (size_t)sb.st_size, &text)) < 0)
		return r;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!kept_name_ok(line))
			continue;
		*names = talloc_realloc(mem, *names, char *, *count + 1);
		if (*names == NULL)
			return -ENOMEM;
		(*names)[(*count)++] = line;
	}
	return 0;
}

bool vfs_kept_has(struct vfs *vfs, const char *dir, const char *leaf)
{
	void *tmp = talloc_new(NULL);
	char *rec = tmp != NULL ? kept_join(tmp, dir, VFS_KEPT_RECORD) : NULL;
	bool found = false;
	char **names;
	size_t n;

	if (rec != NULL && kept_read(tmp, vfs, rec, &names, &n) == 0)
		for (size_t i = 0; i < n && !found; i++)
			found = strcmp(names[i], leaf) == 0;
	talloc_free(tmp);
	return found;
}

/* Write all of text to the handle fh.  0 or a negative errno. */
static int kept_put(struct vfs *vfs, int fh, const char *text)
{
	size_t len = strlen(text), off = 0;

	while (off < len) {
		ssize_t w = vfs->ops->pwrite(vfs, fh, text + off, len - off,
					     (off_t)off);

		if (w > 0)
			off += (size_t)w;
		else if (w == 0)
			return -EIO;
		else if (w != -EINTR)
			return (int)w;
	}
	return 0;
}

/* Replace the record rec in dir with names[0..n) (see vfs_kept_update). */
static int kept_write(void *mem, struct vfs *vfs, const char *dir,
		      const char *rec, char **names, size_t n)
{
	char *tmp = talloc_asprintf(mem, VFS_KEPT_RECORD ".%ld",
				    (long)getpid());
	char *text = talloc_strdup(mem, "");
	int fh, r, c;

	if (n == 0) {
		r = vfs->ops->unlink(vfs, rec);
		return r == -ENOENT ? 0 : r;
	}
	for (size_t i = 0; i < n && text != NULL; i++)
		text = talloc_asprintf_append(text, "%s\n", names[i]);
	tmp = tmp != NULL ? kept_join(mem, dir, tmp) : NULL;
	if (tmp == NULL || text == NULL)
		return -ENOMEM;
	fh = vfs->ops->open(vfs, tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fh < 0)
		return fh;
	r = kept_put(vfs, fh, text);
	c = vfs->ops->close(vfs, fh);
	if (r == 0 && c < 0 && c != -EINTR)
		r = c;
	if (r == 0)
		r = vfs->ops->rename(vfs, tmp, rec, 0);
	if (r != 0)
		(void)vfs->ops->unlink(vfs, tmp);
	return r;
}

/*
 * The record after this run: its entries whose tree is still a real
 * directory, and (kept) this run's trees that are.  Sets *changed.
 */
static char **kept_merge(void *mem, struct vfs *vfs, const char *dir,
			 char **old, size_t nold, const char *const *paths,
			 size_t n, bool kept, size_t *count, bool *changed)
{
	char **names = talloc_array(mem, char *, nold + n);
	size_t k = 0;

	if (names == NULL)
		return NULL;
	for (size_t i = 0; i < nold; i++)
		if (kept_real_dir(vfs, kept_join(names, dir, old[i])))
			names[k++] = old[i];
	*changed = k != nold;
	for (size_t i = 0; kept && i < n; i++) {
		const char *leaf = strrchr(paths[i], '/');
		bool have = false;

		leaf = leaf != NULL ? leaf + 1 : paths[i];
		for (size_t j = 0; j < k && !have; j++)
			have = strcmp(names[j], leaf) == 0;
		if (!have && kept_name_ok(leaf) &&
		    kept_real_dir(vfs, paths[i])) {
			if ((names[k++] = talloc_strdup(names, leaf)) == NULL)
				return NULL;
			*changed = true;
		}
	}
	*count = k;
	return names;
}

int vfs_kept_update(void *mem_ctx, struct vfs *vfs, const char *const *paths,
		    size_t n, bool kept)
{
	void *tmp = talloc_new(mem_ctx);
	const char *slash = n > 0 ? strrchr(paths[0], '/') : NULL;
	char *dir, *rec, **old = NULL, **names = NULL;
	size_t nold = 0, count = 0;
	bool changed = false;
	int r = -ENOMEM;

	if (n == 0 || tmp == NULL) {
		talloc_free(tmp);
		return n == 0 ? 0 : -ENOMEM;
	}
	dir = slash != NULL ? talloc_strndup(tmp, paths[0],
					     (size_t)(slash - paths[0])) :
			      talloc_strdup(tmp, ".");
	rec = dir != NULL ? kept_join(tmp, dir, VFS_KEPT_RECORD) : NULL;
	/* a missing clients/ holds no tree: nothing to record */
	if (rec != NULL && !kept_real_dir(vfs, dir))
		r = 0;
	else if (rec != NULL && (r = kept_read(tmp, vfs, rec, &old,
					       &nold)) == 0) {
		names = kept_merge(tmp, vfs, dir, old, nold, paths, n, kept,
				   &count, &changed);
		if (names == NULL)
			r = -ENOMEM;
		else if (changed)
			r = kept_write(tmp, vfs, dir, rec, names, count);
	}
	talloc_free(tmp);
	return r;
}
