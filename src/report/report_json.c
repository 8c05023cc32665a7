/*
 * report_json.c - the JSON result document (--json): builds a json-c tree
 * from the run result (which carries the host facts gathered at the start
 * of the run) and the options, and writes it to a file.  See
 * report_json.h; the schema is doc/dbench-result.schema.json.
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>
#include <zlib.h>

#include "report/report.h"
#include "report/report_json.h"
#include "json_put.h"
#include "stats/series.h"

/* ---- times ----------------------------------------------------------- */

static void put_iso_time(struct json_object *o, const char *key,
			 const struct timespec *ts)
{
	struct tm tm;
	char buf[64], out[80];

	if (ts == NULL || gmtime_r(&ts->tv_sec, &tm) == NULL)
		return;
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, sizeof(out), "%s.%03ldZ", buf, ts->tv_nsec / 1000000);
	put_str(o, key, out);
}

/* ---- header: tool, options, host, directories ----------------------- */

static const char *mismatch_name(enum mismatch_policy m)
{
	switch (m) {
	case MISMATCH_STRICT:
		return "strict";
	case MISMATCH_KEEP_GOING:
		return "keep-going";
	default:
		return "default";
	}
}

static struct json_object *str_array(const char *const *v, unsigned n)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < n; i++)
		add(a, json_object_new_string(v[i]));
	return a;
}

static struct json_object *options_json(const struct dbench_options *o)
{
	struct json_object *j = json_object_new_object();
	struct json_object *p = json_object_new_array();

	for (unsigned i = 0; i < o->npercentiles; i++)
		add(p, new_num(o->percentiles[i], 6));
	if (o->disk_test) {
		/* a disk test has none of a load run's options */
		put_bool(j, "disk_test", true);
		put(j, "directories", str_array(o->directories,
						o->ndirectories));
		put_int(j, "size_bytes", (int64_t)o->disk_test_size);
		put_int(j, "block_size_bytes", (int64_t)o->disk_test_block);
		put_int(j, "repeat", o->disk_test_repeat);
		put_bool(j, "drop_caches", o->drop_caches);
		put(j, "percentiles", p);
		return j;
	}
	put_int(j, "clients", o->nclients);
	put_int(j, "timelimit_s", o->timelimit);
	put_int(j, "warmup_s", o->warmup);
	put(j, "loadfiles", str_array(o->loadfiles, o->nloadfiles));
	put(j, "directories", str_array(o->directories, o->ndirectories));
	put_str(j, "backend", o->backend);
	put_num(j, "target_rate_mb_per_s", o->target_rate, 6);
	put_int(j, "clients_per_process", o->clients_per_process);
	put_int(j, "stagger", o->stagger);
	put_int(j, "trunc_io", o->trunc_io);
	put_bool(j, "sync_open", o->sync_open);
	put_bool(j, "sync_dirs", o->sync_dirs);
	put_bool(j, "fsync_writes", o->fsync_writes);
	put_bool(j, "xattr", o->xattr);
	put_bool(j, "run_once", o->run_once);
	put_bool(j, "skip_cleanup", o->skip_cleanup);
	put_bool(j, "no_resolve", o->no_resolve);
	put_bool(j, "stat_check", o->stat_check);
	put_bool(j, "fake_io", o->fake_io);
	put_bool(j, "one_byte_write_fix", o->one_byte_write_fix);
	put_str(j, "mismatch_policy", mismatch_name(o->mismatch));
	put(j, "percentiles", p);
	return j;
}

/* The host object: uname, CPUs, memory (h NULL: nothing is known). */
static struct json_object *host_json(const struct host_facts *h)
{
	struct json_object *j = json_object_new_object();

	if (h != NULL && h->hostname != NULL) {
		put_str(j, "hostname", h->hostname);
		put_str(j, "kernel", h->kernel);
		put_str(j, "kernel_release", h->kernel_release);
		put_str(j, "kernel_version", h->kernel_version);
		put_str(j, "machine", h->machine);
	}
	if (h != NULL)		/* null: /proc/cpuinfo did not say */
		put_str(j, "cpu_model", h->cpu_model);
	put_int(j, "cpus", h != NULL ? h->cpus : 0);
	put_int(j, "memory_bytes", h != NULL ? h->memory_bytes : 0);
	return j;
}

