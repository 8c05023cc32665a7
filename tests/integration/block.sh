#!/bin/bash
# block.sh - the block backend on loop devices over files this test makes:
# dbench 5.0's block loadfiles run unchanged with the loadfile's counts,
# reads are O_DIRECT, a WRITEPATTERN's bytes land where the loadfile says,
# nothing is written without --allow-block-writes, a device that is
# mounted or holds a filesystem is refused (unless --force-device), an
# offset past the device's end is an error naming file:line (before the
# run when known, at the op for relative ones), a random offset keeps
# every term of its form (a '+B' floor is never wrapped below), a
# zero-length READ is a loadfile error, and the device options
# and the dialect are refused where they do not belong.
# Skipped visibly when this host gives no loop devices (not root, no
# losetup, no /dev/loop-control).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

UP=$SRCDIR/tests/upstream-5.0
LOOPS=()
detach_loops() {
	local l
	for l in "${LOOPS[@]}"; do
		losetup -d "$l" 2>/dev/null
	done
}
trap 'detach_loops; it_cleanup' EXIT

# a loop device over a new sparse file of SIZE under $TOP; its name in
# the variable named by $1
new_loop() {
	local var=$1 size=$2 f
	f=$(mktemp "$TOP/img.XXXXXX")
	truncate -s "$size" "$f" || return 1
	local l
	l=$(losetup -f --show "$f" 2>/dev/null) || return 1
	LOOPS+=("$l")
	printf -v "$var" '%s' "$l"
	printf -v "${var}_FILE" '%s' "$f"
}

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null ||
	[ ! -e /dev/loop-control ]; then
	skip_all "no loop devices here (needs root, losetup and /dev/loop-control)"
fi
# 1 GiB: dbench 5.0's block loadfiles address its first GiB
new_loop BIG 1G || skip_all "losetup cannot attach a loop device here"
new_loop SMALL 64M || bail_out "losetup: a second loop device failed"

upstream_read() {
	run_db -B block --block="$BIG" -c "$UP/block1G4krr.load" --run-once 1
	assert_clean_run "block1G4krr.load"
	echo "READ 1000" >"$W/want"
	assert_counts "$W/want" "block1G4krr.load counts"
}

upstream_write() {
	run_db -B block --block="$BIG" -c "$UP/block1G4krw.load" --run-once \
		--allow-block-writes 1
	assert_clean_run "block1G4krw.load"
	echo "WRITE 1000" >"$W/want"
	assert_counts "$W/want" "block1G4krw.load counts"
}

writes_need_flag() {
	local before after
	before=$(md5sum <"$BIG_FILE")
	run_db -B block --block="$BIG" -c "$UP/block1G4krw.load" --run-once 1
	assert_usage_error "a write without --allow-block-writes"
	assert_grep 'block1G4krw.load:9: WRITE writes to .*--allow-block-writes' \
		"$W/err" "the refusal names file:line and the flag"
	after=$(md5sum <"$BIG_FILE")
	assert_eq "$before" "$after" "the device's contents"
}

direct_reads() {
	command -v strace >/dev/null || skip "strace is not installed"
	# LeakSanitizer's exit check cannot attach under strace
	! ldd "$DBENCH" 2>/dev/null | grep -q libasan ||
		skip "a sanitized build (LeakSanitizer does not run under strace)"
	LAST_CMD="strace dbench -B block"
	strace -f -e trace=openat -o "$W/trace" "$DBENCH" -B block \
		--block="$BIG" -c "$SRCDIR/loadfiles/block-randread.txt" \
		--run-once 1 >"$W/out" 2>"$W/err"
	RC=$?
	assert_clean_run "block-randread.txt"
	assert_grep "\"$BIG\", O_RDONLY\|O_DIRECT" "$W/trace" \
		"the device opened read-only with O_DIRECT"
	assert_no_grep "\"$BIG\", O_RDWR" "$W/trace" \
		"no read-write open without the flag"
}

