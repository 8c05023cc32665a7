/*
 * coord.h - the coordinator of a run: what the run loop asks of whoever
 * decides for the whole run (one process on one host, or rank 0 of an MPI
 * job).
 *
 * The run loop (src/run/runloop.c) never decides a phase or a stop by
 * itself.  At the start it says whether its clients are prepared and
 * waits for the release (start); then, every poll interval and at every
 * whole second since the release, it hands in a sample of its own clients
 * and applies what comes back (step): the phase to run in, whether to
 * stop, and, on the rank that prints, the sample of the whole run for the
 * progress line and the series.  At the end it hands in its result and
 * gets the merged one on the rank that prints (gather).
 *
 * The time rules (warmup, then --timelimit seconds of execute, the last
 * partial second when the clients end by themselves) are one policy,
 * coord_policy_step(), that the deciding rank of every coordinator
 * applies to the run-wide sample.
 *
 * coord_local (src/run/coord_local.c) is the coordinator of a run on one
 * host: the local sample is the whole run's.  A second coordinator (MPI)
 * is another file implementing struct coord_ops; the run loop does not
 * change.
 */
#ifndef DBENCH_COORD_H
#define DBENCH_COORD_H

#include <stdbool.h>
#include <stdint.h>

#include "util/options.h"
#include "stats/result.h"
#include "stats/stats.h"
#include "stats/steady.h"

/* Why the run loop calls step(). */
enum coord_when {
	COORD_POLL = 0,	/* every poll interval: only the client states */
	COORD_TICK,	/* a whole second since the release: with sums */
	COORD_FINAL,	/* the run has stopped: sums and the last end */
	COORD_CLEANUP,	/* cleanup phase: once a second, and when the
			 * last local worker is gone */
};

enum coord_stop {
	COORD_RUN = 0,		/* go on */
	COORD_FINISHED,		/* every client ended by itself */
	COORD_TIMELIMIT,	/* the execute phase is over */
	COORD_FAILED,		/* a client failed or a worker died */
	COORD_INTERRUPTED,	/* SIGINT, SIGTERM or SIGHUP */
};

/* What the progress lines of the preparation and the cleanup count. */
enum coord_count {
	COORD_COUNT_PREPARED = 0,	/* worker processes prepared */
	COORD_COUNT_BUSY,		/* clients still cleaning up */
	COORD_COUNT_N
};

/* A sample of clients: this host's (in) or the whole run's (out). */
struct coord_sample {
	uint32_t clients;	/* clients sampled */
	uint32_t running;	/* preparing, ready or running */
	uint32_t started;	/* running, cleaning up or done */
	uint32_t failed;	/* failed clients, + 1 if a worker died */
	uint32_t busy;		/* neither done nor failed */
	uint32_t alive;		/* worker processes not reaped yet */
	int32_t signal;		/* a signal received, 0 = none */
	/* COORD_TICK and COORD_FINAL only: */
	uint64_t lines;		/* loadfile lines done since the release */
	uint64_t bytes;		/* bytes moved in the current phase */
	uint64_t max_ns;	/* worst latency of the current second */
	uint64_t end_ns;	/* FINAL: last client's end, ns since release */
	struct tick_stats *tick; /* the second's ops for the series, or NULL
				  * (the out sample's belongs to the
				  * coordinator) */
};

/* What the deciding rank decided, for every rank. */
struct coord_out {
	uint32_t phase;		/* the phase to run in from now on */
	enum coord_stop stop;	/* COORD_RUN: go on */
	bool print;		/* this rank prints a progress line now */
	uint32_t line_phase;	/* the phase that line and the series row
				 * describe (before a switch) */
	double line_secs;	/* seconds into that phase */
	uint64_t stop_ns;	/* FINAL: when the phase's time ended, ns
				 * since the release */
	struct coord_sample global;	/* the whole run (printing rank) */
};

