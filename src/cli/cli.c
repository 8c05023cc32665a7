/*
 * cli.c - the command line: the popt table composed from the common
 * options and every backend's sub-table, each value checked before
 * anything is forked or written, each backend option handed to its
 * backend.  Usage errors are one "dbench: ..." line on stderr and exit
 * status 2.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <popt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "cli.h"
#include "disktest.h"
#include "util.h"

#define EXIT_USAGE CLI_EXIT_USAGE
#define MAX_CLIENTS 100000
#define DEFAULT_BACKEND "fileio"
/* run as tbench: this backend, and a SERVER after NUMCLIENTS */
#define TBENCH_NAME "tbench"
#define TBENCH_BACKEND "sockio"
/* popt hands a string option back as one of these values (see cli_table) */
#define STRING_OPT_BASE 1000
#define STRING_OPT_MAX 32
/* ... and backend b's option i as BACKEND_OPT_BASE + b * STRIDE + i */
#define BACKEND_OPT_BASE 2000
#define BACKEND_OPT_STRIDE (BACKEND_MAX_OPTIONS + 1)

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
	char *dialect;
	int sync_open, sync_dirs, fsync_writes, xattr, run_once, skip_cleanup;
	int per_client, machine_readable, no_resolve, stat_check, fake_io;
	int one_byte_write_fix, show_execute_time, strict, keep_going;
	int version;
	/* --disk-test */
	char *dt_size;
	char *dt_block_size;
	char *dt_repeat;
	int disk_test, drop_caches;
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

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dbench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/* Split "a,b,c" into a talloc array of strings; empty items are errors. */
static int split_list(void *mem, const char *s, const char ***out,
		      unsigned *n)
{
	char *copy = talloc_strdup(mem, s), *save = NULL, *tok;
	const char **v = NULL;
	unsigned count = 0;

	if (copy == NULL)
		return -1;
	if (*copy == '\0' || copy[strlen(copy) - 1] == ',' || *copy == ',' ||
	    strstr(copy, ",,") != NULL)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		v = talloc_realloc(mem, v, const char *, count + 1);
		if (v == NULL)
			return -1;
		v[count++] = tok;
	}
	*out = v;
	*n = count;
	return count > 0 ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "50,99,99.9" -> sorted, distinct percentiles, each in (0, 100]. */
static int parse_percentiles(void *mem, const char *s,
			     struct dbench_options *o)
{
	const char **items;
	double *v;
	unsigned n, m = 0;

	if (split_list(mem, s, &items, &n) != 0)
		return -1;
	v = talloc_array(mem, double, n);
	if (v == NULL)
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (parse_double(items[i], 0, 100, &v[i]) != 0 || !(v[i] > 0))
			return -1;
	qsort(v, n, sizeof(v[0]), cmp_double);
	for (unsigned i = 0; i < n; i++)
		if (m == 0 || v[i] != v[m - 1])
			v[m++] = v[i];
	o->percentiles = v;
	o->npercentiles = m;
	return 0;
}

/*
 * An output file must be creatable before the run starts: its directory
 * exists and is writable, and the file itself, if present, is not a
 * directory.
 */
static int check_output_file(void *mem, const char *opt, const char *path)
{
	char *dir = talloc_strdup(mem, path), *slash;
	struct stat st;
	int err = 0;

	if (dir == NULL)
		return EXIT_USAGE;
	if (*path == '\0')
		return usage_error("%s: the file name is empty", opt);
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return usage_error("%s '%s': is a directory", opt,
					   path);
		if (access(path, W_OK) != 0)
			return usage_error("%s '%s': not writable: %s", opt,
					   path, strerror(errno));
		return 0;
	}
	slash = strrchr(dir, '/');
	if (slash == NULL)
		dir = talloc_strdup(mem, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (dir == NULL)
		return EXIT_USAGE;
	if (stat(dir, &st) != 0)
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else if (access(dir, W_OK | X_OK) != 0)
		err = errno;
	if (err != 0)
		return usage_error("%s '%s': cannot create the file there: %s",
				   opt, path, strerror(err));
	return 0;
}

static bool readable_file(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return false;
	}
	return access(path, R_OK) == 0;
}

