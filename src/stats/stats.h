/*
 * stats.h - the shared statistics region and its aggregation.
 *
 * The parent maps one anonymous MAP_SHARED region before forking.  It has
 * a header written only by the parent (phase, tick, stop request), then,
 * written only by its client, per client: a live entry in a dense array
 * (state and counters, what the parent reads at every poll and tick) and
 * a slot (per-op figures and histograms, mismatches, pass records: read
 * once, at the end).  Readers use relaxed atomic loads; nothing is locked.
 * Untouched pages (most of the histograms) cost no memory.
 *
 * Phases: a client keeps counters for the phase it last saw.  When the
 * parent moves from warmup to execute, each client notices at its next op,
 * zeroes its own counters and tags them with the new phase; the parent
 * only aggregates slots whose tag matches the phase it reports.
 */
#ifndef DBENCH_STATS_H
#define DBENCH_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/histogram.h"
#include "loadfile/program.h"
#include "util/util.h"	/* now_ns(), wall_ns() */

enum run_phase {
	PHASE_PREPARE = 0,
	PHASE_WARMUP,
	PHASE_EXECUTE,
	PHASE_CLEANUP,
	PHASE_DONE,
};

enum client_state {
	CLIENT_PREPARING = 0,	/* forked, setting up its backend */
	CLIENT_READY,		/* waiting at the start gate */
	CLIENT_RUNNING,
	CLIENT_CLEANUP,		/* removing its tree */
	CLIENT_DONE,		/* finished normally */
	CLIENT_FAILED,		/* stopped on an error; message on stderr */
};

struct op_stats {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;
	struct histogram hist;
};

/*
 * Results that differed from what the loadfile expects.  Unlike op_stats
 * these are never reset at a phase change: a mismatch in the warmup is
 * still a mismatch.
 */
struct mismatch_stats {
	uint64_t count;		/* not fatal: counted and summarised */
	uint64_t fatal;		/* stopped the client (reported on stderr) */
	uint64_t phase_count;	/* of count, in the current phase */
	/* the first non-fatal one: when, where, what */
	uint64_t first_wall_ns;	/* CLOCK_REALTIME, so that the first of
				 * two hosts can be told; 0 = none yet */
	uint32_t first_op;	/* op index in the client's program */
	uint32_t first_status;	/* the actual status */
	int32_t first_err;	/* errno behind it, 0 if none */
	uint32_t first_client;	/* its client id */
	int64_t first_found;	/* FIND_FIRST: entries found, or -1 */
};

#define STATS_MAX_PASS_RECORDS 4096

/*
 * An op kind's figures in a client's slot.  Its histogram has the
 * buckets of histogram.h, but 32-bit and kept apart: in chunks of one
 * octave (HIST_SUB buckets, 512 bytes), handed out from the slot's chunk
 * area in the order kinds first need them (client_slot.hdir says which
 * chunk holds an octave of a kind).  So a client's histograms take the
 * pages its latencies need, a few octaves per kind, rather than one
 * 18.5 KB array per kind touched wherever its latencies fall; and the
 * figures of every kind share a few cache lines.  A bucket that would
 * wrap adds 2^32 to a carry entry (client_slot.carry) instead.
 */
struct slot_op {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;
	uint32_t lo;		/* buckets [lo, end) may be non-zero (whole */
	uint32_t end;		/* octaves); end == 0 when none is */
};

/* octaves (histogram chunks) of a kind, and chunks in a slot */
#define STATS_HIST_CHUNKS	(HIST_BUCKETS / HIST_SUB)
#define STATS_SLOT_CHUNKS	(OP_NUM_MEASURED * STATS_HIST_CHUNKS)
_Static_assert(HIST_BUCKETS % HIST_SUB == 0, "whole octaves");
_Static_assert(STATS_SLOT_CHUNKS < INT16_MAX, "chunk numbers fit hdir");

/* 2^32 x wraps more values in bucket `bucket` of op kind `kind`. */
struct slot_carry {
	uint32_t kind;
	uint32_t bucket;
	uint64_t wraps;
};

#define STATS_MAX_CARRIES 8

struct pass_record {
	uint32_t ms;		/* duration of the pass */
	uint32_t at_ms;		/* ms since the client started, at its end */
};

