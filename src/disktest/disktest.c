/*
 * disktest.c - `dbench --disk-test`: the administrators' dd measurements
 * as one command that needs no root, no huge file and no cleanup.
 *
 * In each directory, one after the other, an unnamed file is created
 * (O_TMPFILE: a SIGKILL leaves nothing behind; where the filesystem has
 * no O_TMPFILE, a file with a unique random name, O_EXCL and O_NOFOLLOW,
 * removed at the end) and, --repeat
 * times, written sequentially and flushed with fdatasync (the flush is in
 * the time), evicted from the page cache with POSIX_FADV_DONTNEED and read
 * cold, read again hot, overwritten with O_DIRECT and read with O_DIRECT.
 * Every block read or write is timed into a histogram.
 *
 * A number is only shown for what it claims to be: mincore() says how
 * much of the file is still cached before each read, and a cold read
 * whose pages could not be evicted (tmpfs) reports that instead of a
 * speed; direct I/O that the filesystem refuses reports "not supported
 * here".  The file is sized to leave a margin of free space and is
 * removed at the end, also after SIGINT or SIGTERM (the handler only sets
 * a flag that the loops look at between blocks).
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

#include "disktest.h"
#include "stats.h"

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x2000U	/* Linux 6.1; glibc < 2.37 lacks it */
#endif

#define DT_DROP_CACHES	"/proc/sys/vm/drop_caches"
#define DT_MIN_BLOCK	512u
#define DT_MINCORE_WIN	(1ull << 30)	/* bytes mapped at once by mincore */
#define DT_EVICT_ATTEMPTS 3		/* POSIX_FADV_DONTNEED calls */
#define DT_FALLBACK_ALIGN 4096u		/* a multiple of every logical
					 * block size in use */
#define DT_FILE_PREFIX	".dbench-disktest."
#define DT_NAME_ATTEMPTS 100		/* random names tried (O_EXCL) */
#define DT_STALE_SHOWN	3		/* stale names listed by name */

const char *const disktest_kind_name[DT_NUM_KINDS] = {
	[DT_WRITE] = "write+fdatasync",
	[DT_COLD_READ] = "cold read",
	[DT_HOT_READ] = "hot read",
	[DT_DIRECT_WRITE] = "O_DIRECT write",
	[DT_DIRECT_READ] = "O_DIRECT read",
};

/* One directory's test in progress. */
struct dt_ctx {
	const struct disktest_config *cfg;
	struct disktest_result *res;
	struct disktest_dir *d;
	int dirfd;
	int fd;			/* buffered */
	int dfd;		/* O_DIRECT, -1 when not usable */
	char *reopen;		/* the path that opens fd's file again */
	uint8_t *buf;		/* block_size bytes, aligned */
	uint64_t seed;		/* data generator state */
	struct histogram *run_lat;	/* the run in progress */
	uint64_t run_min, run_max, run_count;
};

/* ---- small helpers ---- */

static bool dt_stopped(const struct disktest_config *cfg)
{
	return cfg->stop != NULL && *cfg->stop != 0;
}

/* "16 MiB", "1.5 GiB", "4096 bytes": for messages and the table title. */
static char *dt_size_str(void *mem, uint64_t v)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	int u = -1;
	double x = (double)v;

	while (u < 3 && x >= 1024) {
		x /= 1024;
		u++;
	}
	if (u < 0)
		return talloc_asprintf(mem, "%llu bytes", (unsigned long long)v);
	if (v % (1ull << (10 * (u + 1))) == 0)
		return talloc_asprintf(mem, "%.0f %s", x, unit[u]);
	return talloc_asprintf(mem, "%.1f %s", x, unit[u]);
}

static int dt_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int dt_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Data no filesystem can compress or deduplicate: the buffer is filled
 * with random bytes once (before anything is timed) and every block
 * written gets its own first word.
 */
