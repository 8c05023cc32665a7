/*
 * smb2_spnego.h - SPNEGO (RFC 4178) as the SMB2 client's SESSION_SETUP
 * carries it (private to src/backends/smb/): the mechanisms the server's
 * NEGOTIATE blob offers, the client's NegTokenInit and NegTokenResp, and
 * the server's NegTokenResp taken apart.  Only the DER the logon needs:
 * definite lengths, lengths below 2^24.
 */
#ifndef DBENCH_BACKENDS_SMB_SMB2_SPNEGO_H
#define DBENCH_BACKENDS_SMB_SMB2_SPNEGO_H

#include <stddef.h>
#include <stdint.h>

/* The mechanisms the client knows (a bit set). */
enum spnego_mech {
	SPNEGO_MECH_KRB5 = 1,		/* 1.2.840.113554.1.2.2 */
	SPNEGO_MECH_MS_KRB5 = 2,	/* 1.2.840.48018.1.2.2 (Windows') */
	SPNEGO_MECH_NTLMSSP = 4,	/* 1.3.6.1.4.1.311.2.2.10 */
	SPNEGO_MECH_OTHER = 8,		/* any other OID */
};

/* negState (RFC 4178 4.2.2); SPNEGO_STATE_ABSENT when not sent. */
enum spnego_state {
	SPNEGO_ACCEPT_COMPLETED = 0, SPNEGO_ACCEPT_INCOMPLETE = 1,
	SPNEGO_REJECT = 2, SPNEGO_REQUEST_MIC = 3, SPNEGO_STATE_ABSENT = -1,
};

/* The server's NegTokenResp, pointing into the buffer it was parsed
 * from (token and mic NULL when absent). */
struct spnego_resp {
	int state;			/* enum spnego_state */
	unsigned mech;			/* supportedMech, 0 when absent */
	const uint8_t *token;
	size_t token_len;
	const uint8_t *mic;
	size_t mic_len;
};

/*
 * The mechanisms of the server's NEGOTIATE security blob (a NegTokenInit,
 * Samba's and Windows' "NegTokenInit2" too) into *mechs (a set of
 * enum spnego_mech).  Returns 0, or -1 when blob is not SPNEGO.
 */
int spnego_server_mechs(const uint8_t *blob, size_t len, unsigned *mechs);

/*
 * The client's first token under mem: NegTokenInit with mechTypes the
 * one mechanism mech (one enum spnego_mech bit) and mechToken tok.
 * *len its length; NULL when out of memory.
 */
uint8_t *spnego_init(void *mem, unsigned mech, const uint8_t *tok,
		     size_t tok_len, size_t *len);

/*
 * The client's later token under mem: NegTokenResp with responseToken
 * tok and mechListMIC mic, each left out when its length is 0.  *len its
 * length; NULL when out of memory.
 */
uint8_t *spnego_resp(void *mem, const uint8_t *tok, size_t tok_len,
		     const uint8_t *mic, size_t mic_len, size_t *len);

/*
 * The DER of the mechTypes spnego_init sends for mech (what mechListMIC
 * signs) under mem; *len its length; NULL when out of memory.
 */
uint8_t *spnego_mech_types(void *mem, unsigned mech, size_t *len);

/*
 * The server's NegTokenResp b (len bytes) into *r.  Returns 0, or -1 when
 * it is not one (bad DER, a field of the wrong type).
 */
int spnego_parse_resp(const uint8_t *b, size_t len, struct spnego_resp *r);

#endif
