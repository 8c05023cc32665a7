/*
 * tbench_wire.c - the tbench wire format: request and reply headers, the
 * original's request and reply sizes per loadfile op, and the -T socket
 * option list.  No I/O here (see tbench_sock.c), so all of it is unit
 * tested without a network.
 */
#include "config.h"

#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <talloc.h>

#include "net/tbench_wire.h"
#include "util/util.h"

/* Room for the largest header overhead of an op (NTCreateX's 74 bytes
 * plus two path lengths are capped separately). */
#define SIZE_CAP (TBENCH_MAX_LEN - 128)

/* A loadfile number as a size: negative is 0, huge is capped. */
static uint32_t as_size(int64_t v)
{
	if (v < 0)
		return 0;
	return v > SIZE_CAP ? SIZE_CAP : (uint32_t)v;
}

/* The length of a path as the original sent it: DIR "/" PATH (capped). */
static uint32_t path_len(const char *path, size_t dir_len)
{
	size_t n = (path != NULL ? strlen(path) : 0) + dir_len + 1;

	return n > SIZE_CAP / 4 ? SIZE_CAP / 4 : (uint32_t)n;
}

int tbench_op_sizes(enum op_kind kind, const struct op_call *call,
		    size_t dir_len, uint32_t *send_total,
		    uint32_t *recv_total, uint64_t *bytes)
{
	uint32_t l0 = path_len(call->path[0], dir_len);
	uint32_t s = 0, r = 39;

	*bytes = 0;
	switch (kind) {
	case OP_UNLINK:
	case OP_MKDIR:
	case OP_RMDIR:
		s = 39 + 2 + 2 * l0 + 2;
		break;
	case OP_NTCREATEX:
		s = 70 + 2 + 2 * l0 + 2;
		r = 39 + 12 * 4;
		break;
	case OP_WRITEX:
		*bytes = as_size(call->arg[1]);
		s = 39 + 20 + (uint32_t)*bytes;
		r = 39 + 16;
		break;
	case OP_READX:
		*bytes = as_size(call->arg[2]);
		s = 39 + 20;
		r = 39 + 20 + (uint32_t)*bytes;
		break;
	case OP_CLOSE:
		s = 39 + 8;
		break;
	case OP_RENAME:
		s = 39 + 8 + 2 * l0 + 2 * path_len(call->path[1], dir_len);
		break;
	case OP_FLUSH:
		s = 39 + 2;
		break;
	case OP_QPATHINFO:
		s = 39 + 16 + 2 * l0;
		r = 39 + 32;
		break;
	case OP_QFILEINFO:
	case OP_QFSINFO:
		s = 39 + 20;
		r = 39 + 32;
		break;
	case OP_FIND:
		s = 39 + 20 + 2 * l0;
		r = 39 + 90 * (as_size(call->arg[2]) > SIZE_CAP / 90 ?
				       SIZE_CAP / 90 : as_size(call->arg[2]));
		break;
	case OP_SFILEINFO:
		s = 39 + 32;
		r = 39 + 8;
		break;
	case OP_LOCKX:
	case OP_UNLOCKX:
		s = 39 + 12;
		break;
	default:	/* Deltree, DropCache: the original sends nothing */
		return 0;
	}
	*send_total = s;
	*recv_total = r;
	return 1;
}

void tbench_encode_request(uint8_t hdr[TBENCH_REQ_HDR], uint32_t send_total,
			   uint32_t recv_total)
{
	tbench_put_be32(hdr, send_total - 4);
	tbench_put_be32(hdr + 4, recv_total - 4);
}

int tbench_decode_request(const uint8_t hdr[TBENCH_REQ_HDR], uint32_t *body,
			  uint32_t *want)
{
	uint32_t len = tbench_get_be32(hdr);

	*want = tbench_get_be32(hdr + 4);
	if (len < 4 || len > TBENCH_MAX_LEN || *want > TBENCH_MAX_LEN)
		return -1;
	*body = len - 4;
	return 0;
}

int tbench_check_reply(const uint8_t hdr[TBENCH_REPLY_HDR], uint32_t want,
		       uint32_t *got)
{
	*got = tbench_get_be32(hdr);
	return *got == want ? 0 : -1;
}

