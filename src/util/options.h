/*
 * options.h - the resolved command line.
 *
 * cli_parse() (src/cli/) fills one struct dbench_options from argv and
 * checks it; every other module receives it as const.  There are no
 * global options.
 */
#ifndef DBENCH_OPTIONS_H
#define DBENCH_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum mismatch_policy {
	MISMATCH_DEFAULT = 0,	/* fatal only where the replay becomes meaningless */
	MISMATCH_STRICT,	/* every mismatch is fatal */
	MISMATCH_KEEP_GOING,	/* none is fatal; exit 1 at the end if any */
};

/*
 * The text shapes of the progress lines and the report: dbench 4.00's
 * (Debian, the Phoronix Test Suite) or the 5.0 line's (upstream git and
 * the fork mmtests builds).  README "Output dialects" lists the
 * differences.
 */
enum output_dialect {
	DIALECT_400 = 0,
	DIALECT_50,
};

struct dbench_options {
	/* the client count, kept here once: every client this process (one
	 * rank of dbench-mpi) runs; the clients_*() helpers below compute
	 * every other count from it */
	unsigned nclients;
	int timelimit;			/* seconds */
	int warmup;			/* seconds */
	const char **loadfiles;		/* client i uses loadfiles[i % nloadfiles] */
	unsigned nloadfiles;
	const char **directories;	/* client i uses directories[i % ndirectories] */
	unsigned ndirectories;
	const char *backend;		/* registry name, "fileio" by default */
	/* the selected backend's own options object (its ->option and
	 * ->options_done hooks made it; NULL when they made none) */
	const void *backend_opts;
	const char *tcp_options;	/* -T: only for a BACKEND_SOCKETS backend */
	double target_rate;		/* MB/s per client, 0 = unpaced */
	unsigned clients_per_process;	/* >= 1 */
	unsigned stagger;		/* > 0: client i starts i * 10 ms late */
	int64_t trunc_io;		/* > 0: cap every read/write at this size */

	bool sync_open;			/* -s: O_SYNC */
	bool sync_dirs;			/* -S: fsync parent after namespace ops */
	bool fsync_writes;		/* -F: fsync after every write */
	bool xattr;			/* -x */
	bool run_once;
	bool skip_cleanup;
	bool force;			/* --force: past the memory estimate */
	bool per_client_results;
	bool machine_readable;
	bool no_resolve;
	bool stat_check;
	bool fake_io;
	bool one_byte_write_fix;
	bool show_execute_time;
	/* a device backend (BACKEND_DEVICE): --allow-scsi-writes or
	 * --allow-block-writes lets it write; --force-device lets it use a
	 * device that holds something (a filesystem, a partition table) */
	bool allow_device_writes;
	bool force_device;
	enum output_dialect dialect;	/* --output-dialect, or implied */
	enum mismatch_policy mismatch;

	/* --disk-test mode (src/disktest/disktest.c) */
	bool disk_test;
	bool drop_caches;		/* --drop-caches (root) */
	uint64_t disk_test_size;	/* --size bytes, 0 = 1 GiB or what fits */
	uint64_t disk_test_block;	/* --block-size bytes */
	unsigned disk_test_repeat;	/* --repeat */
	/* results (--percentiles, --json, --series) */
	bool show_percentiles;		/* print the percentile table */
	const double *percentiles;	/* ascending, each in (0, 100] */
	unsigned npercentiles;
	const char *json_path;		/* NULL: no JSON document; "-":
					 * stdout (the text goes to stderr) */
	const char *series_path;	/* NULL: no CSV series */
	/* several runs in one command (src/sweep/) */
	unsigned repeat;		/* --repeat on a load run: runs (0, 1:
					 * once, as without it) */
	bool curve;			/* --curve */
	bool curve_auto;		/* --curve=auto, or bare */
	const unsigned *curve_points;	/* --curve=LIST: NUMCLIENTS values,
					 * ascending, distinct */
	unsigned ncurve_points;
	unsigned curve_max;		/* --curve-max: auto's last count */
	const struct sweep_bound *bounds;	/* --slo, in the given order */
	unsigned nbounds;
	/* a network backend's server, for the results: the option that
	 * names it as given (URL passwords masked), the protocol ("smb",
	 * "nfs", "tbench"), the SMB dialects asked for; NULL: none */
	const char *server_url;
	const char *server_protocol;
	const char *server_smb_protocol;
	const char *label;		/* --label: save the run to the
					 * history; NULL: nothing saved */
	const char *history_path;	/* with label: the database file */
	int argc;			/* the command line, for the JSON */
	const char *const *argv;
	/* --warmup auto: warmup ends at a steady state (steady.h), or
	 * after `warmup` seconds (--warmup-max) at the latest */
	bool warmup_auto;
	unsigned warmup_window;		/* seconds that must agree */
	double warmup_bound_pct;	/* their range, % of their mean */
};

/*
 * Is the run's whole result document wanted (--json, or --label, which
 * saves it)?  Without one, nothing only the document shows is gathered.
 */
static inline bool options_wants_document(const struct dbench_options *o)
{
	return o->json_path != NULL || o->label != NULL;
}

/*
 * Where the text (header, progress, report) goes: stdout, or stderr when
 * the JSON document goes to stdout (--json -).
 */
static inline FILE *options_text_stream(const struct dbench_options *o)
{
	return o->json_path != NULL && strcmp(o->json_path, "-") == 0 ?
		       stderr : stdout;
}

/*
 * The client count: the one arithmetic of NUMCLIENTS, --clients-per-
 * process and the ranks of dbench-mpi.  NUMCLIENTS (the command line's,
 * a --curve point's) counts worker processes, each of per_process
 * clients; a --curve point counts those of every rank, the command line
 * one rank's.  A run keeps only o->nclients, its rank's clients.
 */

/*
 * The clients one rank runs for numclients worker processes spread
 * evenly over ranks ranks (1 on one host; numclients a multiple of
 * ranks) of per_process clients each.
 */
static inline unsigned clients_count(unsigned numclients, unsigned ranks,
				     unsigned per_process)
{
	return numclients / ranks * per_process;
}

/*
 * The clients of ranks ranks that run nclients each: every rank's
 * together (ranks = all of them), or the first client id of rank r
 * (ranks = r).
 */
static inline unsigned clients_total(unsigned nclients, unsigned ranks)
{
	return nclients * ranks;
}

/* The worker processes o's clients take: one per --clients-per-process
 * clients, the last holding what is left. */
static inline unsigned clients_procs(const struct dbench_options *o)
{
	return (o->nclients + o->clients_per_process - 1) /
	       o->clients_per_process;
}

/* How many clients worker process p (below clients_procs(o)) runs, the
 * first of them *first. */
static inline unsigned clients_of_proc(const struct dbench_options *o,
				       unsigned p, unsigned *first)
{
	unsigned left;

	*first = p * o->clients_per_process;
	left = o->nclients - *first;
	return left < o->clients_per_process ? left : o->clients_per_process;
}

#endif
