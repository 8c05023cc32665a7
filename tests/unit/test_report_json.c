/*
 * test_report_json.c - the JSON result document and reading it back: the
 * fields a synthetic run produces, the hook that attaches another
 * section (--disk-test's), the file written, the host facts taken from
 * the result (every host's after a job of several), and result_load()'s
 * checks and percentile lookups (including the fallback to histogram
 * buckets, which must agree with hist_percentile()).
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
#include "disktest/disktest.h"
#include "report/report_json.h"
#include "report/result_load.h"
#include "stats/series.h"

static const char *dirs[] = { "." };
static const char *loadfiles[] = { "t.txt" };
static const double pcts[] = { 50, 99, 99.9 };
static const char *argv_[] = { "dbench", "--json=x.json", "2" };

static void fill_options(struct dbench_options *o)
{
	memset(o, 0, sizeof(*o));
	o->nclients = 2;
	o->timelimit = 3;
	o->warmup = 1;
	o->loadfiles = loadfiles;
	o->nloadfiles = 1;
	o->directories = dirs;
	o->ndirectories = 1;
	o->backend = "null";
	o->clients_per_process = 1;
	o->percentiles = pcts;
	o->npercentiles = 3;
	o->argc = 3;
	o->argv = argv_;
}

static void put(struct stats_region *r, unsigned c, enum op_kind k,
		uint64_t lat)
{
	struct client_slot *s = &r->slots[c];
	struct slot_op *os = &s->ops[k];

	s->ops_used |= 1u << k;	/* as the client's record() does */
	os->count++;
	os->sum_ns += lat;
	if (lat > os->max_ns)
		os->max_ns = lat;
	stats_hist_record(s, k, lat);
	r->live[c].lines++;
}

/* A run of two clients: ReadX on both, Close on client 1 only. */
static struct json_object *build(void *mem, struct stats_region *r,
				 struct dbench_options *o)
{
	struct program *prog = talloc_zero(mem, struct program);
	struct program **progs = talloc_array(mem, struct program *, 1);
	struct series *ser = series_new(mem);
	struct tick_stats *acc = talloc_zero(mem, struct tick_stats);
	struct run_result *res;

	assert_non_null(prog);
	assert_non_null(progs);
	assert_non_null(ser);
	assert_non_null(acc);
	prog->filename = "t.txt";
	progs[0] = prog;
	fill_options(o);
	assert_int_equal(stats_map(r, 2), 0);
	for (unsigned c = 0; c < 2; c++) {
		stats_slot_reset(r, c, PHASE_EXECUTE);
		r->live[c].bytes = 1000000;
		r->live[c].read_bytes = 250000;
		for (uint64_t i = 1; i <= 1000; i++)
			put(r, c, OP_READX, i * 1000);
	}
	put(r, 1, OP_CLOSE, 5000000);
	r->slots[1].mm[OP_CLOSE].count = 2;
	stats_tick_record(&r->slots[0], 0, 1000, 4096);
	stats_tick_sum(r, 0, acc);
	assert_int_equal(series_add(ser, acc, PHASE_WARMUP, 1.0, 1.0), 0);
	stats_tick_record(&r->slots[1], 1, 3000, 100);
	stats_tick_sum(r, 1, acc);
	assert_int_equal(series_add(ser, acc, PHASE_EXECUTE, 2.0, 1.0), 0);
	res = result_build(mem, r, &(struct result_params){
		.programs = progs,
		.nprograms = 1,
		.phase = PHASE_EXECUTE,
		.seconds = 2.0,
		.nprocs = 2,
		.client_ops = true,
		.started_ns = 86400 * 1000000000ull,	/* 1970-01-02 */
		.ended_ns = 86402 * 1000000000ull + 500000000,
		.host_facts = host_facts_gather(mem, dirs, 1),
	});
	assert_non_null(res);
	res->series = ser;
	res->cpu = (struct result_cpu){ 1.5, 0.25, 7, 3 };
	return report_json_build(mem, o, res);
}

static struct json_object *path(struct json_object *o, const char *a,
				const char *b)
{
	return result_get(result_get(o, a), b);
}