/*
 * --percentiles and --json, which load runs and --disk-test share.
 * Returns 0 or the exit status of a usage error (said on stderr).
 */
static int result_options(void *mem, const struct raw_options *raw,
			  struct dbench_options *o)
{
	int rc;

	o->show_percentiles = raw->percentiles != NULL;
	if (parse_percentiles(mem, raw->percentiles ? raw->percentiles :
				   DEFAULT_PERCENTILES, o) != 0)
		return usage_error("--percentiles: '%s' is not a "
				   "comma-separated list of percentiles "
				   "(numbers above 0 and at most 100, e.g. "
				   "50,99,99.9)",
				   raw->percentiles);
	if (raw->json != NULL && strcmp(raw->json, "-") != 0 &&
	    (rc = check_output_file(mem, "--json", raw->json)) != 0)
		return rc;
	o->json_path = raw->json;
	return 0;
}

/*
 * The shipped client.txt: beside the binary in a build tree (no path is
 * built into the binary for that), then the installed data directory.
 * Returns NULL, with errno saying why the installed one is not readable.
 */
static const char *default_loadfile(void *mem)
{
	char *dir = util_exe_dir(mem);
	const char *built = dir ? talloc_asprintf(mem, "%s/loadfiles/client.txt",
						  dir) : NULL;

	if (built != NULL && readable_file(built))
		return built;
	if (readable_file(PKGDATADIR "/client.txt"))
		return PKGDATADIR "/client.txt";
	return NULL;
}

/*
 * -D (default "."): the list, each entry passing be's target check.
 * Shared by load runs and --disk-test.  Returns 0 or the exit status of a
 * usage error (said on stderr).
 */
static int directory_options(void *mem, const struct raw_options *raw,
			     const struct backend *be,
			     struct dbench_options *o)
{
	if (raw->directory != NULL && be != NULL &&
	    (be->flags & BACKEND_OWN_TARGET))
		return usage_error("--directory does not apply to backend "
				   "'%s': its own options name the target",
				   be->name);
	if (split_list(mem, raw->directory ? raw->directory : ".",
		       &o->directories, &o->ndirectories) != 0)
		return usage_error("--directory: '%s' is not a comma-separated "
				   "list of directories",
				   raw->directory);
	for (unsigned i = 0; i < o->ndirectories; i++) {
		char *err = NULL;

		if (be->target_check(mem, o, o->directories[i], &err) != 0)
			return usage_error("%s", err ? err : "out of memory");
	}
	return 0;
}

static int parse_count(const char *name, const char *s, int64_t min,
		       int64_t max, int64_t *out)
{
	if (parse_int64(s, min, max, out) == 0)
		return 0;
	return usage_error("%s: '%s' is not a whole number from %lld to %lld",
			   name, s, (long long)min, (long long)max);
}

/*
 * -T is the socket backend's (tbench): refused, rather than ignored,
 * with a backend that has no sockets (be NULL: --disk-test).
 */
static int tcp_options(const struct raw_options *raw,
		       const struct backend *be, struct dbench_options *o)
{
	if (raw->tcp_options == NULL)
		return 0;
	if (be == NULL)
		return usage_error("--tcp-options applies to the socket "
				   "backend (tbench) only, not to --disk-test");
	if (!(be->flags & BACKEND_SOCKETS))
		return usage_error("--tcp-options applies to the socket "
				   "backend (tbench) only, not to backend "
				   "'%s'", be->name);
	o->tcp_options = raw->tcp_options;
	return 0;
}

/* The usable backend of that name, or NULL after a usage error. */
static const struct backend *choose_backend(void *mem,
					    const struct backend *const *reg,
					    const char *name)
{
	const struct backend *be = backend_find_in(reg, name);
	char *names = talloc_strdup(mem, "");

	if (be != NULL && be->unavailable == NULL)
		return be;
	for (unsigned i = 0; reg[i] != NULL; i++)
		if (reg[i]->unavailable == NULL)
			names = talloc_asprintf_append(names, "%s%s",
						       *names ? ", " : "",
						       reg[i]->name);
	if (be == NULL)
		usage_error("unknown backend '%s'; available: %s", name,
			    names ? names : "");
	else
		usage_error("backend '%s' is not available: %s", name,
			    be->unavailable);
	return NULL;
}

