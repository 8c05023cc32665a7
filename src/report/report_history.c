/*
 * report_history.c - a run saved to the history (--label): the document
 * --json writes, completed with what queries need whatever --percentiles
 * asked (each op's p50 and p99), handed to history_save() as a group of
 * one run.  A save that fails is said in one line naming the file; the
 * run's outputs are already written by then.
 */
#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>
#include <time.h>

#include "history/history.h"
#include "report/report.h"
#include "run/pool.h"
#include "report/report_json.h"
#include "json_put.h"

/* Does the percentiles array a hold an entry for p? */
static bool has_percentile(struct json_object *a, double p)
{
	size_t n = json_object_array_length(a);

	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct json_object *v;

		if (json_object_object_get_ex(e, "percentile", &v) &&
		    json_object_get_double(v) == p)
			return true;
	}
	return false;
}

/* The op kind named name, or OP_NUM_MEASURED. */
static unsigned op_kind(const char *name)
{
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		if (name != NULL && strcmp(op_info[k].short_name, name) == 0)
			return k;
	return OP_NUM_MEASURED;
}

void report_json_history_percentiles(struct json_object *doc,
				     const struct run_result *r)
{
	static const double want[] = { 50, 99 };
	struct json_object *ops;
	size_t n;

	if (!json_object_object_get_ex(doc, "operations", &ops))
		return;
	n = json_object_array_length(ops);
	for (size_t i = 0; i < n; i++) {
		struct json_object *op = json_object_array_get_idx(ops, i);
		struct json_object *name, *pct;
		unsigned k;

		if (!json_object_object_get_ex(op, "name", &name) ||
		    !json_object_object_get_ex(op, "percentiles", &pct))
			continue;
		k = op_kind(json_object_get_string(name));
		if (k == OP_NUM_MEASURED)
			continue;
		for (unsigned w = 0; w < 2; w++) {
			const struct op_stats *s = &r->ops[k];
			struct json_object *p;

			if (has_percentile(pct, want[w]))
				continue;
			p = json_object_new_object();
			put_num(p, "percentile", want[w], 6);
			put_num(p, "ms", ms(hist_percentile(&s->hist, want[w],
							    0, s->max_ns)), 6);
			add(pct, p);
		}
	}
}

/*
 * What a reader of load run r's figures should know (dbench-history shows
 * them with the run): a signal, the warmup's figures, mismatches, a
 * failure.  Sets *n; the strings are under mem.
 */
static const char **run_warnings(void *mem, const struct run_result *r,
				 unsigned *n)
{
	const char **w = talloc_array(mem, const char *, 6);
	uint64_t mismatches = 0;

	*n = 0;
	if (w == NULL || r == NULL)
		return w;
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		mismatches += r->mm[k].count + r->mm[k].fatal;
	if (r->interrupted)
		w[(*n)++] = talloc_asprintf(w, "interrupted by signal %d: "
					    "the figures are partial",
					    (int)r->signal);
	if (r->phase != PHASE_EXECUTE)
		w[(*n)++] = talloc_strdup(w, "the run never left the warmup: "
					  "the figures are the warmup's");
	if (mismatches > 0)
		w[(*n)++] = talloc_asprintf(w, "%llu status mismatches",
					    (unsigned long long)mismatches);
	if (r->failed)
		w[(*n)++] = talloc_strdup(w, "a client failed or a worker "
					  "died");
	if (r->noise.busy)
		w[(*n)++] = talloc_strdup(w, "the machine was busy besides "
					  "dbench: the figures may be low");
	if (r->noise.client_bound)
		w[(*n)++] = talloc_strdup(w, "client-bound: the run measured "
					  "the client, not the server");
	for (unsigned i = 0; i < *n; i++)
		if (w[i] == NULL)
			*n = i;
	return w;
}

/* the stop signals counted when the run ended (see signal_since()) */
static unsigned signals_at_end;

/* Did a stop signal come since the run ended? */
static bool signal_since(void)
{
	return pool_signal_count() != signals_at_end;
}

/* an interrupted run: when the save began to wait for a lock */
static bool interrupted_run, waiting;
static struct timespec wait_began;

/*
 * Should the save stop waiting for a lock?  When a stop signal came
 * since the run ended, and when the run was itself interrupted and the
 * wait has lasted a second: a stop is never held for long.
 */
static bool stop_waiting(void)
{
	struct timespec now;

	if (signal_since())
		return true;
	if (!interrupted_run)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!waiting) {
		waiting = true;
		wait_began = now;
		return false;
	}
	return (now.tv_sec - wait_began.tv_sec) * 1000 +
	       (now.tv_nsec - wait_began.tv_nsec) / 1000000 >= 1000;
}

int report_history_save(void *mem_ctx, const struct dbench_options *o,
			struct json_object *doc, const struct run_result *r,
			int exit_status)
{
	struct history_entry e = {
		.result = doc,
		.exit_status = exit_status,
	};
	char *err = NULL;

	/* a run that ended well had none; an interrupted one, those so far */
	signals_at_end = r != NULL && r->interrupted ? pool_signal_count() : 0;
	interrupted_run = r != NULL && r->interrupted;
	waiting = false;
	history_set_stop(stop_waiting);
	e.warnings = run_warnings(mem_ctx, r, &e.nwarnings);

	if (doc == NULL) {
		fprintf(stderr, "dbench: the run was not saved: %s: out of "
			"memory\n", o->history_path);
		return HISTORY_EXIT_SAVE_FAILED;
	}
	if (history_save(mem_ctx, o->history_path, o->label, "single", NULL,
			 &e, 1, &err) != 0) {
		fprintf(stderr, "dbench: the run was not saved: %s\n",
			err ? err : o->history_path);
		if (signal_since() && pool_signal() != 0)
			return 128 + pool_signal();
		return HISTORY_EXIT_SAVE_FAILED;
	}
	/* a stop signal during the save ends the program as one would */
	if (signal_since() && pool_signal() != 0)
		return 128 + pool_signal();
	return 0;
}
