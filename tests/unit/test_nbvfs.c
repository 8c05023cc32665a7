/*
 * test_nbvfs.c - the SMB semantics (nbvfs) once, over the in-memory vfs of
 * the memfs backend, and the wildcard matcher.
 *
 * Each test makes a private in-memory tree, an nbvfs over it, and drives
 * the nbvfs op functions as the client engine does.  The tree is looked at
 * through the vfs itself.  Teardown checks that freeing the nbvfs freed
 * everything (handles, tree).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <talloc.h>

#include "backends/backend.h"
#include "smb_semantics/nbvfs.h"
#include "loadfile/ntstatus.h"
#include "util/options.h"
#include "vfs/vfs.h"
#include "smb_semantics/wildcard.h"

#include "talloc_fixture.h"

/* The in-memory vfs of src/backends/memfs.c. */
struct vfs *memfs_vfs_new(void *mem_ctx, unsigned caps);

#define SLOTS 8

struct nbt {
	struct tstate *ts;
	struct dbench_options opts;
	struct vfs *vfs;	/* owned by nb */
	struct nbvfs *nb;
	const uint8_t *data;	/* WriteX data op() hands over */
};

static struct nbt *nbt_of(void **state)
{
	struct tstate *ts = *state;
	struct nbt *t = talloc_zero(ts->ctx, struct nbt);

	assert_non_null(t);
	t->ts = ts;
	return t;
}

/* (Re)make the nbvfs over a fresh tree with t->opts and caps. */
static void nbt_open(struct nbt *t, unsigned caps)
{
	talloc_free(t->nb);
	t->vfs = memfs_vfs_new(t, caps);
	assert_non_null(t->vfs);
	t->nb = nbvfs_new(t, t->vfs, &t->opts, SLOTS);
	assert_non_null(t->nb);
}

/* One op: kind, handle slot, up to two paths, args; shared: path[0] lies
 * above the client directory. */
static uint32_t op(struct nbt *t, struct op_call *call, enum op_kind kind,
		   int32_t slot, const char *p0, const char *p1,
		   const int64_t *args, bool shared)
{
	static const backend_op_fn fns[OP_NUM_MEASURED] = { NBVFS_OPS };
	struct path paths[2] = { { 0 } };
	struct program prog = { .paths = paths, .npaths = 2 };
	struct op o = { .path = { PATH_NONE, PATH_NONE } };
	const char *p[2] = { p0, p1 };

	memset(call, 0, sizeof(*call));
	o.kind = kind;
	o.handle = slot;
	for (unsigned i = 0; i < 2; i++) {
		if (p[i] == NULL)
			continue;
		paths[i].text = p[i];
		paths[i].len = strlen(p[i]);
		paths[i].client_pos = i == 0 && shared ? -1 : 0;
		o.path[i] = i;
		call->path[i] = p[i];
	}
	for (unsigned i = 0; args != NULL && i < 3; i++)
		call->arg[i] = args[i];
	call->data = t->data;
	call->op = &o;
	call->prog = &prog;
	return fns[kind](t->nb, call);
}

#define ARGS(...) ((const int64_t[3]){ __VA_ARGS__ })

static uint32_t create(struct nbt *t, const char *path, int64_t options,
		       int64_t disp, int32_t slot)
{
	struct op_call c;

	return op(t, &c, OP_NTCREATEX, slot, path, NULL,
		  ARGS(options, disp, 0), false);
}

static uint32_t on_path(struct nbt *t, enum op_kind kind, const char *p0,
			const char *p1)
{
	struct op_call c;

	return op(t, &c, kind, -1, p0, p1, NULL, false);
}

static uint32_t on_handle(struct nbt *t, enum op_kind kind, int32_t slot)
{
	struct op_call c;

	return op(t, &c, kind, slot, NULL, NULL, NULL, false);
}

/* The type bits of path in the tree, 0 if missing; its size in *size. */
static mode_t type_at(struct nbt *t, const char *path, off_t *size)
{
	struct stat sb;

	if (t->vfs->ops->stat(t->vfs, path, &sb) != 0)
		return 0;
	if (size != NULL)
		*size = sb.st_size;
	return sb.st_mode & S_IFMT;
}

