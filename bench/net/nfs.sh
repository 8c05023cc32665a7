#!/bin/bash
# bench/net/nfs.sh - `dbench -B nfs` against a throwaway nfs-ganesha export
# (FSAL VFS on /dev/shm, rpcbind and ganesha in their own network
# namespace, as tests/integration/nfs.sh starts them): MB/s, and the CPU
# dbench spends per MB moved, for 1, 4 and 16 clients.  A benchmark, not a
# test: it asserts nothing and is not part of `make check`.
#
#     bench/net/nfs.sh                (as root: unshare -n)
#
# Environment: DBENCH (default ./dbench), SECS (execute seconds per run,
# default 10), ROUNDS (default 3), LOADS (default "nfs-rw.txt client.txt":
# the NFSv3 dialect and client.txt), CLIENTS (default "1 4 16").  Each
# round runs every (load, clients) once, in that order, so that all see
# the same moments of a shared machine; each figure of a row is the
# median over the rounds of that figure (MB/s, CPU/MB each on its own).
# CPU/MB is dbench's user+system CPU (parent and workers,
# from /usr/bin/time) over the MB of the execute phase (Throughput x
# SECS); ganesha's CPU over the same run is shown beside it.
#
# The reference, dbench 5.0's own nfs backend: REF_DBENCH=PATH names a
# dbench 5.0 built with libnfs (bench/net/dbench5-build.sh says how; nothing
# is fetched).  Then each REF_LOADS loadfile (NFSv3 dialect; default
# "nfs-rw.txt") runs with both, alternated within each round, on the
# same export and the same (load, clients), as rows "ours" and "5.0".
# Both run a flat copy of it (its LOOPs unrolled): 5.0 skips the line
# after each ENDLOOP, and the two must send the same ops.  Then a line
# per (load, clients) gives ours / 5.0 for each figure.  Without
# REF_DBENCH the reference rows are skipped, and the script says so.
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/../tests/integration/lib_nfsd.sh"
nfsd_enter_netns "$0" "$@"

SRC=$(cd "$HERE/.." && pwd)
DBENCH=${DBENCH:-$SRC/dbench}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
LOADS=${LOADS:-"nfs-rw.txt client.txt"}
CLIENTS=${CLIENTS:-"1 4 16"}
REF_DBENCH=${REF_DBENCH:-}
REF_LOADS=${REF_LOADS:-"nfs-rw.txt"}
WORK=$(mktemp -d /dev/shm/dbench-bench-nfs.XXXXXX)
trap 'nfsd_stop; rm -rf "$WORK"' EXIT

nfsd_start "$WORK" 1 >"$WORK/start" 2>&1 || { cat "$WORK/start"; exit 1; }

# ticks NAME: user+system clock ticks of $NFSD_DIR/NAME.pid so far.
ticks() {
	awk '{ print $14 + $15 }' "/proc/$(nfsd_pid "$1")/stat"
}

# flat LOADFILE: a copy in $WORK with every LOOP n ... ENDLOOP unrolled
# (one level, as the dialect's samples use them); prints its path.
flat() {
	local out=$WORK/${1%.txt}.flat.txt
	awk '/^LOOP / { n = $2; body = ""; inloop = 1; next }
	     /^ENDLOOP/ { for (i = 0; i < n; i++) printf "%s", body
			  inloop = 0; next }
	     inloop { body = body $0 "\n"; next }
	     { print }' "$SRC/loadfiles/$1" >"$out"
	echo "$out"
}

