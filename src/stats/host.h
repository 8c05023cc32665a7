/*
 * host.h - what a run's host is: uname, CPUs, memory, and for each target
 * directory its real path, device and mount.  Gathered once at the start
 * of a run (run.c) and carried in the run result (result.h), so that the
 * writers describe the host without probing it and, under MPI, every
 * rank's facts reach rank 0 with its result.
 *
 * Ownership: host_facts_gather() returns one talloc tree; host_facts_copy()
 * copies the strings under the context it is given.
 */
#ifndef DBENCH_HOST_H
#define DBENCH_HOST_H

#include <stdint.h>

/* One target directory as this host sees it.  NULL: not found out. */
struct host_dir {
	char *path;		/* as given (-D) */
	char *real_path;	/* realpath() */
	char *device;		/* "major:minor" of st_dev; NULL: no stat() */
	char *fs_type;		/* the mount's, or statfs f_type as "0x..."
				 * when no mount matched */
	char *source;		/* the mounted device or share */
	char *mount_point;
	char *mount_options;	/* the mount's and the superblock's */
	char *device_model;	/* sysfs .../device/model of its disk */
	int64_t free_bytes;	/* statvfs: free to a user; -1 unknown */
};

struct host_facts {
	uint32_t host;		/* the host's label (rank): 0 on one host */
	/* uname(); all NULL when it failed */
	char *hostname;
	char *kernel;
	char *kernel_release;
	char *kernel_version;
	char *machine;
	char *cpu_model;	/* /proc/cpuinfo's model name */
	int64_t cpus;		/* online; 0 unknown */
	int64_t memory_bytes;	/* 0 unknown */
	uint32_t ndirs;		/* the -D directories, in order */
	struct host_dir *dirs;
};

/*
 * This host's facts, with ndirs directories dirs.  Returns a new object
 * under mem_ctx, or NULL when out of memory.  What cannot be found out is
 * left NULL or 0 (see above).
 */
struct host_facts *host_facts_gather(void *mem_ctx, const char *const *dirs,
				     unsigned ndirs);

/*
 * A deep copy of src into dst, its strings and directories under mem_ctx.
 * Returns 0, or -1 when out of memory.
 */
int host_facts_copy(void *mem_ctx, struct host_facts *dst,
		    const struct host_facts *src);

#endif
