/*
 * sweep_save.c - a sweep's runs saved as one group of the run history
 * (--label): kind "repeat" or "curve", each run's whole document, and
 * the sweep's section as the group's summary.
 */
#include "config.h"

#include "sweep_private.h"

int sweep_save(void *mem, const struct dbench_options *o, const char *kind,
	       struct json_object *summary,
	       const struct sweep_point *const *pts, unsigned n)
{
	/* HISTORY CALL SITE: once include/history.h (history_save()) is
	 * merged, save pts[0..n) (result = pts[i]->doc, exit_status =
	 * pts[i]->status) under o's --label as one group of kind `kind`
	 * with summary, when a label is given */
	(void)mem;
	(void)o;
	(void)kind;
	(void)summary;
	(void)pts;
	(void)n;
	return 0;
}
