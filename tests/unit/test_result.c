/*
 * test_result.c - the run result (result.h): built from a statistics
 * region (totals, histograms, per-client figures, the first mismatch with
 * its loadfile line and path as the client saw it), merged (two hosts'
 * results give the sums, maxima, merged histograms, concatenated clients
 * and the earliest first mismatch), serialised and parsed back field by
 * field, and the merge of two serialised halves equal to the whole.  The
 * host facts given to the build ride along: copied, concatenated by the
 * merge, serialised.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>
#include <cmocka.h>

#include "talloc_fixture.h"
#include "stats/result.h"

#define NCLIENTS 4

static const char *load_a =
	"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 7 NT_STATUS_OK\n"
	"ReadX 7 0 5 5 NT_STATUS_OK\n"
	"Close 7 NT_STATUS_OK\n";
static const char *load_b =
	"QUERY_PATH_INFORMATION \"\\clients\\client1\\g\" 1004 "
	"NT_STATUS_OK\n"
	"FIND_FIRST \"\\clients\\client1\\*\" 260 1366 3 "
	"NT_STATUS_OK\n";

/* A host's facts as host_facts_gather() would give them: the second
 * directory found out nothing. */
static struct host_dir facts_dirs[] = {
	{ (char *)"/srv/a", (char *)"/srv/a", (char *)"8:1", (char *)"ext4",
	  (char *)"/dev/sda1", (char *)"/srv", (char *)"rw,relatime",
	  (char *)"Samsung SSD", 123456789 },
	{ (char *)"gone", NULL, NULL, NULL, NULL, NULL, NULL, NULL, -1 },
};
static const struct host_facts facts = {
	.host = 99,	/* the build sets the label */
	.hostname = (char *)"h1",
	.kernel = (char *)"Linux",
	.kernel_release = (char *)"6.1",
	.kernel_version = (char *)"#1 SMP",
	.machine = (char *)"x86_64",
	.cpu_model = (char *)"Some CPU @ 2.00GHz",
	.cpus = 8,
	.memory_bytes = 1ll << 34,
	.ndirs = 2,
	.dirs = facts_dirs,
};

struct fixture {
	struct stats_region r;
	struct program *progs[2];
};

static void put(struct stats_region *r, unsigned c, enum op_kind k,
		uint64_t lat, uint64_t bytes)
{
	struct client_slot *s = &r->slots[c];
	struct client_live *l = &r->live[c];
	struct slot_op *os = &s->ops[k];

	s->ops_used |= 1u << k;
	os->count++;
	os->sum_ns += lat;
	if (lat > os->max_ns)
		os->max_ns = lat;
	stats_hist_record(s, k, lat);
	l->bytes += bytes;
	l->lines++;
}

/*
 * Four clients, ids 10..13 (as a second host's would be): 0 and 2 run
 * load_a, 1 and 3 load_b; client 3 lags in the warmup.  Mismatches: a
 * QPathInfo on clients 11 (later) and 13 (earlier), a FIND_FIRST count on
 * client 11.
 */
static void fill(void *mem, struct fixture *f)
{
	char *err = NULL;

	f->progs[0] = program_compile_buffer(mem, "a.txt", load_a,
					     strlen(load_a), &err);
	f->progs[1] = program_compile_buffer(mem, "b.txt", load_b,
					     strlen(load_b), &err);
	assert_non_null(f->progs[0]);
	assert_non_null(f->progs[1]);
	assert_int_equal(stats_map(&f->r, NCLIENTS), 0);
	f->r.client_id_base = 10;
	for (unsigned c = 0; c < NCLIENTS; c++) {
		struct client_slot *s = &f->r.slots[c];

		stats_slot_reset(&f->r, c, c == 3 ? PHASE_WARMUP :
						  PHASE_EXECUTE);
		s->client_id = 10 + c;
		s->program = c % 2;
		s->directory = c % 2;
		f->r.live[c].passes = c;
		s->npass_records = c;
		for (unsigned i = 0; i < c; i++) {
			s->pass[i].ms = 100 * (c + 1) + i;
			s->pass[i].at_ms = 1000 * (i + 1);
		}
		for (uint64_t i = 1; i <= 100; i++)
			put(&f->r, c, c % 2 ? OP_QPATHINFO : OP_READX,
			    i * 1000 * (c + 1), c % 2 ? 0 : 5);
	}
	f->r.slots[1].mm[OP_QPATHINFO] = (struct mismatch_stats){
		.count = 2, .first_wall_ns = 5000, .first_op = 0,
		.first_status = 0xC0000034, .first_err = 2, .first_client = 11,
		.first_found = -1 };
	f->r.slots[3].mm[OP_QPATHINFO] = (struct mismatch_stats){
		.count = 1, .fatal = 1, .first_wall_ns = 4000, .first_op = 0,
		.first_status = 0xC000000F, .first_client = 13,
		.first_found = -1 };
	f->r.slots[1].mm[OP_FIND] = (struct mismatch_stats){
		.count = 1, .first_wall_ns = 7000, .first_op = 1,
		.first_status = 0, .first_client = 11, .first_found = 1 };
}

