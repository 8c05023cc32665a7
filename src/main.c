/*
 * main.c - the command line: the popt option table, validation of every
 * value before anything is forked or written, loading the loadfiles, and
 * the exit status (0 success, 1 the run failed, 2 usage error).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <popt.h>
#include <stdio.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "dirlock.h"
#include "disktest.h"
#include "options.h"
#include "program.h"
#include "report_json.h"
#include "rlimits.h"
#include "supervisor.h"
#include "util.h"

#define EXIT_USAGE 2
#define MAX_CLIENTS 100000
#define STRING_OPT_BASE 1000

/* Raw option text, checked after popt is done. */
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
	int sync_open, sync_dirs, fsync_writes, xattr, run_once, skip_cleanup;
	int per_client, machine_readable, no_resolve, stat_check, fake_io;
	int one_byte_write_fix, show_execute_time, strict, keep_going;
	int version;
	/* --disk-test */
	char *dt_size;
	char *dt_block_size;
	char *dt_repeat;
	int disk_test, drop_caches;
};

static int usage_error(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "dbench: ");
	fprintf(stderr, fmt, a, b);
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

/* --percentiles without a list shows these. */
#define DEFAULT_PERCENTILES "50,90,95,99,99.9"

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
		return usage_error("%s: the file name is empty%s", opt, "");
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return usage_error("%s '%s': is a directory", opt,
					   path);
		if (access(path, W_OK) != 0)
			return usage_error("%s: not writable: %s",
					   talloc_asprintf(mem, "%s '%s'", opt,
							   path),
					   strerror(errno));
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
		return usage_error("%s: cannot create the file there: %s",
				   talloc_asprintf(mem, "%s '%s'", opt, path),
				   strerror(err));
	return 0;
}

static bool readable_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, R_OK) == 0;
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
				   "50,99,99.9)%s",
				   raw->percentiles, "");
	if (raw->json != NULL &&
	    (rc = check_output_file(mem, "--json", raw->json)) != 0)
		return rc;
	o->json_path = raw->json;
	return 0;
}

/*
 * The shipped client.txt: beside the binary in a build tree, then the
 * installed data directory, then the source tree of a VPATH build.
 */
/* The directory holding the running binary, or NULL. */
static char *exe_dir(void *mem)
{
	size_t len = 256;

	for (;;) {
		char *buf = talloc_array(mem, char, len);
		ssize_t n;
		char *slash;

		if (buf == NULL)
			return NULL;
		n = readlink("/proc/self/exe", buf, len);
		if (n < 0) {
			talloc_free(buf);
			return NULL;
		}
		if ((size_t)n < len) {
			buf[n] = '\0';
			slash = strrchr(buf, '/');
			if (slash == NULL) {
				talloc_free(buf);
				return NULL;
			}
			*slash = '\0';
			return buf;
		}
		talloc_free(buf);	/* truncated: try a larger buffer */
		len *= 2;
	}
}

static const char *default_loadfile(void *mem)
{
	char *dir = exe_dir(mem);
	const char *candidates[3] = {
		dir ? talloc_asprintf(mem, "%s/loadfiles/client.txt", dir)
		    : NULL,
		PKGDATADIR "/client.txt",
		ABS_TOP_SRCDIR "/loadfiles/client.txt",
	};

	for (unsigned i = 0; i < 3; i++)
		if (candidates[i] != NULL && readable_file(candidates[i]))
			return candidates[i];
	return NULL;
}

static int check_directory(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		return usage_error("directory '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error("directory '%s': %s", dir,
				   strerror(ENOTDIR));
	if (access(dir, W_OK | X_OK) != 0)
		return usage_error("directory '%s' is not writable: %s", dir,
				   strerror(errno));
	return 0;
}

/*
 * -D (default "."): the list, each an existing directory we may write in.
 * Shared by load runs and --disk-test.  Returns 0 or the exit status of a
 * usage error (said on stderr).
 */
static int directory_options(void *mem, const struct raw_options *raw,
			     struct dbench_options *o)
{
	int rc;

