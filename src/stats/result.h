/*
 * result.h - the result of a run, self-contained: everything the report
 * writers need, with no pointer into the shared statistics region or the
 * compiled programs.
 *
 * One host builds its result from its region once the run is over
 * (result_build()).  Results of several hosts (or of parts of one region)
 * combine with result_merge(): counts and sums add up, maxima take the
 * larger, histograms merge bucket by bucket (never averaged), clients and
 * host facts are concatenated, and the first mismatch of an op is the one
 * with the earliest wall-clock time.  result_serialise() turns a result into a
 * compact byte buffer (little-endian, histograms sparse: only non-zero
 * buckets) and result_parse() reads it back, so another process or host
 * can send one.
 *
 * Ownership: a result is one talloc tree; everything it points to is a
 * talloc child of it.
 */
#ifndef DBENCH_RESULT_H
#define DBENCH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/host.h"
#include "stats/noise.h"
#include "loadfile/program.h"
#include "stats/series.h"
#include "stats/stats.h"

/* A histogram in sparse form: the non-zero buckets, in ascending order. */
struct result_hist {
	uint32_t n;
	uint32_t *bucket;	/* bucket index (histogram.h) */
	uint64_t *count;
};

/* One op kind's figures for one client. */
struct result_client_op {
	uint32_t kind;		/* enum op_kind, < OP_NUM_MEASURED */
	uint64_t count;		/* in the reported phase */
	uint64_t sum_ns;
	uint64_t max_ns;
	uint64_t errors;	/* mismatches, fatal or not, whole run */
	struct result_hist hist;
};

struct result_client {
	uint32_t client_id;	/* names clients/clientN */
	uint32_t host;		/* host (rank) label slot: 0 on one host */
	uint32_t directory;	/* index of its target directory (-D) */
	char *loadfile;		/* the loadfile it ran */
	uint64_t lines;		/* in the reported phase */
	uint64_t bytes;
	uint64_t read_bytes;	/* of bytes, ReadX's */
	uint64_t passes;	/* whole run */
	uint32_t npass;		/* pass records (--show-execute-time) */
	struct pass_record *pass;
	uint32_t nops;		/* per-op figures, when kept; by kind */
	struct result_client_op *ops;
};

/* The first non-fatal mismatch of an op kind, and how many there were. */
struct result_mismatch {
	uint64_t count;		/* not fatal */
	uint64_t fatal;		/* stopped their client */
	uint64_t phase_count;	/* of count, in the reported phase */
	/* the first one; valid when wall_ns != 0 */
	uint64_t wall_ns;	/* CLOCK_REALTIME, ns since the epoch */
	uint32_t client_id;
	bool has_op;		/* false: where it happened is unknown */
	char *loadfile;		/* NULL unless has_op */
	uint32_t line;		/* loadfile line */
	char *path;		/* first path as the client saw it, or NULL */
	uint32_t check;		/* enum status_check of the op */
	uint32_t expected_status;
	int64_t expected_found;	/* FIND_FIRST: entries expected */
	uint32_t status;	/* what came back */
	int32_t err;		/* errno behind it, 0 if none */
	int64_t found;		/* FIND_FIRST: entries found, or -1 */
};

/* CPU use of a host's dbench processes (parent and workers), getrusage(). */
struct result_cpu {
	double user_s;
	double system_s;
	uint64_t voluntary_switches;
	uint64_t involuntary_switches;
};

struct run_result {
	uint32_t phase;		/* enum run_phase whose counters these are */
	double seconds;		/* that phase's duration */
	double phase_seconds[PHASE_DONE];	/* every phase's duration */
	uint64_t started_ns;	/* CLOCK_REALTIME: the release */
	uint64_t ended_ns;	/* ... when the clients stopped */
	uint64_t setup_sum_ns;	/* the clients' backend setups (connections), */
	uint64_t setup_max_ns;	/* summed and the longest: in no op */
	uint32_t nprocs;	/* worker processes */
	uint32_t nclients;
	bool own_target;	/* the backend's target is a server its own
				 * options name (BACKEND_OWN_TARGET): the
				 * setups above are connections */
	bool interrupted;
	int32_t signal;		/* the signal that interrupted it, or 0 */
	bool failed;		/* a client failed or a worker died */

	uint64_t lines;		/* reported phase, all clients */
	uint64_t bytes;
	uint64_t read_bytes;	/* of bytes, ReadX's; the rest WriteX's */
	struct result_cpu cpu;	/* whole run, every host's added up */
	struct op_stats ops[OP_NUM_MEASURED];	/* dense histograms */
	struct result_mismatch mm[OP_NUM_MEASURED];
	/* with a schedule (a timed loadfile, -R): response times from when
	 * each op was due, [OP_NUM_MEASURED] (struct client_response);
	 * NULL without one */
	struct op_stats *response;

