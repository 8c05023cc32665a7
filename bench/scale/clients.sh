#!/bin/bash
# bench/scale/clients.sh - 1,024 clients for 60 s: progress lines on time, PSS
# per client.
#
#   bench/scale/clients.sh [--quick] [--build DIR] [--base DIR] [--ref PATH]
#       [--pairs N] [--deep N]
#
# One measurement of bench/run (which runs them all; `make bench`); the
# options and the report are bench/lib/common.sh's.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../lib/common.sh"

# ---- many clients for a minute -------------------------------------------
# PSS (kB) summed over a process and its children
pss_tree() {
	local top=$1 sum=0 p v
	for p in $top $(pgrep -P "$top"); do
		v=$(awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup" 2>/dev/null)
		sum=$((sum + ${v:-0}))
	done
	echo "$sum"
}
# scale TOOL OUTPREFIX: NSCALE clients, T_SCALE seconds; prints
# "worst_late_ms lines pss_mib_per_client"
scale() {
	local tool=$1 o=$2 pid pss=0 half
	fresh
	rm -f "$o.fifo"
	mkfifo "$o.fifo"
	stamper <"$o.fifo" >"$o.out" &
	local spid=$!
	# -t of 5/6 of the time: with the default warmup of a fifth of -t
	# (4.00 has no --warmup), both tools run T_SCALE seconds in all.
	# Ours with --keep-going: 1,024 clients fill $FS in ~25 s, and a
	# full disk would stop our run (a fault, by default); the measurement is
	# the progress lines over the whole time, so ours goes on, counting
	# the failed writes.  4.00 ends at its first short write: its figure
	# covers the lines before that.
	local keep=()
	[ "$tool" = "$DB" ] && keep=(--keep-going)
	bounded $((T_SCALE * 3 + 120)) "$o.fifo" "$o.err" \
		"$tool" "${keep[@]}" -t "$((T_SCALE * 5 / 6))" -c "$OUR_LF" \
		-D "$FS/t" "$NSCALE" &
	local bpid=$!
	half=$((T_SCALE / 2 + 2))
	# PSS when the run is well under way
	local i=0
	while kill -0 "$bpid" 2>/dev/null && [ $i -lt $((half * 2)) ]; do
		sleep 0.5
		if grep -q ' releasing clients$' "$o.out" 2>/dev/null; then
			i=$((i + 1))
		fi
	done
	pid=$(pgrep -x -P "$bpid" dbench | head -n 1)
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && pss=$(pss_tree "$pid")
	local stopped=0
	wait "$bpid" || stopped=1
	[ -n "$pid" ] && settle "$pid"
	wait "$spid"
	rm -rf "$FS/t"
	# lateness of the k-th progress line after "releasing clients":
	# (arrival - release) - k seconds
	awk -v pss="$pss" -v n="$NSCALE" -v stopped="$stopped" '
		/ releasing clients$/ { r = $1; next }
		r && / sec  latency / { k++; late = ($1 - r - k) * 1000
			list = list sprintf(" %.0f", late)
			if (late < 0) late = -late
			if (late > worst) worst = late }
		END { printf "%.1f %d %.3f %d\n", worst, k, pss / 1024 / n, stopped
		      print "    ms late, line by line:" list > "/dev/stderr" }' "$o.out"
}
t6() {
	log "6: $NSCALE clients, ${T_SCALE}s (warmup included), default loadfile, tmpfs"
	local r=("-" "-" "-" 0) o
	if [ $HAVE_REF = 1 ]; then
		read -r -a r <<<"$(scale "$REF" "$W/scale.ref")"
	fi
	read -r -a o <<<"$(scale "$DB" "$W/scale.ours")"
	echo "    4.00: worst line ${r[0]} ms over ${r[1]} lines, PSS ${r[2]} MiB/client" >&2
	echo "    ours: worst line ${o[0]} ms over ${o[1]} lines, PSS ${o[2]} MiB/client" >&2
	local note=
	[ "${r[3]}" = 1 ] && note=" (4.00 had to be stopped)"
	[ "${o[3]}" = 1 ] && note="$note (ours had to be stopped)"
	result clients "$NSCALE clients ${T_SCALE}s: worst progress line, ms late$note" "${r[0]}" "${o[0]}" - "<= 50" \
		"$(awk -v s="${o[0]}" -v k="${o[1]}" -v x="${o[3]}" 'BEGIN { print (((k > 0 && s <= 50 && x == 0)) ? "ok" : "MISS") }')"
	result clients "$NSCALE clients: PSS per client, MiB" "${r[2]}" "${o[2]}" "$(ratio "${o[2]}" "${r[2]}")" "<= 1" \
		"$(awk -v s="${o[2]}" 'BEGIN { print (((s > 0 && s <= 1)) ? "ok" : "MISS") }')"
}

t6
bench_report
