/*
 * pool.h - the worker processes of one host (src/run/pool.c; the
 * workers' own side is worker.c, the cleanup phase's watch watchdog.c),
 * as the run loop sees them: fork them, hold them at the start gate,
 * release them, reap them, count their clients' states, signal them.
 * Private to src/run/.
 */
#ifndef DBENCH_RUN_POOL_H
#define DBENCH_RUN_POOL_H

#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>

#include "run/coord.h"
#include "stats/stats.h"
#include "run/supervisor.h"

struct worker {
	pid_t pid;
	unsigned first;		/* first slot it runs */
	unsigned n;		/* clients it runs */
	bool reaped;
	int status;		/* from waitpid */
	/* the cleanup phase's watch (pool_watch_stalled()) */
	uint64_t progress;	/* signature of what it was last seen doing */
	uint64_t progress_ns;	/* when that last changed (monotonic) */
	bool said_stopped;	/* "is stopped" said on stderr */
	bool stalled;		/* ended by the parent: no progress */
	/* the heartbeat of what it completes beyond its lines (util_beat(),
	 * written by the worker: these pages are shared) */
	uint64_t beat;
	/* pid is now the process removing the trees of its clients after
	 * it died (forked by the parent, watched as the worker was) */
	bool cleaning;
};

/* A path the loadfiles create outside the per-client trees. */
struct shared_path {
	char *text;
	bool *existed;		/* per target directory, before the run */
};

/* The pool of one host's workers (named `run` for the shared-path and
 * cleanup functions that take it). */
struct run {
	const struct run_setup *su;
	const struct dbench_options *opts;
	struct stats_region region;
	struct worker *workers;
	unsigned nprocs;
	unsigned alive;		/* workers not reaped yet */
	struct shared_path *shared;
	unsigned nshared;
	bool failed;		/* a client failed or a worker died */
	bool abandon;		/* a second signal: no more cleanup */
	unsigned stalls;	/* processes the stall watch killed */
	bool remote;		/* the backend is BACKEND_REMOTE */
	bool preparing;		/* before the gate: the clients' setup */
	int gate[2];		/* the start gate: workers block reading it */
};

/*
 * Before the pool is made: refuse the run when a client tree it will
 * make (clients/clientN of client ids client_id_base.. in the -D entry
 * each maps to) already holds something, so that removing the trees
 * removes only what the run created (the backend's ->trees_check looks;
 * trees an earlier run kept with --skip-cleanup and recorded count as its).
 * Returns 0, 2 (a usage error) after saying why on stderr, or 1 out of
 * memory.
 */
int pool_check_trees(void *mem, const struct run_setup *su,
		     unsigned client_id_base);

/*
 * After the run (the clients' cleanup done or skipped): have the backend
 * record, per -D entry, the client trees it kept with --skip-cleanup, so
 * that pool_check_trees() lets a later run use them, and forget those
 * that are gone (->trees_kept).  A failure to record kept trees is said on
 * stderr; the run's result does not change.  A remote backend's is
 * bounded as pool_remove_shared()'s.
 */
void pool_note_kept(const struct run *run, unsigned client_id_base);

/*
 * A pool for su's clients under mem, with its statistics region mapped
 * (client ids from client_id_base), the shared paths noted and the gate
 * made; signal handlers are installed.  NULL after saying why on stderr.
 * pool_free() undoes it.
 */
struct run *pool_new(void *mem, const struct run_setup *su,
		     unsigned client_id_base);
void pool_free(struct run *run);

/*
 * Fork the workers; they prepare their clients and wait at the gate.
 * Then wait until all are prepared (saying so once a second when c
 * prints, counting every host's processes through c->ops->count; the
 * printing host then also waits, boundedly, until every host is done
 * preparing).  Returns true when every client here is ready, false when
 * one failed, a worker died, a signal came or a fork failed.
 */
bool pool_start(void *mem, struct run *run, struct coord *c);

/* Note the release time in the region (before pool_open_gate()). */
void pool_set_release(struct run *run, uint64_t release_ns);

/* Release every client. */
void pool_open_gate(struct run *run);

/* The run did not start: release everyone into a stop, reap them all,
 * remove the shared paths. */
void pool_abort(void *mem, struct run *run);

