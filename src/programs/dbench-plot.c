/*
 * dbench-plot.c - PNG charts of a dbench JSON result (dbench --json),
 * drawn by gnuplot: throughput over time with the warmup shaded, latency
 * percentiles per operation, and the latency distribution of each
 * operation (several results: see plot_multi.c; disk tests:
 * plot_disktest.c).  It writes the data and a gnuplot script to a temporary
 * directory, runs gnuplot there, and removes them.  The output directory
 * is created (with its parents) when it is missing.
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <talloc.h>
#include <unistd.h>

#include "programs/plot_private.h"
#include "report/result_load.h"

#define EXIT_USAGE 2
#define BINS_PER_OCTAVE 4	/* distribution chart: 4 bins per doubling */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dbench-plot RESULT.json... [-l LABEL]... [-o DIR]\n"
		"Draw PNG charts of a dbench result (written by dbench "
		"--json) with gnuplot:\n"
		"  throughput.png            MB/s and p99 latency per second, "
		"warmup shaded\n"
		"  latency_percentiles.png   latency percentiles of every "
		"operation\n"
		"  latency_distribution.png  latency histogram of every "
		"operation\n"
		"A disk test (dbench --disk-test --json) gives one chart:\n"
		"  disk_test.png             median MB/s of each measurement "
		"per directory\n\n"
		"Several results go on the same charts: throughput.png with "
		"every run's\n"
		"MB/s per second, latency_percentiles.png with a panel per "
		"run, side by\n"
		"side (disk tests: a bar per run and directory), each run "
		"named by its\n"
		"label (default host:directory) and start time.  One "
		"RESULT.json may be -\n"
		"(standard input).\n\n"
		"  -l, --label LABEL name the next result (in the order of "
		"the files)\n"
		"  -o, --output DIR  where to write them (default: the "
		"current directory;\n"
		"                    created with its parents when missing)\n"
		"  -V, --version     print the version and exit\n"
		"  -h, --help        show this help\n\n"
		"Needs gnuplot (Debian: apt-get install gnuplot-nox).\n");
}

/* The gnuplot program on PATH (or $GNUPLOT), or NULL. */
static char *find_gnuplot(void *mem)
{
	const char *env = getenv("GNUPLOT");
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *dir;

	if (env != NULL && *env != '\0')
		return access(env, X_OK) == 0 ? talloc_strdup(mem, env) : NULL;
	copy = talloc_strdup(mem, path ? path : "/usr/bin:/bin");
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir != NULL;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = talloc_asprintf(mem, "%s/gnuplot", *dir ? dir : ".");

		if (p != NULL && access(p, X_OK) == 0)
			return p;
		talloc_free(p);
	}
	return NULL;
}


/* throughput.png: MB/s (left axis) and p99 latency (right) per second. */
static int plot_throughput(struct plot *p)
{
	struct json_object *series = result_get(p->doc, "series");
	FILE *f = open_data(p, "series.dat");
	double warm_end = -1, end = 0;
	size_t n = is_array(series) ? json_object_array_length(series) : 0;

	if (f == NULL)
		return -1;
	fprintf(f, "# mid_s start_s end_s mb_per_s p99_ms ops_per_s\n");
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(series, i);
		double e = result_num(r, "elapsed_s", 0);
		double d = result_num(r, "duration_s", 1);

		fprintf(f, "%.6f %.6f %.6f %.6f %.6f %.3f\n", e - d / 2, e - d,
			e, result_num(r, "mb_per_s", 0),
			result_num(r, "p99_latency_ms", 0),
			result_num(r, "ops_per_s", 0));
		if (strcmp(result_str(r, "phase", ""), "warmup") == 0)
			warm_end = e;
		end = e;
	}
	if (fclose(f) != 0)
		return -1;
	fprintf(p->gp, "set output \"%s/throughput.png\"\n", p->qout);
	fprintf(p->gp, "reset\nset title \"%s\\nthroughput and p99 "
		"latency per second\"\n", p->title);
	fprintf(p->gp, "set xlabel 'seconds since the start'\n"
		"set ylabel 'MB/s'\nset y2label 'p99 latency (ms)'\n"
		"set ytics nomirror\nset y2tics\nset yrange [0:*]\n"
		"set y2range [0:*]\nset grid ytics\n"
		"set offsets 0, 0, graph 0.08, 0\n"
		"set key outside bottom center horizontal\n");
	fprintf(p->gp, "set xrange [0:%g]\n", end > 0 ? end : 1);
	if (warm_end > 0)
		fprintf(p->gp, "set object 1 rect from 0, graph 0 to %g, "
			"graph 1 behind fillcolor rgb '#e0e0e0' "
			"fillstyle solid 1.0 noborder\n"
			"set label 1 'warmup' at %g, graph 0.95 center "
			"textcolor rgb '#606060'\n", warm_end, warm_end / 2);
	if (n == 0)
		fprintf(p->gp, "set label 2 'no per-second data' at graph 0.5,"
			" graph 0.5 center\nplot 1/0 notitle\n");
	else
		fprintf(p->gp, "plot 'series.dat' using 1:4 with "
			"linespoints lw 2 pt 7 ps 0.5 lc rgb '#1f6fb4' "
			"title 'MB/s', '' using 1:5 axes x1y2 with linespoints "
			"lw 1 pt 6 ps 0.5 dt 2 lc rgb '#d0501b' "
			"title 'p99 latency (ms)'\n");
	return 0;
}

