#!/bin/bash
# default_loadfile.sh - the shipped loadfiles replay a full pass without a
# single status mismatch: our loadfiles/client.txt (chosen by default and
# given with -c) and, when installed, Debian's /usr/share/dbench/client.txt.
# Runs on /dev/shm with --run-once; these are the slowest checks.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

OURS=$SRCDIR/loadfiles/client.txt
DEBIAN=/usr/share/dbench/client.txt
MAIN_ROWS="NTCreateX Close Rename Unlink Qpathinfo Qfileinfo Qfsinfo Sfileinfo Find WriteX ReadX Flush"

# full_pass LOADFILE N [DBENCH ARGS...]: one pass of N clients succeeds,
# cleanly, with the main rows present, leaving nothing behind; when the
# loadfile has no LOOP/REPEAT, the counts are exactly N times its ops.
full_pass() {
	local lf=$1 n=$2 op start
	shift 2
	mkdir t
	start=$(date +%s)
	run_db --run-once -t 600 -D "$W/t" "$@" "$n"
	note "$(basename "$lf") x $n clients took $(($(date +%s) - start)) s"
	assert_clean_run "$(basename "$lf")"
	for op in $MAIN_ROWS; do
		assert_grep "^ $op +[0-9]+ " "$W/out" "table row $op"
	done
	if ! grep -Eiq '^[ \t]*(LOOP|REPEAT)[ \t]' "$lf"; then
		loadfile_counts "$lf" "$n" >expected.counts
		assert_counts expected.counts "op counts = $n x the loadfile's"
	fi
	assert_empty_dir "$W/t" "target after the run"
}

ours_default() {
	[ -f "$OURS" ] || fail "$OURS is missing (it is shipped: dist_pkgdata_DATA)"
	full_pass "$OURS" 2
	assert_grep "^Running for [0-9]+ seconds with load '[^']*client\\.txt'" "$W/out" "the default loadfile is client.txt"
}

ours_fileio() {
	[ -f "$OURS" ] || fail "$OURS is missing (it is shipped: dist_pkgdata_DATA)"
	sanitizers_skip "the default run replays the same file on the same backend (fileio)"
	full_pass "$OURS" 2 -B fileio -c "$OURS"
}

debian_1() {
	[ -f "$DEBIAN" ] || skip "$DEBIAN not installed (apt-get install dbench)"
	full_pass "$DEBIAN" 1 -c "$DEBIAN"
}

check "loadfiles/client.txt by default, 2 clients: full pass, no mismatch" ours_default
check "-B fileio -c loadfiles/client.txt, 2 clients: full pass, no mismatch" ours_fileio
check "Debian's client.txt, 1 client: full pass, no mismatch" debian_1
finish
