/*
 * pool_trees.c - the pool's work on trees and paths outside the workers'
 * own cleanup: the check of the client trees before the run, the record
 * of the trees kept, the removal of the paths the loadfiles make outside
 * the client trees, and the removal of a dead worker's trees by a process
 * of its own.  With a remote backend every such wait on the server is
 * bounded (a process of its own, killed at its bound), so that a server
 * that stops answering does not hold the parent.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <talloc.h>
#include <unistd.h>

#include "loadfile/client_tree.h"
#include "pool.h"
#include "util/options.h"
#include "util/util.h"

#define POLL_NS (10 * 1000000ull)
/* the bound of a remote backend's removal of the shared paths */
#define POOL_SHARED_REMOVE_MS 1000

static int pool_bounded(const struct run *run,
			void (*fn)(const struct run *, void *), void *arg,
			const char *what);

/* Have the backend remove the shared paths the run added, deepest (the
 * last noted) first. */
static void remove_shared_paths(const struct run *run)
{
	const struct dbench_options *o = run->opts;
	const char **todo = talloc_array(NULL, const char *,
					 run->nshared > 0 ? run->nshared : 1);

	if (todo == NULL)
		return;
	for (unsigned d = 0; d < o->ndirectories; d++) {
		size_t n = 0;

		for (unsigned j = run->nshared; j-- > 0;)
			if (!run->shared[j].existed[d])
				todo[n++] = run->shared[j].text;
		/* best effort: what cannot be removed stays */
		if (n > 0 && run->su->backend->shared_remove != NULL)
			(void)run->su->backend->shared_remove(
				todo, o, o->directories[d], todo, n);
	}
	talloc_free(todo);
}

/* Remove the trees of clients whose worker died before cleaning up; 0,
 * or 1 when one could not be (said on stderr). */
static int cleanup_for_dead(void *mem, struct run *run, const struct worker *w)
{
	const struct dbench_options *o = run->opts;
	const struct backend *be = run->su->backend;
	int rc = 0;

	for (unsigned i = 0; i < w->n; i++) {
		unsigned id = stats_client_id(&run->region, w->first + i);
		const struct program *prog =
			run->su->programs[id % run->su->nprograms];
		struct backend_client_config cfg = {
			.opts = o,
			.client = id,
			.directory = o->directories[id % o->ndirectories],
			.nhandles = prog->nhandles,
		};
		void *tmp = talloc_new(mem);
		void *state = NULL;
		char *err = NULL;
		size_t n = 0;
		char **dirs = client_trees(tmp, prog, id, &n);

		if (tmp == NULL || dirs == NULL) {
			fprintf(stderr, "dbench: client %u: out of memory for "
				"its cleanup\n", id);
			rc = 1;
		} else if (be->setup(tmp, &cfg, &state, &err) != 0) {
			fprintf(stderr, "dbench: client %u: cannot clean up "
				"after it: %s\n", id, err ? err : "setup failed");
			rc = 1;
		} else {
			for (size_t t = 0; t < n; t++) {
				int ret = be->cleanup(state, dirs[t]);

				util_beat();
				if (ret != 0) {
					fprintf(stderr, "dbench: client %u: "
						"cleanup of %s: %s\n", id,
						dirs[t], strerror(-ret));
					rc = 1;
				}
			}
		}
		talloc_free(tmp);
	}
	return rc;
}

/* Say that path under target directory dir (nothing added for ".") was
 * left behind; who: "client N: " or "". */
static void say_path_left(const char *who, const char *dir, const char *path)
{
	bool here = strcmp(dir, ".") == 0;

	fprintf(stderr, "dbench: %s%s%s%s was not removed (left behind)\n",
		who, here ? "" : dir, here ? "" : "/", path);
}

void pool_say_left(const struct run *run, const struct worker *w)
{
	const struct dbench_options *o = run->opts;

	for (unsigned i = 0; i < w->n; i++) {
		unsigned id = stats_client_id(&run->region, w->first + i);
		void *tmp = talloc_new(NULL);
		size_t n = 0;
		char **dirs = client_trees(tmp, run->su->programs[
						   id % run->su->nprograms],
					   id, &n);

		char who[32];

		snprintf(who, sizeof(who), "client %u: ", id);
		for (size_t t = 0; dirs != NULL && t < n; t++)
			say_path_left(who, o->directories[id % o->ndirectories],
				      dirs[t]);
		talloc_free(tmp);
	}
}