pattern_lands() {
	run_db -B block --block="$SMALL" -c "$SRCDIR/loadfiles/block-seq.txt" \
		--run-once --allow-block-writes 1
	assert_clean_run "block-seq.txt"
	printf 'READ 16\nWRITE 16\n' >"$W/want"
	assert_counts "$W/want" "block-seq.txt counts"
	# each 64 KiB write carries the pattern from its start
	python3 -c '
import sys
p = b"dbench block pattern 0123456789"
chunk = (p * (65536 // len(p) + 1))[:65536]
sys.stdout.buffer.write(chunk * 16)' >"$W/want.bin"
	head -c 1048576 "$SMALL_FILE" >"$W/found.bin"
	cmp -s "$W/want.bin" "$W/found.bin" ||
		fail "the first MiB of the device differs from the pattern"
}

past_end_known() {
	run_db -B block --block="$SMALL" -c "$UP/block1G4krr.load" \
		--run-once 1
	assert_usage_error "an offset past the end"
	assert_grep 'block1G4krr.load:9: READ: a random offset [0-9]+ \+ size 4096 is past the end of .* \(67108864 bytes\)' \
		"$W/err" "the refusal names file:line, offset and size"
}

past_end_relative() {
	printf 'READ 0 4096 *\nLOOP 100000\nREAD +4096 4096 *\nENDLOOP\n' \
		>"$W/seq.load"
	run_db -B block --block="$SMALL" -c "$W/seq.load" --run-once 1
	assert_rc 1
	assert_grep 'seq.load:3: READ: offset 67108864 \+ size 4096 is past the end of' \
		"$W/err" "the fatal line names file:line"
	# the 16384 reads of the device's 64 MiB, and the one refused (an op
	# that fails is counted, as every fatal one is)
	echo "READ 16385" >"$W/want"
	assert_counts "$W/want" "the reads up to the end"
}

# '*/4096+B': every offset at or above B and the op inside the device
# (dbench 5.0 took the draw modulo the device after adding B, so most
# offsets fell below a floor of 60 MiB on a 64 MiB device)
floor_kept() {
	local below_before below_after
	below_before=$(head -c 62914560 "$SMALL_FILE" | md5sum)
	printf 'WRITEPATTERN floor kept\nLOOP 300\nWRITE */4096+62914560 4096 *\nENDLOOP\n' \
		>"$W/floor.load"
	run_db -B block --block="$SMALL" -c "$W/floor.load" --run-once \
		--allow-block-writes 1
	assert_clean_run "WRITE */4096+62914560"
	echo "WRITE 300" >"$W/want"
	assert_counts "$W/want" "the writes"
	below_after=$(head -c 62914560 "$SMALL_FILE" | md5sum)
	assert_eq "$below_before" "$below_after" "the device's first 60 MiB"
	tail -c 4194304 "$SMALL_FILE" | grep -qa 'floor kept' ||
		fail "no write landed in the last 4 MiB"
	# reads: the offsets the kernel was asked for
	command -v strace >/dev/null || skip "strace is not installed"
	! ldd "$DBENCH" 2>/dev/null | grep -q libasan ||
		skip "a sanitized build (LeakSanitizer does not run under strace)"
	printf 'LOOP 300\nREAD */512+62914560 4096 *\nENDLOOP\n' >"$W/rfloor.load"
	LAST_CMD="strace dbench -B block READ */512+62914560"
	strace -f -e trace=pread64 -o "$W/trace" "$DBENCH" -B block \
		--block="$SMALL" -c "$W/rfloor.load" --run-once 1 \
		>"$W/out" 2>"$W/err"
	RC=$?
	assert_clean_run "READ */512+62914560"
	awk 'match($0, /pread64\(.*, 4096, [0-9]+\) = 4096$/) { n++; o = $0; sub(/\) = .*/, "", o); sub(/.*, /, "", o); if (o < 62914560 || o % 512 || o > 67104768) bad++ }
	     END { if (n != 300 || bad) { print n " reads, " bad+0 " out of range"; exit 1 } }' \
		"$W/trace" >"$W/awk.out" ||
		fail "pread64 offsets: $(cat "$W/awk.out")"
}

floor_past_end() {
	printf 'READ 0 4096 *\nREAD */4096+67108864 4096 *\n' >"$W/high.load"
	run_db -B block --block="$SMALL" -c "$W/high.load" --run-once 1
	assert_usage_error "a floor past the device's end"
	assert_grep "high.load:2: READ: a random offset is at least 67108864, past the last offset at which the op fits in '$SMALL' \\(67104768\\)" \
		"$W/err" "the refusal names file:line, the floor and the limit"
}

zero_length() {
	printf 'READ 0 4096 *\nREAD 0 0 *\n' >"$W/zero.load"
	run_db -B block --block="$SMALL" -c "$W/zero.load" --run-once 1
	assert_usage_error "READ 0 0"
	assert_grep 'zero.load:2: READ: size 0 transfers nothing; expected at least 1 byte' \
		"$W/err" "the refusal names file:line"
	assert_no_grep 'NO_MEMORY' "$W/err" "no wrong status"
}

# every WRITE refused by a read-only device (not fatal: the default): the
# run moved none of its data, so exit 1 with one line naming the op and
# the error, and the history keeps it as failed; its READs still count
all_writes_failed() {
	local ro
	command -v sqlite3 >/dev/null || skip "sqlite3 is not installed"
	ro=$(losetup -r -f --show "$SMALL_FILE") ||
		skip "losetup cannot attach a read-only loop device"
	trap "losetup -d '$ro'" EXIT
	printf 'LOOP 20\nWRITE */4096 4096 0x00000000\nREAD */4096 4096 0x00000000\nENDLOOP\n' \
		>"$W/ro.load"
	run_db -B block --block="$ro" -c "$W/ro.load" --run-once \
		--allow-block-writes --label ro --history "$W/h.sqlite" 1
	assert_rc 1
	assert_grep '^ WRITE +20 ' "$W/out" "the 20 WRITEs counted"
	assert_eq 1 "$(grep -c '^dbench: every' "$W/err")" "lines naming a failed kind"
	assert_grep "^dbench: every WRITE failed \\(20 of 20 in the run\\), first: client 0, $W/ro.load:2: expected NT_STATUS_OK, got NT_STATUS_[A-Z_]+: (Operation not permitted|Read-only file system); the run is not a success\$" \
		"$W/err" "the line names the op, file:line and the error"
	assert_eq 1 "$(sqlite3 "$W/h.sqlite" 'SELECT exit_status FROM runs')" \
		"the saved run's exit status"
}

mounted_refused() {
	local fs
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is not installed"
	new_loop fs 32M || skip "no third loop device"
	# (this check runs in a subshell: its loop device is its own to detach)
	trap "losetup -d '$fs'" EXIT
	mkfs.ext4 -q -F "$fs" || fail "mkfs.ext4 failed"
	mkdir -p "$W/mnt"
	LAST_CMD="unshare -m: mount, dbench -B block --allow-block-writes"
	unshare -m sh -c "mount '$fs' '$W/mnt' || exit 99; '$DBENCH' -B block \
		--block='$fs' -c '$UP/block1G4krw.load' --run-once \
		--allow-block-writes 1; rc=\$?; umount '$W/mnt'; exit \$rc" \
		>"$W/out" 2>"$W/err"
	RC=$?
	[ "$RC" -ne 99 ] || skip "cannot mount ext4 in a mount namespace here"
	assert_usage_error "a mounted device"
	assert_grep "is mounted on $W/mnt" "$W/err" "the mount point is named"
	assert_grep 'holds a filesystem signature \(ext4\)' "$W/err" \
		"the signature is named"
	assert_grep 'force-device' "$W/err" "the way out is named"
	# unmounted, the signature alone refuses it
	run_db -B block --block="$fs" -c "$UP/block1G4krw.load" --run-once \
		--allow-block-writes 1
	assert_usage_error "a device holding ext4"
	assert_no_grep 'mounted' "$W/err" "not mounted here"
	# --force-device: the user said so (the file is this test's own)
	printf 'WRITE 0 4096 0x00000000\n' >"$W/one.load"
	run_db -B block --block="$fs" -c "$W/one.load" --run-once \
		--allow-block-writes --force-device 1
	assert_clean_run "--force-device"
}

misplaced_options() {
	run_db -B fileio -c "$SRCDIR/loadfiles/block-randread.txt" \
		--allow-scsi-writes 1
	assert_usage_error "--allow-scsi-writes with fileio"
	assert_grep "applies to the device backends" "$W/err" "the reason"
	run_db -B block --block="$BIG" -D "$W" \
		-c "$SRCDIR/loadfiles/block-randread.txt" 1
	assert_usage_error "-D with -B block"
	run_db -B block -c "$SRCDIR/loadfiles/block-randread.txt" 1
	assert_usage_error "-B block without --block"
	assert_grep 'block=DEV is required' "$W/err" "the reason"
	run_db -B block --block="$SMALL_FILE" \
		-c "$SRCDIR/loadfiles/block-randread.txt" 1
	assert_usage_error "a regular file as --block"
	assert_grep 'is not a block device' "$W/err" "the reason"
}

dialect_refused() {
	mkdir -p "$W/d"
	run_db -B fileio -D "$W/d" -c "$SRCDIR/loadfiles/block-randread.txt" 1
	assert_usage_error "a block loadfile with fileio"
	assert_grep 'block-randread.txt:16: loadfile op READ needs a backend with the block dialect \(-B block\)' \
		"$W/err" "the refusal names file:line and the backend"
	run_db -B block --block="$BIG" -c "$SRCDIR/loadfiles/client.txt" 1
	assert_usage_error "client.txt with -B block"
	printf 'READ 0 4096 *\nNTCreateX "\\\\f" 0 1 1 *\n' >"$W/mixed.load"
	run_db -B block --block="$BIG" -c "$W/mixed.load" 1
	assert_usage_error "a loadfile mixing dialects"
	assert_grep 'mixed.load:2: .*the block dialect' "$W/err" "the reason"
}

check "dbench 5.0's block1G4krr.load, unchanged: 1000 READs" upstream_read
check "dbench 5.0's block1G4krw.load with --allow-block-writes: 1000 WRITEs" upstream_write
check "no write without --allow-block-writes; the device unchanged" writes_need_flag
check "reads open the device read-only with O_DIRECT" direct_reads
check "WRITEPATTERN's bytes land at the loadfile's offsets" pattern_lands
check "a random offset past the end: refused before the run, file:line" past_end_known
check "a relative offset past the end: fatal at the op, file:line, exit 1" past_end_relative
check "'*/4096+B': every offset at or above B, inside the device" floor_kept
check "'*/4096+B' with B past the end: refused before the run, file:line" floor_past_end
check "every WRITE failed on a read-only device: exit 1, one line, saved as failed" all_writes_failed
check "READ 0 0: a loadfile error naming file:line, not a status" zero_length
check "a mounted device or one holding ext4 refused (--force-device overrides)" mounted_refused
check "device options, -D and --block misused: usage errors" misplaced_options
check "block loadfiles need -B block; -B block needs them" dialect_refused
finish
