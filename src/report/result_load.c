/*
 * result_load.c - read a dbench JSON result back and check it (see
 * result_load.h); shared by dbench-plot and dbench-compare.
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "report/report_json.h"
#include "report/result_load.h"

/*
 * The whole file ("-": standard input, left open), NUL-terminated, or
 * NULL with errno set.
 */
static char *slurp(void *mem, const char *path, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (f == NULL)
		return NULL;
	for (;;) {
		size_t got;

		if (cap - n < 4096) {
			char *nb = talloc_realloc(mem, buf, char,
						  cap ? cap * 2 : 65536);

			if (nb == NULL) {
				talloc_free(buf);
				if (!is_stdin)
					fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		if (!is_stdin)
			fclose(f);
		talloc_free(buf);
		errno = e ? e : EIO;
		return NULL;
	}
	if (!is_stdin)
		fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

struct json_object *result_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

double result_num(struct json_object *o, const char *key, double dflt)
{
	struct json_object *v = result_get(o, key);

	if (v == NULL || !(json_object_is_type(v, json_type_int) ||
			   json_object_is_type(v, json_type_double)))
		return dflt;
	return json_object_get_double(v);
}

const char *result_str(struct json_object *o, const char *key,
		       const char *dflt)
{
	struct json_object *v = result_get(o, key);

	if (v == NULL || !json_object_is_type(v, json_type_string))
		return dflt;
	return json_object_get_string(v);
}

static bool is_json_array(struct json_object *o)
{
	return o != NULL && json_object_is_type(o, json_type_array);
}

const char *result_file_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "standard input" : path;
}

bool result_is_curve(struct json_object *doc)
{
	return is_json_array(result_get(result_get(doc, "curve"), "points"));
}

bool result_is_disktest(struct json_object *doc)
{
	struct json_object *dt = result_get(doc, "disk_test");

	return dt != NULL && json_object_is_type(dt, json_type_object) &&
	       is_json_array(result_get(dt, "directories"));
}

struct json_object *result_load(void *mem_ctx, const char *path, char **err)
{
	void *tmp = talloc_new(mem_ctx);
	struct json_tokener *tok = NULL;
	struct json_object *doc = NULL, *v, *tool;
	enum json_tokener_error jerr;
	size_t len = 0, used;
	char *text;
	int64_t version;
	const char *name = result_file_name(path);

	*err = NULL;
	if (tmp == NULL)
		goto nomem;
	text = slurp(tmp, path, &len);
	if (text == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", name,
				       strerror(errno));
		goto out;
	}
	while (len > 0 && strchr(" \t\r\n", text[len - 1]) != NULL)
		len--;
	if (len == 0) {
		*err = talloc_asprintf(mem_ctx, "%s: empty file, not a dbench "
				       "result", name);
		goto out;
	}
	tok = json_tokener_new();
	if (tok == NULL)
		goto nomem;
	doc = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	used = json_tokener_get_parse_end(tok);
	if (jerr == json_tokener_continue) {
		*err = talloc_asprintf(mem_ctx, "%s: the JSON ends early after "
				       "%zu bytes (truncated file?)", name,
				       len);
		goto bad;
	}
	if (jerr != json_tokener_success) {
		*err = talloc_asprintf(mem_ctx, "%s: not valid JSON (%s near "
				       "byte %zu)", name,
				       json_tokener_error_desc(jerr), used);
		goto bad;
	}
	if (used < len) {
		*err = talloc_asprintf(mem_ctx, "%s: not valid JSON (extra "
				       "text after byte %zu)", name, used);
		goto bad;
	}
	tool = result_get(doc, "tool");
	v = result_get(doc, "schema_version");
	if (!json_object_is_type(doc, json_type_object) || v == NULL ||
	    !json_object_is_type(v, json_type_int) ||
	    strcmp(result_str(tool, "name", ""), "dbench") != 0) {
		*err = talloc_asprintf(mem_ctx, "%s: not a dbench result (no "
				       "schema_version and tool.name "
				       "\"dbench\")", name);
		goto bad;
	}
	version = json_object_get_int64(v);
	if (version > REPORT_JSON_SCHEMA_VERSION || version < 1) {
		*err = talloc_asprintf(mem_ctx, "%s: schema_version %lld is "
				       "not supported (this tool reads up to "
				       "%d; %s)", name, (long long)version,
				       REPORT_JSON_SCHEMA_VERSION,
				       version > 1 ? "written by a newer "
				       "dbench: update this one" :
				       "invalid");
		goto bad;
	}
	if (!result_is_disktest(doc) && !result_is_curve(doc) &&
	    (result_get(doc, "result") == NULL ||
	     !is_json_array(result_get(doc, "operations")))) {
		*err = talloc_asprintf(mem_ctx, "%s: not a dbench result "
				       "(neither \"result\" and "
				       "\"operations\" nor \"disk_test\" "
				       "nor \"curve\")",
				       name);
		goto bad;
	}
	goto out;
bad:
	json_object_put(doc);
	doc = NULL;
	goto out;
nomem:
	*err = talloc_asprintf(mem_ctx, "%s: out of memory", name);
out:
	if (tok != NULL)
		json_tokener_free(tok);
	talloc_free(tmp);
	return doc;
}

struct json_object *result_op(struct json_object *doc, const char *name)
{
	struct json_object *ops = result_get(doc, "operations");

	if (!is_json_array(ops))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(ops); i++) {
		struct json_object *op = json_object_array_get_idx(ops, i);

		if (strcmp(result_str(op, "name", ""), name) == 0)
			return op;
	}
	return NULL;
}

