/*
 * sweep_repeat.c - --repeat N on a load run: the same measurement N
 * times, each a whole run on fresh trees, a line per run, then mean and
 * standard deviation, min-max, the coefficient of variation and the 95%
 * confidence interval of the mean (Student t), with a warning when the
 * runs vary more than a quiet machine's would.  A run that fails or is
 * interrupted ends the series; the runs so far are summarised.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <talloc.h>

#include "sweep_private.h"
#include "report/json_put.h"

/* The metrics summarised, as the text and the JSON name them. */
enum { M_MBPS, M_OPS, M_N };
static const char *const metric_key[M_N] = { "mb_per_s", "ops_per_s" };
static const char *const metric_unit[M_N] = { "MB/sec", "ops/sec" };

static double metric(const struct sweep_point *pt, unsigned m)
{
	return m == M_MBPS ? pt->mb_per_s : pt->ops_per_s;
}

/* The summary line of metric m. */
static void stats_line(FILE *f, unsigned m, const struct sweep_stats *s)
{
	if (s->n < 2) {
		/* one figure has no spread: an sd or CV of 0 would claim one */
		fprintf(f, "%-8s %.2f (1 run: no spread)\n", metric_unit[m],
			s->mean);
		return;
	}
	fprintf(f, "%-8s mean %.2f +/- %.2f sd, min %.2f, max %.2f, "
		"CV %.2f%%, 95%% CI of the mean %.2f to %.2f\n", metric_unit[m],
		s->mean, s->sd, s->min, s->max, s->cv * 100, s->ci_lo,
		s->ci_hi);
	fprintf(f, "%-8s median %.2f, %.1f%% interval of the median %.2f to "
		"%.2f (runs ranked %u and %u)\n", "", s->median,
		floor(s->med_coverage * 1000) / 10, s->med_lo, s->med_hi,
		s->med_k, s->n + 1 - s->med_k);
	if (s->runs_needed > 0)
		fprintf(f, "%-8s telling %.0f%% apart from this spread needs "
			"about %u runs a side\n", "", SWEEP_DETECT * 100,
			s->runs_needed);
}

/* What the noise of one run says of its figure. */
static const char *noise_said(const struct run_noise *nz)
{
	if (nz->busy)
		return "the machine was busy besides dbench during it";
	if (nz->client_bound)
		return "it was client-bound (dbench itself saturated the CPUs)";
	if (!nz->has_cpu)
		return "was the machine busy?";
	return "the machine was not busy during it";
}

/* Which runs were busy or client-bound, as the end of a CV warning. */
static const char *busy_runs(void *mem, const struct sweep_point *pts,
			     unsigned n)
{
	char *s = talloc_strdup(mem, "");
	unsigned busy = 0;

	for (unsigned i = 0; s != NULL && i < n; i++)
		if (pts[i].noise.busy || pts[i].noise.client_bound)
			s = talloc_asprintf_append(s, "%s%u", busy++ ? ", " :
						   "", i + 1);
	if (s == NULL)
		return "was the machine busy?";
	if (busy == 0)
		return "the machine was not busy besides dbench: the "
		       "variation is the system measured";
	return talloc_asprintf(mem, "the machine was busy besides dbench "
			       "(or dbench client-bound) during run%s %s",
			       busy > 1 ? "s" : "", s);
}

/*
 * The warnings of metric m (said on stderr, kept in warn for the JSON):
 * a CV over SWEEP_CV_WARN, each run beyond 3 MADs of the median.
 */
static void stats_warn(void *mem, struct json_object *warn, unsigned m,
		       const struct sweep_stats *s,
		       const struct sweep_point *pts, unsigned n)
{
	char *w;

	if (s->n > 1 && s->cv > SWEEP_CV_WARN) {
		w = talloc_asprintf(mem, "%s: CV %.2f%% is over %.0f%%: "
				    "results vary; %s", metric_unit[m],
				    s->cv * 100, SWEEP_CV_WARN * 100,
				    busy_runs(mem, pts, n));
		if (w != NULL) {
			fprintf(stderr, "dbench: warning: %s\n", w);
			add(warn, json_object_new_string(w));
		}
	}
	for (unsigned i = 0; i < n; i++) {
		if (!sweep_outlier(s, metric(&pts[i], m)))
			continue;
		w = talloc_asprintf(mem, "%s: run %u (%.2f) lies beyond 3 "
				    "MADs of the median (%.2f): results vary; "
				    "%s", metric_unit[m], i + 1,
				    metric(&pts[i], m), s->median,
				    noise_said(&pts[i].noise));
		if (w != NULL) {
			fprintf(stderr, "dbench: warning: %s\n", w);
			add(warn, json_object_new_string(w));
		}
	}
}

