#!/bin/bash
# smb.sh - -B smb against a real smbd started here on 127.0.0.1 (lib_smbd.sh:
# throwaway config, private directory, share and logon): the same op
# counts and final trees as -B fileio on the same loadfiles, every SMB2/3
# dialect forced, encryption, the errors a user meets (exit 2 before any
# client is forked), a server killed mid-run (exit 1, no orphans) and the
# password kept out of every output, the JSON and ps.
#
# The count comparisons replay the first SMB_LINES lines (default 20000)
# of each client.txt, so that make check stays short; DBENCH_SMB_FULL=1
# replays them whole.  Skipped (visibly) when dbench was built without
# libsmbclient or when Samba is not installed.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_smbd.sh"
. "$(dirname "$0")/lib_upstream5.sh"

DEBIAN_CLIENT=/usr/share/dbench/client.txt
: "${SMB_LINES:=20000}"
IT_TIMEOUT=600

# the server of most checks; each check that kills or restarts one makes
# its own
SKIP_ALL=
if "$DBENCH" -B smb 1 2>&1 | grep -q 'built without libsmbclient'; then
	SKIP_ALL="dbench was built without libsmbclient"
else
	# (msdfs root: native_dfs's referral, a link it plants and removes)
	SMBD_GLOBAL="	smb encrypt = if_required
	msdfs root = yes" \
		smbd_start "$TOP/srv" >"$TOP/smbd.msg"
	case $? in
	0) ;;
	77) SKIP_ALL=$(cat "$TOP/smbd.msg") ;;
	*) cat "$TOP/smbd.msg"; bail_out "smbd did not start" ;;
	esac
fi
trap 'smbd_stop; it_cleanup' EXIT
SHARE="//127.0.0.1:$SMBD_PORT/share"
LOGON="--smb-user=$SMBD_USER%$SMBD_PASS"

need_smb() {
	[ -z "$SKIP_ALL" ] || skip "$SKIP_ALL"
}