double result_op_percentile(struct json_object *op, double p)
{
	struct json_object *ps = result_get(op, "percentiles");
	struct json_object *bk = result_get(result_get(op, "histogram"),
					    "buckets");
	double total = 0, seen = 0, rank, max = result_num(op, "max_ms", -1);

	if (is_json_array(ps))
		for (size_t i = 0; i < json_object_array_length(ps); i++) {
			struct json_object *e =
				json_object_array_get_idx(ps, i);

			if (fabs(result_num(e, "percentile", -1) - p) < 1e-9)
				return result_num(e, "ms", -1);
		}
	if (!is_json_array(bk))
		return -1;
	for (size_t i = 0; i < json_object_array_length(bk); i++)
		total += json_object_get_double(json_object_array_get_idx(
			json_object_array_get_idx(bk, i), 2));
	if (total <= 0)
		return -1;
	rank = ceil(p / 100.0 * total);
	if (rank < 1)
		rank = 1;
	if (rank >= total && max >= 0)
		return max;	/* the largest value is known exactly */
	for (size_t i = 0; i < json_object_array_length(bk); i++) {
		struct json_object *b = json_object_array_get_idx(bk, i);
		double lo = json_object_get_double(
			json_object_array_get_idx(b, 0));
		struct json_object *hj = json_object_array_get_idx(b, 1);
		double hi = hj ? json_object_get_double(hj) : lo + 1;
		double v;

		seen += json_object_get_double(json_object_array_get_idx(b, 2));
		if (seen < rank)
			continue;
		v = (hi - lo <= 1 ? lo : lo + floor((hi - lo - 1) / 2)) / 1e6;
		return max >= 0 && v > max ? max : v;
	}
	return max;
}

char *result_label(void *mem_ctx, struct json_object *doc)
{
	struct json_object *dirs = result_get(doc, "directories");
	const char *host = result_str(result_get(doc, "host"), "hostname", "?");
	char *s = talloc_asprintf(mem_ctx, "%s:", host);

	for (size_t i = 0; is_json_array(dirs) && s != NULL &&
			   i < json_object_array_length(dirs); i++)
		s = talloc_asprintf_append(s, "%s%s", i ? "," : "",
			result_str(json_object_array_get_idx(dirs, i),
				   "path", "?"));
	return s;
}

char *result_value_text(void *mem_ctx, struct json_object *v)
{
	char *s;

	if (v == NULL)
		return talloc_strdup(mem_ctx, "(none)");
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		return talloc_strdup(mem_ctx, json_object_get_boolean(v) ?
					      "yes" : "no");
	case json_type_int:
	case json_type_double:
		return talloc_asprintf(mem_ctx, "%g",
				       json_object_get_double(v));
	case json_type_string:
		return talloc_strdup(mem_ctx, json_object_get_string(v));
	case json_type_array:
		s = talloc_strdup(mem_ctx, "");
		for (size_t i = 0; s != NULL &&
				   i < json_object_array_length(v); i++) {
			char *e = result_value_text(s,
				json_object_array_get_idx(v, i));

			s = e ? talloc_asprintf_append(s, "%s%s", i ? "," : "",
						       e) : NULL;
		}
		return s;
	default:
		return talloc_strdup(mem_ctx, json_object_to_json_string_ext(
			v, JSON_C_TO_STRING_PLAIN));
	}
}
