#!/bin/bash
# hostage.sh - a server that stops answering does not hold a run hostage:
# for each remote backend (tbench against tbench_srv, smb against a
# private smbd, nfs against a private ganesha), the server stopped with
# SIGSTOP in the middle of a run: the run ends by itself within -t plus
# 10 s, naming the clients it killed (and the trees it left); and a
# SIGINT ends the run within 2 s with status 130 in every phase: the
# check before the run (the server stopped from the start), the run, the
# cleanup.  Also tbench's refusal of an SO_RCVLOWAT no reply can meet.
#
# Every server is this script's own (loopback, or a private network
# namespace), stopped by its PID; a stopped server is always continued
# (SIGCONT) by the trap before it is stopped for good.  A server that
# cannot be started here skips its checks visibly.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib_nfsd.sh"

# One private network namespace for the three servers: ganesha's (with a
# /run of its own) when it can be made; otherwise a plain one; otherwise
# none (the nfs checks are then skipped: ganesha needs port 2049).
if [ -z "${NFSD_IN_NETNS:-}" ] && [ -z "${HOSTAGE_NETNS:-}" ]; then
	export HOSTAGE_NETNS=1
	if nfsd_tools >/dev/null 2>&1 && unshare -n -m true 2>/dev/null; then
		nfsd_enter_netns "$0" "$@"
	fi
	for ns in "unshare -n" "unshare -rn"; do
		if $ns true 2>/dev/null; then
			exec $ns bash -c 'ip link set lo up 2>/dev/null
				exec bash "$0" "$@"' "$0" "$@"
		fi
	done
fi
. "$(dirname "$0")/lib.sh"
not_under_sanitizers "its checks wait out stopped servers; the sanitized cleanup paths run in smb.sh and nfs.sh (checked by make check)"
. "$(dirname "$0")/lib_smbd.sh"
. "$(dirname "$0")/lib_run.sh"

SRV=$(dirname "$DBENCH")/tbench_srv
TB=$TOP/bin/tbench
mkdir -p "$TOP/bin" && ln -s "$DBENCH" "$TB"
TB_PORT=$(smbd_free_port)
TB_PID=

# ---- the servers ----

# Continue whatever is stopped, then end every server.
all_stop() {
	thaw
	if [ -n "$TB_PID" ]; then
		kill -TERM "$TB_PID" 2>/dev/null
		wait "$TB_PID" 2>/dev/null
	fi
	fake_stop
	smbd_stop
	nfsd_stop
}
trap 'all_stop; it_cleanup' EXIT

# freeze KIND / thaw: stop the server's processes, continue them (the
# list in a file: a check runs in a subshell, and may end in the middle).
freeze() {
	server_pids "$1" >"$TOP/stopped"
	kill -STOP $(cat "$TOP/stopped") 2>/dev/null
}
thaw() {
	[ -s "$TOP/stopped" ] || return 0
	kill -CONT $(cat "$TOP/stopped") 2>/dev/null
	: >"$TOP/stopped"
}

# our tbench_srv on 127.0.0.1:$TB_PORT
"$SRV" --address 127.0.0.1 --port "$TB_PORT" >"$TOP/tb.out" 2>"$TOP/tb.err" &
TB_PID=$!
SKIP_TBENCH="tbench_srv did not start"
for _ in $(seq 100); do
	if (exec 3<>"/dev/tcp/127.0.0.1/$TB_PORT") 2>/dev/null; then
		SKIP_TBENCH=
		break
	fi
	sleep 0.1
done

SKIP_SMB=$(built_without smb)
if [ -z "$SKIP_SMB" ]; then
	smbd_start "$TOP/smbd" >"$TOP/smbd.msg" 2>&1
	case $? in
	0) ;;
	77) SKIP_SMB=$(cat "$TOP/smbd.msg") ;;
	*) SKIP_SMB="smbd did not start: $(tail -1 "$TOP/smbd.msg")" ;;
	esac
fi

SKIP_NFS=$(built_without nfs)
if [ -n "$SKIP_NFS" ]; then
	:
elif [ -z "${NFSD_IN_NETNS:-}" ]; then
	SKIP_NFS="no network namespace of ganesha's own ($(nfsd_tools 2>&1))"
elif ! nfsd_start "$TOP/nfsd" 1 >"$TOP/nfsd.msg" 2>&1; then
	SKIP_NFS="ganesha did not start: $(tail -1 "$TOP/nfsd.msg")"
fi

