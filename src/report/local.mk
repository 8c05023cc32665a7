# src/report/local.mk - the text and JSON reports.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/report_text.c \
	%reldir%/report_json.c \
	%reldir%/report_run.c \
	%reldir%/result_load.c \
	%reldir%/usl_json.c \
	%reldir%/report_history.c
noinst_HEADERS += \
	%reldir%/report.h \
	%reldir%/report_json.h \
	%reldir%/result_load.h \
	%reldir%/usl_json.h \
	%reldir%/json_put.h
