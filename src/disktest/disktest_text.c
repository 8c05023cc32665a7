/*
 * disktest_text.c - the disk test's text report, made to fit 80 columns:
 * a table of MB/s (a row per directory, a column per measurement; with
 * several runs the median, lowest and highest on three lines), a table of
 * block latencies of the same shape (p50, p99, max), then the notes: why
 * a cell has no figure, each directory's file, free space and alignment,
 * stale files, memory-backed filesystems, an interruption.
 */
#include "config.h"

#include <stdio.h>
#include <talloc.h>

#include "disktest/disktest.h"
#include "dt_private.h"

/* Longest directory name shown in the tables; longer ones get a number
 * ("#1") and a legend line below the table. */
#define DT_TXT_NAME_MAX 20
#define DT_TXT_CELL	9	/* width of a figure column */
#define DT_TXT_STAT	7	/* "median", "highest", "p50" */

/* The column headers, two lines each (the measurement's name split). */
static const char *const dt_head1[DT_NUM_KINDS] = {
	"write+", "cold", "hot", "O_DIRECT", "O_DIRECT"
};
static const char *const dt_head2[DT_NUM_KINDS] = {
	"fdatasync", "read", "read", "write", "read"
};

/* What the tables show for a row with no figure (the notes say why). */
static const char *dt_state_word_of(enum disktest_state state)
{
	switch (state) {
	case DT_NOT_SUPPORTED:
		return "n/a";
	case DT_NOT_EVICTED:
		return "cached";
	case DT_FAILED:
		return "FAILED";
	case DT_NOT_RUN:
		return "skipped";	/* one word: scripts split on blanks */
	case DT_MEASURED:
		break;
	}
	return NULL;
}

static const char *dt_state_word(const struct disktest_row *row)
{
	return dt_state_word_of(row->state);
}

struct dt_layout {
	int name_w;		/* the directory column */
	char **label;		/* per directory: its name or "#N" */
	bool numbered;		/* some directory is in the legend */
};

static int dt_layout(void *mem, const struct disktest_result *res,
		     struct dt_layout *l)
{
	l->name_w = (int)strlen("directory");
	l->numbered = false;
	l->label = talloc_array(mem, char *, res->ndirs);
	if (l->label == NULL)
		return -1;
	for (unsigned i = 0; i < res->ndirs; i++) {
		const char *p = res->dirs[i].path;

		if (strlen(p) > DT_TXT_NAME_MAX) {
			l->label[i] = talloc_asprintf(l->label, "#%u", i + 1);
			l->numbered = true;
		} else {
			l->label[i] = talloc_strdup(l->label, p);
		}
		if (l->label[i] == NULL)
			return -1;
		if ((int)strlen(l->label[i]) > l->name_w)
			l->name_w = (int)strlen(l->label[i]);
	}
	return 0;
}

static void dt_header(FILE *f, const struct dt_layout *l, const char *title)
{
	int left = l->name_w + 2 + DT_TXT_STAT;

	fprintf(f, "%-*s", left, title);
	for (unsigned k = 0; k < DT_NUM_KINDS; k++)
		fprintf(f, " %*s", DT_TXT_CELL, dt_head1[k]);
	fprintf(f, "\n%-*s", left, "directory");
	for (unsigned k = 0; k < DT_NUM_KINDS; k++)
		fprintf(f, " %*s", DT_TXT_CELL, dt_head2[k]);
	fprintf(f, "\n");
}

/* Which figure of a row a table line shows. */
enum dt_stat { DT_MEDIAN, DT_LOWEST, DT_HIGHEST, DT_P50, DT_P99, DT_MAX };

static const char *const dt_stat_name[] = {
	"median", "lowest", "highest", "p50", "p99", "max"
};

