/*
 * registry.c - the list of backends and its start-up check.
 *
 * Adding a backend: its file in src/backends/, its line here (and in
 * include/backends.h), its source in Makefile.am.  A backend that cannot
 * be built here still gets a line, with ->unavailable saying why.
 */
#include "config.h"

#include <string.h>

#include "backend.h"
#include "backends.h"

const struct backend *const backend_registry[] = {
	&fileio_backend,
	&null_backend,
	&memfs_backend,
	NULL
};

const struct backend *backend_find(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; backend_registry[i] != NULL; i++) {
		if (strcmp(backend_registry[i]->name, name) == 0)
			return backend_registry[i];
	}
	return NULL;
}

/* Does an available backend fill every hook? */
static int backend_complete(const struct backend *b)
{
	size_t i;

	if (b->setup == NULL || b->cleanup == NULL)
		return 0;
	for (i = 0; i < OP_NUM_MEASURED; i++) {
		if (b->ops[i] == NULL)
			return 0;
	}
	return 1;
}

int backend_registry_check(const char **bad)
{
	size_t i, j;

	for (i = 0; backend_registry[i] != NULL; i++) {
		const struct backend *b = backend_registry[i];

		if (b->name == NULL || b->name[0] == '\0') {
			*bad = "(a backend without a name)";
			return -1;
		}
		/* two backends of one name: backend_find() would hide one */
		for (j = 0; j < i; j++) {
			if (strcmp(backend_registry[j]->name, b->name) == 0) {
				*bad = b->name;
				return -1;
			}
		}
		if (b->unavailable == NULL && !backend_complete(b)) {
			*bad = b->name;
			return -1;
		}
	}
	return 0;
}
