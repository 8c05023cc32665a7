/*
 * client.h - one client's replay of a compiled program.
 *
 * A worker process owns one or more clients.  Each client resolves its
 * paths once (client_new), then client_step() runs the program one line at
 * a time: control commands are handled here, measured ops go through the
 * backend, are timed (timer.h: the invariant TSC or CLOCK_MONOTONIC) and
 * recorded in the client's own stats slot.  Nothing here exits the
 * process; fatal problems are reported on stderr once, with their
 * context, and returned.  The names of a client's files are
 * client_tree.h's.
 */
#ifndef DBENCH_CLIENT_H
#define DBENCH_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "backends/backend.h"
#include "loadfile/client_tree.h"	/* client_dir_name() */
#include "util/options.h"
#include "loadfile/program.h"
#include "stats/stats.h"

struct client;

enum client_step_result {
	STEP_OK = 0,		/* ran one line; call again */
	STEP_PASS_DONE,		/* finished a pass (and stops with --run-once) */
	STEP_STOPPED,		/* the parent asked the clients to stop */
	STEP_FAILED,		/* a fatal error; the message was printed */
	STEP_WAIT,		/* the line must wait (a timestamp, the -R
				 * pace, SLEEP, WAITSP): nothing was done;
				 * call again at client_wake_at() or later */
};

/* How often a WAITSP looks at the other client's SETSP (ns). */
#define CLIENT_SP_POLL_NS 100000u

/*
 * Create the client whose stats live in region->slots[slot], running
 * `prog` in `directory` through backend `be`.  Its client id (which names
 * its tree, its messages and its "$client" substitution) is
 * stats_client_id(region, slot), recorded in the slot.  Sets up the
 * backend.  Returns NULL on failure after printing why on stderr.  The
 * client is a talloc child of mem_ctx; freeing it releases the backend.
 */
struct client *client_new(void *mem_ctx, const struct dbench_options *opts,
			  const struct program *prog, unsigned prog_index,
			  const struct backend *be, const char *directory,
			  struct stats_region *region, unsigned slot);

/* Mark the start of the run (the gate opened at start_ns). */
void client_start(struct client *c, uint64_t start_ns);

/*
 * Run the next line of the program.  Never sleeps: a line that has to
 * wait returns STEP_WAIT without side effects (calling again early is
 * harmless, it just waits again), and a stop (the region's stop word)
 * returns STEP_STOPPED whatever the client was waiting for.
 */
enum client_step_result client_step(struct client *c);

/*
 * After STEP_WAIT: the CLOCK_MONOTONIC time (ns) at which the line may
 * run (UINT64_MAX: only a stop ends the wait; a WAITSP asks to be polled
 * again after CLIENT_SP_POLL_NS).
 */
uint64_t client_wake_at(const struct client *c);

/*
 * Remove the client's tree (clients/clientN) unless --skip-cleanup.
 * Returns 0, or -1 after printing why.
 */
int client_cleanup(struct client *c);

/* True once the client has failed (a fatal mismatch or error). */
bool client_failed(const struct client *c);

#endif
