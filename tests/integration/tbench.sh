#!/bin/bash
# tbench.sh - tbench and tbench_srv, ours and Debian's dbench 4.00 ones,
# talking to each other: the bytes each request and reply carries (the
# server's per-connection counts against the loadfile's sizes), the
# output shapes, and the errors a user meets (no server, the server
# killed mid-run, a client killed mid-run, a peer that is not a tbench
# server, bad -T).
#
# The whole script runs in a private network namespace (unshare -n, or
# -rn without root) with only its loopback up: Debian's tbench_srv binds
# 0.0.0.0:7003 and Debian's tbench always connects to port 7003, so
# nothing here can meet another program's server or port.  Every server
# is stopped by its PID; every run is bounded by IT_TIMEOUT.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi

if [ -z "${TBENCH_IT_NETNS:-}" ]; then
	export TBENCH_IT_NETNS=1
	for ns in "unshare -n" "unshare -rn"; do
		if $ns true 2>/dev/null; then
			exec $ns bash "$0" "$@"
		fi
	done
	echo "1..0 # SKIP tbench: no private network namespace (unshare -n)"
	exit 0
fi
. "$(dirname "$0")/lib.sh"

# The loopback of the private namespace.
lo_up() {
	if command -v ip >/dev/null; then
		ip link set lo up
	else
		python3 - <<'EOF'
import fcntl, socket, struct
s = socket.socket()
req = struct.pack('16sH14x', b'lo', 0)
flags = struct.unpack('16sH14x', fcntl.ioctl(s, 0x8913, req))[1]
fcntl.ioctl(s, 0x8914, struct.pack('16sH14x', b'lo', flags | 1))
EOF
	fi
}
if ! lo_up 2>/dev/null; then
	skip_all "tbench: cannot bring up the namespace's loopback"
fi

SRV=$(dirname "$DBENCH")/tbench_srv
DEB_TBENCH=/usr/bin/tbench
DEB_SRV=/usr/bin/tbench_srv
# tbench is dbench under that name
TB=$TOP/bin/tbench
mkdir -p "$TOP/bin" && ln -s "$DBENCH" "$TB"

# A loadfile whose every request and reply size is known: one pass of
# it is 5 requests of the original's sizes (plus the opening exchange).
LF=$TOP/sizes.txt
cat >"$LF" <<'EOF'
NTCreateX "\tbench\~dmtmp\PWRPNT\ZD16.BMP123456789" 0x0 0x1 1 NT_STATUS_OK
WriteX 1 0 1000 1000 NT_STATUS_OK
ReadX 1 0 2000 1500 NT_STATUS_OK
Deltree "\clients\client1\nothing" NT_STATUS_OK
Close 1 NT_STATUS_OK
EOF
# request and reply totals per op of that file, under -D . (a path is
# sent as "./" + path: 40 characters here; no "clients\client1" in it, so
# that every client sends the same), Deltree sending nothing
REQ_SIZES=(154 1059 59 47)
REPLY_SIZES=(87 55 1559 39)
PASS_BYTES=2500		# WriteX 1000 + ReadX 1500

# run_tb ARGS...: run our tbench like run_db.
run_tb() {
	LAST_CMD="tbench $*"
	timeout -k 5 "$IT_TIMEOUT" "$TB" "$@" >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
		fail "tbench did not finish within $IT_TIMEOUT s"
	fi
	return 0
}

# start_ours [ARGS...]: our server on 127.0.0.1:7003 (-v), SPID its PID,
# its output in $W/srv.out and $W/srv.err; waits until it listens.
start_ours() {
	"$SRV" --address 127.0.0.1 -v "$@" >"$W/srv.out" 2>"$W/srv.err" &
	SPID=$!
	for _ in $(seq 100); do
		grep -q '^tbench_srv: listening on ' "$W/srv.out" && return 0
		kill -0 "$SPID" 2>/dev/null || break
		sleep 0.1
	done
	show_file "$W/srv.err" "tbench_srv stderr"
	fail "our tbench_srv did not start"
}

# start_debian: Debian's tbench_srv (0.0.0.0:7003 in this namespace).
start_debian() {
	[ -x "$DEB_SRV" ] || skip "Debian's dbench package (tbench_srv) is not installed"
	"$DEB_SRV" >"$W/srv.out" 2>"$W/srv.err" &
	SPID=$!
	for _ in $(seq 100); do
		(exec 3<>/dev/tcp/127.0.0.1/7003) 2>/dev/null && return 0
		sleep 0.1
	done
	fail "Debian's tbench_srv did not start"
}

