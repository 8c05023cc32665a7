#!/bin/bash
# bench/engine/null.sh - the engine alone on the null backend: ops/s,
# instructions per op, the latency a report attributes to a null op.
#
#   bench/engine/null.sh [--quick] [--build DIR] [--base DIR] [--ref PATH]
#       [--pairs N] [--deep N]
#
# One measurement of bench/run (which runs them all; `make bench`); the
# options and the report are bench/lib/common.sh's.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../lib/common.sh"

# ---- the engine on the null backend ---------------------------------------
t47() {
	local lf=${REF_LF:-$OUR_LF} e
	log "4,7: engine alone (bench-engine), null backend, $lf, ${T_NULL}s"
	e=$("$ENGINE" "$lf" "$T_NULL")
	echo "    $e" >&2
	local ops p50 p99 p999 clk
	ops=$(echo "$e" | awk '{ for (i = 1; i < NF; i++) if ($i == "ops_per_sec") print $(i + 1) }')
	p50=$(echo "$e" | awk '{ for (i = 1; i < NF; i++) if ($i == "p50_ns") print $(i + 1) }')
	p99=$(echo "$e" | awk '{ for (i = 1; i < NF; i++) if ($i == "p99_ns") print $(i + 1) }')
	p999=$(echo "$e" | awk '{ for (i = 1; i < NF; i++) if ($i == "p999_ns") print $(i + 1) }')
	clk=$(echo "$e" | awk '{ for (i = 1; i < NF; i++) if ($i == "clock_read_ns") print $(i + 1) }')
	if true; then
		result null "null ops/s, one client, engine alone (clock read ${clk} ns)" - "$ops" - ">= 10000000" \
			"$(awk -v o="$ops" 'BEGIN { print ((o >= 1e7) ? "ok" : "MISS") }')"
		log "4: dbench -B null -t $T_NULL --warmup 0, 1 client"
		fresh
		"$DB" -B null -t "$T_NULL" --warmup 0 -c "$lf" -D "$FS/t" 1 >"$W/null.out" 2>&1
		local n
		n=$(awk -v n="$(table_ops "$W/null.out")" -v t="$T_NULL" 'BEGIN { printf "%.0f", n / t }')
		result null "null ops/s, one client, whole dbench" - "$n" - ">= 10000000" \
			"$(awk -v o="$n" 'BEGIN { print ((o >= 1e7) ? "ok" : "MISS") }')"
		if have valgrind; then
			local part=$lf
			if [ $QUICK = 1 ]; then
				head -n 60000 "$lf" >"$W/cg.txt"
				part=$W/cg.txt
			fi
			log "4: callgrind instructions per op (client_step, one pass)"
			valgrind --tool=callgrind --toggle-collect=client_step \
				--callgrind-out-file="$W/cg.out" "$ENGINE" --run-once "$part" \
				>"$W/cg.stdout" 2>"$W/cg.err"
			local ir nops
			ir=$(awk '/^summary:/ { print $2 }' "$W/cg.out")
			nops=$(awk '{ for (i = 1; i < NF; i++) if ($i == "ops") print $(i + 1) }' "$W/cg.stdout")
			result null "instructions per op (callgrind, client_step incl.)" - \
				"$(awk -v a="$ir" -v b="$nops" 'BEGIN { printf "%.0f", a / b }')" - - info
		else
			result null "instructions per op" - - - - "SKIPPED (no valgrind)"
		fi
	fi
	if true; then
		result null "null op latency p99 ns (p50 $p50, p99.9 $p999)" - "$p99" - "< 100" \
			"$(awk -v p="$p99" 'BEGIN { print ((p < 100) ? "ok" : "MISS") }')"
	fi
}

t47
bench_report
