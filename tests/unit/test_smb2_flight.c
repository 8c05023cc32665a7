/*
 * test_smb2_flight.c - the SMB2 client's requests in flight
 * (smb2_flight() of src/backends/smb/smb2_conn.c) against a scripted
 * server on the other end of a socketpair, in a thread: every request of
 * a batch is sent before the first answer is read (the server answers
 * only once it holds them all, so a client that waited for each answer
 * would time out), answers in any order reach the request of their
 * message id, an interim STATUS_PENDING answer is waited past, no more
 * requests are outstanding than the server granted credits for (the
 * client waits for answers rather than fail), each answer is progress
 * for the run's stall watch (util_beat()), and a connection lost
 * mid-flight ends the batch with one error that says how many answers
 * came.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cmocka.h>
#include <talloc.h>

#include "backends/smb/smb2_private.h"
#include "util/util.h"

#include "talloc_fixture.h"

#define NREQ_MAX 16

/* The server's script and what it saw. */
struct server {
	int fd;
	unsigned want;		/* requests to read before answering */
	unsigned answer;	/* answers to give (then close) */
	bool reverse;		/* answer the last request first */
	bool pending;		/* an interim answer before the first */
	uint16_t grant;		/* credits granted per answer */
	/* credit check: requests read one by one, at most max_out
	 * outstanding (answered one at a time as they come) */
	unsigned max_out;
	uint64_t mid[NREQ_MAX];
	uint16_t cmd[NREQ_MAX];
	unsigned got, most_out;
	bool bad;
};

static int read_full(int fd, uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t r = read(fd, p, n);

		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Whether the client sent more within 50 ms. */
static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 50) == 1;
}

/* One request frame: its message id and command kept. */
static int srv_read(struct server *s)
{
	uint8_t nb[4], msg[512];
	size_t len;

	if (read_full(s->fd, nb, 4) != 0)
		return -1;
	len = (size_t)nb[1] << 16 | (size_t)nb[2] << 8 | nb[3];
	if (len < SMB2_HDR_SIZE || len > sizeof(msg) ||
	    read_full(s->fd, msg, len) != 0 || s->got == NREQ_MAX) {
		s->bad = true;
		return -1;
	}
	s->mid[s->got] = smb2_get64(msg + SMB2_H_MID);
	s->cmd[s->got++] = smb2_get16(msg + SMB2_H_CMD);
	return 0;
}

/* The answer to request i: a READ response whose DataLength is 1000 +
 * i, or an interim one. */
static void srv_answer(struct server *s, unsigned i, bool interim)
{
	uint8_t f[4 + SMB2_HDR_SIZE + 17] = { 0 }, *h = f + 4;
	uint32_t flags = SMB2_FLAGS_RESPONSE | (interim ? SMB2_FLAGS_ASYNC : 0);

	f[3] = SMB2_HDR_SIZE + 17;
	memcpy(h, "\xfeSMB", 4);
	smb2_put16(h + 4, SMB2_HDR_SIZE);
	smb2_put32(h + SMB2_H_STATUS, interim ? STATUS_PENDING : 0);
	smb2_put16(h + SMB2_H_CMD, s->cmd[i]);
	smb2_put16(h + SMB2_H_CREDIT, interim ? 0 : s->grant);
	smb2_put32(h + SMB2_H_FLAGS, flags);
	smb2_put64(h + SMB2_H_MID, s->mid[i]);
	smb2_put16(h + SMB2_HDR_SIZE, 17);
	smb2_put32(h + SMB2_HDR_SIZE + 4, 1000 + i);
	if (send(s->fd, f, sizeof(f), MSG_NOSIGNAL) != (ssize_t)sizeof(f))
		s->bad = true;
}

/* Read s->want requests, then answer s->answer of them; or, with
 * max_out, answer each as the next comes, the oldest first. */
static void *srv_run(void *arg)
{
	struct server *s = arg;
	unsigned answered = 0;

	if (s->max_out > 0) {
		while (answered < s->want) {
			/* what the client sends before it waits */
			while (s->got < s->want && s->got - answered <
			       s->max_out && (s->got == answered ||
					      readable(s->fd)) &&
			       srv_read(s) == 0)
				;
			if (s->got - answered > s->most_out)
				s->most_out = s->got - answered;
			srv_answer(s, answered++, false);
		}
		return NULL;
	}
	while (s->got < s->want && srv_read(s) == 0)
		;
	if (s->pending)
		srv_answer(s, s->reverse ? s->got - 1 : 0, true);
	for (unsigned i = 0; i < s->answer && i < s->got; i++)
		srv_answer(s, s->reverse ? s->got - 1 - i : i, false);
	close(s->fd);
	return NULL;
}

/* The client's batch: READs, each answer's DataLength kept by request. */
struct batch {
	uint8_t body[49];
	uint32_t len[NREQ_MAX];
	unsigned order[NREQ_MAX], done;
};

