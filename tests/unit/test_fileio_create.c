/*
 * test_fileio_create.c - test_fileio's NTCreateX tests: every disposition
 * against nothing, a file and a directory; shared directories; the
 * statuses of a missing parent; handles kept or not.
 */
#include "config.h"

#include "fileio_fixture.h"

/* ---- NTCreateX ---- */

enum existing { NONE, FILE_, DIR_ };

struct create_case {
	enum existing before;
	int64_t options;
	int64_t disp;
	uint32_t status;
	enum existing after;
	off_t size;		/* the file's size afterwards (FILE_ only) */
};

static const struct create_case create_cases[] = {
	/* files (0x40), nothing there */
	{ NONE, 0x40, 0, OK, FILE_, 0 },
	{ NONE, 0x40, 1, NNF, NONE, 0 },
	{ NONE, 0x40, 2, OK, FILE_, 0 },
	{ NONE, 0x40, 3, OK, FILE_, 0 },
	{ NONE, 0x40, 4, NNF, NONE, 0 },
	{ NONE, 0x40, 5, OK, FILE_, 0 },
	/* files (0x40), a 5-byte file there */
	{ FILE_, 0x40, 0, OK, FILE_, 0 },
	{ FILE_, 0x40, 1, OK, FILE_, 5 },
	{ FILE_, 0x40, 2, COLL, FILE_, 5 },
	{ FILE_, 0x40, 3, OK, FILE_, 5 },
	{ FILE_, 0x40, 4, OK, FILE_, 0 },
	{ FILE_, 0x40, 5, OK, FILE_, 0 },
	/* files (0x40), a directory there */
	{ DIR_, 0x40, 0, ISDIR, DIR_, 0 },
	{ DIR_, 0x40, 1, ISDIR, DIR_, 0 },
	{ DIR_, 0x40, 2, COLL, DIR_, 0 },
	{ DIR_, 0x40, 3, ISDIR, DIR_, 0 },
	{ DIR_, 0x40, 4, ISDIR, DIR_, 0 },
	{ DIR_, 0x40, 5, ISDIR, DIR_, 0 },
	/* no option: like 0x40 for files */
	{ NONE, 0, 0, OK, FILE_, 0 },
	{ NONE, 0, 1, NNF, NONE, 0 },
	{ NONE, 0, 3, OK, FILE_, 0 },
	{ FILE_, 0, 1, OK, FILE_, 5 },
	{ FILE_, 0, 2, COLL, FILE_, 5 },
	{ FILE_, 0, 5, OK, FILE_, 0 },
	/* no option, a directory there: opening it is fine */
	{ DIR_, 0, 0, ISDIR, DIR_, 0 },
	{ DIR_, 0, 1, OK, DIR_, 0 },
	{ DIR_, 0, 2, COLL, DIR_, 0 },
	{ DIR_, 0, 3, OK, DIR_, 0 },
	{ DIR_, 0, 4, ISDIR, DIR_, 0 },
	{ DIR_, 0, 5, ISDIR, DIR_, 0 },
	/* directories (0x1), nothing there */
	{ NONE, 0x1, 0, OK, DIR_, 0 },
	{ NONE, 0x1, 1, NNF, NONE, 0 },
	{ NONE, 0x1, 2, OK, DIR_, 0 },
	{ NONE, 0x1, 3, OK, DIR_, 0 },
	{ NONE, 0x1, 4, NNF, NONE, 0 },
	{ NONE, 0x1, 5, OK, DIR_, 0 },
	/* directories (0x1), a directory there */
	{ DIR_, 0x1, 0, OK, DIR_, 0 },
	{ DIR_, 0x1, 1, OK, DIR_, 0 },
	{ DIR_, 0x1, 2, COLL, DIR_, 0 },
	{ DIR_, 0x1, 3, OK, DIR_, 0 },
	{ DIR_, 0x1, 4, OK, DIR_, 0 },
	{ DIR_, 0x1, 5, OK, DIR_, 0 },
	/* directories (0x1), a file there */
	{ FILE_, 0x1, 0, NOTDIR, FILE_, 5 },
	{ FILE_, 0x1, 1, NOTDIR, FILE_, 5 },
	{ FILE_, 0x1, 2, COLL, FILE_, 5 },
	{ FILE_, 0x1, 3, NOTDIR, FILE_, 5 },
	{ FILE_, 0x1, 4, NOTDIR, FILE_, 5 },
	{ FILE_, 0x1, 5, NOTDIR, FILE_, 5 },
};

