/*
 * smb2_crypto.c - the SMB2 client's cryptography, every primitive from
 * nettle: the SP800-108 KDF (HMAC-SHA256) of the SMB 3.x keys, message
 * signatures (HMAC-SHA256 for 2.x, AES-128-CMAC for 3.x), encryption in
 * the transform header (AES-128-CCM or AES-128-GCM) and 3.1.1's
 * pre-authentication integrity hash (SHA-512).
 */
#include "config.h"

#include <string.h>
#include <sys/random.h>

#include <nettle/ccm.h>
#include <nettle/cmac.h>
#include <nettle/gcm.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <nettle/sha2.h>

#include "smb2_private.h"

void smb2_random(void *p, size_t n)
{
	if (getrandom(p, n, 0) != (ssize_t)n)
		memset(p, 0x3c, n);
}

void smb2_kdf(const uint8_t key[16], const char *label, size_t label_len,
	      const uint8_t *ctx, size_t ctx_len, uint8_t out[16])
{
	static const uint8_t one[4] = { 0, 0, 0, 1 }, zero = 0;
	static const uint8_t bits[4] = { 0, 0, 0, 128 };
	struct hmac_sha256_ctx h;
	uint8_t d[SHA256_DIGEST_SIZE];

	hmac_sha256_set_key(&h, 16, key);
	hmac_sha256_update(&h, 4, one);
	hmac_sha256_update(&h, label_len, (const uint8_t *)label);
	hmac_sha256_update(&h, 1, &zero);
	hmac_sha256_update(&h, ctx_len, ctx);
	hmac_sha256_update(&h, 4, bits);
	hmac_sha256_digest(&h, sizeof(d), d);
	memcpy(out, d, 16);
	explicit_bzero(d, sizeof(d));
	explicit_bzero(&h, sizeof(h));
}

/* The labels include their terminating NUL (MS-SMB2 3.1.4.2). */
#define KDF(c, key, label, ctx, ctxlen, out) \
	smb2_kdf(key, label, sizeof(label), ctx, ctxlen, out)

void smb2_derive_keys(struct smb2_conn *c, const uint8_t session_key[16])
{
	if (c->dialect < SMB2_DIALECT_300) {
		memcpy(c->sign_key, session_key, 16);
	} else if (c->dialect < SMB2_DIALECT_311) {
		KDF(c, session_key, "SMB2AESCMAC", (const uint8_t *)"SmbSign",
		    8, c->sign_key);
		KDF(c, session_key, "SMB2AESCCM",
		    (const uint8_t *)"ServerIn ", 10, c->enc_key);
		KDF(c, session_key, "SMB2AESCCM",
		    (const uint8_t *)"ServerOut", 10, c->dec_key);
	} else {
		KDF(c, session_key, "SMBSigningKey", c->preauth, 64,
		    c->sign_key);
		KDF(c, session_key, "SMBC2SCipherKey", c->preauth, 64,
		    c->enc_key);
		KDF(c, session_key, "SMBS2CCipherKey", c->preauth, 64,
		    c->dec_key);
	}
	if (getrandom(c->nonce_salt, sizeof(c->nonce_salt), 0) !=
	    sizeof(c->nonce_salt))
		memset(c->nonce_salt, 0x5a, sizeof(c->nonce_salt));
	c->keys = true;
}

/* The 16-byte signature of msg (its signature field zero). */
static void smb2_mac(const struct smb2_conn *c, const uint8_t *msg,
		     size_t len, uint8_t sig[16])
{
	if (c->dialect < SMB2_DIALECT_300) {
		struct hmac_sha256_ctx h;
		uint8_t d[SHA256_DIGEST_SIZE];

		hmac_sha256_set_key(&h, 16, c->sign_key);
		hmac_sha256_update(&h, len, msg);
		hmac_sha256_digest(&h, sizeof(d), d);
		memcpy(sig, d, 16);
	} else {
		struct cmac_aes128_ctx m;

		cmac_aes128_set_key(&m, c->sign_key);
		cmac_aes128_update(&m, len, msg);
		cmac_aes128_digest(&m, 16, sig);
	}
}

