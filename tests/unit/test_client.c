/*
 * test_client.c - the client engine with a recording mock backend: loop
 * and repeat arithmetic, per-client paths and $i substitution, value
 * modifiers, write patterns, --trunc-io, pass boundaries, the stop flag,
 * and what a status mismatch does under each policy.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>
#include <cmocka.h>

#include "engine/client.h"
#include "loadfile/ntstatus.h"
#include "util/util.h"
#include "vfs/vfs.h"

/* ---- the mock backend ---- */

#define MAX_CALLS 64

struct mock_call {
	enum op_kind kind;
	char path[2][128];
	bool hinted[2];			/* the hint named call->path[i] */
	uint32_t dir[2];		/* the hint's directory of path[i] */
	uint32_t len[2];		/* the hint's length of path[i] */
	int64_t arg[PROGRAM_MAX_ARGS];
	uint8_t data[16];
};

static struct {
	unsigned count[OP_NUM_MEASURED];
	uint32_t status[OP_NUM_MEASURED];	/* what each kind returns */
	struct mock_call calls[MAX_CALLS];
	unsigned ncalls;
	unsigned cleanups;
	char cleaned[64];
	unsigned setup_client;		/* cfg->client of the last setup */
	const struct vfs_hint *hint;	/* cfg->hint of the last setup */
} mock;

static uint32_t mock_op(void *state, struct op_call *call)
{
	enum op_kind k = call->op->kind;

	(void)state;
	mock.count[k]++;
	if (mock.ncalls < MAX_CALLS) {
		struct mock_call *m = &mock.calls[mock.ncalls++];

		m->kind = k;
		for (int i = 0; i < 2; i++) {
			snprintf(m->path[i], sizeof(m->path[i]), "%s",
				 call->path[i] ? call->path[i] : "");
			m->hinted[i] = call->path[i] != NULL &&
				       mock.hint->path[i] == call->path[i];
			m->dir[i] = mock.hint->dir[i];
			m->len[i] = mock.hint->len[i];
		}
		memcpy(m->arg, call->arg, sizeof(m->arg));
		if (k == OP_WRITEX && call->data != NULL)
			memcpy(m->data, call->data,
			       call->arg[1] < 16 ? (size_t)call->arg[1] : 16);
	}
	if (k == OP_WRITEX || k == OP_READX)
		call->bytes = (uint64_t)call->arg[1];
	if (mock.status[k] != NT_STATUS_OK)
		call->err = 2;
	return mock.status[k];
}

static int mock_setup(void *mem_ctx, const struct backend_client_config *cfg,
		      void **state, char **err)
{
	(void)err;
	mock.setup_client = cfg->client;
	mock.hint = cfg->hint;
	*state = talloc_zero(mem_ctx, char);
	return *state ? 0 : -1;
}

static int mock_cleanup(void *state, const char *path)
{
	(void)state;
	mock.cleanups++;
	snprintf(mock.cleaned, sizeof(mock.cleaned), "%s", path);
	return 0;
}

#define M mock_op
static const struct backend mock_backend = {
	.name = "mock",
	.setup = mock_setup,
	.cleanup = mock_cleanup,
	.ops = { M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M },
};

/* ---- fixture ---- */

struct fixture {
	void *mem;
	size_t blocks;
	struct stats_region region;
	struct dbench_options opts;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	memset(&mock, 0, sizeof(mock));
	f->mem = talloc_new(NULL);
	f->blocks = talloc_total_blocks(f->mem);
	if (stats_map(&f->region, 16) != 0)
		return -1;
	f->opts.nclients = 16;
	f->opts.clients_per_process = 1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(talloc_total_blocks(f->mem), f->blocks);
	talloc_free(f->mem);
	stats_unmap(&f->region);
	free(f);
	return 0;
}

/* Compile text and start client `id` on it (freed by free_programs). */
static struct client *start_client(struct fixture *f, const char *text,
				   unsigned id)
{
	char *err = NULL;
	struct program *p = program_compile_buffer(f->mem, "t.txt", text,
						   strlen(text), &err);
	struct client *c;

	if (p == NULL)
		fail_msg("compile: %s", err ? err : "?");
	c = client_new(p, &f->opts, p, 0, &mock_backend, "/nonexistent",
		       &f->region, id);
	assert_non_null(c);
	client_start(c, now_ns());
	return c;
}

