/*
 * test_sweep.c - the statistics of --repeat against known values (the
 * Student t quantiles against the standard two-sided 95% table, as
 * printed e.g. in the NIST/SEMATECH e-Handbook; mean, sd, MAD and the
 * interval worked by hand), the --slo parser, and the --curve search
 * driven through a fake run hook whose latency jumps above a known
 * client count: auto must find exactly that count, a LIST must stop at
 * the first invalid point, and a failing point must end the curve with
 * the points so far and the run's status.
 */
#include "config.h"

#include <json-c/json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>
#include <unistd.h>
#include <cmocka.h>

#include "talloc_fixture.h"
#include "stats/histogram.h"
#include "stats/noise.h"
#include "stats/result.h"
#include "run/supervisor.h"
#include "sweep/sweep.h"
#include "sweep/sweep_curve.h"

static void test_t_quantiles(void **state)
{
	/* two-sided 95%: the 0.975 quantile, standard table, 3 decimals */
	static const struct { unsigned df; double t; } table[] = {
		{ 1, 12.706 }, { 2, 4.303 }, { 3, 3.182 }, { 4, 2.776 },
		{ 5, 2.571 }, { 6, 2.447 }, { 7, 2.365 }, { 8, 2.306 },
		{ 9, 2.262 }, { 10, 2.228 }, { 15, 2.131 }, { 20, 2.086 },
		{ 29, 2.045 }, { 30, 2.042 }, { 60, 2.000 }, { 100, 1.984 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		assert_true(fabs(sweep_t_quantile(0.975, table[i].df) -
				 table[i].t) < 0.0006);
	/* one-sided 99.5%, df 10: 3.169; the median is 0 */
	assert_true(fabs(sweep_t_quantile(0.995, 10) - 3.169) < 0.0006);
	assert_true(fabs(sweep_t_quantile(0.5, 7)) < 1e-9);
	/* df 1 is Cauchy: CDF(1) = 3/4 exactly */
	assert_true(fabs(sweep_t_cdf(1.0, 1) - 0.75) < 1e-12);
	assert_true(isnan(sweep_t_quantile(1.5, 3)));
	assert_true(isnan(sweep_t_quantile(0.9, 0)));
}

static void test_stats_known(void **state)
{
	const double x[] = { 12, 16, 10, 18, 14 };
	struct sweep_stats s;

	(void)state;
	sweep_stats_compute(x, 5, &s);
	/* mean 14, squared deviations 40 over 4: sd sqrt(10) */
	assert_int_equal(s.n, 5);
	assert_true(fabs(s.mean - 14) < 1e-12);
	assert_true(fabs(s.sd - sqrt(10)) < 1e-12);
	assert_true(fabs(s.cv - sqrt(10) / 14) < 1e-12);
	assert_true(s.min == 10 && s.max == 18);
	assert_true(s.median == 14);
	assert_true(s.mad == 2);	/* |dev| 2 2 4 4 0: median 2 */
	/* 14 +- 2.776445 * sqrt(10) / sqrt(5) = 14 +- 3.926486 */
	assert_true(fabs(s.ci_lo - 10.073514) < 1e-5);
	assert_true(fabs(s.ci_hi - 17.926486) < 1e-5);
	/* one value: no spread, the interval is the value */
	sweep_stats_compute(x, 1, &s);
	assert_true(s.sd == 0 && s.cv == 0 && s.ci_lo == 12 && s.ci_hi == 12);
}

static void test_outlier(void **state)
{
	const double x[] = { 100, 101, 102, 103, 150 };
	const double same[] = { 5, 5, 5, 9 };
	const double paced[] = { 1000.0, 1000.1, 1000.1, 1000.2, 1001.0 };
	struct sweep_stats s;

	(void)state;
	/* median 102, MAD 1: 3 scaled MADs are 4.45 */
	sweep_stats_compute(x, 5, &s);
	assert_true(sweep_outlier(&s, 150));
	assert_false(sweep_outlier(&s, 100));
	assert_false(sweep_outlier(&s, 106));
	assert_true(sweep_outlier(&s, 107));
	/* a MAD of 0 flags nothing (the CV says enough) */
	sweep_stats_compute(same, 4, &s);
	assert_false(sweep_outlier(&s, 9));
	/* beyond 3 MADs (0.44) but within 1% of the median: no outlier */
	sweep_stats_compute(paced, 5, &s);
	assert_false(sweep_outlier(&s, 1001.0));
	assert_true(sweep_outlier(&s, 1010.2));
	/* two runs: no outlier rule */
	sweep_stats_compute(x + 3, 2, &s);
	assert_false(sweep_outlier(&s, 150));
	/* nor with 3 or 4: a median and MAD of so few say too little */
	sweep_stats_compute(x + 1, 4, &s);
	assert_false(sweep_outlier(&s, 150));
	sweep_stats_compute(x + 2, 3, &s);
	assert_false(sweep_outlier(&s, 150));
}

/* The noise shares from counter deltas, busy, client-bound, the note. */
static void test_noise_shares(void **state)
{
	struct run_noise n = { 0 };
	char *note;

	(void)state;
	/* 1000 ticks of every CPU: 700 busy, of which dbench 200; 50 stolen */
	noise_shares(700, 50, 1000, 200.0, &n);
	assert_true(n.has_cpu);
	assert_true(fabs(n.other_cpu_share - 0.5) < 1e-12);
	assert_true(fabs(n.dbench_cpu_share - 0.2) < 1e-12);
	assert_true(fabs(n.steal_share - 0.05) < 1e-12);
	assert_true(n.busy && !n.client_bound);
	note = noise_note(NULL, &n);
	assert_non_null(note);
	assert_string_equal(note, "dbench: note: busy: the machine was busy "
			    "besides dbench (other processes 50%, steal 5% of "
			    "the CPUs): the figures may be low");
	talloc_free(note);
	/* dbench took 95%: client-bound, the rest is not busy */
	n = (struct run_noise){ 0 };
	noise_shares(970, 0, 1000, 950.0, &n);
	assert_true(!n.busy && n.client_bound);
	note = noise_note(NULL, &n);
	assert_non_null(strstr(note, "client-bound: dbench itself used 95%"));
	talloc_free(note);
	/* a quiet machine: nothing to say; dbench over the busy: clamped */
	n = (struct run_noise){ 0 };
	noise_shares(100, 0, 1000, 150.0, &n);
	assert_true(n.other_cpu_share == 0 && !n.busy && !n.client_bound);
	assert_null(noise_note(NULL, &n));
	/* no time passed: no shares */
	n = (struct run_noise){ 0 };
	noise_shares(0, 0, 0, 0, &n);
	assert_false(n.has_cpu);
}

/* The order-statistic interval of the median, against the binomial. */
static void test_median_interval(void **state)
{
	const double x[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5, 10 };
	struct sweep_stats s;

	(void)state;
	/* n 5, k 1: 1 - 2/32 */
	assert_true(fabs(sweep_median_coverage(5, 1) - 0.9375) < 1e-12);
	/* n 10, k 2: 1 - 2 (1 + 10) / 1024; k 3: 1 - 2 (1 + 10 + 45) / 1024 */
	assert_true(fabs(sweep_median_coverage(10, 2) - 0.978515625) < 1e-12);
	assert_true(fabs(sweep_median_coverage(10, 3) - 0.890625) < 1e-12);
	assert_true(sweep_median_coverage(4, 3) == 0);
	sweep_stats_compute(x, 10, &s);
	assert_int_equal(s.med_k, 2);
	assert_true(s.med_lo == 2 && s.med_hi == 9 && s.median == 5.5);
	/* fewer than 6: min to max, with the coverage it has */
	sweep_stats_compute(x, 5, &s);
	assert_int_equal(s.med_k, 1);
	assert_true(s.med_lo == 1 && s.med_hi == 9);
	assert_true(fabs(s.med_coverage - 0.9375) < 1e-12);
}

/* The runs a side would need to tell 5% apart: the values
 * dbench-history's stats.runs_needed gives for the same figures. */
static void test_runs_needed(void **state)
{
	const double a[] = { 100, 104, 97, 103, 96 };
	const double b[] = { 50, 50.5, 49.5 };
	const double c[] = { 200, 150, 250, 180 };
	const double z[] = { 100, 0 };
	struct sweep_stats s;

	(void)state;
	sweep_stats_compute(a, 5, &s);
	assert_int_equal(s.runs_needed, 9);
	sweep_stats_compute(b, 3, &s);
	assert_int_equal(s.runs_needed, 4);	/* the test's floor */
	sweep_stats_compute(c, 4, &s);
	assert_int_equal(s.runs_needed, 315);
	sweep_stats_compute(a, 1, &s);
	assert_int_equal(s.runs_needed, 0);	/* one run: no spread */
	sweep_stats_compute(z, 2, &s);
	assert_int_equal(s.runs_needed, 0);	/* no log of 0 */
}

static void test_bound_parse(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	struct sweep_bound b;
	char *err = NULL;

	assert_int_equal(sweep_bound_parse(mem, "p99<=20ms", &b, &err), 0);
	assert_int_equal(b.op, -1);
	assert_int_equal(b.stat, SWEEP_PERCENTILE);
	assert_true(b.percentile == 99 && b.limit_ms == 20);
	assert_int_equal(sweep_bound_parse(mem, "NTCreateX:p99.9<=50ms", &b,
					   &err), 0);
	assert_int_equal(b.op, OP_NTCREATEX);
	assert_true(b.percentile == 99.9 && b.limit_ms == 50);
	assert_int_equal(sweep_bound_parse(mem, "Flush:max<=1s", &b, &err), 0);
	assert_int_equal(b.op, OP_FLUSH);
	assert_true(b.stat == SWEEP_MAX && b.limit_ms == 1000);
	/* the loadfile spelling, any case; us and mean */
	assert_int_equal(sweep_bound_parse(mem, "query_path_information:"
					   "mean<=250us", &b, &err), 0);
	assert_int_equal(b.op, OP_QPATHINFO);
	assert_true(b.stat == SWEEP_MEAN && fabs(b.limit_ms - 0.25) < 1e-12);
	/* refusals say what is wrong */
	assert_int_equal(sweep_bound_parse(mem, "Frob:p99<=1ms", &b, &err), -1);
	assert_non_null(strstr(err, "unknown operation 'Frob'"));
	assert_int_equal(sweep_bound_parse(mem, "p99<=20xs", &b, &err), -1);
	assert_non_null(strstr(err, "unknown unit 'xs'"));
	assert_int_equal(sweep_bound_parse(mem, "p101<=20ms", &b, &err), -1);
	assert_non_null(strstr(err, "101"));
	assert_int_equal(sweep_bound_parse(mem, "p99=20ms", &b, &err), -1);
	assert_int_equal(sweep_bound_parse(mem, "p99<=-1ms", &b, &err), -1);
	assert_int_equal(sweep_bound_parse(mem, "median<=1ms", &b, &err), -1);
	talloc_free(mem);
}

/* ---- the curve through a fake run hook ---- */

static unsigned knee;		/* above this many clients: 50 ms */
static unsigned fail_at;	/* this many clients: the run fails */
static unsigned ran[64], nran;
static unsigned noisy_at;	/* this many clients: 15 and 25 ms in turn */
static unsigned noisy_calls;

static int fake_run(void *mem, const struct run_setup *su)
{
	struct run_result *r = result_new(mem);
	unsigned n = su->opts->nclients;
	uint64_t lat = n > knee ? 50000000ull : 1000000ull;
	struct op_stats *op;
	int rc;

	if (n == noisy_at)
		lat = noisy_calls++ % 2 ? 25000000ull : 15000000ull;
	if (nran < 64)
		ran[nran] = n;
	nran++;
	if (n == fail_at || r == NULL)
		return 1;
	r->seconds = 1;
	r->nclients = n;
	r->bytes = (uint64_t)n * 1000000;
	op = &r->ops[OP_NTCREATEX];
	for (unsigned i = 0; i < 100; i++) {
		hist_record(&op->hist, lat);
		op->count++;
		op->sum_ns += lat;
		op->max_ns = lat;
	}
	rc = su->report(mem, su->report_arg, su->opts, r);
	talloc_free(r);
	return rc != 0 ? 1 : 0;
}

static const char *dirs[] = { "." };
static const char *loadfiles[] = { "t.txt" };
static const double pcts[] = { 50, 99 };
static const char *argv_[] = { "dbench", "--curve" };

/* Run a curve of o (bounds b) and return its JSON section. */
static struct json_object *curve(void *mem, struct dbench_options *o,
				 const char *bound, int *rc)
{
	struct sweep_bound *b = talloc(mem, struct sweep_bound);
	char path[] = "/tmp/test_sweep.XXXXXX", *err = NULL;
	struct run_setup su = { .opts = o, .nprograms = 1 };
	struct sweep_setup ss = { .base = &su, .run = fake_run, .nranks = 1 };
	struct json_object *doc, *sec = NULL;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sweep_bound_parse(mem, bound, b, &err), 0);
	o->directories = dirs;
	o->ndirectories = 1;
	o->loadfiles = loadfiles;
	o->nloadfiles = 1;
	o->backend = "null";
	o->clients_per_process = 1;
	o->timelimit = 1;
	o->percentiles = pcts;
	o->npercentiles = 2;
	o->argc = 2;
	o->argv = argv_;
	o->curve = true;
	o->bounds = b;
	o->nbounds = 1;
	o->json_path = path;
	nran = 0;
	*rc = sweep_main(mem, &ss);
	doc = json_object_from_file(path);
	unlink(path);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "curve", &sec));
	json_object_get(sec);
	json_object_put(doc);
	return sec;
}

