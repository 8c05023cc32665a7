/*
 * sweep_slo.c - the latency bounds of a load curve (--slo): parsing
 * "[OP:]STAT<=TIME", checking that the loadfiles run each op named, and
 * a bound's figure in a run's JSON document.  The figure is read from
 * the document (not the run's raw result) so that where the document
 * holds the response time measured from when each op was due
 * (.operations[].response), the bound holds that down instead of the
 * service time.
 */
#include "config.h"

#include <ctype.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <talloc.h>

#include "report/report.h"
#include "report/result_load.h"
#include "sweep/sweep.h"
#include "util/util.h"

/* The op kind named name (either spelling, any case), or -1. */
static int op_by_name(const char *name, size_t len)
{
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		const char *a = op_info[k].name, *b = op_info[k].short_name;

		if ((strlen(a) == len && strncasecmp(a, name, len) == 0) ||
		    (b != NULL && strlen(b) == len &&
		     strncasecmp(b, name, len) == 0))
			return (int)k;
	}
	return -1;
}

/* "20ms" -> 20: the number and its unit.  Returns 0 or -1 (*err). */
static int parse_time(void *mem, const char *s, double *ms, char **err)
{
	static const struct { const char *unit; double ms; } units[] = {
		{ "ns", 1e-6 }, { "us", 1e-3 }, { "ms", 1 }, { "s", 1000 },
	};
	char *end = NULL, *num;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	v = strtod(s, &end);
	if (end == s || !(v > 0) || !isfinite(v)) {
		*err = talloc_asprintf(mem, "'%s' is not a time above 0 (a "
				       "number and ns, us, ms or s)", s);
		return -1;
	}
	num = talloc_strndup(mem, end, strlen(end));
	while (num != NULL && *num != '\0' &&
	       isspace((unsigned char)num[strlen(num) - 1]))
		num[strlen(num) - 1] = '\0';
	for (size_t i = 0; num != NULL && i < sizeof(units) / sizeof(units[0]);
	     i++)
		if (strcmp(num, units[i].unit) == 0) {
			*ms = v * units[i].ms;
			return 0;
		}
	*err = talloc_asprintf(mem, "unknown unit '%s' (ns, us, ms or s)",
			       num ? num : "");
	return -1;
}

/* "p99", "max", "mean" into *b.  Returns 0 or -1 (*err). */
static int parse_stat(void *mem, const char *s, size_t len,
		      struct sweep_bound *b, char **err)
{
	char *t = talloc_strndup(mem, s, len);

	while (t != NULL && len > 0 && isspace((unsigned char)t[len - 1]))
		t[--len] = '\0';
	while (t != NULL && isspace((unsigned char)*t))
		t++;
	if (t == NULL)
		return -1;
	if (strcasecmp(t, "max") == 0) {
		b->stat = SWEEP_MAX;
		return 0;
	}
	if (strcasecmp(t, "mean") == 0 || strcasecmp(t, "avg") == 0) {
		b->stat = SWEEP_MEAN;
		return 0;
	}
	if ((t[0] == 'p' || t[0] == 'P') && t[1] != '\0' &&
	    parse_double(t + 1, 0, 1e9, &b->percentile) == 0) {
		b->stat = SWEEP_PERCENTILE;
		if (b->percentile > 100 || !(b->percentile > 0)) {
			*err = talloc_asprintf(mem, "percentile %s is not "
					       "above 0 and at most 100",
					       t + 1);
			return -1;
		}
		return 0;
	}
	*err = talloc_asprintf(mem, "'%s' is not pNN (a percentile, e.g. "
			       "p99), max or mean", t);
	return -1;
}

int sweep_bound_parse(void *mem, const char *text, struct sweep_bound *b,
		      char **err)
{
	const char *le = strstr(text, "<="), *colon = strchr(text, ':');
	const char *stat = text;

	memset(b, 0, sizeof(*b));
	b->text = text;
	b->op = -1;
	if (le == NULL) {
		*err = talloc_strdup(mem, "expected [OP:]STAT<=TIME, such as "
				     "p99<=20ms or Flush:max<=1s");
		return -1;
	}
	if (colon != NULL && colon < le) {
		const char *n = text;
		size_t len = (size_t)(colon - text);

		while (len > 0 && isspace((unsigned char)*n)) {
			n++;
			len--;
		}
		while (len > 0 && isspace((unsigned char)n[len - 1]))
			len--;
		b->op = op_by_name(n, len);
		if (b->op < 0) {
			*err = talloc_asprintf(mem, "unknown operation "
					       "'%.*s'", (int)len, n);
			return -1;
		}
		stat = colon + 1;
	}
	if (parse_stat(mem, stat, (size_t)(le - stat), b, err) != 0)
		return -1;
	return parse_time(mem, le + 2, &b->limit_ms, err);
}

