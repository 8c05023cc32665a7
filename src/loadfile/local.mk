# src/loadfile/local.mk - the loadfile reader and the program it compiles.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/ops.c \
	%reldir%/reader.c \
	%reldir%/store.c \
	%reldir%/values.c \
	%reldir%/paths.c \
	%reldir%/confine.c \
	%reldir%/dialect.c \
	%reldir%/commands.c \
	%reldir%/loadfile.c \
	%reldir%/client_tree.c \
	%reldir%/device.c \
	%reldir%/ntstatus.c
noinst_HEADERS += \
	%reldir%/program.h \
	%reldir%/op_call.h \
	%reldir%/lf_private.h \
	%reldir%/ntstatus.h \
	%reldir%/client_tree.h
