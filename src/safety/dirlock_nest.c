/*
 * dirlock_nest.c - a target inside or above another run's target is
 * refused: a run removes its client trees with everything in them, so a
 * run on A/clients/client0 while another runs on A loses its tree (and
 * its lock file) to the first one's cleanup, and a run on A while
 * another runs on A/sub may do the same to it.
 *
 * The lock on DIR/.dbench.lock says nothing about DIR's ancestors or
 * descendants, and the checks must not take locks of their own (another
 * run starting meanwhile would be refused for them).  So they only look:
 *   - inside: each ancestor's .dbench.lock that the kernel lists as
 *     exclusively flock()ed in /proc/locks (confirmed with a lock attempt
 *     that cannot succeed while it is held: the inode numbers there and
 *     in stat() differ in device on some filesystems);
 *   - above: the holders of those locks, found through /proc/PID/fd (a
 *     lock file open in a process), whose directory has this target
 *     among its ancestors.
 * Each run checks after taking its own lock, so of two nested runs
 * starting at once at least the later one sees the other.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include <talloc.h>

#include "safety/dirlock.h"
#include "safety/dirlock_private.h"

/* more levels than this is a loop of bind mounts, not a path */
#define DLN_MAX_DEPTH 4096

/* One exclusive flock() the kernel lists. */
struct dln_held {
	unsigned maj, min;
	unsigned long long ino;
	long pid;
};

struct dln_locks {
	struct dln_held *h;
	size_t n;
	bool known; /* /proc/locks was read */
};

/* The exclusive flock() locks of /proc/locks, into *out. */
static void dln_read_locks(void *mem, struct dln_locks *out)
{
	FILE *f = fopen("/proc/locks", "re");
	char *line = NULL;
	size_t cap = 0;

	out->h = NULL;
	out->n = 0;
	out->known = f != NULL;
	if (f == NULL)
		return;
	/* "1: FLOCK  ADVISORY  WRITE 123 fe:00:4567 0 EOF"; a waiter's
	 * line reads "1: -> FLOCK ..." and is skipped */
	while (getline(&line, &cap, f) > 0) {
		char kind[16], mode[16], rw[16];
		struct dln_held one;
		struct dln_held *grown;

		if (sscanf(line, "%*d: %15s %15s %15s %ld %x:%x:%llu", kind,
			   mode, rw, &one.pid, &one.maj, &one.min,
			   &one.ino) != 7 ||
		    strcmp(kind, "FLOCK") != 0 || strcmp(rw, "WRITE") != 0)
			continue;
		grown = talloc_realloc(mem, out->h, struct dln_held,
				       out->n + 1);
		if (grown == NULL)
			break;
		out->h = grown;
		out->h[out->n++] = one;
	}
	free(line);
	fclose(f);
}

/* The listed lock on the file st describes (the same inode number), or
 * NULL.  With /proc/locks unread, every file is a candidate (&none). */
static const struct dln_held *dln_listed(const struct dln_locks *locks,
					 const struct stat *st)
{
	static const struct dln_held none = { 0, 0, 0, 0 };

	if (!locks->known)
		return &none;
	for (size_t i = 0; i < locks->n; i++)
		if (locks->h[i].ino == (unsigned long long)st->st_ino)
			return &locks->h[i];
	return NULL;
}

/* Is DIR's lock file (st describes it) exclusively locked right now?  A
 * shared lock attempt fails while it is; if it succeeds it is dropped at
 * once. */
static bool dln_held_now(int dfd, const struct stat *st,
			 const struct dln_held *listed)
{
	int fd = openat(dfd, DIRLOCK_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
				  O_CLOEXEC | O_NOCTTY);
	struct stat now;
	bool held;

	if (fd < 0) /* unreadable: trust the kernel's list, device too */
		return listed->pid != 0 &&
		       major(st->st_dev) == listed->maj &&
		       minor(st->st_dev) == listed->min;
	if (fstat(fd, &now) != 0 || !S_ISREG(now.st_mode) ||
	    now.st_ino != st->st_ino || now.st_dev != st->st_dev) {
		close(fd);
		return false;
	}
	held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
	close(fd); /* drops the shared lock if it was taken */
	return held;
}

/* Is the directory top a strict ancestor of the directory dfd? */
static bool dln_below(int dfd, const struct stat *top)
{
	int cur = dup(dfd);
	struct stat here, up;
	bool found = false;

	if (cur < 0 || fstat(cur, &here) != 0)
		goto out;
	for (unsigned depth = 0; depth < DLN_MAX_DEPTH && !found; depth++) {
		int parent = openat(cur, "..", O_RDONLY | O_DIRECTORY |
						      O_CLOEXEC);

		if (parent < 0 || fstat(parent, &up) != 0) {
			if (parent >= 0)
				close(parent);
			break;
		}
		close(cur);
		cur = parent;
		if (up.st_dev == here.st_dev && up.st_ino == here.st_ino)
			break; /* the root is its own parent */
		found = up.st_dev == top->st_dev && up.st_ino == top->st_ino;
		here = up;
	}
out:
	if (cur >= 0)
		close(cur);
	return found;
}

/* "pid N" or "pid unknown", for messages. */
static const char *dln_pid(void *mem, const struct dln_held *h)
{
	return h->pid > 0 ? talloc_asprintf(mem, "pid %ld", h->pid) :
			    "pid unknown";
}

