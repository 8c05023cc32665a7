/*
 * client.c - the replay engine of one client: control flow (LOOP, REPEAT,
 * SLEEP, SETSP/WAITSP), value resolution, pacing, dispatch to the backend,
 * timing and recording, and the status check with its consequences.
 * It never sleeps: a line that must wait (a timestamp, the -R pace, SLEEP,
 * WAITSP) returns STEP_WAIT, so that the worker's loop can run the other
 * clients of its process meanwhile and end every wait on the stop.
 * The recording into the stats slot is record.h's (static, compiled
 * here); creating a client and its cleanup are client_setup.c's, the
 * judgement of a status that did not match is client_fault.c's.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <talloc.h>

#include "util/atomic.h"
#include "engine/client.h"
#include "loadfile/client_tree.h"
#include "loadfile/ntstatus.h"
#include "util/timer.h"
#include "util/util.h"
#include "vfs/vfs.h"

#include "client_private.h"
#include "pace.h"
#include "record.h"

/* The program's directory numbers are the vfs hint's (struct vfs_hint). */
_Static_assert(PATH_DIR_ROOT == VFS_DIR_ROOT && PATH_DIR_NONE == VFS_DIR_NONE,
	       "directory numbers");

/* Kind masks (measured kinds are < 64: program.h). */
#define CLIENT_KIND_BIT(k)	(1ull << (k))
#define CLIENT_KIND_IN(k, mask)	((CLIENT_KIND_BIT(k) & (mask)) != 0)
/* the writes of the SMB and block dialects: the engine hands them data */
#define CLIENT_WRITE_KINDS (CLIENT_KIND_BIT(OP_WRITEX) | \
	CLIENT_KIND_BIT(OP_WRITE5) | CLIENT_KIND_BIT(OP_BWRITE))
/* they and the reads: -T truncates them */
#define CLIENT_IO_KINDS	(CLIENT_WRITE_KINDS | CLIENT_KIND_BIT(OP_READX) | \
			 CLIENT_KIND_BIT(OP_READ5) | CLIENT_KIND_BIT(OP_BREAD))