/*
 * -B and what goes with it: the backend, its options (each handed to its
 * ->option in command-line order; one of another backend is refused,
 * naming that one), its ->options_done, -T.  Returns 0 with *out set, or
 * the exit status of a usage error (said on stderr).
 */
static int backend_options(void *mem, const struct cli_parse *cp,
			   struct dbench_options *o,
			   const struct backend **out)
{
	const struct raw_options *raw = &cp->raw;
	const struct backend *be, *listed;
	void *bopts = NULL;
	char *err = NULL;

	if (raw->backend != NULL)
		o->backend = raw->backend;
	be = listed = choose_backend(mem, cp->registry, o->backend);
	if (be == NULL)
		return EXIT_USAGE;
	/* smb, nfs: the registry has their stubs, their modules the rest */
	if (be->module != NULL &&
	    (be = backend_module_load(mem, listed, &err)) == NULL)
		return usage_error("%s", err ? err : "out of memory");
	for (unsigned i = 0; i < raw->nbopts; i++) {
		const struct given_bopt *g = &raw->bopts[i];
		const struct backend *owner = cp->registry[g->backend];

		if (owner != listed)
			return usage_error("--%s belongs to backend '%s', but "
					   "backend '%s' is selected",
					   g->entry->longName, owner->name,
					   be->name);
		if (be->option(mem, &bopts, g->entry->val, g->arg, &err) != 0)
			return usage_error("--%s: %s", g->entry->longName,
					   err ? err : "out of memory");
	}
	if (be->options_done != NULL &&
	    be->options_done(mem, &bopts, &err) != 0)
		return usage_error("backend '%s': %s", be->name,
				   err ? err : "out of memory");
	o->backend_opts = bopts;
	*out = be;
	return tcp_options(raw, be, o);
}

/* The numbers of a load run.  Returns 0 or the exit status. */
static int count_options(const struct raw_options *raw, const char *clients,
			 struct dbench_options *o)
{
	int64_t n = 0, tl = o->timelimit, wu = -1,
		cpp = o->clients_per_process, st = 0, ti = 0;
	const struct {
		const char *name;
		const char *text;	/* NULL: not given */
		int64_t min, max;
		int64_t *out;
	} counts[] = {
		{ "number of clients", clients, 1, MAX_CLIENTS, &n },
		{ "--timelimit", raw->timelimit, 1, INT_MAX / 2, &tl },
		{ "--warmup", raw->warmup, 0, INT_MAX / 2, &wu },
		{ "--clients-per-process", raw->clients_per_process, 1,
		  MAX_CLIENTS, &cpp },
		{ "--stagger", raw->stagger, 0, 1000000, &st },
		{ "--trunc-io", raw->trunc_io, 1, INT64_MAX / 2, &ti },
	};
	int rc;

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (counts[i].text != NULL &&
		    (rc = parse_count(counts[i].name, counts[i].text,
				      counts[i].min, counts[i].max,
				      counts[i].out)) != 0)
			return rc;
	/* as in 4.00 and 5.0: NUMCLIENTS processes of K clients each */
	if (n * cpp > MAX_CLIENTS)
		return usage_error("%lld clients in %lld processes of %lld "
				   "(--clients-per-process) are more than "
				   "%d clients", (long long)(n * cpp),
				   (long long)n, (long long)cpp, MAX_CLIENTS);
	o->nclients = (unsigned)(n * cpp);
	o->timelimit = (int)tl;
	o->run_once = raw->run_once;
	o->warmup = wu >= 0 ? (int)wu : o->run_once ? 0 : o->timelimit / 5;
	o->clients_per_process = (unsigned)cpp;
	o->stagger = (unsigned)st;
	o->trunc_io = ti;
	/* below 1 byte/s the pacing delay overflows its nanoseconds */
	if (raw->target_rate != NULL &&
	    (parse_double(raw->target_rate, 0, 1e12, &o->target_rate) != 0 ||
	     (o->target_rate > 0 && o->target_rate < 1e-6)))
		return usage_error("--target-rate: '%s' is not a number of "
				   "MB/s (0 for no pacing, or from 0.000001 "
				   "to 1e12)", raw->target_rate);
	return 0;
}