/* A file with content, made through the vfs. */
static void put_file(struct nbt *t, const char *path, const char *content)
{
	int fh = t->vfs->ops->open(t->vfs, path, O_RDWR | O_CREAT, 0644);
	size_t n = strlen(content);

	assert_true(fh >= 0);
	assert_int_equal(t->vfs->ops->pwrite(t->vfs, fh, content, n, 0),
			 (ssize_t)n);
	assert_int_equal(t->vfs->ops->close(t->vfs, fh), 0);
}

static void put_dir(struct nbt *t, const char *path)
{
	assert_int_equal(t->vfs->ops->mkdir(t->vfs, path, 0755), 0);
}

/* ---- NTCreateX ---- */

enum thing { NOTHING, A_FILE, A_DIR };

/* One row: what is there, the create options, then per disposition 0..5
 * the status and what is there afterwards. */
struct disp_row {
	enum thing before;
	int64_t options;
	uint32_t status[6];
	enum thing after[6];
};

#define S_OK	NT_STATUS_OK
#define S_NNF	NT_STATUS_OBJECT_NAME_NOT_FOUND
#define S_COLL	NT_STATUS_OBJECT_NAME_COLLISION
#define S_ISD	NT_STATUS_FILE_IS_A_DIRECTORY
#define S_NOTD	NT_STATUS_NOT_A_DIRECTORY

static const struct disp_row disp_rows[] = {
	{ NOTHING, 0x40, { S_OK, S_NNF, S_OK, S_OK, S_NNF, S_OK },
	  { A_FILE, NOTHING, A_FILE, A_FILE, NOTHING, A_FILE } },
	{ A_FILE, 0x40, { S_OK, S_OK, S_COLL, S_OK, S_OK, S_OK },
	  { A_FILE, A_FILE, A_FILE, A_FILE, A_FILE, A_FILE } },
	{ A_DIR, 0x40, { S_ISD, S_ISD, S_COLL, S_ISD, S_ISD, S_ISD },
	  { A_DIR, A_DIR, A_DIR, A_DIR, A_DIR, A_DIR } },
	{ A_DIR, 0, { S_ISD, S_OK, S_COLL, S_OK, S_ISD, S_ISD },
	  { A_DIR, A_DIR, A_DIR, A_DIR, A_DIR, A_DIR } },
	{ NOTHING, 0x1, { S_OK, S_NNF, S_OK, S_OK, S_NNF, S_OK },
	  { A_DIR, NOTHING, A_DIR, A_DIR, NOTHING, A_DIR } },
	{ A_DIR, 0x1, { S_OK, S_OK, S_COLL, S_OK, S_OK, S_OK },
	  { A_DIR, A_DIR, A_DIR, A_DIR, A_DIR, A_DIR } },
	{ A_FILE, 0x1, { S_NOTD, S_NOTD, S_COLL, S_NOTD, S_NOTD, S_NOTD },
	  { A_FILE, A_FILE, A_FILE, A_FILE, A_FILE, A_FILE } },
};

static void test_dispositions(void **state)
{
	static const mode_t type[] = { 0, S_IFREG, S_IFDIR };
	struct nbt *t = nbt_of(state);

	nbt_open(t, 0);
	for (size_t r = 0; r < sizeof(disp_rows) / sizeof(disp_rows[0]); r++) {
		const struct disp_row *row = &disp_rows[r];

		for (int d = 0; d < 6; d++) {
			char *name = talloc_asprintf(t, "o%zu_%d", r, d);
			off_t size = -1;

			if (row->before == A_FILE)
				put_file(t, name, "hello");
			else if (row->before == A_DIR)
				put_dir(t, name);
			print_message("row %zu disposition %d\n", r, d);
			assert_int_equal(create(t, name, row->options, d, 3),
					 row->status[d]);
			assert_int_equal(type_at(t, name, &size),
					 type[row->after[d]]);
			/* supersede and overwrite truncate an existing file */
			if (row->before == A_FILE && row->options == 0x40)
				assert_int_equal(size, (d == 0 || d >= 4) &&
						 row->status[d] == S_OK ? 0 : 5);
			/* a handle exactly when the open succeeded */
			assert_int_equal(on_handle(t, OP_CLOSE, 3),
					 row->status[d] == S_OK ? S_OK :
					 NT_STATUS_INVALID_HANDLE);
			talloc_free(name);
		}
	}
	/* an unknown disposition, both directory options, a slot too far */
	assert_int_equal(create(t, "x", 0x40, 6, 1),
			 NT_STATUS_INVALID_PARAMETER);
	assert_int_equal(create(t, "x", 0x41, 2, 1),
			 NT_STATUS_INVALID_PARAMETER);
	assert_int_equal(create(t, "x", 0x40, 2, SLOTS),
			 NT_STATUS_INVALID_HANDLE);
	assert_int_equal(type_at(t, "x", NULL), 0);
	talloc_free(t);
}

