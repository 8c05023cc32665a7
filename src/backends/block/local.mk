# src/backends/block/local.mk - the block backend (-B block) and the
# device checks block, scsi and iscsi share.  Makefile.am includes it;
# %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/block.c \
	%reldir%/device_safety.c \
	%reldir%/device_range.c
noinst_HEADERS += \
	%reldir%/device_safety.h \
	%reldir%/device_range.h