/* latency_percentiles.png: per op, each percentile and the max. */
static int plot_percentiles(struct plot *p)
{
	struct json_object *plist = result_get(result_get(p->doc, "options"),
					       "percentiles");
	FILE *f = open_data(p, "percentiles.dat");
	unsigned row;

	if (f == NULL)
		return -1;
	row = write_percentiles(f, p->doc, NULL);
	if (fclose(f) != 0)
		return -1;
	fprintf(p->gp, "set output \"%s/latency_percentiles.png\"\n", p->qout);
	fprintf(p->gp, "reset\nset title \"%s\\nlatency percentiles "
		"per operation\"\n", p->title);
	fprintf(p->gp, "set ylabel 'latency (ms, log scale)'\n"
		"set logscale y\nset format y '%%g'\nset grid ytics mytics\n"
		"set xtics rotate by -35 left\nset xrange [-0.5:%u-0.5]\n"
		"set key outside right top vertical\n"
		"set bmargin 6\n", row ? row : 1);
	if (row == 0) {
		fprintf(p->gp, "unset logscale y\nset label 2 'no operations' "
			"at graph 0.5, graph 0.5 center\nplot 1/0 notitle\n");
		return 0;
	}
	fprintf(p->gp, "plot ");
	gp_percentile_curves(p->gp, "percentiles.dat", plist);
	return 0;
}

/* The axes' extent over every op's bins (ms and %). */
struct dist_range {
	double xmin, xmax, ymin;
};

/*
 * Writes op's histogram to f as one gnuplot data block: the share of its
 * ops in bins of BINS_PER_OCTAVE per doubling of latency.  Returns false
 * (writing nothing) for an op without a histogram or without ops.
 */
static bool write_distribution(FILE *f, struct json_object *op,
			       struct dist_range *r)
{
	struct json_object *bk = result_get(result_get(op, "histogram"),
					    "buckets");
	size_t nb = is_array(bk) ? json_object_array_length(bk) : 0;
	double total = 0, share = 0;
	long bin = LONG_MIN;

	if (nb == 0 || result_num(op, "count", 0) <= 0)
		return false;
	for (size_t b = 0; b < nb; b++) {
		struct json_object *e = json_object_array_get_idx(bk, b);

		total += json_object_get_double(
			json_object_array_get_idx(e, 2));
	}
	fprintf(f, "# %s\n", result_str(op, "name", "?"));
	for (size_t b = 0; b <= nb; b++) {
		struct json_object *e = b < nb ?
			json_object_array_get_idx(bk, b) : NULL;
		double lo = e ? json_object_get_double(
				json_object_array_get_idx(e, 0)) : 0;
		long nbin = e ? (long)floor(log2(lo > 1 ? lo : 1) *
					    BINS_PER_OCTAVE) : LONG_MAX;

		if (nbin != bin && bin != LONG_MIN) {
			double x0 = exp2((double)bin / BINS_PER_OCTAVE);
			double x1 = exp2((double)(bin + 1) / BINS_PER_OCTAVE);

			/* x, y, xlow, xhigh, ylow, yhigh (ms, %) */
			fprintf(f, "%.9g %.6g %.9g %.9g 1e-9 %.6g\n",
				sqrt(x0 * x1) / 1e6, share,
				x0 / 1e6, x1 / 1e6, share);
			if (share > 0 && share < r->ymin)
				r->ymin = share;
			if (x0 / 1e6 < r->xmin)
				r->xmin = x0 / 1e6;
			if (x1 / 1e6 > r->xmax)
				r->xmax = x1 / 1e6;
			share = 0;
		}
		bin = nbin;
		if (e != NULL) {
			struct json_object *cnt =
				json_object_array_get_idx(e, 2);

			share += 100.0 / total * json_object_get_double(cnt);
		}
	}
	fprintf(f, "\n\n");
	return true;
}

