/*
 * runloop.c - the run of one host, from the release to the result: once
 * a poll interval it samples its clients and asks the coordinator what to
 * do; at every whole second since the release it also adds up the
 * counters, moves the tick on, and (on the printing rank) prints the
 * progress line and adds the series row; it applies the phase the
 * coordinator decides and stops when told.  Then the cleanup phase, and
 * the result, built from the region and gathered by the coordinator.
 * Nothing here decides a phase or a stop (coord_policy.c does, on the
 * deciding rank) or writes a report (run.c does, from the result).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "util/atomic.h"
#include "run/coord.h"
#include "safety/memcheck.h"
#include "stats/noise.h"
#include "pool.h"
#include "progress.h"
#include "runloop.h"
#include "stats/series.h"
#include "util/timer.h"
#include "util/util.h"

#define POLL_NS (10 * 1000000ull)
/* reap at least once in this many polls (see count_and_reap()) */
#define REAP_POLLS 10

struct loop {
	void *mem;
	struct run *pool;
	struct coord *coord;
	const struct dbench_options *o;
	const struct host_facts *host;	/* this host's, or NULL */
	struct stats_header *hdr;
	struct tick_stats *tick;	/* scratch for the series' second */
	struct series *series;		/* NULL when not collected */
	uint64_t release;		/* CLOCK_MONOTONIC */
	uint64_t last_tick;		/* ... of the last series row */
	uint64_t started_wall, ended_wall;	/* CLOCK_REALTIME */
	uint32_t phase;
	enum coord_stop stop;
	uint64_t stop_ns;		/* since the release: phase time end */
	double seconds;			/* of the reported phase */
	double phase_seconds[PHASE_DONE];
	uint64_t phase_start;		/* since the release */
	double last_lines, last_mbps;	/* of the last progress line */
	bool output_lost;		/* stdout failed: said once */
	bool memory_low;		/* memory ran low: said once */
	unsigned polls;			/* of the run phases */
	unsigned busy_seen;		/* clients busy at the last reap */
	struct noise_sample noise_start;	/* of the reported phase */
	struct run_noise noise;
};

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/*
 * This host's sums for the progress line, and the ops of the second that
 * ends now for the series.  advance: move the tick on (a whole second).
 */
static void sample_sums(struct loop *l, struct coord_sample *s, bool advance)
{
	const struct stats_region *r = &l->pool->region;
	uint64_t tick = LOAD(l->hdr->tick);
	struct stats_live_total tot;

	stats_sum_live(r, l->phase, tick, &tot);
	s->lines = tot.lines_run;
	s->bytes = tot.bytes;
	s->max_ns = tot.tick_max_ns;
	if (advance)
		STORE(l->hdr->tick, tick + 1);
	if (l->tick != NULL) {
		stats_tick_sum(r, tick, l->tick);
		s->tick = l->tick;
	}
}

/*
 * Why stream f is in error when the write that failed was another's (a
 * flush before a fork, say) and errno is long gone: a pipe whose reader
 * went away polls as POLLERR (EPIPE, as SIGPIPE would say); else EIO.
 */
static int output_error(FILE *f)
{
	struct pollfd p = { .fd = fileno(f), .events = POLLOUT };

	if (p.fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLERR))
		return EPIPE;
	return EIO;
}

/*
 * After a write to the text stream: when it failed (a reader that went
 * away, a full disk), say so once and stop the run as a signal would
 * (EPIPE: as SIGPIPE, status 141) or as a failure (status 1); the
 * clients still clean up.
 */
static void check_output(struct loop *l)
{
	FILE *f = options_text_stream(l->o);
	int err;

	errno = 0;
	if (l->output_lost || (fflush(f) == 0 && !ferror(f)))
		return;
	err = errno ? errno : output_error(f);
	l->output_lost = true;
	fprintf(stderr, "dbench: writing the progress lines: %s; stopping "
		"the run\n", strerror(err));
	pool_output_lost(l->pool, err);
}

