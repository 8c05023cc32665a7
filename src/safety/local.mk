# src/safety/local.mk - directory locks, resource limits, the memory check.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/dirlock.c \
	%reldir%/rlimits.c \
	%reldir%/dirlock_nest.c \
	%reldir%/memcheck.c
noinst_HEADERS += \
	%reldir%/rlimits.h \
	%reldir%/dirlock.h \
	%reldir%/dirlock_private.h \
	%reldir%/memcheck.h
