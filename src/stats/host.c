/*
 * host.c - the facts of a run's host (host.h): uname(), sysconf() and,
 * per target directory, realpath(), stat() and the mount that holds it
 * (/proc/self/mountinfo, or statfs() when no mount line matches).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <talloc.h>
#include <unistd.h>

#include "host.h"

/*
 * The mount holding dir, from /proc/self/mountinfo: the line whose device
 * is st_dev and whose mount point is the longest prefix of dir's real
 * path.  Fills fstype, source and mount point; false if none matched.
 */
static bool find_mount(void *mem, const char *dir, dev_t dev, char **fstype,
		       char **source, char **mnt)
{
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
		char *save = NULL, *tok, *fields[5] = { NULL };
		char *sep, *fs, *src;
		int i = 0;

		/* id parent major:minor root mountpoint ... - fstype src ... */
		sep = strstr(line, " - ");
		if (sep == NULL)
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok != NULL && i < 5;
		     tok = strtok_r(NULL, " ", &save))
			fields[i++] = tok;
		if (i < 5 || sscanf(fields[2], "%u:%u", &maj, &min) != 2 ||
		    makedev(maj, min) != dev)
			continue;
		save = NULL;
		fs = strtok_r(sep + 3, " \n", &save);
		src = strtok_r(NULL, " \n", &save);
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
		*fstype = talloc_strdup(mem, fs ? fs : "");
		*source = talloc_strdup(mem, src ? src : "");
		*mnt = talloc_strdup(mem, fields[4]);
	}
	free(line);
	fclose(f);
	free(real);
	return found;
}

/* Directory dir into d (strings under mem). */
static void gather_dir(void *mem, const char *dir, struct host_dir *d)
{
	char *real = realpath(dir, NULL);
	struct stat st;
	struct statfs sf;

	d->path = talloc_strdup(mem, dir);
	d->real_path = real != NULL ? talloc_strdup(mem, real) : NULL;
	free(real);
	if (stat(dir, &st) != 0)
		return;
	d->device = talloc_asprintf(mem, "%u:%u", major(st.st_dev),
				    minor(st.st_dev));
	if (!find_mount(mem, dir, st.st_dev, &d->fs_type, &d->source,
			&d->mount_point) &&
	    statfs(dir, &sf) == 0)
		d->fs_type = talloc_asprintf(mem, "0x%llx",
					     (unsigned long long)sf.f_type);
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
	     copy_str(mem_ctx, &dst->machine);
	for (uint32_t i = 0; ok && i < src->ndirs; i++) {
		struct host_dir *d = &dst->dirs[i];

		*d = src->dirs[i];
		ok = copy_str(mem_ctx, &d->path) &&
		     copy_str(mem_ctx, &d->real_path) &&
		     copy_str(mem_ctx, &d->device) &&
		     copy_str(mem_ctx, &d->fs_type) &&
		     copy_str(mem_ctx, &d->source) &&
		     copy_str(mem_ctx, &d->mount_point);
	}
	return ok ? 0 : -1;
}