	uint32_t nclient_results;	/* in client order */
	struct result_client *clients;

	struct series *series;	/* NULL when not collected */

	/* the facts of the hosts, gathered at the start of the run: one per
	 * host (its label in .host), in merge order; none when not given */
	uint32_t nhost_facts;
	struct host_facts *host_facts;

	/* a job of several hosts (dbench-mpi): host_names[label] names the
	 * host of clients[].host; nhosts 0 on one host.  Set on the merged
	 * result only: neither serialised nor merged. */
	uint32_t nhosts;
	char **host_names;

	/* --warmup auto: the warmup ended at a steady state (not at its
	 * maximum).  Set on the merged result by the deciding rank only:
	 * neither serialised nor merged. */
	bool warmup_steady;

	/* how busy the machine was besides dbench over the reported phase:
	 * this host's (rank 0's under dbench-mpi).  Set on the merged result
	 * only: neither serialised nor merged. */
	struct run_noise noise;
};

/* What result_build() cannot read from the region. */
struct result_params {
	struct program *const *programs;	/* slot.program indexes it */
	unsigned nprograms;
	uint32_t phase;		/* the phase to report */
	double seconds;
	const double *phase_seconds;	/* PHASE_DONE values, or NULL */
	uint64_t started_ns, ended_ns;
	unsigned nprocs;
	bool own_target;	/* the run's backend has BACKEND_OWN_TARGET */
	bool interrupted;
	int signal;
	bool failed;
	unsigned host;		/* label of this host's clients */
	const struct host_facts *host_facts;	/* this host's, or NULL */
	bool client_ops;	/* keep per-client op figures */
	bool pass_records;	/* keep the clients' pass records */
	/* the slots to take: [first_slot, first_slot + nslots); nslots
	 * 0 = all */
	unsigned first_slot, nslots;
};

/*
 * Build the result of the slots chosen in p from region r (read once the
 * clients have stopped writing).  Returns a new result under mem_ctx, or
 * NULL when out of memory.
 */
struct run_result *result_build(void *mem_ctx, const struct stats_region *r,
				const struct result_params *p);

/* A new, empty result under mem_ctx (the identity of result_merge()). */
struct run_result *result_new(void *mem_ctx);

/*
 * Add src into dst (see the top of this file); src is left unchanged.
 * Durations and end time take the larger, start time the earlier, the
 * phase is dst's unless dst is empty.  Series rows add up row by row
 * (worst and p99 latency: the larger).  Returns 0, or -1 when out of
 * memory (dst is then partly merged).
 */
int result_merge(struct run_result *dst, const struct run_result *src);

/*
 * The serialised form of r: a new buffer under mem_ctx and its length in
 * *len.  Returns NULL when out of memory.
 */
uint8_t *result_serialise(void *mem_ctx, const struct run_result *r,
			  size_t *len);

/*
 * Read a buffer written by result_serialise().  Returns a new result
 * under mem_ctx, or NULL when buf is malformed or truncated (never reads
 * past len) or out of memory.
 */
struct run_result *result_parse(void *mem_ctx, const uint8_t *buf,
				size_t len);

/*
 * A client's op figures in the dense form the writers use: ops[k] and
 * errors[k] for every measured kind.  ops must start zeroed the first
 * time; later calls clear only what the previous one set.
 */
void result_client_expand(const struct result_client *c,
			  struct op_stats *ops, uint64_t *errors);

/*
 * The CPU this process and its reaped children used so far
 * (getrusage(RUSAGE_SELF) + getrusage(RUSAGE_CHILDREN)).  Call it after
 * the workers are reaped.
 */
void result_cpu_sample(struct result_cpu *cpu);

/* The facts of host label host in r, or NULL when r has none. */
const struct host_facts *result_host_facts(const struct run_result *r,
					   uint32_t host);

/* The worst latency over all op kinds. */
uint64_t result_max_latency(const struct op_stats *ops);

/* Bytes per second as dbench's MB/sec (10^6 bytes); 0 when seconds <= 0. */
double result_mbps(uint64_t bytes, double seconds);

/* r's measured ops per second over its reported phase (r->seconds);
 * 0 when seconds <= 0. */
double result_ops_per_s(const struct run_result *r);

/* An op kind's mean latency in ms (0 when it never ran). */
double result_avg_ms(const struct op_stats *s);

#endif