/*
 * latency_distribution.png: one small chart per op, the share of its ops
 * in bins of BINS_PER_OCTAVE per doubling of latency, on a log axis.
 */
static int plot_distribution(struct plot *p)
{
	struct json_object *ops = result_get(p->doc, "operations");
	size_t nops = is_array(ops) ? json_object_array_length(ops) : 0;
	unsigned nplots = 0, cols, rows;
	struct dist_range r = { .xmin = INFINITY, .xmax = 0, .ymin = 100 };
	FILE *f = open_data(p, "distribution.dat");

	if (f == NULL)
		return -1;
	/* one gnuplot data block per op, separated by two blank lines */
	for (size_t i = 0; i < nops; i++)
		if (write_distribution(f, json_object_array_get_idx(ops, i),
				       &r))
			nplots++;
	if (fclose(f) != 0)
		return -1;
	cols = nplots > 9 ? 4 : nplots > 4 ? 3 : nplots > 1 ? 2 : 1;
	rows = nplots ? (nplots + cols - 1) / cols : 1;
	fprintf(p->gp, "reset\nset terminal pngcairo size %u,%u "
		"font 'sans,9' noenhanced\n", 360 * cols, 90 + 240 * rows);
	fprintf(p->gp, "set output \"%s/latency_distribution.png\"\n", p->qout);
	fprintf(p->gp, "set multiplot layout %u,%u title \"%s\\nlatency "
		"distribution per operation (share of its operations)\" "
		"font 'sans,11'\n", rows, cols, p->title);
	fprintf(p->gp, "set logscale x\nset format x '%%g'\n"
		"set xlabel 'latency (ms)' offset 0,0.5\n"
		"set ylabel '%% of ops (log)' offset 1,0\n"
		"set logscale y\nset format y '%%g'\n"
		"set yrange [%g:100]\n"
		"set grid xtics\nset style fill solid 0.6 border -1\n"
		"unset key\n", pow(10, floor(log10(r.ymin))));
	/* the same latency axis for every op, whole decades */
	if (nplots > 0)
		fprintf(p->gp, "set xrange [%g:%g]\n",
			pow(10, floor(log10(r.xmin))),
			pow(10, ceil(log10(r.xmax))));
	if (nplots == 0)
		fprintf(p->gp, "set label 2 'no latency histograms' at graph "
			"0.5, graph 0.5 center\nunset logscale x\n"
			"plot 1/0 notitle\n");
	for (size_t i = 0, k = 0; i < nops; i++) {
		struct json_object *op = json_object_array_get_idx(ops, i);
		struct json_object *bk = result_get(result_get(op, "histogram"),
						    "buckets");

		if (!is_array(bk) || json_object_array_length(bk) == 0 ||
		    result_num(op, "count", 0) <= 0)
			continue;
		fprintf(p->gp, "set title \"%s (%.0f ops)\"\n",
			gp_quote(p->mem, result_str(op, "name", "?")),
			result_num(op, "count", 0));
		fprintf(p->gp, "plot 'distribution.dat' index %zu using "
			"1:2:3:4:5:6 with boxxyerror lc rgb '#1f6fb4'\n",
			k++);
	}
	fprintf(p->gp, "unset multiplot\n");
	return 0;
}

