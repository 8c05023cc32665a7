#!/bin/bash
# slurm.sh - dbench-mpi under a scheduler: a throwaway one-node Slurm
# (slurmctld and slurmd on 127.0.0.1, ports off the defaults, auth/none,
# every file in a temporary directory, stopped by PID).  `srun --mpi=pmix`
# and `sbatch` run one job with one report for all its ranks; a client
# killed on rank 1 is named with its rank and host; `scancel` ends a job
# with the interrupted report and nothing left running; a --curve of
# several runs goes under one srun.
# Skipped (with the reason) when dbench-mpi was not built, or Slurm
# (slurmctld, slurmd, srun, sbatch) or its PMIx plugin is missing, or not
# as root (slurmd starts the tasks as their user).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

: "${DBENCH_MPI:=$SRCDIR/dbench-mpi}"
# a job's bound (a request the partition cannot meet waits forever)
: "${SLURM_JOB_TIMEOUT:=60}"
# every process of a job carries this mark in its environment (srun
# passes the environment on); the daemons are started without it
export DBENCH_MPI_TEST_MARK=$TOP
# what it checks is the launch under a scheduler (the sanitized
# dbench-mpi runs in mpi.sh under make check-sanitize)
not_under_sanitizers "it checks srun, sbatch and scancel around dbench-mpi, whose sanitized run mpi.sh checks (checked by make check)"

[ -x "$DBENCH_MPI" ] || skip_all "dbench-mpi not built (configure found no MPI: install libopenmpi-dev)"
for t in slurmctld slurmd srun sbatch scancel squeue; do
	command -v "$t" >/dev/null ||
		skip_all "$t not found (install slurmctld slurmd slurm-client slurm-wlm-basic-plugins)"
done
PLUGINS=$(dirname "$(ls /usr/lib/*/slurm-wlm/mpi_pmix.so /usr/lib/slurm/mpi_pmix.so 2>/dev/null | head -n 1)")
[ "$PLUGINS" != . ] || skip_all "Slurm's pmix plugin (mpi_pmix.so) is missing (install slurm-wlm-basic-plugins)"
[ "$(id -u)" -eq 0 ] || skip_all "not root: a throwaway slurmd runs only as root"

# ---- the throwaway cluster: this host, DBN, on 127.0.0.1 ----------------
SL=$TOP/slurm
# slurmctld runs only on the host its configuration names
DBN=$(hostname -s)
CTLD_PID=
SLURMD_PID=
export SLURM_CONF=$SL/slurm.conf