/* Compile text and run one pass for client `id`; returns the last step. */
static enum client_step_result run_pass(struct fixture *f, const char *text,
					unsigned id, struct client **out)
{
	struct client *c = start_client(f, text, id);
	enum client_step_result r;
	unsigned guard = 0;

	/* a line that waits (SLEEP) is waited for, as the worker would */
	while (((r = client_step(c)) == STEP_OK || r == STEP_WAIT) &&
	       guard++ < 100000)
		if (r == STEP_WAIT)
			sleep_until_ns(client_wake_at(c), &f->region.hdr->stop);
	if (out != NULL)
		*out = c;
	return r;
}

static void free_programs(struct fixture *f)
{
	talloc_free_children(f->mem);
}

static void test_loops_and_repeat(void **state)
{
	struct fixture *f = *state;
	const char *text =
		"LOOP 3\n"
		"  LOOP 2\n"
		"    Flush 1 NT_STATUS_OK\n"
		"  ENDLOOP\n"
		"  QUERY_FS_INFORMATION 1 NT_STATUS_OK\n"
		"ENDLOOP\n"
		"LOOP 0\n"
		"  Close 1 NT_STATUS_OK\n"
		"ENDLOOP\n"
		"REPEAT 4\n"
		"QUERY_FILE_INFORMATION 1 1004 NT_STATUS_OK\n"
		"REPEAT 0\n"
		"Close 1 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\a\" 0x40 0x2 1 NT_STATUS_OK\n";

	assert_int_equal(run_pass(f, text, 0, NULL), STEP_PASS_DONE);
	assert_int_equal(mock.count[OP_FLUSH], 3 * 2);
	assert_int_equal(mock.count[OP_QFSINFO], 3);
	assert_int_equal(mock.count[OP_CLOSE], 0);	/* LOOP 0, REPEAT 0 */
	assert_int_equal(mock.count[OP_QFILEINFO], 4);
	assert_int_equal(mock.count[OP_NTCREATEX], 1);
	assert_int_equal(f->region.live[0].passes, 1);
	assert_int_equal(f->region.slots[0].npass_records, 1);
	assert_int_equal(f->region.slots[0].ops[OP_FLUSH].count, 6);
	free_programs(f);
}

static void test_paths_per_client(void **state)
{
	struct fixture *f = *state;
	const char *text =
		"RANDOMSTRING 0 \"[x]A[yy]\"\n"
		"Mkdir \"\\clients\" NT_STATUS_OK\n"
		"Rename \"\\clients\\client1\\a\" \"\\clients\\client1\\$0.tmp\" NT_STATUS_OK\n"
		"Mkdir \"\\clients\\client10\\b\" NT_STATUS_OK\n";

	assert_int_equal(run_pass(f, text, 7, NULL), STEP_PASS_DONE);
	assert_int_equal(mock.ncalls, 3);
	assert_string_equal(mock.calls[0].path[0], "clients");
	assert_string_equal(mock.calls[1].path[0], "clients/client7/a");
	assert_string_equal(mock.calls[1].path[1], "clients/client7/xAy.tmp");
	/* client10 is not the substitution point */
	assert_string_equal(mock.calls[2].path[0], "clients/client10/b");

	/* the hint names each path of the op being run, with the number of
	 * its directory (the same for the same directory text), and nothing
	 * once the op is over */
	assert_true(mock.calls[0].hinted[0] && mock.calls[1].hinted[0] &&
		    mock.calls[1].hinted[1] && mock.calls[2].hinted[0]);
	assert_false(mock.calls[0].hinted[1] || mock.calls[2].hinted[1]);
	assert_int_equal(mock.calls[0].dir[0], VFS_DIR_ROOT);
	assert_int_not_equal(mock.calls[1].dir[0], VFS_DIR_ROOT);
	assert_int_not_equal(mock.calls[1].dir[0], VFS_DIR_NONE);
	assert_int_equal(mock.calls[1].dir[1], mock.calls[1].dir[0]);
	assert_int_not_equal(mock.calls[2].dir[0], mock.calls[1].dir[0]);
	/* and each path's length, but for one with a $i in it */
	assert_int_equal(mock.calls[0].len[0], strlen("clients"));
	assert_int_equal(mock.calls[1].len[0], strlen("clients/client7/a"));
	assert_int_equal(mock.calls[1].len[1], 0);
	assert_int_equal(mock.calls[2].len[0], strlen("clients/client10/b"));
	assert_null(mock.hint->path[0]);
	assert_null(mock.hint->path[1]);
	free_programs(f);

	/* a client name longer than "client1" */
	mock.ncalls = 0;
	assert_int_equal(run_pass(f, "Mkdir \"\\clients\\client1\\dd\" "
				  "NT_STATUS_OK\n", 12, NULL),
			 STEP_PASS_DONE);
	assert_int_equal(mock.ncalls, 1);
	assert_string_equal(mock.calls[0].path[0], "clients/client12/dd");
	assert_int_equal(mock.calls[0].len[0], strlen("clients/client12/dd"));
	free_programs(f);
}

