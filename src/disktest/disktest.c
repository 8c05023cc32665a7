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
 * in disktest_dir.c and the text table in disktest_text.c (its JSON
 * section and files are src/report/'s, report_disktest.c).
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
