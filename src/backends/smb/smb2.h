/*
 * smb2.h - the project's own SMB2/SMB3 client (private to
 * src/backends/smb/): one TCP connection with one session and one tree,
 * speaking exactly the requests the caller builds, alone or as a related
 * compound, with the signing and encryption the session needs.
 *
 * smb2_conn.c: the transport (NetBIOS framing, message ids, credits,
 * compounds, interim responses); smb2_crypto.c: the keys (SP800-108 KDF),
 * signatures (HMAC-SHA256, AES-128-CMAC), encryption (AES-128-CCM/GCM)
 * and the 3.1.1 pre-authentication hash, all from nettle; smb2_auth.c:
 * NEGOTIATE, SESSION_SETUP (SPNEGO, smb2_spnego.c, around smb2_ntlm.c's
 * NTLMv2 or smb2_krb5.c's Kerberos) and TREE_CONNECT;
 * smb2_ops.c and smb2_tree.c: the loadfile ops over it (the native path
 * of -B smb).  Why the project has a client of its own:
 * doc/ARCHITECTURE.md ("The SMB2 client").
 */
#ifndef DBENCH_BACKENDS_SMB_SMB2_H
#define DBENCH_BACKENDS_SMB_SMB2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Commands (MS-SMB2 2.2.1) */
enum smb2_cmd {
	SMB2_NEGOTIATE = 0, SMB2_SESSION_SETUP = 1, SMB2_LOGOFF = 2,
	SMB2_TREE_CONNECT = 3, SMB2_TREE_DISCONNECT = 4, SMB2_CREATE = 5,
	SMB2_CLOSE = 6, SMB2_FLUSH = 7, SMB2_READ = 8, SMB2_WRITE = 9,
	SMB2_LOCK = 10, SMB2_IOCTL = 11, SMB2_QUERY_DIRECTORY = 14,
	SMB2_QUERY_INFO = 16, SMB2_SET_INFO = 17,
};

#define SMB2_HDR_SIZE		64
#define SMB2_MAX_CHAIN		4	/* requests in one compound */
#define SMB2_IO_MAX		65536	/* bytes per READ/WRITE at most */
#define SMB2_IN_FLIGHT		16	/* requests outstanding at once */
#define SMB2_IN_FLIGHT_MAX	64	/* ... at most (--smb-in-flight) */

#define SMB2_DIALECT_202	0x0202
#define SMB2_DIALECT_210	0x0210
#define SMB2_DIALECT_300	0x0300
#define SMB2_DIALECT_302	0x0302
#define SMB2_DIALECT_311	0x0311

#define STATUS_PENDING			0x00000103u
#define STATUS_NO_MORE_FILES		0x80000006u
#define STATUS_MORE_PROCESSING		0xC0000016u
#define STATUS_CONNECTION_DISCONNECTED	0xC000020Cu

/* What a connection needs to know. */
struct smb2_params {
	const char *server;
	unsigned port;			/* 0: 445 */
	const char *share;
	const char *user, *password, *domain;
	uint16_t dialect_min, dialect_max;	/* 0: 2.0.2 .. 3.1.1 */
	bool sign;			/* require signing */
	bool encrypt;			/* require encryption (3.x) */
	bool kerberos;			/* log on with Kerberos (the
					 * credential cache), not NTLMSSP */
	unsigned timeout_s;		/* each wait for the server */
	unsigned in_flight;		/* 0: SMB2_IN_FLIGHT; at most
					 * SMB2_IN_FLIGHT_MAX */
};

/* One request of a (compound) exchange: the body the caller built (after
 * the 64-byte header), and on return the response's status and body (a
 * request without an answer: STATUS_CONNECTION_DISCONNECTED, no body). */
struct smb2_req {
	uint16_t cmd;
	const uint8_t *body;	/* the fixed part and its buffer */
	size_t body_len;
	const uint8_t *data;	/* appended after body (WRITE's data) */
	size_t data_len;
	/* out */
	uint32_t status;
	const uint8_t *rbody;	/* the response after its header (valid
				 * until the next exchange) */
	size_t rbody_len;
};

struct smb2_conn;

