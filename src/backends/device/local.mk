# src/backends/device/local.mk - what the device backends (block, scsi,
# iscsi) share: the checks of what a device holds (device_safety.c), the
# offsets of their dialects against its size (device_range.c), the SCSI
# dialect's CDBs (scsi_cdb.c) and its op runner over any transport
# (scsi_run.c).  The backend folders depend on this one, never on each
# other.  Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/device_safety.c \
	%reldir%/device_range.c \
	%reldir%/scsi_cdb.c \
	%reldir%/scsi_run.c
noinst_HEADERS += \
	%reldir%/device_safety.h \
	%reldir%/device_range.h \
	%reldir%/scsi_cdb.h \
	%reldir%/scsi_run.h
# libblkid: what a device holds (device_safety.c; configure.ac)
AM_CFLAGS += $(BLKID_CFLAGS)
DBENCH_LIBS += $(BLKID_LIBS)