static struct run_result *build(void *mem, struct fixture *f, unsigned first,
				unsigned n, double seconds)
{
	struct result_params p = {
		.programs = f->progs,
		.nprograms = 2,
		.phase = PHASE_EXECUTE,
		.seconds = seconds,
		.started_ns = 1000000000ull * (first + 1),
		.ended_ns = 1000000000ull * (first + 60),
		.nprocs = n,
		.host = first,
		.host_facts = &facts,
		.client_ops = true,
		.pass_records = true,
		.first_slot = first,
		.nslots = n,
	};
	struct run_result *res = result_build(mem, &f->r, &p);

	assert_non_null(res);
	return res;
}

/* Built from the region: totals, first mismatch, clients. */
static void test_build(void **state)
{
	struct tstate *ts = *state;
	struct fixture f;
	struct run_result *res;
	const struct result_mismatch *m;

	fill(ts->ctx, &f);
	res = build(ts->ctx, &f, 0, 0, 60);
	assert_int_equal(res->nclients, NCLIENTS);
	/* client 3 is still in the warmup: not in the execute totals */
	assert_int_equal(res->ops[OP_READX].count, 200);
	assert_int_equal(res->ops[OP_QPATHINFO].count, 100);
	assert_int_equal(res->ops[OP_READX].max_ns, 300000);
	assert_int_equal(hist_total(&res->ops[OP_READX].hist), 200);
	assert_int_equal(res->lines, 300);
	assert_int_equal(res->bytes, 1000);
	/* the earliest QPathInfo mismatch: client 13's, resolved */
	m = &res->mm[OP_QPATHINFO];
	assert_int_equal(m->count, 3);
	assert_int_equal(m->fatal, 1);
	assert_int_equal(m->client_id, 13);
	assert_int_equal(m->wall_ns, 4000);
	assert_true(m->has_op);
	assert_string_equal(m->loadfile, "b.txt");
	assert_int_equal(m->line, 1);
	assert_string_equal(m->path, "clients/client13/g");
	assert_int_equal(m->status, 0xC000000F);
	/* the FIND_FIRST count: expected 3, found 1 */
	m = &res->mm[OP_FIND];
	assert_int_equal(m->line, 2);
	assert_int_equal(m->expected_found, 3);
	assert_int_equal(m->found, 1);
	/* clients: ids, loadfiles, pass records, per-op figures */
	assert_int_equal(res->nclient_results, NCLIENTS);
	assert_int_equal(res->clients[2].client_id, 12);
	assert_string_equal(res->clients[2].loadfile, "a.txt");
	assert_int_equal(res->clients[2].npass, 2);
	assert_int_equal(res->clients[2].pass[1].ms, 301);
	assert_int_equal(res->clients[2].nops, 1);
	assert_int_equal(res->clients[2].ops[0].kind, OP_READX);
	assert_int_equal(res->clients[2].ops[0].count, 100);
	assert_int_equal(res->clients[3].lines, 0);	/* other phase */
	/* client 13: no counts in this phase, but its mismatches */
	assert_int_equal(res->clients[3].nops, 1);
	assert_int_equal(res->clients[3].ops[0].count, 0);
	assert_int_equal(res->clients[3].ops[0].errors, 2);
	/* the host facts: a copy, labelled with the host */
	assert_int_equal(res->nhost_facts, 1);
	assert_ptr_equal(result_host_facts(res, 0), &res->host_facts[0]);
	assert_null(result_host_facts(res, 99));
	assert_ptr_not_equal(res->host_facts[0].hostname, facts.hostname);
	assert_string_equal(res->host_facts[0].hostname, "h1");
	assert_string_equal(res->host_facts[0].dirs[0].mount_point, "/srv");
	assert_null(res->host_facts[0].dirs[1].device);
	stats_unmap(&f.r);
	talloc_free_children(ts->ctx);
}

