/*
 * test_fileio_data.c - test_fileio's data tests: ReadX and WriteX, short
 * writes and failures injected into pwrite, create options (O_DSYNC,
 * O_DIRECT, refused direct I/O), DropCache and the write options.
 */
#include "config.h"

#include "fileio_fixture.h"

/* ---- data ---- */

void test_write_read_round_trip(void **cm_state)
{
	struct fx *fx = *cm_state;
	const size_t total = 200000, chunk = 65536;
	uint8_t *pattern = talloc_array(fx->tmp, uint8_t, total);
	uint8_t *back = talloc_array(fx->tmp, uint8_t, total);
	struct op_call call;
	size_t off, i;
	int fd;

	for (i = 0; i < total; i++)
		pattern[i] = (uint8_t)(i * 7 + i / 251);
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "data", 0x40, 2, 2), NT_STATUS_OK);
	/* written back to front, in pieces, each from its own offset */
	for (off = (total - 1) / chunk * chunk;; off -= chunk) {
		size_t n = total - off < chunk ? total - off : chunk;

		assert_int_equal(run_call(fx, &(struct req){
				.kind = OP_WRITEX, .handle = 2,
				.arg = { (int64_t)off, (int64_t)n, (int64_t)n },
				.data = pattern + off }, &call), NT_STATUS_OK);
		assert_int_equal(call.bytes, n);
		if (off == 0)
			break;
	}
	assert_int_equal(RUN(fx, .kind = OP_FLUSH, .handle = 2), NT_STATUS_OK);
	assert_int_equal(size_of(fx, "data"), (off_t)total);

	fd = openat(fx->dfd, "data", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, back, total, 0), (ssize_t)total);
	close(fd);
	assert_memory_equal(back, pattern, total);

	for (off = 0; off < total; off += chunk) {
		size_t n = total - off < chunk ? total - off : chunk;

		assert_int_equal(run_call(fx, &(struct req){
				.kind = OP_READX, .handle = 2,
				.arg = { (int64_t)off, (int64_t)chunk,
					 (int64_t)n } }, &call), NT_STATUS_OK);
		assert_int_equal(call.bytes, chunk);
	}
	assert_int_equal(RUN(fx, .kind = OP_QFILEINFO, .handle = 2,
			     .arg = { 258 }), NT_STATUS_OK);
	assert_int_equal(close_h(fx, 2), NT_STATUS_OK);
}

void test_readx_past_eof(void **cm_state)
{
	struct fx *fx = *cm_state;
	static const struct {
		int64_t off, size, returned;
		uint32_t status;
	} cases[] = {
		{ 0, 100, 100, NT_STATUS_OK },
		/* short, as the loadfile says */
		{ 50, 100, 50, NT_STATUS_OK },
		/* short, but the loadfile expected more */
		{ 50, 100, 100, NT_STATUS_END_OF_FILE },
		{ 200, 10, 0, NT_STATUS_OK },
		{ 200, 10, 10, NT_STATUS_END_OF_FILE },
		{ 0, 0, 0, NT_STATUS_OK },
		{ -1, 10, 0, NT_STATUS_INVALID_PARAMETER },
	};
	char content[101];
	size_t i;

	memset(content, 'z', 100);
	content[100] = '\0';
	mk_file(fx, "f", content);
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 1, 0), NT_STATUS_OK);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct op_call call;

		assert_int_equal(run_call(fx, &(struct req){
				.kind = OP_READX, .handle = 0,
				.arg = { cases[i].off, cases[i].size,
					 cases[i].returned } }, &call),
				 cases[i].status);
		/* dbench counts the requested size, whatever came back */
		assert_int_equal(call.bytes, (uint64_t)cases[i].size);
		if (cases[i].status == NT_STATUS_END_OF_FILE)
			assert_int_equal(call.err, 0);
	}
}

