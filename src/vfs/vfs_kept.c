/*
 * vfs_kept.c - the record of kept client trees (clients/.dbench-kept) over
 * any vfs: read, merge with a run's trees, write back by rename.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "vfs/vfs_kept.h"

/* Is name one a client tree may have (a single, ordinary component)? */
static bool kept_name_ok(const char *name)
{
	return name[0] != '\0' && strchr(name, '/') == NULL &&
	       strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* dir/name under mem ("" dir: name itself). */
static char *kept_join(void *mem, const char *dir, const char *name)
{
	return dir[0] != '\0' ? talloc_asprintf(mem, "%s/%s", dir, name) :
				talloc_strdup(mem, name);
}

/* The record's text (NUL-terminated) from the open handle fh. */
static int kept_slurp(void *mem, struct vfs *vfs, int fh, char **text)
{
	struct stat sb;
	size_t got = 0;
	int r = vfs->ops->fstat(vfs, fh, &sb);

	if (r < 0)
		return r;
	if (!S_ISREG(sb.st_mode) || sb.st_size > VFS_KEPT_MAX)
		return -EEXIST;
	*text = talloc_zero_size(mem, (size_t)sb.st_size + 1);
	if (*text == NULL)
		return -ENOMEM;
	while (got < (size_t)sb.st_size) {
		ssize_t n = vfs->ops->pread(vfs, fh, *text + got,
					    (size_t)sb.st_size - got,
					    (off_t)got);

		if (n == -EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? (int)n : 0; /* shrank: what is there */
		got += (size_t)n;
	}
	return 0;
}

/*
 * The names in dir's record, as a talloc array under mem (*count of
 * them).  No record: none.  Returns 0 or a negative errno.
 */
static int kept_read(void *mem, struct vfs *vfs, const char *dir,
		     char ***names, size_t *count)
{
	char *path = kept_join(mem, dir, VFS_KEPT_NAME);
	char *text = NULL, *line, *save = NULL;
	int fh, r;

	*names = talloc_array(mem, char *, 0);
	*count = 0;
	if (*names == NULL || path == NULL)
		return -ENOMEM;
	fh = vfs->ops->open(vfs, path, O_RDONLY, 0);
	if (fh < 0)
		return fh == -ENOENT ? 0 : fh;
	r = kept_slurp(*names, vfs, fh, &text);
	vfs->ops->close(vfs, fh);
	if (r < 0)
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
	bool found = false;
	char **names;
	size_t n;

	if (tmp != NULL && kept_read(tmp, vfs, dir, &names, &n) == 0)
		for (size_t i = 0; i < n && !found; i++)
			found = strcmp(names[i], leaf) == 0;
	talloc_free(tmp);
	return found;
}

bool vfs_kept_has_tree(struct vfs *vfs, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash != NULL ? talloc_strndup(NULL, path,
						   (size_t)(slash - path)) :
				    talloc_strdup(NULL, "");
	bool found = dir != NULL &&
		     vfs_kept_has(vfs, dir, slash != NULL ? slash + 1 : path);

	talloc_free(dir);
	return found;
}

/* Is dir/name a directory itself, not a symlink to one? */
static bool kept_real_dir(void *mem, struct vfs *vfs, const char *dir,
			  const char *name)
{
	char *path = kept_join(mem, dir, name);
	struct stat sb;
	bool is_dir = path != NULL && vfs->ops->stat(vfs, path, &sb) == 0 &&
		      S_ISDIR(sb.st_mode);

	talloc_free(path);
	return is_dir;
}

/* Write text to the new file path (which must not exist). */
static int kept_put(struct vfs *vfs, const char *path, const char *text)
{
	size_t len = strlen(text), off = 0;
	int fh = vfs->ops->open(vfs, path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	int r = 0, c;

	if (fh < 0)
		return fh;
	while (off < len && r == 0) {
		ssize_t w = vfs->ops->pwrite(vfs, fh, text + off, len - off,
					     (off_t)off);

		if (w > 0)
			off += (size_t)w;
		else if (w != -EINTR)
			r = w < 0 ? (int)w : -EIO;
	}
	c = vfs->ops->close(vfs, fh);
	return r != 0 ? r : c == -EINTR ? 0 : c;
}

/* Replace dir's record with names[0..n); none left removes it. */
static int kept_write(void *mem, struct vfs *vfs, const char *dir,
		      char **names, size_t n)
{
	char *path = kept_join(mem, dir, VFS_KEPT_NAME);
	char *tmp = talloc_asprintf(mem, "%s.%ld", path ? path : "",
				    (long)getpid());
	char *text = talloc_strdup(mem, "");
	int r;

	if (path == NULL || tmp == NULL || text == NULL)
		return -ENOMEM;
	if (n == 0) {
		r = vfs->ops->unlink(vfs, path);
		return r == -ENOENT ? 0 : r;
	}
	for (size_t i = 0; i < n && text != NULL; i++)
		text = talloc_asprintf_append(text, "%s\n", names[i]);
	if (text == NULL)
		return -ENOMEM;
	r = kept_put(vfs, tmp, text);
	if (r == 0)
		r = vfs->ops->rename(vfs, tmp, path, 0);
	if (r != 0)
		vfs->ops->unlink(vfs, tmp);
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
		if (kept_real_dir(mem, vfs, dir, old[i]))
			names[k++] = old[i];
	*changed = k != nold;
	for (size_t i = 0; kept && i < n; i++) {
		const char *leaf = strrchr(paths[i], '/');
		bool have = false;

		leaf = leaf != NULL ? leaf + 1 : paths[i];
		for (size_t j = 0; j < k && !have; j++)
			have = strcmp(names[j], leaf) == 0;
		if (!have && kept_name_ok(leaf) &&
		    kept_real_dir(mem, vfs, dir, leaf)) {
			names[k++] = talloc_strdup(names, leaf);
			if (names[k - 1] == NULL)
				return NULL;
			*changed = true;
		}
	}
	*count = k;
	return names;
}

int vfs_kept_update(void *mem, struct vfs *vfs, const char *const *paths,
		    size_t n, bool kept)
{
	void *tmp = talloc_new(mem);
	const char *slash = n > 0 ? strrchr(paths[0], '/') : NULL;
	char *dir;
	char **old, **names = NULL;
	size_t nold = 0, count = 0;
	bool changed = false;
	struct stat sb;
	int r;

	if (tmp == NULL)
		return -ENOMEM;
	dir = slash != NULL ? talloc_strndup(tmp, paths[0],
					     (size_t)(slash - paths[0])) :
			      talloc_strdup(tmp, "");
	if (dir == NULL) {
		talloc_free(tmp);
		return -ENOMEM;
	}
	/* a missing clients/ holds no tree: nothing to record */
	r = n > 0 && dir[0] != '\0' ? vfs->ops->stat(vfs, dir, &sb) : 0;
	if (n == 0 || r < 0) {
		talloc_free(tmp);
		return r == -ENOENT ? 0 : r;
	}
	r = kept_read(tmp, vfs, dir, &old, &nold);
	if (r == 0)
		names = kept_merge(tmp, vfs, dir, old, nold, paths, n, kept,
				   &count, &changed);
	if (r == 0 && names == NULL)
		r = -ENOMEM;
	if (r == 0 && changed)
		r = kept_write(tmp, vfs, dir, names, count);
	talloc_free(tmp);
	return r;
}
