/*
 * result.c - the self-contained run result (result.h): built from the
 * local statistics region after the run, merged across hosts, and
 * serialised to a compact byte buffer and back.
 */
#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <talloc.h>

#include "atomic.h"
#include "client_tree.h"
#include "result.h"

#define RESULT_MAGIC 0x31524244u	/* "DBR1" read as little-endian */

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

static int hist_copy_sparse(void *mem, struct result_hist *dst,
			    const struct result_hist *src)
{
	*dst = *src;
	if (src->n == 0)
		return 0;
	dst->bucket = talloc_memdup(mem, src->bucket,
				    src->n * sizeof(src->bucket[0]));
	dst->count = talloc_memdup(mem, src->count,
				   src->n * sizeof(src->count[0]));
	return dst->bucket != NULL && dst->count != NULL ? 0 : -1;
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
	res->interrupted = p->interrupted;
	res->signal = p->signal;
	res->failed = p->failed;

	for (unsigned i = first; i < first + n; i++) {
		uint64_t su = LOAD(r->live[i].setup_ns);

		res->setup_sum_ns += su;
		if (su > res->setup_max_ns)
			res->setup_max_ns = su;
	}
	stats_sum(r, first, n, p->phase, 0, true, t);
	res->lines = t->lines;
	res->bytes = t->bytes;
	res->read_bytes = t->read_bytes;
	memcpy(res->ops, t->ops, sizeof(res->ops));
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

/* ---- merging --------------------------------------------------------- */

static int copy_mismatch(struct run_result *dst, struct result_mismatch *d,
			 const struct result_mismatch *s)
{
	uint64_t count = d->count + s->count, fatal = d->fatal + s->fatal;

	talloc_free(d->loadfile);
	talloc_free(d->path);
	*d = *s;
	d->count = count;
	d->fatal = fatal;
	d->loadfile = s->loadfile ? talloc_strdup(dst, s->loadfile) : NULL;
	d->path = s->path ? talloc_strdup(dst, s->path) : NULL;
	return (s->loadfile && !d->loadfile) || (s->path && !d->path) ? -1 : 0;
}

static int merge_mismatch(struct run_result *dst, struct result_mismatch *d,
			  const struct result_mismatch *s)
{
	if (s->wall_ns != 0 && (d->wall_ns == 0 || s->wall_ns < d->wall_ns))
		return copy_mismatch(dst, d, s);
	d->count += s->count;
	d->fatal += s->fatal;
	return 0;
}

static int copy_client(struct run_result *dst, struct result_client *d,
		       const struct result_client *s)
{
	*d = *s;
	d->loadfile = talloc_strdup(dst, s->loadfile ? s->loadfile : "");
	d->pass = s->npass ? talloc_memdup(dst, s->pass,
					   s->npass * sizeof(s->pass[0])) :
			     NULL;
	d->ops = s->nops ? talloc_zero_array(dst, struct result_client_op,
					     s->nops) :
			   NULL;
	if (d->loadfile == NULL || (s->npass && d->pass == NULL) ||
	    (s->nops && d->ops == NULL))
		return -1;
	for (uint32_t i = 0; i < s->nops; i++) {
		d->ops[i] = s->ops[i];
		if (hist_copy_sparse(dst, &d->ops[i].hist,
				     &s->ops[i].hist) != 0)
			return -1;
	}
	return 0;
}

static int merge_series(struct run_result *dst, const struct series *s)
{
	struct series *d = dst->series;

	if (s == NULL)
		return 0;
	if (d == NULL) {
		d = dst->series = series_new(dst);
		if (d == NULL)
			return -1;
	}
	unsigned common = s->nrows < d->nrows ? s->nrows : d->nrows;

	if (s->nrows > d->nrows) {
		struct series_row *rows = talloc_realloc(d, d->rows,
							 struct series_row,
							 s->nrows);

		if (rows == NULL)
			return -1;
		memcpy(&rows[d->nrows], &s->rows[d->nrows],
		       (s->nrows - d->nrows) * sizeof(rows[0]));
		d->rows = rows;
		d->nrows = s->nrows;
	}
	for (unsigned i = 0; i < common; i++) {
		struct series_row *a = &d->rows[i];
		const struct series_row *b = &s->rows[i];

		a->bytes += b->bytes;
		a->ops += b->ops;
		a->max_ns = a->max_ns > b->max_ns ? a->max_ns : b->max_ns;
		a->p99_ns = a->p99_ns > b->p99_ns ? a->p99_ns : b->p99_ns;
	}
	return 0;
}

/* The run-wide fields: times, counts, flags. */
static void merge_header(struct run_result *d, const struct run_result *s)
{
	bool empty = d->nclients == 0 && d->nprocs == 0;

	if (empty)
		d->phase = s->phase;
	if (s->seconds > d->seconds)
		d->seconds = s->seconds;
	for (unsigned i = 0; i < PHASE_DONE; i++)
		if (s->phase_seconds[i] > d->phase_seconds[i])
			d->phase_seconds[i] = s->phase_seconds[i];
	if (s->started_ns != 0 &&
	    (d->started_ns == 0 || s->started_ns < d->started_ns))
		d->started_ns = s->started_ns;
	if (s->ended_ns > d->ended_ns)
		d->ended_ns = s->ended_ns;
	d->setup_sum_ns += s->setup_sum_ns;
	if (s->setup_max_ns > d->setup_max_ns)
		d->setup_max_ns = s->setup_max_ns;
	d->nprocs += s->nprocs;
	d->nclients += s->nclients;
	if (s->interrupted && !d->interrupted)
		d->signal = s->signal;
	d->interrupted |= s->interrupted;
	d->failed |= s->failed;
	d->lines += s->lines;
	d->bytes += s->bytes;
	d->read_bytes += s->read_bytes;
	d->cpu.user_s += s->cpu.user_s;
	d->cpu.system_s += s->cpu.system_s;
	d->cpu.voluntary_switches += s->cpu.voluntary_switches;
	d->cpu.involuntary_switches += s->cpu.involuntary_switches;
}

int result_merge(struct run_result *dst, const struct run_result *src)
{
	struct result_client *cl;
	uint32_t n = dst->nclient_results;

	merge_header(dst, src);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		struct op_stats *d = &dst->ops[k];
		const struct op_stats *s = &src->ops[k];

		d->count += s->count;
		d->sum_ns += s->sum_ns;
		if (s->max_ns > d->max_ns)
			d->max_ns = s->max_ns;
		if (s->count != 0)
			hist_merge(&d->hist, &s->hist);
		if (merge_mismatch(dst, &dst->mm[k], &src->mm[k]) != 0)
			return -1;
	}
	cl = talloc_realloc(dst, dst->clients, struct result_client,
			    n + src->nclient_results + 1);
	if (cl == NULL)
		return -1;
	dst->clients = cl;
	for (uint32_t i = 0; i < src->nclient_results; i++) {
		if (copy_client(dst, &cl[n + i], &src->clients[i]) != 0)
			return -1;
		dst->nclient_results++;
	}
	return merge_series(dst, src->series);
}

