/*
 * pool.c - the worker processes of one host: fork them (each runs
 * --clients-per-process clients), hold them at the start gate until every
 * client is prepared, release them all at once by closing the gate pipe,
 * reap them, report and clean up after a worker that died, and pass
 * signals on.  Nothing is printed from a signal handler: the handlers
 * only set flags.  The run loop (runloop.c) drives it.  This is the
 * parent's side: a worker's own is worker.c, the watch over stalled
 * workers in the cleanup phase watchdog.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <talloc.h>
#include <unistd.h>

#include "util/atomic.h"
#include "engine/client.h"
#include "loadfile/client_tree.h"
#include "pool.h"
#include "progress.h"
#include "util/options.h"
#include "util/timer.h"
#include "util/util.h"
#include "worker.h"

#define POLL_NS (10 * 1000000ull)

/*
 * The k-th path outside the per-client trees op may create, or NULL
 * (under mem when it is made).  dbench 5.0's smb dialect: the
 * directories on the way to the client's tree (nbsmb5 makes them), or
 * what MKDIR or OPEN names when it is no client's.  client.txt's Mkdir
 * and NTCreateX and the NFSv3 dialect's MKDIR3: what they name when it
 * is no client's (not CREATE3's files: a later run may want them).
 */
static const char *creates_shared(void *mem, const struct program *prog,
				  const struct op *op, unsigned k)
{
	const struct path *p = op->path[0] != PATH_NONE ?
				       program_path(prog, op, 0) : NULL;

	if (op_kind_is_smb5(op->kind) && p != NULL && p->client_pos > 0) {
		/* the k-th '/' before the client's name ends the k-th */
		const char *from = p->text;
		size_t left = (size_t)p->client_pos;

		for (unsigned j = 0; left > 0; j++) {
			const char *slash = memchr(from, '/', left);

			if (slash == NULL)
				return NULL;
			if (j == k)
				return talloc_strndup(
					mem, p->text,
					(size_t)(slash - p->text));
			left -= (size_t)(slash + 1 - from);
			from = slash + 1;
		}
		return NULL;
	}
	if (op_kind_is_smb5(op->kind))
		return k == 0 && p != NULL && p->client_pos < 0 &&
				       (op->kind == OP_MKDIR5 ||
					op->kind == OP_OPEN5) ?
			       p->text : NULL;
	if (k > 0 || (op->kind != OP_MKDIR && op->kind != OP_NTCREATEX &&
		      op->kind != OP_MKDIR3))
		return NULL;
	if (p == NULL)
		return NULL;
	return p->client_pos < 0 ? p->text : NULL;
}

/* Add text to run->shared unless it is there; 0, or -1 out of memory. */
static int note_shared(struct run *run, const char *text)
{
	struct shared_path *sp;

	for (unsigned j = 0; j < run->nshared; j++)
		if (strcmp(run->shared[j].text, text) == 0)
			return 0;
	sp = talloc_realloc(run, run->shared, struct shared_path,
			    run->nshared + 1);
	if (sp == NULL)
		return -1;
	run->shared = sp;
	sp = &run->shared[run->nshared++];
	sp->text = talloc_strdup(run->shared, text);
	sp->existed = talloc_zero_array(run->shared, bool,
					run->opts->ndirectories);
	return sp->text == NULL || sp->existed == NULL ? -1 : 0;
}

/*
 * Remember which paths outside the per-client trees the loadfiles may
 * create, and whether each already existed (the backend looks), so that
 * the end of the run removes exactly what the run added.
 */
static int note_shared_paths(void *mem, struct run *run)
{
	const struct dbench_options *o = run->opts;
	const struct run_setup *su = run->su;
	const char **texts;
	bool *existed;
	void *tmp = talloc_new(mem);

	for (unsigned p = 0; tmp != NULL && p < su->nprograms; p++) {
		const struct program *prog = su->programs[p];

		for (uint32_t i = 0; i < prog->nops; i++) {
			const struct op *op = &prog->ops[i];
			const char *text;

			for (unsigned k = 0;
			     (text = creates_shared(tmp, prog, op, k)) != NULL;
			     k++)
				if (note_shared(run, text) != 0)
					return -1;
			talloc_free_children(tmp);
		}
	}
	if (tmp == NULL)
		return -1;
	talloc_free(tmp);
	if (run->nshared == 0)
		return 0;
	texts = talloc_array(mem, const char *, run->nshared);
	existed = talloc_array(mem, bool, run->nshared);
	if (texts == NULL || existed == NULL)
		return -1;
	for (unsigned j = 0; j < run->nshared; j++)
		texts[j] = run->shared[j].text;
	for (unsigned d = 0; d < o->ndirectories; d++) {
		if (su->backend->shared_note == NULL ||
		    su->backend->shared_note(mem, o, o->directories[d], texts,
					     run->nshared, existed) != 0)
			memset(existed, true, run->nshared * sizeof(bool));
		for (unsigned j = 0; j < run->nshared; j++)
			run->shared[j].existed[d] = existed[j];
	}
	talloc_free(texts);
	talloc_free(existed);
	return 0;
}

