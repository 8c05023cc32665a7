/*
 * runloop.h - the run loop of one host (src/run/runloop.c).  Private to
 * src/run/.
 */
#ifndef DBENCH_RUN_RUNLOOP_H
#define DBENCH_RUN_RUNLOOP_H

#include "run/coord.h"
#include "pool.h"
#include "stats/result.h"

/*
 * Run pool's clients under coordinator c: start them, pass the start
 * barrier, release them, run the phases and the cleanup phase as c
 * decides, and build (with this host's facts host, or NULL) and gather
 * the result.  Returns the result under mem (on the printing rank the
 * merged one, elsewhere this host's) with *status 0, or NULL with
 * *status the exit status (1, or 128+signal when a signal stopped the
 * start) when the run did not start or memory ran out (said on stderr).
 */
struct run_result *runloop_run(void *mem, struct run *pool, struct coord *c,
			       const struct host_facts *host, int *status);

#endif
