#!/bin/bash
# mpi.sh - dbench-mpi (many hosts in one run on MPI): three ranks sharing a
# directory count exactly six single-client passes, leave clients 0..5 and
# print the single-host report's shape; two "hosts" (network namespaces
# joined by a veth pair, MPI over TCP between them) give the sum of the
# parts; a client failing on one rank ends the job naming rank, host,
# client and line; a rank killed mid-run ends the job with its name and no
# process left; SIGINT to mpirun gives partial results and clean trees;
# ranks whose workloads differ (backend, loadfile, client count) are
# refused before the run, naming the option and the ranks.
# Skipped (with the reason) when dbench-mpi was not built or mpirun is
# missing; the two-host check also needs root, unshare, nsenter and ip.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

: "${DBENCH_MPI:=$SRCDIR/dbench-mpi}"
: "${MPI_TIMEOUT:=90}"
# every process of a check carries this mark in its environment
export DBENCH_MPI_TEST_MARK=$TOP

# under make check-sanitize: no leak check in dbench-mpi's processes.  The
# MPI library keeps memory until exit (in components it unloads, so no
# suppression can name them), and the workers, forked after MPI_Init,
# inherit it; dbench's own leaks are checked by the single-host tests,
# which run the same code.  Memory errors are still caught here.
if [ -n "${ASAN_OPTIONS:-}" ]; then
	export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
fi

