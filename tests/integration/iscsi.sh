#!/bin/bash
# iscsi.sh - the iscsi backend against a userspace target (tgt) this test
# starts on 127.0.0.1 in its own namespaces, with a LUN over a file it
# made: dbench 5.0's iscsi loadfiles run unchanged with the loadfile's
# counts, writes need --allow-scsi-writes, a WRITEPATTERN written through
# iSCSI reads back identical through a loop device over the same file, a
# random lba keeps its '+B' floor, a wrong IQN is a usage error, two initiators meet a reservation conflict
# with the statuses 5.0's reservation loadfiles expect, a reservation is
# released at the end also after Ctrl-C, and a target killed mid-run
# ends the run at once with a clear line and exit 1.
# Skipped visibly without libiscsi, tgt or a network namespace.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
if "${DBENCH:-$SRCDIR/dbench}" -B iscsi --iscsi=iscsi://127.0.0.1/x/1 1 2>&1 |
	grep -q "built without"; then
	echo "1..0 # SKIP dbench built without libiscsi (-B iscsi unavailable)"
	exit 0
fi
. "$(dirname "$0")/lib_tgtd.sh"
# (before lib.sh: its temporary directory is made inside the namespace)
tgtd_enter_netns "$0" "$@"
. "$(dirname "$0")/lib.sh"

UP=$SRCDIR/tests/upstream-5.0
IQN=iqn.2026-12.org.dbench:test
IT_TIMEOUT=60
LUN=$TOP/lun.img
truncate -s 512M "$LUN" || bail_out "cannot make the LUN's file"
if ! tgtd_start "$IQN" "$LUN"; then
	show_file "$TOP/tgtd.log" "tgtd log"
	tgtd_stop
	bail_out "tgtd did not start"
fi
trap 'tgtd_stop; it_cleanup' EXIT
URL=$TGTD_URL

read10_same() {
	run_db -B iscsi --iscsi="$URL" -c "$UP/iscsi-read10-same.load" \
		--warmup 0 -t 2 1
	assert_clean_run "iscsi-read10-same.load"
	assert_grep '^ TESTUNITREADY +1 ' "$W/out" "one TESTUNITREADY"
	assert_grep '^ READ10 +[1-9][0-9]* ' "$W/out" "READ10s"
}

read10_others() {
	local f
	for f in iscsi-read10-random.load iscsi-read10-sequential.load; do
		run_db -B iscsi --iscsi="$URL" -c "$UP/$f" --warmup 0 -t 2 1
		assert_clean_run "$f"
		assert_grep '^ READ10 +[1-9][0-9]* ' "$W/out" "$f: READ10s"
	done
}

iscsi_load() {
	run_db -B iscsi --iscsi="$URL" -c "$UP/iscsi.load" --run-once \
		--allow-scsi-writes 1
	cat >"$W/want" <<-EOF
	PROUT 8
	READ10 5
	READ16 1
	READCAPACITY10 1
	SYNCHRONIZECACHE10 1
	TESTUNITREADY 1
	WRITE10 1
	WRITE16 1
	EOF
	assert_counts "$W/want" "iscsi.load counts"
	# tgt refuses SYNCHRONIZE CACHE with SYNC_NV and IMMED set (CHECK
	# CONDITION, ILLEGAL REQUEST); every other status is 5.0's
	cat "$W/out" "$W/err" >"$W/all"
	assert_grep 'SYNCHRONIZECACHE10 +1 +first: client 0, .*iscsi.load:53: expected 0x00, got 0x02' \
		"$W/all" "the one mismatch"
	[ "$(grep -c 'first:' "$W/all")" -eq 1 ] ||
		fail "expected one kind of mismatch, found $(grep -c 'first:' "$W/all")"
}

writes_need_flag() {
	run_db -B iscsi --iscsi="$URL" -c "$UP/iscsi.load" --run-once 1
	assert_usage_error "a WRITE10 without --allow-scsi-writes"
	assert_grep 'iscsi.load:45: WRITE10 writes to .*--allow-scsi-writes' \
		"$W/err" "the refusal names file:line and the flag"
}