/*
 * --output-dialect, or the dialect implied: --show-execute-time exists
 * only in the 5.0 fork mmtests builds, so its command lines get 5.0.
 * Returns 0 or the exit status.
 */
static int dialect_option(const struct raw_options *raw,
			  struct dbench_options *o)
{
	const char *d = raw->dialect;

	if (d == NULL) {
		o->dialect = raw->show_execute_time ? DIALECT_50 : DIALECT_400;
		return 0;
	}
	if (strcmp(d, "4.00") == 0 || strcmp(d, "4.0") == 0 ||
	    strcmp(d, "4") == 0)
		o->dialect = DIALECT_400;
	else if (strcmp(d, "5.0") == 0 || strcmp(d, "5") == 0)
		o->dialect = DIALECT_50;
	else
		return usage_error("--output-dialect: '%s' is not 4.00 or 5.0",
				   d);
	return 0;
}

/* -c, or the shipped client.txt.  Returns 0 or the exit status. */
static int loadfile_options(void *mem, const struct raw_options *raw,
			    struct dbench_options *o)
{
	const char *def;

	if (raw->loadfile != NULL) {
		if (split_list(mem, raw->loadfile, &o->loadfiles,
			       &o->nloadfiles) != 0)
			return usage_error("--loadfile: '%s' is not a "
					   "comma-separated list of files",
					   raw->loadfile);
		return 0;
	}
	def = default_loadfile(mem);
	if (def == NULL)
		return usage_error("no loadfile given (-c) and the default "
				   "loadfile %s cannot be read: %s",
				   PKGDATADIR "/client.txt", strerror(errno));
	o->loadfiles = talloc_array(mem, const char *, 1);
	if (o->loadfiles == NULL)
		return EXIT_USAGE;
	o->loadfiles[0] = def;
	o->nloadfiles = 1;
	return 0;
}

/* Check a load run's options.  Returns 0 or the exit status. */
static int resolve_options(void *mem, const struct cli_parse *cp,
			   const char *clients, struct cli *cli)
{
	const struct raw_options *raw = &cp->raw;
	struct dbench_options *o = &cli->opts;
	int rc;

	if ((rc = count_options(raw, clients, o)) != 0)
		return rc;
	if (raw->strict && raw->keep_going)
		return usage_error("--strict and --keep-going contradict each "
				   "other");
	o->mismatch = raw->strict ? MISMATCH_STRICT :
		      raw->keep_going ? MISMATCH_KEEP_GOING : MISMATCH_DEFAULT;
	o->sync_open = raw->sync_open;
	o->sync_dirs = raw->sync_dirs;
	o->fsync_writes = raw->fsync_writes;
	o->xattr = raw->xattr;
	o->skip_cleanup = raw->skip_cleanup;
	o->per_client_results = raw->per_client;
	o->machine_readable = raw->machine_readable;
	o->no_resolve = raw->no_resolve;
	o->stat_check = raw->stat_check;
	o->fake_io = raw->fake_io;
	o->one_byte_write_fix = raw->one_byte_write_fix;
	o->show_execute_time = raw->show_execute_time;
	if ((rc = dialect_option(raw, o)) != 0)
		return rc;
	if ((rc = result_options(mem, raw, o)) != 0)
		return rc;
	if (raw->series != NULL &&
	    (rc = check_output_file(mem, "--series", raw->series)) != 0)
		return rc;
	o->series_path = raw->series;
	if ((rc = backend_options(mem, cp, o, &cli->backend)) != 0)
		return rc;
	if ((rc = directory_options(mem, raw, cli->backend, o)) != 0)
		return rc;
	cli->loadfile_arg = raw->loadfile;
	return loadfile_options(mem, raw, o);
}

/* The first usable local-filesystem backend: it checks --disk-test's -D. */
static const struct backend *local_backend(const struct backend *const *reg)
{
	for (unsigned i = 0; reg[i] != NULL; i++)
		if (reg[i]->unavailable == NULL &&
		    (reg[i]->flags & BACKEND_LOCAL_FS))
			return reg[i];
	return NULL;
}