mpi_opts=(--oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi_opts+=(--allow-run-as-root)
LOCAL_MPI=(mpirun "${mpi_opts[@]}" --mca btl self,vader)
# When a rank dies, mpirun sends the others SIGTERM and SIGKILL
# odls_base_sigkill_timeout seconds later (1 by default): a surviving
# rank's cleanup must fit in that time, which a machine busy with other
# tests does not always give it (dbench-mpi(1), FAULTS).  The jobs that
# check that cleanup give it the few seconds a user on a slow filesystem
# would.
GRACE_MPI=(--mca odls_base_sigkill_timeout 3)

need_mpi() {
	[ -x "$DBENCH_MPI" ] || skip "dbench-mpi not built (configure found no MPI: install libopenmpi-dev)"
	command -v mpirun >/dev/null || skip "mpirun not found (install openmpi-bin)"
}

# run_mpi ARGS...: mpirun ARGS, bounded, stdout/stderr to $W/out, $W/err.
run_mpi() {
	LAST_CMD="mpirun $*"
	timeout -k 5 "$MPI_TIMEOUT" "$@" >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	[ "$RC" -eq 124 ] && fail "mpirun did not finish within $MPI_TIMEOUT s"
	return 0
}

# shape FILE: the report with numbers as N and runs of blanks as one,
# without the progress, cleanup and preparation lines (their number
# depends on timing); the columns are checked apart (RE_ROW_COLS).
shape() {
	grep -Ev "$RE_PROGRESS|$RE_CLEANUP|processes prepared for launch" "$1" |
		sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g'
}

three_ranks_shared() {
	local lf=$DATA/tree.txt hist=()
	need_mpi
	mkdir t single
	# saved to the history too, where dbench has SQLite (rank 0 saves)
	if command -v sqlite3 >/dev/null &&
		! "$DBENCH" -B null --label "" 1 2>&1 | grep -q 'without SQLite'; then
		hist=(--label mpi3 --history "$W/h.sqlite")
	fi
	run_mpi "${LOCAL_MPI[@]}" -np 3 "$DBENCH_MPI" --run-once -t 60 \
		-c "$lf" -D "$W/t" --skip-cleanup --json "$W/r.json" \
		"${hist[@]}" 2
	assert_clean_run "dbench-mpi -np 3"
	if [ "${#hist[@]}" -gt 0 ]; then
		assert_eq "1|3|0,1,2" "$(sqlite3 "$W/h.sqlite" "SELECT
			(SELECT count(*) FROM runs), count(*), group_concat(rank)
			FROM (SELECT rank FROM hosts ORDER BY rank)")" \
			"one run saved with every rank's host"
	fi
	keep mpi
	loadfile_counts "$lf" 6 >expected.counts
	assert_counts expected.counts "op counts of 3 ranks x 2 clients"
	assert_grep '^Throughput .*  6 clients  6 procs  ' "$W/out" "Throughput line of the job"
	grep -E 'MB/sec  (warmup|execute)' "$W/out" >progress
	assert_all_match "$RE_PROGRESS" progress "progress lines"
	(cd t/clients && ls) >found.clients
	printf 'client%s\n' 0 1 2 3 4 5 >expected.clients
	assert_same_lines expected.clients found.clients "clients in the shared directory"
	# the ranks take turns at the record of kept trees, in rank order
	assert_eq "$(cat expected.clients)" "$(cat t/clients/.dbench-kept)" \
		"the record of kept trees (every rank's, in rank order)"
	# the preparation lines count every rank's processes
	grep 'processes prepared for launch' "$W/out" >prepared
	assert_all_match '^[0-6] of 6 processes prepared for launch +[0-9]+ sec$' prepared "preparation lines"
	assert_eq "6 of 6" "$(tail -n 1 prepared | cut -c1-6)" "the last preparation line"
	# the same as one dbench of 6 clients: tree and report shape
	run_db --run-once -t 60 -c "$lf" -D "$W/single" --skip-cleanup 6
	assert_clean_run "dbench, 6 clients"
	tree_listing t >mpi.tree
	tree_listing single >single.tree
	assert_same_lines single.tree mpi.tree "tree against dbench with 6 clients"
	shape "$W/out" >single.shape
	shape "$W/mpi.out" >mpi.shape
	assert_same_lines single.shape mpi.shape "report shape against dbench with 6 clients"
	table_rows "$W/mpi.out" >rows
	assert_all_match "$RE_ROW_COLS" rows "operation table columns"
	python3 - "$W/r.json" "$SRCDIR/doc/dbench-result.schema.json" <<'EOF' || fail "JSON per-host breakdown"
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hosts"]
assert [x["rank"] for x in h] == [0, 1, 2], h
assert all(x["clients"] == 2 and x["host"] for x in h), h
assert [c["rank"] for c in d["clients"]] == [0, 0, 1, 1, 2, 2], d["clients"]
assert sum(x["bytes"] for x in h) == d["result"]["bytes"], (h, d["result"])
EOF
	cp "$W/r.json" "$TOP/three_ranks.json"
}

# A run stopped by its time: rank 0's cleanup lines count the clients of
# every rank (rank 0 has 2 of the 6; the others' trees of the default
# loadfile take far longer to remove than their first word takes to
# arrive), and when mpirun returns every rank and client has ended and
# every tree is gone: no waiting here.
ranks_end_together() {
	need_mpi
	mkdir t
	run_mpi "${LOCAL_MPI[@]}" -np 3 "$DBENCH_MPI" -t 2 -D "$W/t" 2
	our_procs >left
	tree_listing t >tree
	assert_rc 0
	[ -s left ] && { show_file left "processes left"; fail "processes of the job outlived mpirun"; }
	[ -s tree ] && { show_file tree "left in the shared directory"; fail "trees left when mpirun returned"; }
	grep -E "$RE_CLEANUP" "$W/out" >cleanup
	assert_eq "0" "$(tail -n 1 cleanup | awk '{ print $1 }')" "the last cleanup line"
	awk '$1 > 2 { found = 1 } END { exit !found }' cleanup ||
		fail "no cleanup line counts more than rank 0's 2 clients: $(tr '\n' '|' <cleanup)"
	assert_grep '^6 of 6 processes prepared for launch' "$W/out" "the preparation line"
}

# the --json document of three_ranks_shared (kept in $TOP) fits the schema
three_ranks_schema() {
	need_mpi
	python3 -c 'import jsonschema' 2>/dev/null ||
		skip "python3-jsonschema is not installed (schema not checked)"
	[ -s "$TOP/three_ranks.json" ] ||
		fail "no --json document: the -np 3 check failed before writing it"
	python3 - "$TOP/three_ranks.json" "$SRCDIR/doc/dbench-result.schema.json" \
		>"$W/schema.err" 2>&1 <<'EOF' || fail "--json: $(tail -n 3 "$W/schema.err")"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
EOF
}

# The results merge up a tree (rank 0 receives at most 4, rank 4 merges
# rank 5's): the job's JSON is the flat merge's in rank order, byte for
# byte (the test hook DBENCH_MPI_MERGE_CHECK writes the flat one).
merge_tree_flat() {
	need_mpi
	mkdir t
	DBENCH_MPI_MERGE_CHECK=$W/flat.json run_mpi "${LOCAL_MPI[@]}" -np 6 \
		"$DBENCH_MPI" --run-once -t 60 --warmup 0 -c "$DATA/tree.txt" \
		-D "$W/t" --json "$W/tree.json" 2
	assert_clean_run "dbench-mpi -np 6"
	[ -s "$W/flat.json" ] || fail "no flat merge written (DBENCH_MPI_MERGE_CHECK)"
	cmp -s "$W/flat.json" "$W/tree.json" || {
		diff "$W/flat.json" "$W/tree.json" | head -n 20 >"$W/diff"
		show_file "$W/diff" "flat vs tree"
		fail "the tree merge's JSON differs from the flat merge's"
	}
	assert_eq "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5] 6" \
		"$(json_field "$W/tree.json" '" ".join(str(x) for x in ([c["client"] for c in d["clients"]], [c["rank"] for c in d["clients"]], len(d["hosts"])))')" \
		"every rank's clients, in rank order"
}

# ---- two hosts: network namespaces joined by a veth pair ----------------
NS_NET=169.254.77
NS_PIDS=()

# ns_up: namespaces hosta and hostb (net + uts, held by a sleep each),
# a veth pair dbv <-> dbv with $NS_NET.1/30 and .2/30, and a launcher
# agent that runs a command "on" a host with nsenter.
ns_up() {
	local h pid i=1
	for h in hosta hostb; do
		unshare -n -u sleep 600 &
		pid=$!
		NS_PIDS+=("$pid")
		echo "$pid" >"$W/$h.pid"
	done
	sleep 0.2
	nsenter -t "${NS_PIDS[0]}" -n ip link add dbv type veth peer name dbv \
		netns "${NS_PIDS[1]}" || fail "veth pair"
	for h in hosta hostb; do
		pid=$(cat "$W/$h.pid")
		nsenter -t "$pid" -u hostname "$h" || fail "hostname $h"
		nsenter -t "$pid" -n sh -c "ip addr add $NS_NET.$i/30 dev dbv &&
			ip link set dbv up && ip link set lo up" || fail "addresses of $h"
		i=$((i + 1))
	done
	cat >"$W/agent" <<EOF
#!/bin/sh
# launcher agent: HOST COMMAND... runs COMMAND in HOST's namespaces
h=\$1; shift
exec nsenter -t "\$(cat "$W/\$h.pid")" -n -u sh -c "\$*"
EOF
	chmod +x "$W/agent"
	printf 'hosta slots=1\nhostb slots=1\n' >"$W/hosts"
}

ns_down() {
	local pid
	for pid in "${NS_PIDS[@]}"; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	NS_PIDS=()
}

two_hosts() {
	local h rows
	need_mpi
	[ "$(id -u)" -eq 0 ] || skip "two hosts in namespaces need root"
	for h in unshare nsenter ip; do
		command -v $h >/dev/null || skip "$h not found"
	done
	mkdir da db sa sb
	trap ns_down EXIT
	ns_up
	# mpirun runs on hosta; hostb's daemon is started through the agent;
	# every byte goes over the veth pair (and each namespace's loopback)
	run_mpi nsenter -t "${NS_PIDS[0]}" -n -u mpirun "${mpi_opts[@]}" \
		--hostfile "$W/hosts" --mca plm_rsh_agent "$W/agent" \
		--mca plm_rsh_no_tree_spawn 1 \
		--mca oob_tcp_if_include $NS_NET.0/30 \
		--mca btl tcp,self --mca btl_tcp_if_include $NS_NET.0/30 \
		-np 1 --host hosta "$DBENCH_MPI" --run-once -t 60 \
		-c "$DATA/basic.txt" -D "$W/da" --json "$W/r.json" 2 : \
		-np 1 --host hostb "$DBENCH_MPI" --run-once -t 60 \
		-c "$DATA/basic.txt" -D "$W/db" --json "$W/r.json" 2
	assert_clean_run "two hosts"
	keep mpi
	assert_grep '^Throughput .*  4 clients  4 procs  ' "$W/mpi.out" "Throughput line of both hosts"
	# the parts: each host alone, in its own namespace
	LAST_CMD="dbench (hosta)"
	nsenter -t "${NS_PIDS[0]}" -n -u timeout "$IT_TIMEOUT" "$DBENCH" \
		--run-once -t 60 -c "$DATA/basic.txt" -D "$W/sa" 2 >a.out 2>&1 ||
		fail "hosta alone"
	nsenter -t "${NS_PIDS[1]}" -n -u timeout "$IT_TIMEOUT" "$DBENCH" \
		--run-once -t 60 -c "$DATA/basic.txt" -D "$W/sb" 2 >b.out 2>&1 ||
		fail "hostb alone"
	cat <(table_counts a.out) <(table_counts b.out) |
		awk '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' |
		sort >sum.counts
	table_counts mpi.out | sort >merged.counts
	assert_same_lines sum.counts merged.counts "merged op counts = hosta + hostb"
	python3 - "$W/r.json" <<'EOF' || fail "JSON: hosts and the sum of their clients"
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hosts"]
assert [(x["rank"], x["host"], x["clients"]) for x in h] == \
    [(0, "hosta", 2), (1, "hostb", 2)], h
assert sum(x["bytes"] for x in h) == d["result"]["bytes"], (h, d["result"])
# every op's count and histogram = the sum over the clients of both hosts
for op in d["operations"]:
    per = [o for c in d["clients"] for o in c["operations"]
           if o["name"] == op["name"]]
    assert sum(o["count"] for o in per) == op["count"], (op, per)
EOF
	rows=$(find da db -mindepth 1 | wc -l)
	assert_eq 0 "$rows" "entries left in the hosts' directories"
	ns_down
}

# Clients failing (every rank runs the failing loadfile: ranks must run
# the same workload): the job ends, each message naming rank, host,
# client and line; every rank cleans up.
client_fails() {
	need_mpi
	mkdir t
	run_mpi "${LOCAL_MPI[@]}" -np 3 "$DBENCH_MPI" -t 30 \
		-c "$DATA/failopen.txt" -D "$W/t" 2
	assert_rc 1
	assert_grep "^rank 1 \\(host $(hostname)\\): dbench: client [23], [^ ]*failopen\\.txt:10: ReadX" "$W/err" "message names rank, host, client and line"
	assert_grep '^Throughput .*  6 clients  ' "$W/out" "the report of the job"
	assert_empty_dir "$W/t" "shared directory after the failed job"
	assert_no_procs
}

# start_timed_job [MPIRUN-OPTION...]: a 60 s job of 3 ranks in the
# background (MP), once it prints progress.
start_timed_job() {
	mkdir t
	set -m
	"${LOCAL_MPI[@]}" "$@" -np 3 "$DBENCH_MPI" -t 60 -c "$DATA/basic.txt" \
		-D "$W/t" 2 >"$W/out" 2>"$W/err" </dev/null &
	MP=$!
	set +m
	# wait for the first progress line of the job
	for _ in $(seq 1 120); do
		grep -q 'MB/sec  ' "$W/out" && return 0
		sleep 0.5
	done
	kill -KILL -"$MP" 2>/dev/null
	fail "no progress line within 60 s"
}

# wait_job SECONDS: wait for mpirun, at most SECONDS; RC is its status.
wait_job() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		kill -0 "$MP" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$MP" 2>/dev/null; then
		kill -KILL -"$MP" 2>/dev/null
		fail "the job did not end within $1 s"
	fi
	wait "$MP"
	RC=$?
}

