/*
 * response.c - the response times of a run with a schedule (stats.h,
 * struct client_response): their mapping, the client-side reset at a
 * phase change and the parent's sum at the end.  Apart from stats.c so
 * that a run without a schedule never maps or reads them.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "util/atomic.h"
#include "stats/stats.h"

int stats_map_response(struct stats_region *r)
{
	size_t len = (size_t)r->nclients * sizeof(struct client_response);
	void *p;

	if (len == 0)
		len = sizeof(struct client_response);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	r->resp = p;
	r->resp_len = len;
	return 0;
}

void stats_response_reset(const struct stats_region *r, unsigned slot)
{
	struct client_response *c = &r->resp[slot];
	uint64_t used = __atomic_load_n(&c->used, __ATOMIC_ACQUIRE);

	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		struct op_stats *os = &c->ops[k];

		/* keep untouched pages untouched */
		if (!(used & (1ull << k)))
			continue;
		os->count = 0;
		os->sum_ns = 0;
		os->max_ns = 0;
		hist_clear(&os->hist);
	}
	__atomic_store_n(&c->used, 0, __ATOMIC_RELEASE);
}

void stats_response_sum(const struct stats_region *r, unsigned first,
			unsigned n, uint32_t phase, struct op_stats *out)
{
	if (r->resp == NULL)
		return;
	for (unsigned i = first; i < first + n && i < r->nclients; i++) {
		const struct client_response *c = &r->resp[i];
		uint64_t used;

		if (__atomic_load_n(&r->live[i].phase, __ATOMIC_ACQUIRE) !=
		    phase)
			continue;
		used = __atomic_load_n(&c->used, __ATOMIC_ACQUIRE);
		for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
			const struct op_stats *s = &c->ops[k];
			struct op_stats *d = &out[k];

			if (!(used & (1ull << k)) || LOAD(s->count) == 0)
				continue;
			d->count += LOAD(s->count);
			d->sum_ns += LOAD(s->sum_ns);
			if (LOAD(s->max_ns) > d->max_ns)
				d->max_ns = LOAD(s->max_ns);
			hist_merge(&d->hist, &s->hist);
		}
	}
}
