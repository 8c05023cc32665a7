# src/backends/smb/local.mk - the smb backend (-B smb): smb.c in
# libdbench.a as the stub (name, options), the whole folder as the module
# modules/smb.so, linking libsmbclient, nettle (the own SMB2 client's
# crypto) and GSS-API when found (its Kerberos logon;
# src/backends/local.mk says how modules work).  Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += %reldir%/smb.c
noinst_HEADERS += %reldir%/smb_private.h %reldir%/smb_conn.h \
	%reldir%/smb2.h %reldir%/smb2_private.h %reldir%/smb2_ops_private.h \
	%reldir%/smb2_spnego.h
if HAVE_LIBSMBCLIENT
dbenchmod_PROGRAMS += modules/smb.so
MODULE_OBJS += $(modules_smb_so_OBJECTS)
endif
modules_smb_so_SOURCES = %reldir%/smb.c %reldir%/smb_opts.c \
	%reldir%/smb_conn.c %reldir%/smb_vfs.c \
	%reldir%/smb2_conn.c %reldir%/smb2_crypto.c %reldir%/smb2_auth.c \
	%reldir%/smb2_spnego.c %reldir%/smb2_ntlm.c %reldir%/smb2_krb5.c \
	%reldir%/smb2_ops.c %reldir%/smb2_tree.c $(MODULE_SHARED_SOURCES)
modules_smb_so_CPPFLAGS = $(MODULE_CPP_FLAGS)
modules_smb_so_CFLAGS = $(AM_CFLAGS) $(SMBCLIENT_CFLAGS) $(GSSAPI_CFLAGS) -fPIC
modules_smb_so_LDFLAGS = $(MODULE_LINK_FLAGS)
modules_smb_so_LDADD = $(SMBCLIENT_LIBS) $(TALLOC_LIBS) $(NETTLE_LIBS) \
	$(GSSAPI_LIBS)
EXTRA_modules_smb_so_DEPENDENCIES = $(MODULE_EXTRA_DEPS)
