/*
 * test_clients.c - the client count's one arithmetic (src/util/options.h):
 * NUMCLIENTS worker processes of --clients-per-process clients each, on
 * one host or spread over the ranks of dbench-mpi, into a rank's clients,
 * every rank's, the worker processes and each process's share.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/options.h"

/* NUMCLIENTS into a rank's clients, and back to every rank's. */
static void test_count_and_total(void **state)
{
	(void)state;
	assert_int_equal(clients_count(1, 1, 1), 1);
	assert_int_equal(clients_count(4, 1, 3), 12);
	/* a --curve point of 8 over 2 ranks: 4 processes of 3 each */
	assert_int_equal(clients_count(8, 2, 3), 12);
	assert_int_equal(clients_total(12, 2), 24);
	assert_int_equal(clients_total(1, 1), 1);
	/* the first client id of rank 0 and of rank 3 */
	assert_int_equal(clients_total(5, 0), 0);
	assert_int_equal(clients_total(5, 3), 15);
}

/* The worker processes, the last holding what is left. */
static void test_procs(void **state)
{
	struct dbench_options o = { .nclients = 10, .clients_per_process = 4 };
	unsigned first = 99;

	(void)state;
	assert_int_equal(clients_procs(&o), 3);
	assert_int_equal(clients_of_proc(&o, 0, &first), 4);
	assert_int_equal(first, 0);
	assert_int_equal(clients_of_proc(&o, 1, &first), 4);
	assert_int_equal(first, 4);
	assert_int_equal(clients_of_proc(&o, 2, &first), 2);
	assert_int_equal(first, 8);
	/* fewer clients than one process holds */
	o = (struct dbench_options){ .nclients = 3, .clients_per_process = 5 };
	assert_int_equal(clients_procs(&o), 1);
	assert_int_equal(clients_of_proc(&o, 0, &first), 3);
	o = (struct dbench_options){ .nclients = 12, .clients_per_process = 4 };
	assert_int_equal(clients_procs(&o), 3);
	assert_int_equal(clients_of_proc(&o, 2, &first), 4);
	assert_int_equal(first, 8);
}

/*
 * Every way round agrees: a rank's count made from NUMCLIENTS gives back
 * NUMCLIENTS processes, whose shares cover its clients once each, in
 * order, and every rank's clients are NUMCLIENTS x per process.
 */
static void test_round_trip(void **state)
{
	(void)state;
	for (unsigned n = 1; n <= 40; n++)
		for (unsigned per = 1; per <= 7; per++)
			for (unsigned ranks = 1; ranks <= 4; ranks++) {
				struct dbench_options o = {
					.clients_per_process = per,
				};
				unsigned next = 0;

				o.nclients = clients_count(n * ranks, ranks,
							   per);
				assert_int_equal(o.nclients, n * per);
				assert_int_equal(clients_procs(&o), n);
				for (unsigned p = 0; p < n; p++) {
					unsigned first;
					unsigned k = clients_of_proc(&o, p,
								     &first);

					assert_int_equal(first, next);
					assert_true(k >= 1 && k <= per);
					next += k;
				}
				assert_int_equal(next, o.nclients);
				assert_int_equal(clients_total(o.nclients,
							       ranks),
						 n * ranks * per);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_and_total),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
