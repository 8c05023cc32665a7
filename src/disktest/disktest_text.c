/*
 * disktest_text.c - the disk test's text report: one table, a row per
 * measurement and a column per directory, then a line per directory with
 * its file, free space, alignment and any stale files.
 */
#include "config.h"

#include <stdio.h>
#include <talloc.h>

#include "disktest.h"
#include "dt_private.h"

static char *dt_cell(void *mem, const struct disktest_result *res,
		     const struct disktest_dir *d, enum disktest_kind k)
{
	const struct disktest_row *row = &d->row[k];
	char *s;

	switch (row->state) {
	case DT_NOT_SUPPORTED:
		return talloc_asprintf(mem, "not supported here: %s",
				       row->note ? row->note : "");
	case DT_NOT_EVICTED:
		return talloc_strdup(mem, row->note);
	case DT_FAILED:
		return talloc_asprintf(mem, "FAILED: %s",
				       row->note ? row->note : "");
	case DT_NOT_RUN:
		return talloc_strdup(mem, row->note ? row->note : "not run");
	case DT_MEASURED:
		break;
	}
	s = talloc_asprintf(
		mem, "%.1f MB/s [%.1f-%.1f]  p50 %.3f p99 %.3f max %.3f ms",
		row->mbps_median, row->mbps_min, row->mbps_max,
		(double)hist_percentile(row->lat, 50, row->lat_min_ns,
					row->lat_max_ns) / 1e6,
		(double)hist_percentile(row->lat, 99, row->lat_min_ns,
					row->lat_max_ns) / 1e6,
		(double)row->lat_max_ns / 1e6);
	if (k == DT_WRITE)
		s = talloc_asprintf_append(s, "  fdatasync %.1f ms",
					   (double)row->flush_median_ns / 1e6);
	if (row->resident_pct >= 0)
		s = talloc_asprintf_append(s, "  cached before %.1f%%",
					   row->resident_pct);
	if (row->note != NULL)
		s = talloc_asprintf_append(s, "  (%s)", row->note);
	/* fewer runs than asked: a signal, or the write failing later */
	if (d->failed_run > 0 && !row->interrupted)
		s = talloc_asprintf_append(s, "  (%u of %u runs: the write "
					   "failed in run %u)", row->nruns,
					   res->repeat, d->failed_run);
	else if (row->interrupted || row->nruns < res->repeat)
		s = talloc_asprintf_append(s, "  (interrupted: %u of %u runs)",
					   row->nruns, res->repeat);
	return s;
}

void disktest_print(FILE *f, const struct disktest_result *res)
{
	void *tmp = talloc_new(NULL);
	const unsigned nd = res->ndirs;
	char ***cells;
	size_t *width, name_w = strlen("measurement");

	if (tmp == NULL)
		return;
	cells = talloc_array(tmp, char **, DT_NUM_KINDS);
	width = talloc_zero_array(tmp, size_t, nd);
	if (cells == NULL || width == NULL)
		goto out;
	for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
		size_t n = strlen(disktest_kind_name[k]);

		if (n > name_w)
			name_w = n;
		cells[k] = talloc_array(cells, char *, nd);
		if (cells[k] == NULL)
			goto out;
		for (unsigned i = 0; i < nd; i++) {
			cells[k][i] = dt_cell(cells, res, &res->dirs[i], k);
			if (cells[k][i] == NULL)
				goto out;
			n = strlen(cells[k][i]);
			if (n > width[i])
				width[i] = n;
		}
	}
	for (unsigned i = 0; i < nd; i++)
		if (strlen(res->dirs[i].path) > width[i])
			width[i] = strlen(res->dirs[i].path);

	fprintf(f, "Disk test: %s blocks, %u run%s of each measurement%s\n",
		dt_size_str(tmp, res->block_size), res->repeat,
		res->repeat == 1 ? "" : "s",
		res->drop_caches ? ", page cache dropped before cold reads" :
				   "");
	fprintf(f, "MB/s = 10^6 bytes/s, median [lowest-highest] of the runs; "
		"p50/p99/max: latency of one block read or write\n\n");
	fprintf(f, "%-*s", (int)name_w, "measurement");
	for (unsigned i = 0; i < nd; i++)
		fprintf(f, "  %-*s", i + 1 < nd ? (int)width[i] : 0,
			res->dirs[i].path);
	fprintf(f, "\n");
	for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
		fprintf(f, "%-*s", (int)name_w, disktest_kind_name[k]);
		for (unsigned i = 0; i < nd; i++)
			fprintf(f, "  %-*s", i + 1 < nd ? (int)width[i] : 0,
				cells[k][i]);
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
	for (unsigned i = 0; i < nd; i++) {
		const struct disktest_dir *d = &res->dirs[i];

		if (d->nstale > 0)
			fprintf(f, "%s: %u stale test file%s from earlier "
				"runs (%s), left alone: %s%s; remove %s if no "
				"dbench runs there\n", d->path, d->nstale,
				d->nstale == 1 ? "" : "s",
				dt_size_str(tmp, d->stale_bytes),
				d->stale_names ? d->stale_names : "",
				d->nstale > DT_STALE_SHOWN ? ", ..." : "",
				d->nstale == 1 ? "it" : "them");
		if (d->size == 0)
			continue;
		fprintf(f, "%s: %s test file%s, %s free before; direct I/O "
			"alignment %u bytes (memory %u, %s)\n", d->path,
			dt_size_str(tmp, d->size),
			d->size_reduced ? " (less than 1 GiB: free space)" : "",
			dt_size_str(tmp, d->free_bytes), d->dio_offset_align,
			d->dio_mem_align,
			d->dio_source ? d->dio_source : "unknown");
		if (d->memory_backed)
			fprintf(f, "%s: the filesystem keeps the file in "
				"memory: none of its figures is a disk's "
				"speed\n", d->path);
	}
	if (res->interrupted)
		fprintf(f, "INTERRUPTED%s%s: the figures above are the runs "
			"completed before it; the test files were removed\n",
			res->signal ? " by " : "",
			res->signal ? strsignal(res->signal) : "");
out:
	talloc_free(tmp);
	fflush(f);
}