/*
 * Consecutive paths reuse the head of the scratch buffer they resolve
 * into ("clients/" and the client's name) only when it is spelt the same:
 * every path comes out as written, whatever came before it in that
 * buffer (a $i path, another case, another depth).
 */
static void test_paths_reuse_head(void **state)
{
	struct fixture *f = *state;
	const char *text =
		"RANDOMSTRING 0 \"[x]\"\n"
		"Mkdir \"\\clients\\client1\\a\" NT_STATUS_OK\n"
		"Rename \"\\clients\\client1\\b\" \"\\clients\\client1\\$0\" NT_STATUS_OK\n"
		"Mkdir \"\\clients\\client1\\c\" NT_STATUS_OK\n"
		"Mkdir \"\\CLIENTS\\client1\\d\" NT_STATUS_OK\n"
		"Rename \"\\clients\\client1\\e\" \"\\clients\\client1\\f\" NT_STATUS_OK\n"
		"Rename \"\\Clients\\Client1\\g\" \"\\clients\\client1\\h\" NT_STATUS_OK\n"
		"Mkdir \"\\x\\clients\\client1\\i\" NT_STATUS_OK\n"
		"Mkdir \"\\clients\\client1\\j\" NT_STATUS_OK\n";

	assert_int_equal(run_pass(f, text, 7, NULL), STEP_PASS_DONE);
	assert_int_equal(mock.ncalls, 8);
	assert_string_equal(mock.calls[0].path[0], "clients/client7/a");
	assert_string_equal(mock.calls[1].path[1], "clients/client7/x");
	assert_string_equal(mock.calls[2].path[0], "clients/client7/c");
	assert_string_equal(mock.calls[3].path[0], "CLIENTS/client7/d");
	assert_string_equal(mock.calls[4].path[0], "clients/client7/e");
	assert_string_equal(mock.calls[4].path[1], "clients/client7/f");
	assert_string_equal(mock.calls[5].path[0], "Clients/client7/g");
	assert_string_equal(mock.calls[5].path[1], "clients/client7/h");
	assert_string_equal(mock.calls[6].path[0], "x/clients/client7/i");
	assert_string_equal(mock.calls[7].path[0], "clients/client7/j");
	free_programs(f);
}

