/*
 * cli_backend.c - selecting the backend: -B (loading a module-backed
 * backend), each backend option handed to the backend it belongs to, and
 * -T, which only the socket backend takes.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "cli_shared.h"
#include "net/tbench_wire.h"

/*
 * -T is the socket backend's (tbench): refused, rather than ignored,
 * with a backend that has no sockets (be NULL: --disk-test).
 */
int cli_tcp_options(const struct raw_options *raw,
		    const struct backend *be, struct dbench_options *o)
{
	if (raw->tcp_options == NULL)
		return 0;
	if (be == NULL)
		return usage_error("--tcp-options applies to the socket "
				   "backend (tbench) only, not to --disk-test");
	if (!(be->flags & BACKEND_SOCKETS))
		return usage_error("--tcp-options applies to the socket "
				   "backend (tbench) only, not to backend "
				   "'%s'", be->name);
	o->tcp_options = raw->tcp_options;
	return 0;
}

/*
 * --allow-scsi-writes, --allow-block-writes and --force-device are a
 * device backend's (block, scsi, iscsi): refused, rather than ignored,
 * with any other (be NULL: --disk-test).
 */
static int cli_device_options(const struct raw_options *raw,
			      const struct backend *be,
			      struct dbench_options *o)
{
	const char *name = raw->allow_scsi_writes ? "--allow-scsi-writes" :
			   raw->allow_block_writes ? "--allow-block-writes" :
			   raw->force_device ? "--force-device" : NULL;

	if (name == NULL)
		return 0;
	if (be == NULL || !(be->flags & BACKEND_DEVICE))
		return usage_error("%s applies to the device backends (block, "
				   "scsi, iscsi) only, not to %s%s%s", name,
				   be ? "backend '" : "--disk-test",
				   be ? be->name : "", be ? "'" : "");
	o->allow_device_writes = raw->allow_scsi_writes ||
				 raw->allow_block_writes;
	o->force_device = raw->force_device;
	return 0;
}

/* The usable backend of that name, or NULL after a usage error. */
static const struct backend *choose_backend(void *mem,
					    const struct backend *const *reg,
					    const char *name)
{
	const struct backend *be = backend_find_in(reg, name);

	if (be != NULL && be->unavailable == NULL)
		return be;
	if (be == NULL) {
		char *names = backend_list_text(mem, reg, DEFAULT_BACKEND);

		usage_error("unknown backend '%s'; the backends: %s", name,
			    names ? names : "");
	} else {
		usage_error("backend '%s' is not available: %s", name,
			    be->unavailable);
	}
	return NULL;
}

/*
 * The server of a network backend for the results (options.h), from its
 * option g that names it (g NULL: the backend's default, if any).  The
 * last one given wins, as in the backend.
 */
static void note_server(void *mem, const struct backend *be,
			const struct given_bopt *g, struct dbench_options *o)
{
	static const struct {
		const char *backend, *option, *protocol, *fallback;
	} named[] = {
		{ "smb", "smb-share", "smb", NULL },
		{ "nfs", "nfs", "nfs", NULL },
		{ TBENCH_BACKEND, "server", "tbench",
		  "localhost:" TBENCH_DEFAULT_PORT_STR },
	};

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (strcmp(be->name, named[i].backend) != 0)
			continue;
		o->server_protocol = named[i].protocol;
		if (g == NULL && o->server_url == NULL)
			o->server_url = named[i].fallback;
		else if (g != NULL && g->arg != NULL &&
			 strcmp(g->entry->longName, named[i].option) == 0)
			o->server_url = cli_mask_url(mem, g->arg);
		else if (g != NULL && g->arg != NULL &&
			 strcmp(g->entry->longName, "smb-protocol") == 0)
			o->server_smb_protocol = talloc_strdup(mem, g->arg);
	}
}

/*
 * -B and what goes with it: the backend, its options (each handed to its
 * ->option in command-line order; one of another backend is refused,
 * naming that one), its ->options_done, -T, the device options.  Returns 0 with *out set, or
 * the exit status of a usage error (said on stderr).
 */
int cli_backend_options(void *mem, const struct cli_parse *cp,
			struct dbench_options *o,
			const struct backend **out)
{
	const struct raw_options *raw = &cp->raw;
	const struct backend *be, *listed;
	void *bopts = NULL;
	char *err = NULL;

	if (raw->backend != NULL)
		o->backend = raw->backend;
	be = listed = choose_backend(mem, cp->registry, o->backend);
	if (be == NULL)
		return EXIT_USAGE;
	/* smb, nfs: the registry has their stubs, their modules the rest */
	if (be->module != NULL &&
	    (be = backend_module_load(mem, listed, &err)) == NULL)
		return usage_error("%s", err ? err : "out of memory");
	note_server(mem, be, NULL, o);
	for (unsigned i = 0; i < raw->nbopts; i++) {
		const struct given_bopt *g = &raw->bopts[i];
		const struct backend *owner = cp->registry[g->backend];

		if (owner != listed)
			return usage_error("--%s belongs to backend '%s', but "
					   "backend '%s' is selected",
					   g->entry->longName, owner->name,
					   be->name);
		note_server(mem, be, g, o);
		if (be->option(mem, &bopts, g->entry->val, g->arg, &err) != 0)
			return usage_error("--%s: %s", g->entry->longName,
					   err ? err : "out of memory");
	}
	if (be->options_done != NULL &&
	    be->options_done(mem, &bopts, &err) != 0)
		return usage_error("backend '%s': %s", be->name,
				   err ? err : "out of memory");
	o->backend_opts = bopts;
	*out = be;
	if (cli_device_options(raw, be, o) != 0)
		return EXIT_USAGE;
	return cli_tcp_options(raw, be, o);
}
