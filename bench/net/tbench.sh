#!/bin/bash
# bench/net/tbench.sh - tbench throughput on loopback, ours against dbench
# 4.00's (Debian's package), for the four pairings of client and server,
# plus our server's event-loop model, each with 1 and 8 clients, the
# pairings alternated within every round; and the CPU each server spends
# per request (perf stat task-clock of the server and all its children,
# divided by the requests it answered).  Not a test: it prints figures
# for BENCHMARKS.md.
#
#   bench/net/tbench.sh [--build DIR] [--time SECS] [--rounds N] [--loadfile F]
#
# Runs itself inside a private network namespace (unshare -n: Debian's
# tbench_srv binds 0.0.0.0:7003, Debian's tbench connects to 7003), so it
# needs root or user namespaces.  Requests of a run are known for our
# client (the JSON's op counts, --warmup 0, plus one opening exchange per
# connection) and for our server (its -v lines); for Debian's server
# against Debian's client they are the server's send() calls (one per
# reply; perf's syscalls:sys_enter_sendto tracepoint, where available).
set -u

BUILD=$(cd "$(dirname "$0")/../.." && pwd)
SECS=10
ROUNDS=3
LF=
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$2; shift 2 ;;
	--time) SECS=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--loadfile) LF=$2; shift 2 ;;
	*) echo "usage: $0 [--build DIR] [--time SECS] [--rounds N] [--loadfile F]" >&2
	   exit 2 ;;
	esac
done
: "${LF:=$BUILD/loadfiles/client.txt}"
DEB_TB=/usr/bin/tbench
DEB_SRV=/usr/bin/tbench_srv
for f in "$BUILD/dbench" "$BUILD/tbench_srv" "$DEB_TB" "$DEB_SRV" "$LF"; do
	[ -e "$f" ] || { echo "$0: $f is missing" >&2; exit 2; }
done

if [ -z "${TBENCH_BENCH_NETNS:-}" ]; then
	export TBENCH_BENCH_NETNS=1
	exec unshare -n bash "$0" --build "$BUILD" --time "$SECS" \
		--rounds "$ROUNDS" --loadfile "$LF"
fi
ip link set lo up || exit 1

TMP=$(mktemp -d /tmp/tbench-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
ln -s "$BUILD/dbench" "$TMP/tbench"
PERF=$(command -v perf || true)
EVENTS=task-clock
if [ -n "$PERF" ] && "$PERF" stat -e syscalls:sys_enter_sendto true >/dev/null 2>&1; then
	EVENTS=task-clock,syscalls:sys_enter_sendto
fi

# start_server ours|ours-epoll|debian: SPID (the server), PPID_ (perf).
start_server() {
	local cmd
	case $1 in
	ours) cmd=("$BUILD/tbench_srv" --address 127.0.0.1 -v) ;;
	ours-epoll) cmd=("$BUILD/tbench_srv" --address 127.0.0.1 -v --event-loop) ;;
	debian) cmd=("$DEB_SRV") ;;
	esac
	if [ -n "$PERF" ]; then
		"$PERF" stat -e "$EVENTS" -x, -o "$TMP/perf" -- "${cmd[@]}" \
			>"$TMP/srv.out" 2>/dev/null &
	else
		"${cmd[@]}" >"$TMP/srv.out" 2>/dev/null &
	fi
	PPID_=$!
	for _ in $(seq 100); do
		SPID=$(pgrep -P "$PPID_" | head -1)
		[ -z "$PERF" ] && SPID=$PPID_
		[ -n "$SPID" ] && (exec 3<>/dev/tcp/127.0.0.1/7003) 2>/dev/null &&
			return 0
		sleep 0.1
	done
	echo "$0: the $1 server did not start" >&2
	exit 1
}

# stop_server: SERVER_MS (task-clock) and SERVER_REQS (-v lines, or "").
stop_server() {
	kill -TERM "$SPID" 2>/dev/null
	wait "$PPID_" 2>/dev/null
	SERVER_MS=$(awk -F, '/task-clock/ { print $1 }' "$TMP/perf" 2>/dev/null)
	SERVER_REQS=$(awk '/ requests, / { n += $(NF - 7); m++ } END { if (m) print n }' \
		"$TMP/srv.out")
	# Debian's server: one send() per reply
	[ -z "$SERVER_REQS" ] && SERVER_REQS=$(awk -F, \
		'/sys_enter_sendto/ && $1 > 0 { print $1 }' "$TMP/perf" 2>/dev/null)
	rm -f "$TMP/perf"
}

# run_client ours|debian N: THROUGHPUT, CLIENT_REQS (ours only).
run_client() {
	local n=$2
	CLIENT_REQS=
	if [ "$1" = ours ]; then
		timeout 300 "$TMP/tbench" -c "$LF" -t "$SECS" --warmup 0 \
			--json "$TMP/r.json" "$n" 127.0.0.1 >"$TMP/out" 2>&1
		CLIENT_REQS=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(o["count"] for o in d["operations"] if o["name"] != "Deltree")
      + int(sys.argv[2]) + 1)' "$TMP/r.json" "$n")
	else
		timeout 300 "$DEB_TB" -c "$LF" -t "$SECS" "$n" 127.0.0.1 \
			>"$TMP/out" 2>&1
	fi
	THROUGHPUT=$(awk '/^Throughput / { print $2 }' "$TMP/out")
}

printf '%-22s %7s %5s %10s %10s %12s %9s\n' pairing clients round \
	MB/s server_ms requests us/request
PAIRS=("ours ours" "ours debian" "debian ours" "debian debian"
       "ours ours-epoll" "debian ours-epoll")
for r in $(seq "$ROUNDS"); do
	for n in 1 8; do
		# alternate the order of the pairings from round to round
		for k in $(seq 0 $((${#PAIRS[@]} - 1))); do
			i=$(((k + r) % ${#PAIRS[@]}))
			read -r client server <<<"${PAIRS[$i]}"
			start_server "$server"
			run_client "$client" "$n"
			stop_server
			reqs=${SERVER_REQS:-$CLIENT_REQS}
			per=-
			if [ -n "$reqs" ] && [ -n "$SERVER_MS" ] && [ "$reqs" -gt 0 ]; then
				per=$(awk -v ms="$SERVER_MS" -v q="$reqs" \
					'BEGIN { printf "%.2f", ms * 1000 / q }')
			fi
			printf '%-22s %7s %5s %10s %10s %12s %9s\n' \
				"$client->$server" "$n" "$r" "${THROUGHPUT:--}" \
				"${SERVER_MS:--}" "${reqs:--}" "$per"
		done
	done
done