# rank_pid R: the pid of rank R of the job started by start_timed_job.
rank_pid() {
	local p
	for p in $(ps -o pid= --ppid "$MP"); do
		tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" |
			grep -qx "OMPI_COMM_WORLD_RANK=$1" && echo "$p" && return
	done
}

rank_killed() {
	local victim
	need_mpi
	start_timed_job "${GRACE_MPI[@]}"
	victim=$(rank_pid 1)
	[ -n "$victim" ] || fail "rank 1 not found"
	kill -KILL "$victim"
	wait_job 15
	LAST_CMD="mpirun -np 3 dbench-mpi -t 60 2 (rank 1 killed)"
	[ "$RC" -ne 0 ] || fail "the job exited 0 after losing a rank"
	assert_grep 'rank 1\b.*(killed|Killed|lost)' "$W/err" "message names the rank lost"
	assert_survivors_clean
}

# the surviving ranks' clients (0, 1, 4, 5) are cleaned up; the lost
# rank's clients died with it, mid-operation; nothing is left running
assert_survivors_clean() {
	assert_no_procs
	for c in 0 1 4 5; do
		[ -e "$W/t/clients/client$c" ] && fail "client$c's tree left by a surviving rank"
	done
	return 0
}

# A host lost: rank 1 stops answering (SIGSTOP; the launcher sees no
# death).  Rank 0's tick does not complete, it pings, names rank 1 and
# ends the job.
rank_lost() {
	local victim
	need_mpi
	start_timed_job
	victim=$(rank_pid 1)
	[ -n "$victim" ] || fail "rank 1 not found"
	kill -STOP "$victim"
	wait_job 30
	LAST_CMD="mpirun -np 3 dbench-mpi -t 60 2 (rank 1 stopped)"
	[ "$RC" -ne 0 ] || fail "the job exited 0 after losing a rank"
	assert_grep "rank 1 \\(host $(hostname)\\) did not answer during a tick: lost" "$W/err" "rank 0 names the rank lost"
	assert_survivors_clean
}

