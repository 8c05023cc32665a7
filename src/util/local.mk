# src/util/local.mk - what every layer may use.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/util.c \
	%reldir%/timer.c
noinst_HEADERS += \
	%reldir%/atomic.h \
	%reldir%/options.h \
	%reldir%/timer.h \
	%reldir%/util.h
