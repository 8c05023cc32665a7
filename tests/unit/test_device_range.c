/*
 * test_device_range.c - the offset grammar of the block and SCSI dialects
 * against a device, by property (device_range.c, which -B block, scsi and
 * iscsi share): for every sequence of up to four '/', '%' and '+' terms
 * after '*' or a constant, with random divisors, addends, device sizes and
 * op sizes, the check before the run accepts a form only when every value
 * it can take fits, refuses an unbounded '*' form exactly when its
 * smallest value does not fit, and every offset drawn for an unbounded
 * form is one the form can take (every term honoured, left to right) at
 * which the op fits in the device; the draws reach every such offset.
 * The sets of values are found by brute force over small numbers, apart
 * from the code under test.  Then dbench 5.0-sized forms (MiB floors on a
 * 64 MiB device, SCSI blocks), and the zero-length transfer refused.
 */
#include "config.h"

#include "loadfile_helpers.h"

#include "backends/device/device_range.h"

#define MAX_TERMS 4

struct form {
	bool random;		/* '*', else a constant */
	uint64_t c;		/* the constant */
	unsigned nterms;
	char op[MAX_TERMS];
	uint64_t y[MAX_TERMS];
};

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t pick(const uint64_t *set, size_t n)
{
	return set[rnd() % n];
}

/* The value of the form for the random number r: its terms, left to
 * right, as dbench(1) and dbench-loadfile(5) say. */
static uint64_t eval(const struct form *f, uint64_t r)
{
	uint64_t x = f->random ? r : f->c;

	for (unsigned i = 0; i < f->nterms; i++) {
		if (f->op[i] == '/')
			x -= x % f->y[i];
		else if (f->op[i] == '%')
			x %= f->y[i];
		else
			x += f->y[i];
	}
	return x;
}

