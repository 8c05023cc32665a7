/*
 * disktest_common.c - what every part of --disk-test shares, below all
 * of them: the names of the measurements, sizes for messages, a row's
 * notes, the size of the file a directory can take (its free space less
 * a margin), and the verdict on a directory that refuses O_DIRECT.
 * disktest.c (the entry), disktest_dir.c, disktest_measure.c and the
 * writers call it; it calls none of them.
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
