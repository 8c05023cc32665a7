#!/bin/bash
# bench/net/smb_flight.sh - what several requests in flight give the
# native SMB client (-B smb --smb-client=native) on big I/O: a loadfile of
# 1 MiB WriteX and ReadX (16 READ or WRITE requests of 64 KiB each) against
# a throwaway smbd on 127.0.0.1, with --smb-in-flight=16 (the default) and
# --smb-in-flight=1 (each request after the answer to the one before),
# alternating, ROUNDS times per client count, in one run.  A benchmark, not
# a test: it asserts nothing and is not part of make check.
#
#     bench/net/smb_flight.sh [CLIENTS...]        (default: 1 4)
#
# Environment: DBENCH (default ./dbench), SECS (each run, default 10),
# ROUNDS (default 3).  Per run: MB/s, and the CPU seconds per MB of the
# load generator (user+sys, /usr/bin/time) and of smbd (its own and its
# reaped connection processes', /proc/PID/stat); per client count the
# median of the ratios in-flight / one-at-a-time of MB/s, of each round's
# pair.  The load average before each count is printed: the machine may
# be shared, so compare the ratios, not the MB/s across runs.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. tests/integration/lib_smbd.sh

DBENCH=${DBENCH:-./dbench}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
CLIENTS=${*:-1 4}
TICK=$(getconf CLK_TCK)
W=$(mktemp -d /var/tmp/dbench-bench-smbflight.XXXXXX) || exit 1
trap 'smbd_stop; rm -rf "$W"' EXIT

smbd_start "$W/srv" || exit 1
SHARE=//127.0.0.1:$SMBD_PORT/share
cat >"$W/bigio.txt" <<'EOF'
Deltree "\clients\client1" NT_STATUS_OK
Mkdir "\clients" NT_STATUS_OK
Mkdir "\clients\client1" NT_STATUS_OK
NTCreateX "\clients\client1\big.dat" 0x40 5 1 NT_STATUS_OK
WriteX 1 0 1048576 1048576 NT_STATUS_OK
REPEAT 15
WriteX 1 +1048576 1048576 1048576 NT_STATUS_OK
ReadX 1 0 1048576 1048576 NT_STATUS_OK
REPEAT 15
ReadX 1 +1048576 1048576 1048576 NT_STATUS_OK
Close 1 NT_STATUS_OK
EOF

smbd_ticks() {
	awk '{ print $14 + $15 + $16 + $17 }' "/proc/$SMBD_PID/stat"
}

# run N IN_FLIGHT: one run; prints "MB/s gen-CPU/MB smbd-CPU/MB"
run() {
	local s0 s1 mbs gen
	rm -rf "${SMBD_SHARE:?}"/*
	s0=$(smbd_ticks)
	/usr/bin/time -f '%U %S' -o "$W/time" "$DBENCH" -B smb \
		--smb-share="$SHARE" --smb-user="$SMBD_USER%$SMBD_PASS" \
		--smb-client=native --smb-in-flight="$2" -c "$W/bigio.txt" \
		-t "$SECS" --warmup=0 "$1" >"$W/out" 2>&1
	sleep 1	# connection processes exit and are reaped
	s1=$(smbd_ticks)
	mbs=$(awk '/^Throughput/ { print $2 }' "$W/out")
	gen=$(awk '{ print $1 + $2 }' "$W/time")
	awk -v mbs="${mbs:-0}" -v g="$gen" -v s="$((s1 - s0))" \
		-v secs="$SECS" -v hz="$TICK" 'BEGIN {
		mb = mbs * secs
		if (mb <= 0) { print "0 0 0"; exit }
		printf "%.2f %.4f %.4f\n", mbs, g / mb, s / hz / mb
	}'
}

printf '%-7s %5s %9s  %8s  %10s  %11s\n' clients round in-flight MB/s \
	'gen CPU/MB' 'smbd CPU/MB'
for n in $CLIENTS; do
	echo "# $n clients, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	: >"$W/ratios"
	for r in $(seq 1 "$ROUNDS"); do
		read -r m16 g16 s16 <<<"$(run "$n" 16)"
		read -r m1 g1 s1 <<<"$(run "$n" 1)"
		printf '%-7s %5s %9s  %8s  %10s  %11s\n' "$n" "$r" 16 "$m16" \
			"$g16" "$s16" "$n" "$r" 1 "$m1" "$g1" "$s1"
		awk -v a="$m16" -v b="$m1" 'BEGIN {
			if (b > 0) printf "%.3f\n", a / b }' >>"$W/ratios"
	done
	sort -n "$W/ratios" | awk -v n="$n" '{ v[NR] = $1 } END {
		if (NR) printf "# %s clients: MB/s in-flight / one-at-a-time, " \
			"median of %d rounds: %.2f\n", n, NR, v[int((NR + 1) / 2)]
	}'
done