/*
 * Once a second, with a target in memory: when available memory runs
 * low, say so once and fail the run before the OOM killer ends a
 * process; the cleanup then removes the trees and gives the memory back.
 */
static void check_memory(struct loop *l)
{
	uint64_t total, avail;

	if (!l->pool->su->memory_target || l->memory_low ||
	    !memcheck_low(&total, &avail))
		return;
	l->memory_low = true;
	fprintf(stderr, "dbench: memory is running low (%.1f MiB available "
		"of %.1f MiB) and a -D is in memory (tmpfs or ramfs): "
		"stopping the run\n", (double)avail / (1 << 20),
		(double)total / (1 << 20));
	pool_fail(l->pool);
}

/* The progress line of out (on the printing rank). */
static void print_line(struct loop *l, const struct coord_out *out)
{
	const struct coord_sample *g = &out->global;

	l->last_lines = (double)g->lines / g->clients;
	l->last_mbps = result_mbps(g->bytes, out->line_secs);
	progress_line(options_text_stream(l->o), l->o, out->line_phase,
			out->line_phase == PHASE_WARMUP ? g->started :
							  g->clients,
			l->last_lines, l->last_mbps, out->line_secs,
			(double)g->max_ns / 1e6);
	check_output(l);
}

/* A progress line of the cleanup phase (on the printing rank). */
static void print_cleanup(struct loop *l, unsigned busy, double seconds)
{
	progress_cleanup(options_text_stream(l->o), l->o, busy, l->last_lines,
		       l->last_mbps, seconds);
	check_output(l);
}

/* A row of the series for the second that ends at now. */
static void series_row(struct loop *l, const struct coord_out *out,
		       uint64_t now)
{
	if (l->series == NULL || out->global.tick == NULL || !l->coord->prints)
		return;
	series_add(l->series, out->global.tick, out->line_phase,
		   secs(now - l->release), secs(now - l->last_tick));
	l->last_tick = now;
}

/* The machine's counters now, dbench's CPU with its live workers'. */
static void noise_now(struct loop *l, struct noise_sample *s)
{
	double own = noise_own_cpu_s();

	for (unsigned i = 0; i < l->pool->nprocs; i++)
		if (!l->pool->workers[i].reaped && l->pool->workers[i].pid > 0)
			own += noise_proc_cpu_s(l->pool->workers[i].pid);
	noise_sample(s, own);
}

/* Apply a phase the coordinator decided. */
static void set_phase(struct loop *l, uint32_t phase, uint64_t elapsed)
{
	if (phase == l->phase)
		return;
	l->phase_seconds[l->phase] = secs(elapsed - l->phase_start);
	l->phase = phase;
	l->phase_start = elapsed;
	STORE(l->hdr->phase, phase);
	noise_now(l, &l->noise_start);
}

/* One step of the coordinator; a failed coordination stops the run. */
static void step(struct loop *l, enum coord_when when, uint64_t now,
		 const struct coord_sample *local, struct coord_out *out)
{
	if (l->coord->ops->step(l->coord, when, now - l->release, local,
				out) != 0) {
		memset(out, 0, sizeof(*out));
		out->phase = out->line_phase = l->phase;
		out->stop = COORD_FAILED;
	}
}

/*
 * The poll's sample of the clients' states, after reaping the workers
 * that exited.  Reaping walks every worker in the kernel (waitpid(-1)
 * took 0.3-0.8 ms of the parent's CPU at 4,096 workers, a poll every
 * 10 ms), so it is done when a client has ended since the last poll,
 * and otherwise once in REAP_POLLS polls: a worker killed by a signal,
 * which marks nothing, is seen within that.
 */
static void count_and_reap(struct loop *l, struct coord_sample *s)
{
	pool_count(l->pool, s);
	if (l->polls++ % REAP_POLLS != 0 && s->busy == l->busy_seen)
		return;
	pool_reap(l->mem, l->pool, false);
	pool_count(l->pool, s);
	l->busy_seen = s->busy;
}