static struct json_object *directory_json(const struct host_dir *d)
{
	struct json_object *j = json_object_new_object();

	put_str(j, "path", d->path);
	put_str(j, "real_path", d->real_path);
	if (d->device == NULL)
		return j;
	put_str(j, "device", d->device);
	if (d->fs_type != NULL)
		put_str(j, "fs_type", d->fs_type);
	if (d->source != NULL)
		put_str(j, "source", d->source);
	if (d->mount_point != NULL)
		put_str(j, "mount_point", d->mount_point);
	if (d->mount_options != NULL)
		put_str(j, "mount_options", d->mount_options);
	put_str(j, "device_model", d->device_model);
	if (d->free_bytes >= 0)
		put_int(j, "free_bytes", d->free_bytes);
	return j;
}

/* The -D directories as host h saw them (h NULL: their paths only). */
static struct json_object *directories_json(const struct dbench_options *o,
					    const struct host_facts *h)
{
	struct json_object *a = json_object_new_array();

	if (h != NULL) {
		for (uint32_t i = 0; i < h->ndirs; i++)
			add(a, directory_json(&h->dirs[i]));
		return a;
	}
	for (unsigned i = 0; i < o->ndirectories; i++) {
		struct json_object *j = json_object_new_object();

		put_str(j, "path", o->directories[i]);
		add(a, j);
	}
	return a;
}

struct json_object *report_json_header(const struct dbench_options *o,
				       const struct host_facts *host,
				       const struct timespec *started,
				       const struct timespec *ended)
{
	struct json_object *j = json_object_new_object();
	struct json_object *tool = json_object_new_object();

	if (j == NULL) {
		json_object_put(tool);
		return NULL;
	}
	put_int(j, "schema_version", REPORT_JSON_SCHEMA_VERSION);
	put_str(tool, "name", "dbench");
	put_str(tool, "version", PACKAGE_VERSION);
	put_str(tool, "build_commit", BUILD_COMMIT);
	put(j, "tool", tool);
	put(j, "command_line", str_array((const char *const *)o->argv,
					 o->argv ? (unsigned)o->argc : 0));
	put(j, "options", options_json(o));
	put(j, "host", host_json(host));
	put(j, "directories", directories_json(o, host));
	put_iso_time(j, "start_time", started);
	put_iso_time(j, "end_time", ended);
	return j;
}

/* ---- results ------------------------------------------------------- */

static struct json_object *percentiles_json(const struct dbench_options *o,
					    const struct op_stats *s)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < o->npercentiles; i++) {
		struct json_object *p = json_object_new_object();

		put_num(p, "percentile", o->percentiles[i], 6);
		put_num(p, "ms", ms(hist_percentile(&s->hist, o->percentiles[i],
						    0, s->max_ns)), 6);
		add(a, p);
	}
	return a;
}

/*
 * An op's minimum and standard deviation, from its histogram (to its
 * resolution, < 0.8%): the hot path keeps no sum of squares.
 */
static void put_spread(struct json_object *j, const struct op_stats *s)
{
	double mean = s->count ? (double)s->sum_ns / (double)s->count : 0;
	uint64_t min = hist_min(&s->hist);

	put_num(j, "min_ms", ms(min < s->max_ns ? min : s->max_ns), 6);
	put_num(j, "stddev_ms", hist_stddev(&s->hist, mean) / 1e6, 6);
}

/* An op's response time from when it was due (a schedule only). */
static struct json_object *response_json(const struct dbench_options *o,
					 const struct op_stats *s)
{
	struct json_object *j = json_object_new_object();

	put_int(j, "count", (int64_t)s->count);
	put_num(j, "avg_ms", result_avg_ms(s), 6);
	put_num(j, "max_ms", ms(s->max_ns), 6);
	put(j, "percentiles", percentiles_json(o, s));
	return j;
}