static void assert_hist_equal(const struct histogram *a,
			      const struct histogram *b)
{
	uint32_t lo = a->lo < b->lo ? a->lo : b->lo;
	uint32_t end = a->end > b->end ? a->end : b->end;

	assert_int_equal(hist_total(a), hist_total(b));
	for (uint32_t i = lo; i < end; i++)
		if (a->count[i] != b->count[i])
			fail_msg("bucket %u: %llu != %llu", i,
				 (unsigned long long)a->count[i],
				 (unsigned long long)b->count[i]);
}

static void assert_str_equal(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_mismatch_equal(const struct result_mismatch *a,
				  const struct result_mismatch *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->fatal, b->fatal);
	assert_int_equal(a->wall_ns, b->wall_ns);
	assert_int_equal(a->client_id, b->client_id);
	assert_int_equal(a->has_op, b->has_op);
	assert_str_equal(a->loadfile, b->loadfile);
	assert_int_equal(a->line, b->line);
	assert_str_equal(a->path, b->path);
	assert_int_equal(a->check, b->check);
	assert_int_equal(a->expected_status, b->expected_status);
	assert_int_equal(a->expected_found, b->expected_found);
	assert_int_equal(a->status, b->status);
	assert_int_equal(a->err, b->err);
	assert_int_equal(a->found, b->found);
}

static void assert_client_equal(const struct result_client *a,
				const struct result_client *b)
{
	assert_int_equal(a->client_id, b->client_id);
	assert_int_equal(a->directory, b->directory);
	assert_str_equal(a->loadfile, b->loadfile);
	assert_int_equal(a->lines, b->lines);
	assert_int_equal(a->bytes, b->bytes);
	assert_int_equal(a->passes, b->passes);
	assert_int_equal(a->npass, b->npass);
	for (uint32_t i = 0; i < a->npass; i++) {
		assert_int_equal(a->pass[i].ms, b->pass[i].ms);
		assert_int_equal(a->pass[i].at_ms, b->pass[i].at_ms);
	}
	assert_int_equal(a->nops, b->nops);
	for (uint32_t i = 0; i < a->nops; i++) {
		const struct result_client_op *x = &a->ops[i], *y = &b->ops[i];

		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->count, y->count);
		assert_int_equal(x->sum_ns, y->sum_ns);
		assert_int_equal(x->max_ns, y->max_ns);
		assert_int_equal(x->errors, y->errors);
		assert_int_equal(x->hist.n, y->hist.n);
		for (uint32_t j = 0; j < x->hist.n; j++) {
			assert_int_equal(x->hist.bucket[j], y->hist.bucket[j]);
			assert_int_equal(x->hist.count[j], y->hist.count[j]);
		}
	}
}

static void assert_facts_equal(const struct host_facts *a,
			       const struct host_facts *b)
{
	assert_int_equal(a->host, b->host);
	assert_str_equal(a->hostname, b->hostname);
	assert_str_equal(a->kernel, b->kernel);
	assert_str_equal(a->kernel_release, b->kernel_release);
	assert_str_equal(a->kernel_version, b->kernel_version);
	assert_str_equal(a->machine, b->machine);
	assert_str_equal(a->cpu_model, b->cpu_model);
	assert_int_equal(a->cpus, b->cpus);
	assert_int_equal(a->memory_bytes, b->memory_bytes);
	assert_int_equal(a->ndirs, b->ndirs);
	for (uint32_t i = 0; i < a->ndirs; i++) {
		const struct host_dir *x = &a->dirs[i], *y = &b->dirs[i];

		assert_str_equal(x->path, y->path);
		assert_str_equal(x->real_path, y->real_path);
		assert_str_equal(x->device, y->device);
		assert_str_equal(x->fs_type, y->fs_type);
		assert_str_equal(x->source, y->source);
		assert_str_equal(x->mount_point, y->mount_point);
		assert_str_equal(x->mount_options, y->mount_options);
		assert_str_equal(x->device_model, y->device_model);
		assert_int_equal(x->free_bytes, y->free_bytes);
	}
}

/* Every field; the host label of clients and the host facts only when
 * with_host. */
