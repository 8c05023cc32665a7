# src/backends/local.mk - the registry, what backends share, the
# backends that are one file, and the machinery of the backend modules.
# Each backend folder (src/backends/NAME/) has its own local.mk, which
# Makefile.am includes after this one (its list of backend folders).
# %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/registry.c \
	%reldir%/common.c \
	%reldir%/module.c \
	%reldir%/null.c \
	%reldir%/fileio.c \
	%reldir%/memfs.c \
	%reldir%/sockio.c
noinst_HEADERS += \
	%reldir%/backend.h \
	%reldir%/backends.h \
	%reldir%/vfs_backend.h

# ---- backend modules: -B smb and -B nfs dlopen these ----
# The dbench binary links neither libsmbclient nor libnfs: smb/smb.c and
# nfs/nfs.c are built into it as stubs (name, options), and again, whole,
# with the rest of their folders and the life they share (vfs_backend.c),
# as modules/NAME.so (-DDBENCH_MODULE), each linking its own library
# (their folders' local.mk).  A build-tree dbench loads modules/NAME.so
# beside it, an installed one $(pkglibdir)/NAME.so (module.c, README).  A
# module calls the engine's functions (nbvfs_*, ...) in the binary that
# loads it: modules/exports.list names every symbol the modules' objects
# use, and the binaries that load modules export those of them they
# define (--dynamic-list), nothing else.  A module exports only its
# struct backend and its stamp (module.map).
dbenchmoddir = $(pkglibdir)
dbenchmod_PROGRAMS =
MODULE_OBJS =
MODULE_CPP_FLAGS = $(AM_CPPFLAGS) -DDBENCH_MODULE
MODULE_LINK_FLAGS = -shared -fPIC $(BIND_LDFLAGS) \
	-Wl,--version-script=$(srcdir)/%reldir%/module.map
# every module's sources besides its folder's, and what it depends on
MODULE_SHARED_SOURCES = %reldir%/vfs_backend.c %reldir%/module_stamp.c
MODULE_EXTRA_DEPS = %reldir%/module.map
EXTRA_DIST += %reldir%/module.map

# the symbols the modules' objects use (a --dynamic-list; names the
# binary does not define are ignored by the linker)
modules/exports.list: $(MODULE_OBJS)
	$(AM_V_GEN)$(MKDIR_P) modules && { echo '{'; \
		for o in $(MODULE_OBJS); do $(NM) -u "$$o"; done | \
		sed -n 's/^ *U \([A-Za-z_][A-Za-z0-9_]*\)$$/	\1;/p' | \
		LC_ALL=C sort -u; echo '	dbench_module_stamp;'; echo '};'; \
	} >$@.tmp && mv $@.tmp $@
LOADER_LINK_FLAGS = $(BIND_LDFLAGS) -Wl,--dynamic-list=modules/exports.list
CLEANFILES += modules/exports.list
