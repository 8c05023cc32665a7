/*
 * sweep_save.c - a sweep's runs saved as one group of the run history
 * (--label): kind "repeat" or "curve", each run's whole document with
 * its exit status, and the sweep's section (without the documents) as
 * the group's summary; the sweep's warnings go with each run.
 */
#include "config.h"

#include <stdio.h>
#include <talloc.h>

#include "history/history.h"
#include "sweep_private.h"

/* The strings of summary.warnings (NULL when none), *n of them. */
static const char **warnings_of(void *mem, struct json_object *summary,
				unsigned *n)
{
	struct json_object *w = NULL;
	const char **v;
	size_t len;

	*n = 0;
	if (!json_object_object_get_ex(summary, "warnings", &w) ||
	    !json_object_is_type(w, json_type_array))
		return NULL;
	len = json_object_array_length(w);
	v = talloc_array(mem, const char *, len + 1);
	for (size_t i = 0; v != NULL && i < len; i++)
		v[(*n)++] = json_object_get_string(
			json_object_array_get_idx(w, i));
	return v;
}

/* the count of stop signals when the save began (see new_signal()) */
static unsigned signals_at_save;

/* Did a stop signal come since the save began?  It ends a lock's wait. */
static bool new_signal(void)
{
	return sweep_signal_count() != signals_at_save;
}

int sweep_save(void *mem, const struct dbench_options *o, const char *kind,
	       struct json_object *summary,
	       const struct sweep_point *const *pts, unsigned n)
{
	struct history_entry *e;
	const char **warn;
	unsigned nwarn, m = 0;
	char *err = NULL;

	if (o->label == NULL)
		return 0;
	e = talloc_zero_array(mem, struct history_entry, n + 1);
	warn = warnings_of(mem, summary, &nwarn);
	for (unsigned i = 0; e != NULL && i < n; i++) {
		if (pts[i]->doc == NULL)
			continue;	/* no result came back: nothing to keep */
		e[m++] = (struct history_entry){
			.result = pts[i]->doc,
			.exit_status = pts[i]->status,
			.warnings = warn,
			.nwarnings = nwarn,
		};
	}
	signals_at_save = sweep_signal_count();
	history_set_stop(new_signal);
	if (e == NULL || history_save(mem, o->history_path, o->label, kind,
				      summary, e, m, &err) != 0) {
		fprintf(stderr, "dbench: the runs were not saved: %s\n",
			err ? err : "out of memory");
		return new_signal() && sweep_signal() != 0 ?
		       128 + sweep_signal() : HISTORY_EXIT_SAVE_FAILED;
	}
	return new_signal() && sweep_signal() != 0 ? 128 + sweep_signal() : 0;
}