void pool_count(const struct run *run, struct coord_sample *s)
{
	const struct stats_region *r = &run->region;

	s->clients = r->nclients;
	s->failed = s->running = s->started = s->busy = 0;
	for (unsigned c = 0; c < r->nclients; c++) {
		uint32_t st = __atomic_load_n(&r->live[c].state,
					      __ATOMIC_ACQUIRE);

		if (st == CLIENT_FAILED)
			s->failed++;
		if (st == CLIENT_READY || st == CLIENT_RUNNING ||
		    st == CLIENT_PREPARING)
			s->running++;
		if (st == CLIENT_RUNNING || st == CLIENT_CLEANUP ||
		    st == CLIENT_DONE)
			s->started++;
		if (st != CLIENT_DONE && st != CLIENT_FAILED)
			s->busy++;
	}
	s->failed += run->failed;
	s->alive = run->alive;
	s->signal = pool_signal();
}

/* A worker has exited: note it, and report it if it died abnormally. */
static void worker_exited(void *mem, struct run *run, struct worker *w,
			  int status)
{
	w->reaped = true;
	w->status = status;
	run->alive--;
	if (w->cleaning) {
		pool_cleaner_exited(run, w, status);
		return;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	run->failed = true;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
		return;		/* a client failed and said why */
	if (w->stalled)		/* said when it was killed */
		goto dead;
	fprintf(stderr, "dbench: client %u (process %d) ",
		stats_client_id(&run->region, w->first), (int)w->pid);
	if (WIFSIGNALED(status))
		fprintf(stderr, "was killed by signal %d (%s)",
			WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		fprintf(stderr, "exited with status %d", WEXITSTATUS(status));
	pool_describe_position(stderr, run, w->first);
	fprintf(stderr, "\n");
dead:
	for (unsigned i = 0; i < w->n; i++)
		worker_set_state(&run->region.live[w->first + i],
				 CLIENT_FAILED);
	pool_cleanup_after(mem, run, w);
}

/*
 * Reap every worker that has exited (all of them when block is set).
 * One waitpid(-1) call when nothing happened, however many workers there
 * are.  Returns the number still alive.
 */
unsigned pool_reap(void *mem, struct run *run, bool block)
{
	while (run->alive > 0) {
		int status;
		pid_t pid = waitpid(-1, &status, block ? 0 : WNOHANG);

		if (pid < 0 && errno == EINTR && block)
			continue;
		if (pid <= 0)
			break;
		for (unsigned p = 0; p < run->nprocs; p++) {
			struct worker *w = &run->workers[p];

			if (w->pid == pid && !w->reaped) {
				worker_exited(mem, run, w, status);
				break;
			}
		}
	}
	return run->alive;
}

/* what the handlers replaced: restored after the run (a program that
 * runs several, --repeat and --curve, keeps its own between them) */
static struct sigaction saved_int, saved_term, saved_hup, saved_pipe;

static void install_handlers(void)
{
	struct sigaction sa, ign;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = pool_on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	/* one handler at a time: it keeps a little state */
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, &saved_int);
	sigaction(SIGTERM, &sa, &saved_term);
	sigaction(SIGHUP, &sa, &saved_hup);
	/* a reader that goes away (dbench | head) must not kill the parent
	 * before the clients have cleaned up: writes then just fail */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &saved_pipe);
}

static void restore_handlers(void)
{
	sigaction(SIGINT, &saved_int, NULL);
	sigaction(SIGTERM, &saved_term, NULL);
	sigaction(SIGHUP, &saved_hup, NULL);
	sigaction(SIGPIPE, &saved_pipe, NULL);
}

void pool_kill(struct run *run, int sig)
{
	for (unsigned p = 0; p < run->nprocs; p++)
		if (!run->workers[p].reaped && run->workers[p].pid > 0)
			kill(run->workers[p].pid, sig);
}