int sweep_bounds_check(void *mem, const struct dbench_options *o,
		       struct program *const *progs, unsigned nprogs,
		       char **err)
{
	uint64_t used = 0;

	for (unsigned p = 0; p < nprogs; p++)
		for (uint32_t i = 0; i < progs[p]->nops; i++)
			if (progs[p]->ops[i].kind < OP_NUM_MEASURED)
				used |= 1ull << progs[p]->ops[i].kind;
	for (unsigned i = 0; i < o->nbounds; i++) {
		const struct sweep_bound *b = &o->bounds[i];

		if (b->op < 0 || (used & (1ull << b->op)))
			continue;
		*err = talloc_asprintf(mem, "--slo '%s': the loadfile%s never "
				       "run%s %s", b->text,
				       nprogs > 1 ? "s" : "",
				       nprogs > 1 ? "" : "s",
				       op_info[b->op].name);
		return -1;
	}
	return 0;
}

/* A bucket of a histogram in the document: [lo, hi) ns and a count. */
struct bucket {
	double lo, hi, count;
};

static int cmp_bucket(const void *a, const void *b)
{
	double x = ((const struct bucket *)a)->lo;
	double y = ((const struct bucket *)b)->lo;

	return x < y ? -1 : x > y;
}

/* Add op's histogram buckets to *v (*n of them).  Returns 0 or -1. */
static int gather(void *mem, struct json_object *op, struct bucket **v,
		  size_t *n)
{
	struct json_object *bk = result_get(result_get(op, "histogram"),
					    "buckets");
	size_t len = json_object_is_type(bk, json_type_array) ?
		     json_object_array_length(bk) : 0;

	*v = talloc_realloc(mem, *v, struct bucket, *n + len + 1);
	if (*v == NULL)
		return -1;
	for (size_t i = 0; i < len; i++) {
		struct json_object *b = json_object_array_get_idx(bk, i);
		struct json_object *hj = json_object_array_get_idx(b, 1);
		struct bucket *e = &(*v)[(*n)++];

		e->lo = json_object_get_double(json_object_array_get_idx(b, 0));
		e->hi = hj != NULL ? json_object_get_double(hj) : e->lo + 1;
		e->count = json_object_get_double(
			json_object_array_get_idx(b, 2));
	}
	return 0;
}

/*
 * Percentile p of buckets v[0..n) in ms, as result_op_percentile()
 * reads one op's: the bucket's midpoint, capped at max_ms, and the
 * largest value exactly.  -1 when empty.
 */
static double bucket_percentile(struct bucket *v, size_t n, double p,
				double max_ms)
{
	double total = 0, seen = 0, rank;

	qsort(v, n, sizeof(*v), cmp_bucket);
	for (size_t i = 0; i < n; i++)
		total += v[i].count;
	if (total <= 0)
		return -1;
	rank = fmax(1, ceil(p / 100.0 * total));
	if (rank >= total)
		return max_ms;
	for (size_t i = 0; i < n; i++) {
		double mid;

		seen += v[i].count;
		if (seen < rank)
			continue;
		mid = (v[i].hi - v[i].lo <= 1 ? v[i].lo :
		       v[i].lo + floor((v[i].hi - v[i].lo - 1) / 2)) / 1e6;
		return fmin(mid, max_ms);
	}
	return max_ms;
}

/* The latency object of op (its response time when the document has
 * one), *response said. */
static struct json_object *latency_of(struct json_object *op, bool *response)
{
	struct json_object *r = result_get(op, "response");

	if (r != NULL && json_object_is_type(r, json_type_object)) {
		*response = true;
		return r;
	}
	return op;
}

/* Does op's latency object have histogram buckets to merge? */
static bool has_buckets(struct json_object *lat)
{
	return result_get(result_get(lat, "histogram"), "buckets") != NULL;
}

double sweep_bound_figure(const struct sweep_bound *b,
			  const struct dbench_options *o,
			  struct json_object *doc, bool *response)
{
	struct json_object *ops = result_get(doc, "operations");
	void *tmp = talloc_new(NULL);
	struct bucket *v = NULL;
	size_t n = 0, len;
	double max = -1, sum = 0, count = 0, fig = -1, pmax = -1;
	/* the document names every op by its table name, whatever the
	 * output dialect */
	const char *want = b->op >= 0 ? op_info[b->op].short_name : NULL;

	(void)o;
	*response = false;
	len = json_object_is_type(ops, json_type_array) ?
	      json_object_array_length(ops) : 0;
	for (size_t i = 0; tmp != NULL && i < len; i++) {
		struct json_object *op = json_object_array_get_idx(ops, i);
		struct json_object *lat;
		double c;

		if (want != NULL && strcmp(result_str(op, "name", ""), want))
			continue;
		lat = latency_of(op, response);
		c = result_num(lat, "count", 0);
		if (c <= 0)
			continue;
		max = fmax(max, result_num(lat, "max_ms", 0));
		sum += c * result_num(lat, "avg_ms", 0);
		count += c;
		if (b->stat != SWEEP_PERCENTILE)
			continue;
		/* response times come with their percentiles only: over
		 * several ops the largest of theirs (never an understatement) */
		if (has_buckets(lat)) {
			if (gather(tmp, lat, &v, &n) != 0)
				count = 0;
		} else {
			pmax = fmax(pmax, result_op_percentile(lat,
							       b->percentile));
		}
	}
	if (count > 0)
		fig = b->stat == SWEEP_MAX ? max :
		      b->stat == SWEEP_MEAN ? sum / count :
		      n > 0 ? fmax(pmax, bucket_percentile(v, n, b->percentile,
							   max)) : pmax;
	talloc_free(tmp);
	return fig;
}
