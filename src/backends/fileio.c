/*
 * fileio.c - the local filesystem backend: the SMB semantics (nbvfs) over
 * the POSIX vfs of the client's directory.
 *
 * Everything a loadfile op means is in src/smb/nbvfs.c; every system call
 * is in src/vfs/vfs_posix.c.  This file only puts the two together.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "backend.h"
#include "backends.h"
#include "nbvfs.h"
#include "util.h"
#include "vfs.h"

static int fileio_setup(void *mem_ctx, const struct backend_client_config *cfg,
			void **state, char **err)
{
	bool xattr = cfg->opts != NULL && cfg->opts->xattr;
	struct vfs *vfs;
	struct nbvfs *nb;

	vfs = vfs_posix_new(mem_ctx, cfg->directory,
			    xattr ? VFS_POSIX_XATTR_PATHS : 0, err);
	if (vfs == NULL)
		return -1;
	vfs->hint = cfg->hint;
	nb = nbvfs_new(mem_ctx, vfs, cfg->opts, cfg->nhandles);
	if (nb == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: out of memory",
				       cfg->directory);
		return -1;
	}
	*state = nb;
	return 0;
}

/* ---- backend hooks: target, descriptors, shared paths ---- */

/*
 * Descriptors one op opens for a moment beside the kept ones: a parent
 * or a directory being read, and the two of a component-by-component
 * walk where the kernel has no openat2.
 */
#define FILEIO_TRANSIENT_FDS	4

int fileio_target_check(void *mem_ctx, const struct dbench_options *o,
			const char *target, char **err)
{
	struct stat sb;

	(void)o;
	if (stat(target, &sb) != 0)
		*err = talloc_asprintf(mem_ctx, "directory '%s': %s", target,
				       strerror(errno));
	else if (!S_ISDIR(sb.st_mode))
		*err = talloc_asprintf(mem_ctx, "directory '%s': %s", target,
				       strerror(ENOTDIR));
	else if (access(target, W_OK | X_OK) != 0)
		*err = talloc_asprintf(mem_ctx,
				       "directory '%s' is not writable: %s",
				       target, strerror(errno));
	else
		return 0;
	return -1;
}

/*
 * The client directory, the kept directories (at most VFS_POSIX_DIRCACHE,
 * one per distinct directory the loadfile names), every open handle and
 * what one op opens for a moment.
 */
static uint64_t fileio_client_fds(const struct dbench_options *o,
				  uint32_t max_open_handles, uint32_t max_dirs)
{
	uint32_t kept = max_dirs < VFS_POSIX_DIRCACHE ? max_dirs :
						  VFS_POSIX_DIRCACHE;

	(void)o;
	return 1 + (uint64_t)kept + max_open_handles + FILEIO_TRANSIENT_FDS;
}

/*
 * Is the directory leaf (in pfd) empty?  1 yes, 0 no, or a negative
 * errno; a symlink is not followed (ELOOP).
 */
static int fileio_dir_empty(int pfd, const char *leaf)
{
	int fd = openat(pfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					   O_CLOEXEC);
	struct dirent *de;
	int empty = 1;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -ENOMEM;
	}
	while (empty == 1 && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			empty = 0;
	closedir(d);
	return empty;
}

/* ---- the record of the trees a run kept (--skip-cleanup) ---- */

/* In the directory above the client trees (clients/), never in one. */
#define FILEIO_KEPT		".dbench-kept"
#define FILEIO_KEPT_MAX		(1 << 20)

/* Is name one a client tree may have (a single, ordinary component)? */
static bool fileio_kept_name_ok(const char *name)
{
	return name[0] != '\0' && strchr(name, '/') == NULL &&
	       strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/*
 * The names in the record in pfd, one a line, as a talloc array under mem
 * (*count of them).  No record: none.  Returns 0; -ELOOP when the record
 * is a symlink (never followed), -EEXIST when it is something else but a
 * regular file; another negative errno when it cannot be read.
 */
static int fileio_kept_read(void *mem, int pfd, char ***names, size_t *count)
{
	int fd = openat(pfd, FILEIO_KEPT, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
					     O_CLOEXEC);
	char *text, *line, *save = NULL;
	struct stat sb;
	ssize_t got;

	*names = talloc_array(mem, char *, 0);
	*count = 0;
	if (*names == NULL)
		return -ENOMEM;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size > FILEIO_KEPT_MAX) {
		close(fd);
		return -EEXIST;
	}
	text = talloc_zero_size(*names, (size_t)sb.st_size + 1);
	got = text == NULL ? -1 : read(fd, text, (size_t)sb.st_size);
	close(fd);
	if (got < 0)
		return text == NULL ? -ENOMEM : -EIO;
	text[got] = '\0';
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!fileio_kept_name_ok(line))
			continue;
		*names = talloc_realloc(mem, *names, char *, *count + 1);
		if (*names == NULL)
			return -ENOMEM;
		(*names)[(*count)++] = line;
	}
	return 0;
}

