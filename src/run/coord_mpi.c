/*
 * coord_mpi.c - the coordinator of a run over MPI (coord_mpi.h, coord.h):
 * every rank samples its own clients; once a second (COORD_TICK) and at
 * the stop (COORD_FINAL) the samples travel to rank 0 in one fixed-size
 * message, summed on the way by a non-blocking tree reduction
 * (MPI_Ireduce with our own operator); rank 0 applies the time rules to
 * the sum and broadcasts phase and stop (MPI_Ibcast).  Poll steps and the
 * cleanup phase stay local: a stop a rank sees reaches rank 0 at the next
 * tick, within a second.
 *
 * No wait is unbounded: every request is polled with a deadline.  When a
 * tick does not complete in TICK_TIMEOUT_NS, rank 0 pings every rank
 * point-to-point; the ranks that do not answer are named, the others are
 * told to abort, and the coordination is broken (the job then ends with
 * MPI_Abort).  A rank that hears nothing from rank 0 (no tick, no ping)
 * for as long gives up by itself.  At the end the ranks' results (with
 * the facts of their hosts, gathered at the start of the run) merge up a
 * tree to rank 0 (coord_mpi_merge.c).
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <talloc.h>
#include <unistd.h>

#include "coord_mpi.h"
#include "coord_mpi_private.h"
#include "stats/histogram.h"
#include "pool.h"
#include "util/util.h"

#define TICK_TIMEOUT_NS (5 * NS_PER_SEC)
/* the start waits for every rank to prepare its clients, the gather for
 * every rank to clean up: both may take long on a slow filesystem */
/* after a signal: the launcher kills what has not ended about a second
 * after its SIGTERM, so the last exchange must be quick */
/* the tick's histogram: 16 of histogram.h's buckets in one (8 per
 * octave), enough for the series' per-second p99 */
#define COARSE_SHIFT 4
#define COARSE_N ((HIST_BUCKETS + (1u << COARSE_SHIFT) - 1) >> COARSE_SHIFT)

/* The sample's fields that add up, and those that take the maximum. */
enum { S_CLIENTS, S_RUNNING, S_STARTED, S_FAILED, S_BUSY, S_ALIVE,
       S_LINES, S_BYTES, S_TICK_OPS, S_TICK_BYTES, S_HAS_TICK, S_N };
enum { M_SIGNAL, M_MAX_NS, M_END_NS, M_TICK_MAX, M_N };

/* One rank's sample, or the sum of several: the tick message. */
struct tick_msg {
	uint64_t sum[S_N];
	uint64_t max[M_N];
	uint64_t hist[COARSE_N];
};

/* The MPI operator: add the sums and the histogram, take the maxima. */
static void tick_reduce(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	const struct tick_msg *a = in;
	struct tick_msg *b = inout;

	(void)dt;
	for (int n = 0; n < *len; n++, a++, b++) {
		for (unsigned i = 0; i < S_N; i++)
			b->sum[i] += a->sum[i];
		for (unsigned i = 0; i < M_N; i++)
			if (a->max[i] > b->max[i])
				b->max[i] = a->max[i];
		for (unsigned i = 0; i < COARSE_N; i++)
			b->hist[i] += a->hist[i];
	}
}

static void pack(const struct coord_sample *s, struct tick_msg *t)
{
	memset(t, 0, sizeof(*t));
	t->sum[S_CLIENTS] = s->clients;
	t->sum[S_RUNNING] = s->running;
	t->sum[S_STARTED] = s->started;
	t->sum[S_FAILED] = s->failed;
	t->sum[S_BUSY] = s->busy;
	t->sum[S_ALIVE] = s->alive;
	t->sum[S_LINES] = s->lines;
	t->sum[S_BYTES] = s->bytes;
	t->max[M_SIGNAL] = (uint64_t)(s->signal > 0 ? s->signal : 0);
	t->max[M_MAX_NS] = s->max_ns;
	t->max[M_END_NS] = s->end_ns;
	if (s->tick == NULL)
		return;
	t->sum[S_HAS_TICK] = 1;
	t->sum[S_TICK_OPS] = s->tick->ops;
	t->sum[S_TICK_BYTES] = s->tick->bytes;
	t->max[M_TICK_MAX] = s->tick->max_ns;
	for (unsigned i = s->tick->hist.lo; i < s->tick->hist.end; i++)
		t->hist[i >> COARSE_SHIFT] += s->tick->hist.count[i];
}

