/*
 * coord_policy.c - the time rules of a run, applied by the deciding rank
 * of every coordinator (coord.h): stop at once on a signal, a failure or
 * when every client has ended; tick once a second; switch from warmup to
 * execute after --warmup seconds, or with --warmup auto at a steady state
 * (steady.h) or --warmup-max seconds; stop --timelimit seconds later; end
 * the time at the last client's end when they all ended by themselves.
 */
#include "config.h"

#include <string.h>

#include "run/coord.h"
#include "util/util.h"

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

void coord_policy_init(struct coord_policy *p, const struct dbench_options *o)
{
	memset(p, 0, sizeof(*p));
	p->opts = o;
	p->phase = o->warmup > 0 ? PHASE_WARMUP : PHASE_EXECUTE;
	if (o->warmup_auto)
		steady_init(&p->steady, o->warmup_window, o->warmup_bound_pct);
}

/*
 * --warmup auto: feed the detector the lines per second since its last
 * sample, over the time the sample really covers (a late tick's is
 * longer, the next one's shorter); whether the run is steady now.
 */
static bool steady_now(struct coord_policy *p, uint64_t elapsed_ns,
		       const struct coord_sample *g)
{
	double rate;

	if (elapsed_ns <= p->ss_ns)
		return false;
	/* (the counts only grow; a sample taken while a client moves its
	 * count between phases is no reason to wrap) */
	rate = g->lines < p->ss_lines ? 0 :
	       (double)(g->lines - p->ss_lines) /
	       secs(elapsed_ns - p->ss_ns);
	p->ss_lines = g->lines;
	p->ss_ns = elapsed_ns;
	return steady_add(&p->steady, rate);
}

/* A reason to stop now, whatever the time; COORD_RUN if none. */
static enum coord_stop must_stop(const struct coord_sample *g)
{
	if (g->signal != 0)
		return COORD_INTERRUPTED;
	if (g->failed > 0)
		return COORD_FAILED;
	if (g->running == 0)
		return COORD_FINISHED;
	return COORD_RUN;
}

/* A whole second since the release: the progress line, phase switch or
 * the time limit. */
static void on_tick(struct coord_policy *p, uint64_t elapsed_ns,
		    const struct coord_sample *g, struct coord_out *out)
{
	const struct dbench_options *o = p->opts;
	/* whole seconds since the release; a late tick skips the seconds
	 * it missed rather than printing them in a burst */
	unsigned k = (unsigned)(elapsed_ns / NS_PER_SEC);

	/* as in dbench, the time limit is the execute phase's length; the
	 * warmup comes on top of it */
	if (p->phase == PHASE_EXECUTE && k >= p->exec_k + (unsigned)o->timelimit) {
		/* the last second shows as cleanup, but the series has it */
		p->stop = out->stop = COORD_TIMELIMIT;
		return;
	}
	out->print = true;
	if (p->phase == PHASE_WARMUP && o->warmup_auto &&
	    steady_now(p, elapsed_ns, g))
		p->steady_reached = true;
	if (p->phase == PHASE_WARMUP &&
	    (p->steady_reached || k >= (unsigned)o->warmup)) {
		p->exec_k = k;
		p->phase = PHASE_EXECUTE;
		p->phase_start_ns = elapsed_ns;
		out->phase = p->phase;
	}
}

void coord_policy_step(struct coord_policy *p, enum coord_when when,
		       uint64_t elapsed_ns, const struct coord_sample *g,
		       struct coord_out *out)
{
	uint64_t stop = elapsed_ns;

	out->phase = p->phase;
	out->stop = COORD_RUN;
	out->print = false;
	out->line_phase = p->phase;
	out->line_secs = secs(elapsed_ns - p->phase_start_ns);
	out->stop_ns = 0;
	switch (when) {
	case COORD_POLL:
	case COORD_TICK:
		p->stop = out->stop = must_stop(g);
		if (out->stop == COORD_RUN && when == COORD_TICK)
			on_tick(p, elapsed_ns, g, out);
		break;
	case COORD_FINAL:
		out->stop = p->stop;
		if (p->stop == COORD_FINISHED) {
			/* the clients ended by themselves: time ends with
			 * the last */
			if (g->end_ns > p->phase_start_ns && g->end_ns < stop)
				stop = g->end_ns;
			out->print = true;
		}
		out->stop_ns = stop;
		out->line_secs = secs(stop - p->phase_start_ns);
		break;
	case COORD_CLEANUP:
		out->phase = PHASE_CLEANUP;
		out->stop = g->alive == 0 ? COORD_FINISHED : COORD_RUN;
		out->print = true;
		break;
	}
}