static int64_t get_int(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v != NULL ? json_object_get_int64(v) : -1;
}

static void test_curve_auto_knee(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	struct dbench_options o = { .curve_auto = true, .curve_max = 64 };
	struct json_object *sec, *pts = NULL;
	int rc;

	knee = 5;
	fail_at = 0;
	sec = curve(mem, &o, "p99<=20ms", &rc);
	assert_int_equal(rc, 0);
	/* doubling 1 2 4 8 (broken), bisecting 6 (broken), 5 */
	assert_int_equal(nran, 6);
	assert_int_equal(ran[3], 8);
	assert_int_equal(ran[4], 6);
	assert_int_equal(ran[5], 5);
	assert_int_equal(get_int(sec, "answer_clients"), 5);
	assert_true(json_object_object_get_ex(sec, "points", &pts));
	assert_int_equal(json_object_array_length(pts), 6);
	/* in order of clients, each with its whole result */
	assert_int_equal(get_int(json_object_array_get_idx(pts, 4),
				 "clients"), 6);
	assert_non_null(json_object_object_get(
		json_object_array_get_idx(pts, 0), "result"));
	json_object_put(sec);
	/* a knee of 12: 16 breaks; 12 holds, 14 breaks, 13 breaks */
	knee = 12;
	sec = curve(mem, &o, "NTCreateX:max<=10ms", &rc);
	assert_int_equal(get_int(sec, "answer_clients"), 12);
	json_object_put(sec);
	/* every point holds up to --curve-max: a lower bound */
	knee = 1000;
	o.curve_max = 6;
	sec = curve(mem, &o, "p99<=20ms", &rc);
	assert_int_equal(nran, 4);	/* 1 2 4 6 */
	assert_int_equal(get_int(sec, "answer_clients"), 6);
	json_object_put(sec);
	talloc_free(mem);
}