static int run_gnuplot(const char *gnuplot, const char *script,
		       const char *tmp)
{
	pid_t pid;
	int status;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (chdir(tmp) != 0)
			_exit(127);
		execl(gnuplot, "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void remove_scratch(void *mem, const char *tmp, unsigned ndocs)
{
	static const char *const names[] = {
		"plot.gp", "series.dat", "percentiles.dat", "distribution.dat",
		"disktest.dat",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = talloc_asprintf(mem, "%s/%s", tmp, names[i]);

		if (p != NULL)
			unlink(p);
	}
	/* the files of several results (plot_multi.c) */
	for (unsigned i = 0; ndocs > 1 && i < ndocs; i++) {
		char *p = talloc_asprintf(mem, "%s/series_%u.dat", tmp, i);
		char *q = talloc_asprintf(mem, "%s/percentiles_%u.dat", tmp, i);

		if (p != NULL)
			unlink(p);
		if (q != NULL)
			unlink(q);
	}
	/* load curves (plot_curve.c) */
	for (unsigned i = 0; i < ndocs; i++) {
		char *c = talloc_asprintf(mem, "%s/curve_%u.dat", tmp, i);

		if (c != NULL)
			unlink(c);
	}
	rmdir(tmp);
}

struct plot_args {
	const char **files;	/* the results ("-": standard input) */
	const char **labels;	/* -l, in the order of the files */
	unsigned nfiles, nlabels;
	const char *outdir;
};

/* An option's value: argv[i + 1] (i advanced), or NULL after a message. */
static const char *option_value(int argc, char **argv, int *i,
				const char *what)
{
	if (*i + 1 >= argc) {
		fprintf(stderr, "dbench-plot: %s needs %s\n", argv[*i], what);
		return NULL;
	}
	return argv[++*i];
}

/*
 * Parse the command line into a.  Returns -1 to go on, or the exit
 * status (after --help, --version or a usage error).
 */
static int parse_args(int argc, char **argv, struct plot_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(s, "-V") == 0 ||
			   strcmp(s, "--version") == 0) {
			printf("dbench-plot %s\n", PACKAGE_VERSION);
			return 0;
		} else if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0) {
			a->outdir = option_value(argc, argv, &i, "a directory");
			if (a->outdir == NULL)
				return EXIT_USAGE;
		} else if (strcmp(s, "-l") == 0 || strcmp(s, "--label") == 0) {
			a->labels[a->nlabels] = option_value(argc, argv, &i,
							     "a label");
			if (a->labels[a->nlabels++] == NULL)
				return EXIT_USAGE;
		} else if (strncmp(s, "--label=", 8) == 0) {
			a->labels[a->nlabels++] = s + 8;
		} else if (s[0] == '-' && s[1] != '\0') {
			fprintf(stderr, "dbench-plot: unknown option '%s' "
				"(try --help)\n", s);
			return EXIT_USAGE;
		} else {
			for (unsigned f = 0; f < a->nfiles; f++)
				if (strcmp(s, "-") == 0 &&
				    strcmp(a->files[f], "-") == 0) {
					fprintf(stderr, "dbench-plot: - "
						"(standard input) can be "
						"given once\n");
					return EXIT_USAGE;
				}
			a->files[a->nfiles++] = s;
		}
	}
	if (a->nfiles == 0) {
		fprintf(stderr, "dbench-plot: no result file given (usage: "
			"dbench-plot RESULT.json... [-l LABEL]... "
			"[-o DIR])\n");
		return EXIT_USAGE;
	}
	if (a->nlabels > a->nfiles) {
		fprintf(stderr, "dbench-plot: %u labels for %u files\n",
			a->nlabels, a->nfiles);
		return EXIT_USAGE;
	}
	return -1;
}

/*
 * mkdir -p: create path and whichever of its parents are missing (mode
 * 0777 less the umask).  Returns 0, or -1 with errno set and *failed the
 * directory that could not be made (under mem; NULL if out of memory).
 */
static int make_dirs(void *mem, const char *path, char **failed)
{
	char *p = talloc_strdup(mem, path);

	*failed = NULL;
	if (p == NULL || *p == '\0') {
		errno = p == NULL ? ENOMEM : ENOENT;
		*failed = p;
		return -1;
	}
	for (char *s = p + 1;; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		if (s[-1] != '/') {
			*s = '\0';
			if (mkdir(p, 0777) != 0 && errno != EEXIST) {
				*failed = p;
				return -1;
			}
			*s = c;
		}
		if (c == '\0')
			return 0;
	}
}

