#!/bin/bash
# bench/mpi/scale.sh - dbench-mpi's scale model, measured at 1 to 64
# ranks on this machine (oversubscribed: more ranks than cores; -B null
# work, no filesystem) and projected to 1,000 and 10,000 ranks.
#  - the tick (bench/bench-mpi-tick, every second of a run): each rank
#    sends one fixed-size sample up a tree reduction (MPI_Ireduce) and
#    gets rank 0's decision back (MPI_Ibcast); Open MPI's non-blocking
#    collectives are binomial trees: depth ceil(log2 N) each way;
#  - the end (bench/bench-mpi-merge): each rank sends one result up the
#    merge tree of coord_mpi_merge.c (fan-out 4, depth ceil(log4 N));
#    rank 0 receives at most 4 and holds its merged result plus one.
# The projection: tick = 2 * ceil(log2 N) * (LAT_US + the per-hop cost
# measured at 2 ranks), worst case + 200 us per hop (a waiting rank polls
# every 200 us after its first 2 ms); the end's sizes from the measured
# result (H bytes, histograms and host facts) and the per-rank growth of
# the merged result (c bytes: a client record and a host's facts).
# Not a test.  Usage: bench/mpi/scale.sh [BUILD_DIR] (default: .);
# RANKS="1 2 4 ..." and LAT_US=10 (the network's latency per hop);
# MEASURED=FILE redoes the model from the output of an earlier run.
set -u
B=${1:-.}
RANKS=${RANKS:-"1 2 4 8 16 32 64"}
LAT_US=${LAT_US:-10}
MPI=(mpirun --oversubscribe --mca btl self,vader)
[ "$(id -u)" -eq 0 ] && MPI+=(--allow-run-as-root)

command -v mpirun >/dev/null || { echo "scale: mpirun not found" >&2; exit 1; }
make -C "$B" bench/bench-mpi-tick bench/bench-mpi-merge >/dev/null || exit 1
OUT=$(mktemp) || exit 1
trap 'rm -f "$OUT"' EXIT

echo "# $(date -u +%FT%TZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
# MEASURED=FILE: only the model, from an earlier run's output
if [ -n "${MEASURED:-}" ]; then cp "$MEASURED" "$OUT"; RANKS=; fi
for r in $RANKS; do
	timeout 300 "${MPI[@]}" -np "$r" "$B/bench/bench-mpi-tick" 200 | tee -a "$OUT"
	timeout 300 "${MPI[@]}" -np "$r" "$B/bench/bench-mpi-merge" 10 | tee -a "$OUT"
done
awk -v lat="$LAT_US" '
function ceil_log(n, b,   d, x) { d = 0; x = 1; while (x < n) { x *= b; d++ } return d }
/message/ { tick[$2] = $7; bytes = $4; order[++nn] = $2 }
/^merge / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	n = v["ranks"]; res[n] = v["result"]; sent[n] = v["sent"]; recv[n] = v["received"]
	merged[n] = v["merged"]; flat[n] = v["flat"]; mt[n] = v["median_ms"]; last = n }
END {
	printf "\n%6s %6s %8s %12s | %6s %10s %12s %12s %12s %9s\n", "ranks", "depth", "tick B", "tick us",
		"depth", "max sent B", "rank0 recv", "rank0 peak", "flat rank0", "merge ms"
	for (i = 1; i <= nn; i++) {
		n = order[i]
		printf "%6d %6d %8d %12.1f | %6d %10d %12d %12d %12d %9.2f\n", n, ceil_log(n, 2), bytes + 16, tick[n],
			ceil_log(n, 4), sent[n], recv[n], merged[n] + recv[n], flat[n], mt[n]
	}
	h = res[1]; c = (merged[last] - merged[1]) / (last - 1)
	hop = (tick[2] - tick[1]) / 2; if (hop < 0) hop = 0
	printf "\nper-hop cost (2 ranks) %.1f us, result H %d B, growth c %.0f B/rank, latency %s us/hop\n", hop, h, c, lat
	split("1000 10000", P, " ")
	for (i = 1; i <= 2; i++) {
		n = P[i]; d = ceil_log(n, 2)
		m = h + (n - 1) * c; child = h + ((n - 1) / 4) * c
		printf "projected %5d ranks: tick depth %d, %d B up + 16 B down per rank, %.2f ms (worst %.2f ms); end: depth %d, rank 0 receives 4 results, peak %.1f MB (merged %.1f + one child %.1f), flat gather %.1f MB\n",
			n, d, bytes, 2 * d * (lat + hop) / 1000, 2 * d * (lat + hop + 200) / 1000, ceil_log(n, 4),
			(m + child) / 1e6, m / 1e6, child / 1e6, n * (h + c) / 1e6
	}
}' "$OUT"
