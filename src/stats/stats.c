/*
 * stats.c - the shared statistics region: mapping, client-side reset and
 * parent-side aggregation.  See stats.h for the protocol.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#include "util/atomic.h"
#include "stats/stats.h"

/* Round n up to a whole number of pages. */
static size_t page_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

int stats_map(struct stats_region *r, unsigned nclients)
{
	size_t hdr = page_round(sizeof(struct stats_header));
	size_t live = page_round((size_t)nclients * sizeof(struct client_live));
	size_t len = hdr + live + (size_t)nclients * sizeof(struct client_slot);
	void *p;

	memset(r, 0, sizeof(*r));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	r->map = p;
	r->map_len = len;
	r->hdr = p;
	r->live = (struct client_live *)((char *)p + hdr);
	r->slots = (struct client_slot *)((char *)p + hdr + live);
	r->nclients = nclients;
	r->hdr->nclients = nclients;
	return 0;
}

void stats_unmap(struct stats_region *r)
{
	if (r->map != NULL)
		munmap(r->map, r->map_len);
	if (r->resp != NULL)
		munmap(r->resp, r->resp_len);
	memset(r, 0, sizeof(*r));
}

/* Zero kind k's chunks and park them (see client_slot.hdir). */
static void hist_park(struct client_slot *s, unsigned k)
{
	for (unsigned o = 0; o < STATS_HIST_CHUNKS; o++) {
		int ch = s->hdir[k][o];

		if (ch <= 0)
			continue;
		memset(s->chunk[ch - 1], 0, sizeof(s->chunk[0]));
		__atomic_store_n(&s->hdir[k][o], (int16_t)-ch,
				 __ATOMIC_RELEASE);
	}
}

void stats_slot_reset(const struct stats_region *r, unsigned slot,
		      uint32_t phase)
{
	struct client_live *l = &r->live[slot];
	struct client_slot *s = &r->slots[slot];
	uint64_t used = __atomic_load_n(&s->ops_used, __ATOMIC_ACQUIRE);

	/* the progress lines count on across phases, as dbench's do */
	STORE(l->lines_before, l->lines_before + l->lines);
	STORE(l->lines, 0);
	STORE(l->bytes, 0);
	STORE(l->read_bytes, 0);
	for (unsigned o = 0; o < OP_NUM_MEASURED; o++) {
		struct slot_op *os = &s->ops[o];

		/* keep untouched pages untouched */
		if (!(used & (1ull << o)))
			continue;
		if (s->mm[o].phase_count != 0)
			STORE(s->mm[o].phase_count, 0);
		if (os->count == 0)
			continue;
		os->count = 0;
		os->sum_ns = 0;
		os->max_ns = 0;
		if (os->end != 0)
			hist_park(s, o);
		os->lo = 0;
		os->end = 0;
	}
	/* the carries of the kinds just cleared, i.e. all of them */
	s->ncarry = 0;
	if (r->resp != NULL)
		stats_response_reset(r, slot);
	__atomic_store_n(&l->phase, phase, __ATOMIC_RELEASE);
}

void stats_hist_carry(struct client_slot *s, unsigned k, unsigned i)
{
	uint32_t n = s->ncarry;

	for (uint32_t j = 0; j < n; j++)
		if (s->carry[j].kind == k && s->carry[j].bucket == i) {
			STORE(s->carry[j].wraps, s->carry[j].wraps + 1);
			return;
		}
	if (n == STATS_MAX_CARRIES)
		return;	/* 8 x 2^32 values in 8 buckets: the 9th wraps */
	s->carry[n].kind = k;
	s->carry[n].bucket = i;
	STORE(s->carry[n].wraps, 1);
	__atomic_store_n(&s->ncarry, n + 1, __ATOMIC_RELEASE);
}

int stats_hist_chunk(struct client_slot *s, unsigned k, unsigned o)
{
	struct slot_op *os = &s->ops[k];
	int ch = -s->hdir[k][o];
	uint32_t lo = o * HIST_SUB, end = lo + HIST_SUB;

	if (ch == 0) {
		/* every octave of every kind has room: this never fails */
		ch = (int)++s->nchunks;
	}
	__atomic_store_n(&s->hdir[k][o], (int16_t)ch, __ATOMIC_RELEASE);
	if (os->end == 0) {
		__atomic_store_n(&os->lo, lo, __ATOMIC_RELAXED);
		__atomic_store_n(&os->end, end, __ATOMIC_RELEASE);
	} else if (lo < os->lo) {
		__atomic_store_n(&os->lo, lo, __ATOMIC_RELEASE);
	} else if (end > os->end) {
		__atomic_store_n(&os->end, end, __ATOMIC_RELEASE);
	}
	return ch;
}