static uint64_t rng_next(struct client *c)
{
	/* splitmix64: small, fast and good enough for offsets and names */
	uint64_t z = (c->rng += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Append n bytes to a growing scratch string. */
static int scratch_put(struct client *c, int k, size_t *used, const char *s,
		       size_t n)
{
	if (*used + n + 1 > c->scratch_len[k]) {
		size_t want = (*used + n + 1) * 2;
		char *p = talloc_realloc(c, c->scratch[k], char, want);

		if (p == NULL)
			return -1;
		c->scratch[k] = p;
		c->scratch_len[k] = want;
	}
	memcpy(c->scratch[k] + *used, s, n);
	*used += n;
	c->scratch[k][*used] = '\0';
	return 0;
}

/*
 * Path p as this client sees it: the program's text when it has no
 * substitution point, else the text with "client1" replaced, in scratch[k]
 * (which client_new made long enough for any path of the program).
 */
HOT_PATH
static const char *resolve_path(struct client *c, int k, const struct path *p)
{
	char *s = c->scratch[k];
	size_t pos, rest;

	if (p->client_pos < 0)
		return p->text;
	pos = (size_t)p->client_pos;
	rest = p->len - pos - p->client_len;
	/* the usual "clients/client1/...": the head is often there already
	 * (a fixed-size compare is one load) */
	if (pos != PATH_CLIENTS_POS || !c->scratch_kept[k] ||
	    memcmp(s, p->text, PATH_CLIENTS_POS) != 0) {
		memcpy(s, p->text, pos);
		memcpy(s + pos, c->cname, c->cname_len);
		c->scratch_kept[k] = pos == PATH_CLIENTS_POS;
	}
	memcpy(s + pos + c->cname_len, p->text + pos + p->client_len,
	       rest + 1);
	return s;
}

/* Resolve a path with $i substitutions into scratch[k]. */
static const char *resolve_random_path(struct client *c, int k,
				       const struct path *p)
{
	size_t used = 0, i = 0;

	c->scratch_kept[k] = false;
	while (i < p->len) {
		if ((int64_t)i == p->client_pos) {
			if (scratch_put(c, k, &used, c->cname, c->cname_len) != 0)
				return NULL;
			i += p->client_len;
			continue;
		}
		if (p->text[i] == '$' && i + 1 < p->len &&
		    p->text[i + 1] >= '0' && p->text[i + 1] <= '9') {
			unsigned idx = 0;
			const char *r;

			i++;
			while (i < p->len && p->text[i] >= '0' &&
			       p->text[i] <= '9')
				idx = idx * 10 + (unsigned)(p->text[i++] - '0');
			r = idx < c->prog->nrandom && c->randstr[idx] ?
				    c->randstr[idx] : "";
			if (scratch_put(c, k, &used, r, strlen(r)) != 0)
				return NULL;
			continue;
		}
		if (scratch_put(c, k, &used, &p->text[i], 1) != 0)
			return NULL;
		i++;
	}
	if (used == 0 && scratch_put(c, k, &used, "", 0) != 0)
		return NULL;
	return c->scratch[k];
}

/* A control command's argument i: the compiler allows plain numbers only. */
static int64_t control_value(const struct client *c, const struct op *op,
			     unsigned i)
{
	return program_arg_v(c->prog, op, i);
}

/*
 * A measured op's argument that is not a small constant (see op_arg).  A
 * bare +y is relative to the same argument of this client's previous op
 * of the same kind.
 */
static int64_t resolve_value(struct client *c, enum op_kind k,
			     const struct value *v, unsigned i)
{
	int64_t x;

	switch (v->kind) {
	case VAL_RANDOM:
		x = (int64_t)(rng_next(c) >> 1);
		for (unsigned m = 0; m < v->nmods; m++) {
			const struct value_mod *mod = &c->prog->mods[v->mods + m];
			int64_t y = mod->y;

			switch (mod->op) {
			case '/':
				x -= x % y;
				break;
			case '%':
				x %= y;
				break;
			default: /* two's complement, never undefined */
				x = (int64_t)((uint64_t)x + (uint64_t)y);
				break;
			}
		}
		break;
	case VAL_RELATIVE:
		x = c->last_arg[k][i] + v->v;
		break;
	default:
		x = v->v;
		break;
	}
	return x;
}

static void random_string(struct client *c, const struct op *op)
{
	int64_t idx = control_value(c, op, 0);
	const char *pat = c->prog->texts[op->text].p;
	size_t n = c->prog->texts[op->text].len, out = 0;
	char *s = talloc_array(c, char, n + 1);

	if (s == NULL || idx < 0 || (uint64_t)idx >= c->prog->nrandom) {
		talloc_free(s);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (pat[i] == '[') {
			size_t j = i + 1;

			while (j < n && pat[j] != ']')
				j++;
			if (j > i + 1)
				s[out++] = pat[i + 1 + rng_next(c) % (j - i - 1)];
			i = j;
			continue;
		}
		s[out++] = pat[i];
	}
	s[out] = '\0';
	talloc_free(c->randstr[idx]);
	c->randstr[idx] = s;
}

static const char *client_file(const struct client *c)
{
	return c->prog->filename;
}

/* The first path an op names, as this client sees it (for messages). */
static const char *op_path_text(struct client *c, const struct op *op,
				const struct op_call *call)
{
	if (call->path[0] != NULL)
		return call->path[0];
	if (op->handle >= 0 && c->handles[op->handle].open_op != 0) {
		const struct op *o =
			&c->prog->ops[c->handles[op->handle].open_op - 1];
		const struct path *p = program_path(c->prog, o, 0);

		if (p != NULL)
			return p->has_random ? p->text : resolve_path(c, 0, p);
	}
	return NULL;
}

static void report_fatal(struct client *c, const struct op *op,
			 const struct op_call *call, uint32_t status)
{
	char eb[11], ab[11], ok[11];
	const char *path = op_path_text(c, op, call);
	char *story = NULL;

	if (status == NT_STATUS_INVALID_HANDLE)
		story = client_handle_story(c, op);
	fprintf(stderr,
		"dbench: client %u, %s:%u: %s%s%s%s: expected %s, got %s%s%s%s%s%s\n",
		c->id, client_file(c), op->line, op_info[op->kind].name,
		path ? " \"" : "", path ? path : "", path ? "\"" : "",
		op->check == STATUS_SUCCESS ? op_status_str(op->kind, 0, ok) :
		op->check == STATUS_FAILURE ? "a failure" :
		op_status_str(op->kind, op->status, eb),
		op_status_str(op->kind, status, ab),
		call->err && status != NT_STATUS_INVALID_HANDLE ? ": " : "",
		call->err && status != NT_STATUS_INVALID_HANDLE ?
			strerror(call->err) : "",
		story ? story : "", call->msg ? ": " : "",
		call->msg ? call->msg : "");
	talloc_free(story);
}

/*
 * Follow the parent's phase: entering warmup or execute starts this
 * client's counters afresh.  Called before every op is timed, so an op
 * that waited across the switch counts in the phase it ran in.
 */
static void sync_phase(struct client *c)
{
	uint32_t phase = LOAD(c->hdr->phase);

	if (phase == c->seen_phase)
		return;
	c->seen_phase = phase;
	if (phase == PHASE_WARMUP || phase == PHASE_EXECUTE) {
		/* the staged latencies are the old phase's: dropped with it */
		c->nhstage = 0;
		stats_slot_reset(c->region, c->slot_index, phase);
	}
}

/* Tell the caller to come back at `when` (or on the stop). */
static enum client_step_result wait_until(struct client *c, uint64_t when)
{
	c->wake_ns = when;
	return STEP_WAIT;
}

/* A fatal mismatch (already reported): count it and stop the client. */
static enum client_step_result fail_client(struct client *c,
					   const struct op *op)
{
	STORE(c->slot->mm[op->kind].fatal, c->slot->mm[op->kind].fatal + 1);
	c->failed = true;
	return STEP_FAILED;
}

/* The same, said with the backend's message. */
static enum client_step_result fail_said(struct client *c, const struct op *op,
					 const struct op_call *call)
{
	fprintf(stderr, "dbench: client %u, %s:%u: %s: %s\n", c->id,
		client_file(c), op->line, op_info[op->kind].name,
		call->msg != NULL ? call->msg :
		call->err != 0 ? strerror(call->err) : "failed");
	return fail_client(c, op);
}

/*
 * The op's arguments into call->arg, and into last_arg for a later +y
 * when the program has one.  All three at once when all are small
 * constants (nearly every op): an unused one is 0 (struct op), which is
 * what call->arg holds for it, and no later +y reads its last_arg entry.
 */
static inline void resolve_args(struct client *c, const struct op *op,
				const struct op_info *info,
				struct op_call *call)
{
	_Static_assert(PROGRAM_MAX_ARGS == 3, "three arguments");
	op_arg a0 = op->arg[0], a1 = op->arg[1], a2 = op->arg[2];

	if (((a0 | a1 | a2) & OP_ARG_REF) == 0) {
		call->arg[0] = (int64_t)a0;
		call->arg[1] = (int64_t)a1;
		call->arg[2] = (int64_t)a2;
		if (c->relative) {
			int64_t *last = c->last_arg[op->kind];

			last[0] = (int64_t)a0;
			last[1] = (int64_t)a1;
			last[2] = (int64_t)a2;
		}
		return;
	}
	for (unsigned i = 0; i < info->nargs; i++) {
		op_arg a = op->arg[i];

		call->arg[i] = (a & OP_ARG_REF) ?
			resolve_value(c, op->kind,
				      &c->prog->values[a & ~OP_ARG_REF], i) :
			(int64_t)a;
		if (c->relative)
			c->last_arg[op->kind][i] = call->arg[i];
	}
}

/* What became of the handle an NTCreateX or a Close used, for the
 * messages about a later op on it. */
static inline void note_handle(struct client *c, const struct op *op,
			       const struct op_call *call, uint32_t status)
{
	if (op->kind == OP_NTCREATEX && op->handle >= 0) {
		struct handle_info *h = &c->handles[op->handle];

		/* as on an SMB server, a failed open leaves an open handle
		 * of the same number alone */
		if (status == NT_STATUS_OK || !h->open) {
			h->open_op = (uint32_t)(op - c->prog->ops) + 1;
			h->open_status = status;
			h->open_err = call->err;
			h->open = status == NT_STATUS_OK;
		}
	} else if (op->kind == OP_CLOSE && op->handle >= 0 &&
		   status == NT_STATUS_OK) {
		c->handles[op->handle].open = false;
		c->handles[op->handle].close_op =
			(uint32_t)(op - c->prog->ops) + 1;
	}
}

/* A measured op's paths into call->path (and the hint the backend may
 * use).  Returns 0, or -1 after a message (out of memory). */
static inline __attribute__((always_inline)) int
resolve_paths(struct client *c, const struct op *op, struct op_call *call)
{
	for (unsigned i = 0; i < 2; i++) {
		const struct path *p = program_path(c->prog, op, i);

		if (p == NULL)
			continue;
		call->path[i] = p->has_random ?
			resolve_random_path(c, (int)i, p) :
			resolve_path(c, (int)i, p);
		if (call->path[i] == NULL) {
			fprintf(stderr, "dbench: client %u: out of memory\n",
				c->id);
			return -1;
		}
		c->hint.path[i] = call->path[i];
		c->hint.dir[i] = p->dir;
		c->hint.len[i] = p->has_random ? 0 :
				 p->client_pos < 0 ? p->len :
				 p->len - p->client_len + (uint32_t)c->cname_len;
	}
	return 0;
}

/*
 * Prepare: everything the backend is called with, in *call: the paths,
 * the arguments (reads and writes capped at --trunc-io), the data a
 * write carries.  Returns 0, or -1 after a message (the client fails).
 */
static inline __attribute__((always_inline)) int
prepare_call(struct client *c, const struct op *op, struct op_call *call)
{
	if (resolve_paths(c, op, call) != 0)
		return -1;
	resolve_args(c, op, &op_info[op->kind], call);
	if (CLIENT_KIND_IN(op->kind, CLIENT_IO_KINDS)) {
		if (c->opts->trunc_io > 0 && call->arg[1] > c->opts->trunc_io) {
			call->arg[1] = c->opts->trunc_io;
			if (call->arg[2] > call->arg[1])
				call->arg[2] = call->arg[1];
		}
		if (CLIENT_KIND_IN(op->kind, CLIENT_WRITE_KINDS)) {
			call->data = client_write_data(c,
						       (size_t)call->arg[1]);
			if (call->data == NULL) {
				fprintf(stderr, "dbench: client %u, %s:%u: "
					"WriteX: cannot allocate %lld bytes\n",
					c->id, client_file(c), op->line,
					(long long)call->arg[1]);
				return -1;
			}
		}
	}
	/* the SCSI dialect's writes: blocks of the pattern, up to 4 KiB each */
	if ((op->kind == OP_WRITE10 || op->kind == OP_WRITE16) &&
	    call->arg[1] >= 0 && call->arg[1] <= OP_SCSI_DATA_MAX)
		call->data = client_write_data(c, (size_t)call->arg[1] *
						  OP_SCSI_DATA_BLOCK);
	return 0;
}

/*
 * Dispatch: the backend's call, timed and recorded (latency, bytes, the
 * pace), and what became of the handle.  Returns the op's status.
 */
static inline __attribute__((always_inline)) uint32_t
dispatch_call(struct client *c, const struct op *op, struct op_call *call)
{
	uint64_t rate, t0, lat;
	uint32_t status;

	/* (client_step() followed the phase just before: an op that had
	 * to wait is run by a later call, which follows it again) */
	rate = timer_ns_per_tick;
	t0 = timer_read(rate);
	status = c->be_ops[op->kind](c->be_state, call);
	lat = timer_ns_at(t0, timer_read(rate), rate);
	c->hint.path[0] = c->hint.path[1] = NULL;
	record(c, op->kind, lat, call->bytes);
	if (c->paced)
		pace_record(c, op->kind, lat);
	c->paced_bytes += call->bytes;
	note_handle(c, op, call, status);
	return status;
}

/*
 * Check: the status (and FIND_FIRST's count) against what the loadfile
 * expects: a mismatch counted, or fatal (said, the client fails).
 */
static inline __attribute__((always_inline)) enum client_step_result
check_call(struct client *c, const struct op *op, const struct op_call *call,
	   uint32_t status)
{
	/* not carried out at all (program.h), or a failure of a backend
	 * without statuses: fatal, said in the backend's words */
	if (__builtin_expect(status == OP_STATUS_NONE, 0) ||
	    (c->no_status && status != NT_STATUS_OK))
		return fail_said(c, op, call);
	if (c->no_status)
		return STEP_OK;
	/* (the usual answers need no look-up: a success that was wanted,
	 * an exact status that came back) */
	if (!(status == NT_STATUS_OK && op->check == STATUS_SUCCESS) &&
	    !(op->check == STATUS_EXACT && status == op->status) &&
	    !ntstatus_matches(op->check, op->status, status)) {
		if (client_mismatch_is_fatal(c, op, status) ||
		    client_fault_is_fatal(c, call->err)) {
			report_fatal(c, op, call, status);
			return fail_client(c, op);
		}
		record_mismatch(c, op, status, call->err, -1);
	} else if (op->kind == OP_FIND && status == NT_STATUS_OK &&
		   call->result != call->arg[2]) {
		/* the right status, the wrong number of entries */
		if (c->opts->mismatch == MISMATCH_STRICT) {
			fprintf(stderr, "dbench: client %u, %s:%u: FIND_FIRST "
				"\"%s\": expected %lld entries, found %lld\n",
				c->id, client_file(c), op->line, call->path[0],
				(long long)call->arg[2],
				(long long)call->result);
			return fail_client(c, op);
		}
		record_mismatch(c, op, status, 0, call->result);
	}
	return STEP_OK;
}

/* A measured op (every op but the control commands): prepare, dispatch,
 * check; or wait for the pace first. */
HOT_PATH
static enum client_step_result run_measured(struct client *c,
					    const struct op *op)
{
	struct op_call call = { .op = op, .prog = c->prog };

	/* before anything is resolved: the retry must resolve the same */
	if (c->paced && pace_wait(c, op))
		return STEP_WAIT;
	if (prepare_call(c, op, &call) != 0)
		return STEP_FAILED;
	return check_call(c, op, &call, dispatch_call(c, op, &call));
}

/*
 * Whether WAITSP may go on: client `who` (a client id) has set its SETSP
 * to sp or more, or has ended, or cannot be waited for (not of this
 * host, or this client itself).
 */
static bool sp_reached(const struct client *c, int64_t who, int64_t sp)
{
	const struct stats_region *r = c->region;
	int64_t slot = who - (int64_t)(c->id - c->slot_index);
	const struct client_live *s;
	uint32_t st;

	if (slot < 0 || (uint64_t)slot >= r->nclients || (unsigned)who == c->id)
		return true;
	s = &r->live[slot];
	st = LOAD(s->state);
	return LOAD(s->sp) >= sp || st == CLIENT_DONE ||
	       st == CLIENT_FAILED || st == CLIENT_CLEANUP;
}

/* SLEEP at pc: start it, or see whether it is over. */
static bool slept(struct client *c, const struct op *op)
{
	uint64_t now = now_ns();
	int64_t us = control_value(c, op, 0);

	if (c->sleep_until == 0) {
		if (us <= 0)
			return true;
		c->sleep_until = (uint64_t)us > (UINT64_MAX - now) / 1000u ?
					 UINT64_MAX : now + (uint64_t)us * 1000u;
	}
	if (now < c->sleep_until)
		return false;
	c->sleep_until = 0;
	return true;
}

/* Move past the current command, unless a REPEAT still owes runs of it. */
static void advance(struct client *c)
{
	if (c->repeat_left > 1) {
		c->repeat_left--;
	} else {
		c->repeat_left = 0;
		c->pc++;
	}
}

/* The program has run to its end: record the pass in the client's slot s
 * and live entry l, and start the next. */
static inline enum client_step_result end_pass(struct client *c,
					struct client_slot *s,
					struct client_live *l)
{
	uint64_t now = now_ns();
	uint32_t n = s->npass_records;

	if (n < STATS_MAX_PASS_RECORDS) {
		s->pass[n].ms = (uint32_t)((now - c->pass_start_ns) /
					   1000000u);
		s->pass[n].at_ms = (uint32_t)((now - c->start_ns) /
					      1000000u);
		STORE(s->npass_records, n + 1);
	}
	STORE(l->passes, l->passes + 1);
	c->pc = 0;
	c->depth = 0;
	c->repeat_left = 0;
	c->pass_start_ns = now;
	hist_flush(c);
	return STEP_PASS_DONE;
}

/* LOOP at pc: into its body, or past its ENDLOOP when it runs 0 times. */
static inline void start_loop(struct client *c, const struct op *op)
{
	int64_t n = control_value(c, op, 0);

	if (n <= 0) {
		c->pc = op->jump + 1;
	} else {
		c->loops[c->depth].start = c->pc + 1;
		c->loops[c->depth].left = n;
		c->depth++;
		c->pc++;
	}
}

/* REPEAT at pc: the next command owes its runs (none: skipped). */
static inline void start_repeat(struct client *c, const struct program *prog,
				const struct op *op)
{
	int64_t n = control_value(c, op, 0);
	const struct op *next = op + 1;

	c->pc++;
	/* REPEAT applies to the next command; before a LOOP, ENDLOOP or
	 * REPEAT it means nothing and is ignored */
	if (c->pc >= prog->nops || next->kind == OP_LOOP ||
	    next->kind == OP_ENDLOOP || next->kind == OP_REPEAT)
		return;
	if (n <= 0)
		c->pc++;	/* run it zero times */
	else
		c->repeat_left = n;
}

/* ENDLOOP at pc: back to the start of the body, or out of the loop. */
static inline void end_loop(struct client *c)
{
	if (c->depth > 0 && --c->loops[c->depth - 1].left > 0) {
		c->pc = c->loops[c->depth - 1].start;
	} else {
		if (c->depth > 0)
			c->depth--;
		c->pc++;
	}
}

/* WRITEPATTERN: the data the following writes carry. */
static inline void set_pattern(struct client *c, const struct program *prog,
			       const struct op *op)
{
	c->pattern = prog->texts[op->text].p;
	c->pattern_len = prog->texts[op->text].len;
	c->wbuf_len = 0;	/* refill with the new pattern */
}

HOT_PATH
enum client_step_result client_step(struct client *c)
{
	const struct program *prog = c->prog;
	struct client_slot *s = c->slot;
	struct client_live *l = c->live;
	const struct op *op;
	enum client_step_result res = STEP_OK;

	if (c->failed)
		return STEP_FAILED;
	/* (every way out but STEP_OK and STEP_WAIT flushes the histograms:
	 * the client stops there, or ends a pass) */
	if (LOAD(c->hdr->stop)) {
		hist_flush(c);
		return STEP_STOPPED;
	}
	sync_phase(c);

	if (c->pc >= prog->nops)
		return end_pass(c, s, l);

	op = &prog->ops[c->pc];
	STORE(l->cur_op, c->pc);

	switch (op->kind) {
	case OP_LOOP:
		start_loop(c, op);
		break;
	case OP_ENDLOOP:
		end_loop(c);
		break;
	case OP_REPEAT:
		start_repeat(c, prog, op);
		break;
	case OP_SLEEP:
		if (!slept(c, op))
			return wait_until(c, c->sleep_until);
		advance(c);
		break;
	case OP_SETSP:
		STORE(l->sp, control_value(c, op, 0));
		advance(c);
		break;
	case OP_WAITSP:
		/* the other client may share this process: ask again soon
		 * rather than block it */
		if (!sp_reached(c, control_value(c, op, 0),
				control_value(c, op, 1)))
			return wait_until(c, now_ns() + CLIENT_SP_POLL_NS);
		advance(c);
		break;
	case OP_WRITEPATTERN:
		set_pattern(c, prog, op);
		advance(c);
		break;
	case OP_RANDOMSTRING:
		random_string(c, op);
		advance(c);
		break;
	default:
		res = run_measured(c, op);
		if (res == STEP_WAIT)
			return res;
		if (res == STEP_FAILED)
			hist_flush(c);	/* (c->failed or not: it stops) */
		advance(c);
		break;
	}
	STORE(l->lines, l->lines + 1);
	return res;
}
