/*
 * test_disktest.c - `dbench --disk-test`: sizes, free-space planning, the
 * direct I/O verdict, and whole runs in a temporary directory on /dev/shm
 * with failures injected.  disktest.c, disktest_measure.c and
 * disktest_dir.c (the files with the test's openat and pwrite calls) are
 * included rather than linked so that openat() and pwrite() can be
 * replaced: an openat that refuses
 * O_DIRECT as a filesystem without direct I/O does (tmpfs accepts it
 * since Linux 6.6, so the refusal cannot be had for real here), a pwrite
 * that fails with ENOSPC, and both able to raise the stop flag the
 * signal handler would set, at a chosen point of the run.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>
#include <talloc.h>

#include "talloc_fixture.h"
#include "util/util.h"

/* ---- stand-ins for openat and pwrite ---- */

static volatile sig_atomic_t stop_flag;
static bool refuse_direct;	/* O_DIRECT opens fail with EINVAL */
static bool stop_at_direct;	/* the O_DIRECT open raises the stop flag */
static int pwrite_fail_errno;	/* pwrite fails with this, 0 = never */
static unsigned stop_after_writes;	/* raise the flag at this pwrite */
static unsigned pwrite_fail_from;	/* pwrite fails from this call on */
static unsigned pwrite_calls;
static int tmpfile_errno;	/* O_TMPFILE opens fail with this, 0 = never */
static const char *watch_dir;	/* counted at the O_DIRECT open: */
static int watch_entries;	/* its entries then, -1 = not counted */

static unsigned entries(const char *dir);

static int test_openat(int dfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	if ((flags & O_TMPFILE) == O_TMPFILE && tmpfile_errno != 0) {
		errno = tmpfile_errno;
		return -1;
	}
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (flags & O_DIRECT) {
		if (watch_dir != NULL)
			watch_entries = (int)entries(watch_dir);
		if (stop_at_direct)
			stop_flag = SIGINT;
		if (refuse_direct) {
			errno = EINVAL;
			return -1;
		}
	}
	return openat(dfd, path, flags, mode);
}

static ssize_t test_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (++pwrite_calls == stop_after_writes)
		stop_flag = SIGTERM;
	if (pwrite_fail_errno != 0 &&
	    (pwrite_fail_from == 0 || pwrite_calls >= pwrite_fail_from)) {
		errno = pwrite_fail_errno;
		return -1;
	}
	return pwrite(fd, buf, n, off);
}

#define openat test_openat
#define pwrite test_pwrite
#include "../../src/disktest/disktest_common.c"
#include "../../src/disktest/disktest.c"
#include "../../src/disktest/disktest_measure.c"
#include "../../src/disktest/disktest_dir.c"
#undef pwrite
#undef openat

/* ---- helpers ---- */

static void reset_injections(void)
{
	stop_flag = 0;
	refuse_direct = false;
	stop_at_direct = false;
	pwrite_fail_errno = 0;
	stop_after_writes = 0;
	pwrite_fail_from = 0;
	pwrite_calls = 0;
	tmpfile_errno = 0;
	watch_dir = NULL;
	watch_entries = -1;
}