# stop_server: stop the server by its PID and wait for it; $SRC its status.
stop_server() {
	# stop_server N: first let our server log the N client connections
	# that have ended (each child logs its line as its client leaves;
	# a SIGTERM before that would lose the line, not the bytes)
	if [ -n "${1:-}" ]; then
		for _ in $(seq 50); do
			[ "$(conn_lines | wc -l)" -ge "$1" ] && break
			sleep 0.1
		done
	fi
	kill -TERM "$SPID" 2>/dev/null
	for _ in $(seq 100); do
		kill -0 "$SPID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$SPID" 2>/dev/null
	wait "$SPID"
	SRC=$?
}

# conn_lines: our server's per-connection lines, without the opening
# check's connection (1 request).
conn_lines() {
	grep -E '^tbench_srv: .*: [0-9]+ requests' "$W/srv.out" |
		grep -v ': 1 requests, 8 bytes in, 8 bytes out$'
}

# expect_bytes N: "IN OUT" for the opening exchange plus N requests of
# the loadfile, cycling through its ops.
expect_bytes() {
	local n=$1 in=8 out=8 i
	for ((i = 0; i < n; i++)); do
		in=$((in + REQ_SIZES[i % 4]))
		out=$((out + REPLY_SIZES[i % 4]))
	done
	echo "$in $out"
}

# assert_conn_bytes: every client connection our server saw carried
# exactly the bytes of its number of requests.
assert_conn_bytes() {
	local line req in out n=0
	while read -r line; do
		req=$(sed -E 's/.*: ([0-9]+) requests, ([0-9]+) bytes in, ([0-9]+) bytes out$/\1/' <<<"$line")
		in=$(sed -E 's/.*: ([0-9]+) requests, ([0-9]+) bytes in, ([0-9]+) bytes out$/\2/' <<<"$line")
		out=$(sed -E 's/.*: ([0-9]+) requests, ([0-9]+) bytes in, ([0-9]+) bytes out$/\3/' <<<"$line")
		[ "$req" -ge 2 ] || fail "a connection with $req requests: $line"
		assert_eq "$(expect_bytes $((req - 1)))" "$in $out" \
			"bytes in and out of a connection of $req requests"
		n=$((n + 1))
	done < <(conn_lines)
	[ "$n" -ge "${1:-1}" ] || fail "expected ${1:-1} client connections, the server saw $n"
}

# json_bytes FILE: the result's bytes.
json_bytes() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["result"]["bytes"])' "$1"
}

# ---- interop with Debian's dbench 4.00 ----

ours_to_debian() {
	local once_rc
	start_debian
	run_tb --run-once --json "$W/r.json" -c "$LF" 2 127.0.0.1
	keep once
	once_rc=$RC
	run_tb -t 3 -c "$LF" 2 127.0.0.1
	stop_server
	assert_clean_run "a timed run against Debian's tbench_srv"
	assert_grep "$RE_PROGRESS" "$W/out" "progress lines"
	cp once.out "$W/out"
	cp once.err "$W/err"
	RC=$once_rc
	LAST_CMD="tbench --run-once --json $W/r.json -c $LF 2 127.0.0.1"
	assert_clean_run "the --run-once run against Debian's tbench_srv"
	assert_eq "" "$(cat once.err)" "stderr of the --run-once run"
	assert_eq $((2 * PASS_BYTES)) "$(json_bytes "$W/r.json")" "bytes of one pass of 2 clients"
	loadfile_counts "$LF" 2 >expected
	assert_counts expected
}

debian_to_ours() {
	[ -x "$DEB_TBENCH" ] || skip "Debian's dbench package (tbench) is not installed"
	start_ours
	# shellcheck disable=SC2034 # read by lib.sh's failure report
	LAST_CMD="Debian's tbench -t 3 2 127.0.0.1"
	timeout -k 5 "$IT_TIMEOUT" "$DEB_TBENCH" -c "$LF" -t 3 2 127.0.0.1 \
		>"$W/out" 2>"$W/err" </dev/null
	RC=$?
	stop_server 2
	assert_rc 0
	assert_grep '^Throughput [0-9.]+ MB/sec  2 clients' "$W/out" "Debian's Throughput line"
	assert_no_grep 'lost sync|error' "$W/out" "Debian's output"
	assert_eq 0 "$SRC" "our server's exit status after SIGTERM"
	# Debian's client sent the sizes ours sends, and got its replies
	assert_conn_bytes 2
}

# ---- ours with ours ----

