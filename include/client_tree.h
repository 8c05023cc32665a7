/*
 * client_tree.h - how a client's files are named: its name "client<N>",
 * its tree "clients/client<N>" under its target directory, and a
 * loadfile path with the client's name put in (src/loadfile/client_tree.c).
 * Below the engine, so that the result and the run can name a client's
 * files without the replay engine.
 */
#ifndef DBENCH_CLIENT_TREE_H
#define DBENCH_CLIENT_TREE_H

#include <stddef.h>

#include "program.h"

/* Room for any client_name(): "client" and ten digits, and the NUL. */
#define CLIENT_NAME_MAX 24

/* "client<N>" of client_id into buf (CLIENT_NAME_MAX bytes at least); its
 * length. */
size_t client_name(char *buf, unsigned client_id);

/*
 * The tree of client `client_id` relative to its target directory,
 * "clients/client<N>", allocated under mem_ctx (NULL when out of memory).
 * The one place that spells it.
 */
char *client_dir_name(void *mem_ctx, unsigned client_id);

/*
 * Resolve a path of the program for client number `client` (no "$i"
 * substitution).  Returns a string allocated under mem_ctx.
 */
char *client_path_for(void *mem_ctx, const struct path *p, unsigned client);

#endif
