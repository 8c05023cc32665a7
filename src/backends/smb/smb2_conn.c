/*
 * smb2_conn.c - the transport of the SMB2 client: the TCP connection,
 * NetBIOS session framing, message ids and credits, one request or a
 * related compound per message (signed or encrypted as the session
 * says), and the responses, interim ones (STATUS_PENDING) skipped, chained
 * ones split; a response read with one recv where it fits; each frame
 * received is progress for the run's stall watch (util_beat()).  One
 * exchange at a time per connection: a dbench client waits for each
 * operation's answer before the next.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <talloc.h>

#include "smb2_private.h"
#include "util/util.h"

#define SMB2_CREDITS_ASK	64	/* credits asked for per request */

int smb2_fail(struct smb2_conn *c, int err, const char *fmt, ...)
{
	va_list ap;

	talloc_free(c->err);
	va_start(ap, fmt);
	c->err = talloc_vasprintf(c, fmt, ap);
	va_end(ap);
	return -err;
}

const char *smb2_error(const struct smb2_conn *c)
{
	return c->err != NULL ? c->err : "no error";
}

bool smb2_connected(const struct smb2_conn *c)
{
	return c->fd >= 0;
}

uint16_t smb2_dialect(const struct smb2_conn *c)
{
	return c->dialect;
}

bool smb2_signing(const struct smb2_conn *c)
{
	return c->sign;
}

bool smb2_encrypting(const struct smb2_conn *c)
{
	return c->encrypt;
}

long smb2_utf16(uint8_t *out, const char *s, size_t n, bool slashes)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	uint8_t *o = out;

	while (p < end) {
		uint32_t cp = *p++;
		int more = cp < 0x80 ? 0 : cp >= 0xf0 ? 3 : cp >= 0xe0 ? 2 :
			   cp >= 0xc0 ? 1 : -1;

		if (more < 0 || end - p < more)
			return -1;
		if (more > 0)
			cp &= 0x3f >> more;
		for (int i = 0; i < more; i++) {
			if ((*p & 0xc0) != 0x80)
				return -1;
			cp = cp << 6 | (*p++ & 0x3f);
		}
		if (slashes && cp == '/')
			cp = '\\';
		if (cp >= 0x10000) {
			cp -= 0x10000;
			smb2_put16(o, (uint16_t)(0xd800 | cp >> 10));
			smb2_put16(o + 2, (uint16_t)(0xdc00 | (cp & 0x3ff)));
			o += 4;
		} else {
			smb2_put16(o, (uint16_t)cp);
			o += 2;
		}
	}
	return (long)(o - out);
}

/* ---- the socket ---- */

/*
 * Connect fd to a without blocking beyond c->timeout_s: a connection never
 * accepted (a full queue, a dropped SYN) is ETIMEDOUT then.  0 or an
 * errno.
 */
static int smb2_connect_fd(struct smb2_conn *c, int fd,
			   const struct addrinfo *a)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	int flags = fcntl(fd, F_GETFL), err = 0, r;
	socklen_t len = sizeof(err);

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)
		return errno;
	if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
		return fcntl(fd, F_SETFL, flags) == 0 ? 0 : errno;
	if (errno != EINPROGRESS)
		return errno;
	do
		r = poll(&pfd, 1, (int)c->timeout_s * 1000);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return ETIMEDOUT;
	if (r < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
		return errno;
	if (err != 0)
		return err;
	return fcntl(fd, F_SETFL, flags) == 0 ? 0 : errno;
}

static int smb2_tcp(struct smb2_conn *c, const struct smb2_params *p)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	char port[16];
	struct timeval tv = { .tv_sec = c->timeout_s };
	int r, fd = -1, one = 1;

	snprintf(port, sizeof(port), "%u", p->port ? p->port : 445);
	r = getaddrinfo(p->server, port, &hints, &ai);
	if (r != 0)
		return smb2_fail(c, EHOSTUNREACH, "%s: %s", p->server,
				 gai_strerror(r));
	r = ECONNREFUSED;
	for (a = ai; a != NULL; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC,
			    a->ai_protocol);
		if (fd < 0) {
			r = errno;
			continue;
		}
		r = smb2_connect_fd(c, fd, a);
		if (r == 0)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0 && r == ETIMEDOUT)
		return smb2_fail(c, r, "%s:%s: connect: %s (no answer in %u s)",
				 p->server, port, strerror(r), c->timeout_s);
	if (fd < 0)
		return smb2_fail(c, r, "%s:%s: connect: %s", p->server, port,
				 strerror(r));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	c->fd = fd;
	return 0;
}

