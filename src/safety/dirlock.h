/*
 * dirlock.h - one dbench at a time per target directory.
 *
 * Two runs on one -D remove each other's trees and both report nonsense.
 * Each run (load runs and --disk-test) holds an exclusive flock() on
 * DIR/.dbench.lock for as long as it works in DIR; a second run is refused
 * before it creates or forks anything, naming the first one's PID.
 *
 * Invariants: the lock file is opened with O_NOFOLLOW (a symlink planted
 * at DIR/.dbench.lock is never followed: the run is refused), never
 * blocks on a FIFO, and is removed at the end only by the process that
 * created it, and only while the path still names the file it locked.
 * The lock lives as long as its talloc object: freeing it (or its
 * parent) releases it.  Processes forked meanwhile share the lock; when
 * one of them frees its copy of the object, only its descriptor closes.
 */
#ifndef DBENCH_DIRLOCK_H
#define DBENCH_DIRLOCK_H

/* The name of the lock file in each target directory. */
#define DIRLOCK_NAME ".dbench.lock"

struct dirlock;

/*
 * Lock every directory of dirs (a directory named twice, or reached by
 * two names, is locked once).  Returns a lock object allocated under
 * mem_ctx, holding them all; or NULL with *msg (under mem_ctx) saying
 * why: "another dbench (pid N) is using DIR", a symlink or other
 * non-file at DIR/.dbench.lock, or the system call that failed and its
 * strerror.  On failure no lock is held and no lock file created here
 * is left behind.
 */
struct dirlock *dirlock_acquire(void *mem_ctx, const char *const *dirs,
				unsigned ndirs, char **msg);

/*
 * Release the locks and remove the lock files this process created and
 * still names; frees l.  Safe with NULL.  Equivalent to talloc_free(l).
 */
void dirlock_release(struct dirlock *l);

#endif