/* The options the original knows (Samba's socket options table). */
static const struct tbench_sockopt known_opts[] = {
	{ "SO_KEEPALIVE", SOL_SOCKET, SO_KEEPALIVE, -1, 0 },
	{ "SO_REUSEADDR", SOL_SOCKET, SO_REUSEADDR, -1, 0 },
	{ "SO_BROADCAST", SOL_SOCKET, SO_BROADCAST, -1, 0 },
	{ "TCP_NODELAY", IPPROTO_TCP, TCP_NODELAY, -1, 0 },
	{ "IPTOS_LOWDELAY", IPPROTO_IP, IP_TOS, IPTOS_LOWDELAY, 0 },
	{ "IPTOS_THROUGHPUT", IPPROTO_IP, IP_TOS, IPTOS_THROUGHPUT, 0 },
	/* value -2: a number is required */
	{ "SO_SNDBUF", SOL_SOCKET, SO_SNDBUF, -2, 0 },
	{ "SO_RCVBUF", SOL_SOCKET, SO_RCVBUF, -2, 0 },
	{ "SO_SNDLOWAT", SOL_SOCKET, SO_SNDLOWAT, -2, 0 },
	{ "SO_RCVLOWAT", SOL_SOCKET, SO_RCVLOWAT, -2, 0 },
	{ "SO_SNDTIMEO", SOL_SOCKET, SO_SNDTIMEO, -2, 1 },
	{ "SO_RCVTIMEO", SOL_SOCKET, SO_RCVTIMEO, -2, 1 },
};

/* One item, NAME or NAME=VALUE, into *out.  0, or -1 with *err. */
static int parse_sockopt(void *mem_ctx, char *item,
			 struct tbench_sockopt *out, char **err)
{
	char *eq = strchr(item, '=');
	int64_t v = 1;

	if (eq != NULL)
		*eq++ = '\0';
	for (size_t i = 0; i < sizeof(known_opts) / sizeof(known_opts[0]);
	     i++) {
		const struct tbench_sockopt *k = &known_opts[i];

		if (strcasecmp(item, k->name) != 0)
			continue;
		*out = *k;
#ifdef __linux__
		/* Linux knows the name but never lets it be set */
		if (k->optname == SO_SNDLOWAT) {
			*err = talloc_strdup(mem_ctx, "SO_SNDLOWAT cannot be "
					     "set on Linux (the kernel refuses "
					     "it: ENOPROTOOPT)");
			return -1;
		}
#endif
		if (eq == NULL && k->value == -2) {
			*err = talloc_asprintf(mem_ctx, "%s needs a value "
					       "(%s=NUMBER)", k->name,
					       k->name);
			return -1;
		}
		if (eq != NULL && parse_int64(eq, 0, INT32_MAX, &v) != 0) {
			*err = talloc_asprintf(mem_ctx, "%s: '%s' is not a "
					       "whole number from 0 to %d",
					       k->name, eq, INT32_MAX);
			return -1;
		}
		/* IPTOS_*: the value is the constant, as in the original */
		out->value = k->value >= 0 ? k->value : (int)v;
		return 0;
	}
	*err = talloc_asprintf(mem_ctx, "unknown socket option '%s' (known: "
			       "TCP_NODELAY, SO_KEEPALIVE, SO_REUSEADDR, "
			       "SO_BROADCAST, IPTOS_LOWDELAY, "
			       "IPTOS_THROUGHPUT, SO_SNDBUF=N, SO_RCVBUF=N, "
			       "SO_SNDLOWAT=N, SO_RCVLOWAT=N, SO_SNDTIMEO=N, "
			       "SO_RCVTIMEO=N)", item);
	return -1;
}

int tbench_parse_sockopts(void *mem_ctx, const char *s,
			  struct tbench_sockopt *out, size_t max, char **err)
{
	char *copy = talloc_strdup(mem_ctx, s), *save = NULL, *tok;
	size_t n = 0;

	if (copy == NULL) {
		*err = NULL;
		return -1;
	}
	for (tok = strtok_r(copy, ", \t", &save); tok != NULL;
	     tok = strtok_r(NULL, ", \t", &save)) {
		if (n >= max) {
			*err = talloc_asprintf(mem_ctx, "more than %zu socket "
					       "options", max);
			talloc_free(copy);
			return -1;
		}
		if (parse_sockopt(mem_ctx, tok, &out[n], err) != 0) {
			talloc_free(copy);
			return -1;
		}
		n++;
	}
	talloc_free(copy);
	return (int)n;
}
