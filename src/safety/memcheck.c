/*
 * memcheck.c - refuse a run on tmpfs/ramfs whose data would take the
 * host's memory, and tell the run loop when memory runs low (memcheck.h).
 *
 * The estimate walks the compiled loadfile once, as one client would run
 * one pass, following what each file may hold: its furthest extent and
 * the pages its writes cover (a sparse file holds only what was written).
 * Loops are not run: a write inside LOOP n / REPEAT n counts n times and
 * a relative offset (+y) advances n steps, which is what the loop would
 * leave behind at most.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>

#include <talloc.h>

#include "safety/memcheck.h"

#define MC_PAGE 4096u
#define MC_TMPFS_MAGIC 0x01021994
#define MC_RAMFS_MAGIC 0x858458f6
/* nesting of LOOP deeper than this counts as this deep */
#define MC_MAX_DEPTH 64

/* What one file may hold now. */
struct mc_file {
	uint64_t ext;	/* furthest byte written, rounded up to pages */
	uint64_t pages;	/* bytes of the pages written since it was made */
};

struct mc {
	const struct program *p;
	struct mc_file *f;	/* by path id */
	uint64_t held, peak;	/* sum of min(ext, pages): now, at most */
	uint32_t *hpath;	/* handle slot -> path id */
	int64_t last[OP_NUM_MEASURED][PROGRAM_MAX_ARGS];
	int64_t trunc;
};

