/*
 * series.c - the once-a-second series (see series.h): one row per tick
 * from the clients' summed per-second counters, and its CSV form.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "series.h"

struct series *series_new(void *mem_ctx)
{
	return talloc_zero(mem_ctx, struct series);
}

int series_add(struct series *s, const struct tick_stats *t, uint32_t phase,
	       double elapsed_s, double duration_s)
{
	struct series_row *rows, *row;

	rows = talloc_realloc(s, s->rows, struct series_row, s->nrows + 1);
	if (rows == NULL)
		return -1;
	s->rows = rows;
	row = &rows[s->nrows++];
	row->phase = phase;
	row->elapsed_s = elapsed_s;
	row->duration_s = duration_s;
	row->bytes = t->bytes;
	row->ops = t->ops;
	row->max_ns = t->max_ns;
	row->p99_ns = hist_percentile(&t->hist, 99, 0, t->max_ns);
	return 0;
}

const char *series_phase_name(uint32_t phase)
{
	switch (phase) {
	case PHASE_PREPARE:
		return "prepare";
	case PHASE_WARMUP:
		return "warmup";
	case PHASE_EXECUTE:
		return "execute";
	case PHASE_CLEANUP:
		return "cleanup";
	default:
		return "done";
	}
}

int series_write_csv(void *mem_ctx, const struct series *s, const char *path,
		     char **err)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (f == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", path,
				       strerror(errno));
		return -1;
	}
	fprintf(f, "phase,elapsed_s,duration_s,mb_per_s,ops_per_s,"
		"max_latency_ms,p99_latency_ms\n");
	for (unsigned i = 0; i < s->nrows; i++) {
		const struct series_row *row = &s->rows[i];
		double d = row->duration_s > 0 ? row->duration_s : 1;

		/* latencies to the ns: null-backend ops take tens of ns */
		fprintf(f, "%s,%.3f,%.3f,%.3f,%.1f,%.6f,%.6f\n",
			series_phase_name(row->phase), row->elapsed_s,
			row->duration_s, (double)row->bytes / 1e6 / d,
			(double)row->ops / d, (double)row->max_ns / 1e6,
			(double)row->p99_ns / 1e6);
	}
	bad = ferror(f);
	if (fclose(f) != 0)
		bad = 1;
	if (bad) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", path,
				       strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
