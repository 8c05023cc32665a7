/*
 * smb2_private.h - what the files of the SMB2 client share (private to
 * src/backends/smb/smb2_*.c): the connection's state, the calls between
 * the transport (smb2_conn.c), the crypto (smb2_crypto.c) and the logon
 * (smb2_auth.c).
 */
#ifndef DBENCH_BACKENDS_SMB_SMB2_PRIVATE_H
#define DBENCH_BACKENDS_SMB_SMB2_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smb2.h"

/* Header flags */
#define SMB2_FLAGS_RESPONSE	0x00000001u
#define SMB2_FLAGS_ASYNC	0x00000002u
#define SMB2_FLAGS_RELATED	0x00000004u
#define SMB2_FLAGS_SIGNED	0x00000008u

/* Header offsets */
#define SMB2_H_CHARGE		6
#define SMB2_H_STATUS		8
#define SMB2_H_CMD		12
#define SMB2_H_CREDIT		14
#define SMB2_H_FLAGS		16
#define SMB2_H_NEXT		20
#define SMB2_H_MID		24
#define SMB2_H_TID		36
#define SMB2_H_SID		40
#define SMB2_H_SIG		48

#define SMB2_TF_SIZE		52	/* the transform header */

enum smb2_cipher { SMB2_CIPHER_NONE = 0, SMB2_CIPHER_CCM = 1,
		   SMB2_CIPHER_GCM = 2 };

/* The NEGOTIATE as sent and answered: what 3.0/3.0.2's
 * VALIDATE_NEGOTIATE_INFO repeats and checks (smb2_validate.c). */
struct smb2_neg_info {
	uint32_t client_caps;
	uint8_t client_guid[16];
	uint16_t client_secmode;
	uint16_t dialects[5];
	unsigned ndialects;
	uint32_t server_caps;
	uint8_t server_guid[16];
	uint16_t server_secmode;
};

struct smb2_conn {
	int fd;
	unsigned timeout_s;
	uint16_t dialect;
	uint64_t mid;			/* the next message id */
	uint32_t credits;		/* granted and not yet used */
	uint32_t max_read, max_write;	/* the server's, from NEGOTIATE */
	unsigned in_flight;		/* requests outstanding at most */
	uint64_t sid;
	uint32_t tid;
	bool sign;			/* requests are signed */
	bool encrypt;			/* requests are encrypted */
	bool sign_tcon;			/* 3.1.1: TREE_CONNECT signed */
	bool sign_ioctl;		/* the VALIDATE_NEGOTIATE IOCTL signed */
	struct smb2_neg_info neg;
	bool keys;			/* the keys below are set */
	enum smb2_cipher cipher;
	uint8_t sign_key[16], enc_key[16], dec_key[16];
	uint8_t preauth[64];		/* 3.1.1's pre-authentication hash */
	uint64_t nonce;			/* encryption nonce counter */
	uint8_t nonce_salt[4];
	/* the message being sent: NBSS header, then the requests */
	uint8_t *sbuf;
	size_t sbuf_size, sent_len;
	uint8_t *tbuf;			/* its encrypted form */
	size_t tbuf_size;
	/* frames received in this exchange, one buffer each */
	uint8_t *rbuf[SMB2_MAX_CHAIN + 1];
	size_t rbuf_size[SMB2_MAX_CHAIN + 1];
	char *err;
	/* what the socket gave beyond the frame being read */
	uint8_t *in;
	size_t in_off, in_len;
};

#define SMB2_IN_SIZE		(128 * 1024)

/* ---- smb2_crypto.c ---- */

/* n random bytes at p (the client guid, salts, NTLMv2's nonces). */
void smb2_random(void *p, size_t n);

/* SP800-108 counter-mode KDF with HMAC-SHA256, 128-bit output. */
void smb2_kdf(const uint8_t key[16], const char *label, size_t label_len,
	      const uint8_t *ctx, size_t ctx_len, uint8_t out[16]);

/* The keys of the session from its session key (c->dialect set, and for
 * 3.1.1 c->preauth final). */
void smb2_derive_keys(struct smb2_conn *c, const uint8_t session_key[16]);