static bool has_mod(const struct form *f)
{
	for (unsigned i = 0; i < f->nterms; i++)
		if (f->op[i] == '%')
			return true;
	return false;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* A period of the form's values after its first '%': r and r + P give
 * the same value when P is a multiple of every divisor. */
static uint64_t period(const struct form *f)
{
	uint64_t p = 1;

	for (unsigned i = 0; i < f->nterms; i++)
		if (f->op[i] != '+')
			p = p / gcd(p, f->y[i]) * f->y[i];
	return p;
}

static char *form_text(void *mem, const struct form *f)
{
	char *s = f->random ? talloc_strdup(mem, "*")
			    : talloc_asprintf(mem, "%llu",
					      (unsigned long long)f->c);

	for (unsigned i = 0; i < f->nterms; i++)
		s = talloc_asprintf_append(s, "%c%llu", f->op[i],
					   (unsigned long long)f->y[i]);
	return s;
}

static const uint64_t divisors[] = { 1, 2, 3, 4, 6, 8, 12, 16, 100, 240 };

/* A form whose terms are the sequence numbered seq (base 3, n terms). */
static void make_form(struct form *f, bool random, unsigned seq, unsigned n)
{
	memset(f, 0, sizeof(*f));
	f->random = random;
	f->c = rnd() % 400;
	f->nterms = n;
	for (unsigned i = 0; i < n; i++, seq /= 3) {
		f->op[i] = "/%+"[seq % 3];
		f->y[i] = f->op[i] == '+' ? rnd() % 120
					  : pick(divisors, 10);
	}
}

struct counts {
	unsigned accepted, refused, drawn;
};

/* The largest value of a '*' form with a '%' term (all of them, by its
 * period). */
static uint64_t bounded_max(const struct form *f)
{
	uint64_t max = 0, p = period(f);

	for (uint64_t r = 0; r < p; r++)
		if (eval(f, r) > max)
			max = eval(f, r);
	return max;
}

/* Draw an unbounded form many times: every offset one it can take at or
 * below limit, and every such offset drawn. */
static void draw_all(const struct program *p, const struct form *f,
		     uint64_t limit, const char *text, struct counts *n)
{
	const struct op *op = &p->ops[0];
	uint64_t sum = 0, want = 0, seen = 0, r, v;
	uint8_t *can = calloc(limit + 1, 1);

	assert_non_null(can);
	for (unsigned i = 0; i < f->nterms; i++)
		sum += f->y[i];
	/* each term lowers a value by less than its divisor: no r past
	 * limit + sum gives a value at or below limit */
	for (r = 0; r <= limit + sum + 1; r++)
		if ((v = eval(f, r)) <= limit && !can[v]) {
			can[v] = 1;
			want++;
		}
	for (unsigned i = 0; i < 32 * want + 100; i++) {
		/* raw as the engine draws it: the form of a 63-bit number */
		uint64_t raw = eval(f, rnd() >> 1);

		v = device_range_draw(p, op, 0, raw, limit + 1);
		if (v > limit || !can[v])
			fail_msg("%s below %llu: drew %llu, %s", text,
				 (unsigned long long)limit + 1,
				 (unsigned long long)v,
				 v > limit ? "past the limit"
					   : "a value the form cannot take");
		if (can[v] == 1) {
			can[v] = 2;
			seen++;
		}
		n->drawn++;
	}
	if (seen != want)
		fail_msg("%s below %llu: %llu of its %llu offsets drawn",
			 text, (unsigned long long)limit + 1,
			 (unsigned long long)seen, (unsigned long long)want);
	free(can);
}

/* One form on a device of size units (of unit bytes), op extent size. */
static void one_case(struct tstate *ts, const struct form *f, bool scsi,
		     uint64_t units, uint64_t size, struct counts *n)
{
	struct device_range r = { .device = "dev", .unit = scsi ? 512 : 1,
				  .size = units * (scsi ? 512 : 1),
				  .allow_writes = false, .writes_flag = "-" };
	char *text = form_text(ts->ctx, f);
	char *lf = talloc_asprintf(ts->ctx, scsi ? "READ10 %s %llu 0 0 *\n"
						 : "READ %s %llu *\n",
				   text, (unsigned long long)size);
	struct program *p = compile_ok(ts, lf);
	uint64_t limit = units - size;
	char *err = NULL;
	int rc = device_range_check(ts->ctx, &r, p, &err);
	bool unbounded = f->random && !has_mod(f);

	assert_int_equal(device_range_unbounded(p, &p->ops[0], 0), unbounded);
	if (rc != 0) {
		assert_non_null(err);
		assert_non_null(strstr(err, "t.txt:1: "));
		n->refused++;
	} else {
		n->accepted++;
	}
	if (!f->random) {
		if ((rc == 0) != (eval(f, 0) <= limit))
			fail_msg("%s: check %d for constant %llu, limit %llu",
				 lf, rc, (unsigned long long)eval(f, 0),
				 (unsigned long long)limit);
	} else if (!unbounded) {
		if (rc == 0 && bounded_max(f) > limit)
			fail_msg("%s: accepted, but it reaches %llu past %llu",
				 lf, (unsigned long long)bounded_max(f),
				 (unsigned long long)limit);
	} else {
		if ((rc == 0) != (eval(f, 0) <= limit))
			fail_msg("%s: check %d, smallest value %llu, limit "
				 "%llu", lf, rc,
				 (unsigned long long)eval(f, 0),
				 (unsigned long long)limit);
		if (rc == 0)
			draw_all(p, f, limit, lf, n);
	}
	talloc_free(p);
	talloc_free(lf);
	talloc_free(text);
	talloc_free(err);
}

static void test_grammar_property(void **state)
{
	struct tstate *ts = *state;
	struct counts n = { 0 };
	unsigned nseq = 1;

	for (unsigned len = 0; len <= MAX_TERMS; len++, nseq *= 3)
		for (unsigned seq = 0; seq < nseq; seq++)
			for (unsigned t = 0; t < 48; t++) {
				struct form f;
				uint64_t units = 1 + rnd() % 200;
				uint64_t size = 1 + rnd() % units;

				if (t % 3 == 0)
					size = 1;
				make_form(&f, t % 4 != 3, seq, len);
				one_case(ts, &f, t % 2 == 1, units, size, &n);
			}
	/* not vacuous: both verdicts, and many draws */
	assert_true(n.accepted > 1000);
	assert_true(n.refused > 100);
	assert_true(n.drawn > 100000);
}

/* The forms of the report: a floor of 1 MiB or 60 MiB on a 64 MiB device
 * (dbench 5.0 wrapped 36 and 1873 of 2000 offsets below it). */
static void floor_holds(struct tstate *ts, const char *lf, uint64_t units,
			uint64_t unit, uint64_t floor, uint64_t align,
			uint64_t size)
{
	struct device_range r = { .device = "dev", .size = units * unit,
				  .unit = unit, .allow_writes = true,
				  .writes_flag = "-" };
	struct program *p = compile_ok(ts, lf);
	char *err = NULL;
	uint64_t lo = UINT64_MAX, hi = 0;

	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), 0);
	for (unsigned i = 0; i < 20000; i++) {
		uint64_t raw = rnd() >> 1, v;

		raw -= raw % align;
		v = device_range_draw(p, &p->ops[0], 0, raw + floor,
				      units - size + 1);
		assert_true(v >= floor);
		assert_true(v <= units - size);
		assert_int_equal((v - floor) % align, 0);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	/* spread over the whole range, not piled at one end */
	assert_true(lo < floor + (units - floor) / 16);
	assert_true(hi > units - size - (units - floor) / 16);
	talloc_free(p);
}

