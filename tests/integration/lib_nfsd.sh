# lib_nfsd.sh - a throwaway NFSv3 server (rpcbind + nfs-ganesha, FSAL VFS)
# for tests (sourced by bash).
#
# Nothing of it may listen outside the test: rpcbind always binds
# 0.0.0.0:111, so the server and the dbench runs live in a network
# namespace of their own, with a /run of their own (a tmpfs: rpcbind's
# lock file and socket are there, so that two such servers, or the
# host's, never meet).  nfsd_enter_netns "$0" "$@" re-executes the
# calling script under `unshare -n -m` (once: NFSD_IN_NETNS marks the
# inner run) with the loopback up and 127.0.0.2 on it (rpcbind -h
# 127.0.0.1 aborts); it exits with an empty TAP plan and the reason when the tools or the namespace are
# missing, so the caller's checks are skipped visibly.
#
# nfsd_start DIR N starts rpcbind and ganesha with N exports, the
# directories DIR/exp1 .. DIR/expN, exported by their paths
# (nfs://127.0.0.1/DIR/expI); configuration, log and pid file in DIR.
# Both run in the foreground in the background of this shell and are
# stopped by their PIDs (nfsd_stop; nfsd_kill kills ganesha alone, hard).
# With NFSD_NLM=1 set before nfsd_start, ganesha also serves NLM (byte-
# range locks): its NLM needs NSM, so rpc.statd runs too (foreground, no
# reboot notification, its state in DIR/statd), stopped by its PID.
# nfsd_restart empties the exports with ganesha stopped (ganesha caches
# names and handles: files removed behind its back would come back as
# stale handles).  The PIDs live in DIR/*.pid, so that a subshell may
# restart the server and the caller still stops the right one.  After
# nfsd_start: NFSD_URL1, NFSD_URL[i], NFSD_EXP[i], NFSD_DIR, NFSD_LOG.
# Returns 1 when the server does not come up.
#
# A script whose checks all need the server (nfs.sh, nfs_nlm.sh) starts
# with nfsd_enter_netns "$0" "$@", then lib.sh, then nfsd_serve N.
# The checks' shared helpers at the end (empty_exports, prefix,
# counts_and_tree, same_as_fileio) need lib.sh, URL1 and EXP1 (the first
# export), NFS_LINES/NFS_FULL, and NFS_OPTS (more -B nfs options).