/* Warmup and execute: until the coordinator says stop. */
static void run_phases(struct loop *l)
{
	uint64_t next_tick = l->release + NS_PER_SEC;

	for (;;) {
		struct coord_sample s = { 0 };
		struct coord_out out;
		uint64_t now = now_ns();
		bool tick;

		if (now < next_tick)
			sleep_ns(next_tick - now < POLL_NS ? next_tick - now :
				 POLL_NS, NULL);
		now = now_ns();
		count_and_reap(l, &s);
		tick = now >= next_tick;
		if (tick)
			sample_sums(l, &s, true);
		step(l, tick ? COORD_TICK : COORD_POLL, now, &s, &out);
		if (out.stop != COORD_RUN) {
			l->stop = out.stop;
			if (out.stop == COORD_TIMELIMIT)
				series_row(l, &out, now);
			return;
		}
		if (!tick)
			continue;
		series_row(l, &out, now);
		if (out.print)
			print_line(l, &out);
		check_memory(l);
		set_phase(l, out.phase, now - l->release);
		next_tick = l->release +
			    ((now - l->release) / NS_PER_SEC + 1) * NS_PER_SEC;
	}
}

/* The run has stopped: when its time ended, and the last partial line. */
static void finish_phases(struct loop *l)
{
	uint64_t stop = now_ns(), last = pool_last_end(l->pool);
	struct coord_sample s = { 0 };
	struct coord_out out;
	struct noise_sample end;

	l->ended_wall = wall_ns();
	noise_now(l, &end);
	noise_finish(&l->noise_start, &end, &l->noise);
	util_stop_raise(&l->hdr->stop);
	pool_count(l->pool, &s);
	sample_sums(l, &s, false);
	s.end_ns = last > l->release ? last - l->release : 0;
	step(l, COORD_FINAL, stop, &s, &out);
	if (out.stop_ns == 0 || out.stop_ns > stop - l->release)
		out.stop_ns = stop - l->release;
	/* the time ends with the last client when they ended by themselves */
	l->ended_wall -= stop - l->release - out.stop_ns;
	stop = l->release + out.stop_ns;
	l->stop_ns = out.stop_ns;
	l->seconds = secs(out.stop_ns - l->phase_start);
	l->phase_seconds[l->phase] = l->seconds;
	if (!out.print)
		return;
	/* the last, partial second of the series */
	if (stop > l->last_tick)
		series_row(l, &out, stop);
	print_line(l, &out);
}

/* Cleanup phase: report once a second until every worker is gone. */
static void cleanup_phase(struct loop *l)
{
	uint64_t next_tick = now_ns();
	unsigned polls = 0;

	STORE(l->hdr->phase, PHASE_CLEANUP);
	for (;;) {
		struct coord_sample s = { 0 };
		struct coord_out out;
		uint64_t now;

		pool_count(l->pool, &s);
		s.alive = pool_reap(l->mem, l->pool, false);
		now = now_ns();
		if (pool_signal_count() > 1) {
			pool_abandon(l->mem, l->pool);
			break;
		}
		/* a remote backend's bound is short: watched at every
		 * tenth poll, a local one's at every tick below */
		if (l->pool->remote && ++polls % 10 == 0)
			pool_watch_stalled(l->pool, now);
		if (s.alive == 0 || now >= next_tick) {
			step(l, COORD_CLEANUP, now, &s, &out);
			/* never before this host's workers are gone */
			if (out.stop != COORD_RUN && s.alive == 0) {
				if (out.print)
					print_cleanup(l, 0, out.line_secs);
				break;
			}
			if (now >= next_tick) {
				if (out.print)
					print_cleanup(l, out.global.busy,
						      out.line_secs);
				next_tick += NS_PER_SEC;
				/* a stopped or stuck worker must not hold
				 * the run forever */
				if (!l->pool->remote)
					pool_watch_stalled(l->pool, now);
			}
		}
		sleep_ns(POLL_NS, NULL);
	}
	l->phase_seconds[PHASE_CLEANUP] = secs(now_ns() - l->release -
					       l->stop_ns);
	if (!l->o->skip_cleanup && pool_signal_count() < 2)
		pool_remove_shared(l->pool);
}