/* The time rules' state, kept by the deciding rank. */
struct coord_policy {
	const struct dbench_options *opts;
	uint32_t phase;
	enum coord_stop stop;	/* why the run stopped, once it has */
	unsigned exec_k;	/* the second the execute phase began */
	uint64_t phase_start_ns;	/* since the release */
	/* --warmup auto: the detector, fed each second's lines */
	struct steady steady;
	bool steady_reached;	/* the warmup ended at a steady state */
	uint64_t ss_lines;	/* lines since the release at ss_ns */
	uint64_t ss_ns;		/* when the last sample was taken */
};

struct coord;

struct coord_ops {
	const char *name;
	/*
	 * Optional: this host's pool is made and the paths it must not
	 * remove are noted, no client is forked yet.  A barrier for hosts
	 * that share directories (no host creates anything before every
	 * host has looked).  Returns 0, or -1 (said on stderr).
	 */
	int (*noted)(struct coord *c);
	/*
	 * The start barrier: local_ok is false when this host's clients
	 * could not all be prepared (or a signal came).  Blocks until every
	 * host has said; *go is true when all were ready and the clients
	 * may be released.  Returns 0, or -1 when the coordination itself
	 * failed (said on stderr).
	 */
	int (*start)(struct coord *c, bool local_ok, bool *go);
	/*
	 * One step of the run loop at elapsed_ns since the release (see
	 * enum coord_when): local is this host's sample; fills out.  Returns
	 * 0, or -1 when the coordination failed (the run loop then stops as
	 * for COORD_FAILED).
	 */
	int (*step)(struct coord *c, enum coord_when when, uint64_t elapsed_ns,
		    const struct coord_sample *local, struct coord_out *out);
	/*
	 * The final gather: local is this host's result.  On the printing
	 * rank *merged is the whole run's (under mem_ctx, or local itself);
	 * elsewhere NULL.  Returns 0, or -1 (said on stderr).
	 */
	int (*gather)(struct coord *c, void *mem_ctx, struct run_result *local,
		      struct run_result **merged);
	/*
	 * Optional (NULL: this host is the run): the count of what a
	 * progress line shows, over every host.  Each host calls it with
	 * its own count (final: it will not change any more), when it
	 * changes and at least once a second; it never blocks.  On the
	 * printing host it returns the sum of every host's latest count
	 * and sets *others_final when every other host's count is final;
	 * elsewhere it returns local.
	 */
	unsigned (*count)(struct coord *c, enum coord_count what,
			  unsigned local, bool final, bool *others_final);
	/*
	 * Optional: after the run, around the update of the record of kept
	 * trees (enter true, then false), which hosts sharing a directory
	 * must not make at once: the hosts take turns, and leaving waits
	 * until every host has left, so that no host is still working when
	 * the job ends.  Bounded; a failure only loses the turns.
	 */
	void (*serial)(struct coord *c, bool enter);
};

struct coord {
	const struct coord_ops *ops;
	const struct dbench_options *opts;
	bool prints;		/* this rank prints the progress and report */
	unsigned client_id_base;	/* first client id of this host */
	unsigned host;		/* this host's label (rank), 0 on one host */
	unsigned nhosts;	/* hosts of the run (ranks), 1 on one host */
	struct coord_policy policy;	/* used by the deciding rank */
	void *priv;		/* the implementation's */
};

/* The coordinator of a run on one host, under mem_ctx (NULL: no memory). */
struct coord *coord_local_new(void *mem_ctx, const struct dbench_options *o);

/* Start the time rules: the first phase (warmup, or execute without). */
void coord_policy_init(struct coord_policy *p, const struct dbench_options *o);

/*
 * Apply the time rules to the run-wide sample g at elapsed_ns since the
 * release (see enum coord_when), filling out (all but out->global).
 * Only the deciding rank calls it.
 */
void coord_policy_step(struct coord_policy *p, enum coord_when when,
		       uint64_t elapsed_ns, const struct coord_sample *g,
		       struct coord_out *out);

#endif
