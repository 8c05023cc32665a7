/*
 * pool_signal.c - what the pool knows of stop requests (SIGINT, SIGTERM,
 * SIGHUP and a lost output), and the bounds and descriptions that depend
 * on them: the stall bound in force, the loadfile line a client was at.
 * pool.c installs the handler; pool.c, pool_trees.c, the watchdog and
 * the run loop read it.  It calls nothing of theirs.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/atomic.h"
#include "loadfile/program.h"
#include "pool.h"
#include "util/timer.h"
#include "util/util.h"

/* a repeat of a signal from the same sender within this is the same
 * request sent twice (see pool_on_signal()): timeout and systemd send both at
 * once; a script that means two sends them further apart */
#define SIGNAL_ECHO_NS (50 * 1000000ull)

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t signal_count;
static volatile sig_atomic_t last_sender;	/* pid, 0 = the kernel */
static uint64_t last_signal_ns;

/*
 * Note a stop request.  `timeout` and systemd send the same signal to the
 * process and then to its whole group, so the parent gets it twice from
 * one sender within microseconds: that is one request, not the "second
 * Ctrl-C" that abandons the cleanup.  A repeat from another sender, or
 * later than SIGNAL_ECHO_NS, or from the terminal (which signals each
 * process of the group once) does count.
 */
void pool_on_signal(int sig, siginfo_t *si, void *ctx)
{
	uint64_t now = now_ns();
	pid_t from = si != NULL && si->si_code == SI_USER ? si->si_pid : 0;

	(void)ctx;
	if (signal_count > 0 && from != 0 && from == last_sender &&
	    sig == got_signal && now - last_signal_ns < SIGNAL_ECHO_NS)
		return;
	got_signal = sig;
	last_sender = from;
	last_signal_ns = now;
	signal_count++;
}

/* Forget the requests of an earlier run (pool.h). */
void pool_signals_reset(void)
{
	got_signal = 0;
	signal_count = 0;
}

int pool_signal(void)
{
	return got_signal;
}

unsigned pool_signal_count(void)
{
	return (unsigned)signal_count;
}

void pool_output_lost(struct run *run, int err)
{
	if (err == EPIPE)
		got_signal = SIGPIPE;
	else
		run->failed = true;
}

/* The loadfile line a client was at, for crash reports (pool.h). */
void pool_describe_position(FILE *f, const struct run *run, unsigned c)
{
	const struct client_slot *s = &run->region.slots[c];
	const struct program *prog =
		run->su->programs[s->program % run->su->nprograms];
	uint32_t i = LOAD(run->region.live[c].cur_op);

	if (i < prog->nops)
		fprintf(f, " at %s:%u (%s)", prog->filename,
			prog->ops[i].line, op_info[prog->ops[i].kind].name);
}

uint64_t pool_stall_ns(const struct run *run)
{
	if (!run->remote)
		return POOL_STALL_SECONDS * NS_PER_SEC;
	if (got_signal)
		return POOL_SIGNAL_STALL_MS * 1000000ull;
	if (run->preparing)
		return POOL_SETUP_STALL_SECONDS * NS_PER_SEC;
	return POOL_REMOTE_STALL_SECONDS * NS_PER_SEC;
}
