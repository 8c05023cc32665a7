/*
 * cli_check.c - checking the values of the command line: numbers,
 * lists, output files, -D and -c, for a load run and for --disk-test.
 * Each refusal is one "dbench: ..." line naming the option and the
 * accepted values.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <popt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "cli_shared.h"
#include "disktest/disktest.h"
#include "stats/steady.h"
#include "history/history.h"
#include "util/util.h"

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
 * Can a file be made in dir (the writers make a new file beside the one
 * they replace)?  Tried, not inferred from the mode bits, which root
 * passes even where nothing can be created (/proc).  0 or an errno.
 */
static int probe_dir(void *mem, const char *dir)
{
	char *probe = talloc_asprintf(mem, "%s/.dbench-probe.%ld", dir,
				      (long)getpid());
	struct stat st;
	int fd, err = 0;

	if (probe == NULL)
		return ENOMEM;
	if (stat(dir, &st) != 0)
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else if ((fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			    0600)) < 0)
		err = errno;
	else {
		close(fd);
		unlink(probe);
	}
	talloc_free(probe);
	return err;
}

/*
 * An output file must be writable before the run starts: a regular file
 * (or none yet) in a directory where a file can be made, or something
 * else that opens for writing (a pipe, /dev/stdout); never a directory.
 */
