# lib_tgtd.sh - a userspace iSCSI target (tgt) for the iscsi tests,
# started by the test itself on 127.0.0.1 inside its own network and
# mount namespaces, so that it meets no other target (tgtd keeps its
# control socket and lock in /run/tgtd: ours is a private tmpfs).
#
# tgtd_enter_netns "$0" "$@" re-executes the calling script under
# `unshare -n -m` once (TGTD_IN_NETNS marks the inner run), or prints an
# empty TAP plan with the reason and exits when tgt or the namespace is
# missing, so that the checks are skipped visibly.
#
# tgtd_start IQN FILE: tgtd on 127.0.0.1:3260 with one target IQN whose
# LUN 1 is FILE; TGTD_PID its PID, TGTD_URL iscsi://127.0.0.1:3260/IQN/1.
# tgtd_stop: delete the targets (tgtd ignores SIGTERM while it has any),
# then SIGKILL it by PID if it is still there.

tgtd_enter_netns() {
	[ -n "${TGTD_IN_NETNS:-}" ] && return 0
	PATH=$PATH:/usr/sbin:/sbin
	export PATH
	if ! command -v tgtd >/dev/null || ! command -v tgtadm >/dev/null; then
		echo "1..0 # SKIP tgt (tgtd, tgtadm) is not installed (apt-get install tgt)"
		exit 0
	fi
	if ! unshare -n -m true 2>/dev/null; then
		echo "1..0 # SKIP cannot make a network namespace (unshare -n -m)"
		exit 0
	fi
	TGTD_IN_NETNS=1 exec unshare -n -m --propagation private -- bash -c \
		'mkdir -p /run/tgtd && mount -t tmpfs dbench-tgtd /run/tgtd &&
		 ip link set lo up && exec bash "$@"' tgtd-netns "$@"
}

tgtd_start() {
	local iqn=$1 file=$2 i
	tgtd -f --iscsi portal=127.0.0.1:3260 >"$TOP/tgtd.log" 2>&1 &
	TGTD_PID=$!
	for i in $(seq 1 100); do
		tgtadm --lld iscsi --mode target --op show >/dev/null 2>&1 &&
			break
		sleep 0.05
	done
	tgtadm --lld iscsi --op new --mode target --tid 1 -T "$iqn" &&
		tgtadm --lld iscsi --op new --mode logicalunit --tid 1 \
			--lun 1 -b "$file" &&
		tgtadm --lld iscsi --op bind --mode target --tid 1 -I ALL ||
		return 1
	TGTD_URL=iscsi://127.0.0.1:3260/$iqn/1
}

tgtd_stop() {
	local i
	[ -n "${TGTD_PID:-}" ] || return 0
	tgtadm --lld iscsi --op delete --mode target --tid 1 --force \
		>/dev/null 2>&1
	tgtadm --op delete --mode system --force >/dev/null 2>&1
	for i in $(seq 1 20); do
		kill -0 "$TGTD_PID" 2>/dev/null || break
		sleep 0.05
	done
	kill -9 "$TGTD_PID" 2>/dev/null
	wait "$TGTD_PID" 2>/dev/null
	TGTD_PID=
}
