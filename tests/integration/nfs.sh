#!/bin/bash
# nfs.sh - the nfs backend against a real NFSv3 server (nfs-ganesha, FSAL
# VFS, with rpcbind) started by this test inside its own network
# namespace: client.txt gives fileio's op counts and final trees, the
# NFSv3-dialect samples run clean and a status mismatch names file:line,
# clients spread over two exports, a missing server or export (or NLM with
# --enable-nlm, or a URL asking for NFSv4) is a usage error, each shipped
# dialect loadfile leaves the export as it was, trees kept with
# --skip-cleanup are recorded and reused, a server killed mid-run ends the
# run with exit 1 and no orphan.  (NLM locks: nfs_nlm.sh.)
# Skipped visibly (a TAP skip) without libnfs, ganesha or a network namespace.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
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

DEBIAN_CLIENT=/usr/share/dbench/client.txt
# The client.txt comparisons replay the first LINES lines of each file
# (the whole file takes minutes per run over NFS); NFS_FULL=1: all.
: "${NFS_LINES:=6000}"
# every dbench run talks to this test's own server only
IT_TIMEOUT=300

SRV=$TOP/srv
mkdir -p "$SRV"
if ! nfsd_start "$SRV" 2 >"$TOP/nfsd.start" 2>&1; then
	cat "$TOP/nfsd.start"
	nfsd_stop
	bail_out "ganesha did not start"
fi
trap 'nfsd_stop; it_cleanup' EXIT
EXP1=${NFSD_EXP[1]}
EXP2=${NFSD_EXP[2]}
URL1=${NFSD_URL[1]}
URL2=${NFSD_URL[2]}

ours() {
	[ "$1" -ne 1 ] || sanitizers_skip "the 3-client replay of the same lines runs this code"
	same_as_fileio "$SRCDIR/loadfiles/client.txt" "$1"
}
debian() {
	[ -r "$DEBIAN_CLIENT" ] || skip "$DEBIAN_CLIENT not installed"
	[ "$1" -ne 1 ] || sanitizers_skip "the 3-client replay of the same lines runs this code"
	same_as_fileio "$DEBIAN_CLIENT" "$1"
}

# The NFSv3 dialect's samples: clean, every op of the file counted.
dialect_sample() {
	local lf=$SRCDIR/loadfiles/$1 n=$2
	empty_exports
	run_db --run-once -B nfs --nfs="$URL1" -c "$lf" "$n"
	assert_clean_run "$1 x $n"
	for op in GETATTR3 READ3 WRITE3 CREATE3 COMMIT3 READDIRPLUS3 \
		REMOVE3 FSSTAT3; do
		assert_grep "^ $op " "$W/out" "$1: $op in the table"
	done
	# cleanup removed the clients' trees and the clients/ it made
	assert_eq "" "$(ls -A "$EXP1")" "export after the cleanup of $1"
}

# Each shipped NFSv3-dialect loadfile, once, as it comes (nfs-locks.txt
# without NLM: its lock ops mismatch): the export is left as it was,
# empty -- the clients/ the loadfile's MKDIR3 makes goes too, so that a
# run as another uid can make it again.
shipped_leave_nothing() {
	local lf
	for lf in "$SRCDIR"/loadfiles/nfs-*.txt; do
		empty_exports
		run_db --run-once -B nfs --nfs="$URL1" -c "$lf" 2
		assert_eq "" "$(ls -A "$EXP1")" \
			"export after $(basename "$lf") (exit $RC)"
	done
	# what was there before the run stays
	empty_exports
	mkdir "$EXP1/clients"
	run_db --run-once -B nfs --nfs="$URL1" \
		-c "$SRCDIR/loadfiles/nfs-rw.txt" 1
	assert_clean_run "nfs-rw.txt over an existing clients/"
	[ -d "$EXP1/clients" ] || fail "the clients/ that was there is gone"
}

dialect_all_kinds() {
	dialect_sample nfs-basic.txt 1
	for op in SETATTR3 LOOKUP3 ACCESS3 READLINK3 MKDIR3 SYMLINK3 RMDIR3 \
		RENAME3 LINK3 FSINFO3 PATHCONF3; do
		assert_grep "^ $op " "$W/out" "nfs-basic.txt: $op in the table"
	done
	assert_eq 4 "$(awk '$1 == "WRITE3" { print $2 }' "$W/out")" \
		"WRITE3 count of nfs-basic.txt"
}