static void test_values(void **state)
{
	struct fixture *f = *state;
	const char *text =
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 5 NT_STATUS_OK\n"
		"WriteX 5 100 10 10 NT_STATUS_OK\n"
		"SLEEP 1\n"
		"QUERY_FILE_INFORMATION 5 1004 NT_STATUS_OK\n"
		"WriteX 5 +10 10 10 NT_STATUS_OK\n"
		"ReadX 5 *%100 10 10 NT_STATUS_OK\n"
		"ReadX 5 */512 10 10 NT_STATUS_OK\n"
		"ReadX 5 *%1000+5000 10 10 NT_STATUS_OK\n";

	assert_int_equal(run_pass(f, text, 0, NULL), STEP_PASS_DONE);
	assert_int_equal(mock.calls[1].arg[0], 100);
	/* +10 follows the previous WriteX's offset, not the SLEEP's or the
	 * Qfileinfo's first argument */
	assert_int_equal(mock.calls[2].arg[0], 1004);
	assert_int_equal(mock.calls[3].arg[0], 110);
	assert_true(mock.calls[4].arg[0] >= 0 && mock.calls[4].arg[0] < 100);
	assert_int_equal(mock.calls[5].arg[0] % 512, 0);
	assert_true(mock.calls[6].arg[0] >= 5000 &&
		    mock.calls[6].arg[0] < 6000);
	/* 2 writes + 3 reads of 10 bytes */
	assert_int_equal(f->region.live[0].bytes, 50);
	free_programs(f);
}

static void test_write_pattern_and_trunc(void **state)
{
	struct fixture *f = *state;
	const char *text =
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 5 NT_STATUS_OK\n"
		"WriteX 5 0 4 4 NT_STATUS_OK\n"
		"WRITEPATTERN ab c\n"
		"WriteX 5 0 16 16 NT_STATUS_OK\n";

	f->opts.trunc_io = 7;
	assert_int_equal(run_pass(f, text, 0, NULL), STEP_PASS_DONE);
	assert_memory_equal(mock.calls[1].data, "\0\0\0\0", 4);
	assert_int_equal(mock.calls[2].arg[1], 7);	/* capped */
	assert_memory_equal(mock.calls[2].data, "ab cab ", 7);
	free_programs(f);
}

static const char *mismatch_text =
	"QUERY_PATH_INFORMATION \"\\clients\\client1\\x\" 1004 NT_STATUS_OK\n"
	"WriteX 5 0 1 1 NT_STATUS_OK\n"
	"Flush 5 NT_STATUS_OK\n"
	"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 5 NT_STATUS_OK\n";

static void test_mismatch_default(void **state)
{
	struct fixture *f = *state;

	mock.status[OP_QPATHINFO] = NT_STATUS_OBJECT_NAME_NOT_FOUND;
	mock.status[OP_WRITEX] = NT_STATUS_DISK_FULL;
	/* the Qpathinfo mismatch is counted, the failed write stops */
	assert_int_equal(run_pass(f, mismatch_text, 0, NULL), STEP_FAILED);
	assert_int_equal(f->region.slots[0].mm[OP_QPATHINFO].count, 1);
	assert_int_equal(f->region.slots[0].mm[OP_QPATHINFO].first_op, 0);
	assert_int_equal(f->region.slots[0].mm[OP_WRITEX].count, 0);
	assert_int_equal(f->region.slots[0].mm[OP_WRITEX].fatal, 1);
	assert_int_equal(mock.count[OP_FLUSH], 0);
	free_programs(f);
}

static void test_mismatch_keep_going(void **state)
{
	struct fixture *f = *state;

	f->opts.mismatch = MISMATCH_KEEP_GOING;
	mock.status[OP_QPATHINFO] = NT_STATUS_OBJECT_NAME_NOT_FOUND;
	mock.status[OP_WRITEX] = NT_STATUS_DISK_FULL;
	assert_int_equal(run_pass(f, mismatch_text, 0, NULL), STEP_PASS_DONE);
	assert_int_equal(mock.count[OP_FLUSH], 1);
	assert_int_equal(f->region.slots[0].mm[OP_WRITEX].count, 1);
	free_programs(f);
}

static void test_mismatch_strict(void **state)
{
	struct fixture *f = *state;

	f->opts.mismatch = MISMATCH_STRICT;
	mock.status[OP_QPATHINFO] = NT_STATUS_OBJECT_NAME_NOT_FOUND;
	assert_int_equal(run_pass(f, mismatch_text, 0, NULL), STEP_FAILED);
	assert_int_equal(mock.count[OP_WRITEX], 0);
	free_programs(f);
}

