# src/disktest/local.mk - --disk-test.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/disktest_common.c \
	%reldir%/disktest.c \
	%reldir%/disktest_measure.c \
	%reldir%/disktest_dir.c \
	%reldir%/disktest_text.c \
	%reldir%/disktest_json.c
noinst_HEADERS += \
	%reldir%/disktest.h \
	%reldir%/dt_private.h
