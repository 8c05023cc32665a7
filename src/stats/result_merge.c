/*
 * result_merge.c - adding one run result into another (result_merge(),
 * result.h): the results of several hosts, or of parts of one region,
 * become the result of the whole run.
 */
#include "config.h"

#include <string.h>
#include <talloc.h>

#include "stats/result.h"

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

static int copy_mismatch(struct run_result *dst, struct result_mismatch *d,
			 const struct result_mismatch *s)
{
	uint64_t count = d->count + s->count, fatal = d->fatal + s->fatal;
	uint64_t phase_count = d->phase_count + s->phase_count;

	talloc_free(d->loadfile);
	talloc_free(d->path);
	*d = *s;
	d->count = count;
	d->fatal = fatal;
	d->phase_count = phase_count;
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
	d->phase_count += s->phase_count;
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

/* src's host facts after dst's. */
static int merge_host_facts(struct run_result *dst,
			    const struct run_result *src)
{
	struct host_facts *h;
	uint32_t n = dst->nhost_facts;

	if (src->nhost_facts == 0)
		return 0;
	h = talloc_realloc(dst, dst->host_facts, struct host_facts,
			   n + src->nhost_facts);
	if (h == NULL)
		return -1;
	dst->host_facts = h;
	for (uint32_t i = 0; i < src->nhost_facts; i++) {
		if (host_facts_copy(dst, &h[n + i], &src->host_facts[i]) != 0)
			return -1;
		dst->nhost_facts++;
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
	d->own_target |= s->own_target;
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

/* s's counts, sum, maximum and histogram added into d. */
static void op_stats_add(struct op_stats *d, const struct op_stats *s)
{
	d->count += s->count;
	d->sum_ns += s->sum_ns;
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
	if (s->count != 0)
		hist_merge(&d->hist, &s->hist);
}

/* The response times (with a schedule) add up like the ops'. */
static int merge_response(struct run_result *dst, const struct run_result *src)
{
	if (src->response == NULL)
		return 0;
	if (dst->response == NULL &&
	    (dst->response = talloc_zero_array(dst, struct op_stats,
					       OP_NUM_MEASURED)) == NULL)
		return -1;
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		op_stats_add(&dst->response[k], &src->response[k]);
	return 0;
}

int result_merge(struct run_result *dst, const struct run_result *src)
{
	struct result_client *cl;
	uint32_t n = dst->nclient_results;

	merge_header(dst, src);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		op_stats_add(&dst->ops[k], &src->ops[k]);
		if (merge_mismatch(dst, &dst->mm[k], &src->mm[k]) != 0)
			return -1;
	}
	if (merge_response(dst, src) != 0)
		return -1;
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
	if (merge_host_facts(dst, src) != 0)
		return -1;
	return merge_series(dst, src->series);
}

