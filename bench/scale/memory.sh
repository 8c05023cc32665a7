#!/bin/bash
# bench/scale/memory.sh - memory, start and tick at 1,024 clients (and 4,096
# on the null backend): the parent's peak RSS, the workers' PSS.
#
#   bench/scale/memory.sh [--quick] [--build DIR] [--base DIR] [--ref PATH]
#       [--pairs N] [--deep N]
#
# One measurement of bench/run (which runs them all; `make bench`); the
# options and the report are bench/lib/common.sh's.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../lib/common.sh"

# ---- memory, start and tick at scale --------------------------------------
# NSCALE clients of the first 90 lines of our default loadfile, -t 8, for
# every tool: the parent's VmHWM at its exit (a preloaded destructor reads
# /proc/self/status; without a C compiler, the last VmHWM bench/lib/watch.sh
# read), the workers' mean PSS at the third progress line, the start
# (launch to "releasing clients") and the worst progress line's lateness
# (line k after the release is due k seconds after it, as in scale/clients.sh).
# Then 4,096 clients of the same loadfile on the null backend, ours only
# (4.00 has no null backend).  The same definitions as
# bench/scale/footprint.sh.
HWM_SO=
# hwm_shim: build the preloaded VmHWM reader once, into $W
hwm_shim() {
	[ -n "$HWM_SO" ] && return
	have cc || return
	cat >"$W/hwm.c" <<'EOC'
/* bench/run's shim: at exit, append "PID VmHWM-kB" to $BENCH_HWM_FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void __attribute__((destructor)) bench_hwm(void)
{
	const char *path = getenv("BENCH_HWM_FILE");
	char l[256];
	FILE *in, *out;
	long kb = -1;
	if (path == NULL || (in = fopen("/proc/self/status", "r")) == NULL)
		return;
	while (fgets(l, sizeof(l), in) != NULL)
		if (strncmp(l, "VmHWM:", 6) == 0)
			kb = atol(l + 6);
	fclose(in);
	if (kb >= 0 && (out = fopen(path, "a")) != NULL) {
		fprintf(out, "%d %ld\n", (int)getpid(), kb);
		fclose(out);
	}
}
EOC
	cc -O2 -shared -fPIC -o "$W/hwm.so" "$W/hwm.c" 2>/dev/null && HWM_SO=$W/hwm.so
}
# mem_run TOOL N OUTPREFIX [ARGS...]: one watched run of N clients of the
# 90-line loadfile; prints "start_s worst_late_ms hwm_kb pss_mean_kb"
mem_run() {
	local tool=$1 n=$2 o=$3 t0 hwm pss sid env=()
	shift 3
	clear_fs
	mkdir -p "$FS/t"
	: >"$o.hwm"
	[ -n "$HWM_SO" ] && env=(env "LD_PRELOAD=$HWM_SO" "BENCH_HWM_FILE=$o.hwm")
	t0=$EPOCHREALTIME
	watched "$o" 3 180 "${env[@]}" "$tool" "$@" -t 8 -c "$W/lf90.txt" -D "$FS/t" "$n"
	clear_fs
	read -r hwm _ pss _ <"$o.mem"
	read -r sid <"$o.sid"
	# the parent's own line of the shim's file, when there is one
	hwm=$(awk -v p="$sid" -v h="$hwm" '$1 == p { h = $2 } END { print h }' "$o.hwm")
	awk -v t0="$t0" -v h="$hwm" -v p="$pss" '
		/ releasing clients$/ && !r { r = $1; next }
		r && / sec  latency / { k++; late = ($1 - r - k) * 1000
			if (late < 0) late = -late
			if (late > w) w = late }
		END { printf "%s %s %s %s\n", r ? sprintf("%.3f", r - t0) : "-",
			k ? sprintf("%.1f", w) : "-", h, p }' "$o.out"
}
# r2_mem ITEM LABEL FILE COL DIV FMT GOAL LIMIT: a row of the before/after table
# from mem_run figures; GOAL "-": no goal, an info row
r2_mem() {
	local c v=info
	read -r -d '' -a c < <(r2_cols "$3" "$4" "$5" "$6")
	[ "$7" != - ] && v=$(ok_if "${c[2]}" "<=" "$8")
	r2 "$1" "$2" "${c[0]}" "${c[1]}" "${c[2]}" "$(ratio "${c[2]}" "${c[0]}")" \
		"$(ratio "${c[2]}" "${c[1]}")" "$7" "$v"
}
tm() {
	local t f=$W/mem.tsv f4=$W/mem4096.tsv
	head -n 90 "$OUR_LF" >"$W/lf90.txt"
	hwm_shim
	: >"$f"
	: >"$f4"
	for t in $TOOLS; do
		log "19.2: $NSCALE clients, 90-line loadfile, -t 8: $t"
		echo "$t $(mem_run "${BIN[$t]}" "$NSCALE" "$W/mem.$t")" >>"$f"
	done
	for t in base ours; do
		has_tool "$t" || continue
		log "19.2: 4096 clients, null backend, 90-line loadfile, -t 8: $t"
		echo "$t $(mem_run "${BIN[$t]}" 4096 "$W/mem4096.$t" -B null)" >>"$f4"
	done
	sed 's/^/    start s, worst line ms, parent VmHWM kB, worker PSS kB: /' "$f" "$f4" >&2
	r2_mem memory "parent peak RSS MB (VmHWM at exit), $NSCALE clients, 90 lines" "$f" 3 1024 %.1f "<= 12 MB" 12
	r2_mem memory "worker PSS MiB (mean, at the 3rd progress line)" "$f" 4 1024 %.3f "<= 0.1 MiB" 0.1
	r2_mem memory "start s (launch to release), $NSCALE clients, 90 lines" "$f" 1 1 %.3f -
	r2_mem memory "worst progress line, ms late, $NSCALE clients" "$f" 2 1 %.1f -
	r2_mem memory "start s, 4,096 clients, null backend, 90 lines" "$f4" 1 1 %.3f "< 1 s" 1
	r2_mem memory "worst progress line, ms late, 4,096 clients, null" "$f4" 2 1 %.1f "<= 10 ms" 10
}

tm
bench_report
