/*
 * cli.c - the command line: the popt table composed from the common
 * options and every backend's sub-table (cli_table.c), each value checked
 * before anything is forked or written (cli_check.c), each backend option
 * handed to its backend (cli_backend.c).  This file runs popt over argv
 * and dispatches on what it found.  Usage errors are one "dbench: ..."
 * line on stderr and exit status 2.
 */
#include "config.h"

#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <talloc.h>

#include "cli_shared.h"
#include "util/util.h"

/* Note a backend option popt returned (as its composed val). */
static int note_backend_option(void *mem, struct cli_parse *cp, int val,
			       char *arg)
{
	unsigned b = (unsigned)(val - BACKEND_OPT_BASE) / BACKEND_OPT_STRIDE;
	unsigned i = (unsigned)(val - BACKEND_OPT_BASE) % BACKEND_OPT_STRIDE;
	struct raw_options *raw = &cp->raw;
	struct given_bopt *v;

	v = talloc_realloc(mem, raw->bopts, struct given_bopt,
			   raw->nbopts + 1);
	if (v == NULL)
		return -1;
	raw->bopts = v;
	v[raw->nbopts] = (struct given_bopt){
		.backend = b,
		.entry = &cp->registry[b]->options[i],
		.arg = arg != NULL ? talloc_strdup(mem, arg) : NULL,
	};
	if (arg != NULL && v[raw->nbopts].arg == NULL)
		return -1;
	raw->nbopts++;
	return 0;
}

/* Note a --slo as given (it may be repeated: each one counts). */
static int note_slo(void *mem, struct raw_options *raw, const char *arg)
{
	char **v = talloc_realloc(mem, raw->slo, char *, raw->nslo + 1);

	if (v == NULL)
		return -1;
	raw->slo = v;
	v[raw->nslo] = talloc_strdup(mem, arg);
	return v[raw->nslo++] != NULL ? 0 : -1;
}

/*
 * An option as echoed in a message: what follows a '%' (the password of
 * USER%PASSWORD, e.g. a mistyped --smb-user) replaced by "***", under mem.
 */
static const char *cli_masked(void *mem, const char *s)
{
	const char *pct = strchr(s, '%');
	char *m;

	if (pct == NULL)
		return s;
	m = talloc_asprintf(mem, "%.*s%%***", (int)(pct - s), s);
	return m != NULL ? m : "(an option)";
}

/*
 * Run popt over argv.  Returns 0, or the exit status after a message
 * (an unknown option, a missing argument, out of memory).
 */
static int cli_popt(void *mem, struct cli_parse *cp, poptContext pc)
{
	int opt;

	while ((opt = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);	/* malloc'd, or NULL */
		int rc = 0;

		if (opt >= STRING_OPT_BASE &&
		    opt < STRING_OPT_BASE + (int)cp->nstr) {
			char **slot = cp->str_slot[opt - STRING_OPT_BASE];

			/* the last one given wins */
			talloc_free(*slot);
			*slot = arg != NULL ? talloc_strdup(mem, arg) : NULL;
			rc = arg != NULL && *slot == NULL ? -1 : 0;
		} else if (opt >= BACKEND_OPT_BASE) {
			rc = note_backend_option(mem, cp, opt, arg);
		} else if (opt == SLO_OPT && arg != NULL) {
			rc = note_slo(mem, &cp->raw, arg);
		}
		free(arg);
		if (rc != 0) {
			fprintf(stderr, "dbench: out of memory\n");
			return 1;
		}
	}
	if (opt < -1) {
		const char *badopt = poptBadOption(pc, POPT_BADOPTION_NOALIAS);
		int64_t num;

		/* "dbench -1" reaches popt as an option */
		if (opt == POPT_ERROR_BADOPT &&
		    parse_int64(badopt, INT64_MIN, INT64_MAX, &num) == 0)
			fprintf(stderr, "dbench: number of clients: '%s' is "
				"not a whole number from 1 to %d\n", badopt,
				MAX_CLIENTS);
		else
			fprintf(stderr, "dbench: %s: %s (try --help)\n",
				cli_masked(mem, badopt), poptStrerror(opt));
		return EXIT_USAGE;
	}
	return 0;
}

/* The name this program was run as ends in "tbench" (tbench, or a
 * versioned link such as tbench-4): it is tbench. */
static bool invoked_as_tbench(const char *argv0)
{
	const char *base = argv0 != NULL ? strrchr(argv0, '/') : NULL;

	base = base != NULL ? base + 1 : argv0;
	return base != NULL && strncmp(base, TBENCH_NAME,
				       strlen(TBENCH_NAME)) == 0;
}

