#!/bin/bash
# bench/lib/watch.sh - the benchmarks' reader of one tool's output (ours or
# dbench
# 4.00): takes its lines stamped and samples the CPU and memory of the run's
# processes at the progress lines, from /proc, without starting processes
# in the loop.
#
#   watch.sh OUTPREFIX SIDFILE [PSS_LINE] <stamped-tool-output
#
# Its input is the tool's output stamped "EPOCH LINE" by the
# stamper of bench/lib/common.sh, a process that does nothing else.  Stamped here, a line that
# came while this loop sampled the CPU (a third of a second to over half
# a second for 4,096 workers, more with the PSS reading beside it) was
# stamped when the sampling ended: a progress line read 30-60 ms "late"
# now and then, which the tool had printed on time.
#
# SIDFILE holds (once the tool has started) the session id of the run: the
# tool's parent, started by setsid, so that the session's processes are
# exactly the tool's parent and its workers.  Writes:
#   OUTPREFIX.out  "EPOCH LINE" for each line read
#   OUTPREFIX.cpu  "EPOCH UTIME STIME NPROCS" (clock ticks, summed over the
#                  session) at each "execute" progress line: the first and
#                  the last sample bound the execute window
#   OUTPREFIX.mem  "HWM_KB WORKERS PSS_MEAN_KB PSS_MAX_KB": the parent's
#                  VmHWM read at every line after the release (the last
#                  read wins: a high-water mark only grows) and the
#                  workers' PSS at the PSS_LINE-th progress line after the
#                  release (0: never)
# The CPU of the workers is read while they live: their set is fixed from
# "releasing clients" (both tools fork every worker before it) until the
# cleanup lines, which come after the last execute line.
o=$1
sidfile=$2
pssline=${3:-0}
sid=
pids=()
released=0
nprog=0
hwm=-
pss="0 - -"
set -f

# sum utime and stime over $pids into the .cpu file, with the time
sample_cpu() {
	local u=0 s=0 p l f rest
	for p in "${pids[@]}"; do
		read -r l 2>/dev/null <"/proc/$p/stat" || continue
		# fields after "(comm) ": state ppid pgrp session tty tpgid
		# flags minflt cminflt majflt cmajflt utime stime
		rest=${l##*") "}
		f=($rest)
		u=$((u + f[11]))
		s=$((s + f[12]))
	done
	echo "$EPOCHREALTIME $u $s ${#pids[@]}" >>"$o.cpu"
}
# the parent's VmHWM (kB), when it is still there
read_hwm() {
	local k v _
	[ -r "/proc/$sid/status" ] || return
	{
		while read -r k v _; do
			if [ "$k" = VmHWM: ]; then
				hwm=$v
				return
			fi
		done <"/proc/$sid/status"
	} 2>/dev/null
}
# the workers' PSS: count, mean and largest (kB), into $o.pss.  Run in
# the background: with thousands of workers it takes over a second, and
# the lines that come meanwhile must be stamped when they come.
read_pss() {
	local files=() p
	for p in "${pids[@]}"; do
		[ "$p" = "$sid" ] || files+=("/proc/$p/smaps_rollup")
	done
	[ ${#files[@]} -gt 0 ] || return
	awk '/^Pss:/ { n++; t += $2; if ($2 > m) m = $2 }
		END { if (n) printf "%d %.1f %d\n", n, t / n, m; else print "0 - -" }' \
		"${files[@]}" 2>/dev/null >"$o.pss"
}
pss_job=

: >"$o.cpu"
while IFS= read -r line; do
	now=${line%% *}
	line=${line#* }
	printf '%s %s\n' "$now" "$line"
	if [ $released = 0 ]; then
		case $line in
		"releasing clients"*)
			released=1
			read -r sid 2>/dev/null <"$sidfile"
			[ -n "$sid" ] && pids=($(pgrep -s "$sid"))
			;;
		esac
		continue
	fi
	[ -n "$sid" ] || continue
	case $line in
	*" execute "*) sample_cpu ;;
	esac
	read_hwm
	case $line in
	*" sec  latency "*)
		nprog=$((nprog + 1))
		if [ $nprog = "$pssline" ]; then
			read_pss &
			pss_job=$!
		fi
		;;
	esac
done >"$o.out"
if [ -n "$pss_job" ]; then
	wait "$pss_job"
	[ -s "$o.pss" ] && read -r pss <"$o.pss"
	rm -f "$o.pss"
fi
echo "$hwm $pss" >"$o.mem"