/* A fresh directory on /dev/shm (removed by rm_dir). */
static char *mk_dir(void *mem)
{
	char *d = talloc_strdup(mem, "/dev/shm/test_disktest.XXXXXX");

	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

/* The number of entries in dir besides . and .. */
static unsigned entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* dir holds nothing (the test file is gone): remove it, free its name. */
static void rm_empty_dir(char *dir)
{
	assert_int_equal(entries(dir), 0);
	assert_int_equal(rmdir(dir), 0);
	talloc_free(dir);
}

static struct disktest_config small_cfg(const char *const *dirs, unsigned n)
{
	return (struct disktest_config){
		.dirs = dirs,
		.ndirs = n,
		.size = 4u << 20,
		.block_size = 1u << 20,
		.repeat = 2,
		.stop = &stop_flag,
	};
}

/* The text the printer makes of res (allocated under mem). */
static char *printed(void *mem, const struct disktest_result *res)
{
	char *buf = NULL, *s;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	disktest_print(f, res);
	fclose(f);
	s = talloc_strdup(mem, buf);
	free(buf);
	return s;
}

/* ---- tests ---- */

static void test_parse_size(void **state)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t v;
	} cases[] = {
		{ "512", 0, 512 },
		{ "4k", 0, 4096 },
		{ "4K", 0, 4096 },
		{ "16M", 0, 16u << 20 },
		{ "1G", 0, 1ull << 30 },
		{ "2t", 0, 2ull << 40 },
		{ "0", -1, 0 },			/* below min */
		{ "", -1, 0 },
		{ "M", -1, 0 },
		{ "1.5G", -1, 0 },
		{ "1GB", -1, 0 },
		{ "1X", -1, 0 },
		{ " 1M", -1, 0 },
		{ "-1M", -1, 0 },
		{ "99999999999999999999", -1, 0 },
		{ "16777216T", -1, 0 },		/* overflows 64 bits */
		{ "2000T", -1, 0 },		/* above max */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = parse_size(cases[i].s, 1, 1ull << 50, &v);

		if (rc != cases[i].rc)
			fail_msg("parse_size(\"%s\") = %d, expected %d",
				 cases[i].s, rc, cases[i].rc);
		if (rc == 0)
			assert_int_equal(v, cases[i].v);
		else
			assert_int_equal(v, 12345);	/* untouched */
	}
}

static void test_margin_and_plan(void **state)
{
	struct tstate *ts = *state;
	const uint64_t M = 1ull << 20, G = 1ull << 30;
	uint64_t size = 0;
	bool reduced = true;
	char *why = NULL;

	assert_int_equal(disktest_margin(100 * G), 5 * G);
	assert_int_equal(disktest_margin(4 * G), 256 * M);
	assert_int_equal(disktest_margin(200 * M), 50 * M);

	/* the default: 1 GiB when it fits */
	assert_int_equal(disktest_plan_size(ts->ctx, "/d", 0, M, 50 * G,
					    100 * G, &size, &reduced, &why),
			 0);
	assert_int_equal(size, G);
	assert_false(reduced);
	/* less where free space is short: free - margin, whole blocks */
	assert_int_equal(disktest_plan_size(ts->ctx, "/d", 0, M,
					    700 * M + 12345, 4 * G, &size,
					    &reduced, &why),
			 0);
	assert_int_equal(size, 444 * M);
	assert_true(reduced);
	/* an explicit size that fits, exactly at the margin */
	assert_int_equal(disktest_plan_size(ts->ctx, "/d", 444 * M, M,
					    700 * M, 4 * G, &size, &reduced,
					    &why),
			 0);
	assert_int_equal(size, 444 * M);
	assert_null(why);

	/* one block more does not fit: the message says what and where */
	assert_int_equal(disktest_plan_size(ts->ctx, "/mnt/x", 445 * M, M,
					    700 * M, 4 * G, &size, &reduced,
					    &why),
			 -1);
	assert_non_null(why);
	assert_non_null(strstr(why, "/mnt/x"));
	assert_non_null(strstr(why, "445 MiB test file"));
	assert_non_null(strstr(why, "700 MiB free"));
	assert_non_null(strstr(why, "256 MiB must stay free"));
	assert_non_null(strstr(why, "largest --size allowed is 444 MiB"));
	talloc_free(why);
	why = NULL;

	/* nothing fits, not even the default */
	assert_int_equal(disktest_plan_size(ts->ctx, "/full", 0, M, 100 * M,
					    4 * G, &size, &reduced, &why),
			 -1);
	assert_non_null(why);
	assert_non_null(strstr(why, "/full: not enough free space"));
	assert_null(strstr(why, "largest"));
	talloc_free(why);
}

