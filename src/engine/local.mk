# src/engine/local.mk - the client engine.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/client.c \
	%reldir%/client_fault.c \
	%reldir%/client_setup.c
noinst_HEADERS += \
	%reldir%/client.h \
	%reldir%/client_private.h \
	%reldir%/record.h \
	%reldir%/pace.h
