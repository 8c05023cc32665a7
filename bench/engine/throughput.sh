#!/bin/bash
# bench/engine/throughput.sh - MB/s, MB per CPU-second and user CPU per GB on
# tmpfs against dbench 4.00, alternated runs at two -D depths.
#
#   bench/engine/throughput.sh [--quick] [--build DIR] [--base DIR] [--ref PATH]
#       [--pairs N] [--deep N]
#
# One measurement of bench/run (which runs them all; `make bench`); the
# options and the report are bench/lib/common.sh's.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../lib/common.sh"

# perf counting system calls (a tracepoint: root or a low
# perf_event_paranoid); without it the split of user time by system calls is skipped
HAVE_PERF_SYS=0
if have perf && perf stat -x, -e raw_syscalls:sys_enter -o /dev/null -- true \
	>/dev/null 2>&1; then
	HAVE_PERF_SYS=1
fi

# ---- throughput and CPU on tmpfs, two -D depths ---------------------------
# Each figure comes from PAIRS rounds of alternated runs (4.00, the --base
# build, ours; 4.00, ...), 2 clients, T_TPUT seconds each, at two depths of
# -D: 4.00 builds the whole path for every call, ours keeps directory
# descriptors, so part of our lead grows with the depth.  bench/lib/watch.sh
# reads each run's output and sums utime+stime of the run's processes from
# /proc at the first and the last "execute" progress line: the CPU of the
# execute window, the window both tools' MB/s is over.  MB per CPU-second
# is MB/s over the CPU seconds used per second of that window: on a shared
# machine MB/s follows the CPU the run was given, MB per CPU-second much
# less.  Ratios are taken within a round (the runs next to each other) and
# the report gives their median and their spread.
# window OUTPREFIX: "MB/s wall_s user_s sys_s" of a watched run, the last
# three over its execute window; "-" for what is missing
window() {
	awk -v hz="$HZ" -v f="$1.cpu" '
		$2 == "Throughput" { m = $3 }
		END {
			if (m == "") m = "-"
			n = 0
			while ((getline l < f) > 0) {
				split(l, a, " ")
				if (n++ == 0) { w0 = a[1]; u0 = a[2]; s0 = a[3] }
				w1 = a[1]; u1 = a[2]; s1 = a[3]
			}
			if (n < 2 || w1 <= w0) print m, "-", "-", "-"
			else printf "%s %.3f %.2f %.2f\n", m, w1 - w0, (u1 - u0) / hz, (s1 - s0) / hz
		}' "$1.out"
}
# tput_run TOOL LOADFILE DIR OUTPREFIX: one watched run, 2 clients
tput_run() {
	clear_fs
	mkdir -p "$3"
	watched "$4" 0 $((T_TPUT * 3 + 60)) "$1" -t "$T_TPUT" -c "$2" -D "$3" 2
	clear_fs
}
# tsum NAME DEPTH METRIC A B: over the rounds of $W/tput.tsv, "median of
# A, median of B, and the median, lowest and highest of A/B in the same
# round"; METRIC: mbs (MB/s), mbcpu (MB per CPU-second of the execute
# window), ugb (user CPU seconds per GB: 1,024 MB)
tsum() {
	awk -v nm="$1" -v d="$2" -v met="$3" -v a="$4" -v b="$5" '
		function val(   c) {
			if ($5 == "-" || $6 == "-" || $5 + 0 <= 0) return "-"
			c = ($7 + $8) / $6
			if (met == "mbs") return $5
			if (met == "mbcpu") return c > 0 ? $5 / c : "-"
			return $7 / $6 / $5 * 1024
		}
		function med(x, n,   i, j, t) {
			if (n == 0) return "-"
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
					t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
				}
			return (n % 2) ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		}
		function f(v, p) { return v == "-" ? "-" : sprintf(p, v) }
		$1 == nm && $2 == d {
			v = val()
			if (v == "-") next
			if ($4 == a) A[$3] = v
			if ($4 == b) B[$3] = v
		}
		END {
			p = (met == "ugb") ? "%.3f" : "%.1f"
			for (k in A) { xa[++na] = A[k]; if ((k in B) && B[k] > 0) xr[++nr] = A[k] / B[k] }
			for (k in B) xb[++nb] = B[k]
			lo = hi = "-"
			for (i = 1; i <= nr; i++) {
				if (lo == "-" || xr[i] < lo) lo = xr[i]
				if (hi == "-" || xr[i] > hi) hi = xr[i]
			}
			print f(med(xa, na), p), f(med(xb, nb), p), f(med(xr, nr), "%.3f"),
				f(lo, "%.2f"), f(hi, "%.2f")
		}' "$W/tput.tsv"
}
# calls_gb TOOL LOADFILE OUTPREFIX: system calls per GB of one run counted
# by perf (the whole run, warmup and cleanup included, over the MB of the
# whole run taken as MB/s x T_TPUT x 1.2: the warmup is a fifth of -t in
# both tools).  A run of its own: counting a tracepoint slows every call,
# so the timed runs are not counted.
calls_gb() {
	local dir
	dir=$(depth_dir "$DEPTH_SHALLOW")
	clear_fs
	mkdir -p "$dir"
	perf stat -x, -e raw_syscalls:sys_enter -o "$3.calls" -- \
		"$1" -t "$T_TPUT" -c "$2" -D "$dir" 2 >"$3.out" 2>"$3.err" </dev/null
	clear_fs
	awk -F, -v m="$(tput "$3.out")" -v t="$T_TPUT" '/raw_syscalls:sys_enter/ && m > 0 {
		printf "%.0f", $1 / (m * t * 1.2 / 1024) }' "$3.calls"
}
# tput_rows NAME DEPTH: the rows of both tables for one loadfile and depth
tput_rows() {
	local n=$1 d=$2 what="$1, -D depth $2"
	local a b c r lo hi ar br rr
	read -r a b r lo hi <<<"$(tsum "$n" "$d" mbs ours ref)"
	result throughput "tmpfs MB/s, $what (pair ratios $lo-$hi)" "$b" "$a" "$r" ">= 1.35x" "$(ok_if "$r" ">=" 1.35)"
	read -r a b r lo hi <<<"$(tsum "$n" "$d" mbcpu ours ref)"
	result throughput "  MB per CPU-second of the execute window (pair ratios $lo-$hi)" "$b" "$a" "$r" - info
	read -r a b r lo hi <<<"$(tsum "$n" "$d" ugb ours ref)"
	result throughput "user CPU s per GB, execute window, $what" "$b" "$a" "$r" "<= 0.20x" "$(ok_if "$r" "<=" 0.2)"
	# the before/after table: 4.00, the --base build, ours
	local m
	for m in ugb mbs mbcpu; do
		read -r a b r lo hi <<<"$(tsum "$n" "$d" "$m" ours ref)"
		read -r c b br _ _ <<<"$(tsum "$n" "$d" "$m" base ref)"
		read -r _ _ rr blo bhi <<<"$(tsum "$n" "$d" "$m" ours base)"
		case $m in
		ugb) r2 throughput "user CPU s per GB, $what" "$b" "$c" "$a" "$r" "$rr" "<= 0.25x" "$(ok_if "$r" "<=" 0.25)" ;;
		mbs) r2 throughput "MB/s, $what (pairs: /4.00 $lo-$hi, /before $blo-$bhi)" "$b" "$c" "$a" "$r" "$rr" report info ;;
		mbcpu) r2 throughput "MB per CPU-s, $what (pairs: /4.00 $lo-$hi, /before $blo-$bhi)" "$b" "$c" "$a" "$r" "$rr" report info ;;
		esac
	done
}
# less_calls NAME: the user time per GB of both tables less what this
# machine charges to the system calls themselves (bench-syscall-cost)
less_calls() {
	local n=$1 lf=$2 t cg ug out=()
	if [ $HAVE_PERF_SYS = 0 ]; then
		result throughput "  the same less the calls' user time" - - - - "SKIPPED (no perf)"
		return
	fi
	log "3: system calls per GB, $n, one perf-counted run a tool"
	local calls=()
	for t in ref base ours; do
		if ! has_tool "$t"; then
			out+=(-)
			calls+=(-)
			continue
		fi
		cg=$(calls_gb "${BIN[$t]}" "$lf" "$W/calls.$n.$t")
		read -r ug _ <<<"$(tsum "$n" "$DEPTH_SHALLOW" ugb "$t" none)"
		calls+=("$(awk -v c="$cg" 'BEGIN { print (c == "") ? "-" : sprintf("%.2fM", c / 1e6) }')")
		out+=("$(awk -v u="$ug" -v c="$cg" -v k="$SYSCALL_USER_NS" 'BEGIN {
			if (u == "-" || c == "") print "-"; else printf "%.3f", u - c * k / 1e9 }')")
	done
	local what="less ${SYSCALL_USER_NS} ns/call (calls per GB: ${calls[*]})"
	result throughput "  the same $what" "${out[0]}" "${out[2]}" "$(ratio "${out[2]}" "${out[0]}")" - info
	r2 throughput "  the same $what" "${out[0]}" "${out[1]}" "${out[2]}" \
		"$(ratio "${out[2]}" "${out[0]}")" "$(ratio "${out[2]}" "${out[1]}")" - info
}
t23() {
	local name lf d k t o
	: >"$W/tput.tsv"
	for name in default client.txt; do
		if [ $name = default ]; then lf=$OUR_LF; else lf=$REF_LF; fi
		if [ -z "$lf" ]; then
			result throughput "tmpfs MB/s, $name" - - - ">= 1.35x" "SKIPPED (no $name)"
			continue
		fi
		for d in $DEPTH_SHALLOW $DEPTH_DEEP; do
			log "2,3: $name loadfile, -D $(depth_dir "$d"), 2 clients, ${T_TPUT}s, $PAIRS rounds of: $TOOLS"
			for k in $(seq "$PAIRS"); do
				for t in $TOOLS; do
					o=$W/tp.$name.$d.$k.$t
					tput_run "${BIN[$t]}" "$lf" "$(depth_dir "$d")" "$o"
					echo "$name $d $k $t $(window "$o")" >>"$W/tput.tsv"
					echo "    $t: MB/s, window s, user s, sys s: $(window "$o")" >&2
				done
			done
			tput_rows "$name" "$d"
		done
		less_calls "$name" "$lf"
	done
}

t23
bench_report