/*
 * The summary of the n runs that completed (of pts), printed on f; the
 * repeats section returned (without the runs).
 */
static struct json_object *summarise(void *mem, FILE *f,
				     const struct dbench_options *o,
				     const struct sweep_point *pts,
				     unsigned n)
{
	struct json_object *sec = json_object_new_object();
	struct json_object *st = json_object_new_object();
	struct json_object *warn = json_object_new_array();
	double *x = talloc_array(mem, double, n ? n : 1);

	put_int(sec, "requested", o->repeat);
	put_int(sec, "n", n);
	if (x == NULL || n == 0) {
		fprintf(f, "\nNo run completed: no statistics\n");
	} else {
		struct sweep_stats s[M_N];

		fprintf(f, "\n%u run%s of %u client%s, %d s each:\n", n,
			n > 1 ? "s" : "", pts[0].clients,
			pts[0].clients == 1 ? "" : "s", o->timelimit);
		for (unsigned m = 0; m < M_N; m++) {
			for (unsigned i = 0; i < n; i++)
				x[i] = metric(&pts[i], m);
			sweep_stats_compute(x, n, &s[m]);
			stats_line(f, m, &s[m]);
			put(st, metric_key[m], sweep_stats_json(&s[m]));
		}
		/* the table first, then what to think of it */
		fflush(f);
		for (unsigned m = 0; m < M_N; m++)
			stats_warn(mem, warn, m, &s[m], pts, n);
	}
	fflush(f);
	put(sec, "statistics", st);
	put(sec, "warnings", warn);
	return sec;
}

int sweep_repeat(void *mem, const struct sweep_setup *ss)
{
	const struct dbench_options *o = ss->base->opts;
	struct sweep_point *pts = talloc_zero_array(mem, struct sweep_point,
						    o->repeat);
	const struct sweep_point **ptrs = talloc_zero_array(
		mem, const struct sweep_point *, o->repeat);
	unsigned done = 0;
	FILE *text = options_text_stream(o);
	struct json_object *sec, *runs;
	int rc = 0, saved;

	if (pts == NULL || ptrs == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		return 1;
	}
	for (unsigned i = 0; i < o->repeat; i++) {
		char prefix[64];

		fprintf(text, "\nRun %u of %u\n", i + 1, o->repeat);
		fflush(text);
		rc = sweep_agree(ss, sweep_run_point(mem, ss, o->nclients,
						     &pts[i]));
		snprintf(prefix, sizeof(prefix), "Run %u of %u: ", i + 1,
			 o->repeat);
		if (pts[i].doc != NULL && rc == 0)
			sweep_point_line(text, prefix, &pts[i]);
		else
			fprintf(text, "%s%s (exit status %d)\n", prefix,
				rc >= 128 ? "interrupted" : "failed", rc);
		fflush(text);
		if (rc != 0)
			break;
		done++;
	}
	sec = summarise(mem, text, o, pts, done);
	for (unsigned i = 0; i < o->repeat; i++)
		ptrs[i] = &pts[i];
	saved = ss->rank != 0 ? 0 :
		sweep_save(mem, o, "repeat", sec, ptrs, done + (rc != 0));
	runs = json_object_new_array();
	for (unsigned i = 0; i < o->repeat; i++)
		if (pts[i].doc != NULL)
			add(runs, json_object_get(pts[i].doc));
	put(sec, "runs", runs);
	if (ss->rank != 0)
		json_object_put(sec);
	else if (sweep_write_json(mem, o, ptrs, o->repeat, "repeats",
				  sec) != 0 && rc == 0)
		rc = 1;
	for (unsigned i = 0; i < o->repeat; i++)
		json_object_put(pts[i].doc);
	return rc != 0 ? rc : saved;
}