/* This host's result, from its region. */
static struct run_result *local_result(struct loop *l)
{
	const struct run_setup *su = l->pool->su;
	int sig = pool_signal();
	bool interrupted = l->stop == COORD_INTERRUPTED || sig != 0;
	struct result_params p = {
		.programs = su->programs,
		.nprograms = su->nprograms,
		.phase = l->phase,
		.seconds = l->seconds,
		.phase_seconds = l->phase_seconds,
		.started_ns = l->started_wall,
		.ended_ns = l->ended_wall,
		.nprocs = l->pool->nprocs,
		.own_target = su->backend != NULL &&
			      (su->backend->flags & BACKEND_OWN_TARGET),
		.interrupted = interrupted,
		.signal = interrupted ? (sig ? sig : SIGINT) : 0,
		.failed = l->pool->failed || l->stop == COORD_FAILED,
		.host = l->coord->host,
		.host_facts = l->host,
		.client_ops = l->o->per_client_results ||
			      options_wants_document(l->o),
		.pass_records = l->o->show_execute_time,
	};
	struct run_result *res = result_build(l->mem, &l->pool->region, &p);

	if (res != NULL && l->series != NULL)
		res->series = talloc_steal(res, l->series);
	/* the workers are reaped: their CPU is in RUSAGE_CHILDREN */
	if (res != NULL)
		result_cpu_sample(&res->cpu);
	return res;
}

/* Release the clients: the phase, the times, the line, the gate. */
static void release(struct loop *l)
{
	l->phase = l->coord->policy.phase;
	STORE(l->hdr->phase, l->phase);
	l->release = now_ns();
	l->started_wall = wall_ns();
	l->last_tick = l->release;
	pool_set_release(l->pool, l->release);
	if (l->coord->prints && !l->o->machine_readable)
		fprintf(options_text_stream(l->o), "releasing clients\n");
	check_output(l);
	noise_now(l, &l->noise_start);
	pool_open_gate(l->pool);
}

struct run_result *runloop_run(void *mem, struct run *pool, struct coord *c,
			       const struct host_facts *host, int *status)
{
	const struct dbench_options *o = pool->opts;
	struct loop *l = talloc_zero(mem, struct loop);
	struct run_result *local, *merged = NULL;
	bool ok, go = false;

	*status = 1;
	if (l == NULL)
		return NULL;
	l->mem = mem;
	l->pool = pool;
	l->coord = c;
	l->o = o;
	l->host = host;
	l->hdr = pool->region.hdr;
	if ((options_wants_document(o) || o->series_path != NULL) &&
	    ((l->series = series_new(l)) == NULL ||
	     (l->tick = talloc_zero(l, struct tick_stats)) == NULL)) {
		fprintf(stderr, "dbench: out of memory\n");
		return NULL;
	}
	ok = pool_start(mem, pool, c);
	if (c->ops->start(c, ok, &go) != 0 || !go) {
		pool_abort(mem, pool);
		*status = pool_signal() ? 128 + pool_signal() : 1;
		return NULL;
	}
	release(l);
	run_phases(l);
	finish_phases(l);
	cleanup_phase(l);
	local = local_result(l);
	if (local == NULL) {
		fprintf(stderr, "dbench: out of memory for the result\n");
		return NULL;
	}
	/* this host's noise goes with the result it heads (rank 0's under
	 * MPI: the facts are not sent between ranks) */
	local->noise = l->noise;
	if (c->ops->gather(c, mem, local, &merged) != 0)
		return NULL;
	*status = 0;
	if (merged == NULL)
		merged = local;
	merged->noise = l->noise;
	return merged;
}
