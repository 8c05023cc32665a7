# src/sweep/local.mk - --sweep and its curves.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/sweep_main.c \
	%reldir%/sweep.c \
	%reldir%/sweep_stats.c \
	%reldir%/sweep_repeat.c \
	%reldir%/sweep_slo.c \
	%reldir%/sweep_curve.c \
	%reldir%/sweep_curve_runs.c \
	%reldir%/sweep_table.c \
	%reldir%/sweep_save.c
noinst_HEADERS += \
	%reldir%/sweep.h \
	%reldir%/sweep_private.h \
	%reldir%/sweep_curve.h