static void test_report_forms(void **state)
{
	struct tstate *ts = *state;
	struct device_range r = { .device = "dev", .size = 64 << 20,
				  .unit = 1, .allow_writes = true,
				  .writes_flag = "-" };
	struct program *p;
	char *err = NULL;

	floor_holds(ts, "WRITE */4096+1048576 4096 0x00000000\n", 64 << 20,
		    1, 1048576, 4096, 4096);
	floor_holds(ts, "READ */4096+62914560 4096 *\n", 64 << 20, 1,
		    62914560, 4096, 4096);
	floor_holds(ts, "READ10 */8+2048 8 0 0 *\n", 131072, 512, 2048, 8,
		    8);
	floor_holds(ts, "WRITE16 */8+130000 8 0 0 *\n", 131072, 512, 130000,
		    8, 8);
	/* a floor the device cannot hold: refused before the run */
	p = compile_ok(ts, "READ 0 4096 *\nREAD */4096+67108864 1 *\n");
	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), -1);
	assert_string_equal(err, "t.txt:2: READ: a random offset is at least "
				 "67108864, past the last offset at which the "
				 "op fits in 'dev' (67108863)");
	talloc_free(err);
	talloc_free(p);
	/* the largest addend there is: never a wrap back to 0 */
	p = compile_ok(ts, "READ */512+9223372036854775807 512 *\n");
	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), -1);
	talloc_free(err);
	assert_true(device_range_draw(p, &p->ops[0], 0, 12345, 1 << 20) >
		    (1 << 20));
	talloc_free(p);
}

/* READ 0 0: a transfer of nothing is the loadfile's error */
static void test_zero_length(void **state)
{
	struct tstate *ts = *state;
	struct device_range r = { .device = "dev", .size = 64 << 20,
				  .unit = 1, .allow_writes = true,
				  .writes_flag = "-" };
	struct program *p = compile_ok(ts, "READ 0 4096 *\nREAD 0 0 *\n");
	char *err = NULL;

	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), -1);
	assert_string_equal(err, "t.txt:2: READ: size 0 transfers nothing; "
				 "expected at least 1 byte");
	talloc_free(err);
	talloc_free(p);
	p = compile_ok(ts, "WRITE */4096 0 *\n");
	assert_int_equal(device_range_check(ts->ctx, &r, p, &err), -1);
	assert_non_null(strstr(err, "t.txt:1: WRITE: size 0 transfers"));
	talloc_free(err);
	talloc_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_grammar_property, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_report_forms, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_zero_length, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
