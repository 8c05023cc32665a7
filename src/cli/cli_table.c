/*
 * cli_table.c - the popt table of one parse: the common options (their
 * help text is --help's), each backend's sub-table under its name, and
 * popt's own help options.
 */
#include "config.h"

#include <popt.h>
#include <stdbool.h>
#include <string.h>
#include <talloc.h>

#include "cli_shared.h"

/* --label and --history in a dbench built without SQLite: marked */
#ifdef HAVE_SQLITE3
#define HISTORY_HELP_NOTE ""
#define HISTORY_HELP_MARK ""
#else
#define HISTORY_HELP_NOTE " (not built: no SQLite; install libsqlite3-dev)"
#define HISTORY_HELP_MARK " (not built)"
#endif
#define LABEL_HELP "save the run to the history under this name" \
	HISTORY_HELP_NOTE

/* The common options; every arg points into raw.  backend_help is -B's
 * (the registry's backends, backend_list_text()). */
static struct poptOption *common_table(void *mem, struct raw_options *raw,
				       const char *backend_help, size_t *n)
{
	const struct poptOption table[] = {
		{ "timelimit", 't', POPT_ARG_STRING, &raw->timelimit, 0,
		  "seconds of the execute phase, after the warmup (600)",
		  "SECS" },
		{ "warmup", 0, POPT_ARG_STRING, &raw->warmup, 0,
		  "warmup seconds (timelimit/5; 0 with --run-once), or auto: "
		  "until the throughput is steady", "SECS|auto" },
		{ "warmup-max", 0, POPT_ARG_STRING, &raw->warmup_max, 0,
		  "--warmup auto: the longest warmup (timelimit)", "SECS" },
		{ "warmup-window", 0, POPT_ARG_STRING, &raw->warmup_window, 0,
		  "--warmup auto: seconds that must agree (5)", "SECS" },
		{ "warmup-bound", 0, POPT_ARG_STRING, &raw->warmup_bound, 0,
		  "--warmup auto: their spread, % of their mean (10)", "PCT" },
		{ "loadfile", 'c', POPT_ARG_STRING, &raw->loadfile, 0,
		  "loadfile(s); client i uses file i mod n", "FILE[,FILE...]" },
		{ "directory", 'D', POPT_ARG_STRING, &raw->directory, 0,
		  "target directory(s); client i uses dir i mod n (.)",
		  "DIR[,DIR...]" },
		{ "backend", 'B', POPT_ARG_STRING, &raw->backend, 0,
		  backend_help, "NAME" },
		{ "target-rate", 'R', POPT_ARG_STRING, &raw->target_rate, 0,
		  "pace each client to this rate", "MB/s" },
		{ "sync", 's', POPT_ARG_NONE, &raw->sync_open, 0,
		  "open files with O_SYNC", NULL },
		{ "sync-dir", 'S', POPT_ARG_NONE, &raw->sync_dirs, 0,
		  "fsync the directory after unlink, rmdir, mkdir, rename",
		  NULL },
		{ "fsync", 'F', POPT_ARG_NONE, &raw->fsync_writes, 0,
		  "fsync after every write", NULL },
		{ "xattr", 'x', POPT_ARG_NONE, &raw->xattr, 0,
		  "do the extended-attribute calls Samba would", NULL },
		{ "clients-per-process", 0, POPT_ARG_STRING,
		  &raw->clients_per_process, 0,
		  "K clients in each of the NUMCLIENTS processes: "
		  "NUMCLIENTS x K clients (1)", "K" },
		{ "run-once", 0, POPT_ARG_NONE, &raw->run_once, 0,
		  "run the loadfile once per client, then stop", NULL },
		{ "skip-cleanup", 0, POPT_ARG_NONE, &raw->skip_cleanup, 0,
		  "leave the clients' files behind", NULL },
		{ "per-client-results", 0, POPT_ARG_NONE, &raw->per_client, 0,
		  "show results per client", NULL },
		{ "machine-readable", 0, POPT_ARG_NONE, &raw->machine_readable,
		  0, "machine-readable progress and results", NULL },
		{ "no-resolve", 0, POPT_ARG_NONE, &raw->no_resolve, 0,
		  "no case-insensitive name resolution", NULL },
		{ "stat-check", 0, POPT_ARG_NONE, &raw->stat_check, 0,
		  "skip calls a stat shows to be pointless", NULL },
		{ "fake-io", 0, POPT_ARG_NONE, &raw->fake_io, 0,
		  "skip reads and writes but count their bytes", NULL },
		{ "one-byte-write-fix", 0, POPT_ARG_NONE,
		  &raw->one_byte_write_fix, 0,
		  "turn 1-byte writes at end of file into truncates", NULL },
		{ "trunc-io", 0, POPT_ARG_STRING, &raw->trunc_io, 0,
		  "cap every read and write at this size", "BYTES" },
		{ "show-execute-time", 0, POPT_ARG_NONE,
		  &raw->show_execute_time, 0,
		  "print each client's time for every pass (implies "
		  "--output-dialect=5.0 unless given)", NULL },
		{ "output-dialect", 0, POPT_ARG_STRING, &raw->dialect, 0,
		  "text shapes of dbench 4.00 (default) or 5.0", "4.00|5.0" },
		{ "stagger", 'O', POPT_ARG_STRING, &raw->stagger, 0,
		  "N > 0: client i starts i*10 ms after the release", "N" },
		{ "strict", 0, POPT_ARG_NONE, &raw->strict, 0,
		  "every status mismatch is fatal", NULL },
		{ "keep-going", 0, POPT_ARG_NONE, &raw->keep_going, 0,
		  "no mismatch is fatal; exit 1 at the end if any", NULL },
		{ "force", 0, POPT_ARG_NONE, &raw->force, 0,
		  "run even when the clients' data may take more than half "
		  "the memory available (-D on tmpfs or ramfs)", NULL },
		{ "tcp-options", 'T', POPT_ARG_STRING, &raw->tcp_options, 0,
		  "TCP socket options, for the socket backend (tbench) only",
		  "OPTS" },
		{ "allow-scsi-writes", 0, POPT_ARG_NONE,
		  &raw->allow_scsi_writes, 0, "block, scsi, iscsi: let the "
		  "loadfile's writes reach the device", NULL },
		{ "allow-block-writes", 0, POPT_ARG_NONE,
		  &raw->allow_block_writes, 0, "= --allow-scsi-writes", NULL },
		{ "force-device", 0, POPT_ARG_NONE, &raw->force_device, 0,
		  "write to a device even if it holds data (block, scsi)",
		  NULL },
		{ "percentiles", 0, POPT_ARG_STRING, &raw->percentiles, 0,
		  "after the table, latency percentiles per op (bare: "
		  DEFAULT_PERCENTILES ")", "P,P,..." },
		{ "json", 0, POPT_ARG_STRING, &raw->json, 0,
		  "write the full results as a JSON document (-: to stdout, "
		  "and the text to stderr)", "FILE" },
		{ "series", 0, POPT_ARG_STRING, &raw->series, 0,
		  "write a once-a-second CSV series", "FILE" },
		{ "label", 0, POPT_ARG_STRING, &raw->label, 0, LABEL_HELP,
		  "NAME" },
		{ "history", 0, POPT_ARG_STRING, &raw->history, 0,
		  "the history database (with --label; default "
		  "$DBENCH_HISTORY, else ~/.local/share/dbench/"
		  "history.sqlite)" HISTORY_HELP_MARK, "FILE" },
	};

	*n = sizeof(table) / sizeof(table[0]);
	return talloc_memdup(mem, table, sizeof(table));
}

