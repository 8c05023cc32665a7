/*
 * fuzz_loadfile.c - libFuzzer entry point for the loadfile compiler.
 *
 * Feeds each input to program_compile_buffer() and, when it compiles,
 * checks the invariants the client engine relies on (handles, jumps,
 * paths and random indices in range; normalised paths).  A violated
 * invariant aborts, so the fuzzer reports it like a crash.
 *
 * Build and run (seed corpus in tests/fuzz/corpus/):
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -Isrc -I<dir with config.h> src/loadfile/ops.c \
 *       src/loadfile/reader.c src/loadfile/store.c src/loadfile/values.c \
 *       src/loadfile/paths.c src/loadfile/confine.c src/loadfile/dialect.c \
 *       src/loadfile/commands.c src/loadfile/loadfile.c src/util/util.c \
 *       src/loadfile/ntstatus.c tests/fuzz/fuzz_loadfile.c \
 *       -ltalloc -lz -o fuzz_loadfile
 *   ./fuzz_loadfile -max_total_time=120 corpus-copy/ tests/fuzz/corpus/
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <talloc.h>

#include "loadfile/program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok)
{
	if (!ok)
		abort();
}

static void check_path(const struct program *p, const struct path *pp)
{
	size_t i;

	check(pp != NULL && pp->id < p->npaths && &p->paths[pp->id] == pp);
	check(pp->dir == PATH_DIR_NONE || pp->dir < p->ndirs);
	if (pp->dir != PATH_DIR_NONE) {
		const struct program_dir *d = &p->dirs[pp->dir];

		check(d->len < pp->len || (d->len == 0 && pp->dir == 0));
		check(memcmp(d->text, pp->text, d->len) == 0);
		check(d->len == 0 ? strchr(pp->text, '/') == NULL :
				    pp->text[d->len] == '/');
		check(strchr(pp->text + d->len + (d->len > 0), '/') == NULL);
	}
	check(pp->len <= 4095 && strlen(pp->text) == pp->len);
	check(pp->len == 0 ||
	      (pp->text[0] != '/' && pp->text[pp->len - 1] != '/'));
	for (i = 0; i < pp->len; i++) {
		check(pp->text[i] != '\\');
		check(!(pp->text[i] == '/' && pp->text[i + 1] == '/'));
	}
	check(strstr(pp->text, "/../") == NULL &&
	      strncmp(pp->text, "../", 3) != 0 && strcmp(pp->text, "..") != 0);
	if (pp->client_pos >= 0)
		check(pp->client_len == 7 &&
		      (size_t)pp->client_pos + 7 <= pp->len);
}

/*
 * Whether the compiler gives an op of this kind a handle slot: the kinds
 * whose table entry says so, and 5.0's smb dialect's open, read, write
 * and close, whose handle is named by the path they use.
 */
static bool fuzz_has_handle(unsigned kind)
{
	if (kind == OP_OPEN5 || kind == OP_READ5 || kind == OP_WRITE5 ||
	    kind == OP_CLOSE5)
		return true;
	return kind < OP_NUM_MEASURED && op_info[kind].has_handle;
}

static void check_program(const struct program *p)
{
	uint32_t i, depth = 0;
	unsigned a, m;

	check(p->nops > 0 && p->nops <= p->nlines);
	for (i = 0; i < p->npaths; i++)
		check_path(p, &p->paths[i]);
	for (i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];

		check(op->kind < OP_NUM_KINDS);
		check(op->line >= 1 && op->line <= p->nlines);
		check(op->handle >= -1 && op->handle < (int32_t)p->nhandles);
		check((op->handle >= 0) == fuzz_has_handle(op->kind));
		for (a = 0; a < op_info[op->kind].npaths; a++)
			check_path(p, program_path(p, op, a));
		for (a = 0; a < PROGRAM_MAX_ARGS; a++) {
			struct value val = program_arg(p, op, a);
			const struct value *v = &val;

			check(v->v >= 0);
			check(v->nmods == 0 ||
			      (uint64_t)v->mods + v->nmods <= p->nmods);
			for (m = 0; m < v->nmods; m++)
				check(program_mods(p, v)[m].op == '+' ||
				      program_mods(p, v)[m].y != 0);
		}
		if (op->kind == OP_LOOP) {
			check(op->jump > i && op->jump < p->nops);
			check(p->ops[op->jump].kind == OP_ENDLOOP &&
			      p->ops[op->jump].jump == i);
			depth++;
			check(depth <= p->max_loop_depth);
		} else if (op->kind == OP_ENDLOOP) {
			check(depth > 0);
			depth--;
			check(op->jump < i && p->ops[op->jump].jump == i);
		} else if (op->kind == OP_RANDOMSTRING) {
			check(program_arg_v(p, op, 0) < (int64_t)p->nrandom);
			check(op->text < p->ntexts &&
			      p->texts[op->text].len > 0);
		} else if (op->kind == OP_WRITEPATTERN) {
			check(op->text < p->ntexts &&
			      p->texts[op->text].len > 0);
		}
	}
	check(depth == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void *ctx = talloc_new(NULL);
	char *err = NULL;
	struct program *p;

	p = program_compile_buffer(ctx, "fuzz", (const char *)data, size, &err);
	if (p != NULL) {
		check(err == NULL);
		check_program(p);
	} else {
		check(err != NULL && strncmp(err, "fuzz:", 5) == 0);
	}
	talloc_free(ctx);
	return 0;
}
