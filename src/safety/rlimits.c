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
 *
 * Root is exempt from RLIMIT_NPROC but not from kernel.pid_max,
 * kernel.threads-max or a cgroup's pids.max: those are checked for
 * everyone, so that `dbench 100000` is refused instead of taking the
 * host's last PIDs.
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

#include "safety/rlimits.h"

/* capability bits that lift RLIMIT_NPROC (linux/capability.h) */
#define RL_CAP_SYS_ADMIN	21
#define RL_CAP_SYS_RESOURCE	24

/* descriptors a worker holds besides its clients' (stdio, gate, margin) */
#define RL_FDS_BASE		16

/* Does op open a handle when it goes as the loadfile expects?  An open
 * expected to fail (ERROR, or a status other than success) holds nothing. */
static bool rl_op_opens(const struct op *op)
{
	if (op->kind != OP_NTCREATEX && op->kind != OP_OPEN5)
		return false;
	return op->check == STATUS_ANY || op->check == STATUS_SUCCESS ||
	       (op->check == STATUS_EXACT && op->status == 0);
}

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
		if (rl_op_opens(op) && !open[h]) {
			open[h] = true;
			if (++now > max)
				max = now;
		} else if ((op->kind == OP_CLOSE || op->kind == OP_CLOSE5) &&
			   open[h]) {
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
		const struct path *path = &p->paths[i];
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

/* What is short, by how much, and the advice that can help: open files
 * are named only for a backend whose clients hold them, fewer clients per
 * process only when a process runs more than one. */
static char *rl_nofile_msg(void *mem_ctx, const struct backend *be,
			   const struct dbench_options *o, unsigned per,
			   uint64_t need, uint64_t per_client,
			   uint32_t max_open, uint32_t max_dirs,
			   uint64_t limit)
{
	bool files = max_open > 0 && be->client_fds != NULL &&
		     be->client_fds(o, 0, max_dirs) != per_client;
	char *what = files ?
		talloc_asprintf(mem_ctx, "up to %u open files per client",
				max_open) :
		talloc_asprintf(mem_ctx, "%llu per client",
				(unsigned long long)per_client);

	return talloc_asprintf(
		mem_ctx, "each worker process runs %u clients and needs about "
		"%llu file descriptors (%s), but the limit (ulimit -n) is "
		"%llu; %s", per, (unsigned long long)need,
		what != NULL ? what : "?", (unsigned long long)limit,
		per > 1 ? "use fewer --clients-per-process or raise the limit" :
			  "raise the limit");
}

static int rl_check_nofile(void *mem_ctx, const struct dbench_options *o,
			   const struct backend *be,
			   struct program *const *progs, unsigned nprogs,
			   char **msg)
{
	unsigned first, per = clients_of_proc(o, 0, &first);
	uint32_t max_open = 0, max_dirs = 0;
	struct rlimit rl;
	uint64_t need, per_client;

	/* the busiest program for every client of the busiest worker */
	for (unsigned i = 0; i < nprogs; i++) {
		uint32_t m = rlimits_max_open(progs[i]);
		uint32_t d = rlimits_max_dirs(progs[i]);

		if (m > max_open)
			max_open = m;
		if (d > max_dirs)
			max_dirs = d;
	}
	per_client = be->client_fds == NULL ? 0 :
		     be->client_fds(o, max_open, max_dirs);
	need = rlimits_fds_needed(per, per_client);
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
	*msg = rl_nofile_msg(mem_ctx, be, o, per, need, per_client, max_open,
			     max_dirs,
			     rl.rlim_max != RLIM_INFINITY &&
					     rl.rlim_max > rl.rlim_cur ?
				     (uint64_t)rl.rlim_max :
				     (uint64_t)rl.rlim_cur);
	return -1;
}

/* ---- kernel.pid_max, kernel.threads-max, the pids cgroup ---- */

/* PIDs below this are not reused once the counter wraps (RESERVED_PIDS) */
#define RL_RESERVED_PIDS 300
/* the most a /proc or cgroup file read here may hold */
#define RL_TEXT_MAX	 (4u << 20)

static uint64_t rl_left(uint64_t limit, uint64_t used)
{
	return used < limit ? limit - used : 0;
}

int rlimits_pids_fit(void *mem_ctx, const struct rlimits_pids *room,
		     unsigned nprocs, unsigned nclients,
		     unsigned clients_per_process, char **msg)
{
	const struct {
		const char *name;
		uint64_t value, usable;
	} kernel[] = {
		{ "kernel.pid_max", room->pid_max,
		  rl_left(room->pid_max, RL_RESERVED_PIDS) },
		{ "kernel.threads-max", room->threads_max, room->threads_max },
	};
	uint64_t left;

	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++) {
		if (kernel[i].value == 0)
			continue;
		left = rl_left(kernel[i].usable, room->tasks);
		if ((uint64_t)nprocs + RLIMITS_PIDS_SPARE <= left)
			continue;
		*msg = talloc_asprintf(
			mem_ctx, "%u clients need %u worker processes, but "
			"%s is %llu and %llu tasks already run on this "
			"system, which leaves room for %llu, %u of them kept "
			"for the rest of the system; use fewer clients or "
			"more --clients-per-process (now %u)", nclients,
			nprocs, kernel[i].name,
			(unsigned long long)kernel[i].value,
			(unsigned long long)room->tasks,
			(unsigned long long)left, RLIMITS_PIDS_SPARE,
			clients_per_process);
		return -1;
	}
	if (room->cg_max == 0 ||
	    nprocs <= rl_left(room->cg_max, room->cg_current))
		return 0;
	*msg = talloc_asprintf(
		mem_ctx, "%u clients need %u worker processes, but the "
		"cgroup %s allows %llu tasks (pids.max) and already has %llu "
		"(pids.current); use fewer clients, more "
		"--clients-per-process (now %u) or raise its pids.max",
		nclients, nprocs, room->cg_dir ? room->cg_dir : "?",
		(unsigned long long)room->cg_max,
		(unsigned long long)room->cg_current, clients_per_process);
	return -1;
}

