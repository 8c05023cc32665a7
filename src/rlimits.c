/*
 * rlimits.c - refuse, before forking, a run the resource limits cannot
 * carry.
 *
 * Workers are separate processes, so the number of clients counts against
 * RLIMIT_NPROC (one process per --clients-per-process clients), and the
 * descriptors a worker holds grow with the clients it runs (how many one
 * client holds is the backend's to say: ->client_fds).  Both are checked
 * up front; a limit that still bites later (other processes of the
 * user started meanwhile, a loop that opens more than the estimate) shows
 * as a clear error from fork or open, never as a crash.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

#include <talloc.h>

#include "rlimits.h"

/* capability bits that lift RLIMIT_NPROC (linux/capability.h) */
#define RL_CAP_SYS_ADMIN	21
#define RL_CAP_SYS_RESOURCE	24

/* descriptors a worker holds besides its clients' (stdio, gate, margin) */
#define RL_FDS_BASE		16

uint32_t rlimits_max_open(const struct program *p)
{
	bool *open = calloc(p->nhandles > 0 ? p->nhandles : 1, sizeof(bool));
	uint32_t now = 0, max = 0;

	if (open == NULL)
		return p->nhandles;	/* the safe side */
	for (uint32_t i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];
		int32_t h = op->handle;

		if (h < 0 || (uint32_t)h >= p->nhandles)
			continue;
		if (op->kind == OP_NTCREATEX && !open[h]) {
			open[h] = true;
			if (++now > max)
				max = now;
		} else if (op->kind == OP_CLOSE && open[h]) {
			open[h] = false;
			now--;
		}
	}
	free(open);
	return max;
}

/* A path's directory: the first len bytes of its text. */
struct rl_dir {
	const char *text;
	size_t len;
};

static uint64_t rl_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

/* Add d to the open-addressing set (size a power of two, never full);
 * true if it was not there yet. */
static bool rl_dir_add(struct rl_dir *set, size_t size, struct rl_dir d)
{
	size_t i = (size_t)rl_hash(d.text, d.len) & (size - 1);

	for (; set[i].text != NULL; i = (i + 1) & (size - 1))
		if (set[i].len == d.len &&
		    memcmp(set[i].text, d.text, d.len) == 0)
			return false;
	set[i] = d;
	return true;
}

uint32_t rlimits_max_dirs(const struct program *p)
{
	size_t size = 16;
	struct rl_dir *set;
	uint32_t n = 0;

	while (size < 2 * (size_t)p->npaths)
		size *= 2;
	set = calloc(size, sizeof(*set));
	if (set == NULL)
		return UINT32_MAX;	/* the safe side */
	for (uint32_t i = 0; i < p->npaths; i++) {
		const struct path *path = p->paths[i];
		const char *slash = memrchr(path->text, '/', path->len);

		if (path->has_random) {
			n = UINT32_MAX;	/* any directory at all */
			break;
		}
		if (slash != NULL && slash > path->text &&
		    rl_dir_add(set, size, (struct rl_dir){
				       path->text,
				       (size_t)(slash - path->text) }))
			n++;
	}
	free(set);
	return n;
}

uint64_t rlimits_fds_needed(unsigned nclients, uint64_t client_fds)
{
	return RL_FDS_BASE + (uint64_t)nclients * client_fds;
}

/* Does this process have a capability that lifts RLIMIT_NPROC? */
static bool rl_nproc_exempt(void)
{
	unsigned long long caps = 0;
	char line[256];
	FILE *f;

	/* the kernel never applies it to root's own user */
	if (getuid() == 0)
		return true;
	f = fopen("/proc/self/status", "re");
	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return (caps & (1ull << RL_CAP_SYS_ADMIN)) != 0 ||
	       (caps & (1ull << RL_CAP_SYS_RESOURCE)) != 0;
}

/* Tasks (threads included) whose real user is ours, as RLIMIT_NPROC
 * counts them; 0 when /proc cannot be read. */
