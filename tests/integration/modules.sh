#!/bin/bash
# modules.sh - the smb and nfs backends are modules: the dbench
# binary links neither libsmbclient nor libnfs, a run of another backend
# never loads them, -B smb/-B nfs load the build tree's module beside the
# binary, and a module that does not load (or is not the right one) is one
# usage error naming its path, before anything is forked or written.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

LF=$DATA/basic.txt
MODDIR=$(dirname "$DBENCH")/modules

# need_module NAME: skip when this build has no backend NAME (--help says
# why); fail when it has one but its module is not beside the binary.
need_module() {
	local why

	why=$("$DBENCH" --help | sed -n "s/^Options of the $1 backend (not available: \(.*\)):\$/\1/p")
	[ -z "$why" ] || skip "-B $1 is not available: $why"
	[ -e "$MODDIR/$1.so" ] || fail "-B $1 is available but $MODDIR/$1.so is missing"
}

# a copy of the binary in $W/bin, with the modules given as NAME=FILE
# (FILE: a path to copy, or "junk" for a file that is no shared object)
copy_binary() {
	mkdir -p "$W/bin/modules" || fail "mkdir"
	cp "$DBENCH" "$W/bin/dbench" || fail "cp dbench"
	for m in "$@"; do
		if [ "${m#*=}" = junk ]; then
			echo "not a shared object" >"$W/bin/modules/${m%%=*}.so"
		else
			cp "${m#*=}" "$W/bin/modules/${m%%=*}.so" || fail "cp $m"
		fi
	done
	DBENCH=$W/bin/dbench
}

# assert_one_line_re REGEX: exit 2, stderr one line matching REGEX.
assert_one_line_re() {
	assert_usage_error
	assert_match "$1" "$(cat "$W/err")" "the message"
}

no_heavy_libs() {
	command -v ldd >/dev/null || skip "no ldd"
	for b in "$DBENCH" "${DBENCH_MPI:-}"; do
		[ -x "$b" ] || continue
		ldd "$b" >"$W/ldd" 2>&1 || fail "ldd $b failed"
		# make check-sanitize links them on purpose (Makefile.am)
		! grep -q libasan "$W/ldd" ||
			skip "a sanitized build links the modules' libraries"
		assert_no_grep 'libsmbclient|libnfs|samba' "$W/ldd" \
			"the libraries $(basename "$b") links"
	done
}

# the module loads: the error is its options check's (the stub has none),
# not the loader's.  (Not a connection refused: libsmbclient leaks a
# debug-log name then, which LSan reports without the frames that
# tests/lsan-smb.supp names.)
module_loads_smb() {
	need_module smb
	run_db --run-once -B smb --smb-share=//127.0.0.1:1/share \
		--smb-protocol=SMB3_11:SMB2_02 -c "$LF" 1
	assert_one_line_re "^dbench: backend 'smb': --smb-protocol: MIN is above MAX\$"
}

module_loads_nfs() {
	need_module nfs
	run_db --run-once -B nfs --nfs=nfs://127.0.0.1/no-such-export -c "$LF" 1
	assert_rc 2
	assert_no_grep 'module' "$W/err" "the message"
	assert_grep '^dbench: cannot mount nfs://127\.0\.0\.1/no-such-export' \
		"$W/err" "the message"
}

module_junk() {
	need_module smb
	copy_binary smb=junk
	run_db --run-once -B smb --smb-share=//127.0.0.1:1/share -c "$LF" 1
	assert_one_line_re "^dbench: backend 'smb': cannot load its module $W/bin/modules/smb\.so: .+\$"
}

# a FIFO where the module should be: refused at once (dlopen would block
# on it for ever), naming the path
module_fifo() {
	need_module smb
	copy_binary
	mkfifo "$W/bin/modules/smb.so" || skip "cannot make a FIFO here"
	IT_TIMEOUT=10 run_db --run-once -B smb \
		--smb-share=//127.0.0.1:1/share -c "$LF" 1
	assert_one_line_re "^dbench: backend 'smb': cannot load its module $W/bin/modules/smb\.so: not a regular file\$"
}

module_wrong() {
	need_module smb
	need_module nfs
	copy_binary smb="$MODDIR/nfs.so"
	run_db --run-once -B smb --smb-share=//127.0.0.1:1/share -c "$LF" 1
	assert_one_line_re "^dbench: backend 'smb': module $W/bin/modules/smb\.so: it has no smb_backend\$"
}

# no module beside the binary: the installed one is tried (the message
# names it), unless an installed dbench has one
module_missing() {
	need_module nfs
	copy_binary
	run_db --run-once -B nfs --nfs=nfs://127.0.0.1/no-such-export -c "$LF" 1
	grep -q 'module' "$W/err" || skip "an installed nfs module was loaded"
	assert_one_line_re "^dbench: backend 'nfs': cannot load its module /[^ ]+/nfs\.so: .*No such file or directory\$"
	assert_no_grep "$W" "$W/err" "the message (the installed path)"
}

# another backend never loads a module, even a broken one
others_ignore_modules() {
	need_module smb
	copy_binary smb=junk nfs=junk
	mkdir t
	run_db --run-once -B null -c "$LF" -D "$W/t" 1
	assert_rc 0
	run_db --run-once -B fileio --smb-share=//h/s -c "$LF" -D "$W/t" 1
	assert_one_line_re "^dbench: --smb-share belongs to backend 'smb', but backend 'fileio' is selected\$"
	run_db --help
	assert_rc 0
	assert_grep '^Options of the smb backend \(-B smb\):$' "$W/out" "--help"
}

check "dbench (and dbench-mpi) link neither libsmbclient nor libnfs" no_heavy_libs
check "-B smb loads the build tree's module" module_loads_smb
check "-B nfs loads the build tree's module" module_loads_nfs
check "a module that is no shared object: one line, its path, exit 2" module_junk
check "a FIFO for a module: one line, its path, 'not a regular file', no hang" module_fifo
check "another backend's module: one line, exit 2" module_wrong
check "no module beside the binary: the installed path is named" module_missing
check "-B null, -B fileio and --help load no module" others_ignore_modules
finish
