/*
 * sweep.c - the parts every sweep shares: one whole run through the
 * program's run hook with its result captured (instead of reported: the
 * sweep prints one line per run and its own summary), the line of a
 * run, and the --json document that holds every run.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "report/report.h"
#include "report/report_json.h"
#include "stats/result.h"
#include "run/supervisor.h"
#include "sweep_private.h"
#include "report/json_put.h"

/* A stop request (SIGINT, SIGTERM, SIGHUP) between two runs: each run
 * handles its own (the pool's handlers), and gives these back after. */
static volatile sig_atomic_t between_signal, between_count;

static void on_signal_between(int sig)
{
	between_signal = sig;
	between_count++;
}

unsigned sweep_signal_count(void)
{
	return (unsigned)between_count;
}

int sweep_signal(void)
{
	return between_signal;
}

/* Catch (on) or give back (off) the stop signals between runs. */
static void between_handlers(bool on)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_signal_between : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * The report hook of a sweep's run (its arg the sweep_point): capture
 * the run's document and figures, and say mismatches.
 */
static int sweep_capture(void *mem_ctx, void *arg,
			 const struct dbench_options *o,
			 const struct run_result *r)
{
	struct sweep_point *pt = arg;

	/* on stderr, as a single run does */
	fflush(options_text_stream(o));
	report_mismatches(stderr, mem_ctx, o, r);
	pt->doc = report_json_build(mem_ctx, o, r);
	if (pt->doc == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		return -1;
	}
	/* what the history keeps has each op's p50 and p99 */
	if (o->label != NULL)
		report_json_history_percentiles(pt->doc, r);
	pt->seconds = r->seconds;
	pt->noise = r->noise;
	report_noise_note(mem_ctx, r);
	/* the figures the document's "result" holds, from the same values */
	pt->mb_per_s = result_mbps(r->bytes, r->seconds);
	pt->ops_per_s = result_ops_per_s(r);
	return 0;
}

int sweep_run_point(void *mem, const struct sweep_setup *ss,
		    unsigned nclients, struct sweep_point *pt)
{
	struct dbench_options *o;
	struct run_setup su = *ss->base;
	unsigned ranks = ss->nranks > 0 ? ss->nranks : 1;
	int rc;

	memset(pt, 0, sizeof(*pt));
	pt->clients = clients_total(nclients, ranks);
	pt->status = 1;
	if (between_signal != 0) {
		/* stopped before this run began: it does not start */
		pt->status = 128 + between_signal;
		return pt->status;
	}
	o = talloc_memdup(mem, ss->base->opts, sizeof(*o));
	if (o == NULL) {
		fprintf(stderr, "dbench: out of memory\n");
		return 1;
	}
	o->nclients = nclients;
	su.opts = o;
	su.report = sweep_capture;
	su.report_arg = pt;
	rc = ss->run(o, &su);
	talloc_free(o);
	pt->status = rc;
	return rc;
}

int sweep_agree(const struct sweep_setup *ss, int v)
{
	if (ss->agree != NULL)
		ss->agree(&v);
	return v;
}

void sweep_point_line(FILE *f, const char *prefix,
		      const struct sweep_point *pt)
{
	fprintf(f, "%s%.2f MB/sec, %.2f ops/sec, %u client%s, %.2f s\n",
		prefix, pt->mb_per_s, pt->ops_per_s, pt->clients,
		pt->clients == 1 ? "" : "s", pt->seconds);
}

struct json_object *sweep_stats_json(const struct sweep_stats *s)
{
	struct json_object *j = json_object_new_object();

	put_int(j, "n", s->n);
	put_num(j, "mean", s->mean, 6);
	put_num(j, "sd", s->sd, 6);
	put_num(j, "min", s->min, 6);
	put_num(j, "max", s->max, 6);
	put_num(j, "cv_percent", s->cv * 100, 4);
	put_num(j, "median", s->median, 6);
	put_num(j, "mad", s->mad, 6);
	if (s->n > 1) {
		put_num(j, "t_975", s->t, 6);
		put_num(j, "ci95_low", s->ci_lo, 6);
		put_num(j, "ci95_high", s->ci_hi, 6);
		put_num(j, "median_ci_low", s->med_lo, 6);
		put_num(j, "median_ci_high", s->med_hi, 6);
		put_num(j, "median_ci_coverage", s->med_coverage, 6);
		if (s->runs_needed > 0)
			put_int(j, "runs_needed_5_percent", s->runs_needed);
	}
	return j;
}

/* doc's member key, deep-copied into top (when present). */
static void copy_member(struct json_object *top, struct json_object *doc,
			const char *key)
{
	struct json_object *v = NULL, *c = NULL;

	if (doc != NULL && json_object_object_get_ex(doc, key, &v) &&
	    json_object_deep_copy(v, &c, NULL) == 0)
		put(top, key, c);
}

/* The JSON document to stdout (--json -), checked.  Returns 0 or -1. */
static int json_stdout(struct json_object *doc)
{
	const char *text = json_object_to_json_string_ext(doc,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

	errno = 0;
	if (text == NULL || fputs(text, stdout) == EOF ||
	    fputc('\n', stdout) == EOF || fflush(stdout) != 0) {
		fprintf(stderr, "dbench: writing the JSON document: %s\n",
			text == NULL ? "out of memory" :
			strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

int sweep_write_json(void *mem, const struct dbench_options *o,
		     const struct sweep_point *const *pts, unsigned n,
		     const char *key, struct json_object *section)
{
	static const char *const header[] = {
		"schema_version", "tool", "command_line", "options", "host",
		"directories", "start_time", "end_time", "loadfiles",
	};
	struct json_object *top, *first = NULL, *last = NULL;
	char *err = NULL;
	int rc;

	if (o->json_path == NULL) {
		json_object_put(section);
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		if (pts[i]->doc != NULL) {
			first = first != NULL ? first : pts[i]->doc;
			last = pts[i]->doc;
		}
	top = first != NULL ? json_object_new_object() :
			      report_json_header(o, NULL, NULL, NULL);
	for (size_t i = 0; first != NULL && i < sizeof(header) /
						sizeof(header[0]); i++)
		copy_member(top, strcmp(header[i], "end_time") == 0 ? last :
				 first, header[i]);
	if (top == NULL || report_json_attach(top, key, section) != 0) {
		fprintf(stderr, "dbench: --json: out of memory\n");
		json_object_put(top);
		return -1;
	}
	if (strcmp(o->json_path, "-") == 0) {
		rc = json_stdout(top);
	} else {
		rc = report_json_write(mem, top, o->json_path, &err);
		if (rc != 0)
			fprintf(stderr, "dbench: --json %s\n",
				err ? err : "out of memory");
	}
	json_object_put(top);
	return rc;
}

void sweep_between(bool on)
{
	if (on)
		between_signal = 0;
	between_handlers(on);
}
