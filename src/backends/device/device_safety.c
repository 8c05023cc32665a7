/*
 * device_safety.c - what a device holds, before dbench writes to it: is
 * it mounted (or a partition of it, or the disk it is a partition of),
 * used as swap, held by device-mapper or RAID (its holders), and does it
 * carry a partition table, a filesystem, an LVM or RAID signature
 * (libblkid)?  The device backends refuse such a device for writes
 * unless --force-device is given, naming everything that was found.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <talloc.h>

#ifdef HAVE_BLKID
#include <blkid/blkid.h>
#endif

#include "backends/device/device_safety.h"

/* Append "; what" (or "what" first) to *found. */
static void note(void *mem, char **found, const char *what)
{
	if (what == NULL)
		return;
	*found = *found == NULL ? talloc_strdup(mem, what) :
		 talloc_asprintf_append(*found, "; %s", what);
}

/* Where device dev (major:minor) is mounted, from this namespace's
 * mountinfo: "mounted on DIR" for the first, or NULL. */
static char *mounted_on(void *mem, dev_t dev, const char *name)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], *res = NULL;

	if (f == NULL)
		return NULL;
	while (res == NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned maj, min;
		char mnt[2048];

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... */
		if (sscanf(line, "%*u %*u %u:%u %*s %2047s", &maj, &min,
			   mnt) != 3)
			continue;
		if (makedev(maj, min) == dev)
			res = talloc_asprintf(mem, "%s is mounted on %s", name,
					      mnt);
	}
	fclose(f);
	return res;
}

/* Is dev a swap area of /proc/swaps?  (Its lines name device paths.) */
static char *swap_on(void *mem, dev_t dev, const char *name)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[4096], *res = NULL;

	if (f == NULL)
		return NULL;
	while (res == NULL && fgets(line, sizeof(line), f) != NULL) {
		char path[2048];
		struct stat st;

		if (sscanf(line, "%2047s", path) == 1 &&
		    stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
		    st.st_rdev == dev)
			res = talloc_asprintf(mem, "%s is in use as swap",
					      name);
	}
	fclose(f);
	return res;
}

/* The major:minor in a sysfs "dev" file, or 0. */
static dev_t sysfs_dev(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned maj, min;
	dev_t d = 0;

	if (f == NULL)
		return 0;
	if (fscanf(f, "%u:%u", &maj, &min) == 2)
		d = makedev(maj, min);
	fclose(f);
	return d;
}

/* Holders (device-mapper, md) of the device whose sysfs directory is
 * dir: "held by dm-0" for the first, or NULL. */
static char *held_by(void *mem, const char *dir, const char *name)
{
	char *path = talloc_asprintf(mem, "%s/holders", dir);
	DIR *d = path ? opendir(path) : NULL;
	struct dirent *e;
	char *res = NULL;

	while (d != NULL && res == NULL && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			res = talloc_asprintf(mem, "%s is held by %s (a device-"
					      "mapper, LVM or RAID device "
					      "uses it)", name, e->d_name);
	if (d != NULL)
		closedir(d);
	talloc_free(path);
	return res;
}

/*
 * The mounts, swap and holders of the device's partitions (a disk) or of
 * the disk it is a partition of.
 */
static void related(void *mem, dev_t dev, const char *name, char **found)
{
	char *dir = talloc_asprintf(mem, "/sys/dev/block/%u:%u",
				    major(dev), minor(dev));
	char *real = dir ? realpath(dir, NULL) : NULL;
	char *parent = NULL;
	DIR *d;
	struct dirent *e;

	if (real == NULL) {
		talloc_free(dir);
		return;
	}
	note(mem, found, held_by(mem, real, name));
	/* its partitions: subdirectories with a "partition" file */
	d = opendir(real);
	while (d != NULL && (e = readdir(d)) != NULL) {
		char *p = talloc_asprintf(mem, "%s/%s/partition", real,
					  e->d_name);
		char *devf = talloc_asprintf(mem, "%s/%s/dev", real,
					     e->d_name);
		char *pname = talloc_asprintf(mem, "%s's partition %s", name,
					      e->d_name);
		dev_t pd;

		if (e->d_name[0] != '.' && p && devf && pname &&
		    access(p, F_OK) == 0 && (pd = sysfs_dev(devf)) != 0) {
			note(mem, found, mounted_on(mem, pd, pname));
			note(mem, found, swap_on(mem, pd, pname));
		}
		talloc_free(p);
		talloc_free(devf);
		talloc_free(pname);
	}
	if (d != NULL)
		closedir(d);
	/* a partition: the disk it is on is the parent directory */
	parent = talloc_asprintf(mem, "%s/partition", real);
	if (parent != NULL && access(parent, F_OK) == 0) {
		char *slash = strrchr(real, '/');
		char *devf;
		dev_t pd;

		if (slash != NULL) {
			*slash = '\0';
			devf = talloc_asprintf(mem, "%s/dev", real);
			if (devf && (pd = sysfs_dev(devf)) != 0) {
				char *dname = talloc_asprintf(
					mem, "the disk %s is a partition of",
					name);

				note(mem, found, mounted_on(mem, pd, dname));
			}
		}
	}
	free(real);
}

/* What libblkid finds on the device: a partition table, a filesystem, an
 * LVM or RAID signature. */
static void signatures(void *mem, const char *path, const char *name,
		       char **found)
{
#ifdef HAVE_BLKID
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *type = NULL, *usage = NULL;
	int rc;

	if (pr == NULL) {
		note(mem, found, talloc_asprintf(mem, "%s cannot be probed "
						 "for signatures: %s", name,
						 strerror(errno)));
		return;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == -2) {
		note(mem, found, talloc_asprintf(mem, "%s holds more than "
						 "one signature", name));
	} else if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0)
			note(mem, found, talloc_asprintf(
				mem, "%s holds a partition table (%s)", name,
				type));
		else if (blkid_probe_lookup_value(pr, "TYPE", &type,
						  NULL) == 0) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			note(mem, found, talloc_asprintf(
				mem, "%s holds %s signature (%s)", name,
				usage && strcmp(usage, "raid") == 0 ?
					"a RAID or LVM" :
				usage && strcmp(usage, "filesystem") == 0 ?
					"a filesystem" :
					"a",
				type));
		}
	} else if (rc < 0) {
		note(mem, found, talloc_asprintf(mem, "%s cannot be probed "
						 "for signatures", name));
	}
	blkid_free_probe(pr);
#else
	(void)path;
	note(mem, found, talloc_asprintf(mem, "%s cannot be probed for "
					 "signatures (dbench was built "
					 "without libblkid)", name));
#endif
}

char *device_in_use(void *mem, const char *path, dev_t dev)
{
	char *found = NULL;

	note(mem, &found, mounted_on(mem, dev, path));
	note(mem, &found, swap_on(mem, dev, path));
	related(mem, dev, path, &found);
	signatures(mem, path, path, &found);
	return found;
}