static void test_unopened_handle_is_fatal(void **state)
{
	struct fixture *f = *state;
	const char *text =
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x1 5 NT_STATUS_OK\n"
		"ReadX 5 0 10 10 NT_STATUS_OK\n"
		"Close 5 NT_STATUS_OK\n";

	mock.status[OP_NTCREATEX] = NT_STATUS_OBJECT_NAME_NOT_FOUND;
	mock.status[OP_READX] = NT_STATUS_INVALID_HANDLE;
	assert_int_equal(run_pass(f, text, 0, NULL), STEP_FAILED);
	assert_int_equal(mock.count[OP_CLOSE], 0);
	free_programs(f);
}

static const char *two_ops = "Flush 1 NT_STATUS_OK\n"
			     "NTCreateX \"\\x\" 0 0x2 1 NT_STATUS_OK\n";

static void test_stop_and_cleanup(void **state)
{
	struct fixture *f = *state;
	struct client *c = start_client(f, two_ops, 3);

	assert_int_equal(client_step(c), STEP_OK);
	f->region.hdr->stop = 1;
	assert_int_equal(client_step(c), STEP_STOPPED);
	assert_int_equal(client_cleanup(c), 0);
	assert_int_equal(mock.cleanups, 1);
	assert_string_equal(mock.cleaned, "clients/client3");
	f->opts.skip_cleanup = true;
	assert_int_equal(client_cleanup(c), 0);
	assert_int_equal(mock.cleanups, 1);
	free_programs(f);
}

static void test_phase_reset(void **state)
{
	struct fixture *f = *state;
	struct client *c = start_client(f, two_ops, 0);

	f->region.hdr->phase = PHASE_WARMUP;
	client_step(c);
	client_step(c);
	assert_int_equal(f->region.live[0].phase, PHASE_WARMUP);
	assert_int_equal(f->region.live[0].lines, 2);
	f->region.hdr->phase = PHASE_EXECUTE;
	client_step(c);		/* pass boundary */
	assert_int_equal(f->region.live[0].phase, PHASE_EXECUTE);
	assert_int_equal(f->region.slots[0].ops[OP_FLUSH].count, 0);
	client_step(c);
	assert_int_equal(f->region.slots[0].ops[OP_FLUSH].count, 1);
	free_programs(f);
}

/*
 * The client id is not the slot: with ids starting at 20 (a second host's
 * clients), slot 2 is client 22 in its paths, its backend, its tree, its
 * mismatch records and its slot, and its counters are in slot 2.
 */
static void test_client_id_apart_from_slot(void **state)
{
	struct fixture *f = *state;
	struct client *c;
	char *dir;

	f->region.client_id_base = 20;
	mock.status[OP_QPATHINFO] = NT_STATUS_OBJECT_NAME_NOT_FOUND;
	f->opts.mismatch = MISMATCH_KEEP_GOING;
	assert_int_equal(run_pass(f, "QUERY_PATH_INFORMATION "
				  "\"\\clients\\client1\\x\" 1004 "
				  "NT_STATUS_OK\n", 2, &c), STEP_PASS_DONE);
	assert_int_equal(mock.setup_client, 22);
	assert_string_equal(mock.calls[0].path[0], "clients/client22/x");
	assert_int_equal(f->region.slots[2].client_id, 22);
	assert_int_equal(f->region.slots[2].ops[OP_QPATHINFO].count, 1);
	assert_int_equal(f->region.slots[2].mm[OP_QPATHINFO].first_client, 22);
	assert_int_not_equal(f->region.slots[2].mm[OP_QPATHINFO].first_wall_ns,
			     0);
	assert_int_equal(f->region.slots[22 % 8].ops[OP_QPATHINFO].count, 0);
	assert_int_equal(client_cleanup(c), 0);
	assert_string_equal(mock.cleaned, "clients/client22");
	dir = client_dir_name(f->mem, 1234);
	assert_string_equal(dir, "clients/client1234");
	talloc_free(dir);
	free_programs(f);
}

/*
 * A SLEEP never blocks the caller: it answers STEP_WAIT with the time it
 * ends (1000 s ahead), runs nothing, answers the same when asked early,
 * and a stop ends it at once.
 */