static void dt_cell(FILE *f, const struct disktest_row *row, enum dt_stat s)
{
	const char *word = dt_state_word(row);
	double v = 0;

	if (word != NULL || row->nruns == 0) {
		/* the state once, on the first line of the row */
		fprintf(f, " %*s", DT_TXT_CELL,
			(s == DT_MEDIAN || s == DT_P50) && word ? word : "-");
		return;
	}
	switch (s) {
	case DT_MEDIAN:
		v = row->mbps_median;
		break;
	case DT_LOWEST:
		v = row->mbps_min;
		break;
	case DT_HIGHEST:
		v = row->mbps_max;
		break;
	case DT_P50:
	case DT_P99:
		v = (double)hist_percentile(row->lat, s == DT_P50 ? 50 : 99,
					    row->lat_min_ns,
					    row->lat_max_ns) / 1e6;
		break;
	case DT_MAX:
		v = (double)row->lat_max_ns / 1e6;
		break;
	}
	if (s >= DT_P50)
		fprintf(f, " %*.3f", DT_TXT_CELL, v);
	else
		fprintf(f, " %*.1f", DT_TXT_CELL, v);
}

/* One table: per directory, a line per statistic in [first, last]. */
static void dt_table(FILE *f, const struct disktest_result *res,
		     const struct dt_layout *l, const char *title,
		     enum dt_stat first, enum dt_stat last)
{
	dt_header(f, l, title);
	for (unsigned i = 0; i < res->ndirs; i++) {
		for (enum dt_stat s = first; s <= last; s++) {
			fprintf(f, "%-*s", l->name_w,
				s == first ? l->label[i] : "");
			fprintf(f, "  %-*s", DT_TXT_STAT,
				first == last ? "" : dt_stat_name[s]);
			for (unsigned k = 0; k < DT_NUM_KINDS; k++)
				dt_cell(f, &res->dirs[i].row[k], s);
			fprintf(f, "\n");
		}
	}
}

/* The notes of one measurement of one directory: why it has no figure,
 * or fewer runs than asked. */
static void dt_row_notes(FILE *f, const struct disktest_result *res,
			 const struct disktest_dir *d, enum disktest_kind k)
{
	const struct disktest_row *row = &d->row[k];
	const char *name = disktest_kind_name[k];
	const char *note = row->note ? row->note : "";

	switch (row->state) {
	case DT_NOT_SUPPORTED:
		fprintf(f, "%s: %s: not supported here: %s\n", d->path, name,
			note);
		return;
	case DT_NOT_EVICTED:
		fprintf(f, "%s: %s: %s\n", d->path, name, note);
		return;
	case DT_FAILED:
		fprintf(f, "%s: %s: FAILED: %s\n", d->path, name, note);
		return;
	case DT_NOT_RUN:
		fprintf(f, "%s: %s: %s\n", d->path, name,
			row->note ? row->note : "not run");
		return;
	case DT_MEASURED:
		break;
	}
	if (row->note != NULL)
		fprintf(f, "%s: %s: %s\n", d->path, name, row->note);
	/* fewer runs than asked: a signal, or the write failing later */
	if (d->failed_run > 0 && !row->interrupted)
		fprintf(f, "%s: %s: %u of %u runs: the write failed in run "
			"%u\n", d->path, name, row->nruns, res->repeat,
			d->failed_run);
	else if (row->interrupted || row->nruns < res->repeat)
		fprintf(f, "%s: %s: interrupted: %u of %u runs\n", d->path,
			name, row->nruns, res->repeat);
}

/* A directory's figures that are not speeds: the flush time and how much
 * of the file was cached before each read. */
static void dt_dir_figures(FILE *f, const struct disktest_dir *d)
{
	const struct disktest_row *w = &d->row[DT_WRITE];
	const char *sep = "; cached before reading:";

	fprintf(f, "%s: fdatasync ", d->path);
	if (w->state == DT_MEASURED && w->nruns > 0)
		fprintf(f, "%.1f ms", (double)w->flush_median_ns / 1e6);
	else
		fprintf(f, "-");
	for (unsigned k = 0; k < DT_NUM_KINDS; k++) {
		const struct disktest_row *row = &d->row[k];

		if (row->resident_pct < 0)
			continue;
		fprintf(f, "%s %s %.1f%%", sep, disktest_kind_name[k],
			row->resident_pct);
		sep = ",";
	}
	fprintf(f, "\n");
}

