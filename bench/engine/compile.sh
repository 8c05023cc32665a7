#!/bin/bash
# bench/engine/compile.sh - compiling a loadfile: bytes of peak RSS per op.
#
#   bench/engine/compile.sh [--quick] [--build DIR] [--base DIR] [--ref PATH]
#       [--pairs N] [--deep N]
#
# One measurement of bench/run (which runs them all; `make bench`); the
# options and the report are bench/lib/common.sh's.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../lib/common.sh"

# ---- compile memory -------------------------------------------------------
# bytes of peak RSS per compiled op: a loadfile of short lines (an open,
# then ReadX, SETSP and Flush lines) less the RSS of compiling 90 lines
compile_bytes() {
	local big small
	big=$("$1" "$W/short.txt") || return
	small=$("$1" "$W/lf90.txt") || return
	awk -v b="$big" -v s="$small" 'BEGIN {
		split(b, x, " "); split(s, y, " ")
		for (i = 1; i < length(x); i++) { if (x[i] == "ops") o = x[i + 1]; if (x[i] == "maxrss_mb") m = x[i + 1] }
		for (i = 1; i < length(y); i++) if (y[i] == "maxrss_mb") z = y[i + 1]
		if (o > 0) printf "%.1f", (m - z) * 1048576 / o }'
}
tb() {
	log "19.3: compile $SHORT_LINES short lines, bytes of peak RSS per op"
	head -n 90 "$OUR_LF" >"$W/lf90.txt"
	awk -v n="$SHORT_LINES" 'BEGIN {
		print "NTCreateX \"\\clients\\client1\\f\" 0x0 0x1 1 *"
		for (i = 1; i < n; i++) {
			r = i % 4
			if (r == 1) print "ReadX 1 0 4 4 *"
			else if (r == 2) print "SETSP 3"
			else print "Flush 1 *"
		} }' >"$W/short.txt"
	local before=- after
	[ -n "$BASE" ] && before=$(compile_bytes "$BASE/bench/bench-compile")
	after=$(compile_bytes "$COMPILE")
	rm -f "$W/short.txt"
	local r
	r=$(ratio "$after" "$before")
	r2 compile "compile: bytes of peak RSS per op, $SHORT_LINES short lines" - "${before:--}" "${after:--}" - "$r" \
		"<= 0.5x before" "$(ok_if "$r" "<=" 0.5)"
}

tb
bench_report
