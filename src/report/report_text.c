/*
 * report_text.c - dbench-shaped text output: progress lines, the operation
 * table, the Throughput line, and their --machine-readable variants.
 * The shapes are the ones scripts parse (see COMPAT.md), in two dialects:
 * dbench 4.00's and the 5.0 line's (op names, table width, the cleanup
 * and execute-time machine forms); change them only together with
 * tests/integration/output.sh and consumers.sh.
 */
#include "config.h"

#include <string.h>
#include <talloc.h>

#include "loadfile/ntstatus.h"
#include "report/report.h"

const char *report_op_name(const struct dbench_options *o, unsigned k)
{
	/* 5.0 names every op by its loadfile command */
	return o->dialect == DIALECT_50 ? op_info[k].name :
					  op_info[k].short_name;
}

/* Width of the name column: 5.0 widened it for its long names. */
static int name_width(const struct dbench_options *o)
{
	return o->dialect == DIALECT_50 ? 22 : 12;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* One op's --percentiles columns, and the end of its row. */
static void percentile_columns(FILE *f, const struct dbench_options *o,
			       const struct op_stats *s)
{
	for (unsigned i = 0; i < o->npercentiles; i++)
		fprintf(f, " %9.03f", ms(hist_percentile(&s->hist,
							 o->percentiles[i], 0,
							 s->max_ns)));
	fputc('\n', f);
}

static void op_table(FILE *f, const struct dbench_options *o,
		     const struct op_stats *ops)
{
	int w = name_width(o);

	/* the header's columns line up with the rows' */
	fprintf(f, "\n %-*s %7s %9s %9s\n ", w, "Operation", "Count",
		"AvgLat", "MaxLat");
	for (int i = 0; i < w + 28; i++)
		fputc('-', f);
	fputc('\n', f);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		const struct op_stats *s = &ops[k];
		double avg;

		if (s->count == 0)
			continue;
		avg = result_avg_ms(s);
		if (o->machine_readable)
			fprintf(f, ":%s:%llu:%.03f:%.03f:\n",
				report_op_name(o, k),
				(unsigned long long)s->count, avg,
				ms(s->max_ns));
		else
			fprintf(f, " %-*s %7llu %9.03f %9.03f\n",
				name_width(o), report_op_name(o, k),
				(unsigned long long)s->count, avg,
				ms(s->max_ns));
	}
	fprintf(f, "\n");
}

void report_percentiles(FILE *f, const struct dbench_options *o,
			const struct op_stats *ops)
{
	int w = name_width(o);
	unsigned width = (unsigned)w + 1 + 10 * o->npercentiles;

	fprintf(f, " %-*s", w, "Operation");
	for (unsigned i = 0; i < o->npercentiles; i++) {
		char label[32];

		snprintf(label, sizeof(label), "p%g", o->percentiles[i]);
		fprintf(f, " %9s", label);
	}
	fprintf(f, "   (latency in ms)\n ");
	for (unsigned i = 0; i < width; i++)
		fputc('-', f);
	fputc('\n', f);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		const struct op_stats *s = &ops[k];

		if (s->count == 0)
			continue;
		fprintf(f, " %-*s", w, report_op_name(o, k));
		percentile_columns(f, o, s);
	}
	fputc('\n', f);
}

/*
 * With a backend whose target is a server (its own options name it),
 * the clients' connection set-up, made before the start gate and in no
 * op's latency: "Connection set-up: avg A ms, max M ms (N clients)".
 */
static void setup_line(FILE *f, const struct dbench_options *o,
		       const struct run_result *r)
{
	if (o->machine_readable || !r->own_target || r->nclients == 0)
		return;
	fprintf(f, "Connection set-up: avg %.03f ms, max %.03f ms "
		"(%u clients)\n", ms(r->setup_sum_ns / r->nclients),
		ms(r->setup_max_ns), r->nclients);
}