	if (split_list(mem, raw->directory ? raw->directory : ".",
		       &o->directories, &o->ndirectories) != 0)
		return usage_error("--directory: '%s' is not a comma-separated "
				   "list of directories%s",
				   raw->directory, "");
	for (unsigned i = 0; i < o->ndirectories; i++)
		if ((rc = check_directory(o->directories[i])) != 0)
			return rc;
	return 0;
}

static int parse_count(const char *name, const char *s, int64_t min,
		       int64_t max, int64_t *out)
{
	char range[64];

	if (parse_int64(s, min, max, out) == 0)
		return 0;
	snprintf(range, sizeof(range), "a whole number from %lld to %lld",
		 (long long)min, (long long)max);
	fprintf(stderr, "dbench: %s: '%s' is not %s\n", name, s, range);
	return EXIT_USAGE;
}

static int resolve_options(void *mem, struct raw_options *raw,
			   const char *clients, struct dbench_options *o)
{
	int64_t v;
	int rc;

	if ((rc = parse_count("number of clients", clients, 1, MAX_CLIENTS,
			      &v)) != 0)
		return rc;
	o->nclients = (unsigned)v;
	if (raw->timelimit != NULL) {
		if ((rc = parse_count("--timelimit", raw->timelimit, 1,
				      INT_MAX / 2, &v)) != 0)
			return rc;
		o->timelimit = (int)v;
	}
	o->run_once = raw->run_once;
	o->warmup = o->run_once ? 0 : o->timelimit / 5;
	if (raw->warmup != NULL) {
		if ((rc = parse_count("--warmup", raw->warmup, 0,
				      INT_MAX / 2, &v)) != 0)
			return rc;
		o->warmup = (int)v;
	}
	if (raw->clients_per_process != NULL) {
		if ((rc = parse_count("--clients-per-process",
				      raw->clients_per_process, 1,
				      MAX_CLIENTS, &v)) != 0)
			return rc;
		o->clients_per_process = (unsigned)v;
	}
	if (raw->stagger != NULL) {
		if ((rc = parse_count("--stagger", raw->stagger, 0, 1000000,
				      &v)) != 0)
			return rc;
		o->stagger = (unsigned)v;
	}
	if (raw->trunc_io != NULL) {
		if ((rc = parse_count("--trunc-io", raw->trunc_io, 1,
				      INT64_MAX / 2, &v)) != 0)
			return rc;
		o->trunc_io = v;
	}
	/* below 1 byte/s the pacing delay overflows its nanoseconds */
	if (raw->target_rate != NULL &&
	    (parse_double(raw->target_rate, 0, 1e12, &o->target_rate) != 0 ||
	     (o->target_rate > 0 && o->target_rate < 1e-6)))
		return usage_error("--target-rate: '%s' is not a number of "
				   "MB/s (0 for no pacing, or from 0.000001 "
				   "to 1e12)%s", raw->target_rate, "");
	if (raw->strict && raw->keep_going)
		return usage_error("--strict and --keep-going contradict each "
				   "other%s%s", "", "");
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
	if (raw->backend != NULL)
		o->backend = raw->backend;
	if ((rc = result_options(mem, raw, o)) != 0)
		return rc;
	if (raw->series != NULL &&
	    (rc = check_output_file(mem, "--series", raw->series)) != 0)
		return rc;
	o->series_path = raw->series;

	if ((rc = directory_options(mem, raw, o)) != 0)
		return rc;

	if (raw->loadfile != NULL) {
		if (split_list(mem, raw->loadfile, &o->loadfiles,
			       &o->nloadfiles) != 0)
			return usage_error("--loadfile: '%s' is not a "
					   "comma-separated list of files%s",
					   raw->loadfile, "");
	} else {
		const char *def = default_loadfile(mem);

		if (def == NULL)
			return usage_error("no loadfile given and the default "
					   "client.txt is not installed in "
					   "%s%s", PKGDATADIR, "");
		o->loadfiles = talloc_array(mem, const char *, 1);
		if (o->loadfiles == NULL)
			return EXIT_USAGE;
		o->loadfiles[0] = def;
		o->nloadfiles = 1;
	}
	return 0;
}

