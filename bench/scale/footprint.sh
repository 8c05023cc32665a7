#!/bin/bash
# bench/scale/footprint.sh - memory and timing at many clients: runs a
# tool with N clients on a small loadfile and prints
#   parent_peak_rss_kb  the parent's VmHWM at its exit (an LD_PRELOAD shim
#                       reads /proc/self/status in a destructor)
#   worker_pss_kb       the workers' PSS mid-run (smaps_rollup): mean, max
#   start_s             launch to the "releasing clients" line (compile,
#                       fork of every worker, their setup)
#   tick_late_ms        worst lateness of a progress line: each is due a
#                       whole number of seconds after "releasing clients"
#                       (the nearest: up to 0.5 s of lateness is seen)
# for ours (and for dbench 4.00, when REF is given and exists).
#
# usage: bench/scale/footprint.sh DBENCH [REF] [N] [SECONDS] [BACKEND]
#   defaults: REF=/usr/bin/dbench N=1024 SECONDS=8 BACKEND=fileio
#   BACKEND null: ours only (-B null; 4.00 has no such backend)
# The loadfile (90 lines) is written to the work directory; the target
# directory is on /dev/shm.  Not a test: prints one line per tool.
# Lateness comes from the time a line reaches the pipe, so it includes
# the scheduling of this script's reader.  That reader runs SCHED_FIFO
# where allowed (as root; SCALE_RT=0 turns it off): at normal priority,
# among 4,096 runnable workers on 2 cores, it read the lines 150-300 ms
# after dbench wrote them, which measured the reader, not the tool (the
# parent, real-time itself, ticks within a millisecond).  Whether the
# reader ran real-time is printed on the header line.
set -u
OURS=$1 REF=${2:-/usr/bin/dbench} N=${3:-1024} T=${4:-8} BE=${5:-fileio}
W=$(mktemp -d /dev/shm/dbench-scale.XXXXXX) || exit 1
[ -n "${SCALE_KEEP:-}" ] || trap 'rm -rf "$W"' EXIT

# the shim: the parent's peak RSS, printed at exit
cat >"$W/hwm.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void __attribute__((destructor)) hwm(void)
{
	const char *want = getenv("SCALE_PID_FILE");
	char line[256];
	FILE *f = fopen("/proc/self/status", "r"), *o;
	if (f == NULL || want == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if ((strncmp(line, "VmHWM:", 6) == 0 ||
		     strncmp(line, "Rss", 3) == 0) && (o = fopen(want, "a"))) {
			fprintf(o, "%d %s", (int)getpid(), line);
			fclose(o);
		}
	fclose(f);
}
EOF
cc -O2 -shared -fPIC -o "$W/hwm.so" "$W/hwm.c" || exit 1

# a 90-line loadfile: the client's directory, 14 rounds of create, write,
# read, stat, close, unlink, 3 statfs, and the directory's removal
{
	echo 'Mkdir "\\clients" NT_STATUS_OK'
	echo 'Mkdir "\\clients\\client1" NT_STATUS_OK'
	for i in $(seq 14); do
		f="\\clients\\client1\\f$i.dat"
		echo "NTCreateX \"$f\" 0x40 0x5 $((100 + i)) NT_STATUS_OK"
		echo "WriteX $((100 + i)) 0 4096 4096 NT_STATUS_OK"
		echo "ReadX $((100 + i)) 0 4096 4096 NT_STATUS_OK"
		echo "QUERY_PATH_INFORMATION \"$f\" 1004 NT_STATUS_OK"
		echo "Close $((100 + i)) NT_STATUS_OK"
		echo "Unlink \"$f\" NT_STATUS_OK"
	done
	for i in 1 2 3; do echo "QUERY_FS_INFORMATION 1 NT_STATUS_OK"; done
	echo 'Deltree "\\clients\\client1" NT_STATUS_OK'
} >"$W/load90.txt"

# run NAME TOOL ARGS...: one run, one line of figures
run() {
	local name=$1 tool=$2 pid pss=() k
	shift 2
	rm -rf "$W/d" "$W/hwm" && mkdir -p "$W/d"
	: >"$W/hwm"
	local t0=$EPOCHREALTIME
	(echo "$BASHPID" >"$W/ppid"
	 SCALE_PID_FILE=$W/hwm LD_PRELOAD=$W/hwm.so exec stdbuf -oL \
		"$tool" "$@" -t "$T" -c "$W/load90.txt" -D "$W/d" "$N" \
		2>"$W/err" </dev/null) |
		{ [ -n "$RT" ] && chrt -f -p 1 "$BASHPID" >/dev/null 2>&1
		  while IFS= read -r line; do
			printf '%s %s\n' "$EPOCHREALTIME" "$line"
		  done; } >"$W/out" &
	sleep 0.2
	pid=$(cat "$W/ppid")
	# mid-run: the workers' PSS
	sleep $(awk -v t="$T" 'BEGIN { print t / 2 + 1 }')
	# one awk for all (a process each would outlast the run at 4,096)
	pss=($(cd /proc && awk '/^Pss:/ { print $2 }' \
		$(sed 's|\([0-9]*\)|\1/smaps_rollup|g' "$pid/task/$pid/children") \
		2>/dev/null))
	grep -E '^(Rss|Pss)' "/proc/$pid/smaps_rollup" >"$W/parent.mid" 2>/dev/null
	wait
	awk -v name="$name" -v t0="$t0" -v pid="$(cat "$W/ppid")" \
	    -v pss="${pss[*]:-}" -v hwmf="$W/hwm" -v n="$N" '
		BEGIN {
			while ((getline l < hwmf) > 0) {
				split(l, a, " ")
				if (a[1] != pid) continue
				if (a[2] == "VmHWM:") hwm = a[3]
				else at_exit = at_exit " " a[2] a[3]
			}
			np = split(pss, p, " ")
			for (i = 1; i <= np; i++) {
				s += p[i]
				if (p[i] > m) m = p[i]
			}
		}
		/releasing clients/ && !rel { rel = $1 }
		rel && /MB\/sec/ {
			for (f = 3; f <= NF; f++)
				if ($f == "sec" && ($(f - 2) == "execute" || $(f - 2) == "warmup")) {
					nl++
					# due at a whole second after the release
					# (the figure in the line counts the
					# seconds of the phase), the nearest one:
					# lateness under 0.5 s is seen; a line a
					# few ms early (the release line itself
					# reached the pipe late) counts as on time
					d = $1 - rel
					late = (d - int(d + 0.5)) * 1000
					if (late < 0) late = 0
					if (late > worst) worst = late
				}
		}
		END {
			printf "%-6s clients %d  parent_peak_rss_kb %s  worker_pss_kb mean %.0f max %d (%d workers)  start_s %.3f  tick_late_ms %.1f (%d lines)\n",
			       name, n, hwm == "" ? "-" : hwm, np ? s / np : 0, m, np,
			       rel ? rel - t0 : -1, worst, nl
			printf "       parent at exit (kB):%s\n", at_exit
		}' "$W/out"
	grep -m3 -i "error\|fail" "$W/err" >&2
}

# the reader's priority (see the header)
RT=
[ "${SCALE_RT:-1}" != 0 ] && chrt -f 1 true 2>/dev/null && RT=1
echo "# $(date -u +%FT%TZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)  backend $BE  reader $([ -n "$RT" ] && echo SCHED_FIFO || echo normal)"
if [ "$BE" = null ]; then
	run ours "$OURS" -B null
else
	run ours "$OURS"
	[ -x "$REF" ] && run "4.00" "$REF"	# (4.00 can take minutes to stop at 1,024)
fi
exit 0
