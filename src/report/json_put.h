/*
 * json_put.h - the small json-c constructors the JSON writers share
 * (report_json.c's document, the disk test's section): each tolerates a
 * NULL parent or value (out of memory), so a writer builds its tree
 * without checking every call and finds out once, at the end.  Numbers
 * are written with at most the decimals asked for.  report_json.c still
 * has its own copies of these; they are the same code.
 */
#ifndef DBENCH_JSON_PUT_H
#define DBENCH_JSON_PUT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stats/histogram.h"

static inline void put(struct json_object *o, const char *key, struct json_object *v)
{
	if (o != NULL)
		json_object_object_add(o, key, v);
	else
		json_object_put(v);
}

static inline void put_str(struct json_object *o, const char *key, const char *s)
{
	put(o, key, s != NULL ? json_object_new_string(s) : NULL);
}

static inline void put_int(struct json_object *o, const char *key, int64_t v)
{
	put(o, key, json_object_new_int64(v));
}

static inline void put_bool(struct json_object *o, const char *key, bool v)
{
	put(o, key, json_object_new_boolean(v));
}

/* A number written with at most `decimals` places (no 0.30000000000004). */
static inline struct json_object *new_num(double v, int decimals)
{
	char buf[64];
	size_t n;

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	n = strlen(buf);
	if (strchr(buf, '.') != NULL) {
		while (n > 0 && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n > 0 && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	return json_object_new_double_s(v, buf);
}

static inline void put_num(struct json_object *o, const char *key, double v,
		    int decimals)
{
	put(o, key, new_num(v, decimals));
}

static inline void add(struct json_object *arr, struct json_object *v)
{
	if (arr == NULL || json_object_array_add(arr, v) != 0)
		json_object_put(v);
}

static inline double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* Non-empty buckets as [low_ns, high_ns, count]; high is null at the top. */
static inline struct json_object *buckets_json(const struct histogram *h)
{
	struct json_object *a = json_object_new_array();

	for (uint32_t i = h->lo; i < h->end; i++) {
		struct json_object *b;
		uint64_t high = hist_bucket_high(i);

		if (h->count[i] == 0)
			continue;
		b = json_object_new_array();
		add(b, json_object_new_int64((int64_t)hist_bucket_low(i)));
		add(b, high == UINT64_MAX ?
			       NULL : json_object_new_int64((int64_t)high));
		add(b, json_object_new_int64((int64_t)h->count[i]));
		add(a, b);
	}
	return a;
}

#endif