ours_one() {
	start_ours
	run_tb --run-once --json "$W/r.json" -c "$LF" 1 127.0.0.1
	stop_server 1
	assert_clean_run "our tbench against our tbench_srv"
	assert_eq "$PASS_BYTES" "$(json_bytes "$W/r.json")" "bytes of one pass"
	assert_eq "$(expect_bytes 4)" "$(conn_lines | sed -E 's/.* ([0-9]+) bytes in, ([0-9]+) bytes out$/\1 \2/')" \
		"the bytes of one pass on the wire"
	assert_eq 0 "$SRC" "our server's exit status after SIGTERM"
}

ours_sixteen() {
	start_ours
	run_tb -t 3 --machine-readable -c "$LF" 16 127.0.0.1
	stop_server 16
	assert_rc 0
	assert_grep '^@R@16@[0-9]+@[0-9.]+@[0-9]+@[0-9.]+@$' "$W/out" "machine-readable progress"
	assert_grep '^:WriteX:[0-9]+:' "$W/out" "machine-readable rows"
	assert_grep '^;[0-9.]+;16;16;[0-9.]+;$' "$W/out" "machine-readable result"
	assert_conn_bytes 16
	assert_eq "" "$(pgrep -P "$SPID" 2>/dev/null)" "children left by the server"
}

ours_event_loop() {
	start_ours --event-loop
	run_tb -t 2 -c "$LF" 8 127.0.0.1
	stop_server 8
	assert_clean_run "our tbench against tbench_srv --event-loop"
	assert_conn_bytes 8
	assert_eq 0 "$SRC" "the server's exit status after SIGTERM"
}

ours_dbench_b_sockio() {
	start_ours --port 7100
	run_db -B sockio --server=127.0.0.1:7100 --run-once --percentiles \
		-T TCP_NODELAY,SO_SNDBUF=65536,SO_RCVBUF=65536 -c "$LF" 3
	stop_server 3
	assert_clean_run "dbench -B sockio --server"
	assert_grep '^ Operation +p50 +p90 +p95 +p99 +p99\.9 ' "$W/out" "the percentile table"
	assert_conn_bytes 3
}

# tbench's command line: SERVER defaults to localhost (as 4.00's), one
# positional more is a usage error, --help says so.
tbench_command_line() {
	start_ours
	run_tb --run-once -c "$LF" 1
	stop_server
	assert_clean_run "tbench without SERVER (localhost)"
	run_tb --run-once -c "$LF" 1 127.0.0.1 extra
	assert_usage_error "a third positional argument"
	assert_eq "dbench: only NUMCLIENTS and SERVER are expected (usage: tbench [OPTION...] NUMCLIENTS [SERVER]; try --help)" \
		"$(cat "$W/err")" "the message"
	run_tb --help
	assert_rc 0
	assert_grep 'NUMCLIENTS \[SERVER\[:PORT\]\]' "$W/out" "--help's usage line"
	assert_grep '^ *--server=HOST\[:PORT\]' "$W/out" "sockio's option in --help"
}

# ---- errors ----

no_server() {
	run_tb --run-once -c "$LF" 2 127.0.0.1:7101
	assert_usage_error "no server"
	assert_grep '^dbench: cannot connect to 127.0.0.1:7101: Connection refused' "$W/err" "the message"
}

bad_tcp_options() {
	start_ours
	run_tb --run-once -T TCP_FASTER -c "$LF" 1 127.0.0.1
	stop_server
	assert_usage_error "-T TCP_FASTER"
	assert_grep "unknown socket option 'TCP_FASTER'" "$W/err" "the message"
	run_tb --run-once -T SO_SNDBUF -c "$LF" 1 127.0.0.1
	assert_usage_error "-T SO_SNDBUF"
}

# group_procs PGID: the living processes of process group PGID
group_procs() {
	ps -eo pid=,pgid=,stat= | awk -v g="$1" '$2 == g && $3 !~ /^Z/ { print $1 }'
}

server_killed() {
	local tpid
	start_ours
	timeout -k 5 "$IT_TIMEOUT" "$TB" -t 60 -c "$LF" 4 127.0.0.1 \
		>"$W/out" 2>"$W/err" </dev/null &
	tpid=$!
	# wait until the clients run (4 connections plus the check)
	for _ in $(seq 100); do
		[ "$(pgrep -P "$SPID" | wc -l)" -ge 4 ] && break
		sleep 0.1
	done
	sleep 0.5
	kill -KILL "$SPID" $(pgrep -P "$SPID")
	wait "$SPID" 2>/dev/null
	wait "$tpid"
	RC=$?
	assert_rc 1
	assert_grep '^dbench: client [0-9]+, .*sizes.txt:[0-9]+: [A-Za-z]+: server 127\.0\.0\.1:7003' \
		"$W/err" "the message naming the server and the op"
	# timeout(1) made a process group of its own ($tpid): tbench and
	# its workers are in it, and only they (other tests run tbench
	# beside this one under make -j2); zombies are gone already
	for _ in $(seq 20); do
		[ -z "$(group_procs "$tpid")" ] && break
		sleep 0.1
	done
	assert_eq "" "$(group_procs "$tpid")" "processes left by tbench"
}