/*
 * One second of a client's ops, for the once-a-second series.  A client
 * keeps two, chosen by the parity of the parent's tick: it records into
 * tick_buf[tick & 1], first clearing it when it held an older tick, while
 * the parent, having just moved the tick on, reads the other one.  Only
 * the buckets a second used are touched, so reading stays cheap.
 */
struct tick_stats {
	uint64_t tag;		/* tick + 1 the counts belong to; 0 = unused */
	uint64_t ops;
	uint64_t bytes;
	uint64_t max_ns;
	struct histogram hist;	/* every measured op of that second */
};

/*
 * What the parent reads of a client while the run goes on: its state at
 * every poll, its counters at every tick.  One per client in a dense
 * array apart from the slots (two cache lines each, the first written at
 * every op), so that a tick reads 128 bytes a client rather than a page,
 * and neighbours written by other workers share no cache line.
 */
struct client_live {
	/* tag of the counters below: enum run_phase */
	uint32_t phase;
	uint32_t state;		/* enum client_state */
	uint32_t cur_op;	/* op index being run (for crash reports) */
	uint32_t pad;
	uint64_t lines;		/* loadfile lines done in this phase */
	uint64_t bytes;		/* ReadX + WriteX bytes in this phase */
	uint64_t read_bytes;	/* ... of them ReadX's */
	uint64_t tick_seen;	/* tick the tick_max_ns belongs to */
	uint64_t tick_max_ns;	/* worst latency in that tick */
	uint64_t passes;	/* completed passes (whole run) */
	/* second line: written now and then */
	uint64_t lines_before;	/* lines of the earlier phases (added at
				 * the phase change, off the hot path) */
	int64_t sp;		/* last SETSP value */
	uint64_t end_ns;	/* when it stopped running ops */
	uint64_t setup_ns;	/* its backend setup (a connection), before
				 * the start gate: in no op's latency */
} __attribute__((aligned(64)));

/*
 * The rest of a client's figures: read by the parent once, at the end
 * (and the tick buffers once a second when a series is kept).  Each slot
 * starts on a page of its own.
 */
struct client_slot {
	uint32_t program;	/* index of its loadfile */
	uint32_t client_id;	/* the client's id (stats_client_id()) */
	uint32_t directory;	/* index of its target directory */
	uint32_t npass_records;
	uint64_t start_ns;	/* when the client was released */
	/*
	 * Bit k: ops[k] has been written, so its pages exist.  Readers skip
	 * the others: in a shared mapping even a read allocates a page.
	 */
	uint64_t ops_used;
	uint32_t ncarry;	/* carry entries in use */
	uint32_t nchunks;	/* histogram chunks handed out */
	struct slot_op ops[OP_NUM_MEASURED];
	struct slot_carry carry[STATS_MAX_CARRIES];
	/*
	 * Octave o of kind k's buckets: chunk[hdir[k][o] - 1] when
	 * hdir[k][o] > 0; none yet when 0; when < 0, chunk[-hdir[k][o] - 1]
	 * was the octave's and is zeroed and parked by a phase change (the
	 * octave takes it back at its next value).  The SMB kinds' entries
	 * share the first page with ops.
	 */
	int16_t hdir[OP_NUM_MEASURED][STATS_HIST_CHUNKS];
	struct mismatch_stats mm[OP_NUM_MEASURED];
	uint32_t chunk[STATS_SLOT_CHUNKS][HIST_SUB] __attribute__((aligned(4096)));
	struct pass_record pass[STATS_MAX_PASS_RECORDS];
	struct tick_stats tick_buf[2];	/* see struct tick_stats */
} __attribute__((aligned(4096)));

/* Rare path of stats_hist_record(): bucket i of kind k is full. */
void stats_hist_carry(struct client_slot *s, unsigned k, unsigned i);

/*
 * Rare path of stats_hist_record(): give octave o of kind k a chunk (its
 * parked one, or the next free one) and widen the kind's [lo, end).
 * Returns the chunk's number + 1 (its hdir entry).
 */
int stats_hist_chunk(struct client_slot *s, unsigned k, unsigned o);

/*
 * Client side: count one value in bucket i (hist_index()) of kind k's
 * histogram (the bucket and its range; the caller keeps count, sum and
 * max).  O(1), no lock.
 */
