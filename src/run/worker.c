/*
 * worker.c - a worker process of the pool: prepare its clients, wait at
 * the start gate, then run them (the worker's loop, the per-op path of the
 * run) until each has stopped, and clean up after them.  The parent's
 * side is pool.c.
 */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <talloc.h>
#include <unistd.h>

#include "util/atomic.h"
#include "engine/client.h"
#include "pool.h"
#include "util/util.h"
#include "worker.h"

/* a worker's memory pool: see worker_pool() */
#define WORKER_POOL_BASE   (256u * 1024)
#define WORKER_POOL_CLIENT (64u * 1024)

/* Prepare the worker's clients (each marked ready or failed); 0, or 1
 * when one could not be prepared. */
static int worker_prepare(struct run *run, const struct worker *w, void *mem,
			  struct client **cl)
{
	const struct run_setup *su = run->su;
	const struct dbench_options *opts = run->opts;
	struct stats_region *r = &run->region;
	int rc = 0;

	for (unsigned i = 0; i < w->n; i++) {
		unsigned slot = w->first + i;
		unsigned id = stats_client_id(r, slot);
		unsigned pi = id % su->nprograms;
		unsigned d = id % opts->ndirectories;

		STORE(r->slots[slot].directory, d);
		cl[i] = client_new(mem, opts, su->programs[pi], pi,
				   su->backend, opts->directories[d], r, slot);
		if (cl[i] == NULL) {
			worker_set_state(&r->live[slot], CLIENT_FAILED);
			rc = 1;
		} else {
			worker_set_state(&r->live[slot], CLIENT_READY);
		}
	}
	return rc;
}

/*
 * The rest of client i's turn in the worker's loop, after the hot path
 * (a client not waiting ran a line: res) or instead of it (a client that
 * waits, wake[i] != 0): start it when its time has come and run its line,
 * and note what it waits for.  Returns true when the client has ended
 * (its end noted).  *rc becomes 1 when it failed.  wake[i] is when it may
 * run next (0: now).
 */
static bool worker_turn(struct run *run, const struct worker *w,
			struct client **cl, uint64_t *wake, unsigned i,
			enum client_step_result res, int *rc)
{
	struct stats_region *r = &run->region;
	struct client_live *s = &r->live[w->first + i];

	if (wake[i] != 0) {
		uint64_t now = now_ns();

		if (now < wake[i] && !LOAD(r->hdr->stop))
			return false;
		wake[i] = 0;
		if (LOAD(s->state) == CLIENT_READY)
			client_start(cl[i], now);
		res = client_step(cl[i]);
	}
	if (res == STEP_WAIT) {
		/* 0 means "now" here: a wake time of 0 cannot be */
		wake[i] = client_wake_at(cl[i]) | 1;
		return false;
	}
	if (res == STEP_OK || (res == STEP_PASS_DONE && !run->opts->run_once))
		return false;
	STORE(s->end_ns, now_ns());
	if (res == STEP_FAILED) {
		worker_set_state(s, CLIENT_FAILED);
		*rc = 1;
	}
	return true;
}

/*
 * Run the worker's clients from the release (staggered with --stagger)
 * until each has stopped; 0, or 1 when one failed.  An event loop: a
 * client whose line must wait (a timestamp, the pace, SLEEP, WAITSP) is
 * passed over until its time, so the clients of one process progress as
 * if each had its own, and when all of them wait the process sleeps
 * until the earliest wake-up, or the stop, whichever comes first.
 * (Kept out of line, so that its loop sits with the per-op path rather
 * than inside the parent's start code.)
 */
HOT_PATH __attribute__((noinline))
static int worker_run(struct run *run, const struct worker *w,
		      struct client **cl, bool *done, uint64_t *wake)
{
	struct stats_region *r = &run->region;
	uint64_t release = LOAD(r->hdr->release_ns);
	unsigned active = w->n;
	bool alone = w->n == 1;
	int rc = 0;