/* "expected X, got Y" or the FIND_FIRST count, under mem_ctx. */
static char *mismatch_what(void *mem_ctx, const struct result_mismatch *m,
			   unsigned kind)
{
	char eb[11], ab[11], ok[11];

	if (m->found >= 0)
		return talloc_asprintf(mem_ctx, "expected %lld entries, "
				       "found %lld",
				       (long long)m->expected_found,
				       (long long)m->found);
	return talloc_asprintf(
		mem_ctx, "expected %s, got %s%s%s",
		m->check == STATUS_SUCCESS ? op_status_str(kind, 0, ok) :
		m->check == STATUS_FAILURE ? "a failure" :
		op_status_str(kind, m->expected_status, eb),
		op_status_str(kind, m->status, ab), m->err ? ": " : "",
		m->err ? strerror(m->err) : "");
}

void report_mismatches(FILE *f, void *mem_ctx,
			const struct dbench_options *o,
			const struct run_result *r)
{
	int w = name_width(o);

	bool any = false;

	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		const struct result_mismatch *m = &r->mm[k];
		char *path = NULL, *what;

		if (m->count == 0)
			continue;
		if (!any)
			fprintf(f, "Status mismatches (not fatal):\n");
		any = true;
		if (!m->has_op) {
			fprintf(f, " %-*s %7llu\n", w, report_op_name(o, k),
				(unsigned long long)m->count);
			continue;
		}
		if (m->path != NULL)
			path = talloc_asprintf(mem_ctx, " \"%s\"", m->path);
		what = mismatch_what(mem_ctx, m, k);
		fprintf(f, " %-*s %7llu   first: client %u, %s:%u%s: %s\n",
			w, report_op_name(o, k), (unsigned long long)m->count,
			m->client_id, m->loadfile, m->line, path ? path : "",
			what ? what : "");
		talloc_free(path);
		talloc_free(what);
	}
	if (any)
		fprintf(f, "\n");
	fflush(f);
}

void report_failed_kind(FILE *f, void *mem_ctx,
			const struct dbench_options *o,
			const struct run_result *r, unsigned k)
{
	const struct result_mismatch *m = &r->mm[k];
	char *what = m->has_op ? mismatch_what(mem_ctx, m, k) : NULL;

	fprintf(f, "dbench: every %s failed (%llu of %llu in the run)",
		report_op_name(o, k),
		(unsigned long long)r->ops[k].count,
		(unsigned long long)r->ops[k].count);
	if (what != NULL)
		fprintf(f, ", first: client %u, %s:%u: %s", m->client_id,
			m->loadfile, m->line, what);
	fprintf(f, "; the run is not a success\n");
	fflush(f);
	talloc_free(what);
}

static void per_client(FILE *f, void *mem_ctx, const struct dbench_options *o,
		       const struct run_result *r)
{
	struct op_stats *ops = talloc_zero_array(mem_ctx, struct op_stats,
						 OP_NUM_MEASURED);
	uint64_t errors[OP_NUM_MEASURED];

	if (ops == NULL)
		return;
	fprintf(f, "Per client results:\n");
	for (uint32_t i = 0; i < r->nclient_results; i++) {
		const struct result_client *c = &r->clients[i];

		result_client_expand(c, ops, errors);
		fprintf(f, "Client %u did %llu lines and %.0f bytes\n",
			c->client_id, (unsigned long long)c->lines,
			(double)c->bytes);
		op_table(f, o, ops);
		if (o->show_percentiles)
			report_percentiles(f, o, ops);
	}
	talloc_free(ops);
}

static void execute_times(FILE *f, const struct dbench_options *o,
			  const struct run_result *r)
{
	for (uint32_t c = 0; c < r->nclient_results; c++) {
		const struct result_client *cl = &r->clients[c];

		for (uint32_t i = 0; i < cl->npass; i++) {
			if (o->machine_readable)
				/* the fork's form has no trailing @ */
				fprintf(f, "@E@%u@%u%s\n", cl->client_id,
					cl->pass[i].ms,
					o->dialect == DIALECT_50 ? "" : "@");
			else
				fprintf(f, "%4u completed in %u ms at time "
					"%u ms\n", cl->client_id,
					cl->pass[i].ms, cl->pass[i].at_ms);
		}
	}
}