/*
 * The output directory: created when missing, then checked to be a
 * writable directory.  Returns 0, or EXIT_USAGE after a message naming
 * the directory and the system's reason.
 */
static int output_dir(void *mem, const char *outdir)
{
	struct stat st;
	char *failed;

	if (make_dirs(mem, outdir, &failed) != 0) {
		int e = errno;

		if (failed != NULL && strcmp(failed, outdir) != 0)
			fprintf(stderr, "dbench-plot: cannot create the "
				"output directory '%s': '%s': %s\n", outdir,
				failed, strerror(e));
		else
			fprintf(stderr, "dbench-plot: cannot create the "
				"output directory '%s': %s\n", outdir,
				strerror(e));
		return EXIT_USAGE;
	}
	if (stat(outdir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    access(outdir, W_OK | X_OK) != 0) {
		fprintf(stderr, "dbench-plot: output directory '%s': %s\n",
			outdir, errno && stat(outdir, &st) != 0 ?
			strerror(errno) : "not a writable directory");
		return EXIT_USAGE;
	}
	return 0;
}

/* The charts' title: the run, its clients and start time (quoted). */
static char *chart_title(struct plot *p)
{
	char *label = result_label(p->mem, p->doc);
	double nclients = result_num(result_get(p->doc, "result"), "clients",
				     0);

	if (result_is_disktest(p->doc))
		return gp_quote(p->mem, talloc_asprintf(p->mem, "dbench "
			"--disk-test %s, %s", label ? label : "",
			result_str(p->doc, "start_time", "")));
	if (result_is_curve(p->doc))
		return gp_quote(p->mem, talloc_asprintf(p->mem, "dbench "
			"--curve %s, %s", label ? label : "",
			result_str(p->doc, "start_time", "")));
	return gp_quote(p->mem, talloc_asprintf(p->mem, "dbench %s, "
		"%.0f client%s, %s", label ? label : "", nclients,
		nclients == 1 ? "" : "s", result_str(p->doc, "start_time", "")));
}

/* Write the script and the data into p->tmp; 0, or -1 with a message. */
static int write_script(struct plot *p, const char *script)
{
	p->gp = fopen(script, "w");
	if (p->gp == NULL || p->title == NULL) {
		fprintf(stderr, "dbench-plot: %s: %s\n", p->tmp,
			strerror(errno));
		return -1;
	}
	fprintf(p->gp, "set terminal pngcairo size 1000,600 font 'sans,10' "
		"noenhanced\n");
	if (result_is_curve(p->doc) ? plot_curve(p) != 0 :
	    result_is_disktest(p->doc) ? plot_disktest(p) != 0 :
	    p->ndocs > 1 ? plot_multi_throughput(p) != 0 ||
			   plot_multi_percentiles(p) != 0 :
	    plot_throughput(p) != 0 || plot_percentiles(p) != 0 ||
	    plot_distribution(p) != 0) {
		fprintf(stderr, "dbench-plot: writing data in %s: %s\n",
			p->tmp, strerror(errno));
		return -1;
	}
	if (fclose(p->gp) != 0) {
		p->gp = NULL;
		fprintf(stderr, "dbench-plot: %s: %s\n", script,
			strerror(errno));
		return -1;
	}
	p->gp = NULL;
	return 0;
}

/*
 * Draw the charts of p->doc into p->out with gnuplot, through a scratch
 * directory; returns the exit status.
 */
static int draw(struct plot *p, const char *gnuplot, const char *file,
		const char *outdir)
{
	const char *tmpdir = getenv("TMPDIR");
	char *tmpl, *script;
	int rc = 1;

	tmpl = talloc_asprintf(p->mem, "%s/dbench-plot.XXXXXX",
			       tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (p->out == NULL || p->qout == NULL || tmpl == NULL ||
	    mkdtemp(tmpl) == NULL) {
		fprintf(stderr, "dbench-plot: cannot make a scratch "
			"directory: %s\n", strerror(errno));
		return 1;
	}
	p->tmp = tmpl;
	p->title = chart_title(p);
	script = talloc_asprintf(p->mem, "%s/plot.gp", p->tmp);
	if (script == NULL || write_script(p, script) != 0)
		goto scratch;
	if (run_gnuplot(gnuplot, script, p->tmp) != 0) {
		fprintf(stderr, "dbench-plot: %s failed on the charts of "
			"%s%s\n", gnuplot, result_file_name(file),
			p->ndocs > 1 ? " and the others" : "");
		goto scratch;
	}
	if (result_is_curve(p->doc))
		printf("%s/curve.png\n", outdir);
	else if (result_is_disktest(p->doc))
		printf("%s/disk_test.png\n", outdir);
	else if (p->ndocs > 1)
		printf("%s/throughput.png\n%s/latency_percentiles.png\n",
		       outdir, outdir);
	else
		printf("%s/throughput.png\n%s/latency_percentiles.png\n"
		       "%s/latency_distribution.png\n", outdir, outdir,
		       outdir);
	rc = fflush(stdout) != 0 ? 1 : 0;
scratch:
	if (p->gp != NULL)
		fclose(p->gp);
	remove_scratch(p->mem, p->tmp, p->ndocs);
	return rc;
}

/*
 * Load every result into p (the first is p->doc); 0, or 1 after a
 * message: unreadable, or disk tests given with load runs.
 */
static int load_all(struct plot *p, const struct plot_args *a)
{
	p->docs = talloc_zero_array(p->mem, struct json_object *, a->nfiles);
	if (p->docs == NULL)
		return 1;
	for (unsigned i = 0; i < a->nfiles; i++) {
		char *err = NULL;

		p->docs[i] = result_load(p->mem, a->files[i], &err);
		if (p->docs[i] == NULL) {
			fprintf(stderr, "dbench-plot: %s\n",
				err ? err : a->files[i]);
			return 1;
		}
		p->ndocs = i + 1;
		if (result_is_curve(p->docs[i]) !=
		    result_is_curve(p->docs[0])) {
			fprintf(stderr, "dbench-plot: %s and %s: a load curve "
				"(dbench --curve) goes on a chart with other "
				"curves only\n", result_file_name(a->files[0]),
				result_file_name(a->files[i]));
			return 1;
		}
		if (result_is_disktest(p->docs[i]) !=
		    result_is_disktest(p->docs[0])) {
			unsigned dt = result_is_disktest(p->docs[i]) ? i : 0;

			fprintf(stderr, "dbench-plot: %s is a disk test "
				"(dbench --disk-test) and %s a load run: they "
				"do not go on the same charts\n",
				result_file_name(a->files[dt]),
				result_file_name(a->files[dt ? 0 : i]));
			return 1;
		}
	}
	p->doc = p->docs[0];
	if (a->nlabels > 0) {
		p->labels = talloc_zero_array(p->mem, const char *, a->nfiles);
		if (p->labels == NULL)
			return 1;
		for (unsigned i = 0; i < a->nfiles; i++)
			p->labels[i] = i < a->nlabels ? a->labels[i] :
				result_label(p->mem, p->docs[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	void *mem = talloc_new(NULL);
	struct plot_args a = { .outdir = "." };
	struct plot p = { .mem = mem };
	char *gnuplot;
	int rc;

	if (mem == NULL)
		return 1;
	a.files = talloc_array(mem, const char *, argc);
	a.labels = talloc_array(mem, const char *, argc);
	rc = a.files && a.labels ? parse_args(argc, argv, &a) : 1;
	if (rc >= 0)
		goto out;
	rc = load_all(&p, &a);
	if (rc != 0)
		goto out;
	rc = 1;
	gnuplot = find_gnuplot(mem);
	if (gnuplot == NULL) {
		fprintf(stderr, "dbench-plot: gnuplot is not installed; it "
			"draws the charts (Debian/Ubuntu: apt-get install "
			"gnuplot-nox)\n");
		goto out;
	}
	rc = output_dir(mem, a.outdir);
	if (rc != 0)
		goto out;
	p.out = realpath(a.outdir, NULL);
	if (p.out != NULL) {
		char *o = talloc_strdup(mem, p.out);

		free((void *)p.out);
		p.out = o;
	}
	p.qout = gp_quote(mem, p.out);
	rc = draw(&p, gnuplot, a.files[0], a.outdir);
out:
	for (unsigned i = 0; i < p.ndocs; i++)
		json_object_put(p.docs[i]);
	talloc_free(mem);
	return rc;
}
