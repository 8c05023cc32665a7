/*
 * backend.h - the interface every backend implements.
 *
 * A backend is one file (or folder) in src/backends/ exporting one const
 * struct backend, listed once in DBENCH_BACKENDS (src/backends/backends.h).
 * The client engine resolves everything that is loadfile-specific (paths
 * per client, $i substitution, random and relative values, the write
 * pattern) and hands the backend one struct op_call per operation.
 *
 * Backends never print and never exit: an op returns an NT status (0 for
 * success) and leaves the errno behind a failure in call->err; the engine
 * compares it with the expectation and reports it with context.
 *
 * Besides its ops, a backend owns what main and the supervisor must not
 * know about it: its command-line options (a popt sub-table and a hook
 * that parses their values into an options object of its own), the check
 * of a target before the run, the file descriptors a client needs (for
 * the up-front resource check) and the bookkeeping of paths the loadfiles
 * create above the per-client trees.  The life of a run, in order:
 * ->option per option given, ->options_done, ->target_check per -D
 * entry, ->client_fds, ->trees_check and ->shared_note per target; in
 * each client ->setup, ->ops[], ->cleanup; at the end ->shared_remove and
 * ->trees_kept per target.
 *
 * Hooks marked optional may be NULL: the backend has nothing of the kind,
 * and callers check before they call (each hook says what NULL means).
 */
#ifndef DBENCH_BACKEND_H
#define DBENCH_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/options.h"
#include "loadfile/program.h"
#include "loadfile/op_call.h"

struct vfs_hint;

struct backend_client_config {
	const struct dbench_options *opts;
	unsigned client;	/* 0-based client number */
	const char *directory;	/* this client's target directory (one -D entry) */
	uint32_t nhandles;	/* handle slots the program uses: 0..nhandles-1 */
	/* the engine's hint for the paths of each op it runs, valid while
	 * the client lives (a vfs's hint: struct vfs_hint in vfs.h) */
	const struct vfs_hint *hint;
};

/* struct backend's abi: bump when a hook is added or changes meaning. */
#define BACKEND_ABI 6

/* Flags (struct backend's flags). */
/* Targets (-D) are local directories this process can reach: --disk-test
 * checks its directories with such a backend's target check. */
#define BACKEND_LOCAL_FS	(1u << 0)
/* The backend performs nothing (null) or no filesystem op (sockio): its
 * results say nothing about the loadfile, so they are not compared with
 * the expected statuses; a status other than NT_STATUS_OK from it is a
 * failure of the backend itself (a lost connection), fatal to the
 * client. */
#define BACKEND_NO_STATUS	(1u << 1)
/* The backend talks to a server over TCP sockets: -T/--tcp-options is
 * its (without this flag, -T is a usage error). */
#define BACKEND_SOCKETS		(1u << 2)
/* The target is named by the backend's own options (an SMB share), not
 * by -D: -D/--directory is a usage error; target_check is called once,
 * with the target ".", and must check the backend's own target. */
#define BACKEND_OWN_TARGET	(1u << 3)
/* The backend's clients wait on a server over the network (sockio, smb,
 * nfs): the stall watch counts only what they complete (their lines, the
 * heartbeat of util_beat()), not their CPU time, which a library that
 * polls a silent server keeps moving, and bounds their waits after the
 * stop by POOL_REMOTE_STALL_SECONDS (src/run/pool.h). */
#define BACKEND_REMOTE		(1u << 4)

/* The backend works on a device (block, scsi, iscsi): the common options
 * --allow-scsi-writes (--allow-block-writes) and --force-device are for
 * it (a usage error with any other), and it speaks only its device's
 * dialect: the SMB kinds of its ops[] may be NULL. */
#define BACKEND_DEVICE		(1u << 5)

/* The most options one backend's sub-table may hold. */
#define BACKEND_MAX_OPTIONS	64

struct poptOption;

