/*
 * fileio_fixture.h - what the sources of the test_fileio program share: the
 * fixture (a fresh directory, the fileio backend on it), running one op
 * as the engine would, the failure injection the POSIX vfs is built with
 * (test_fileio_inject.c), and the tests, which main() in test_fileio.c
 * runs in one group.
 */
#ifndef DBENCH_FILEIO_FIXTURE_H
#define DBENCH_FILEIO_FIXTURE_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef HAVE_SYS_XATTR_H
#include <sys/xattr.h>
#endif

#include <cmocka.h>
#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"
#include "engine/client.h"
#include "smb_semantics/nbvfs.h"
#include "loadfile/ntstatus.h"
#include "util/options.h"
#include "report/report.h"
#include "util/util.h"
#include "vfs/vfs.h"
#include "vfs/vfs_posix_shared.h"
#include "smb_semantics/wildcard.h"

/* ---- failure injection (test_fileio_inject.c) ---- */

enum pw_mode {
	PW_REAL = 0,
	PW_SHORT,		/* at most 7 bytes per call */
	PW_EINTR_ONCE,		/* first call fails with EINTR */
	PW_SHORT_THEN_ENOSPC,	/* one short write, then ENOSPC */
};

extern enum pw_mode pw_mode;
extern unsigned pw_calls;
/* openat() refuses O_DIRECT with EINVAL */
extern bool oa_refuse_direct;
extern int nosys_lock_err;	/* non-zero: F_SETLK fails with it */
extern int nosys_xattr_err;	/* non-zero: every xattr call fails with it */
void fx_no_openat2(bool on);

/* ---- fixture ---- */

#define NHANDLES 16

struct fx {
	void *ctx;		/* the backend's parent: leak-checked */
	size_t blocks;		/* talloc_total_blocks(ctx) at the start */
	void *tmp;		/* test scratch, a separate tree */
	char *dir;		/* the mkdtemp directory */
	int dfd;
	struct dbench_options opts;
	void *state;		/* fileio state once fx_open() ran */
	/* the engine's hint of each op's directories (struct vfs_hint), as
	 * client.c gives it, or none, or a wrong one: the results must not
	 * depend on it */
	struct vfs_hint hint;
	enum { HINT_RIGHT, HINT_NONE, HINT_WRONG } hint_mode;
	char *dirs[256];	/* the numbers given: dirs[n - 1] */
	unsigned ndirs;
};

/* One operation as the engine would hand it over. */
struct req {
	enum op_kind kind;
	const char *path[2];
	bool shared;		/* path[0] lies above the client directory */
	int32_t handle;
	int64_t arg[PROGRAM_MAX_ARGS];
	const uint8_t *data;
};

int rm_entry(const char *path, const struct stat *sb, int flag,
	     struct FTW *ftw);
int fx_setup(void **cm_state);
int fx_teardown(void **cm_state);
void fx_open(struct fx *fx);
uint32_t run_call(struct fx *fx, const struct req *r, struct op_call *call);
uint32_t run(struct fx *fx, const struct req *r);

#define RUN(fx, ...) run((fx), &(struct req){ __VA_ARGS__ })

/* the statuses, short, for the tables of expected results */
#define OK	NT_STATUS_OK
#define NNF	NT_STATUS_OBJECT_NAME_NOT_FOUND
#define COLL	NT_STATUS_OBJECT_NAME_COLLISION
#define ISDIR	NT_STATUS_FILE_IS_A_DIRECTORY
#define NOTDIR	NT_STATUS_NOT_A_DIRECTORY

/* ---- helpers on the test directory (test_fileio.c) ---- */

void mk_file(struct fx *fx, const char *rel, const char *content);
void mk_dir(struct fx *fx, const char *rel);
int type_of(struct fx *fx, const char *rel);
off_t size_of(struct fx *fx, const char *rel);
unsigned count_fds(void);
uint32_t ntcreatex(struct fx *fx, const char *path, int64_t options,
		   int64_t disp, int32_t handle);
uint32_t close_h(struct fx *fx, int32_t handle);

/* ---- the tests ---- */

/* test_fileio_create.c */
void test_ntcreatex_dispositions(void **cm_state);
void test_ntcreatex_invalid(void **cm_state);
void test_shared_directories(void **cm_state);
void test_missing_parent_vs_missing_file(void **cm_state);
void test_failed_open_keeps_handle(void **cm_state);
void test_cleanup_closes_open_handles(void **cm_state);
void test_unopened_handles(void **cm_state);

/* test_fileio_data.c */
void test_write_read_round_trip(void **cm_state);
void test_readx_past_eof(void **cm_state);
void test_write_failures(void **cm_state);
void test_create_options(void **cm_state);
void test_direct_refused(void **cm_state);
void test_dropcache(void **cm_state);
void test_write_options(void **cm_state);

/* test_fileio_names.c */
void test_rename_unlink_rmdir(void **cm_state);
void test_kept_directories(void **cm_state);
void test_kept_directories_unhinted(void **cm_state);
void test_kept_directories_wrong_hint(void **cm_state);
void test_kept_directories_by_number(void **cm_state);
void test_fds_per_client(void **cm_state);
void test_deltree(void **cm_state);
void test_deltree_and_cleanup_keep_symlink_targets(void **cm_state);
void test_symlinks_on_the_way(void **cm_state);
void test_symlinks_on_the_way_no_openat2(void **cm_state);
void test_symlinks_on_the_way_wrong_hint(void **cm_state);

/* test_fileio_inject.c */
void test_kept_directory_check_by_words(void **cm_state);

/* test_fileio_queries.c */
void test_qpathinfo_resolve(void **cm_state);
void test_fs_and_file_info(void **cm_state);
void test_mask_match(void **cm_state);
void test_find(void **cm_state);
void test_readdir_many(void **cm_state);
void test_lock_conflict(void **cm_state);
void test_sync_options(void **cm_state);
void test_stat_check(void **cm_state);
void test_xattr(void **cm_state);

/* test_fileio_setup.c */
void test_no_locks_no_xattrs(void **cm_state);
void test_no_locks_keep_going(void **cm_state);
void test_no_locks_default(void **cm_state);
void test_no_locks_strict(void **cm_state);
void test_open_parent_nofollow(void **cm_state);
void test_setup_errors(void **cm_state);
void test_null_backend(void **cm_state);
void test_registry(void **cm_state);
void test_deep_tree_bounded_fds(void **cm_state);
void test_trees_check(void **cm_state);

#endif /* DBENCH_FILEIO_FIXTURE_H */