# the --json document of a dialect run fits the schema
dialect_json_schema() {
	python3 -c 'import jsonschema' 2>/dev/null ||
		skip "python3-jsonschema is not installed (schema not checked)"
	empty_exports
	local hist=()
	# saved to the history too, where dbench has SQLite
	if command -v sqlite3 >/dev/null &&
		! "$DBENCH" -B null --label "" 1 2>&1 | grep -q 'without SQLite'; then
		hist=(--label nfs --history "$W/h.sqlite")
	fi
	run_db --run-once -B nfs --nfs="$URL1" --json "$W/r.json" \
		"${hist[@]}" -c "$SRCDIR/loadfiles/nfs-basic.txt" 1
	assert_rc 0
	if [ "${#hist[@]}" -gt 0 ]; then
		assert_eq "$URL1|nfs|3" "$(sqlite3 "$W/h.sqlite" "SELECT server_url,
			json_extract(result_json, '\$.server.protocol'),
			json_extract(result_json, '\$.server.nfs_version')
			FROM runs")" "the server saved"
	fi
	python3 - "$W/r.json" "$SRCDIR/doc/dbench-result.schema.json" \
		>"$W/schema.err" 2>&1 <<'EOF' || fail "--json: $(tail -3 "$W/schema.err")"
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2])))
EOF
}

# A wrong expected NFS3 status is reported with file:line.
dialect_mismatch() {
	empty_exports
	cat >"$W/bad.txt" <<'EOF'
MKDIR3 "/clients" *
MKDIR3 "/clients/client1" *
CREATE3 "/clients/client1/f" 0x00000000
LOOKUP3 "/clients/client1/nothere" 0x00000000
EOF
	run_db --run-once --strict -B nfs --nfs="$URL1" -c "$W/bad.txt" 1
	assert_rc 1
	assert_grep "client 0, $W/bad.txt:4: LOOKUP3 \"clients/client0/nothere\": expected" \
		"$W/err" "the mismatch names client, file:line, op and path"
	assert_grep "got 0x00000002" "$W/err" "the NFS3 status found (NOENT)"
	# without --strict: counted, first one named with file:line
	run_db --run-once -B nfs --nfs="$URL1" -c "$W/bad.txt" 1
	assert_grep "LOOKUP3 .*first: client 0, $W/bad.txt:4" "$W/err" \
		"the mismatch in the results"
}

# Another backend refuses the dialect before the run.
dialect_refused() {
	run_db --run-once -B fileio -D "$W" -c "$SRCDIR/loadfiles/nfs-basic.txt" 1
	assert_usage_error
	assert_grep "nfs-basic.txt:[0-9]*: loadfile op MKDIR3 needs a backend with the nfs dialect" \
		"$W/err" "the refusal"
}

# A symlink on the server is never followed by a removal or the cleanup:
# a file it points at survives, the link itself goes with the tree.
symlink_not_followed() {
	empty_exports
	cat >"$W/link.txt" <<'EOF'
MKDIR3 "/clients" *
MKDIR3 "/clients/client1" *
MKDIR3 "/outside" *
CREATE3 "/outside/precious" 0x00000000
WRITE3 "/outside/precious" 0 4096 2 0x00000000
SYMLINK3 "/clients/client1/link" "/outside" 0x00000000
GETATTR3 "/clients/client1/link/precious" *
REMOVE3 "/clients/client1/link/precious" 0x00000016
Deltree "/clients/client1" 0x00000000
SYMLINK3 "/clients/client1/link2" "/outside" *
EOF
	run_db --run-once -B nfs --nfs="$URL1" -c "$W/link.txt" 1
	assert_clean_run "symlink loadfile"
	assert_eq 4096 "$(stat -c %s "$EXP1/outside/precious")" \
		"the file behind the symlink"
	assert_eq "" "$(ls "$EXP1/clients" 2>/dev/null)" \
		"client trees left on the export"
}