struct backend {
	unsigned abi;		/* BACKEND_ABI, or the registry refuses it */
	const char *name;	/* -B NAME; unique in the registry */
	const char *description;
	/* NULL when usable; otherwise why this backend is not available
	 * (e.g. "built without libsmbclient"); then only abi, name,
	 * description, flags and options are read */
	const char *unavailable;
	/* NULL when the whole backend is here; otherwise the name of the
	 * module (a shared object, see backend_module_load()) that holds it:
	 * this struct is then only the stub the command line needs (abi,
	 * name, description, flags, options and an ->option placeholder),
	 * and the module's struct, loaded once -B selects the backend,
	 * takes its place */
	const char *module;
	unsigned flags;		/* BACKEND_* */

	/*
	 * The backend's own command-line options: NULL, or a popt table
	 * ended by POPT_TABLEEND whose entries each have a long name, argInfo
	 * POPT_ARG_NONE or POPT_ARG_STRING, arg NULL and a val other than 0
	 * that the backend chooses (at most BACKEND_MAX_OPTIONS entries).
	 * main lists them under the backend's name in --help; given with
	 * another backend selected, they are a usage error naming this one.
	 */
	const struct poptOption *options;

	/*
	 * Take one parsed option of ->options (required with them): val is
	 * the entry's val, arg its argument (NULL for POPT_ARG_NONE).  The
	 * backend keeps what it parsed in an options object of its own that
	 * it allocates under mem_ctx on first use and stores in *bopts
	 * (NULL until then); run hooks find it in dbench_options'
	 * backend_opts.  Called in command-line order, only for the selected
	 * backend.  Returns 0, or -1 with *err (under mem_ctx) saying what
	 * is wrong with the value; that is a usage error.
	 */
	int (*option)(void *mem_ctx, void **bopts, int val, const char *arg,
		      char **err);

	/*
	 * Optional: called once after the command line, for the selected
	 * backend only, also when none of its options was given: fill in
	 * defaults, check combinations.  Same contract as ->option.
	 */
	int (*options_done)(void *mem_ctx, void **bopts, char **err);

	/*
	 * Check one target (one -D entry) before anything is forked or
	 * written: a local backend that the directory exists and is
	 * writable, a network one that the server answers.  Returns 0, or
	 * -1 with *err (under mem_ctx) one line without the "dbench: "
	 * prefix; that is a usage error (exit 2).
	 */
	int (*target_check)(void *mem_ctx, const struct dbench_options *o,
			    const char *target, char **err);

	/*
	 * The file descriptors one client holds at most (its connection or
	 * directory, what it keeps open between ops, what one op opens for
	 * a moment) when its program holds max_open_handles handles open at
	 * once and names max_dirs distinct directories (UINT32_MAX: not
	 * known, e.g. a $N substitution in a path).  The up-front resource
	 * check (rlimits.c) adds up this value for every client of a worker
	 * process; an estimate must err on the high side.  Optional: NULL
	 * when a client holds no descriptor.
	 */
	uint64_t (*client_fds)(const struct dbench_options *o,
			       uint32_t max_open_handles, uint32_t max_dirs);

	/*
	 * Check before the run (after ->target_check, before anything is
	 * forked) that the trees the run's clients will make in target are
	 * new, so that removing them (the loadfile's Deltree, cleanup)
	 * removes only what the run created.  paths[0..n) are the client
	 * directories that map to this target, relative to it and
	 * '/'-separated ("clients/client3").  Each must be absent, or an
	 * empty directory; anything else refuses the run: a directory with
	 * entries, a file, a symlink (never followed), a symlink or a file on
	 * the way, or a path that cannot be looked at.  A backend whose
	 * trees live on a server asks the server.  Returns 0, or -1 with
	 * *err (under mem_ctx) one line without the "dbench: " prefix naming
	 * target/path and why (backend_tree_refusal() words it); that is a
	 * usage error (exit 2).  Optional: NULL when there is nothing to
	 * check (the backend's store starts empty, or it makes no files).
	 */
	int (*trees_check)(void *mem_ctx, const struct dbench_options *o,
			   const char *target, const char *const *paths,
			   size_t n, char **err);

