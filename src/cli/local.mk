# src/cli/local.mk - the command line and dbench_main().
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/cli.c \
	%reldir%/cli_table.c \
	%reldir%/cli_check.c \
	%reldir%/cli_backend.c \
	%reldir%/cli_mask.c \
	%reldir%/dbench_main.c \
	%reldir%/cli_sweep.c
noinst_HEADERS += \
	%reldir%/cli.h \
	%reldir%/dbench_main.h \
	%reldir%/cli_shared.h
