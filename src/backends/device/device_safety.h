/*
 * device_safety.h - what a device holds, checked before a device backend
 * writes to it (device_safety.c).
 */
#ifndef DBENCH_DEVICE_SAFETY_H
#define DBENCH_DEVICE_SAFETY_H

#include <sys/types.h>

/*
 * Everything that says the block device at path (major:minor dev) is in
 * use or holds data: mounted (in this mount namespace), swap, held by
 * device-mapper or md, a partition mounted, the disk it is a partition of
 * mounted, a partition table, a filesystem, an LVM or RAID signature.
 * Returns "; "-separated phrases under mem, or NULL when nothing was
 * found.
 */
char *device_in_use(void *mem, const char *path, dev_t dev);

#endif
