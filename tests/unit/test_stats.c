/*
 * test_stats.c - the shared statistics region: per-phase tagging and
 * reset, aggregation over clients, worst latency per tick, mismatch
 * bookkeeping, and that the region really is shared with a child; the
 * engine's recording into it (src/engine/record.h) is what writes it.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "stats/stats.h"
#include "engine/record.h"

/* A client of the engine recording into slot c of r (what record()
 * reads of it), at the parent's tick in *hdr. */
static void engine_client(struct client *cl, struct stats_region *r,
			  unsigned c, struct stats_header *hdr)
{
	memset(cl, 0, sizeof(*cl));
	cl->hdr = hdr;
	cl->slot = &r->slots[c];
	cl->live = &r->live[c];
	cl->region = r;
	cl->slot_index = c;
	cl->id = c;
}

/*
 * One op of client c recorded as the engine records it (record.h, the
 * engine's own code), its staged latency counted into the histograms at
 * once, and its line counted as client_step() does after the op.
 */
static void put(struct stats_region *r, unsigned c, enum op_kind k,
		uint64_t lat, uint64_t bytes, uint64_t tick)
{
	struct stats_header hdr = { .tick = tick };
	struct client cl;

	engine_client(&cl, r, c, &hdr);
	record(&cl, k, lat, bytes);
	hist_flush(&cl);
	r->live[c].lines++;
}

static void test_sum_by_phase(void **state)
{
	struct stats_region r;
	struct stats_total *t = calloc(1, sizeof(*t));

	(void)state;
	assert_int_equal(stats_map(&r, 3), 0);
	stats_slot_reset(&r, 0, PHASE_EXECUTE);
	stats_slot_reset(&r, 1, PHASE_EXECUTE);
	stats_slot_reset(&r, 2, PHASE_WARMUP);	/* lagging behind */
	put(&r, 0, OP_READX, 1000, 4096, 5);
	put(&r, 0, OP_READX, 3000, 4096, 5);
	put(&r, 1, OP_WRITEX, 7000, 100, 4);	/* older tick */
	put(&r, 2, OP_READX, 99999, 1 << 20, 5);

	stats_sum(&r, 0, 3, PHASE_EXECUTE, 5, true, t);
	assert_int_equal(t->clients, 2);
	assert_int_equal(t->bytes, 8192 + 100);
	assert_int_equal(t->lines, 3);
	assert_int_equal(t->ops[OP_READX].count, 2);
	assert_int_equal(t->ops[OP_READX].sum_ns, 4000);
	assert_int_equal(t->ops[OP_READX].max_ns, 3000);
	assert_int_equal(t->ops[OP_WRITEX].count, 1);
	assert_int_equal(hist_total(&t->ops[OP_READX].hist), 2);
	/* tick 5's worst: slot 1's 7000 belongs to tick 4 */
	assert_int_equal(t->tick_max_ns, 3000);

	stats_sum(&r, 0, 3, PHASE_WARMUP, 5, false, t);
	assert_int_equal(t->clients, 1);
	assert_int_equal(t->bytes, 1 << 20);

	/* the lagging client reaches execute: its warmup counts vanish */
	stats_slot_reset(&r, 2, PHASE_EXECUTE);
	stats_sum(&r, 0, 3, PHASE_EXECUTE, 5, true, t);
	assert_int_equal(t->clients, 3);
	assert_int_equal(t->ops[OP_READX].count, 2);
	assert_int_equal(t->bytes, 8192 + 100);

	/* one client alone */
	stats_sum_client(&r, 1, PHASE_EXECUTE, t);
	assert_int_equal(t->ops[OP_WRITEX].count, 1);
	assert_int_equal(t->ops[OP_READX].count, 0);
	stats_unmap(&r);
	free(t);
}

