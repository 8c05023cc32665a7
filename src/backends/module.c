/*
 * module.c - loading a backend that lives in a module (a shared object):
 * smb and nfs, whose libraries (libsmbclient pulls in ~100 of Samba's and
 * ICU's; libnfs) a run of any other backend should never map.
 *
 * The registry lists such a backend by its stub (->module set); when -B
 * selects it, the command line asks backend_module_load() for the whole
 * struct, before its options are parsed and before anything is forked.
 * The module stays loaded for the life of the process (the workers
 * inherit it).  Where modules are looked for: src/backends/backend.h.
 */
#include "config.h"

#include <dlfcn.h>
#include <popt.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "backends/backend.h"
#include "util/util.h"

char *backend_module_path(void *mem_ctx, const char *module)
{
	char *dir = util_exe_dir(mem_ctx);
	char *built = NULL;

	if (dir != NULL)
		built = talloc_asprintf(mem_ctx, "%s/" BACKEND_MODULE_SUBDIR
					"/%s.so", dir, module);
	talloc_free(dir);
	if (built != NULL && access(built, F_OK) == 0)
		return built;
	talloc_free(built);
	return talloc_asprintf(mem_ctx, "%s/%s.so", PKGLIBDIR, module);
}

/* Do two option tables list the same options, in the same order? */
static bool same_options(const struct poptOption *a,
			 const struct poptOption *b)
{
	size_t i;

	if (a == NULL || b == NULL)
		return a == b;
	for (i = 0; a[i].longName != NULL && b[i].longName != NULL; i++)
		if (strcmp(a[i].longName, b[i].longName) != 0 ||
		    a[i].argInfo != b[i].argInfo || a[i].val != b[i].val)
			return false;
	return a[i].longName == NULL && b[i].longName == NULL;
}

const char *backend_module_check(void *mem, const struct backend *stub,
				 const struct backend *b, const char *stamp)
{
	const struct backend *one[] = { b, NULL };
	const char *bad = NULL, *why = NULL;

	if (stamp == NULL)
		return "it has no dbench_module_stamp: not a dbench module";
	if (strcmp(stamp, BACKEND_MODULE_STAMP) != 0)
		return talloc_asprintf(mem, "it was built for %s, this is %s",
				       stamp, BACKEND_MODULE_STAMP);
	if (b == NULL)
		return talloc_asprintf(mem, "it has no %s_backend",
				       stub->module);
	if (b->abi != BACKEND_ABI)
		return "it was built for another BACKEND_ABI";
	if (b->name == NULL || strcmp(b->name, stub->name) != 0 ||
	    b->module != NULL || b->unavailable != NULL ||
	    b->flags != stub->flags || !same_options(b->options, stub->options))
		return "its backend is not the one this dbench lists (name, "
		       "flags or options differ)";
	if (backend_list_check(one, &bad, &why) != 0)
		return why;
	return NULL;
}

/* dlerror()'s message without the path it may start with. */
static const char *dl_why(const char *path)
{
	const char *e = dlerror();
	size_t n = strlen(path);

	if (e == NULL)
		return "unknown error";
	if (strncmp(e, path, n) == 0 && strncmp(e + n, ": ", 2) == 0)
		return e + n + 2;
	return e;
}

const struct backend *backend_module_load(void *mem_ctx,
					  const struct backend *stub,
					  char **err)
{
	void *tmp = talloc_new(mem_ctx);
	char *path = tmp ? backend_module_path(tmp, stub->module) : NULL;
	char *sym = tmp ? talloc_asprintf(tmp, "%s_backend", stub->module) :
			  NULL;
	const struct backend *b = NULL;
	const char *why;
	struct stat st;
	void *h;

	*err = NULL;
	if (path == NULL || sym == NULL)
		goto out;
	/* dlopen would block forever on a FIFO and read a device; a missing
	 * file is left to dlopen's own message */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		*err = talloc_asprintf(mem_ctx, "backend '%s': cannot load "
				       "its module %s: not a regular file",
				       stub->name, path);
		goto out;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		*err = talloc_asprintf(mem_ctx, "backend '%s': cannot load "
				       "its module %s: %s", stub->name, path,
				       dl_why(path));
		goto out;
	}
	b = dlsym(h, sym);
	why = backend_module_check(tmp, stub, b,
			      dlsym(h, "dbench_module_stamp"));
	if (why != NULL) {
		*err = talloc_asprintf(mem_ctx, "backend '%s': module %s: %s",
				       stub->name, path, why);
		dlclose(h);
		b = NULL;
	}
out:
	talloc_free(tmp);
	return b;
}