void smb2_sign(const struct smb2_conn *c, uint8_t *msg, size_t len)
{
	smb2_put32(msg + SMB2_H_FLAGS,
		   smb2_get32(msg + SMB2_H_FLAGS) | SMB2_FLAGS_SIGNED);
	memset(msg + SMB2_H_SIG, 0, 16);
	smb2_mac(c, msg, len, msg + SMB2_H_SIG);
}

bool smb2_check_sig(const struct smb2_conn *c, uint8_t *msg, size_t len)
{
	uint8_t got[16], want[16];

	memcpy(got, msg + SMB2_H_SIG, 16);
	memset(msg + SMB2_H_SIG, 0, 16);
	smb2_mac(c, msg, len, want);
	memcpy(msg + SMB2_H_SIG, got, 16);
	return memeql_sec(got, want, 16) != 0;
}

/* The AEAD over the transform header tf (nonce, size and session id
 * set): encrypt or decrypt len bytes of src into dst, tag into tag. */
static void smb2_aead(const struct smb2_conn *c, const uint8_t *key,
		      const uint8_t *tf, bool enc, uint8_t *dst,
		      const uint8_t *src, size_t len, uint8_t tag[16])
{
	if (c->cipher == SMB2_CIPHER_GCM) {
		struct gcm_aes128_ctx g;

		gcm_aes128_set_key(&g, key);
		gcm_aes128_set_iv(&g, 12, tf + 20);
		gcm_aes128_update(&g, 32, tf + 20);
		(enc ? gcm_aes128_encrypt : gcm_aes128_decrypt)(&g, len, dst,
								 src);
		gcm_aes128_digest(&g, 16, tag);
	} else {
		struct ccm_aes128_ctx m;

		ccm_aes128_set_key(&m, key);
		ccm_aes128_set_nonce(&m, 11, tf + 20, 32, len, 16);
		ccm_aes128_update(&m, 32, tf + 20);
		(enc ? ccm_aes128_encrypt : ccm_aes128_decrypt)(&m, len, dst,
								 src);
		ccm_aes128_digest(&m, 16, tag);
	}
}

void smb2_encrypt(struct smb2_conn *c, const uint8_t *msg, size_t len,
		  uint8_t *out)
{
	memset(out, 0, SMB2_TF_SIZE);
	memcpy(out, "\xfdSMB", 4);
	/* a unique nonce per message: a random salt and a counter */
	memcpy(out + 20, c->nonce_salt, 4);
	smb2_put64(out + 24, ++c->nonce);
	smb2_put32(out + 36, (uint32_t)len);
	smb2_put16(out + 42, 1);	/* encrypted */
	smb2_put64(out + 44, c->sid);
	smb2_aead(c, c->enc_key, out, true, out + SMB2_TF_SIZE, msg, len,
		  out + 4);
}

long smb2_decrypt(struct smb2_conn *c, uint8_t *buf, size_t len)
{
	uint8_t tag[16];
	size_t n;

	if (len < SMB2_TF_SIZE + SMB2_HDR_SIZE)
		return -1;
	n = smb2_get32(buf + 36);
	if (n != len - SMB2_TF_SIZE)
		return -1;
	smb2_aead(c, c->dec_key, buf, false, buf + SMB2_TF_SIZE,
		  buf + SMB2_TF_SIZE, n, tag);
	return memeql_sec(tag, buf + 4, 16) ? (long)n : -1;
}

void smb2_preauth_update(uint8_t preauth[64], const uint8_t *msg,
			 size_t len)
{
	struct sha512_ctx s;

	sha512_init(&s);
	sha512_update(&s, 64, preauth);
	sha512_update(&s, len, msg);
	sha512_digest(&s, 64, preauth);
}
