/*
 * progress.c - the lines a run prints while it runs, once a second: in
 * warmup and execute, and in cleanup, in dbench's text or machine form.
 * They belong to the run, not to a writer of its result: they are out
 * before any result exists.
 */
#include "config.h"

#include <stdio.h>

#include "progress.h"

void progress_line(FILE *f, const struct dbench_options *o,
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

void progress_cleanup(FILE *f, const struct dbench_options *o,
		      unsigned clients, double lines, double mbps, double secs)
{
	unsigned long long whole = lines > 0 ? (unsigned long long)lines : 0;

	/* 5.0: the five fields of @R@ (no latency is measured in cleanup) */
	if (o->machine_readable && o->dialect == DIALECT_50)
		fprintf(f, "@C@%u@%llu@%.2f@%.0f@%.03f@\n", clients, whole,
			mbps, secs, 0.0);
	else if (o->machine_readable)
		fprintf(f, "@C@%u@%.0f@\n", clients, secs);
	else
		fprintf(f, "%4u  cleanup %3.0f sec\n", clients, secs);
	fflush(f);
}

void progress_prepared(FILE *f, const struct dbench_options *o,
		       unsigned ready, unsigned total, double secs)
{
	if (!o->machine_readable)
		fprintf(f, "%u of %u processes prepared for launch %3.0f "
			"sec\n", ready, total, secs);
	fflush(f);
}