void test_ntcreatex_dispositions(void **cm_state)
{
	struct fx *fx = *cm_state;
	size_t i;

	fx_open(fx);
	for (i = 0; i < sizeof(create_cases) / sizeof(create_cases[0]); i++) {
		const struct create_case *c = &create_cases[i];
		char *name = talloc_asprintf(fx->tmp, "obj%zu", i);
		int type;

		if (c->before == FILE_)
			mk_file(fx, name, "hello");
		else if (c->before == DIR_)
			mk_dir(fx, name);

		print_message("case %zu: existing %d options 0x%x disp %d\n", i,
			      c->before, (unsigned)c->options, (int)c->disp);
		assert_int_equal(ntcreatex(fx, name, c->options, c->disp, 3),
				 c->status);
		type = type_of(fx, name);
		switch (c->after) {
		case NONE:
			assert_int_equal(type, -1);
			break;
		case FILE_:
			assert_int_equal(type, S_IFREG);
			assert_int_equal(size_of(fx, name), c->size);
			break;
		case DIR_:
			assert_int_equal(type, S_IFDIR);
			break;
		}
		/* a handle exactly when the open succeeded */
		assert_int_equal(close_h(fx, 3), c->status == OK ?
				 NT_STATUS_OK : NT_STATUS_INVALID_HANDLE);
	}
}

void test_ntcreatex_invalid(void **cm_state)
{
	struct fx *fx = *cm_state;
	struct op_call call;

	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 6, 0),
			 NT_STATUS_INVALID_PARAMETER);
	assert_int_equal(ntcreatex(fx, "f", 0x41, 2, 0),
			 NT_STATUS_INVALID_PARAMETER);
	assert_int_equal(type_of(fx, "f"), -1);
	/* a slot beyond the table */
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_NTCREATEX,
			.path = { "f" }, .handle = NHANDLES,
			.arg = { 0x40, 2 } }, &call), NT_STATUS_INVALID_HANDLE);
	assert_int_equal(call.err, EBADF);
}

void test_shared_directories(void **cm_state)
{
	struct fx *fx = *cm_state;

	fx_open(fx);
	/* another client made "clients" already: still success */
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "clients" },
			     .shared = true), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "clients" },
			     .shared = true), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "clients"), S_IFDIR);
	assert_int_equal(RUN(fx, .kind = OP_NTCREATEX, .path = { "clients" },
			     .shared = true, .handle = 1, .arg = { 0x1, 2 }),
			 NT_STATUS_OK);
	assert_int_equal(close_h(fx, 1), NT_STATUS_OK);

	/* a client's own directory: the second create collides */
	assert_int_equal(RUN(fx, .kind = OP_MKDIR,
			     .path = { "clients/client0" }), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR,
			     .path = { "clients/client0" }),
			 NT_STATUS_OBJECT_NAME_COLLISION);
	assert_int_equal(ntcreatex(fx, "clients/client0", 0x1, 2, 1),
			 NT_STATUS_OBJECT_NAME_COLLISION);

	/* shared, but a file of that name is not a directory */
	mk_file(fx, "notdir", "x");
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "notdir" },
			     .shared = true), NT_STATUS_OBJECT_NAME_COLLISION);
	assert_int_equal(RUN(fx, .kind = OP_NTCREATEX, .path = { "notdir" },
			     .shared = true, .handle = 1, .arg = { 0x1, 2 }),
			 NT_STATUS_NOT_A_DIRECTORY);
}

void test_missing_parent_vs_missing_file(void **cm_state)
{
	struct fx *fx = *cm_state;
	static const struct {
		const char *path;
		uint32_t status;
	} cases[] = {
		{ "nofile", NT_STATUS_OBJECT_NAME_NOT_FOUND },
		{ "dir/nofile", NT_STATUS_OBJECT_NAME_NOT_FOUND },
		{ "nodir/file", NT_STATUS_OBJECT_PATH_NOT_FOUND },
		{ "dir/nodir/file", NT_STATUS_OBJECT_PATH_NOT_FOUND },
		{ "file/x", NT_STATUS_OBJECT_PATH_NOT_FOUND },
	};
	size_t i;

	fx_open(fx);
	mk_dir(fx, "dir");
	mk_file(fx, "file", "x");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = cases[i].path;
		struct op_call call;

		print_message("path %s\n", p);
		assert_int_equal(run_call(fx, &(struct req){
				.kind = OP_NTCREATEX, .path = { p },
				.arg = { 0x40, 1 } }, &call), cases[i].status);
		assert_int_not_equal(call.err, 0);
		assert_int_equal(ntcreatex(fx, p, 0x1, 1, 0), cases[i].status);
		assert_int_equal(RUN(fx, .kind = OP_QPATHINFO, .path = { p },
				     .arg = { 1004 }), cases[i].status);
		assert_int_equal(RUN(fx, .kind = OP_UNLINK, .path = { p }),
				 cases[i].status);
		assert_int_equal(RUN(fx, .kind = OP_RMDIR, .path = { p }),
				 cases[i].status);
	}
	/* creating below a missing directory: the path is what is missing */
	assert_int_equal(ntcreatex(fx, "nodir/f", 0x40, 2, 0),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(ntcreatex(fx, "nodir/d", 0x1, 2, 0),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "nodir/d" }),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_MKDIR, .path = { "file/d" }),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
}

