/*
 * store.c - the storage of a program being compiled: arrays grown by
 * doubling, texts kept in shared chunks, the op and time columns (in a
 * reservation backed by huge pages for large inputs), and the trimming
 * of unused tails when compilation ends.
 */
#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <talloc.h>

#include "util/util.h"
#include "loadfile/program.h"
#include "lf_private.h"

/* Bytes of the chunks program texts (paths, directories, patterns) are
 * copied into: one talloc header per chunk, not per text. */
#define LF_TEXT_CHUNK	(64u * 1024)

/*
 * Array arr of elem-byte elements (a talloc child of the program, NULL at
 * first) with room for need of them: grown by doubling from first.
 * Returns the array, which may have moved, and sets *cap; NULL after
 * lf_nomem().
 */
void *lf_grow(struct lf_state *st, void *arr, size_t elem, uint32_t *cap,
	      uint64_t need, uint32_t first)
{
	uint64_t c = *cap != 0 ? *cap : first;
	void *a;

	if (need <= *cap)
		return arr;
	while (c < need)
		c *= 2;
	a = c <= UINT32_MAX ? talloc_realloc_size(st->prog, arr, c * elem) :
			      NULL;
	if (a == NULL) {
		lf_nomem(st);
		return NULL;
	}
	*cap = (uint32_t)c;
	return a;
}

/* A NUL-terminated copy of p[0..len) that lives as long as the program:
 * small ones share chunks, a large one has its own.  NULL after
 * lf_nomem(). */
const char *lf_keep_text(struct lf_state *st, const char *p, size_t len)
{
	bool own = len + 1 > LF_TEXT_CHUNK / 4;
	char *t;

	if (own || len + 1 > st->text_left) {
		t = talloc_size(st->prog, own ? len + 1 : LF_TEXT_CHUNK);
		if (t == NULL) {
			lf_nomem(st);
			return NULL;
		}
		talloc_set_name_const(t, "program text");
		if (!own) {
			st->text_chunk = t;
			st->text_left = LF_TEXT_CHUNK;
		}
	}
	if (!own) {
		t = st->text_chunk;
		st->text_chunk += len + 1;
		st->text_left -= len + 1;
	}
	memcpy(t, p, len);
	t[len] = '\0';
	return t;
}

/*
 * The op array of a large loadfile lives in its own reservation of address
 * space, aligned to 2 MiB and marked for transparent huge pages before the
 * parser writes it: the pages come in huge from the first fault, and the
 * array never moves (nor is it ever copied: growing by realloc would need
 * the old and the new array at once, 1.5 times the final size at the
 * peak).  Huge pages matter at fork: see lf_huge_ops().  The reservation
 * holds as many ops as the input can have (each takes a line of at least
 * 2 bytes: half the length of a buffer, half of LF_MAX_INPUT for a file,
 * whose size may change and may be compressed) and costs nothing where it
 * is not written.  If the kernel refuses it (ulimit -v, strict overcommit)
 * the array is grown with realloc, as for small inputs.  The times of a
 * timed loadfile are a second column of the same kind.
 */
#define LF_HUGE		 (2u << 20)

/* Reserve room for st->ops_bound elements of col; false (nothing
 * changed) if not. */
static bool lf_col_reserve(struct lf_state *st, struct lf_col *col)
{
	uint64_t bytes = st->ops_bound * col->elem;
	uintptr_t start;
	void *map;

	if (st->ops_bound < LF_AREA_MIN_OPS || st->ops_bound > UINT32_MAX ||
	    bytes > SIZE_MAX - LF_HUGE)
		return false;
	/* unmapped with the program */
	map = util_map(st->prog, (size_t)bytes + LF_HUGE,
		       MAP_PRIVATE | MAP_NORESERVE);
	if (map == NULL)
		return false;
	start = ((uintptr_t)map + LF_HUGE - 1) & ~(uintptr_t)(LF_HUGE - 1);
#ifdef MADV_HUGEPAGE
	(void)madvise((void *)start, (size_t)bytes, MADV_HUGEPAGE);
#endif
	col->area = true;
	col->base = (void *)start;
	col->cap = (uint32_t)st->ops_bound;
	col->prefaulted = 0;
	return true;
}

/*
 * Make the next stretch of a reserved column resident in one call before
 * the parser writes it.  The op array is the bulk of a large program
 * (Debian's client.txt: about 16 MB); taking one page fault per 4 KiB
 * costs more than the parsing itself, notably in virtual machines.  Only
 * a hint: if the kernel does not know MADV_POPULATE_WRITE, pages fault in
 * as usual.
 */
static void lf_col_prefault(struct lf_col *col)
{
	size_t end = (size_t)col->cap * col->elem;
#ifdef MADV_POPULATE_WRITE
	const size_t ahead = 2u << 20;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t base = (uintptr_t)col->base;
	uintptr_t from = (base + col->prefaulted) & ~(page - 1);
	size_t want = col->prefaulted + ahead;

	if (want > end)
		want = end;
	(void)madvise((void *)from, base + want - from, MADV_POPULATE_WRITE);
	col->prefaulted = want;
#else
	col->prefaulted = end;
#endif
}

