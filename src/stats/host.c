/*
 * host.c - the facts of a run's host (host.h): uname(), sysconf() and,
 * per target directory, realpath(), stat() and the mount that holds it
 * (/proc/self/mountinfo, or statfs() when no mount line matches).
 */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <talloc.h>
#include <unistd.h>

#include "stats/host.h"

/*
 * The options of a mount: its own (per mount point), then those of its
 * superblock not already said ("rw,relatime" and "rw,errors=remount-ro"
 * give "rw,relatime,errors=remount-ro").  Returns a string under mem.
 */
static char *join_options(void *mem, const char *mnt, const char *super)
{
	char *out = talloc_strdup(mem, mnt);
	char *copy = talloc_strdup(mem, super ? super : "");
	char *save = NULL;

	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL;
	     t != NULL && out != NULL; t = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(t);
		const char *p = out;
		bool seen = false;

		while (!seen && (p = strstr(p, t)) != NULL) {
			seen = (p == out || p[-1] == ',') &&
			       (p[len] == ',' || p[len] == '\0');
			p++;
		}
		if (!seen)
			out = talloc_asprintf_append(out, "%s%s",
						     out[0] ? "," : "", t);
	}
	talloc_free(copy);
	return out;
}

/*
 * The mount holding dir, from /proc/self/mountinfo: the line whose device
 * is st_dev and whose mount point is the longest prefix of dir's real
 * path.  Fills fstype, source, mount point and options; false if none
 * matched.
 */
static bool find_mount(void *mem, const char *dir, dev_t dev,
		       struct host_dir *d)
{
	char **fstype = &d->fs_type, **source = &d->source;
	char **mnt = &d->mount_point, **opts = &d->mount_options;
	char *real = realpath(dir, NULL);
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0, best = 0;
	bool found = false;

	if (f == NULL) {
		free(real);
		return false;
	}
	while (getline(&line, &cap, f) > 0) {
		unsigned maj, min;
		char *save = NULL, *tok, *fields[6] = { NULL };
		char *sep, *fs, *src, *super;
		int i = 0;

		/* id parent major:minor root mountpoint ... - fstype src ... */
		sep = strstr(line, " - ");
		if (sep == NULL)
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok != NULL && i < 6;
		     tok = strtok_r(NULL, " ", &save))
			fields[i++] = tok;
		if (i < 6 || sscanf(fields[2], "%u:%u", &maj, &min) != 2 ||
		    makedev(maj, min) != dev)
			continue;
		save = NULL;
		fs = strtok_r(sep + 3, " \n", &save);
		src = strtok_r(NULL, " \n", &save);
		super = strtok_r(NULL, " \n", &save);
		size_t len = strlen(fields[4]);
		bool prefix = real == NULL ||
			      strcmp(fields[4], "/") == 0 ||
			      (strncmp(real, fields[4], len) == 0 &&
			       (real[len] == '/' || real[len] == '\0'));

		if (!prefix || (found && len < best))
			continue;
		found = true;
		best = len;
		talloc_free(*fstype);
		talloc_free(*source);
		talloc_free(*mnt);
		talloc_free(*opts);
		*opts = join_options(mem, fields[5], super);
		*fstype = talloc_strdup(mem, fs ? fs : "");
		*source = talloc_strdup(mem, src ? src : "");
		*mnt = talloc_strdup(mem, fields[4]);
	}
	free(line);
	fclose(f);
	free(real);
	return found;
}

/* The first line of file path, its trailing blanks cut; NULL: none. */
static char *read_line(void *mem, const char *path)
{
	char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return NULL;
	n = fgets(buf, sizeof(buf), f) != NULL ? strlen(buf) : 0;
	fclose(f);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return n > 0 ? talloc_strdup(mem, buf) : NULL;
}

/*
 * The model of block device dev, as sysfs says: its device/model, or for
 * a partition its disk's.  NULL where sysfs says nothing (virtio, tmpfs).
 */
static char *device_model(void *mem, dev_t dev)
{
	char path[96];
	char *m;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/device/model",
		 major(dev), minor(dev));
	m = read_line(mem, path);
	if (m != NULL)
		return m;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../device/model",
		 major(dev), minor(dev));
	return read_line(mem, path);
}

/*
 * The CPU's model from /proc/cpuinfo: "model name" (x86), else "Model",
 * "cpu model" or "cpu" (ARM, MIPS, POWER).  NULL when none is said.
 */
