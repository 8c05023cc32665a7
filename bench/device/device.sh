#!/bin/bash
# bench/device/device.sh - `dbench -B block` random 4 KiB reads and writes
# on a loop device, and `dbench -B iscsi` random 4 KiB reads from a tgt
# LUN over the same file, each beside its peer on the same device at the
# same queue depth: fio (--rw=randread|randwrite --bs=4k --direct=1
# --ioengine=psync, one job per dbench client) for the loop device, and
# libiscsi's iscsi-perf (-m CLIENTS -b 8 -r: CLIENTS commands in flight
# on one session) for the LUN (Debian's fio has no libiscsi engine).
# IOPS and CPU per IO (user+system of the tool, from /usr/bin/time, over
# its whole run) side by side.  A benchmark, not a test: it asserts
# nothing and is not part of `make check`.
#
#     bench/device/device.sh          (as root: losetup, unshare -n -m)
#
# Environment: DBENCH (default ./dbench), SECS (seconds per run, default
# 10), ROUNDS (default 3), CLIENTS (default "1 4"), IMG_DIR (where the
# 1 GiB image lives, default /dev/shm: the device's own speed stays out
# of the figures).  Rounds alternate the tools; each figure is the median
# over the rounds.  The image is this script's own, removed at exit.
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "$0")/.." && pwd)
SRC=$(cd "$HERE/.." && pwd)
. "$SRC/tests/integration/lib_tgtd.sh"
tgtd_enter_netns "$0" "$@"

DBENCH=${DBENCH:-$SRC/dbench}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
CLIENTS=${CLIENTS:-"1 4"}
IMG_DIR=${IMG_DIR:-/dev/shm}
IQN=iqn.2026-12.org.dbench:bench
for t in fio iscsi-perf losetup /usr/bin/time python3; do
	command -v "$t" >/dev/null || { echo "SKIPPED: $t is not installed"; exit 0; }
done
WORK=$(mktemp -d "$IMG_DIR/dbench-bench-dev.XXXXXX")
TOP=$WORK
LOOPDEV=
trap '[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV"; tgtd_stop; rm -rf "$WORK"' EXIT
IMG=$WORK/img
# written once, so that reads find data rather than holes
dd if=/dev/urandom of="$IMG" bs=1M count=1024 status=none
LOOPDEV=$(losetup -f --show "$IMG") || { echo "SKIPPED: losetup"; exit 0; }
tgtd_start "$IQN" "$IMG" || { cat "$WORK/tgtd.log"; exit 1; }

printf 'LOOP 100000000\nREAD */4096%%1073741824 4096 0x00000000\nENDLOOP\n' \
	>"$WORK/rr.txt"
printf 'LOOP 100000000\nWRITE */4096%%1073741824 4096 0x00000000\nENDLOOP\n' \
	>"$WORK/rw.txt"
printf 'LOOP 100000000\nREAD10 */8%%2097152 8 0 0 0x00\nENDLOOP\n' \
	>"$WORK/ir.txt"

# timed OUT CMD...: run CMD, its output in OUT, "user sys" in OUT.time
timed() {
	local out=$1
	shift
	/usr/bin/time -f '%U %S' -o "$out.time" "$@" >"$out" 2>&1
}

# dbench_iops OUT KIND: the execute phase's count of KIND / SECS
dbench_iops() {
	awk -v k="$2" -v s="$SECS" '$1 == k && $2 ~ /^[0-9]+$/ {
		printf "%.0f\n", $2 / s; exit }' "$1"
}

fio_iops() {
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(round(j["read"]["iops"] + j["write"]["iops"]))' "$1"
}

perf_iops() {
	tr '\r' '\n' <"$1" | awk '/^iops average/ { v = $3 } END { print v }'
}

# cpu_us OUT IOPS: microseconds of CPU per IO over the run
cpu_us() {
	awk -v n="$2" -v s="$SECS" '{ if (n > 0) printf "%.1f\n",
		($1 + $2) * 1e6 / (n * s); else print "-" }' "$1.time"
}

run_one() {
	local what=$1 n=$2 out=$WORK/out iops
	case $what in
	block-read)
		timed "$out" "$DBENCH" -B block --block="$LOOPDEV" \
			-c "$WORK/rr.txt" -t "$SECS" --warmup 0 "$n"
		iops=$(dbench_iops "$out" READ) ;;
	block-write)
		timed "$out" "$DBENCH" -B block --block="$LOOPDEV" \
			--allow-block-writes -c "$WORK/rw.txt" -t "$SECS" \
			--warmup 0 "$n"
		iops=$(dbench_iops "$out" WRITE) ;;
	fio-read | fio-write)
		timed "$out" fio --name=b --filename="$LOOPDEV" \
			--rw="rand${what#fio-}" --bs=4k --direct=1 \
			--ioengine=psync --iodepth=1 --numjobs="$n" \
			--group_reporting --time_based --runtime="$SECS" \
			--size=1G --output-format=json
		iops=$(fio_iops "$out") ;;
	iscsi-read)
		timed "$out" "$DBENCH" -B iscsi --iscsi="$TGTD_URL" \
			-c "$WORK/ir.txt" -t "$SECS" --warmup 0 "$n"
		iops=$(dbench_iops "$out" READ10) ;;
	perf-read)
		timed "$out" iscsi-perf -m "$n" -b 8 -r -t "$SECS" "$TGTD_URL"
		iops=$(perf_iops "$out") ;;
	esac
	echo "$iops $(cpu_us "$out" "${iops:-0}")"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}

WHAT="block-read fio-read block-write fio-write iscsi-read perf-read"
for r in $(seq 1 "$ROUNDS"); do
	for n in $CLIENTS; do
		for w in $WHAT; do
			run_one "$w" "$n" >>"$WORK/res.$w.$n"
		done
	done
	echo "round $r done" >&2
done

echo "| load | clients/QD | dbench IOPS | peer IOPS | dbench/peer | dbench CPU us/IO | peer CPU us/IO |"
echo "|---|---:|---:|---:|---:|---:|---:|"
row() {
	local name=$1 ours=$2 peer=$3 n=$4 oi pi oc pc
	oi=$(cut -d' ' -f1 "$WORK/res.$ours.$n" | median)
	pi=$(cut -d' ' -f1 "$WORK/res.$peer.$n" | median)
	oc=$(cut -d' ' -f2 "$WORK/res.$ours.$n" | median)
	pc=$(cut -d' ' -f2 "$WORK/res.$peer.$n" | median)
	echo "| $name | $n | $oi | $pi | $(awk -v a="$oi" -v b="$pi" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }') | $oc | $pc |"
}
for n in $CLIENTS; do
	row "block randread 4k vs fio" block-read fio-read "$n"
	row "block randwrite 4k vs fio" block-write fio-write "$n"
	row "iscsi READ10 4k vs iscsi-perf" iscsi-read perf-read "$n"
done