static void test_mismatch_first(void **state)
{
	struct stats_region r;
	struct stats_total *t = calloc(1, sizeof(*t));

	(void)state;
	assert_int_equal(stats_map(&r, 3), 0);
	stats_slot_reset(&r, 0, PHASE_EXECUTE);
	stats_slot_reset(&r, 1, PHASE_EXECUTE);
	stats_slot_reset(&r, 2, PHASE_WARMUP);
	assert_int_equal(r.slots[0].mm[OP_QPATHINFO].first_wall_ns, 0);
	/* client 1's came later than client 2's */
	r.slots[1].mm[OP_QPATHINFO].count = 2;
	r.slots[1].mm[OP_QPATHINFO].first_wall_ns = 2000;
	r.slots[1].mm[OP_QPATHINFO].first_op = 17;
	r.slots[1].mm[OP_QPATHINFO].first_client = 1;
	r.slots[2].mm[OP_QPATHINFO].count = 1;
	r.slots[2].mm[OP_QPATHINFO].fatal = 1;
	r.slots[2].mm[OP_QPATHINFO].first_wall_ns = 1000;
	r.slots[2].mm[OP_QPATHINFO].first_op = 5;
	r.slots[2].mm[OP_QPATHINFO].first_status = 0xC0000034;
	r.slots[2].mm[OP_QPATHINFO].first_client = 2;
	stats_sum(&r, 0, 3, PHASE_EXECUTE, 0, false, t);
	/* mismatches count whatever the phase, the earliest is first */
	assert_int_equal(t->mm[OP_QPATHINFO].count, 3);
	assert_int_equal(t->mm[OP_QPATHINFO].fatal, 1);
	assert_int_equal(t->mm[OP_QPATHINFO].first_op, 5);
	assert_int_equal(t->mm[OP_QPATHINFO].first_client, 2);
	assert_int_equal(t->mm[OP_QPATHINFO].first_status, 0xC0000034);
	assert_int_equal(t->mm[OP_READX].count, 0);
	assert_int_equal(t->mm[OP_READX].first_wall_ns, 0);
	/* a phase reset keeps them */
	stats_slot_reset(&r, 1, PHASE_EXECUTE);
	assert_int_equal(r.slots[1].mm[OP_QPATHINFO].count, 2);
	stats_unmap(&r);
	free(t);
}

