#!/bin/bash
# bench/scale/start.sh - the start of 1,024 clients: fork, prepare and release.
#
#   bench/scale/start.sh [--quick] [--build DIR] [--base DIR] [--ref PATH]
#       [--pairs N] [--deep N]
#
# One measurement of bench/run (which runs them all; `make bench`); the
# options and the report are bench/lib/common.sh's.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../lib/common.sh"

# ---- start-up ------------------------------------------------------------
# seconds from TOOL's "Running for" line (printed by both tools before
# they fork; ours has compiled the loadfile by then, which this script
# measures on its own) to its "releasing clients", with N clients (then
# the run is stopped: 4.00 can stay in its warmup for minutes)
startup() {
	local tool=$1 n=$2 o=$3
	fresh
	rm -f "$o.fifo"
	mkfifo "$o.fifo"
	stamper <"$o.fifo" >"$o.out" &
	local spid=$!
	bounded 60 "$o.fifo" "$o.err" "$tool" -t 600 -c "$OUR_LF" -D "$FS/t" "$n" &
	local bpid=$!
	# the stamps time the start; this loop only has to notice it ended,
	# once a second (see bounded for why so rarely)
	local i=0
	while [ $i -lt 60 ] && ! grep -q ' releasing clients$' "$o.out" 2>/dev/null; do
		sleep 1
		i=$((i + 1))
	done
	# stop it: SIGINT first (ours cleans up), then the whole session
	local pid
	pid=$(pgrep -x -P "$bpid" dbench | head -n 1)
	if [ -n "$pid" ]; then
		kill -INT "$pid" 2>/dev/null
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -TERM -- -"$pid" 2>/dev/null
		settle "$pid"
	fi
	wait "$bpid" 2>/dev/null
	wait "$spid" 2>/dev/null
	rm -rf "$FS/t"
	awk '/ Running for / && !t0 { t0 = $1 }
	     / releasing clients$/ && t0 { printf "%.3f", $1 - t0; exit }' "$o.out"
}
t5() {
	local lf=${REF_LF:-$OUR_LF} c
	log "5: compile $lf"
	c=$("$COMPILE" "$lf")
	echo "    $c" >&2
	local s mb lines
	s=$(echo "$c" | awk '{ for (i = 1; i < NF; i++) if ($i == "seconds") print $(i + 1) }')
	mb=$(echo "$c" | awk '{ for (i = 1; i < NF; i++) if ($i == "maxrss_mb") print $(i + 1) }')
	lines=$(echo "$c" | awk '{ print $2 }')
	result start "compile $lines lines: seconds" - "$s" - "< 0.3" \
		"$(awk -v s="$s" 'BEGIN { print ((s < 0.3) ? "ok" : "MISS") }')"
	result start "compile $lines lines: peak RSS MB" - "$mb" - "< 50" \
		"$(awk -v s="$mb" 'BEGIN { print ((s < 50) ? "ok" : "MISS") }')"
	log "5: fork, prepare and release $NSCALE clients (default loadfile, tmpfs)"
	local rs=- os
	# the median of three alternating runs: on this machine one start
	# can differ from the next by 20%
	local k ra=() oa=()
	for k in 1 2 3; do
		[ $HAVE_REF = 1 ] && ra+=("$(startup "$REF" "$NSCALE" "$W/start.ref")")
		oa+=("$(startup "$DB" "$NSCALE" "$W/start.ours")")
	done
	echo "    4.00: ${ra[*]:-}  ours: ${oa[*]}" >&2
	[ $HAVE_REF = 1 ] && rs=$(median "${ra[@]}")
	os=$(median "${oa[@]}")
	result start "start $NSCALE clients: seconds to release" "${rs:--}" "${os:--}" "$(ratio "$os" "$rs")" "< 2" \
		"$(awk -v s="$os" 'BEGIN { print (((s != "" && s < 2)) ? "ok" : "MISS") }')"
}

t5
bench_report