static inline void stats_hist_count(struct client_slot *s, unsigned k,
				    unsigned i)
{
	int ch = s->hdir[k][i / HIST_SUB];
	uint32_t *b, c;

	if (__builtin_expect(ch <= 0, 0))
		ch = stats_hist_chunk(s, k, i / HIST_SUB);
	b = &s->chunk[ch - 1][i % HIST_SUB];
	c = *b;
	if (__builtin_expect(c == UINT32_MAX, 0)) {
		stats_hist_carry(s, k, i);
		c = 0;
	} else {
		c++;
	}
	__atomic_store_n(b, c, __ATOMIC_RELAXED);
}

/* Client side: count v in kind k's histogram (see stats_hist_count). */
static inline void stats_hist_record(struct client_slot *s, unsigned k,
				     uint64_t v)
{
	stats_hist_count(s, k, hist_index(v));
}

/*
 * Bucket i of kind k in slot s without its carries, as a place to write
 * (tests set a bucket near its wrap with it); NULL when the bucket's
 * octave has no chunk.
 */
static inline uint32_t *stats_hist_cell(struct client_slot *s, unsigned k,
					unsigned i)
{
	int ch = s->hdir[k][i / HIST_SUB];

	return ch > 0 ? &s->chunk[ch - 1][i % HIST_SUB] : NULL;
}

/* Bucket i of kind k in slot s, carries included (s may be written
 * concurrently). */
uint64_t stats_hist_bucket(const struct client_slot *s, unsigned k,
			   unsigned i);

/* dst += kind k's histogram in slot s, bucket by bucket. */
void stats_hist_merge(struct histogram *dst, const struct client_slot *s,
		      unsigned k);

/*
 * A client's response times: from when each op was due by the schedule
 * (a timed loadfile's timestamps, or the -R pace) to its end, i.e. the
 * delay before it started plus its service time (coordinated omission).
 * Kept only when the run has a schedule, in a mapping of their own
 * (stats_map_response()), so that a run without one maps and touches
 * nothing more.  Written by its client, tagged like the slot by
 * client_live.phase and reset with it; read by the parent at the end.
 */
struct client_response {
	uint64_t used;		/* bit k: ops[k] has been written */
	struct op_stats ops[OP_NUM_MEASURED];
} __attribute__((aligned(4096)));

/* Client side: count one response time of kind k (O(1), no lock). */
static inline void stats_response_record(struct client_response *r,
					 unsigned k, uint64_t v)
{
	struct op_stats *os = &r->ops[k];

	if (!(r->used & (1ull << k)))
		__atomic_store_n(&r->used, r->used | (1ull << k),
				 __ATOMIC_RELEASE);
	__atomic_store_n(&os->count, os->count + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&os->sum_ns, os->sum_ns + v, __ATOMIC_RELAXED);
	if (v > os->max_ns)
		__atomic_store_n(&os->max_ns, v, __ATOMIC_RELAXED);
	hist_record(&os->hist, v);
}

struct stats_header {
	uint32_t phase;		/* enum run_phase, written by the parent */
	uint32_t stop;		/* 1: clients finish their op and clean up */
	uint64_t tick;		/* incremented by the parent once a second */
	uint32_t nclients;
	uint32_t pad;
	uint64_t release_ns;	/* CLOCK_MONOTONIC at the start gate */
};

struct stats_region {
	struct stats_header *hdr;
	struct client_live *live;	/* [nclients] */
	struct client_slot *slots;	/* [nclients] */
	unsigned nclients;
	/*
	 * Client ids are client_id_base + slot index: 0 on one host, the
	 * rank's first id when several hosts share a run.  Ids name the
	 * clients' directories (clients/clientN) and their lines in the
	 * report; slots are only where their counters live.  Set before
	 * the workers are forked; kept here rather than in the shared
	 * header so that reading it costs a fresh worker no page fault.
	 */
	unsigned client_id_base;
	void *map;
	size_t map_len;
	/* [nclients] when the run has a schedule, else NULL */
	struct client_response *resp;
	size_t resp_len;
};

/*
 * Map the region for nclients (zeroed, shared with children).  Returns 0,
 * or -1 with errno set.  stats_unmap() releases it.
 */
int stats_map(struct stats_region *r, unsigned nclients);
void stats_unmap(struct stats_region *r);