static void test_direct_verdict(void **state)
{
	struct tstate *ts = *state;
	char *why = NULL;

	assert_int_equal(disktest_direct_verdict(ts->ctx, 0, true, 512, 512,
						 1 << 20, &why),
			 DT_MEASURED);
	assert_null(why);
	/* alignment not reported: go ahead with the fallback */
	assert_int_equal(disktest_direct_verdict(ts->ctx, 0, false, 4096,
						 4096, 1 << 20, &why),
			 DT_MEASURED);

	assert_int_equal(disktest_direct_verdict(ts->ctx, EINVAL, false, 4096,
						 4096, 1 << 20, &why),
			 DT_NOT_SUPPORTED);
	assert_non_null(strstr(why, "refuses O_DIRECT"));
	assert_non_null(strstr(why, strerror(EINVAL)));
	talloc_free(why);

	assert_int_equal(disktest_direct_verdict(ts->ctx, 0, true, 0, 0,
						 1 << 20, &why),
			 DT_NOT_SUPPORTED);
	assert_non_null(strstr(why, "no direct I/O support"));
	talloc_free(why);

	assert_int_equal(disktest_direct_verdict(ts->ctx, 0, true, 4096, 4096,
						 6144, &why),
			 DT_NOT_SUPPORTED);
	assert_non_null(strstr(why, "6144 is not a multiple of the 4096"));
	talloc_free(why);

	assert_int_equal(disktest_direct_verdict(ts->ctx, EACCES, false, 4096,
						 4096, 1 << 20, &why),
			 DT_FAILED);
	assert_non_null(strstr(why, strerror(EACCES)));
	talloc_free(why);
}

static void test_check(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx);
	const char *dirs[] = { dir };
	struct disktest_config cfg = small_cfg(dirs, 1);
	char *err = NULL;

	assert_int_equal(disktest_check(ts->ctx, &cfg, &err), 0);
	assert_null(err);

	cfg.size = (4u << 20) + 512;	/* not whole blocks */
	assert_int_equal(disktest_check(ts->ctx, &cfg, &err), -1);
	assert_non_null(strstr(err, "not a whole number of --block-size"));
	talloc_free(err);

	cfg.size = 1ull << 50;		/* far more than /dev/shm has */
	assert_int_equal(disktest_check(ts->ctx, &cfg, &err), -1);
	assert_non_null(strstr(err, dir));
	assert_non_null(strstr(err, "1024 TiB test file"));
	assert_non_null(strstr(err, " free"));
	talloc_free(err);
	/* nothing was created */
	rm_empty_dir(dir);
}

/* O_DIRECT refused: those rows say so, the others are measured. */
static void test_run_direct_refused(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx);
	const char *dirs[] = { dir };
	struct disktest_config cfg = small_cfg(dirs, 1);
	struct disktest_result *res;
	const struct disktest_dir *d;
	char *out;

	reset_injections();
	refuse_direct = true;
	res = disktest_run(ts->ctx, &cfg);
	assert_non_null(res);
	assert_false(res->interrupted);
	assert_false(res->failed);
	d = &res->dirs[0];
	assert_int_equal(d->size, 4u << 20);

	assert_int_equal(d->row[DT_WRITE].state, DT_MEASURED);
	assert_int_equal(d->row[DT_WRITE].nruns, 2);
	/* 4 blocks per run, each timed */
	assert_int_equal(d->row[DT_WRITE].lat_count, 8);
	assert_int_equal(hist_total(d->row[DT_WRITE].lat), 8);
	assert_true(d->row[DT_WRITE].mbps_min <= d->row[DT_WRITE].mbps_median);
	assert_true(d->row[DT_WRITE].mbps_median <= d->row[DT_WRITE].mbps_max);
	assert_true(d->row[DT_WRITE].mbps_min > 0);
	/* tmpfs cannot evict: no cold number, and the reason */
	assert_int_equal(d->row[DT_COLD_READ].state, DT_NOT_EVICTED);
	assert_true(d->row[DT_COLD_READ].resident_pct > 99.0);
	assert_true(d->memory_backed);
	assert_int_equal(d->row[DT_HOT_READ].state, DT_MEASURED);
	assert_int_equal(d->row[DT_HOT_READ].nruns, 2);
	assert_true(d->row[DT_HOT_READ].resident_pct > 99.0);
	for (unsigned k = DT_DIRECT_WRITE; k <= DT_DIRECT_READ; k++) {
		assert_int_equal(d->row[k].state, DT_NOT_SUPPORTED);
		assert_int_equal(d->row[k].nruns, 0);
		assert_non_null(strstr(d->row[k].note, "refuses O_DIRECT"));
	}

	out = printed(ts->ctx, res);
	assert_non_null(strstr(out, ": O_DIRECT write: not supported here: "
				    "the filesystem refuses O_DIRECT"));
	assert_non_null(strstr(out, ": O_DIRECT read: not supported here: "));
	assert_non_null(strstr(out, ": cold read: could not evict: "
				    "100.0% of the file"));
	/* the table's first row: figures, and a word where there are none */
	assert_non_null(strstr(out, "\n#1         median  "));
	assert_non_null(strstr(out, "    cached "));
	assert_non_null(strstr(out, "       n/a       n/a\n"));
	assert_non_null(strstr(out, "none of its figures is a disk's"));
	assert_null(strstr(out, "INTERRUPTED"));
	talloc_free(out);
	talloc_free(res);
	/* the file is gone */
	rm_empty_dir(dir);
}

