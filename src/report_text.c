/*
 * report_text.c - dbench-shaped text output: progress lines, the operation
 * table, the Throughput line, and their --machine-readable variants.
 * The shapes are the ones scripts parse (see COMPAT.md); change them only
 * together with tests/integration/output.sh.
 */
#include "config.h"

#include <string.h>
#include <talloc.h>

#include "client.h"
#include "ntstatus.h"
#include "report.h"

double report_mbps(uint64_t bytes, double seconds)
{
	if (seconds <= 0)
		return 0;
	return (double)bytes / 1e6 / seconds;
}

void report_progress(FILE *f, const struct dbench_options *o,
		     enum run_phase ph, unsigned clients, double lines,
		     double mbps, double secs, double lat_ms)
{
	/* dbench prints the average as a truncated integer */
	unsigned long long whole = lines > 0 ? (unsigned long long)lines : 0;

	if (o->machine_readable)
		fprintf(f, "@%c@%u@%llu@%.2f@%.0f@%.03f@\n",
			ph == PHASE_WARMUP ? 'W' : 'R', clients, whole, mbps,
			secs, lat_ms);
	else
		fprintf(f, "%4u  %8llu  %7.2f MB/sec  %s %3.0f sec  "
			"latency %.03f ms\n", clients, whole, mbps,
			ph == PHASE_WARMUP ? "warmup" : "execute", secs,
			lat_ms);
	fflush(f);
}

void report_cleanup(FILE *f, const struct dbench_options *o,
		    unsigned clients, double secs)
{
	if (o->machine_readable)
		fprintf(f, "@C@%u@%.0f@\n", clients, secs);
	else
		fprintf(f, "%4u  cleanup %3.0f sec\n", clients, secs);
	fflush(f);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void op_table(FILE *f, const struct dbench_options *o,
		     const struct op_stats *ops)
{
	fprintf(f, "\n Operation      Count    AvgLat    MaxLat\n");
	fprintf(f, " ----------------------------------------\n");
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		const struct op_stats *s = &ops[k];
		double avg;

		if (s->count == 0)
			continue;
		avg = ms(s->sum_ns) / (double)s->count;
		if (o->machine_readable)
			fprintf(f, ":%s:%llu:%.03f:%.03f:\n",
				op_info[k].short_name,
				(unsigned long long)s->count, avg,
				ms(s->max_ns));
		else
			fprintf(f, " %-12s %7llu %9.03f %9.03f\n",
				op_info[k].short_name,
				(unsigned long long)s->count, avg,
				ms(s->max_ns));
	}
	fprintf(f, "\n");
}

void report_percentiles(FILE *f, const struct dbench_options *o,
			const struct op_stats *ops)
{
	unsigned width = 13 + 10 * o->npercentiles;

	fprintf(f, " Operation   ");
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
		fprintf(f, " %-12s", op_info[k].short_name);
		for (unsigned i = 0; i < o->npercentiles; i++)
			fprintf(f, " %9.03f",
				ms(hist_percentile(&s->hist, o->percentiles[i],
						   0, s->max_ns)));
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void mismatch_summary(FILE *f, void *mem_ctx, const struct report *r)
{
	bool any = false;

	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		const struct mismatch_stats *m = &r->total->mm[k];
		const struct program *prog;
		const struct op *op;
		char eb[11], ab[11];
		char *path = NULL, *what;
		unsigned client;

		if (m->count == 0)
			continue;
		if (!any)
			fprintf(f, "Status mismatches (not fatal):\n");
		any = true;
		client = m->first_client;
		prog = r->programs[r->region->slots[client].program %
				   r->nprograms];
		if (m->first_op >= prog->nops) {
			fprintf(f, " %-12s %7llu\n", op_info[k].short_name,
				(unsigned long long)m->count);
			continue;
		}
		op = &prog->ops[m->first_op];
		if (op->path[0] != NULL) {
			char *p = client_path_for(mem_ctx, op->path[0], client);

			path = talloc_asprintf(mem_ctx, " \"%s\"", p);
			talloc_free(p);
		}
		if (m->first_found >= 0)
			what = talloc_asprintf(mem_ctx, "expected %lld entries, "
					       "found %lld",
					       (long long)op->arg[2].v,
					       (long long)m->first_found);
		else
			what = talloc_asprintf(
				mem_ctx, "expected %s, got %s%s%s",
				op->check == STATUS_SUCCESS ? "NT_STATUS_OK" :
				op->check == STATUS_FAILURE ? "a failure" :
				ntstatus_str(op->status, eb),
				ntstatus_str(m->first_status, ab),
				m->first_err ? ": " : "",
				m->first_err ? strerror(m->first_err) : "");
		fprintf(f, " %-12s %7llu   first: client %u, %s:%u%s: %s\n",
			op_info[k].short_name, (unsigned long long)m->count,
			client, prog->filename, op->line, path ? path : "",
			what ? what : "");
		talloc_free(path);
		talloc_free(what);
	}
	if (any)
		fprintf(f, "\n");
}

static void per_client(FILE *f, void *mem_ctx, const struct report *r)
{
	struct stats_total *t = talloc_zero(mem_ctx, struct stats_total);

	if (t == NULL)
		return;
	fprintf(f, "Per client results:\n");
	for (unsigned c = 0; c < r->region->nclients; c++) {
		stats_sum_client(r->region, c, r->phase, t);
		fprintf(f, "Client %u did %llu lines and %.0f bytes\n", c,
			(unsigned long long)t->lines, (double)t->bytes);
		op_table(f, r->opts, t->ops);
		if (r->opts->show_percentiles)
			report_percentiles(f, r->opts, t->ops);
	}
	talloc_free(t);
}

static void execute_times(FILE *f, const struct report *r)
{
	for (unsigned c = 0; c < r->region->nclients; c++) {
		const struct client_slot *s = &r->region->slots[c];

		for (uint32_t i = 0; i < s->npass_records; i++) {
			if (r->opts->machine_readable)
				fprintf(f, "@E@%u@%u@\n", c, s->pass[i].ms);
			else
				fprintf(f, "%4u completed in %u ms at time "
					"%u ms\n", c, s->pass[i].ms,
					s->pass[i].at_ms);
		}
	}
}

void report_text(FILE *f, void *mem_ctx, const struct report *r)
{
	const struct dbench_options *o = r->opts;
	double mbps = report_mbps(r->total->bytes, r->seconds);
	uint64_t max_ns = 0;

	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		if (r->total->ops[k].max_ns > max_ns)
			max_ns = r->total->ops[k].max_ns;

	op_table(f, o, r->total->ops);
	if (o->show_percentiles)
		report_percentiles(f, o, r->total->ops);
	mismatch_summary(f, mem_ctx, r);
	if (o->per_client_results)
		per_client(f, mem_ctx, r);
	if (r->interrupted)
		fprintf(f, "Interrupted: these results cover %.1f seconds "
			"of the %s phase\n", r->seconds,
			r->phase == PHASE_WARMUP ? "warmup" : "execute");
	if (o->machine_readable)
		fprintf(f, ";%g;%u;%u;%.03f;\n", mbps, o->nclients, r->nprocs,
			ms(max_ns));
	else
		fprintf(f, "Throughput %g MB/sec%s%s  %u clients  %u procs  "
			"max_latency=%.03f ms\n", mbps,
			o->sync_open ? " (sync open)" : "",
			o->sync_dirs ? " (sync dirs)" : "", o->nclients,
			r->nprocs, ms(max_ns));
	if (o->show_execute_time)
		execute_times(f, r);
	fflush(f);
}