/* ---- lookup and status disambiguation ---- */

static void test_missing_leaf_or_parent(void **state)
{
	struct nbt *t = nbt_of(state);

	nbt_open(t, 0);
	put_dir(t, "d");
	put_file(t, "d/f", "x");
	put_dir(t, "d/full");
	put_file(t, "d/full/g", "y");
	/* the leaf missing vs a directory on the way missing or a file */
	assert_int_equal(create(t, "d/nothing", 0x40, 1, 0), S_NNF);
	assert_int_equal(create(t, "nodir/f", 0x40, 1, 0),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(create(t, "d/f/x", 0x40, 1, 0),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(on_path(t, OP_QPATHINFO, "d/nothing", NULL), S_NNF);
	assert_int_equal(on_path(t, OP_QPATHINFO, "a/b/c", NULL),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(on_path(t, OP_UNLINK, "d/nothing", NULL), S_NNF);
	assert_int_equal(on_path(t, OP_UNLINK, "x/nothing", NULL),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(on_path(t, OP_MKDIR, "x/y", NULL),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	assert_int_equal(on_path(t, OP_RENAME, "d/nothing", "d/z"), S_NNF);
	assert_int_equal(on_path(t, OP_RENAME, "d/f", "nodir/z"),
			 NT_STATUS_OBJECT_PATH_NOT_FOUND);
	/* what the object is */
	assert_int_equal(on_path(t, OP_RMDIR, "d/f", NULL), S_NOTD);
	assert_int_equal(on_path(t, OP_UNLINK, "d/full", NULL), S_ISD);
	assert_int_equal(on_path(t, OP_RMDIR, "d/full", NULL),
			 NT_STATUS_DIRECTORY_NOT_EMPTY);
	assert_int_equal(on_path(t, OP_MKDIR, "d", NULL), S_COLL);
	/* ... unless shared: another client made it */
	{
		struct op_call c;

		assert_int_equal(op(t, &c, OP_MKDIR, -1, "d", NULL, NULL,
				    true), S_OK);
		assert_int_equal(op(t, &c, OP_NTCREATEX, -1, "d", NULL,
				    ARGS(0x1, 2, 0), true), S_OK);
		assert_int_equal(op(t, &c, OP_NTCREATEX, -1, "d", NULL,
				    ARGS(0x1, 2, 0), false), S_COLL);
		assert_int_equal(c.err, EEXIST);
	}
	/* and the ones that work */
	assert_int_equal(on_path(t, OP_RENAME, "d/f", "d/full/f2"), S_OK);
	assert_int_equal(type_at(t, "d/full/f2", NULL), S_IFREG);
	assert_int_equal(on_path(t, OP_UNLINK, "d/full/f2", NULL), S_OK);
	assert_int_equal(on_path(t, OP_DELTREE, "d", NULL), S_OK);
	assert_int_equal(type_at(t, "d", NULL), 0);
	assert_int_equal(on_path(t, OP_DELTREE, "d", NULL), S_OK);
	talloc_free(t);
}

/* The case-insensitive lookup: by a scan, off with --no-resolve, and
 * left to a vfs that matches names itself. */
static void test_lookup_case(void **state)
{
	static const struct {
		unsigned caps;
		bool no_resolve;
		uint32_t other_case;
	} modes[] = {
		{ 0, false, S_OK },
		{ 0, true, S_NNF },
		{ VFS_CASE_INSENSITIVE, false, S_OK },
		{ VFS_CASE_INSENSITIVE, true, S_OK },
	};
	struct nbt *t = nbt_of(state);

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		t->opts.no_resolve = modes[i].no_resolve;
		nbt_open(t, modes[i].caps);
		put_dir(t, "Dir");
		put_file(t, "Dir/File.TXT", "x");
		print_message("mode %zu\n", i);
		assert_int_equal(on_path(t, OP_QPATHINFO, "Dir/File.TXT",
					 NULL), S_OK);
		assert_int_equal(on_path(t, OP_QPATHINFO, "Dir/FILE.txt",
					 NULL), modes[i].other_case);
		assert_int_equal(on_path(t, OP_QPATHINFO, "Dir/other",
					 NULL), S_NNF);
		/* '[' and '{' differ in the case bit but are not letters */
		put_file(t, "Dir/x[1", "x");
		if (modes[i].caps == 0)
			assert_int_equal(on_path(t, OP_QPATHINFO, "Dir/X{1",
						 NULL), S_NNF);
		assert_int_equal(on_path(t, OP_QPATHINFO, "Dir/X[1", NULL),
				 modes[i].other_case);
		assert_int_equal(on_path(t, OP_QPATHINFO, "", NULL), S_OK);
		assert_int_equal(on_path(t, OP_FIND, "Dir/file.txt", NULL),
				 modes[i].other_case == S_OK ?
				 S_OK : NT_STATUS_NO_SUCH_FILE);
	}
	talloc_free(t);
}

/* ---- FIND_FIRST ---- */

static void test_find_counts(void **state)
{
	static const struct {
		const char *pattern;
		int64_t max;
		uint32_t status;
		int64_t count;
	} cases[] = {
		{ "d/*", 0, S_OK, 6 },		/* four, "." and ".." */
		{ "d/*", 2, S_OK, 2 },
		{ "d/*.jnk", 100, S_OK, 2 },
		{ "d/<.JNK", 100, S_OK, 2 },
		{ "d/?.TXT", 100, S_OK, 1 },
		{ "d/>>.txt", 100, S_OK, 1 },
		{ "d/*.doc", 100, NT_STATUS_NO_SUCH_FILE, 0 },
		{ "e/*", 100, S_OK, 2 },
		{ "*", 100, S_OK, 4 },		/* d, e, "." and ".." */
		{ "nodir/*", 100, NT_STATUS_OBJECT_PATH_NOT_FOUND, 0 },
		{ "d/c.txt/*", 100, NT_STATUS_OBJECT_PATH_NOT_FOUND, 0 },
		{ "d/c.txt", 100, S_OK, 1 },	/* a name: found or not */
		{ "d/none", 100, NT_STATUS_NO_SUCH_FILE, 0 },
	};
	struct nbt *t = nbt_of(state);

	nbt_open(t, 0);
	put_dir(t, "d");
	put_dir(t, "e");
	put_file(t, "d/A.JNK", "");
	put_file(t, "d/b.jnk", "");
	put_file(t, "d/c.txt", "");
	put_file(t, "d/D", "");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct op_call c;

		print_message("%s max %d\n", cases[i].pattern,
			      (int)cases[i].max);
		assert_int_equal(op(t, &c, OP_FIND, -1, cases[i].pattern,
				    NULL, ARGS(260, cases[i].max, 0), false),
				 cases[i].status);
		if (cases[i].status == S_OK)
			assert_int_equal(c.result, cases[i].count);
	}
	talloc_free(t);
}

/* ---- handles and I/O ---- */

/* ReadX, LockX, UnlockX: offset and size (ReadX expects size bytes). */
static uint32_t io(struct nbt *t, struct op_call *c, enum op_kind kind,
		   int32_t slot, int64_t off, int64_t size)
{
	return op(t, c, kind, slot, NULL, NULL, ARGS(off, size, size), false);
}

/* WriteX of n bytes of data at off. */
static uint32_t write_n(struct nbt *t, int32_t slot, int64_t off,
			const void *data, int64_t n)
{
	struct op_call c;
	uint32_t s;

	t->data = data;
	s = op(t, &c, OP_WRITEX, slot, NULL, NULL, ARGS(off, n, 0), false);
	t->data = NULL;
	return s;
}

static uint32_t write_at(struct nbt *t, int32_t slot, int64_t off,
			 const char *data)
{
	return write_n(t, slot, off, data, (int64_t)strlen(data));
}

static void test_handles_and_io(void **state)
{
	struct nbt *t = nbt_of(state);
	struct op_call c;
	off_t size = 0;

	nbt_open(t, 0);
	assert_int_equal(create(t, "f", 0x40, 2, 1), S_OK);
	assert_int_equal(write_at(t, 1, 0, "0123456789"), S_OK);
	assert_int_equal(io(t, &c, OP_READX, 1, 0, 10), S_OK);
	assert_int_equal(c.bytes, 10);
	/* the file is short: END_OF_FILE */
	assert_int_equal(io(t, &c, OP_READX, 1, 5, 10),
			 NT_STATUS_END_OF_FILE);
	assert_int_equal(on_handle(t, OP_QFILEINFO, 1), S_OK);
	assert_int_equal(on_handle(t, OP_SFILEINFO, 1), S_OK);
	assert_int_equal(on_handle(t, OP_FLUSH, 1), S_OK);
	assert_int_equal(on_handle(t, OP_DROPCACHE, 1), S_OK);
	assert_int_equal(io(t, &c, OP_LOCKX, 1, 0, 4), S_OK);
	assert_int_equal(io(t, &c, OP_UNLOCKX, 1, 0, 4), S_OK);
	/* a failed open leaves the slot's handle as it was */
	assert_int_equal(create(t, "missing", 0x40, 1, 1), S_NNF);
	assert_int_equal(io(t, &c, OP_READX, 1, 0, 10), S_OK);
	assert_int_equal(on_handle(t, OP_CLOSE, 1), S_OK);
	/* closed, never opened, out of range */
	assert_int_equal(on_handle(t, OP_CLOSE, 1), NT_STATUS_INVALID_HANDLE);
	assert_int_equal(on_handle(t, OP_QFILEINFO, 2),
			 NT_STATUS_INVALID_HANDLE);
	assert_int_equal(io(t, &c, OP_READX, SLOTS + 3, 0, 1),
			 NT_STATUS_INVALID_HANDLE);
	assert_int_equal(c.err, EBADF);
	assert_int_equal(write_at(t, 1, 0, "x"), NT_STATUS_INVALID_HANDLE);
	/* a directory handle cannot be written */
	assert_int_equal(create(t, "dir", 0x1, 2, 2), S_OK);
	assert_int_equal(write_at(t, 2, 0, "x"), S_ISD);
	assert_int_equal(nbvfs_handle_fh(t->nb, 2) >= 0, true);
	assert_int_equal(nbvfs_handle_fh(t->nb, 1), -1);
	/* --one-byte-write-fix: a zero past the end is a truncate */
	t->opts.one_byte_write_fix = true;
	assert_int_equal(create(t, "f", 0x40, 1, 3), S_OK);
	assert_int_equal(write_at(t, 3, 99, ""), S_OK);	/* size 0: nothing */
	assert_int_equal(write_n(t, 3, 19, "", 1), S_OK);	/* one zero */
	assert_int_equal(type_at(t, "f", &size), S_IFREG);
	assert_int_equal(size, 20);
	/* --fake-io: nothing reaches the file */
	t->opts.fake_io = true;
	assert_int_equal(write_at(t, 3, 100, "abc"), S_OK);
	assert_int_equal(type_at(t, "f", &size), S_IFREG);
	assert_int_equal(size, 20);
	/* -x on a vfs without attributes: a clear failure */
	t->opts.fake_io = false;
	t->opts.xattr = true;
	assert_int_equal(on_handle(t, OP_QFILEINFO, 3),
			 NT_STATUS_NOT_SUPPORTED);
	assert_int_equal(create(t, "g", 0x40, 2, 4),
			 NT_STATUS_NOT_SUPPORTED);
	assert_int_equal(on_handle(t, OP_CLOSE, 4), NT_STATUS_INVALID_HANDLE);
	/* the open handles go with the nbvfs (teardown checks the blocks) */
	talloc_free(t);
}

/* --stat-check: no call for what the lookup shows cannot work. */
static void test_stat_check(void **state)
{
	struct nbt *t = nbt_of(state);

	t->opts.stat_check = true;
	nbt_open(t, 0);
	put_file(t, "f", "x");
	put_dir(t, "d");
	assert_int_equal(create(t, "f", 0x40, 2, 0), S_COLL);
	assert_int_equal(create(t, "d", 0x1, 2, 0), S_COLL);
	assert_int_equal(on_path(t, OP_MKDIR, "d", NULL), S_COLL);
	assert_int_equal(on_path(t, OP_RMDIR, "f", NULL), S_NOTD);
	assert_int_equal(on_path(t, OP_RENAME, "nothing", "x"), S_NNF);
	assert_int_equal(on_path(t, OP_RENAME, "F", "x"), S_NNF);
	assert_int_equal(type_at(t, "f", NULL), S_IFREG);
	assert_int_equal(on_path(t, OP_RENAME, "f", "x"), S_OK);
	assert_int_equal(on_path(t, OP_RMDIR, "d", NULL), S_OK);
	talloc_free(t);
}

/* Cleanup closes what is open and removes the tree with the generic walk
 * (the in-memory vfs has no remove_tree of its own). */
static void test_cleanup(void **state)
{
	struct nbt *t = nbt_of(state);

	nbt_open(t, 0);
	put_dir(t, "c");
	put_dir(t, "c/sub");
	put_file(t, "c/sub/f", "data");
	put_file(t, "top", "data");
	assert_int_equal(create(t, "c/sub/f", 0x40, 1, 5), S_OK);
	assert_int_equal(nbvfs_cleanup(t->nb, "c"), 0);
	assert_int_equal(type_at(t, "c", NULL), 0);
	assert_int_equal(type_at(t, "top", NULL), S_IFREG);
	assert_int_equal(on_handle(t, OP_CLOSE, 5), NT_STATUS_INVALID_HANDLE);
	assert_int_equal(nbvfs_cleanup(t->nb, "nothing/here"), 0);
	assert_int_equal(nbvfs_cleanup(t->nb, NULL), 0);
	assert_int_equal(type_at(t, "top", NULL), 0);
	assert_int_equal(type_at(t, ".", NULL), S_IFDIR);
	talloc_free(t);
}

/* ---- wildcards ---- */

static void test_wildcards(void **state)
{
	static const struct {
		const char *mask, *name;
		bool match;
	} cases[] = {
		{ "*", "", true },
		{ "*", "..", true },
		{ "**", "x", true },
		{ "*.*", "a.b", true },
		{ "*.*", "ab", false },
		{ "*x", "abx", true },
		{ "*x", "abxy", false },
		{ "a*b*c", "aXbYc", true },
		{ "a*b*c", "aXcYb", false },
		{ "*.JNK", "file.jnk", true },
		{ "?", "", false },
		{ "??", "ab", true },
		{ "??", "abc", false },
		{ "A?C", "abc", true },
		{ "<.jnk", "a.b.JNK", true },
		{ "<.jnk", "a.jnk.b", false },
		{ "<", "a.b", false },
		{ "<", "", true },
		{ "<.<", "a.b", true },
		{ "x<", "x.y", false },
		{ "<b", "a.b", false },
		{ "<*", "a.b", true },
		{ "a>>", "a", true },
		{ "a>>", "abc", true },
		{ "a>>", "abcd", false },
		{ "a>.txt", "a.txt", true },
		{ ">", ".", false },
		{ "a\"", "a", true },
		{ "a\"", "a.", true },
		{ "a\"b", "a.b", true },
		{ "a\"", "ab", false },
		{ "*a*a*a*a*a*a*a*a*c", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  false },
		{ "*a*a*a*a*a*a*a*a*a", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  true },
		{ "<a<a<a<a<a<a<a<a<c", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  false },
	};
	char *longname;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("'%s' '%s'\n", cases[i].mask, cases[i].name);
		assert_int_equal(wildcard_match(cases[i].mask, cases[i].name),
				 cases[i].match);
	}
	/*
	 * A name past the stack buffer, against a mask that takes the
	 * recursive matcher ~2^40 steps: bounded, this is instant (the test
	 * would not finish otherwise).
	 */
	longname = talloc_zero_size(((struct tstate *)*state)->ctx, 4001);
	assert_non_null(longname);
	memset(longname, 'a', 4000);
	assert_false(wildcard_match("*a*a*a*a*a*a*a*a*a*a*a*a*c", longname));
	assert_true(wildcard_match("*a*a*a*a*a*a*a*a*a*a*a*a*a", longname));
	/* the same for masks with '<' (the other matcher), past 256 bytes */
	assert_false(wildcard_match("<a<a<a<a<a<a<a<a<a<a<a<a<c", longname));
	assert_true(wildcard_match("<a<a<a<a<a<a<a<a<a<a<a<a<a", longname));
	longname[3000] = '.';
	assert_true(wildcard_match("<a<a<a.<", longname));
	assert_false(wildcard_match("<a<a<a.", longname));
	assert_true(wildcard_is_pattern("a<b"));
	assert_false(wildcard_is_pattern("a.b"));
	talloc_free(longname);
}

/*
 * The obvious recursive matcher for '*', '?', '<' and letters (ASCII
 * case folded), the reference for small masks.  name0 is the whole name:
 * '<' takes a run up to its last dot, or to its end when that dot lies
 * before the run (wildcard.h).
 */
static bool naive_match(const char *m, const char *n, const char *name0)
{
	if (*m == '\0')
		return *n == '\0';
	if (*m == '*')
		return naive_match(m + 1, n, name0) ||
		       (*n != '\0' && naive_match(m, n + 1, name0));
	if (*m == '<') {
		const char *dot = strrchr(name0, '.');
		const char *end = dot != NULL && dot >= n ? dot :
				  name0 + strlen(name0);

		for (const char *q = n; q <= end; q++)
			if (naive_match(m + 1, q, name0))
				return true;
		return false;
	}
	if (*n == '\0')
		return false;
	if (*m != '?' && tolower((unsigned char)*m) != tolower((unsigned char)*n))
		return false;
	return naive_match(m + 1, n + 1, name0);
}

/*
 * Every mask of up to 4 characters over "aB.*?<" against every name of
 * up to 4 over "Ab.": the same answers as the reference (masks with one
 * '*' or '<' take wildcard.c's fast forms, the others the general
 * matchers), through wildcard_match() and a prepared mask.
 */
static void test_wildcards_exhaustive(void **state)
{
	static const char mc[] = "aB.*?<", nc[] = "Ab.";
	char mask[5], name[5];
	unsigned checked = 0;

	(void)state;
	for (unsigned ml = 0; ml <= 4; ml++) {
		unsigned mn = 1;

		for (unsigned i = 0; i < ml; i++)
			mn *= 6;
		for (unsigned mi = 0; mi < mn; mi++) {
			struct wildcard w;

			for (unsigned i = 0, x = mi; i < ml; i++, x /= 6)
				mask[i] = mc[x % 6];
			mask[ml] = '\0';
			wildcard_prepare(&w, mask);
			for (unsigned nl = 0; nl <= 4; nl++) {
				unsigned nn = 1;

				for (unsigned i = 0; i < nl; i++)
					nn *= 3;
				for (unsigned ni = 0; ni < nn; ni++) {
					bool want;

					for (unsigned i = 0, x = ni; i < nl;
					     i++, x /= 3)
						name[i] = nc[x % 3];
					name[nl] = '\0';
					want = naive_match(mask, name, name);
					if (wildcard_match(mask, name) != want ||
					    wildcard_matches(&w, name, nl) !=
						    want)
						fail_msg("mask '%s' name '%s'",
							 mask, name);
					checked++;
				}
			}
		}
	}
	assert_int_equal(checked, 1555u * 121u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dispositions, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_leaf_or_parent,
						setup, teardown),
		cmocka_unit_test(test_wildcards_exhaustive),
		cmocka_unit_test_setup_teardown(test_lookup_case, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_find_counts, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_handles_and_io, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stat_check, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cleanup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wildcards, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