void test_write_failures(void **cm_state)
{
	struct fx *fx = *cm_state;
	uint8_t data[100];
	struct op_call call;
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i + 1);
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0), NT_STATUS_OK);

	/* short writes are continued until everything is written */
	pw_mode = PW_SHORT;
	pw_calls = 0;
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 0, 100, 100 }, .data = data),
			 NT_STATUS_OK);
	assert_int_equal(pw_calls, 15);
	assert_int_equal(size_of(fx, "f"), 100);

	/* EINTR is retried */
	pw_mode = PW_EINTR_ONCE;
	pw_calls = 0;
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 100, 50, 50 }, .data = data),
			 NT_STATUS_OK);
	assert_int_equal(size_of(fx, "f"), 150);

	/* a write that cannot complete: the disk is full */
	pw_mode = PW_SHORT_THEN_ENOSPC;
	pw_calls = 0;
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 0, .arg = { 150, 100, 100 }, .data = data },
			&call), NT_STATUS_DISK_FULL);
	assert_int_equal(call.err, ENOSPC);
	assert_int_equal(call.bytes, 100);
	pw_mode = PW_REAL;

	/* writing to a directory handle fails */
	assert_int_equal(ntcreatex(fx, "d", 0x1, 2, 1), NT_STATUS_OK);
	assert_int_not_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 1, .arg = { 0, 10, 10 }, .data = data },
			&call), NT_STATUS_OK);
	assert_int_not_equal(call.err, 0);
}

/* The fd behind a handle slot, to look at its flags. */
static int fd_of(struct fx *fx, int32_t slot)
{
	return nbvfs_handle_fh(fx->state, slot);
}

/* Create options 0x2 and 0x8: O_DSYNC and O_DIRECT, aligned transfers. */
void test_create_options(void **cm_state)
{
	struct fx *fx = *cm_state;
	uint8_t *raw = malloc(8192 + 1), *data = raw + 1;	/* misaligned */
	uint8_t back[8192];
	struct op_call call;
	uint32_t st;
	int fd;

	assert_non_null(raw);
	for (unsigned i = 0; i < 8192; i++)
		data[i] = (uint8_t)(i * 7 + 3);
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "plain", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(fcntl(fd_of(fx, 0), F_GETFL) & (O_DSYNC | O_DIRECT),
			 0);
	assert_int_equal(ntcreatex(fx, "dsync", 0x42, 2, 1), NT_STATUS_OK);
	assert_true(fcntl(fd_of(fx, 1), F_GETFL) & O_DSYNC);
	assert_false(fcntl(fd_of(fx, 1), F_GETFL) & O_DIRECT);

	st = ntcreatex(fx, "direct", 0x48, 2, 2);
	if (st == NT_STATUS_NOT_SUPPORTED) {
		/* tmpfs before Linux 6.6: the refusal is tested below */
		free(raw);
		return;
	}
	assert_int_equal(st, NT_STATUS_OK);
	assert_true(fcntl(fd_of(fx, 2), F_GETFL) & O_DIRECT);
	/* client data at any address goes through the aligned buffer */
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 2, .arg = { 4096, 8192, 8192 },
			.data = data }, &call), NT_STATUS_OK);
	assert_int_equal(call.bytes, 8192);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_READX,
			.handle = 2, .arg = { 4096, 8192, 8192 } }, &call),
			 NT_STATUS_OK);
	assert_int_equal(call.bytes, 8192);
	assert_int_equal(size_of(fx, "direct"), 4096 + 8192);
	fd = openat(fx->dfd, "direct", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, back, sizeof(back), 4096), 8192);
	close(fd);
	assert_memory_equal(back, data, 8192);
	/* 0x1 (directory) ignores the buffering bits */
	assert_int_equal(ntcreatex(fx, "d", 0x9, 2, 3), NT_STATUS_OK);
	assert_int_equal(type_of(fx, "d"), S_IFDIR);
	free(raw);
}

/* A filesystem that refuses O_DIRECT: NOT_SUPPORTED, no handle. */
void test_direct_refused(void **cm_state)
{
	struct fx *fx = *cm_state;
	const uint8_t data[512] = { 0 };
	struct op_call call;

	oa_refuse_direct = true;
	/* the stand-in is openat(): take the path that calls it */
	fx_no_openat2(true);
	fx_open(fx);
	memset(&call, 0, sizeof(call));
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_NTCREATEX,
			.path = { "f" }, .handle = 0, .arg = { 0x48, 2 } },
			&call), NT_STATUS_NOT_SUPPORTED);
	assert_int_equal(call.err, EINVAL);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 0, 512, 512 }, .data = data),
			 NT_STATUS_INVALID_HANDLE);
	/* without 0x8 the same open works */
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0), NT_STATUS_OK);
	fx_no_openat2(false);
}

/* Pages of a file in the page cache, in percent (mincore). */
static double cached_pct(int fd, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n = (len + (size_t)page - 1) / (size_t)page, in = 0;
	unsigned char *vec = malloc(n);
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);

	assert_non_null(vec);
	assert_true(map != MAP_FAILED);
	assert_int_equal(mincore(map, len, vec), 0);
	for (size_t i = 0; i < n; i++)
		in += vec[i] & 1;
	munmap(map, len);
	free(vec);
	return 100.0 * (double)in / (double)n;
}