static void test_document(void **state)
{
	struct tstate *ts = *state;
	struct stats_region r;
	struct dbench_options o;
	void *mem = talloc_new(ts->ctx);
	struct json_object *doc = build(mem, &r, &o);
	struct json_object *ops, *read, *close, *bk, *series;

	assert_non_null(doc);
	assert_int_equal(result_num(doc, "schema_version", 0), 1);
	assert_string_equal(result_str(result_get(doc, "tool"), "name", ""),
			    "dbench");
	assert_int_equal(json_object_array_length(
				 result_get(doc, "command_line")), 3);
	assert_int_equal(result_num(result_get(doc, "options"), "clients", 0),
			 2);
	assert_true(result_num(result_get(doc, "host"), "cpus", 0) >= 1);
	assert_string_equal(result_str(doc, "start_time", ""),
			    "1970-01-02T00:00:00.000Z");
	assert_string_equal(result_str(doc, "end_time", ""),
			    "1970-01-02T00:00:02.500Z");
	assert_int_equal(result_num(result_get(doc, "result"), "bytes", 0),
			 2000000);
	assert_true(result_num(result_get(doc, "result"),
			       "throughput_mb_per_s", 0) == 1.0);
	assert_int_equal(result_num(result_get(doc, "result"), "errors", -1),
			 2);
	ops = result_get(doc, "operations");
	assert_int_equal(json_object_array_length(ops), 2);
	/* table order: Close before ReadX */
	assert_string_equal(result_str(json_object_array_get_idx(ops, 0),
				       "name", ""), "Close");
	read = result_op(doc, "ReadX");
	close = result_op(doc, "Close");
	assert_int_equal(result_num(read, "count", 0), 2000);
	assert_int_equal(result_num(close, "errors", 0), 2);
	assert_true(result_num(read, "max_ms", 0) == 1.0);
	/* 1..1000 us twice: the median is 500 us, within the bucket */
	assert_true(result_op_percentile(read, 50) > 0.498 &&
		    result_op_percentile(read, 50) < 0.502);
	assert_true(result_op_percentile(read, 99.9) <= 1.0);
	bk = path(read, "histogram", "buckets");
	assert_non_null(bk);
	{
		double total = 0;

		for (size_t i = 0; i < json_object_array_length(bk); i++)
			total += json_object_get_double(
				json_object_array_get_idx(
					json_object_array_get_idx(bk, i), 2));
		assert_true(total == 2000);
	}
	/* clients add up, per-client ops carry no buckets */
	assert_int_equal(json_object_array_length(result_get(doc, "clients")),
			 2);
	assert_null(path(json_object_array_get_idx(
				 result_get(json_object_array_get_idx(
						    result_get(doc, "clients"),
						    0), "operations"), 0),
			 "histogram", "buckets"));
	/* the series and the per-phase totals built from it */
	series = result_get(doc, "series");
	assert_int_equal(json_object_array_length(series), 2);
	assert_string_equal(result_str(json_object_array_get_idx(series, 0),
				       "phase", ""), "warmup");
	assert_int_equal(result_num(json_object_array_get_idx(series, 1),
				    "bytes", 0), 100);
	assert_int_equal(json_object_array_length(result_get(doc, "phases")),
			 2);
	json_object_put(doc);
	stats_unmap(&r);
	talloc_free(mem);
}

/* The fields beyond the table: spread, read/write apart, CPU, loadfile,
 * build. */