/* The operations array: ops[k] and errors[k] (mismatches) per kind, and
 * resp[k] (response times) when the run had a schedule (else NULL). */
static struct json_object *ops_json(const struct dbench_options *o,
				    const struct op_stats *ops,
				    const uint64_t *errs, bool with_buckets,
				    const struct op_stats *resp)
{
	struct json_object *a = json_object_new_array();

	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		const struct op_stats *s = &ops[k];
		uint64_t errors = errs[k];
		struct json_object *j;

		if (s->count == 0 && errors == 0)
			continue;
		j = json_object_new_object();
		put_str(j, "name", op_info[k].short_name);
		put_int(j, "count", (int64_t)s->count);
		put_int(j, "errors", (int64_t)errors);
		put_num(j, "avg_ms", result_avg_ms(s), 6);
		put_num(j, "max_ms", ms(s->max_ns), 6);
		put_spread(j, s);
		put(j, "percentiles", percentiles_json(o, s));
		if (resp != NULL && resp[k].count != 0)
			put(j, "response", response_json(o, &resp[k]));
		if (with_buckets) {
			struct json_object *h = json_object_new_object();

			put_str(h, "unit", "ns");
			put_int(h, "sub_buckets_per_octave", HIST_SUB);
			put(h, "buckets", buckets_json(&s->hist));
			put(j, "histogram", h);
		}
		add(a, j);
	}
	return a;
}

/* Per kind, the mismatches of r, fatal or not. */
static void total_errors(const struct run_result *r, uint64_t *errors)
{
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		errors[k] = r->mm[k].count + r->mm[k].fatal;
}

/* Read (ReadX) and write (WriteX) bytes apart, and their MB/s. */
static void put_io_split(struct json_object *j, uint64_t read_bytes,
			 uint64_t bytes, double seconds)
{
	uint64_t written = bytes > read_bytes ? bytes - read_bytes : 0;

	put_int(j, "read_bytes", (int64_t)read_bytes);
	put_int(j, "write_bytes", (int64_t)written);
	put_num(j, "read_mb_per_s", result_mbps(read_bytes, seconds), 6);
	put_num(j, "write_mb_per_s", result_mbps(written, seconds), 6);
}

/* The CPU of dbench's own processes (parent and workers, every host). */
static struct json_object *cpu_json(const struct result_cpu *c)
{
	struct json_object *j = json_object_new_object();

	put_num(j, "user_s", c->user_s, 6);
	put_num(j, "system_s", c->system_s, 6);
	put_int(j, "voluntary_context_switches",
		(int64_t)c->voluntary_switches);
	put_int(j, "involuntary_context_switches",
		(int64_t)c->involuntary_switches);
	return j;
}

/* How busy the machine was besides dbench (noise.h); figures unknown
 * are left out. */
static struct json_object *noise_json(const struct run_noise *n)
{
	static const char *const psi_key[NOISE_PSI_N] = {
		"psi_cpu_some_avg", "psi_io_some_avg", "psi_memory_some_avg",
	};
	struct json_object *j = json_object_new_object();

	if (n->has_loadavg)
		put_num(j, "loadavg_1m", n->loadavg_1m, 2);
	if (n->has_cpu) {
		put_num(j, "other_cpu_share", n->other_cpu_share, 4);
		put_num(j, "steal_share", n->steal_share, 4);
		put_num(j, "dbench_cpu_share", n->dbench_cpu_share, 4);
	}
	for (unsigned i = 0; i < NOISE_PSI_N; i++)
		if (n->has_psi[i])
			put_num(j, psi_key[i], n->psi_some_avg[i], 2);
	put_bool(j, "busy", n->busy);
	put_bool(j, "client_bound", n->client_bound);
	return j;
}

/*
 * One loadfile: its path, the CRC-32 (zlib's, of its bytes as stored) and
 * its size and line count, so that results say which workload they
 * measured.  Unreadable: path and "error" only.
 */
static struct json_object *loadfile_json(const char *path)
{
	struct json_object *j = json_object_new_object();
	unsigned char buf[65536];
	uLong crc = crc32(0L, Z_NULL, 0);
	struct sha256_ctx sha;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	uint64_t size = 0, lines = 0;
	bool partial = false;
	FILE *f = fopen(path, "rb");
	size_t n;