/* DropCache: flushed and evicted on a disk; a bad handle is refused. */
void test_dropcache(void **cm_state)
{
	struct fx *fx = *cm_state;
	const size_t len = 1 << 20;
	uint8_t *data = calloc(1, len);
	char *dir = talloc_strdup(fx->tmp, "/var/tmp/test_fileio.XXXXXX");
	struct backend_client_config cfg = {
		.opts = &fx->opts, .directory = NULL, .nhandles = NHANDLES,
	};
	struct statfs sf;
	char *err = NULL;
	int fd;

	assert_non_null(data);
	fx_open(fx);
	assert_int_equal(RUN(fx, .kind = OP_DROPCACHE, .handle = 0),
			 NT_STATUS_INVALID_HANDLE);
	assert_int_equal(ntcreatex(fx, "f", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 0, 4096, 4096 }, .data = data),
			 NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_DROPCACHE, .handle = 0),
			 NT_STATUS_OK);
	assert_int_equal(close_h(fx, 0), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_DROPCACHE, .handle = 0),
			 NT_STATUS_INVALID_HANDLE);

	/* eviction needs a filesystem on a device */
	assert_non_null(mkdtemp(dir));
	if (statfs(dir, &sf) != 0 || sf.f_type == 0x01021994 /* tmpfs */) {
		rmdir(dir);
		free(data);
		return;
	}
	talloc_free(fx->state);
	fx->state = NULL;
	cfg.directory = dir;
	assert_int_equal(fileio_backend.setup(fx->ctx, &cfg, &fx->state, &err),
			 0);
	assert_int_equal(ntcreatex(fx, "g", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 0, (int64_t)len, (int64_t)len },
			     .data = data), NT_STATUS_OK);
	fd = fd_of(fx, 0);
	assert_true(cached_pct(fd, len) > 50.0);
	assert_int_equal(RUN(fx, .kind = OP_DROPCACHE, .handle = 0),
			 NT_STATUS_OK);
	assert_true(cached_pct(fd, len) < 1.0);
	talloc_free(fx->state);
	fx->state = NULL;
	free(data);
	assert_int_equal(nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
}

void test_write_options(void **cm_state)
{
	struct fx *fx = *cm_state;
	const uint8_t zero = 0, x = 'x';
	struct op_call call;
	uint8_t c;
	int fd;

	/* --fake-io: nothing moves, the bytes still count */
	fx->opts.fake_io = true;
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "fake", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 0, .arg = { 0, 4096, 4096 }, .data = NULL },
			&call), NT_STATUS_OK);
	assert_int_equal(call.bytes, 4096);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_READX,
			.handle = 0, .arg = { 0, 4096, 4096 } }, &call),
			 NT_STATUS_OK);
	assert_int_equal(call.bytes, 4096);
	assert_int_equal(size_of(fx, "fake"), 0);

	/* --one-byte-write-fix: a zero byte past the end is a truncate */
	fx->opts.fake_io = false;
	fx->opts.one_byte_write_fix = true;
	fx_open(fx);
	assert_int_equal(ntcreatex(fx, "one", 0x40, 2, 0), NT_STATUS_OK);
	assert_int_equal(run_call(fx, &(struct req){ .kind = OP_WRITEX,
			.handle = 0, .arg = { 65534, 1, 1 }, .data = &zero },
			&call), NT_STATUS_OK);
	assert_int_equal(call.bytes, 1);
	assert_int_equal(size_of(fx, "one"), 65535);
	/* a non-zero byte past the end is really written */
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 70000, 1, 1 }, .data = &x),
			 NT_STATUS_OK);
	assert_int_equal(size_of(fx, "one"), 70001);
	/* inside the file, a different byte is written, the same skipped */
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 10, 1, 1 }, .data = &x), NT_STATUS_OK);
	assert_int_equal(RUN(fx, .kind = OP_WRITEX, .handle = 0,
			     .arg = { 10, 1, 1 }, .data = &x), NT_STATUS_OK);
	fd = openat(fx->dfd, "one", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, 10), 1);
	assert_int_equal(c, 'x');
	assert_int_equal(pread(fd, &c, 1, 70000), 1);
	assert_int_equal(c, 'x');
	assert_int_equal(pread(fd, &c, 1, 65534), 1);
	assert_int_equal(c, 0);
	close(fd);
}