/*
 * The last of the common options, appended to *t of *n entries (one
 * function would be over 100 lines): --version, --disk-test's, and
 * those of several runs in one command (src/sweep/).  Returns 0 or -1.
 */
static int sweep_table(void *mem, struct raw_options *raw,
		       struct poptOption **t, size_t *n)
{
	const struct poptOption table[] = {
		{ "version", 'V', POPT_ARG_NONE, &raw->version, 0,
		  "print the version and exit", NULL },
		{ "disk-test", 0, POPT_ARG_NONE, &raw->disk_test, 0,
		  "measure each -D directory's disk as dd would (write, "
		  "cold/hot read, O_DIRECT); no NUMCLIENTS", NULL },
		{ "size", 0, POPT_ARG_STRING, &raw->dt_size, 0,
		  "--disk-test: test file size (1G, less if free space is "
		  "short)", "BYTES[K|M|G|T]" },
		{ "block-size", 0, POPT_ARG_STRING, &raw->dt_block_size, 0,
		  "--disk-test: bytes per read or write (1M)",
		  "BYTES[K|M|G]" },
		{ "repeat", 0, POPT_ARG_STRING, &raw->dt_repeat, 0,
		  "runs: a load run's (1), --disk-test's per measurement (3)",
		  "N" },
		{ "drop-caches", 0, POPT_ARG_NONE, &raw->drop_caches, 0,
		  "--disk-test: also drop the whole page cache before cold "
		  "reads (root)", NULL },
		{ "curve", 0, POPT_ARG_STRING, &raw->curve, 0,
		  "runs at several client counts (or auto: doubling, then "
		  "bisecting, to the most within the --slo bounds)",
		  "N,N,...|auto" },
		{ "curve-max", 0, POPT_ARG_STRING, &raw->curve_max, 0,
		  "--curve=auto: the most clients tried (1024)", "N" },
		{ "slo", 0, POPT_ARG_STRING, NULL, SLO_OPT,
		  "--curve: a latency bound, e.g. p99<=20ms, "
		  "NTCreateX:p99<=50ms, Flush:max<=1s (repeatable)",
		  "[OP:]STAT<=TIME" },
	};
	size_t more = sizeof(table) / sizeof(table[0]);
	struct poptOption *v = talloc_realloc(mem, *t, struct poptOption,
					      *n + more);

