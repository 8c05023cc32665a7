/*
 * test_dirlock.c - one dbench per directory: the lock is exclusive (a
 * second lock of the same directory, even from this process, is refused
 * naming the holder's PID), a directory named twice is locked once, the
 * lock file goes at release only when this process created it and it is
 * still the same file, and a symlink, FIFO or directory planted at
 * DIR/.dbench.lock is refused and left alone.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <talloc.h>

#include "safety/dirlock.h"

#include "talloc_fixture.h"

/* A fresh directory on /dev/shm and the path of its lock file. */
static char *mk_dir(void *mem, char **lock)
{
	char *d = talloc_strdup(mem, "/dev/shm/test_dirlock.XXXXXX");

	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	*lock = talloc_asprintf(mem, "%s/%s", d, DIRLOCK_NAME);
	return d;
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void test_exclusive(void **state)
{
	struct tstate *ts = *state;
	char *lock, *dir = mk_dir(ts->ctx, &lock), *msg = NULL, *want;
	const char *dirs[] = { dir, dir };
	struct dirlock *a, *b;
	char buf[32] = { 0 };
	int fd;

	/* the same directory twice in one list: one lock */
	a = dirlock_acquire(ts->ctx, dirs, 2, &msg);
	assert_non_null(a);
	assert_null(msg);
	assert_true(exists(lock));
	fd = open(lock, O_RDONLY);
	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	assert_int_equal(atol(buf), (long)getpid());

	/* a second holder is refused, naming the first */
	b = dirlock_acquire(ts->ctx, dirs, 1, &msg);
	assert_null(b);
	want = talloc_asprintf(ts->ctx, "another dbench (pid %ld) is using %s",
			       (long)getpid(), dir);
	assert_string_equal(msg, want);
	talloc_free(want);
	talloc_free(msg);

	/* released: the file goes, and the directory can be locked again */
	dirlock_release(a);
	assert_false(exists(lock));
	a = dirlock_acquire(ts->ctx, dirs, 1, &msg);
	assert_non_null(a);
	talloc_free(a);	/* the same as dirlock_release */
	assert_false(exists(lock));
	dirlock_release(NULL);
	assert_int_equal(rmdir(dir), 0);
	talloc_free(lock);
	talloc_free(dir);
}

/* A refusal in the second directory releases the first. */
static void test_all_or_nothing(void **state)
{
	struct tstate *ts = *state;
	char *lock1, *dir1 = mk_dir(ts->ctx, &lock1);
	char *lock2, *dir2 = mk_dir(ts->ctx, &lock2), *msg = NULL;
	const char *second[] = { dir2 };
	const char *both[] = { dir1, dir2 };
	struct dirlock *held = dirlock_acquire(ts->ctx, second, 1, &msg);

	assert_non_null(held);
	assert_null(dirlock_acquire(ts->ctx, both, 2, &msg));
	assert_non_null(strstr(msg, dir2));
	talloc_free(msg);
	assert_false(exists(lock1));
	talloc_free(held);
	assert_int_equal(rmdir(dir1), 0);
	assert_int_equal(rmdir(dir2), 0);
	talloc_free(lock1);
	talloc_free(lock2);
	talloc_free(dir1);
	talloc_free(dir2);
}

/* A file that was there before is locked, then left (not ours); one
 * replaced during the run is not removed either. */
static void test_not_ours(void **state)
{
	struct tstate *ts = *state;
	char *lock, *dir = mk_dir(ts->ctx, &lock), *msg = NULL, *moved;
	const char *dirs[] = { dir };
	struct dirlock *l;
	int fd = open(lock, O_WRONLY | O_CREAT | O_EXCL, 0644);

	assert_true(fd >= 0);
	close(fd);
	l = dirlock_acquire(ts->ctx, dirs, 1, &msg);
	assert_non_null(l);
	dirlock_release(l);
	assert_true(exists(lock));
	assert_int_equal(unlink(lock), 0);

	/* ours, but replaced by another file meanwhile: left alone */
	l = dirlock_acquire(ts->ctx, dirs, 1, &msg);
	assert_non_null(l);
	moved = talloc_asprintf(ts->ctx, "%s/moved", dir);
	assert_int_equal(rename(lock, moved), 0);
	fd = open(lock, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	dirlock_release(l);
	assert_true(exists(lock));
	assert_int_equal(unlink(lock), 0);
	assert_int_equal(unlink(moved), 0);
	assert_int_equal(rmdir(dir), 0);
	talloc_free(moved);
	talloc_free(lock);
	talloc_free(dir);
}

/* Whatever is planted at DIR/.dbench.lock that is not a plain file. */
static void test_planted(void **state)
{
	struct tstate *ts = *state;
	char *lock, *dir = mk_dir(ts->ctx, &lock), *msg = NULL;
	char *target = talloc_asprintf(ts->ctx, "%s/target", dir);
	const char *dirs[] = { dir };
	struct stat st;
	int fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	for (unsigned i = 0; i < 4; i++) {
		switch (i) {
		case 0:
			assert_int_equal(symlink(target, lock), 0);
			break;
		case 1:
			assert_int_equal(symlink("/nonexistent", lock), 0);
			break;
		case 2:
			assert_int_equal(mkfifo(lock, 0644), 0);
			break;
		default:
			assert_int_equal(mkdir(lock, 0755), 0);
			break;
		}
		assert_null(dirlock_acquire(ts->ctx, dirs, 1, &msg));
		if (strstr(msg, "is a symbolic link or not a regular file") ==
		    NULL)
			fail_msg("case %u: %s", i, msg);
		talloc_free(msg);
		assert_int_equal(lstat(lock, &st), 0); /* still there */
		assert_int_equal(i == 3 ? rmdir(lock) : unlink(lock), 0);
	}
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_size, 4);
	assert_int_equal(unlink(target), 0);
	assert_int_equal(rmdir(dir), 0);
	talloc_free(target);
	talloc_free(lock);
	talloc_free(dir);
}

/* A target inside or above a held one is refused naming both, and so
 * are two targets of one list inside each other; nothing is left. */
static void test_nested(void **state)
{
	struct tstate *ts = *state;
	char *lock, *dir = mk_dir(ts->ctx, &lock), *msg = NULL, *want;
	char *sub = talloc_asprintf(ts->ctx, "%s/sub", dir);
	char *sublock = talloc_asprintf(ts->ctx, "%s/%s", sub, DIRLOCK_NAME);
	const char *outer[] = { dir }, *inner[] = { sub };
	const char *list[] = { sub, dir };
	struct dirlock *a;

	assert_int_equal(mkdir(sub, 0755), 0);
	a = dirlock_acquire(ts->ctx, outer, 1, &msg);
	assert_non_null(a);
	assert_null(dirlock_acquire(ts->ctx, inner, 1, &msg));
	want = talloc_asprintf(ts->ctx, "%s is inside %s, which another "
			       "dbench (pid %ld) is using", sub, dir,
			       (long)getpid());
	assert_non_null(msg);
	assert_memory_equal(msg, want, strlen(want));
	assert_false(exists(sublock));
	talloc_free(a);
	talloc_free(want);
	talloc_free(msg);

	a = dirlock_acquire(ts->ctx, inner, 1, &msg);
	assert_non_null(a);
	assert_null(dirlock_acquire(ts->ctx, outer, 1, &msg));
	want = talloc_asprintf(ts->ctx, "%s holds %s, which another dbench "
			       "(pid %ld) is using", dir, sub, (long)getpid());
	assert_non_null(msg);
	assert_memory_equal(msg, want, strlen(want));
	assert_false(exists(lock));
	talloc_free(a);
	talloc_free(want);
	talloc_free(msg);

	assert_null(dirlock_acquire(ts->ctx, list, 2, &msg));
	want = talloc_asprintf(ts->ctx, "-D: %s is inside %s (both in the "
			       "list)", sub, dir);
	assert_non_null(msg);
	assert_memory_equal(msg, want, strlen(want));
	assert_false(exists(lock));
	assert_false(exists(sublock));
	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(rmdir(dir), 0);
	talloc_free(want);
	talloc_free(msg);
	talloc_free(sublock);
	talloc_free(sub);
	talloc_free(lock);
	talloc_free(dir);
}

/* A directory that cannot be opened: the reason. */
static void test_missing_dir(void **state)
{
	struct tstate *ts = *state;
	const char *dirs[] = { "/nonexistent/dir" };
	char *msg = NULL;

	assert_null(dirlock_acquire(ts->ctx, dirs, 1, &msg));
	assert_string_equal(msg, "cannot lock /nonexistent/dir: No such file "
				 "or directory");
	talloc_free(msg);
}

/* A directory that takes no new file (/proc): not a place to write. */
static void test_proc_dir(void **state)
{
	struct tstate *ts = *state;
	const char *dirs[] = { "/proc" };
	char *msg = NULL;
	struct stat st;

	if (stat("/proc/self", &st) != 0)
		skip();
	assert_null(dirlock_acquire(ts->ctx, dirs, 1, &msg));
	assert_non_null(msg);
	assert_non_null(strstr(msg, "directory '/proc' is not a place dbench "
				    "can write: creating /proc/.dbench.lock: "));
	talloc_free(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_exclusive),
		T(test_proc_dir),
		T(test_all_or_nothing),
		T(test_not_ours),
		T(test_planted),
		T(test_missing_dir),
		T(test_nested),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
