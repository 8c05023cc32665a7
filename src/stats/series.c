/*
 * series.c - the once-a-second series (see series.h): one row per tick
 * from the clients' summed per-second counters, and its CSV form.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "stats/series.h"

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

/* The CSV text of the series into f; 0, or an errno. */
static int write_rows(FILE *f, const struct series *s)
{
	if (fprintf(f, "phase,elapsed_s,duration_s,mb_per_s,ops_per_s,"
		    "max_latency_ms,p99_latency_ms\n") < 0)
		return errno ? errno : EIO;
	for (unsigned i = 0; i < s->nrows; i++) {
		const struct series_row *row = &s->rows[i];
		double d = row->duration_s > 0 ? row->duration_s : 1;

		/* latencies to the ns: null-backend ops take tens of ns */
		if (fprintf(f, "%s,%.3f,%.3f,%.3f,%.1f,%.6f,%.6f\n",
			    series_phase_name(row->phase), row->elapsed_s,
			    row->duration_s, (double)row->bytes / 1e6 / d,
			    (double)row->ops / d, (double)row->max_ns / 1e6,
			    (double)row->p99_ns / 1e6) < 0)
			return errno ? errno : EIO;
	}
	if (fflush(f) != 0)
		return errno ? errno : EIO;
	return 0;
}

/* Write the rows to fd and close it; 0, or an errno. */
static int write_fd(int fd, const struct series *s)
{
	FILE *f = fdopen(fd, "w");
	int err;

	if (f == NULL) {
		err = errno;
		close(fd);
		return err;
	}
	errno = 0;
	err = write_rows(f, s);
	if (fclose(f) != 0 && err == 0)
		err = errno ? errno : EIO;
	return err;
}

/*
 * A regular file (or a new one) is written whole or not at all: the rows
 * go to a new file beside it, renamed over it once complete, so that a
 * full disk leaves neither an empty CSV nor a half one, and an older
 * series at that path stays as it was.  Anything else (a symlink, a
 * device, a pipe) is written in place, as asked.
 */
int series_write_csv(void *mem_ctx, const struct series *s, const char *path,
		     char **err)
{
	struct stat st;
	char *tmp = NULL;
	int fd = -1, e;

	if (lstat(path, &st) != 0 || S_ISREG(st.st_mode)) {
		for (unsigned n = 0; fd < 0 && n < 100; n++) {
			talloc_free(tmp);
			tmp = talloc_asprintf(mem_ctx, "%s.%d.%u.tmp", path,
					      (int)getpid(), n);
			if (tmp == NULL)
				break;
			fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL |
					       O_CLOEXEC | O_NOFOLLOW, 0666);
			if (fd < 0 && errno != EEXIST)
				break;
		}
		if (fd < 0) {
			/* the directory may take no new name: write in
			 * place, as before */
			talloc_free(tmp);
			tmp = NULL;
		}
	}
	if (fd < 0)
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		e = errno;
		goto fail;
	}
	e = write_fd(fd, s);
	if (e == 0 && tmp != NULL && rename(tmp, path) != 0)
		e = errno;
	if (e != 0)
		goto fail;
	talloc_free(tmp);
	return 0;
fail:
	if (tmp != NULL)
		(void)unlink(tmp);
	talloc_free(tmp);
	*err = talloc_asprintf(mem_ctx, "%s: %s", path, strerror(e));
	return -1;
}
