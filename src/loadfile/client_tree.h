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

#include "loadfile/program.h"

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
 * The trees client `client_id` works in under program prog (NULL: the
 * default), relative to its target directory: client_dir_name()'s; for a
 * program of dbench 5.0's smb dialect, each directory its paths name
 * "client1" (client<N> itself, the directories on the way included:
 * "client0", "clients/client0"), in the order the program first names
 * them, none when it names none.  What the start of a run checks and the
 * end removes.  A talloc array under mem_ctx, *n entries; NULL when out
 * of memory.
 */
char **client_trees(void *mem_ctx, const struct program *prog,
		    unsigned client_id, size_t *n);

/*
 * Resolve a path of the program for client number `client` (no "$i"
 * substitution).  Returns a string allocated under mem_ctx.
 */
char *client_path_for(void *mem_ctx, const struct path *p, unsigned client);

#endif