/*
 * The parent sleeps almost all the time but must wake on time to tick,
 * even with hundreds of CPU-bound workers: under a fair scheduler a
 * process among N runnable ones can wait a whole round (seconds with
 * 1024 clients).  Where allowed, give it a low real-time priority (not
 * inherited by children) or failing that a better nice value; without
 * privileges it keeps its priority and ticks may come late under load.
 */
static void raise_parent_priority(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) == 0)
		return;
	(void)setpriority(PRIO_PROCESS, 0, -10);
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/*
 * Fork every worker; they prepare and block on the gate.
 *
 * The loop is the critical path of the start, and on a paravirtualised
 * machine each page the parent writes between two forks costs a
 * copy-on-write fault with a TLB flush.  So everything the loop needs is
 * written before it (the workers' shares; stdio flushed once, nothing is
 * printed inside), and the pids go to pages shared with the children
 * (run->workers, util_shared_pages), which are never copied.
 */
static int start_workers(struct run *run, int gate[2])
{
	const struct dbench_options *o = run->opts;
	pid_t parent = getpid();

	for (unsigned p = 0; p < run->nprocs; p++) {
		struct worker *w = &run->workers[p];

		w->n = clients_of_proc(o, p, &w->first);
	}
	fflush(stdout);
	fflush(stderr);
#ifdef M_TRIM_THRESHOLD
	/*
	 * Merge the heap's free chunks now, once: a worker whose first
	 * large malloc merged them itself wrote to every page holding one
	 * (the per-client paths of the tree checks, freed), some 150 KB of
	 * copies a worker at 1,024 clients.
	 */
	malloc_trim(0);
#endif
	/*
	 * And allocate a worker's pool once here: a large request first
	 * sorts malloc's unsorted free chunks into its bins, writing into
	 * each chunk, and a worker that did it copied those pages (5 of its
	 * heap at 64 clients, 6 at 1,024).  Done here, they stay shared.
	 */
	talloc_free(worker_pool(&run->workers[0]));
	for (unsigned p = 0; p < run->nprocs; p++) {
		struct worker *w = &run->workers[p];
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "dbench: cannot start process %u of "
				"%u: %s\n", p + 1, run->nprocs,
				strerror(errno));
			run->alive = p;
			return -1;
		}
		if (pid == 0) {
			int rc;

			close(gate[1]);
			rc = worker_main(run, w, gate[0], parent);
			fflush(stdout);
			fflush(stderr);
			/* _exit() skips LeakSanitizer's check at exit
			 * (sanitized builds): run it here */
			util_leak_check_alone();
			_exit(rc);
		}
		w->pid = pid;
	}
	run->alive = run->nprocs;
	return 0;
}

/* Processes whose clients are all ready; *ready, *failed: clients. */
static unsigned count_prepared(const struct run *run, unsigned *ready,
			       unsigned *failed)
{
	unsigned procs_ready = 0;

	*ready = *failed = 0;
	for (unsigned p = 0; p < run->nprocs; p++) {
		const struct worker *w = &run->workers[p];
		unsigned n = 0;

		for (unsigned i = 0; i < w->n; i++) {
			uint32_t st = __atomic_load_n(
				&run->region.live[w->first + i].state,
				__ATOMIC_ACQUIRE);

			n += st == CLIENT_READY;
			*failed += st == CLIENT_FAILED;
		}
		*ready += n;
		procs_ready += n == w->n;
	}
	return procs_ready;
}

/* Wait for the clients to be prepared (false: the run must not start). */
static bool wait_prepared(void *mem, struct run *run, struct coord *c)
{
	uint64_t t0 = now_ns(), next = t0 + NS_PER_SEC;
	unsigned last = UINT32_MAX, total = run->nprocs * c->nhosts;
	unsigned polls = 0;

	for (;;) {
		unsigned ready, failed,
			procs_ready = count_prepared(run, &ready, &failed);
		bool done = ready == run->opts->nclients;
		bool stop = !done && (failed > 0 || pool_signal() ||
				      pool_reap(mem, run, false) < run->nprocs ||
				      run->failed);
		bool others = true;
		uint64_t now = now_ns();

		if (c->ops->count != NULL)
			procs_ready = c->ops->count(c, COORD_COUNT_PREPARED,
						    procs_ready, done || stop,
						    &others);
		if (procs_ready != last && (procs_ready == total ||
					    now >= next || last == UINT32_MAX)) {
			if (c->prints)
				progress_prepared(options_text_stream(run->opts),
						  run->opts, procs_ready, total,
						  secs(now - t0));
			last = procs_ready;
			next = now + NS_PER_SEC;
		}
		if (stop)
			return false;
		if (done && others)
			return true;
		/* a server that answers the check but not the clients */
		if (run->remote && ++polls % 10 == 0)
			pool_watch_stalled(run, now);
		sleep_ns(POLL_NS, NULL);
	}
}

