/*
 * cli.h - the command line: argv to a checked struct dbench_options.
 *
 * cli_parse() composes the popt table (the common options and every
 * backend's sub-table), parses argv, routes each backend option to its
 * backend and checks every value before anything is forked or written.
 * dbench_main() then only dispatches on the action.
 */
#ifndef DBENCH_CLI_H
#define DBENCH_CLI_H

#include "backends/backend.h"
#include "util/options.h"

/* Exit status of a usage error. */
#define CLI_EXIT_USAGE 2

enum cli_action {
	CLI_RUN = 0,		/* a load run: NUMCLIENTS clients */
	CLI_DISK_TEST,		/* --disk-test */
	CLI_VERSION,		/* --version */
};

struct cli {
	enum cli_action action;
	struct dbench_options opts;	/* checked (CLI_RUN, CLI_DISK_TEST) */
	const struct backend *backend;	/* CLI_RUN: the one selected */
	const char *loadfile_arg;	/* -c as given; NULL: the default */
};

/*
 * Parse argv against the backends of registry (NULL-terminated; main
 * passes backend_registry).  Returns 0 with *cli filled (everything it
 * points to lives under mem_ctx or in argv), or the exit status after a
 * one-line "dbench: ..." message on stderr: CLI_EXIT_USAGE for a usage
 * error, 1 for an internal one (out of memory, a malformed registry).
 * --help and --usage print and exit(0) from inside popt.
 */
int cli_parse(void *mem_ctx, int argc, const char **argv,
	      const struct backend *const *registry, struct cli *cli);

#endif