/* Refuse what only a load run uses.  Returns 0 or the exit status. */
static int disk_test_refusals(const struct cli_parse *cp)
{
	const struct raw_options *raw = &cp->raw;
	const struct {
		const char *name;
		bool set;
	} load_only[] = {
		{ "--timelimit", raw->timelimit != NULL },
		{ "--warmup", raw->warmup != NULL },
		{ "--loadfile", raw->loadfile != NULL },
		{ "--backend", raw->backend != NULL },
		{ "--target-rate", raw->target_rate != NULL },
		{ "--clients-per-process", raw->clients_per_process != NULL },
		{ "--stagger", raw->stagger != NULL },
		{ "--trunc-io", raw->trunc_io != NULL },
		{ "--series", raw->series != NULL },
		{ "--sync", raw->sync_open },
		{ "--sync-dir", raw->sync_dirs },
		{ "--fsync", raw->fsync_writes },
		{ "--xattr", raw->xattr },
		{ "--run-once", raw->run_once },
		{ "--skip-cleanup", raw->skip_cleanup },
		{ "--per-client-results", raw->per_client },
		{ "--machine-readable", raw->machine_readable },
		{ "--no-resolve", raw->no_resolve },
		{ "--stat-check", raw->stat_check },
		{ "--fake-io", raw->fake_io },
		{ "--one-byte-write-fix", raw->one_byte_write_fix },
		{ "--show-execute-time", raw->show_execute_time },
		{ "--output-dialect", raw->dialect != NULL },
		{ "--strict", raw->strict },
		{ "--keep-going", raw->keep_going },
	};

	for (size_t i = 0; i < sizeof(load_only) / sizeof(load_only[0]); i++)
		if (load_only[i].set)
			return usage_error("%s does not go with --disk-test "
					   "(it is for load runs)",
					   load_only[i].name);
	if (raw->nbopts > 0)
		return usage_error("--%s does not go with --disk-test (it is "
				   "for load runs)",
				   raw->bopts[0].entry->longName);
	return 0;
}

/* Check --disk-test's options.  Returns 0 or the exit status. */
static int disk_test_options(void *mem, const struct cli_parse *cp,
			     poptContext pc, struct dbench_options *o)
{
	const struct raw_options *raw = &cp->raw;
	const struct backend *local = local_backend(cp->registry);
	int64_t v;
	int rc;

	if (poptGetArg(pc) != NULL)
		return usage_error("--disk-test takes no NUMCLIENTS argument");
	if ((rc = disk_test_refusals(cp)) != 0 ||
	    (rc = tcp_options(raw, NULL, o)) != 0 ||
	    (rc = result_options(mem, raw, o)) != 0)
		return rc;
	o->disk_test = true;
	o->drop_caches = raw->drop_caches;
	o->disk_test_block = DISKTEST_DEFAULT_BLOCK;
	o->disk_test_repeat = DISKTEST_DEFAULT_REPEAT;
	if (raw->dt_size != NULL &&
	    parse_size(raw->dt_size, 512, 1ull << 50, &o->disk_test_size) != 0)
		return usage_error("--size: '%s' is not a size from 512 bytes "
				   "to 1024T (a number of bytes, or with K, M, "
				   "G or T)", raw->dt_size);
	if (raw->dt_block_size != NULL &&
	    (parse_size(raw->dt_block_size, 512, 1ull << 30,
			&o->disk_test_block) != 0 ||
	     o->disk_test_block % 512 != 0))
		return usage_error("--block-size: '%s' is not a multiple of "
				   "512 bytes from 512 to 1G (a number of "
				   "bytes, or with K, M or G)",
				   raw->dt_block_size);
	if (raw->dt_repeat != NULL) {
		if ((rc = parse_count("--repeat", raw->dt_repeat, 1, 1000,
				      &v)) != 0)
			return rc;
		o->disk_test_repeat = (unsigned)v;
	}
	if (local == NULL)
		return usage_error("--disk-test: no local filesystem backend "
				   "is built in");
	return directory_options(mem, raw, local, o);
}

