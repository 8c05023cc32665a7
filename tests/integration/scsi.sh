#!/bin/bash
# scsi.sh - the scsi backend (SG_IO).  Without a device: its usage errors
# (no --scsi, a node that is not sg, a loadfile of another dialect).  With
# one: dbench 5.0's scsi.load and scsi-basic.txt read-only on the node
# DBENCH_TEST_SG names (never one this test did not make or was not
# given: it would be a real disk).  This test makes none: an sg node comes
# from the kernel's iSCSI initiator (iscsiadm) or scsi_debug, and where
# neither is (no iscsi_tcp, no modprobe), the device checks are skipped,
# saying so.  The CDBs themselves: tests/unit/test_scsi_cdb.c; the
# offsets and lbas drawn within a device: tests/unit/test_device_range.c
# (the code -B block, scsi and iscsi share; -B iscsi in iscsi.sh).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

UP=$SRCDIR/tests/upstream-5.0

usage_errors() {
	run_db -B scsi -c "$SRCDIR/loadfiles/scsi-basic.txt" --run-once 1
	assert_usage_error "-B scsi without --scsi"
	assert_grep 'scsi=/dev/sgN is required' "$W/err" "the reason"
	run_db -B scsi --scsi=/dev/null -c "$SRCDIR/loadfiles/scsi-basic.txt" 1
	assert_usage_error "a node that is not sg"
	assert_grep "'/dev/null' is not a SCSI generic \(sg\) node" "$W/err" \
		"the reason"
	run_db -B scsi --scsi=/dev/null --allow-scsi-writes \
		-c "$SRCDIR/loadfiles/scsi-basic.txt" -D "$W" 1
	assert_usage_error "-D with -B scsi"
	mkdir -p "$W/d"
	run_db -B fileio -D "$W/d" -c "$UP/scsi.load" 1
	assert_usage_error "scsi.load with fileio"
	assert_grep 'scsi.load:5: loadfile op TESTUNITREADY needs a backend with the SCSI dialect \(-B scsi or -B iscsi\)' \
		"$W/err" "the refusal names file:line and the backends"
}

sg_node() {
	if [ -n "${DBENCH_TEST_SG:-}" ]; then
		SG=$DBENCH_TEST_SG
		return 0
	fi
	skip "no SCSI generic node here: the kernel has no iSCSI initiator and scsi_debug cannot be loaded (DBENCH_TEST_SG=/dev/sgN runs these checks read-only on that node)"
}

upstream_scsi_load() {
	sg_node
	run_db -B scsi --scsi="$SG" -c "$UP/scsi.load" --run-once 1
	assert_usage_error "scsi.load's WRITE10 without --allow-scsi-writes"
	grep -v WRITE10 "$UP/scsi.load" >"$W/ro.load"
	run_db -B scsi --scsi="$SG" -c "$W/ro.load" --run-once 1
	assert_rc 0
	assert_grep '^ READ10 +4 ' "$W/out" "its four READ10s"
}

basic_sample() {
	sg_node
	run_db -B scsi --scsi="$SG" -c "$SRCDIR/loadfiles/scsi-basic.txt" \
		--run-once 1
	assert_clean_run "scsi-basic.txt"
	assert_grep '^ READ10 +101 ' "$W/out" "101 READ10s"
}

check "-B scsi's usage errors" usage_errors
check "dbench 5.0's scsi.load on an sg node (read-only)" upstream_scsi_load
check "scsi-basic.txt on an sg node" basic_sample
finish