static void test_additions(void **state)
{
	struct tstate *ts = *state;
	struct stats_region r;
	struct dbench_options o;
	void *mem = talloc_new(ts->ctx);
	struct json_object *doc = build(mem, &r, &o);
	struct json_object *res = result_get(doc, "result");
	struct json_object *cpu = result_get(doc, "cpu");
	struct json_object *ops = result_get(doc, "operations");
	struct json_object *read = json_object_array_get_idx(ops, 1);
	struct json_object *lf, *c1;

	assert_non_null(res);
	assert_int_equal(result_num(res, "read_bytes", -1), 500000);
	assert_int_equal(result_num(res, "write_bytes", -1), 1500000);
	assert_true(fabs(result_num(res, "read_mb_per_s", -1) - 0.25) < 1e-9);
	assert_true(fabs(result_num(res, "write_mb_per_s", -1) - 0.75) < 1e-9);
	c1 = json_object_array_get_idx(result_get(doc, "clients"), 1);
	assert_int_equal(result_num(c1, "read_bytes", -1), 250000);
	assert_int_equal(result_num(c1, "write_bytes", -1), 750000);
	assert_true(fabs(result_num(cpu, "user_s", -1) - 1.5) < 1e-9);
	assert_true(fabs(result_num(cpu, "system_s", -1) - 0.25) < 1e-9);
	assert_int_equal(result_num(cpu, "voluntary_context_switches", -1), 7);
	assert_int_equal(result_num(cpu, "involuntary_context_switches", -1),
			 3);
	/* ReadX: 1..1000 us, 1000 each client: min 1 us (a bucket bound),
	 * stddev 1000 * sqrt((1000^2 - 1) / 12) ns, to 0.8% */
	assert_string_equal(result_str(read, "name", ""), "ReadX");
	assert_true(fabs(result_num(read, "min_ms", -1) - 0.001) < 1e-9);
	assert_true(fabs(result_num(read, "stddev_ms", -1) - 0.288675) <
		    0.288675 * 0.008);
	/* one value: no spread */
	assert_true(result_num(json_object_array_get_idx(ops, 0),
			       "stddev_ms", -1) <= 5.0 * 0.008);
	assert_string_equal(result_str(result_get(doc, "tool"), "build_commit",
				       ""), BUILD_COMMIT);
	/* t.txt does not exist here: the path and why */
	lf = json_object_array_get_idx(result_get(doc, "loadfiles"), 0);
	assert_string_equal(result_str(lf, "path", ""), "t.txt");
	assert_non_null(result_get(lf, "error"));
	assert_null(result_get(lf, "crc32"));
	json_object_put(doc);
	stats_unmap(&r);
	talloc_free(mem);
}

/* A readable loadfile: zlib's CRC-32 of its bytes, its size and lines
 * (the last one without a newline counts). */
static void test_loadfile_checksum(void **state)
{
	struct tstate *ts = *state;
	struct stats_region r;
	struct dbench_options o;
	void *mem = talloc_new(ts->ctx);
	char path[] = "/tmp/test_report_json.XXXXXX";
	const char *text = "Close 1 NT_STATUS_OK\nFlush 1 NT_STATUS_OK";
	int fd = mkstemp(path);
	struct json_object *doc, *lf;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	loadfiles[0] = path;
	doc = build(mem, &r, &o);
	loadfiles[0] = "t.txt";
	unlink(path);
	lf = json_object_array_get_idx(result_get(doc, "loadfiles"), 0);
	/* python3 -c 'import zlib; print("%08x" % zlib.crc32(b"..."))' */
	assert_string_equal(result_str(lf, "crc32", ""), "6d685433");
	assert_int_equal(result_num(lf, "bytes", -1), strlen(text));
	assert_int_equal(result_num(lf, "lines", -1), 2);
	json_object_put(doc);
	stats_unmap(&r);
	talloc_free(mem);
}

/* Percentiles not in the document come from the buckets, as dbench's. */
static void test_percentile_fallback(void **state)
{
	struct tstate *ts = *state;
	struct stats_region r;
	struct dbench_options o;
	void *mem = talloc_new(ts->ctx);
	struct json_object *doc = build(mem, &r, &o);
	struct stats_total *t = talloc_zero(ts->ctx, struct stats_total);
	static const double ps[] = { 1, 25, 50, 75, 90, 95, 99, 99.9, 99.97,
				     100 };

	assert_non_null(doc);
	stats_sum(&r, 0, 2, PHASE_EXECUTE, 0, true, t);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		struct json_object *read = result_op(doc, "ReadX");
		struct json_object *pl = result_get(read, "percentiles");
		double got, want;

		/* drop the listed ones so that the buckets are used */
		while (json_object_array_length(pl) > 0)
			json_object_array_del_idx(pl, 0, 1);
		got = result_op_percentile(read, ps[i]);
		want = (double)hist_percentile(&t->ops[OP_READX].hist, ps[i],
					       0, t->ops[OP_READX].max_ns) /
		       1e6;
		if (got < want - 1e-9 || got > want + 1e-9)
			fail_msg("p%g: from buckets %.9f, histogram %.9f",
				 ps[i], got, want);
	}
	talloc_free(t);
	json_object_put(doc);
	stats_unmap(&r);
	talloc_free(mem);
}