/*
 * Connect to p->server, negotiate, log on and connect to p->share, under
 * mem (a talloc object: freeing it closes the socket).  Returns the
 * connection, or NULL with *err one line under mem (never the password).
 */
struct smb2_conn *smb2_connect(void *mem, const struct smb2_params *p,
			       char **err);

/* smb2_connect(), and on failure *code: a positive errno (ETIMEDOUT: no
 * connection or no answer within p->timeout_s; ENOPROTOOPT: no SMB2 or
 * SMB3 there, SMB1 only; EACCES: the logon refused; ENOENT: the share
 * refused; EPROTO, EPROTONOSUPPORT: no dialect in common). */
struct smb2_conn *smb2_connect_code(void *mem, const struct smb2_params *p,
				    char **err, int *code);

/*
 * Send n requests (1..SMB2_MAX_CHAIN) as one message, related when n > 1
 * (the second and later act on the first's file id), and wait for every
 * response.  Returns 0 (each req[i].status set: the server's), or a
 * negative errno when the connection failed (the connection is then
 * unusable; smb2_error() says why).
 */
int smb2_exchange(struct smb2_conn *c, struct smb2_req *req, unsigned n);

/*
 * A batch of independent requests, several in flight: request k (0 ..
 * cnt - 1) is built by build(arg, k, req) (cmd, body, data; the buffers
 * need only live until it is sent, right after) and its answer given to
 * done(arg, k, req) (status, rbody valid during the call), in the order
 * the answers come.  A nonzero return of either sends no more requests
 * (those in flight are still answered).
 */
struct smb2_flight {
	unsigned cnt;
	int (*build)(void *arg, unsigned k, struct smb2_req *req);
	int (*done)(void *arg, unsigned k, const struct smb2_req *req);
	void *arg;
	unsigned sent, answered;	/* out */
};

/*
 * Send f's requests, each its own message, without waiting for answers
 * in between: at most p->in_flight outstanding and no more than the
 * server's credits allow (when they run out, it waits for answers, which
 * grant more; one request is always allowed); answers matched by message
 * id in any order, interim ones (STATUS_PENDING) waited past.  Returns 0
 * when every request sent was answered (build's and done's verdicts are
 * the caller's), or a negative errno when the connection failed (then
 * unusable; smb2_error() says why and how many of the requests sent got
 * their answers).
 */
int smb2_flight(struct smb2_conn *c, struct smb2_flight *f);

/* The bytes one READ (write false) or WRITE may carry: SMB2_IO_MAX, or
 * the server's maximum when smaller. */
uint32_t smb2_io_max(const struct smb2_conn *c, bool write);

/* Whether c's connection is still up (a failed exchange drops it). */
bool smb2_connected(const struct smb2_conn *c);

/* The last transport failure in one line (owned by c). */
const char *smb2_error(const struct smb2_conn *c);

/* The negotiated dialect, and whether requests are signed / encrypted. */
uint16_t smb2_dialect(const struct smb2_conn *c);
bool smb2_signing(const struct smb2_conn *c);
bool smb2_encrypting(const struct smb2_conn *c);

/* Little-endian access to message fields. */
static inline void smb2_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void smb2_put32(uint8_t *p, uint32_t v)
{
	smb2_put16(p, (uint16_t)v);
	smb2_put16(p + 2, (uint16_t)(v >> 16));
}

static inline void smb2_put64(uint8_t *p, uint64_t v)
{
	smb2_put32(p, (uint32_t)v);
	smb2_put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t smb2_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t smb2_get32(const uint8_t *p)
{
	return smb2_get16(p) | (uint32_t)smb2_get16(p + 2) << 16;
}

static inline uint64_t smb2_get64(const uint8_t *p)
{
	return smb2_get32(p) | (uint64_t)smb2_get32(p + 4) << 32;
}

/*
 * UTF-8 s (n bytes) as UTF-16LE into out (room for 2 * n bytes, enough:
 * no UTF-8 sequence is shorter than its UTF-16), '/' turned into '\'
 * when slashes.  Returns the bytes written, or -1 on bad UTF-8.
 */
long smb2_utf16(uint8_t *out, const char *s, size_t n, bool slashes);

#endif
