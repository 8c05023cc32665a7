/*
 * result.c - the self-contained run result (result.h): built from the
 * local statistics region after the run, and the small helpers the
 * writers share.  Merging is in result_merge.c, the byte form in
 * result_wire.c.
 */
#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <talloc.h>

#include "util/atomic.h"
#include "loadfile/client_tree.h"
#include "stats/result.h"

/* ---- sparse histograms ---------------------------------------------- */

/* Kind k's non-zero buckets in slot sl into s (allocated under mem).  0,
 * or -1. */
static int hist_to_sparse(void *mem, const struct client_slot *sl,
			  unsigned k, struct result_hist *s)
{
	uint32_t end = __atomic_load_n(&sl->ops[k].end, __ATOMIC_ACQUIRE);
	uint32_t lo = __atomic_load_n(&sl->ops[k].lo, __ATOMIC_ACQUIRE);
	uint32_t n = 0;

	memset(s, 0, sizeof(*s));
	if (end > HIST_BUCKETS)
		end = HIST_BUCKETS;
	for (uint32_t i = lo; i < end; i++)
		n += stats_hist_bucket(sl, k, i) != 0;
	if (n == 0)
		return 0;
	s->bucket = talloc_array(mem, uint32_t, n);
	s->count = talloc_array(mem, uint64_t, n);
	if (s->bucket == NULL || s->count == NULL)
		return -1;
	for (uint32_t i = lo; i < end && s->n < n; i++) {
		uint64_t c = stats_hist_bucket(sl, k, i);

		if (c == 0)
			continue;
		s->bucket[s->n] = i;
		s->count[s->n++] = c;
	}
	return 0;
}

/* dst += s, bucket by bucket. */
static void hist_add_sparse(struct histogram *dst, const struct result_hist *s)
{
	for (uint32_t j = 0; j < s->n; j++) {
		uint32_t i = s->bucket[j];

		dst->count[i] += s->count[j];
		if (dst->end == 0 || i < dst->lo)
			dst->lo = i;
		if (i >= dst->end)
			dst->end = i + 1;
	}
}

void result_client_expand(const struct result_client *c,
			  struct op_stats *ops, uint64_t *errors)
{
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		ops[k].count = 0;
		ops[k].sum_ns = 0;
		ops[k].max_ns = 0;
		hist_clear(&ops[k].hist);
		errors[k] = 0;
	}
	for (uint32_t i = 0; i < c->nops; i++) {
		const struct result_client_op *op = &c->ops[i];

		ops[op->kind].count = op->count;
		ops[op->kind].sum_ns = op->sum_ns;
		ops[op->kind].max_ns = op->max_ns;
		errors[op->kind] = op->errors;
		hist_add_sparse(&ops[op->kind].hist, &op->hist);
	}
}

uint64_t result_max_latency(const struct op_stats *ops)
{
	uint64_t m = 0;

	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		if (ops[k].max_ns > m)
			m = ops[k].max_ns;
	return m;
}

const struct host_facts *result_host_facts(const struct run_result *r,
					   uint32_t host)
{
	for (uint32_t i = 0; i < r->nhost_facts; i++)
		if (r->host_facts[i].host == host)
			return &r->host_facts[i];
	return NULL;
}

double result_mbps(uint64_t bytes, double seconds)
{
	if (seconds <= 0)
		return 0;
	return (double)bytes / 1e6 / seconds;
}

double result_ops_per_s(const struct run_result *r)
{
	uint64_t ops = 0;

	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		ops += r->ops[k].count;
	return r->seconds > 0 ? (double)ops / r->seconds : 0;
}

double result_avg_ms(const struct op_stats *s)
{
	return s->count ? (double)s->sum_ns / 1e6 / (double)s->count : 0;
}

/* ---- building from the region ------------------------------------- */

struct run_result *result_new(void *mem_ctx)
{
	return talloc_zero(mem_ctx, struct run_result);
}

/* The first mismatch of an op kind, resolved against the programs. */
static int build_mismatch(struct run_result *res, const struct stats_region *r,
			  const struct result_params *p,
			  const struct mismatch_stats *m,
			  struct result_mismatch *out)
{
	const struct program *prog;
	const struct op *op;
	unsigned slot = m->first_client - r->client_id_base;

	out->count = m->count;
	out->fatal = m->fatal;
	out->phase_count = m->phase_count;
	if (m->first_wall_ns == 0)
		return 0;
	out->wall_ns = m->first_wall_ns;
	out->client_id = m->first_client;
	out->status = m->first_status;
	out->err = m->first_err;
	out->found = m->first_found;
	if (slot >= r->nclients)
		return 0;
	prog = p->programs[r->slots[slot].program % p->nprograms];
	if (m->first_op >= prog->nops)
		return 0;
	op = &prog->ops[m->first_op];
	out->has_op = true;
	out->loadfile = talloc_strdup(res, prog->filename);
	out->line = op->line;
	out->check = op->check;
	out->expected_status = op->status;
	out->expected_found = program_arg_v(prog, op, 2);
	if (program_path(prog, op, 0) != NULL)
		out->path = client_path_for(res, program_path(prog, op, 0),
					    m->first_client);
	if (out->loadfile == NULL ||
	    (program_path(prog, op, 0) != NULL && out->path == NULL))
		return -1;
	return 0;
}