# empty_share: what a previous check left in the share goes.
empty_share() {
	rm -rf "${SMBD_SHARE:?}"/* "${SMBD_SHARE:?}"/.[!.]* 2>/dev/null
	return 0
}

# prefix LOADFILE: its first SMB_LINES lines in $W/lf.txt (or all of it).
prefix() {
	if [ "${DBENCH_SMB_FULL:-0}" = 1 ]; then
		cp "$1" "$W/lf.txt"
	else
		head -n "$SMB_LINES" "$1" >"$W/lf.txt"
	fi
}

# same_as_fileio LOADFILE NCLIENTS: op counts and final trees equal
# (BOTH_ARGS: options of both runs; SMB_AFTER: a command run on the
# share's tree before it is emptied).
same_as_fileio() {
	need_smb
	prefix "$1"
	mkdir "$W/t"
	run_db --run-once -t 600 --skip-cleanup -B fileio -c "$W/lf.txt" \
		"${BOTH_ARGS[@]}" -D "$W/t" "$2"
	assert_clean_run "-B fileio x $2"
	table_counts "$W/out" | sort >"$W/fileio.counts"
	empty_share
	run_db --run-once -t 600 --skip-cleanup -B smb --smb-share="$SHARE" \
		"$LOGON" "${SMB_ARGS[@]}" "${BOTH_ARGS[@]}" -c "$W/lf.txt" "$2"
	assert_clean_run "-B smb ${SMB_ARGS[*]} x $2"
	table_counts "$W/out" | sort >"$W/smb.counts"
	[ -s "$W/smb.counts" ] || fail "-B smb: no operation table"
	assert_same_lines "$W/fileio.counts" "$W/smb.counts" \
		"op counts, smb vs fileio"
	# both record the trees --skip-cleanup kept (clients/.dbench-kept)
	tree_listing "$W/t" >"$W/fileio.tree"
	tree_listing "$SMBD_SHARE" >"$W/smb.tree"
	assert_same_lines "$W/fileio.tree" "$W/smb.tree" \
		"final trees, share vs fileio's directory"
	[ -z "${SMB_AFTER:-}" ] || "$SMB_AFTER"
	empty_share
}

# under check-sanitize, the 3-client replay runs the 1-client one's code
one_client_sanitized() {
	[ "$1" -ne 1 ] ||
		sanitizers_skip "the 3-client replay of the same lines runs this code"
}

ours() {
	one_client_sanitized "$1"
	same_as_fileio "$SRCDIR/loadfiles/client.txt" "$1"
}
SMB_ARGS=()
BOTH_ARGS=()

# native CHECK ARGS...: CHECK (same_as_fileio, keep_going_reconnects,
# ...) with the project's own SMB2 client (--smb-client=native): the same
# counts (every status as the loadfile expects, from the server itself),
# trees and behaviour
native() {
	SMB_ARGS=(--smb-client=native)
	"$@"
}

# libsmb CHECK ARGS...: CHECK with libsmbclient (--smb-client=libsmbclient,
# the fallback for SMB1, Kerberos and DFS referrals, no longer the
# default): its counts, trees and behaviour stay what they were
libsmb() {
	SMB_ARGS=(--smb-client=libsmbclient)
	"$@"
}

# the native client in every dialect, signed, and encrypted (AES-CCM in
# 3.0/3.0.2, the server's choice of AES-GCM/CCM in 3.1.1)
native_dialects() {
	need_smb
	for p in SMB2_02 SMB2_10 SMB3_00 SMB3_02 SMB3_11; do
		run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
			--smb-client=native --smb-protocol="$p" --smb-sign \
			-c "$DATA/basic.txt" 1
		assert_clean_run "--smb-client=native --smb-protocol=$p --smb-sign"
	done
	for p in SMB3_00 SMB3_02 SMB3_11; do
		run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
			--smb-client=native --smb-protocol="$p" --smb-encrypt \
			-c "$DATA/basic.txt" 1
		assert_clean_run "--smb-client=native --smb-protocol=$p --smb-encrypt"
	done
	# several chunks in flight, each signed or encrypted: HMAC-SHA256
	# (2.1), AES-CMAC (3.1.1), AES-CCM (3.0), AES-GCM (3.1.1)
	for p in "SMB2_10 --smb-sign" "SMB3_11 --smb-sign" \
		"SMB3_00 --smb-encrypt" "SMB3_11 --smb-encrypt"; do
		run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
			--smb-client=native --smb-protocol=${p% *} "${p#* }" \
			-c "$DATA/smb_flight.txt" 1
		assert_clean_run "smb_flight.txt, --smb-client=native --smb-protocol=$p"
	done
	run_db -B smb --smb-share="$SHARE" "$LOGON" --smb-client=other \
		-c "$DATA/basic.txt" 1
	assert_rc 2
	assert_grep "'other' is not native or libsmbclient" "$W/err" \
		"--smb-client=other: message"
	run_db -B smb --smb-share="$SHARE" "$LOGON" --smb-client=native \
		--smb-in-flight=65 -c "$DATA/basic.txt" 1
	assert_rc 2
	assert_grep "^dbench: --smb-in-flight: '65' is not a number of requests from 1 to 64\$" \
		"$W/err" "--smb-in-flight=65: message"
	# (libsmbclient pinned: the default is the native client)
	run_db -B smb --smb-share="$SHARE" "$LOGON" --smb-in-flight=4 \
		--smb-client=libsmbclient -c "$DATA/basic.txt" 1
	assert_rc 2
	assert_grep "--smb-in-flight needs --smb-client=native\$" "$W/err" \
		"--smb-in-flight without --smb-client=native: message"
}

# -x's attribute of the file smb_opts.txt keeps: on the server's file, as
# the EA dbench.DosAttrib (Samba's user.dbench.DosAttrib), 44 bytes
ea_on_share() {
	assert_eq 44 "$(python3 -c 'import os, sys
print(len(os.getxattr(sys.argv[1], "user.dbench.DosAttrib")))' \
		"$SMBD_SHARE/clients/client0/d/g" 2>&1)" "-x's EA on the share"
}

# -x, --stat-check and --one-byte-write-fix with the native client:
# smb_opts.txt's counts, statuses (no mismatch) and tree = fileio's with
# the same option; -x's attribute is on the server's file
native_options() {
	local o
	SMB_ARGS=(--smb-client=native)
	for o in -x --stat-check --one-byte-write-fix; do
		BOTH_ARGS=("$o")
		SMB_AFTER=
		[ "$o" != -x ] || SMB_AFTER=ea_on_share
		same_as_fileio "$DATA/smb_opts.txt" 1
		rm -rf "$W/t"
	done
}

debian() {
	[ -r "$DEBIAN_CLIENT" ] || skip "$DEBIAN_CLIENT not installed"
	one_client_sanitized "$1"
	same_as_fileio "$DEBIAN_CLIENT" "$1"
}

# dbench 5.0's smb dialect: our sample over smbd, the counts and tree
# fileio gives, and the counts the sample says (3 clients; no mismatch)
smb5_sample() {
	same_as_fileio "$SRCDIR/loadfiles/smb-basic.txt" 3
	cat >"$W/want" <<-EOF
	OPEN 12
	READ 9
	WRITE 15
	CLOSE 6
	MKDIR 9
	RMDIR 9
	UNLINK 6
	READDIR 6
	DELTREE 6
	EOF
	table_counts "$W/out" >"$W/got"
	assert_same_lines "$W/want" "$W/got" "smb-basic.txt's op counts"
	# the client directories were made, and stay with --skip-cleanup
	empty_share
	run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
		"${SMB_ARGS[@]}" -c "$SRCDIR/loadfiles/smb-basic.txt" 2
	assert_clean_run "smb-basic.txt x 2, cleaned up"
	assert_empty_dir "$SMBD_SHARE"
}

# dbench 5.0's smb path shapes ("/client1/test.txt", "/clients/client1/
# work") over smbd: the tree fileio leaves, and the one 5.0's rules give
# (from the share's root, "client1" the client's name)
smb5_paths() {
	local n
	same_as_fileio "$DATA/smb5_paths.txt" 3
	{
		echo "clients d"
		for n in 0 1 2; do
			printf '%s\n' "client$n d" "client$n/test.txt f 8192" \
				"clients/client$n d" "clients/client$n/work d" \
				"clients/client$n/work/data.bin f 1000"
		done
	} | sort >"$W/expected.tree"
	grep -v '\.dbench-kept ' "$W/smb.tree" >"$W/found.tree"
	assert_same_lines "$W/expected.tree" "$W/found.tree" \
		"the share's tree, as 5.0's rules give it"
}

# dbench 5.0's own loadfiles, unchanged, over smbd: no mismatch
# (--strict), the share's tree is the one 5.0 makes; without
# --skip-cleanup the share is left empty
upstream_smb() {
	local lf n
	need_smb
	for lf in "$UPSTREAM5"/smb_[123].load; do
		for n in 1 3; do
			empty_share
			run_db --run-once --strict --skip-cleanup -B smb \
				--smb-share="$SHARE" "$LOGON" "${SMB_ARGS[@]}" \
				-c "$lf" "$n"
			assert_clean_run "$(basename "$lf") x $n"
			upstream5_expected "$lf" "$n" >"$W/expected.tree"
			upstream5_tree "$SMBD_SHARE" >"$W/found.tree"
			assert_same_lines "$W/expected.tree" "$W/found.tree" \
				"$(basename "$lf") x $n: the share's tree"
		done
		empty_share
		run_db --run-once --strict -B smb --smb-share="$SHARE" "$LOGON" \
			"${SMB_ARGS[@]}" -c "$lf" 3
		assert_clean_run "$(basename "$lf") x 3, cleaned up"
		assert_empty_dir "$SMBD_SHARE" "$(basename "$lf") x 3: the share after the run"
	done
	empty_share
}

# a status the server does not give is reported with file:line
smb5_mismatch() {
	need_smb
	empty_share
	printf '%s\n' 'MKDIR "\client1\d" ERROR' 'OPEN "\client1\d\f" 0x0c SUCCESS' \
		'READ "\client1\d\f" 0 4096 SUCCESS' 'CLOSE "\client1\d\f" *' >"$W/mm.txt"
	run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
		"${SMB_ARGS[@]}" -c "$W/mm.txt" 1
	assert_grep '^ MKDIR  *1   first: client 0, .*mm\.txt:1 "client0/d": expected a failure, got NT_STATUS_OK$' \
		"$W/err" "MKDIR's mismatch with file:line"
	assert_grep '^ READ  *1   first: client 0, .*mm\.txt:3 "client0/d/f": expected NT_STATUS_OK, got NT_STATUS_END_OF_FILE$' \
		"$W/err" "READ's mismatch (a short read) with file:line"
	# a READ of a path never opened stops the client (as in dbench 5.0)
	printf '%s\n' 'OPEN "\client1\f" 0x0c SUCCESS' 'CLOSE "\client1\f" SUCCESS' \
		'READ "\client1\f" 0 1 SUCCESS' >"$W/closed.txt"
	run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
		"${SMB_ARGS[@]}" -c "$W/closed.txt" 1
	assert_rc 1
	assert_grep 'closed\.txt:3: READ "client0/f": expected .*, got NT_STATUS_INVALID_HANDLE' \
		"$W/err" "READ of a closed path"
	empty_share
}

# backends without the dialect refuse it before anything runs
smb5_refused() {
	run_db --run-once -B null -c "$SRCDIR/loadfiles/smb-basic.txt" 1
	assert_rc 2
	assert_grep "^dbench: .*smb-basic\\.txt:[0-9]*: loadfile op [A-Za-z]* needs a backend with dbench 5\\.0's smb dialect \\(-B fileio or -B smb\\); backend 'null' does not have it\$" \
		"$W/err" "the refusal"
	# and mixing it with client.txt's commands is a loadfile error
	printf '%s\n' 'OPEN "\f" 0x0c SUCCESS' 'Close 1 NT_STATUS_OK' >"$W/mix.txt"
	run_db --run-once -B fileio -D "$W" -c "$W/mix.txt" 1
	assert_rc 2
	assert_grep "mix\\.txt:2: Close is client.txt's dialect, but OPEN on line 1 is dbench 5\\.0's smb dialect" \
		"$W/err" "the mix refused"
}

# -B fileio runs the dialect too; its JSON result is valid against the
# schema and names the dialect's ops
smb5_fileio_json() {
	python3 -c 'import jsonschema' 2>/dev/null ||
		skip "python3-jsonschema is not installed"
	mkdir t
	run_db --run-once -B fileio -D "$W/t" --json="$W/res.json" \
		-c "$SRCDIR/loadfiles/smb-basic.txt" 2
	assert_clean_run "smb-basic.txt on fileio"
	python3 - "$SRCDIR/doc/dbench-result.schema.json" "$W/res.json" <<-'PY' ||
	import json, sys, jsonschema
	schema = json.load(open(sys.argv[1]))
	doc = json.load(open(sys.argv[2]))
	jsonschema.Draft202012Validator(schema).validate(doc)
	PY
		fail "the JSON result does not validate"
	assert_grep '"name": *"READDIR"' "$W/res.json" "READDIR in the JSON"
	assert_empty_dir "$W/t" "the directory after the cleanup"
}

# a tree kept with --skip-cleanup is recorded on the share: the next run
# over it goes (and removes it, and the record); a tree with a file of
# someone else's, not in the record, is refused and kept
kept_trees() {
	need_smb
	empty_share
	# a loadfile that leaves a file in each client's tree
	printf '%s\n' 'Deltree "\client1\d" *' 'MKDIR "\client1\d" SUCCESS' \
		'OPEN "\client1\d\f" 0x0c SUCCESS' 'WRITE "\client1\d\f" 0 4096 SUCCESS' \
		'CLOSE "\client1\d\f" SUCCESS' >"$W/keep.txt"
	run_db --run-once --skip-cleanup -B smb --smb-share="$SHARE" \
		"$LOGON" -c "$W/keep.txt" 2
	assert_clean_run "warmup run, --skip-cleanup"
	assert_eq "client0 client1" \
		"$(sort "$SMBD_SHARE/.dbench-kept" | tr '\n' ' ' | sed 's/ $//')" \
		"the record on the share"
	[ -f "$SMBD_SHARE/client1/d/f" ] || fail "no kept tree"
	run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
		-c "$W/keep.txt" 2
	assert_clean_run "the replay over the kept trees"
	[ -e "$SMBD_SHARE/client0" ] && fail "the kept tree stayed"
	[ -e "$SMBD_SHARE/.dbench-kept" ] && fail "the record stayed"
	mkdir -p "$SMBD_SHARE/client0"
	echo mine >"$SMBD_SHARE/client0/mine.txt"
	run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
		-c "$W/keep.txt" 1
	assert_rc 2
	assert_grep "^dbench: //127\\.0\\.0\\.1/share/client0 already exists" \
		"$W/err" "the foreign tree refused"
	assert_eq mine "$(cat "$SMBD_SHARE/client0/mine.txt")" \
		"the foreign file"
	empty_share
}

# cleanup goes over SMB: the share is empty after a run
cleanup_over_smb() {
	need_smb
	empty_share
	run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
		-c "$DATA/basic.txt" 3
	assert_clean_run "basic.txt x 3"
	assert_empty_dir "$SMBD_SHARE"
	assert_grep '^Connection set-up: avg [0-9.]* ms, max [0-9.]* ms \(3 clients\)$' \
		"$W/out" "connection time, a line after the table"
}

# smb://HOST:PORT/SHARE, $DBENCH_SMB_PASSWORD and --smb-auth-file
other_logons() {
	need_smb
	DBENCH_SMB_PASSWORD=$SMBD_PASS run_db --run-once -B smb \
		--smb-share="smb://127.0.0.1:$SMBD_PORT/share" \
		--smb-user="$SMBD_USER" -c "$DATA/basic.txt" 1
	assert_clean_run "smb:// share, password from the environment"
	printf 'username = %s\npassword = %s\ndomain = DBENCH\n' \
		"$SMBD_USER" "$SMBD_PASS" >"$W/auth"
	run_db --run-once -B smb --smb-share="$SHARE" \
		--smb-auth-file="$W/auth" -c "$DATA/basic.txt" 1
	assert_clean_run "--smb-auth-file"
}

# forced_dialects DIALECT...: each forced (min = max) runs clean
forced_dialects() {
	local p
	for p in "$@"; do
		run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
			--smb-protocol="$p" -c "$DATA/basic.txt" 1
		assert_clean_run "--smb-protocol=$p"
	done
}

# the dialects between the first and the last, forced (under
# check-sanitize, our code is the same for each: dialects() runs it)
middle_dialects() {
	need_smb
	sanitizers_skip "each dialect is the same code of ours (the first and last run)"
	forced_dialects SMB2_10 SMB3_00 SMB3_02
}

# the first and the last dialect, forced (min = max), and encryption
dialects() {
	need_smb
	forced_dialects SMB2_02 SMB3_11
	run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
		--smb-protocol=SMB3_00:SMB3_11 --smb-encrypt \
		-c "$DATA/basic.txt" 2
	assert_clean_run "--smb-encrypt"
	run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" --smb-sign \
		-c "$DATA/basic.txt" 1
	assert_clean_run "--smb-sign"
}

# a server capped at SMB3_00 refuses a forced SMB3_11: the dialect is
# really forced
dialect_refused() {
	need_smb
	(
		SMBD_PID=
		trap 'smbd_stop' EXIT
		SMBD_GLOBAL="	server max protocol = SMB3_00" \
			smbd_start "$W/srv" >/dev/null || exit 3
		run_db -B smb --smb-share="//127.0.0.1:$SMBD_PORT/share" \
			"$LOGON" --smb-protocol=SMB3_11 -c "$DATA/basic.txt" 1
		assert_rc 2
		assert_grep 'protocol not supported' "$W/err" "message"
		assert_eq 1 "$(wc -l <"$W/err")" "lines on stderr"
		run_db --run-once -B smb \
			--smb-share="//127.0.0.1:$SMBD_PORT/share" "$LOGON" \
			--smb-protocol=SMB3_00 -c "$DATA/basic.txt" 1
		assert_clean_run "SMB3_00 on the capped server"
	) || fail "the capped server's checks failed"
}

# expect_usage_error WHAT PATTERN ARGS...: exit 2, one line naming it
expect_usage_error() {
	local what=$1 pat=$2
	shift 2
	run_db -B smb -c "$DATA/basic.txt" "$@" 1
	assert_rc 2
	assert_grep "$pat" "$W/err" "$what: message"
	assert_eq 1 "$(wc -l <"$W/err")" "$what: lines on stderr"
	[ ! -s "$W/out" ] || fail "$what: something on stdout"
}

user_errors() {
	local port
	need_smb
	expect_usage_error "wrong password" \
		"logon failure as user '$SMBD_USER'" --smb-share="$SHARE" \
		--smb-user="$SMBD_USER%wrong"
	expect_usage_error "wrong share" "share 'nosuch' not found" \
		--smb-share="//127.0.0.1:$SMBD_PORT/nosuch" "$LOGON"
	port=$(smbd_free_port)
	expect_usage_error "no server" \
		"server 127.0.0.1:$port unreachable" \
		--smb-share="//127.0.0.1:$port/share" "$LOGON"
	expect_usage_error "-D" "does not apply to backend 'smb'" \
		--smb-share="$SHARE" "$LOGON" -D "$W"
	expect_usage_error "no share" "smb-share=//SERVER/SHARE is required"
	expect_usage_error "bad dialect" "is not a dialect" \
		--smb-share="$SHARE" "$LOGON" --smb-protocol=NT1
}

# our_processes SID: the living processes of session SID (the run's
# own: other tests running beside this one under make -j2 are in
# sessions of their own; a zombie waiting for the late reaper of this
# kind of machine's init is gone already)
our_processes() {
	ps -eo pid=,sid=,stat= | awk -v s="$1" '$2 == s && $3 !~ /^Z/ { print $1 }'
}

# smbd killed mid-run: exit 1, the message names client, line, op and
# status; nothing of dbench is left running and nothing was written here
killed_server() {
	need_smb
	(
		SMBD_PID=
		trap 'smbd_stop' EXIT
		smbd_start "$W/srv" >/dev/null || exit 3
		mkdir "$W/run" && cd "$W/run" || exit 3
		: >"$W/out"
		# in a session of its own (setsid execs dbench in place: its
		# PID is the session's id), so that only its processes count
		setsid "$DBENCH" -B smb --smb-share="//127.0.0.1:$SMBD_PORT/share" \
			"$LOGON" -t 60 -c "$SRCDIR/loadfiles/client.txt" 2 \
			>"$W/out" 2>"$W/err" </dev/null &
		db=$!
		for _ in $(seq 1 200); do
			grep -q 'execute' "$W/out" && break
			sleep 0.1
		done
		# the server's connection processes first, then smbd itself
		for p in $(ps -o pid= --ppid "$SMBD_PID"); do
			kill -KILL "$p"
		done
		kill -KILL "$SMBD_PID"
		wait "$SMBD_PID" 2>/dev/null
		SMBD_PID=
		timeout 60 tail --pid="$db" -f /dev/null
		wait "$db"
		RC=$?
		assert_rc 1
		grep 'dbench: client [0-9]*, .*client.txt:[0-9]*: [A-Za-z_]* .*NT_STATUS_' \
			"$W/err" >/dev/null || fail "no message naming client, line, op, status"
		# a moment for processes on their way out (a sanitized
		# process's leak check runs in a tracer process of its own)
		for _ in $(seq 1 20); do
			[ -z "$(our_processes "$db")" ] && break
			sleep 0.25
		done
		[ -z "$(our_processes "$db")" ] ||
			fail "dbench processes left: $(our_processes "$db")"
		[ -z "$(ls -A "$W/run")" ] || fail "files left locally: $(ls -A "$W/run")"
	) || fail "killed server"
}

# --keep-going: the connection's server process is killed mid-run; the
# failures are counted, the client connects again and the run goes on to
# its time limit (exit 1: mismatches)
keep_going_reconnects() {
	need_smb
	(
		SMBD_PID=
		trap 'smbd_stop' EXIT
		smbd_start "$W/srv" >/dev/null || exit 3
		: >"$W/out"
		"$DBENCH" -B smb --smb-share="//127.0.0.1:$SMBD_PORT/share" \
			"$LOGON" "${SMB_ARGS[@]}" -t 8 --keep-going \
			-c "$SRCDIR/loadfiles/client.txt" 1 \
			>"$W/out" 2>"$W/err" </dev/null &
		db=$!
		for _ in $(seq 1 200); do
			grep -q 'execute' "$W/out" && break
			sleep 0.1
		done
		# several times: libsmbclient reconnects on its own, and a
		# single kill between two ops may go unnoticed by any op
		for _ in 1 2 3 4 5; do
			for p in $(ps -o pid= --ppid "$SMBD_PID"); do
				kill -KILL "$p"
			done
			sleep 0.3
		done
		wait "$db"
		RC=$?
		assert_rc 1
		assert_grep '^Throughput' "$W/out" "the run completed"
		assert_grep 'execute *[5-9] sec' "$W/out" "the run went on"
	) || fail "keep-going"
}

# the password is in no output, no JSON and no ps listing taken mid-run
password_hidden() {
	local secret=Sekr1t-$$-pw hist=()
	need_smb
	# saved to the history too, where dbench has SQLite: nor there
	if command -v sqlite3 >/dev/null &&
		! "$DBENCH" -B null --label "" 1 2>&1 | grep -q 'without SQLite'; then
		hist=(--label smb --history "$W/h.sqlite")
	fi
	(
		SMBD_PID=
		trap 'smbd_stop' EXIT
		SMBD_PASS=$secret smbd_start "$W/srv" >/dev/null || exit 3
		"$DBENCH" -B smb --smb-share="//127.0.0.1:$SMBD_PORT/share" \
			--smb-user="$SMBD_USER%$secret" -t 5 "${hist[@]}" \
			"${SMB_ARGS[@]}" \
			--json="$W/res.json" -c "$SRCDIR/loadfiles/client.txt" 2 \
			>"$W/out" 2>"$W/err" </dev/null &
		db=$!
		for _ in $(seq 1 200); do
			grep -q 'execute' "$W/out" && break
			sleep 0.1
		done
		ps -eo pid,args >"$W/ps"
		grep -q -- '--smb-user' "$W/ps" || fail "the run is not in ps"
		wait "$db"
		RC=$?
		assert_rc 0
		for f in out err res.json ps; do
			assert_no_grep "$secret" "$W/$f" "password in $f"
		done
		assert_grep "$SMBD_USER%\\*\\*\\*" "$W/res.json" \
			"masked password in the JSON's command line"
		if [ "${#hist[@]}" -gt 0 ]; then
			for f in "$W"/h.sqlite*; do
				! grep -aq "$secret" "$f" ||
					fail "password in ${f##*/}"
			done
			assert_eq "//127.0.0.1:$SMBD_PORT/share|smb" \
				"$(sqlite3 "$W/h.sqlite" "SELECT server_url,
				json_extract(result_json, '\$.server.protocol')
				FROM runs")" "the server saved"
		fi
	) || fail "password"
}