static char *cpu_model(void *mem)
{
	static const char *const keys[] = { "model name", "Model",
					    "cpu model", "cpu" };
	char *found[4] = { NULL };
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL, *best = NULL;
	size_t cap = 0;

	if (f == NULL)
		return NULL;
	while (getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');
		size_t klen;

		if (colon == NULL)
			continue;
		klen = (size_t)(colon - line);
		while (klen > 0 && isspace((unsigned char)line[klen - 1]))
			klen--;
		for (unsigned i = 0; i < 4; i++) {
			char *v = colon + 1;
			size_t vlen;

			if (found[i] != NULL || strlen(keys[i]) != klen ||
			    strncmp(line, keys[i], klen) != 0)
				continue;
			v += strspn(v, " \t");
			vlen = strcspn(v, "\n");
			if (vlen > 0)
				found[i] = talloc_strndup(mem, v, vlen);
		}
	}
	free(line);
	fclose(f);
	for (unsigned i = 0; i < 4 && best == NULL; i++)
		best = found[i];
	for (unsigned i = 0; i < 4; i++)
		if (found[i] != best)
			talloc_free(found[i]);
	return best;
}

/* Directory dir into d (strings under mem). */
static void gather_dir(void *mem, const char *dir, struct host_dir *d)
{
	char *real = realpath(dir, NULL);
	struct stat st;
	struct statfs sf;
	struct statvfs sv;

	d->free_bytes = -1;
	d->path = talloc_strdup(mem, dir);
	d->real_path = real != NULL ? talloc_strdup(mem, real) : NULL;
	free(real);
	if (stat(dir, &st) != 0)
		return;
	d->device = talloc_asprintf(mem, "%u:%u", major(st.st_dev),
				    minor(st.st_dev));
	if (!find_mount(mem, dir, st.st_dev, d) && statfs(dir, &sf) == 0)
		d->fs_type = talloc_asprintf(mem, "0x%llx",
					     (unsigned long long)sf.f_type);
	if (statvfs(dir, &sv) == 0)
		d->free_bytes = (int64_t)sv.f_bavail * (int64_t)sv.f_frsize;
	d->device_model = device_model(mem, st.st_dev);
	if (d->device_model == NULL && d->source != NULL &&
	    strncmp(d->source, "/dev/", 5) == 0 && stat(d->source, &st) == 0 &&
	    S_ISBLK(st.st_mode))
		d->device_model = device_model(mem, st.st_rdev);
}

struct host_facts *host_facts_gather(void *mem_ctx, const char *const *dirs,
				     unsigned ndirs)
{
	struct host_facts *h = talloc_zero(mem_ctx, struct host_facts);
	struct utsname u;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long pages = sysconf(_SC_PHYS_PAGES);
	long psize = sysconf(_SC_PAGESIZE);

	if (h == NULL)
		return NULL;
	if (uname(&u) == 0) {
		h->hostname = talloc_strdup(h, u.nodename);
		h->kernel = talloc_strdup(h, u.sysname);
		h->kernel_release = talloc_strdup(h, u.release);
		h->kernel_version = talloc_strdup(h, u.version);
		h->machine = talloc_strdup(h, u.machine);
	}
	h->cpu_model = cpu_model(h);
	h->cpus = cpus > 0 ? cpus : 0;
	h->memory_bytes = pages > 0 && psize > 0 ? (int64_t)pages * psize : 0;
	h->dirs = talloc_zero_array(h, struct host_dir, ndirs ? ndirs : 1);
	if (h->dirs == NULL) {
		talloc_free(h);
		return NULL;
	}
	h->ndirs = ndirs;
	for (unsigned i = 0; i < ndirs; i++)
		gather_dir(h, dirs[i], &h->dirs[i]);
	return h;
}

/* *s copied under mem; false when out of memory. */
static bool copy_str(void *mem, char **s)
{
	if (*s == NULL)
		return true;
	*s = talloc_strdup(mem, *s);
	return *s != NULL;
}

int host_facts_copy(void *mem_ctx, struct host_facts *dst,
		    const struct host_facts *src)
{
	bool ok;

	*dst = *src;
	dst->dirs = talloc_zero_array(mem_ctx, struct host_dir,
				      src->ndirs ? src->ndirs : 1);
	ok = dst->dirs != NULL && copy_str(mem_ctx, &dst->hostname) &&
	     copy_str(mem_ctx, &dst->kernel) &&
	     copy_str(mem_ctx, &dst->kernel_release) &&
	     copy_str(mem_ctx, &dst->kernel_version) &&
	     copy_str(mem_ctx, &dst->machine) &&
	     copy_str(mem_ctx, &dst->cpu_model);
	for (uint32_t i = 0; ok && i < src->ndirs; i++) {
		struct host_dir *d = &dst->dirs[i];

		*d = src->dirs[i];
		ok = copy_str(mem_ctx, &d->path) &&
		     copy_str(mem_ctx, &d->real_path) &&
		     copy_str(mem_ctx, &d->device) &&
		     copy_str(mem_ctx, &d->fs_type) &&
		     copy_str(mem_ctx, &d->source) &&
		     copy_str(mem_ctx, &d->mount_point) &&
		     copy_str(mem_ctx, &d->mount_options) &&
		     copy_str(mem_ctx, &d->device_model);
	}
	return ok ? 0 : -1;
}