	put_str(j, "path", path);
	if (f == NULL) {
		put_str(j, "error", strerror(errno));
		return j;
	}
	sha256_init(&sha);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		crc = crc32(crc, buf, (uInt)n);
		sha256_update(&sha, n, buf);
		size += n;
		for (const unsigned char *p = buf, *end = buf + n;
		     (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
			lines++;
		partial = buf[n - 1] != '\n';
	}
	if (ferror(f)) {
		put_str(j, "error", strerror(errno ? errno : EIO));
		fclose(f);
		return j;
	}
	fclose(f);
	snprintf((char *)buf, sizeof(buf), "%08lx", (unsigned long)crc);
	put_str(j, "crc32", (const char *)buf);
	sha256_digest(&sha, sizeof(digest), digest);
	for (size_t i = 0; i < sizeof(digest); i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	put_str(j, "sha256", hex);
	put_int(j, "bytes", (int64_t)size);
	put_int(j, "lines", (int64_t)(lines + partial));
	return j;
}

static struct json_object *loadfiles_json(const struct dbench_options *o)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < o->nloadfiles; i++)
		add(a, loadfile_json(o->loadfiles[i]));
	return a;
}

/*
 * A network backend's server: its URL as given (passwords masked), the
 * protocol, and what is known of the protocol's version without asking
 * the server from the parent: the nfs backend speaks NFSv3 only; for smb
 * the dialects asked with --smb-protocol.  NULL for a local backend.
 */
static struct json_object *server_json(const struct dbench_options *o)
{
	struct json_object *j;

	if (o->server_protocol == NULL)
		return NULL;
	j = json_object_new_object();
	put_str(j, "url", o->server_url);
	put_str(j, "protocol", o->server_protocol);
	if (strcmp(o->server_protocol, "nfs") == 0)
		put_int(j, "nfs_version", 3);
	if (o->server_smb_protocol != NULL)
		put_str(j, "smb_protocol_requested", o->server_smb_protocol);
	return j;
}

static struct json_object *result_json(const struct run_result *r)
{
	struct json_object *j = json_object_new_object();
	uint64_t errs[OP_NUM_MEASURED], errors = 0;

	total_errors(r, errs);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++)
		errors += errs[k];
	put_str(j, "phase", series_phase_name(r->phase));
	put_num(j, "seconds", r->seconds, 9);
	put_bool(j, "interrupted", r->interrupted);
	put_int(j, "clients", r->nclients);
	put_int(j, "procs", r->nprocs);
	put_int(j, "lines", (int64_t)r->lines);
	put_int(j, "bytes", (int64_t)r->bytes);
	put_num(j, "throughput_mb_per_s", result_mbps(r->bytes, r->seconds), 6);
	put_num(j, "ops_per_s", result_ops_per_s(r), 3);
	put_io_split(j, r->read_bytes, r->bytes, r->seconds);
	put_num(j, "max_latency_ms", ms(result_max_latency(r->ops)), 6);
	put_int(j, "errors", (int64_t)errors);
	return j;
}

/* Per-phase totals, added up from the series. */
static struct json_object *phases_json(const struct series *s)
{
	struct json_object *a = json_object_new_array();
	static const uint32_t order[] = { PHASE_WARMUP, PHASE_EXECUTE };

	for (unsigned p = 0; p < 2 && s != NULL; p++) {
		struct json_object *j;
		double secs = 0, first = -1;
		uint64_t bytes = 0, ops = 0, max = 0;

		for (unsigned i = 0; i < s->nrows; i++) {
			const struct series_row *row = &s->rows[i];

			if (row->phase != order[p])
				continue;
			if (first < 0)
				first = row->elapsed_s - row->duration_s;
			secs += row->duration_s;
			bytes += row->bytes;
			ops += row->ops;
			if (row->max_ns > max)
				max = row->max_ns;
		}
		if (first < 0)
			continue;
		j = json_object_new_object();
		put_str(j, "name", series_phase_name(order[p]));
		put_num(j, "start_s", first, 6);
		put_num(j, "seconds", secs, 6);
		put_int(j, "bytes", (int64_t)bytes);
		put_int(j, "ops", (int64_t)ops);
		put_num(j, "mb_per_s", result_mbps(bytes, secs), 6);
		put_num(j, "ops_per_s", secs > 0 ? (double)ops / secs : 0, 3);
		put_num(j, "max_latency_ms", ms(max), 6);
		add(a, j);
	}
	return a;
}

