/*
 * pace.h - when a paced op is due (a timed loadfile's timestamp, or the
 * -R pace), the wait for it, and its response time from then (struct
 * client_response).  Static, in a header, for client_step() to inline:
 * only paced clients (client.paced) call them, so an unpaced op pays one
 * test of that flag before it runs and one after.
 */
#ifndef DBENCH_ENGINE_PACE_H
#define DBENCH_ENGINE_PACE_H

#include "client_private.h"
#include "stats/stats.h"
#include "util/util.h"

/*
 * When the op may run: its timestamp (timed loadfiles) or the -R pace; 0
 * when it has no due time.  The same answer however often it is asked
 * until the op has run (it depends on the bytes done so far and the pass
 * start only), so a client that was told to wait simply asks again.
 */
static inline uint64_t op_due(const struct client *c, const struct op *op)
{
	double at, t;

	if (c->opts->target_rate > 0)
		at = (double)c->paced_bytes / (c->opts->target_rate * 1e6) *
		     1e9 + (double)c->start_ns;
	else if (c->prog->times != NULL &&
		 (t = c->prog->times[op - c->prog->ops]) >= 0)
		at = t * 1e9 + (double)c->pass_start_ns;
	else
		return 0;
	/* a time beyond the clock's range is "never": only the stop ends it */
	return at >= 1.8e19 ? UINT64_MAX : (uint64_t)at;
}

/*
 * A paced op: true when it must wait for its due time (c->wake_ns says
 * until when); else how late it starts goes to c->late_ns (UINT64_MAX:
 * it has no due time) for its response time.
 */
static inline bool pace_wait(struct client *c, const struct op *op)
{
	uint64_t due = op_due(c, op), now;

	c->late_ns = UINT64_MAX;
	if (due == 0)
		return false;
	now = now_ns();
	if (due > now) {
		c->wake_ns = due;
		return true;
	}
	c->late_ns = now - due;
	return false;
}

/* After a paced op of kind k and service time lat: its response time,
 * from when it was due (the delay it started with, plus lat). */
static inline void pace_record(struct client *c, unsigned k, uint64_t lat)
{
	if (c->late_ns != UINT64_MAX && c->resp != NULL)
		stats_response_record(c->resp, k, c->late_ns + lat);
}

#endif
