/*
 * result_wire.c - the byte form of a run result (result_serialise() and
 * result_parse(), result.h), in which one MPI rank sends its result to
 * rank 0: little-endian integers, histograms as their non-zero buckets,
 * and a parser that refuses a truncated or malformed buffer.
 */
#include "config.h"

#include <string.h>
#include <talloc.h>

#include "stats/result.h"

#define RESULT_MAGIC 0x32524244u	/* "DBR2" read as little-endian */

/* ---- serialising ------------------------------------------------------ */

struct wbuf {
	void *mem;
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

static void wire_put_bytes(struct wbuf *w, const void *src, size_t n)
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

static void wire_put_u64(struct wbuf *w, uint64_t v)
{
	uint8_t b[8];

	for (unsigned i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	wire_put_bytes(w, b, 8);
}

static void wire_put_u32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4];

	for (unsigned i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	wire_put_bytes(w, b, 4);
}

static void wire_put_dbl(struct wbuf *w, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	wire_put_u64(w, v);
}

/* A string: its length + 1 (0 for NULL), then its bytes. */
static void wire_put_str(struct wbuf *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	wire_put_u32(w, s ? (uint32_t)n + 1 : 0);
	if (s != NULL)
		wire_put_bytes(w, s, n);
}

static void wire_put_sparse(struct wbuf *w, const struct result_hist *h)
{
	wire_put_u32(w, h->n);
	for (uint32_t i = 0; i < h->n; i++) {
		wire_put_u32(w, h->bucket[i]);
		wire_put_u64(w, h->count[i]);
	}
}

/* A dense histogram in sparse form, without allocating. */
static void wire_put_dense(struct wbuf *w, const struct histogram *h)
{
	uint32_t n = 0;

	for (uint32_t i = h->lo; i < h->end; i++)
		n += h->count[i] != 0;
	wire_put_u32(w, n);
	for (uint32_t i = h->lo; i < h->end; i++) {
		if (h->count[i] == 0)
			continue;
		wire_put_u32(w, i);
		wire_put_u64(w, h->count[i]);
	}
}

static void wire_put_mismatch(struct wbuf *w, const struct result_mismatch *m)
{
	wire_put_u64(w, m->count);
	wire_put_u64(w, m->fatal);
	wire_put_u64(w, m->phase_count);
	wire_put_u64(w, m->wall_ns);
	wire_put_u32(w, m->client_id);
	wire_put_u32(w, m->has_op);
	wire_put_str(w, m->loadfile);
	wire_put_u32(w, m->line);
	wire_put_str(w, m->path);
	wire_put_u32(w, m->check);
	wire_put_u32(w, m->expected_status);
	wire_put_u64(w, (uint64_t)m->expected_found);
	wire_put_u32(w, m->status);
	wire_put_u32(w, (uint32_t)m->err);
	wire_put_u64(w, (uint64_t)m->found);
}

static void wire_put_client(struct wbuf *w, const struct result_client *c)
{
	wire_put_u32(w, c->client_id);
	wire_put_u32(w, c->host);
	wire_put_u32(w, c->directory);
	wire_put_str(w, c->loadfile);
	wire_put_u64(w, c->lines);
	wire_put_u64(w, c->bytes);
	wire_put_u64(w, c->read_bytes);
	wire_put_u64(w, c->passes);
	wire_put_u32(w, c->npass);
	for (uint32_t i = 0; i < c->npass; i++) {
		wire_put_u32(w, c->pass[i].ms);
		wire_put_u32(w, c->pass[i].at_ms);
	}
	wire_put_u32(w, c->nops);
	for (uint32_t i = 0; i < c->nops; i++) {
		const struct result_client_op *op = &c->ops[i];

		wire_put_u32(w, op->kind);
		wire_put_u64(w, op->count);
		wire_put_u64(w, op->sum_ns);
		wire_put_u64(w, op->max_ns);
		wire_put_u64(w, op->errors);
		wire_put_sparse(w, &op->hist);
	}
}

static void wire_put_series(struct wbuf *w, const struct series *s)
{
	wire_put_u32(w, s != NULL);
	if (s == NULL)
		return;
	wire_put_u32(w, s->nrows);
	for (unsigned i = 0; i < s->nrows; i++) {
		const struct series_row *row = &s->rows[i];

		wire_put_u32(w, row->phase);
		wire_put_dbl(w, row->elapsed_s);
		wire_put_dbl(w, row->duration_s);
		wire_put_u64(w, row->bytes);
		wire_put_u64(w, row->ops);
		wire_put_u64(w, row->max_ns);
		wire_put_u64(w, row->p99_ns);
	}
}

static void put_host_facts(struct wbuf *w, const struct run_result *r)
{
	wire_put_u32(w, r->nhost_facts);
	for (uint32_t i = 0; i < r->nhost_facts; i++) {
		const struct host_facts *h = &r->host_facts[i];

		wire_put_u32(w, h->host);
		wire_put_str(w, h->hostname);
		wire_put_str(w, h->kernel);
		wire_put_str(w, h->kernel_release);
		wire_put_str(w, h->kernel_version);
		wire_put_str(w, h->machine);
		wire_put_str(w, h->cpu_model);
		wire_put_u64(w, (uint64_t)h->cpus);
		wire_put_u64(w, (uint64_t)h->memory_bytes);
		wire_put_u32(w, h->ndirs);
		for (uint32_t j = 0; j < h->ndirs; j++) {
			const struct host_dir *d = &h->dirs[j];

			wire_put_str(w, d->path);
			wire_put_str(w, d->real_path);
			wire_put_str(w, d->device);
			wire_put_str(w, d->fs_type);
			wire_put_str(w, d->source);
			wire_put_str(w, d->mount_point);
			wire_put_str(w, d->mount_options);
			wire_put_str(w, d->device_model);
			wire_put_u64(w, (uint64_t)d->free_bytes);
		}
	}
}

uint8_t *result_serialise(void *mem_ctx, const struct run_result *r,
			  size_t *len)
{
	struct wbuf w = { .mem = mem_ctx };

	wire_put_u32(&w, RESULT_MAGIC);
	wire_put_u32(&w, r->phase);
	wire_put_dbl(&w, r->seconds);
	for (unsigned i = 0; i < PHASE_DONE; i++)
		wire_put_dbl(&w, r->phase_seconds[i]);
	wire_put_u64(&w, r->started_ns);
	wire_put_u64(&w, r->ended_ns);
	wire_put_u64(&w, r->setup_sum_ns);
	wire_put_u64(&w, r->setup_max_ns);
	wire_put_u32(&w, r->nprocs);
	wire_put_u32(&w, r->nclients);
	wire_put_u32(&w, r->own_target);
	wire_put_u32(&w, r->interrupted);
	wire_put_u32(&w, (uint32_t)r->signal);
	wire_put_u32(&w, r->failed);
	wire_put_u64(&w, r->lines);
	wire_put_u64(&w, r->bytes);
	wire_put_u64(&w, r->read_bytes);
	wire_put_dbl(&w, r->cpu.user_s);
	wire_put_dbl(&w, r->cpu.system_s);
	wire_put_u64(&w, r->cpu.voluntary_switches);
	wire_put_u64(&w, r->cpu.involuntary_switches);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		wire_put_u64(&w, r->ops[k].count);
		wire_put_u64(&w, r->ops[k].sum_ns);
		wire_put_u64(&w, r->ops[k].max_ns);
		wire_put_dense(&w, &r->ops[k].hist);
		wire_put_mismatch(&w, &r->mm[k]);
	}
	wire_put_u32(&w, r->nclient_results);
	for (uint32_t i = 0; i < r->nclient_results; i++)
		wire_put_client(&w, &r->clients[i]);
	wire_put_series(&w, r->series);
	put_host_facts(&w, r);
	wire_put_u32(&w, r->response != NULL);
	for (unsigned k = 0; r->response != NULL && k < OP_NUM_MEASURED; k++) {
		wire_put_u64(&w, r->response[k].count);
		wire_put_u64(&w, r->response[k].sum_ns);
		wire_put_u64(&w, r->response[k].max_ns);
		wire_put_dense(&w, &r->response[k].hist);
	}
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
	m->phase_count = get_u64(r);
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

static void get_host_dirs(struct rbuf *r, struct host_facts *h)
{
	h->ndirs = get_count(r, 40);
	h->dirs = talloc_zero_array(r->mem, struct host_dir,
				    h->ndirs ? h->ndirs : 1);
	if (h->dirs == NULL)
		r->bad = true;
	for (uint32_t j = 0; !r->bad && j < h->ndirs; j++) {
		struct host_dir *d = &h->dirs[j];

		d->path = get_str(r);
		d->real_path = get_str(r);
		d->device = get_str(r);
		d->fs_type = get_str(r);
		d->source = get_str(r);
		d->mount_point = get_str(r);
		d->mount_options = get_str(r);
		d->device_model = get_str(r);
		d->free_bytes = (int64_t)get_u64(r);
	}
}

static void get_host_facts(struct rbuf *r, struct run_result *res)
{
	uint32_t n = get_count(r, 48);

	if (r->bad || n == 0)
		return;
	res->host_facts = talloc_zero_array(res, struct host_facts, n);
	if (res->host_facts == NULL) {
		r->bad = true;
		return;
	}
	for (uint32_t i = 0; !r->bad && i < n; i++) {
		struct host_facts *h = &res->host_facts[i];

		h->host = get_u32(r);
		h->hostname = get_str(r);
		h->kernel = get_str(r);
		h->kernel_release = get_str(r);
		h->kernel_version = get_str(r);
		h->machine = get_str(r);
		h->cpu_model = get_str(r);
		h->cpus = (int64_t)get_u64(r);
		h->memory_bytes = (int64_t)get_u64(r);
		get_host_dirs(r, h);
		res->nhost_facts = i + 1;
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
	res->own_target = get_u32(r) != 0;
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

/* The response times, when the result has them (a schedule). */
static void get_response(struct rbuf *r, struct run_result *res)
{
	if (get_u32(r) == 0 || r->bad)
		return;
	res->response = talloc_zero_array(res, struct op_stats,
					  OP_NUM_MEASURED);
	if (res->response == NULL) {
		r->bad = true;
		return;
	}
	for (unsigned k = 0; k < OP_NUM_MEASURED && !r->bad; k++) {
		res->response[k].count = get_u64(r);
		res->response[k].sum_ns = get_u64(r);
		res->response[k].max_ns = get_u64(r);
		get_dense(r, &res->response[k].hist);
	}
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
	get_host_facts(&r, res);
	get_response(&r, res);
	if (r.bad || r.off != len) {
		talloc_free(res);
		return NULL;
	}
	return res;
}
