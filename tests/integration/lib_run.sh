# lib_run.sh - helpers for checks that start a run in the background and
# signal it or wait it out (sourced after lib.sh by hostage.sh and
# silent_check.sh): start the run, wait for a line of its output, bound
# its end, interrupt it, skip a check whose backend or server is missing,
# and a fake server on loopback that answers too little.
#
# The run's PID is in RUN_PID, its stdout in $W/out, stderr in $W/err,
# its status (after end_within) in RC.  A script sets SKIP_<KIND> (KIND
# in upper case: SKIP_SMB, SKIP_NFS, ...) to the reason a backend's
# checks cannot run here (e.g. lib.sh's built_without KIND), or leaves
# it empty; need KIND skips on it.

# start_run CMD ARGS...: CMD with ARGS in the background, stdin closed.
start_run() {
	LAST_CMD="$*"
	"$@" >"$W/out" 2>"$W/err" </dev/null &
	RUN_PID=$!
}

# wait_line RE SECS: wait until the run's stdout has a line matching the
# extended RE (or the run has ended); fail after SECS seconds.
wait_line() {
	local i
	for i in $(seq $(($2 * 10))); do
		grep -Eq -- "$1" "$W/out" && return 0
		kill -0 "$RUN_PID" 2>/dev/null || break
		sleep 0.1
	done
	show_file "$W/err" "stderr"
	fail "no line matching '$1' within $2 s"
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

# interrupt_run: SIGINT to the run, which must end within 2 s with 130.
interrupt_run() {
	kill -INT "$RUN_PID"
	end_within 2
	assert_rc 130
}

# need KIND: skip the check when SKIP_<KIND> holds a reason.
need() {
	local why=SKIP_${1^^}
	[ -z "${!why:-}" ] || skip "${!why}"
}

# fake_server MODE: a peer on 127.0.0.1:$FAKE_PORT (PID FAKE_PID) that
#   silent     accepts every connection and never answers;
#   full       has its queue of connections full: a new one is never
#              accepted;
#   once       answers the first connection's opening exchange (8 bytes
#              read, a reply of a 4-byte header and 4 bytes), then
#              nothing;
#   badheader  answers every connection's first 8 bytes with a reply
#              header announcing 9 bytes, then nothing;
#   smb1       answers every connection's first request with an SMB1
#              message (a server of SMB1 only), then nothing.
# One fake server at a time: the previous one is stopped; fake_stop (in
# the script's EXIT trap) stops the last.
fake_server() {
	command -v python3 >/dev/null 2>&1 || skip "no python3 for the fake server"
	fake_stop
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
    if mode == "badheader":
        c.recv(8); c.sendall(b"\0\0\0\x09")
    elif mode == "once" and len(held) == 1:
        c.recv(8); c.sendall(b"\0\0\0\4\0\0\0\0")
    elif mode == "smb1":
        c.recv(65536); c.sendall(b"\0\0\0\x23\xffSMBr" + bytes(30))
EOF
	FAKE_PID=$!
	# (a file: a check runs in a subshell, the trap in the script)
	echo "$FAKE_PID" >"$TOP/fake.pid"
	for _ in $(seq 50); do grep -q up "$W/fake.out" && return 0; sleep 0.1; done
	fail "the fake server did not start: $(cat "$W/fake.out")"
}

# fake_stop: stop the fake server, if one runs.
fake_stop() {
	[ -s "$TOP/fake.pid" ] || return 0
	kill "$(cat "$TOP/fake.pid")" 2>/dev/null
	rm -f "$TOP/fake.pid"
}