/* A signal during setup: nothing measured, marked, the file removed. */
static void test_run_stopped_early(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx), *dir2 = mk_dir(ts->ctx);
	const char *dirs[] = { dir, dir2 };
	struct disktest_config cfg = small_cfg(dirs, 2);
	struct disktest_result *res;
	char *out;

	reset_injections();
	stop_at_direct = true;
	res = disktest_run(ts->ctx, &cfg);
	assert_non_null(res);
	assert_true(res->interrupted);
	assert_int_equal(res->signal, SIGINT);
	assert_true(res->dirs[0].row[DT_WRITE].interrupted);
	for (unsigned i = 0; i < 2; i++)
		for (unsigned k = 0; k < DT_NUM_KINDS; k++)
			assert_int_equal(res->dirs[i].row[k].nruns, 0);
	out = printed(ts->ctx, res);
	assert_non_null(strstr(out, "not run (interrupted)"));
	assert_non_null(strstr(out, "INTERRUPTED by "));
	talloc_free(out);
	talloc_free(res);
	assert_int_equal(entries(dir), 0);
	assert_int_equal(entries(dir2), 0);
	rmdir(dir);
	rmdir(dir2);
	talloc_free(dir);
	talloc_free(dir2);
}

/* A signal in the second run's write: the first run is kept. */
static void test_run_stopped_midway(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx);
	const char *dirs[] = { dir };
	struct disktest_config cfg = small_cfg(dirs, 1);
	struct disktest_result *res;
	const struct disktest_dir *d;
	char *out;

	reset_injections();
	/* run 1: 4 buffered + 4 direct writes; run 2's second write */
	stop_after_writes = 10;
	res = disktest_run(ts->ctx, &cfg);
	assert_non_null(res);
	assert_true(res->interrupted);
	assert_int_equal(res->signal, SIGTERM);
	d = &res->dirs[0];
	assert_int_equal(d->row[DT_WRITE].state, DT_MEASURED);
	assert_int_equal(d->row[DT_WRITE].nruns, 1);
	assert_true(d->row[DT_WRITE].interrupted);
	/* the interrupted run's blocks are not in the latencies */
	assert_int_equal(d->row[DT_WRITE].lat_count, 4);
	assert_int_equal(d->row[DT_HOT_READ].nruns, 1);
	assert_int_equal(d->row[DT_DIRECT_WRITE].nruns, 1);
	out = printed(ts->ctx, res);
	assert_non_null(strstr(out, ": write+fdatasync: interrupted: 1 of 2 runs\n"));
	assert_non_null(strstr(out, "INTERRUPTED"));
	talloc_free(out);
	talloc_free(res);
	rm_empty_dir(dir);
}

/* The write fails: the row says why, the rest is not run, file removed. */
static void test_run_write_fails(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx);
	const char *dirs[] = { dir };
	struct disktest_config cfg = small_cfg(dirs, 1);
	struct disktest_result *res;
	const struct disktest_dir *d;
	char *out;

	reset_injections();
	pwrite_fail_errno = ENOSPC;
	res = disktest_run(ts->ctx, &cfg);
	assert_non_null(res);
	assert_true(res->failed);
	assert_false(res->interrupted);
	d = &res->dirs[0];
	assert_int_equal(d->row[DT_WRITE].state, DT_FAILED);
	assert_non_null(strstr(d->row[DT_WRITE].note, strerror(ENOSPC)));
	for (unsigned k = DT_COLD_READ; k < DT_NUM_KINDS; k++) {
		assert_int_equal(d->row[k].nruns, 0);
		assert_int_not_equal(d->row[k].state, DT_MEASURED);
	}
	assert_non_null(strstr(d->row[DT_HOT_READ].note, "the write failed"));
	out = printed(ts->ctx, res);
	assert_non_null(strstr(out, ": write+fdatasync: FAILED: write: "));
	talloc_free(out);
	talloc_free(res);
	rm_empty_dir(dir);
}