static void dt_dir_notes(FILE *f, void *tmp, const struct disktest_result *res,
			 const struct disktest_dir *d)
{
	for (unsigned k = 0; k < DT_NUM_KINDS; k++)
		dt_row_notes(f, res, d, k);
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
		return;
	fprintf(f, "%s: %s test file%s, %s free before; direct I/O "
		"alignment %u bytes (memory %u, %s)\n", d->path,
		dt_size_str(tmp, d->size),
		d->size_reduced ? " (less than 1 GiB: free space)" : "",
		dt_size_str(tmp, d->free_bytes), d->dio_offset_align,
		d->dio_mem_align, d->dio_source ? d->dio_source : "unknown");
	dt_dir_figures(f, d);
	if (d->memory_backed)
		fprintf(f, "%s: the filesystem keeps the file in "
			"memory: none of its figures is a disk's "
			"speed\n", d->path);
}

void dt_print_progress(void *arg, const struct disktest_progress *p)
{
	FILE *f = arg;
	const char *why = p->stopped ? "interrupted" :
			  p->state == DT_NOT_EVICTED ? "could not evict" :
			  p->state == DT_NOT_SUPPORTED ? "not supported" :
			  dt_state_word_of(p->state);

	/* aligned as the tables are, for names up to their width */
	if (!p->done)
		fprintf(f, "  %-*s  %-15s  run %u/%u  ...",
			p->dir_width > DT_TXT_NAME_MAX ? DT_TXT_NAME_MAX :
							 (int)p->dir_width,
			p->dir, disktest_kind_name[p->kind], p->run,
			p->repeat);
	else if (p->measured)
		fprintf(f, "  %7.1f MB/sec  %.2f sec\n", p->mbps, p->seconds);
	else
		fprintf(f, "  %s  %.2f sec\n", why ? why : "no figure",
			p->seconds);
	fflush(f);
}

void disktest_print(FILE *f, const struct disktest_result *res)
{
	void *tmp = talloc_new(NULL);
	struct dt_layout l;

	if (tmp == NULL || dt_layout(tmp, res, &l) != 0)
		goto out;
	fprintf(f, "Disk test: %s blocks, %u run%s of each measurement%s\n",
		dt_size_str(tmp, res->block_size), res->repeat,
		res->repeat == 1 ? "" : "s",
		res->drop_caches ? ", page cache dropped before cold reads" :
				   "");
	fprintf(f, "MB/s: 10^6 bytes per second%s\n"
		"latency ms: one block read or write, over all runs\n\n",
		res->repeat == 1 ? "" : "; median, lowest and highest of the "
		"runs");
	dt_table(f, res, &l, "MB/s", DT_MEDIAN,
		 res->repeat > 1 ? DT_HIGHEST : DT_MEDIAN);
	fprintf(f, "\n");
	dt_table(f, res, &l, "latency ms", DT_P50, DT_MAX);
	if (l.numbered)
		fprintf(f, "\n");
	if (l.numbered)
		for (unsigned i = 0; i < res->ndirs; i++)
			if (l.label[i][0] == '#')
				fprintf(f, "%s = %s\n", l.label[i],
					res->dirs[i].path);
	fprintf(f, "\n");
	for (unsigned i = 0; i < res->ndirs; i++)
		dt_dir_notes(f, tmp, res, &res->dirs[i]);
	if (res->interrupted)
		fprintf(f, "INTERRUPTED%s%s: the figures above are the runs "
			"completed before it; the test files were removed\n",
			res->signal ? " by " : "",
			res->signal ? strsignal(res->signal) : "");
out:
	talloc_free(tmp);
	fflush(f);
}
