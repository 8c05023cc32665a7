/*
 * sweep_main.c - the entry of src/sweep/: whether a command is a sweep,
 * the check of its options, and the sweep itself, --curve
 * (sweep_curve.c) or --repeat (sweep_repeat.c), with stop requests
 * between the runs held (sweep.c).  Above every other file of the
 * folder; none of them calls it.
 */
#include "config.h"

#include <stdbool.h>
#include <talloc.h>

#include "sweep/sweep.h"
#include "sweep_private.h"

int sweep_check(void *mem, const struct dbench_options *o,
		struct program *const *progs, unsigned nranks,
		struct dbench_options *checked, char **err)
{
	unsigned most = 0;

	*checked = *o;
	if (!o->curve)
		return 0;
	if (sweep_bounds_check(mem, o, progs, o->nloadfiles, err) != 0)
		return -1;
	for (unsigned i = 0; i < o->ncurve_points; i++) {
		if (o->curve_points[i] % nranks != 0) {
			*err = talloc_asprintf(mem, "--curve: %u clients "
					       "cannot be spread evenly over "
					       "%u ranks (give multiples of "
					       "%u)", o->curve_points[i],
					       nranks, nranks);
			return -1;
		}
		most = o->curve_points[i] > most ? o->curve_points[i] : most;
	}
	if (o->curve_auto)
		most = o->curve_max;
	/* at least one process per rank (--curve-max below the ranks) */
	checked->nclients = clients_count(most > nranks ? most : nranks,
					  nranks, o->clients_per_process);
	return 0;
}

bool sweep_wanted(const struct dbench_options *o)
{
	return o->repeat > 1 || o->curve;
}

int sweep_main(void *mem, const struct sweep_setup *ss)
{
	int rc;

	sweep_between(true);
	rc = ss->base->opts->curve ? sweep_curve(mem, ss) :
				     sweep_repeat(mem, ss);
	sweep_between(false);
	return rc;
}
