/*
 * engine.c - bench helper: the client engine alone, in one process.
 *
 * Compiles a loadfile, then runs one client on the null backend exactly as
 * a worker would (client_new, client_start, client_step until the time is
 * up) and prints what the engine costs: measured ops per second, and the
 * latency the engine attributes to a null op (percentiles of the merged
 * histograms of the client's stats slot, i.e. what a report would show).
 * Not a test: bench/engine/null.sh uses it (null ops/s, the latency of a
 * null op), and it is a
 * convenient target for perf and callgrind (--run-once: one pass only).
 *
 *   bench-engine [--run-once] LOADFILE [SECONDS]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "backends/backend.h"
#include "engine/client.h"
#include "stats/histogram.h"
#include "loadfile/program.h"
#include "stats/stats.h"
#include "util/timer.h"
#include "util/util.h"

int main(int argc, char **argv)
{
	struct dbench_options opts;
	struct stats_region region;
	struct histogram *all;
	const struct program *prog;
	struct client *c;
	void *mem = talloc_new(NULL);
	bool once = false;
	double secs = 5;
	char *err = NULL;
	uint64_t t0, t1, ops = 0, steps = 0;
	int a = 1;

	if (argc > a && strcmp(argv[a], "--run-once") == 0) {
		once = true;
		a++;
	}
	if (argc <= a) {
		fprintf(stderr, "usage: %s [--run-once] LOADFILE [SECONDS]\n",
			argv[0]);
		return 2;
	}
	if (argc > a + 1 && parse_double(argv[a + 1], 0.001, 1e6, &secs) != 0) {
		fprintf(stderr, "%s: bad seconds '%s'\n", argv[0], argv[a + 1]);
		return 2;
	}
	prog = program_compile(mem, argv[a], &err);
	if (prog == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	timer_init();
	memset(&opts, 0, sizeof(opts));
	opts.nclients = 1;
	opts.clients_per_process = 1;
	if (stats_map(&region, 1) != 0) {
		perror("stats_map");
		return 1;
	}
	c = client_new(mem, &opts, prog, 0, backend_find("null"), ".",
		       &region, 0);
	if (c == NULL)
		return 1;
	region.hdr->phase = PHASE_EXECUTE;

	t0 = now_ns();
	client_start(c, t0);
	for (;;) {
		enum client_step_result r = client_step(c);

		if (r == STEP_FAILED || r == STEP_STOPPED)
			return 1;
		if (r == STEP_PASS_DONE && once)
			break;
		if ((++steps & 0xffff) == 0 &&
		    now_ns() - t0 >= (uint64_t)(secs * 1e9))
			break;
	}
	t1 = now_ns();

	/* what one clock read costs: a timed op pays for two */
	uint64_t c0 = now_ns(), sink = 0;

	for (unsigned i = 0; i < 1000000; i++)
		sink += now_ns();
	double clock_ns = (double)(now_ns() - c0 - (sink & 1)) / 1e6;

	all = talloc_zero(mem, struct histogram);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		ops += region.slots[0].ops[k].count;
		stats_hist_merge(all, &region.slots[0], k);
	}
	printf("ops %llu seconds %.3f ops_per_sec %.0f ns_per_op %.1f "
	       "p50_ns %llu p99_ns %llu p999_ns %llu clock_read_ns %.1f "
	       "timer %s\n",
	       (unsigned long long)ops, (double)(t1 - t0) / 1e9,
	       (double)ops / ((double)(t1 - t0) / 1e9),
	       (double)(t1 - t0) / (double)ops,
	       (unsigned long long)hist_percentile(all, 50, 0, UINT64_MAX),
	       (unsigned long long)hist_percentile(all, 99, 0, UINT64_MAX),
	       (unsigned long long)hist_percentile(all, 99.9, 0, UINT64_MAX),
	       clock_ns, timer_name());
	stats_unmap(&region);
	talloc_free(mem);
	return 0;
}
