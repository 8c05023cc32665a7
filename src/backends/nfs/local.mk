# src/backends/nfs/local.mk - the nfs backend (-B nfs): nfs.c in
# libdbench.a as the stub (name, options), the whole folder as the module
# modules/nfs.so, linking libnfs (src/backends/local.mk says how modules
# work).  Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += %reldir%/nfs.c
noinst_HEADERS += \
	%reldir%/nfs_nlm.h \
	%reldir%/nfs_raw.h \
	%reldir%/nfs_vfs.h \
	%reldir%/nfs_status.h
if HAVE_LIBNFS
dbenchmod_PROGRAMS += modules/nfs.so
MODULE_OBJS += $(modules_nfs_so_OBJECTS)
endif
modules_nfs_so_SOURCES = %reldir%/nfs.c %reldir%/nfs_vfs.c \
	%reldir%/nfs_dialect.c %reldir%/nfs_nlm.c \
	%reldir%/nfs_raw.c %reldir%/nfs_status.c \
	$(MODULE_SHARED_SOURCES)
modules_nfs_so_CPPFLAGS = $(MODULE_CPP_FLAGS)
modules_nfs_so_CFLAGS = $(AM_CFLAGS) $(LIBNFS_CFLAGS) -fPIC
modules_nfs_so_LDFLAGS = $(MODULE_LINK_FLAGS)
modules_nfs_so_LDADD = $(LIBNFS_LIBS) $(TALLOC_LIBS)
EXTRA_modules_nfs_so_DEPENDENCIES = $(MODULE_EXTRA_DEPS)
