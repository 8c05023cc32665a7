/*
 * dbench_main.c - dbench's program as a function: the command line
 * (cli.c) says what to do; this loads the loadfiles and runs them, or
 * runs --disk-test, or prints the version, and returns the exit status
 * (0 success, 1 the run failed, 2 usage error).  The run and the -D lock
 * go through hooks so that dbench-mpi can run the same program on every
 * rank.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "cli/cli.h"
#include "cli/dbench_main.h"
#include "safety/dirlock.h"
#include "history/history.h"
#include "stats/host.h"
#include "disktest/disktest.h"
#include "util/options.h"
#include "loadfile/program.h"
#include "report/report.h"
#include "safety/memcheck.h"
#include "safety/rlimits.h"
#include "run/supervisor.h"
#include "sweep/sweep.h"
#include "util/util.h"

/* --disk-test with the checked options o.  Returns the exit status. */
static int run_disk_test(void *mem, struct dbench_options *o,
			 const struct dbench_hooks *hooks)
{
	struct disktest_config cfg = {
		.dirs = o->directories,
		.ndirs = o->ndirectories,
		.size = o->disk_test_size,
		.block_size = o->disk_test_block,
		.repeat = o->disk_test_repeat,
		.drop_caches = o->drop_caches,
	};
	struct disktest_result *res = NULL;
	struct host_facts *host;
	struct timespec started, ended;
	char *why = NULL;
	int rc;

	/* one dbench per directory; released with mem */
	if (hooks->dirlock_acquire(mem, o->directories, o->ndirectories,
				   &why) == NULL) {
		fprintf(stderr, "dbench: %s\n", why);
		return CLI_EXIT_USAGE;
	}
	host = options_wants_document(o) ?
	       host_facts_gather(mem, o->directories, o->ndirectories) : NULL;
	clock_gettime(CLOCK_REALTIME, &started);
	rc = disktest_main(mem, &cfg, options_wants_document(o) ? &res : NULL);
	clock_gettime(CLOCK_REALTIME, &ended);
	if (res != NULL) {
		rc = report_disktest_write(mem, o, res, host, &started, &ended,
					   rc);
		talloc_free(res);
	}
	return rc;
}

/*
 * Compile every loadfile once (a file given twice is compiled once).
 * Returns the programs, or NULL after a message with *rc set.
 */
static struct program **compile_loadfiles(void *mem,
					  const struct dbench_options *o,
					  int *rc)
{
	struct program **progs = talloc_array(mem, struct program *,
					      o->nloadfiles);

	*rc = 1;
	if (progs == NULL)
		return NULL;
	for (unsigned i = 0; i < o->nloadfiles; i++) {
		char *err = NULL;

		progs[i] = NULL;
		for (unsigned j = 0; j < i; j++)
			if (strcmp(o->loadfiles[j], o->loadfiles[i]) == 0)
				progs[i] = progs[j];
		if (progs[i] == NULL)
			progs[i] = program_compile(mem, o->loadfiles[i], &err);
		if (progs[i] == NULL) {
			fprintf(stderr, "dbench: %s\n",
				err ? err : "cannot compile the loadfile");
			*rc = CLI_EXIT_USAGE;
			return NULL;
		}
	}
	*rc = 0;
	return progs;
}

/*
 * Everything checked before a load run starts (a half-started run is
 * worse than none): the loadfiles compiled into *progs and checked
 * against the backend, the sweep's counts, the resource limits (a
 * sweep's with its largest client count), the memory of a -D in memory
 * (*in_memory), the -D lock (released with mem).  Returns 0, or the exit
 * status after a message.
 */
static int load_prepare(void *mem, const struct cli *cli,
			const struct dbench_hooks *hooks,
			struct program ***progs, bool *in_memory)
{
	const struct dbench_options *o = &cli->opts;
	const struct backend *be = cli->backend;
	struct dbench_options checked;
	char *why = NULL;
	int rc;

	*progs = compile_loadfiles(mem, o, &rc);
	if (*progs == NULL)
		return rc;
	for (unsigned i = 0; i < o->nloadfiles; i++)
		if (backend_program_check(mem, be, (*progs)[i], &why) != 0 ||
		    (be->program_check != NULL &&
		     be->program_check(mem, o, (*progs)[i], &why) != 0))
			goto usage;
	if (sweep_check(mem, o, *progs, hooks->nranks ? hooks->nranks() : 1,
			&checked, &why) != 0) {
		why = why ? why : "out of memory";
		goto usage;
	}
	if (rlimits_check(mem, &checked, be, *progs, o->nloadfiles,
			  &why) != 0) {
		why = why ? why : "resource limits too low";
		goto usage;
	}
	/* a -D in memory that the clients' data would fill; one dbench
	 * per directory, where the backend works in -D */
	if ((be->flags & BACKEND_LOCAL_FS) &&
	    (memcheck_run(mem, o, *progs, o->nloadfiles, o->force, in_memory,
			  &why) != 0 ||
	     hooks->dirlock_acquire(mem, o->directories, o->ndirectories,
				    &why) == NULL))
		goto usage;
	return 0;
usage:
	fprintf(stderr, "dbench: %s\n", why);
	return CLI_EXIT_USAGE;
}