/* What a process the parent forks to work for it does first: die with
 * the parent, leave the stop signals to it (as a worker does). */
static void helper_child(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
}

/*
 * Worker w died without cleaning up: remove its clients' trees from a
 * process of its own that takes w's place (w->cleaning), so that a
 * server that does not answer holds neither the parent nor the other
 * cleanups; the stall watch bounds it as it bounded w.  Nothing to do
 * with --skip-cleanup, after a second signal, or for a backend that
 * makes no trees (BACKEND_NO_STATUS: null, sockio).
 */
void pool_cleanup_after(void *mem, struct run *run, struct worker *w)
{
	pid_t pid;

	if (run->opts->skip_cleanup || run->abandon ||
	    (run->su->backend->flags & BACKEND_NO_STATUS))
		return;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {	/* no process for it: do it here */
		cleanup_for_dead(mem, run, w);
		return;
	}
	if (pid == 0) {
		void *cmem = talloc_new(NULL);
		int rc;

		helper_child();
		util_beat_at(&w->beat);
		rc = cleanup_for_dead(cmem, run, w);
		talloc_free(cmem);
		fflush(stderr);
		util_leak_check_alone();
		_exit(rc);
	}
	w->pid = pid;
	w->reaped = false;
	w->cleaning = true;
	w->stalled = false;
	w->said_stopped = false;
	w->progress_ns = 0;
	run->alive++;
}

/* The process removing a dead worker's trees has ended. */
void pool_cleaner_exited(const struct run *run, const struct worker *w,
			 int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
		return;		/* done, or what failed is said */
	pool_say_left(run, w);
}

/*
 * The client trees (client_trees()) of client ids client_id_base.. that
 * map to the -D entry d, under mem, *n of them; NULL out of memory.
 */
static const char **tree_paths(void *mem, const struct run_setup *su,
			       unsigned client_id_base, unsigned d, size_t *n)
{
	const struct dbench_options *o = su->opts;
	const char **paths = talloc_array(mem, const char *, 1);

	*n = 0;
	for (unsigned slot = 0; paths != NULL && slot < o->nclients; slot++) {
		unsigned id = client_id_base + slot;
		size_t nt = 0;
		char **trees;

		if (id % o->ndirectories != d)
			continue;
		trees = client_trees(paths, su->programs[id % su->nprograms],
				     id, &nt);
		if (trees == NULL)
			return NULL;
		paths = talloc_realloc(mem, paths, const char *,
				       *n + nt > 0 ? *n + nt : 1);
		for (size_t t = 0; paths != NULL && t < nt; t++)
			paths[(*n)++] = trees[t];
	}
	return paths;
}

/* Are a and b in the same directory? */
static bool same_parent(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');

	if (sa == NULL || sb == NULL)
		return sa == sb;
	return sa - a == sb - b && strncmp(a, b, (size_t)(sa - a)) == 0;
}

/* Hand the trees paths[0..n) to ->trees_kept, those of one parent
 * directory at a time (each parent holds its own record). */
static int note_kept_groups(void *mem, const struct run_setup *su,
			    const char *target, const char **paths, size_t n)
{
	const char **group = talloc_array(mem, const char *, n > 0 ? n : 1);
	int first = 0;

	if (group == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t g = 0;
		bool done = false;
		int r;

		for (size_t j = 0; j < i && !done; j++)
			done = same_parent(paths[j], paths[i]);
		if (done)
			continue;
		for (size_t j = i; j < n; j++)
			if (same_parent(paths[j], paths[i]))
				group[g++] = paths[j];
		r = su->backend->trees_kept(mem, su->opts, target, group, g,
					    su->opts->skip_cleanup);
		if (first == 0)
			first = r;
	}
	talloc_free(group);
	return first;
}