/* Is name one of the comma-separated items of list? */
static bool rl_has_item(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p != NULL; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	}
	return false;
}

/* The cgroup path of /proc/self/cgroup for the pids controller: v1's
 * "N:...pids...:PATH" (*v1 set), else v2's "0::PATH"; NULL if neither. */
static const char *rl_cgroup_path(char *text, bool *v1)
{
	const char *v2path = NULL;
	char *save = NULL;

	*v1 = false;
	for (char *line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *ctrl = strchr(line, ':'), *path;

		if (ctrl == NULL || (path = strchr(ctrl + 1, ':')) == NULL)
			continue;
		*ctrl++ = '\0';
		*path++ = '\0';
		if (rl_has_item(ctrl, "pids")) {
			*v1 = true;
			return path;
		}
		if (strcmp(line, "0") == 0 && *ctrl == '\0')
			v2path = path;
	}
	return v2path;
}

/* mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE
 * SOURCE SUPEROPTS".  Splits line in place; 0 or -1 if malformed. */
static int rl_mount_fields(char *line, char **root, char **mp, char **fstype,
			   char **superopts)
{
	char *f[32], *save = NULL;
	unsigned n = 0, dash = 0;

	for (char *t = strtok_r(line, " ", &save); t != NULL && n < 32;
	     t = strtok_r(NULL, " ", &save)) {
		if (dash == 0 && n >= 6 && strcmp(t, "-") == 0)
			dash = n;
		f[n++] = t;
	}
	if (dash == 0 || dash + 3 >= n)
		return -1;
	*root = f[3];
	*mp = f[4];
	*fstype = f[dash + 1];
	*superopts = f[dash + 3];
	return 0;
}

