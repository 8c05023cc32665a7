/*
 * compile.c - bench helper: compile a loadfile and report the cost.
 *
 * Prints the wall time and the CPU time (user + system) of
 * program_compile(), the peak resident memory of the process (getrusage
 * ru_maxrss, which includes the loader's own few MB), the size of its op
 * array, and the peak per op (bench/engine/compile.sh: bytes per op on a
 * large input of short lines; bench/scale/start.sh: a 460,000-line
 * loadfile's time and memory).
 *
 *   bench-compile LOADFILE
 */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <talloc.h>

#include "loadfile/program.h"
#include "stats/stats.h"

/* User plus system time of a getrusage() answer, in seconds. */
static double cpu_s(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	void *mem = talloc_new(NULL);
	const struct program *prog;
	struct rusage ru0, ru;
	char *err = NULL;
	uint64_t t0, t1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s LOADFILE\n", argv[0]);
		return 2;
	}
	getrusage(RUSAGE_SELF, &ru0);
	t0 = now_ns();
	prog = program_compile(mem, argv[1], &err);
	t1 = now_ns();
	if (prog == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("lines %u ops %u paths %u seconds %.3f maxrss_mb %.1f "
	       "ops_mb %.1f op_bytes %zu cpu_s %.3f rss_bytes_per_op %.1f\n",
	       prog->nlines, prog->nops, prog->npaths, (double)(t1 - t0) / 1e9,
	       (double)ru.ru_maxrss / 1024.0,
	       (double)prog->nops * sizeof(struct op) / (1024.0 * 1024.0),
	       sizeof(struct op), cpu_s(&ru) - cpu_s(&ru0),
	       (double)ru.ru_maxrss * 1024.0 / prog->nops);
	talloc_free(mem);
	return 0;
}
