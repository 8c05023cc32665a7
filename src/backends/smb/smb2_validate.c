/*
 * smb2_validate.c - SMB 3.0 and 3.0.2's secure negotiate: the body of
 * the signed IOCTL FSCTL_VALIDATE_NEGOTIATE_INFO that repeats what this
 * client offered in its NEGOTIATE (capabilities, client GUID, security
 * mode, dialects), and the check of the server's answer against what it
 * answered then (capabilities, server GUID, security mode, dialect).  A
 * man in the middle that rewrote the NEGOTIATE (to a lower dialect, or
 * signing off) cannot forge the signed answer, so a mismatch means the
 * negotiation was tampered with and the logon fails.  3.1.1 protects its
 * NEGOTIATE with the pre-authentication hash instead; 2.x has neither.
 * The exchange itself is in smb2_auth.c; what is here needs no
 * connection (tests/unit/test_smb2_validate.c).
 */
#include "config.h"

#include <string.h>

#include "smb2_private.h"

#define FSCTL_VALIDATE_NEGOTIATE_INFO	0x00140204u
#define SMB2_IOCTL_IS_FSCTL		0x00000001u

size_t smb2_vneg_request(const struct smb2_neg_info *ni, uint8_t *b)
{
	size_t in_len = 24 + 2 * (size_t)ni->ndialects;
	uint8_t *in = b + SMB2_VNEG_FIXED;

	memset(b, 0, SMB2_VNEG_FIXED + in_len);
	smb2_put16(b, 57);
	smb2_put32(b + 4, FSCTL_VALIDATE_NEGOTIATE_INFO);
	memset(b + 8, 0xff, 16);		/* no file */
	smb2_put32(b + 24, SMB2_HDR_SIZE + SMB2_VNEG_FIXED);
	smb2_put32(b + 28, (uint32_t)in_len);
	smb2_put32(b + 44, 24);			/* the answer's size */
	smb2_put32(b + 48, SMB2_IOCTL_IS_FSCTL);
	smb2_put32(in, ni->client_caps);
	memcpy(in + 4, ni->client_guid, 16);
	smb2_put16(in + 20, ni->client_secmode);
	smb2_put16(in + 22, (uint16_t)ni->ndialects);
	for (unsigned i = 0; i < ni->ndialects; i++)
		smb2_put16(in + 24 + 2 * i, ni->dialects[i]);
	return SMB2_VNEG_FIXED + in_len;
}

const char *smb2_vneg_check(const struct smb2_neg_info *ni, uint16_t dialect,
			    const uint8_t *r, size_t len)
{
	size_t off, n;
	const uint8_t *out;

	/* the IOCTL response: 48 bytes, then its output */
	if (len < 48 || smb2_get32(r + 4) != FSCTL_VALIDATE_NEGOTIATE_INFO)
		return "a short or foreign IOCTL response";
	off = smb2_get32(r + 32);
	n = smb2_get32(r + 36);
	if (n < 24 || off < SMB2_HDR_SIZE || off - SMB2_HDR_SIZE > len ||
	    len - (off - SMB2_HDR_SIZE) < 24)
		return "an answer of the wrong size";
	out = r + off - SMB2_HDR_SIZE;
	if (smb2_get16(out + 22) != dialect)
		return "another dialect";
	if (memcmp(out + 4, ni->server_guid, 16) != 0)
		return "another server GUID";
	if (smb2_get16(out + 20) != ni->server_secmode)
		return "another security mode";
	if (smb2_get32(out) != ni->server_caps)
		return "other capabilities";
	return NULL;
}