# One tbench (A) killed mid-run while another (B) runs against the same
# server: B finishes cleanly, and the server still answers afterwards.
client_killed() {
	local apid victim
	start_ours
	timeout -k 5 "$IT_TIMEOUT" "$TB" -t 60 -c "$LF" 1 127.0.0.1 \
		>"$W/a.out" 2>"$W/a.err" </dev/null &
	apid=$!
	for _ in $(seq 100); do
		[ "$(pgrep -P "$SPID" | wc -l)" -ge 1 ] && break
		sleep 0.1
	done
	timeout -k 5 "$IT_TIMEOUT" "$TB" -t 4 -c "$LF" 2 127.0.0.1 \
		>"$W/out" 2>"$W/err" </dev/null &
	BPID=$!
	sleep 1
	# A's worker (timeout -> dbench -> worker), killed mid-request
	victim=$(pgrep -P "$(pgrep -P "$apid" | head -1)" | head -1)
	[ -n "$victim" ] || fail "no worker of the first tbench to kill"
	kill -KILL "$victim"
	wait "$BPID"
	RC=$?
	kill -TERM "$apid" 2>/dev/null
	wait "$apid" 2>/dev/null
	assert_clean_run "the other tbench, during and after the kill"
	assert_eq "" "$(cat "$W/err")" "the other tbench's stderr"
	run_tb --run-once -c "$LF" 1 127.0.0.1
	assert_rc 0
	kill -0 "$SPID" || fail "the server died with a client"
	stop_server
	assert_eq 0 "$SRC" "our server's exit status"
	assert_eq "" "$(cat "$W/srv.err")" "the server's stderr"
}

# A peer that answers with a 4 GB length: a protocol error, no huge malloc.
garbage_peer() {
	python3 - 7102 >"$W/peer.out" 2>&1 <<'EOF' &
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(4); print("up", flush=True)
for _ in range(4):
    c, _ = s.accept(); c.recv(65536); c.sendall(b"\xff\xff\xff\xf0" + b"x" * 64); c.close()
EOF
	SPID=$!
	for _ in $(seq 50); do grep -q up "$W/peer.out" && break; sleep 0.1; done
	run_tb --run-once -c "$LF" 1 127.0.0.1:7102
	kill "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null
	assert_usage_error "a garbage peer"
	assert_grep 'server 127.0.0.1:7102 protocol error: a reply of 4294967280 bytes' "$W/err" "the message"
}

# Our server: a request with a huge length closes that connection only.
server_garbage_request() {
	start_ours
	exec 3<>/dev/tcp/127.0.0.1/7003
	printf '\xff\xff\xff\xf0\0\0\0\4' >&3
	cat <&3 >/dev/null
	exec 3<&-
	run_tb --run-once -c "$LF" 1 127.0.0.1
	assert_rc 0
	stop_server
	assert_grep 'protocol error: request length 4294967280' "$W/srv.err" "the server's message"
}