/* A failed open names a handle but allocates none: the old one stays. */
void test_failed_open_keeps_handle(void **cm_state)
{
	struct fx *fx = *cm_state;
	const uint8_t data[4] = { 1, 2, 3, 4 };
	unsigned fds;

	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "a", 0x40, 2, 5), NT_STATUS_OK);
	fds = count_fds();
	assert_int_equal(ntcreatex(fx, "missing", 0x40, 1, 5),
			 NT_STATUS_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 5,
			     .arg = { 0, 4, 4 }, .data = data), NT_STATUS_OK);
	assert_int_equal(size_of(fx, "a"), 4);

	/* a successful open on an open slot replaces it without a leak */
	assert_int_equal(ntcreatex(fx, "b", 0x40, 2, 5), NT_STATUS_OK);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 5,
			     .arg = { 0, 2, 2 }, .data = data), NT_STATUS_OK);
	assert_int_equal(size_of(fx, "b"), 2);
	assert_int_equal(size_of(fx, "a"), 4);
	assert_int_equal(close_h(fx, 5), NT_STATUS_OK);
	assert_int_equal(count_fds(), fds - 1);
}

/*
 * Cleanup closes exactly what is still open: slots opened, replaced and
 * closed in any order, once; the slots can be used again afterwards.
 */
void test_cleanup_closes_open_handles(void **cm_state)
{
	struct fx *fx = *cm_state;
	unsigned fds;

	fx_open(fx);
	fds = count_fds();
	assert_int_equal(ntcreatex(fx, "a", 0x40, 2, 9), NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "b", 0x40, 2, 2), NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "c", 0x40, 2, 4), NT_STATUS_OK);
	assert_int_equal(ntcreatex(fx, "d", 0x40, 2, 9), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 4), NT_STATUS_OK);
	assert_int_equal(count_fds(), fds + 2);

	assert_int_equal(fileio_backend.cleanup(fx->state, "nothing/here"), 0);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(close_h(fx, 9), NT_STATUS_INVALID_HANDLE);
	assert_int_equal(close_h(fx, 2), NT_STATUS_INVALID_HANDLE);
	assert_int_equal(fileio_backend.cleanup(fx->state, "nothing/here"), 0);
	assert_int_equal(count_fds(), fds);

	assert_int_equal(ntcreatex(fx, "a", 0x40, 1, 2), NT_STATUS_OK);
	assert_int_equal(count_fds(), fds + 1);
	assert_int_equal(fileio_backend.cleanup(fx->state, "nothing/here"), 0);
	assert_int_equal(count_fds(), fds);
}

/* ---- handles ---- */

void test_unopened_handles(void **cm_state)
{
	struct fx *fx = *cm_state;
	static const enum op_kind kinds[] = {
		OP_CLOSE, OP_FLUSH, OP_WRITEX, OP_READX, OP_QFILEINFO,
		OP_SFILEINFO, OP_LOCKX, OP_UNLOCKX,
	};
	static const int32_t slots[] = { 0, NHANDLES - 1, NHANDLES, -1 };
	const uint8_t data[8] = { 0 };
	size_t i, j;

	fx_open(fx);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		for (j = 0; j < sizeof(slots) / sizeof(slots[0]); j++) {
			struct op_call call;

			assert_int_equal(run_call(fx, &(struct req){
					.kind = kinds[i], .handle = slots[j],
					.arg = { 0, 8, 8 }, .data = data },
					&call), NT_STATUS_INVALID_HANDLE);
			assert_int_equal(call.err, EBADF);
		}
	}
	/* closed twice: the second close finds nothing */
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 0), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 0), NT_STATUS_INVALID_HANDLE);
}
