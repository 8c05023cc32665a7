/*
 * iscsi.c - the iscsi backend (-B iscsi --iscsi=iscsi://HOST[:PORT]/IQN/LUN):
 * dbench 5.0's SCSI dialect spoken to an iSCSI LUN through libiscsi, each
 * client its own session (initiator name NAME-N for client N).  The
 * commands, checks and statuses are scsi_run.c's, shared with -B scsi.
 *
 * A lost target never hangs the run: every command has a timeout and
 * libiscsi does not reconnect, so the op ends with no status and the
 * client stops with the transport's words.  A key the client registered
 * (and the reservation it holds) is unregistered at the client's end.
 * A password in the URL (iscsi://USER%PASS@HOST/...) never appears in a
 * message: the URL is named without its user part.
 *
 * Built without libiscsi, only the name, options and the reason remain.
 */
#include "config.h"

#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <talloc.h>

#include "backends/backend.h"
#include "backends/backends.h"

enum { ISCSI_OPT_URL = 1, ISCSI_OPT_INITIATOR };

static const struct poptOption iscsi_options[] = {
	{ "iscsi", 0, POPT_ARG_STRING, NULL, ISCSI_OPT_URL,
	  "the LUN: iscsi://[USER%PASS@]HOST[:PORT]/IQN/LUN", "URL" },
	{ "iscsi-initiatorname", 0, POPT_ARG_STRING, NULL, ISCSI_OPT_INITIATOR,
	  "initiator name; client N logs in as NAME-N "
	  "(iqn.2011-09.org.samba.dbench:client)", "IQN" },
	POPT_TABLEEND
};

#define ISCSI_DESCRIPTION "the SCSI dialect to an iSCSI LUN through libiscsi"
#define ISCSI_FLAGS (BACKEND_OWN_TARGET | BACKEND_DEVICE)

#ifdef HAVE_LIBISCSI

#include <poll.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "util/util.h"

#include "backends/device/device_range.h"
#include "backends/device/scsi_run.h"

#define ISCSI_DEFAULT_INITIATOR "iqn.2011-09.org.samba.dbench:client"
/* seconds a command or a login may take before the op fails */
#define ISCSI_TIMEOUT 5

struct iscsi_opts {
	const char *url;
	const char *shown;	/* the URL without its user part */
	const char *initiator;
};

static int iscsi_option(void *mem, void **bopts, int val, const char *arg,
			char **err)
{
	struct iscsi_opts *io = *bopts;
	const char *at, *p;

	if (io == NULL && (io = *bopts = talloc_zero(mem,
						     struct iscsi_opts)) == NULL)
		return -1;
	if (val == ISCSI_OPT_INITIATOR) {
		if (arg == NULL || arg[0] == '\0') {
			*err = talloc_strdup(mem, "expected an initiator name");
			return -1;
		}
		io->initiator = talloc_strdup(io, arg);
		return io->initiator != NULL ? 0 : -1;
	}
	if (arg == NULL || strncmp(arg, "iscsi://", 8) != 0 ||
	    strchr(arg + 8, '/') == NULL) {
		*err = talloc_strdup(mem, "expected iscsi://HOST[:PORT]/IQN/LUN");
		return -1;
	}
	io->url = talloc_strdup(io, arg);
	p = arg + 8;
	at = strchr(p, '@');
	if (at != NULL && at < strchr(p, '/'))
		p = at + 1;
	io->shown = talloc_asprintf(io, "iscsi://%s", p);
	return io->url && io->shown ? 0 : -1;
}

static int iscsi_options_done(void *mem, void **bopts, char **err)
{
	struct iscsi_opts *io = *bopts;

	if (io == NULL || io->url == NULL) {
		*err = talloc_strdup(mem, "--iscsi=URL is required (the LUN, "
				     "iscsi://HOST[:PORT]/IQN/LUN)");
		return -1;
	}
	if (io->initiator == NULL)
		io->initiator = ISCSI_DEFAULT_INITIATOR;
	return 0;
}

