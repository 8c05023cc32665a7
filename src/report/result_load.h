/*
 * result_load.h - reading a dbench JSON result back (for dbench-plot and
 * dbench-compare): load, check that it is one, and look values up.
 */
#ifndef DBENCH_RESULT_LOAD_H
#define DBENCH_RESULT_LOAD_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;

/*
 * Read and parse path ("-": standard input, read to its end and left
 * open), and check that it is a dbench result this code understands
 * (schema_version <= REPORT_JSON_SCHEMA_VERSION, tool.name "dbench", and
 * either a result and an operations array (a load run), a disk_test
 * section with a directories array (dbench --disk-test) or a curve
 * section with a points array (dbench --curve)).  Returns the
 * document (release with json_object_put()), or NULL with *err (under
 * mem_ctx), one line starting with the file name (result_file_name()):
 * unreadable, empty, truncated or invalid JSON, not a dbench result, or
 * from a newer schema.
 */
struct json_object *result_load(void *mem_ctx, const char *path, char **err);

/* path as messages name it: "standard input" for "-", else path. */
const char *result_file_name(const char *path);

/* Is doc (as result_load() accepted it) a disk test rather than a load
 * run? */
bool result_is_disktest(struct json_object *doc);

/* Is doc (as result_load() accepted it) a load curve (dbench --curve),
 * whose points hold the runs' documents? */
bool result_is_curve(struct json_object *doc);

/* Member key of o (which may be NULL); NULL if absent. */
struct json_object *result_get(struct json_object *o, const char *key);

/* o.key as a number; dflt when absent or not a number. */
double result_num(struct json_object *o, const char *key, double dflt);

/* o.key as a string; dflt when absent or not a string. */
const char *result_str(struct json_object *o, const char *key,
		       const char *dflt);

/*
 * The operation named name in doc's "operations", or NULL.
 */
struct json_object *result_op(struct json_object *doc, const char *name);

/*
 * Latency in ms at percentile p of an operation object: from its
 * "percentiles" list when p is there, otherwise from its histogram
 * buckets (bucket midpoint, capped at max_ms).  Returns -1 if neither
 * gives a value.
 */
double result_op_percentile(struct json_object *op, double p);

/* A label for the run: "host:dir[,dir...]". */
char *result_label(void *mem_ctx, struct json_object *doc);

/*
 * A JSON value as a person reads it (under mem_ctx): booleans "yes"/"no",
 * numbers with %g, strings unquoted, arrays as their elements joined by
 * ","; "(none)" for NULL (an absent member).  NULL if out of memory.
 */
char *result_value_text(void *mem_ctx, struct json_object *v);

#endif
