/*
 * worker.h - a worker process's side of the pool (src/run/worker.c), as
 * the parent's side (pool.c) uses it.  Private to src/run/.
 */
#ifndef DBENCH_RUN_WORKER_H
#define DBENCH_RUN_WORKER_H

#include <sys/types.h>

#include "pool.h"

/* Publish a client's state in the live array (release: what the client
 * wrote before is seen by whoever reads the state). */
static inline void worker_set_state(struct client_live *s,
				    enum client_state st)
{
	__atomic_store_n(&s->state, (uint32_t)st, __ATOMIC_RELEASE);
}

/* A fresh talloc pool for worker w's memory (see worker.c). */
void *worker_pool(const struct worker *w);

/*
 * The whole life of worker w in the child process forked for it: prepare
 * its clients, wait at the gate (gate_fd, the read end), run them, clean
 * up.  parent is the pid of the process that forked it (the worker ends
 * at once if that one is already gone).  Returns the exit status: 0, or 1
 * when a client failed.
 */
int worker_main(struct run *run, const struct worker *w, int gate_fd,
		pid_t parent);

#endif
