/*
 * smb_private.h - what the files of the smb backend share (private to
 * src/backends/smb/): its options object and the calls between the
 * backend (smb.c), its options (smb_opts.c) and its vfs (smb_vfs.c).
 */
#ifndef DBENCH_BACKENDS_SMB_PRIVATE_H
#define DBENCH_BACKENDS_SMB_PRIVATE_H

#include <stdbool.h>

#include "vfs/vfs.h"

/* Option values (struct poptOption.val) of the smb backend. */
enum smb_opt {
	SMB_OPT_SHARE = 1,
	SMB_OPT_USER,
	SMB_OPT_AUTH_FILE,
	SMB_OPT_PROTOCOL,
	SMB_OPT_ENCRYPT,
	SMB_OPT_SIGN,
	SMB_OPT_CLIENT,
	SMB_OPT_KERBEROS,
	SMB_OPT_IN_FLIGHT,
};

/* What the options say; the backend_opts object. */
struct smb_opts {
	char *server;
	unsigned port;		/* 0: the default (445) */
	char *share;
	char *domain, *user, *password;
	bool user_given;
	bool guest;		/* no user anywhere: "guest" was assumed */
	const char *auth_file;
	const char *proto_min, *proto_max;	/* NULL: libsmbclient's */
	bool encrypt, sign;
	bool native;		/* --smb-client=native (the default): the
				 * own SMB2 client; false: libsmbclient */
	bool kerberos;		/* --smb-kerberos: the credential cache */
	unsigned in_flight;	/* --smb-in-flight (native); 0: the default */
};

/* ->option and ->options_done of the whole backend (smb_opts.c). */
int smb_option(void *mem_ctx, void **bopts, int val, const char *arg,
	       char **err);
int smb_options_done(void *mem_ctx, void **bopts, char **err);

/*
 * A connected SMB vfs for so's share, under mem (a talloc object: freeing
 * it closes what is open and the connection).  NULL with *err (a one-line
 * message under mem) on failure (smb_vfs.c).
 */
struct vfs *smb_vfs_new(void *mem, const struct smb_opts *so, char **err);

#endif
