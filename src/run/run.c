/*
 * run.c - the top of a run: make the pool, run the loop under a
 * coordinator, hand the result to the setup's report hook (the writers,
 * a layer above), compute the exit status from it.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <talloc.h>

#include "run/coord.h"
#include "stats/host.h"
#include "pool.h"
#include "stats/result.h"
#include "runloop.h"
#include "run/supervisor.h"

/* The kinds that move data, in every dialect. */
#define RUN_DATA_KINDS                                                  \
	(1ull << OP_READX | 1ull << OP_WRITEX | 1ull << OP_READ3 |       \
	 1ull << OP_WRITE3 | 1ull << OP_READ5 | 1ull << OP_WRITE5 |       \
	 1ull << OP_BREAD | 1ull << OP_BWRITE | 1ull << OP_READ6 |        \
	 1ull << OP_READ10 | 1ull << OP_READ16 | 1ull << OP_WRITE10 |     \
	 1ull << OP_WRITE16)
_Static_assert(OP_NUM_MEASURED <= 64, "a kind is a bit of RUN_DATA_KINDS");

int run_failed_kind(const struct run_result *r)
{
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		if ((RUN_DATA_KINDS & (1ull << k)) && r->ops[k].count != 0 &&
		    r->mm[k].phase_count >= r->ops[k].count)
			return (int)k;
	return -1;
}

int run_exit_status(const struct run_result *r, const struct dbench_options *o)
{
	if (r->interrupted)
		return 128 + (r->signal ? r->signal : SIGINT);
	if (r->failed || run_failed_kind(r) >= 0)
		return 1;
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		if (r->mm[k].count != 0 && o->mismatch == MISMATCH_KEEP_GOING)
			return 1;
	return 0;
}

/*
 * After the run (its clients done, their trees cleaned up or kept): the
 * trees kept with --skip-cleanup are recorded, those removed forgotten,
 * so that a later run may use only what a dbench run made.
 */
static void note_kept_trees(const struct run *pool, const struct coord *c)
{
	pool_note_kept(pool, c->client_id_base);
}

int run_benchmark_with(void *mem_ctx, const struct run_setup *su,
		       struct coord *c)
{
	void *mem = talloc_new(mem_ctx);
	int rc = mem ? pool_check_trees(mem, su, c->client_id_base) : 1;
	struct run *pool = rc == 0 ? pool_new(mem, su, c->client_id_base) :
				     NULL;
	struct host_facts *host = NULL;
	struct run_result *res;
	int reported = 0;

	if (pool == NULL || (c->ops->noted != NULL && c->ops->noted(c) != 0)) {
		if (pool != NULL)
			pool_free(pool);
		talloc_free(mem);
		return rc != 0 ? rc : 1;
	}
	/* only a JSON document shows them: no probing otherwise */
	if (options_wants_document(su->opts))
		host = host_facts_gather(mem, su->opts->directories,
					 su->opts->ndirectories);
	rc = 1;
	res = runloop_run(mem, pool, c, host, &rc);
	if (res != NULL)
		res->warmup_steady = c->policy.steady_reached;
	/* hosts sharing a directory take turns at its record */
	if (c->ops->serial != NULL)
		c->ops->serial(c, true);
	note_kept_trees(pool, c);
	if (c->ops->serial != NULL)
		c->ops->serial(c, false);
	if (res != NULL && c->prints && su->report != NULL)
		reported = su->report(mem, su->report_arg, su->opts, res);
	if (reported < 0)
		res->failed = true;	/* a file not written fails the run */
	if (res != NULL)
		rc = run_exit_status(res, su->opts);
	if (rc == 0 && reported > 0)
		rc = reported;		/* the run is fine, a save is not */
	/* the handlers stay until the report is out */
	pool_free(pool);
	talloc_free(mem);
	return rc;
}

int run_benchmark(void *mem_ctx, const struct run_setup *su)
{
	struct coord *c = coord_local_new(mem_ctx, su->opts);
	int rc;

	if (c == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		return 1;
	}
	rc = run_benchmark_with(mem_ctx, su, c);
	talloc_free(c);
	return rc;
}

int supervisor_run(void *mem_ctx, const struct run_setup *su)
{
	return run_benchmark(mem_ctx, su);
}
