# lib_addc.sh - a throwaway Samba AD DC (a KDC and an SMB server) for
# the Kerberos tests (sourced by bash).
#
# addc_enter_netns "$0" "$@" re-executes the calling script (once:
# ADDC_IN_NETNS marks the inner run) under `unshare -n -m -u -p`, as the
# first process of a PID namespace of its own: when it ends, the kernel
# ends every process left in it (smbd starts samba-dcerpcd and its RPC
# workers on demand, in sessions of their own, which no stop by PID of
# samba reaches); loopback
# up, a /run of its own (a tmpfs: the DC's winbindd socket lives there,
# so that the host's name service never meets it), the host name dc1, and
# the namespace's own /etc/hosts (dc1 and dc1.dbench.test on 127.0.0.1)
# bind-mounted over the host's, which stays untouched: the name a client
# uses, //dc1/share, is then the DC's host name, as Kerberos needs
# (cifs/dc1).  Without the tools or the namespace it prints an empty TAP
# plan with the reason and exits (a visible skip).
#
# addc_start DIR provisions the domain DBENCH.TEST (samba-tool, no DNS
# server) into DIR, starts samba in the foreground (its process group is
# ours; stopped by its PID: addc_stop) with one share, [share] = DIR/share
# (every file as root), and waits until it serves.  Then ADDC_SHARE (the
# share's directory), ADDC_PASS (Administrator's password), and, exported,
# KRB5_CONFIG (DIR/krb5.conf: realm, KDC 127.0.0.1, no DNS, no reverse
# lookups) and KRB5CCNAME (DIR/ccache, empty until addc_kinit).  Returns 1
# with the reason on stdout when the DC does not come up.
# addc_kinit gets Administrator's ticket (the password on stdin).
# /etc/samba and /etc/krb5.conf are never read or written.

# stop_by_pid, and under check-sanitize the slow unwinder for
# libsmbclient's suppressions (the run's own connections)
. "$(dirname "${BASH_SOURCE[0]}")/lib_smbd.sh"

ADDC_PASS=Dbench-Krb5-1x
ADDC_PID=

# addc_enter_netns SCRIPT ARGS...: see above.
addc_enter_netns() {
	local t
	[ -z "${ADDC_IN_NETNS:-}" ] || return 0
	for t in samba samba-tool smbclient kinit unshare ip hostname; do
		if ! command -v "$t" >/dev/null 2>&1 &&
			! [ -x "/usr/sbin/$t" ] && ! [ -x "/sbin/$t" ]; then
			echo "1..0 # SKIP $t is not installed (apt-get install" \
				"samba-ad-dc smbclient krb5-user iproute2)"
			exit 0
		fi
	done
	if ! unshare -n -m -u -p --fork --mount-proc true 2>/dev/null; then
		echo "1..0 # SKIP cannot make network and PID namespaces (unshare -n -m -u -p)"
		exit 0
	fi
	ADDC_IN_NETNS=1 exec unshare -n -m -u -p --fork --mount-proc \
		--propagation private -- \
		bash -c 'mount -t tmpfs dbench-addc /run &&
		 mkdir -p /run/samba && ip link set lo up && hostname dc1 &&
		 printf "127.0.0.1 localhost\n127.0.0.1 dc1.dbench.test dc1\n" \
			>/run/hosts && mount --bind /run/hosts /etc/hosts &&
		 exec bash "$@"' addc-netns "$@"
}

# addc_conf DIR: the DC's smb.conf (only the services the tests use).
addc_conf() {
	local dir=$1
	cat <<EOF
[global]
	netbios name = DC1
	realm = DBENCH.TEST
	workgroup = DBENCH
	server role = active directory domain controller
	server services = s3fs, kdc, winbindd, rpc
	interfaces = lo
	bind interfaces only = yes
	disable netbios = yes
	private dir = $dir/private
	lock directory = $dir
	state directory = $dir/state
	cache directory = $dir/cache
	pid directory = $dir/pid
	ncalrpc dir = $dir/ncalrpc
	binddns dir = $dir/bind-dns
	log file = $dir/log.%m
	max log size = 0
	idmap_ldb:use rfc2307 = yes
	load printers = no
	printcap name = /dev/null
	disable spoolss = yes
[share]
	path = $dir/share
	read only = no
	force user = root
EOF
}

addc_start() {
	local dir=$1 i
	mkdir -p "$dir" || return 1
	ADDC_SHARE=$dir/share
	export KRB5_CONFIG=$dir/krb5.conf KRB5CCNAME=FILE:$dir/ccache
	if ! samba-tool domain provision --targetdir="$dir" \
		--realm=DBENCH.TEST --domain=DBENCH --host-name=dc1 \
		--adminpass="$ADDC_PASS" --server-role=dc --dns-backend=NONE \
		--use-rfc2307 --option="interfaces=lo" \
		--option="bind interfaces only=yes" >"$dir/provision.out" 2>&1; then
		echo "samba-tool domain provision failed:"
		tail -n 5 "$dir/provision.out"
		return 1
	fi
	mkdir -p "$dir/share" "$dir/cache" "$dir/pid" "$dir/ncalrpc" \
		"$dir/bind-dns" || return 1
	chmod 755 "$dir" "$dir/share"
	cat >"$KRB5_CONFIG" <<EOF
[libdefaults]
	default_realm = DBENCH.TEST
	dns_lookup_realm = false
	dns_lookup_kdc = false
	rdns = false
	dns_canonicalize_hostname = false
[realms]
	DBENCH.TEST = {
		kdc = 127.0.0.1
	}
[domain_realm]
	dc1 = DBENCH.TEST
	.dbench.test = DBENCH.TEST
EOF
	addc_conf "$dir" >"$dir/smb.conf"
	PATH=$PATH:/usr/sbin samba -i -M single -s "$dir/smb.conf" </dev/null \
		>"$dir/samba.out" 2>&1 &
	ADDC_PID=$!
	for i in $(seq 1 300); do
		if smbclient -L dc1 -s "$dir/smb.conf" -U "Administrator%$ADDC_PASS" \
			>/dev/null 2>&1; then
			return 0
		fi
		kill -0 "$ADDC_PID" 2>/dev/null || break
		sleep 0.2
	done
	echo "the AD DC did not come up"
	tail -n 10 "$dir/samba.out" "$dir"/log.winbindd 2>/dev/null
	addc_stop
	return 1
}

addc_kinit() {
	printf '%s\n' "$ADDC_PASS" | kinit Administrator@DBENCH.TEST >/dev/null
}

# addc_stop: stop samba (by its PID: it stops its smbd and winbindd) and
# wait; then what of its children is left, by their PIDs.
addc_stop() {
	local kids
	[ -n "$ADDC_PID" ] || return 0
	kids=$(pgrep -P "$ADDC_PID" 2>/dev/null)
	stop_by_pid "$ADDC_PID"
	[ -z "$kids" ] || kill -KILL $kids 2>/dev/null
	ADDC_PID=
	return 0
}
