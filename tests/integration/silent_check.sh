#!/bin/bash
# silent_check.sh - the check before a run of -B smb or -B nfs does not
# wait on a server that never answers longer than tbench's does: against
# a fake server on 127.0.0.1 that accepts connections and says nothing,
# and one whose queue is full (a connection never accepted), dbench ends
# within 10 s (and the library's connect) with one line naming the share
# or URL and the server, exit 2; a SIGINT one second into the check ends
# it at once with 130.  Also -B smb with loopback down (a network
# namespace of its own) is one line of ours, exit 2, not libsmbclient's
# line and exit; a refused connection keeps its line.  No real server is
# needed.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
not_under_sanitizers "its checks wait out 10 s deadlines of the network libraries (checked by make check)"
. "$(dirname "$0")/lib_smbd.sh"

SKIP_SMB=
if "$DBENCH" -B smb 1 2>&1 | grep -q 'built without libsmbclient'; then
	SKIP_SMB="dbench was built without libsmbclient"
fi
SKIP_NFS=
if "$DBENCH" -B nfs --nfs=nfs://127.0.0.1/x 1 2>&1 | grep -q "built with"; then
	SKIP_NFS="dbench was built without libnfs"
fi
command -v python3 >/dev/null 2>&1 || skip_all "no python3 for the fake server"

FAKE_PID=
trap '[ -z "$FAKE_PID" ] || kill "$FAKE_PID" 2>/dev/null; it_cleanup' EXIT

# fake_server MODE: a peer on 127.0.0.1:$FAKE_PORT (PID FAKE_PID) that
# accepts every connection and never answers (silent), or whose queue of
# connections is full so that a new one is never accepted (full).
fake_server() {
	FAKE_PORT=$(smbd_free_port)
	python3 - "$FAKE_PORT" "$1" >"$W/fake.out" 2>&1 <<'EOF' &
import socket, sys, time
port, mode = int(sys.argv[1]), sys.argv[2]
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); held = []
if mode == "full":
    s.listen(0)
    for _ in range(4):
        c = socket.socket(); c.setblocking(False)
        try: c.connect(("127.0.0.1", port))
        except BlockingIOError: pass
        held.append(c)
    print("up", flush=True)
    time.sleep(3600)
s.listen(64); print("up", flush=True)
while True:
    c, _ = s.accept(); held.append(c)
EOF
	FAKE_PID=$!
	for _ in $(seq 50); do grep -q up "$W/fake.out" && return 0; sleep 0.1; done
	fail "the fake server did not start: $(cat "$W/fake.out")"
}

# start_run KIND PORT: dbench -B KIND against 127.0.0.1:PORT in the
# background (PID in RUN_PID), stdout in $W/out, stderr in $W/err.
start_run() {
	case $1 in
	smb) set -- -B smb --smb-share="//127.0.0.1:$2/x" \
		--smb-user="u%Secret$$" ;;
	nfs) set -- -B nfs "--nfs=nfs://127.0.0.1/x?nfsport=$2&mountport=$2" ;;
	esac
	LAST_CMD="dbench $* -t 3 1"
	"$DBENCH" "$@" -t 3 1 >"$W/out" 2>"$W/err" </dev/null &
	RUN_PID=$!
}

# end_within SECS: wait for the run at most SECS seconds; RC its status.
# A run still going then is killed and the check fails.
end_within() {
	local i
	for i in $(seq $(($1 * 20))); do
		kill -0 "$RUN_PID" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$RUN_PID" 2>/dev/null; then
		kill -KILL "$RUN_PID" 2>/dev/null
		wait "$RUN_PID" 2>/dev/null
		show_file "$W/err" "stderr"
		fail "still running $1 s later: killed"
	fi
	wait "$RUN_PID"
	RC=$?
	split_noise_notes
}

need() {
	case $1 in
	smb) [ -z "$SKIP_SMB" ] || skip "$SKIP_SMB" ;;
	nfs) [ -z "$SKIP_NFS" ] || skip "$SKIP_NFS" ;;
	esac
}

# The expected line for KIND against 127.0.0.1:PORT.
no_reply_line() {
	case $1 in
	smb) echo "^dbench: smb: //127.0.0.1:$2/x: server 127.0.0.1:$2 sent no reply within 10 s$" ;;
	nfs) echo "^dbench: cannot mount nfs://127.0.0.1/x\\?nfsport=$2&mountport=$2: server 127.0.0.1 sent no reply within 10 s$" ;;
	esac
}

# A server that never answers (MODE silent or full): one line, exit 2,
# within the bound (10 s, and the library's own connect's few seconds).
no_reply() {
	need "$1"
	fake_server "$2"
	start_run "$1" "$FAKE_PORT"
	end_within 16
	assert_usage_error "the server that never answers"
	assert_grep "$(no_reply_line "$1" "$FAKE_PORT")" "$W/err" "the message"
	assert_no_grep "Secret$$" "$W/err" "the password"
}

# SIGINT one second into the check: 130 at once.
sigint_check() {
	need "$1"
	fake_server silent
	start_run "$1" "$FAKE_PORT"
	sleep 1
	kill -INT "$RUN_PID"
	end_within 2
	assert_rc 130
}

# -B smb with loopback down (a network namespace of its own): our line.
smb_no_interface() {
	need smb
	unshare -n true 2>/dev/null || skip "no network namespace (unshare -n)"
	LAST_CMD="unshare -n dbench -B smb --smb-share=//127.0.0.1/x -t 3 1"
	unshare -n "$DBENCH" -B smb --smb-share=//127.0.0.1/x --smb-user=u%p \
		-t 3 1 >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_usage_error "loopback down"
	assert_grep '^dbench: smb: //127\.0\.0\.1:445/x: no network interface is up' \
		"$W/err" "the message"
}

# A refused connection: its own line, as before.
smb_refused() {
	need smb
	local port
	port=$(smbd_free_port)
	LAST_CMD="dbench -B smb --smb-share=//127.0.0.1:$port/x -t 3 1"
	"$DBENCH" -B smb --smb-share="//127.0.0.1:$port/x" --smb-user=u%p \
		-t 3 1 >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_usage_error "a refused connection"
	assert_grep "^dbench: smb: server 127\\.0\\.0\\.1:$port unreachable: Connection refused$" \
		"$W/err" "the message"
}

check "smb: a server that never answers: one line within 10 s, exit 2" \
	no_reply smb silent
check "nfs: a server that never answers: one line within 10 s, exit 2" \
	no_reply nfs silent
check "nfs: a connection never accepted: one line within 10 s, exit 2" \
	no_reply nfs full
check "smb: SIGINT in the check before the run: 130 at once" sigint_check smb
check "nfs: SIGINT in the check before the run: 130 at once" sigint_check nfs
check "smb: loopback down: one line of ours, exit 2" smb_no_interface
check "smb: a refused connection: its line, exit 2" smb_refused

finish
