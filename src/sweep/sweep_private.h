/*
 * sweep_private.h - what the files of src/sweep/ share: one run of a
 * sweep (a repeat or a curve point) and its captured result, the
 * document that holds them all, and the bounds of --slo.
 */
#ifndef DBENCH_SWEEP_PRIVATE_H
#define DBENCH_SWEEP_PRIVATE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "stats/noise.h"
#include "run/supervisor.h"
#include "sweep/sweep.h"

/* One whole run of a sweep. */
struct sweep_point {
	unsigned clients;	/* every client of the run, all ranks */
	int status;		/* the run's exit status */
	struct json_object *doc;	/* its whole --json document, or NULL
					 * when no result came back */
	double mb_per_s, ops_per_s, seconds;
	struct run_noise noise;	/* how busy the machine was besides it */
};

/*
 * Run once with nclients clients on this rank (each of setup->nranks
 * runs as many), capturing the result into *pt (pt->doc released by the
 * caller with json_object_put()).  Returns the run's exit status.
 */
int sweep_run_point(void *mem, const struct sweep_setup *setup,
		    unsigned nclients, struct sweep_point *pt);

/* Rank 0's v, the same on every rank (dbench-mpi); v on one host. */
int sweep_agree(const struct sweep_setup *setup, int v);

/* Hold stop requests (SIGINT, SIGTERM, SIGHUP) between the runs of a
 * sweep (on: from now, forgetting an earlier one; off: give the
 * handlers back); each run handles its own meanwhile. */
void sweep_between(bool on);

/* The one line a finished run gets: "... MB/sec, ... ops/sec ...". */
void sweep_point_line(FILE *f, const char *prefix,
		      const struct sweep_point *pt);

/*
 * The document of a sweep: the first run's header parts (tool, command
 * line, options, host, directories, loadfiles), start_time of the first
 * and end_time of the last run, and section under key.  Takes over
 * section.  Written to o->json_path ("-": stdout).  Returns 0 or -1
 * (said on stderr).
 */
int sweep_write_json(void *mem, const struct dbench_options *o,
		     const struct sweep_point *const *pts, unsigned n,
		     const char *key, struct json_object *section);

/* A statistics object for JSON ({n, mean, sd, ...}). */
struct json_object *sweep_stats_json(const struct sweep_stats *s);

/* --repeat N (sweep_repeat.c).  Returns the exit status. */
int sweep_repeat(void *mem, const struct sweep_setup *setup);

/* --curve (sweep_curve.c).  Returns the exit status. */
int sweep_curve(void *mem, const struct sweep_setup *setup);

/* How many stop signals came between the runs (sweep.c's handlers). */
unsigned sweep_signal_count(void);

/* The last of them (SIGINT, SIGTERM, SIGHUP), or 0. */
int sweep_signal(void);

/* Save the runs as one group in the run history (--label).  Returns
 * 0, or HISTORY_EXIT_SAVE_FAILED (said on stderr), or 128 + a stop
 * signal that came during the save (which ends a wait for a lock). */
int sweep_save(void *mem, const struct dbench_options *o, const char *kind,
	       struct json_object *summary,
	       const struct sweep_point *const *pts, unsigned n);

#endif