/* Element i of col (i <= its length: at most one more), made room for.
 * NULL after lf_nomem(). */
static void *lf_col_at(struct lf_state *st, struct lf_col *col, uint32_t i)
{
	if (i == col->cap && (col->cap != 0 || !lf_col_reserve(st, col))) {
		/* a full reservation cannot happen: it holds the most ops
		 * an input of the allowed size can have */
		void *a = col->area ? NULL :
				      lf_grow(st, col->base, col->elem,
					      &col->cap, (uint64_t)i + 1, 1024);

		if (a == NULL) {
			lf_nomem(st);
			return NULL;
		}
		col->base = a;
	}
	if (col->area && (size_t)(i + 1) * col->elem > col->prefaulted)
		lf_col_prefault(col);
	return (char *)col->base + (size_t)i * col->elem;
}

/*
 * Record the time of the op just made (i), t seconds or -1.  The column
 * starts at the first timed op, all earlier ones untimed.
 */
int lf_set_time(struct lf_state *st, uint32_t i, double t)
{
	struct program *prog = st->prog;

	if (t < 0 && st->times.base == NULL)
		return 0;
	if (st->times.base == NULL) {
		for (uint32_t j = 0; j < i; j++) {
			double *d = lf_col_at(st, &st->times, j);

			if (d == NULL)
				return -1;
			*d = -1;
		}
		prog->timed = true;
	}
	double *d = lf_col_at(st, &st->times, i);

	if (d == NULL)
		return -1;
	*d = t;
	prog->times = st->times.base;
	return 0;
}

struct op *lf_new_op(struct lf_state *st)
{
	struct program *prog = st->prog;
	struct op *op = lf_col_at(st, &st->ops, prog->nops);

	if (op == NULL)
		return NULL;
	prog->ops = st->ops.base;
	prog->nops++;
	memset(op, 0, sizeof(*op));
	op->handle = -1;
	op->line = st->line;
	op->path[0] = op->path[1] = PATH_NONE;
	return op;
}

/* arr (cap elements of elem bytes, n used) without its unused tail;
 * arr itself if it cannot shrink. */
static void *lf_shrink(struct lf_state *st, void *arr, size_t elem,
		       uint32_t cap, uint32_t n)
{
	void *a;

	if (arr == NULL || n == 0 || cap <= n)
		return arr;
	a = talloc_realloc_size(st->prog, arr, (size_t)n * elem);
	return a != NULL ? a : arr;
}

/* Give back the unused tails of the growing arrays (a reserved column's
 * tail was never written: it costs nothing). */
void lf_trim(struct lf_state *st)
{
	struct program *prog = st->prog;

	if (!st->ops.area)
		prog->ops = lf_shrink(st, st->ops.base, st->ops.elem,
				      st->ops.cap, prog->nops);
	if (!st->times.area)
		prog->times = lf_shrink(st, st->times.base, st->times.elem,
					st->times.cap, prog->nops);
	prog->mods = lf_shrink(st, st->mods, sizeof(*st->mods), st->mods_cap,
			       prog->nmods);
	prog->values = lf_shrink(st, st->values, sizeof(*st->values),
				 st->values_cap, prog->nvalues);
	prog->texts = lf_shrink(st, st->texts, sizeof(*st->texts),
				st->texts_cap, prog->ntexts);
	prog->handle_nums = lf_shrink(st, prog->handle_nums,
				      sizeof(*prog->handle_nums),
				      st->handles_cap, prog->nhandles);
	prog->paths = lf_shrink(st, st->paths, sizeof(*st->paths),
				st->paths_cap, prog->npaths);
	prog->dirs = lf_shrink(st, st->dirs, sizeof(*st->dirs), st->dirs_cap,
			       prog->ndirs);
}

/*
 * Back the finished op array with transparent huge pages where the kernel
 * allows it (a hint; any failure leaves 4 KiB pages).  The array is read
 * by every worker: forking 1,024 workers copies the page tables of the
 * parent's private memory each time, 4,000 entries for the 16 MB of
 * Debian's client.txt with small pages, 8 with huge ones (and walking
 * the array needs 500 times fewer TLB entries).
 */
void lf_huge_ops(struct program *prog)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = 2u << 20;
	uintptr_t a = (uintptr_t)prog->ops;
	uintptr_t e = a + (uintptr_t)prog->nops * sizeof(struct op);
	uintptr_t lo = (a + huge - 1) & ~(huge - 1), hi = e & ~(huge - 1);

	if (hi <= lo)
		return;
	if (madvise((void *)lo, hi - lo, MADV_HUGEPAGE) != 0)
		return;
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25	/* Linux 6.1; older kernels say EINVAL */
#endif
	(void)madvise((void *)lo, hi - lo, MADV_COLLAPSE);
#endif
}