static struct json_object *series_json(const struct series *s)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; s != NULL && i < s->nrows; i++) {
		const struct series_row *row = &s->rows[i];
		struct json_object *j = json_object_new_object();
		double d = row->duration_s > 0 ? row->duration_s : 1;

		put_str(j, "phase", series_phase_name(row->phase));
		put_num(j, "elapsed_s", row->elapsed_s, 6);
		put_num(j, "duration_s", row->duration_s, 6);
		put_int(j, "bytes", (int64_t)row->bytes);
		put_int(j, "ops", (int64_t)row->ops);
		put_num(j, "mb_per_s", result_mbps(row->bytes, d), 6);
		put_num(j, "ops_per_s", (double)row->ops / d, 3);
		put_num(j, "max_latency_ms", ms(row->max_ns), 6);
		put_num(j, "p99_latency_ms", ms(row->p99_ns), 6);
		add(a, j);
	}
	return a;
}

static struct json_object *clients_json(void *mem,
					const struct dbench_options *o,
					const struct run_result *r)
{
	struct json_object *a = json_object_new_array();
	struct op_stats *ops = talloc_zero_array(mem, struct op_stats,
						 OP_NUM_MEASURED);
	uint64_t errors[OP_NUM_MEASURED];

	if (ops == NULL) {
		json_object_put(a);
		return NULL;
	}
	for (uint32_t i = 0; i < r->nclient_results; i++) {
		const struct result_client *c = &r->clients[i];
		struct json_object *j = json_object_new_object();

		result_client_expand(c, ops, errors);
		put_int(j, "client", c->client_id);
		if (r->nhosts > 0)
			put_int(j, "rank", c->host);
		put_str(j, "directory",
			o->directories[c->directory % o->ndirectories]);
		put_str(j, "loadfile", c->loadfile);
		put_int(j, "lines", (int64_t)c->lines);
		put_int(j, "bytes", (int64_t)c->bytes);
		put_io_split(j, c->read_bytes, c->bytes, r->seconds);
		put_int(j, "passes", (int64_t)c->passes);
		put(j, "operations", ops_json(o, ops, errors, false, NULL));
		add(a, j);
	}
	talloc_free(ops);
	return a;
}

/* dbench-mpi: the figures of each host (rank) of the job. */
static struct json_object *hosts_json(const struct dbench_options *o,
				      const struct run_result *r)
{
	struct json_object *a = json_object_new_array();

	for (uint32_t h = 0; h < r->nhosts; h++) {
		struct json_object *j = json_object_new_object();
		uint64_t lines = 0, bytes = 0, passes = 0;
		const struct host_facts *facts;
		int64_t n = 0;

		for (uint32_t i = 0; i < r->nclient_results; i++) {
			const struct result_client *c = &r->clients[i];

			if (c->host != h)
				continue;
			n++;
			lines += c->lines;
			bytes += c->bytes;
			passes += c->passes;
		}
		put_int(j, "rank", h);
		put_str(j, "host", r->host_names[h]);
		put_int(j, "clients", n);
		put_int(j, "lines", (int64_t)lines);
		put_int(j, "bytes", (int64_t)bytes);
		put_int(j, "passes", (int64_t)passes);
		put_num(j, "throughput_mb_per_s",
			result_mbps(bytes, r->seconds), 6);
		facts = result_host_facts(r, h);
		if (facts != NULL) {
			/* the facts flat as well, as the history reads them */
			put_str(j, "hostname", facts->hostname);
			put_str(j, "kernel_release", facts->kernel_release);
			put_str(j, "cpu_model", facts->cpu_model);
			put_int(j, "cpus", facts->cpus);
			put_int(j, "memory_bytes", facts->memory_bytes);
			put(j, "system", host_json(facts));
			put(j, "directories", directories_json(o, facts));
		}
		add(a, j);
	}
	return a;
}

