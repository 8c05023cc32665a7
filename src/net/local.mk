# src/net/local.mk - tbench's wire format and sockets.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/tbench_wire.c \
	%reldir%/tbench_sock.c
noinst_HEADERS += \
	%reldir%/tbench_wire.h
