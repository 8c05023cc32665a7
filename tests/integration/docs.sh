#!/bin/bash
# docs.sh - the documents say only what is so: every path of the source
# tree that README, doc/*.md or a manual page names exists, and every long
# option they name is one that a program of this project (its --help), a
# script of bench/ or configure knows, or one of the few options of other
# tools (mpirun, valgrind, perf, ...) they quote.  Reads the source tree
# and runs the built programs' --help; and every function they name in
# backquotes is one of src/.  Writes nothing outside $W.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

BUILDDIR=$(dirname "$DBENCH")

# The documents, relative to $SRCDIR.
docs() {
	(cd "$SRCDIR" && ls README doc/*.md doc/*.1 doc/*.5)
}

# plain FILE: the document as text: a manual page's escapes undone
# (\- is -, \e is \, font changes and zero-width marks dropped)
plain() {
	sed -e 's/\\f[BIRP]//g; s/\\-/-/g; s/\\e/\\/g; s/\\&//g; s/\\c$//' \
		-e 's/\\(aq/'"'"'/g; s/\\(dq/"/g' "$SRCDIR/$1"
}

# Paths start with a top-level folder or name a top-level file of the
# tree; placeholders (NAME, <module>, X/foo.h) and what the build writes
# (modules/, sanitize/, bench/bench-*) are not files of the tree.
PATH_RE='(^|[^A-Za-z0-9_./$~-])((src|include|doc|tests|bench|loadfiles|scripts|tools|\.ci)/[A-Za-z0-9_./-]*[A-Za-z0-9_/-]|README|BENCHMARKS\.md|COPYING|Makefile\.am|configure\.ac|autogen\.sh)'

paths_named() {
	local d
	for d in $(docs); do
		plain "$d" | grep -oE "$PATH_RE" | sed -E 's/^[^A-Za-z.]//' |
			sed "s|^|$d |"
	done | sort -u
}

# a named path exists: as named, or as a program built from NAME.c or a
# script NAME.sh (tests/unit/test_client is built from test_client.c)
path_ok() {
	local p=$1
	case $p in
	*NAME* | *XXX* | */X/* | */foo.* | bench/bench-*) return 0 ;;
	# the CI job is in the git tree, not in the tarball
	.ci/*) [ -d "$SRCDIR/.git" ] || [ -e "$SRCDIR/.git" ] || return 0 ;;
	esac
	[ -e "$SRCDIR/$p" ] || [ -e "$SRCDIR/$p.c" ] || [ -e "$SRCDIR/$p.sh" ]
}

check_paths() {
	local d p bad=0
	paths_named >"$W/paths"
	[ -s "$W/paths" ] || fail "no path found in the documents: the pattern is wrong"
	while read -r d p; do
		if ! path_ok "$p"; then
			note "$d names $p, which is not in the tree"
			bad=1
		fi
	done <"$W/paths"
	[ $bad = 0 ] || fail "documents name paths that do not exist"
}

# Long options of other programs that the documents quote.
FOREIGN="--hostfile --map-by --oversubscribe --mca --allow-run-as-root
--tool --trace-children --toggle-collect --call-graph --all-user --prefix
--always --dirty --mpi --ntasks-per-node --wrap"

# known_options: every long option some program of the project knows
known_options() {
	local p
	for p in "$DBENCH" "$BUILDDIR/tbench_srv" "$BUILDDIR/dbench-compare" \
		"$BUILDDIR/dbench-plot"; do
		[ -x "$p" ] || fail "$p is not built"
		"$p" --help 2>&1
	done
	if [ -n "${CAPTURE:-}" ] && [ -x "$CAPTURE" ] &&
	   command -v python3 >/dev/null 2>&1; then
		"$CAPTURE" --help 2>&1
	else
		# not built (no python3): its options from its own source
		cat "$SRCDIR"/src/capture/dbench_capture/*.py
	fi
	# dbench-history: every subcommand's options, from its source
	cat "$SRCDIR"/src/history/dbench_history/cli.py
	cat "$SRCDIR/scripts/check-loadfile.py"
	bash "$SRCDIR/bench/run" --help 2>&1
	[ -x "$SRCDIR/configure" ] && "$SRCDIR/configure" --help 2>&1
	echo "$FOREIGN"
}

check_options() {
	local d o bad=0
	# configure's --with-X and --enable-X come with --without-X and
	# --disable-X
	known_options | grep -oE -- '--[a-z][a-z0-9-]*[a-z0-9]' |
		sed -e 'p; s/^--with-/--without-/; s/^--enable-/--disable-/' |
		sort -u >"$W/known"
	grep -qx -- '--disk-test' "$W/known" || fail "dbench --help did not list --disk-test"
	for d in $(docs); do
		plain "$d" | grep -oE -- '(^|[^A-Za-z0-9-])--[a-z][a-z0-9-]*[a-z0-9]' |
			sed -E 's/^[^-]*//' | sort -u >"$W/named"
		while read -r o; do
			if ! grep -qx -- "$o" "$W/known"; then
				note "$d names $o, which no program knows"
				bad=1
			fi
		done <"$W/named"
	done
	[ $bad = 0 ] || fail "documents name options that do not exist"
}

# Functions and macros the documents name as code (`name()`, in backquotes,
# or NAME() in a manual page) are defined or declared in src/;
# C library and system calls they cite are listed here.
FOREIGN_CALLS="open openat openat2 close read write pread pwrite fsync
fdatasync stat fstat lstat fstatat unlink unlinkat rename renameat mkdir
rmdir getdents64 fcntl ftruncate posix_fadvise mmap fork exit _exit
kill prctl dlopen smbc_open MPI_Ireduce MPI_Ibcast MPI_Init
clock_gettime getppid sched_yield setpgid utimensat statfs realpath
gettimeofday malloc free popen system sync"

check_symbols() {
	local d n bad=0
	for d in $(docs); do
		plain "$d" | grep -oE '`[A-Za-z_][A-Za-z0-9_]*\(\)' |
			tr -d '`()' | sort -u >"$W/calls"
		while read -r n; do
			case " $(echo $FOREIGN_CALLS) " in *" $n "*) continue ;; esac
			if ! grep -rqE "(^|[^A-Za-z0-9_])$n *\(" "$SRCDIR/src" \
				--include='*.c' --include='*.h' \
				--include='*.py'; then
				note "$d names $n(), which src/ does not define"
				bad=1
			fi
		done <"$W/calls"
	done
	[ $bad = 0 ] || fail "documents name functions that do not exist"
}

check "README, doc/*.md and the manual pages name only paths of the tree" check_paths
check "README, doc/*.md and the manual pages name only options that exist" check_options
check "README and doc/*.md name only functions that exist" check_symbols
finish