/* The load run's first lines, flushed: nobody would see the results of
 * a run whose output cannot be written.  Returns 0 or the exit status. */
static int load_header(const struct cli *cli)
{
	const struct dbench_options *o = &cli->opts;
	const char *load = cli->loadfile_arg ? cli->loadfile_arg :
					       o->loadfiles[0];
	FILE *text = options_text_stream(o);

	fprintf(text, "dbench %s - a dbench-compatible filesystem load "
		"generator\n\n", PACKAGE_VERSION);
	if (o->warmup_auto)
		fprintf(text, "Running for %d seconds with load '%s' after a "
			"warmup until steady, at most %d secs\n",
			o->timelimit, load, o->warmup);
	else
		fprintf(text, "Running for %d seconds with load '%s' and "
			"minimum warmup %d secs\n", o->timelimit, load,
			o->warmup);
	errno = 0;
	if (fflush(text) == 0 && !ferror(text))
		return 0;
	fprintf(stderr, "dbench: writing the output: %s\n",
		strerror(errno ? errno : EIO));
	return errno == EPIPE ? 128 + SIGPIPE : 1;
}

/* A load run with the checked command line cli: checks, header, then
 * the run or the sweep.  Returns the exit status. */
static int run_load(void *mem, const struct cli *cli,
		    const struct dbench_hooks *hooks)
{
	const struct dbench_options *o = &cli->opts;
	struct program **progs = NULL;
	bool in_memory = false;
	int rc;

	/* a closed stdout would be the first file a client opens */
	if (fcntl(STDOUT_FILENO, F_GETFD) == -1) {
		fprintf(stderr, "dbench: standard output is closed: nowhere "
			"to write the results\n");
		return 1;
	}
	if ((rc = load_prepare(mem, cli, hooks, &progs, &in_memory)) != 0 ||
	    (rc = load_header(cli)) != 0)
		return rc;
	{
		struct run_setup su = {
			.opts = o,
			.programs = progs,
			.nprograms = o->nloadfiles,
			.backend = cli->backend,
			.report = report_write_all,
			.memory_target = in_memory,
		};
		struct sweep_setup ss = {
			.base = &su,
			.run = hooks->run,
			.nranks = hooks->nranks ? hooks->nranks() : 1,
			.agree = hooks->agree,
			.rank = hooks->rank ? hooks->rank() : 0,
		};

		return sweep_wanted(o) ? sweep_main(mem, &ss) :
					 hooks->run(mem, &su);
	}
}

/* One line of -V's feature list: NAME, yes or no, what it gives. */
static void feature_line(const char *name, const char *why_not,
			 const char *what)
{
	if (why_not == NULL)
		printf("  %-8s yes  %s\n", name, what);
	else
		printf("  %-8s no   %s: %s\n", name, what, why_not);
}

/*
 * --version: "dbench VERSION" (the line scripts read, unchanged), then
 * the optional features this dbench was built with, as configure's
 * summary names them.
 */
static void print_version(const struct backend *const *registry)
{
	static const char *const backends[] = { "smb", "nfs", "iscsi" };

	printf("dbench %s\n", PACKAGE_VERSION);
	printf("features:\n");
	feature_line("history", history_available() ? NULL :
		     "built without SQLite (install libsqlite3-dev and run "
		     "configure again)", "--label saves runs");
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		const struct backend *b = backend_find_in(registry,
							  backends[i]);
		char what[32];

		if (b == NULL)
			continue;
		snprintf(what, sizeof(what), "-B %s", backends[i]);
		feature_line(backends[i], b->unavailable, what);
	}
#ifdef HAVE_BLKID
	feature_line("blkid", NULL, "-B block/scsi see what a device holds");
#else
	feature_line("blkid", "built without libblkid (install "
		     "libblkid-dev and run configure again)",
		     "-B block/scsi see what a device holds");
#endif
}

int dbench_main(int argc, const char **argv,
		const struct dbench_hooks *hooks)
{
	struct dbench_hooks use = {
		.run = supervisor_run,
		.dirlock_acquire = dirlock_acquire,
	};
	void *mem = talloc_new(NULL);
	struct cli cli;
	int rc;

	if (hooks != NULL && hooks->run != NULL)
		use.run = hooks->run;
	if (hooks != NULL && hooks->dirlock_acquire != NULL)
		use.dirlock_acquire = hooks->dirlock_acquire;
	if (hooks != NULL) {
		use.nranks = hooks->nranks;
		use.agree = hooks->agree;
		use.rank = hooks->rank;
	}

	if (mem == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		return 1;
	}
	rc = cli_parse(mem, argc, argv, backend_registry, &cli);
	if (rc == 0) {
		switch (cli.action) {
		case CLI_VERSION:
			print_version(backend_registry);
			break;
		case CLI_DISK_TEST:
			rc = run_disk_test(mem, &cli.opts, &use);
			break;
		case CLI_RUN:
			rc = run_load(mem, &cli, &use);
			break;
		}
	}
	talloc_free(mem);
	/* sanitized builds: LeakSanitizer's check, safe from a late SIGCONT
	 * (what it prints goes after everything dbench printed) */
	fflush(NULL);
	util_leak_check_alone();
	return rc;
}