/*
 * tbench's positional SERVER: given to the tbench backend as its
 * --server option, after the options on the command line (so it wins).
 * Returns 0, or -1 when out of memory.
 */
static int tbench_server_arg(void *mem, struct cli_parse *cp,
			     const char *server)
{
	for (unsigned b = 0; cp->registry[b] != NULL; b++) {
		const struct poptOption *t = cp->registry[b]->options;

		if (strcmp(cp->registry[b]->name, TBENCH_BACKEND) != 0 ||
		    t == NULL)
			continue;
		for (unsigned i = 0; t[i].longName != NULL; i++)
			if (strcmp(t[i].longName, "server") == 0)
				return note_backend_option(
					mem, cp,
					BACKEND_OPT_BASE +
						(int)(b * BACKEND_OPT_STRIDE +
						      i),
					(char *)server);
	}
	return 0;
}

/*
 * A load curve: the curve chooses the client counts, so no NUMCLIENTS
 * (tbench takes just [SERVER]); the count is set per point.
 */
static int cli_curve_dispatch(void *mem, struct cli_parse *cp,
			      poptContext pc, struct cli *cli)
{
	const char *arg = poptGetArg(pc);

	if (cp->tbench && arg != NULL && poptPeekArg(pc) == NULL) {
		if (tbench_server_arg(mem, cp, arg) != 0) {
			fprintf(stderr, "dbench: out of memory\n");
			return 1;
		}
		arg = NULL;
	}
	if (arg != NULL && strcmp(cp->raw.curve, "auto") == 0 &&
	    strspn(arg, "0123456789,") == strlen(arg))
		return usage_error("--curve: a list of client counts is "
				   "given as --curve=%s (a bare --curve is "
				   "auto)", arg);
	if (arg != NULL)
		return usage_error("--curve takes no NUMCLIENTS: the curve "
				   "chooses the client counts (usage: %s)",
				   cp->tbench ?
				   "tbench --curve[=N,N,...|auto] [SERVER]" :
				   "dbench --curve[=N,N,...|auto] [OPTION...]");
	cli->action = CLI_RUN;
	return cli_resolve_options(mem, cp, "1", cli);
}

/* What popt found, dispatched: --version, --disk-test or a load run. */
static int cli_dispatch(void *mem, struct cli_parse *cp, poptContext pc,
			struct cli *cli)
{
	const struct raw_options *raw = &cp->raw;
	const char *clients;

	if (raw->version) {
		cli->action = CLI_VERSION;
		return 0;
	}
	if (raw->disk_test) {
		cli->action = CLI_DISK_TEST;
		return cli_disk_test_options(mem, cp, pc, &cli->opts);
	}
	if (raw->dt_size || raw->dt_block_size || raw->drop_caches)
		return usage_error("--size, --block-size and --drop-caches go "
				   "with --disk-test");
	if (raw->curve != NULL)
		return cli_curve_dispatch(mem, cp, pc, cli);
	clients = poptGetArg(pc);
	if (cp->tbench && clients != NULL && poptPeekArg(pc) != NULL &&
	    tbench_server_arg(mem, cp, poptGetArg(pc)) != 0) {
		fprintf(stderr, "dbench: out of memory\n");
		return 1;
	}
	if (clients == NULL || poptPeekArg(pc) != NULL) {
		fprintf(stderr, "dbench: %s (usage: %s; try --help)\n",
			clients == NULL ? "the number of clients is missing" :
			cp->tbench ? "only NUMCLIENTS and SERVER are expected" :
				     "only one NUMCLIENTS argument is expected",
			cp->tbench ? "tbench [OPTION...] NUMCLIENTS [SERVER]" :
				     "dbench [OPTION...] NUMCLIENTS");
		return EXIT_USAGE;
	}
	cli->action = CLI_RUN;
	return cli_resolve_options(mem, cp, clients, cli);
}

/*
 * Hide secrets from ps and from the JSON's command line: for every
 * backend option whose argument description has "%PASSWORD" (such as
 * --smb-user=USER%PASSWORD), the bytes after the value's first '%' are
 * zeroed in place (what /proc/PID/cmdline shows) and argv[i] is pointed
 * at a copy that shows "***" instead (what --json writes).  argv's
 * strings must be writable (main's are).
 */