int rlimits_pids_cgroup(void *mem_ctx, const char *proc_cgroup,
			const char *mountinfo, char **dir, char **top)
{
	void *tmp = talloc_new(NULL);
	char *cg = talloc_strdup(tmp, proc_cgroup);
	char *mi = talloc_strdup(tmp, mountinfo), *save = NULL;
	const char *path;
	bool v1;
	int rc = -1;

	if (cg == NULL || mi == NULL ||
	    (path = rl_cgroup_path(cg, &v1)) == NULL || path[0] != '/')
		goto out;
	for (char *line = strtok_r(mi, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *root, *mp, *fstype, *opts;
		size_t rlen;

		if (rl_mount_fields(line, &root, &mp, &fstype, &opts) != 0)
			continue;
		if (v1 ? strcmp(fstype, "cgroup") != 0 ||
				 !rl_has_item(opts, "pids") :
			 strcmp(fstype, "cgroup2") != 0)
			continue;
		/* the part of our path below the mount's root */
		rlen = strcmp(root, "/") == 0 ? 0 : strlen(root);
		if (strncmp(path, root, rlen) != 0 ||
		    (path[rlen] != '/' && path[rlen] != '\0'))
			continue;
		*top = talloc_strdup(mem_ctx, mp);
		*dir = talloc_asprintf(mem_ctx, "%s%s", mp,
				       strcmp(path + rlen, "/") == 0 ?
					       "" : path + rlen);
		rc = *top != NULL && *dir != NULL ? 0 : -1;
		break;
	}
out:
	talloc_free(tmp);
	return rc;
}

/* A whole small file as a string under mem_ctx, or NULL. */
static char *rl_read_text(void *mem_ctx, const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = talloc_array(mem_ctx, char, cap);
	FILE *f = fopen(path, "re");
	size_t n;

	if (f == NULL || buf == NULL)
		goto fail;
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			char *b = cap < RL_TEXT_MAX ?
					  talloc_realloc(mem_ctx, buf, char,
							 cap * 2) :
					  NULL;
			if (b == NULL)
				goto fail;
			buf = b;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
fail:
	if (f != NULL)
		fclose(f);
	talloc_free(buf);
	return NULL;
}

/* A number in a /proc or cgroup file; 0 if unreadable or "max". */
static uint64_t rl_read_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* Tasks on the whole system: the 4th field of /proc/loadavg, "R/TOTAL". */
static uint64_t rl_system_tasks(void)
{
	unsigned long long running, total = 0;
	double a, b, c;
	FILE *f = fopen("/proc/loadavg", "re");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lf %lf %lf %llu/%llu", &a, &b, &c, &running,
		   &total) != 5)
		total = 0;
	fclose(f);
	return total;
}

/* The tightest pids.max from our cgroup up to its hierarchy's root (a
 * limit binds every cgroup below it, and its pids.current counts them). */
static void rl_cgroup_room(void *mem_ctx, struct rlimits_pids *room)
{
	char *cg = rl_read_text(mem_ctx, "/proc/self/cgroup");
	char *mi = rl_read_text(mem_ctx, "/proc/self/mountinfo");
	char *dir = NULL, *top = NULL, *slash;
	uint64_t best = UINT64_MAX;

	if (cg == NULL || mi == NULL ||
	    rlimits_pids_cgroup(mem_ctx, cg, mi, &dir, &top) != 0)
		return;
	for (;;) {
		char *p = talloc_asprintf(mem_ctx, "%s/pids.max", dir);
		uint64_t max = p != NULL ? rl_read_u64(p) : 0, cur;

		if (max != 0) {
			p = talloc_asprintf(mem_ctx, "%s/pids.current", dir);
			cur = p != NULL ? rl_read_u64(p) : 0;
			if (rl_left(max, cur) < best) {
				best = rl_left(max, cur);
				room->cg_max = max;
				room->cg_current = cur;
				room->cg_dir = talloc_strdup(mem_ctx, dir);
			}
		}
		slash = strrchr(dir, '/');
		if (strcmp(dir, top) == 0 || slash == NULL ||
		    (size_t)(slash - dir) < strlen(top))
			break;
		*slash = '\0';
	}
}

static int rl_check_pids(void *mem_ctx, const struct dbench_options *o,
			 unsigned nprocs, char **msg)
{
	struct rlimits_pids room = {
		.pid_max = rl_read_u64("/proc/sys/kernel/pid_max"),
		.threads_max = rl_read_u64("/proc/sys/kernel/threads-max"),
		.tasks = rl_system_tasks(),
	};
	void *tmp = talloc_new(mem_ctx);
	int rc;

	rl_cgroup_room(tmp, &room);
	rc = rlimits_pids_fit(mem_ctx, &room, nprocs, o->nclients,
			      o->clients_per_process, msg);
	talloc_free(tmp);
	return rc;
}

int rlimits_check(void *mem_ctx, const struct dbench_options *o,
		  const struct backend *be, struct program *const *progs,
		  unsigned nprogs, char **msg)
{
	unsigned nprocs = clients_procs(o);

	*msg = NULL;
	if (rl_check_nofile(mem_ctx, o, be, progs, nprogs, msg) != 0)
		return -1;
	if (rl_check_nproc(mem_ctx, o, nprocs, msg) != 0)
		return -1;
	return rl_check_pids(mem_ctx, o, nprocs, msg);
}