/*
 * --disk-test: check its options and run it.  Returns the exit status.
 */
static int run_disk_test(void *mem, poptContext pc, struct raw_options *raw,
			 struct dbench_options *o)
{
	/* what only a load run uses is refused rather than ignored */
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
		{ "--strict", raw->strict },
		{ "--keep-going", raw->keep_going },
	};
	struct disktest_config cfg;
	struct disktest_result *res = NULL;
	struct timespec started, ended;
	char *why = NULL;
	int64_t v;
	int rc;

	if (poptGetArg(pc) != NULL)
		return usage_error("--disk-test takes no NUMCLIENTS argument"
				   "%s%s", "", "");
	for (size_t i = 0; i < sizeof(load_only) / sizeof(load_only[0]); i++)
		if (load_only[i].set)
			return usage_error("%s does not go with --disk-test "
					   "(it is for load runs)%s",
					   load_only[i].name, "");
	if ((rc = result_options(mem, raw, o)) != 0)
		return rc;
	o->disk_test = true;
	o->drop_caches = raw->drop_caches;
	o->disk_test_block = DISKTEST_DEFAULT_BLOCK;
	o->disk_test_repeat = DISKTEST_DEFAULT_REPEAT;
	if (raw->dt_size != NULL &&
	    parse_size(raw->dt_size, 512, 1ull << 50, &o->disk_test_size) != 0)
		return usage_error("--size: '%s' is not a size from 512 bytes "
				   "to 1024T (a number of bytes, or with K, M, "
				   "G or T)%s", raw->dt_size, "");
	if (raw->dt_block_size != NULL &&
	    (parse_size(raw->dt_block_size, 512, 1ull << 30,
			&o->disk_test_block) != 0 ||
	     o->disk_test_block % 512 != 0))
		return usage_error("--block-size: '%s' is not a multiple of "
				   "512 bytes from 512 to 1G (a number of "
				   "bytes, or with K, M or G)%s",
				   raw->dt_block_size, "");
	if (raw->dt_repeat != NULL) {
		if ((rc = parse_count("--repeat", raw->dt_repeat, 1, 1000,
				      &v)) != 0)
			return rc;
		o->disk_test_repeat = (unsigned)v;
	}
	if ((rc = directory_options(mem, raw, o)) != 0)
		return rc;
	/* one dbench per directory; released with mem */
	if (dirlock_acquire(mem, o->directories, o->ndirectories, &why) == NULL)
		return usage_error("%s%s", why, "");

	cfg = (struct disktest_config){
		.dirs = o->directories,
		.ndirs = o->ndirectories,
		.size = o->disk_test_size,
		.block_size = o->disk_test_block,
		.repeat = o->disk_test_repeat,
		.drop_caches = o->drop_caches,
	};
	clock_gettime(CLOCK_REALTIME, &started);
	rc = disktest_main(mem, &cfg, o->json_path ? &res : NULL);
	clock_gettime(CLOCK_REALTIME, &ended);
	if (res != NULL) {
		/* also when interrupted or failed: the section says so */
		struct json_object *doc = report_json_header(o, &started,
							     &ended);
		char *err = NULL;

		if (report_json_attach(doc, "disk_test",
				       report_json_disktest(o, res)) != 0 ||
		    report_json_write(mem, doc, o->json_path, &err) != 0) {
			fprintf(stderr, "dbench: --json %s\n",
				err ? err : "out of memory");
			if (rc == 0)
				rc = 1;
		}
		json_object_put(doc);
		talloc_free(res);
	}
	return rc;
}

