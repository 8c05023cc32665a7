# src/vfs/local.mk - the POSIX vfs and the record of kept trees.
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/vfs_posix.c \
	%reldir%/vfs_posix_path.c \
	%reldir%/vfs_posix_dir.c \
	%reldir%/vfs_kept.c
noinst_HEADERS += \
	%reldir%/vfs_kept.h \
	%reldir%/vfs.h \
	%reldir%/vfs_posix_shared.h