# cpu_ticks PID: the user and system time the process has used (ticks).
cpu_ticks() {
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# Our server with no descriptor to spare (ulimit -n LIMIT; ARGS...): a
# connection it cannot accept neither keeps it busy nor keeps it from
# stopping at SIGTERM.
server_accept_fails() {
	local limit=$1 before after t0 t1
	shift
	LAST_CMD="(ulimit -n $limit) tbench_srv $*"
	(
		# only stdio open: the harness may pass more down
		for fd in "/proc/$BASHPID"/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		ulimit -n "$limit" || exit 99
		exec "$SRV" --address 127.0.0.1 "$@"
	) >"$W/srv.out" 2>"$W/srv.err" &
	SPID=$!
	for _ in $(seq 100); do
		grep -q '^tbench_srv: listening on ' "$W/srv.out" && break
		kill -0 "$SPID" 2>/dev/null || break
		sleep 0.1
	done
	grep -q '^tbench_srv: listening on ' "$W/srv.out" || {
		wait "$SPID"
		[ $? -eq 99 ] && skip "cannot set ulimit -n $limit"
		fail "our tbench_srv did not start"
	}
	exec 3<>/dev/tcp/127.0.0.1/7003 || fail "cannot connect"
	exec 4<>/dev/tcp/127.0.0.1/7003 || fail "cannot connect twice"
	sleep 0.2
	before=$(cpu_ticks "$SPID")
	sleep 2
	after=$(cpu_ticks "$SPID")
	# a spinning server uses about 200 ticks in 2 s; allow a busy host
	[ $((after - before)) -le 40 ] ||
		fail "the server used $((after - before)) ticks of CPU in 2 s, waiting"
	t0=$(date +%s%N)
	kill -TERM "$SPID"
	for _ in $(seq 40); do
		kill -0 "$SPID" 2>/dev/null || break
		sleep 0.05
	done
	t1=$(date +%s%N)
	kill -KILL "$SPID" 2>/dev/null
	wait "$SPID"
	SRC=$?
	exec 3<&- 4<&-
	assert_eq 0 "$SRC" "the exit status after SIGTERM"
	[ $(((t1 - t0) / 1000000)) -le 2000 ] ||
		fail "the server took $(((t1 - t0) / 1000000)) ms to stop"
}

# --max-connections 1: a second connection is closed at once, said once.
server_max_connections() {
	start_ours --max-connections 1
	exec 3<>/dev/tcp/127.0.0.1/7003 || fail "cannot connect"
	for n in 2 3; do
		exec 4<>/dev/tcp/127.0.0.1/7003 || fail "cannot connect $n"
		timeout 5 cat <&4 >/dev/null || fail "connection $n was not closed"
		exec 4<&-
	done
	assert_eq 1 "$(grep -c 'refused: 1 connections are served already (--max-connections)' "$W/srv.err")" \
		"the refusals said once"
	exec 3<&-
	run_tb --run-once -c "$LF" 1 127.0.0.1
	assert_rc 0
	stop_server
	assert_eq 0 "$SRC" "our server's exit status"
}

# Too few descriptors for tbench: refused naming its need per client (a
# connection, no open files), advising only what can help.
tbench_fd_refused() {
	start_ours
	LAST_CMD="(ulimit -n 17) tbench --run-once -c $LF 1 127.0.0.1"
	(
		ulimit -n 17 || exit 99
		exec timeout -k 5 "$IT_TIMEOUT" "$TB" --run-once -c "$LF" 1 127.0.0.1
	) >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	stop_server
	[ "$RC" -eq 99 ] && skip "cannot set ulimit -n 17"
	assert_usage_error "tbench, ulimit -n 17"
	assert_grep '^dbench: each worker process runs 1 clients and needs about 18 file descriptors \(2 per client\), but the limit \(ulimit -n\) is 17; raise the limit$' \
		"$W/err" "the message"
}

# An IPv6 address is printed in brackets before its port.
server_ipv6_listening() {
	"$SRV" --address ::1 >"$W/srv.out" 2>"$W/srv.err" &
	SPID=$!
	for _ in $(seq 50); do
		grep -q '^tbench_srv: listening on ' "$W/srv.out" && break
		kill -0 "$SPID" 2>/dev/null || break
		sleep 0.1
	done
	grep -q 'cannot listen' "$W/srv.err" && skip "no IPv6 loopback here"
	stop_server
	assert_grep '^tbench_srv: listening on \[::1\]:7003$' "$W/srv.out" "the listening line"
}

check "our tbench -> Debian's tbench_srv: one pass's bytes and op counts" ours_to_debian
check "Debian's tbench -> our tbench_srv: every request and reply of the original's size" debian_to_ours
check "our tbench -> our tbench_srv, 1 client: the bytes of one pass on the wire" ours_one
check "our tbench -> our tbench_srv, 16 clients, machine-readable" ours_sixteen
check "our tbench -> our tbench_srv --event-loop, 8 clients" ours_event_loop
check "dbench -B sockio --server=HOST:PORT, -T options, percentiles" ours_dbench_b_sockio
check "tbench's command line: default server, extra argument, --help" tbench_command_line
check "no server: one message naming host:port, exit 2" no_server
check "bad -T: usage error" bad_tcp_options
check "the server killed mid-run: exit 1, message naming the server and op" server_killed
check "a client killed mid-run: the server serves the others on" client_killed
check "a garbage peer: protocol error" garbage_peer
check "our server: a garbage request closes that connection only" server_garbage_request
check "our server, ulimit -n 4: accept fails, no spinning, stops at SIGTERM" server_accept_fails 4
check "our server --event-loop, ulimit -n 5: the same" server_accept_fails 5 --event-loop
check "our server --max-connections 1: more are refused, said once" server_max_connections
check "tbench under ulimit -n 17: refused, 2 descriptors per client named" tbench_fd_refused
check "our server on ::1: listening on [::1]:PORT" server_ipv6_listening
finish
