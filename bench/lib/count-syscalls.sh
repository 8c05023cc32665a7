#!/bin/bash
# bench/lib/count-syscalls.sh - the "same work" check of
# bench/engine/same-calls.sh: trace one pass of a
# loadfile under dbench 4.00 and under ours, with the same client count,
# and compare the system calls each client issued, per syscall.
#
# usage: bench/lib/count-syscalls.sh OURS_DBENCH REF_DBENCH LOADFILE NCLIENTS OUTDIR
#
# 4.00 has no --run-once, so a marker op is appended to the loadfile: a
# QUERY_PATH_INFORMATION of a name that exists nowhere.  Every client is
# traced into its own file (strace -ff); a client's count runs from its
# first system call to the stat of the marker, so start-up, a second pass
# and the cleanup are left out on both sides.  4.00 is stopped once every
# client has reached the marker.
#
# Prints, per syscall, the total over all clients for 4.00 and ours, and the
# ratio; then "worst N.NN% SYSCALL" over the syscalls listed below
# (open/openat, close, pread64, pwrite64, fsync, stat family, getdents64,
# rename, unlink, mkdir, fcntl, utime family) and last "rmdir REF OURS":
# rmdir, also listed, apart, because 4.00's Deltree removes nothing.  Our
# openat2 (resolving a directory without following symlinks, once per
# directory and client) counts as an open.
set -u
OURS=$1 REF=$2 LF=$3 N=$4 OUT=$5
MARK=zz_end_of_pass_marker
mkdir -p "$OUT"
TGT=$(mktemp -d /dev/shm/dbench-bench-sys.XXXXXX) || exit 1
trap 'rm -rf "$TGT"' EXIT

# the loadfile with the marker at its end (quoted path, 4.00 spelling; in
# the target directory itself, which exists whatever the loadfile removed)
{
	cat "$LF"
	printf 'QUERY_PATH_INFORMATION "\\%s" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n' "$MARK"
} >"$OUT/marked.txt"

# count TRACEPREFIX: per client trace holding the marker, syscall counts up
# to it; output "syscall total" summed over those clients
count() {
	local prefix=$1 files
	files=$(grep -l "$MARK" "$prefix".* 2>/dev/null)
	[ -n "$files" ] || return 1
	awk -v mark="$MARK" '
		FNR == 1 { done = 0 }
		done { next }
		index($0, mark) { done = 1 }
		{
			# "name(" at the start, or "<... name resumed>"
			if (match($0, /^<\.\.\. [a-z0-9_]+ resumed>/)) next
			if (!match($0, /^[a-z0-9_]+\(/)) next
			s = substr($0, 1, RLENGTH - 1)
			# one name per operation, whichever call makes it
			if (s == "unlinkat")
				s = index($0, "AT_REMOVEDIR") ? "rmdir" : "unlink"
			else if (s == "openat" || s == "open" || s == "openat2")
				s = "open/openat"
			else if (s == "mkdirat") s = "mkdir"
			else if (s == "renameat" || s == "renameat2") s = "rename"
			else if (s == "fstatfs" || s == "statfs") s = "statfs/fstatfs"
			else if (s ~ /^(stat|lstat|fstat|newfstatat|statx|fstatat64)$/)
				s = "stat_family"
			else if (s ~ /^(utime|utimes|utimensat|futimesat)$/)
				s = "utime_family"
			n[s]++
		}
		END { for (s in n) print s, n[s] }' $files | sort
	echo "$(echo "$files" | wc -l) clients" >&2
}

# ours: one pass, then it stops by itself
rm -rf "$TGT"/*
strace -f -ff -o "$OUT/ours" "$OURS" --run-once -c "$OUT/marked.txt" \
	-D "$TGT" "$N" >"$OUT/ours.out" 2>&1
count "$OUT/ours" >"$OUT/ours.counts" 2>"$OUT/ours.nclients" || {
	echo "no client of ours reached the marker (see $OUT/ours.out)"; exit 1; }

# 4.00: runs until we stop it, once every client has passed the marker
have_ref=0
if [ -x "$REF" ]; then
	have_ref=1
	rm -rf "$TGT"/*
	setsid strace -f -ff -o "$OUT/ref" "$REF" -t 3600 -c "$OUT/marked.txt" \
		-D "$TGT" "$N" >"$OUT/ref.out" 2>&1 &
	spid=$!
	while kill -0 "$spid" 2>/dev/null; do
		sleep 1
		got=$(grep -l "$MARK" "$OUT"/ref.* 2>/dev/null | grep -c .)
		[ "$got" -ge "$N" ] && break
	done
	kill -TERM -- -"$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	count "$OUT/ref" >"$OUT/ref.counts" 2>"$OUT/ref.nclients" || {
		echo "no 4.00 client reached the marker (see $OUT/ref.out)"; exit 1; }
fi
[ -n "${KEEP_TRACES:-}" ] || rm -f "$OUT"/ours.[0-9]* "$OUT"/ref.[0-9]*

if [ $have_ref = 0 ]; then
	printf '%-20s %12s\n' syscall ours
	cat "$OUT/ours.counts" | awk '{ printf "%-20s %12d\n", $1, $2 }'
	echo "worst SKIPPED (no reference)"
	exit 0
fi
join -a1 -a2 -e 0 -o 0,1.2,2.2 "$OUT/ref.counts" "$OUT/ours.counts" | awk '
	BEGIN {
		split("open/openat close pread64 pwrite64 fsync fdatasync " \
		      "stat_family getdents64 rename unlink mkdir rmdir fcntl " \
		      "utime_family", l, " ")
		for (i in l) listed[l[i]] = 1
		printf "%-20s %12s %12s %8s\n", "syscall", "4.00", "ours", "ours/4.00"
		worst = -1
	}
	{
		r = $2 > 0 ? $3 / $2 : ($3 > 0 ? 99 : 1)
		printf "%-20s %12d %12d %8.3f%s\n", $1, $2, $3, r,
			listed[$1] ? "" : "  (not in the list)"
		# rmdir apart: 4.00'"'"'s fileio Deltree removes nothing (its
		# rmdir count is 0 whatever the loadfile), ours removes the tree
		if ($1 == "rmdir") {
			rm_ref = $2; rm_ours = $3
		} else if (listed[$1]) {
			d = r > 1 ? r - 1 : 1 - r
			if (d > worst) { worst = d; ws = $1 }
		}
	}
	END {
		printf "worst %.2f%% %s\n", worst * 100, ws
		printf "rmdir %d %d\n", rm_ref, rm_ours
	}'
