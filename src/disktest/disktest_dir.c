/*
 * disktest_dir.c - a directory's disk test: its test file (O_TMPFILE, or
 * a unique random name with O_EXCL and O_NOFOLLOW, removed at the end,
 * also when interrupted), the stale files of killed runs, the runs of
 * every measurement in order, and disktest_run() over the directories.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include <talloc.h>

#include "disktest/disktest.h"
#include "dt_private.h"
#include "stats/stats.h"

/* Is row k finished for good (nothing more to run)? */
static bool dt_row_closed(const struct disktest_row *row)
{
	return row->state == DT_NOT_SUPPORTED || row->state == DT_FAILED ||
	       row->state == DT_NOT_EVICTED;
}

static void dt_mark_rest(struct disktest_dir *d, void *mem, const char *why)
{
	for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
		struct disktest_row *row = &d->row[k];

		if (row->state == DT_NOT_RUN && row->note == NULL)
			row->note = talloc_strdup(mem, why);
	}
}

/*
 * Note the test files earlier runs left in the directory (a SIGKILL
 * before O_TMPFILE, or on a filesystem without it): they are reported,
 * not removed, since this run did not create them.
 */
static void dt_find_stale(struct dt_ctx *x)
{
	struct disktest_dir *d = x->d;
	int fd = dup(x->dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (dir == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		struct stat st;

		if (strncmp(de->d_name, DT_FILE_PREFIX,
			    strlen(DT_FILE_PREFIX)) != 0)
			continue;
		if (fstatat(x->dirfd, de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
			d->stale_bytes += (uint64_t)st.st_size;
		if (d->nstale < DT_STALE_SHOWN)
			d->stale_names = talloc_asprintf_append(
				d->stale_names ? d->stale_names :
						 talloc_strdup(x->res, ""),
				"%s%s", d->nstale ? ", " : "", de->d_name);
		d->nstale++;
	}
	closedir(dir);
}

/*
 * Create the test file: unnamed (O_TMPFILE) where the filesystem can,
 * else under a new random name (O_EXCL | O_NOFOLLOW: never an existing
 * file or a symlink).  Sets x->fd, x->reopen and d->file (NULL when
 * unnamed).  Returns 0, or -1 with errno set.
 */
static int dt_create(struct dt_ctx *x)
{
	struct disktest_dir *d = x->d;
	const int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC;

	x->fd = openat(x->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (x->fd >= 0) {
		d->file = NULL;
		x->reopen = talloc_asprintf(x->res, "/proc/self/fd/%d", x->fd);
		return x->reopen != NULL ? 0 : (errno = ENOMEM, -1);
	}
	/* no O_TMPFILE here: old kernels say EISDIR, filesystems
	 * EOPNOTSUPP, some EINVAL */
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -1;
	for (unsigned i = 0; i < DT_NAME_ATTEMPTS; i++) {
		talloc_free(d->file);
		d->file = talloc_asprintf(x->res, DT_FILE_PREFIX "%ld.%06llx",
					  (long)getpid(),
					  (unsigned long long)((dt_next(x) ^
								now_ns()) &
							       0xffffff));
		if (d->file == NULL)
			return errno = ENOMEM, -1;
		x->fd = openat(x->dirfd, d->file, flags | O_CREAT | O_EXCL,
			       0600);
		if (x->fd >= 0) {
			x->reopen = talloc_strdup(x->res, d->file);
			return x->reopen != NULL ? 0 : (errno = ENOMEM, -1);
		}
		if (errno != EEXIST)
			break;
	}
	talloc_free(d->file);
	d->file = NULL;
	return -1;
}

/* Run k once (run from 0), telling cfg->progress before and after. */
static enum dt_outcome dt_run_told(struct dt_ctx *x, enum disktest_kind k,
				   unsigned run)
{
	const struct disktest_config *cfg = x->cfg;
	struct disktest_row *row = &x->d->row[k];
	struct disktest_progress p = {
		.dir = x->d->path, .kind = k, .run = run + 1,
		.repeat = cfg->repeat,
	};
	unsigned before = row->nruns;
	uint64_t t0;
	enum dt_outcome o;

	if (cfg->progress == NULL)
		return dt_run(x, k);
	for (unsigned i = 0; i < cfg->ndirs; i++)
		if (strlen(cfg->dirs[i]) > p.dir_width)
			p.dir_width = (unsigned)strlen(cfg->dirs[i]);
	cfg->progress(cfg->progress_arg, &p);
	t0 = now_ns();
	o = dt_run(x, k);
	p.done = true;
	p.seconds = (double)(now_ns() - t0) / 1e9;
	p.stopped = o == DT_RUN_STOPPED;
	p.measured = o == DT_RUN_OK && row->nruns > before;
	p.mbps = p.measured ? row->mbps[before] : 0;
	p.state = p.measured ? DT_MEASURED : row->state;
	cfg->progress(cfg->progress_arg, &p);
	return o;
}

/*
 * The end of a directory's test, however it went: the rows not run say
 * why, the buffer and descriptors are released and the test file
 * (created: it has a name) removed, then the rows summarised.
 */
static void dt_dir_close(struct dt_ctx *x, bool created)
{
	struct disktest_dir *d = x->d;
	const struct disktest_config *cfg = x->cfg;

	if (x->res->interrupted)
		dt_mark_rest(d, x->res, "not run (interrupted)");
	else if (d->row[DT_WRITE].state == DT_FAILED)
		dt_mark_rest(d, x->res, "not run: the write failed");
	if (d->failed_run > 0 && cfg->repeat > 1)
		dt_note(&d->row[DT_WRITE], x->res, "%s (in run %u of %u)",
			d->row[DT_WRITE].note, d->failed_run, cfg->repeat);
	free(x->buf);
	x->buf = NULL;
	talloc_free(x->reopen);
	x->reopen = NULL;
	if (x->dfd >= 0)
		close(x->dfd);
	if (x->fd >= 0)
		close(x->fd);
	if (created && unlinkat(x->dirfd, d->file, 0) != 0 &&
	    errno != ENOENT) {
		struct disktest_row *row = &d->row[DT_WRITE];

		x->res->failed = true;
		dt_note(row, x->res, "%s%scould not remove %s/%s: %s",
			row->note ? row->note : "", row->note ? "; " : "",
			d->path, d->file, strerror(errno));
	}
	if (x->dirfd >= 0)
		close(x->dirfd);
	dt_summarize(d);
}

/* Every run of every measurement not yet closed, in order, to the end,
 * a stop (the row and the result marked interrupted) or a failure that
 * leaves the file unusable (d->failed_run). */
static void dt_runs(struct dt_ctx *x)
{
	struct disktest_dir *d = x->d;

	for (unsigned run = 0; run < x->cfg->repeat; run++) {
		for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
			struct disktest_row *row = &d->row[k];
			enum dt_outcome o;

			if (dt_row_closed(row))
				continue;
			o = dt_stopped(x->cfg) ? DT_RUN_STOPPED :
						    dt_run_told(x, k, run);
			if (o == DT_RUN_STOPPED) {
				row->interrupted = true;
				x->res->interrupted = true;
				return;
			}
			if (o == DT_RUN_FATAL) {
				d->failed_run = run + 1;
				return;
			}
		}
	}
}

/* All runs in one directory; the file is gone when this returns. */
static void dt_dir(struct dt_ctx *x)
{
	struct disktest_dir *d = x->d;
	size_t align = (size_t)sysconf(_SC_PAGESIZE);
	void *buf = NULL;
	bool created = false;

	x->fd = x->dfd = -1;
	x->buf = NULL;
	x->dirfd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x->dirfd < 0) {
		dt_failed(x, DT_WRITE, d->path, errno);
		goto out;
	}
	dt_find_stale(x);
	if (dt_create(x) != 0) {
		char *what = talloc_asprintf(x->res, "create a test file in %s",
					     d->path);

		dt_failed(x, DT_WRITE, what ? what : "create", errno);
		talloc_free(what);
		goto out;
	}
	created = d->file != NULL;
	dt_setup_direct(x);
	if (d->dio_mem_align > align)
		align = d->dio_mem_align;
	if (posix_memalign(&buf, align, x->res->block_size) != 0) {
		dt_failed(x, DT_WRITE, "buffer", ENOMEM);
		goto out;
	}
	x->buf = buf;
	dt_fill(x);
	dt_runs(x);
out:
	dt_dir_close(x, created);
}

static int dt_init_dir(struct disktest_result *res,
		       const struct disktest_config *cfg, unsigned i)
{
	struct disktest_dir *d = &res->dirs[i];

	d->path = talloc_strdup(res, cfg->dirs[i]);
	if (d->path == NULL)
		return -1;
	for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
		struct disktest_row *row = &d->row[k];

		row->resident_pct = -1;
		row->mbps = talloc_zero_array(res, double, cfg->repeat);
		row->lat = talloc_zero(res, struct histogram);
		if (row->mbps == NULL || row->lat == NULL)
			return -1;
		if (k == DT_WRITE) {
			row->flush_ns = talloc_zero_array(res, uint64_t,
							  cfg->repeat);
			if (row->flush_ns == NULL)
				return -1;
		}
	}
	return 0;
}

struct disktest_result *disktest_run(void *mem_ctx,
				     const struct disktest_config *cfg)
{
	struct disktest_result *res = talloc_zero(mem_ctx,
						  struct disktest_result);
	struct dt_ctx x = { .cfg = cfg, .res = res };

	if (res == NULL)
		return NULL;
	res->block_size = cfg->block_size;
	res->repeat = cfg->repeat;
	res->drop_caches = cfg->drop_caches;
	res->ndirs = cfg->ndirs;
	res->dirs = talloc_zero_array(res, struct disktest_dir, cfg->ndirs);
	x.run_lat = talloc_zero(res, struct histogram);
	x.seed = 0x6462656e6368ull ^ (uint64_t)getpid();
	if (res->dirs == NULL || x.run_lat == NULL)
		goto nomem;
	for (unsigned i = 0; i < cfg->ndirs; i++)
		if (dt_init_dir(res, cfg, i) != 0)
			goto nomem;

	for (unsigned i = 0; i < cfg->ndirs; i++) {
		struct disktest_dir *d = &res->dirs[i];
		char *why = NULL;

		x.d = d;
		if (res->interrupted || dt_stopped(cfg)) {
			res->interrupted = true;
			dt_mark_rest(d, res, "not run (interrupted)");
			continue;
		}
		if (dt_fs_space(d->path, &d->free_bytes, &d->total_bytes) != 0) {
			dt_failed(&x, DT_WRITE, "statvfs", errno);
			dt_mark_rest(d, res, "not run");
			continue;
		}
		if (disktest_plan_size(res, d->path, cfg->size,
				       cfg->block_size, d->free_bytes,
				       d->total_bytes, &d->size,
				       &d->size_reduced, &why) != 0) {
			d->row[DT_WRITE].state = DT_FAILED;
			d->row[DT_WRITE].note = why;
			res->failed = true;
			dt_mark_rest(d, res, "not run");
			continue;
		}
		dt_dir(&x);
	}
	if (cfg->stop != NULL && *cfg->stop != 0) {
		res->interrupted = true;
		res->signal = (int)*cfg->stop;
	}
	talloc_free(x.run_lat);
	return res;

nomem:
	talloc_free(res);
	return NULL;
}
