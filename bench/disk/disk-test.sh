#!/bin/bash
# bench/disk/disk-test.sh - `dbench --disk-test` beside the dd commands
# administrators run by hand, on one directory, numbers side by side.
# A benchmark, not a test: it asserts nothing and is not part of
# `make check`.
#
#     bench/disk/disk-test.sh [DIR]        (default /var/tmp)
#
# Environment: DBENCH (default: ./dbench, then dbench in PATH), SIZE_MB
# (file size, default 1024), ROUNDS (default 3).  The rounds interleave
# one dbench run (--repeat 1) with one set of dd commands, so that both
# see the same moments of a shared machine; the medians and ranges are
# over the rounds.  The cold read with drop_caches needs root: without
# it that dd row and dbench's --drop-caches row are left out.
#
# The dd commands (1 MiB blocks like dbench; dd's own MB/s is recomputed
# from its byte count and seconds, 1 MB = 10^6 bytes):
#   write           dd if=/dev/zero of=F bs=1M count=N conv=fdatasync
#   cold read       sync; echo 3 > /proc/sys/vm/drop_caches; dd if=F of=/dev/null bs=1M
#   hot read        dd if=F of=/dev/null bs=1M
#   O_DIRECT write  dd if=/dev/zero of=F bs=1M count=N oflag=direct conv=notrunc
#   O_DIRECT read   dd if=F of=/dev/null bs=1M iflag=direct
# and the admins' one-block form, dd bs=1G count=1 oflag=direct / iflag=direct
# (the whole file in one system call; shown for reference).
set -u
export LC_ALL=C

DIR=${1:-/var/tmp}
SIZE_MB=${SIZE_MB:-1024}
ROUNDS=${ROUNDS:-3}
AWK=$(command -v awk || command -v mawk || command -v gawk) || {
	echo "bench/disk/disk-test.sh: needs awk" >&2
	exit 2
}
if [ -z "${DBENCH:-}" ]; then
	if [ -x ./dbench ]; then DBENCH=./dbench; else DBENCH=$(command -v dbench); fi
fi
[ -x "$DBENCH" ] || { echo "bench/disk/disk-test.sh: no dbench binary (set DBENCH)" >&2; exit 2; }
[ -d "$DIR" ] && [ -w "$DIR" ] || { echo "bench/disk/disk-test.sh: $DIR is not a writable directory" >&2; exit 2; }

ROOT=0
[ "$(id -u)" -eq 0 ] && ROOT=1
WORK=$(mktemp -d "$DIR/dbench-bench.XXXXXX") || exit 2
RES=$(mktemp -d /tmp/dbench-bench-res.XXXXXX) || exit 2
F=$WORK/dd.dat
trap 'rm -rf "$WORK" "$RES"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# dd_mbps ARGS...: run dd, print its MB/s (10^6 bytes per second).
dd_mbps() {
	dd "$@" 2>&1 | "$AWK" '/copied/ {
		for (i = 1; i <= NF; i++) if ($i == "s,") s = $(i - 1)
		if (s > 0) printf "%.1f\n", $1 / 1e6 / s }'
}

drop_all() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# add NAME VALUE: record one round's figure.
add() {
	[ -n "$2" ] && echo "$2" >>"$RES/$1"
}

# dbench_row FILE ROW: the median MB/s of that row of a --disk-test table.
dbench_row() {
	"$AWK" -v row="$2" 'index($0, row "  ") == 1 {
		split(substr($0, length(row) + 1), f, " ")
		if (f[2] == "MB/s") print f[1]
		exit }' "$1"
}

echo "# dbench --disk-test vs dd: $DIR, ${SIZE_MB} MiB, $ROUNDS rounds"
echo "# $(uname -sr), $(nproc) CPUs, $(free -g | "$AWK" '/^Mem:/ { print $2 " GiB RAM" }'), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $DIR: $(df -hT "$DIR" | "$AWK" 'NR == 2 { print $2 " on " $1 ", " $5 " free of " $3 }')"
echo "# dbench: $DBENCH ($("$DBENCH" --version))"
[ "$ROOT" -eq 1 ] || echo "# not root: no drop_caches rows"
echo

for r in $(seq "$ROUNDS"); do
	echo "round $r/$ROUNDS ..." >&2
	"$DBENCH" --disk-test -D "$WORK" --size "${SIZE_MB}M" --repeat 1 >"$RES/dbench.$r" 2>&1
	for row in "write+fdatasync" "cold read" "hot read" "O_DIRECT write" "O_DIRECT read"; do
		add "db.$row" "$(dbench_row "$RES/dbench.$r" "$row")"
	done
	if [ "$ROOT" -eq 1 ]; then
		"$DBENCH" --disk-test --drop-caches -D "$WORK" --size "${SIZE_MB}M" --repeat 1 >"$RES/dbench-drop.$r" 2>&1
		add "db.cold read (--drop-caches)" "$(dbench_row "$RES/dbench-drop.$r" "cold read")"
	fi

	add "dd.write+fdatasync" "$(dd_mbps if=/dev/zero of="$F" bs=1M count="$SIZE_MB" conv=fdatasync)"
	if [ "$ROOT" -eq 1 ]; then
		drop_all
		add "dd.cold read (--drop-caches)" "$(dd_mbps if="$F" of=/dev/null bs=1M)"
	fi
	add "dd.hot read" "$(dd_mbps if="$F" of=/dev/null bs=1M)"
	add "dd.O_DIRECT write" "$(dd_mbps if=/dev/zero of="$F" bs=1M count="$SIZE_MB" oflag=direct conv=notrunc)"
	add "dd.O_DIRECT read" "$(dd_mbps if="$F" of=/dev/null bs=1M iflag=direct)"
	if [ "$SIZE_MB" -ge 1024 ]; then
		add "dd.O_DIRECT write, bs=1G count=1" "$(dd_mbps if=/dev/zero of="$F" bs=1G count=1 oflag=direct conv=notrunc)"
		add "dd.O_DIRECT read, bs=1G count=1" "$(dd_mbps if="$F" of=/dev/null bs=1G count=1 iflag=direct)"
	fi
	rm -f "$F"
done

# summary NAME: "median [min-max]" of the recorded figures, or "-".
summary() {
	local f=$RES/$1
	[ -s "$f" ] || { echo "-"; return; }
	sort -g "$f" | "$AWK" '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f [%.1f-%.1f]", m, v[1], v[NR] }'
}

printf '%-34s %-28s %-28s\n' "MB/s: median [min-max]" "dbench --disk-test" "dd"
for row in "write+fdatasync" "cold read" "cold read (--drop-caches)" "hot read" \
	"O_DIRECT write" "O_DIRECT read" \
	"O_DIRECT write, bs=1G count=1" "O_DIRECT read, bs=1G count=1"; do
	printf '%-34s %-28s %-28s\n' "$row" "$(summary "db.$row")" "$(summary "dd.$row")"
done
echo
echo "# dbench's last table (latencies of its block reads and writes):"
sed -n '/^measurement/,$p' "$RES/dbench.$ROUNDS"
