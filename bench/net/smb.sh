#!/bin/bash
# bench/net/smb.sh - `dbench -B smb` against a throwaway smbd on 127.0.0.1,
# beside Samba's own load tool (smbtorture bench.nbench) and, where the
# machine allows one, a kernel CIFS mount (-B fileio -D MOUNT).  A
# benchmark, not a test: it asserts nothing and is not part of make check.
#
#     bench/net/smb.sh [CLIENTS...]        (default: 1 4 16)
#
# Environment: DBENCH (default ./dbench), SECS (run length, default 20),
# LOADFILE (default loadfiles/client.txt), OLD_DBENCH (another build, e.g.
# of an earlier commit: its row is measured right before each of DBENCH's,
# alternating, so that both see the same machine), NO_SMBTORTURE=1 (leave
# smbtorture out), NO_NATIVE=1 (leave out the row of dbench's own SMB2
# client, --smb-client=native, the default, measured right after
# libsmbclient's, --smb-client=libsmbclient).  For each client count and
# tool it prints MB/s, and the CPU seconds per MB written+read of the load
# generator (user+sys of it and its children, from /usr/bin/time) and of
# smbd (utime+stime of smbd and its reaped connection processes, from
# /proc/PID/stat of the server process, taken before and after).
#
# smbtorture speaks SMB1 only: the server here allows it (server min
# protocol = NT1), which -B smb does not need.  Its MB/s is its own
# report; its bytes for the CPU per MB are its MB/s x SECS.  A kernel
# CIFS mount needs the cifs module and mount.cifs (and root): without
# them that row says why it is missing.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. tests/integration/lib_smbd.sh

DBENCH=${DBENCH:-./dbench}
SECS=${SECS:-20}
LOADFILE=${LOADFILE:-loadfiles/client.txt}
CLIENTS=${*:-1 4 16}
TICK=$(getconf CLK_TCK)
W=$(mktemp -d /var/tmp/dbench-bench-smb.XXXXXX) || exit 1
trap 'smbd_stop; rm -rf "$W"' EXIT

SMBD_GLOBAL="	server min protocol = NT1" smbd_start "$W/srv" || exit 1
SHARE=//127.0.0.1:$SMBD_PORT/share

# smbd's CPU so far in clock ticks: its own and its reaped children's
smbd_ticks() {
	awk '{ print $14 + $15 + $16 + $17 }' "/proc/$SMBD_PID/stat"
}

# row TOOL N MBS CPU_GEN_S SMBD_TICKS: one line of the table
row() {
	awk -v t="$1" -v n="$2" -v mbs="$3" -v g="$4" -v s="$5" \
		-v secs="$SECS" -v hz="$TICK" 'BEGIN {
		mb = mbs * secs
		if (mb <= 0) { printf "%-14s %4d  %8s\n", t, n, "failed"; exit }
		printf "%-14s %4d  %8.2f  %10.4f  %10.4f  %6.2f\n", t, n, mbs,
			g / mb, s / hz / mb, (s > 0 ? g / (s / hz) : 0)
	}'
}

# measure TOOL N CMD...: run CMD, parse its MB/s into the table
measure() {
	local tool=$1 n=$2 s0 s1 mbs gen
	shift 2
	rm -rf "${SMBD_SHARE:?}"/*
	s0=$(smbd_ticks)
	/usr/bin/time -f '%U %S' -o "$W/time" "$@" >"$W/out" 2>&1
	sleep 1	# connection processes exit and are reaped
	s1=$(smbd_ticks)
	case $tool in
	smbtorture)
		mbs=$(awk '/^Throughput/ { v = $2 } END { print v }' \
			"$W/out") ;;
	*)
		mbs=$(awk '/^Throughput/ { print $2 }' "$W/out") ;;
	esac
	gen=$(awk '{ print $1 + $2 }' "$W/time")
	row "$tool" "$n" "${mbs:-0}" "$gen" "$((s1 - s0))"
}

printf '%-14s %4s  %8s  %10s  %10s  %6s\n' tool procs MB/s 'gen CPU/MB' \
	'smbd CPU/MB' 'gen/smbd'
# dbench_row TOOL BINARY N [ARGS...]: one run of a dbench build against
# the share
dbench_row() {
	local tool=$1 bin=$2 n=$3
	shift 3
	measure "$tool" "$n" "$bin" -B smb --smb-share="$SHARE" \
		--smb-user="$SMBD_USER%$SMBD_PASS" -c "$LOADFILE" \
		-t "$SECS" --warmup=0 "$@" "$n"
}

for n in $CLIENTS; do
	if [ -n "${OLD_DBENCH:-}" ]; then
		dbench_row "dbench (old)" "$OLD_DBENCH" "$n"
	fi
	dbench_row "dbench -B smb" "$DBENCH" "$n" --smb-client=libsmbclient
	if [ "${NO_NATIVE:-0}" != 1 ]; then
		dbench_row "dbench native" "$DBENCH" "$n" --smb-client=native
	fi
	[ "${NO_SMBTORTURE:-0}" = 1 ] && continue
	measure smbtorture "$n" smbtorture //127.0.0.1/share -p "$SMBD_PORT" \
		-U "$SMBD_USER%$SMBD_PASS" bench.nbench \
		--loadfile="$LOADFILE" --num-progs="$n" -t "$SECS"
done
if ! grep -qw cifs /proc/filesystems || ! command -v mount.cifs >/dev/null; then
	echo "kernel CIFS mount: not possible here (no cifs module or no" \
		"mount.cifs)"
fi