/* Another mode's section rides along: attach, write, load back. */
static void test_attach_write_load(void **state)
{
	struct tstate *ts = *state;
	struct stats_region r;
	struct dbench_options o;
	void *mem = talloc_new(ts->ctx);
	struct json_object *doc = build(mem, &r, &o);
	struct json_object *dt = json_object_new_object();
	struct json_object *back;
	char dir[] = "/tmp/test_report_json.XXXXXX";
	char *file, *err = NULL;

	assert_non_null(mkdtemp(dir));
	file = talloc_asprintf(ts->ctx, "%s/r.json", dir);
	json_object_object_add(dt, "mb_per_s", json_object_new_int(42));
	assert_int_equal(report_json_attach(doc, "disk_test", dt), 0);
	assert_int_equal(report_json_write(ts->ctx, doc, file, &err), 0);
	back = result_load(ts->ctx, file, &err);
	assert_non_null(back);
	assert_int_equal(result_num(result_get(back, "disk_test"), "mb_per_s",
				    0), 42);
	json_object_put(back);
	/* a header-only document (a run without a load phase) */
	json_object_put(doc);
	doc = report_json_header(&o, NULL, NULL, NULL);
	assert_non_null(doc);
	assert_null(result_get(doc, "start_time"));
	assert_non_null(result_get(doc, "directories"));
	json_object_put(doc);
	/* writing where it cannot: an error naming the file */
	doc = report_json_header(&o, NULL, NULL, NULL);
	assert_int_equal(report_json_write(ts->ctx, doc, "/nonexistent/x.json",
					   &err), -1);
	assert_non_null(strstr(err, "/nonexistent/x.json: "));
	json_object_put(doc);
	talloc_free(err);
	unlink(file);
	rmdir(dir);
	talloc_free(file);
	stats_unmap(&r);
	talloc_free(mem);
}

/* result_load() refuses what is not a readable dbench result. */
static void test_load_errors(void **state)
{
	struct tstate *ts = *state;
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "", "empty file" },
		{ "  \n", "empty file" },
		{ "{\"schema_version\": 1, \"tool\": {\"name\": \"dbe",
		  "ends early" },
		{ "[1, 2", "ends early" },
		{ "nonsense", "not valid JSON" },
		{ "{} {}", "extra text" },
		{ "{\"a\": 1}", "not a dbench result" },
		{ "{\"schema_version\": 1, \"tool\": {\"name\": \"fio\"}}",
		  "not a dbench result" },
		{ "{\"schema_version\": \"1\", \"tool\": {\"name\": "
		  "\"dbench\"}}", "not a dbench result" },
		{ "{\"schema_version\": 2, \"tool\": {\"name\": \"dbench\"},"
		  " \"result\": {}, \"operations\": []}",
		  "schema_version 2 is not supported (this tool reads up to 1;"
		  " written by a newer dbench" },
		{ "{\"schema_version\": 1, \"tool\": {\"name\": \"dbench\"}}",
		  "neither \"result\" and \"operations\" nor "
		  "\"disk_test\"" },
		{ "{\"schema_version\": 1, \"tool\": {\"name\": \"dbench\"},"
		  " \"disk_test\": {\"directories\": {}}}",
		  "neither \"result\" and \"operations\" nor "
		  "\"disk_test\"" },
	};
	char dir[] = "/tmp/test_report_json.XXXXXX";
	char *file, *err = NULL;

	assert_non_null(mkdtemp(dir));
	file = talloc_asprintf(ts->ctx, "%s/bad.json", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(file, "w");

		assert_non_null(f);
		fputs(cases[i].text, f);
		fclose(f);
		assert_null(result_load(ts->ctx, file, &err));
		assert_non_null(err);
		if (strncmp(err, file, strlen(file)) != 0 ||
		    strstr(err, cases[i].msg) == NULL ||
		    strchr(err, '\n') != NULL)
			fail_msg("case %zu: '%s'", i, err);
		talloc_free(err);
	}
	unlink(file);
	assert_null(result_load(ts->ctx, file, &err));
	assert_non_null(strstr(err, "No such file"));
	talloc_free(err);
	rmdir(dir);
	talloc_free(file);
}