/* The common options; every arg points into raw. */
static struct poptOption *common_table(void *mem, struct raw_options *raw,
				       size_t *n)
{
	const struct poptOption table[] = {
		{ "timelimit", 't', POPT_ARG_STRING, &raw->timelimit, 0,
		  "seconds of the execute phase, after the warmup (600)",
		  "SECS" },
		{ "warmup", 0, POPT_ARG_STRING, &raw->warmup, 0,
		  "warmup seconds (timelimit/5; 0 with --run-once)", "SECS" },
		{ "loadfile", 'c', POPT_ARG_STRING, &raw->loadfile, 0,
		  "loadfile(s); client i uses file i mod n", "FILE[,FILE...]" },
		{ "directory", 'D', POPT_ARG_STRING, &raw->directory, 0,
		  "target directory(s); client i uses dir i mod n (.)",
		  "DIR[,DIR...]" },
		{ "backend", 'B', POPT_ARG_STRING, &raw->backend, 0,
		  "backend: fileio (default), null or sockio (tbench)", "NAME" },
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
		{ "tcp-options", 'T', POPT_ARG_STRING, &raw->tcp_options, 0,
		  "TCP socket options, for the socket backend (tbench) only",
		  "OPTS" },
		{ "percentiles", 0, POPT_ARG_STRING, &raw->percentiles, 0,
		  "after the table, latency percentiles per op (bare: "
		  DEFAULT_PERCENTILES ")", "P,P,..." },
		{ "json", 0, POPT_ARG_STRING, &raw->json, 0,
		  "write the full results as a JSON document (-: to stdout, "
		  "and the text to stderr)", "FILE" },
		{ "series", 0, POPT_ARG_STRING, &raw->series, 0,
		  "write a once-a-second CSV series", "FILE" },
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
		  "--disk-test: runs of each measurement (3)", "N" },
		{ "drop-caches", 0, POPT_ARG_NONE, &raw->drop_caches, 0,
		  "--disk-test: also drop the whole page cache before cold "
		  "reads (root)", NULL },
	};

	*n = sizeof(table) / sizeof(table[0]);
	return talloc_memdup(mem, table, sizeof(table));
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
static int cli_table(void *mem, struct cli_parse *cp)
{
	struct poptOption *common, *table;
	const struct poptOption autohelp[] = { POPT_AUTOHELP POPT_TABLEEND };
	size_t ncommon, nbe = 0, n;

	common = common_table(mem, &cp->raw, &ncommon);
	if (common == NULL)
		return -1;
	for (unsigned b = 0; cp->registry[b] != NULL; b++)
		nbe++;
	table = talloc_zero_array(mem, struct poptOption, ncommon + nbe + 2);
	if (table == NULL)
		return -1;
	for (n = 0; n < ncommon; n++) {
		table[n] = common[n];
		if (table[n].argInfo != POPT_ARG_STRING ||
		    cp->nstr >= STRING_OPT_MAX)
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

/* Note a backend option popt returned (as its composed val). */
static int note_backend_option(void *mem, struct cli_parse *cp, int val,
			       char *arg)
{
	unsigned b = (unsigned)(val - BACKEND_OPT_BASE) / BACKEND_OPT_STRIDE;
	unsigned i = (unsigned)(val - BACKEND_OPT_BASE) % BACKEND_OPT_STRIDE;
	struct raw_options *raw = &cp->raw;
	struct given_bopt *v;

	v = talloc_realloc(mem, raw->bopts, struct given_bopt,
			   raw->nbopts + 1);
	if (v == NULL)
		return -1;
	raw->bopts = v;
	v[raw->nbopts] = (struct given_bopt){
		.backend = b,
		.entry = &cp->registry[b]->options[i],
		.arg = arg != NULL ? talloc_strdup(mem, arg) : NULL,
	};
	if (arg != NULL && v[raw->nbopts].arg == NULL)
		return -1;
	raw->nbopts++;
	return 0;
}

/*
 * Run popt over argv.  Returns 0, or the exit status after a message
 * (an unknown option, a missing argument, out of memory).
 */
static int cli_popt(void *mem, struct cli_parse *cp, poptContext pc)
{
	int opt;

	while ((opt = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);	/* malloc'd, or NULL */
		int rc = 0;

		if (opt >= STRING_OPT_BASE &&
		    opt < STRING_OPT_BASE + (int)cp->nstr) {
			char **slot = cp->str_slot[opt - STRING_OPT_BASE];

			/* the last one given wins */
			talloc_free(*slot);
			*slot = arg != NULL ? talloc_strdup(mem, arg) : NULL;
			rc = arg != NULL && *slot == NULL ? -1 : 0;
		} else if (opt >= BACKEND_OPT_BASE) {
			rc = note_backend_option(mem, cp, opt, arg);
		}
		free(arg);
		if (rc != 0) {
			fprintf(stderr, "dbench: out of memory\n");
			return 1;
		}
	}
	if (opt < -1) {
		const char *badopt = poptBadOption(pc, POPT_BADOPTION_NOALIAS);
		int64_t num;

		/* "dbench -1" reaches popt as an option */
		if (opt == POPT_ERROR_BADOPT &&
		    parse_int64(badopt, INT64_MIN, INT64_MAX, &num) == 0)
			fprintf(stderr, "dbench: number of clients: '%s' is "
				"not a whole number from 1 to %d\n", badopt,
				MAX_CLIENTS);
		else
			fprintf(stderr, "dbench: %s: %s (try --help)\n",
				badopt, poptStrerror(opt));
		return EXIT_USAGE;
	}
	return 0;
}

/* The name this program was run as ends in "tbench" (tbench, or a
 * versioned link such as tbench-4): it is tbench. */
static bool invoked_as_tbench(const char *argv0)
{
	const char *base = argv0 != NULL ? strrchr(argv0, '/') : NULL;

	base = base != NULL ? base + 1 : argv0;
	return base != NULL && strncmp(base, TBENCH_NAME,
				       strlen(TBENCH_NAME)) == 0;
}

/*
 * tbench's positional SERVER: given to the tbench backend as its
 * --server option, after the options on the command line (so it wins).
 * Returns 0, or -1 when out of memory.
 */
static int tbench_server_arg(void *mem, struct cli_parse *cp,
			     const char *server)
{
	for (unsigned b = 0; cp->registry[b] != NULL; b++) {
		const struct poptOption *t = cp->registry[b]->options;

		if (strcmp(cp->registry[b]->name, TBENCH_BACKEND) != 0 ||
		    t == NULL)
			continue;
		for (unsigned i = 0; t[i].longName != NULL; i++)
			if (strcmp(t[i].longName, "server") == 0)
				return note_backend_option(
					mem, cp,
					BACKEND_OPT_BASE +
						(int)(b * BACKEND_OPT_STRIDE +
						      i),
					(char *)server);
	}
	return 0;
}

/* What popt found, dispatched: --version, --disk-test or a load run. */
static int cli_dispatch(void *mem, struct cli_parse *cp, poptContext pc,
			struct cli *cli)
{
	const struct raw_options *raw = &cp->raw;
	const char *clients;

	if (raw->version) {
		cli->action = CLI_VERSION;
		return 0;
	}
	if (raw->disk_test) {
		cli->action = CLI_DISK_TEST;
		return disk_test_options(mem, cp, pc, &cli->opts);
	}
	if (raw->dt_size || raw->dt_block_size || raw->dt_repeat ||
	    raw->drop_caches)
		return usage_error("--size, --block-size, --repeat and "
				   "--drop-caches go with --disk-test");
	clients = poptGetArg(pc);
	if (cp->tbench && clients != NULL && poptPeekArg(pc) != NULL &&
	    tbench_server_arg(mem, cp, poptGetArg(pc)) != 0) {
		fprintf(stderr, "dbench: out of memory\n");
		return 1;
	}
	if (clients == NULL || poptPeekArg(pc) != NULL) {
		fprintf(stderr, "dbench: %s (usage: %s; try --help)\n",
			clients == NULL ? "the number of clients is missing" :
			cp->tbench ? "only NUMCLIENTS and SERVER are expected" :
				     "only one NUMCLIENTS argument is expected",
			cp->tbench ? "tbench [OPTION...] NUMCLIENTS [SERVER]" :
				     "dbench [OPTION...] NUMCLIENTS");
		return EXIT_USAGE;
	}
	cli->action = CLI_RUN;
	return resolve_options(mem, cp, clients, cli);
}

/*
 * Hide secrets from ps and from the JSON's command line: for every
 * backend option whose argument description has "%PASSWORD" (such as
 * --smb-user=USER%PASSWORD), the bytes after the value's first '%' are
 * zeroed in place (what /proc/PID/cmdline shows) and argv[i] is pointed
 * at a copy that shows "***" instead (what --json writes).  argv's
 * strings must be writable (main's are).
 */
static void mask_secret_args(void *mem, int argc, const char **argv,
			     const struct backend *const *reg)
{
	for (unsigned b = 0; reg[b] != NULL; b++)
		for (const struct poptOption *t = reg[b]->options;
		     t != NULL && t->longName != NULL; t++) {
			size_t n = strlen(t->longName);

			if (t->argDescrip == NULL ||
			    strstr(t->argDescrip, "%PASSWORD") == NULL)
				continue;
			for (int i = 1; i < argc; i++) {
				const char *a = argv[i];
				char *pct, *shown;
				bool own = strncmp(a, "--", 2) == 0 &&
					   strncmp(a + 2, t->longName, n) == 0;

				if (own && a[2 + n] == '\0' && i + 1 < argc)
					a = argv[++i];
				else if (!own || a[2 + n] != '=')
					continue;
				pct = strchr(a, '%');
				if (pct == NULL || pct[1] == '\0')
					continue;
				shown = talloc_asprintf(mem, "%.*s***",
							(int)(pct + 1 - a), a);
				explicit_bzero(pct + 1, strlen(pct + 1));
				if (shown != NULL)
					argv[i] = shown;
			}
		}
}

int cli_parse(void *mem_ctx, int argc, const char **argv,
	      const struct backend *const *registry, struct cli *cli)
{
	struct cli_parse *cp = talloc_zero(mem_ctx, struct cli_parse);
	const char *bad = NULL, *why = NULL;
	const char **pargv;
	poptContext pc;
	int rc;

	*cli = (struct cli){
		.opts = {
			.timelimit = 600,
			.clients_per_process = 1,
			.backend = DEFAULT_BACKEND,
			.argc = argc,
			.argv = argv,
		},
	};
	if (cp == NULL)
		goto nomem;
	if (backend_list_check(registry, &bad, &why) != 0) {
		fprintf(stderr, "dbench: internal error: backend '%s': %s\n",
			bad, why);
		return 1;
	}
	cp->registry = registry;
	cp->tbench = argc > 0 && invoked_as_tbench(argv[0]);
	if (cp->tbench)
		cli->opts.backend = TBENCH_BACKEND;
	if (cli_table(cp, cp) != 0) {
		fprintf(stderr, "dbench: internal error: a backend option "
			"shadows a common one, or out of memory\n");
		return 1;
	}
	/* a bare --percentiles means the default list (popt's optional
	 * arguments would swallow a following NUMCLIENTS) */
	pargv = talloc_array(cp, const char *, (size_t)argc + 1);
	if (pargv == NULL)
		goto nomem;
	for (int i = 0; i < argc; i++)
		pargv[i] = strcmp(argv[i], "--percentiles") == 0 ?
			"--percentiles=" DEFAULT_PERCENTILES : argv[i];
	pargv[argc] = NULL;
	pc = poptGetContext("dbench", argc, pargv, cp->table, 0);
	if (pc == NULL)
		goto nomem;
	poptSetOtherOptionHelp(pc, cp->tbench ? "[OPTION...] NUMCLIENTS "
			       "[SERVER[:PORT]]" : "[OPTION...] NUMCLIENTS");
	rc = cli_popt(mem_ctx, cp, pc);
	mask_secret_args(mem_ctx, argc, argv, registry);
	if (rc == 0)
		rc = cli_dispatch(mem_ctx, cp, pc, cli);
	poptFreeContext(pc);
	talloc_free(cp);	/* what *cli keeps lives under mem_ctx */
	return rc;

nomem:
	fprintf(stderr, "dbench: out of memory\n");
	return 1;
}
