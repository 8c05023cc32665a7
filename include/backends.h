/*
 * backends.h - the backend objects the registry lists.
 *
 * Each one is defined in its own file under src/backends/ and is constant:
 * per-client data lives in the state its setup hook allocates.
 */
#ifndef DBENCH_BACKENDS_H
#define DBENCH_BACKENDS_H

#include "backend.h"

/* Local filesystem through POSIX calls (src/backends/fileio.c). */
extern const struct backend fileio_backend;

/* Does nothing; measures the engine's own cost (src/backends/null.c). */
extern const struct backend null_backend;

/* nbvfs over an in-memory tree per process (src/backends/memfs.c). */
extern const struct backend memfs_backend;

#endif
