#!/bin/bash
# smb_wire.sh - the SMB2 requests each loadfile operation of -B smb sends
# stay what they are: one --run-once pass of data/smb_wire.txt (every
# operation kind, on success and on the usual failures), 1 client, against
# a throwaway smbd on 127.0.0.1, captured on loopback with tshark; per
# loadfile line the count of each SMB2 command the client sent must equal
# data/smb_wire.expected exactly.  A change that adds a request to an
# operation (a stat before an open, a lookup after a failure) fails here
# with the line, the operation and the command.  (The syscall-parity
# check of the local backends is syscalls.sh; bench/net/smb_wire.sh counts
# a longer loadfile per operation kind beside the SMB2 minimum.)
#
# To tell one operation's requests from the next, a QUERY_PATH_INFORMATION
# of a missing marker file at the share's root (one CREATE, answered
# OBJECT_NAME_NOT_FOUND, and nothing else; with the native client the
# compound CREATE, QUERY_INFO, CLOSE of one message) follows every line;
# the requests on the client's connection between two markers are the
# operation's.  Connection set-up before the first marker, the exit after
# the last one and the other connections (the run's own set-up and
# cleanup) are left out.
#
# After an intended change, regenerate the expected counts with
#     tests/integration/smb_wire.sh --generate >tests/integration/data/smb_wire.expected
#     tests/integration/smb_wire.sh --generate native >tests/integration/data/smb_wire_native.expected
# and review the diff.  The second check makes the same pass with the
# project's own SMB2 client (--smb-client=native): there every operation
# sends what it needs and nothing more.  Skipped (visibly) without libsmbclient, Samba or
# tshark, or when tshark cannot capture on loopback here.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_smbd.sh"

LF=$DATA/smb_wire.txt
EXPECTED=$DATA/smb_wire.expected
EXPECTED_NATIVE=$DATA/smb_wire_native.expected
MARK=zz_wire_mark_

# SMB2 command numbers (MS-SMB2 2.2.1) and their names
CMDS="0 NEGOTIATE 1 SESSION_SETUP 2 LOGOFF 3 TREE_CONNECT 4 TREE_DISCONNECT
5 CREATE 6 CLOSE 7 FLUSH 8 READ 9 WRITE 10 LOCK 11 IOCTL 12 CANCEL 13 ECHO
14 QUERY_DIRECTORY 15 CHANGE_NOTIFY 16 QUERY_INFO 17 SET_INFO
18 OPLOCK_BREAK"

# marked_loadfile LOADFILE: LOADFILE with a marker after each line that
# is an operation, the marker named by that line's number (marker 0 first).
marked_loadfile() {
	awk -v mark="$MARK" '
		BEGIN { printf "QUERY_PATH_INFORMATION \"\\%s0\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n", mark }
		{ sub(/\r$/, "") }
		/^[ \t]*$/ || /^[ \t]*#/ { next }
		{
			print
			printf "QUERY_PATH_INFORMATION \"\\%s%d\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n", mark, NR
		}' "$1"
}