static const struct backend *choose_backend(void *mem, const char *name,
					    int *rc)
{
	const struct backend *be = backend_find(name);
	char *names = talloc_strdup(mem, "");

	if (be != NULL && be->unavailable == NULL)
		return be;
	for (unsigned i = 0; backend_registry[i] != NULL; i++)
		if (backend_registry[i]->unavailable == NULL)
			names = talloc_asprintf_append(names, "%s%s",
						       *names ? ", " : "",
						       backend_registry[i]->name);
	if (be == NULL)
		*rc = usage_error("unknown backend '%s'; available: %s", name,
				  names ? names : "");
	else
		*rc = usage_error("backend '%s' is not available: %s", name,
				  be->unavailable);
	return NULL;
}

/* popt hands out malloc'd copies of string arguments. */
static void free_raw(struct raw_options *raw)
{
	char **strings[] = {
		&raw->timelimit, &raw->warmup, &raw->loadfile,
		&raw->directory, &raw->backend, &raw->target_rate,
		&raw->clients_per_process, &raw->stagger, &raw->trunc_io,
		&raw->tcp_options, &raw->dt_size, &raw->dt_block_size,
		&raw->dt_repeat, &raw->percentiles, &raw->json,
		&raw->series,
	};

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		free(*strings[i]);
		*strings[i] = NULL;
	}
}