	if (v == NULL)
		return -1;
	memcpy(v + *n, table, sizeof(table));
	*t = v;
	*n += more;
	return 0;
}

/* Is name the long name of one of table[0..n)? */
static bool table_has(const struct poptOption *table, size_t n,
		      const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].longName != NULL &&
		    strcmp(table[i].longName, name) == 0)
			return true;
	return false;
}

/*
 * Backend b's sub-table, its vals made BACKEND_OPT_BASE + b * STRIDE + i
 * so that the parse loop knows whose option it is; and the entry that
 * includes it in the command line under the backend's name.  Returns -1
 * when an option name is also a common option's (an internal error).
 */
static int backend_table(void *mem, const struct backend *be, unsigned b,
			 const struct poptOption *common, size_t ncommon,
			 struct poptOption *include)
{
	const struct poptOption *t = be->options;
	struct poptOption *copy;
	size_t n = 0;

	while (t[n].longName != NULL)
		n++;
	copy = talloc_zero_array(mem, struct poptOption, n + 1);
	if (copy == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (table_has(common, ncommon, t[i].longName))
			return -1;
		copy[i] = t[i];
		copy[i].arg = NULL;
		copy[i].val = BACKEND_OPT_BASE +
			      (int)(b * BACKEND_OPT_STRIDE + i);
	}
	*include = (struct poptOption){
		.argInfo = POPT_ARG_INCLUDE_TABLE,
		.arg = copy,
		.descrip = be->unavailable == NULL ?
			talloc_asprintf(mem, "Options of the %s backend "
					"(-B %s):", be->name, be->name) :
			talloc_asprintf(mem, "Options of the %s backend (not "
					"available: %s):", be->name,
					be->unavailable),
	};
	return include->descrip != NULL ? 0 : -1;
}

/*
 * The whole table: the common options, each backend's sub-table, popt's
 * help.  String options are routed through the parse loop (their arg
 * becomes NULL, their val STRING_OPT_BASE + n, the field in
 * cp->str_slot[n]): popt would store each through arg and leak the
 * previous one when an option is repeated.  Returns 0 or -1 (internal).
 */
int cli_table(void *mem, struct cli_parse *cp)
{
	struct poptOption *common, *table;
	const struct poptOption autohelp[] = { POPT_AUTOHELP POPT_TABLEEND };
	size_t ncommon, nbe = 0, n;
	char *names, *backend_help;

	names = backend_list_text(mem, cp->registry, DEFAULT_BACKEND);
	backend_help = names == NULL ? NULL :
		       talloc_asprintf(mem, "backend: %s", names);
	if (backend_help == NULL)
		return -1;
	common = common_table(mem, &cp->raw, backend_help, &ncommon);
	if (common == NULL ||
	    sweep_table(mem, &cp->raw, &common, &ncommon) != 0)
		return -1;
	for (unsigned b = 0; cp->registry[b] != NULL; b++)
		nbe++;
	table = talloc_zero_array(mem, struct poptOption, ncommon + nbe + 2);
	if (table == NULL)
		return -1;
	for (n = 0; n < ncommon; n++) {
		table[n] = common[n];
		if (table[n].argInfo != POPT_ARG_STRING ||
		    table[n].arg == NULL || cp->nstr >= STRING_OPT_MAX)
			continue;
		cp->str_slot[cp->nstr] = table[n].arg;
		table[n].arg = NULL;
		table[n].val = STRING_OPT_BASE + (int)cp->nstr++;
	}
	for (unsigned b = 0; cp->registry[b] != NULL; b++)
		if (cp->registry[b]->options != NULL &&
		    backend_table(mem, cp->registry[b], b, common, ncommon,
				  &table[n++]) != 0)
			return -1;
	table[n++] = autohelp[0];
	table[n] = autohelp[1];
	cp->table = table;
	return 0;
}