sigint_mpirun() {
	need_mpi
	start_timed_job "${GRACE_MPI[@]}"
	kill -INT "$MP"
	wait_job 30
	LAST_CMD="mpirun -np 3 dbench-mpi -t 60 2 (SIGINT to mpirun)"
	# dbench-mpi's ranks exit 128+signal; Open MPI's mpirun itself
	# exits 1 once it was interrupted, whatever its ranks say
	case $RC in 130 | 1) ;; *) fail "exit status $RC after SIGINT, expected 130 (or Open MPI's 1)" ;; esac
	assert_grep '^Interrupted' "$W/out" "partial results"
	assert_grep "$RE_THROUGHPUT" "$W/out" "Throughput line of the partial results"
	assert_grep '^Throughput .*  6 clients  ' "$W/out" "the report covers the job"
	assert_empty_dir "$W/t" "shared directory after SIGINT"
	assert_no_procs
}

# --warmup auto across ranks: rank 0 decides on the job's lines per
# second (2 slow seconds, then 200 lines/s a client); the response times
# of a timed loadfile are every rank's.
steady_response() {
	need_mpi
	awk 'BEGIN {
		for (i = 0; i < 20; i++)
			printf "%.3f QUERY_FS_INFORMATION 259 NT_STATUS_OK\n", i * 0.1
		for (i = 0; i < 12000; i++)
			printf "%.3f QUERY_FS_INFORMATION 259 NT_STATUS_OK\n", 2 + i * 0.005
	}' >slow.txt
	run_mpi "${LOCAL_MPI[@]}" -np 2 "$DBENCH_MPI" -B null -c slow.txt \
		--warmup auto --warmup-max 30 -t 1 --json "$W/r.json" 1
	assert_clean_run "dbench-mpi -np 2 --warmup auto"
	assert_grep '^Warmup: steady after [0-9]+ s ' "$W/out" "warmup line"
	assert_grep "^Response time from when each op was due \(the loadfile's timestamps\)" \
		"$W/out" "response table"
	python3 - "$W/r.json" <<'EOF' || fail "JSON warmup and response"
