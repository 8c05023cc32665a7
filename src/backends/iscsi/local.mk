# src/backends/iscsi/local.mk - the iscsi backend (-B iscsi), built with
# libiscsi when configure found it (the stub without).  Makefile.am
# includes it; %reldir% is this folder.
libdbench_a_SOURCES += %reldir%/iscsi.c