/* Refuse t when an ancestor's lock file is held. */
static int dln_inside(void *mem, const struct dirlock_entry *t,
		      const struct dln_locks *locks, char **msg)
{
	char *real = realpath(t->dir, NULL);
	char *p = real != NULL ? talloc_strdup(mem, real) : NULL;
	int rc = 0;

	free(real);
	while (p != NULL && rc == 0) {
		char *slash = strrchr(p, '/');
		const struct dln_held *h;
		struct stat st;
		bool root = slash == p;
		int dfd;

		if (slash == NULL || p[1] == '\0')
			break;
		slash[root ? 1 : 0] = '\0'; /* p is now the parent */
		dfd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0 &&
		    fstatat(dfd, DIRLOCK_NAME, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && (h = dln_listed(locks, &st)) &&
		    dln_held_now(dfd, &st, h)) {
			*msg = talloc_asprintf(
				mem, "%s is inside %s, which another dbench "
				"(%s) is using: its cleanup would remove this "
				"run's files; use a directory outside it",
				t->dir, p, dln_pid(mem, h));
			rc = -1;
		}
		if (dfd >= 0)
			close(dfd);
		if (root)
			break;
	}
	return rc;
}

/* If the lock file open as /proc/PID/fd/NAME (procfd: that folder) is
 * h's, and the directory holding it is below t, say so.  Returns -1
 * with *msg then, else 0. */
static int dln_above_one(void *mem, const struct dirlock_entry *t,
			 const struct stat *tst, int procfd, const char *name,
			 const struct dln_held *h, char **msg)
{
	static const char tail[] = "/" DIRLOCK_NAME;
	char link[PATH_MAX];
	ssize_t len = readlinkat(procfd, name, link, sizeof(link) - 1);
	struct stat st, here;
	int dfd, rc = 0;

	if (len <= (ssize_t)strlen(tail))
		return 0;
	link[len] = '\0';
	if (strcmp(link + len - strlen(tail), tail) != 0 ||
	    fstatat(procfd, name, &st, 0) != 0 ||
	    (unsigned long long)st.st_ino != h->ino)
		return 0;
	link[len - strlen(tail)] = '\0'; /* the directory */
	dfd = open(link[0] != '\0' ? link : "/",
		   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0; /* another mount namespace's path */
	if (fstatat(dfd, DIRLOCK_NAME, &here, AT_SYMLINK_NOFOLLOW) == 0 &&
	    here.st_ino == st.st_ino && here.st_dev == st.st_dev &&
	    dln_below(dfd, tst) && dln_held_now(dfd, &here, h)) {
		*msg = talloc_asprintf(mem, "%s holds %s, which another dbench "
				       "(%s) is using: this run's cleanup "
				       "could remove that run's files; use a "
				       "directory that does not contain it",
				       t->dir, link, dln_pid(mem, h));
		rc = -1;
	}
	close(dfd);
	return rc;
}

/* Refuse t when a held lock file's directory is below it. */
static int dln_above(void *mem, const struct dirlock_entry *t,
		     const struct dln_locks *locks, char **msg)
{
	struct stat tst;

	if (fstat(t->dfd, &tst) != 0)
		return 0;
	for (size_t i = 0; i < locks->n; i++) {
		const struct dln_held *h = &locks->h[i];
		char *path = talloc_asprintf(mem, "/proc/%ld/fd", h->pid);
		DIR *d = path != NULL && h->pid > 0 ? opendir(path) : NULL;
		struct dirent *de;
		int rc = 0;

		talloc_free(path);
		if (d == NULL) /* gone, or another user's: not checked */
			continue;
		while (rc == 0 && (de = readdir(d)) != NULL)
			if (de->d_name[0] != '.')
				rc = dln_above_one(mem, t, &tst, dirfd(d),
						   de->d_name, h, msg);
		closedir(d);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Refuse the last of e[] when it is inside or above another of them. */
static int dln_own(void *mem, const struct dirlock_entry *e, unsigned n,
		   char **msg)
{
	const struct dirlock_entry *t = &e[n - 1];
	struct stat tst, other;

	if (fstat(t->dfd, &tst) != 0)
		return 0;
	for (unsigned j = 0; j + 1 < n; j++) {
		const char *in = NULL, *out = NULL;

		if (fstat(e[j].dfd, &other) != 0)
			continue;
		if (dln_below(t->dfd, &other)) {
			in = t->dir;
			out = e[j].dir;
		} else if (dln_below(e[j].dfd, &tst)) {
			in = e[j].dir;
			out = t->dir;
		}
		if (in != NULL) {
			*msg = talloc_asprintf(mem, "-D: %s is inside %s (both "
					       "in the list): one client's "
					       "cleanup would remove another's "
					       "tree", in, out);
			return -1;
		}
	}
	return 0;
}

int dirlock_nest_check(void *mem_ctx, const struct dirlock_entry *e,
		       unsigned n, char **msg)
{
	void *tmp = talloc_new(NULL);
	struct dln_locks locks;
	char *why = NULL;
	int rc;

	if (tmp == NULL)
		return 0;
	rc = dln_own(tmp, e, n, &why);
	if (rc == 0) {
		dln_read_locks(tmp, &locks);
		rc = dln_inside(tmp, &e[n - 1], &locks, &why);
		if (rc == 0)
			rc = dln_above(tmp, &e[n - 1], &locks, &why);
	}
	if (rc != 0)
		*msg = talloc_strdup(mem_ctx, why);
	talloc_free(tmp);
	return rc;
}