static void test_sleep_returns_wait(void **state)
{
	struct fixture *f = *state;
	struct client *c = start_client(f, "SLEEP 1000000000\n"
					 "Mkdir \"\\d\" NT_STATUS_OK\n", 0);
	uint64_t t0 = now_ns(), wake;

	assert_int_equal(client_step(c), STEP_WAIT);
	wake = client_wake_at(c);
	assert_true(wake >= t0 + 1000ull * 1000000000ull);
	assert_int_equal(client_step(c), STEP_WAIT);
	assert_int_equal(client_wake_at(c), wake);
	assert_int_equal(mock.count[OP_MKDIR], 0);
	assert_int_equal(f->region.live[0].lines, 0);
	f->region.hdr->stop = 1;
	assert_int_equal(client_step(c), STEP_STOPPED);
	free_programs(f);
}

/* A 1 us SLEEP: once over, the next step moves past it and runs on. */
static void test_short_sleep_moves_on(void **state)
{
	struct fixture *f = *state;
	struct client *c = start_client(f, "SLEEP 1\n"
					 "Mkdir \"\\d\" NT_STATUS_OK\n", 0);
	enum client_step_result r;
	unsigned guard = 0;

	while ((r = client_step(c)) == STEP_WAIT && guard++ < 1000000)
		;
	assert_int_equal(r, STEP_OK);
	assert_int_equal(client_step(c), STEP_OK);
	assert_int_equal(mock.count[OP_MKDIR], 1);
	free_programs(f);
}

/* A timed line 100,000 s into the pass waits (nothing resolved or run);
 * -R with a tiny rate waits after the first bytes. */
static void test_timed_and_paced_wait(void **state)
{
	struct fixture *f = *state;
	struct client *c = start_client(f, "0.0 Mkdir \"\\d\" NT_STATUS_OK\n"
					 "100000.0 Mkdir \"\\e\" NT_STATUS_OK\n", 0);

	assert_int_equal(client_step(c), STEP_OK);
	assert_int_equal(client_step(c), STEP_WAIT);
	assert_true(client_wake_at(c) >= now_ns() + 99999ull * 1000000000ull);
	assert_int_equal(mock.count[OP_MKDIR], 1);
	free_programs(f);

	f->opts.target_rate = 1e-6;
	c = start_client(f, "NTCreateX \"\\x\" 0 0x2 1 NT_STATUS_OK\n"
			 "WriteX 1 0 65536 65536 NT_STATUS_OK\n"
			 "WriteX 1 0 65536 65536 NT_STATUS_OK\n", 1);
	assert_int_equal(client_step(c), STEP_OK);
	assert_int_equal(client_step(c), STEP_OK);
	assert_int_equal(client_step(c), STEP_WAIT);
	assert_int_equal(mock.count[OP_WRITEX], 1);
	assert_int_equal(mock.ncalls, 3);
	free_programs(f);
}

/*
 * WAITSP for a client that has not set its SP yet returns STEP_WAIT, so
 * that a caller running both clients in one process can run the other
 * one (which sets it); then the waiter moves on.
 */
static void test_waitsp_returns_wait(void **state)
{
	struct fixture *f = *state;
	struct client *a = start_client(f, "WAITSP 1 5\n"
					 "Mkdir \"\\d\" NT_STATUS_OK\n", 0);
	struct client *b = start_client(f, "SETSP 5\n", 1);

	assert_int_equal(client_step(a), STEP_WAIT);
	assert_true(client_wake_at(a) <= now_ns() + CLIENT_SP_POLL_NS);
	assert_int_equal(client_step(a), STEP_WAIT);
	assert_int_equal(client_step(b), STEP_OK);
	assert_int_equal(client_step(a), STEP_OK);
	assert_int_equal(client_step(a), STEP_OK);
	assert_int_equal(mock.count[OP_MKDIR], 1);
	free_programs(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_loops_and_repeat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths_per_client, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths_reuse_head, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_pattern_and_trunc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mismatch_default, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mismatch_keep_going, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mismatch_strict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unopened_handle_is_fatal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_and_cleanup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_phase_reset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sleep_returns_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_sleep_moves_on, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timed_and_paced_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_waitsp_returns_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_id_apart_from_slot,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