/* One client's op figures, read from its slot. */
static int build_client_ops(struct run_result *res, const struct client_slot *s,
			    bool in_phase, struct result_client *c)
{
	uint64_t used = __atomic_load_n(&s->ops_used, __ATOMIC_ACQUIRE);

	c->ops = talloc_zero_array(res, struct result_client_op,
				   OP_NUM_MEASURED);
	if (c->ops == NULL)
		return -1;
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		struct result_client_op *op = &c->ops[c->nops];
		const struct slot_op *os = &s->ops[k];
		bool counted = in_phase && (used & (1ull << k)) &&
			       LOAD(os->count) != 0;

		op->kind = k;
		op->errors = LOAD(s->mm[k].count) + LOAD(s->mm[k].fatal);
		if (!counted && op->errors == 0)
			continue;
		c->nops++;
		if (!counted)
			continue;
		op->count = LOAD(os->count);
		op->sum_ns = LOAD(os->sum_ns);
		op->max_ns = LOAD(os->max_ns);
		if (hist_to_sparse(res, s, k, &op->hist) != 0)
			return -1;
	}
	return 0;
}

static int build_client(struct run_result *res, const struct stats_region *r,
			const struct result_params *p, unsigned slot,
			struct result_client *c)
{
	const struct client_slot *s = &r->slots[slot];
	const struct client_live *l = &r->live[slot];
	bool in_phase = __atomic_load_n(&l->phase, __ATOMIC_ACQUIRE) ==
			p->phase;
	uint32_t npass = p->pass_records ? LOAD(s->npass_records) : 0;
	int rc;

	c->client_id = stats_client_id(r, slot);
	c->host = p->host;
	c->directory = LOAD(s->directory);
	c->loadfile = talloc_strdup(res, p->programs[LOAD(s->program) %
						     p->nprograms]->filename);
	c->lines = in_phase ? LOAD(l->lines) : 0;
	c->bytes = in_phase ? LOAD(l->bytes) : 0;
	c->read_bytes = in_phase ? LOAD(l->read_bytes) : 0;
	c->passes = LOAD(l->passes);
	if (npass > STATS_MAX_PASS_RECORDS)
		npass = STATS_MAX_PASS_RECORDS;
	c->npass = npass;
	if (npass > 0)
		c->pass = talloc_memdup(res, s->pass,
					npass * sizeof(s->pass[0]));
	if (c->loadfile == NULL || (npass > 0 && c->pass == NULL))
		return -1;
	rc = p->client_ops ? build_client_ops(res, s, in_phase, c) : 0;
	stats_slot_release(r, slot);	/* read once: keep the parent small */
	return rc;
}

struct run_result *result_build(void *mem_ctx, const struct stats_region *r,
				const struct result_params *p)
{
	struct run_result *res = result_new(mem_ctx);
	unsigned first = p->first_slot;
	unsigned n = p->nslots ? p->nslots : r->nclients - first;
	struct stats_total *t;

	if (res == NULL)
		return NULL;
	t = talloc_zero(res, struct stats_total);
	res->clients = talloc_zero_array(res, struct result_client,
					 n ? n : 1);
	if (t == NULL || res->clients == NULL)
		goto fail;
	res->phase = p->phase;
	res->seconds = p->seconds;
	if (p->phase_seconds != NULL)
		memcpy(res->phase_seconds, p->phase_seconds,
		       sizeof(res->phase_seconds));
	res->started_ns = p->started_ns;
	res->ended_ns = p->ended_ns;
	res->nprocs = p->nprocs;
	res->nclients = n;
	res->own_target = p->own_target;
	res->interrupted = p->interrupted;
	res->signal = p->signal;
	res->failed = p->failed;

	for (unsigned i = first; i < first + n; i++) {
		uint64_t su = LOAD(r->live[i].setup_ns);

		res->setup_sum_ns += su;
		if (su > res->setup_max_ns)
			res->setup_max_ns = su;
	}
	if (p->host_facts != NULL) {
		res->host_facts = talloc_zero(res, struct host_facts);
		if (res->host_facts == NULL ||
		    host_facts_copy(res, res->host_facts, p->host_facts) != 0)
			goto fail;
		res->host_facts->host = p->host;
		res->nhost_facts = 1;
	}
	stats_sum(r, first, n, p->phase, 0, true, t);
	res->lines = t->lines;
	res->bytes = t->bytes;
	res->read_bytes = t->read_bytes;
	memcpy(res->ops, t->ops, sizeof(res->ops));
	if (r->resp != NULL) {
		res->response = talloc_zero_array(res, struct op_stats,
						  OP_NUM_MEASURED);
		if (res->response == NULL)
			goto fail;
		stats_response_sum(r, first, n, p->phase, res->response);
	}
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		if (build_mismatch(res, r, p, &t->mm[k], &res->mm[k]) != 0)
			goto fail;
	talloc_free(t);
	for (unsigned i = 0; i < n; i++) {
		if (build_client(res, r, p, first + i, &res->clients[i]) != 0)
			goto fail;
		res->nclient_results++;
	}
	return res;
fail:
	talloc_free(res);
	return NULL;
}

static double tv_secs(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void result_cpu_sample(struct result_cpu *cpu)
{
	struct rusage self, children;

	memset(cpu, 0, sizeof(*cpu));
	if (getrusage(RUSAGE_SELF, &self) != 0 ||
	    getrusage(RUSAGE_CHILDREN, &children) != 0)
		return;
	cpu->user_s = tv_secs(self.ru_utime) + tv_secs(children.ru_utime);
	cpu->system_s = tv_secs(self.ru_stime) + tv_secs(children.ru_stime);
	cpu->voluntary_switches = (uint64_t)self.ru_nvcsw +
				  (uint64_t)children.ru_nvcsw;
	cpu->involuntary_switches = (uint64_t)self.ru_nivcsw +
				    (uint64_t)children.ru_nivcsw;
}