/* The member at index i of array key of o. */
static struct json_object *idx(struct json_object *o, const char *key,
			       size_t i)
{
	struct json_object *a = result_get(o, key);

	assert_non_null(a);
	assert_true(json_object_is_type(a, json_type_array));
	assert_true(i < json_object_array_length(a));
	return json_object_array_get_idx(a, i);
}

/* .warmup always; --warmup auto's fields and operations[].response only
 * when asked for or scheduled. */
static void test_warmup_and_response(void **state)
{
	struct tstate *ts = *state;
	struct stats_region r;
	struct dbench_options o;
	void *mem = talloc_new(ts->ctx);
	struct json_object *doc = build(mem, &r, &o);
	struct json_object *w = result_get(doc, "warmup"), *op, *resp;
	struct run_result *res = result_new(mem);

	assert_string_equal(result_str(w, "mode", ""), "fixed");
	assert_null(result_get(w, "steady"));
	assert_null(result_get(idx(doc, "operations", 0), "response"));
	json_object_put(doc);
	stats_unmap(&r);
	/* a steady --warmup auto run with response times */
	o.warmup_auto = true;
	o.warmup = 40;
	o.warmup_window = 5;
	o.warmup_bound_pct = 10;
	res->phase = PHASE_EXECUTE;
	res->seconds = 2;
	res->phase_seconds[PHASE_WARMUP] = 8.5;
	res->warmup_steady = true;
	res->ops[OP_CLOSE].count = 2;
	res->ops[OP_CLOSE].sum_ns = 2000;
	res->ops[OP_CLOSE].max_ns = 1000;
	hist_record(&res->ops[OP_CLOSE].hist, 1000);
	hist_record(&res->ops[OP_CLOSE].hist, 1000);
	res->response = talloc_zero_array(res, struct op_stats,
					  OP_NUM_MEASURED);
	assert_non_null(res->response);
	res->response[OP_CLOSE].count = 2;
	res->response[OP_CLOSE].sum_ns = 3000000;
	res->response[OP_CLOSE].max_ns = 2000000;
	hist_record(&res->response[OP_CLOSE].hist, 1000000);
	hist_record(&res->response[OP_CLOSE].hist, 2000000);
	doc = report_json_build(mem, &o, res);
	assert_non_null(doc);
	w = result_get(doc, "warmup");
	assert_string_equal(result_str(w, "mode", ""), "auto");
	assert_true(result_num(w, "seconds", -1) == 8.5);
	assert_true(json_object_get_boolean(result_get(w, "steady")));
	assert_int_equal(result_num(w, "window_s", -1), 5);
	assert_true(result_num(w, "bound_pct", -1) == 10);
	assert_int_equal(result_num(w, "max_s", -1), 40);
	op = idx(doc, "operations", 0);
	assert_string_equal(result_str(op, "name", ""), "Close");
	resp = result_get(op, "response");
	assert_non_null(resp);
	assert_int_equal(result_num(resp, "count", -1), 2);
	assert_true(result_num(resp, "avg_ms", -1) == 1.5);
	assert_true(result_num(resp, "max_ms", -1) == 2);
	assert_int_equal(json_object_array_length(result_get(resp,
							     "percentiles")),
			 3);
	json_object_put(doc);
	talloc_free(mem);
}

