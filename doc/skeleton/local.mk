# src/backends/skel/local.mk - the make fragment of a backend folder
# (the template: doc/skeleton/, doc/ARCHITECTURE.md, "Adding a backend").
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += %reldir%/skel.c
# its library, when configure found it (empty otherwise)
AM_CFLAGS += $(LIBSKEL_CFLAGS)
DBENCH_LIBS += $(LIBSKEL_LIBS)