static int build(void *arg, unsigned k, struct smb2_req *req)
{
	struct batch *b = arg;

	memset(b->body, 0, sizeof(b->body));
	smb2_put16(b->body, 49);
	smb2_put32(b->body + 4, 65536);
	smb2_put64(b->body + 8, (uint64_t)k * 65536);
	*req = (struct smb2_req){ .cmd = SMB2_READ, .body = b->body,
				  .body_len = sizeof(b->body) };
	return 0;
}

static int done(void *arg, unsigned k, const struct smb2_req *req)
{
	struct batch *b = arg;

	if (req->status == 0 && req->rbody_len >= 8)
		b->len[k] = smb2_get32(req->rbody + 4);
	b->order[b->done++] = k;
	return 0;
}

/* A client connection over one end of a socketpair (the server's end in
 * *sfd), 2.1, no signing, credits granted so far. */
static struct smb2_conn *client(void *mem, int *sfd, uint32_t credits)
{
	struct smb2_conn *c = talloc_zero(mem, struct smb2_conn);
	int sv[2];

	assert_non_null(c);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	c->fd = sv[0];
	*sfd = sv[1];
	c->timeout_s = 2;
	c->dialect = SMB2_DIALECT_210;
	c->credits = credits;
	c->in_flight = SMB2_IN_FLIGHT;
	c->mid = 7;
	c->in = talloc_size(c, SMB2_IN_SIZE);
	assert_non_null(c->in);
	{
		struct timeval tv = { .tv_sec = 2 };

		setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	return c;
}

static int run(struct smb2_conn *c, struct server *s, struct batch *b,
	       unsigned cnt, unsigned *answered)
{
	struct smb2_flight f = { .cnt = cnt, .build = build, .done = done,
				 .arg = b };
	pthread_t t;
	int r;

	assert_int_equal(pthread_create(&t, NULL, srv_run, s), 0);
	r = smb2_flight(c, &f);
	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
	pthread_join(t, NULL);
	if (s->max_out > 0)
		close(s->fd);
	*answered = f.answered;
	return r;
}

/* All five sent before any answer (the server waits for all of them),
 * answered last first after an interim answer: each answer reaches its
 * own request. */
static void test_all_sent_first_any_order(void **state)
{
	struct tstate *ts = *state;
	struct server s = { .want = 5, .answer = 5, .reverse = true,
			    .pending = true, .grant = 1 };
	struct batch b = { 0 };
	struct smb2_conn *c = client(ts->ctx, &s.fd, 64);
	unsigned answered;
	uint64_t beat = 0;

	util_beat_at(&beat);
	assert_int_equal(run(c, &s, &b, 5, &answered), 0);
	util_beat_at(NULL);
	/* each answer (and the interim one) moved the stall watch on */
	assert_int_equal(beat, 6);
	assert_false(s.bad);
	assert_int_equal(s.got, 5);
	assert_int_equal(answered, 5);
	assert_int_equal(b.done, 5);
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(s.mid[i], 7 + i);	/* one id each */
		assert_int_equal(s.cmd[i], SMB2_READ);
		assert_int_equal(b.len[i], 1000 + i);	/* its own answer */
		assert_int_equal(b.order[i], 4 - i);	/* as they came */
	}
	talloc_free(c);
}

/* Two credits, one more per answer: never more than two outstanding,
 * and all eight answered (the client waits for credits). */
static void test_credits_bound_the_flight(void **state)
{
	struct tstate *ts = *state;
	struct server s = { .want = 8, .max_out = 8, .grant = 1 };
	struct batch b = { 0 };
	struct smb2_conn *c = client(ts->ctx, &s.fd, 2);
	unsigned answered;

	assert_int_equal(run(c, &s, &b, 8, &answered), 0);
	assert_false(s.bad);
	assert_int_equal(answered, 8);
	assert_in_range(s.most_out, 1, 2);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(b.len[i], 1000 + i);
	talloc_free(c);
}

/* The server answers two of four, then hangs up: one error that says
 * so, and the connection is down. */
static void test_lost_mid_flight(void **state)
{
	struct tstate *ts = *state;
	struct server s = { .want = 4, .answer = 2, .grant = 1 };
	struct batch b = { 0 };
	struct smb2_conn *c = client(ts->ctx, &s.fd, 64);
	unsigned answered;
	int r = run(c, &s, &b, 4, &answered);

	assert_int_equal(r, -ECONNRESET);
	assert_int_equal(answered, 2);
	assert_int_equal(b.done, 2);
	assert_false(smb2_connected(c));
	assert_string_equal(smb2_error(c), "receive from the server: "
			    "connection closed (2 of 4 requests in flight "
			    "answered)");
	talloc_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_all_sent_first_any_order,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_credits_bound_the_flight,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_lost_mid_flight, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