/* The job's sample from the sum; its second goes to m->gtick. */
static void unpack(struct mpi_coord *m, const struct tick_msg *t,
		   struct coord_sample *g)
{
	memset(g, 0, sizeof(*g));
	g->clients = (uint32_t)t->sum[S_CLIENTS];
	g->running = (uint32_t)t->sum[S_RUNNING];
	g->started = (uint32_t)t->sum[S_STARTED];
	g->failed = (uint32_t)t->sum[S_FAILED];
	g->busy = (uint32_t)t->sum[S_BUSY];
	g->alive = (uint32_t)t->sum[S_ALIVE];
	g->lines = t->sum[S_LINES];
	g->bytes = t->sum[S_BYTES];
	g->signal = (int32_t)t->max[M_SIGNAL];
	g->max_ns = t->max[M_MAX_NS];
	g->end_ns = t->max[M_END_NS];
	if (t->sum[S_HAS_TICK] == 0 || m->gtick == NULL)
		return;
	memset(m->gtick, 0, sizeof(*m->gtick));
	m->gtick->ops = t->sum[S_TICK_OPS];
	m->gtick->bytes = t->sum[S_TICK_BYTES];
	m->gtick->max_ns = t->max[M_TICK_MAX];
	/* each coarse bucket's count lands in the middle of its range */
	for (unsigned i = 0; i < COARSE_N; i++) {
		unsigned b = (i << COARSE_SHIFT) + (1u << (COARSE_SHIFT - 1));

		if (t->hist[i] == 0)
			continue;
		if (b >= HIST_BUCKETS)
			b = HIST_BUCKETS - 1;
		if (m->gtick->hist.end == 0)
			m->gtick->hist.lo = b;
		m->gtick->hist.end = b + 1;
		m->gtick->hist.count[b] += t->hist[i];
	}
	g->tick = m->gtick;
}

static int mpi_noted(struct coord *c)
{
	struct mpi_coord *m = c->priv;
	MPI_Request req;

	MPI_Ibarrier(m->comm, &req);
	return coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the preparation");
}

static int mpi_start(struct coord *c, bool local_ok, bool *go)
{
	struct mpi_coord *m = c->priv;
	int in = local_ok ? 1 : 0, out = 0;
	MPI_Request req;

	*go = false;
	MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_LAND, m->comm, &req);
	if (coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the start") != 0)
		return -1;
	*go = out != 0;
	return 0;
}

/* Another rank than 0: the decision d as this rank's out. */
static void apply(const struct decision_msg *d,
		  const struct coord_sample *local, struct coord_out *out)
{
	memset(out, 0, sizeof(*out));
	out->global = *local;
	out->phase = out->line_phase = d->phase;
	out->stop = (enum coord_stop)d->stop;
	out->stop_ns = d->stop_ns;
}

/* A tick or the final step: reduce to rank 0, decide, broadcast. */
static int exchange(struct coord *c, enum coord_when when, uint64_t elapsed_ns,
		    const struct coord_sample *local, struct coord_out *out)
{
	struct mpi_coord *m = c->priv;
	struct tick_msg in, sum;
	struct decision_msg d = { 0 };
	MPI_Request req;
	uint64_t timeout = m->signalled ? SIGNAL_TIMEOUT_NS : TICK_TIMEOUT_NS;

	pack(local, &in);
	MPI_Ireduce(&in, &sum, 1, m->tick_type, m->tick_op, 0, m->comm, &req);
	if (coord_mpi_wait(m, &req, timeout, "a tick") != 0)
		return -1;
	if (m->rank == 0) {
		unpack(m, &sum, &out->global);
		coord_policy_step(&c->policy, when, elapsed_ns, &out->global,
				  out);
		d.phase = out->phase;
		d.stop = (uint32_t)out->stop;
		d.stop_ns = out->stop_ns;
	}
	MPI_Ibcast(&d, (int)sizeof(d), MPI_BYTE, 0, m->comm, &req);
	if (coord_mpi_wait(m, &req, timeout, "a tick") != 0)
		return -1;
	if (m->rank != 0)
		apply(&d, local, out);
	m->phase = d.phase;
	/* a rank that stopped on a signal does its final exchange while
	 * the others may be at a tick: the two pair up, and the interrupt
	 * that a tick brings is then the final decision (on every rank:
	 * the sum carries the signal) */
	m->decided = when == COORD_TICK && d.stop == COORD_INTERRUPTED;
	m->last = d;
	return 0;
}