# one DBENCH LOADFILE N: "MB/s cpu_s_per_MB ganesha_cpu_s_per_MB" of one
# run (LOADFILE: a path, or a name in loadfiles/).
one() {
	local db=$1 lf=$2 n=$3 g0 g1 tp cpu hz
	case $lf in /*) ;; *) lf=$SRC/loadfiles/$lf ;; esac
	hz=$(getconf CLK_TCK)
	g0=$(ticks nfsd)
	/usr/bin/time -f "%U %S" -o "$WORK/time" "$db" -B nfs \
		--nfs="$NFSD_URL1" -c "$lf" -t "$SECS" "$n" >"$WORK/out" 2>&1
	[ -n "${BENCH_DEBUG:-}" ] && cat "$WORK/out" "$WORK/time" >&2
	g1=$(ticks nfsd)
	tp=$(awk '/^Throughput/ { print $2 }' "$WORK/out")
	cpu=$(awk '{ print $1 + $2 }' "$WORK/time")
	awk -v tp="${tp:-0}" -v cpu="$cpu" -v g=$((g1 - g0)) -v hz="$hz" \
		-v s="$SECS" 'BEGIN {
		mb = tp * s
		if (mb <= 0) { print 0, 0, 0; exit }
		printf "%.2f %.5f %.5f\n", tp, cpu / mb, g / hz / mb
	}'
}

if [ -n "$REF_DBENCH" ] && ! [ -x "$REF_DBENCH" ]; then
	echo "bench/net/nfs.sh: REF_DBENCH=$REF_DBENCH is not an executable" >&2
	exit 1
fi
# rows: "IMPL LOADNAME LOADFILE" (ours over the loadfiles as they are;
# with a reference, ours and 5.0 over the flat copies)
for lf in $LOADS; do
	echo "ours $lf $lf" >>"$WORK/rows"
done
if [ -n "$REF_DBENCH" ]; then
	for lf in $REF_LOADS; do
		f=$(flat "$lf")
		echo "ours ${lf%.txt}.flat $f" >>"$WORK/rows"
		echo "5.0 ${lf%.txt}.flat $f" >>"$WORK/rows"
	done
fi

for r in $(seq 1 "$ROUNDS"); do
	# every other round in the opposite order, so that neither tool
	# always runs first (on a page cache the other warmed)
	order=cat
	[ $((r % 2)) -eq 0 ] && order=tac
	for n in $CLIENTS; do
		while read -r impl name lf; do
			db=$DBENCH
			[ "$impl" = 5.0 ] && db=$REF_DBENCH
			echo "$impl $name $n $(one "$db" "$lf" "$n" </dev/null)" \
				>>"$WORK/results"
		done < <($order "$WORK/rows")
	done
	echo "round $r done" >&2
done

# med IMPL LOADNAME N: "MB/s cpu ganesha_cpu", each the median of its
# own column over the rounds.
med() {
	awk -v i="$1" -v lf="$2" -v n="$3" '$1 == i && $2 == lf && $3 == n {
		print $4, $5, $6 }' "$WORK/results" | awk '
		{ for (c = 1; c <= 3; c++) v[c, NR] = $c }
		END { m = int((NR + 1) / 2)
		      for (c = 1; c <= 3; c++) {
			for (a = 1; a <= NR; a++) col[a] = v[c, a]
			for (a = 1; a <= NR; a++)	# sort col[1..NR]
				for (b = a + 1; b <= NR; b++)
					if (col[b] + 0 < col[a] + 0) {
						t = col[a]; col[a] = col[b]
						col[b] = t
					}
			printf "%s%s", col[m], c < 3 ? " " : "\n"
		      } }'
}

echo "tool: ours = $DBENCH; 5.0 = ${REF_DBENCH:-(none)}"
echo "MB/s: dbench's Throughput; dbench CPU s/MB: user+system CPU of the" \
	"dbench run (parent and workers) per MB; ganesha CPU s/MB: the" \
	"server's CPU over that run per MB; each the median of $ROUNDS rounds"
printf '%-5s %-16s %7s %10s %16s %17s\n' tool loadfile clients "MB/s" \
	"dbench CPU s/MB" "ganesha CPU s/MB"
while read -r impl name lf; do
	for n in $CLIENTS; do
		set -- $(med "$impl" "$name" "$n")
		printf '%-5s %-16s %7d %10s %16s %17s\n' "$impl" "$name" "$n" \
			"$1" "$2" "$3"
	done
done <"$WORK/rows"
if [ -n "$REF_DBENCH" ]; then
	echo "ours / 5.0 (MB/s: above 1 is faster; CPU/MB: below 1 is cheaper):"
	for lf in $REF_LOADS; do
		name=${lf%.txt}.flat
		for n in $CLIENTS; do
			paste -d' ' <(med ours "$name" "$n") \
				<(med 5.0 "$name" "$n") | awk -v lf="$name" \
				-v n="$n" 'function r(a, b) {
					return b > 0 ? sprintf("%.3f", a / b) : "-" }
				{ printf "%-16s %3d clients: MB/s %s  dbench CPU/MB %s  ganesha CPU/MB %s\n",
				  lf, n, r($1, $4), r($2, $5), r($3, $6) }'
		done
	done
fi
[ -n "$REF_DBENCH" ] || echo "dbench 5.0 reference: skipped (set" \
	"REF_DBENCH to a dbench 5.0 built with libnfs; see" \
	"bench/net/dbench5-build.sh)"