static uint64_t mc_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mc_mul(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t mc_pages(uint64_t n)
{
	return n > UINT64_MAX - MC_PAGE ? UINT64_MAX :
					   (n + MC_PAGE - 1) / MC_PAGE * MC_PAGE;
}

/* The largest value argument i of op takes over n runs of it. */
static uint64_t mc_value(struct mc *m, const struct op *op, unsigned i,
			 uint64_t n)
{
	struct value v = program_arg(m->p, op, i);
	const struct value_mod *mods = program_mods(m->p, &v);
	int64_t *last = &m->last[op->kind][i];
	uint64_t x;

	switch (v.kind) {
	case VAL_RANDOM:
		x = INT64_MAX;
		for (unsigned k = 0; k < v.nmods; k++)
			if (mods[k].op == '%' && mods[k].y > 0 &&
			    x >= (uint64_t)mods[k].y)
				x = (uint64_t)mods[k].y - 1;
			else if (mods[k].op == '+' && mods[k].y > 0)
				x = mc_add(x, (uint64_t)mods[k].y);
		break;
	case VAL_RELATIVE:
		x = *last < 0 ? 0 : (uint64_t)*last;
		if (v.v > 0)
			x = mc_add(x, mc_mul((uint64_t)v.v, n));
		else if (v.v < 0 && x >= (uint64_t)-v.v)
			x -= (uint64_t)-v.v;
		break;
	default:
		x = v.v < 0 ? 0 : (uint64_t)v.v;
		break;
	}
	*last = x > INT64_MAX ? INT64_MAX : (int64_t)x;
	return x;
}

static uint64_t mc_min(const struct mc_file *f)
{
	return f->ext < f->pages ? f->ext : f->pages;
}

/* File f becomes ext, pages: the running sum and its peak follow. */
static void mc_set(struct mc *m, struct mc_file *f, uint64_t ext,
		   uint64_t pages)
{
	m->held -= mc_min(f);
	f->ext = ext;
	f->pages = pages;
	m->held = mc_add(m->held, mc_min(f));
	if (m->held > m->peak)
		m->peak = m->held;
}

/* Deltree of path: every file under it goes. */
static void mc_deltree(struct mc *m, uint32_t path)
{
	const struct path *t = &m->p->paths[path];

	for (uint32_t i = 0; i < m->p->npaths; i++) {
		const struct path *q = &m->p->paths[i];

		if (q->len >= t->len && memcmp(q->text, t->text, t->len) == 0 &&
		    (q->len == t->len || t->len == 0 || q->text[t->len] == '/'))
			mc_set(m, &m->f[i], 0, 0);
	}
}

/* A write op, run n times: offset argument 0, length argument 1. */
static void mc_write(struct mc *m, const struct op *op, uint32_t path,
		     uint64_t n)
{
	uint64_t off = mc_value(m, op, 0, n), len = mc_value(m, op, 1, n);
	struct mc_file *f;

	if (path == PATH_NONE || path >= m->p->npaths)
		return;
	if (m->trunc > 0 && len > (uint64_t)m->trunc)
		len = (uint64_t)m->trunc;
	f = &m->f[path];
	mc_set(m, f, mc_pages(mc_add(off, len)) > f->ext ?
			     mc_pages(mc_add(off, len)) : f->ext,
	       mc_add(f->pages, mc_mul(mc_pages(len), n)));
}

/* Does op remove the file at its first path? */
static bool mc_removes(unsigned kind)
{
	return kind == OP_UNLINK || kind == OP_REMOVE3 || kind == OP_UNLINK5;
}

/* One op, run n times. */
static void mc_op(struct mc *m, const struct op *op, uint64_t n)
{
	const struct program *p = m->p;

	switch (op->kind) {
	case OP_NTCREATEX:
		if (op->handle >= 0 && (uint32_t)op->handle < p->nhandles)
			m->hpath[op->handle] = op->path[0];
		break;
	case OP_WRITEX:
		if (op->handle >= 0 && (uint32_t)op->handle < p->nhandles)
			mc_write(m, op, m->hpath[op->handle], n);
		break;
	case OP_WRITE3:
	case OP_WRITE5:
		mc_write(m, op, op->path[0], n);
		break;
	case OP_RENAME:
	case OP_RENAME3:
		if (op->path[0] < p->npaths && op->path[1] < p->npaths &&
		    op->path[0] != op->path[1]) {
			struct mc_file *from = &m->f[op->path[0]];
			struct mc_file moved = *from;

			mc_set(m, from, 0, 0);
			mc_set(m, &m->f[op->path[1]], moved.ext, moved.pages);
		}
		break;
	case OP_DELTREE:
	case OP_DELTREE5:
		if (op->path[0] < p->npaths)
			mc_deltree(m, op->path[0]);
		break;
	default:
		if (mc_removes(op->kind) && op->path[0] < p->npaths)
			mc_set(m, &m->f[op->path[0]], 0, 0);
		break;
	}
}

/* One pass of the program over m's state. */
static void mc_pass(struct mc *m)
{
	const struct program *p = m->p;
	uint64_t mult[MC_MAX_DEPTH + 1], repeat = 1;
	unsigned depth = 0;

	mult[0] = 1;
	for (uint32_t i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];
		int64_t arg = op->kind >= OP_NUM_MEASURED ?
				      program_arg_v(p, op, 0) : 1;
		uint64_t count = arg > 0 ? (uint64_t)arg : 1;

		if (op->kind == OP_LOOP && depth < MC_MAX_DEPTH) {
			mult[depth + 1] = mc_mul(mult[depth], count);
			depth++;
		} else if (op->kind == OP_ENDLOOP && depth > 0) {
			depth--;
		} else if (op->kind == OP_REPEAT) {
			repeat = count;
			continue;
		} else if (op->kind < OP_NUM_MEASURED) {
			mc_op(m, op, mc_mul(mult[depth], repeat));
		}
		repeat = 1;
	}
}