/*
 * The cleanup's sample g: the busy clients of every rank (the line rank
 * 0 prints), and on rank 0 a worker still alive until every rank has
 * said its cleanup is over, or LONG_TIMEOUT_NS after its own was.
 */
static void cleanup_counts(struct coord *c, const struct coord_sample *local,
			   struct coord_sample *g)
{
	struct mpi_coord *m = c->priv;
	bool others = true;

	g->busy = coord_mpi_count(c, COORD_COUNT_BUSY, local->busy,
				  local->alive == 0, &others);
	if (m->rank != 0 || local->alive != 0 || others)
		return;
	if (m->cleanup_wait == 0)
		m->cleanup_wait = now_ns();
	if (now_ns() - m->cleanup_wait < LONG_TIMEOUT_NS) {
		g->alive = 1;
		return;
	}
	fprintf(stderr, "dbench-mpi: ranks still cleaning up after %llu s; "
		"not waiting longer\n",
		(unsigned long long)(LONG_TIMEOUT_NS / NS_PER_SEC));
	m->cleanup_wait = UINT64_MAX / 2;
}

static int mpi_step(struct coord *c, enum coord_when when, uint64_t elapsed_ns,
		    const struct coord_sample *local, struct coord_out *out)
{
	struct mpi_coord *m = c->priv;

	if (!m->broken && when == COORD_FINAL && m->decided) {
		apply(&m->last, local, out);
		out->print = false;
		return 0;
	}
	if (!m->broken && (when == COORD_TICK || when == COORD_FINAL))
		return exchange(c, when, elapsed_ns, local, out);
	if (!m->broken && when == COORD_POLL) {
		/* a local stop waits for the next tick, but a signal (the
		 * launcher's SIGTERM comes with a deadline) stops at once */
		apply(&(struct decision_msg){ .phase = m->phase }, local, out);
		if (local->signal != 0) {
			m->signalled = true;
			c->policy.stop = out->stop = COORD_INTERRUPTED;
		}
		return 0;
	}
	/* cleanup (each rank until its own workers are gone, rank 0 until
	 * every rank's are), or after the coordination broke: as on one
	 * host */
	out->global = *local;
	if (!m->broken && when == COORD_CLEANUP)
		cleanup_counts(c, local, &out->global);
	coord_policy_step(&c->policy, when, elapsed_ns, &out->global, out);
	out->print = out->print && c->prints && !m->broken;
	return 0;
}

static const struct coord_ops coord_mpi_ops = {
	.name = "mpi",
	.noted = mpi_noted,
	.start = mpi_start,
	.step = mpi_step,
	.gather = coord_mpi_gather,
	.count = coord_mpi_count,
	.serial = coord_mpi_serial,
};

static int free_mpi(struct mpi_coord *m)
{
	MPI_Op_free(&m->tick_op);
	MPI_Type_free(&m->tick_type);
	return 0;
}

struct coord *coord_mpi_new(void *mem_ctx, MPI_Comm comm)
{
	struct coord *c = talloc_zero(mem_ctx, struct coord);
	struct mpi_coord *m = c ? talloc_zero(c, struct mpi_coord) : NULL;
	char me[HOST_LEN] = "";

	if (m == NULL)
		goto nomem;
	c->ops = &coord_mpi_ops;
	c->priv = m;
	m->comm = comm;
	MPI_Comm_rank(comm, &m->rank);
	MPI_Comm_size(comm, &m->size);
	c->prints = m->rank == 0;
	c->host = (unsigned)m->rank;
	c->nhosts = (unsigned)m->size;
	m->hosts = talloc_zero_size(m, m->rank == 0 ?
				    (size_t)m->size * HOST_LEN : HOST_LEN);
	m->gtick = m->rank == 0 ? talloc_zero(m, struct tick_stats) : NULL;
	if (m->hosts == NULL || (m->rank == 0 && m->gtick == NULL))
		goto nomem;
	if (gethostname(me, sizeof(me) - 1) != 0)
		snprintf(me, sizeof(me), "rank%d", m->rank);
	/* only rank 0 needs them all (10,000 ranks: 640 KB there, not on
	 * every rank); the others learn rank 0's */
	MPI_Gather(me, HOST_LEN, MPI_CHAR, m->hosts, HOST_LEN, MPI_CHAR, 0,
		   comm);
	MPI_Bcast(m->hosts, HOST_LEN, MPI_CHAR, 0, comm);
	MPI_Type_contiguous((int)sizeof(struct tick_msg), MPI_BYTE,
			    &m->tick_type);
	MPI_Type_commit(&m->tick_type);
	MPI_Op_create(tick_reduce, 1, &m->tick_op);
	talloc_set_destructor(m, free_mpi);
	return c;
nomem:
	fprintf(stderr, "dbench-mpi: out of memory\n");
	talloc_free(c);
	return NULL;
}