/* ---- the pool's interface (pool.h) ----------------------------------- */

struct run *pool_new(void *mem, const struct run_setup *su,
		     unsigned client_id_base)
{
	const struct dbench_options *o = su->opts;
	struct run *run = talloc_zero(mem, struct run);

	if (run == NULL)
		goto nomem;
	run->su = su;
	run->opts = o;
	run->remote = (su->backend->flags & BACKEND_REMOTE) != 0;
	run->gate[0] = run->gate[1] = -1;
	run->nprocs = clients_procs(o);
	run->workers = util_shared_pages(run, sizeof(struct worker) *
					      run->nprocs);
	if (run->workers == NULL)
		goto nomem;
	if (stats_map(&run->region, o->nclients) != 0) {
		fprintf(stderr, "dbench: cannot map statistics for %u clients: "
			"%s\n", o->nclients, strerror(errno));
		talloc_free(run);
		return NULL;
	}
	run->region.client_id_base = client_id_base;
	if (pool_scheduled(su) && stats_map_response(&run->region) != 0) {
		fprintf(stderr, "dbench: cannot map response times for %u "
			"clients: %s\n", o->nclients, strerror(errno));
		stats_unmap(&run->region);
		talloc_free(run);
		return NULL;
	}
	/* the op timer, calibrated once here so that every worker shares it */
	timer_init();
	if (note_shared_paths(run, run) != 0) {
		stats_unmap(&run->region);
		goto nomem;
	}
	if (pipe2(run->gate, O_CLOEXEC) != 0) {
		fprintf(stderr, "dbench: start gate: %s\n", strerror(errno));
		stats_unmap(&run->region);
		talloc_free(run);
		return NULL;
	}
	pool_signals_reset();
	install_handlers();
	return run;
nomem:
	fprintf(stderr, "dbench: out of memory\n");
	talloc_free(run);
	return NULL;
}

static void close_gate_end(struct run *run, int end)
{
	if (run->gate[end] >= 0)
		close(run->gate[end]);
	run->gate[end] = -1;
}

void pool_free(struct run *run)
{
	restore_handlers();
	close_gate_end(run, 0);
	close_gate_end(run, 1);
	stats_unmap(&run->region);
	talloc_free(run);
}

bool pool_start(void *mem, struct run *run, struct coord *c)
{
	/* before forking: the fork loop is the critical path of the start,
	 * and must not wait behind the workers it has already made */
	bool ok;

	raise_parent_priority();
	run->preparing = true;
	ok = start_workers(run, run->gate) == 0 &&
	     wait_prepared(mem, run, c);
	run->preparing = false;
	/* the watch starts afresh after the gate */
	for (unsigned p = 0; p < run->nprocs; p++)
		run->workers[p].progress_ns = 0;
	if (!ok)
		return false;
	close_gate_end(run, 0);
	return true;
}

void pool_set_release(struct run *run, uint64_t release_ns)
{
	STORE(run->region.hdr->release_ns, release_ns);
}

void pool_open_gate(struct run *run)
{
	/* the ticks read the live array only, already mapped by the polls
	 * that waited for the clients to be ready */
	close_gate_end(run, 1);
}

void pool_abandon(void *mem, struct run *run)
{
	run->abandon = true;
	pool_kill(run, SIGKILL);
	pool_reap(mem, run, true);
}

void pool_abort(void *mem, struct run *run)
{
	unsigned polls = 0;

	/* release whoever is waiting into an immediate stop */
	util_stop_raise(&run->region.hdr->stop);
	close_gate_end(run, 1);
	close_gate_end(run, 0);
	/* a worker still connecting to a server that does not answer is
	 * ended by the stall watch, as in the cleanup phase */
	while (pool_reap(mem, run, false) > 0) {
		if (pool_signal_count() > 1) {
			pool_abandon(mem, run);
			return;
		}
		if (polls++ % 10 == 0)
			pool_watch_stalled(run, now_ns());
		sleep_ns(POLL_NS, NULL);
	}
	pool_remove_shared(run);
}

uint64_t pool_last_end(const struct run *run)
{
	uint64_t last = 0;

	for (unsigned c = 0; c < run->region.nclients; c++)
		if (LOAD(run->region.live[c].end_ns) > last)
			last = LOAD(run->region.live[c].end_ns);
	return last;
}

void pool_fail(struct run *run)
{
	run->failed = true;
}

