# src/backends/iscsi/local.mk - the iscsi backend (-B iscsi), over
# src/backends/device/, built with libiscsi when configure found it (the
# stub without).  Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += %reldir%/iscsi.c
# libiscsi, when configure found it (HAVE_LIBISCSI; empty otherwise)
AM_CFLAGS += $(LIBISCSI_CFLAGS)
DBENCH_LIBS += $(LIBISCSI_LIBS)