static void test_shared_with_child(void **state)
{
	struct stats_region r;
	pid_t pid;
	int status;

	(void)state;
	assert_int_equal(stats_map(&r, 2), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		stats_slot_reset(&r, 1, PHASE_EXECUTE);
		put(&r, 1, OP_FLUSH, 42, 0, 0);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(r.live[1].phase, PHASE_EXECUTE);
	assert_int_equal(r.slots[1].ops[OP_FLUSH].count, 1);
	assert_int_equal(r.slots[1].ops[OP_FLUSH].max_ns, 42);
	stats_unmap(&r);
	assert_null(r.map);
}

/*
 * The once-a-second buffers: a client records into the buffer of the
 * parent's current tick, the parent sums a tick once it has moved on;
 * a buffer left over from an older tick is neither counted nor mixed
 * into the new one.
 */
static void test_tick_series(void **state)
{
	struct stats_region r;
	struct tick_stats *t = calloc(1, sizeof(*t));

	(void)state;
	assert_int_equal(stats_map(&r, 3), 0);
	/* tick 0: clients 0 and 1 */
	stats_tick_record(&r.slots[0], 0, 1000, 4096);
	stats_tick_record(&r.slots[0], 0, 5000, 0);
	stats_tick_record(&r.slots[1], 0, 2000000, 100);
	stats_tick_sum(&r, 0, t);
	assert_int_equal(t->ops, 3);
	assert_int_equal(t->bytes, 4196);
	assert_int_equal(t->max_ns, 2000000);
	assert_int_equal(hist_total(&t->hist), 3);
	assert_int_equal(hist_percentile(&t->hist, 99, 0, t->max_ns), 2000000);

	/* tick 1: only client 2; tick 0's buffers are not counted */
	stats_tick_record(&r.slots[2], 1, 700, 1);
	stats_tick_sum(&r, 1, t);
	assert_int_equal(t->ops, 1);
	assert_int_equal(t->bytes, 1);
	assert_int_equal(t->max_ns, 700);
	assert_int_equal(hist_total(&t->hist), 1);

	/* tick 2 reuses tick 0's buffer: client 0 starts it afresh, and
	 * client 1, idle since tick 0, is not counted */
	stats_tick_record(&r.slots[0], 2, 300, 0);
	stats_tick_sum(&r, 2, t);
	assert_int_equal(t->ops, 1);
	assert_int_equal(t->max_ns, 300);
	assert_int_equal(hist_total(&t->hist), 1);
	assert_int_equal(hist_percentile(&t->hist, 50, 0, t->max_ns), 300);
	stats_unmap(&r);
	free(t);
}

/*
 * With 1024 clients each stays under 1 MiB of memory: even a client
 * whose every histogram page were touched has a slot below that.  A
 * loadfile speaks one dialect (the compiler refuses a mix), so a client
 * touches the statistics of the SMB kinds, of the NFSv3 ones (with
 * Deltree) or of dbench 5.0's smb ones, never two: the other dialects'
 * pages stay untouched.
 */
static void test_slot_size(void **state)
{
	size_t nfs = OP_NFS3_LAST - OP_NFS3_FIRST + 1;
	size_t smb5 = OP_SMB5_LAST - OP_SMB5_FIRST + 1;
	size_t smb = OP_NUM_MEASURED - nfs - smb5;
	size_t most = smb > nfs + 1 ? smb : nfs + 1;
	size_t unused;

	most = most > smb5 ? most : smb5;
	unused = OP_NUM_MEASURED - most;

	(void)state;
	assert_true(sizeof(struct client_slot) -
			    unused * sizeof(struct op_stats) <
		    1024 * 1024);
}

/*
 * A slot's 32-bit bucket that fills up carries into a 64-bit count: the
 * bucket, the merged histogram and the sparse form see every value.
 */
static void test_hist_carry(void **state)
{
	struct stats_region r;
	struct histogram *h = calloc(1, sizeof(*h));
	struct client_slot *s;
	unsigned i = hist_index(5000);

	(void)state;
	assert_non_null(h);
	assert_int_equal(stats_map(&r, 1), 0);
	s = &r.slots[0];
	stats_slot_reset(&r, 0, PHASE_EXECUTE);
	put(&r, 0, OP_WRITEX, 5000, 0, 0);
	*stats_hist_cell(s, OP_WRITEX, i) = UINT32_MAX - 1; /* 2^32 - 2 more */
	put(&r, 0, OP_WRITEX, 5000, 0, 0);	/* UINT32_MAX */
	put(&r, 0, OP_WRITEX, 5000, 0, 0);	/* wraps: carry 1, bucket 0 */
	put(&r, 0, OP_WRITEX, 5000, 0, 0);
	put(&r, 0, OP_READX, 5000, 0, 0);	/* another kind: no carry */
	assert_int_equal(s->ncarry, 1);
	assert_int_equal(stats_hist_bucket(s, OP_WRITEX, i), (1ull << 32) + 1);
	assert_int_equal(stats_hist_bucket(s, OP_READX, i), 1);
	stats_hist_merge(h, s, OP_WRITEX);
	stats_hist_merge(h, s, OP_WRITEX);
	assert_int_equal(h->count[i], 2 * ((1ull << 32) + 1));
	assert_int_equal(hist_total(h), 2 * ((1ull << 32) + 1));
	/* a phase change starts the kind afresh, carries too */
	stats_slot_reset(&r, 0, PHASE_EXECUTE);
	assert_int_equal(s->ncarry, 0);
	assert_int_equal(stats_hist_bucket(s, OP_WRITEX, i), 0);
	assert_int_equal(s->ops[OP_WRITEX].end, 0);
	stats_unmap(&r);
	free(h);
}

/*
 * The tick's sums come from the live array alone and agree with the full
 * sums; releasing a slot from this process keeps what it holds.
 */
static void test_live_sum_and_release(void **state)
{
	struct stats_region r;
	struct stats_total *t = calloc(1, sizeof(*t));
	struct stats_live_total lt;

	(void)state;
	assert_non_null(t);
	assert_int_equal(stats_map(&r, 3), 0);
	assert_true((char *)r.slots >= (char *)&r.live[3]);
	assert_int_equal((uintptr_t)&r.slots[1] % 4096, 0);
	stats_slot_reset(&r, 0, PHASE_EXECUTE);
	stats_slot_reset(&r, 1, PHASE_EXECUTE);
	stats_slot_reset(&r, 2, PHASE_WARMUP);
	put(&r, 0, OP_READX, 1000, 4096, 5);
	put(&r, 1, OP_READX, 8000, 10, 5);
	put(&r, 1, OP_WRITEX, 2000, 10, 5);
	put(&r, 2, OP_READX, 99999, 1 << 20, 5);
	stats_sum_live(&r, PHASE_EXECUTE, 5, &lt);
	stats_sum(&r, 0, 3, PHASE_EXECUTE, 5, true, t);
	assert_int_equal(lt.clients, 2);
	assert_int_equal(lt.lines, 3);
	assert_int_equal(lt.lines_run, 4);
	assert_int_equal(lt.bytes, 4096 + 20);
	assert_int_equal(lt.tick_max_ns, 8000);
	assert_int_equal(lt.clients, t->clients);
	assert_int_equal(lt.lines, t->lines);
	assert_int_equal(lt.bytes, t->bytes);
	assert_int_equal(lt.tick_max_ns, t->tick_max_ns);
	stats_sum_live(&r, PHASE_EXECUTE, 6, &lt);
	assert_int_equal(lt.tick_max_ns, 0);	/* nothing in tick 6 */
	/* stats_sum(with_hist) released every slot: still all there */
	assert_int_equal(r.slots[1].ops[OP_READX].count, 1);
	assert_int_equal(stats_hist_bucket(&r.slots[1], OP_READX,
					   hist_index(8000)), 1);
	stats_slot_release(&r, 1);
	assert_int_equal(r.slots[1].ops[OP_WRITEX].max_ns, 2000);
	stats_unmap(&r);
	free(t);
}

/*
 * A kind's buckets take a chunk per octave its values fall in, handed out
 * in the order of first use: two kinds over three octaves take six
 * chunks, the first pages of the area, and nothing else.  A phase change
 * zeroes and parks them, and the same octaves take them back (no new
 * chunk).  The merged histogram's range is the non-zero buckets exactly.
 */
static void test_hist_chunks(void **state)
{
	static const uint64_t v[] = { 1000, 3000, 3100, 20000 };
	struct stats_region r;
	struct histogram *h = calloc(1, sizeof(*h));
	struct client_slot *s;

	(void)state;
	assert_non_null(h);
	assert_int_equal(stats_map(&r, 1), 0);
	s = &r.slots[0];
	stats_slot_reset(&r, 0, PHASE_EXECUTE);
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned j = 0; j < 4; j++) {
			put(&r, 0, OP_WRITEX, v[j], 0, 0);
			put(&r, 0, OP_CLOSE, v[j], 0, 0);
		}
		assert_int_equal(s->nchunks, 6);
		assert_int_equal(s->ops[OP_WRITEX].lo, hist_index(1000) & ~127u);
		assert_int_equal(s->ops[OP_WRITEX].end,
				 (hist_index(20000) | 127u) + 1);
		assert_int_equal(stats_hist_bucket(s, OP_WRITEX,
						   hist_index(3000)), 1);
		assert_int_equal(stats_hist_bucket(s, OP_CLOSE,
						   hist_index(3100)), 1);
		assert_int_equal(stats_hist_bucket(s, OP_READX,
						   hist_index(3000)), 0);
		assert_null(stats_hist_cell(s, OP_READX, hist_index(3000)));
		hist_clear(h);
		stats_hist_merge(h, s, OP_WRITEX);
		assert_int_equal(h->lo, hist_index(1000));
		assert_int_equal(h->end, hist_index(20000) + 1);
		assert_int_equal(hist_total(h), 4);
		stats_slot_reset(&r, 0, PHASE_EXECUTE);
		assert_int_equal(s->ops[OP_WRITEX].end, 0);
		assert_int_equal(stats_hist_bucket(s, OP_WRITEX,
						   hist_index(3000)), 0);
	}
	stats_unmap(&r);
	free(h);
}