# nfsd_tools: the programs the server needs, or a message and 77.
nfsd_tools() {
	local t
	for t in ganesha.nfsd rpcbind rpcinfo unshare ip \
		${NFSD_NLM:+rpc.statd}; do
		if ! command -v "$t" >/dev/null 2>&1 &&
			! [ -x "/usr/sbin/$t" ] && ! [ -x "/sbin/$t" ]; then
			echo "$t is not installed (apt-get install nfs-ganesha" \
				"nfs-ganesha-vfs rpcbind libnfs-utils iproute2" \
				"nfs-common)"
			return 77
		fi
	done
	[ -e /usr/lib/x86_64-linux-gnu/ganesha/libfsalvfs.so ] ||
		ls /usr/lib/*/ganesha/libfsalvfs.so >/dev/null 2>&1 || {
		echo "nfs-ganesha-vfs (FSAL VFS) is not installed"
		return 77
	}
	return 0
}

# nfsd_enter_netns SCRIPT ARGS...: run SCRIPT again inside a new network
# namespace (does not return), or return 0 when already inside.
nfsd_enter_netns() {
	local why
	[ -n "${NFSD_IN_NETNS:-}" ] && return 0
	PATH=$PATH:/usr/sbin:/sbin
	export PATH
	why=$(nfsd_tools)
	if [ $? -ne 0 ]; then
		echo "1..0 # SKIP $why"
		exit 0
	fi
	if ! unshare -n -m true 2>/dev/null; then
		echo "1..0 # SKIP cannot make a network namespace (unshare -n -m)"
		exit 0
	fi
	# /run of our own too: rpcbind's lock and socket and rpc.statd's pid
	# file live there, and another test's server (or the host's) must
	# not meet ours
	NFSD_IN_NETNS=1 exec unshare -n -m --propagation private -- bash -c \
		'mount -t tmpfs dbench-nfsd /run &&
		 ip link set lo up && ip addr add 127.0.0.2/8 dev lo &&
		 exec bash "$@"' nfsd-netns "$@"
}

# nfsd_pid NAME: the PID in $NFSD_DIR/NAME.pid, or nothing.
nfsd_pid() {
	cat "$NFSD_DIR/$1.pid" 2>/dev/null
}

# nfsd_signal NAME SIG: signal the process and wait until it is gone.
nfsd_signal() {
	local p i
	p=$(nfsd_pid "$1")
	[ -n "$p" ] || return 0
	kill "-$2" "$p" 2>/dev/null
	for i in $(seq 1 100); do
		kill -0 "$p" 2>/dev/null || break
		sleep 0.05
	done
	wait "$p" 2>/dev/null
	rm -f "$NFSD_DIR/$1.pid"
}

# nfsd_ganesha: start ganesha on $NFSD_DIR/ganesha.conf, wait for mountd.
nfsd_ganesha() {
	local i
	ganesha.nfsd -F -f "$NFSD_DIR/ganesha.conf" -L "$NFSD_LOG" \
		-p "$NFSD_DIR/ganesha.own.pid" >"$NFSD_DIR/ganesha.out" 2>&1 &
	echo $! >"$NFSD_DIR/nfsd.pid"
	for i in $(seq 1 300); do
		# a NULL call to each: a registration left by the
		# previous ganesha does not count
		if rpcinfo -t 127.0.0.1 100005 3 >/dev/null 2>&1 &&
			rpcinfo -t 127.0.0.1 100003 3 >/dev/null 2>&1 &&
			{ [ -z "${NFSD_NLM:-}" ] ||
			  rpcinfo -t 127.0.0.1 100021 4 >/dev/null 2>&1; }; then
			return 0
		fi
		kill -0 "$(nfsd_pid nfsd)" 2>/dev/null || break
		sleep 0.1
	done
	echo "ganesha did not come up; its log:"
	tail -20 "$NFSD_LOG" 2>/dev/null
	return 1
}

nfsd_start() {
	local dir=$1 n=${2:-1} i conf nlm=false
	[ -z "${NFSD_NLM:-}" ] || nlm=true
	NFSD_DIR=$dir
	NFSD_LOG=$dir/ganesha.log
	conf=$dir/ganesha.conf
	cat >"$conf" <<EOF
NFS_CORE_PARAM {
	NFS_Port = 2049; MNT_Port = 20048;
	Enable_NLM = $nlm; Enable_RQUOTA = false; Enable_UDP = false;
	Protocols = 3, 4;
}
NFSv4 { Graceless = true; RecoveryRoot = $dir/recovery; }
LOG { Default_Log_Level = EVENT; }
EOF
	mkdir -p "$dir/recovery" || return 1
	for i in $(seq 1 "$n"); do
		NFSD_EXP[$i]=$dir/exp$i
		NFSD_URL[$i]=nfs://127.0.0.1$dir/exp$i
		mkdir -p "${NFSD_EXP[$i]}" && chmod 777 "${NFSD_EXP[$i]}" ||
			return 1
		cat >>"$conf" <<EOF
EXPORT {
	Export_Id = $i; Path = $dir/exp$i; Pseudo = $dir/exp$i;
	Access_Type = RW; Squash = No_Root_Squash; Protocols = 3;
	Transports = TCP; SecType = sys;
	FSAL { Name = VFS; }
}
EOF
	done
	NFSD_URL1=${NFSD_URL[1]}
	rpcbind -f -w -h 127.0.0.2 >"$dir/rpcbind.log" 2>&1 &
	echo $! >"$dir/rpcbind.pid"
	for i in $(seq 1 50); do
		rpcinfo -p 127.0.0.1 >/dev/null 2>&1 && break
		sleep 0.1
	done
	[ -z "${NFSD_NLM:-}" ] || nfsd_statd || return 1
	nfsd_ganesha
}

# nfsd_statd: start rpc.statd (NSM, which ganesha's NLM asks to monitor
# its lock clients) with its state in $NFSD_DIR/statd; wait until it is
# registered.
nfsd_statd() {
	local i
	mkdir -p "$NFSD_DIR/statd/sm" "$NFSD_DIR/statd/sm.bak" || return 1
	# (its pid file goes to the namespace's own /run)
	rpc.statd -F -d -L -P "$NFSD_DIR/statd" >"$NFSD_DIR/statd.log" 2>&1 &
	echo $! >"$NFSD_DIR/statd.pid"
	for i in $(seq 1 50); do
		rpcinfo -t 127.0.0.1 100024 1 >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "rpc.statd did not come up; its log:"
	tail -20 "$NFSD_DIR/statd.log"
	return 1
}

# nfsd_restart: stop ganesha, empty every export, start it again.
nfsd_restart() {
	local e
	nfsd_signal nfsd TERM
	for e in "${NFSD_EXP[@]}"; do
		find "$e" -mindepth 1 -delete
	done
	nfsd_ganesha
}

# nfsd_kill: kill ganesha now (SIGKILL), as a crash would.
nfsd_kill() {
	nfsd_signal nfsd KILL
}

# nfsd_stop: stop ganesha and rpcbind, by their PIDs.
nfsd_stop() {
	[ -n "${NFSD_DIR:-}" ] || return 0
	nfsd_signal nfsd TERM
	nfsd_signal statd TERM
	nfsd_signal rpcbind TERM
}

# ---- the start of a test script, and helpers for its checks ----

# nfsd_serve N WHAT: (after nfsd_enter_netns and lib.sh) the server of a
# test script whose checks all need it: every check skipped (an empty
# plan) without -B nfs; ganesha started with N exports under $TOP/srv,
# and stopped when the script exits (a server that does not come up:
# its messages, and a bail out naming WHAT); EXP1, URL1 .. EXPN, URLN
# name the exports; each run is bounded at 300 s (IT_TIMEOUT: every run
# talks to this script's own server only).
nfsd_serve() {
	local why i
	why=$(built_without nfs) && skip_all "$why (-B nfs unavailable)"
	IT_TIMEOUT=300
	mkdir -p "$TOP/srv"
	if ! nfsd_start "$TOP/srv" "$1" >"$TOP/nfsd.start" 2>&1; then
		cat "$TOP/nfsd.start"
		nfsd_stop
		bail_out "$2 did not start"
	fi
	trap 'nfsd_stop; it_cleanup' EXIT
	for i in $(seq 1 "$1"); do
		printf -v "EXP$i" '%s' "${NFSD_EXP[$i]}"
		printf -v "URL$i" '%s' "${NFSD_URL[$i]}"
	done
}


# empty_exports: remove what an earlier check left on the exports.
empty_exports() {
	nfsd_restart >"$W/restart" 2>&1 || fail "ganesha did not restart: $(cat "$W/restart")"
}

# prefix LOADFILE: its first NFS_LINES lines in $W/prefix.txt (all of it
# with NFS_FULL=1).
prefix() {
	if [ -n "$NFS_FULL" ]; then
		cp "$1" "$W/prefix.txt"
	else
		head -n "$NFS_LINES" "$1" >"$W/prefix.txt"
	fi
}

# counts_and_tree BACKEND NCLIENTS: one --run-once pass of $W/prefix.txt
# with --skip-cleanup; its op table in $W/BACKEND.counts and the tree it
# left in $W/BACKEND.tree.
counts_and_tree() {
	local b=$1 n=$2 dir
	if [ "$b" = nfs ]; then
		empty_exports
		run_db --run-once --skip-cleanup -B nfs --nfs="$URL1" \
			${NFS_OPTS:-} -c "$W/prefix.txt" "$n"
		dir=$EXP1
	else
		rm -rf "$W/t" && mkdir "$W/t"
		run_db --run-once --skip-cleanup -B fileio -D "$W/t" \
			-c "$W/prefix.txt" "$n"
		dir=$W/t
	fi
	assert_rc 0
	assert_grep "$RE_THROUGHPUT" "$W/out" "-B $b: Throughput line"
	table_counts "$W/out" | sort >"$W/$b.counts"
	cp "$W/err" "$W/$b.err"	# the mismatch summary goes to stderr
	[ -s "$W/$b.counts" ] || fail "-B $b: no operation table"
	# both record the trees --skip-cleanup kept (clients/.dbench-kept)
	tree_listing "$dir" >"$W/$b.tree"
	keep "$b"
}

# same_as_fileio LOADFILE NCLIENTS: nfs counts the same ops and leaves
# the same tree (names, types, sizes) as fileio; its only mismatches are
# the byte-range locks NFS cannot take without NLM (with NFS_OPTS=
# --enable-nlm: none at all).
same_as_fileio() {
	prefix "$1"
	counts_and_tree fileio "$2"
	assert_no_mismatch
	counts_and_tree nfs "$2"
	assert_same_lines "$W/fileio.counts" "$W/nfs.counts" \
		"op counts of $(basename "$1") x $2, nfs vs fileio"
	assert_same_lines "$W/fileio.tree" "$W/nfs.tree" \
		"tree left by $(basename "$1") x $2, nfs vs fileio"
	if [ -n "${NFS_OPTS:-}" ]; then
		assert_no_grep "^Status mismatches" "$W/nfs.err" \
			"status mismatches with $NFS_OPTS"
	elif grep -q "^Status mismatches" "$W/nfs.err"; then
		sed -n '/^Status mismatches/,/^$/p' "$W/nfs.err" |
			grep -v -e '^Status mismatches' -e '^$' \
				-e '^ LockX ' -e '^ UnlockX ' >"$W/other" || true
		[ -s "$W/other" ] && fail "-B nfs mismatches other than locks: $(cat "$W/other")"
		assert_grep "NT_STATUS_NOT_SUPPORTED" "$W/nfs.err" \
			"locks answer NOT_SUPPORTED"
	fi
}
