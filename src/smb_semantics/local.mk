# src/smb_semantics/local.mk - the SMB semantics over any vfs.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/wildcard.c \
	%reldir%/nbvfs.c \
	%reldir%/nbvfs_lookup.c \
	%reldir%/nbvfs_io.c \
	%reldir%/nbvfs_info.c \
	%reldir%/nbvfs_tree.c \
	%reldir%/nbsmb5.c
noinst_HEADERS += \
	%reldir%/nbsmb5.h \
	%reldir%/nbvfs.h \
	%reldir%/nbvfs_shared.h \
	%reldir%/nbvfs_lookup.h \
	%reldir%/wildcard.h