static void assert_result_equal(const struct run_result *a,
				const struct run_result *b, bool with_host)
{
	assert_int_equal(a->phase, b->phase);
	assert_true(a->seconds == b->seconds);
	for (unsigned i = 0; i < PHASE_DONE; i++)
		assert_true(a->phase_seconds[i] == b->phase_seconds[i]);
	assert_int_equal(a->started_ns, b->started_ns);
	assert_int_equal(a->ended_ns, b->ended_ns);
	assert_int_equal(a->nprocs, b->nprocs);
	assert_int_equal(a->nclients, b->nclients);
	assert_int_equal(a->own_target, b->own_target);
	assert_int_equal(a->interrupted, b->interrupted);
	assert_int_equal(a->signal, b->signal);
	assert_int_equal(a->failed, b->failed);
	assert_int_equal(a->lines, b->lines);
	assert_int_equal(a->bytes, b->bytes);
	for (unsigned k = 0; k < OP_NUM_MEASURED; k++) {
		assert_int_equal(a->ops[k].count, b->ops[k].count);
		assert_int_equal(a->ops[k].sum_ns, b->ops[k].sum_ns);
		assert_int_equal(a->ops[k].max_ns, b->ops[k].max_ns);
		assert_hist_equal(&a->ops[k].hist, &b->ops[k].hist);
		assert_mismatch_equal(&a->mm[k], &b->mm[k]);
	}
	assert_int_equal(a->nclient_results, b->nclient_results);
	for (uint32_t i = 0; i < a->nclient_results; i++) {
		assert_client_equal(&a->clients[i], &b->clients[i]);
		if (with_host)
			assert_int_equal(a->clients[i].host,
					 b->clients[i].host);
	}
	assert_int_equal(a->series != NULL, b->series != NULL);
	if (a->series != NULL)
		assert_int_equal(a->series->nrows, b->series->nrows);
	for (unsigned i = 0; a->series != NULL && i < a->series->nrows; i++) {
		/* field by field: the padding after phase is not data */
		const struct series_row *x = &a->series->rows[i];
		const struct series_row *y = &b->series->rows[i];

		assert_int_equal(x->phase, y->phase);
		assert_true(x->elapsed_s == y->elapsed_s);
		assert_true(x->duration_s == y->duration_s);
		assert_int_equal(x->bytes, y->bytes);
		assert_int_equal(x->ops, y->ops);
		assert_int_equal(x->max_ns, y->max_ns);
		assert_int_equal(x->p99_ns, y->p99_ns);
	}
	if (!with_host)
		return;
	assert_int_equal(a->nhost_facts, b->nhost_facts);
	for (uint32_t i = 0; i < a->nhost_facts; i++)
		assert_facts_equal(&a->host_facts[i], &b->host_facts[i]);
}

/* Serialised and parsed back: the same result, field by field. */
static void test_round_trip(void **state)
{
	struct tstate *ts = *state;
	struct fixture f;
	struct run_result *res, *back;
	struct tick_stats *t = talloc_zero(ts->ctx, struct tick_stats);
	uint8_t *buf;
	size_t len = 0;

	fill(ts->ctx, &f);
	res = build(ts->ctx, &f, 0, 0, 60);
	res->interrupted = true;
	res->signal = 2;
	res->own_target = true;
	res->phase_seconds[PHASE_WARMUP] = 5;
	res->series = series_new(res);
	t->ops = 7;
	t->bytes = 4096;
	t->max_ns = 900;
	hist_record(&t->hist, 900);
	assert_int_equal(series_add(res->series, t, PHASE_WARMUP, 1, 1), 0);
	buf = result_serialise(ts->ctx, res, &len);
	assert_non_null(buf);
	back = result_parse(ts->ctx, buf, len);
	assert_non_null(back);
	assert_result_equal(res, back, true);
	/* truncated or trailing bytes: refused */
	assert_null(result_parse(ts->ctx, buf, len - 1));
	assert_null(result_parse(ts->ctx, buf, len / 2));
	buf[0] ^= 1;
	assert_null(result_parse(ts->ctx, buf, len));
	stats_unmap(&f.r);
	talloc_free_children(ts->ctx);
}

/* Two hosts' results merged: sums, maxima, earliest first mismatch. */
static void test_merge(void **state)
{
	struct tstate *ts = *state;
	struct fixture f;
	struct run_result *a, *b;

	fill(ts->ctx, &f);
	a = build(ts->ctx, &f, 0, 2, 60);
	b = build(ts->ctx, &f, 2, 2, 61);
	assert_int_equal(a->mm[OP_QPATHINFO].client_id, 11);
	assert_int_equal(result_merge(a, b), 0);
	assert_int_equal(a->nclients, 4);
	assert_int_equal(a->nprocs, 4);
	assert_true(a->seconds == 61);
	assert_int_equal(a->started_ns, 1000000000ull);
	assert_int_equal(a->ended_ns, 62000000000ull);
	assert_int_equal(a->ops[OP_READX].count, 200);
	assert_int_equal(a->ops[OP_READX].max_ns, 300000);
	assert_int_equal(hist_total(&a->ops[OP_READX].hist), 200);
	/* the second host's mismatch came first */
	assert_int_equal(a->mm[OP_QPATHINFO].client_id, 13);
	assert_int_equal(a->mm[OP_QPATHINFO].count, 3);
	assert_string_equal(a->mm[OP_QPATHINFO].path, "clients/client13/g");
	assert_int_equal(a->nclient_results, 4);
	assert_int_equal(a->clients[3].client_id, 13);
	assert_int_equal(a->clients[3].host, 2);
	/* both hosts' facts, by label */
	assert_int_equal(a->nhost_facts, 2);
	assert_non_null(result_host_facts(a, 0));
	assert_non_null(result_host_facts(a, 2));
	assert_null(result_host_facts(a, 1));
	assert_string_equal(result_host_facts(a, 2)->dirs[0].path, "/srv/a");
	/* b is left as it was */
	assert_int_equal(b->nclient_results, 2);
	assert_int_equal(b->nhost_facts, 1);
	stats_unmap(&f.r);
	talloc_free_children(ts->ctx);
}

