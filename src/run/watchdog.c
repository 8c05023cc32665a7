/*
 * watchdog.c - the cleanup phase's watch over the workers: one that is
 * stopped is named, one that makes no progress for the stall bound
 * (pool_stall_ns()) is ended (pool_watch_stalled() in pool.h).
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "util/atomic.h"
#include "pool.h"
#include "util/util.h"

/*
 * What the kernel says worker pid is doing: its state letter (R, S, D,
 * T...) into *state, and a number that changes whenever it runs (its CPU
 * time and its count of times scheduled, from /proc/PID/schedstat, or
 * its CPU time and page faults from /proc/PID/stat).  -1 when /proc does
 * not say (then the worker is never taken for stalled).
 */
static int proc_activity(pid_t pid, char *state, uint64_t *activity)
{
	char path[64], buf[512], *p;
	unsigned long long a = 0, b = 0, c = 0, d = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* after the command name, which may hold spaces and parentheses */
	p = strrchr(buf, ')');
	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt
	 * cmajflt utime stime */
	if (p == NULL || sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %llu %*u "
				"%llu %*u %llu %llu", state, &a, &b, &c,
				&d) != 5)
		return -1;
	*activity = a + b + c + d;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	if (f != NULL) {
		if (fscanf(f, "%llu %*u %llu", &a, &b) == 2)
			*activity += a + b;
		fclose(f);
	}
	return 0;
}

/* A worker's own progress marks: its clients' lines and states, and its
 * heartbeat. */
static uint64_t slots_signature(const struct run *run, const struct worker *w)
{
	uint64_t sig = LOAD(w->beat);

	for (unsigned i = 0; i < w->n; i++) {
		const struct client_live *s = &run->region.live[w->first + i];

		sig = sig * 31 + LOAD(s->lines) + LOAD(s->passes);
		sig = sig * 31 + LOAD(s->state);
	}
	return sig;
}

/* End a worker that made no progress for the bound (bound_ns). */
static void kill_stalled(struct run *run, struct worker *w, char state,
			 uint64_t bound_ns)
{
	const char *why = state == 'T' ? "stopped" :
			  state == 't' ? "stopped by a tracer" :
			  state == 'D' ? "in an uninterruptible system call" :
			  run->remote ? "waiting for the server" :
					"waiting in a system call";

	if (w->cleaning)
		fprintf(stderr, "dbench: client %u (process %d): removing "
			"its tree made no progress for %g s (%s); killed it\n",
			stats_client_id(&run->region, w->first), (int)w->pid,
			(double)bound_ns / 1e9, why);
	else {
		fprintf(stderr, "dbench: client %u (process %d) made no "
			"progress for %g s %s (%s)",
			stats_client_id(&run->region, w->first), (int)w->pid,
			(double)bound_ns / 1e9, run->preparing ?
			"while preparing" : "in the cleanup", why);
		if (!run->preparing)
			pool_describe_position(stderr, run, w->first);
		fprintf(stderr, "; killed it\n");
	}
	w->stalled = true;
	run->failed = true;
	run->stalls++;
	kill(w->pid, SIGKILL);
}

unsigned pool_watch_stalled(struct run *run, uint64_t now)
{
	uint64_t bound = pool_stall_ns(run);
	unsigned killed = 0;

	for (unsigned p = 0; p < run->nprocs; p++) {
		struct worker *w = &run->workers[p];
		uint64_t act = 0, sig;
		char state = '?';

		if (w->reaped || w->pid <= 0 || w->stalled ||
		    proc_activity(w->pid, &state, &act) != 0)
			continue;
		/* a library that polls a silent server keeps the CPU time
		 * moving: a remote backend's progress is what it completes */
		if (run->remote)
			act = 0;
		/* job control stops only: a tracing stop ('t') is usually a
		 * moment (LeakSanitizer's check at a worker's exit is one) */
		if (state == 'T' && !w->said_stopped) {
			fprintf(stderr, "dbench: client %u (process %d) is "
				"stopped; it is ended if it does not go on "
				"within %g s\n",
				stats_client_id(&run->region, w->first),
				(int)w->pid, (double)bound / 1e9);
			w->said_stopped = true;
		}
		sig = slots_signature(run, w) * 31 + act;
		if (w->progress_ns == 0 || sig != w->progress) {
			w->progress = sig;
			w->progress_ns = now;
			continue;
		}
		if (now - w->progress_ns >= bound) {
			kill_stalled(run, w, state, bound);
			killed++;
		}
	}
	return killed;
}
