#!/bin/bash
# smb_krb5.sh - -B smb --smb-kerberos against a real KDC: a throwaway
# Samba AD DC (lib_addc.sh: provisioned once per script into the test's
# directory, inside a network, mount and UTS namespace of its own) and
# Administrator's ticket from kinit.  The native client (SPNEGO around
# GSS-API's krb5) replays client.txt with 2 clients to fileio's op counts
# and tree, logs on in every dialect signed and in SMB3 encrypted;
# libsmbclient logs on with the ticket too; without a ticket, or with a
# password beside --smb-kerberos, the run stops before it starts (exit 2,
# one line); a capture (tshark) shows the native client's logons, NTLMSSP
# and Kerberos, in SPNEGO.  Skipped visibly without libsmbclient, GSS-API, Samba's AD DC or
# a network namespace; under check-sanitize only the native checks run.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib_addc.sh"
# (before lib.sh: its temporary directory and traps belong to the inner run)
addc_enter_netns "$0" "$@"
. "$(dirname "$0")/lib.sh"

: "${KRB_LINES:=2000}"
IT_TIMEOUT=300
SHARE=//dc1/share

if "$DBENCH" -B smb 1 2>&1 | grep -q 'built without libsmbclient'; then
	skip_all "dbench was built without libsmbclient"
fi
if "$DBENCH" -B smb --smb-share=$SHARE --smb-kerberos 1 2>&1 |
	grep -q 'built without GSS-API'; then
	skip_all "dbench was built without GSS-API (libkrb5-dev)"
fi
trap 'addc_stop; it_cleanup' EXIT
addc_start "$TOP/dc" >"$TOP/addc.msg" ||
	{ cat "$TOP/addc.msg"; bail_out "the AD DC did not start"; }
addc_kinit || bail_out "kinit Administrator failed"

