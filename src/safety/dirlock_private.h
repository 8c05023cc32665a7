/*
 * dirlock_private.h - what dirlock.c and dirlock_nest.c share: one
 * locked target directory, and the check that no other run's target is
 * inside or above it.
 */
#ifndef DBENCH_DIRLOCK_PRIVATE_H
#define DBENCH_DIRLOCK_PRIVATE_H

#include <stdbool.h>
#include <sys/stat.h>

struct dirlock_entry {
	const char *dir; /* as given, for messages */
	int dfd;	 /* the directory */
	int fd;		 /* the locked file, -1 when not held */
	bool created;	 /* this process created the file */
	struct stat st;	 /* the locked file's identity */
};

/*
 * Called once e[n - 1] is locked (e[0..n-2] were locked before, by this
 * same object): refuse when e[n - 1]'s directory is inside or above
 * another of e[], or inside or above a directory whose lock file another
 * lock (another run's) holds, since a run removes its trees with all
 * they contain.  Returns 0, or -1 with *msg (under mem_ctx) naming both
 * directories.  A check that cannot be made (no /proc, another user's
 * processes) is skipped: it refuses only on evidence of a held lock.
 */
int dirlock_nest_check(void *mem_ctx, const struct dirlock_entry *e,
		       unsigned n, char **msg);

#endif
