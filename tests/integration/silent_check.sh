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
. "$(dirname "$0")/lib_run.sh"

SKIP_SMB=$(built_without smb)
SMB_ARGS=()
SKIP_NFS=$(built_without nfs)
trap 'fake_stop; it_cleanup' EXIT

# start_kind KIND PORT: start_run of dbench -B KIND against
# 127.0.0.1:PORT (smb: with SMB_ARGS).
start_kind() {
	case $1 in
	smb) set -- -B smb --smb-share="//127.0.0.1:$2/x" \
		--smb-user="u%Secret$$" "${SMB_ARGS[@]}" ;;
	nfs) set -- -B nfs "--nfs=nfs://127.0.0.1/x?nfsport=$2&mountport=$2" ;;
	esac
	start_run "$DBENCH" "$@" -t 3 1
}

# The expected line for KIND against 127.0.0.1:PORT (MODE).
no_reply_line() {
	if [ "$1/$3" = smb/full ]; then
		echo "^dbench: smb: //127.0.0.1:$2/x: server 127.0.0.1:$2: connect: Connection timed out \\(no answer in 10 s\\)$"
		return
	fi
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
	start_kind "$1" "$FAKE_PORT"
	end_within 16
	assert_usage_error "the server that never answers"
	assert_grep "$(no_reply_line "$1" "$FAKE_PORT" "$2")" "$W/err" "the message"
	assert_no_grep "Secret$$" "$W/err" "the password"
}

# --smb-client=native against a server of SMB1 only: one line naming the
# share and saying which client speaks SMB1, exit 2, at once
smb1_only() {
	need smb
	fake_server smb1
	start_kind smb "$FAKE_PORT"
	end_within 5
	assert_usage_error "the SMB1 server"
	assert_grep "^dbench: smb: //127\\.0\\.0\\.1:$FAKE_PORT/x: the server answers in SMB1 only: --smb-client=native speaks SMB2 and SMB3; --smb-client=libsmbclient speaks SMB1 \\(client min protocol = NT1 in smb\\.conf\\)$" \
		"$W/err" "the message"
}

# SIGINT one second into the check: 130 at once.
sigint_check() {
	need "$1"
	fake_server silent
	start_kind "$1" "$FAKE_PORT"
	sleep 1
	interrupt_run
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

# native CHECK ARGS...: CHECK with --smb-client=native; libsmbclient
# CHECK ARGS...: with the fallback client, whose check before the run
# has its own bound
native() {
	SMB_ARGS=(--smb-client=native)
	"$@"
}

libsmbclient() {
	SMB_ARGS=(--smb-client=libsmbclient)
	"$@"
}

check "smb: a server that never answers: one line within 10 s, exit 2" \
	no_reply smb silent
check "smb --smb-client=libsmbclient: a server that never answers: one line within 10 s, exit 2" \
	libsmbclient no_reply smb silent
check "nfs: a server that never answers: one line within 10 s, exit 2" \
	no_reply nfs silent
check "nfs: a connection never accepted: one line within 10 s, exit 2" \
	no_reply nfs full
check "smb --smb-client=native: a connection never accepted: one line within 10 s, exit 2" \
	native no_reply smb full
check "smb --smb-client=native: a server of SMB1 only: one line naming the client that speaks it, exit 2" \
	native smb1_only
check "smb: SIGINT in the check before the run: 130 at once" sigint_check smb
check "nfs: SIGINT in the check before the run: 130 at once" sigint_check nfs
check "smb: loopback down: one line of ours, exit 2" smb_no_interface
check "smb: a refused connection: its line, exit 2" smb_refused

finish