/*
 * The engine's record(): latencies wait in the client's stage until
 * CLIENT_HSTAGE of them are there (or hist_flush()), while the count,
 * sum, maximum and bytes are written at once; reads count as read bytes
 * too; the series is fed only when someone reads it; the tick's worst
 * latency starts afresh with each tick.  record_mismatch() keeps the
 * first one's context.
 */
static void test_engine_record(void **state)
{
	struct stats_region r;
	struct stats_header hdr = { .tick = 3 };
	struct client *cl = calloc(1, sizeof(*cl));
	struct program prog = { 0 };
	struct op ops[2] = { { 0 } };
	struct tick_stats *t = calloc(1, sizeof(*t));
	struct histogram *h = calloc(1, sizeof(*h));
	struct client_slot *s;
	struct client_live *l;

	(void)state;
	assert_non_null(cl);
	assert_non_null(t);
	assert_non_null(h);
	assert_int_equal(stats_map(&r, 1), 0);
	s = &r.slots[0];
	l = &r.live[0];
	stats_slot_reset(&r, 0, PHASE_EXECUTE);
	engine_client(cl, &r, 0, &hdr);
	for (unsigned i = 0; i < CLIENT_HSTAGE + 2; i++)
		record(cl, OP_READX, 1000 + i, 10);
	assert_int_equal(s->ops[OP_READX].count, CLIENT_HSTAGE + 2);
	assert_int_equal(s->ops[OP_READX].max_ns, 1000 + CLIENT_HSTAGE + 1);
	assert_true((s->ops_used & (1ull << OP_READX)) != 0);
	assert_int_equal(l->bytes, 10 * (CLIENT_HSTAGE + 2));
	assert_int_equal(l->read_bytes, 10 * (CLIENT_HSTAGE + 2));
	assert_int_equal(l->tick_seen, 3);
	assert_int_equal(l->tick_max_ns, 1000 + CLIENT_HSTAGE + 1);
	/* one full stage counted, two latencies still staged */
	assert_int_equal(cl->nhstage, 2);
	stats_hist_merge(h, s, OP_READX);
	assert_int_equal(hist_total(h), CLIENT_HSTAGE);
	hist_flush(cl);
	assert_int_equal(cl->nhstage, 0);
	hist_clear(h);
	stats_hist_merge(h, s, OP_READX);
	assert_int_equal(hist_total(h), CLIENT_HSTAGE + 2);

	/* a write: bytes, not read bytes; no series without a reader */
	record(cl, OP_WRITEX, 500, 7);
	assert_int_equal(l->bytes, 10 * (CLIENT_HSTAGE + 2) + 7);
	assert_int_equal(l->read_bytes, 10 * (CLIENT_HSTAGE + 2));
	stats_tick_sum(&r, 3, t);
	assert_int_equal(t->ops, 0);
	/* the next tick's worst starts afresh, and the series is fed */
	hdr.tick = 4;
	cl->series = true;
	record(cl, OP_WRITEX, 400, 1);
	assert_int_equal(l->tick_seen, 4);
	assert_int_equal(l->tick_max_ns, 400);
	stats_tick_sum(&r, 4, t);
	assert_int_equal(t->ops, 1);
	assert_int_equal(t->bytes, 1);
	assert_int_equal(t->max_ns, 400);

	/* mismatches: counted, the first kept */
	prog.ops = ops;
	ops[1].kind = OP_QPATHINFO;
	cl->prog = &prog;
	cl->id = 7;
	record_mismatch(cl, &ops[1], 0xC0000034, 2, -1);
	record_mismatch(cl, &ops[1], 0xC0000022, 13, -1);
	assert_int_equal(s->mm[OP_QPATHINFO].count, 2);
	assert_int_equal(s->mm[OP_QPATHINFO].first_op, 1);
	assert_int_equal(s->mm[OP_QPATHINFO].first_status, 0xC0000034);
	assert_int_equal(s->mm[OP_QPATHINFO].first_err, 2);
	assert_int_equal(s->mm[OP_QPATHINFO].first_client, 7);
	assert_int_equal(s->mm[OP_QPATHINFO].first_found, -1);
	assert_true(s->mm[OP_QPATHINFO].first_wall_ns != 0);
	stats_unmap(&r);
	free(cl);
	free(t);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sum_by_phase),
		cmocka_unit_test(test_mismatch_first),
		cmocka_unit_test(test_shared_with_child),
		cmocka_unit_test(test_tick_series),
		cmocka_unit_test(test_slot_size),
		cmocka_unit_test(test_hist_carry),
		cmocka_unit_test(test_hist_chunks),
		cmocka_unit_test(test_live_sum_and_release),
		cmocka_unit_test(test_engine_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
