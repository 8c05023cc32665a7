/*
 * tbench_wire.h - the tbench wire format, shared by the sockio backend
 * (the tbench client) and tbench_srv, plus the socket plumbing both use.
 *
 * The format is dbench 4.00's, so that either side can be this project's
 * or the original's:
 *   request: be32 LEN (bytes that follow), be32 WANT (reply payload
 *            length), then LEN - 4 bytes of filler;
 *   reply:   be32 WANT, then WANT bytes of filler.
 * The original describes a request by its total size S and the reply by
 * its total size R (headers included): LEN = S - 4, WANT = R - 4.  The
 * sizes per loadfile op are the original's (tbench_op_sizes), so that
 * byte counts and MB/sec compare with Debian's tbench.
 *
 * Lengths above TBENCH_MAX_LEN are protocol errors on both sides: a
 * garbage peer never makes either side allocate or wait for gigabytes.
 */
#ifndef DBENCH_TBENCH_WIRE_H
#define DBENCH_TBENCH_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "loadfile/op_call.h"

#define TBENCH_DEFAULT_PORT 7003
#define TBENCH_DEFAULT_PORT_STR "7003"
/* The largest LEN or WANT either side accepts (16 MiB; the original's
 * buffers held 70000 bytes, its largest requests are a 64 KiB WriteX). */
#define TBENCH_MAX_LEN (16u * 1024 * 1024)
#define TBENCH_REQ_HDR 8
#define TBENCH_REPLY_HDR 4

/* Store v big-endian at p / read it back. */
static inline void tbench_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint32_t tbench_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/*
 * The exchange the original performs for one op: *send_total and
 * *recv_total are the original's request and reply sizes, headers
 * included; *bytes what it adds to the throughput (WriteX its size,
 * ReadX the size the loadfile says it returned, others 0).  dir_len is
 * the length of the client's directory as the original prefixes it to
 * every path ("." + "/": 1).  Returns 1 when the op sends a request, 0
 * when the original sends nothing for it (Deltree; our own DropCache).
 * Negative sizes in call->arg[] count as 0; sizes are capped so that
 * the totals stay within TBENCH_MAX_LEN + 4.
 */
int tbench_op_sizes(enum op_kind kind, const struct op_call *call,
		    size_t dir_len, uint32_t *send_total,
		    uint32_t *recv_total, uint64_t *bytes);

/* The 8-byte header of a request of send_total bytes (at least 8) that
 * wants a reply of recv_total bytes (at least 4). */
void tbench_encode_request(uint8_t hdr[TBENCH_REQ_HDR], uint32_t send_total,
			   uint32_t recv_total);

/*
 * Decode a request header: *body is the filler that follows the header
 * (LEN - 4), *want the reply payload length.  Returns 0, or -1 when LEN
 * is below 4 or LEN or WANT is above TBENCH_MAX_LEN (a protocol error).
 */
int tbench_decode_request(const uint8_t hdr[TBENCH_REQ_HDR], uint32_t *body,
			  uint32_t *want);

/*
 * Check a reply header against the payload length asked for.  Returns 0
 * when it matches; -1 otherwise, with *got the length the peer sent.
 */
int tbench_check_reply(const uint8_t hdr[TBENCH_REPLY_HDR], uint32_t want,
		       uint32_t *got);

/* One socket option of -T, ready for setsockopt(). */
struct tbench_sockopt {
	const char *name;	/* canonical spelling, e.g. "SO_SNDBUF" */
	int level, optname;
	int value;
	int is_timeval;		/* SO_SNDTIMEO/SO_RCVTIMEO: value is seconds */
};

/* The most options one -T list may hold. */
#define TBENCH_MAX_SOCKOPTS 16

/*
 * Parse a -T list as the original does: items separated by commas,
 * spaces or tabs, each NAME or NAME=NUMBER, names case-insensitive:
 * SO_KEEPALIVE, SO_REUSEADDR, SO_BROADCAST, TCP_NODELAY (flags, value 1
 * when none is given), IPTOS_LOWDELAY, IPTOS_THROUGHPUT (IP_TOS),
 * SO_SNDBUF, SO_RCVBUF, SO_SNDLOWAT, SO_RCVLOWAT, SO_SNDTIMEO,
 * SO_RCVTIMEO (a number is required).  Unlike the original, an unknown
 * name or a bad number is an error, not a warning, and so is SO_SNDLOWAT
 * on Linux, which never lets it be set.  Returns the number
 * of options stored in out[0..max), or -1 with *err (under mem_ctx).
 */
int tbench_parse_sockopts(void *mem_ctx, const char *s,
			  struct tbench_sockopt *out, size_t max, char **err);

/* Apply opts[0..n) to fd.  Returns 0, or -1 with errno and *bad the name
 * of the option the kernel refused. */
int tbench_apply_sockopts(int fd, const struct tbench_sockopt *opts,
			  size_t n, const char **bad);

/*
 * Split "HOST[:PORT]" ("[V6]:PORT" for IPv6) into *host and *port
 * (TBENCH_DEFAULT_PORT_STR when none is given), both under mem_ctx.
 * Returns 0, or -1 with *err.
 */
int tbench_split_server(void *mem_ctx, const char *spec, char **host,
			char **port, char **err);

/*
 * Connect a TCP socket to host:port (each address getaddrinfo gives, in
 * order), each attempt within timeout_ms (0: no bound).  Returns the fd
 * (blocking), or -1 with *err ("cannot connect to HOST:PORT: reason",
 * under mem_ctx).
 */
int tbench_connect(void *mem_ctx, const char *host, const char *port,
		   int timeout_ms, char **err);

struct iovec;

/*
 * Send all of iov[0..n) (sendmsg with MSG_NOSIGNAL: a closed peer is
 * EPIPE, not a signal; EINTR retried).  iov[] is consumed.  Returns 0,
 * or -1 with errno.
 */
int tbench_send_iov(int fd, struct iovec *iov, size_t n);

/* A page-aligned run of zero bytes for filler: TBENCH_ZEROS bytes. */
#define TBENCH_ZEROS 65536
extern const uint8_t tbench_zeros[TBENCH_ZEROS];

/*
 * Receive exactly len bytes into buf.  Returns 0; 1 when the peer closed
 * the connection first; -1 with errno.
 */
int tbench_recv_all(int fd, void *buf, size_t len);

/*
 * Receive and drop exactly len bytes; TCP drops them in the kernel
 * (MSG_TRUNC, as the original client does), without copying.  Same
 * returns as tbench_recv_all().
 */
int tbench_discard(int fd, size_t len);

#endif