/* A host's facts, labelled host, with one directory dir. */
static struct host_facts *fake_facts(void *mem, uint32_t host,
				     const char *name, const char *dir)
{
	struct host_facts *h = talloc_zero(mem, struct host_facts);

	assert_non_null(h);
	h->host = host;
	h->hostname = talloc_strdup(h, name);
	h->kernel = talloc_strdup(h, "Linux");
	h->kernel_release = talloc_strdup(h, "6.1");
	h->kernel_version = talloc_strdup(h, "#1");
	h->machine = talloc_strdup(h, "x86_64");
	h->cpus = 4 + host;
	h->memory_bytes = 1000;
	h->ndirs = 1;
	h->dirs = talloc_zero(h, struct host_dir);
	assert_non_null(h->dirs);
	h->dirs[0].path = talloc_strdup(h, dir);
	h->dirs[0].device = talloc_strdup(h, "8:1");
	h->dirs[0].fs_type = talloc_strdup(h, "0x58465342");
	h->dirs[0].mount_options = talloc_strdup(h, "rw,noatime");
	h->dirs[0].free_bytes = 4096 * (1 + host);
	h->cpu_model = host ? talloc_strdup(h, "CPU B") : NULL;
	return h;
}

/* The host and its directories come from the result's facts, not from
 * this machine; a job of two hosts shows each host's in hosts. */
static void test_host_facts(void **state)
{
	struct tstate *ts = *state;
	struct dbench_options o;
	void *mem = talloc_new(ts->ctx);
	struct run_result *res = result_new(mem);
	struct json_object *doc, *h, *d;

	assert_non_null(res);
	fill_options(&o);
	/* no facts at all: the schema's minimum */
	doc = report_json_build(mem, &o, res);
	assert_non_null(doc);
	h = result_get(doc, "host");
	assert_int_equal(json_object_object_length(h), 2);
	assert_int_equal(result_num(h, "cpus", -1), 0);
	d = idx(doc, "directories", 0);
	assert_int_equal(json_object_object_length(d), 1);
	assert_string_equal(result_str(d, "path", ""), ".");
	assert_null(result_get(doc, "hosts"));
	json_object_put(doc);
	/* two hosts: the header is host 0's, hosts has both */
	res->nhost_facts = 2;
	res->host_facts = talloc_zero_array(res, struct host_facts, 2);
	assert_non_null(res->host_facts);
	res->host_facts[0] = *fake_facts(res, 1, "hostb", "/b");
	res->host_facts[1] = *fake_facts(res, 0, "hosta", "/a");
	res->nhosts = 2;
	res->host_names = talloc_array(res, char *, 2);
	assert_non_null(res->host_names);
	res->host_names[0] = talloc_strdup(res, "hosta");
	res->host_names[1] = talloc_strdup(res, "hostb");
	doc = report_json_build(mem, &o, res);
	assert_non_null(doc);
	assert_string_equal(result_str(result_get(doc, "host"), "hostname",
				       ""), "hosta");
	d = idx(doc, "directories", 0);
	assert_string_equal(result_str(d, "path", ""), "/a");
	assert_null(result_get(d, "real_path"));
	assert_string_equal(result_str(d, "fs_type", ""), "0x58465342");
	assert_null(result_get(d, "mount_point"));
	assert_string_equal(result_str(d, "mount_options", ""), "rw,noatime");
	assert_int_equal(result_num(d, "free_bytes", -1), 4096);
	/* device_model and the first host's cpu_model: null, not absent */
	assert_true(json_object_object_get_ex(d, "device_model", NULL));
	assert_null(result_get(d, "device_model"));
	assert_true(json_object_object_get_ex(result_get(doc, "host"),
					      "cpu_model", NULL));
	h = idx(doc, "hosts", 1);
	/* the facts flat too, as the history reads them */
	assert_string_equal(result_str(h, "hostname", ""), "hostb");
	assert_string_equal(result_str(h, "cpu_model", ""), "CPU B");
	assert_int_equal(result_num(h, "cpus", 0), 5);
	assert_int_equal(result_num(h, "memory_bytes", 0), 1000);
	assert_string_equal(result_str(h, "host", ""), "hostb");
	assert_string_equal(result_str(result_get(h, "system"), "hostname",
				       ""), "hostb");
	assert_int_equal(result_num(result_get(h, "system"), "cpus", 0), 5);
	assert_string_equal(result_str(idx(h, "directories", 0), "path", ""),
			    "/b");
	assert_string_equal(result_str(idx(idx(doc, "hosts", 0),
					   "directories", 0), "path", ""),
			    "/a");
	json_object_put(doc);
	talloc_free(mem);
}

