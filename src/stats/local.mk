# src/stats/local.mk - histograms, results, their merge and statistics.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/histogram.c \
	%reldir%/stats.c \
	%reldir%/host.c \
	%reldir%/noise.c \
	%reldir%/result.c \
	%reldir%/result_merge.c \
	%reldir%/result_wire.c \
	%reldir%/series.c \
	%reldir%/steady.c \
	%reldir%/usl.c \
	%reldir%/response.c
noinst_HEADERS += \
	%reldir%/histogram.h \
	%reldir%/stats.h \
	%reldir%/host.h \
	%reldir%/result.h \
	%reldir%/noise.h \
	%reldir%/series.h \
	%reldir%/steady.h \
	%reldir%/usl.h