pattern_both_paths() {
	local loop
	command -v losetup >/dev/null && [ -e /dev/loop-control ] ||
		skip "no loop devices here"
	run_db -B iscsi --iscsi="$URL" -c "$SRCDIR/loadfiles/iscsi-seq.txt" \
		--run-once --allow-scsi-writes 1
	assert_clean_run "iscsi-seq.txt"
	python3 -c '
import sys
p = b"dbench block pattern 0123456789"
chunk = (p * (65536 // len(p) + 1))[:65536]
sys.stdout.buffer.write(chunk * 16)' >"$W/want.bin"
	loop=$(losetup -f --show -r "$LUN") || skip "losetup cannot attach"
	trap "losetup -d '$loop'" EXIT
	dd if="$loop" of="$W/found.bin" bs=65536 count=16 iflag=direct \
		2>/dev/null
	cmp -s "$W/want.bin" "$W/found.bin" ||
		fail "the first MiB read through $loop differs from the pattern written through iSCSI"
	# and back: the block backend reads the same device to its end
	printf 'READ 0 65536 0x00000000\nLOOP 15\nREAD +65536 65536 0x00000000\nENDLOOP\n' \
		>"$W/rd.load"
	run_db -B block --block="$loop" -c "$W/rd.load" --run-once 1
	assert_clean_run "-B block over the LUN's file"
}

# '*/8+B' (B in blocks): every WRITE10 at or above B, inside the LUN
# (the draw the block backend shares; dbench 5.0 wrapped below B)
floor_kept() {
	local before after
	before=$(head -c 532676608 "$LUN" | md5sum)
	printf 'WRITEPATTERN floor kept\nLOOP 200\nWRITE10 */8+1040384 8 0 0 0x00\nENDLOOP\n' \
		>"$W/floor.load"
	run_db -B iscsi --iscsi="$URL" -c "$W/floor.load" --run-once \
		--allow-scsi-writes 1
	assert_clean_run "WRITE10 */8+1040384"
	assert_grep '^ WRITE10 +200 ' "$W/out" "200 WRITE10s"
	after=$(head -c 532676608 "$LUN" | md5sum)
	assert_eq "$before" "$after" "the LUN's first 508 MiB"
	tail -c 4194304 "$LUN" | grep -qa 'floor kept' ||
		fail "no WRITE10 landed in the last 4 MiB"
}

wrong_iqn() {
	run_db -B iscsi --iscsi="iscsi://127.0.0.1:3260/iqn.2026-12.org.dbench:nope/1" \
		-c "$SRCDIR/loadfiles/scsi-basic.txt" --run-once 1
	assert_usage_error "a wrong IQN"
	assert_grep 'login failed' "$W/err" "the reason"
	run_db -B iscsi --iscsi="iscsi://127.0.0.1:3261/$IQN/1" \
		-c "$SRCDIR/loadfiles/scsi-basic.txt" --run-once 1
	assert_usage_error "no target on the port"
}

basic_sample() {
	run_db -B iscsi --iscsi="$URL" -c "$SRCDIR/loadfiles/scsi-basic.txt" \
		--run-once 1
	assert_clean_run "scsi-basic.txt"
	assert_grep '^ READ10 +101 ' "$W/out" "101 READ10s"
	assert_grep '^ PRIN +2 ' "$W/out" "2 PRINs"
}

# dbench 5.0's two reservation loadfiles side by side: the first holds a
# write-exclusive reservation, the second's RESERVE meets 0x18
conflict() {
	LAST_CMD="dbench -B iscsi reserve_parallel_1.load (background)"
	"$DBENCH" -B iscsi --iscsi="$URL" --iscsi-initiatorname=iqn.2026-12.org.dbench:a \
		-c "$UP/iscsi/reserve_parallel_1.load" --warmup 0 -t 3 1 \
		>"$W/one.out" 2>"$W/one.err" &
	local one=$!
	sleep 1
	run_db -B iscsi --iscsi="$URL" --iscsi-initiatorname=iqn.2026-12.org.dbench:b \
		-c "$UP/iscsi/reserve_parallel_2.load" --run-once 1
	assert_clean_run "reserve_parallel_2.load beside _1"
	assert_grep '^ PROUT +4 ' "$W/out" "its four PROUTs"
	wait "$one"
	RC=$?
	cp "$W/one.out" "$W/out"
	cp "$W/one.err" "$W/err"
	assert_clean_run "reserve_parallel_1.load"
	# _1 was stopped holding its reservation: released at its end
	run_db -B iscsi --iscsi="$URL" --iscsi-initiatorname=iqn.2026-12.org.dbench:b \
		-c "$SRCDIR/loadfiles/iscsi-reserve.txt" --run-once 1
	assert_clean_run "a reservation after _1 ended"
}

released_after_ctrl_c() {
	LAST_CMD="dbench -B iscsi reserve_parallel_1.load, SIGINT"
	"$DBENCH" -B iscsi --iscsi="$URL" --iscsi-initiatorname=iqn.2026-12.org.dbench:a \
		-c "$UP/iscsi/reserve_parallel_1.load" --warmup 0 -t 30 1 \
		>"$W/one.out" 2>"$W/one.err" &
	local one=$!
	sleep 1
	kill -INT "$one"
	wait "$one"
	RC=$?
	assert_rc 130
	run_db -B iscsi --iscsi="$URL" --iscsi-initiatorname=iqn.2026-12.org.dbench:b \
		-c "$SRCDIR/loadfiles/iscsi-reserve.txt" --run-once 1
	assert_clean_run "a reservation after _1 was interrupted"
}

# CHAP: the target asks for a logon; a wrong one is a usage error that
# never shows the password
chap() {
	local host=${URL#iscsi://}
	tgtadm --lld iscsi --op new --mode account --user dbu \
		--password s3cret-pass-42 &&
		tgtadm --lld iscsi --op bind --mode account --tid 1 \
			--user dbu || skip "tgtadm cannot add a CHAP account"
	run_db -B iscsi --iscsi="iscsi://dbu%wrong-pass-77@$host" \
		-c "$SRCDIR/loadfiles/scsi-basic.txt" --run-once 1
	local wrong_rc=$RC
	cp "$W/err" "$W/wrong.err"
	run_db -B iscsi --iscsi="iscsi://dbu%s3cret-pass-42@$host" \
		-c "$SRCDIR/loadfiles/scsi-basic.txt" --run-once 1
	local right_rc=$RC
	cp "$W/out" "$W/right.out"
	tgtadm --lld iscsi --op unbind --mode account --tid 1 --user dbu
	tgtadm --lld iscsi --op delete --mode account --user dbu
	RC=$wrong_rc
	cp "$W/wrong.err" "$W/err"
	assert_usage_error "a wrong CHAP password"
	assert_grep 'login failed' "$W/err" "the reason"
	assert_no_grep 'wrong-pass-77' "$W/err" "the password is not shown"
	RC=$right_rc
	cp "$W/right.out" "$W/out"
	assert_clean_run "the right CHAP password"
}

# the LUN deleted mid-run: the target answers CHECK CONDITION (LOGICAL
# UNIT NOT SUPPORTED), a fault: the client stops, naming the sense
lun_removed() {
	LAST_CMD="dbench -B iscsi -t 20, the LUN deleted after 1 s"
	timeout -k 5 30 "$DBENCH" -B iscsi --iscsi="$URL" \
		-c "$UP/iscsi-read10-same.load" --warmup 0 -t 20 1 \
		>"$W/out" 2>"$W/err" &
	local db=$!
	sleep 1
	# (tgt refuses while a command is in flight: try again)
	for i in $(seq 1 100); do
		tgtadm --lld iscsi --op delete --mode logicalunit --tid 1 \
			--lun 1 >"$W/tgtadm.out" 2>&1 && break
	done
	wait "$db"
	RC=$?
	tgtadm --lld iscsi --op new --mode logicalunit --tid 1 --lun 1 \
		-b "$LUN" >>"$W/tgtadm.out" 2>&1 ||
		fail "cannot put the LUN back: $(tr '\n' ' ' <"$W/tgtadm.out")"
	[ "$RC" -ne 124 ] && [ "$RC" -ne 137 ] ||
		fail "dbench still ran 30 s after its LUN was deleted"
	assert_rc 1
	assert_grep 'iscsi-read10-same.load:[0-9]+: READ10: expected 0x00, got 0x02: .*sense key 0x05 \(ILLEGAL REQUEST\), asc/ascq 0x25' \
		"$W/err" "the line names file:line, the op and the sense"
}

# the target stopped (SIGSTOP): silent, not gone; the command times out
target_stopped() {
	LAST_CMD="dbench -B iscsi -t 2, tgtd stopped after 1 s"
	timeout -k 5 30 "$DBENCH" -B iscsi --iscsi="$URL" \
		-c "$UP/iscsi-read10-same.load" --warmup 0 -t 2 1 \
		>"$W/out" 2>"$W/err" &
	local db=$!
	sleep 1
	kill -STOP "$TGTD_PID"
	wait "$db"
	RC=$?
	kill -CONT "$TGTD_PID"
	[ "$RC" -ne 124 ] && [ "$RC" -ne 137 ] ||
		fail "dbench still ran 30 s after its target stopped"
	assert_rc 1
	assert_grep "iscsi-read10-same.load:[0-9]+: READ10: iscsi://127.0.0.1:3260/$IQN/1: " \
		"$W/err" "the line names file:line, the op and the URL"
}

# last: the target goes away for good
target_killed() {
	LAST_CMD="dbench -B iscsi -t 20, tgtd killed after 1 s"
	timeout -k 5 30 "$DBENCH" -B iscsi --iscsi="$URL" \
		-c "$UP/iscsi-read10-same.load" --warmup 0 -t 20 1 \
		>"$W/out" 2>"$W/err" &
	local db=$!
	sleep 1
	kill -9 "$TGTD_PID"
	wait "$db"
	RC=$?
	[ "$RC" -ne 124 ] && [ "$RC" -ne 137 ] ||
		fail "dbench still ran 30 s after its target was killed"
	assert_rc 1
	assert_grep "iscsi-read10-same.load:[0-9]+: READ10: iscsi://127.0.0.1:3260/$IQN/1: " \
		"$W/err" "the line names file:line, the op and the URL"
	assert_grep '^ READ10 ' "$W/out" "the table still comes"
}

check "dbench 5.0's iscsi-read10-same.load, unchanged: clean" read10_same
check "its random and sequential READ10 loadfiles: clean" read10_others
check "dbench 5.0's iscsi.load: its counts; tgt's one refusal" iscsi_load
check "no write without --allow-scsi-writes" writes_need_flag
check "a pattern written through iSCSI reads back identical through a loop device" pattern_both_paths
check "'*/8+B': every WRITE10 at or above block B, inside the LUN" floor_kept
check "a wrong IQN or port: a usage error" wrong_iqn
check "scsi-basic.txt (INQUIRY, REPORTLUNS, READ6/10/16, PRIN): clean" basic_sample
check "two initiators: the reservation conflict 5.0's loadfiles expect, released at the end" conflict
check "a reservation released after Ctrl-C" released_after_ctrl_c
check "CHAP: a wrong password refused without showing it, the right one logs in" chap
check "the LUN deleted mid-run: a clear line, exit 1" lun_removed
check "the target stopped mid-run: the command times out, exit 1" target_stopped
check "the target killed mid-run: a clear line, exit 1, no hang" target_killed
finish