/* --disk-test's section, from a hand-made result: every state, the runs,
 * latencies as a load run's operations have them; written and read back. */
static void test_disktest_section(void **state)
{
	struct tstate *ts = *state;
	struct dbench_options o;
	struct disktest_result *res = talloc_zero(ts->ctx,
						  struct disktest_result);
	struct disktest_dir *d = talloc_zero(res, struct disktest_dir);
	struct disktest_row *w = &d->row[DT_WRITE];
	struct disktest_row *hot = &d->row[DT_HOT_READ];
	struct json_object *sec, *dir, *m, *back, *b;
	static double mbps[] = { 100, 300, 200 };
	static uint64_t flush[] = { 2000000, 1000000, 3000000 };
	static const char *states[DT_NUM_KINDS] = {
		"measured", "not evicted", "measured", "not supported",
		"not run"
	};
	char tmpdir[] = "/tmp/test_report_json.XXXXXX";
	char *file, *err = NULL;
	uint64_t sum = 0;

	fill_options(&o);
	o.disk_test = true;
	o.disk_test_block = 1 << 20;
	o.disk_test_repeat = 3;
	res->block_size = 1 << 20;
	res->repeat = 3;
	res->ndirs = 1;
	res->dirs = d;
	res->interrupted = true;
	res->signal = 2;
	d->path = "/srv/a";
	d->size = 8 << 20;
	d->free_bytes = 1000000000;
	d->total_bytes = 2000000000;
	d->dio_mem_align = 512;
	d->dio_offset_align = 4096;
	d->dio_source = "statx";
	for (unsigned k = 0; k < DT_NUM_KINDS; k++)
		d->row[k].resident_pct = -1;
	w->state = DT_MEASURED;
	w->nruns = 3;
	w->mbps = mbps;
	w->mbps_median = 200;
	w->mbps_min = 100;
	w->mbps_max = 300;
	w->flush_ns = flush;
	w->flush_median_ns = 2000000;
	w->lat = talloc_zero(res, struct histogram);
	assert_non_null(w->lat);
	for (uint64_t i = 1; i <= 24; i++)
		hist_record(w->lat, i * 100000);	/* 0.1 .. 2.4 ms */
	w->lat_count = 24;
	w->lat_min_ns = 100000;
	w->lat_max_ns = 2400000;
	d->row[DT_COLD_READ].state = DT_NOT_EVICTED;
	d->row[DT_COLD_READ].resident_pct = 100;
	d->row[DT_COLD_READ].note = talloc_strdup(res, "could not evict");
	hot->state = DT_MEASURED;
	hot->nruns = 1;
	hot->mbps = mbps;
	hot->mbps_median = hot->mbps_min = hot->mbps_max = 100;
	hot->resident_pct = 99.5;
	d->row[DT_DIRECT_WRITE].state = DT_NOT_SUPPORTED;
	d->row[DT_DIRECT_WRITE].note = talloc_strdup(res, "EINVAL");

	sec = report_disktest_json(&o, res);
	assert_non_null(sec);
	assert_int_equal(result_num(sec, "block_size_bytes", 0), 1 << 20);
	assert_int_equal(result_num(sec, "repeat", 0), 3);
	assert_true(json_object_get_boolean(result_get(sec, "interrupted")));
	assert_int_equal(result_num(sec, "signal", 0), 2);
	dir = idx(sec, "directories", 0);
	assert_string_equal(result_str(dir, "path", ""), "/srv/a");
	assert_int_equal(result_num(dir, "file_size_bytes", 0), 8 << 20);
	assert_int_equal(result_num(dir, "dio_offset_alignment", 0), 4096);
	assert_string_equal(result_str(dir, "dio_alignment_source", ""),
			    "statx");
	assert_int_equal(json_object_array_length(result_get(dir,
			 "measurements")), DT_NUM_KINDS);
	for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
		m = idx(dir, "measurements", k);
		assert_string_equal(result_str(m, "name", ""),
				    disktest_kind_name[k]);
		assert_string_equal(result_str(m, "state", ""), states[k]);
	}
	/* the write: runs, fdatasync, latency exactly as hist_percentile */
	m = idx(dir, "measurements", DT_WRITE);
	assert_int_equal(json_object_array_length(result_get(m, "mb_per_s")),
			 3);
	assert_true(json_object_get_double(idx(m, "mb_per_s", 1)) == 300);
	assert_true(result_num(m, "mb_per_s_median", 0) == 200);
	assert_true(result_num(m, "fdatasync_median_ms", 0) == 2);
	assert_true(json_object_get_double(idx(m, "fdatasync_ms", 2)) == 3);
	assert_null(result_get(m, "resident_pct_before"));
	assert_int_equal(result_num(m, "count", 0), 24);
	assert_true(result_num(m, "max_ms", 0) == 2.4);
	assert_int_equal(json_object_array_length(result_get(m,
			 "percentiles")), 3);
	for (unsigned i = 0; i < 3; i++) {
		struct json_object *e = idx(m, "percentiles", i);
		double want = (double)hist_percentile(w->lat, pcts[i],
						      100000, 2400000) / 1e6;

		assert_true(result_num(e, "percentile", 0) == pcts[i]);
		assert_true(fabs(result_num(e, "ms", 0) - want) < 1e-6);
	}
	b = result_get(result_get(m, "histogram"), "buckets");
	for (size_t i = 0; i < json_object_array_length(b); i++)
		sum += (uint64_t)json_object_get_int64(json_object_array_get_idx(
			json_object_array_get_idx(b, i), 2));
	assert_int_equal(sum, 24);
	/* rows without a figure: their note, no latency */
	m = idx(dir, "measurements", DT_COLD_READ);
	assert_string_equal(result_str(m, "note", ""), "could not evict");
	assert_true(result_num(m, "resident_pct_before", 0) == 100);
	assert_null(result_get(m, "mb_per_s_median"));
	assert_int_equal(json_object_array_length(result_get(m,
			 "percentiles")), 0);
	assert_true(result_num(idx(dir, "measurements", DT_HOT_READ),
			       "resident_pct_before", 0) == 99.5);
	assert_null(result_get(idx(dir, "measurements", DT_DIRECT_READ),
			       "note"));

	/* the whole document: loads back as a disk test */
	back = report_json_header(&o, NULL, NULL, NULL);
	assert_int_equal(result_num(result_get(back, "options"), "repeat", 0),
			 3);
	assert_null(result_get(result_get(back, "options"), "clients"));
	assert_int_equal(report_json_attach(back, "disk_test", sec), 0);
	assert_non_null(mkdtemp(tmpdir));
	file = talloc_asprintf(ts->ctx, "%s/dt.json", tmpdir);
	assert_int_equal(report_json_write(ts->ctx, back, file, &err), 0);
	json_object_put(back);
	back = result_load(ts->ctx, file, &err);
	assert_non_null(back);
	assert_true(result_is_disktest(back));
	m = idx(idx(result_get(back, "disk_test"), "directories", 0),
		"measurements", DT_WRITE);
	assert_true(fabs(result_op_percentile(m, 99) -
			 result_num(idx(m, "percentiles", 1), "ms", -1)) <
		    1e-9);
	json_object_put(back);
	unlink(file);
	rmdir(tmpdir);
	talloc_free(file);
	talloc_free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_document, setup, teardown),
		cmocka_unit_test_setup_teardown(test_additions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_warmup_and_response, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_loadfile_checksum, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_percentile_fallback, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_attach_write_load, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_load_errors, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_host_facts, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_disktest_section, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