/* Bucket i of kind k in s, without carries: 0 when its octave has no
 * chunk (a parked one is zero). */
static uint32_t hist_cell(const struct client_slot *s, unsigned k,
			  unsigned i)
{
	int ch = __atomic_load_n(&s->hdir[k][i / HIST_SUB], __ATOMIC_ACQUIRE);

	if (ch <= 0 || ch > (int)STATS_SLOT_CHUNKS)
		return 0;
	return LOAD(s->chunk[ch - 1][i % HIST_SUB]);
}

uint64_t stats_hist_bucket(const struct client_slot *s, unsigned k,
			   unsigned i)
{
	uint64_t c = hist_cell(s, k, i);
	uint32_t n = __atomic_load_n(&s->ncarry, __ATOMIC_ACQUIRE);

	for (uint32_t j = 0; j < n && j < STATS_MAX_CARRIES; j++)
		if (s->carry[j].kind == k && s->carry[j].bucket == i)
			c += LOAD(s->carry[j].wraps) << 32;
	return c;
}

/*
 * dst gets every non-zero bucket of kind k: its [lo, end) is widened to
 * exactly those (as it was when the slot's range was exact), not to the
 * whole octaves the slot's range covers.
 */
void stats_hist_merge(struct histogram *dst, const struct client_slot *s,
		      unsigned k)
{
	const struct slot_op *os = &s->ops[k];
	uint32_t end = __atomic_load_n(&os->end, __ATOMIC_ACQUIRE);
	uint32_t lo = __atomic_load_n(&os->lo, __ATOMIC_ACQUIRE);
	uint32_t n = __atomic_load_n(&s->ncarry, __ATOMIC_ACQUIRE);
	uint32_t first = UINT32_MAX, last = 0;

	if (end > HIST_BUCKETS)
		end = HIST_BUCKETS;
	for (uint32_t i = lo; i < end; i++) {
		uint32_t c = hist_cell(s, k, i);

		if (c == 0)
			continue;
		dst->count[i] += c;
		first = i < first ? i : first;
		last = i;
	}
	for (uint32_t j = 0; j < n && j < STATS_MAX_CARRIES; j++) {
		uint32_t i = s->carry[j].bucket;

		if (s->carry[j].kind != k || i >= HIST_BUCKETS)
			continue;
		dst->count[i] += LOAD(s->carry[j].wraps) << 32;
		first = i < first ? i : first;
		last = i > last ? i : last;
	}
	if (first == UINT32_MAX)
		return;
	if (dst->end == 0 || first < dst->lo)
		dst->lo = first;
	if (last + 1 > dst->end)
		dst->end = last + 1;
}

void stats_slot_release(const struct stats_region *r, unsigned slot)
{
	/*
	 * The region is shared memory: dropping this process's mapping of
	 * the pages keeps their contents (a later read maps them again).
	 */
	if (slot < r->nclients)
		(void)madvise(&r->slots[slot], sizeof(r->slots[slot]),
			      MADV_DONTNEED);
}

static void op_stats_add(struct op_stats *dst, const struct client_slot *s,
			 unsigned k, bool with_hist)
{
	const struct slot_op *src = &s->ops[k];
	uint64_t count = LOAD(src->count);
	uint64_t max = LOAD(src->max_ns);

	dst->count += count;
	dst->sum_ns += LOAD(src->sum_ns);
	if (max > dst->max_ns)
		dst->max_ns = max;
	if (with_hist && count != 0)
		stats_hist_merge(&dst->hist, s, k);
}