# --smb-client=native meets a DFS referral (an msdfs link on the share):
# the op fails with one line naming the path and the client that follows
# referrals
native_dfs() {
	need_smb
	empty_share
	ln -s 'msdfs:127.0.0.1\other' "$SMBD_SHARE/dfslink"
	printf '%s\n' 'NTCreateX "\dfslink\f" 0x40 0x2 1 NT_STATUS_OK' >"$W/dfs.txt"
	run_db --run-once -B smb --smb-share="$SHARE" "$LOGON" \
		--smb-client=native -c "$W/dfs.txt" 1
	empty_share
	assert_rc 1
	assert_grep 'dfs\.txt:1: NTCreateX "dfslink/f": expected NT_STATUS_OK, got 0xC0000257: Input/output error: //127\.0\.0\.1/share/dfslink/f: a DFS referral \(STATUS_PATH_NOT_COVERED\): --smb-client=native follows none; --smb-client=libsmbclient does$' \
		"$W/err" "the DFS referral's line"
}

# smbd starts samba-dcerpcd and its rpcd_* workers on demand (smbd_start's
# smbclient -L does); they outlive smbd, so smbd_stop stops them too
server_helpers_stopped() {
	need_smb
	(
		SMBD_PID=
		smbd_start "$W/srv" >/dev/null || exit 3
		assert_eq 1 "$([ -n "$(smbd_helpers)" ] && echo 1)" \
			"RPC helpers of the test's smbd running"
		smbd_stop
		assert_eq "" "$(smbd_helpers)" "RPC helpers left after smbd_stop"
	)
}

