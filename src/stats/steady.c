/*
 * steady.c - the steady-state detector of --warmup auto (steady.h): a
 * ring of the last seconds' throughput and the range-over-mean test.
 */
#include "config.h"

#include <string.h>

#include "stats/steady.h"

void steady_init(struct steady *s, unsigned window, double bound_pct)
{
	memset(s, 0, sizeof(*s));
	if (window < 1)
		window = 1;
	if (window > STEADY_MAX_WINDOW)
		window = STEADY_MAX_WINDOW;
	s->window = window;
	s->bound_pct = bound_pct;
}

bool steady_add(struct steady *s, double rate)
{
	double lo, hi, sum = 0;

	if (rate < 0)
		rate = 0;
	s->rate[s->next] = rate;
	s->next = (s->next + 1) % s->window;
	if (s->n < s->window)
		s->n++;
	if (s->n < s->window)
		return false;
	lo = hi = s->rate[0];
	for (unsigned i = 0; i < s->n; i++) {
		double r = s->rate[i];

		sum += r;
		if (r < lo)
			lo = r;
		if (r > hi)
			hi = r;
	}
	/* no throughput at all is not a steady state worth measuring */
	if (sum <= 0)
		return false;
	return (hi - lo) * 100.0 <= s->bound_pct * (sum / s->n);
}
