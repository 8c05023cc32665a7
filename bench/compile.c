/*
 * compile.c - bench helper: compile a loadfile and report the cost.
 *
 * Prints the wall time of program_compile(), the peak resident memory of
 * the process (getrusage ru_maxrss, which includes the loader's own few
 * MB) and the size of its op array.  bench/run uses it for issue
 * 6's target 5 (a 460,000-line loadfile in < 0.3 s and < 50 MB).
 *
 *   bench-compile LOADFILE
 */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <talloc.h>

#include "program.h"
#include "stats.h"

int main(int argc, char **argv)
{
	void *mem = talloc_new(NULL);
	const struct program *prog;
	struct rusage ru;
	char *err = NULL;
	uint64_t t0, t1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s LOADFILE\n", argv[0]);
		return 2;
	}
	t0 = now_ns();
	prog = program_compile(mem, argv[1], &err);
	t1 = now_ns();
	if (prog == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("lines %u ops %u paths %u seconds %.3f maxrss_mb %.1f "
	       "ops_mb %.1f op_bytes %zu\n",
	       prog->nlines, prog->nops, prog->npaths, (double)(t1 - t0) / 1e9,
	       (double)ru.ru_maxrss / 1024.0,
	       (double)prog->nops * sizeof(struct op) / (1024.0 * 1024.0),
	       sizeof(struct op));
	talloc_free(mem);
	return 0;
}