empty_share() {
	rm -rf "${ADDC_SHARE:?}"/* "${ADDC_SHARE:?}"/.[!.]* 2>/dev/null
	return 0
}

# native_same_as_fileio NCLIENTS ARGS...: the first KRB_LINES lines of
# client.txt: the native client's op counts and final tree under
# --smb-kerberos ARGS are fileio's
native_same_as_fileio() {
	local n=$1
	shift
	head -n "$KRB_LINES" "$SRCDIR/loadfiles/client.txt" >"$W/lf.txt"
	mkdir "$W/t"
	run_db --run-once --skip-cleanup -B fileio -c "$W/lf.txt" -D "$W/t" "$n"
	assert_clean_run "-B fileio x $n"
	table_counts "$W/out" | sort >"$W/fileio.counts"
	empty_share
	run_db --run-once --skip-cleanup -B smb --smb-share=$SHARE \
		--smb-client=native --smb-kerberos "$@" -c "$W/lf.txt" "$n"
	assert_clean_run "-B smb --smb-client=native --smb-kerberos $* x $n"
	table_counts "$W/out" | sort >"$W/smb.counts"
	[ -s "$W/smb.counts" ] || fail "-B smb: no operation table"
	assert_same_lines "$W/fileio.counts" "$W/smb.counts" \
		"op counts, smb (Kerberos) vs fileio"
	tree_listing "$W/t" >"$W/fileio.tree"
	tree_listing "$ADDC_SHARE" >"$W/smb.tree"
	assert_same_lines "$W/fileio.tree" "$W/smb.tree" \
		"final trees, share vs fileio's directory"
	empty_share
}

# every dialect signed, the SMB3 ones encrypted (AES-CCM in 3.0.x, the
# server's choice in 3.1.1): the Kerberos session key feeds each key
native_dialects() {
	local p
	for p in SMB2_02 SMB2_10 SMB3_00 SMB3_02 SMB3_11; do
		run_db --run-once -B smb --smb-share=$SHARE --smb-client=native \
			--smb-kerberos --smb-protocol=$p --smb-sign \
			-c "$DATA/basic.txt" 1
		assert_clean_run "--smb-kerberos --smb-protocol=$p --smb-sign"
	done
	for p in SMB3_00 SMB3_11; do
		run_db --run-once -B smb --smb-share=$SHARE --smb-client=native \
			--smb-kerberos --smb-protocol=$p --smb-encrypt \
			-c "$DATA/basic.txt" 1
		assert_clean_run "--smb-kerberos --smb-protocol=$p --smb-encrypt"
	done
}

# (--smb-client=libsmbclient pinned: the default is the native client)
libsmbclient_logon() {
	sanitizers_skip "libsmbclient's Kerberos: the native checks run our code"
	run_db --run-once -B smb --smb-share=$SHARE --smb-client=libsmbclient \
		--smb-kerberos \
		-c "$DATA/basic.txt" 2
	assert_clean_run "libsmbclient --smb-kerberos x 2"
	assert_empty_dir "$ADDC_SHARE"
}

# no ticket (an empty cache), a password beside --smb-kerberos, or a
# server named by its address: exit 2 and one line, before any client
# starts
refused() {
	local c
	for c in native libsmbclient; do
		KRB5CCNAME=FILE:$W/no-ccache run_db --run-once -B smb \
			--smb-share=$SHARE --smb-client=$c --smb-kerberos \
			-c "$DATA/basic.txt" 1
		assert_rc 2
		assert_eq 1 "$(wc -l <"$W/err")" "--smb-client=$c, no ticket: lines on stderr"
		assert_grep "^dbench: smb: //dc1:445/share: --smb-kerberos: no Kerberos ticket in the credential cache \\(FILE:$W/no-ccache; kinit first\\)\$" \
			"$W/err" "--smb-client=$c, no ticket: message"
	done
	run_db --run-once -B smb --smb-share=$SHARE --smb-kerberos \
		--smb-user=Administrator%secret -c "$DATA/basic.txt" 1
	assert_rc 2
	assert_grep "^dbench: backend 'smb': --smb-kerberos logs on as the ticket of the credential cache says \\(kinit\\): give no --smb-user\$" \
		"$W/err" "--smb-kerberos with --smb-user: refused"
	assert_no_grep secret "$W/err" "the password in the message"
	run_db --run-once -B smb --smb-share=//127.0.0.1/share --smb-kerberos \
		-c "$DATA/basic.txt" 1
	assert_rc 2
	assert_grep "^dbench: backend 'smb': --smb-kerberos: name the server by its host name \\(its Kerberos service is cifs/HOST\\), not by the address 127\\.0\\.0\\.1\$" \
		"$W/err" "--smb-kerberos to an address: refused"
	DBENCH_SMB_PASSWORD=secret run_db --run-once -B smb \
		--smb-share=$SHARE --smb-kerberos -c "$DATA/basic.txt" 1
	assert_rc 2
	assert_grep "give no \\\$DBENCH_SMB_PASSWORD\$" "$W/err" \
		"--smb-kerberos with \$DBENCH_SMB_PASSWORD: refused"
}

# logon_blobs ARGS...: one client's pass of basic.txt with ARGS while
# tshark captures; $W/blobs: "STREAM BLOB" (hex) of every SESSION_SETUP
# request, in order (the run's own connections are libsmbclient's, the
# client's the native one)
logon_blobs() {
	capture_start "tcp port 445"
	run_db --run-once -B smb --smb-share=$SHARE "$@" -c "$DATA/basic.txt" 1
	capture_stop
	assert_clean_run "dbench $*"
	tshark -r "$W/cap.pcapng" -Y 'smb2.cmd == 1 && smb2.flags.response == 0' \
		-T fields -e tcp.stream -e smb2.security_blob 2>/dev/null \
		>"$W/blobs"
	[ "$(cut -f1 "$W/blobs" | sort -u | wc -l)" -ge 2 ] ||
		fail "fewer than 2 logons captured"
}

# every logon, the native client's too, in SPNEGO: a NegTokenInit
# (60...06062b0601050502: SPNEGO's OID) first, NegTokenResps (a1) after;
# NTLMSSP's OID (2b06010401823702020a) in the first when NTLMSSP, and a
# mechListMIC (a3 12 04 10, NTLMSSP's signature: 01000000...) with the
# AUTHENTICATE, which the DC checks since the AUTHENTICATE has a MIC; and
# krb5's (2a864886f712010202) and no NTLMSSP message at all ("NTLMSSP":
# 4e544c4d535350) with --smb-kerberos
spnego_on_wire() {
	DBENCH_SMB_PASSWORD=$ADDC_PASS logon_blobs --smb-client=native \
		--smb-sign --smb-user=DBENCH/Administrator
	awk -F '\t' '!seen[$1]++ && $2 !~ /^6[0-9a-f]+06062b0601050502a0.*2b06010401823702020a/ ||
		seen[$1] > 1 && $2 !~ /^a1.*a312041001000000/' "$W/blobs" >"$W/bad"
	[ ! -s "$W/bad" ] || { show_file "$W/bad" "not SPNEGO (NTLMSSP)";
		fail "a SESSION_SETUP without SPNEGO (NTLMSSP)"; }
	logon_blobs --smb-client=native --smb-kerberos
	awk -F '\t' '!seen[$1]++ && $2 !~ /^6[0-9a-f]+06062b0601050502a0.*2a864886f712010202/ ||
		$2 ~ /4e544c4d535350/' "$W/blobs" >"$W/bad"
	[ ! -s "$W/bad" ] || { show_file "$W/bad" "not SPNEGO (Kerberos), or NTLMSSP";
		fail "a Kerberos SESSION_SETUP without SPNEGO, or an NTLMSSP one"; }
}

check "--smb-client=native --smb-kerberos, client.txt x 2: counts and tree = fileio's" native_same_as_fileio 2
check "--smb-client=native --smb-kerberos: SMB2_02..SMB3_11 signed, SMB3_00/SMB3_11 encrypted" native_dialects
check "--smb-kerberos with libsmbclient: logs on with the ticket" libsmbclient_logon
check "--smb-kerberos: no ticket, a password too, an address: exit 2, one line" refused
check "--smb-client=native: every logon in SPNEGO (NTLMSSP, Kerberos), captured" spnego_on_wire
finish
