/*
 * noise.c - how busy the machine was besides dbench (noise.h).  The
 * machine's CPU counters come from the "cpu" line of /proc/stat; dbench's
 * own CPU from getrusage() (this process and its reaped children) plus
 * /proc/PID/stat of each live worker, both in clock ticks; what other
 * processes used is the busy time of the window less dbench's.  The
 * pressure stall figures come from /proc/pressure/{cpu,io,memory} where
 * the kernel has them, the load average from /proc/loadavg.  Nothing
 * here fails a run: a file that cannot be read leaves its figure out.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <talloc.h>
#include <time.h>
#include <unistd.h>

#include "stats/noise.h"

static const char *const psi_file[NOISE_PSI_N] = {
	"/proc/pressure/cpu", "/proc/pressure/io", "/proc/pressure/memory",
};

static double ticks_per_s(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? (double)hz : 100.0;
}

double noise_proc_cpu_s(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the command may hold spaces and parentheses: fields follow the
	 * last ')'; utime and stime are fields 14 and 15 */
	if ((p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
		   "%llu %llu", &ut, &st) != 2)
		return 0;
	return (double)(ut + st) / ticks_per_s();
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

double noise_own_cpu_s(void)
{
	struct rusage self, kids;

	if (getrusage(RUSAGE_SELF, &self) != 0 ||
	    getrusage(RUSAGE_CHILDREN, &kids) != 0)
		return 0;
	return tv_s(self.ru_utime) + tv_s(self.ru_stime) +
	       tv_s(kids.ru_utime) + tv_s(kids.ru_stime);
}

/* The "some" line's avg10 and total of a pressure file. */
static bool read_psi(const char *path, double *avg10, uint64_t *total)
{
	char line[256];
	bool ok = false;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return false;
	while (!ok && fgets(line, sizeof(line), f) != NULL)
		ok = sscanf(line, "some avg10=%lf avg60=%*f avg300=%*f "
			    "total=%" SCNu64, avg10, total) == 2;
	fclose(f);
	return ok;
}

void noise_sample(struct noise_sample *s, double own_s)
{
	unsigned long long v[10] = { 0 };
	struct timespec ts;
	char line[512];
	FILE *f;
	int n = 0;

	memset(s, 0, sizeof(*s));
	s->own_s = own_s;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->mono_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	for (unsigned i = 0; i < NOISE_PSI_N; i++) {
		double avg;

		s->has_psi[i] = read_psi(psi_file[i], &avg,
					 &s->psi_total_us[i]);
	}
	if ((f = fopen("/proc/stat", "r")) == NULL)
		return;
	if (fgets(line, sizeof(line), f) != NULL)
		n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu "
			   "%llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
			   &v[5], &v[6], &v[7], &v[8], &v[9]);
	fclose(f);
	if (n < 8)
		return;
	/* user nice system idle iowait irq softirq steal (guest and
	 * guest_nice are inside user and nice) */
	s->busy = v[0] + v[1] + v[2] + v[5] + v[6];
	s->steal = v[7];
	s->total = s->busy + v[3] + v[4] + v[7];
	s->ok = true;
}

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

void noise_shares(uint64_t busy_d, uint64_t steal_d, uint64_t total_d,
		  double own_ticks, struct run_noise *n)
{
	if (total_d == 0)
		return;
	n->has_cpu = true;
	n->dbench_cpu_share = clamp01(own_ticks / (double)total_d);
	n->other_cpu_share = clamp01(((double)busy_d - own_ticks) /
				     (double)total_d);
	n->steal_share = clamp01((double)steal_d / (double)total_d);
	n->busy = n->other_cpu_share > NOISE_BUSY_SHARE ||
		  n->steal_share > NOISE_BUSY_SHARE;
	n->client_bound = n->dbench_cpu_share > NOISE_CLIENT_BOUND_SHARE;
}

/* The pressure figures: over the window from the totals, else avg10. */
static void finish_psi(const struct noise_sample *a,
		       const struct noise_sample *b, struct run_noise *n)
{
	double window_us = b->mono_ns > a->mono_ns ?
			   (double)(b->mono_ns - a->mono_ns) / 1e3 : 0;

	for (unsigned i = 0; i < NOISE_PSI_N; i++) {
		double avg = 0;
		uint64_t total = 0;

		if (a->has_psi[i] && b->has_psi[i] && window_us > 0 &&
		    b->psi_total_us[i] >= a->psi_total_us[i]) {
			double pct = (double)(b->psi_total_us[i] -
					      a->psi_total_us[i]) /
				     window_us * 100;

			n->has_psi[i] = true;
			n->psi_some_avg[i] = pct > 100 ? 100 : pct;
		} else if (read_psi(psi_file[i], &avg, &total)) {
			n->has_psi[i] = true;
			n->psi_some_avg[i] = avg;
		}
	}
}

void noise_finish(const struct noise_sample *a, const struct noise_sample *b,
		  struct run_noise *n)
{
	FILE *f;

	memset(n, 0, sizeof(*n));
	if ((f = fopen("/proc/loadavg", "r")) != NULL) {
		n->has_loadavg = fscanf(f, "%lf", &n->loadavg_1m) == 1;
		fclose(f);
	}
	if (a->ok && b->ok && b->total > a->total && b->busy >= a->busy &&
	    b->steal >= a->steal)
		noise_shares(b->busy - a->busy, b->steal - a->steal,
			     b->total - a->total,
			     (b->own_s - a->own_s) * ticks_per_s(), n);
	finish_psi(a, b, n);
}

char *noise_note(void *mem, const struct run_noise *n)
{
	char *s;

	if (!n->busy && !n->client_bound)
		return NULL;
	s = talloc_strdup(mem, "dbench: note:");
	if (s != NULL && n->busy)
		s = talloc_asprintf_append(s, " busy: the machine was busy "
					   "besides dbench (other processes "
					   "%.0f%%, steal %.0f%% of the "
					   "CPUs): the figures may be low%s",
					   n->other_cpu_share * 100,
					   n->steal_share * 100,
					   n->client_bound ? ";" : "");
	if (s != NULL && n->client_bound)
		s = talloc_asprintf_append(s, " client-bound: dbench itself "
					   "used %.0f%% of the CPUs: the run "
					   "measured the client, not the "
					   "server", n->dbench_cpu_share * 100);
	return s;
}
