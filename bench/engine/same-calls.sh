#!/bin/bash
# bench/engine/same-calls.sh - the same system calls as dbench 4.00, one pass
# of a loadfile, 2 clients (strace).
#
#   bench/engine/same-calls.sh [--quick] [--build DIR] [--base DIR] [--ref PATH]
#       [--pairs N] [--deep N]
#
# One measurement of bench/run (which runs them all; `make bench`); the
# options and the report are bench/lib/common.sh's.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../lib/common.sh"

# ---- the same work as dbench 4.00 ---------------------------------------
t1() {
	local lf=${REF_LF:-$OUR_LF} out=$W/sys n
	if ! have strace; then
		result same-calls "same syscalls, worst deviation" - - - "<= 2%" "SKIPPED (no strace)"
		return
	fi
	if [ $HAVE_REF = 0 ]; then
		result same-calls "same syscalls, worst deviation" - - - "<= 2%" "SKIPPED (no reference)"
		return
	fi
	if [ "$SYS_LINES" != 0 ]; then
		head -n "$SYS_LINES" "$lf" >"$W/sys.txt"
		lf=$W/sys.txt
	fi
	n=$(wc -l <"$lf")
	log "1: strace of one pass, $n lines, 2 clients, both tools"
	DBENCH_REFERENCE=$REF bash "$HERE/lib/count-syscalls.sh" "$DB" "$REF" "$lf" 2 "$out" >"$W/t1.txt" 2>&1
	sed 's/^/    /' "$W/t1.txt" >&2
	local worst
	worst=$(awk '/^worst/ { print $2 " (" $3 ")" }' "$W/t1.txt")
	local pct=${worst%%%*}
	result same-calls "same syscalls ($n lines, 2 clients), worst deviation but rmdir" - - "$worst" "<= 2%" \
		"$(awk -v p="$pct" 'BEGIN { print (((p != "" && p <= 2)) ? "ok" : "MISS") }')"
	# 4.00's Deltree removes nothing (see BENCHMARKS.md): its rmdir count
	# says nothing of the work asked
	result same-calls "  rmdir: 4.00's Deltree removes nothing, ours the tree" \
		"$(awk '$1 == "rmdir" && NF == 3 { print $2 }' "$W/t1.txt")" \
		"$(awk '$1 == "rmdir" && NF == 3 { print $3 }' "$W/t1.txt")" - - info
	cp "$W/t1.txt" "$W/t1.table"
}


t1
bench_report
