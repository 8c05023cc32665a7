#!/bin/bash
# bench/nfs.sh - `dbench -B nfs` against a throwaway nfs-ganesha export
# (FSAL VFS on /dev/shm, rpcbind and ganesha in their own network
# namespace, as tests/integration/nfs.sh starts them): MB/s, and the CPU
# dbench spends per MB moved, for 1, 4 and 16 clients.  A benchmark, not a
# test: it asserts nothing and is not part of `make check`.
#
#     bench/nfs.sh                (as root: unshare -n)
#
# Environment: DBENCH (default ./dbench), SECS (execute seconds per run,
# default 10), ROUNDS (default 3), LOADS (default "nfs-rw.txt client.txt":
# the NFSv3 dialect and client.txt), CLIENTS (default "1 4 16").  Each
# round runs every (load, clients) once, in that order, so that all see
# the same moments of a shared machine; each row is the round of median
# MB/s.  CPU/MB is dbench's user+system CPU (parent and workers,
# from /usr/bin/time) over the MB of the execute phase (Throughput x
# SECS); ganesha's CPU over the same run is shown beside it.
#
# dbench 5.0's own nfs backend is not run: its source is not on this
# machine and it cannot be fetched (no network); Debian's dbench is 4.00,
# which has no NFS backend.  To compare, build dbench 5.0 with libnfs and
# run `dbench -B nfs --nfs=URL -t SECS -c LOADFILE N` on the same URL.
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/integration/lib_nfsd.sh"
nfsd_enter_netns "$0" "$@"

SRC=$(cd "$HERE/.." && pwd)
DBENCH=${DBENCH:-$SRC/dbench}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
LOADS=${LOADS:-"nfs-rw.txt client.txt"}
CLIENTS=${CLIENTS:-"1 4 16"}
WORK=$(mktemp -d /dev/shm/dbench-bench-nfs.XXXXXX)
trap 'nfsd_stop; rm -rf "$WORK"' EXIT

nfsd_start "$WORK" 1 >"$WORK/start" 2>&1 || { cat "$WORK/start"; exit 1; }

# ticks NAME: user+system clock ticks of $NFSD_DIR/NAME.pid so far.
ticks() {
	awk '{ print $14 + $15 }' "/proc/$(nfsd_pid "$1")/stat"
}

# one LOAD N: "MB/s cpu_s_per_MB ganesha_cpu_s_per_MB" of one run.
one() {
	local lf=$SRC/loadfiles/$1 n=$2 g0 g1 tp cpu hz
	hz=$(getconf CLK_TCK)
	g0=$(ticks nfsd)
	/usr/bin/time -f "%U %S" -o "$WORK/time" "$DBENCH" -B nfs \
		--nfs="$NFSD_URL1" -c "$lf" -t "$SECS" "$n" >"$WORK/out" 2>&1
	[ -n "${BENCH_DEBUG:-}" ] && cat "$WORK/out" "$WORK/time" >&2
	g1=$(ticks nfsd)
	tp=$(awk '/^Throughput/ { print $2 }' "$WORK/out")
	cpu=$(awk '{ print $1 + $2 }' "$WORK/time")
	awk -v tp="${tp:-0}" -v cpu="$cpu" -v g=$((g1 - g0)) -v hz="$hz" \
		-v s="$SECS" 'BEGIN {
		mb = tp * s
		if (mb <= 0) { print 0, 0, 0; exit }
		printf "%.2f %.4f %.4f\n", tp, cpu / mb, g / hz / mb
	}'
}

for r in $(seq 1 "$ROUNDS"); do
	for lf in $LOADS; do
		for n in $CLIENTS; do
			echo "$lf $n $(one "$lf" "$n")" >>"$WORK/results"
		done
	done
	echo "round $r done" >&2
done

printf '%-12s %7s %10s %14s %16s\n' loadfile clients "MB/s" \
	"dbench CPU s/MB" "ganesha CPU s/MB"
for lf in $LOADS; do
	for n in $CLIENTS; do
		awk -v lf="$lf" -v n="$n" '$1 == lf && $2 == n' "$WORK/results" |
			sort -n -k3 | awk -v lf="$lf" -v n="$n" '
			{ tp[NR] = $3; c[NR] = $4; g[NR] = $5 }
			END { m = int((NR + 1) / 2)
			      printf "%-12s %7d %10s %14s %16s\n", lf, n,
				     tp[m], c[m], g[m] }'
	done
done