int pool_check_trees(void *mem, const struct run_setup *su,
		     unsigned client_id_base)
{
	const struct dbench_options *o = su->opts;
	void *tmp = talloc_new(mem);
	int rc = tmp == NULL ? 1 : 0;

	for (unsigned d = 0; rc == 0 && d < o->ndirectories; d++) {
		char *err = NULL;
		size_t n = 0;
		const char **paths = tree_paths(tmp, su, client_id_base, d, &n);

		if (paths == NULL)
			rc = 1;
		else if (n > 0 && su->backend->trees_check != NULL &&
			 su->backend->trees_check(tmp, o, o->directories[d],
						  paths, n, &err) != 0) {
			if (err != NULL)
				fprintf(stderr, "dbench: %s\n", err);
			rc = err != NULL ? 2 : 1;
		}
	}
	if (rc == 1)
		fprintf(stderr, "dbench: out of memory\n");
	talloc_free(tmp);
	return rc;
}

/* pool_note_kept()'s work (arg: the client id base). */
static void note_kept_fn(const struct run *run, void *arg)
{
	const struct run_setup *su = run->su;
	const struct dbench_options *o = su->opts;
	unsigned client_id_base = *(const unsigned *)arg;
	void *tmp = talloc_new(NULL);

	if (tmp == NULL)
		return;
	for (unsigned d = 0; d < o->ndirectories; d++) {
		size_t n = 0;
		const char **paths = tree_paths(tmp, su, client_id_base, d, &n);
		int r = paths == NULL ? -ENOMEM :
			n == 0 ? 0 :
			note_kept_groups(tmp, su, o->directories[d], paths, n);

		if (r != 0 && o->skip_cleanup)
			fprintf(stderr, "dbench: %s: cannot record the client "
				"trees kept (a later run over them is refused): "
				"%s\n", o->directories[d], strerror(-r));
	}
	talloc_free(tmp);
}

void pool_note_kept(const struct run *run, unsigned client_id_base)
{
	if (run->su->backend->trees_kept == NULL || run->abandon)
		return;
	if (!run->remote)
		note_kept_fn(run, &client_id_base);
	else
		(void)pool_bounded(run, note_kept_fn, &client_id_base,
				   "recording the client trees kept");
}

/* Say the shared paths a removal that did not end left behind. */
static void say_shared_left(const struct run *run)
{
	const struct dbench_options *o = run->opts;

	for (unsigned d = 0; d < o->ndirectories; d++)
		for (unsigned j = run->nshared; j-- > 0;)
			if (!run->shared[j].existed[d])
				say_path_left("", o->directories[d],
					      run->shared[j].text);
}

/*
 * Run fn(run, arg) for a remote backend in a process of its own, bounded
 * by POOL_SHARED_REMOVE_MS (a request or a few; the signal bound when
 * shorter), so that a server that stopped answering does not hold the
 * parent.  Returns 0 when it ended, -1 when it was killed (said, with
 * what it was doing).  Not tried (-1) after the stall watch killed a
 * process: the server did not answer it.
 */
static int pool_bounded(const struct run *run,
			void (*fn)(const struct run *, void *), void *arg,
			const char *what)
{
	uint64_t start, bound;
	pid_t pid;
	int status;

	if (run->stalls > 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fn(run, arg);
		return 0;
	}
	if (pid == 0) {
		helper_child();
		fn(run, arg);
		fflush(stderr);
		util_leak_check_alone();
		_exit(0);
	}
	start = now_ns();
	while (waitpid(pid, &status, WNOHANG) == 0) {
		bound = pool_stall_ns(run);
		if (bound > POOL_SHARED_REMOVE_MS * 1000000ull)
			bound = POOL_SHARED_REMOVE_MS * 1000000ull;
		if (now_ns() - start >= bound || pool_signal_count() > 1) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "dbench: %s made no progress for %g s; "
				"killed it\n", what, (double)bound / 1e9);
			return -1;
		}
		sleep_ns(POLL_NS, NULL);
	}
	return 0;
}

static void remove_shared_fn(const struct run *run, void *arg)
{
	(void)arg;
	remove_shared_paths(run);
}

void pool_remove_shared(const struct run *run)
{
	if (run->nshared == 0 || run->abandon)
		return;
	if (!run->remote)
		remove_shared_paths(run);
	else if (pool_bounded(run, remove_shared_fn, NULL, "removing the "
			      "paths the run made outside the client "
			      "trees") != 0)
		say_shared_left(run);
}

