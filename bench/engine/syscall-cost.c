/*
 * syscall-cost.c - bench helper: what one system call costs this machine,
 * and how the kernel splits that cost between user and system time.
 *
 * Makes N getppid() calls (the cheapest there is: no argument, no lock)
 * and prints the user and system CPU time per call from getrusage().  On
 * bare metal nearly all of it is system time.  On a paravirtualised guest
 * a large part is charged as user time, to the instruction after the
 * `syscall`: a load generator that makes the same calls as another then
 * carries the same "user" time for them, whatever its own code costs.
 * bench/engine/throughput.sh uses the figure to split the user time per
 * GB into the calls' share and the rest.
 *
 *   bench-syscall-cost [N]        (default 2,000,000)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	struct rusage r0, r1;

	if (n <= 0) {
		fprintf(stderr, "usage: %s [CALLS]\n", argv[0]);
		return 2;
	}
	getrusage(RUSAGE_SELF, &r0);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);	/* not cached by any libc */
	getrusage(RUSAGE_SELF, &r1);
	printf("calls %ld user_ns_per_call %.1f sys_ns_per_call %.1f\n", n,
	       (seconds(r1.ru_utime) - seconds(r0.ru_utime)) * 1e9 / (double)n,
	       (seconds(r1.ru_stime) - seconds(r0.ru_stime)) * 1e9 / (double)n);
	return 0;
}