/* Sums over slots, computed by the parent. */
struct stats_total {
	uint64_t lines;
	uint64_t lines_run;	/* every slot in range: lines since release */
	uint64_t read_bytes;
	uint64_t bytes;
	uint64_t tick_max_ns;	/* worst latency in the tick asked for */
	unsigned clients;	/* slots counted */
	struct op_stats ops[OP_NUM_MEASURED];	/* with merged histograms */
	/* every slot in range, whatever its phase; first_* is the earliest */
	struct mismatch_stats mm[OP_NUM_MEASURED];
};

/* What a tick needs: the live counters summed (stats_sum_live()). */
struct stats_live_total {
	uint64_t lines;		/* clients in the phase asked for */
	uint64_t lines_run;	/* every client: lines since release */
	uint64_t bytes;
	uint64_t tick_max_ns;	/* worst latency in the tick asked for */
	unsigned clients;	/* clients in the phase */
};

/*
 * Parent side, once a second: add up the live counters of every client
 * (the dense array only; no slot page is read).  tick: the tick whose
 * worst latency is wanted.
 */
void stats_sum_live(const struct stats_region *r, uint32_t phase,
		    uint64_t tick, struct stats_live_total *t);

/*
 * Add up the slots [first, first+n) whose counters belong to phase.
 * with_hist: merge histograms too (costly; reports only).  tick: the tick
 * whose worst latency is wanted.
 */
/* t must start zeroed (talloc_zero) the first time: its histograms are
 * cleared by range.  With with_hist, each slot read is released from this
 * process afterwards (stats_slot_release()): the parent reads every slot
 * once, at the end, and keeps only one mapped at a time. */
void stats_sum(const struct stats_region *r, unsigned first, unsigned n,
	       uint32_t phase, uint64_t tick, bool with_hist,
	       struct stats_total *t);

/* The same for one slot, into t (used by per-client reports). */
static inline void stats_sum_client(const struct stats_region *r, unsigned c,
				    uint32_t phase, struct stats_total *t)
{
	stats_sum(r, c, 1, phase, 0, true, t);
}

/*
 * Client side: count one op of latency lat moving bytes in the second the
 * parent calls tick.  O(1), no lock.
 */
static inline void stats_tick_record(struct client_slot *s, uint64_t tick,
				     uint64_t lat, uint64_t bytes)
{
	struct tick_stats *t = &s->tick_buf[tick & 1];

	if (t->tag != tick + 1) {
		hist_clear(&t->hist);
		__atomic_store_n(&t->ops, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&t->bytes, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&t->max_ns, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&t->tag, tick + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&t->ops, t->ops + 1, __ATOMIC_RELAXED);
	if (bytes != 0)
		__atomic_store_n(&t->bytes, t->bytes + bytes,
				 __ATOMIC_RELAXED);
	if (lat > t->max_ns)
		__atomic_store_n(&t->max_ns, lat, __ATOMIC_RELAXED);
	hist_record(&t->hist, lat);
}

/*
 * Parent side: add up every client's counts for tick into out (ops, bytes,
 * worst latency and the merged histogram; out->tag is set to tick + 1).
 * Call it once the header's tick has moved past tick.  out must start
 * zeroed the first time; later calls clear it by range.
 */
void stats_tick_sum(const struct stats_region *r, uint64_t tick,
		    struct tick_stats *out);

/* The client id of slot `slot` (see stats_region.client_id_base). */
static inline unsigned stats_client_id(const struct stats_region *r,
				       unsigned slot)
{
	return r->client_id_base + slot;
}

/*
 * Map the response times of every client (see struct client_response),
 * after stats_map().  Returns 0, or -1 with errno set.
 */
int stats_map_response(struct stats_region *r);

/* Client side: zero a client's response times (at a phase change). */
void stats_response_reset(const struct stats_region *r, unsigned slot);

/*
 * Parent side: add up the response times of the slots [first, first+n)
 * whose counters belong to phase into out[OP_NUM_MEASURED] (zeroed the
 * first time).  Nothing when the region has none.
 */
void stats_response_sum(const struct stats_region *r, unsigned first,
			unsigned n, uint32_t phase, struct op_stats *out);

/* Reset one client's counters and tag them with phase (client side). */
void stats_slot_reset(const struct stats_region *r, unsigned slot,
		      uint32_t phase);

/*
 * Drop this process's mapping of slot's pages (their contents stay: a
 * later read maps them again), so that reading every slot once does not
 * leave them all in the reader's memory.
 */
void stats_slot_release(const struct stats_region *r, unsigned slot);

#endif