/* Is leaf (in pfd) named in pfd's record? */
static bool fileio_kept_has(int pfd, const char *leaf)
{
	void *tmp = talloc_new(NULL);
	bool found = false;
	char **names;
	size_t n;

	if (tmp != NULL && fileio_kept_read(tmp, pfd, &names, &n) == 0)
		for (size_t i = 0; i < n && !found; i++)
			found = strcmp(names[i], leaf) == 0;
	talloc_free(tmp);
	return found;
}

/* Is name (in pfd) a directory itself, not a symlink to one? */
static bool fileio_real_dir(int pfd, const char *name)
{
	struct stat sb;

	return fstatat(pfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISDIR(sb.st_mode);
}

/*
 * Replace pfd's record with names[0..n): written to a new file of a name
 * of its own, then renamed over it (a symlink there is replaced, never
 * followed); none left removes it.  Returns 0 or a negative errno.
 */
static int fileio_kept_write(void *mem, int pfd, char **names, size_t n)
{
	char *tmp = talloc_asprintf(mem, FILEIO_KEPT ".%ld", (long)getpid());
	char *text = talloc_strdup(mem, "");
	int fd, e = 0;

	if (n == 0)
		return unlinkat(pfd, FILEIO_KEPT, 0) == 0 || errno == ENOENT ?
			0 : -errno;
	for (size_t i = 0; i < n && text != NULL; i++)
		text = talloc_asprintf_append(text, "%s\n", names[i]);
	if (tmp == NULL || text == NULL)
		return -ENOMEM;
	fd = openat(pfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				  O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	for (size_t off = 0, len = strlen(text); off < len && e == 0;) {
		ssize_t w = write(fd, text + off, len - off);

		if (w > 0)
			off += (size_t)w;
		else if (w < 0 && errno != EINTR)
			e = errno;
		else if (w == 0)
			e = EIO;
	}
	if (close(fd) != 0 && e == 0)
		e = errno;
	if (e == 0 && renameat(pfd, tmp, pfd, FILEIO_KEPT) != 0)
		e = errno;
	if (e != 0)
		unlinkat(pfd, tmp, 0);
	return -e;
}

/*
 * The record after this run: its entries whose tree is still a real
 * directory, and (kept) this run's trees that are.  Sets *changed.
 */
static char **fileio_kept_merge(void *mem, int pfd, char **old, size_t nold,
				const char *const *paths, size_t n, bool kept,
				size_t *count, bool *changed)
{
	char **names = talloc_array(mem, char *, nold + n);
	size_t k = 0;

	if (names == NULL)
		return NULL;
	for (size_t i = 0; i < nold; i++)
		if (fileio_real_dir(pfd, old[i]))
			names[k++] = old[i];
	*changed = k != nold;
	for (size_t i = 0; kept && i < n; i++) {
		const char *leaf = strrchr(paths[i], '/');
		bool have = false;

		leaf = leaf != NULL ? leaf + 1 : paths[i];
		for (size_t j = 0; j < k && !have; j++)
			have = strcmp(names[j], leaf) == 0;
		if (!have && fileio_kept_name_ok(leaf) &&
		    fileio_real_dir(pfd, leaf)) {
			names[k++] = talloc_strdup(names, leaf);
			if (names[k - 1] == NULL)
				return NULL;
			*changed = true;
		}
	}
	*count = k;
	return names;
}

static int fileio_trees_kept(void *mem_ctx, const struct dbench_options *o,
			     const char *target, const char *const *paths,
			     size_t n, bool kept)
{
	void *tmp = talloc_new(mem_ctx);
	int dfd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int pfd = -1, r;
	bool changed = false;
	const char *leaf;
	char **old, **names = NULL;
	size_t nold = 0, count = 0;

	(void)o;
	if (tmp == NULL || dfd < 0 || n == 0) {
		r = tmp == NULL ? -ENOMEM : dfd < 0 ? -errno : 0;
		goto out;
	}
	/* a missing clients/ holds no tree: nothing to record */
	pfd = util_open_parent_nofollow(dfd, paths[0], &leaf);
	if (pfd < 0) {
		r = errno == ENOENT ? 0 : -errno;
		goto out;
	}
	r = fileio_kept_read(tmp, pfd, &old, &nold);
	if (r == 0)
		names = fileio_kept_merge(tmp, pfd, old, nold, paths, n, kept,
					  &count, &changed);
	if (r == 0 && names == NULL)
		r = -ENOMEM;
	if (r == 0 && changed)
		r = fileio_kept_write(tmp, pfd, names, count);
out:
	if (pfd >= 0)
		close(pfd);
	if (dfd >= 0)
		close(dfd);
	talloc_free(tmp);
	return r;
}

/*
 * Look at one client tree: 0 with *why NULL when the run may use it
 * (absent, an empty directory, or a directory an earlier run kept and
 * named in the record), 0 with *why saying what is there, or an errno.
 */
static int fileio_tree_state(int dfd, const char *path, const char **why)
{
	const char *leaf;
	struct stat sb;
	int pfd, r = 0;

	*why = NULL;
	pfd = util_open_parent_nofollow(dfd, path, &leaf);
	if (pfd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			*why = BACKEND_TREE_BEHIND;
		return errno == ENOENT || *why != NULL ? 0 : errno;
	}
	if (fstatat(pfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		r = errno == ENOENT ? 0 : errno;
	else if (S_ISLNK(sb.st_mode))
		*why = BACKEND_TREE_SYMLINK;
	else if (!S_ISDIR(sb.st_mode))
		*why = BACKEND_TREE_NOT_DIR;
	else if ((r = fileio_dir_empty(pfd, leaf)) == 0 &&
		 !fileio_kept_has(pfd, leaf))
		*why = BACKEND_TREE_NOT_EMPTY;
	close(pfd);
	return r < 0 ? -r : 0;
}

static int fileio_trees_check(void *mem_ctx, const struct dbench_options *o,
			      const char *target, const char *const *paths,
			      size_t n, char **err)
{
	int dfd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const char *why = NULL;
	size_t i;
	int e = 0;

	(void)o;
	if (dfd < 0) {
		*err = talloc_asprintf(mem_ctx, "directory '%s': %s", target,
				       strerror(errno));
		return -1;
	}
	for (i = 0; i < n && e == 0 && why == NULL; i++)
		e = fileio_tree_state(dfd, paths[i], &why);
	close(dfd);
	if (e == 0 && why == NULL)
		return 0;
	*err = e != 0 ? talloc_asprintf(mem_ctx, "%s/%s: cannot tell whether "
					"it is new: %s", target, paths[i - 1],
					strerror(e)) :
			backend_tree_refusal(mem_ctx, target, paths[i - 1],
					     why);
	return -1;
}

static int fileio_shared_note(void *mem_ctx, const struct dbench_options *o,
			      const char *target, const char *const *paths,
			      size_t n, bool *existed)
{
	(void)o;
	for (size_t i = 0; i < n; i++) {
		char *full = talloc_asprintf(mem_ctx, "%s/%s", target,
					     paths[i]);
		struct stat sb;

		existed[i] = full == NULL || lstat(full, &sb) == 0;
		talloc_free(full);
	}
	return 0;
}

static int fileio_shared_remove(void *mem_ctx, const struct dbench_options *o,
				const char *target, const char *const *paths,
				size_t n)
{
	int dfd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	(void)mem_ctx;
	(void)o;
	if (dfd < 0)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		const char *leaf;
		struct stat sb;
		int pfd;

		/* a symlink on the way (planted during the run) makes this
		 * fail: nothing behind it is removed */
		pfd = util_open_parent_nofollow(dfd, paths[i], &leaf);
		if (pfd < 0)
			continue;
		/* only what is empty now: never another's data */
		if (fstatat(pfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    unlinkat(pfd, leaf,
			     S_ISDIR(sb.st_mode) ? AT_REMOVEDIR : 0) != 0 &&
		    errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST &&
		    ret == 0)
			ret = -errno;
		close(pfd);
	}
	close(dfd);
	return ret;
}

const struct backend fileio_backend = {
	.abi = BACKEND_ABI,
	.name = "fileio",
	.description = "local filesystem through POSIX calls",
	.unavailable = NULL,
	.flags = BACKEND_LOCAL_FS,
	.target_check = fileio_target_check,
	.client_fds = fileio_client_fds,
	.trees_check = fileio_trees_check,
	.trees_kept = fileio_trees_kept,
	.shared_note = fileio_shared_note,
	.shared_remove = fileio_shared_remove,
	.setup = fileio_setup,
	.cleanup = nbvfs_cleanup,
	.ops = { NBVFS_OPS },
};
