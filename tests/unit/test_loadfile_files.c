/*
 * test_loadfile_files.c - unit tests of the loadfile compiler on files:
 * plain and gzip, errors opening and reading them, long inputs through
 * the read window, the input size cap, and Debian's client.txt when it
 * is installed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "loadfile_helpers.h"

#define DEBIAN_CLIENT_TXT "/usr/share/dbench/client.txt"

/* ---- files and gzip ---- */

struct tdir {
	char *path;
};

static char *make_dir(struct tstate *ts)
{
	char *tmpl = talloc_strdup(ts->ctx, "/dev/shm/test_loadfile.XXXXXX");

	assert_non_null(tmpl);
	if (mkdtemp(tmpl) == NULL) {
		/* no /dev/shm: fall back to /tmp */
		talloc_free(tmpl);
		tmpl = talloc_strdup(ts->ctx, "/tmp/test_loadfile.XXXXXX");
		assert_non_null(mkdtemp(tmpl));
	}
	return tmpl;
}

static char *write_file(struct tstate *ts, const char *dir, const char *name,
			const void *data, size_t len)
{
	char *path = talloc_asprintf(ts->ctx, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static char *write_gz_mode(struct tstate *ts, const char *dir, const char *name,
			   const void *data, size_t len, const char *mode)
{
	char *path = talloc_asprintf(ts->ctx, "%s/%s", dir, name);
	gzFile gz = gzopen(path, mode);

	assert_non_null(gz);
	while (len > 0) {
		unsigned n = len > (1u << 30) ? (1u << 30) : (unsigned)len;

		assert_int_equal(gzwrite(gz, data, n), (int)n);
		data = (const char *)data + n;
		len -= n;
	}
	assert_int_equal(gzclose(gz), Z_OK);
	return path;
}

static char *write_gz(struct tstate *ts, const char *dir, const char *name,
		      const void *data, size_t len)
{
	return write_gz_mode(ts, dir, name, data, len, "wb6");
}

static void *read_all(struct tstate *ts, const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = talloc_size(ts->ctx, (size_t)n);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void expect_file_error(struct tstate *ts, const char *path,
			      const char *want)
{
	size_t before = talloc_total_blocks(ts->ctx);
	char *err = NULL;
	struct program *p = program_compile(ts->ctx, path, &err);

	if (p != NULL)
		fail_msg("%s compiled, expected '%s'", path, want);
	assert_non_null(err);
	if (strncmp(err, path, strlen(path)) != 0 || strstr(err, want) == NULL)
		fail_msg("error '%s', expected '%s: ...%s...'", err, path,
			 want);
	assert_int_equal(talloc_total_blocks(ts->ctx), before + 1);
	talloc_free(err);
}

static const char small_loadfile[] =
	"# small\n"
	"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 9938 NT_STATUS_OK\n"
	"WriteX 9938 0 65536 65536 NT_STATUS_OK\n"
	"ReadX 9938 0 65536 65536 NT_STATUS_OK\n"
	"Close 9938 NT_STATUS_OK\n";

static void check_small(struct program *p)
{
	assert_int_equal(p->nops, 4);
	assert_int_equal(p->nlines, 5);
	assert_int_equal(p->ops[3].kind, OP_CLOSE);
	assert_int_equal(p->ops[3].line, 5);
	assert_int_equal(program_arg_v(p, &p->ops[2], 1), 65536);
	assert_string_equal(program_path(p, &p->ops[0], 0)->text,
			    "clients/client1/f");
}

static void test_files(void **state)
{
	struct tstate *ts = *state;
	char *dir = make_dir(ts);
	char *plain = write_file(ts, dir, "plain.txt", small_loadfile,
				 sizeof(small_loadfile) - 1);
	char *gz = write_gz(ts, dir, "c.txt.gz", small_loadfile,
			    sizeof(small_loadfile) - 1);
	char *missing = talloc_asprintf(ts->ctx, "%s/missing.txt", dir);
	char *trunc, *corrupt, *bad_line, *empty, *msg;
	unsigned char *gzdata;
	size_t gzlen;
	struct program *p;
	char *err = NULL;

	p = program_compile(ts->ctx, plain, &err);
	assert_non_null(p);
	assert_null(err);
	check_small(p);
	assert_string_equal(p->filename, plain);
	talloc_free(p);

	p = program_compile(ts->ctx, gz, &err);
	assert_non_null(p);
	check_small(p);
	talloc_free(p);

	/* a truncated gzip stream: an error, not a partial program */
	gzdata = read_all(ts, gz, &gzlen);
	trunc = write_gz(ts, dir, "big.gz", small_loadfile,
			 sizeof(small_loadfile) - 1);
	talloc_free(trunc);
	trunc = write_file(ts, dir, "trunc.gz", gzdata, gzlen - 12);
	expect_file_error(ts, trunc, "truncated gzip data");
	talloc_free(trunc);
	trunc = write_file(ts, dir, "trunc2.gz", gzdata, gzlen / 2);
	expect_file_error(ts, trunc, "truncated gzip data");
	talloc_free(trunc);
	/* only the 8-byte trailer missing: the data is all there */
	trunc = write_file(ts, dir, "trunc3.gz", gzdata, gzlen - 8);
	expect_file_error(ts, trunc, "truncated gzip data");
	talloc_free(trunc);

	/* a corrupt stream: bad CRC, then bad deflate data */
	gzdata[gzlen - 6] ^= 0xff;
	corrupt = write_file(ts, dir, "crc.gz", gzdata, gzlen);
	expect_file_error(ts, corrupt, "corrupt gzip data");
	talloc_free(corrupt);
	gzdata[gzlen - 6] ^= 0xff;
	gzdata[10] = 0xff; /* first deflate block: reserved type 3 */
	gzdata[11] = 0xff;
	corrupt = write_file(ts, dir, "data.gz", gzdata, gzlen);
	expect_file_error(ts, corrupt, "corrupt gzip data");
	talloc_free(corrupt);
	talloc_free(gzdata);

	/* errors inside a gzip file carry the decompressed line number */
	msg = talloc_asprintf(ts->ctx, "%s\nQfsinfo 1 bogus\n", small_loadfile);
	bad_line = write_gz(ts, dir, "bad.gz", msg, strlen(msg));
	talloc_free(msg);
	msg = talloc_asprintf(ts->ctx, "%s:7: ", bad_line);
	expect_file_error(ts, bad_line, msg);
	talloc_free(msg);

	empty = write_gz(ts, dir, "empty.gz", "", 0);
	expect_file_error(ts, empty, "no operations");
	unlink(empty);
	talloc_free(empty);
	empty = write_file(ts, dir, "empty.txt", "", 0);
	expect_file_error(ts, empty, "no operations");

	msg = talloc_asprintf(ts->ctx, ": %s", strerror(ENOENT));
	expect_file_error(ts, missing, msg);
	talloc_free(msg);
	msg = talloc_asprintf(ts->ctx, ": %s", strerror(EISDIR));
	expect_file_error(ts, dir, msg);
	talloc_free(msg);

	/* err may be NULL */
	assert_null(program_compile(ts->ctx, missing, NULL));

	unlink(plain);
	unlink(gz);
	unlink(bad_line);
	unlink(empty);
	unlink(talloc_asprintf(ts->ctx, "%s/trunc.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/trunc2.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/trunc3.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/crc.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/data.gz", dir));
	unlink(talloc_asprintf(ts->ctx, "%s/big.gz", dir));
	assert_int_equal(rmdir(dir), 0);
	talloc_free_children(ts->ctx);
}

/*
 * A file much larger than the read window, with lines of every length
 * (up to 300 KiB), compiles from plain text, from gzip and from memory to
 * the same program: lines that straddle window refills are read whole.
 */
static void test_window(void **state)
{
	struct tstate *ts = *state;
	char *dir = make_dir(ts);
	struct sbuf sb;
	char *text;
	char *pattern = talloc_zero_size(ts->ctx, 300 * 1024 + 1);
	char *plain, *gz;
	struct program *p[3];
	char *err = NULL;
	size_t len;
	uint32_t i;
	int k;

	for (i = 0; i < 300 * 1024; i++)
		pattern[i] = (char)('a' + i % 26);
	sb_init(ts, &sb);
	for (i = 0; i < 60000; i++) {
		if (i % 1000 == 7)
			sb_printf(&sb, "WRITEPATTERN %.*s\n",
				  (int)(i * 61 % 300000) + 1, pattern);
		else
			sb_printf(&sb, "Qpathinfo \"\\d%u\\f%u\" %u *\r\n", i % 97,
				  i, i);
	}
	text = sb.s;
	len = sb.len;
	assert_true(len > 4 * (1u << 20));
	plain = write_file(ts, dir, "w.txt", text, len);
	gz = write_gz(ts, dir, "w.gz", text, len);
	p[0] = compile_ok_len(ts, text, len);
	p[1] = program_compile(ts->ctx, plain, &err);
	assert_non_null(p[1]);
	p[2] = program_compile(ts->ctx, gz, &err);
	assert_non_null(p[2]);
	for (k = 1; k < 3; k++) {
		assert_int_equal(p[k]->nops, p[0]->nops);
		assert_int_equal(p[k]->npaths, p[0]->npaths);
		assert_int_equal(p[k]->nlines, 60000);
		for (i = 0; i < p[0]->nops; i++) {
			const struct op *a = &p[0]->ops[i], *b = &p[k]->ops[i];

			assert_int_equal(a->kind, b->kind);
			assert_int_equal(a->line, b->line);
			assert_int_equal(program_arg_v(p[0], a, 0),
					 program_arg_v(p[k], b, 0));
			if (a->kind == OP_WRITEPATTERN) {
				const struct program_text *ta =
					&p[0]->texts[a->text];
				const struct program_text *tb =
					&p[k]->texts[b->text];

				assert_int_equal(ta->len, tb->len);
				assert_memory_equal(ta->p, tb->p, ta->len);
			} else if (program_path(p[0], a, 0) != NULL) {
				assert_string_equal(
					program_path(p[0], a, 0)->text,
					program_path(p[k], b, 0)->text);
			}
		}
	}
	assert_int_equal(p[0]->texts[p[0]->ops[7].text].len, 7 * 61 + 1);
	assert_int_equal(program_arg_v(p[0], &p[0]->ops[59999], 0), 59999);
	for (k = 0; k < 3; k++)
		talloc_free(p[k]);

	/* an over-long line inside a file, plain and gzip */
	talloc_free(text);
	text = talloc_size(ts->ctx, (3u << 20));
	memset(text, 'y', 3u << 20);
	memcpy(text, "Qfsinfo 1 *\nQfsinfo 2 *\n", 24);
	unlink(plain);
	unlink(gz);
	plain = write_file(ts, dir, "w.txt", text, 3u << 20);
	gz = write_gz(ts, dir, "w.gz", text, 3u << 20);
	expect_file_error(ts, plain, ":3: line longer than 1048576 bytes");
	expect_file_error(ts, gz, ":3: line longer than 1048576 bytes");

	unlink(plain);
	unlink(gz);
	assert_int_equal(rmdir(dir), 0);
	talloc_free_children(ts->ctx);
}

/*
 * The 1 GiB cap on decompressed input: 1025 copies of a gzip member that
 * holds 1 MiB of comment lines (zlib reads concatenated members as one
 * stream), so the file is small and the test quick.
 */
static void test_input_cap(void **state)
{
	struct tstate *ts = *state;
	char *dir = make_dir(ts);
	size_t mib = 1u << 20, i, gzlen;
	char *text = talloc_size(ts->ctx, mib);
	char *member, *path, *big;
	unsigned char *gzdata;
	FILE *f;

	for (i = 0; i < mib; i += 1024) {
		memset(text + i, 'x', 1023);
		text[i] = '#';
		text[i + 1023] = '\n';
	}
	/* level 1: its short matches inflate several times faster */
	member = write_gz_mode(ts, dir, "member.gz", text, mib, "wb1");
	gzdata = read_all(ts, member, &gzlen);
	big = talloc_asprintf(ts->ctx, "%s/big.gz", dir);
	f = fopen(big, "wb");
	assert_non_null(f);
	for (i = 0; i < 1025; i++)
		assert_int_equal(fwrite(gzdata, 1, gzlen, f), gzlen);
	assert_int_equal(fclose(f), 0);
	expect_file_error(ts, big, "input larger than 1073741824 bytes");

	/* 1024 copies are exactly 1 GiB: accepted (and then empty) */
	path = talloc_asprintf(ts->ctx, "%s/max.gz", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	for (i = 0; i < 1024; i++)
		assert_int_equal(fwrite(gzdata, 1, gzlen, f), gzlen);
	assert_int_equal(fclose(f), 0);
	expect_file_error(ts, path, "no operations");

	unlink(member);
	unlink(big);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	talloc_free_children(ts->ctx);
}

/* ---- Debian's client.txt ---- */

static void test_debian_client_txt(void **state)
{
	struct tstate *ts = *state;
	/* counted with: awk '{print $1}' client.txt | sort | uniq -c */
	static const struct {
		enum op_kind kind;
		uint32_t count;
	} counts[] = {
		{ OP_READX, 124199 },	 { OP_NTCREATEX, 79230 },
		{ OP_QPATHINFO, 71814 }, { OP_CLOSE, 58200 },
		{ OP_WRITEX, 39502 },	 { OP_FIND, 27765 },
		{ OP_UNLINK, 16000 },	 { OP_QFSINFO, 13168 },
		{ OP_QFILEINFO, 12585 }, { OP_SFILEINFO, 6454 },
		{ OP_FLUSH, 5553 },	 { OP_RENAME, 3355 },
		{ OP_UNLOCKX, 258 },	 { OP_LOCKX, 258 },
		{ OP_DELTREE, 2 },	 { OP_MKDIR, 1 },
	};
	uint32_t seen[OP_NUM_KINDS] = { 0 };
	struct program *p;
	char *err = NULL;
	uint32_t i, nstatus[4] = { 0 };
	size_t k;

	if (access(DEBIAN_CLIENT_TXT, R_OK) != 0)
		skip();
	p = program_compile(ts->ctx, DEBIAN_CLIENT_TXT, &err);
	if (p == NULL)
		fail_msg("%s", err);
	/* wc -l client.txt */
	assert_int_equal(p->nops, 458344);
	assert_int_equal(p->nlines, 458344);
	assert_false(p->timed);
	assert_int_equal(p->nrandom, 0);
	assert_int_equal(p->max_loop_depth, 0);
	/* grep -o '"[^"]*"' client.txt | sort -u | wc -l */
	assert_int_equal(p->npaths, 261);
	for (i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];

		seen[op->kind]++;
		nstatus[op->check]++;
		assert_int_equal(op->line, i + 1);
		assert_true(op->handle < (int32_t)p->nhandles);
		assert_true((op->handle >= 0) == op_info[op->kind].has_handle);
	}
	for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
		assert_int_equal(seen[counts[k].kind], counts[k].count);
	/* awk '{print $NF}' client.txt | sort | uniq -c */
	assert_int_equal(nstatus[STATUS_SUCCESS], 398601);
	assert_int_equal(nstatus[STATUS_EXACT], 14328 + 45286 + 129);
	assert_int_equal(nstatus[STATUS_ANY] + nstatus[STATUS_FAILURE], 0);

	/* the first lines, field by field */
	assert_int_equal(p->ops[0].kind, OP_DELTREE);
	assert_string_equal(program_path(p, &p->ops[0], 0)->text,
			    "clients/client1");
	assert_int_equal(program_path(p, &p->ops[0], 0)->client_pos, 8);
	assert_int_equal(p->ops[2].kind, OP_NTCREATEX);
	assert_int_equal(program_arg_v(p, &p->ops[2], 0), 1);
	assert_int_equal(program_arg_v(p, &p->ops[2], 1), 2);
	assert_int_equal(p->ops[3].handle, p->ops[2].handle);
	assert_int_equal(p->ops[4].status, NT_STATUS_OBJECT_NAME_NOT_FOUND);
	assert_int_equal(p->ops[6].kind, OP_FIND);
	assert_string_equal(program_path(p, &p->ops[6], 0)->text,
			    "clients/client1/FILLER.*");
	assert_int_equal(program_arg_v(p, &p->ops[6], 1), 1366);
	talloc_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_input_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_debian_client_txt, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
