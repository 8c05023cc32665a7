/*
 * run.c - the top of a run: make the pool, run the loop under a
 * coordinator, write the report from the result, compute the exit status
 * from it.
 */
#include "config.h"

#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <talloc.h>

#include "coord.h"
#include "pool.h"
#include "report.h"
#include "report_json.h"
#include "result.h"
#include "runloop.h"
#include "series.h"
#include "supervisor.h"

int run_report(void *mem_ctx, const struct dbench_options *o,
	       const struct run_result *r)
{
	void *mem = talloc_new(mem_ctx);
	char *err = NULL;
	int rc = 0;

	report_text(stdout, mem, o, r);
	if (o->json_path != NULL) {
		struct json_object *doc = report_json_build(mem, o, r);

		if (report_json_write(mem, doc, o->json_path, &err) != 0) {
			fprintf(stderr, "dbench: --json %s\n", err);
			rc = -1;
		}
		json_object_put(doc);
	}
	if (o->series_path != NULL && r->series != NULL &&
	    series_write_csv(mem, r->series, o->series_path, &err) != 0) {
		fprintf(stderr, "dbench: --series %s\n", err);
		rc = -1;
	}
	talloc_free(mem);
	return rc;
}

int run_exit_status(const struct run_result *r, const struct dbench_options *o)
{
	if (r->interrupted)
		return 128 + (r->signal ? r->signal : SIGINT);
	if (r->failed)
		return 1;
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		if (r->mm[k].count != 0 && o->mismatch == MISMATCH_KEEP_GOING)
			return 1;
	return 0;
}

int run_benchmark_with(void *mem_ctx, const struct run_setup *su,
		       struct coord *c)
{
	void *mem = talloc_new(mem_ctx);
	struct run *pool = mem ? pool_new(mem, su, c->client_id_base) : NULL;
	struct run_result *res;
	int rc = 1;

	if (pool == NULL || (c->ops->noted != NULL && c->ops->noted(c) != 0)) {
		if (pool != NULL)
			pool_free(pool);
		talloc_free(mem);
		return 1;
	}
	res = runloop_run(mem, pool, c, &rc);
	if (res != NULL && c->prints) {
		/* a file that could not be written fails the run */
		if (run_report(mem, su->opts, res) != 0)
			res->failed = true;
		rc = run_exit_status(res, su->opts);
	} else if (res != NULL) {
		rc = run_exit_status(res, su->opts);
	}
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
