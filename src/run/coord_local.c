/*
 * coord_local.c - the coordinator of a run on one host (coord.h): this
 * host's sample is the whole run's, it decides by itself, prints, and its
 * result is the run's.
 */
#include "config.h"

#include <talloc.h>

#include "run/coord.h"

static int local_start(struct coord *c, bool local_ok, bool *go)
{
	(void)c;
	*go = local_ok;
	return 0;
}

static int local_step(struct coord *c, enum coord_when when,
		      uint64_t elapsed_ns, const struct coord_sample *local,
		      struct coord_out *out)
{
	out->global = *local;
	coord_policy_step(&c->policy, when, elapsed_ns, &out->global, out);
	out->print = out->print && c->prints;
	return 0;
}

static int local_gather(struct coord *c, void *mem_ctx,
			struct run_result *local, struct run_result **merged)
{
	(void)c;
	(void)mem_ctx;
	*merged = local;
	return 0;
}

static const struct coord_ops coord_local_ops = {
	.name = "local",
	.start = local_start,
	.step = local_step,
	.gather = local_gather,
};

struct coord *coord_local_new(void *mem_ctx, const struct dbench_options *o)
{
	struct coord *c = talloc_zero(mem_ctx, struct coord);

	if (c == NULL)
		return NULL;
	c->ops = &coord_local_ops;
	c->opts = o;
	c->prints = true;
	c->client_id_base = 0;
	c->host = 0;
	c->nhosts = 1;
	coord_policy_init(&c->policy, o);
	return c;
}