static void test_curve_list_and_failure(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	static const unsigned list[] = { 1, 2, 3, 4 };
	struct dbench_options o = { .curve_points = list, .ncurve_points = 4 };
	struct json_object *sec, *pts = NULL, *c = NULL;
	int rc;

	knee = 2;
	fail_at = 0;
	sec = curve(mem, &o, "p99<=20ms", &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(nran, 4);	/* a LIST runs every point */
	assert_int_equal(get_int(sec, "answer_clients"), 2);
	json_object_put(sec);
	/* the third point fails: two points and the failed one, status 1 */
	knee = 10;
	fail_at = 3;
	sec = curve(mem, &o, "p99<=20ms", &rc);
	assert_int_equal(rc, 1);
	assert_int_equal(nran, 3);
	assert_true(json_object_object_get_ex(sec, "points", &pts));
	assert_int_equal(json_object_array_length(pts), 3);
	assert_string_equal(json_object_get_string(json_object_object_get(
		json_object_array_get_idx(pts, 2), "status")), "FAILED");
	assert_true(json_object_object_get_ex(sec, "complete", &c));
	assert_false(json_object_get_boolean(c));
	/* a failed point is no broken bound: no capacity, what held so far */
	assert_int_equal(get_int(sec, "answer_clients"), -1);
	assert_int_equal(get_int(sec, "held_clients"), 2);
	assert_true(json_object_object_get_ex(sec, "ended_early", &c));
	assert_true(json_object_get_boolean(c));
	assert_non_null(strstr(json_object_get_string(json_object_object_get(
		sec, "answer")), "the curve ended early: the point of 3 "
		"clients failed (exit status 1)"));
	json_object_put(sec);
	talloc_free(mem);
}

/* --curve with --repeat: medians, the re-run of a point within its noise
 * of the bound, the capacity's interval; a failed run ends it early. */
static void test_curve_repeat(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	struct dbench_options o = { .curve_auto = true, .curve_max = 64,
				    .repeat = 3 };
	struct json_object *sec, *pts = NULL, *p4, *rep = NULL;
	int rc;

	knee = 5;
	fail_at = 0;
	noisy_at = 0;
	sec = curve(mem, &o, "p99<=20ms", &rc);
	assert_int_equal(rc, 0);
	/* 1 2 4 8 6 5, three runs each; every point sure: [5-5] */
	assert_int_equal(nran, 18);
	assert_int_equal(get_int(sec, "answer_clients"), 5);
	assert_int_equal(get_int(sec, "answer_clients_low"), 5);
	assert_int_equal(get_int(sec, "answer_clients_high"), 5);
	json_object_put(sec);
	/* 4 clients read 15 and 25 ms in turn against 20 ms: 3 more runs
	 * to confirm (median 20: held), but never surely: [2-5] */
	noisy_at = 4;
	noisy_calls = 0;
	sec = curve(mem, &o, "p99<=20ms", &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(nran, 21);
	assert_int_equal(get_int(sec, "answer_clients"), 5);
	assert_int_equal(get_int(sec, "answer_clients_low"), 2);
	assert_int_equal(get_int(sec, "answer_clients_high"), 5);
	assert_true(json_object_object_get_ex(sec, "points", &pts));
	p4 = json_object_array_get_idx(pts, 2);
	assert_int_equal(get_int(p4, "clients"), 4);
	assert_true(json_object_object_get_ex(p4, "repeats", &rep));
	assert_int_equal(get_int(rep, "n"), 6);
	assert_true(json_object_get_boolean(json_object_object_get(
		rep, "confirmed")));
	assert_non_null(strstr(json_object_get_string(json_object_object_get(
		sec, "answer")), "at most 5 clients [2-5] within p99<=20ms"));
	json_object_put(sec);
	/* a run of the point of 4 fails: ended early, never "at most" */
	noisy_at = 0;
	fail_at = 4;
	sec = curve(mem, &o, "p99<=20ms", &rc);
	assert_int_equal(rc, 1);
	assert_int_equal(get_int(sec, "answer_clients"), -1);
	assert_int_equal(get_int(sec, "held_clients"), 2);
	assert_null(strstr(json_object_get_string(json_object_object_get(
		sec, "answer")), "at most"));
	json_object_put(sec);
	fail_at = 0;
	talloc_free(mem);
}

/* A bound reads the response time where the document has one (ops due
 * on a schedule), and says so. */
static void test_bound_response(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	struct dbench_options o = { .dialect = DIALECT_400 };
	const char *text =
		"{\"operations\": ["
		" {\"name\": \"NTCreateX\", \"count\": 10, \"avg_ms\": 1,"
		"  \"max_ms\": 2, \"histogram\": {\"buckets\": [[1000000, 1007813, 10]]},"
		"  \"response\": {\"count\": 10, \"avg_ms\": 30, \"max_ms\": 90,"
		"   \"percentiles\": [{\"percentile\": 99, \"ms\": 80}]}},"
		" {\"name\": \"Close\", \"count\": 10, \"avg_ms\": 1,"
		"  \"max_ms\": 3, \"histogram\": {\"buckets\": [[1000000, 1007813, 10]]},"
		"  \"response\": {\"count\": 10, \"avg_ms\": 10, \"max_ms\": 40,"
		"   \"percentiles\": [{\"percentile\": 99, \"ms\": 35}]}}]}";
	struct json_object *doc = json_tokener_parse(text);
	struct sweep_bound b;
	char *err = NULL;
	bool resp = false;

	assert_non_null(doc);
	assert_int_equal(sweep_bound_parse(mem, "p99<=20ms", &b, &err), 0);
	/* over every op: the largest of the ops' p99 response times */
	assert_true(sweep_bound_figure(&b, &o, doc, &resp) == 80);
	assert_true(resp);
	assert_int_equal(sweep_bound_parse(mem, "Close:max<=1s", &b, &err), 0);
	assert_true(sweep_bound_figure(&b, &o, doc, &resp) == 40);
	/* the document's names are the table's in either output dialect */
	o.dialect = DIALECT_50;
	assert_true(sweep_bound_figure(&b, &o, doc, &resp) == 40);
	o.dialect = DIALECT_400;
	assert_int_equal(sweep_bound_parse(mem, "mean<=1s", &b, &err), 0);
	assert_true(sweep_bound_figure(&b, &o, doc, &resp) == 20);
	/* an op that did not run: no figure */
	assert_int_equal(sweep_bound_parse(mem, "Flush:max<=1s", &b, &err), 0);
	assert_true(sweep_bound_figure(&b, &o, doc, &resp) < 0);
	json_object_put(doc);
	talloc_free(mem);
}

/* A point whose warmup never became steady (--warmup auto's "steady":
 * false) is UNSTEADY, its bounds still judged; one without the member
 * (a fixed warmup) is not. */
static void test_judge_unsteady(void **state)
{
	struct tstate *ts = *state;
	void *mem = talloc_new(ts->ctx);
	struct dbench_options o = { .dialect = DIALECT_400 };
	struct sweep_bound b;
	double fig[1];
	struct curve_point cp = { .figure = fig };
	char *err = NULL;
	const char *ops = "\"operations\": [{\"name\": \"Close\", "
		"\"count\": 4, \"avg_ms\": 1, \"max_ms\": 30}]";

	assert_int_equal(sweep_bound_parse(mem, "max<=20ms", &b, &err), 0);
	o.bounds = &b;
	o.nbounds = 1;
	cp.pt.doc = json_tokener_parse(talloc_asprintf(mem, "{%s, \"warmup\":"
		" {\"mode\": \"auto\", \"steady\": false}}", ops));
	curve_judge(&o, &cp);
	assert_true(cp.unsteady);
	assert_false(cp.valid);
	assert_int_equal(cp.broken, 0);
	assert_true(fig[0] == 30);
	json_object_put(cp.pt.doc);
	b.limit_ms = 50;
	cp = (struct curve_point){ .figure = fig };
	cp.pt.doc = json_tokener_parse(talloc_asprintf(mem, "{%s}", ops));
	curve_judge(&o, &cp);
	assert_false(cp.unsteady);
	assert_true(cp.valid);
	assert_int_equal(cp.broken, -1);
	json_object_put(cp.pt.doc);
	talloc_free(mem);
}

static void test_overall_response(void **state)
{
	const double x[] = { 100, 200, 300 }, y[] = { 1, 1, 4 };

	(void)state;
	/* (100*1 + 100*1 + 100*2.5) / 300 */
	assert_true(fabs(sweep_overall_response(x, y, 3) - 1.5) < 1e-12);
	assert_true(fabs(sweep_overall_response(x, y, 1) - 1) < 1e-12);
	assert_true(sweep_overall_response(x, y, 0) < 0);
	/* a point that falls back adds nothing: (100 * 1 + 100 * 2) / 200 */
	{
		const double xf[] = { 100, 50, 200 }, yf[] = { 1, 9, 3 };

		assert_true(fabs(sweep_overall_response(xf, yf, 3) - 1.5) <
			    1e-12);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_stats_known),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_median_interval),
		cmocka_unit_test(test_runs_needed),
		cmocka_unit_test(test_noise_shares),
		cmocka_unit_test_setup_teardown(test_bound_parse, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_curve_auto_knee, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_curve_repeat, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_curve_list_and_failure,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_bound_response, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_judge_unsteady, setup,
						teardown),
		cmocka_unit_test(test_overall_response),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
