#!/bin/bash
# bench/net/smb_wire.sh - the SMB2 requests -B smb sends per loadfile
# operation kind, beside what SMB2 needs for it: the first LINES lines
# (default 3000) of LOADFILE (default loadfiles/client.txt) replayed once,
# 1 client, against a throwaway smbd, captured with tshark (the counting
# of tests/integration/smb_wire.sh, whose committed counts make check
# compares).  A benchmark, not a test: it asserts nothing.
#
#     LINES=3000 bench/net/smb_wire.sh
#     SMB_CLIENT=libsmbclient LINES=3000 bench/net/smb_wire.sh
#
# SMB_CLIENT: --smb-client's value (default: dbench's default client,
# native).
# Columns: operation kind, its lines, the requests they sent, requests
# per operation, and the SMB2 minimum per operation (one round trip may
# carry several: a compound CREATE+QUERY_INFO+CLOSE counts 3).
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
LOADFILE=${LOADFILE:-loadfiles/client.txt}
LINES=${LINES:-3000}
W=$(mktemp -d /var/tmp/dbench-bench-smbwire.XXXXXX) || exit 1
trap 'rm -rf "$W"' EXIT
head -n "$LINES" "$LOADFILE" | tr -d '\r' >"$W/lf.txt"
DBENCH=${DBENCH:-$PWD/dbench} tests/integration/smb_wire.sh --counts \
	"$W/lf.txt" ${SMB_CLIENT:+"--smb-client=$SMB_CLIENT"} >"$W/counts" ||
	exit 1
printf '%-24s %7s %8s %7s %5s\n' operation lines requests "per op" need
awk '
	BEGIN {
		# what SMB2 needs (MS-SMB2), per operation that succeeds
		need["NTCreateX"] = 1; need["Close"] = 1; need["ReadX"] = 1
		need["WriteX"] = 1; need["QUERY_PATH_INFORMATION"] = 3
		need["QUERY_FILE_INFORMATION"] = 1
		need["SET_FILE_INFORMATION"] = 1
		need["QUERY_FS_INFORMATION"] = 3; need["FIND_FIRST"] = 4
		need["Unlink"] = 2; need["Rename"] = 3; need["Flush"] = 1
		need["LockX"] = 1; need["UnlockX"] = 1; need["Mkdir"] = 2
	}
	!seen[$1]++ { ops[$2]++ }
	{ req[$2] += $4 }
	END {
		for (o in ops) {
			printf "%-24s %7d %8d %7.2f %5s\n", o, ops[o], req[o],
				req[o] / ops[o], (o in need) ? need[o] : "-"
			tl += ops[o]; tr += req[o]
		}
		printf "%-24s %7d %8d %7.2f\n", "~all", tl, tr, tr / tl
	}' "$W/counts" | sort -k1,1 | sed 's/^~all/all /'