# wire_requests LOADFILE [ARGS...]: replay LOADFILE (marked) once over
# -B smb (with dbench's ARGS), 1 client, while tshark captures; $W/reqs:
# "STREAM CMD FILENAME INDEX" for every SMB2 request, in order (one line
# per command of a compound, INDEX its place in the message, from 1).
wire_requests() {
	local lf=$1
	shift
	[ -z "$SKIP_ALL" ] || skip "$SKIP_ALL"
	marked_loadfile "$lf" >"$W/marked.txt"
	capture_start "tcp port $SMBD_PORT"
	rm -rf "${SMBD_SHARE:?}"/*
	run_db --run-once -B smb --smb-share="//127.0.0.1:$SMBD_PORT/share" \
		--smb-user="$SMBD_USER%$SMBD_PASS" -c "$W/marked.txt" "$@" 1
	capture_stop
	assert_clean_run "the captured pass"
	tshark -r "$W/cap.pcapng" -d "tcp.port==$SMBD_PORT,nbss" \
		-Y 'smb2 && smb2.flags.response == 0' -T fields \
		-e tcp.stream -e smb2.cmd -e smb2.filename 2>/dev/null |
		awk -F '\t' '{
			n = split($2, c, ",")
			split($3, f, ",")
			for (i = 1; i <= n; i++) print $1 "\t" c[i] "\t" f[i] "\t" i
		}' >"$W/reqs"
	[ -s "$W/reqs" ] || fail "the capture holds no SMB2 request"
}

# wire_counts LOADFILE [ARGS...]: print "LINE OP COMMAND COUNT" for every
# operation line of LOADFILE and SMB2 command its replay sent, in line
# order.
wire_counts() {
	wire_requests "$@"
	awk -F '\t' -v mark="$MARK" -v cmds="$CMDS" -v lf="$1" '
		BEGIN {
			n = split(cmds, c, /[ \n]+/)
			for (i = 1; i < n; i += 2) name[c[i]] = c[i + 1]
			prev = 0
			while ((getline line < lf) > 0) {
				nr++
				sub(/\r$/, "", line)
				if (line ~ /^[ \t]*$/ || line ~ /^[ \t]*#/) continue
				split(line, f, /[ \t]+/)
				op[nr] = f[1] ~ /^[0-9.]+$/ ? f[2] : f[1]
				next_op[prev] = nr
				prev = nr
			}
			cur = ""
		}
		# the rest of a marker compound (the native client
		# asks CREATE, QUERY_INFO, CLOSE at once) goes with the marker
		$4 > 1 && in_mark { next }
		{ in_mark = 0 }
		index($3, mark) == 1 {
			in_mark = 1
			if (stream == "") stream = $1
			k = substr($3, length(mark) + 1) + 0
			seen[k] = 1
			# the segment ending here is complete
			if (cur != "") done[cur] = 1
			for (key in pend) n_[key] += pend[key]
			delete pend
			cur = k in next_op ? next_op[k] : ""
			next
		}
		stream == "" || $1 != stream || cur == "" { next }
		{
			cmd = ($2 in name) ? name[$2] : "CMD" $2
			pend[cur " " op[cur] " " cmd]++
			sent[cur] = 1
		}
		END {
			for (ln in op)
				if (!(ln in seen)) print ln, op[ln], "marker-not-reached", 1
			for (k in n_) print k, n_[k]
			# operations answered without a request
			for (ln in done) if (!(ln in sent)) print ln, op[ln], "none", 0
		}' "$W/reqs" | sort -k1,1n -k3,3
}

# The expected counts (comments and blank lines left out).
expected_counts() {
	grep -Ev '^[[:space:]]*(#|$)' "$EXPECTED"
}

# client_requests_per_op CLIENT EXPECTED WHAT: one pass with
# --smb-client=CLIENT, its requests per operation against EXPECTED.
# libsmbclient's counts are pinned (data/smb_wire.expected; the default
# is the native client since it covers what dbench sends); the native
# client sends each operation's own requests only
# (data/smb_wire_native.expected: one CREATE per NTCreateX, one compound
# CREATE, QUERY_INFO, CLOSE per QUERY_PATH_INFORMATION, ...).
client_requests_per_op() {
	EXPECTED=$2
	[ -f "$EXPECTED" ] || fail "no expected counts: $EXPECTED"
	wire_counts "$LF" --smb-client="$1" >"$W/found"
	expected_counts >"$W/expected"
	assert_same_lines "$W/expected" "$W/found" \
		"SMB2 requests per operation$3 (LINE OP COMMAND COUNT)"
}

requests_per_op() {
	client_requests_per_op libsmbclient "$EXPECTED" ""
}

native_requests_per_op() {
	client_requests_per_op native "$EXPECTED_NATIVE" ", native client"
}

# in_flight LOADFILE: per ReadX/WriteX line of LOADFILE in the last
# capture (wire_requests), "LINE OP MOST": the most READ/WRITE requests
# of that line outstanding at once on the wire (sent and not yet
# answered, in the capture's frame order); 1 when each request waits for
# the answer to the one before.
in_flight() {
	tshark -r "$W/cap.pcapng" -d "tcp.port==$SMBD_PORT,nbss" -Y smb2 \
		-T fields -e tcp.stream -e smb2.flags.response -e smb2.cmd \
		-e smb2.filename -e smb2.nt_status 2>/dev/null |
	awk -F '\t' -v mark="$MARK" -v lf="$1" '
		BEGIN {
			while ((getline line < lf) > 0) {
				nr++
				sub(/\r$/, "", line)
				if (line ~ /^[ \t]*$/ || line ~ /^[ \t]*#/) continue
				split(line, f, /[ \t]+/)
				op[nr] = f[1]
				next_op[prev + 0] = nr
				prev = nr
			}
		}
		{
			n = split($2, resp, ",")
			split($3, c, ",")
			split($4, fn, ",")
			split($5, st, ",")
			for (i = 1; i <= n; i++) {
				r = resp[i] == "1" || resp[i] == "True"
				# an interim answer (PENDING): the final one follows
				if (r && st[i] ~ /^0x0*103$/) continue
				if (!r && index(fn[i], mark) == 1) {
					stream = $1
					k = substr(fn[i], length(mark) + 1) + 0
					cur = k in next_op ? next_op[k] : ""
					out = 0
					continue
				}
				if ($1 != stream || cur == "" ||
				    (c[i] != 8 && c[i] != 9))
					continue
				out += r ? -1 : 1
				if (out > most[cur]) most[cur] = out
			}
		}
		END { for (ln in most) print ln, op[ln], most[ln] }' | sort -n
}

# The native client sends a ReadX/WriteX of several chunks at once: one
# READ/WRITE per chunk, more than one outstanding on the wire, the bytes
# where they belong (a pattern of 61 bytes: a 64 KiB chunk at another
# chunk's offset shows) and the byte counts the loadfile expects (a short
# count is a status mismatch); and a Deltree's removals (a CREATE with
# delete on close and a CLOSE per file) leave nothing behind.  With
# --smb-in-flight=1, never more than one outstanding.  Whether a request goes out before the
# answer to the one before is up to the scheduler for each one; that
# none of the three operations had two outstanding is not (test_smb2_flight
# checks the order itself against a server that waits).
native_in_flight() {
	local lf=$DATA/smb_flight.txt
	wire_counts "$lf" --smb-client=native --skip-cleanup >"$W/found"
	in_flight "$lf" >"$W/flight"
	note "READ/WRITE requests outstanding at most: $(tr '\n' ';' <"$W/flight")"
	awk '$3 >= 2 { ok = 1 } END { exit !ok }' "$W/flight" ||
		fail "each chunk of a ReadX/WriteX waited for the answer to the one before ($(tr '\n' ';' <"$W/flight"))"
	printf '%s\n' "6 WRITEPATTERN none 0" "7 Deltree CREATE 1" \
		"7 Deltree QUERY_DIRECTORY 1" "8 Mkdir CLOSE 1" \
		"8 Mkdir CREATE 1" "9 Mkdir CLOSE 1" "9 Mkdir CREATE 1" \
		"10 NTCreateX CREATE 1" "11 WriteX WRITE 5" "12 ReadX READ 5" \
		"13 ReadX READ 5" "14 Close CLOSE 1" "15 Mkdir CLOSE 1" \
		"15 Mkdir CREATE 1" "16 NTCreateX CREATE 1" "17 Close CLOSE 1" \
		"18 NTCreateX CREATE 1" "19 Close CLOSE 1" \
		"20 NTCreateX CREATE 1" "21 Close CLOSE 1" \
		"22 Deltree CLOSE 5" "22 Deltree CREATE 5" \
		"22 Deltree QUERY_DIRECTORY 2" >"$W/expected"
	assert_same_lines "$W/expected" "$W/found" \
		"SMB2 requests per operation of smb_flight.txt, native client"
	python3 -c 'import sys
p = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY"
want = bytes(7) + (p * (300000 // len(p) + 1))[:300000]
sys.exit(open(sys.argv[1], "rb").read() != want)' \
		"$SMBD_SHARE/clients/client0/big.dat" ||
		fail "clients/client0/big.dat on the share is not the pattern written at offset 7"
	[ ! -e "$SMBD_SHARE/clients/client0/sub" ] ||
		fail "the Deltree left clients/client0/sub on the share: $(ls "$SMBD_SHARE/clients/client0/sub" | tr '\n' ' ')"
	# --smb-in-flight=1: each request after the answer to the one before
	wire_requests "$lf" --smb-client=native --smb-in-flight=1
	in_flight "$lf" >"$W/flight1"
	awk '$3 != 1 { bad = 1 } END { exit bad || NR != 3 }' "$W/flight1" ||
		fail "--smb-in-flight=1: not one READ/WRITE outstanding at a time ($(tr '\n' ';' <"$W/flight1"))"
}

SKIP_ALL=
if "$DBENCH" -B smb 1 2>&1 | grep -q 'built without libsmbclient'; then
	SKIP_ALL="dbench was built without libsmbclient"
else
	smbd_start "$TOP/srv" >"$TOP/smbd.msg"
	case $? in
	0) ;;
	77) SKIP_ALL=$(cat "$TOP/smbd.msg") ;;
	*) cat "$TOP/smbd.msg"; bail_out "smbd did not start" ;;
	esac
fi
trap 'smbd_stop; it_cleanup' EXIT

case ${1:-} in
--generate)
	W=$TOP/generate
	mkdir "$W"
	if [ "${2:-}" = native ]; then
		set=(--smb-client=native)
		cat <<EOF
# smb_wire_native.expected - the SMB2 requests of each operation of one
# --run-once pass of smb_wire.txt, 1 client, -B smb --smb-client=native
# against smbd (tests/integration/smb_wire.sh compares them exactly).
# Generated by
#     tests/integration/smb_wire.sh --generate native >tests/integration/data/smb_wire_native.expected
# LINE (of smb_wire.txt) OP COMMAND COUNT
EOF
	else
		set=(--smb-client=libsmbclient)
		cat <<EOF
# smb_wire.expected - the SMB2 requests of each operation of one --run-once
# pass of smb_wire.txt, 1 client, -B smb --smb-client=libsmbclient
# against smbd (tests/integration/smb_wire.sh compares them exactly).
# Generated by
#     tests/integration/smb_wire.sh --generate >tests/integration/data/smb_wire.expected
# LINE (of smb_wire.txt) OP COMMAND COUNT
EOF
	fi
	( wire_counts "$LF" "${set[@]}" ) || { cat "$TOP/.skip" "$TOP/.fail" "$W/out" >&2 2>/dev/null; exit 1; }
	exit 0 ;;
--counts)
	# bench/net/smb_wire.sh: the counts of another loadfile ($2), with
	# dbench arguments of its own (${@:3})
	W=$TOP/counts
	mkdir "$W"
	( wire_counts "$2" "${@:3}" ) || { cat "$TOP/.skip" "$TOP/.fail" "$W/out" >&2 2>/dev/null; exit 1; }
	exit 0 ;;
esac

check "one pass of smb_wire.txt, --smb-client=libsmbclient: each operation's SMB2 requests as expected" requests_per_op
check "one pass of smb_wire.txt, --smb-client=native: each operation's own SMB2 requests" native_requests_per_op
check "--smb-client=native: a ReadX/WriteX of 5 chunks in flight at once (one with --smb-in-flight=1), the bytes in place; a Deltree's removals" native_in_flight
finish