/* Reap the workers that have exited (all of them when block); returns
 * how many are still alive. */
unsigned pool_reap(void *mem, struct run *run, bool block);

/* A second signal: kill every worker (and cleanup process) and reap
 * them; nothing more is cleaned up. */
void pool_abandon(void *mem, struct run *run);

/* Send sig to every worker not reaped. */
void pool_kill(struct run *run, int sig);

/* The client states and workers of this host into s (the counts only). */
void pool_count(const struct run *run, struct coord_sample *s);

/* The latest end of a client (CLOCK_MONOTONIC ns), 0 if none ended. */
uint64_t pool_last_end(const struct run *run);

/*
 * How long a worker may make no progress in the cleanup phase before the
 * parent ends it (SIGKILL), in seconds.  Progress is anything it is seen
 * to do: a client's line or state changing, CPU time, being scheduled
 * (so a slow removal on a busy disk is progress, a SIGSTOP or a system
 * call that never returns is not).
 */
#define POOL_STALL_SECONDS 10

/*
 * The same bound for the clients of a BACKEND_REMOTE backend, whose
 * progress is only what they complete (lines, util_beat()): a server
 * that stops answering holds the run no longer than this after the stop
 * (then the trees of the clients killed are removed by a process of
 * their own, under the same bound, or reported as left behind).  After
 * SIGINT, SIGTERM or SIGHUP the bound is POOL_SIGNAL_STALL_MS.
 */
#define POOL_REMOTE_STALL_SECONDS 3
#define POOL_SIGNAL_STALL_MS 500
/* ... and while they prepare (connect, log on), before the run (above
 * tbench's own 10 s, so that its clients say what they waited for) */
#define POOL_SETUP_STALL_SECONDS 12

/* The stall bound in force now (ns): see the two above. */
uint64_t pool_stall_ns(const struct run *run);

/* Say on stderr the trees of worker w's clients, left behind. */
void pool_say_left(const struct run *run, const struct worker *w);

/*
 * Worker w died without cleaning up: remove its clients' trees from a
 * process of its own that takes w's place (see pool_trees.c); and what
 * to say when that process has ended with status.
 */
void pool_cleanup_after(void *mem, struct run *run, struct worker *w);
void pool_cleaner_exited(const struct run *run, const struct worker *w,
			 int status);

/*
 * The cleanup phase's watch, once a second: a worker found stopped
 * (SIGSTOP, a debugger) is named on stderr once; a worker that made no
 * progress for POOL_STALL_SECONDS is named, killed with SIGKILL, its
 * clients marked failed (the run fails: exit 1) and, once reaped, its
 * clients' trees removed by the parent.  Returns how many it killed.
 */
unsigned pool_watch_stalled(struct run *run, uint64_t now);

/* The loadfile line client slot c was at, for reports of a worker that
 * died or stalled: " at FILE:LINE (OP)" on f, or nothing. */
void pool_describe_position(FILE *f, const struct run *run, unsigned c);

/* Remove the shared paths the run created (see note_shared_paths()). */
void pool_remove_shared(const struct run *run);

/* The last signal received (SIGINT, SIGTERM, SIGHUP) or 0, and how many. */
int pool_signal(void);

/*
 * The text output failed with errno err: stop the run as SIGPIPE would
 * (err EPIPE: the run counts as interrupted by it) or as a failure.
 */
void pool_output_lost(struct run *run, int err);

/* Stop the run as a failure (exit status 1); the clients still clean up. */
void pool_fail(struct run *run);
unsigned pool_signal_count(void);

/* pool_signal.c: the handler of SIGINT, SIGTERM and SIGHUP that pool.c
 * installs (a repeat from the same sender within 50 ms is one request),
 * and the reset of what it noted, before a run. */
void pool_on_signal(int sig, siginfo_t *si, void *ctx);
void pool_signals_reset(void);

/* Whether the ops have due times (-R, or a timed loadfile): then their
 * response times are kept as well (struct client_response). */
static inline bool pool_scheduled(const struct run_setup *su)
{
	if (su->opts->target_rate > 0)
		return true;
	for (unsigned i = 0; i < su->nprograms; i++)
		if (su->programs[i]->times != NULL)
			return true;
	return false;
}

#endif