# A directory larger than one READDIRPLUS reply (300 names, 8000-byte
# replies): listed to its end, and removed whole by Deltree (raw READDIRPLUS,
# REMOVE, RMDIR on cached handles), a symlink in it removed itself, not
# followed.
big_tree_removed() {
	empty_exports
	{
		echo 'MKDIR3 "/clients" *'
		echo 'MKDIR3 "/clients/client1" *'
		echo 'MKDIR3 "/outside" *'
		echo 'CREATE3 "/outside/keep" 0x00000000'
		echo 'MKDIR3 "/clients/client1/big" 0x00000000'
		echo 'MKDIR3 "/clients/client1/big/sub" 0x00000000'
		echo 'SYMLINK3 "/clients/client1/big/sub/ln" "/outside" 0x00000000'
		for i in $(seq 1 300); do
			echo "CREATE3 \"/clients/client1/big/file-with-a-long-name-$i\" 0x00000000"
		done
		echo 'READDIRPLUS3 "/clients/client1/big" 0x00000000'
		echo 'Deltree "/clients/client1/big" 0x00000000'
		echo 'LOOKUP3 "/clients/client1/big" 0x00000002'
		echo 'MKDIR3 "/clients/client1/big" 0x00000000'
	} >"$W/big.txt"
	run_db --run-once --strict -B nfs --nfs="$URL1" -c "$W/big.txt" 1
	assert_clean_run "300-name directory"
	assert_eq 300 "$(awk '$1 == "CREATE3" { print $2 - 1 }' "$W/out")" \
		"CREATE3 count"
	assert_eq 1 "$(awk '$1 == "Deltree" { print $2 }' "$W/out")" \
		"Deltree count"
	assert_eq "keep" "$(ls "$EXP1/outside")" "the directory behind the symlink"
	assert_eq "" "$(ls "$EXP1/clients" 2>/dev/null)" \
		"client trees left on the export"
}

# Two exports, 4 clients: 0 and 2 on the first, 1 and 3 on the second.
two_exports() {
	empty_exports
	run_db --run-once --skip-cleanup -B nfs --nfs="$URL1,$URL2" \
		-c "$SRCDIR/loadfiles/nfs-basic.txt" 4
	assert_clean_run "two exports"
	assert_eq "client0 client2" \
		"$(cd "$EXP1/clients" && echo client*)" "clients on export 1"
	assert_eq "client1 client3" \
		"$(cd "$EXP2/clients" && echo client*)" "clients on export 2"
}

# Errors before anything is forked: exit 2 and one line.
setup_errors() {
	run_db -B nfs --nfs=nfs://127.0.0.3/nothing --run-once 1
	assert_usage_error
	assert_grep "cannot mount nfs://127.0.0.3/nothing" "$W/err" \
		"no server there"
	run_db -B nfs --nfs="$URL1-missing" --run-once 1
	assert_usage_error
	assert_grep "cannot mount $URL1-missing" "$W/err" "no such export"
	run_db -B nfs --nfs="$URL1" -D "$W" --run-once 1
	assert_usage_error
	assert_grep "does not apply to -B nfs" "$W/err" "-D refused"
	run_db -B nfs --run-once 1
	assert_usage_error
	assert_grep "needs --nfs=" "$W/err" "--nfs missing"
	# this test's server runs no NLM (nfs_nlm.sh's does)
	run_db -B nfs --nfs="$URL1" --enable-nlm --run-once 1
	assert_usage_error
	assert_grep "^dbench: $URL1: no NLM service \(lockd\) for --enable-nlm: .*not available" \
		"$W/err" "--enable-nlm without NLM on the server"
	assert_no_grep "prepared for launch" "$W/out" "nothing forked"
	# libnfs's NFSv4 (version=4) is not what this backend speaks
	empty_exports
	run_db -B nfs --nfs="$URL1?version=4" --run-once 1
	assert_usage_error
	assert_grep "^dbench: --nfs: 'version=4' in '$URL1.version=4': only NFSv3 is supported" \
		"$W/err" "?version=4 refused"
	assert_eq "" "$(ls -A "$EXP1")" "export after ?version=4"
	run_db -B nfs --nfs="$URL2,$URL1?uid=0&version=4" --run-once 1
	assert_usage_error "?version=4 in the second entry"
	assert_eq "" "$(ls -A "$EXP2")" "export 2 after ?version=4"
}

# mmtests' warmup-then-replay: a tree kept with --skip-cleanup is
# recorded on the export (clients/.dbench-kept) and the next run uses it
# and removes it; a tree the record does not name (here made by a run
# as a plain directory beside its own) is still refused, and kept.
kept_trees() {
	local lf=$SRCDIR/loadfiles/nfs-rw.txt
	empty_exports
	run_db --run-once --skip-cleanup -B nfs --nfs="$URL1" -c "$lf" 2
	assert_clean_run "the warmup (--skip-cleanup)"
	assert_eq "client0 client1" "$(cat "$EXP1/clients/.dbench-kept" | tr '\n' ' ' | sed 's/ $//')" \
		"the record of kept trees on the export"
	run_db --run-once -B nfs --nfs="$URL1" -c "$lf" 2
	assert_clean_run "the replay over the kept trees"
	assert_eq "" "$(ls -A "$EXP1/clients" 2>/dev/null)" \
		"trees and record after the replay"
	cat >"$W/foreign.txt" <<'EOF2'
MKDIR3 "/clients" *
MKDIR3 "/clients/client1" *
MKDIR3 "/clients/client2" 0x00000000
CREATE3 "/clients/client2/foreign" 0x00000000
EOF2
	run_db --run-once --skip-cleanup -B nfs --nfs="$URL1" \
		-c "$W/foreign.txt" 1
	assert_clean_run "the run that leaves clients/client2"
	assert_eq client0 "$(cat "$EXP1/clients/.dbench-kept")" \
		"the record names the run's own tree only"
	run_db --run-once -B nfs --nfs="$URL1" -c "$lf" 3
	assert_usage_error
	assert_grep "clients/client2" "$W/err" "the unrecorded tree refused"
	assert_no_grep "client[01]" "$W/err" "the refusal (client0 is dbench's)"
	[ -f "$EXP1/clients/client2/foreign" ] ||
		fail "the file in the refused tree is gone"
}

