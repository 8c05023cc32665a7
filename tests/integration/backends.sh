#!/bin/bash
# backends.sh - a backend over a vfs is its own file: -B memfs (the SMB
# semantics over an in-memory tree) replays the same loadfiles as -B
# fileio (the same semantics over the POSIX vfs) with the same op counts
# and no status mismatch, and its name appears nowhere but in its file,
# the list of backends, its folder's make fragment and the tests.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

DEBIAN_CLIENT=/usr/share/dbench/client.txt

# table_of BACKEND LOADFILE NCLIENTS: one --run-once pass, clean, and its
# op table ("Name Count", sorted) in $W/BACKEND.counts.
table_of() {
	local b=$1 lf=$2 n=$3
	rm -rf "$W/t" && mkdir "$W/t"
	run_db --run-once -t 600 -B "$b" -c "$lf" -D "$W/t" "$n"
	assert_clean_run "-B $b $(basename "$lf") x $n"
	table_counts "$W/out" | sort >"$W/$b.counts"
	[ -s "$W/$b.counts" ] || fail "-B $b: no operation table"
	assert_grep "  $n clients  " "$W/out" "-B $b Throughput client count"
}

# same_counts LOADFILE NCLIENTS: memfs and fileio count the same ops.
same_counts() {
	table_of fileio "$1" "$2"
	table_of memfs "$1" "$2"
	assert_same_lines "$W/fileio.counts" "$W/memfs.counts" \
		"op counts of $(basename "$1") x $2, memfs vs fileio"
}

# under check-sanitize, the 3-client replay runs the 1-client one's code
one_client_sanitized() {
	[ "$1" -ne 1 ] ||
		sanitizers_skip "the 3-client replay of the same file runs this code"
}

ours() {
	one_client_sanitized "$1"
	same_counts "$SRCDIR/loadfiles/client.txt" "$1"
}
debian() {
	[ -r "$DEBIAN_CLIENT" ] || skip "$DEBIAN_CLIENT not installed"
	one_client_sanitized "$1"
	same_counts "$DEBIAN_CLIENT" "$1"
}

# memfs never touches the -D directory
memfs_leaves_directory_alone() {
	mkdir t
	run_db --run-once -B memfs -c "$DATA/basic.txt" -D "$W/t" 2
	assert_clean_run "-B memfs basic.txt"
	assert_empty_dir "$W/t"
}

# The name appears in its file, the one list of backends (backends.h's
# DBENCH_BACKENDS, which registry.c expands), the make fragment of its
# folder (src/backends/local.mk) and tests only.
memfs_name_confined() {
	local hits
	hits=$(cd "$SRCDIR" && { grep -rl --include='*.[ch]' --include='*.mk' \
			memfs src include
		grep -l memfs Makefile.am configure.ac; } |
		grep -v -x -e src/backends/memfs.c -e src/backends/backends.h \
			-e src/backends/local.mk)
	[ -z "$hits" ] || fail "memfs named outside its file: $hits"
	assert_eq 1 "$(grep -c 'X(memfs)' "$SRCDIR/src/backends/backends.h")" \
		"backends.h list lines naming memfs"
	assert_eq 1 "$(grep -c '%reldir%/memfs\.c' "$SRCDIR/src/backends/local.mk")" \
		"src/backends/local.mk lines naming memfs.c"
}

check "client.txt, 1 client: memfs counts = fileio counts" ours 1
check "client.txt, 3 clients: memfs counts = fileio counts" ours 3
check "Debian client.txt, 1 client: memfs counts = fileio counts" debian 1
check "Debian client.txt, 3 clients: memfs counts = fileio counts" debian 3
check "-B memfs leaves the -D directory empty" memfs_leaves_directory_alone
check "the name memfs only in its file, the backend list and its folder's local.mk" memfs_name_confined
finish