static void mismatch_add(struct mismatch_stats *dst,
			 const struct mismatch_stats *src)
{
	uint64_t first = LOAD(src->first_wall_ns);

	dst->count += LOAD(src->count);
	dst->fatal += LOAD(src->fatal);
	dst->phase_count += LOAD(src->phase_count);
	if (first != 0 &&
	    (dst->first_wall_ns == 0 || first < dst->first_wall_ns)) {
		dst->first_wall_ns = first;
		dst->first_op = LOAD(src->first_op);
		dst->first_status = LOAD(src->first_status);
		dst->first_err = LOAD(src->first_err);
		dst->first_client = LOAD(src->first_client);
		dst->first_found = LOAD(src->first_found);
	}
}

void stats_sum_live(const struct stats_region *r, uint32_t phase,
		    uint64_t tick, struct stats_live_total *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned c = 0; c < r->nclients; c++) {
		const struct client_live *l = &r->live[c];
		uint64_t lines = LOAD(l->lines);

		t->lines_run += LOAD(l->lines_before) + lines;
		if (__atomic_load_n(&l->phase, __ATOMIC_ACQUIRE) != phase)
			continue;
		t->clients++;
		t->lines += lines;
		t->bytes += LOAD(l->bytes);
		if (LOAD(l->tick_seen) == tick) {
			uint64_t m = LOAD(l->tick_max_ns);

			if (m > t->tick_max_ns)
				t->tick_max_ns = m;
		}
	}
}

/* One slot of the phase wanted into t (see stats_sum()). */
static void slot_add(struct stats_total *t, const struct client_live *l,
		     const struct client_slot *s, uint64_t tick,
		     bool with_hist)
{
	uint64_t used = __atomic_load_n(&s->ops_used, __ATOMIC_ACQUIRE);

	t->clients++;
	t->lines += LOAD(l->lines);
	t->bytes += LOAD(l->bytes);
	t->read_bytes += LOAD(l->read_bytes);
	if (LOAD(l->tick_seen) == tick) {
		uint64_t m = LOAD(l->tick_max_ns);

		if (m > t->tick_max_ns)
			t->tick_max_ns = m;
	}
	for (unsigned o = 0; o < OP_NUM_MEASURED; o++)
		if (used & (1ull << o))
			op_stats_add(&t->ops[o], s, o, with_hist);
}

void stats_sum(const struct stats_region *r, unsigned first, unsigned n,
	       uint32_t phase, uint64_t tick, bool with_hist,
	       struct stats_total *t)
{
	for (unsigned o = 0; o < OP_NUM_MEASURED; o++) {
		t->ops[o].count = 0;
		t->ops[o].sum_ns = 0;
		t->ops[o].max_ns = 0;
		if (with_hist)
			hist_clear(&t->ops[o].hist);
	}
	memset(t->mm, 0, sizeof(t->mm));
	t->lines = 0;
	t->lines_run = 0;
	t->bytes = 0;
	t->read_bytes = 0;
	t->tick_max_ns = 0;
	t->clients = 0;

	for (unsigned c = first; c < first + n && c < r->nclients; c++) {
		const struct client_live *l = &r->live[c];
		const struct client_slot *s = &r->slots[c];

		for (unsigned o = 0; o < OP_NUM_MEASURED; o++)
			mismatch_add(&t->mm[o], &s->mm[o]);
		t->lines_run += LOAD(l->lines_before) + LOAD(l->lines);
		if (__atomic_load_n(&l->phase, __ATOMIC_ACQUIRE) == phase)
			slot_add(t, l, s, tick, with_hist);
		/* read once, at the end: keep the parent small */
		if (with_hist)
			stats_slot_release(r, c);
	}
}

void stats_tick_sum(const struct stats_region *r, uint64_t tick,
		    struct tick_stats *out)
{
	hist_clear(&out->hist);
	out->tag = tick + 1;
	out->ops = 0;
	out->bytes = 0;
	out->max_ns = 0;
	for (unsigned c = 0; c < r->nclients; c++) {
		const struct tick_stats *t = &r->slots[c].tick_buf[tick & 1];
		uint64_t m;

		if (__atomic_load_n(&t->tag, __ATOMIC_ACQUIRE) != tick + 1)
			continue;	/* no op in that second */
		out->ops += LOAD(t->ops);
		out->bytes += LOAD(t->bytes);
		m = LOAD(t->max_ns);
		if (m > out->max_ns)
			out->max_ns = m;
		hist_merge(&out->hist, &t->hist);
	}
}
