/*
 * report_disktest.c - every output of a --disk-test besides its table
 * (which disktest_main() prints as it goes): the "disk_test" section of
 * its JSON document (the configuration and, per directory, its details
 * and the five measurements, each with the same latency fields as a
 * load run's operation: count, min/max, percentiles, histogram buckets),
 * the document written to --json and saved to the history (--label).
 */
#include "config.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "disktest/disktest.h"
#include "history/history.h"
#include "util/options.h"
#include "report/json_put.h"
#include "report/report.h"
#include "report/report_json.h"

static const char *dt_state_name(enum disktest_state s)
{
	switch (s) {
	case DT_MEASURED:
		return "measured";
	case DT_NOT_SUPPORTED:
		return "not supported";
	case DT_NOT_EVICTED:
		return "not evicted";
	case DT_FAILED:
		return "failed";
	default:
		return "not run";
	}
}

/* One measurement: the same latency fields as a load run's operation
 * (count, max_ms, percentiles, histogram) so readers can share code. */
static struct json_object *dt_row_json(const struct dbench_options *o,
				       const struct disktest_row *row,
				       enum disktest_kind k)
{
	struct json_object *j = json_object_new_object();
	struct json_object *runs = json_object_new_array();
	struct json_object *p = json_object_new_array();
	struct json_object *h = json_object_new_object();
	bool have_lat = row->lat != NULL && row->lat_count > 0;

	put_str(j, "name", disktest_kind_name[k]);
	put_str(j, "state", dt_state_name(row->state));
	put_bool(j, "interrupted", row->interrupted);
	if (row->note != NULL)
		put_str(j, "note", row->note);
	put_int(j, "runs", row->nruns);
	for (unsigned i = 0; row->mbps != NULL && i < row->nruns; i++)
		add(runs, new_num(row->mbps[i], 3));
	put(j, "mb_per_s", runs);
	if (row->nruns > 0) {
		put_num(j, "mb_per_s_median", row->mbps_median, 3);
		put_num(j, "mb_per_s_min", row->mbps_min, 3);
		put_num(j, "mb_per_s_max", row->mbps_max, 3);
	}
	if (k == DT_WRITE && row->flush_ns != NULL && row->nruns > 0) {
		struct json_object *f = json_object_new_array();

		for (unsigned i = 0; i < row->nruns; i++)
			add(f, new_num(ms(row->flush_ns[i]), 6));
		put(j, "fdatasync_ms", f);
		put_num(j, "fdatasync_median_ms", ms(row->flush_median_ns), 6);
	}
	if (row->resident_pct >= 0)
		put_num(j, "resident_pct_before", row->resident_pct, 3);
	put_int(j, "count", (int64_t)row->lat_count);
	if (have_lat) {
		put_num(j, "min_ms", ms(row->lat_min_ns), 6);
		put_num(j, "max_ms", ms(row->lat_max_ns), 6);
	}
	for (unsigned i = 0; have_lat && i < o->npercentiles; i++) {
		struct json_object *e = json_object_new_object();

		put_num(e, "percentile", o->percentiles[i], 6);
		put_num(e, "ms", ms(hist_percentile(row->lat, o->percentiles[i],
						    row->lat_min_ns,
						    row->lat_max_ns)), 6);
		add(p, e);
	}
	put(j, "percentiles", p);
	put_str(h, "unit", "ns");
	put_int(h, "sub_buckets_per_octave", HIST_SUB);
	if (row->lat != NULL)
		put(h, "buckets", buckets_json(row->lat));
	else
		put(h, "buckets", json_object_new_array());
	put(j, "histogram", h);
	return j;
}

static struct json_object *dt_dir_json(const struct dbench_options *o,
				       const struct disktest_dir *d)
{
	struct json_object *j = json_object_new_object();
	struct json_object *m = json_object_new_array();

	put_str(j, "path", d->path);
	put_int(j, "file_size_bytes", (int64_t)d->size);
	put_bool(j, "size_reduced", d->size_reduced);
	put_int(j, "free_bytes", (int64_t)d->free_bytes);
	put_int(j, "total_bytes", (int64_t)d->total_bytes);
	put_int(j, "dio_memory_alignment", d->dio_mem_align);
	put_int(j, "dio_offset_alignment", d->dio_offset_align);
	if (d->dio_source != NULL)
		put_str(j, "dio_alignment_source", d->dio_source);
	put_bool(j, "memory_backed", d->memory_backed);
	for (unsigned k = 0; k < DT_NUM_KINDS; k++)
		add(m, dt_row_json(o, &d->row[k], k));
	put(j, "measurements", m);
	return j;
}

struct json_object *report_disktest_json(const struct dbench_options *o,
					 const struct disktest_result *res)
{
	struct json_object *j = json_object_new_object();
	struct json_object *dirs = json_object_new_array();

	if (j == NULL || dirs == NULL) {
		json_object_put(j);
		json_object_put(dirs);
		return NULL;
	}
	put_int(j, "block_size_bytes", (int64_t)res->block_size);
	put_int(j, "repeat", res->repeat);
	put_bool(j, "drop_caches", res->drop_caches);
	put_bool(j, "interrupted", res->interrupted);
	if (res->signal != 0)
		put_int(j, "signal", res->signal);
	put_bool(j, "failed", res->failed);
	for (unsigned i = 0; i < res->ndirs; i++)
		add(dirs, dt_dir_json(o, &res->dirs[i]));
	put(j, "directories", dirs);
	return j;
}

int report_disktest_write(void *mem_ctx, const struct dbench_options *o,
			  const struct disktest_result *res,
			  const struct host_facts *host,
			  const struct timespec *started,
			  const struct timespec *ended, int rc)
{
	/* also when interrupted or failed: the section says so */
	struct json_object *doc = report_json_header(o, host, started, ended);
	int attached = report_json_attach(doc, "disk_test",
					  report_disktest_json(o, res));
	char *err = NULL;

	if (o->json_path != NULL &&
	    (attached != 0 ||
	     report_json_write(mem_ctx, doc, o->json_path, &err) != 0)) {
		fprintf(stderr, "dbench: --json %s\n",
			err ? err : "out of memory");
		if (rc == 0)
			rc = 1;
	}
	if (o->label != NULL &&
	    report_history_save(mem_ctx, o, attached == 0 ? doc : NULL, NULL,
				rc) != 0 && rc == 0)
		rc = HISTORY_EXIT_SAVE_FAILED;
	json_object_put(doc);
	return rc;
}
