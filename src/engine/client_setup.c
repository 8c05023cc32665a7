/*
 * client_setup.c - a client's life outside its replay (client.h):
 * create it and set up its backend, mark its start, answer for it, and
 * remove its tree at the end.  The replay itself is client.c.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <talloc.h>

#include "util/atomic.h"
#include "engine/client.h"
#include "loadfile/client_tree.h"
#include "util/util.h"

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

/*
 * n bytes of zeros to write: pages of an anonymous mapping that is never
 * written, so that every read of it (the write's copy in the kernel)
 * maps the kernel's one zero page.  A buffer filled with zeros would be
 * n bytes of the worker's own memory (64 KB of each worker's 0.17 MiB at
 * 1,024 clients of client.txt).  Grown by a new mapping, a power of two.
 */
static const uint8_t *write_zeros(struct client *c, size_t n)
{
	size_t len = 64 * 1024;
	void *owner, *p;

	if (n <= c->zeros_len)
		return c->zeros;
	while (len < n && len <= SIZE_MAX / 2)
		len *= 2;
	owner = talloc_new(c);
	p = owner != NULL ? util_map(owner, len, MAP_PRIVATE | MAP_NORESERVE) :
			    NULL;
	if (p == NULL) {
		talloc_free(owner);
		return NULL;
	}
	talloc_free(c->zeros_owner);
	c->zeros_owner = owner;
	c->zeros = p;
	c->zeros_len = len;
	return p;
}

/* Make wbuf hold at least n bytes of the current pattern. */
const uint8_t *client_write_data(struct client *c, size_t n)
{
	if (c->pattern == NULL)
		return write_zeros(c, n);
	if (n <= c->wbuf_len)
		return c->wbuf;
	uint8_t *p = talloc_realloc(c, c->wbuf, uint8_t, n);

	if (p == NULL)
		return NULL;
	c->wbuf = p;
	for (size_t i = c->wbuf_len; i < n; i++)
		p[i] = (uint8_t)c->pattern[i % c->pattern_len];
	c->wbuf_len = n;
	return p;
}