import json, sys
d = json.load(open(sys.argv[1]))
w = d["warmup"]
assert w["mode"] == "auto" and w["steady"] and 6 <= w["seconds"] < 30, w
op = d["operations"][0]
assert op["response"]["count"] == op["count"] > 0, op
assert sum(c["operations"][0]["count"] for c in d["clients"]) == op["count"]
EOF
}

# refused NAME OPTION RANKS_RE ARGS...: mpirun ARGS (MPMD) is refused
# before the run: exit status 2, one line naming OPTION and the ranks,
# no client started, nothing left in the directory.
refused() {
	local what=$1 opt=$2 ranks=$3 n
	shift 3
	run_mpi "${LOCAL_MPI[@]}" "$@"
	LAST_CMD="mpirun ($what)"
	assert_rc 2
	assert_grep "^rank 0 \\(host [^)]*\\): dbench-mpi: ranks differ in $opt: $ranks" "$W/err" "$what: the refusal"
	n=$(grep -c 'dbench-mpi: ranks differ' "$W/err")
	[ "$n" -eq 1 ] || fail "$what: expected 1 refusal line, found $n"
	assert_no_grep 'prepared for launch|MB/sec|^Throughput' "$W/out" "$what: no run"
	assert_empty_dir "$W/t" "$what: the shared directory"
	assert_no_procs
}

