/*
 * disktest_measure.c - one run of one disk test measurement: the timed
 * sequential transfer (every block into the histogram), the page-cache
 * residency check before a read (mincore), eviction, the direct I/O
 * alignment the filesystem asks for, and the rows' medians and spreads.
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

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x2000U	/* Linux 6.1; glibc < 2.37 lacks it */
#endif

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

/* A failed call during a run of row k. */
enum dt_outcome dt_failed(struct dt_ctx *x, enum disktest_kind k,
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

/* A run of DT_WRITE: a new file each run, as dd truncates its output
 * (the truncation and its flush are not timed), written and flushed. */
static enum dt_outcome dt_run_write(struct dt_ctx *x, struct disktest_row *row)
{
	const char *what = "";
	uint64_t t0, t1, t2;
	int e;

	if (ftruncate(x->fd, 0) != 0 || fsync(x->fd) != 0)
		return dt_failed(x, DT_WRITE, "truncate", errno);
	t0 = now_ns();
	if ((e = dt_transfer(x, x->fd, true, &what)) != 0)
		return dt_failed(x, DT_WRITE, what, e);
	t1 = now_ns();
	if (fdatasync(x->fd) != 0)
		return dt_failed(x, DT_WRITE, "fdatasync", errno);
	t2 = now_ns();
	dt_add_run(x, row, t2 - t0, t2 - t1);
	return DT_RUN_OK;
}

/*
 * Before a DT_COLD_READ: the write's fdatasync left the pages clean, so
 * drop them.  A page the kernel is busy with at that moment stays: try
 * again (a few times) before concluding that the filesystem keeps the
 * file in memory.  Returns DT_RUN_OK when the read may go on (the
 * residency noted in row), else the run's outcome.
 */
static enum dt_outcome dt_evict(struct dt_ctx *x, struct disktest_row *row)
{
	const enum disktest_kind k = DT_COLD_READ;
	double pct = -1;
	int e;

	for (unsigned attempt = 0; attempt < DT_EVICT_ATTEMPTS; attempt++) {
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
		return DT_RUN_OK;
	}
	dt_note_resident(row, pct);
	if (pct <= DISKTEST_COLD_MAX_RESIDENT)
		return DT_RUN_OK;
	row->state = DT_NOT_EVICTED;
	x->d->memory_backed = true;
	dt_note(row, x->res, "could not evict: %.1f%% of the file stayed in "
		"the page cache (this filesystem keeps files in memory); no "
		"disk number", pct);
	return DT_RUN_ROW_DONE;
}

enum dt_outcome dt_run(struct dt_ctx *x, enum disktest_kind k)
{
	struct disktest_row *row = &x->d->row[k];
	const char *what = "";
	enum dt_outcome out;
	uint64_t t0;
	double pct;
	int e;

	dt_run_start(x);
	switch (k) {
	case DT_WRITE:
		return dt_run_write(x, row);

	case DT_COLD_READ:
		if ((out = dt_evict(x, row)) != DT_RUN_OK)
			return out;
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
void dt_summarize(struct disktest_dir *d)
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
void dt_setup_direct(struct dt_ctx *x)
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