static int check_output_file(void *mem, const char *opt, const char *path)
{
	char *dir = talloc_strdup(mem, path), *slash;
	struct stat st;
	int err, fd;

	if (dir == NULL)
		return EXIT_USAGE;
	if (*path == '\0')
		return usage_error("%s: the file name is empty", opt);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return usage_error("%s '%s': is a directory", opt, path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISFIFO(st.st_mode))
			return 0;	/* its reader may come later */
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return usage_error("%s '%s': not writable: %s", opt,
					   path, strerror(errno));
		close(fd);
		return 0;
	}
	if (stat(path, &st) == 0 && access(path, W_OK) != 0)
		return usage_error("%s '%s': not writable: %s", opt, path,
				   strerror(errno));
	slash = strrchr(dir, '/');
	if (slash == NULL)
		dir = talloc_strdup(mem, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (dir == NULL)
		return EXIT_USAGE;
	err = probe_dir(mem, dir);
	if (err != 0)
		return usage_error("%s '%s': cannot %s the file there: %s",
				   opt, path,
				   stat(path, &st) == 0 ? "replace" : "create",
				   strerror(err));
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
 * --label and --history: the database is found now, so that a run that
 * could not be saved is refused before it starts.  Returns 0 or the exit
 * status of a usage error.
 */
static int history_options(void *mem, const struct raw_options *raw,
			   struct dbench_options *o)
{
	char *err = NULL;

	if (raw->label == NULL) {
		if (raw->history != NULL)
			return usage_error("--history goes with --label "
					   "(nothing is saved without one)");
		return 0;
	}
	if (!history_available())
		return usage_error("--label: dbench was built without SQLite "
				   "(install libsqlite3-dev and run configure "
				   "again)");
	if (raw->label[0] == '\0')
		return usage_error("--label: the name is empty");
	o->label = raw->label;
	o->history_path = history_path(mem, raw->history, &err);
	if (o->history_path == NULL)
		return usage_error("--label: %s", err);
	return 0;
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
	return history_options(mem, raw, o);
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

/* --warmup auto's own options: only with it.  Returns 0 or the exit
 * status. */
static int warmup_auto_options(const struct raw_options *raw, bool auto_wu,
			       struct dbench_options *o)
{
	const char *given = raw->warmup_max ? "--warmup-max" :
			    raw->warmup_window ? "--warmup-window" :
			    raw->warmup_bound ? "--warmup-bound" : NULL;

	if (!auto_wu)
		return given != NULL ?
			usage_error("%s: only with --warmup auto", given) : 0;
	o->warmup_auto = true;
	o->warmup_bound_pct = STEADY_DEFAULT_BOUND_PCT;
	if (raw->warmup_bound != NULL &&
	    (parse_double(raw->warmup_bound, 0, 1000,
			  &o->warmup_bound_pct) != 0 ||
	     o->warmup_bound_pct <= 0))
		return usage_error("--warmup-bound: '%s' is not a percentage "
				   "above 0 and at most 1000",
				   raw->warmup_bound);
	return 0;
}

/* The numbers of a load run.  Returns 0 or the exit status. */
static int count_options(const struct raw_options *raw, const char *clients,
			 struct dbench_options *o)
{
	int64_t n = 0, tl = o->timelimit, wu = -1,
		cpp = o->clients_per_process, st = 0, ti = 0, wmax = -1,
		wwin = STEADY_DEFAULT_WINDOW;
	bool auto_wu = raw->warmup != NULL && strcmp(raw->warmup, "auto") == 0;
	const struct {
		const char *name;
		const char *text;	/* NULL: not given */
		int64_t min, max;
		int64_t *out;
	} counts[] = {
		{ "number of clients", clients, 1, MAX_CLIENTS, &n },
		{ "--timelimit", raw->timelimit, 1, INT_MAX / 2, &tl },
		{ "--warmup", auto_wu ? NULL : raw->warmup, 0, INT_MAX / 2,
		  &wu },
		{ "--warmup-max", raw->warmup_max, 1, INT_MAX / 2, &wmax },
		{ "--warmup-window", raw->warmup_window, 1, STEADY_MAX_WINDOW,
		  &wwin },
		{ "--clients-per-process", raw->clients_per_process, 1,
		  MAX_CLIENTS, &cpp },
		{ "--stagger", raw->stagger, 0, 1000000, &st },
		{ "--trunc-io", raw->trunc_io, 1, INT64_MAX / 2, &ti },
	};
	int rc;

	if (raw->warmup != NULL && !auto_wu &&
	    parse_int64(raw->warmup, 0, INT_MAX / 2, &wu) != 0)
		return usage_error("--warmup: '%s' is not a whole number of "
				   "seconds from 0 to %d, or auto",
				   raw->warmup, INT_MAX / 2);
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
	if ((rc = warmup_auto_options(raw, auto_wu, o)) != 0)
		return rc;
	if (auto_wu) {
		/* at the latest after --warmup-max, by default -t seconds */
		o->warmup = wmax > 0 ? (int)wmax : o->timelimit;
		o->warmup_window = (unsigned)wwin;
	}
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
int cli_resolve_options(void *mem, const struct cli_parse *cp,
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
	o->force = raw->force;
	o->per_client_results = raw->per_client;
	o->machine_readable = raw->machine_readable;
	o->no_resolve = raw->no_resolve;
	o->stat_check = raw->stat_check;
	o->fake_io = raw->fake_io;
	o->one_byte_write_fix = raw->one_byte_write_fix;
	o->show_execute_time = raw->show_execute_time;
	if ((rc = dialect_option(raw, o)) != 0)
		return rc;
	if ((rc = cli_sweep_options(mem, raw, o)) != 0)
		return rc;
	if ((rc = result_options(mem, raw, o)) != 0 ||
	    (rc = cli_sweep_percentiles(mem, o)) != 0)
		return rc;
	if (raw->series != NULL &&
	    (rc = check_output_file(mem, "--series", raw->series)) != 0)
		return rc;
	o->series_path = raw->series;
	if ((rc = cli_backend_options(mem, cp, o, &cli->backend)) != 0)
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
		{ "--warmup-max", raw->warmup_max != NULL },
		{ "--warmup-window", raw->warmup_window != NULL },
		{ "--warmup-bound", raw->warmup_bound != NULL },
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
		{ "--curve", raw->curve != NULL },
		{ "--curve-max", raw->curve_max != NULL },
		{ "--slo", raw->nslo > 0 },
		{ "--force", raw->force },
		{ "--allow-scsi-writes", raw->allow_scsi_writes },
		{ "--allow-block-writes", raw->allow_block_writes },
		{ "--force-device", raw->force_device },
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
int cli_disk_test_options(void *mem, const struct cli_parse *cp,
			  poptContext pc, struct dbench_options *o)
{
	const struct raw_options *raw = &cp->raw;
	const struct backend *local = local_backend(cp->registry);
	int64_t v;
	int rc;

	if (poptGetArg(pc) != NULL)
		return usage_error("--disk-test takes no NUMCLIENTS argument");
	if ((rc = disk_test_refusals(cp)) != 0 ||
	    (rc = cli_tcp_options(raw, NULL, o)) != 0 ||
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