/* How the warmup ended: after fixed seconds, or (--warmup auto) at a
 * steady state or its maximum. */
static struct json_object *warmup_json(const struct dbench_options *o,
				       const struct run_result *r)
{
	struct json_object *j = json_object_new_object();

	put_str(j, "mode", o->warmup_auto ? "auto" : "fixed");
	put_num(j, "seconds", r->phase_seconds[PHASE_WARMUP], 3);
	if (o->warmup_auto) {
		put(j, "steady", json_object_new_boolean(r->warmup_steady));
		put_int(j, "window_s", o->warmup_window);
		put_num(j, "bound_pct", o->warmup_bound_pct, 3);
		put_int(j, "max_s", o->warmup);
	}
	return j;
}

static struct timespec to_timespec(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000u),
		.tv_nsec = (long)(ns % 1000000000u),
	};

	return ts;
}

struct json_object *report_json_build(void *mem_ctx,
				      const struct dbench_options *o,
				      const struct run_result *r)
{
	struct timespec started = to_timespec(r->started_ns);
	struct timespec ended = to_timespec(r->ended_ns);
	struct json_object *j = report_json_header(o, result_host_facts(r, 0),
						   &started, &ended);
	void *mem = talloc_new(mem_ctx);
	uint64_t errors[OP_NUM_MEASURED];

	if (j == NULL || mem == NULL) {
		json_object_put(j);
		talloc_free(mem);
		return NULL;
	}
	total_errors(r, errors);
	put(j, "result", result_json(r));
	put(j, "cpu", cpu_json(&r->cpu));
	put(j, "noise", noise_json(&r->noise));
	put(j, "loadfiles", loadfiles_json(o));
	if (o->server_protocol != NULL)
		put(j, "server", server_json(o));
	put(j, "phases", phases_json(r->series));
	put(j, "warmup", warmup_json(o, r));
	put(j, "operations",
	    ops_json(o, r->ops, errors, true, r->response));
	put(j, "clients", clients_json(mem, o, r));
	if (r->nhosts > 0 && r->host_names != NULL)
		put(j, "hosts", hosts_json(o, r));
	put(j, "series", series_json(r->series));
	talloc_free(mem);
	return j;
}

int report_json_attach(struct json_object *doc, const char *key,
		       struct json_object *section)
{
	if (doc == NULL || section == NULL) {
		json_object_put(section);
		return -1;
	}
	return json_object_object_add(doc, key, section) == 0 ? 0 : -1;
}

int report_json_write(void *mem_ctx, struct json_object *doc,
		      const char *path, char **err)
{
	struct stat st;
	/* a regular file is replaced whole; anything else (a pipe,
	 * /dev/stdout) is written directly */
	bool direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
	char *tmp = direct ? talloc_strdup(mem_ctx, path) :
			     talloc_asprintf(mem_ctx, "%s.tmp%ld", path,
					     (long)getpid());
	const char *text;
	FILE *f;
	int bad;

	if (doc == NULL || tmp == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: out of memory", path);
		talloc_free(tmp);
		return -1;
	}
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	f = fopen(tmp, "w");
	if (f == NULL || text == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", path, text ?
				       strerror(errno) : "out of memory");
		if (f != NULL) {
			fclose(f);
			if (!direct)
				unlink(tmp);
		}
		talloc_free(tmp);
		return -1;
	}
	bad = fputs(text, f) == EOF || fputc('\n', f) == EOF;
	if (fclose(f) != 0)
		bad = 1;
	if (bad || (!direct && rename(tmp, path) != 0)) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", path,
				       strerror(errno ? errno : EIO));
		if (!direct)
			unlink(tmp);
		talloc_free(tmp);
		return -1;
	}
	talloc_free(tmp);
	return 0;
}
