# lib_smbd.sh - a throwaway Samba server for tests (sourced by bash).
#
# smbd_start DIR starts smbd on 127.0.0.1 with everything (configuration,
# private, lock, state, cache and pid directories, passdb, log) inside DIR
# and one share, [share], whose files are DIR/share; /etc/samba is never
# read or written.  The logon is an existing Unix account (SMBD_USER,
# default nobody; the share forces root so file permissions never get in
# the way) with the password SMBD_PASS.  smbd runs in the foreground (-F)
# in its own process group, and is stopped by its PID: the caller runs
# smbd_stop (for instance from its EXIT trap; smbd_start sets no trap, so
# that it never replaces the caller's).  After smbd_start: SMBD_PORT, SMBD_PID, SMBD_CONF,
# SMBD_SHARE (the share's directory), SMBD_LOG.  It returns 77 with a
# message on stdout when smbd, smbclient or smbpasswd is missing (the
# caller skips), 1 when the server does not come up.  SMBD_GLOBAL, when
# set, is extra [global] lines (e.g. "server max protocol = SMB3_00"),
# for a server of another configuration.

# Under check-sanitize: libsmbclient leaks a little of its own (see
# tests/lsan-smb.supp), in every process that makes a context (clients,
# and the processes that clean up after them); the slow unwinder sees
# through libtalloc, which has no frame pointers, so that the suppressions
# can match its frames.
if [ -n "${ASAN_OPTIONS:-}" ] && [[ $ASAN_OPTIONS != *fast_unwind_on_malloc=0* ]]; then
	export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
fi

: "${SMBD_USER:=nobody}"
: "${SMBD_PASS:=dbench-Test-1}"
SMBD_PID=

# smbd_free_port: a TCP port on 127.0.0.1 nobody listens on right now.
smbd_free_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

smbd_start() {
	local dir=$1 t i
	for t in smbd smbclient smbpasswd python3; do
		if ! command -v "$t" >/dev/null 2>&1 &&
			! [ -x "/usr/sbin/$t" ]; then
			echo "$t is not installed"
			return 77
		fi
	done
	id "$SMBD_USER" >/dev/null 2>&1 || {
		echo "no Unix account $SMBD_USER for the smbd logon"
		return 77
	}
	mkdir -p "$dir/private" "$dir/lock" "$dir/state" "$dir/cache" \
		"$dir/pid" "$dir/ncalrpc" "$dir/share" || return 1
	chmod 755 "$dir" "$dir/share"
	SMBD_PORT=$(smbd_free_port) || return 1
	SMBD_CONF=$dir/smb.conf
	SMBD_SHARE=$dir/share
	SMBD_LOG=$dir/log.smbd
	cat >"$SMBD_CONF" <<EOF
[global]
	netbios name = DBENCHTEST
	workgroup = DBENCH
	server role = standalone server
	interfaces = 127.0.0.1
	bind interfaces only = yes
	smb ports = $SMBD_PORT
	disable netbios = yes
	private dir = $dir/private
	lock directory = $dir/lock
	state directory = $dir/state
	cache directory = $dir/cache
	pid directory = $dir/pid
	ncalrpc dir = $dir/ncalrpc
	log file = $SMBD_LOG
	max log size = 0
	passdb backend = tdbsam:$dir/private/passdb.tdb
	load printers = no
	printcap name = /dev/null
	disable spoolss = yes
	server min protocol = SMB2_02
	smb encrypt = off
${SMBD_GLOBAL:-}
[share]
	path = $SMBD_SHARE
	read only = no
	force user = root
	guest ok = no
EOF
	printf '%s\n%s\n' "$SMBD_PASS" "$SMBD_PASS" |
		smbpasswd -c "$SMBD_CONF" -s -a "$SMBD_USER" >"$dir/smbpasswd.out" 2>&1 || {
		cat "$dir/smbpasswd.out"
		return 1
	}
	# -F: foreground, so that $! is smbd itself; no --no-process-group
	# (smbd signals its whole group when it stops).  _NO_WINBINDD: the
	# server maps its users itself, never through a winbindd that runs
	# on this machine for something else (which cannot map our SIDs, and
	# every logon then fails)
	_NO_WINBINDD=1 PATH=$PATH:/usr/sbin smbd -F -s "$SMBD_CONF" </dev/null \
		>"$dir/smbd.out" 2>&1 &
	SMBD_PID=$!
	for i in $(seq 1 100); do
		if smbclient -L 127.0.0.1 -p "$SMBD_PORT" \
			-U "$SMBD_USER%$SMBD_PASS" >/dev/null 2>&1; then
			return 0
		fi
		kill -0 "$SMBD_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "smbd did not come up on 127.0.0.1:$SMBD_PORT"
	tail -n 20 "$SMBD_LOG" "$dir/smbd.out" 2>/dev/null
	smbd_stop
	return 1
}

# smbd_client CMDS: run smbclient's commands CMDS on the share.
smbd_client() {
	smbclient "//127.0.0.1/share" -p "$SMBD_PORT" -m SMB3 \
		-U "$SMBD_USER%$SMBD_PASS" -c "$1"
}

# smbd_helpers: the PIDs of the processes started for our smbd's RPC
# (samba-dcerpcd and its rpcd_* workers, which smbd starts on demand,
# e.g. for smbclient -L, and which outlive it): those whose command line
# names our private configuration file.
smbd_helpers() {
	local p cmd
	for p in /proc/[0-9]*; do
		cmd=$(tr '\0' '\n' 2>/dev/null <"$p/cmdline") || continue
		case $cmd in
		samba-dcerpcd*|*/samba-dcerpcd*|*/rpcd_*) ;;
		*) continue ;;
		esac
		if printf '%s\n' "$cmd" | grep -qxF -- "--configfile=$SMBD_CONF"; then
			echo "${p#/proc/}"
		fi
	done
}

# stop_by_pid PID: SIGTERM to the server PID (a child of this shell),
# up to 5 s for it to end, then SIGKILL; reaped.
stop_by_pid() {
	local i
	kill -TERM "$1" 2>/dev/null
	for i in $(seq 1 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# smbd_stop: stop the server started by smbd_start (by its PID), and wait;
# then its RPC helpers (smbd_helpers), by their PIDs, even when the
# server itself is already gone.
smbd_stop() {
	local i pids
	if [ -n "$SMBD_PID" ]; then
		stop_by_pid "$SMBD_PID"
		SMBD_PID=
	fi
	# also when a check killed smbd itself (and emptied SMBD_PID)
	[ -n "${SMBD_CONF:-}" ] || return 0
	pids=$(smbd_helpers)
	[ -n "$pids" ] || return 0
	kill -TERM $pids 2>/dev/null
	for i in $(seq 1 30); do
		pids=$(smbd_helpers)
		[ -n "$pids" ] || return 0
		sleep 0.1
	done
	kill -KILL $pids 2>/dev/null
	return 0
}