/* The next random number of the run (splitmix64). */
static uint64_t dt_next(struct dt_ctx *x)
{
	uint64_t z = (x->seed += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void dt_fill(struct dt_ctx *x)
{
	uint64_t *w = (uint64_t *)(void *)x->buf;
	size_t n = x->res->block_size / sizeof(uint64_t);

	for (size_t i = 0; i < n; i++)
		w[i] = dt_next(x);
}

static void dt_stamp(struct dt_ctx *x, uint64_t block_no)
{
	uint64_t v = x->seed ^ (block_no * 0x9E3779B97F4A7C15ull);

	memcpy(x->buf, &v, sizeof(v));
}

static void dt_note(struct disktest_row *row, void *mem, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Set the row's note; the arguments may include the old note. */
static void dt_note(struct disktest_row *row, void *mem, const char *fmt, ...)
{
	va_list ap;
	char *note;

	va_start(ap, fmt);
	note = talloc_vasprintf(mem, fmt, ap);
	va_end(ap);
	talloc_free(row->note);
	row->note = note;
}

/* ---- planning ---- */

uint64_t disktest_margin(uint64_t total_bytes)
{
	uint64_t small = 256ull << 20;

	if (small > total_bytes / 4)
		small = total_bytes / 4;
	return total_bytes / 20 > small ? total_bytes / 20 : small;
}

int disktest_plan_size(void *mem_ctx, const char *dir, uint64_t requested,
		       uint64_t block_size, uint64_t free_bytes,
		       uint64_t total_bytes, uint64_t *size, bool *reduced,
		       char **why)
{
	uint64_t margin = disktest_margin(total_bytes);
	uint64_t usable = free_bytes > margin ? free_bytes - margin : 0;
	void *tmp = talloc_new(mem_ctx);

	*reduced = false;
	if (requested != 0 && requested <= usable) {
		*size = requested;
		talloc_free(tmp);
		return 0;
	}
	if (requested == 0) {
		uint64_t s = DISKTEST_DEFAULT_SIZE;

		if (s > usable) {
			s = usable - usable % block_size;
			*reduced = true;
		}
		if (s >= block_size) {
			*size = s;
			talloc_free(tmp);
			return 0;
		}
	}
	*why = talloc_asprintf(
		mem_ctx,
		"%s: not enough free space for %s%s: %s free, and "
		"%s must stay free for others%s%s",
		dir, requested ? "a " : "a test file of even one ",
		requested ? talloc_asprintf(tmp, "%s test file",
					    dt_size_str(tmp, requested)) :
			    talloc_asprintf(tmp, "%s block",
					    dt_size_str(tmp, block_size)),
		dt_size_str(tmp, free_bytes), dt_size_str(tmp, margin),
		usable >= block_size ? "; the largest --size allowed is " : "",
		usable >= block_size ?
			dt_size_str(tmp, usable - usable % block_size) : "");
	talloc_free(tmp);
	return -1;
}

enum disktest_state disktest_direct_verdict(void *mem_ctx, int open_err,
					    bool align_known,
					    uint32_t mem_align,
					    uint32_t offset_align,
					    uint64_t block_size, char **why)
{
	if (open_err == EINVAL) {
		*why = talloc_asprintf(mem_ctx, "the filesystem refuses "
				       "O_DIRECT (open: %s)",
				       strerror(open_err));
		return DT_NOT_SUPPORTED;
	}
	if (open_err != 0) {
		*why = talloc_asprintf(mem_ctx, "open with O_DIRECT: %s",
				       strerror(open_err));
		return DT_FAILED;
	}
	if (align_known && (mem_align == 0 || offset_align == 0)) {
		*why = talloc_strdup(mem_ctx, "the filesystem reports no "
				     "direct I/O support (statx)");
		return DT_NOT_SUPPORTED;
	}
	if (offset_align != 0 && block_size % offset_align != 0) {
		*why = talloc_asprintf(mem_ctx, "--block-size %llu is not a "
				       "multiple of the %u-byte direct I/O "
				       "alignment",
				       (unsigned long long)block_size,
				       offset_align);
		return DT_NOT_SUPPORTED;
	}
	return DT_MEASURED;
}

static int dt_fs_space(const char *dir, uint64_t *free_bytes,
		       uint64_t *total_bytes)
{
	struct statvfs sv;

	if (statvfs(dir, &sv) != 0)
		return -1;
	*free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	*total_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	return 0;
}

int disktest_check(void *mem_ctx, const struct disktest_config *cfg,
		   char **err)
{
	void *tmp = talloc_new(mem_ctx);

	if (cfg->repeat < 1 || cfg->ndirs < 1 ||
	    cfg->block_size < DT_MIN_BLOCK) {
		*err = talloc_strdup(mem_ctx, "--disk-test: bad configuration");
		goto fail;
	}
	if (cfg->size != 0 && (cfg->size < cfg->block_size ||
			       cfg->size % cfg->block_size != 0)) {
		*err = talloc_asprintf(mem_ctx,
				       "--size %s is not a whole number of "
				       "--block-size blocks (%s)",
				       dt_size_str(tmp, cfg->size),
				       dt_size_str(tmp, cfg->block_size));
		goto fail;
	}
	if (cfg->drop_caches) {
		int fd = open(DT_DROP_CACHES, O_WRONLY | O_CLOEXEC);

		if (fd < 0) {
			*err = talloc_asprintf(mem_ctx,
					       "--drop-caches needs root: "
					       "cannot write %s: %s",
					       DT_DROP_CACHES, strerror(errno));
			goto fail;
		}
		close(fd);
	}
	for (unsigned i = 0; i < cfg->ndirs; i++) {
		uint64_t fr, tot, size;
		bool reduced;

		if (dt_fs_space(cfg->dirs[i], &fr, &tot) != 0) {
			*err = talloc_asprintf(mem_ctx, "%s: statvfs: %s",
					       cfg->dirs[i], strerror(errno));
			goto fail;
		}
		if (disktest_plan_size(mem_ctx, cfg->dirs[i], cfg->size,
				       cfg->block_size, fr, tot, &size,
				       &reduced, err) != 0)
			goto fail;
	}
	talloc_free(tmp);
	return 0;
fail:
	talloc_free(tmp);
	return -1;
}

/* ---- the file and its properties ---- */

/*
 * The direct I/O alignment of the open file: statx(STATX_DIOALIGN) where
 * the kernel and filesystem report it, else the logical block size of the
 * device in sysfs, else 4096.  Returns whether the filesystem itself said
 * (then mem == 0 means no direct I/O support).
 */
static bool dt_dio_align(struct dt_ctx *x, uint32_t *mem, uint32_t *off,
			 const char **source)
{
	struct statx stx;
	struct stat sb;

	memset(&stx, 0, sizeof(stx));
	if (statx(x->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN)) {
#ifdef HAVE_STRUCT_STATX_STX_DIO_MEM_ALIGN
		*mem = stx.stx_dio_mem_align;
		*off = stx.stx_dio_offset_align;
#else
		/* the kernel's layout: both follow stx_mnt_id at 0x90 */
		_Static_assert(sizeof(stx) >= 0xa0, "struct statx too small");
		memcpy(mem, (const char *)&stx + 0x98, sizeof(*mem));
		memcpy(off, (const char *)&stx + 0x9c, sizeof(*off));
#endif
		*source = "statx";
		return true;
	}
	*mem = *off = DT_FALLBACK_ALIGN;
	*source = "default";
	if (fstat(x->fd, &sb) == 0) {
		static const char *const fmt[] = {
			"/sys/dev/block/%u:%u/queue/logical_block_size",
			"/sys/dev/block/%u:%u/../queue/logical_block_size",
		};

		for (unsigned i = 0; i < 2 && (*source)[0] == 'd'; i++) {
			char *p = talloc_asprintf(x->res, fmt[i],
						  major(sb.st_dev),
						  minor(sb.st_dev));
			FILE *f = p != NULL ? fopen(p, "re") : NULL;
			unsigned v = 0;

			talloc_free(p);
			if (f == NULL)
				continue;
			if (fscanf(f, "%u", &v) == 1 && v >= 512 &&
			    (v & (v - 1)) == 0) {
				*mem = *off = v;
				*source = "sysfs";
			}
			fclose(f);
		}
	}
	return false;
}

/*
 * Share of the file's pages in the page cache, in percent, from mincore()
 * over a read-only mapping (in windows, so the vector stays small).
 * Returns -1 with errno set when the file cannot be mapped.
 */
static double dt_resident(int fd, uint64_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages = 0, resident = 0;
	unsigned char *vec;

	if (page <= 0 || size == 0)
		return 0;
	vec = malloc(DT_MINCORE_WIN / (uint64_t)page);
	if (vec == NULL)
		return -1;
	for (uint64_t off = 0; off < size; off += DT_MINCORE_WIN) {
		size_t len = size - off > DT_MINCORE_WIN ?
			     DT_MINCORE_WIN : (size_t)(size - off);
		size_t n = (len + (size_t)page - 1) / (size_t)page;
		void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd,
				 (off_t)off);
		int r;

		if (map == MAP_FAILED) {
			int e = errno;

			free(vec);
			errno = e;
			return -1;
		}
		r = mincore(map, len, vec);
		munmap(map, len);
		if (r != 0) {
			int e = errno;

			free(vec);
			errno = e;
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			resident += vec[i] & 1;
		pages += n;
	}
	free(vec);
	return 100.0 * (double)resident / (double)pages;
}

/* The global drop, as root: sync, then "3" to drop_caches. */
static int dt_drop_all_caches(void)
{
	int fd, e;

	sync();
	fd = open(DT_DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	e = write(fd, "3\n", 2) == 2 ? 0 : errno;
	close(fd);
	return e;
}

/* ---- measuring ---- */

/*
 * Read or write the whole file sequentially in blocks, timing each call
 * into the run's histogram.  Returns 0, a positive errno (*what names the
 * call), or -1 when stopped by a signal.
 */
static int dt_transfer(struct dt_ctx *x, int fd, bool is_write,
		       const char **what)
{
	uint64_t size = x->d->size, bs = x->res->block_size, off = 0;

	while (off < size) {
		size_t n = size - off > bs ? (size_t)bs : (size_t)(size - off);
		uint64_t t0, lat;
		ssize_t r;

		if (dt_stopped(x->cfg))
			return -1;
		if (is_write)
			dt_stamp(x, off / bs);
		t0 = now_ns();
		r = is_write ? pwrite(fd, x->buf, n, (off_t)off) :
			    pread(fd, x->buf, n, (off_t)off);
		lat = now_ns() - t0;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*what = is_write ? "write" : "read";
			return errno;
		}
		if (r == 0) {
			*what = is_write ? "write" : "read (the file is short)";
			return EIO;
		}
		hist_record(x->run_lat, lat);
		if (x->run_count == 0 || lat < x->run_min)
			x->run_min = lat;
		if (lat > x->run_max)
			x->run_max = lat;
		x->run_count++;
		off += (uint64_t)r;
	}
	return 0;
}

/* A run of a measurement completed: add it to the row. */
static void dt_add_run(struct dt_ctx *x, struct disktest_row *row,
		       uint64_t ns, uint64_t flush_ns)
{
	unsigned i = row->nruns;

	row->mbps[i] = ns > 0 ? (double)x->d->size / 1e6 / ((double)ns / 1e9)
			      : 0;
	if (row->flush_ns != NULL)
		row->flush_ns[i] = flush_ns;
	hist_merge(row->lat, x->run_lat);
	if (row->lat_count == 0 || x->run_min < row->lat_min_ns)
		row->lat_min_ns = x->run_min;
	if (x->run_max > row->lat_max_ns)
		row->lat_max_ns = x->run_max;
	row->lat_count += x->run_count;
	row->nruns++;
	row->state = DT_MEASURED;
}

static void dt_run_start(struct dt_ctx *x)
{
	hist_clear(x->run_lat);
	x->run_min = x->run_max = x->run_count = 0;
}

/* Record the residency seen before a read (the largest over the runs). */
static void dt_note_resident(struct disktest_row *row, double pct)
{
	if (pct > row->resident_pct)
		row->resident_pct = pct;
}

/* Outcome of one run of one measurement. */
enum dt_outcome {
	DT_RUN_OK = 0,
	DT_RUN_STOPPED,		/* a signal */
	DT_RUN_ROW_DONE,	/* this row says why it has no (more) runs */
	DT_RUN_FATAL,		/* the file is unusable: stop this directory */
};

/* A failed call during a run of row k. */
static enum dt_outcome dt_failed(struct dt_ctx *x, enum disktest_kind k,
				 const char *what, int err)
{
	struct disktest_row *row = &x->d->row[k];

	if (err < 0)
		return DT_RUN_STOPPED;
	if (err == EINVAL &&
	    (k == DT_DIRECT_WRITE || k == DT_DIRECT_READ)) {
		row->state = DT_NOT_SUPPORTED;
		dt_note(row, x->res, "direct I/O refused (%s: %s)", what,
			strerror(err));
		return DT_RUN_ROW_DONE;
	}
	row->state = DT_FAILED;
	x->res->failed = true;
	dt_note(row, x->res, "%s: %s", what, strerror(err));
	return k == DT_WRITE ? DT_RUN_FATAL : DT_RUN_ROW_DONE;
}

static enum dt_outcome dt_run(struct dt_ctx *x, enum disktest_kind k)
{
	struct disktest_row *row = &x->d->row[k];
	const char *what = "";
	uint64_t t0, t1, t2;
	double pct;
	int e;

	dt_run_start(x);
	switch (k) {
	case DT_WRITE:
		/* a new file each run, as dd truncates its output; the
		 * truncation and its flush are not timed */
		if (ftruncate(x->fd, 0) != 0 || fsync(x->fd) != 0)
			return dt_failed(x, k, "truncate", errno);
		t0 = now_ns();
		if ((e = dt_transfer(x, x->fd, true, &what)) != 0)
			return dt_failed(x, k, what, e);
		t1 = now_ns();
		if (fdatasync(x->fd) != 0)
			return dt_failed(x, k, "fdatasync", errno);
		t2 = now_ns();
		dt_add_run(x, row, t2 - t0, t2 - t1);
		return DT_RUN_OK;

	case DT_COLD_READ:
		/*
		 * The write's fdatasync left the pages clean: drop them.  A
		 * page the kernel is busy with at that moment stays, so
		 * try again (a few times) before concluding that the
		 * filesystem keeps the file in memory.
		 */
		for (unsigned attempt = 0; attempt < DT_EVICT_ATTEMPTS;
		     attempt++) {
			e = posix_fadvise(x->fd, 0, 0, POSIX_FADV_DONTNEED);
			if (e != 0)
				return dt_failed(x, k, "posix_fadvise", e);
			if (attempt == 0 && x->cfg->drop_caches &&
			    (e = dt_drop_all_caches()) != 0)
				return dt_failed(x, k, DT_DROP_CACHES, e);
			if (dt_stopped(x->cfg))
				return DT_RUN_STOPPED;
			pct = dt_resident(x->fd, x->d->size);
			if (pct <= DISKTEST_COLD_MAX_RESIDENT)
				break;
		}
		if (pct < 0) {
			dt_note(row, x->res, "cache residency unknown "
				"(mmap/mincore: %s)", strerror(errno));
		} else {
			dt_note_resident(row, pct);
			if (pct > DISKTEST_COLD_MAX_RESIDENT) {
				row->state = DT_NOT_EVICTED;
				x->d->memory_backed = true;
				dt_note(row, x->res,
					"could not evict: %.1f%% of the file "
					"stayed in the page cache (this "
					"filesystem keeps files in memory); "
					"no disk number", pct);
				return DT_RUN_ROW_DONE;
			}
		}
		break;

	case DT_HOT_READ:
		pct = dt_resident(x->fd, x->d->size);
		if (pct >= 0)
			dt_note_resident(row, pct);
		break;

	case DT_DIRECT_WRITE:
		/* overwrite in place: the blocks exist, so this measures
		 * the device rather than the allocator; no flush, as dd
		 * oflag=direct */
		t0 = now_ns();
		if ((e = dt_transfer(x, x->dfd, true, &what)) != 0)
			return dt_failed(x, k, what, e);
		dt_add_run(x, row, now_ns() - t0, 0);
		return DT_RUN_OK;

	default:
		break;
	}

	/* the reads */
	t0 = now_ns();
	e = dt_transfer(x, k == DT_DIRECT_READ ? x->dfd : x->fd, false, &what);
	if (e != 0)
		return dt_failed(x, k, what, e);
	dt_add_run(x, row, now_ns() - t0, 0);
	return DT_RUN_OK;
}

/* The medians and spreads of the rows, once the runs are done. */
static void dt_summarize(struct disktest_dir *d)
{
	for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
		struct disktest_row *row = &d->row[k];
		unsigned n = row->nruns;
		double *v;

		if (n == 0)
			continue;
		v = talloc_memdup(row->mbps, row->mbps, n * sizeof(double));
		if (v == NULL)
			continue;
		qsort(v, n, sizeof(double), dt_cmp_double);
		row->mbps_min = v[0];
		row->mbps_max = v[n - 1];
		row->mbps_median = n % 2 ? v[n / 2] :
					   (v[n / 2 - 1] + v[n / 2]) / 2;
		talloc_free(v);
		if (row->flush_ns != NULL) {
			uint64_t *f = talloc_memdup(row->mbps, row->flush_ns,
						    n * sizeof(uint64_t));

			if (f == NULL)
				continue;
			qsort(f, n, sizeof(uint64_t), dt_cmp_u64);
			row->flush_median_ns = n % 2 ? f[n / 2] :
						       (f[n / 2 - 1] + f[n / 2]) / 2;
			talloc_free(f);
		}
	}
}

/* Open the O_DIRECT descriptor (the same file) and decide its rows. */
static void dt_setup_direct(struct dt_ctx *x)
{
	struct disktest_dir *d = x->d;
	enum disktest_state st;
	struct stat a, b;
	bool known;
	char *why = NULL;
	int err = 0;

	known = dt_dio_align(x, &d->dio_mem_align, &d->dio_offset_align,
			     &d->dio_source);
	/* an unnamed file is reached through /proc (a magic link, so no
	 * O_NOFOLLOW there); the identity check below covers both */
	x->dfd = openat(x->dirfd, x->reopen,
			O_RDWR | O_DIRECT | O_CLOEXEC |
				(d->file != NULL ? O_NOFOLLOW : 0));
	if (x->dfd < 0)
		err = errno;
	else if (fstat(x->fd, &a) != 0 || fstat(x->dfd, &b) != 0 ||
		 a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		err = ESTALE;	/* someone replaced the file */
	st = disktest_direct_verdict(x->res, err, known, d->dio_mem_align,
				     d->dio_offset_align, x->res->block_size,
				     &why);
	if (st == DT_MEASURED)
		return;
	if (x->dfd >= 0)
		close(x->dfd);
	x->dfd = -1;
	for (unsigned k = DT_DIRECT_WRITE; k <= DT_DIRECT_READ; k++) {
		d->row[k].state = st;
		d->row[k].note = talloc_strdup(x->res, why);
	}
	if (st == DT_FAILED)
		x->res->failed = true;
	talloc_free(why);
}

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

/* All runs in one directory; the file is gone when this returns. */
static void dt_dir(struct dt_ctx *x)
{
	struct disktest_dir *d = x->d;
	const struct disktest_config *cfg = x->cfg;
	size_t align = (size_t)sysconf(_SC_PAGESIZE);
	void *buf = NULL;
	bool created = false;

	x->fd = x->dfd = -1;
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

	for (unsigned run = 0; run < cfg->repeat; run++) {
		for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
			struct disktest_row *row = &d->row[k];
			enum dt_outcome o;

			if (dt_row_closed(row))
				continue;
			o = dt_stopped(cfg) ? DT_RUN_STOPPED : dt_run(x, k);
			if (o == DT_RUN_STOPPED) {
				row->interrupted = true;
				x->res->interrupted = true;
				goto out;
			}
			if (o == DT_RUN_FATAL) {
				d->failed_run = run + 1;
				goto out;
			}
		}
	}
out:
	if (x->res->interrupted)
		dt_mark_rest(d, x->res, "not run (interrupted)");
	else if (d->row[DT_WRITE].state == DT_FAILED)
		dt_mark_rest(d, x->res, "not run: the write failed");
	if (d->failed_run > 0 && cfg->repeat > 1)
		dt_note(&d->row[DT_WRITE], x->res, "%s (in run %u of %u)",
			d->row[DT_WRITE].note, d->failed_run, cfg->repeat);
	free(buf);
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

/* ---- text output ---- */

static char *dt_cell(void *mem, const struct disktest_result *res,
		     const struct disktest_dir *d, enum disktest_kind k)
{
	const struct disktest_row *row = &d->row[k];
	char *s;

	switch (row->state) {
	case DT_NOT_SUPPORTED:
		return talloc_asprintf(mem, "not supported here: %s",
				       row->note ? row->note : "");
	case DT_NOT_EVICTED:
		return talloc_strdup(mem, row->note);
	case DT_FAILED:
		return talloc_asprintf(mem, "FAILED: %s",
				       row->note ? row->note : "");
	case DT_NOT_RUN:
		return talloc_strdup(mem, row->note ? row->note : "not run");
	case DT_MEASURED:
		break;
	}
	s = talloc_asprintf(
		mem, "%.1f MB/s [%.1f-%.1f]  p50 %.3f p99 %.3f max %.3f ms",
		row->mbps_median, row->mbps_min, row->mbps_max,
		(double)hist_percentile(row->lat, 50, row->lat_min_ns,
					row->lat_max_ns) / 1e6,
		(double)hist_percentile(row->lat, 99, row->lat_min_ns,
					row->lat_max_ns) / 1e6,
		(double)row->lat_max_ns / 1e6);
	if (k == DT_WRITE)
		s = talloc_asprintf_append(s, "  fdatasync %.1f ms",
					   (double)row->flush_median_ns / 1e6);
	if (row->resident_pct >= 0)
		s = talloc_asprintf_append(s, "  cached before %.1f%%",
					   row->resident_pct);
	if (row->note != NULL)
		s = talloc_asprintf_append(s, "  (%s)", row->note);
	/* fewer runs than asked: a signal, or the write failing later */
	if (d->failed_run > 0 && !row->interrupted)
		s = talloc_asprintf_append(s, "  (%u of %u runs: the write "
					   "failed in run %u)", row->nruns,
					   res->repeat, d->failed_run);
	else if (row->interrupted || row->nruns < res->repeat)
		s = talloc_asprintf_append(s, "  (interrupted: %u of %u runs)",
					   row->nruns, res->repeat);
	return s;
}

void disktest_print(FILE *f, const struct disktest_result *res)
{
	void *tmp = talloc_new(NULL);
	const unsigned nd = res->ndirs;
	char ***cells;
	size_t *width, name_w = strlen("measurement");

	if (tmp == NULL)
		return;
	cells = talloc_array(tmp, char **, DT_NUM_KINDS);
	width = talloc_zero_array(tmp, size_t, nd);
	if (cells == NULL || width == NULL)
		goto out;
	for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
		size_t n = strlen(disktest_kind_name[k]);

		if (n > name_w)
			name_w = n;
		cells[k] = talloc_array(cells, char *, nd);
		if (cells[k] == NULL)
			goto out;
		for (unsigned i = 0; i < nd; i++) {
			cells[k][i] = dt_cell(cells, res, &res->dirs[i], k);
			if (cells[k][i] == NULL)
				goto out;
			n = strlen(cells[k][i]);
			if (n > width[i])
				width[i] = n;
		}
	}
	for (unsigned i = 0; i < nd; i++)
		if (strlen(res->dirs[i].path) > width[i])
			width[i] = strlen(res->dirs[i].path);

	fprintf(f, "Disk test: %s blocks, %u run%s of each measurement%s\n",
		dt_size_str(tmp, res->block_size), res->repeat,
		res->repeat == 1 ? "" : "s",
		res->drop_caches ? ", page cache dropped before cold reads" :
				   "");
	fprintf(f, "MB/s = 10^6 bytes/s, median [lowest-highest] of the runs; "
		"p50/p99/max: latency of one block read or write\n\n");
	fprintf(f, "%-*s", (int)name_w, "measurement");
	for (unsigned i = 0; i < nd; i++)
		fprintf(f, "  %-*s", i + 1 < nd ? (int)width[i] : 0,
			res->dirs[i].path);
	fprintf(f, "\n");
	for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
		fprintf(f, "%-*s", (int)name_w, disktest_kind_name[k]);
		for (unsigned i = 0; i < nd; i++)
			fprintf(f, "  %-*s", i + 1 < nd ? (int)width[i] : 0,
				cells[k][i]);
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
	for (unsigned i = 0; i < nd; i++) {
		const struct disktest_dir *d = &res->dirs[i];

		if (d->nstale > 0)
			fprintf(f, "%s: %u stale test file%s from earlier "
				"runs (%s), left alone: %s%s; remove %s if no "
				"dbench runs there\n", d->path, d->nstale,
				d->nstale == 1 ? "" : "s",
				dt_size_str(tmp, d->stale_bytes),
				d->stale_names ? d->stale_names : "",
				d->nstale > DT_STALE_SHOWN ? ", ..." : "",
				d->nstale == 1 ? "it" : "them");
		if (d->size == 0)
			continue;
		fprintf(f, "%s: %s test file%s, %s free before; direct I/O "
			"alignment %u bytes (memory %u, %s)\n", d->path,
			dt_size_str(tmp, d->size),
			d->size_reduced ? " (less than 1 GiB: free space)" : "",
			dt_size_str(tmp, d->free_bytes), d->dio_offset_align,
			d->dio_mem_align,
			d->dio_source ? d->dio_source : "unknown");
		if (d->memory_backed)
			fprintf(f, "%s: the filesystem keeps the file in "
				"memory: none of its figures is a disk's "
				"speed\n", d->path);
	}
	if (res->interrupted)
		fprintf(f, "INTERRUPTED%s%s: the figures above are the runs "
			"completed before it; the test files were removed\n",
			res->signal ? " by " : "",
			res->signal ? strsignal(res->signal) : "");
out:
	talloc_free(tmp);
	fflush(f);
}

/* ---- the mode ---- */

static volatile sig_atomic_t dt_signal;

static void dt_on_signal(int sig)
{
	dt_signal = sig;
}

int disktest_main(void *mem_ctx, const struct disktest_config *cfg,
		  struct disktest_result **result)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old[3];
	struct disktest_config c = *cfg;
	struct disktest_result *res;
	char *err = NULL;
	int rc;

	if (result != NULL)
		*result = NULL;
	if (disktest_check(mem_ctx, cfg, &err) != 0) {
		fprintf(stderr, "dbench: %s\n", err ? err : "out of memory");
		return 2;
	}
	printf("dbench %s --disk-test\n\n", PACKAGE_VERSION);
	fflush(stdout);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = dt_on_signal;
	sigemptyset(&sa.sa_mask);
	dt_signal = 0;
	for (unsigned i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	c.stop = &dt_signal;

	res = disktest_run(mem_ctx, &c);
	for (unsigned i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (res == NULL) {
		fprintf(stderr, "dbench: --disk-test: out of memory\n");
		return 1;
	}
	disktest_print(stdout, res);
	if (res->interrupted)
		rc = 128 + (res->signal ? res->signal : SIGINT);
	else
		rc = res->failed ? 1 : 0;
	if (result != NULL)
		*result = res;
	else
		talloc_free(res);
	return rc;
}