/* libiscsi's last error, on one line (under mem). */
static char *iscsi_words(void *mem, struct iscsi_context *ctx)
{
	const char *e = iscsi_get_error(ctx);
	char *w = talloc_strdup(mem, e != NULL && e[0] != '\0' ? e :
				     "no reason given");
	size_t n;

	if (w == NULL)
		return NULL;
	for (char *p = w; *p != '\0'; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	n = strlen(w);
	while (n > 0 && w[n - 1] == ' ')
		w[--n] = '\0';
	return w;
}

struct iscsi_state {
	struct scsi_dev dev;
	struct iscsi_context *ctx;
	int lun;
	bool connected;
	bool broken;		/* a command failed: no more, no logout */
	char *words;		/* libiscsi's last error */
	struct iscsi_wait *wait;
};

/*
 * One command in flight.  It lives as long as the context: a command
 * given up on (the connection failed, the deadline passed) stays queued
 * in libiscsi until the context goes, whose cancellation then calls back
 * here, and frees the task, rather than into a stack frame long gone.
 */
struct iscsi_wait {
	bool done;
	bool abandoned;
	int status;
	struct scsi_task *task;
};

static void iscsi_done(struct iscsi_context *ctx, int status, void *data,
		       void *private_data)
{
	struct iscsi_wait *w = private_data;

	(void)ctx;
	if (w->abandoned) {
		if (data != NULL)
			scsi_free_scsi_task(data);
		return;
	}
	w->done = true;
	w->status = status;
}

/* Serve the session until w is done: poll, with iscsi_service() at least
 * every 250 ms so that libiscsi's timeouts fire even when the target is
 * silent (stopped, not gone).  Returns 0, or -1 when the session failed
 * or the command outlived ISCSI_TIMEOUT + 2 s. */
static int iscsi_wait_for(struct iscsi_state *s, struct iscsi_wait *w)
{
	uint64_t deadline = now_ns() + (ISCSI_TIMEOUT + 2) * 1000000000ull;

	while (!w->done) {
		struct pollfd pfd = { .fd = iscsi_get_fd(s->ctx),
				      .events = (short)iscsi_which_events(
					      s->ctx) };
		int n = poll(&pfd, 1, 250);

		if (n < 0 && errno != EINTR)
			return -1;
		if (iscsi_service(s->ctx, n > 0 ? pfd.revents : 0) < 0 &&
		    !w->done)
			return -1;
		if (!w->done && now_ns() > deadline)
			return -1;
	}
	return 0;
}

static int iscsi_exec(void *t, const struct scsi_cmd *c, uint8_t *buf,
		      struct scsi_outcome *o)
{
	struct iscsi_state *s = t;
	struct iscsi_data data = { .size = c->xfer, .data = buf };
	struct iscsi_wait *w = s->wait;
	struct scsi_task *task;
	int dir = c->dir == SCSI_DIR_READ  ? SCSI_XFER_READ :
		  c->dir == SCSI_DIR_WRITE ? SCSI_XFER_WRITE :
					     SCSI_XFER_NONE;

	if (s->broken) {
		o->err = ENOTCONN;
		o->msg = "the session failed earlier";
		return -1;
	}
	task = scsi_create_task(c->cdb_len, (unsigned char *)c->cdb, dir,
				(int)c->xfer);
	if (task == NULL) {
		o->err = ENOMEM;
		return -1;
	}
	memset(w, 0, sizeof(*w));
	if (iscsi_scsi_command_async(s->ctx, s->lun, task, iscsi_done,
				     dir == SCSI_XFER_WRITE ? &data : NULL,
				     w) != 0) {
		scsi_free_scsi_task(task);
		goto broken;
	}
	if (iscsi_wait_for(s, w) != 0) {
		/* libiscsi still holds the task: freed when it calls back */
		w->abandoned = true;
		s->wait = talloc_zero(s, struct iscsi_wait);
		if (s->wait == NULL)
			s->wait = w; /* (no memory: better a leak) */
		goto broken;
	}
	if ((w->status & 0x0F000000) != 0) {
		o->err = w->status == SCSI_STATUS_TIMEOUT ? ETIMEDOUT :
							    ECONNRESET;
		scsi_free_scsi_task(task);
		goto words;
	}
	o->status = (unsigned)task->status;
	o->sense_key = (uint8_t)task->sense.key;
	o->ascq = (uint16_t)task->sense.ascq;
	if (dir == SCSI_XFER_READ && task->datain.data != NULL) {
		o->got = (uint32_t)task->datain.size < c->xfer ?
				 (uint32_t)task->datain.size :
				 c->xfer;
		memcpy(buf, task->datain.data, o->got);
	}
	scsi_free_scsi_task(task);
	return 0;
broken:
	o->err = ECONNRESET;
words:
	s->broken = true;
	talloc_free(s->words);
	s->words = iscsi_words(s, s->ctx);
	o->msg = s->words;
	return -1;
}

static const struct scsi_transport iscsi_transport = { .exec = iscsi_exec };

static int iscsi_state_free(struct iscsi_state *s)
{
	if (s->ctx != NULL) {
		if (s->connected && !s->broken) {
			scsi_dev_release(&s->dev);
			if (!s->broken)
				iscsi_logout_sync(s->ctx);
		}
		iscsi_destroy_context(s->ctx);
	}
	scsi_dev_free(&s->dev);
	return 0;
}

/* A session with the LUN, logged in as initiator; its capacity read. */
static struct iscsi_state *iscsi_open(void *mem, const struct iscsi_opts *io,
				      const char *initiator, bool writes,
				      char **err)
{
	struct iscsi_state *s = talloc_zero(mem, struct iscsi_state);
	struct iscsi_url *u;

	if (s == NULL)
		return NULL;
	s->wait = talloc_zero(s, struct iscsi_wait);
	if (s->wait == NULL) {
		talloc_free(s);
		return NULL;
	}
	talloc_set_destructor(s, iscsi_state_free);
	s->dev.tr = &iscsi_transport;
	s->dev.t = s;
	s->dev.name = io->shown;
	s->dev.allow_writes = writes;
	s->ctx = iscsi_create_context(initiator);
	if (s->ctx == NULL) {
		*err = talloc_asprintf(mem, "--iscsi: cannot create an iSCSI "
				       "context for initiator '%s'", initiator);
		goto fail;
	}
	u = iscsi_parse_full_url(s->ctx, io->url);
	if (u == NULL) {
		*err = talloc_asprintf(mem, "--iscsi: %s: expected "
				       "iscsi://HOST[:PORT]/IQN/LUN",
				       io->shown);
		goto fail;
	}
	s->lun = u->lun;
	iscsi_set_targetname(s->ctx, u->target);
	iscsi_set_session_type(s->ctx, ISCSI_SESSION_NORMAL);
	iscsi_set_header_digest(s->ctx, ISCSI_HEADER_DIGEST_NONE_CRC32C);
	iscsi_set_timeout(s->ctx, ISCSI_TIMEOUT);
	iscsi_set_noautoreconnect(s->ctx, 1);
	iscsi_set_reconnect_max_retries(s->ctx, 0);
	if (u->user[0] != '\0')
		iscsi_set_initiator_username_pwd(s->ctx, u->user, u->passwd);
	if (iscsi_full_connect_sync(s->ctx, u->portal, u->lun) != 0) {
		*err = talloc_asprintf(mem, "--iscsi: %s: login failed: %s",
				       io->shown, iscsi_words(mem, s->ctx));
		iscsi_destroy_url(u);
		goto fail;
	}
	iscsi_destroy_url(u);
	s->connected = true;
	if (scsi_dev_capacity(mem, &s->dev, err) != 0)
		goto fail;
	return s;
fail:
	talloc_free(s);
	return NULL;
}

static int iscsi_target_check(void *mem, const struct dbench_options *o,
			      const char *target, char **err)
{
	const struct iscsi_opts *io = o->backend_opts;
	char *name = talloc_asprintf(mem, "%s-check", io->initiator);
	struct iscsi_state *s;

	(void)target;
	s = iscsi_open(mem, io, name, false, err);
	if (s == NULL)
		return -1;
	talloc_free(s);
	return 0;
}

static int iscsi_program_check(void *mem, const struct dbench_options *o,
			       const struct program *p, char **err)
{
	const struct iscsi_opts *io = o->backend_opts;
	char *name = talloc_asprintf(mem, "%s-check", io->initiator);
	struct iscsi_state *s = iscsi_open(mem, io, name, false, err);
	struct device_range r = { .device = io->shown };
	int rc;

	if (s == NULL)
		return -1;
	r.unit = s->dev.block_size;
	r.size = s->dev.blocks * s->dev.block_size;
	r.allow_writes = o->allow_device_writes;
	r.writes_flag = "--allow-scsi-writes";
	talloc_free(s);
	rc = device_range_check(mem, &r, p, err);
	return rc;
}

static int iscsi_setup(void *mem, const struct backend_client_config *cfg,
		       void **state, char **err)
{
	const struct iscsi_opts *io = cfg->opts->backend_opts;
	char *name = talloc_asprintf(mem, "%s-%u", io->initiator,
				     cfg->client);
	struct iscsi_state *s;

	if (name == NULL)
		return -1;
	s = iscsi_open(mem, io, name, cfg->opts->allow_device_writes, err);
	if (s == NULL)
		return -1;
	*state = s;
	return 0;
}

const struct backend iscsi_backend = {
	.abi = BACKEND_ABI,
	.name = "iscsi",
	.description = ISCSI_DESCRIPTION,
	.unavailable = NULL,
	.flags = ISCSI_FLAGS,
	.options = iscsi_options,
	.option = iscsi_option,
	.options_done = iscsi_options_done,
	.target_check = iscsi_target_check,
	.client_fds = scsi_backend_client_fds,
	.program_check = iscsi_program_check,
	.setup = iscsi_setup,
	.cleanup = scsi_backend_cleanup,
	.ops = { SCSI_BACKEND_OPS },
};

#else /* !HAVE_LIBISCSI */

BACKEND_UNAVAILABLE(iscsi, ISCSI_DESCRIPTION, ISCSI_FLAGS, iscsi_options,
		    "built without libiscsi (install libiscsi-dev and run "
		    "configure again)");

#endif