	/*
	 * After the run (its cleanup done or skipped): record which client
	 * trees in target an earlier dbench run kept, so that ->trees_check
	 * lets a later run use them (and remove them) while refusing any
	 * other non-empty tree.  paths[0..n) are this run's client
	 * directories in target, as for ->trees_check, all in one directory
	 * (clients/).  When kept (--skip-cleanup), those that are real
	 * directories now are added to the record; in any case, entries whose
	 * tree is gone are dropped (the record goes when none is left).  The
	 * record is never followed through a symlink and never lies inside a
	 * client tree.  Returns 0 or a negative errno (the record is then
	 * unchanged); callers report a failure only when kept.  Optional:
	 * NULL records nothing.
	 */
	int (*trees_kept)(void *mem_ctx, const struct dbench_options *o,
			  const char *target, const char *const *paths,
			  size_t n, bool kept);

	/*
	 * Shared paths are those the loadfiles may create outside the
	 * per-client trees (like "clients" above every clients/clientN).
	 * Before the run: set existed[i] for each of paths[0..n) (relative
	 * to target, '/'-separated) that exists in target now (a final
	 * symlink is not followed); when that cannot be told (out of
	 * memory), count it as existing: ->shared_remove must never remove
	 * what the run did not create.  Returns 0 or a negative errno (then
	 * every existed[] is true).  Optional: NULL when the backend creates
	 * nothing outside its clients' trees (every path counts as one that
	 * existed).
	 */
	int (*shared_note)(void *mem_ctx, const struct dbench_options *o,
			   const char *target, const char *const *paths,
			   size_t n, bool *existed);

	/*
	 * After the run: remove paths[0..n) from target, in that order (the
	 * caller lists deeper paths first), each only if it is a file or an
	 * empty directory now, never through a symlink: never another's
	 * data.  A path that is gone, not empty or not reachable is left
	 * alone.  Returns 0 or the first negative errno other than those;
	 * callers may ignore it.  Optional: NULL removes nothing.
	 */
	int (*shared_remove)(void *mem_ctx, const struct dbench_options *o,
			     const char *target, const char *const *paths,
			     size_t n);

	/*
	 * Optional: check a compiled loadfile against the target before
	 * anything is forked (after ->target_check): a device backend
	 * refuses a write the command line did not allow, or an offset
	 * past the device's end.  Returns 0, or -1 with *err (under mem_ctx)
	 * one line "FILE:LINE: ..." without the "dbench: " prefix; that is
	 * a usage error (exit 2).  NULL: nothing to check.
	 */
	int (*program_check)(void *mem_ctx, const struct dbench_options *o,
			     const struct program *p, char **err);

	/*
	 * Prepare one client.  Allocate the state under mem_ctx (a talloc
	 * destructor should release fds and connections) and store it in
	 * *state.  Return 0, or -1 with *err set to a message allocated
	 * under mem_ctx.
	 */
	int (*setup)(void *mem_ctx, const struct backend_client_config *cfg,
		     void **state, char **err);

	/*
	 * Remove the tree at path (relative to the client's directory) and
	 * everything in it; close any handles first.  A missing tree is
	 * success.  Returns 0 or a negative errno.
	 */
	int (*cleanup)(void *state, const char *path);

	/* Indexed by enum op_kind; every entry must be set, except those
	 * of a loadfile dialect the backend does not speak (the NFSv3
	 * kinds, op_kind_is_nfs3()): NULL there refuses such loadfiles. */
	backend_op_fn ops[OP_NUM_MEASURED];
};

/* NULL-terminated list of all backends, available or not. */
extern const struct backend *const backend_registry[];

/* Find a backend by name; NULL if there is none of that name. */
const struct backend *backend_find(const char *name);

