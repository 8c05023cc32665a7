/*
 * usl_json.c - a load curve's USL fit from and to its JSON (usl_json.h):
 * the usable points of a curve section, and the "usl" member.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/json_put.h"
#include "report/result_load.h"
#include "report/usl_json.h"

int usl_fit_curve(struct json_object *points, struct usl_fit *out)
{
	size_t n = points != NULL && json_object_is_type(points,
		json_type_array) ? json_object_array_length(points) : 0;
	double *clients = malloc((n ? n : 1) * sizeof(double));
	double *mbps = malloc((n ? n : 1) * sizeof(double));
	size_t k = 0;
	int rc = -1;

	if (clients != NULL && mbps != NULL) {
		for (size_t i = 0; i < n; i++) {
			struct json_object *p =
				json_object_array_get_idx(points, i);

			if (!usl_status_usable(result_str(p, "status", NULL)))
				continue;
			/* a missing or non-numeric figure: NAN, left out */
			clients[k] = result_num(p, "clients", NAN);
			mbps[k++] = result_num(p, "mb_per_s", NAN);
		}
		rc = usl_fit(clients, mbps, k, out);
	}
	free(clients);
	free(mbps);
	return rc;
}

/* A parameter in full (17 significant digits: it reads back the same). */
static struct json_object *exact(double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	return json_object_new_double_s(v, buf);
}

struct json_object *usl_json(const struct usl_fit *f)
{
	struct json_object *j;
	char text[320];

	if (f == NULL || (j = json_object_new_object()) == NULL)
		return NULL;
	put_str(j, "model", "USL");
	put(j, "lambda_mb_per_s", exact(f->lambda));
	put(j, "sigma", exact(f->sigma));
	put(j, "kappa", exact(f->kappa));
	put(j, "r2", exact(f->r2));
	put_int(j, "n_points", f->n);
	put(j, "peak_clients", f->has_peak ? exact(f->peak_clients) : NULL);
	put(j, "peak_mb_per_s", f->has_peak ? new_num(f->peak, 6) : NULL);
	put_bool(j, "poor", f->poor);
	put_str(j, "poor_reason", f->poor ? f->why : NULL);
	put_str(j, "text", usl_text(text, sizeof(text), f, "MB/s"));
	return j;
}
