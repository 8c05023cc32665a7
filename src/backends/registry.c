/*
 * registry.c - the list of backends and its start-up check.
 *
 * Adding a backend: its file in src/backends/, its line in
 * DBENCH_BACKENDS (src/backends/backends.h), its source in Makefile.am.  A
 * backend that cannot be built here still gets a line, with ->unavailable
 * saying why.  A backend built as a module (smb, nfs: their libraries are
 * heavy) is listed by its stub, ->module set (module.c loads the rest).
 */
#include "config.h"

#include <popt.h>
#include <string.h>
#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"

#define BACKEND_REGISTRY_ENTRY(name) &name##_backend,
const struct backend *const backend_registry[] = {
	DBENCH_BACKENDS(BACKEND_REGISTRY_ENTRY)
	NULL
};
#undef BACKEND_REGISTRY_ENTRY

const struct backend *backend_find_in(const struct backend *const *list,
				      const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; list[i] != NULL; i++) {
		if (strcmp(list[i]->name, name) == 0)
			return list[i];
	}
	return NULL;
}

const struct backend *backend_find(const char *name)
{
	return backend_find_in(backend_registry, name);
}

char *backend_list_text(void *mem, const struct backend *const *list,
			const char *dflt)
{
	char *text = talloc_strdup(mem, "");

	for (size_t i = 0; text != NULL && list[i] != NULL; i++) {
		const struct backend *b = list[i];
		bool is_dflt = dflt != NULL && strcmp(b->name, dflt) == 0;

		text = talloc_asprintf_append(text, "%s%s", i > 0 ? ", " : "",
					      b->name);
		if (text != NULL && is_dflt)
			text = talloc_strdup_append(text, " (default)");
		if (text != NULL && b->unavailable != NULL)
			text = talloc_asprintf_append(text,
						      " (not available: %s)",
						      b->unavailable);
	}
	return text;
}

/* The required hook an available backend lacks, or NULL when it fills
 * every one (the others may be NULL: backend.h). */
static const char *backend_missing_hook(const struct backend *b)
{
	const struct {
		const char *missing;
		bool set;
	} hooks[] = {
		{ "its target_check hook is missing", b->target_check != NULL },
		{ "its setup hook is missing", b->setup != NULL },
		{ "its cleanup hook is missing", b->cleanup != NULL },
	};

	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (!hooks[i].set)
			return hooks[i].missing;
	/* a dialect's kinds are optional: backend_program_check() refuses
	 * a loadfile that uses one the backend lacks; a device backend
	 * speaks its device's dialect only */
	for (size_t i = 0; i < OP_NUM_MEASURED; i++)
		if (b->ops[i] == NULL && !(b->flags & BACKEND_DEVICE) &&
		    !op_kind_is_nfs3((unsigned)i) &&
		    !op_kind_is_smb5((unsigned)i) &&
		    !op_kind_is_block((unsigned)i) &&
		    !op_kind_is_scsi((unsigned)i))
			return "an entry of its ops[] is missing";
	return NULL;
}

/* Does some backend of list[0..n) have an option of this long name? */
static bool backend_option_taken(const struct backend *const *list, size_t n,
				 const char *name)
{
	for (size_t i = 0; i < n; i++) {
		const struct poptOption *t = list[i]->options;

		for (size_t j = 0; t != NULL && t[j].longName != NULL; j++)
			if (strcmp(t[j].longName, name) == 0)
				return true;
	}
	return false;
}

/* What is wrong with list[k]'s options table, or NULL. */
static const char *backend_bad_options(const struct backend *const *list,
				       size_t k)
{
	const struct backend *b = list[k];
	const struct poptOption *t = b->options;
	size_t n;

	if (t == NULL)
		return NULL;
	if (b->option == NULL)
		return "it has options but no option hook";
	for (n = 0; t[n].longName != NULL || t[n].shortName != '\0' ||
		    t[n].argInfo != 0; n++) {
		const struct poptOption *e = &t[n];

		if (n >= BACKEND_MAX_OPTIONS)
			return "it has too many options";
		if (e->longName == NULL || e->arg != NULL || e->val == 0 ||
		    (e->argInfo != POPT_ARG_NONE &&
		     e->argInfo != POPT_ARG_STRING))
			return "an option entry is malformed";
		if (backend_option_taken(list, k, e->longName))
			return "an option name is another backend's";
	}
	return NULL;
}

int backend_list_check(const struct backend *const *list, const char **bad,
		       const char **why)
{
	const char *reason = NULL;
	size_t i, j;

	for (i = 0; list[i] != NULL && reason == NULL; i++) {
		const struct backend *b = list[i];

		*bad = b->name != NULL && b->name[0] != '\0' ?
			       b->name :
			       "(a backend without a name)";
		if (b->name == NULL || b->name[0] == '\0') {
			reason = "it has no name";
			break;
		}
		if (b->abi != BACKEND_ABI) {
			reason = "it was built for another BACKEND_ABI";
			break;
		}
		/* two backends of one name: backend_find() would hide one */
		for (j = 0; j < i && reason == NULL; j++)
			if (strcmp(list[j]->name, b->name) == 0)
				reason = "another backend has its name";
		/* a module's stub has only what the command line needs */
		if (reason == NULL && b->unavailable == NULL &&
		    b->module == NULL)
			reason = backend_missing_hook(b);
		if (reason == NULL)
			reason = backend_bad_options(list, i);
	}
	if (reason == NULL) {
		*bad = NULL;
		return 0;
	}
	if (why != NULL)
		*why = reason;
	return -1;
}

int backend_registry_check(const char **bad)
{
	return backend_list_check(backend_registry, bad, NULL);
}

int backend_program_check(void *mem_ctx, const struct backend *be,
			  const struct program *p, char **err)
{
	for (uint32_t i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];

		if (op->kind >= OP_NUM_MEASURED || be->ops[op->kind] != NULL)
			continue;
		*err = talloc_asprintf(mem_ctx,
				       "%s:%u: loadfile op %s needs a backend "
				       "with %s; backend '%s' does not have it",
				       p->filename, op->line,
				       op_info[op->kind].name,
				       op_kind_is_nfs3(op->kind) ?
					       "the nfs dialect (-B nfs)" :
				       op_kind_is_smb5(op->kind) ?
					       "dbench 5.0's smb dialect "
					       "(-B fileio or -B smb)" :
				       op_kind_is_block(op->kind) ?
					       "the block dialect (-B block)" :
				       op_kind_is_scsi(op->kind) ?
					       "the SCSI dialect (-B scsi or "
					       "-B iscsi)" :
					       "the smb dialect",
				       be->name);
		return -1;
	}
	return 0;
}
