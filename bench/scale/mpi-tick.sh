#!/bin/bash
# mpi-tick.sh - what dbench-mpi's per-second tick costs rank 0 at 1, 8,
# 32 and 64 ranks on this machine (oversubscribed: more ranks than
# cores).  Two measurements per rank count:
#  - bench/bench-mpi-tick: the coordinator's own step(COORD_TICK) (tree
#    reduction of the fixed-size sample, the time rules on rank 0, the
#    broadcast), timed on rank 0 after a barrier, 200 times;
#  - a real job: dbench-mpi -B null, 1 client per rank, 5 s with --json
#    (so the sample carries the histogram), wall time and progress lines.
# Not a test.  Usage: bench/scale/mpi-tick.sh [BUILD_DIR] (default: .).
# Results go to stdout; BENCHMARKS.md ("Many hosts: the tick of
# dbench-mpi") records them.
set -u
B=${1:-.}
RANKS=${RANKS:-"1 8 32 64"}
MPI=(mpirun --oversubscribe --mca btl self,vader)
[ "$(id -u)" -eq 0 ] && MPI+=(--allow-run-as-root)

command -v mpirun >/dev/null || { echo "mpi-tick: mpirun not found" >&2; exit 1; }
[ -x "$B/dbench-mpi" ] || { echo "mpi-tick: $B/dbench-mpi not built (configure --with-mpi)" >&2; exit 1; }
make -C "$B" bench/bench-mpi-tick >/dev/null || exit 1
W=$(mktemp -d /dev/shm/mpi-tick.XXXXXX) || exit 1
trap 'rm -rf "$W"' EXIT

echo "# $(date -u +%FT%TZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $RANKS; do
	"${MPI[@]}" -np "$r" "$B/bench/bench-mpi-tick" 200
	mkdir -p "$W/d"
	t0=$(date +%s.%N)
	"${MPI[@]}" -np "$r" "$B/dbench-mpi" -B null -t 5 --warmup 0 \
		-c "$(dirname "$0")/../../tests/integration/data/basic.txt" \
		-D "$W/d" --json "$W/r.json" 1 >"$W/out" 2>"$W/err"
	rc=$?
	t1=$(date +%s.%N)
	printf 'ranks %d  null job of 5 s: exit %d, %.2f s wall, %d progress lines, %s\n' \
		"$r" "$rc" "$(echo "$t1 - $t0" | bc)" \
		"$(grep -c 'MB/sec  execute' "$W/out")" \
		"$(grep -o '[0-9]* clients  [0-9]* procs' "$W/out")"
done