# --keep-going over a server restart: the failures are counted, the
# clients mount again and clean up their trees, exit 1 (mismatches).
server_restarted() {
	local pid i
	empty_exports
	"$DBENCH" -B nfs --nfs="$URL1" -c "$SRCDIR/loadfiles/nfs-rw.txt" \
		--keep-going -t 6 2 >"$W/out" 2>"$W/err" </dev/null &
	pid=$!
	for i in $(seq 1 100); do
		grep -q "execute" "$W/out" 2>/dev/null && break
		sleep 0.1
	done
	nfsd_kill
	nfsd_ganesha >"$W/restart" 2>&1 || fail "ganesha did not restart"
	wait "$pid"
	RC=$?
	assert_rc 1
	assert_grep "^Status mismatches" "$W/err" "the failures counted"
	assert_grep "$RE_THROUGHPUT" "$W/out" "the run's Throughput line"
	assert_no_grep "cleanup of" "$W/err" "cleanup after the remount"
	assert_eq "" "$(ls "$EXP1/clients" 2>/dev/null)" \
		"client trees left on the export"
}

# ganesha killed mid-run: exit 1, the failing op named, no orphan.  (The
# last check: the server stays dead.)
server_killed() {
	local pid kids="" i
	empty_exports
	"$DBENCH" -B nfs --nfs="$URL1" -c "$SRCDIR/loadfiles/client.txt" \
		-t 60 2 >"$W/out" 2>"$W/err" </dev/null &
	pid=$!
	for i in $(seq 1 100); do
		grep -q "execute" "$W/out" 2>/dev/null && break
		sleep 0.1
	done
	kids=$(pgrep -P "$pid" | tr '\n' ' ')
	[ -n "$kids" ] || fail "no worker processes seen"
	nfsd_kill
	for i in $(seq 1 300); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; fail "dbench still running 30 s after the server died"; }
	wait "$pid"
	RC=$?
	assert_rc 1
	assert_grep "dbench: client [01], .*client.txt:[0-9]*: [A-Za-z_]*" \
		"$W/err" "the failing client, line and op"
	for i in $kids; do
		kill -0 "$i" 2>/dev/null && fail "worker $i outlived the run"
	done
	return 0
}

check "client.txt, 1 client: nfs = fileio (counts, tree)" ours 1
check "client.txt, 3 clients: nfs = fileio (counts, tree)" ours 3
check "Debian client.txt, 1 client: nfs = fileio (counts, tree)" debian 1
check "Debian client.txt, 3 clients: nfs = fileio (counts, tree)" debian 3
check "NFSv3 dialect: nfs-basic.txt, every kind" dialect_all_kinds
check "NFSv3 dialect: the --json document fits the schema" dialect_json_schema
check "NFSv3 dialect: nfs-rw.txt, 3 clients" dialect_sample nfs-rw.txt 3
check "NFSv3 dialect: a status mismatch names file:line" dialect_mismatch
check "NFSv3 dialect: each shipped nfs-*.txt leaves the export as it was" shipped_leave_nothing
check "NFSv3 dialect: -B fileio refuses it before the run" dialect_refused
check "a symlink on the server is never followed by removals or cleanup" symlink_not_followed
check "Deltree of a directory larger than one READDIRPLUS reply" big_tree_removed
check "two exports, 4 clients: 0,2 on the first, 1,3 on the second" two_exports
check "server or export missing, -D, --enable-nlm without NLM, ?version=4: exit 2 + message" setup_errors
check "kept trees: recorded on the export, reused; an unrecorded one refused" kept_trees
check "--keep-going over a server restart: counted, remounted, cleaned" server_restarted
check "ganesha killed mid-run: exit 1, no orphans" server_killed
finish
