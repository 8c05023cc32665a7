/*
 * report_run.c - every output of a finished run, in order: the mismatch
 * summary on stderr, the text report, the JSON document (to stdout or a
 * file) and the series; a write that fails is said and fails the run.
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "report/report.h"
#include "stats/noise.h"
#include "report/report_json.h"
#include "stats/series.h"
#include "run/supervisor.h"

/*
 * Flush f; a failure (a closed pipe, a full disk) is said once on stderr.
 * Returns 0 or -1.
 */
static int flush_checked(FILE *f, const char *what)
{
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	fprintf(stderr, "dbench: writing %s: %s\n", what,
		strerror(errno ? errno : EIO));
	return -1;
}

/* The JSON document to stdout (--json -), checked.  Returns 0 or -1. */
static int json_to_stdout(struct json_object *doc)
{
	const char *text = doc == NULL ? NULL :
		json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					       JSON_C_TO_STRING_NOSLASHESCAPE);

	if (text == NULL) {
		fprintf(stderr, "dbench: --json -: out of memory\n");
		return -1;
	}
	errno = 0;
	if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF) {
		fprintf(stderr, "dbench: writing the JSON document: %s\n",
			strerror(errno ? errno : EIO));
		return -1;
	}
	return flush_checked(stdout, "the JSON document");
}

void report_noise_note(void *mem, const struct run_result *r)
{
	char *note;

	/* an interrupted run's window is cut short: nothing to judge; a
	 * test suite whose checks compare stderr turns the note off
	 * (DBENCH_TEST_NO_NOISE_NOTE=1): under make -j2 the test beside it
	 * makes the machine busy; the JSON and the history keep the facts */
	if (r->interrupted || getenv("DBENCH_TEST_NO_NOISE_NOTE") != NULL)
		return;
	note = noise_note(mem, &r->noise);
	if (note != NULL)
		fprintf(stderr, "%s\n", note);
}

int report_write_all(void *mem_ctx, void *arg, const struct dbench_options *o,
		     const struct run_result *r)
{
	void *mem = talloc_new(mem_ctx);
	FILE *text = options_text_stream(o);
	struct json_object *doc;
	char *err = NULL;
	int rc = 0, saved = 0;

	(void)arg;
	/* on stderr, where no parser of the table reads it */
	fflush(text);
	report_mismatches(stderr, mem, o, r);
	if (!r->interrupted && run_failed_kind(r) >= 0)
		report_failed_kind(stderr, mem, o, r,
				   (unsigned)run_failed_kind(r));
	errno = 0;
	report_text(text, mem, o, r);
	if (flush_checked(text, "the report") != 0)
		rc = -1;
	report_noise_note(mem, r);
	doc = options_wants_document(o) ? report_json_build(mem, o, r) : NULL;
	if (o->json_path != NULL && strcmp(o->json_path, "-") == 0) {
		if (json_to_stdout(doc) != 0)
			rc = -1;
	} else if (o->json_path != NULL) {
		if (report_json_write(mem, doc, o->json_path, &err) != 0) {
			fprintf(stderr, "dbench: --json %s\n", err);
			rc = -1;
		}
	}
	if (o->series_path != NULL && r->series != NULL &&
	    series_write_csv(mem, r->series, o->series_path, &err) != 0) {
		fprintf(stderr, "dbench: --series %s\n", err);
		rc = -1;
	}
	/* last: what is saved is what the run did, its exit status too */
	if (o->label != NULL) {
		if (doc != NULL)
			report_json_history_percentiles(doc, r);
		saved = report_history_save(mem, o, doc, r, rc != 0 ? 1 :
					    run_exit_status(r, o));
	}
	json_object_put(doc);
	talloc_free(mem);
	return rc != 0 ? rc : saved;
}
