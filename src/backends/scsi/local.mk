# src/backends/scsi/local.mk - the scsi backend (-B scsi, SG_IO), over
# src/backends/device/.  Makefile.am includes it; %reldir% is this
# folder.
libdbench_a_SOURCES += %reldir%/scsi.c