/* ---- serialising ------------------------------------------------------ */

struct wbuf {
	void *mem;
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

static void put_bytes(struct wbuf *w, const void *src, size_t n)
{
	if (w->oom)
		return;
	if (w->len + n > w->cap) {
		size_t cap = (w->len + n) * 2 + 256;
		uint8_t *p = talloc_realloc(w->mem, w->p, uint8_t, cap);

		if (p == NULL) {
			w->oom = true;
			return;
		}
		w->p = p;
		w->cap = cap;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void put_u64(struct wbuf *w, uint64_t v)
{
	uint8_t b[8];

	for (unsigned i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put_bytes(w, b, 8);
}

static void put_u32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4];

	for (unsigned i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put_bytes(w, b, 4);
}

static void put_dbl(struct wbuf *w, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	put_u64(w, v);
}

/* A string: its length + 1 (0 for NULL), then its bytes. */
static void put_str(struct wbuf *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u32(w, s ? (uint32_t)n + 1 : 0);
	if (s != NULL)
		put_bytes(w, s, n);
}

static void put_sparse(struct wbuf *w, const struct result_hist *h)
{
	put_u32(w, h->n);
	for (uint32_t i = 0; i < h->n; i++) {
		put_u32(w, h->bucket[i]);
		put_u64(w, h->count[i]);
	}
}

/* A dense histogram in sparse form, without allocating. */
static void put_dense(struct wbuf *w, const struct histogram *h)
{
	uint32_t n = 0;

	for (uint32_t i = h->lo; i < h->end; i++)
		n += h->count[i] != 0;
	put_u32(w, n);
	for (uint32_t i = h->lo; i < h->end; i++) {
		if (h->count[i] == 0)
			continue;
		put_u32(w, i);
		put_u64(w, h->count[i]);
	}
}

static void put_mismatch(struct wbuf *w, const struct result_mismatch *m)
{
	put_u64(w, m->count);
	put_u64(w, m->fatal);
	put_u64(w, m->wall_ns);
	put_u32(w, m->client_id);
	put_u32(w, m->has_op);
	put_str(w, m->loadfile);
	put_u32(w, m->line);
	put_str(w, m->path);
	put_u32(w, m->check);
	put_u32(w, m->expected_status);
	put_u64(w, (uint64_t)m->expected_found);
	put_u32(w, m->status);
	put_u32(w, (uint32_t)m->err);
	put_u64(w, (uint64_t)m->found);
}

static void put_client(struct wbuf *w, const struct result_client *c)
{
	put_u32(w, c->client_id);
	put_u32(w, c->host);
	put_u32(w, c->directory);
	put_str(w, c->loadfile);
	put_u64(w, c->lines);
	put_u64(w, c->bytes);
	put_u64(w, c->read_bytes);
	put_u64(w, c->passes);
	put_u32(w, c->npass);
	for (uint32_t i = 0; i < c->npass; i++) {
		put_u32(w, c->pass[i].ms);
		put_u32(w, c->pass[i].at_ms);
	}
	put_u32(w, c->nops);
	for (uint32_t i = 0; i < c->nops; i++) {
		const struct result_client_op *op = &c->ops[i];

		put_u32(w, op->kind);
		put_u64(w, op->count);
		put_u64(w, op->sum_ns);
		put_u64(w, op->max_ns);
		put_u64(w, op->errors);
		put_sparse(w, &op->hist);
	}
}

static void put_series(struct wbuf *w, const struct series *s)
{
	put_u32(w, s != NULL);
	if (s == NULL)
		return;
	put_u32(w, s->nrows);
	for (unsigned i = 0; i < s->nrows; i++) {
		const struct series_row *row = &s->rows[i];

		put_u32(w, row->phase);
		put_dbl(w, row->elapsed_s);
		put_dbl(w, row->duration_s);
		put_u64(w, row->bytes);
		put_u64(w, row->ops);
		put_u64(w, row->max_ns);
		put_u64(w, row->p99_ns);
	}
}

uint8_t *result_serialise(void *mem_ctx, const struct run_result *r,
			  size_t *len)
{
	struct wbuf w = { .mem = mem_ctx };

	put_u32(&w, RESULT_MAGIC);
	put_u32(&w, r->phase);
	put_dbl(&w, r->seconds);
	for (unsigned i = 0; i < PHASE_DONE; i++)
		put_dbl(&w, r->phase_seconds[i]);
	put_u64(&w, r->started_ns);
	put_u64(&w, r->ended_ns);
	put_u64(&w, r->setup_sum_ns);
	put_u64(&w, r->setup_max_ns);
	put_u32(&w, r->nprocs);
	put_u32(&w, r->nclients);
	put_u32(&w, r->interrupted);
	put_u32(&w, (uint32_t)r->signal);
	put_u32(&w, r->failed);
	put_u64(&w, r->lines);
	put_u64(&w, r->bytes);
	put_u64(&w, r->read_bytes);
	put_dbl(&w, r->cpu.user_s);
	put_dbl(&w, r->cpu.system_s);
	put_u64(&w, r->cpu.voluntary_switches);
	put_u64(&w, r->cpu.involuntary_switches);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		put_u64(&w, r->ops[k].count);
		put_u64(&w, r->ops[k].sum_ns);
		put_u64(&w, r->ops[k].max_ns);
		put_dense(&w, &r->ops[k].hist);
		put_mismatch(&w, &r->mm[k]);
	}
	put_u32(&w, r->nclient_results);
	for (uint32_t i = 0; i < r->nclient_results; i++)
		put_client(&w, &r->clients[i]);
	put_series(&w, r->series);
	if (w.oom) {
		talloc_free(w.p);
		return NULL;
	}
	*len = w.len;
	return w.p;
}

/* ---- parsing ----------------------------------------------------------- */

struct rbuf {
	void *mem;
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static const uint8_t *get_bytes(struct rbuf *r, size_t n)
{
	const uint8_t *p;

	if (r->bad || n > r->len - r->off) {
		r->bad = true;
		return NULL;
	}
	p = r->p + r->off;
	r->off += n;
	return p;
}

static uint64_t get_u64(struct rbuf *r)
{
	const uint8_t *b = get_bytes(r, 8);
	uint64_t v = 0;

	for (unsigned i = 0; b != NULL && i < 8; i++)
		v |= (uint64_t)b[i] << (8 * i);
	return v;
}

static uint32_t get_u32(struct rbuf *r)
{
	const uint8_t *b = get_bytes(r, 4);
	uint32_t v = 0;

	for (unsigned i = 0; b != NULL && i < 4; i++)
		v |= (uint32_t)b[i] << (8 * i);
	return v;
}

static double get_dbl(struct rbuf *r)
{
	uint64_t v = get_u64(r);
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

static char *get_str(struct rbuf *r)
{
	uint32_t n = get_u32(r);
	const uint8_t *b;
	char *s;

	if (n == 0)
		return NULL;
	b = get_bytes(r, n - 1);
	if (b == NULL)
		return NULL;
	s = talloc_strndup(r->mem, (const char *)b, n - 1);
	if (s == NULL)
		r->bad = true;
	return s;
}

/*
 * A count of items of at least `each` bytes: refused when the rest of the
 * buffer cannot hold them (so that a corrupt count allocates nothing).
 */
static uint32_t get_count(struct rbuf *r, size_t each)
{
	uint32_t n = get_u32(r);

	if (r->bad || (size_t)n > (r->len - r->off) / each) {
		r->bad = true;
		return 0;
	}
	return n;
}

/* Buckets as (index, count) pairs, ascending, each index valid. */
static bool get_bucket(struct rbuf *r, uint32_t *prev, uint32_t *i,
		       uint64_t *c)
{
	*i = get_u32(r);
	*c = get_u64(r);
	if (r->bad || *i >= HIST_BUCKETS || (*prev != UINT32_MAX && *i <= *prev)) {
		r->bad = true;
		return false;
	}
	*prev = *i;
	return true;
}

static void get_sparse(struct rbuf *r, struct result_hist *h)
{
	uint32_t prev = UINT32_MAX;

	memset(h, 0, sizeof(*h));
	h->n = get_count(r, 12);
	if (h->n == 0)
		return;
	h->bucket = talloc_array(r->mem, uint32_t, h->n);
	h->count = talloc_array(r->mem, uint64_t, h->n);
	if (h->bucket == NULL || h->count == NULL) {
		r->bad = true;
		return;
	}
	for (uint32_t j = 0; j < h->n; j++)
		if (!get_bucket(r, &prev, &h->bucket[j], &h->count[j]))
			return;
}

static void get_dense(struct rbuf *r, struct histogram *h)
{
	uint32_t n = get_count(r, 12), prev = UINT32_MAX;

	for (uint32_t j = 0; j < n; j++) {
		uint32_t i;
		uint64_t c;

		if (!get_bucket(r, &prev, &i, &c))
			return;
		h->count[i] = c;
		if (h->end == 0)
			h->lo = i;
		h->end = i + 1;
	}
}

static void get_mismatch(struct rbuf *r, struct result_mismatch *m)
{
	m->count = get_u64(r);
	m->fatal = get_u64(r);
	m->wall_ns = get_u64(r);
	m->client_id = get_u32(r);
	m->has_op = get_u32(r) != 0;
	m->loadfile = get_str(r);
	m->line = get_u32(r);
	m->path = get_str(r);
	m->check = get_u32(r);
	m->expected_status = get_u32(r);
	m->expected_found = (int64_t)get_u64(r);
	m->status = get_u32(r);
	m->err = (int32_t)get_u32(r);
	m->found = (int64_t)get_u64(r);
}

static void get_client(struct rbuf *r, struct result_client *c)
{
	c->client_id = get_u32(r);
	c->host = get_u32(r);
	c->directory = get_u32(r);
	c->loadfile = get_str(r);
	c->lines = get_u64(r);
	c->bytes = get_u64(r);
	c->read_bytes = get_u64(r);
	c->passes = get_u64(r);
	c->npass = get_count(r, 8);
	if (c->npass > 0 &&
	    (c->pass = talloc_array(r->mem, struct pass_record,
				    c->npass)) == NULL)
		r->bad = true;
	for (uint32_t i = 0; !r->bad && i < c->npass; i++) {
		c->pass[i].ms = get_u32(r);
		c->pass[i].at_ms = get_u32(r);
	}
	c->nops = get_count(r, 40);
	if (c->nops > 0 &&
	    (c->ops = talloc_zero_array(r->mem, struct result_client_op,
					c->nops)) == NULL)
		r->bad = true;
	for (uint32_t i = 0; !r->bad && i < c->nops; i++) {
		struct result_client_op *op = &c->ops[i];

		op->kind = get_u32(r);
		op->count = get_u64(r);
		op->sum_ns = get_u64(r);
		op->max_ns = get_u64(r);
		op->errors = get_u64(r);
		get_sparse(r, &op->hist);
		if (op->kind >= OP_NUM_MEASURED)
			r->bad = true;
	}
}

static void get_series(struct rbuf *r, struct run_result *res)
{
	struct series *s;
	uint32_t n;

	if (get_u32(r) == 0 || r->bad)
		return;
	n = get_count(r, 52);
	s = res->series = series_new(res);
	if (s == NULL || (n > 0 && (s->rows = talloc_array(
			s, struct series_row, n)) == NULL)) {
		r->bad = true;
		return;
	}
	for (uint32_t i = 0; !r->bad && i < n; i++) {
		struct series_row *row = &s->rows[i];

		row->phase = get_u32(r);
		row->elapsed_s = get_dbl(r);
		row->duration_s = get_dbl(r);
		row->bytes = get_u64(r);
		row->ops = get_u64(r);
		row->max_ns = get_u64(r);
		row->p99_ns = get_u64(r);
		s->nrows = i + 1;
	}
}

static void get_header(struct rbuf *r, struct run_result *res)
{
	if (get_u32(r) != RESULT_MAGIC)
		r->bad = true;
	res->phase = get_u32(r);
	res->seconds = get_dbl(r);
	for (unsigned i = 0; i < PHASE_DONE; i++)
		res->phase_seconds[i] = get_dbl(r);
	res->started_ns = get_u64(r);
	res->ended_ns = get_u64(r);
	res->setup_sum_ns = get_u64(r);
	res->setup_max_ns = get_u64(r);
	res->nprocs = get_u32(r);
	res->nclients = get_u32(r);
	res->interrupted = get_u32(r) != 0;
	res->signal = (int32_t)get_u32(r);
	res->failed = get_u32(r) != 0;
	res->lines = get_u64(r);
	res->bytes = get_u64(r);
	res->read_bytes = get_u64(r);
	res->cpu.user_s = get_dbl(r);
	res->cpu.system_s = get_dbl(r);
	res->cpu.voluntary_switches = get_u64(r);
	res->cpu.involuntary_switches = get_u64(r);
}

struct run_result *result_parse(void *mem_ctx, const uint8_t *buf, size_t len)
{
	struct run_result *res = result_new(mem_ctx);
	struct rbuf r = { .mem = res, .p = buf, .len = len };
	uint32_t n;

	if (res == NULL)
		return NULL;
	get_header(&r, res);
	for (unsigned k = 0; k < OP_NUM_MEASURED && !r.bad; k++) {
		res->ops[k].count = get_u64(&r);
		res->ops[k].sum_ns = get_u64(&r);
		res->ops[k].max_ns = get_u64(&r);
		get_dense(&r, &res->ops[k].hist);
		get_mismatch(&r, &res->mm[k]);
	}
	n = get_count(&r, 48);
	res->clients = talloc_zero_array(res, struct result_client, n ? n : 1);
	if (res->clients == NULL)
		r.bad = true;
	for (uint32_t i = 0; !r.bad && i < n; i++) {
		get_client(&r, &res->clients[i]);
		res->nclient_results = i + 1;
	}
	get_series(&r, res);
	if (r.bad || r.off != len) {
		talloc_free(res);
		return NULL;
	}
	return res;
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
