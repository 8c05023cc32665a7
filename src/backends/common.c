/*
 * common.c - what several backends share, below all of them and below
 * the registry that lists them: the check of a local target directory
 * (fileio's, and of the backends that take -D as it does), the words of
 * a refused tree (fileio and the vfs backends, smb and nfs) and the
 * option hook of a backend's stub (BACKEND_UNAVAILABLE,
 * BACKEND_MODULE_STUB).  It calls no backend.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "backends/backend.h"

int backend_dir_target_check(void *mem_ctx, const struct dbench_options *o,
			     const char *target, char **err)
{
	struct stat sb;

	(void)o;
	if (stat(target, &sb) != 0)
		*err = talloc_asprintf(mem_ctx, "directory '%s': %s", target,
				       strerror(errno));
	else if (!S_ISDIR(sb.st_mode))
		*err = talloc_asprintf(mem_ctx, "directory '%s': %s", target,
				       strerror(ENOTDIR));
	else if (access(target, W_OK | X_OK) != 0)
		*err = talloc_asprintf(mem_ctx,
				       "directory '%s' is not writable: %s",
				       target, strerror(errno));
	else
		return 0;
	return -1;
}

char *backend_tree_refusal(void *mem_ctx, const char *target,
			   const char *path, const char *why)
{
	const char *slash = strchr(path, '/');
	/* a share or an export: no local command removes it */
	bool remote = strncmp(target, "//", 2) == 0 ||
		      strstr(target, "://") != NULL;

	if (strcmp(why, BACKEND_TREE_OLD_RUN) == 0 && slash != NULL && remote)
		return talloc_asprintf(
			mem_ctx, "%s/%s looks like dbench 4.00's leftovers "
			"(client.txt's %s tree, which 4.00 leaves behind "
			"with --skip-cleanup or when stopped; or a killed "
			"run's): dbench removes only what it creates; if "
			"%s/%.*s holds nothing else of yours, remove it on "
			"the server, or use another target",
			target, path, BACKEND_TREE_OLD_RUN_MARK, target,
			(int)(slash - path), path);
	if (strcmp(why, BACKEND_TREE_OLD_RUN) == 0 && slash != NULL)
		return talloc_asprintf(
			mem_ctx, "%s/%s looks like dbench 4.00's leftovers "
			"(client.txt's %s tree, which 4.00 leaves behind "
			"with --skip-cleanup or when stopped; or a killed "
			"run's): dbench removes only what it creates; if "
			"%s/%.*s holds nothing else of yours, remove it "
			"(rm -r -- '%s/%.*s'), or use another -D",
			target, path, BACKEND_TREE_OLD_RUN_MARK, target,
			(int)(slash - path), path, target,
			(int)(slash - path), path);
	return talloc_asprintf(mem_ctx, "%s/%s %s: dbench removes only what "
			       "it creates; remove it or use another -D",
			       target, path, why);
}

int backend_stub_option(void *mem_ctx, void **bopts, int val,
			const char *arg, char **err)
{
	(void)bopts;
	(void)val;
	(void)arg;
	*err = talloc_strdup(mem_ctx, "the backend is not in this binary");
	return -1;
}