check "our client.txt, 1 client: smb counts and tree = fileio's" ours 1
check "our client.txt, 3 clients: smb counts and tree = fileio's" ours 3
check "Debian client.txt, 1 client: smb counts and tree = fileio's" debian 1
check "Debian client.txt, 3 clients: smb counts and tree = fileio's" debian 3
check "our client.txt, 3 clients, --smb-client=libsmbclient: counts and tree = fileio's" libsmb same_as_fileio "$SRCDIR/loadfiles/client.txt" 3
check "--smb-client=native: SMB2_02..SMB3_11 signed, SMB3_* encrypted" native_dialects
check "--smb-client=native -x, --stat-check, --one-byte-write-fix: counts, statuses and tree = fileio's" native_options
check "dbench 5.0's smb dialect: smb-basic.txt over smbd = fileio, exact counts" smb5_sample
check "dbench 5.0's smb path shapes, 3 clients: the share's tree = fileio's = 5.0's rules" smb5_paths
check "5.0's own smb_1/2/3.load, unchanged, 1 and 3 clients over smbd: --strict, 5.0's trees" upstream_smb
check "dbench 5.0's smb dialect: a status mismatch names file:line" smb5_mismatch
check "dbench 5.0's smb dialect, --smb-client=libsmbclient: smb-basic.txt = fileio, exact counts" libsmb smb5_sample
check "dbench 5.0's smb dialect, --smb-client=libsmbclient: a status mismatch names file:line" libsmb smb5_mismatch
check "dbench 5.0's smb dialect: refused by a backend without it, not mixed" smb5_refused
check "dbench 5.0's smb dialect on fileio: JSON valid against the schema" smb5_fileio_json
check "--skip-cleanup trees recorded on the share: reused, a foreign one refused" kept_trees
check "cleanup removes the clients' trees over SMB" cleanup_over_smb
check "smb:// share, \$DBENCH_SMB_PASSWORD, --smb-auth-file" other_logons
check "SMB2_02 and SMB3_11 forced, --smb-encrypt, --smb-sign" dialects
check "SMB2_10, SMB3_00, SMB3_02 forced" middle_dialects
check "a dialect the server lacks: exit 2, protocol not supported" dialect_refused
check "wrong password, share, server; -D: exit 2 and one line" user_errors
check "smbd killed mid-run: exit 1, message, no orphans" killed_server
check "--keep-going: a lost connection is counted, the client reconnects" keep_going_reconnects
check "--keep-going, --smb-client=libsmbclient: libsmbclient reconnects too" libsmb keep_going_reconnects
check "the password in no output, JSON or ps listing" password_hidden
check "--smb-client=libsmbclient: the password in no output, JSON or ps listing" libsmb password_hidden
check "--smb-client=native: a DFS referral is one line naming the path and libsmbclient" native_dfs
check "smbd_stop stops the RPC helpers smbd started (no orphans)" server_helpers_stopped
finish
