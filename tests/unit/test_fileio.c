/*
 * test_fileio.c - the fileio and null backends and the registry.
 *
 * Every test works in a fresh mkdtemp directory under /dev/shm and drives
 * the backend through its op table, as the client engine does, with hand
 * built struct op / struct path values.  The POSIX vfs is built into the
 * program with failure injection (test_fileio_inject.c); the tests are
 * spread over test_fileio_*.c by subject, and main() below runs them all
 * in one group.  This file holds the fixture and the helpers they share.
 */
#include "config.h"

#include "fileio_fixture.h"

/* ---- fixture ---- */

int rm_entry(const char *path, const struct stat *sb, int flag,
	     struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int fx_setup(void **cm_state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->ctx = talloc_new(NULL);
	fx->tmp = talloc_new(NULL);
	assert_non_null(fx->ctx);
	assert_non_null(fx->tmp);
	fx->blocks = talloc_total_blocks(fx->ctx);
	fx->dir = talloc_strdup(fx->tmp, "/dev/shm/test_fileio.XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	fx->dfd = open(fx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fx->dfd >= 0);
	*cm_state = fx;
	return 0;
}

int fx_teardown(void **cm_state)
{
	struct fx *fx = *cm_state;

	pw_mode = PW_REAL;
	oa_refuse_direct = false;
	nosys_lock_err = 0;
	nosys_xattr_err = 0;
	fx_no_openat2(false);
	talloc_free(fx->state);
	/* everything the backend allocated went with its state */
	assert_int_equal(talloc_total_blocks(fx->ctx), fx->blocks);
	close(fx->dfd);
	assert_int_equal(nftw(fx->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
	talloc_free(fx->tmp);
	talloc_free(fx->ctx);
	free(fx);
	return 0;
}

/* Set up the fileio backend on the test directory with fx->opts. */
void fx_open(struct fx *fx)
{
	struct backend_client_config cfg = {
		.opts = &fx->opts,
		.client = 0,
		.directory = fx->dir,
		.nhandles = NHANDLES,
		.hint = &fx->hint,
	};
	char *err = NULL;

	talloc_free(fx->state);
	fx->state = NULL;
	assert_int_equal(fileio_backend.setup(fx->ctx, &cfg, &fx->state, &err),
			 0);
	assert_null(err);
	assert_non_null(fx->state);
}

/* The number of path's parent directory in fx's hints (fx->hint_mode). */
static uint32_t fx_dir_number(struct fx *fx, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash != NULL ? (size_t)(slash - path) : 0;
	unsigned i;

	if (fx->hint_mode == HINT_NONE)
		return VFS_DIR_NONE;
	if (slash == NULL)
		return VFS_DIR_ROOT;
	if (fx->hint_mode == HINT_WRONG)
		return 1;	/* every directory claims the same number */
	for (i = 0; i < fx->ndirs; i++)
		if (strlen(fx->dirs[i]) == len &&
		    strncmp(fx->dirs[i], path, len) == 0)
			return i + 1;
	assert_true(fx->ndirs < 256);
	fx->dirs[fx->ndirs] = talloc_strndup(fx->tmp, path, len);
	return ++fx->ndirs;
}

uint32_t run_call(struct fx *fx, const struct req *r,
		  struct op_call *call)
{
	uint32_t status;
	struct path p[2];
	struct op op;
	struct program prog = { .paths = p, .npaths = 2 };
	unsigned i;

	memset(&op, 0, sizeof(op));
	op.path[0] = op.path[1] = PATH_NONE;
	memset(p, 0, sizeof(p));
	memset(call, 0, sizeof(*call));
	op.kind = r->kind;
	op.line = 1;
	op.handle = r->handle;
	for (i = 0; i < 2; i++) {
		if (r->path[i] == NULL)
			continue;
		p[i].text = r->path[i];
		p[i].len = strlen(r->path[i]);
		p[i].client_pos = (i == 0 && r->shared) ? -1 : 0;
		op.path[i] = i;
		call->path[i] = r->path[i];
		fx->hint.path[i] = r->path[i];
		fx->hint.dir[i] = fx_dir_number(fx, r->path[i]);
		/* (the engine knows every path's length) */
		fx->hint.len[i] = fx->hint_mode == HINT_NONE ? 0 :
				  (uint32_t)strlen(r->path[i]);
	}
	for (i = 0; i < PROGRAM_MAX_ARGS; i++)
		call->arg[i] = r->arg[i];
	call->data = r->data;
	call->op = &op;
	call->prog = &prog;
	status = fileio_backend.ops[r->kind](fx->state, call);
	fx->hint.path[0] = fx->hint.path[1] = NULL;
	return status;
}

uint32_t run(struct fx *fx, const struct req *r)
{
	struct op_call call;

	return run_call(fx, r, &call);
}

#define RUN(fx, ...) run((fx), &(struct req){ __VA_ARGS__ })

/* ---- helpers on the test directory (independent of the backend) ---- */

void mk_file(struct fx *fx, const char *rel, const char *content)
{
	int fd = openat(fx->dfd, rel, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t len = strlen(content);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	close(fd);
}

void mk_dir(struct fx *fx, const char *rel)
{
	assert_int_equal(mkdirat(fx->dfd, rel, 0755), 0);
}

/* -1 missing, otherwise the file type bits */
int type_of(struct fx *fx, const char *rel)
{
	struct stat sb;

	if (fstatat(fx->dfd, rel, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	return (int)(sb.st_mode & S_IFMT);
}

off_t size_of(struct fx *fx, const char *rel)
{
	struct stat sb;

	assert_int_equal(fstatat(fx->dfd, rel, &sb, AT_SYMLINK_NOFOLLOW), 0);
	return sb.st_size;
}

unsigned count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned n = 0;

	assert_non_null(d);
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

uint32_t ntcreatex(struct fx *fx, const char *path, int64_t options,
		   int64_t disp, int32_t handle)
{
	return RUN(fx, .kind = OP_NTCREATEX, .path = { path },
		   .handle = handle, .arg = { options, disp });
}

uint32_t close_h(struct fx *fx, int32_t handle)
{
	return RUN(fx, .kind = OP_CLOSE, .handle = handle);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)
		T(test_ntcreatex_dispositions),
		T(test_no_locks_no_xattrs),
		T(test_no_locks_keep_going),
		T(test_no_locks_default),
		T(test_no_locks_strict),
		T(test_open_parent_nofollow),
		T(test_ntcreatex_invalid),
		T(test_shared_directories),
		T(test_missing_parent_vs_missing_file),
		T(test_failed_open_keeps_handle),
		T(test_cleanup_closes_open_handles),
		T(test_unopened_handles),
		T(test_write_read_round_trip),
		T(test_readx_past_eof),
		T(test_write_failures),
		T(test_write_options),
		T(test_create_options),
		T(test_direct_refused),
		T(test_dropcache),
		T(test_rename_unlink_rmdir),
		T(test_deltree),
		T(test_deltree_and_cleanup_keep_symlink_targets),
		T(test_symlinks_on_the_way),
		T(test_deep_tree_bounded_fds),
		T(test_trees_check),
		T(test_symlinks_on_the_way_no_openat2),
	T(test_symlinks_on_the_way_wrong_hint),
		T(test_kept_directories),
	T(test_kept_directories_unhinted),
	T(test_kept_directories_wrong_hint),
	T(test_kept_directories_by_number),
	T(test_kept_directory_check_by_words),
		T(test_fds_per_client),
		T(test_qpathinfo_resolve),
		T(test_fs_and_file_info),
		T(test_mask_match),
		T(test_find),
		T(test_readdir_many),
		T(test_lock_conflict),
		T(test_sync_options),
		T(test_stat_check),
		T(test_xattr),
		T(test_setup_errors),
		T(test_null_backend),
		T(test_registry),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
