/*
 * dirlock.c - an exclusive flock() on DIR/.dbench.lock for each target
 * directory, so that a second dbench on the same directory is refused
 * instead of removing the first one's files.
 *
 * flock() rather than fcntl() locks: they belong to the open file
 * description, so the workers forked afterwards share the parent's lock
 * (and the kernel drops it when the last of them is gone, even after a
 * SIGKILL), and closing some other descriptor of the file in the parent
 * does not release it.  The file holds the owner's PID, for the message
 * the second run prints; what counts is the lock, never the file's
 * existence, so a file left by a killed run does not block the next one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <talloc.h>

#include "safety/dirlock.h"
#include "safety/dirlock_private.h"

/* attempts when the lock file is replaced between our open and our lock */
#define DL_ATTEMPTS 8

struct dirlock {
	pid_t owner; /* the process that took the locks */
	unsigned n;
	struct dirlock_entry *e;
};

/* Does DIR/.dbench.lock still name the file st describes? */
static bool dl_same_file(int dfd, const struct stat *st)
{
	struct stat now;

	return fstatat(dfd, DIRLOCK_NAME, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
	       now.st_dev == st->st_dev && now.st_ino == st->st_ino;
}

static int dl_destroy(struct dirlock *l)
{
	for (unsigned i = l->n; i-- > 0;) {
		struct dirlock_entry *e = &l->e[i];

		/* a forked copy only closes: the lock is the owner's */
		if (e->fd >= 0 && getpid() == l->owner) {
			if (e->created && dl_same_file(e->dfd, &e->st))
				unlinkat(e->dfd, DIRLOCK_NAME, 0);
			flock(e->fd, LOCK_UN);
		}
		if (e->fd >= 0)
			close(e->fd);
		if (e->dfd >= 0)
			close(e->dfd);
	}
	return 0;
}

/* The PID written in a lock file, or 0 when it has none (yet). */
static long dl_read_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *end;
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	return end != buf && (*end == '\n' || *end == '\0') && pid > 0 ? pid
								       : 0;
}

/* Open (creating it if needed) the lock file of e->dir: the descriptor,
 * or -1 with *msg set, or -2 when it vanished meanwhile (try again). */
static int dl_open(void *mem_ctx, struct dirlock_entry *e, char **msg)
{
	const int flags = O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
	struct stat st;
	int fd;

	e->created = true;
	fd = openat(e->dfd, DIRLOCK_NAME, O_RDWR | O_CREAT | O_EXCL | flags,
		    0644);
	if (fd < 0 && errno != EEXIST) {
		/* a directory that takes no new file (read-only, /proc, no
		 * permission, full) is no target, whatever the reason */
		*msg = talloc_asprintf(mem_ctx, "directory '%s' is not a place "
				       "dbench can write: creating %s/%s: %s",
				       e->dir, e->dir, DIRLOCK_NAME,
				       strerror(errno));
		return -1;
	}
	if (fd < 0) {
		e->created = false;
		/* look before opening: never open a device or FIFO */
		if (fstatat(e->dfd, DIRLOCK_NAME, &st, AT_SYMLINK_NOFOLLOW) != 0)
			return errno == ENOENT ? -2 : -1;
		if (!S_ISREG(st.st_mode))
			goto not_a_file;
		fd = openat(e->dfd, DIRLOCK_NAME, O_RDWR | flags);
		if (fd < 0 && errno == EACCES) /* another user's: lock it read-only */
			fd = openat(e->dfd, DIRLOCK_NAME, O_RDONLY | flags);
		if (fd < 0 && errno == ENOENT)
			return -2;
	}
	if (fd < 0 && errno == ELOOP)
		goto not_a_file;
	if (fd < 0) {
		*msg = talloc_asprintf(mem_ctx, "cannot lock %s: %s/%s: %s",
				       e->dir, e->dir, DIRLOCK_NAME,
				       strerror(errno));
		return -1;
	}
	if (fstat(fd, &e->st) != 0 || !S_ISREG(e->st.st_mode)) {
		close(fd);
		goto not_a_file;
	}
	return fd;

not_a_file:
	*msg = talloc_asprintf(mem_ctx, "cannot lock %s: %s/%s is a symbolic "
			       "link or not a regular file (dbench locks the "
			       "directory with it; remove it if no dbench "
			       "runs there)", e->dir, e->dir, DIRLOCK_NAME);
	return -1;
}