void coord_mpi_setup(struct coord *c, const struct dbench_options *o,
		     unsigned clients_per_rank)
{
	struct mpi_coord *m = c->priv;

	c->opts = o;
	c->client_id_base = clients_total(clients_per_rank,
					  (unsigned)m->rank);
	if (coord_mpi_counts_init(m, clients_per_rank) != 0)
		fprintf(stderr, "dbench-mpi: out of memory (the progress "
			"lines count this rank's clients only)\n");
	coord_policy_init(&c->policy, o);
	m->phase = c->policy.phase;
	/* a run after another (--repeat, --curve) starts afresh; a broken
	 * coordination ended the series before this */
	m->decided = false;
	m->signalled = false;
	m->cleanup_wait = 0;
	m->prepared_wait = 0;
}

/* The options that define a run's workload (those dbench-compare calls
 * unlike runs by, with -t and --warmup): ranks must agree on them. */
enum { W_BACKEND, W_LOADFILE, W_CLIENTS, W_PER_PROCESS, W_TIMELIMIT,
       W_WARMUP, W_SYNC, W_SYNC_DIR, W_FSYNC, W_XATTR, W_RATE, W_TRUNC,
       W_FAKE_IO, W_ONE_BYTE, W_NO_RESOLVE, W_STAT_CHECK, W_N };
static const char *const workload_names[W_N] = {
	"--backend", "--loadfile", "the number of clients",
	"--clients-per-process", "--timelimit", "--warmup", "--sync",
	"--sync-dir", "--fsync", "--xattr", "--target-rate", "--trunc-io",
	"--fake-io", "--one-byte-write-fix", "--no-resolve", "--stat-check",
};
/* the most of one value the refusal shows */
#define WORKLOAD_TEXT_LEN 256

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* A loadfile as "NAME (SIZE bytes)", and its content into *key (its
 * name only when it cannot be read again). */
static char *loadfile_text(void *mem, const char *path, uint64_t *key)
{
	const char *base = strrchr(path, '/');
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t size = 0;
	char buf[8192];
	ssize_t n;

	base = base != NULL ? base + 1 : path;
	if (fd < 0) {
		*key = fnv1a(*key, path, strlen(path) + 1);
		return talloc_strdup(mem, path);
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		*key = fnv1a(*key, buf, (size_t)n);
		size += (uint64_t)n;
	}
	close(fd);
	*key = fnv1a(*key, &size, sizeof(size));
	return talloc_asprintf(mem, "%s (%llu bytes)", base,
			       (unsigned long long)size);
}

/* This rank's workload: text[k] shown, key[k] compared. */
static int workload_describe(void *mem, const struct dbench_options *o,
			     char **text, uint64_t *key)
{
	const bool flags[] = { o->sync_open, o->sync_dirs, o->fsync_writes,
			       o->xattr };

	memset(key, 0, W_N * sizeof(*key));
	text[W_BACKEND] = talloc_strdup(mem, o->backend);
	text[W_LOADFILE] = talloc_strdup(mem, "");
	for (unsigned i = 0; text[W_LOADFILE] && i < o->nloadfiles; i++) {
		char *t = loadfile_text(mem, o->loadfiles[i], &key[W_LOADFILE]);

		text[W_LOADFILE] = t ? talloc_asprintf_append(
			text[W_LOADFILE], "%s%s", i ? "," : "", t) : NULL;
	}
	text[W_CLIENTS] = talloc_asprintf(mem, "%u", o->nclients);
	text[W_PER_PROCESS] = talloc_asprintf(mem, "%u",
					      o->clients_per_process);
	text[W_TIMELIMIT] = talloc_asprintf(mem, "%d", o->timelimit);
	text[W_WARMUP] = o->warmup_auto ?
			 talloc_asprintf(mem, "auto (%u s within %g%%, at most "
					 "%d)", o->warmup_window,
					 o->warmup_bound_pct, o->warmup) :
			 talloc_asprintf(mem, "%d", o->warmup);
	for (unsigned k = 0; k < 4; k++)
		text[W_SYNC + k] = talloc_strdup(mem, flags[k] ? "on" : "off");
	text[W_RATE] = talloc_asprintf(mem, "%g", o->target_rate);
	text[W_TRUNC] = talloc_asprintf(mem, "%lld", (long long)o->trunc_io);
	text[W_FAKE_IO] = talloc_strdup(mem, o->fake_io ? "on" : "off");
	text[W_ONE_BYTE] = talloc_strdup(mem, o->one_byte_write_fix ?
					 "on" : "off");
	text[W_NO_RESOLVE] = talloc_strdup(mem, o->no_resolve ? "on" : "off");
	text[W_STAT_CHECK] = talloc_strdup(mem, o->stat_check ? "on" : "off");
	for (unsigned k = 0; k < W_N; k++) {
		if (text[k] == NULL)
			return -1;
		if (k != W_LOADFILE)
			key[k] = fnv1a(0, text[k], strlen(text[k]));
	}
	return 0;
}