/*
 * Find a backend by name in a NULL-terminated list; NULL if there is
 * none of that name (or name is NULL).
 */
const struct backend *backend_find_in(const struct backend *const *list,
				      const char *name);

/*
 * The backends of a NULL-terminated list as --help, the unknown-backend
 * error and dbench(1) name them: "fileio (default), null, ..., smb (not
 * available: built without libsmbclient)", the default one (dflt) and
 * each unavailable one marked.  Under mem; NULL out of memory.
 */
char *backend_list_text(void *mem, const struct backend *const *list,
			const char *dflt);

/*
 * Check a NULL-terminated list of backends: every one has a name no
 * other has and abi BACKEND_ABI; every available one that is not a
 * module's stub fills every required hook (->target_check, ->setup,
 * ->cleanup and its ops[]); an options table is well formed (see
 * ->options), comes with ->option, and none of its long names is another
 * backend's.  Returns 0, or -1 with the name of
 * the faulty backend in *bad and, if why is not NULL, a static phrase
 * saying what is wrong in *why.
 */
int backend_list_check(const struct backend *const *list, const char **bad,
		       const char **why);

/*
 * Can be run p?  Every measured op kind p uses must have its ops[] entry
 * (a loadfile of the NFSv3 dialect needs -B nfs).  Returns 0, or -1 with
 * *err (under mem_ctx) one line naming the file, the line and the op.
 */
int backend_program_check(void *mem_ctx, const struct backend *be,
			  const struct program *p, char **err);

/*
 * Backend modules: a backend whose libraries are heavy (libsmbclient pulls
 * in most of Samba; libnfs) is a shared object loaded only when -B
 * selects it, so that the other backends' runs map none of them.  Its
 * stub in the registry has ->module set to NAME; the module defines
 * NAME_backend (the whole struct, ->module NULL) and
 * dbench_module_stamp (BACKEND_MODULE_STAMP of the tree it was built
 * from), and resolves the engine's functions it calls (nbvfs_*, ...) in
 * the dbench binary, which exports them.
 *
 * Where: MODULES/NAME.so beside the running binary (BACKEND_MODULE_SUBDIR
 * in the directory of /proc/self/exe: a build tree) when that file
 * exists, else PKGLIBDIR/NAME.so (the installed one).
 */
#define BACKEND_MODULE_SUBDIR "modules"
#define BACKEND_MODULE_STR_(x) #x
#define BACKEND_MODULE_STR(x) BACKEND_MODULE_STR_(x)
#define BACKEND_MODULE_STAMP "dbench " PACKAGE_VERSION ", backend ABI " \
	BACKEND_MODULE_STR(BACKEND_ABI)

/*
 * The file the module of that name is loaded from (see above), under
 * mem_ctx; NULL when out of memory.
 */
char *backend_module_path(void *mem_ctx, const char *module);

/*
 * The whole backend behind stub (stub->module set): its module is loaded
 * (once per process; it stays loaded) and checked: the stamp, the abi,
 * the same name, flags and options table as stub, every hook
 * (backend_list_check()).  Returns it, or NULL with *err (under mem_ctx;
 * NULL when out of memory) one line without the "dbench: " prefix naming
 * the backend, the module's path and what went wrong (dlerror()'s words
 * for a module that does not load).
 */
const struct backend *backend_module_load(void *mem_ctx,
					  const struct backend *stub,
					  char **err);

/*
 * What is wrong with b (a module's NAME_backend, NULL if it has none)
 * and stamp (its dbench_module_stamp, NULL if none) as the whole of
 * stub, in words (a static phrase, or one under mem), or NULL when
 * nothing is: the stamp is BACKEND_MODULE_STAMP, the abi BACKEND_ABI,
 * the name, flags and options table (long names, argInfo, val) stub's,
 * ->module and ->unavailable NULL, every hook filled.
 */
