/*
 * client_setup.c - a client's life outside its replay (client.h):
 * create it and set up its backend, mark its start, answer for it, and
 * remove its tree at the end.  The replay itself is client.c.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <talloc.h>

#include "atomic.h"
#include "client.h"
#include "client_tree.h"
#include "util.h"

#include "client_private.h"

struct client *client_new(void *mem_ctx, const struct dbench_options *opts,
			  const struct program *prog, unsigned prog_index,
			  const struct backend *be, const char *directory,
			  struct stats_region *region, unsigned slot)
{
	unsigned client = stats_client_id(region, slot);
	struct backend_client_config cfg = {
		.opts = opts,
		.client = client,
		.directory = directory,
		.nhandles = prog->nhandles,
	};
	struct client *c = talloc_zero(mem_ctx, struct client);
	char *err = NULL;
	uint64_t setup_ns;
	int rc;

	if (c == NULL)
		goto nomem;
	cfg.hint = &c->hint;
	c->opts = opts;
	c->prog = prog;
	c->be = be;
	c->be_ops = be->ops;
	c->region = region;
	c->hdr = region->hdr;
	c->paced = opts->target_rate > 0 || prog->times != NULL;
	c->series = opts->series_path != NULL || options_wants_document(opts);
	c->no_status = (be->flags & BACKEND_NO_STATUS) != 0;
	c->relative = prog->relative;
	c->slot = &region->slots[slot];
	c->live = &region->live[slot];
	c->id = client;
	c->slot_index = slot;
	c->resp = c->paced && region->resp != NULL ? &region->resp[slot] :
						       NULL;
	c->rng = 0x6462656e6368ull ^ ((uint64_t)client << 32);
	c->slot->program = prog_index;
	c->slot->client_id = client;

	c->cname_len = client_name(c->cname, client);
	for (unsigned k = 0; k < 2; k++) {
		c->scratch_len[k] = prog->max_path_len + sizeof(c->cname) + 1;
		c->scratch[k] = talloc_array(c, char, c->scratch_len[k]);
		if (c->scratch[k] == NULL)
			goto nomem;
	}
	c->randstr = talloc_zero_array(c, char *,
				       prog->nrandom ? prog->nrandom : 1);
	c->handles = util_zero_pages(c, sizeof(struct handle_info) *
					       (prog->nhandles ? prog->nhandles : 1));
	c->loops = talloc_array(c, struct loop_frame,
				prog->max_loop_depth ? prog->max_loop_depth : 1);
	if (c->randstr == NULL || c->handles == NULL || c->loops == NULL)
		goto nomem;

	setup_ns = now_ns();
	rc = be->setup(c, &cfg, &c->be_state, &err);
	STORE(c->live->setup_ns, now_ns() - setup_ns);
	if (rc != 0) {
		fprintf(stderr, "dbench: client %u: %s backend setup: %s\n",
			client, be->name, err ? err : "failed");
		talloc_free(c);
		return NULL;
	}
	return c;

nomem:
	fprintf(stderr, "dbench: client %u: out of memory\n", client);
	talloc_free(c);
	return NULL;
}

void client_start(struct client *c, uint64_t start_ns)
{
	c->start_ns = start_ns;
	c->pass_start_ns = start_ns;
	STORE(c->slot->start_ns, start_ns);
	STORE(c->live->state, CLIENT_RUNNING);
}

bool client_failed(const struct client *c)
{
	return c->failed;
}

uint64_t client_wake_at(const struct client *c)
{
	return c->wake_ns;
}

int client_cleanup(struct client *c)
{
	char **trees;
	size_t n = 0;
	int failed = 0;

	STORE(c->live->state, CLIENT_CLEANUP);
	if (c->opts->skip_cleanup)
		return 0;
	trees = client_trees(c, c->prog, c->id, &n);
	if (trees == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int ret = c->be->cleanup(c->be_state, trees[i]);

		if (ret != 0) {
			fprintf(stderr, "dbench: client %u: cleanup of %s: "
				"%s\n", c->id, trees[i], strerror(-ret));
			failed = -1;
		}
	}
	talloc_free(trees);
	return failed;
}