/* Halves serialised, parsed and merged into an empty result = the whole. */
static void test_merge_of_parts_is_whole(void **state)
{
	struct tstate *ts = *state;
	struct fixture f;
	struct run_result *whole, *sum;

	fill(ts->ctx, &f);
	whole = build(ts->ctx, &f, 0, 0, 60);
	whole->ended_ns = 1000000000ull * 62;	/* the later half's end */
	whole->nprocs = 4;
	sum = result_new(ts->ctx);
	assert_non_null(sum);
	for (unsigned first = 0; first < NCLIENTS; first += 2) {
		struct run_result *part = build(ts->ctx, &f, first, 2, 60);
		size_t len = 0;
		uint8_t *buf = result_serialise(ts->ctx, part, &len);
		struct run_result *back;

		assert_non_null(buf);
		back = result_parse(ts->ctx, buf, len);
		assert_non_null(back);
		assert_int_equal(result_merge(sum, back), 0);
		talloc_free(back);	/* sum holds copies */
		talloc_free(buf);
	}
	assert_result_equal(whole, sum, false);
	stats_unmap(&f.r);
	talloc_free_children(ts->ctx);
}

/* Response times (a schedule): built from the clients of the reported
 * phase, reset with the slot, serialised, merged. */
static void test_response(void **state)
{
	struct tstate *ts = *state;
	struct fixture f;
	struct run_result *whole, *a, *b, *back;
	uint8_t *buf;
	size_t len = 0;

	fill(ts->ctx, &f);
	whole = build(ts->ctx, &f, 0, 0, 60);
	assert_null(whole->response);	/* none mapped: no schedule */
	assert_int_equal(stats_map_response(&f.r), 0);
	for (unsigned c = 0; c < NCLIENTS; c++)
		for (uint64_t i = 1; i <= 10; i++)
			stats_response_record(&f.r.resp[c], OP_READX,
					      i * 1000000 * (c + 1));
	/* a phase change forgets client 0's */
	stats_slot_reset(&f.r, 0, PHASE_EXECUTE);
	whole = build(ts->ctx, &f, 0, 0, 60);
	assert_non_null(whole->response);
	/* clients 1 and 2 (3 is in the warmup, 0 was reset) */
	assert_int_equal(whole->response[OP_READX].count, 20);
	assert_int_equal(whole->response[OP_READX].max_ns, 30000000);
	assert_int_equal(whole->response[OP_READX].sum_ns, 55000000 * 5);
	assert_int_equal(hist_total(&whole->response[OP_READX].hist), 20);
	assert_int_equal(whole->response[OP_QPATHINFO].count, 0);
	buf = result_serialise(ts->ctx, whole, &len);
	assert_non_null(buf);
	back = result_parse(ts->ctx, buf, len);
	assert_non_null(back);
	assert_non_null(back->response);
	assert_int_equal(back->response[OP_READX].count, 20);
	assert_int_equal(back->response[OP_READX].sum_ns, 55000000 * 5);
	assert_int_equal(hist_total(&back->response[OP_READX].hist), 20);
	/* halves merged: the whole; into a result without any */
	a = build(ts->ctx, &f, 0, 2, 60);
	b = build(ts->ctx, &f, 2, 2, 60);
	talloc_free(a->response);
	a->response = NULL;
	assert_int_equal(result_merge(a, b), 0);
	assert_int_equal(a->response[OP_READX].count, 10);
	assert_int_equal(a->response[OP_READX].max_ns, 30000000);
	stats_unmap(&f.r);
	assert_null(f.r.resp);
	talloc_free_children(ts->ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_build, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_response, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_merge_of_parts_is_whole,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
