# src/backends/scsi/local.mk - the scsi backend (-B scsi) and the SCSI
# dialect it shares with iscsi.  Makefile.am includes it; %reldir% is
# this folder.
libdbench_a_SOURCES += \
	%reldir%/scsi_cdb.c \
	%reldir%/scsi_run.c \
	%reldir%/scsi.c
noinst_HEADERS += \
	%reldir%/scsi_cdb.h \
	%reldir%/scsi_run.h
