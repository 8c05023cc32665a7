#!/bin/bash
# nfs_nlm.sh - byte-range locks of the nfs backend through NLM
# (--enable-nlm) against nfs-ganesha with its NLM service (and rpc.statd,
# which ganesha's NLM needs), started by this test inside its own network
# namespace: client.txt gives fileio's op counts and trees with no status
# mismatch at all (LockX/UnlockX granted as fileio's), the NFSv3
# dialect's LOCK4/TEST4/UNLOCK4 answer the NLM4 codes, a lock one client
# holds is denied to two others.  Without --enable-nlm and on a server
# without NLM: nfs.sh.  Skipped visibly (a TAP skip) without libnfs, ganesha,
# rpc.statd or a network namespace.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
NFSD_NLM=1
export NFSD_NLM
. "$(dirname "$0")/lib_nfsd.sh"
: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
if "${DBENCH:-$SRCDIR/dbench}" -B nfs --nfs=nfs://127.0.0.1/x 1 2>&1 |
	grep -q "built with"; then
	echo "1..0 # SKIP dbench built without libnfs (-B nfs unavailable)"
	exit 0
fi
# (before lib.sh: its temporary directory is made inside the namespace)
nfsd_enter_netns "$0" "$@"
. "$(dirname "$0")/lib.sh"

# the client.txt comparisons replay the first NFS_LINES lines (our
# client.txt takes its first locks at lines 8138 and 8878); NFS_FULL=1: all
: "${NFS_LINES:=9000}"
DEBIAN_CLIENT=/usr/share/dbench/client.txt
NFS_OPTS=--enable-nlm
IT_TIMEOUT=300

SRV=$TOP/srv
mkdir -p "$SRV"
if ! nfsd_start "$SRV" 1 >"$TOP/nfsd.start" 2>&1; then
	cat "$TOP/nfsd.start"
	nfsd_stop
	bail_out "ganesha (with NLM) did not start"
fi
trap 'nfsd_stop; it_cleanup' EXIT
EXP1=${NFSD_EXP[1]}
URL1=${NFSD_URL[1]}

# locks_as_fileio LOADFILE NCLIENTS: client.txt's LockX/UnlockX through
# NLM: fileio's counts and tree, and (unlike without --enable-nlm) no
# mismatch at all.
locks_as_fileio() {
	[ -r "$1" ] || skip "$1 not installed"
	[ -n "$NFS_FULL" ] || [ "$(head -n "$NFS_LINES" "$1" | grep -c LockX)" -gt 0 ] ||
		fail "the first $NFS_LINES lines of $1 take no lock"
	[ "$2" -ne 1 ] || sanitizers_skip "the 3-client replay of the same lines runs this code"
	same_as_fileio "$1" "$2"
	assert_grep "^ LockX " "$W/nfs.out" "LockX in the nfs table"
}

# The sample: every lock op answers as the file says, counted.
lock_sample() {
	empty_exports
	run_db --run-once -B nfs --nfs="$URL1" --enable-nlm \
		-c "$SRCDIR/loadfiles/nfs-locks.txt" 2
	assert_clean_run "nfs-locks.txt x 2"
	table_counts "$W/out" | grep -E '^(LOCK4|TEST4|UNLOCK4) ' | sort \
		>"$W/locks.counts"
	printf '%s\n' "LOCK4 34" "TEST4 16" "UNLOCK4 16" >"$W/expected"
	assert_same_lines "$W/expected" "$W/locks.counts" \
		"lock op counts of nfs-locks.txt x 2"
	# without --enable-nlm: NFS3ERR_NOTSUPP (10004), said per op
	empty_exports
	run_db --run-once -B nfs --nfs="$URL1" \
		-c "$SRCDIR/loadfiles/nfs-locks.txt" 1
	assert_rc 0
	assert_grep "^ LOCK4  *17   first: client 0, .*nfs-locks.txt:22 .*got 0x00002714" \
		"$W/err" "the lock ops' mismatch without --enable-nlm"
	assert_grep "^ TEST4  *8   first: .*got 0x00002714" "$W/err" \
		"TEST4's mismatch without --enable-nlm"
}

# A lock held by one client (of a first run: NLM locks outlive the
# client that took them) is denied to the two clients of a second run;
# outside its range, and on their own files, they are granted.
lock_conflict() {
	empty_exports
	cat >"$W/hold.txt" <<'EOF'
MKDIR3 "/shared" 0x00000000
CREATE3 "/shared/f" 0x00000000
LOCK4 "/shared/f" 0 100 0x00000000
TEST4 "/shared/f" 0 100 0x00000000
LOCK4 "/shared/f" 50 100 0x00000000
EOF
	cat >"$W/contend.txt" <<'EOF'
TEST4 "/shared/f" 50 10 0x00000001
LOCK4 "/shared/f" 0 100 0x00000001
LOCK4 "/shared/f" 149 1 0x00000001
UNLOCK4 "/shared/f" 0 150 0x00000000
TEST4 "/shared/f" 0 1 0x00000001
TEST4 "/shared/f" 150 100 0x00000000
MKDIR3 "/clients" *
MKDIR3 "/clients/client1" 0x00000000
CREATE3 "/clients/client1/mine" 0x00000000
LOCK4 "/clients/client1/mine" 0 100 0x00000000
TEST4 "/clients/client1/mine" 0 100 0x00000000
UNLOCK4 "/clients/client1/mine" 0 100 0x00000000
EOF
	run_db --run-once -B nfs --nfs="$URL1" --enable-nlm -c "$W/hold.txt" 1
	assert_clean_run "the client that holds the lock"
	run_db --run-once -B nfs --nfs="$URL1" --enable-nlm \
		-c "$W/contend.txt" 2
	assert_clean_run "two clients against the held lock"
	table_counts "$W/out" | grep -E '^(LOCK4|TEST4|UNLOCK4) ' | sort \
		>"$W/locks.counts"
	printf '%s\n' "LOCK4 6" "TEST4 8" "UNLOCK4 4" >"$W/expected"
	assert_same_lines "$W/expected" "$W/locks.counts" \
		"lock op counts of the contending run"
	# a wrong expectation is a mismatch naming the NLM4 status found
	printf '%s\n' 'LOCK4 "/shared/f" 0 100 0x00000000' >"$W/wrong.txt"
	run_db --run-once --strict -B nfs --nfs="$URL1" --enable-nlm \
		-c "$W/wrong.txt" 1
	assert_rc 1
	assert_grep "client 0, $W/wrong.txt:1: LOCK4 \"shared/f\": expected" \
		"$W/err" "the mismatch names file:line, op and path"
	assert_grep "got 0x00000001" "$W/err" "NLM4_DENIED found"
}

check "client.txt, 1 client, --enable-nlm: nfs = fileio, no mismatch" \
	locks_as_fileio "$SRCDIR/loadfiles/client.txt" 1
check "client.txt, 3 clients, --enable-nlm: nfs = fileio, no mismatch" \
	locks_as_fileio "$SRCDIR/loadfiles/client.txt" 3
check "Debian client.txt, 3 clients, --enable-nlm: nfs = fileio, no mismatch" \
	locks_as_fileio "$DEBIAN_CLIENT" 3
check "NFSv3 dialect: nfs-locks.txt, NLM4 statuses and counts" lock_sample
check "NFSv3 dialect: a held lock denied to two other clients" lock_conflict
finish
