/*
 * client_private.h - the state of one client of the replay engine,
 * shared by the engine's files (client.c: the replay, client_setup.c:
 * creation and cleanup) and by the tests of record.h.
 */
#ifndef DBENCH_ENGINE_CLIENT_PRIVATE_H
#define DBENCH_ENGINE_CLIENT_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"
#include "engine/client.h"
#include "stats/histogram.h"
#include "util/options.h"
#include "loadfile/program.h"
#include "stats/stats.h"
#include "vfs/vfs.h"

/* latencies staged for the histograms (struct client.hstage) */
#define CLIENT_HSTAGE		128
#define CLIENT_HSTAGE_BUCKET_BITS 16
_Static_assert(HIST_BUCKETS <= 1u << CLIENT_HSTAGE_BUCKET_BITS,
	       "a staged latency's bucket fits its bits");

struct loop_frame {
	uint32_t start;		/* index of the first op in the body */
	int64_t left;		/* iterations still to run, this one included */
};

/*
 * What the engine remembers about a handle slot, for error messages.  All
 * zero is the initial state: the table is calloc'ed, so the slots a client
 * has not used yet cost no memory (our default loadfile has 55,000).
 */
struct handle_info {
	uint32_t open_op;	/* 1 + last NTCreateX on it, 0 if none */
	uint32_t close_op;	/* 1 + last Close on it, 0 if none */
	uint32_t open_status;
	int open_err;
	bool open;
};

struct client {
	/*
	 * What every op reads or writes comes first, together: each of the
	 * op's system calls evicts most of the first-level cache, so every
	 * cache line the engine touches after it is a miss of its own.
	 */
	const struct program *prog;
	backend_op_fn const *be_ops;	/* be->ops */
	void *be_state;
	struct stats_header *hdr;	/* region->hdr */
	struct client_slot *slot;
	struct client_live *live;	/* its entry in region->live */
	struct handle_info *handles;
	const struct dbench_options *opts;
	uint32_t pc;
	uint32_t seen_phase;
	int64_t repeat_left;		/* runs of the op at pc still owed */
	uint64_t paced_bytes;		/* bytes since start, for -R */
	unsigned nhstage;		/* latencies in hstage */
	bool failed;
	/* facts of the run, fixed at client_new (read at every op) */
	bool paced;		/* -R or a timed loadfile: ops may wait */
	bool series;		/* a series or JSON report reads the ticks */
	bool no_status;		/* be->flags & BACKEND_NO_STATUS */
	bool relative;		/* prog->relative: keep last_arg */
	/* the paths of the op being run and their directories, for a vfs
	 * that keeps directories open (cfg.hint) */
	struct vfs_hint hint;

	const struct backend *be;
	struct stats_region *region;
	unsigned id;			/* client id: names its tree */
	unsigned slot_index;		/* its slot in the region */
	/* its response times when the run has a schedule (paced), else
	 * NULL (struct client_response) */
	struct client_response *resp;

	/*
	 * Paths are resolved when an op runs, into scratch[0] and [1]:
	 * copying 50 bytes costs less than keeping a resolved copy of every
	 * path per client (Debian's client.txt has 261 distinct paths, our
	 * default loadfile 8,535: half a megabyte per client, and thousands
	 * of allocations at start-up).
	 */
	char cname[24];			/* "client<N>": the substitution */
	size_t cname_len;
	char *scratch[2];
	size_t scratch_len[2];
	/* scratch[k] starts with 8 bytes of a path's text before its
	 * substitution point ("clients/", as spelled) and cname: only the
	 * rest of the next such path needs copying */
	bool scratch_kept[2];
	char **randstr;			/* RANDOMSTRING values, per index */

	struct loop_frame *loops;	/* program->max_loop_depth frames */
	uint32_t depth;
	/* last value of each argument of each measured op kind, for +y
	 * (kept only when the program has one: relative) */
	int64_t last_arg[OP_NUM_MEASURED][PROGRAM_MAX_ARGS];

	const char *pattern;		/* WRITEPATTERN text, NULL = zeros */
	size_t pattern_len;
	uint8_t *wbuf;
	size_t wbuf_len;		/* bytes of wbuf filled with the pattern */
	void *zeros_owner;		/* talloc owner of the zeros mapping */
	const uint8_t *zeros;		/* never-written anonymous pages */
	size_t zeros_len;

	uint64_t rng;
	uint64_t start_ns;
	uint64_t pass_start_ns;
	uint64_t wake_ns;		/* STEP_WAIT: until when (monotonic) */
	uint64_t late_ns;		/* paced: how late the op being run
					 * started; UINT64_MAX: not due */
	uint64_t sleep_until;		/* a SLEEP at pc in progress, or 0 */

	/*
	 * Latencies on their way to the histograms (hist_flush()): the
	 * bucket (hist_index()) in the low CLIENT_HSTAGE_BUCKET_BITS bits,
	 * the op kind above.  Counted at once, each latency found its
	 * bucket's cache line evicted by the op's own system calls: a miss
	 * an op, 4% of a worker's user time on client.txt.  A batch is
	 * counted in a loop with no call in it, where the misses overlap.
	 * The op's count, sum and maximum are written at once, as before:
	 * the parent reads those every second, the histograms only once
	 * the clients have stopped (every way out of client_step() but
	 * STEP_OK and STEP_WAIT flushes).
	 */
	uint32_t hstage[CLIENT_HSTAGE];
};

/* At least n bytes of the current WRITEPATTERN (zeros without one) for a
 * write to carry; NULL when out of memory (client_setup.c). */
const uint8_t *client_write_data(struct client *c, size_t n);

/* What became of the handle op used ("" when nothing to say), talloc'd
 * on c, for a fatal INVALID_HANDLE message (client_fault.c). */
char *client_handle_story(struct client *c, const struct op *op);

/* Whether a status that did not match the loadfile's ends the client
 * under the run's policy (--strict, --keep-going or the default), and
 * whether errno err is a fault that says the system cannot carry the
 * load (fatal under the default policy only) (client_fault.c). */
bool client_mismatch_is_fatal(const struct client *c, const struct op *op,
			      uint32_t status);
bool client_fault_is_fatal(const struct client *c, int err);

#endif