/* Lock e->dir.  Returns 0, or -1 with *msg set and nothing held. */
static int dl_lock_one(void *mem_ctx, struct dirlock_entry *e, char **msg)
{
	for (unsigned attempt = 0; attempt < DL_ATTEMPTS; attempt++) {
		int fd = dl_open(mem_ctx, e, msg);
		char pid[32];

		if (fd == -2)
			continue;
		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			int err = errno;
			long other = err == EWOULDBLOCK ? dl_read_pid(fd) : 0;

			if (err == EWOULDBLOCK && other > 0)
				*msg = talloc_asprintf(
					mem_ctx, "another dbench (pid %ld) is "
					"using %s", other, e->dir);
			else if (err == EWOULDBLOCK)
				*msg = talloc_asprintf(
					mem_ctx, "another dbench (pid unknown) "
					"is using %s", e->dir);
			else
				*msg = talloc_asprintf(
					mem_ctx, "cannot lock %s: flock %s/%s: "
					"%s", e->dir, e->dir, DIRLOCK_NAME,
					strerror(err));
			/* a file we made and nobody locked is ours to remove */
			if (err != EWOULDBLOCK && e->created &&
			    dl_same_file(e->dfd, &e->st))
				unlinkat(e->dfd, DIRLOCK_NAME, 0);
			close(fd);
			return -1;
		}
		/* the previous owner may have removed the file we opened */
		if (!dl_same_file(e->dfd, &e->st)) {
			close(fd);
			continue;
		}
		/* the PID is for a second run's message; the lock is what
		 * counts, so a failed write (a read-only fd) is no error */
		snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		if (ftruncate(fd, 0) == 0) {
			ssize_t w = pwrite(fd, pid, strlen(pid), 0);

			(void)w;
		}
		e->fd = fd;
		return 0;
	}
	*msg = talloc_asprintf(mem_ctx, "cannot lock %s: %s/%s keeps being "
			       "replaced", e->dir, e->dir, DIRLOCK_NAME);
	return -1;
}

/* Open dirs[i] as e; returns 1 when it is a directory already in l. */
static int dl_open_dir(void *mem_ctx, struct dirlock *l, const char *dir,
		       char **msg)
{
	struct dirlock_entry *e = &l->e[l->n];
	struct stat st;

	e->dir = dir;
	e->fd = -1;
	e->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (e->dfd < 0 || fstat(e->dfd, &st) != 0) {
		*msg = talloc_asprintf(mem_ctx, "cannot lock %s: %s", dir,
				       strerror(errno));
		if (e->dfd >= 0)
			close(e->dfd);
		return -1;
	}
	for (unsigned j = 0; j < l->n; j++) {
		struct stat other;

		if (fstat(l->e[j].dfd, &other) == 0 &&
		    other.st_dev == st.st_dev && other.st_ino == st.st_ino) {
			close(e->dfd);
			return 1;
		}
	}
	l->n++; /* from here on the destructor closes e->dfd */
	return 0;
}

struct dirlock *dirlock_acquire(void *mem_ctx, const char *const *dirs,
				unsigned ndirs, char **msg)
{
	struct dirlock *l = talloc_zero(mem_ctx, struct dirlock);

	*msg = NULL;
	if (l == NULL || (l->e = talloc_zero_array(l, struct dirlock_entry,
						   ndirs ? ndirs : 1)) == NULL)
		goto nomem;
	l->owner = getpid();
	talloc_set_destructor(l, dl_destroy);
	for (unsigned i = 0; i < ndirs; i++) {
		int rc = dl_open_dir(mem_ctx, l, dirs[i], msg);

		if (rc < 0)
			goto fail;
		if (rc == 0 && dl_lock_one(mem_ctx, &l->e[l->n - 1], msg) != 0)
			goto fail;
		/* after the lock: of two nested runs starting at once, the
		 * later to look sees the other */
		if (rc == 0 && dirlock_nest_check(mem_ctx, l->e, l->n, msg) != 0)
			goto fail;
	}
	return l;

nomem:
	*msg = talloc_strdup(mem_ctx, "out of memory");
fail:
	talloc_free(l);
	return NULL;
}

void dirlock_release(struct dirlock *l)
{
	talloc_free(l);
}