/* Sign msg (len bytes, header first) in place: the SIGNED flag and the
 * signature. */
void smb2_sign(const struct smb2_conn *c, uint8_t *msg, size_t len);

/* Whether msg's signature is right (it is zeroed and restored). */
bool smb2_check_sig(const struct smb2_conn *c, uint8_t *msg, size_t len);

/* Encrypt msg (len bytes) into out (SMB2_TF_SIZE + len bytes): the
 * transform header, then the ciphertext. */
void smb2_encrypt(struct smb2_conn *c, const uint8_t *msg, size_t len,
		  uint8_t *out);

/* Decrypt the transformed frame buf (len bytes) in place: returns the
 * plain message's length (it starts at buf + SMB2_TF_SIZE), or -1 when it
 * does not authenticate. */
long smb2_decrypt(struct smb2_conn *c, uint8_t *buf, size_t len);

/* 3.1.1: preauth = SHA-512(preauth || msg). */
void smb2_preauth_update(uint8_t preauth[64], const uint8_t *msg,
			 size_t len);

/* ---- smb2_conn.c ---- */

/* A connection to p's server (TCP only, no logon yet) under mem; NULL
 * with *err (under mem) and *code (a positive errno), or out of memory. */
struct smb2_conn *smb2_conn_new(void *mem, const struct smb2_params *p,
				char **err, int *code);

/* Set c->err (a printf format) and return -err. */
int smb2_fail(struct smb2_conn *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- smb2_validate.c ---- */

#define SMB2_VNEG_FIXED		56	/* the IOCTL request's fixed part */
#define SMB2_VNEG_MAX		(SMB2_VNEG_FIXED + 24 + 2 * 5)

/* The IOCTL FSCTL_VALIDATE_NEGOTIATE_INFO's body (after the header) for
 * ni into b (SMB2_VNEG_MAX bytes); its length. */
size_t smb2_vneg_request(const struct smb2_neg_info *ni, uint8_t *b);

/* The server's answer r (len bytes after the header) against ni and the
 * dialect negotiated: NULL when it matches, else what differs. */
const char *smb2_vneg_check(const struct smb2_neg_info *ni, uint16_t dialect,
			    const uint8_t *r, size_t len);

/* ---- smb2_auth.c and smb2_krb5.c: the logon's mechanisms ---- */

/* Bytes of a logon token. */
struct smb2_blob {
	uint8_t *p;
	size_t len;
};

/*
 * A logon mechanism inside SPNEGO (smb2_auth.c: NTLMSSP; smb2_krb5.c:
 * Kerberos through GSS-API).  step turns the server's token (NULL the
 * first time) into the next one (under mem; *out_len 0: nothing to
 * send); once the mechanism is complete it sets done and key (the
 * session key, cut or zero-padded to 16 bytes).  mic, when not NULL,
 * signs msg for SPNEGO's mechListMIC.  Both return 0, or a negative
 * errno with c->err set.
 */
struct smb2_mech {
	unsigned oid;			/* enum spnego_mech */
	const char *name;		/* for messages */
	void *st;
	int (*step)(struct smb2_conn *c, struct smb2_mech *m,
		    const uint8_t *in, size_t in_len, void *mem,
		    uint8_t **out, size_t *out_len);
	int (*mic)(struct smb2_conn *c, struct smb2_mech *m,
		   const uint8_t *msg, size_t len, void *mem,
		   uint8_t **out, size_t *out_len);
	bool done;
	bool mic_with_last;		/* mechListMIC with its last token */
	uint8_t key[16];
};

/* NTLMSSP with p's user, domain and password into *m, its state under
 * mem (smb2_ntlm.c); 0 or a negative errno with c->err set. */
int smb2_ntlm_mech(struct smb2_conn *c, const struct smb2_params *p,
		   struct smb2_mech *m, void *mem);

/* Kerberos for p->server (cifs@SERVER, the default credential cache)
 * into *m, its state under mem (smb2_krb5.c); 0 or a negative errno
 * with c->err set (also when built without GSS-API). */
int smb2_krb5_mech(struct smb2_conn *c, const struct smb2_params *p,
		   struct smb2_mech *m, void *mem);


#endif