	for (unsigned i = 0; i < w->n; i++) {
		wake[i] = release;
		if (run->opts->stagger > 0)
			wake[i] += (uint64_t)(w->first + i) * 10000000ull;
		if (wake[i] == release) {
			client_start(cl[i], release);
			wake[i] = 0;
		}
	}
	while (active > 0) {
		uint64_t earliest = UINT64_MAX;
		bool ran = false;

		for (unsigned i = 0; i < w->n; i++) {
			enum client_step_result res = STEP_WAIT;

			if (done[i])
				continue;
			/* the hot path: a client that does not wait runs
			 * (alone in its process, on and on: between its
			 * steps there is nothing else to do) */
			if (wake[i] == 0) {
				do
					res = client_step(cl[i]);
				while (res == STEP_OK && alone);
				if (res == STEP_OK) {
					ran = true;
					continue;
				}
			}
			if (worker_turn(run, w, cl, wake, i, res, &rc)) {
				done[i] = true;
				active--;
			} else if (wake[i] == 0) {
				ran = true;
			} else if (wake[i] < earliest) {
				earliest = wake[i];
			}
		}
		if (!ran && active > 0)
			sleep_until_ns(earliest, &r->hdr->stop);
	}
	return rc;
}

/*
 * The parent coordinates the stop: a worker ignores the signals that ask
 * for one (SIGINT, SIGTERM, SIGHUP), so that a signal to the whole process
 * group (timeout, systemd, kill -- -PGID) reaches the parent alone in
 * effect, and the workers stop on its stop word, finish their op and
 * clean up.  What must end a worker outright is SIGKILL (as the parent
 * does on a second signal, or to a worker stalled in the cleanup), and
 * its parent's death (PR_SET_PDEATHSIG).
 */
static void worker_signals(void)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
}

/*
 * The worker's memory: a pool of fresh pages instead of the heap
 * inherited from the parent (each heap page written in a fresh process is
 * a copy-on-write fault and a private page: preparing a client took
 * 1.6 ms of CPU, 0.9 ms with the pool, 0.7 s less before 1,024 clients
 * start).  malloc maps a block this large on its own only while its
 * threshold for that is the default: a large block the parent freed
 * raises it, and the pool then came from the heap, some 250 KB more of
 * each worker's memory at 1,024 clients.  What does not fit, or is
 * allocated after the pool is spent, comes from malloc as usual.
 */
void *worker_pool(const struct worker *w)
{
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	return talloc_pool(NULL, WORKER_POOL_BASE +
					 (size_t)w->n * WORKER_POOL_CLIENT);
}

int worker_main(struct run *run, const struct worker *w, int gate_fd,
		       pid_t parent)
{
	struct stats_region *r = &run->region;
	void *mem = worker_pool(w);
	struct client **cl = talloc_zero_array(mem, struct client *, w->n);
	bool *done = talloc_zero_array(mem, bool, w->n);
	uint64_t *wake = talloc_zero_array(mem, uint64_t, w->n);
	int rc = 0;
	char b;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	worker_signals();
	/* the stall watch's heartbeat: these pages are shared */
	util_beat_at((uint64_t *)&w->beat);

	if (cl == NULL || done == NULL || wake == NULL) {
		fprintf(stderr, "dbench: client %u: out of memory\n",
			stats_client_id(r, w->first));
		for (unsigned i = 0; i < w->n; i++)
			worker_set_state(&r->live[w->first + i], CLIENT_FAILED);
		return 1;
	}
	rc = worker_prepare(run, w, mem, cl);
	if (rc != 0) {
		talloc_free(mem);
		return rc;
	}

	while (read(gate_fd, &b, 1) < 0 && errno == EINTR)
		;
	close(gate_fd);

	rc = worker_run(run, w, cl, done, wake);

	for (unsigned i = 0; i < w->n; i++) {
		struct client_live *s = &r->live[w->first + i];
		bool failed = client_failed(cl[i]);

		if (client_cleanup(cl[i]) != 0) {
			failed = true;
			rc = 1;
		}
		worker_set_state(s, failed ? CLIENT_FAILED : CLIENT_DONE);
	}
	talloc_free(mem);
	return rc;
}
