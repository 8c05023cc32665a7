/*
 * run.c - the top of a run: make the pool, run the loop under a
 * coordinator, write the report from the result, compute the exit status
 * from it.
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "coord.h"
#include "host.h"
#include "pool.h"
#include "report.h"
#include "report_json.h"
#include "result.h"
#include "runloop.h"
#include "series.h"
#include "supervisor.h"

/*
 * Flush f; a failure (a closed pipe, a full disk) is said once on stderr.
 * Returns 0 or -1.
 */
static int flush_checked(FILE *f, const char *what)
{
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	fprintf(stderr, "dbench: writing %s: %s\n", what,
		strerror(errno ? errno : EIO));
	return -1;
}

/* The JSON document to stdout (--json -), checked.  Returns 0 or -1. */
static int json_to_stdout(struct json_object *doc)
{
	const char *text = doc == NULL ? NULL :
		json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					       JSON_C_TO_STRING_NOSLASHESCAPE);

	if (text == NULL) {
		fprintf(stderr, "dbench: --json -: out of memory\n");
		return -1;
	}
	errno = 0;
	if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF) {
		fprintf(stderr, "dbench: writing the JSON document: %s\n",
			strerror(errno ? errno : EIO));
		return -1;
	}
	return flush_checked(stdout, "the JSON document");
}

int run_report(void *mem_ctx, const struct dbench_options *o,
	       const struct run_result *r)
{
	void *mem = talloc_new(mem_ctx);
	FILE *text = report_text_stream(o);
	char *err = NULL;
	int rc = 0;

	/* on stderr, where no parser of the table reads it */
	fflush(text);
	report_mismatches(stderr, mem, o, r);
	errno = 0;
	report_text(text, mem, o, r);
	if (flush_checked(text, "the report") != 0)
		rc = -1;
	if (o->json_path != NULL && strcmp(o->json_path, "-") == 0) {
		struct json_object *doc = report_json_build(mem, o, r);

		if (json_to_stdout(doc) != 0)
			rc = -1;
		json_object_put(doc);
	} else if (o->json_path != NULL) {
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

/*
 * After the run (its clients done, their trees cleaned up or kept): the
 * trees kept with --skip-cleanup are recorded, those removed forgotten,
 * so that a later run may use only what a dbench run made.
 */
static void note_kept_trees(void *mem, const struct run_setup *su,
			    const struct coord *c)
{
	pool_note_kept(mem, su, c->client_id_base);
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

	if (pool == NULL || (c->ops->noted != NULL && c->ops->noted(c) != 0)) {
		if (pool != NULL)
			pool_free(pool);
		talloc_free(mem);
		return rc != 0 ? rc : 1;
	}
	/* only a JSON document shows them: no probing otherwise */
	if (su->opts->json_path != NULL)
		host = host_facts_gather(mem, su->opts->directories,
					 su->opts->ndirectories);
	rc = 1;
	res = runloop_run(mem, pool, c, host, &rc);
	note_kept_trees(mem, su, c);
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