# ready KIND: its server up (and going) with nothing left on it, or a
# skip.
ready() {
	thaw
	need "$1"
	case $1 in
	smb) rm -rf "${SMBD_SHARE:?}"/* ;;
	nfs)
		# ganesha caches what it served: empty the export with it
		# stopped (only when an earlier check left something)
		[ -z "$(ls -A "${NFSD_EXP[1]}")" ] || nfsd_restart \
			>"$W/restart" 2>&1 || fail "ganesha did not restart" ;;
	esac
}

# server_pids KIND: the server's processes (a forking server's children
# serve the connections).
server_pids() {
	case $1 in
	tbench) echo "$TB_PID" $(pgrep -P "$TB_PID") ;;
	smb) echo "$SMBD_PID" $(pgrep -P "$SMBD_PID") ;;
	nfs) nfsd_pid nfsd ;;
	esac
}

# ---- the runs ----

# start_kind KIND ARGS...: start_run of backend KIND against its server.
start_kind() {
	local kind=$1
	shift
	case $kind in
	tbench) start_run "$TB" "$@" "127.0.0.1:$TB_PORT" ;;
	smb) start_run "$DBENCH" -B smb \
		--smb-share="//127.0.0.1:$SMBD_PORT/share" \
		--smb-user="$SMBD_USER%$SMBD_PASS" "$@" ;;
	nfs) start_run "$DBENCH" -B nfs --nfs="${NFSD_URL[1]}" "$@" ;;
	esac
}

# The server stopped mid-run: the run ends by itself within -t + 10 s,
# exit 1, naming the clients it killed.
# On a busy machine the freeze can come after the run's last op: the run
# then ends well (exit 0, nothing stalled) and proves nothing, so it is
# tried again with a longer -t.
stopped_mid_run() {
	local t
	ready "$1"
	for t in 3 6 12; do
		start_kind "$1" -t "$t" 2
		wait_line 'MB/sec  (warmup|execute)' 10
		sleep 0.5
		freeze "$1"
		end_within $((t + 10))
		thaw
		[ "$RC" -eq 0 ] && ! grep -q 'made no progress' "$W/err" ||
			break
		ready "$1"
	done
	assert_rc 1
	assert_grep 'made no progress for 3 s in the cleanup \(waiting for the server\)' \
		"$W/err" "the stalled client named"
	case $1 in
	tbench) ;;	# nothing made, nothing left
	*) assert_grep 'clients/client[01] was not removed \(left behind\)' \
		"$W/err" "the tree left behind named" ;;
	esac
}

# SIGINT with the server stopped from the start: the check before the run.
sigint_check() {
	ready "$1"
	freeze "$1"
	start_kind "$1" -t 3 2
	sleep 1
	interrupt_run
	thaw
}

# SIGINT in the run, the server stopped.
sigint_run() {
	ready "$1"
	start_kind "$1" -t 60 2
	wait_line 'MB/sec  (warmup|execute)' 10
	freeze "$1"
	sleep 0.5
	interrupt_run
	thaw
}

# SIGINT in the cleanup, the server stopped during the run.
# As above, a freeze that comes too late lets the run end by itself
# before the SIGINT: then it is tried again with a longer -t.
sigint_cleanup() {
	local t
	ready "$1"
	for t in 3 6 12; do
		start_kind "$1" -t "$t" 2
		wait_line 'MB/sec  (warmup|execute)' 10
		freeze "$1"
		wait_line ' cleanup ' $((t + 10))
		kill -0 "$RUN_PID" 2>/dev/null && break
		wait "$RUN_PID"
		thaw
		ready "$1"
	done
	interrupt_run
	thaw
}

# A server that answers only the check's connection: the clients' own
# wait at most 10 s, then the run ends (exit 1, the server named); a
# SIGINT while they wait ends it at once (130).
check_only() {
	ready tbench
	fake_server once
	start_run "$TB" -t 3 2 "127.0.0.1:$FAKE_PORT"
	end_within 15
	assert_rc 1
	assert_grep "server 127.0.0.1:$FAKE_PORT sent no reply within 10 s" \
		"$W/err" "the message"
	fake_server once
	start_run "$TB" -t 3 2 "127.0.0.1:$FAKE_PORT"
	wait_line 'prepared for launch' 10
	sleep 0.5
	interrupt_run
	fake_stop
}

# A reply header of the wrong length, then silence: a protocol error at
# once, naming what was expected.
bad_header() {
	ready tbench
	fake_server badheader
	start_run "$TB" -t 3 1 "127.0.0.1:$FAKE_PORT"
	end_within 5
	fake_stop
	assert_rc 2
	assert_grep 'protocol error: a reply of 9 bytes to a request for 4 \(a reply header announcing 4 expected' \
		"$W/err" "the message"
}

# tbench -T SO_RCVLOWAT above the smallest reply: refused at once.
rcvlowat() {
	ready tbench
	start_kind tbench -T SO_RCVLOWAT=100000000 -t 3 1
	end_within 5
	assert_rc 2
	assert_grep 'SO_RCVLOWAT=100000000: at most 8' "$W/err" "the message"
}

# HOSTAGE_KINDS: a subset, for a run by hand
for kind in ${HOSTAGE_KINDS:-tbench smb nfs}; do
	check "$kind: server stopped mid-run: the run ends, clients named" \
		stopped_mid_run "$kind"
	check "$kind: SIGINT in the check before the run: 130 at once" \
		sigint_check "$kind"
	check "$kind: SIGINT in the run, server stopped: 130 at once" \
		sigint_run "$kind"
	check "$kind: SIGINT in the cleanup, server stopped: 130 at once" \
		sigint_cleanup "$kind"
done
check "tbench: an SO_RCVLOWAT no reply meets is refused" rcvlowat
check "tbench: a server answering only the check: 10 s, or SIGINT at once" \
	check_only
check "tbench: a wrong reply header, then silence: protocol error at once" \
	bad_header

finish