static int smb2_destructor(struct smb2_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	explicit_bzero(c->sign_key, sizeof(c->sign_key));
	explicit_bzero(c->enc_key, sizeof(c->enc_key));
	explicit_bzero(c->dec_key, sizeof(c->dec_key));
	return 0;
}

struct smb2_conn *smb2_conn_new(void *mem, const struct smb2_params *p,
				char **err, int *code)
{
	struct smb2_conn *c = talloc_zero(mem, struct smb2_conn);
	int r;

	*err = NULL;
	*code = ENOMEM;
	if (c == NULL)
		return NULL;
	c->fd = -1;
	c->timeout_s = p->timeout_s ? p->timeout_s : 10;
	c->in_flight = p->in_flight == 0 ? SMB2_IN_FLIGHT :
		       p->in_flight > SMB2_IN_FLIGHT_MAX ? SMB2_IN_FLIGHT_MAX :
		       p->in_flight;
	c->in = talloc_size(c, SMB2_IN_SIZE);
	if (c->in == NULL) {
		talloc_free(c);
		return NULL;
	}
	talloc_set_destructor(c, smb2_destructor);
	if ((r = smb2_tcp(c, p)) != 0) {
		*code = -r;
		*err = talloc_strdup(mem, smb2_error(c));
		talloc_free(c);
		return NULL;
	}
	return c;
}

/* ---- sending ---- */

static int smb2_grow(void *ctx, uint8_t **buf, size_t *size, size_t want)
{
	uint8_t *p;

	if (*size >= want)
		return 0;
	p = talloc_realloc_size(ctx, *buf, want + 4096);
	if (p == NULL)
		return -ENOMEM;
	*buf = p;
	*size = want + 4096;
	return 0;
}