/* The first option in which a rank differs from rank 0 (-1: none), that
 * rank in *r and how many more ranks differ in it in *others. */
static int first_difference(const uint64_t *all, int size, int *r,
			    int *others)
{
	for (int k = 0; k < W_N; k++) {
		*r = 0;
		*others = 0;
		for (int i = 1; i < size; i++) {
			if (all[(size_t)i * W_N + k] == all[k])
				continue;
			if (*r == 0)
				*r = i;
			else
				(*others)++;
		}
		if (*r != 0)
			return k;
	}
	return -1;
}

/* Rank 0: the refusal of option k, where rank r (and n others) differ. */
static void workload_refuse(const char *name, const char *mine, int r,
			    const char *theirs, int others)
{
	fprintf(stderr, "dbench-mpi: ranks differ in %s: rank 0 %s, rank %d "
		"%s", name, mine, r, theirs);
	if (others > 0)
		fprintf(stderr, " (and %d more rank%s)", others,
			others > 1 ? "s" : "");
	fprintf(stderr, "; every rank must run the same workload\n");
}

int coord_mpi_check_workload(struct coord *c, const struct dbench_options *o)
{
	struct mpi_coord *m = c->priv;
	void *tmp = talloc_new(NULL);
	char **text = tmp ? talloc_array(tmp, char *, W_N) : NULL;
	uint64_t mine[W_N];
	uint64_t *all = tmp ? talloc_array(tmp, uint64_t,
					   (size_t)m->size * W_N) : NULL;
	char theirs[WORKLOAD_TEXT_LEN] = "";
	int k, r = 0, others = 0;
	MPI_Request req;

	if (all == NULL || text == NULL ||
	    workload_describe(tmp, o, text, mine) != 0) {
		/* the others would wait here: end the job */
		fprintf(stderr, "dbench-mpi: out of memory\n");
		talloc_free(tmp);
		return coord_mpi_broken(m);
	}
	MPI_Iallgather(mine, W_N, MPI_UINT64_T, all, W_N, MPI_UINT64_T,
		       m->comm, &req);
	if (coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the workload check") != 0) {
		talloc_free(tmp);
		return -1;
	}
	/* every rank finds the same first difference */
	k = first_difference(all, m->size, &r, &others);
	if (k < 0) {
		talloc_free(tmp);
		return 0;
	}
	if (m->rank == r)
		snprintf(theirs, sizeof(theirs), "%s", text[k]);
	MPI_Ibcast(theirs, (int)sizeof(theirs), MPI_CHAR, r, m->comm, &req);
	if (coord_mpi_wait(m, &req, LONG_TIMEOUT_NS, "the workload check") != 0) {
		talloc_free(tmp);
		return -1;
	}
	theirs[sizeof(theirs) - 1] = '\0';
	if (m->rank == 0)
		workload_refuse(workload_names[k], text[k], r, theirs, others);
	talloc_free(tmp);
	return -1;
}

enum coord_mpi_end coord_mpi_end(const struct coord *c)
{
	const struct mpi_coord *m = c->priv;

	if (!m->broken)
		return COORD_MPI_FINALIZE;
	if (m->signalled)
		return COORD_MPI_EXIT;
	return m->told ? COORD_MPI_WAIT : COORD_MPI_ABORT;
}

size_t coord_mpi_tick_bytes(void)
{
	return sizeof(struct tick_msg);
}
