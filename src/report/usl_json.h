/*
 * usl_json.h - the Universal Scalability Law fit (stats/usl.h) of a load
 * curve as its JSON holds it: fitted to the "points" of a curve section
 * (dbench --curve writes them; dbench-plot reads them back), and the
 * section's "usl" member.  The points used are usl.py's curve_points():
 * clients against MB/s, never those of a point that FAILED or was
 * INTERRUPTED.
 */
#ifndef DBENCH_USL_JSON_H
#define DBENCH_USL_JSON_H

#include <json-c/json.h>

#include "stats/usl.h"

/*
 * Fit the model to points (a curve section's "points" array; NULL or not
 * an array: no points): each usable point's clients and mb_per_s.
 * Returns as usl_fit(): 1 fitted, 0 fewer than 3 usable points, -1 out
 * of memory.
 */
int usl_fit_curve(struct json_object *points, struct usl_fit *out);

/*
 * The curve section's "usl" member for a fit that usl_fit_curve()
 * returned 1 for: model "USL", lambda_mb_per_s, sigma, kappa, r2, n_points,
 * peak_clients and peak_mb_per_s (null without a peak), poor, poor_reason
 * (null unless poor) and text (usl_text()'s line).  NULL (JSON null) when
 * f is NULL or out of memory.
 */
struct json_object *usl_json(const struct usl_fit *f);

#endif