/*
 * With a schedule (a timed loadfile, -R): each op's response time, from
 * when it was due to its end, beside the service time of the table above
 * (which starts when the op does): a late op's wait for the ones before
 * it shows here and not there.  Its lines start in the first column,
 * unlike the table's: mmtests' ExtractDbench4opslatency reads every line
 * after the table whose second blank-separated field names an op as one
 * more row of it.
 */
static void response_table(FILE *f, const struct dbench_options *o,
			   const struct op_stats *resp)
{
	int w = name_width(o);

	fprintf(f, "\nResponse time from when each op was due (%s), in ms:\n"
		"%-*s %7s %9s %9s", o->target_rate > 0 ? "the -R pace" :
		"the loadfile's timestamps", w, "Operation", "Count",
		"AvgResp", "MaxResp");
	for (unsigned i = 0; i < o->npercentiles; i++) {
		char label[32];

		snprintf(label, sizeof(label), "p%g", o->percentiles[i]);
		fprintf(f, " %9s", label);
	}
	fputc('\n', f);
	for (unsigned i = 0; i < (unsigned)w + 28 + 10 * o->npercentiles; i++)
		fputc('-', f);
	fputc('\n', f);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		const struct op_stats *s = &resp[k];

		if (s->count == 0)
			continue;
		fprintf(f, "%-*s %7llu %9.03f %9.03f", w, report_op_name(o, k),
			(unsigned long long)s->count, result_avg_ms(s),
			ms(s->max_ns));
		percentile_columns(f, o, s);
	}
	fputc('\n', f);
}

/* --warmup auto: how long the warmup took and whether it ended steady. */
static void warmup_line(FILE *f, const struct dbench_options *o,
			const struct run_result *r)
{
	double s = r->phase_seconds[PHASE_WARMUP];

	if (r->phase == PHASE_WARMUP)
		fprintf(f, "Warmup: not steady after %.0f s, when the run "
			"ended\n", s);
	else if (r->warmup_steady)
		fprintf(f, "Warmup: steady after %.0f s (lines/s within "
			"%g%% of their mean over %u s)\n", s,
			o->warmup_bound_pct, o->warmup_window);
	else
		fprintf(f, "Warmup: NOT steady after %.0f s (--warmup-max "
			"%d s): measured anyway\n", s, o->warmup);
}

void report_text(FILE *f, void *mem_ctx, const struct dbench_options *o,
		 const struct run_result *r)
{
	double mbps = result_mbps(r->bytes, r->seconds);
	uint64_t max_ns = result_max_latency(r->ops);

	op_table(f, o, r->ops);
	if (o->show_percentiles)
		report_percentiles(f, o, r->ops);
	if (o->per_client_results)
		per_client(f, mem_ctx, o, r);
	if (r->interrupted)
		fprintf(f, "Interrupted: these results cover %.1f seconds "
			"of the %s phase\n", r->seconds,
			r->phase == PHASE_WARMUP ? "warmup" : "execute");
	if (o->machine_readable)
		fprintf(f, ";%g;%u;%u;%.03f;\n", mbps, r->nclients, r->nprocs,
			ms(max_ns));
	else
		fprintf(f, "Throughput %g MB/sec%s%s  %u clients  %u procs  "
			"max_latency=%.03f ms\n", mbps,
			o->sync_open ? " (sync open)" : "",
			o->sync_dirs ? " (sync dirs)" : "", r->nclients,
			r->nprocs, ms(max_ns));
	setup_line(f, o, r);
	if (r->response != NULL && !o->machine_readable)
		response_table(f, o, r->response);
	if (o->warmup_auto)
		warmup_line(f, o, r);
	if (o->show_execute_time)
		execute_times(f, o, r);
	fflush(f);
}
