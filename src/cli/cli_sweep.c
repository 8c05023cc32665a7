/*
 * cli_sweep.c - the options of several runs in one command: --repeat N
 * on a load run, --curve[=LIST|auto], --curve-max and the --slo bounds
 * (parsed by the sweep module, which knows what a bound means).  Each
 * refusal is one "dbench: ..." line naming the option.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "cli_shared.h"
#include "sweep/sweep.h"
#include "util/util.h"

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* --curve=LIST: ascending distinct counts.  Returns 0 or the status. */
static int curve_list(void *mem, const char *text, struct dbench_options *o)
{
	char *copy = talloc_strdup(mem, text), *save = NULL, *tok;
	unsigned *v = NULL, n = 0, m = 0;
	int64_t c;

	if (copy == NULL)
		return 1;
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (parse_int64(tok, 1, MAX_CLIENTS, &c) != 0)
			return usage_error("--curve: '%s' in '%s' is not a "
					   "number of clients from 1 to %d "
					   "(a list such as 1,2,4,8, or auto)",
					   tok, text, MAX_CLIENTS);
		v = talloc_realloc(mem, v, unsigned, n + 1);
		if (v == NULL)
			return 1;
		v[n++] = (unsigned)c;
	}
	if (n == 0 || strstr(text, ",,") != NULL || text[0] == ',' ||
	    text[strlen(text) - 1] == ',')
		return usage_error("--curve: '%s' is not a list of client "
				   "counts (such as 1,2,4,8) or auto", text);
	qsort(v, n, sizeof(*v), cmp_unsigned);
	for (unsigned i = 0; i < n; i++)
		if (m == 0 || v[i] != v[m - 1])
			v[m++] = v[i];
	o->curve_points = v;
	o->ncurve_points = m;
	return 0;
}

/* --slo, each parsed.  Returns 0 or the exit status. */
static int slo_options(void *mem, const struct raw_options *raw,
		       struct dbench_options *o)
{
	struct sweep_bound *b = talloc_zero_array(mem, struct sweep_bound,
						  raw->nslo ? raw->nslo : 1);

	if (b == NULL)
		return 1;
	for (unsigned i = 0; i < raw->nslo; i++) {
		char *err = NULL;

		if (sweep_bound_parse(mem, raw->slo[i], &b[i], &err) != 0)
			return usage_error("--slo '%s': %s", raw->slo[i],
					   err ? err : "out of memory");
	}
	o->bounds = b;
	o->nbounds = raw->nslo;
	return 0;
}

int cli_sweep_percentiles(void *mem, struct dbench_options *o)
{
	double *v;
	unsigned n = 0;

	if (!o->curve)
		return 0;
	v = talloc_array(mem, double, o->npercentiles + o->nbounds + 2);
	if (v == NULL)
		return 1;
	/* the table's p50 and p99, each bound's; ascending and distinct */
	v[n++] = 50;
	v[n++] = 99;
	for (unsigned i = 0; i < o->npercentiles; i++)
		v[n++] = o->percentiles[i];
	for (unsigned i = 0; i < o->nbounds; i++)
		if (o->bounds[i].stat == SWEEP_PERCENTILE)
			v[n++] = o->bounds[i].percentile;
	qsort(v, n, sizeof(*v), cmp_double);
	o->npercentiles = 0;
	for (unsigned i = 0; i < n; i++)
		if (o->npercentiles == 0 || v[i] != v[o->npercentiles - 1])
			v[o->npercentiles++] = v[i];
	o->percentiles = v;
	return 0;
}

int cli_sweep_options(void *mem, const struct raw_options *raw,
		      struct dbench_options *o)
{
	int64_t v;
	int rc;

	o->repeat = 1;
	if (raw->dt_repeat != NULL) {
		if (parse_int64(raw->dt_repeat, 1, 1000, &v) != 0)
			return usage_error("--repeat: '%s' is not a whole "
					   "number from 1 to 1000",
					   raw->dt_repeat);
		o->repeat = (unsigned)v;
	}
	if (raw->curve == NULL) {
		if (raw->curve_max != NULL || raw->nslo > 0)
			return usage_error("%s goes with --curve",
					   raw->nslo > 0 ? "--slo" :
					   "--curve-max");
	}
	if (o->repeat > 1 || raw->curve != NULL) {
		if (raw->skip_cleanup)
			return usage_error("--skip-cleanup does not go with "
					   "%s: each run needs fresh trees",
					   raw->curve ? "--curve" :
					   "--repeat");
		if (raw->series != NULL)
			return usage_error("--series does not go with %s: "
					   "each run's series is in the --json "
					   "document", raw->curve ? "--curve" :
					   "--repeat");
	}
	if (raw->curve == NULL)
		return 0;
	o->curve = true;
	o->curve_max = DEFAULT_CURVE_MAX;
	if (raw->curve_max != NULL) {
		if (parse_int64(raw->curve_max, 1, MAX_CLIENTS, &v) != 0)
			return usage_error("--curve-max: '%s' is not a whole "
					   "number from 1 to %d",
					   raw->curve_max, MAX_CLIENTS);
		o->curve_max = (unsigned)v;
	}
	if (strcmp(raw->curve, "auto") == 0) {
		o->curve_auto = true;
		if (raw->nslo == 0)
			return usage_error("--curve=auto needs at least one "
					   "--slo bound (e.g. --slo "
					   "'p99<=20ms'): it stops where a "
					   "bound breaks");
	} else {
		if (raw->curve_max != NULL)
			return usage_error("--curve-max goes with --curve=auto");
		if ((rc = curve_list(mem, raw->curve, o)) != 0)
			return rc;
	}
	return slo_options(mem, raw, o);
}
