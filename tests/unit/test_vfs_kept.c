/*
 * test_vfs_kept.c - the record of kept client trees over a vfs
 * (vfs_kept.c), here the POSIX vfs on a fresh mkdtemp directory under
 * /dev/shm: what a --skip-cleanup run records, what a cleaning run drops,
 * and that a record which is a symlink or a directory is never followed
 * nor written through.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <talloc.h>

#include "talloc_fixture.h"
#include "vfs/vfs.h"
#include "vfs/vfs_kept.h"

static const char *const trees[] = {
	"clients/client0", "clients/client1", "clients/client2",
};
#define NTREES (sizeof(trees) / sizeof(trees[0]))

/* A fresh directory with the vfs on it; *dir is its path (under mem). */
static struct vfs *fresh(void *mem, char **dir)
{
	char *err = NULL;
	struct vfs *vfs;

	*dir = talloc_strdup(mem, "/dev/shm/test_vfs_kept.XXXXXX");
	assert_non_null(*dir);
	assert_non_null(mkdtemp(*dir));
	vfs = vfs_posix_new(mem, *dir, 0, &err);
	assert_non_null(vfs);
	return vfs;
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void gone(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The record's text ("" when there is none). */
static char *record(void *mem, const char *dir)
{
	char *p = talloc_asprintf(mem, "%s/clients/" VFS_KEPT_NAME, dir);
	char buf[256] = "";
	FILE *f = fopen(p, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	talloc_free(p);
	return talloc_strdup(mem, buf);
}

/* mkdir DIR/sub (one component or more, made in order). */
static void mk(void *mem, const char *dir, const char *sub)
{
	char *p = talloc_asprintf(mem, "%s/%s", dir, sub);

	assert_int_equal(mkdir(p, 0755), 0);
	talloc_free(p);
}

/* Kept trees are recorded (real directories only), a cleaning run drops
 * the ones gone, and the record goes with the last. */
static void test_kept_then_cleaned(void **state)
{
	void *mem = ((struct tstate *)*state)->ctx;
	char *dir, *p;
	struct vfs *vfs = fresh(mem, &dir);

	assert_int_equal(vfs_kept_update(mem, vfs, trees, NTREES, true), 0);
	assert_string_equal(record(mem, dir), "");	/* no clients/ */
	mk(mem, dir, "clients");
	mk(mem, dir, "clients/client0");
	mk(mem, dir, "clients/client1");
	p = talloc_asprintf(mem, "%s/clients/client2", dir);
	close(open(p, O_CREAT | O_WRONLY, 0644));	/* a file: no tree */
	assert_int_equal(vfs_kept_update(mem, vfs, trees, NTREES, true), 0);
	assert_string_equal(record(mem, dir), "client0\nclient1\n");
	assert_true(vfs_kept_has(vfs, "clients", "client0"));
	assert_true(vfs_kept_has(vfs, "clients", "client1"));
	assert_false(vfs_kept_has(vfs, "clients", "client2"));
	/* a run that cleaned client1 up */
	p = talloc_asprintf(mem, "%s/clients/client1", dir);
	assert_int_equal(rmdir(p), 0);
	assert_int_equal(vfs_kept_update(mem, vfs, trees, NTREES, false), 0);
	assert_string_equal(record(mem, dir), "client0\n");
	p = talloc_asprintf(mem, "%s/clients/client0", dir);
	assert_int_equal(rmdir(p), 0);
	assert_int_equal(vfs_kept_update(mem, vfs, trees, NTREES, false), 0);
	p = talloc_asprintf(mem, "%s/clients/" VFS_KEPT_NAME, dir);
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(errno, ENOENT);
	gone(dir);
	talloc_free(vfs);
	talloc_free_children(mem);
}

/* A record that is a symlink names nothing and is never written through;
 * one that is a directory names nothing and is left alone. */
static void test_record_not_a_file(void **state)
{
	void *mem = ((struct tstate *)*state)->ctx;
	char *dir, *outside, *rec;
	struct vfs *vfs = fresh(mem, &dir);
	struct stat sb;
	FILE *f;

	mk(mem, dir, "clients");
	mk(mem, dir, "clients/client0");
	outside = talloc_asprintf(mem, "%s/outside", dir);
	f = fopen(outside, "w");
	assert_non_null(f);
	fputs("client0\n", f);
	fclose(f);
	rec = talloc_asprintf(mem, "%s/clients/" VFS_KEPT_NAME, dir);
	assert_int_equal(symlink(outside, rec), 0);
	assert_false(vfs_kept_has(vfs, "clients", "client0"));
	assert_int_equal(vfs_kept_update(mem, vfs, trees, NTREES, true),
			 -ELOOP);
	assert_int_equal(lstat(rec, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(stat(outside, &sb), 0);
	assert_int_equal(sb.st_size, 8);
	assert_int_equal(unlink(rec), 0);
	assert_int_equal(mkdir(rec, 0755), 0);
	assert_false(vfs_kept_has(vfs, "clients", "client0"));
	assert_int_equal(vfs_kept_update(mem, vfs, trees, NTREES, true),
			 -EEXIST);
	assert_int_equal(lstat(rec, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	gone(dir);
	talloc_free(vfs);
	talloc_free_children(mem);
}

/* Lines that are no tree's name are ignored; no trees is nothing to do. */
static void test_odd_lines(void **state)
{
	void *mem = ((struct tstate *)*state)->ctx;
	char *dir, *rec;
	struct vfs *vfs = fresh(mem, &dir);
	FILE *f;

	mk(mem, dir, "clients");
	mk(mem, dir, "clients/client0");
	rec = talloc_asprintf(mem, "%s/clients/" VFS_KEPT_NAME, dir);
	f = fopen(rec, "w");
	assert_non_null(f);
	fputs("..\na/b\n\nclient0\n", f);
	fclose(f);
	assert_true(vfs_kept_has(vfs, "clients", "client0"));
	assert_false(vfs_kept_has(vfs, "clients", ".."));
	assert_int_equal(vfs_kept_update(mem, vfs, trees, 0, true), 0);
	assert_int_equal(vfs_kept_update(mem, vfs, trees, NTREES, false), 0);
	assert_string_equal(record(mem, dir), "..\na/b\n\nclient0\n");
	gone(dir);
	talloc_free(vfs);
	talloc_free_children(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kept_then_cleaned, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_record_not_a_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_odd_lines, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