uint64_t memcheck_program_bytes(const struct program *p, int64_t trunc_io)
{
	struct mc *m = talloc_zero(NULL, struct mc);
	uint64_t peak;

	if (m == NULL)
		return 0;
	m->p = p;
	m->trunc = trunc_io;
	m->f = talloc_zero_array(m, struct mc_file, p->npaths ? p->npaths : 1);
	m->hpath = talloc_array(m, uint32_t, p->nhandles ? p->nhandles : 1);
	if (m->f == NULL || m->hpath == NULL) {
		talloc_free(m);
		return UINT64_MAX; /* the safe side */
	}
	for (uint32_t h = 0; h < p->nhandles; h++)
		m->hpath[h] = PATH_NONE;
	/* the second pass starts from what the first left */
	mc_pass(m);
	mc_pass(m);
	peak = m->peak;
	talloc_free(m);
	return peak;
}

/* Read "Name: N kB" of a meminfo file into bytes. */
int memcheck_meminfo(uint64_t *total, uint64_t *avail)
{
	const char *path = getenv(MEMCHECK_TEST_ENV);
	FILE *f = fopen(path != NULL && path[0] != '\0' ? path :
			"/proc/meminfo", "re");
	char line[256];
	bool have_t = false, have_a = false;
	unsigned long long kb;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			*total = mc_mul(kb, 1024);
			have_t = true;
		} else if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			*avail = mc_mul(kb, 1024);
			have_a = true;
		}
	}
	fclose(f);
	return have_t && have_a ? 0 : -1;
}

const char *memcheck_fs_type(const char *dir)
{
	struct statfs sf;

	if (statfs(dir, &sf) != 0)
		return NULL;
	if ((unsigned long)sf.f_type == MC_TMPFS_MAGIC)
		return "tmpfs";
	if ((unsigned long)sf.f_type == MC_RAMFS_MAGIC)
		return "ramfs";
	return NULL;
}

/* n bytes for a message: "812.0 MiB", "23.4 GiB". */
static char *mc_size(void *mem, uint64_t n)
{
	if (n >= (1ull << 30))
		return talloc_asprintf(mem, "%.1f GiB", (double)n / (1ull << 30));
	return talloc_asprintf(mem, "%.1f MiB", (double)n / (1ull << 20));
}

int memcheck_run(void *mem_ctx, const struct dbench_options *o,
		 struct program *const *progs, unsigned nprogs, bool force,
		 bool *in_memory, char **why)
{
	uint64_t *bytes = talloc_zero_array(mem_ctx, uint64_t, nprogs);
	const char **fs = talloc_zero_array(mem_ctx, const char *,
					    o->ndirectories);
	uint64_t need = 0, total = 0, avail = 0;
	unsigned nmem = 0, first = 0;

	*in_memory = false;
	if (bytes == NULL || fs == NULL || nprogs == 0)
		return 0;
	for (unsigned d = 0; d < o->ndirectories; d++)
		if ((fs[d] = memcheck_fs_type(o->directories[d])) != NULL &&
		    !*in_memory) {
			*in_memory = true;
			first = d;
		}
	if (!*in_memory || o->fake_io)
		return 0;
	for (unsigned i = 0; i < nprogs; i++)
		bytes[i] = memcheck_program_bytes(progs[i], o->trunc_io);
	for (unsigned c = 0; c < o->nclients; c++)
		if (fs[c % o->ndirectories] != NULL) {
			need = mc_add(need, bytes[c % nprogs]);
			nmem++;
		}
	if (force || memcheck_meminfo(&total, &avail) != 0 ||
	    need <= avail / 2)
		return 0;
	*why = talloc_asprintf(
		mem_ctx, "-D %s is in memory (%s): %u client%s may hold about "
		"%s of data there (estimated from the loadfile), more than "
		"half of the %s of memory available (MemAvailable); use fewer "
		"clients or a directory on disk, or --force to run anyway",
		o->directories[first], fs[first], nmem, nmem == 1 ? "" : "s",
		mc_size(mem_ctx, need), mc_size(mem_ctx, avail));
	return -1;
}

bool memcheck_low(uint64_t *total, uint64_t *avail)
{
	uint64_t t, a;

	if (memcheck_meminfo(&t, &a) != 0 || a >= t / 20)
		return false;
	*total = t;
	*avail = a;
	return true;
}
