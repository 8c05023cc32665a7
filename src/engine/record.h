/*
 * record.h - how the engine records a measured op in its client's stats
 * slot (record()), counts the staged latencies into the histograms
 * (hist_flush()) and records a mismatch (record_mismatch()).  Static,
 * not inline, in a header: client_step() runs them, and the compiler
 * inlines them there or not as it did when they were client.c's own
 * (record() is; hist_flush(), called from four places, is not); the unit
 * tests (test_stats.c) run the same code.
 */
#ifndef DBENCH_ENGINE_RECORD_H
#define DBENCH_ENGINE_RECORD_H

#include "util/atomic.h"
#include "client_private.h"
#include "stats/histogram.h"
#include "stats/stats.h"
#include "util/util.h"

/* Count the staged latencies into the slot's histograms. */
HOT_PATH __attribute__((unused))
static void hist_flush(struct client *c)
{
	struct client_slot *s = c->slot;
	const uint32_t mask = (1u << CLIENT_HSTAGE_BUCKET_BITS) - 1;

	for (unsigned i = 0; i < c->nhstage; i++)
		stats_hist_count(s, c->hstage[i] >> CLIENT_HSTAGE_BUCKET_BITS,
				 c->hstage[i] & mask);
	c->nhstage = 0;
}

/* The kinds whose bytes are read bytes (every dialect's reads). */
#define RECORD_READ_KINDS                                               \
	(1ull << OP_READX | 1ull << OP_READ5 | 1ull << OP_BREAD |         \
	 1ull << OP_READ6 | 1ull << OP_READ10 | 1ull << OP_READ16)

/* Record one measured op in the slot. */
HOT_PATH __attribute__((unused))
static void record(struct client *c, enum op_kind k, uint64_t lat,
		   uint64_t bytes)
{
	struct client_slot *s = c->slot;
	struct client_live *l = c->live;
	struct slot_op *os = &s->ops[k];
	uint64_t tick = LOAD(c->hdr->tick);

	if (!(s->ops_used & (1ull << k)))
		__atomic_store_n(&s->ops_used, s->ops_used | (1ull << k),
				 __ATOMIC_RELEASE);
	STORE(os->count, os->count + 1);
	STORE(os->sum_ns, os->sum_ns + lat);
	if (lat > os->max_ns)
		STORE(os->max_ns, lat);
	c->hstage[c->nhstage++] = (uint32_t)k << CLIENT_HSTAGE_BUCKET_BITS |
				  hist_index(lat);
	if (c->nhstage == CLIENT_HSTAGE)
		hist_flush(c);
	/* the once-a-second series, only when someone will read it */
	if (c->series)
		stats_tick_record(s, tick, lat, bytes);
	if (bytes != 0) {
		STORE(l->bytes, l->bytes + bytes);
		if ((RECORD_READ_KINDS >> k) & 1)
			STORE(l->read_bytes, l->read_bytes + bytes);
	}
	if (l->tick_seen != tick) {
		STORE(l->tick_max_ns, lat);
		STORE(l->tick_seen, tick);
	} else if (lat > l->tick_max_ns) {
		STORE(l->tick_max_ns, lat);
	}
}

/* Count a status (or, found >= 0, a FIND entry count) that is not what
 * the loadfile expects; the first one is kept with its context. */
__attribute__((unused))
static void record_mismatch(struct client *c, const struct op *op,
			    uint32_t status, int err, int64_t found)
{
	struct mismatch_stats *m = &c->slot->mm[op->kind];

	if (m->first_wall_ns == 0) {
		STORE(m->first_op, (uint32_t)(op - c->prog->ops));
		STORE(m->first_status, status);
		STORE(m->first_err, err);
		STORE(m->first_client, c->id);
		STORE(m->first_found, found);
		__atomic_store_n(&m->first_wall_ns, wall_ns(),
				 __ATOMIC_RELEASE);
	}
	STORE(m->count, m->count + 1);
	STORE(m->phase_count, m->phase_count + 1);
}

#endif