# slurm_conf BASE: the configuration, ports BASE (slurmctld), BASE+1
# (slurmd), BASE+2.. (srun).
slurm_conf() {
	cat >"$SL/slurm.conf" <<CONF
ClusterName=dbtest
MailProg=/bin/true
SlurmctldHost=$DBN(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$(($1 + 1))
SrunPortRange=$(($1 + 2))-$(($1 + 40))
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
PluginDir=$PLUGINS
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd.pid
SlurmctldLogFile=$SL/slurmctld.log
SlurmdLogFile=$SL/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
KillWait=2
NodeName=$DBN NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$DBN Default=YES State=UP OverSubscribe=FORCE:4
CONF
}

slurm_down() {
	local p
	for p in $SLURMD_PID $CTLD_PID; do
		kill "$p" 2>/dev/null
	done
	for p in $SLURMD_PID $CTLD_PID; do
		wait "$p" 2>/dev/null
	done
	SLURMD_PID=
	CTLD_PID=
}

# slurm_up: both daemons, then wait (15 s at most) until a one-task job
# runs.  Returns 1 when they do not come up.
slurm_up() {
	local base end=$((SECONDS + 15))
	mkdir -p "$SL/state" "$SL/spool"
	base=$((20000 + RANDOM % 20000))
	slurm_conf "$base"
	env -u DBENCH_MPI_TEST_MARK slurmctld -D -f "$SLURM_CONF" \
		>"$SL/slurmctld.out" 2>&1 </dev/null &
	CTLD_PID=$!
	env -u DBENCH_MPI_TEST_MARK slurmd -D -f "$SLURM_CONF" -N "$DBN" \
		>"$SL/slurmd.out" 2>&1 </dev/null &
	SLURMD_PID=$!
	while [ "$SECONDS" -lt "$end" ]; do
		kill -0 "$CTLD_PID" 2>/dev/null && kill -0 "$SLURMD_PID" 2>/dev/null ||
			return 1
		timeout 3 srun -n 1 true >/dev/null 2>&1 </dev/null && return 0
		sleep 0.2
	done
	return 1
}

mkdir -p "$SL"
slurm_up || {
	note "slurmctld log:"; tail -n 5 "$SL/slurmctld.log" "$SL/slurmctld.out" 2>/dev/null | sed 's/^/#   /'
	note "slurmd log:"; tail -n 5 "$SL/slurmd.log" "$SL/slurmd.out" 2>/dev/null | sed 's/^/#   /'
	slurm_down
	bail_out "the throwaway Slurm did not come up within 15 s"
}
trap 'slurm_down; it_cleanup' EXIT

# run_job CMD...: CMD (srun or sbatch --wait), bounded; stdout and stderr
# to $W/out, $W/err, the status to RC.
run_job() {
	LAST_CMD="$*"
	timeout -k 5 "$SLURM_JOB_TIMEOUT" "$@" >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	[ "$RC" -eq 124 ] && fail "$1 did not finish within $SLURM_JOB_TIMEOUT s"
	return 0
}

# one_report: $W/out holds one job's report: one Throughput line for
# CLIENTS clients (every rank's), and stderr no error.
one_report() {
	assert_eq 1 "$(grep -c '^Throughput ' "$W/out")" "one report for the whole job"
	assert_grep "^Throughput .*  $1 clients  $1 procs  " "$W/out" "the report counts every rank's clients"
}

srun_pmix() {
	mkdir t
	run_job srun -n 3 -O --mpi=pmix "$DBENCH_MPI" --run-once -t 60 \
		-c "$DATA/tree.txt" -D "$W/t" --json "$W/r.json" 2
	assert_clean_run "srun -n 3 --mpi=pmix dbench-mpi"
	one_report 6
	loadfile_counts "$DATA/tree.txt" 6 >expected.counts
	assert_counts expected.counts "op counts of 3 ranks x 2 clients"
	assert_eq 3 "$(json_field "$W/r.json" 'len(d["hosts"])')" "the JSON's hosts: one per rank"
	assert_empty_dir "$W/t" "the directory after the job"
	assert_no_procs ' srun '
}

sbatch_job() {
	local job
	mkdir t
	cat >job.sh <<JOB
#!/bin/sh
#SBATCH -n 2
#SBATCH -O
#SBATCH -o $W/out
#SBATCH -e $W/err
srun --mpi=pmix "$DBENCH_MPI" --run-once -t 60 -c "$DATA/tree.txt" -D "$W/t" 2
JOB
	# sbatch --wait polls every few seconds: poll squeue instead
	LAST_CMD="sbatch job.sh"
	timeout 10 sbatch job.sh >sbatch.out 2>&1 </dev/null
	RC=$?
	assert_rc 0
	assert_grep '^Submitted batch job [0-9]+$' sbatch.out "sbatch took the job"
	job=$(awk '{ print $4 }' sbatch.out)
	for _ in $(seq 1 $((SLURM_JOB_TIMEOUT * 10))); do
		[ -z "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] && break
		sleep 0.1
	done
	[ -z "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] ||
		{ scancel "$job"; fail "the batch job did not end within $SLURM_JOB_TIMEOUT s"; }
	[ -s "$W/err" ] && { show_file "$W/err" stderr; fail "the batch job wrote on stderr"; }
	one_report 4
	assert_empty_dir "$W/t" "the directory after the job"
	assert_no_procs ' srun '
}

# a client of rank 1 killed (SIGKILL) mid-run: its line names the rank
killed_client() {
	local pids p victim=
	mkdir t
	set -m
	timeout -k 5 "$SLURM_JOB_TIMEOUT" srun -n 2 -O --mpi=pmix \
		"$DBENCH_MPI" -t 30 --warmup 0 -c "$DATA/basic.txt" -D "$W/t" 1 \
		>"$W/out" 2>"$W/err" </dev/null &
	SP=$!
	set +m
	LAST_CMD="srun -n 2 --mpi=pmix dbench-mpi -t 30 1 (a client of rank 1 killed)"
	for _ in $(seq 1 60); do
		grep -q 'MB/sec  execute' "$W/out" && break
		sleep 0.5
	done
	# rank 1 (PMIX_RANK=1, a task of slurmstepd), and its worker: of
	# its children (the worker, and the stderr forwarders, which sleep
	# on a pipe), the one that has used the most CPU
	for p in $(our_procs | cut -d' ' -f1); do
		tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" | grep -qx 'PMIX_RANK=1' || continue
		[ "$(ps -o comm= -p "$(ps -o ppid= -p "$p" | tr -d ' ')")" = slurmstepd ] || continue
		victim=$(for c in $(ps -o pid= --ppid "$p"); do
			awk -v c="$c" '{ print $14 + $15, c }' "/proc/$c/stat" 2>/dev/null
		done | sort -n | tail -n 1 | awk '{ print $2 }')
	done
	[ -n "$victim" ] || { kill -KILL -"$SP" 2>/dev/null; fail "no worker of rank 1 found"; }
	kill -KILL "$victim"
	wait "$SP"
	RC=$?
	[ "$RC" -ne 0 ] || fail "the job exited 0 after a client was killed"
	assert_grep "^rank 1 \\(host $(hostname)\\): dbench: client 1 \\(process $victim\\) was killed by signal 9" \
		"$W/err" "the killed client's line carries its rank and host"
	assert_no_procs ' srun '
}

# scancel mid-run: the job ends at once with the interrupted report of
# every rank's clients, trees removed, nothing left running
scancel_job() {
	local job=
	mkdir t
	set -m
	timeout -k 5 "$SLURM_JOB_TIMEOUT" srun -n 2 -O --mpi=pmix -J "dbt$$" \
		"$DBENCH_MPI" -t 60 --warmup 0 -c "$DATA/basic.txt" -D "$W/t" 2 \
		>"$W/out" 2>"$W/err" </dev/null &
	SP=$!
	set +m
	LAST_CMD="srun -n 2 --mpi=pmix dbench-mpi -t 60 2 (scancel)"
	for _ in $(seq 1 60); do
		grep -q 'MB/sec  execute' "$W/out" && break
		sleep 0.5
	done
	job=$(squeue -h -n "dbt$$" -o %i)
	[ -n "$job" ] || { kill -KILL -"$SP" 2>/dev/null; fail "the job is not in squeue"; }
	scancel "$job"
	for _ in $(seq 1 100); do
		kill -0 "$SP" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$SP" 2>/dev/null && { kill -KILL -"$SP"; fail "srun still runs 10 s after scancel"; }
	wait "$SP"
	RC=$?
	[ "$RC" -ne 0 ] || fail "srun exited 0 after scancel"
	assert_grep '^Interrupted' "$W/out" "the interrupted report"
	assert_grep '^Throughput .*  4 clients  4 procs  ' "$W/out" "the report covers the job"
	assert_empty_dir "$W/t" "the directory after scancel"
	assert_no_procs ' srun '
}

# --curve 2,4 over one srun of 2 ranks: every point is the job's
curve_srun() {
	mkdir t
	run_job srun -n 2 -O --mpi=pmix "$DBENCH_MPI" -D "$W/t" \
		-c "$DATA/basic.txt" -t 1 --warmup 0 --curve=2,4 \
		--slo 'p99<=10s' --json "$W/m.json"
	assert_rc 0
	json_field "$W/m.json" '[[x["clients"], x["result"]["result"]["clients"]] for x in d["curve"]["points"]]' >points
	assert_eq "[[2, 2], [4, 4]]" "$(cat points)" "the points: 2 and 4 clients of the job"
	assert_grep '^at least 4 clients within p99<=10s' "$W/out" "the answer"
	assert_empty_dir "$W/t" "the directory after the curve"
	assert_no_procs ' srun '
}

check "srun -n 3 --mpi=pmix: one report, every rank's op counts, one host each" srun_pmix
check "sbatch (srun --mpi=pmix inside): one report for the job" sbatch_job
check "srun: a client of rank 1 killed, its line names rank and host" killed_client
check "scancel: the interrupted report at once, nothing left running" scancel_job
check "srun --curve=2,4: each point the job's" curve_srun
finish