/*
 * Test files left by earlier runs (the old PID-named ones a SIGKILL left,
 * even with this process's PID, and a symlink planted with such a name)
 * no longer stop the test: they are reported and left alone.
 */
static void test_run_stale_files(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx), *own, *old, *link, *out;
	const char *dirs[] = { dir };
	struct disktest_config cfg = small_cfg(dirs, 1);
	struct disktest_result *res;
	int fd;

	reset_injections();
	own = talloc_asprintf(ts->ctx, "%s/.dbench-disktest.%ld", dir,
			      (long)getpid());
	old = talloc_asprintf(ts->ctx, "%s/.dbench-disktest.1", dir);
	link = talloc_asprintf(ts->ctx, "%s/.dbench-disktest.2.abcdef", dir);
	fd = open(own, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 3000), 0);
	close(fd);
	fd = open(old, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 72), 0);
	close(fd);
	assert_int_equal(symlink("/etc/passwd", link), 0);

	res = disktest_run(ts->ctx, &cfg);
	assert_non_null(res);
	assert_false(res->failed);
	assert_int_equal(res->dirs[0].row[DT_WRITE].state, DT_MEASURED);
	assert_int_equal(res->dirs[0].row[DT_WRITE].nruns, 2);
	assert_int_equal(res->dirs[0].nstale, 3);
	assert_int_equal(res->dirs[0].stale_bytes, 3072);
	out = printed(ts->ctx, res);
	if (strstr(out, ": 3 stale test files from earlier runs (3 KiB), "
			"left alone: .dbench-disktest.") == NULL ||
	    strstr(out, "; remove them if no dbench runs there\n") == NULL)
		fail_msg("no stale report in:\n%s", out);
	talloc_free(out);
	talloc_free(res);
	/* the three are still there, untouched, and nothing else */
	assert_int_equal(entries(dir), 3);
	fd = open(link, O_RDONLY | O_NOFOLLOW | O_PATH);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(unlink(own), 0);
	assert_int_equal(unlink(old), 0);
	assert_int_equal(unlink(link), 0);
	rmdir(dir);
	talloc_free(own);
	talloc_free(old);
	talloc_free(link);
	talloc_free(dir);
}

/* The file has no name while the test runs (O_TMPFILE). */
static void test_run_unnamed_file(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx);
	const char *dirs[] = { dir };
	struct disktest_config cfg = small_cfg(dirs, 1);
	struct disktest_result *res;

	reset_injections();
	stop_at_direct = true;	/* stop right after the file is made */
	watch_dir = dir;
	res = disktest_run(ts->ctx, &cfg);
	assert_non_null(res);
	assert_null(res->dirs[0].file);
	/* the file existed (the O_DIRECT open is of it) but had no name */
	assert_int_equal(watch_entries, 0);
	talloc_free(res);
	rm_empty_dir(dir);
}

/* Without O_TMPFILE: a new random name each time, removed at the end. */
static void test_run_no_tmpfile(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx);
	const char *dirs[] = { dir };
	struct disktest_config cfg = small_cfg(dirs, 1);
	struct disktest_result *res;
	char *first;
	const int errs[] = { EOPNOTSUPP, EISDIR, EINVAL };

	for (unsigned i = 0; i < 3; i++) {
		reset_injections();
		tmpfile_errno = errs[i];
		res = disktest_run(ts->ctx, &cfg);
		assert_non_null(res);
		assert_false(res->failed);
		assert_int_equal(res->dirs[0].row[DT_WRITE].nruns, 2);
		assert_int_equal(res->dirs[0].row[DT_HOT_READ].nruns, 2);
		assert_non_null(res->dirs[0].file);
		first = talloc_asprintf(ts->ctx, ".dbench-disktest.%ld.",
					(long)getpid());
		assert_int_equal(strncmp(res->dirs[0].file, first,
					 strlen(first)),
				 0);
		assert_int_equal(strlen(res->dirs[0].file),
				 strlen(first) + 6);
		talloc_free(first);
		talloc_free(res);
		assert_int_equal(entries(dir), 0);
	}
	/* another failure of O_TMPFILE is reported, not worked around */
	reset_injections();
	tmpfile_errno = EACCES;
	res = disktest_run(ts->ctx, &cfg);
	assert_true(res->failed);
	assert_non_null(strstr(res->dirs[0].row[DT_WRITE].note,
			       strerror(EACCES)));
	assert_non_null(strstr(res->dirs[0].row[DT_WRITE].note,
			       "create a test file in "));
	talloc_free(res);
	rm_empty_dir(dir);
}