static uint64_t rl_user_tasks(void)
{
	uid_t uid = getuid();
	uint64_t n = 0;
	struct dirent *de;
	char *path, line[256];
	DIR *d = opendir("/proc");

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		unsigned long ruid = (unsigned long)-1, threads = 1;
		FILE *f;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		path = talloc_asprintf(NULL, "/proc/%s/status", de->d_name);
		f = path != NULL ? fopen(path, "re") : NULL;
		talloc_free(path);
		if (f == NULL)
			continue;	/* it has gone */
		while (fgets(line, sizeof(line), f) != NULL) {
			if (sscanf(line, "Uid: %lu", &ruid) == 1)
				continue;
			if (sscanf(line, "Threads: %lu", &threads) == 1)
				break;
		}
		fclose(f);
		if (ruid == (unsigned long)uid)
			n += threads;
	}
	closedir(d);
	return n;
}

static int rl_check_nproc(void *mem_ctx, const struct dbench_options *o,
			  unsigned nprocs, char **msg)
{
	struct rlimit rl;
	uint64_t have;

	if (getrlimit(RLIMIT_NPROC, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	if (rl_nproc_exempt())
		return 0;
	have = rl_user_tasks();
	if ((uint64_t)nprocs + have <= (uint64_t)rl.rlim_cur)
		return 0;
	*msg = talloc_asprintf(
		mem_ctx, "%u clients need %u worker processes, but the "
		"process limit (ulimit -u) is %llu and this user already "
		"runs %llu; give fewer processes (NUMCLIENTS) with more "
		"--clients-per-process each (now %u) or raise the limit",
		o->nclients, nprocs,
		(unsigned long long)rl.rlim_cur, (unsigned long long)have,
		o->clients_per_process);
	return -1;
}

static int rl_check_nofile(void *mem_ctx, const struct dbench_options *o,
			   const struct backend *be,
			   struct program *const *progs, unsigned nprogs,
			   char **msg)
{
	unsigned per = o->clients_per_process < o->nclients ?
			       o->clients_per_process : o->nclients;
	uint32_t max_open = 0, max_dirs = 0;
	struct rlimit rl;
	uint64_t need;

	/* the busiest program for every client of the busiest worker */
	for (unsigned i = 0; i < nprogs; i++) {
		uint32_t m = rlimits_max_open(progs[i]);
		uint32_t d = rlimits_max_dirs(progs[i]);

		if (m > max_open)
			max_open = m;
		if (d > max_dirs)
			max_dirs = d;
	}
	need = rlimits_fds_needed(per, be->client_fds(o, max_open, max_dirs));
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 ||
	    rl.rlim_cur == RLIM_INFINITY || need <= (uint64_t)rl.rlim_cur)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || need <= (uint64_t)rl.rlim_max) {
		struct rlimit raised = { .rlim_cur = (rlim_t)need,
					 .rlim_max = rl.rlim_max };

		/* inherited by the workers */
		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			return 0;
	}
	*msg = talloc_asprintf(
		mem_ctx, "each worker process runs %u clients and needs about "
		"%llu file descriptors (up to %u open files per client), but "
		"the limit (ulimit -n) is %llu; use fewer "
		"--clients-per-process or raise the limit", per,
		(unsigned long long)need, max_open,
		(unsigned long long)(rl.rlim_max != RLIM_INFINITY &&
						     rl.rlim_max > rl.rlim_cur ?
					     rl.rlim_max :
					     rl.rlim_cur));
	return -1;
}

int rlimits_check(void *mem_ctx, const struct dbench_options *o,
		  const struct backend *be, struct program *const *progs,
		  unsigned nprogs, char **msg)
{
	unsigned nprocs = (o->nclients + o->clients_per_process - 1) /
			  o->clients_per_process;

	*msg = NULL;
	if (rl_check_nofile(mem_ctx, o, be, progs, nprogs, msg) != 0)
		return -1;
	return rl_check_nproc(mem_ctx, o, nprocs, msg);
}