# one refusal, and identical ranks given apart: they run
unlike_backend() {
	local lf=$DATA/basic.txt
	need_mpi
	mkdir t
	refused "different -B" --backend "rank 0 fileio, rank 1 null" \
		-np 1 "$DBENCH_MPI" -t 30 -B fileio -c "$lf" -D "$W/t" 2 : \
		-np 1 "$DBENCH_MPI" -t 30 -B null -c "$lf" -D "$W/t" 2
	run_mpi "${LOCAL_MPI[@]}" \
		-np 1 "$DBENCH_MPI" --run-once -t 30 -c "$lf" -D "$W/t" 2 : \
		-np 1 "$DBENCH_MPI" --run-once -t 30 -c "$lf" -D "$W/t" 2
	assert_clean_run "identical ranks"
	assert_grep '^Throughput .*  4 clients  4 procs  ' "$W/out" "identical ranks: the report"
}

# the other settings a refusal names (under check-sanitize, the code is
# unlike_backend's: every rank describes every setting each time, and
# each job that ends refused costs ~20 s there)
unlike_ranks() {
	local lf=$DATA/basic.txt
	need_mpi
	sanitizers_skip "every refusal runs the code of the -B one (unlike_backend)"
	mkdir t
	refused "different -c" --loadfile \
		"rank 0 basic\\.txt \\([0-9]+ bytes\\), rank 2 misc\\.txt" \
		-np 2 "$DBENCH_MPI" -t 30 -c "$lf" -D "$W/t" 2 : \
		-np 1 "$DBENCH_MPI" -t 30 -c "$DATA/misc.txt" -D "$W/t" 2
	# the same name, another content: a copy with one line less
	mkdir other
	head -n -1 "$lf" >other/basic.txt
	refused "same -c name, other content" --loadfile \
		"rank 0 basic\\.txt \\([0-9]+ bytes\\), rank 1 basic\\.txt" \
		-np 1 "$DBENCH_MPI" -t 30 -c "$lf" -D "$W/t" 2 : \
		-np 1 "$DBENCH_MPI" -t 30 -c "$W/other/basic.txt" -D "$W/t" 2
	refused "different client counts" "the number of clients" \
		"rank 0 2, rank 1 3" \
		-np 1 "$DBENCH_MPI" -t 30 -c "$lf" -D "$W/t" 2 : \
		-np 1 "$DBENCH_MPI" -t 30 -c "$lf" -D "$W/t" 3
	refused "different --warmup" --warmup "rank 0 2, rank 1 1" \
		-np 1 "$DBENCH_MPI" -t 30 --warmup 2 -c "$lf" -D "$W/t" 2 : \
		-np 1 "$DBENCH_MPI" -t 30 --warmup 1 -c "$lf" -D "$W/t" 2
}

check "-np 3, 2 clients each, one directory: 6 passes, clients 0..5, single-host shape" three_ranks_shared
check "-np 2, --warmup auto and a timed loadfile: steady state and response times of the job" steady_response
check "-np 3: the --json document fits the schema" three_ranks_schema
check "-np 6: the results merged up the tree = merged flat in rank order (same JSON)" merge_tree_flat
check "-np 3, -t 2: the cleanup lines count every rank's clients; nothing left when mpirun returns" ranks_end_together
check "two hosts (namespaces + veth, MPI over TCP): merged = sum of the parts" two_hosts
check "clients fail: messages name rank, host, client, line; clean" client_fails
check "rank 1 killed mid-run: the job ends within 15 s naming it, no orphans" rank_killed
check "rank 1 stops answering (a host lost): rank 0 names it, the job ends" rank_lost
check "ranks with different -B: refused (exit 2), nothing run; identical ranks given apart run" unlike_backend
check "ranks with different -c (name or content), client count, --warmup: refused (exit 2), nothing run" unlike_ranks
check "SIGINT to mpirun: partial results, clean trees, no processes" sigint_mpirun
finish