/* The write fails in run 2 of 3: said so, not "interrupted". */
static void test_run_write_fails_later(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx);
	const char *dirs[] = { dir };
	struct disktest_config cfg = small_cfg(dirs, 1);
	struct disktest_result *res;
	const struct disktest_dir *d;
	char *out;

	reset_injections();
	cfg.repeat = 3;
	/* run 1: 4 buffered + 4 direct writes; run 2's first write fails */
	pwrite_fail_errno = ENOSPC;
	pwrite_fail_from = 9;
	res = disktest_run(ts->ctx, &cfg);
	assert_non_null(res);
	assert_true(res->failed);
	assert_false(res->interrupted);
	d = &res->dirs[0];
	assert_int_equal(d->failed_run, 2);
	assert_int_equal(d->row[DT_WRITE].state, DT_FAILED);
	assert_int_equal(d->row[DT_HOT_READ].nruns, 1);
	assert_false(d->row[DT_HOT_READ].interrupted);
	out = printed(ts->ctx, res);
	if (strstr(out, ": write+fdatasync: FAILED: write: ") == NULL ||
	    strstr(out, "No space left on device (in run 2 of 3)") == NULL ||
	    strstr(out, ": hot read: 1 of 3 runs: the write failed in run 2\n") == NULL ||
	    strstr(out, "nterrupted") != NULL ||
	    strstr(out, "INTERRUPTED") != NULL)
		fail_msg("run 2's failed write misreported:\n%s", out);
	talloc_free(out);
	talloc_free(res);
	rm_empty_dir(dir);
}

/* The progress calls of a run: a start and an end per run of each
 * measurement, in the order they run. */
struct progress_log {
	unsigned n;
	struct disktest_progress p[64];
};

static void log_progress(void *arg, const struct disktest_progress *p)
{
	struct progress_log *log = arg;

	if (log->n < 64)
		log->p[log->n] = *p;
	log->n++;
}

static void test_run_progress(void **state)
{
	struct tstate *ts = *state;
	char *dir = mk_dir(ts->ctx);
	const char *dirs[] = { dir };
	struct disktest_config cfg = small_cfg(dirs, 1);
	struct progress_log log = { 0 };
	struct disktest_result *res;

	reset_injections();
	cfg.progress = log_progress;
	cfg.progress_arg = &log;
	res = disktest_run(ts->ctx, &cfg);
	assert_non_null(res);
	/* run 2 has no cold read: it could not evict in run 1 (tmpfs) */
	assert_int_equal(log.n, 2 * (5 + 4));
	for (unsigned i = 0, run = 1, k = 0; i < log.n; i += 2) {
		const struct disktest_progress *a = &log.p[i], *b = a + 1;

		if (run == 2 && k == DT_COLD_READ)
			k++;
		assert_false(a->done);
		assert_true(b->done);
		assert_int_equal(a->kind, k);
		assert_int_equal(b->kind, k);
		assert_int_equal(a->run, run);
		assert_int_equal(a->repeat, 2);
		assert_string_equal(a->dir, dir);
		assert_int_equal(a->dir_width, strlen(dir));
		if (k == DT_COLD_READ) {
			assert_false(b->measured);
			assert_int_equal(b->state, DT_NOT_EVICTED);
		} else if (k == DT_WRITE || k == DT_HOT_READ) {
			assert_true(b->measured);
			assert_true(b->mbps > 0);
		}
		if (++k == DT_NUM_KINDS) {
			k = 0;
			run++;
		}
	}
	talloc_free(res);
	rm_empty_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_parse_size),
		T(test_margin_and_plan),
		T(test_direct_verdict),
		T(test_check),
		T(test_run_direct_refused),
		T(test_run_stopped_early),
		T(test_run_stopped_midway),
		T(test_run_write_fails),
		T(test_run_stale_files),
		T(test_run_unnamed_file),
		T(test_run_no_tmpfile),
		T(test_run_write_fails_later),
		T(test_run_progress),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