const char *backend_module_check(void *mem, const struct backend *stub,
				 const struct backend *b, const char *stamp);

/*
 * The stub of a backend that is not whole in this binary: what the
 * command line reads (--help, the owners of options, -B's refusal), the
 * rest of struct backend NULL.  The file of such a backend defines, in
 * the build without its library (or its module's build):
 *
 *     BACKEND_UNAVAILABLE(NAME, DESCRIPTION, FLAGS, OPTIONS, WHY);
 *         NAME_backend, unavailable for WHY ("built without LIBRARY
 *         ..."): -B NAME is refused with those words
 *     BACKEND_MODULE_STUB(NAME, DESCRIPTION, FLAGS, OPTIONS);
 *         NAME_backend in the binary, the whole one in module NAME
 *         (backend_module_load(), modules/NAME.so)
 *
 * OPTIONS is the backend's popt table (or NULL), the same one the whole
 * backend has.  Either's ->option is backend_stub_option(), which is
 * never called: -B NAME is refused before its options are, or the
 * module's struct, with its own hooks, takes the stub's place.
 */
#define BACKEND_STUB_(name_, description_, flags_, options_, module_, why_) \
	const struct backend name_##_backend = {			\
		.abi = BACKEND_ABI,					\
		.name = #name_,						\
		.description = (description_),				\
		.unavailable = (why_),					\
		.module = (module_),					\
		.flags = (flags_),					\
		.options = (options_),					\
		.option = backend_stub_option,				\
	}
#define BACKEND_UNAVAILABLE(name_, description_, flags_, options_, why_) \
	BACKEND_STUB_(name_, description_, flags_, options_, NULL, why_)
#define BACKEND_MODULE_STUB(name_, description_, flags_, options_) \
	BACKEND_STUB_(name_, description_, flags_, options_, #name_, NULL)

/*
 * A stub's ->option (BACKEND_UNAVAILABLE, BACKEND_MODULE_STUB): never
 * called (see above); if it were, it refuses the option: -1 with *err
 * (under mem_ctx) saying the backend is not in this binary.
 */
int backend_stub_option(void *mem_ctx, void **bopts, int val,
			const char *arg, char **err);

/* backend_list_check() of backend_registry, without the reason. */
int backend_registry_check(const char **bad);

/*
 * The target check of a backend whose target is a local directory
 * (fileio, and those that take -D as it does): target is an existing
 * directory this process may write in.  Returns 0, or -1 with *err
 * ("directory 'DIR': strerror" or "directory 'DIR' is not writable:
 * strerror") allocated under mem_ctx.
 */
int backend_dir_target_check(void *mem_ctx, const struct dbench_options *o,
			     const char *target, char **err);

/*
 * The refusal ->trees_check gives, under mem_ctx: "TARGET/PATH WHY: dbench
 * removes only what it creates; remove it or use another -D", where why
 * is one of the BACKEND_TREE_* phrases (or another of the same shape);
 * for BACKEND_TREE_OLD_RUN, one that names dbench 4.00 and says how to
 * remove its clients/ tree.
 * NULL when out of memory.
 */
char *backend_tree_refusal(void *mem_ctx, const char *target,
			   const char *path, const char *why);

#define BACKEND_TREE_NOT_EMPTY "already exists (left by an earlier run, " \
	"or someone else's files)"
/* not empty, and holds client.txt's "~dmtmp": dbench 4.00's leftovers
 * (or a killed run's); backend_tree_refusal() says how to remove them */
#define BACKEND_TREE_OLD_RUN "holds client.txt's ~dmtmp tree that no run " \
	"recorded as kept"
#define BACKEND_TREE_OLD_RUN_MARK "~dmtmp"
#define BACKEND_TREE_SYMLINK "already exists as a symlink"
#define BACKEND_TREE_NOT_DIR "already exists and is not a directory"
#define BACKEND_TREE_BEHIND "is behind a symlink or a file"

#endif
