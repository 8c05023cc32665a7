#!/bin/bash
# user-split.sh - two builds of ours compared on where a worker's user
# time goes, in alternated runs.  perf samples the workers' user time
# (cpu-clock:u, 10 kHz) over a short run and splits it in two:
#   W  the samples in the C library's system-call wrappers: nearly all on
#      the instruction after `syscall`, the kernel's way back to user
#      space charged to the next user instruction; the same for any tool
#      that makes the same calls (counted as the C library's samples
#      less those in its string, memory and allocator functions);
#   R  the rest: our code, the clock reads, the string functions.
# R/W cancels the machine's speed, which here moves the user time an op by
# 20% from one run to the next, so a change of a few percent in our code
# shows in a handful of pairs where user CPU per GB cannot see it
# (BENCHMARKS.md, round 6).
#
# usage: bench/engine/user-split.sh [--pairs N] [--seconds S] [--clients N]
#            [--loadfile FILE] [--depth D] BUILD_A BUILD_B
# BUILD_A and BUILD_B are build directories holding a dbench.  Runs on
# /dev/shm (tmpfs), -D D components deep (default 3), Debian's client.txt
# by default.  Prints every run, then each build's R/W (median and range)
# and B/A of the medians.  Needs perf; exits 77 without it.
set -u
PAIRS=6 SECS=6 NCL=2 DEPTH=3
LF=/usr/share/dbench/client.txt
while [ $# -gt 2 ]; do
	case $1 in
	--pairs) PAIRS=$2 ;;
	--seconds) SECS=$2 ;;
	--clients) NCL=$2 ;;
	--loadfile) LF=$2 ;;
	--depth) DEPTH=$2 ;;
	*) echo "user-split.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
	shift 2
done
if [ $# -ne 2 ]; then
	echo "usage: bench/engine/user-split.sh [options] BUILD_A BUILD_B" >&2
	exit 2
fi
A=$1 B=$2
for d in "$A" "$B"; do
	if [ ! -x "$d/dbench" ]; then
		echo "user-split.sh: no dbench in '$d'" >&2
		exit 2
	fi
done
if [ ! -r "$LF" ]; then
	echo "user-split.sh: cannot read the loadfile '$LF'" >&2
	exit 2
fi
if ! command -v perf >/dev/null ||
   ! perf record -q -e cpu-clock:u -o /dev/null -- true 2>/dev/null; then
	echo "user-split.sh: SKIPPED: perf cannot sample here" >&2
	exit 77
fi

TOP=$(mktemp -d /dev/shm/dbench-bench-split.XXXXXX) || exit 1
OUT=$(mktemp -d "${TMPDIR:-/tmp}/dbench-bench-split.XXXXXX") || exit 1
trap 'rm -rf "$TOP" "$OUT"' EXIT

# one run of build $1, labelled $2: "LABEL W R R/W R_ns_op W_ns_op"
run_one() {
	local dir=$TOP/t parent ops i
	rm -rf "$TOP/t"
	for ((i = 1; i <= DEPTH; i++)); do dir=$dir/d$i; done
	mkdir -p "$dir"
	perf record -q -e cpu-clock:u -F 10000 -o "$OUT/p.data" -- \
		"$1/dbench" -t "$SECS" --warmup 0 -c "$LF" -D "$dir" "$NCL" \
		>"$OUT/run.txt" 2>&1
	# the parent started first: the lowest pid that has samples
	parent=$(perf report -i "$OUT/p.data" --sort pid -q -F sample,pid \
		2>/dev/null | awk 'NF >= 2 { split($2, a, ":"); print a[1] }' |
		sort -n | head -1)
	# the ops of the final table: name, count, two latencies
	ops=$(awk '/^ ----/ { t = 1; next }
		t && NF == 4 && $2 ~ /^[0-9]+$/ { s += $2 }
		/^Throughput/ { print s + 0; exit }' "$OUT/run.txt")
	if [ -z "$parent" ] || [ -z "$ops" ] || [ "$ops" -eq 0 ]; then
		echo "user-split.sh: the run of $1 gave no samples or no ops:" >&2
		tail -5 "$OUT/run.txt" >&2
		exit 1
	fi
	perf script -i "$OUT/p.data" -F pid,ip,sym,dso 2>/dev/null |
		awk -v P="$parent" -v o="$ops" -v n="$2" '
		$1 == P { next }
		# libc, less its string, memory and allocator functions
		/libc\.so/ && $3 !~ /^(__mem|__str|mem|str|_int_|malloc|free|__libc_malloc|__libc_free|cfree)/ { w++; next }
		{ r++ }
		END {
			if (w == 0) { print "user-split.sh: no W samples" > "/dev/stderr"; exit 1 }
			printf "%s %d %d %.3f %.1f %.1f\n", n, w, r, r / w,
				r * 1e5 / o, w * 1e5 / o
		}'
}

echo "loadfile $LF, $NCL clients, ${SECS}s runs, -D depth $DEPTH, $PAIRS pairs"
echo "A = $A"
echo "B = $B"
printf '%-4s %-5s %7s %7s %6s %9s %9s\n' pair build W R R/W R_ns_op W_ns_op
for ((p = 1; p <= PAIRS; p++)); do
	for b in A B; do
		if [ $b = A ]; then d=$A; else d=$B; fi
		line=$(run_one "$d" $b) || exit 1
		echo "$p $line" >>"$OUT/rows"
		echo "$p $line" | awk '{ printf "%-4s %-5s %7d %7d %6.3f %9.1f %9.1f\n", $1, $2, $3, $4, $5, $6, $7 }'
	done
done
awk '
function median(v, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{ k = $2; n[k]++; x[k, n[k]] = $5 }
END {
	split("A B", ks, " ")
	for (j = 1; j <= 2; j++) {
		k = ks[j]
		delete v
		for (i = 1; i <= n[k]; i++) v[i] = x[k, i]
		m[k] = median(v, n[k])
		printf "%s: R/W median %.3f, range %.3f-%.3f\n", k, m[k], v[1], v[n[k]]
	}
	printf "B/A of the medians: %.3f\n", m["B"] / m["A"]
}' "$OUT/rows"