static void mask_secret_args(void *mem, int argc, const char **argv,
			     const struct backend *const *reg)
{
	for (unsigned b = 0; reg[b] != NULL; b++)
		for (const struct poptOption *t = reg[b]->options;
		     t != NULL && t->longName != NULL; t++) {
			size_t n = strlen(t->longName);

			if (t->argDescrip == NULL ||
			    strstr(t->argDescrip, "%PASSWORD") == NULL)
				continue;
			for (int i = 1; i < argc; i++) {
				const char *a = argv[i];
				char *pct, *shown;
				bool own = strncmp(a, "--", 2) == 0 &&
					   strncmp(a + 2, t->longName, n) == 0;

				if (own && a[2 + n] == '\0' && i + 1 < argc)
					a = argv[++i];
				else if (!own || a[2 + n] != '=')
					continue;
				pct = strchr(a, '%');
				if (pct == NULL || pct[1] == '\0')
					continue;
				shown = talloc_asprintf(mem, "%.*s***",
							(int)(pct + 1 - a), a);
				explicit_bzero(pct + 1, strlen(pct + 1));
				if (shown != NULL)
					argv[i] = shown;
			}
		}
}

/*
 * Hide the passwords of URLs (scheme://USER:PASSWORD@HOST) in argv as
 * mask_secret_args() does for %PASSWORD: zeroed in place, argv[i] shown
 * with "***".
 */
static void mask_url_args(void *mem, int argc, const char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *copy, *shown, *orig = (char *)argv[i];
		const char *pw, *from;
		size_t len;

		if (cli_url_password(orig, &len) == NULL)
			continue;
		shown = cli_mask_url(mem, orig);
		copy = talloc_strdup(mem, orig);
		/* find them all on a copy: zeroing ends the string */
		for (from = copy; copy != NULL &&
		     (pw = cli_url_password(from, &len)) != NULL; from = pw + len)
			explicit_bzero(orig + (pw - copy), len);
		talloc_free(copy);
		if (shown != NULL)
			argv[i] = shown;
	}
}

int cli_parse(void *mem_ctx, int argc, const char **argv,
	      const struct backend *const *registry, struct cli *cli)
{
	struct cli_parse *cp = talloc_zero(mem_ctx, struct cli_parse);
	const char *bad = NULL, *why = NULL;
	const char **pargv;
	poptContext pc;
	int rc;

	*cli = (struct cli){
		.opts = {
			.timelimit = 600,
			.clients_per_process = 1,
			.backend = DEFAULT_BACKEND,
			.argc = argc,
			.argv = argv,
		},
	};
	if (cp == NULL)
		goto nomem;
	if (backend_list_check(registry, &bad, &why) != 0) {
		fprintf(stderr, "dbench: internal error: backend '%s': %s\n",
			bad, why);
		return 1;
	}
	cp->registry = registry;
	cp->tbench = argc > 0 && invoked_as_tbench(argv[0]);
	if (cp->tbench)
		cli->opts.backend = TBENCH_BACKEND;
	if (cli_table(cp, cp) != 0) {
		fprintf(stderr, "dbench: internal error: a backend option "
			"shadows a common one, or out of memory\n");
		return 1;
	}
	/* a bare --percentiles means the default list (popt's optional
	 * arguments would swallow a following NUMCLIENTS) */
	pargv = talloc_array(cp, const char *, (size_t)argc + 1);
	if (pargv == NULL)
		goto nomem;
	for (int i = 0; i < argc; i++)
		pargv[i] = strcmp(argv[i], "--percentiles") == 0 ?
			"--percentiles=" DEFAULT_PERCENTILES :
			strcmp(argv[i], "--curve") == 0 ? "--curve=auto" :
			argv[i];
	pargv[argc] = NULL;
	pc = poptGetContext("dbench", argc, pargv, cp->table, 0);
	if (pc == NULL)
		goto nomem;
	poptSetOtherOptionHelp(pc, cp->tbench ? "[OPTION...] NUMCLIENTS "
			       "[SERVER[:PORT]]" : "[OPTION...] NUMCLIENTS");
	rc = cli_popt(mem_ctx, cp, pc);
	mask_secret_args(mem_ctx, argc, argv, registry);
	mask_url_args(mem_ctx, argc, argv);
	if (rc == 0)
		rc = cli_dispatch(mem_ctx, cp, pc, cli);
	poptFreeContext(pc);
	talloc_free(cp);	/* what *cli keeps lives under mem_ctx */
	return rc;

nomem:
	fprintf(stderr, "dbench: out of memory\n");
	return 1;
}
