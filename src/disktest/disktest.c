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
 *
 * This file plans the file size, checks everything before anything is
 * written, and runs the mode (signals, run, print); a run of one
 * measurement is in disktest_measure.c, a directory's file and its runs
 * in disktest_dir.c, the text table in disktest_text.c and the JSON
 * section in disktest_json.c.
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

const char *const disktest_kind_name[DT_NUM_KINDS] = {
	[DT_WRITE] = "write+fdatasync",
	[DT_COLD_READ] = "cold read",
	[DT_HOT_READ] = "hot read",
	[DT_DIRECT_WRITE] = "O_DIRECT write",
	[DT_DIRECT_READ] = "O_DIRECT read",
};

/* ---- small helpers ---- */

/* "16 MiB", "1.5 GiB", "4096 bytes": for messages and the table title. */
char *dt_size_str(void *mem, uint64_t v)
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

/* Set the row's note; the arguments may include the old note. */
void dt_note(struct disktest_row *row, void *mem, const char *fmt, ...)
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

int dt_fs_space(const char *dir, uint64_t *free_bytes,
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
	c.progress = dt_print_progress;
	c.progress_arg = stdout;

	res = disktest_run(mem_ctx, &c);
	for (unsigned i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (res == NULL) {
		fprintf(stderr, "dbench: --disk-test: out of memory\n");
		return 1;
	}
	printf("\n");
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