int main(int argc, const char **argv)
{
	void *mem = NULL;	/* after popt: --help exits from inside it */
	struct raw_options raw = { 0 };
	struct dbench_options o = {
		.timelimit = 600,
		.clients_per_process = 1,
		.backend = "fileio",
	};
	struct poptOption table[] = {
		{ "timelimit", 't', POPT_ARG_STRING, &raw.timelimit, 0,
		  "run time in seconds, warmup included (600)", "SECS" },
		{ "warmup", 0, POPT_ARG_STRING, &raw.warmup, 0,
		  "warmup seconds (timelimit/5; 0 with --run-once)", "SECS" },
		{ "loadfile", 'c', POPT_ARG_STRING, &raw.loadfile, 0,
		  "loadfile(s); client i uses file i mod n", "FILE[,FILE...]" },
		{ "directory", 'D', POPT_ARG_STRING, &raw.directory, 0,
		  "target directory(s); client i uses dir i mod n (.)",
		  "DIR[,DIR...]" },
		{ "backend", 'B', POPT_ARG_STRING, &raw.backend, 0,
		  "backend: fileio (default) or null", "NAME" },
		{ "target-rate", 'R', POPT_ARG_STRING, &raw.target_rate, 0,
		  "pace each client to this rate", "MB/s" },
		{ "sync", 's', POPT_ARG_NONE, &raw.sync_open, 0,
		  "open files with O_SYNC", NULL },
		{ "sync-dir", 'S', POPT_ARG_NONE, &raw.sync_dirs, 0,
		  "fsync the directory after unlink, rmdir, mkdir, rename",
		  NULL },
		{ "fsync", 'F', POPT_ARG_NONE, &raw.fsync_writes, 0,
		  "fsync after every write", NULL },
		{ "xattr", 'x', POPT_ARG_NONE, &raw.xattr, 0,
		  "do the extended-attribute calls Samba would", NULL },
		{ "clients-per-process", 0, POPT_ARG_STRING,
		  &raw.clients_per_process, 0,
		  "clients run by each worker process (1)", "N" },
		{ "run-once", 0, POPT_ARG_NONE, &raw.run_once, 0,
		  "run the loadfile once per client, then stop", NULL },
		{ "skip-cleanup", 0, POPT_ARG_NONE, &raw.skip_cleanup, 0,
		  "leave the clients' files behind", NULL },
		{ "per-client-results", 0, POPT_ARG_NONE, &raw.per_client, 0,
		  "show results per client", NULL },
		{ "machine-readable", 0, POPT_ARG_NONE, &raw.machine_readable,
		  0, "machine-readable progress and results", NULL },
		{ "no-resolve", 0, POPT_ARG_NONE, &raw.no_resolve, 0,
		  "no case-insensitive name resolution", NULL },
		{ "stat-check", 0, POPT_ARG_NONE, &raw.stat_check, 0,
		  "skip calls a stat shows to be pointless", NULL },
		{ "fake-io", 0, POPT_ARG_NONE, &raw.fake_io, 0,
		  "skip reads and writes but count their bytes", NULL },
		{ "one-byte-write-fix", 0, POPT_ARG_NONE,
		  &raw.one_byte_write_fix, 0,
		  "turn 1-byte writes at end of file into truncates", NULL },
		{ "trunc-io", 0, POPT_ARG_STRING, &raw.trunc_io, 0,
		  "cap every read and write at this size", "BYTES" },
		{ "show-execute-time", 0, POPT_ARG_NONE,
		  &raw.show_execute_time, 0,
		  "print each client's time for every pass", NULL },
		{ "stagger", 'O', POPT_ARG_STRING, &raw.stagger, 0,
		  "N > 0: client i starts i*10 ms after the release", "N" },
		{ "strict", 0, POPT_ARG_NONE, &raw.strict, 0,
		  "every status mismatch is fatal", NULL },
		{ "keep-going", 0, POPT_ARG_NONE, &raw.keep_going, 0,
		  "no mismatch is fatal; exit 1 at the end if any", NULL },
		{ "tcp-options", 'T', POPT_ARG_STRING, &raw.tcp_options, 0,
		  "accepted for compatibility; unused by local backends",
		  "OPTS" },
		{ "percentiles", 0, POPT_ARG_STRING, &raw.percentiles, 0,
		  "after the table, latency percentiles per op (bare: "
		  DEFAULT_PERCENTILES ")", "P,P,..." },
		{ "json", 0, POPT_ARG_STRING, &raw.json, 0,
		  "write the full results as a JSON document", "FILE" },
		{ "series", 0, POPT_ARG_STRING, &raw.series, 0,
		  "write a once-a-second CSV series", "FILE" },
		{ "version", 'V', POPT_ARG_NONE, &raw.version, 0,
		  "print the version and exit", NULL },
		{ "disk-test", 0, POPT_ARG_NONE, &raw.disk_test, 0,
		  "measure each -D directory's disk as dd would (write, "
		  "cold/hot read, O_DIRECT); no NUMCLIENTS", NULL },
		{ "size", 0, POPT_ARG_STRING, &raw.dt_size, 0,
		  "--disk-test: test file size (1G, less if free space is "
		  "short)", "BYTES[K|M|G|T]" },
		{ "block-size", 0, POPT_ARG_STRING, &raw.dt_block_size, 0,
		  "--disk-test: bytes per read or write (1M)",
		  "BYTES[K|M|G]" },
		{ "repeat", 0, POPT_ARG_STRING, &raw.dt_repeat, 0,
		  "--disk-test: runs of each measurement (3)", "N" },
		{ "drop-caches", 0, POPT_ARG_NONE, &raw.drop_caches, 0,
		  "--disk-test: also drop the whole page cache before cold "
		  "reads (root)", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	struct program **progs;
	const struct backend *be;
	const char *clients, *bad = NULL;
	char **str_slot[32];
	unsigned nstr = 0;
	const char **pargv;
	poptContext pc;
	int rc, opt;

	/*
	 * popt would store each string argument through arg and leak the
	 * previous one when an option is repeated: route them through the
	 * loop instead, the last one given wins.
	 */
	for (unsigned i = 0; table[i].longName || table[i].shortName; i++) {
		if (table[i].argInfo != POPT_ARG_STRING || !table[i].arg ||
		    nstr >= sizeof(str_slot) / sizeof(str_slot[0]))
			continue;
		str_slot[nstr] = table[i].arg;
		table[i].arg = NULL;
		table[i].val = STRING_OPT_BASE + (int)nstr++;
	}
	/* a bare --percentiles means the default list (popt's optional
	 * arguments would swallow a following NUMCLIENTS) */
	pargv = malloc(((size_t)argc + 1) * sizeof(*pargv));
	if (pargv == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		return 1;
	}
	for (int i = 0; i < argc; i++)
		pargv[i] = strcmp(argv[i], "--percentiles") == 0 ?
			"--percentiles=" DEFAULT_PERCENTILES : argv[i];
	pargv[argc] = NULL;
	o.argc = argc;
	o.argv = argv;
	pc = poptGetContext("dbench", argc, pargv, table, 0);
	poptSetOtherOptionHelp(pc, "[OPTION...] NUMCLIENTS");
	while ((opt = poptGetNextOpt(pc)) > 0) {
		if (opt >= STRING_OPT_BASE &&
		    opt < STRING_OPT_BASE + (int)nstr) {
			char **slot = str_slot[opt - STRING_OPT_BASE];

			free(*slot);
			*slot = poptGetOptArg(pc);
		}
	}
	mem = talloc_new(NULL);
	if (mem == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		rc = 1;
		goto out;
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
		rc = EXIT_USAGE;
		goto out;
	}
	if (raw.version) {
		printf("dbench %s\n", PACKAGE_VERSION);
		rc = 0;
		goto out;
	}
	if (raw.disk_test) {
		rc = run_disk_test(mem, pc, &raw, &o);
		goto out;
	}
	if (raw.dt_size || raw.dt_block_size || raw.dt_repeat ||
	    raw.drop_caches) {
		rc = usage_error("--size, --block-size, --repeat and "
				 "--drop-caches go with --disk-test%s%s", "",
				 "");
		goto out;
	}
	clients = poptGetArg(pc);
	if (clients == NULL || poptPeekArg(pc) != NULL) {
		fprintf(stderr, "dbench: %s (usage: dbench [OPTION...] "
			"NUMCLIENTS; try --help)\n",
			clients == NULL ? "the number of clients is missing" :
					  "only one NUMCLIENTS argument is "
					  "expected");
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = resolve_options(mem, &raw, clients, &o)) != 0)
		goto out;
	if (backend_registry_check(&bad) != 0) {
		fprintf(stderr, "dbench: internal error: backend '%s' is "
			"incomplete\n", bad);
		rc = 1;
		goto out;
	}
	if ((be = choose_backend(mem, o.backend, &rc)) == NULL)
		goto out;

	progs = talloc_array(mem, struct program *, o.nloadfiles);
	if (progs == NULL) {
		rc = 1;
		goto out;
	}
	for (unsigned i = 0; i < o.nloadfiles; i++) {
		char *err = NULL;

		progs[i] = NULL;
		for (unsigned j = 0; j < i; j++)
			if (strcmp(o.loadfiles[j], o.loadfiles[i]) == 0)
				progs[i] = progs[j];
		if (progs[i] == NULL)
			progs[i] = program_compile(mem, o.loadfiles[i], &err);
		if (progs[i] == NULL) {
			fprintf(stderr, "dbench: %s\n",
				err ? err : "cannot compile the loadfile");
			rc = EXIT_USAGE;
			goto out;
		}
	}

	{
		char *why = NULL;

		/* a half-started run is worse than none: check first */
		if (rlimits_check(mem, &o, progs, o.nloadfiles, &why) != 0) {
			fprintf(stderr, "dbench: %s\n",
				why ? why : "resource limits too low");
			rc = EXIT_USAGE;
			goto out;
		}
		/* one dbench per directory; released with mem at the end */
		if (dirlock_acquire(mem, o.directories, o.ndirectories,
				    &why) == NULL) {
			fprintf(stderr, "dbench: %s\n", why);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	printf("dbench %s - a dbench-compatible filesystem load generator\n\n",
	       PACKAGE_VERSION);
	printf("Running for %d seconds with load '%s' and minimum warmup %d "
	       "secs\n", o.timelimit,
	       raw.loadfile ? raw.loadfile : o.loadfiles[0], o.warmup);
	fflush(stdout);
	{
		struct run_setup su = {
			.opts = &o,
			.programs = progs,
			.nprograms = o.nloadfiles,
			.backend = be,
		};

		rc = supervisor_run(mem, &su);
	}
out:
	poptFreeContext(pc);
	free(pargv);
	free_raw(&raw);
	talloc_free(mem);
	return rc;
}
