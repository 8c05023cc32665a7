/*
 * cli_shared.h - what the command line's files share: the raw option
 * text popt fills, the state of one parse, and the calls between
 * cli.c (the parse), cli_table.c (the popt table), cli_check.c (checking
 * the values) and cli_backend.c (-B and the backend options).
 */
#ifndef DBENCH_CLI_SHARED_H
#define DBENCH_CLI_SHARED_H

#include <popt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"

#define EXIT_USAGE CLI_EXIT_USAGE
#define MAX_CLIENTS 100000
#define DEFAULT_BACKEND "fileio"
/* run as tbench: this backend, and a SERVER after NUMCLIENTS */
#define TBENCH_NAME "tbench"
#define TBENCH_BACKEND "sockio"
/* popt hands a string option back as one of these values (see cli_table) */
#define STRING_OPT_BASE 1000
#define STRING_OPT_MAX 48
/* ... and backend b's option i as BACKEND_OPT_BASE + b * STRIDE + i */
#define BACKEND_OPT_BASE 2000
#define BACKEND_OPT_STRIDE (BACKEND_MAX_OPTIONS + 1)

/* popt hands each --slo back as this value (it may be repeated) */
#define SLO_OPT 900
/* auto's default last client count (--curve-max) */
#define DEFAULT_CURVE_MAX 1024

/* --percentiles without a list shows these. */
#define DEFAULT_PERCENTILES "50,90,95,99,99.9"

/* A backend option as given, routed after -B is known. */
struct given_bopt {
	unsigned backend;		/* index in the registry */
	const struct poptOption *entry;	/* in the backend's own table */
	const char *arg;		/* NULL for POPT_ARG_NONE */
};

/* Raw option text (under the parse's talloc context), checked after popt
 * is done. */
struct raw_options {
	char *timelimit;
	char *warmup;
	char *loadfile;
	char *directory;
	char *backend;
	char *target_rate;
	char *clients_per_process;
	char *stagger;
	char *trunc_io;
	char *tcp_options;
	char *percentiles;
	char *json;
	char *series;
	char *label;
	char *history;
	char *dialect;
	char *warmup_max;
	char *warmup_window;
	char *warmup_bound;
	int sync_open, sync_dirs, fsync_writes, xattr, run_once, skip_cleanup;
	int per_client, machine_readable, no_resolve, stat_check, fake_io;
	int one_byte_write_fix, show_execute_time, strict, keep_going;
	int force;
	int version;
	/* a device backend's (BACKEND_DEVICE) */
	int allow_scsi_writes, allow_block_writes, force_device;
	/* --disk-test */
	char *dt_size;
	char *dt_block_size;
	char *dt_repeat;
	int disk_test, drop_caches;
	/* --curve, --curve-max, --slo (each --slo kept, in order) */
	char *curve;
	char *curve_max;
	char **slo;
	unsigned nslo;
	/* backend options in command-line order */
	struct given_bopt *bopts;
	unsigned nbopts;
};

/* One parse: the registry, the composed table and what popt found. */
struct cli_parse {
	const struct backend *const *registry;
	struct poptOption *table;
	char **str_slot[STRING_OPT_MAX];
	unsigned nstr;
	struct raw_options raw;
	bool tbench;	/* invoked as tbench: sockio, NUMCLIENTS [SERVER] */
};

/* A usage error: "dbench: " and the message on stderr; returns the
 * exit status of a usage error. */
__attribute__((format(printf, 1, 2)))
static inline int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dbench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/* Build cp->table from cp->raw and cp->registry.  Returns 0 or -1. */
int cli_table(void *mem, struct cli_parse *cp);

/*
 * s with the password of every URL in it (scheme://USER:PASSWORD@HOST)
 * shown as "***"; a copy under mem (NULL: out of memory).
 */
char *cli_mask_url(void *mem, const char *s);

/*
 * The next password of a URL in s (scheme://USER:PASSWORD@HOST...): its
 * start and *len, or NULL when s has no more (cli_mask.c).
 */
const char *cli_url_password(const char *s, size_t *len);

/* Check a load run's options (clients: NUMCLIENTS as given) into *cli.
 * Returns 0 or the exit status of a usage error (said on stderr). */
int cli_resolve_options(void *mem, const struct cli_parse *cp,
			const char *clients, struct cli *cli);

/* Check --disk-test's options into *o.  Returns 0 or the exit status. */
int cli_disk_test_options(void *mem, const struct cli_parse *cp,
			  poptContext pc, struct dbench_options *o);

/* --repeat, --curve, --curve-max and --slo of a load run into *o.
 * Returns 0 or the exit status. */
int cli_sweep_options(void *mem, const struct raw_options *raw,
		      struct dbench_options *o);

/* A curve: the percentiles of its table and of its bounds added to
 * o's, so that every run's document has them (response times come
 * with those only).  Returns 0 or 1 (out of memory). */
int cli_sweep_percentiles(void *mem, struct dbench_options *o);

/* -B, its options and -T into *o and *out.  Returns 0 or the exit
 * status. */
int cli_backend_options(void *mem, const struct cli_parse *cp,
			struct dbench_options *o, const struct backend **out);

/* -T, for the socket backend only (be NULL: --disk-test).  Returns 0 or
 * the exit status. */
int cli_tcp_options(const struct raw_options *raw, const struct backend *be,
		    struct dbench_options *o);

#endif