static int smb2_write_all(struct smb2_conn *c, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return smb2_fail(c, ETIMEDOUT, "the server takes nothing "
					 "in %u s", c->timeout_s);
		if (w <= 0)
			return smb2_fail(c, w < 0 ? errno : EPIPE,
					 "send to the server: %s",
					 strerror(w < 0 ? errno : EPIPE));
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The header of request i of n at h. */
static void smb2_header(struct smb2_conn *c, uint8_t *h, uint16_t cmd,
			bool related, uint32_t next)
{
	memset(h, 0, SMB2_HDR_SIZE);
	memcpy(h, "\xfeSMB", 4);
	smb2_put16(h + 4, SMB2_HDR_SIZE);
	smb2_put16(h + SMB2_H_CHARGE, c->dialect > SMB2_DIALECT_202 ? 1 : 0);
	smb2_put16(h + SMB2_H_CMD, cmd);
	smb2_put16(h + SMB2_H_CREDIT, SMB2_CREDITS_ASK);
	smb2_put32(h + SMB2_H_FLAGS, related ? SMB2_FLAGS_RELATED : 0);
	smb2_put32(h + SMB2_H_NEXT, next);
	smb2_put64(h + SMB2_H_MID, c->mid++);
	smb2_put32(h + SMB2_H_TID, c->tid);
	smb2_put64(h + SMB2_H_SID, c->sid);
}

/* The length of request r in a compound (8-aligned but the last). */
static size_t smb2_req_len(const struct smb2_req *r, bool last)
{
	size_t len = SMB2_HDR_SIZE + r->body_len + r->data_len;

	return last ? len : (len + 7) & ~(size_t)7;
}

/* The NetBIOS session message header: type 0, 24-bit length. */
static void smb2_nbss(uint8_t *p, size_t len)
{
	p[0] = 0;
	p[1] = (uint8_t)(len >> 16);
	p[2] = (uint8_t)(len >> 8);
	p[3] = (uint8_t)len;
}

static bool smb2_sign_req(const struct smb2_conn *c, uint16_t cmd)
{
	if (c->encrypt || !c->keys)
		return false;
	return c->sign || (cmd == SMB2_TREE_CONNECT && c->sign_tcon) ||
	       (cmd == SMB2_IOCTL && c->sign_ioctl);
}

/*
 * The message of req[0..n) appended to c->sbuf at *at: its NetBIOS
 * header, then the requests, signed, or encrypted, as the session says;
 * *at moves past it.  The plain message of one packed at 0 stays at
 * c->sbuf + 4 (c->sent_len bytes) unless encrypted.
 */
static int smb2_pack(struct smb2_conn *c, const struct smb2_req *req,
		     unsigned n, size_t *at)
{
	bool enc = c->encrypt && c->keys;
	size_t total = 0, off = 4, wire;
	uint8_t *plain;

	for (unsigned i = 0; i < n; i++)
		total += smb2_req_len(&req[i], i == n - 1);
	wire = 4 + total + (enc ? SMB2_TF_SIZE : 0);
	if (smb2_grow(c, &c->sbuf, &c->sbuf_size, *at + wire) != 0 ||
	    (enc && smb2_grow(c, &c->tbuf, &c->tbuf_size, total + 4) != 0))
		return smb2_fail(c, ENOMEM, "out of memory");
	plain = enc ? c->tbuf : c->sbuf + *at;
	for (unsigned i = 0; i < n; i++) {
		bool last = i == n - 1;
		size_t len = smb2_req_len(&req[i], last);
		size_t used = SMB2_HDR_SIZE + req[i].body_len + req[i].data_len;
		uint8_t *h = plain + off;

		smb2_header(c, h, req[i].cmd, i > 0, last ? 0 : (uint32_t)len);
		memcpy(h + SMB2_HDR_SIZE, req[i].body, req[i].body_len);
		if (req[i].data_len > 0)
			memcpy(h + SMB2_HDR_SIZE + req[i].body_len,
			       req[i].data, req[i].data_len);
		memset(h + used, 0, len - used);
		if (smb2_sign_req(c, req[i].cmd))
			smb2_sign(c, h, len);
		off += len;
	}
	c->sent_len = total;
	if (c->credits >= n)
		c->credits -= n;
	smb2_nbss(c->sbuf + *at, wire - 4);
	if (enc)
		smb2_encrypt(c, plain + 4, total, c->sbuf + *at + 4);
	*at += wire;
	return 0;
}

static int smb2_send(struct smb2_conn *c, const struct smb2_req *req,
		     unsigned n)
{
	size_t at = 0;
	int r = smb2_pack(c, req, n, &at);

	return r != 0 ? r : smb2_write_all(c, c->sbuf, at);
}

/* ---- receiving ---- */

/* recv into p (up to n bytes, at least 1); the socket's SO_RCVTIMEO
 * bounds the wait. */
static ssize_t smb2_recv_some(struct smb2_conn *c, uint8_t *p, size_t n)
{
	for (;;) {
		ssize_t r = recv(c->fd, p, n, 0);

		if (r > 0)
			return r;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return smb2_fail(c, ETIMEDOUT, "no answer from the "
					 "server in %u s", c->timeout_s);
		return smb2_fail(c, r < 0 ? errno : ECONNRESET,
				 "receive from the server: %s",
				 r < 0 ? strerror(errno) : "connection closed");
	}
}

/* n bytes into p: what the input buffer holds first, then the socket
 * (a short want refills the buffer with whatever has arrived, so that a
 * response costs one recv, not two). */
static int smb2_read_all(struct smb2_conn *c, uint8_t *p, size_t n)
{
	while (n > 0) {
		size_t have = c->in_len - c->in_off;
		ssize_t r;

		if (have > 0) {
			size_t k = have < n ? have : n;

			memcpy(p, c->in + c->in_off, k);
			c->in_off += k;
			p += k;
			n -= k;
			continue;
		}
		if (n >= SMB2_IN_SIZE / 2) {
			r = smb2_recv_some(c, p, n);
			if (r < 0)
				return (int)r;
			p += r;
			n -= (size_t)r;
			continue;
		}
		r = smb2_recv_some(c, c->in, SMB2_IN_SIZE);
		if (r < 0)
			return (int)r;
		c->in_off = 0;
		c->in_len = (size_t)r;
	}
	return 0;
}

/* One frame into buffer k; *msg and *len: its SMB2 message(s). */
static int smb2_recv_frame(struct smb2_conn *c, unsigned k, uint8_t **msg,
			   size_t *len)
{
	uint8_t nb[4];
	size_t n;
	int r;

	r = smb2_read_all(c, nb, 4);
	if (r != 0)
		return r;
	n = (size_t)nb[1] << 16 | (size_t)nb[2] << 8 | nb[3];
	if (nb[0] != 0 || n < 4)
		return smb2_fail(c, EPROTO, "a frame of %zu bytes (type %u) "
				 "from the server", n, nb[0]);
	if (smb2_grow(c, &c->rbuf[k], &c->rbuf_size[k], n) != 0)
		return smb2_fail(c, ENOMEM, "out of memory");
	r = smb2_read_all(c, c->rbuf[k], n);
	if (r != 0)
		return r;
	*msg = c->rbuf[k];
	*len = n;
	if (memcmp(*msg, "\xffSMB", 4) == 0)
		return smb2_fail(c, ENOPROTOOPT, "the server answers in SMB1 "
				 "only: --smb-client=native speaks SMB2 and "
				 "SMB3; --smb-client=libsmbclient speaks SMB1 "
				 "(client min protocol = NT1 in smb.conf)");
	if (n < SMB2_HDR_SIZE)
		return smb2_fail(c, EPROTO, "a frame of %zu bytes from the "
				 "server", n);
	if (memcmp(*msg, "\xfdSMB", 4) == 0) {
		long plain = c->keys ? smb2_decrypt(c, *msg, n) : -1;

		if (plain < SMB2_HDR_SIZE)
			return smb2_fail(c, EBADMSG, "an encrypted response "
					 "that does not decrypt");
		*msg += SMB2_TF_SIZE;
		*len = (size_t)plain;
	}
	if (memcmp(*msg, "\xfeSMB", 4) != 0)
		return smb2_fail(c, EPROTO, "not an SMB2 response");
	util_beat();	/* an answer: progress for the stall watch */
	return 0;
}

/* Response at h (len bytes to the end of its frame) to request i? */
static int smb2_take(struct smb2_conn *c, struct smb2_req *req, unsigned n,
		     uint64_t mid0, uint8_t *h, size_t len, unsigned *got)
{
	uint64_t mid = smb2_get64(h + SMB2_H_MID);
	uint32_t flags = smb2_get32(h + SMB2_H_FLAGS);
	uint32_t status = smb2_get32(h + SMB2_H_STATUS);
	unsigned i = (unsigned)(mid - mid0);

	c->credits += smb2_get16(h + SMB2_H_CREDIT);
	if (mid < mid0 || i >= n)
		return smb2_fail(c, EPROTO, "a response to message %llu, "
				 "not asked", (unsigned long long)mid);
	if (status == STATUS_PENDING && (flags & SMB2_FLAGS_ASYNC))
		return 0;	/* interim: the answer comes later */
	if ((flags & SMB2_FLAGS_SIGNED) && c->keys && !c->encrypt &&
	    !smb2_check_sig(c, h, len))
		return smb2_fail(c, EBADMSG, "a response with a bad "
				 "signature");
	req[i].status = status;
	req[i].rbody = h + SMB2_HDR_SIZE;
	req[i].rbody_len = len - SMB2_HDR_SIZE;
	(*got)++;
	return 0;
}

int smb2_exchange(struct smb2_conn *c, struct smb2_req *req, unsigned n)
{
	uint64_t mid0 = c->mid;
	unsigned got = 0, frames = 0;
	int r;

	if (c->fd < 0)
		return smb2_fail(c, ENOTCONN, "not connected");
	for (unsigned i = 0; i < n; i++) {
		req[i].status = STATUS_CONNECTION_DISCONNECTED;
		req[i].rbody = NULL;
		req[i].rbody_len = 0;
	}
	r = smb2_send(c, req, n);
	while (r == 0 && got < n) {
		uint8_t *msg = NULL;
		size_t len = 0;
		unsigned before = got;

		/* a frame of interim responses only is overwritten */
		r = smb2_recv_frame(c, frames, &msg, &len);
		while (r == 0) {
			uint32_t next = smb2_get32(msg + SMB2_H_NEXT);
			size_t one = next != 0 && next < len ? next : len;

			if (one < SMB2_HDR_SIZE + 2) {
				r = smb2_fail(c, EPROTO, "a short response");
				break;
			}
			r = smb2_take(c, req, n, mid0, msg, one, &got);
			if (next == 0 || next >= len)
				break;
			msg += next;
			len -= next;
		}
		if (got > before && frames < SMB2_MAX_CHAIN)
			frames++;
	}
	if (r != 0) {
		close(c->fd);
		c->fd = -1;
	}
	return r;
}

/* ---- several requests in flight ---- */

uint32_t smb2_io_max(const struct smb2_conn *c, bool write)
{
	uint32_t m = write ? c->max_write : c->max_read;

	return m == 0 || m > SMB2_IO_MAX ? SMB2_IO_MAX : m;
}

/* Where a flight stands: request k's message id is mid0 + k; low is the
 * first not yet answered, and bit i of mask whether low + i is. */
struct smb2_fl {
	struct smb2_flight *f;
	uint64_t mid0;
	uint64_t mask;
	unsigned low;
	bool stop;
};

/* Build the flight's next request and pack it at *at. */
static int smb2_fl_pack(struct smb2_conn *c, struct smb2_fl *s, size_t *at)
{
	struct smb2_flight *f = s->f;
	struct smb2_req req = { 0 };
	int r;

	if (f->build(f->arg, f->sent, &req) != 0) {
		s->stop = true;
		return 0;
	}
	r = smb2_pack(c, &req, 1, at);
	if (r == 0)
		f->sent++;
	return r;
}

/* Whether the flight may send its next request now. */
static bool smb2_fl_room(const struct smb2_conn *c, const struct smb2_fl *s)
{
	const struct smb2_flight *f = s->f;

	return !s->stop && f->sent < f->cnt &&
	       f->sent - s->low < c->in_flight &&
	       (c->credits > 0 || f->answered == f->sent);
}

/* The response at h (len bytes) to one of the flight's requests. */
static int smb2_fl_take(struct smb2_conn *c, struct smb2_fl *s, uint8_t *h,
			size_t len)
{
	uint64_t mid = smb2_get64(h + SMB2_H_MID), k = mid - s->mid0;
	uint32_t flags = smb2_get32(h + SMB2_H_FLAGS);
	struct smb2_req r = { .cmd = smb2_get16(h + SMB2_H_CMD),
			      .status = smb2_get32(h + SMB2_H_STATUS),
			      .rbody = h + SMB2_HDR_SIZE,
			      .rbody_len = len - SMB2_HDR_SIZE };

	c->credits += smb2_get16(h + SMB2_H_CREDIT);
	if (mid < s->mid0 || k >= s->f->sent || k < s->low ||
	    (s->mask >> (k - s->low) & 1))
		return smb2_fail(c, EPROTO, "a response to message %llu, "
				 "not asked", (unsigned long long)mid);
	if (r.status == STATUS_PENDING && (flags & SMB2_FLAGS_ASYNC))
		return 0;	/* interim: the answer comes later */
	if ((flags & SMB2_FLAGS_SIGNED) && c->keys && !c->encrypt &&
	    !smb2_check_sig(c, h, len))
		return smb2_fail(c, EBADMSG, "a response with a bad "
				 "signature");
	s->mask |= 1ull << (k - s->low);
	while (s->mask & 1) {
		s->mask >>= 1;
		s->low++;
	}
	s->f->answered++;
	if (s->f->done(s->f->arg, (unsigned)k, &r) != 0)
		s->stop = true;
	return 0;
}

/* One frame of answers (one, or several chained). */
static int smb2_fl_recv(struct smb2_conn *c, struct smb2_fl *s)
{
	uint8_t *msg = NULL;
	size_t len = 0;
	int r = smb2_recv_frame(c, 0, &msg, &len);

	while (r == 0) {
		uint32_t next = smb2_get32(msg + SMB2_H_NEXT);
		size_t one = next != 0 && next < len ? next : len;

		if (one < SMB2_HDR_SIZE + 2)
			return smb2_fail(c, EPROTO, "a short response");
		r = smb2_fl_take(c, s, msg, one);
		if (next == 0 || next >= len)
			break;
		msg += next;
		len -= next;
	}
	return r;
}

int smb2_flight(struct smb2_conn *c, struct smb2_flight *f)
{
	struct smb2_fl s = { .f = f, .mid0 = c->mid };
	int r = 0;

	f->sent = f->answered = 0;
	if (c->fd < 0)
		return smb2_fail(c, ENOTCONN, "not connected");
	while (r == 0 && (f->answered < f->sent ||
			  (!s.stop && f->sent < f->cnt))) {
		size_t at = 0;

		/* what may go now goes in one send */
		while (r == 0 && smb2_fl_room(c, &s))
			r = smb2_fl_pack(c, &s, &at);
		if (r == 0 && at > 0)
			r = smb2_write_all(c, c->sbuf, at);
		else if (r == 0)
			r = smb2_fl_recv(c, &s);
	}
	if (r != 0) {
		char *e = talloc_asprintf(c, "%s (%u of %u requests in "
					  "flight answered)", smb2_error(c),
					  f->answered, f->sent);

		if (e != NULL) {
			talloc_free(c->err);
			c->err = e;
		}
		close(c->fd);
		c->fd = -1;
	}
	return r;
}
