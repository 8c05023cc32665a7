#!/bin/bash
# sweep.sh - several runs in one command: --repeat N (a line per run,
# the statistics, the JSON "repeats" section, the output without it
# unchanged) and --curve with --slo bounds (a curve over fileio on
# tmpfs, the bounds refused before anything starts, a point that fails,
# Ctrl-C mid-curve (both "ended early", never a capacity), --curve with
# --repeat (medians, intervals, the capacity's interval), three points
# over a real smbd in a private network namespace, dbench-mpi over 2
# ranks) and the noise a run records (a busy neighbour planted).  Each run is short (-t 1 or 2): a few seconds in all, the
# smbd check about ten.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_session.sh"

BINDIR=$(dirname "$DBENCH")
: "${DBENCH_MPI:=$BINDIR/dbench-mpi}"

need_python() {
	command -v python3 >/dev/null || skip "python3 is not installed"
}

# --repeat 3 over -B null: three runs, the statistics of their figures.
repeat_null() {
	need_python
	run_db -B null -t 1 --warmup 0 --repeat 3 --json "$W/r.json" 2
	assert_rc 0
	[ "$(grep -Ec '^Run [123] of 3: [0-9.]+ MB/sec, [0-9.]+ ops/sec, 2 clients' "$W/out")" = 3 ] ||
		fail "expected a line for each of the 3 runs"
	assert_grep '^MB/sec +mean [0-9.]+ \+/- [0-9.]+ sd, min [0-9.]+, max [0-9.]+, CV [0-9.]+%, 95% CI of the mean -?[0-9.]+ to [0-9.]+$' \
		"$W/out" "the MB/sec summary"
	assert_grep '^ops/sec +mean ' "$W/out" "the ops/sec summary"
	SCHEMA=$SRCDIR/doc/dbench-result.schema.json
	python3 - "$W/r.json" "$SCHEMA" <<'PY' || fail "the repeats section"
import json, math, statistics, sys
d = json.load(open(sys.argv[1]))
try:  # the schema, where python3-jsonschema is installed
    import jsonschema
    jsonschema.validate(d, json.load(open(sys.argv[2])))
except ImportError:
    pass
r = d["repeats"]
runs = [x["result"]["throughput_mb_per_s"] for x in r["runs"]]
s = r["statistics"]["mb_per_s"]
ok = (r["n"] == 3 and len(runs) == 3 and
      math.isclose(s["mean"], statistics.mean(runs), rel_tol=1e-6) and
      math.isclose(s["sd"], statistics.stdev(runs), rel_tol=1e-4) and
      # t(0.975, 2 df) = 4.303 (the standard table)
      math.isclose(s["ci95_high"] - s["mean"],
                   4.302653 * s["sd"] / math.sqrt(3), rel_tol=1e-4) and
      d["tool"]["name"] == "dbench")
if not ok:
    print("#", r["n"], runs, s)
sys.exit(0 if ok else 1)
PY
}

# masked: the output without its numbers and the lines that come and go
# with timing (how many processes were prepared, progress seconds)
masked() {
	grep -Ev 'prepared for launch|MB/sec  (warmup|execute)|cleanup' \
		"$W/out" | sed 's/[0-9][0-9.]*/N/g'
}

# Without --repeat (or with --repeat 1) the output is today's: the same
# lines once the numbers are masked.
repeat_one_unchanged() {
	run_db -B null --run-once -c "$DATA/basic.txt" 2
	assert_rc 0
	masked >plain
	run_db -B null --run-once --repeat 1 -c "$DATA/basic.txt" 2
	assert_rc 0
	masked >one
	assert_same_lines plain one "--repeat 1's output"
}

# A run that fails ends the repeats: its status, the runs so far (none
# here) summarised, the trees cleaned.
repeat_fails() {
	mkdir t
	run_db -D "$W/t" -c "$DATA/unlink_mismatch.txt" --strict -t 1 \
		--warmup 0 --repeat 3 1
	assert_rc 1
	assert_grep '^Run 1 of 3: failed \(exit status 1\)$' "$W/out" "the failed run"
	assert_no_grep '^Run 2 of 3' "$W/out" "a run after the failure"
	assert_grep '^No run completed: no statistics$' "$W/out" "the summary"
	assert_empty_dir "$W/t" "target"
}

# Ctrl-C in the second run of three: one run completed, and one figure
# has no spread: no sd, no CV, no interval.
repeat_sigint_one() {
	mkdir t
	start_session -D "$W/t" -c "$DATA/basic.txt" -t 3 --warmup 0 \
		--repeat 3 1
	wait_for_line '^Run 2 of 3$'
	wait_for_line '^releasing clients' 10
	kill -INT "$BG"
	wait_exit 30
	assert_rc 130
	assert_grep '^Run 1 of 3: [0-9.]+ MB/sec' "$W/out" "the first run"
	assert_grep '^1 run of 1 client, 3 s each:$' "$W/out" "the summary's head"
	assert_grep '^MB/sec +[0-9.]+ \(1 run: no spread\)$' "$W/out" "no spread"
	assert_no_grep 'sd|CV|CI' "$W/out" "a spread of one run"
	assert_empty_dir "$W/t" "target"
}

# What does not go with --repeat or --curve: exit 2 before anything.
sweep_refusals() {
	run_db -B null --repeat 0 1
	assert_usage_error "--repeat 0"
	run_db -B null --repeat 2 --skip-cleanup 1
	assert_usage_error "--repeat with --skip-cleanup"
	run_db -B null --slo 'p99<=1s' 1
	assert_usage_error "--slo without --curve"
	run_db -B null --curve=auto
	assert_usage_error "--curve=auto without a bound"
	run_db -B null --curve=1,2 4
	assert_usage_error "--curve with NUMCLIENTS"
	run_db -B null --curve=1,x
	assert_usage_error "--curve with a bad count"
	run_db -B null --curve 1,2,4 --slo 'p99<=1s'
	assert_usage_error "--curve LIST without ="
	assert_grep 'given as --curve=1,2,4' "$W/err" "the hint"
}

# A malformed bound, or one for an op the loadfile never runs: exit 2,
# named, before anything starts (no header, no tree).
bad_bound() {
	mkdir t
	run_db -D "$W/t" -c "$DATA/unlink_mismatch.txt" --curve=1 --slo "$1"
	assert_usage_error "--slo '$1'"
	assert_grep "$2" "$W/err" "the message"
	[ -s "$W/out" ] && fail "something started: $(head -n 1 "$W/out")"
	assert_empty_dir "$W/t" "target"
}

# assert_usl_agrees JSON [OUT]: the curve's "usl" member (dbench's C fit,
# stats/usl.c) has the parameters dbench-history's usl.py finds for the
# same points (usl.curve_points: not the FAILED or INTERRUPTED ones), and
# OUT (if given) has usl.py's line for them after the answer.
assert_usl_agrees() {
	python3 - "$SRCDIR/src/history" "$1" "${2:-}" <<'PY' ||
import json, sys
sys.path.insert(0, sys.argv[1])
from dbench_history import usl
c = json.load(open(sys.argv[2]))["curve"]
want = usl.fit(usl.curve_points(c["points"]))
got = c.get("usl", "absent")
if want is None:
    sys.exit(0 if got is None else "usl: %r, usl.py: no fit" % (got,))
for k, w in (("lambda_mb_per_s", "lam"), ("sigma", "sigma"),
             ("kappa", "kappa"), ("r2", "r2"), ("peak_clients",
             "peak_clients"), ("n_points", "n"), ("poor", "poor")):
    a, b = got[k], want[w]
    if (a is None) != (b is None) or (
            a is not None and abs(a - b) > 1e-9 * abs(b)):
        sys.exit("usl %s: %r, usl.py: %r" % (k, a, b))
if got["text"] != usl.text(want):
    sys.exit("usl text: %r, usl.py: %r" % (got["text"], usl.text(want)))
if sys.argv[3]:
    lines = open(sys.argv[3], encoding="utf-8").read().splitlines()
    if usl.text(want) not in lines:
        sys.exit("no line %r in the output" % usl.text(want))
PY
		fail "the USL fit of $1 (C) and usl.py's"
}

# A curve whose knee is known, through the whole program: client i runs
# loadfile i mod 6, and only the sixth (client 5) runs Deltree, which a
# bound of 1 ns cannot hold.  So 5 clients hold and 6 do not: auto
# doubles 1 2 4 8 (broken), bisects 6 (broken), 5, and answers exactly 5.
# knee_loadfiles: those loadfiles, fast.txt and slow.txt.
knee_loadfiles() {
	printf '%s\n' 'Mkdir "\clients" NT_STATUS_OK' \
		'NTCreateX "\clients\client1" 0x1 0x3 1 NT_STATUS_OK' \
		'Close 1 NT_STATUS_OK' >fast.txt
	cp fast.txt slow.txt
	printf '%s\n' 'Mkdir "\clients\client1\d" NT_STATUS_OK' \
		'Deltree "\clients\client1\d" NT_STATUS_OK' >>slow.txt
}

curve_knee() {
	need_python
	mkdir t
	knee_loadfiles
	local f=$W/fast.txt
	run_db -D "$W/t" -c "$f,$f,$f,$f,$f,$W/slow.txt" --strict -t 1 \
		--warmup 0 --curve=auto --curve-max 16 \
		--slo 'Deltree:max<=1ns' --json "$W/k.json"
	assert_rc 0
	assert_grep '^at most 5 clients within Deltree:max<=1ns: ' "$W/out" \
		"the answer"
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["curve"]
p = sorted(c["points"], key=lambda x: x["order"])
sys.exit(0 if [x["clients"] for x in p] == [1, 2, 4, 8, 6, 5] and
         c["answer_clients"] == 5 else 1)' "$W/k.json" ||
		fail "the points run: expected 1 2 4 8 6 5"
	assert_usl_agrees "$W/k.json" "$W/out"
	assert_empty_dir "$W/t" "target after the curve"
}

# A curve over fileio on tmpfs: each point a whole run, the table, the
# answer, the JSON with each point's result; trees cleaned.
curve_tmpfs() {
	need_python
	mkdir t
	run_db -D "$W/t" -c "$DATA/basic.txt" -t 1 --warmup 0 --curve=1,2,3 \
		--slo 'p99<=10s' --slo 'Flush:max<=10s' --json "$W/c.json"
	assert_rc 0
	[ "$(grep -Ec '^Point [123]: [0-9]+ clients?$' "$W/out")" = 3 ] ||
		fail "expected a header for each of the 3 points"
	assert_grep '^ Clients +MB/sec +ops/sec +p50 ms +p99 ms +p99<=10s Flush:max<=10s  Status$' \
		"$W/out" "the table's header"
	[ "$(grep -Ec '^ +[123] +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  VALID$' "$W/out")" = 3 ] ||
		fail "expected 3 VALID rows"
	assert_grep '^at least 3 clients within p99<=10s and Flush:max<=10s: [0-9.]+ MB/sec$' \
		"$W/out" "the answer"
	assert_grep '^Overall response time [0-9.]+ ms' "$W/out" "the summary figure"
	assert_eq "USL model: poor fit (3 points for 3 parameters): the model does not describe this curve; read the points" \
		"$(grep -A1 '^Overall response time' "$W/out" | tail -n 1)" \
		"the model's line after the answer"
	assert_usl_agrees "$W/c.json" "$W/out"
	assert_empty_dir "$W/t" "target after the curve"
	SCHEMA=$SRCDIR/doc/dbench-result.schema.json
	python3 - "$W/c.json" "$SCHEMA" <<'PY' || fail "the curve section"
import json, sys
d = json.load(open(sys.argv[1]))
try:  # the schema, where python3-jsonschema is installed
    import jsonschema
    jsonschema.validate(d, json.load(open(sys.argv[2])))
except ImportError:
    pass
c = d["curve"]
p = c["points"]
sys.exit(0 if [x["clients"] for x in p] == [1, 2, 3] and
         all(x["status"] == "VALID" and "operations" in x["result"]
             for x in p) and c["answer_clients"] == 3 and c["complete"]
         else 1)
PY
}

# dbench-plot draws a curve: curve.png (a PNG), named on stdout; the
# script has a line per bound; a curve and a load run do not mix.
curve_plot() {
	command -v gnuplot >/dev/null 2>&1 ||
		skip "gnuplot is not installed (Debian: gnuplot-nox)"
	run_db -B null -t 1 --warmup 0 --curve=1,2 --slo 'p99<=10s' \
		--slo 'NTCreateX:max<=1ns' --json "$W/c.json"
	assert_rc 0
	run_db -B null -t 1 --warmup 0 --json "$W/one.json" 1
	real=$(command -v gnuplot)
	printf '#!/bin/sh\ncp "$1" "%s/plot.gp" && exec "%s" "$1"\n' "$W" \
		"$real" >gp-keep
	chmod +x gp-keep
	LAST_CMD="dbench-plot c.json -o png"
	GNUPLOT=$W/gp-keep "$BINDIR/dbench-plot" c.json -o png >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_eq "png/curve.png" "$(cat "$W/out")" "the chart named"
	[ "$(head -c 4 png/curve.png | od -An -tx1 | tr -d ' ')" = 89504e47 ] ||
		fail "png/curve.png is not a PNG"
	assert_grep 'bound p99<=10s' plot.gp "the first bound's line"
	assert_grep 'bound NTCreateX:max<=1ns' plot.gp "the second bound's line"
	LAST_CMD="dbench-plot c.json one.json"
	"$BINDIR/dbench-plot" c.json one.json -o png2 >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 1
	assert_grep 'a load curve .* goes on a chart with other curves only' \
		"$W/err" "the refusal"
}

# dbench-plot draws each curve's USL fit over its MB/s: documents written
# here (no run): points made from lambda 100, sigma 0.05, kappa 0.002
# (one INVALID, and a FAILED point whose figure would spoil the fit if
# read), the noisy curve SciPy fitted (history_stats.json), a curve the
# model does not describe, two points.  The script defines usl_0(x)
# with the parameters usl.py finds for the same points, draws it (solid,
# or dashed and said "poor"), and a curve of two points has none.
curve_usl_plot() {
	command -v gnuplot >/dev/null 2>&1 ||
		skip "gnuplot is not installed (Debian: gnuplot-nox)"
	need_python
	python3 - "$DATA/history_stats.json" <<'PY' || fail "the documents"
import json, sys
def doc(name, pts):
    points = [{"clients": n, "order": i, "status": st, "exit_status": 0,
               "mb_per_s": x, "p99_ms": 1.0 + i, "bounds": []}
              for i, (n, x, st) in enumerate(pts)]
    json.dump({"schema_version": 1, "tool": {"name": "dbench",
               "version": "t"}, "curve": {"answer": name,
               "points": points}}, open(name + ".json", "w"))
def usl(n):
    return 100 * n / (1 + 0.05 * (n - 1) + 0.002 * n * (n - 1))
doc("known", [(n, usl(n), "INVALID" if n == 32 else "VALID")
              for n in (1, 2, 4, 8, 16, 32, 64)] + [(96, 5000, "FAILED")])
ref = json.load(open(sys.argv[1]))["usl"]
doc("scipy", [(n, x, "VALID") for n, x in zip(ref["clients"],
                                               ref["mb_per_s"])])
doc("poor", [(1, 100, "VALID"), (2, 30, "VALID"), (4, 500, "VALID"),
             (8, 20, "VALID"), (16, 400, "VALID")])
doc("two", [(1, 100, "VALID"), (2, 190, "VALID")])
PY
	real=$(command -v gnuplot)
	printf '#!/bin/sh\ncp "$1" "%s/plot.gp" && exec "%s" "$1"\n' "$W" \
		"$real" >gp-keep
	chmod +x gp-keep
	for c in known scipy poor two; do
		LAST_CMD="dbench-plot $c.json -o $c"
		GNUPLOT=$W/gp-keep "$BINDIR/dbench-plot" $c.json -o $c \
			>"$W/out" 2>"$W/err"
		RC=$?
		assert_rc 0
		mv plot.gp $c.gp
	done
	python3 - "$SRCDIR/src/history" "$DATA" <<'PY' || fail "the fits drawn"
import json, re, sys
sys.path.insert(0, sys.argv[1])
from dbench_history import usl
FN = re.compile(r"^usl_0\(x\) = (\S+) \* x / \(1 \+ (\S+) \* \(x - 1\) "
                r"\+ (\S+) \* x \* \(x - 1\)\)$", re.M)
DRAWN = re.compile(r', usl_0\(x\) with lines lw 1\.5 dt ([12]) lc 1 '
                   r'title "([^"]*)"')
def drawn(name):
    gp = open(name + ".gp", encoding="utf-8").read()
    f, d = FN.search(gp), DRAWN.search(gp)
    if (f is None) != (d is None):
        sys.exit("%s: usl_0 defined but not drawn, or drawn undefined" % name)
    return f and tuple(float(v) for v in f.groups()), d and d.groups()
def close(a, b, rel, what):
    if abs(a - b) > rel * abs(b):
        sys.exit("%s: %r, expected %r" % (what, a, b))
def agrees(name):
    """the parameters drawn are usl.py's for the same points"""
    pts = json.load(open(name + ".json"))["curve"]["points"]
    want = usl.fit(usl.curve_points(pts))
    got, how = drawn(name)
    for a, k in zip(got, ("lam", "sigma", "kappa")):
        close(a, want[k], 1e-9, "%s %s (usl.py's)" % (name, k))
    return got, how
(lam, sig, kap), (dt, title) = agrees("known")
close(lam, 100, 1e-6, "lambda"); close(sig, 0.05, 1e-5, "sigma")
close(kap, 0.002, 1e-5, "kappa")
if dt != "1" or title != ("USL fit: \u03c3 0.05, \u03ba 0.002, predicted "
                          "peak 740 MB/s at 21.8 clients, R\u00b2 1.000"):
    sys.exit("known: drawn dt %s, %r" % (dt, title))
(lam, sig, kap), (dt, title) = agrees("scipy")
ref = json.load(open(sys.argv[2] + "/history_stats.json"))["usl"]
close(lam, ref["lam"], 1e-5, "SciPy lambda")
close(sig, ref["sigma"], 1e-5, "SciPy sigma")
close(kap, ref["kappa"], 1e-5, "SciPy kappa")
if dt != "1" or "predicted peak 734 MB/s at 21.8 clients, R\u00b2 0.999" \
        not in title:
    sys.exit("scipy: drawn dt %s, %r" % (dt, title))
_, (dt, title) = agrees("poor")
if dt != "2" or not title.startswith("USL fit poor (dashed): ") or \
        "R\u00b2 0.169: read the points, not the model" not in title:
    sys.exit("poor: drawn dt %s, %r" % (dt, title))
if drawn("two") != (None, None):
    sys.exit("two points: a fit drawn")
PY
}

# With --warmup auto that cannot settle (its 5 s window in a 1 s
# warmup), the point is UNSTEADY, and the answer says so; with -R (a
# schedule) the bounds read the response time, and the output says so.
curve_steady_response() {
	need_python
	mkdir t
	run_db -D "$W/t" -c "$DATA/basic.txt" -t 1 --warmup auto \
		--warmup-max 1 --curve=1 --slo 'p99<=10s'
	assert_rc 0
	assert_grep '^ +1 .*  UNSTEADY$' "$W/out" "the unsteady point"
	assert_grep '^at least 1 client within p99<=10s: .*\(UNSTEADY: ' \
		"$W/out" "the answer's note"
	run_db -D "$W/t" -c "$DATA/basic.txt" -t 1 --warmup 0 -R 20 \
		--curve=1 --slo 'WriteX:p99<=10s' --json "$W/r.json"
	assert_rc 0
	assert_grep '^Bounds apply to the response time, measured from when each op was due$' \
		"$W/out" "the note on response times"
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["curve"]
w = [o["response"]["percentiles"] for o in
     c["points"][0]["result"]["operations"] if o["name"] == "WriteX"][0]
p99 = [e["ms"] for e in w if e["percentile"] == 99][0]
f = c["points"][0]["bounds"][0]["figure_ms"]
sys.exit(0 if c["response_time"] and abs(f - p99) < 1e-6 else 1)' \
		"$W/r.json" || fail "the bound's figure is not WriteX's response p99"
	assert_empty_dir "$W/t" "target"
}

# The second point fails (its second client's loadfile does): the curve
# ends there, the points so far reported, exit 1, trees cleaned.
curve_point_fails() {
	mkdir t
	run_db -D "$W/t" -c "$DATA/basic.txt,$DATA/unlink_mismatch.txt" \
		--strict -t 1 --warmup 0 --curve=1,2,3 --slo 'p99<=10s'
	assert_rc 1
	assert_grep '^ +1 .* VALID$' "$W/out" "the first point"
	assert_grep '^ +2 .* FAILED \(exit status 1\)$' "$W/out" "the failed point"
	assert_no_grep '^Point 3' "$W/out" "a point after the failure"
	# a failed point is no broken bound: no capacity is given
	assert_grep '^the curve ended early: the point of 2 clients failed \(exit status 1\), so it gives no capacity; up to then 1 client held within p99<=10s: ' \
		"$W/out" "the answer"
	assert_no_grep '^at (most|least) ' "$W/out" "a capacity"
	assert_empty_dir "$W/t" "target after the curve"
}

# Ctrl-C in the second point: exit 130, the points so far in the
# table, no third point, trees cleaned.
curve_sigint() {
	mkdir t
	start_session -D "$W/t" -c "$DATA/basic.txt" -t 3 --warmup 0 \
		--curve=1,2,3 --slo 'p99<=10s'
	wait_for_line '^Point 2: 2 clients$'
	wait_for_line '^releasing clients' 10
	sleep 1
	kill -INT "$BG"
	wait_exit 30
	assert_rc 130
	assert_grep '^ +1 .* VALID$' "$W/out" "the first point"
	assert_grep '^ +2 .* INTERRUPTED' "$W/out" "the interrupted point"
	assert_no_grep '^Point 3' "$W/out" "a point after Ctrl-C"
	assert_grep '^the curve ended early: the point of 2 clients was interrupted \(exit status 130\)' \
		"$W/out" "the answer"
	assert_no_grep '^at (most|least) ' "$W/out" "a capacity"
	assert_empty_dir "$W/t" "target after the curve"
}

# --curve with --repeat 2 over the known knee of curve_knee (6 clients
# run a Deltree, which a bound of 1 ns cannot hold): each point twice,
# the medians and their intervals, the capacity with its interval.
curve_repeat_knee() {
	need_python
	mkdir t
	knee_loadfiles
	local f=$W/fast.txt
	run_db -D "$W/t" -c "$f,$f,$f,$f,$f,$W/slow.txt" --strict -t 1 \
		--warmup 0 --curve=5,6 --repeat 2 --slo 'Deltree:max<=1ns' \
		--json "$W/k.json"
	assert_rc 0
	assert_grep '^Point 2, run 2: ' "$W/out" "a line per run"
	assert_grep '^Point 2: 6 clients, 2 runs: [0-9.]+ MB/sec \[[0-9.]+-[0-9.]+\], Deltree:max<=1ns [0-9.]+ ms \[[0-9.]+-[0-9.]+\]: INVALID' \
		"$W/out" "the point's medians and intervals"
	assert_grep '^at most 5 clients \[5-5\] within Deltree:max<=1ns: [0-9.]+ MB/sec \[[0-9.]+-[0-9.]+\] \(medians of 2 runs a point\)$' \
		"$W/out" "the capacity and its interval"
	python3 - "$W/k.json" "$SRCDIR/doc/dbench-result.schema.json" <<'PY' || fail "the curve section"
import json, sys
d = json.load(open(sys.argv[1]))
try:
    import jsonschema
    jsonschema.validate(d, json.load(open(sys.argv[2])))
except ImportError:
    pass
c = d["curve"]
p = {x["clients"]: x for x in c["points"]}
ok = (c["answer_clients"] == 5 and c["answer_clients_low"] == 5 and
      c["answer_clients_high"] == 5 and not c["ended_early"] and
      [len(p[n]["repeats"]["runs"]) for n in (5, 6)] == [2, 2] and
      p[6]["repeats"]["surely_broken"] and p[5]["repeats"]["surely_held"])
sys.exit(0 if ok else 1)
PY
	assert_empty_dir "$W/t" "target after the curve"
}

# A busy neighbour planted during the second run of a labelled series
# (two CPU hogs started here, stopped by their PIDs): the run records it
# in its document and the history (noise.busy, other_cpu_share), and
# says it in one note on stderr; stdout says nothing new.
noise_planted() {
	command -v sqlite3 >/dev/null || skip "sqlite3 is not installed"
	local db=$W/h.sqlite hogs=() i
	unset DBENCH_TEST_NO_NOISE_NOTE
	run_db -B null -t 1 --warmup 0 --label nz --history "$db" 1
	assert_rc 0
	for i in 1 2; do
		( while :; do :; done ) &
		hogs+=($!)
	done
	run_db -B null -t 2 --warmup 0 --label nz --history "$db" 1
	kill "${hogs[@]}"
	wait "${hogs[@]}" 2>/dev/null
	assert_rc 0
	assert_grep '^dbench: note: busy: the machine was busy besides dbench \(other processes [0-9]+%' \
		"$NOISE_NOTES" "the note on stderr"
	assert_no_grep 'note|busy' "$W/out" "a note on stdout"
	sqlite3 "$db" "SELECT json_type(r.result_json, '\$.noise'),
		json_extract(r.result_json, '\$.noise.busy'),
		json_extract(r.result_json, '\$.noise.other_cpu_share') > 0.25,
		json_extract(r.result_json, '\$.noise.dbench_cpu_share') >= 0,
		instr(r.warnings_json, 'busy besides dbench') > 0
		FROM runs r JOIN groups g ON g.id = r.group_id
		ORDER BY g.id" >rows
	# the first run may be busy too (whatever else the machine runs)
	sed -n 1p rows | grep -q '^object|' || fail "the first run's noise: $(sed -n 1p rows)"
	assert_eq "object|1|1|1|1" "$(sed -n 2p rows)" "the busy run's noise"
}

# Three points over a real smbd, both in a network namespace of their
# own (nothing listens outside it).
curve_smbd() {
	"$DBENCH" -B smb 1 2>&1 | grep -q 'built without libsmbclient' &&
		skip "dbench was built without libsmbclient"
	unshare -n true 2>/dev/null ||
		skip "cannot make a network namespace (unshare -n)"
	command -v ip >/dev/null || skip "ip (iproute2) is not installed"
	cat >"$W/in-ns.sh" <<'SH'
ip link set lo up || exit 3
. "$1/lib_smbd.sh"
trap 'smbd_stop' EXIT
smbd_start "$2/srv" >"$2/smbd.msg" || exit $?
"$3" -B smb --smb-share="//127.0.0.1:$SMBD_PORT/share" \
	--smb-user="$SMBD_USER%$SMBD_PASS" -c "$4" -t 1 --warmup 0 \
	--curve=1,2,3 --slo 'p99<=10s' >"$2/out" 2>"$2/err"
echo $? >"$2/rc"
SH
	LAST_CMD="dbench -B smb --curve=1,2,3 (in unshare -n)"
	timeout -k 5 120 unshare -n bash "$W/in-ns.sh" "$IT_DIR" "$W" \
		"$DBENCH" "$DATA/basic.txt"
	case $? in
	77) skip "$(cat "$W/smbd.msg")" ;;
	0) ;;
	*) fail "smbd in the namespace: $(cat "$W/smbd.msg" 2>/dev/null)" ;;
	esac
	RC=$(cat "$W/rc")
	assert_rc 0
	[ "$(grep -Ec '^ +[123] +[0-9.]+ .*  VALID$' "$W/out")" = 3 ] ||
		fail "expected 3 VALID points over smbd"
	assert_grep '^at least 3 clients within p99<=10s' "$W/out" "the answer"
	assert_no_grep 'dbench-test-1|Test-1' "$W/out" "the password"
}

# --label: the runs of a repeat and of a curve saved as one group each.
sweep_saved() {
	command -v sqlite3 >/dev/null || skip "sqlite3 is not installed"
	run_db -B null -t 1 --warmup 0 --repeat 2 --label rep \
		--history "$W/h.sqlite" 1
	assert_rc 0
	run_db -B null -t 1 --warmup 0 --curve=1,2,3 --slo 'p99<=10s' \
		--label cur --history "$W/h.sqlite" --json "$W/cur.json"
	assert_rc 0
	sqlite3 "$W/h.sqlite" "SELECT g.kind, g.label, count(r.id),
		json_extract(g.summary_json, '$.n') IS NOT NULL,
		json_extract(g.summary_json, '$.answer_clients')
		FROM groups g JOIN runs r ON r.group_id = g.id
		GROUP BY g.id ORDER BY g.id" >groups
	printf '%s\n' 'repeat|rep|2|1|' 'curve|cur|3|0|3' >expected
	assert_same_lines expected groups "the groups saved"
	# the curve saved with its USL fit, usl.py's fit of its points
	sqlite3 "$W/h.sqlite" "SELECT json_object('curve',
		json(summary_json)) FROM groups WHERE kind = 'curve'" >saved.json
	assert_usl_agrees "$W/saved.json"
	assert_usl_agrees "$W/cur.json" "$W/out"
	# a database that cannot be made (under a file): the runs done,
	# exit 3, said
	: >"$W/afile"
	run_db -B null -t 1 --warmup 0 --repeat 2 --label rep \
		--history "$W/afile/h.sqlite" 1
	assert_rc 3
	assert_grep '^dbench: the runs were not saved: .*afile' "$W/err" \
		"the message"
	assert_grep '^MB/sec +mean ' "$W/out" "the summary all the same"
}

# dbench-mpi: a curve's counts are the job's, spread over the ranks
# (auto steps in multiples of them); a count that does not divide is
# refused; --repeat runs the job's clients each time.
curve_mpi() {
	need_python
	[ -x "$DBENCH_MPI" ] || skip "dbench-mpi not built"
	command -v mpirun >/dev/null || skip "mpirun not found"
	local mpi=(mpirun --oversubscribe --mca btl self,vader -np 2)
	[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
	mkdir t
	# under make check-sanitize no leak check in dbench-mpi's processes:
	# the workers inherit MPI's memory (mpi.sh says why)
	[ -n "${ASAN_OPTIONS:-}" ] &&
		local -x ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
	LAST_CMD="${mpi[*]} dbench-mpi --curve=auto --curve-max 4"
	timeout -k 5 120 "${mpi[@]}" "$DBENCH_MPI" -D "$W/t" \
		-c "$DATA/basic.txt" -t 1 --warmup 0 --curve=auto \
		--curve-max 4 --slo 'p99<=10s' --json "$W/m.json" \
		>"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_rc 0
	assert_grep '^at least 4 clients within p99<=10s' "$W/out" "the answer"
	python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["curve"]["points"]
sys.exit(0 if [x["clients"] for x in p] == [2, 4] and
         [x["result"]["result"]["clients"] for x in p] == [2, 4] else 1)' \
		"$W/m.json" || fail "the points: 2 and 4 clients over 2 ranks"
	assert_empty_dir "$W/t" "target after the curve"
	LAST_CMD="${mpi[*]} dbench-mpi --curve=2,3"
	timeout -k 5 60 "${mpi[@]}" "$DBENCH_MPI" -D "$W/t" \
		-c "$DATA/basic.txt" -t 1 --curve=2,3 --slo 'p99<=10s' \
		>"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_rc 2
	assert_grep '3 clients cannot be spread evenly over 2 ranks' \
		"$W/err" "the refusal"
}

check "--repeat 3: a line per run, statistics that match the runs" repeat_null
check "--repeat 1: the output of a single run" repeat_one_unchanged
check "--repeat: a failing run ends the series, exit 1" repeat_fails
check "--repeat: Ctrl-C after one run: no spread claimed" repeat_sigint_one
check "--repeat, --curve, --slo: misuse refused with exit 2" sweep_refusals
check "--slo: an unknown op is refused before anything starts" \
	bad_bound 'Frob:p99<=1ms' "--slo 'Frob:p99<=1ms': unknown operation 'Frob'"
check "--slo: an unknown unit is refused" \
	bad_bound 'p99<=20xs' "unknown unit 'xs'"
check "--slo: a percentile over 100 is refused" \
	bad_bound 'p101<=20ms' 'percentile 101 is not above 0 and at most 100'
check "--slo: an op the loadfile never runs is refused" \
	bad_bound 'Flush:max<=1s' 'the loadfile never runs Flush'
check "--curve=auto finds a known knee exactly (5 clients)" curve_knee
check "--curve over fileio on tmpfs: table, answer, JSON, trees cleaned" curve_tmpfs
check "--curve: UNSTEADY points; bounds on response times (-R)" curve_steady_response
check "dbench-plot: a curve's chart, the bounds as lines" curve_plot
check "dbench-plot: the USL fit drawn over the MB/s, a poor fit said" curve_usl_plot
check "--curve: a failing point ends the curve, exit 1" curve_point_fails
check "--curve: Ctrl-C mid-curve, exit 130, trees cleaned" curve_sigint
check "--curve --repeat 2: medians, intervals, the capacity's interval" curve_repeat_knee
check "a busy neighbour planted: recorded in the run, its history, a note" noise_planted
check "--curve: three points over smbd in a private network namespace" curve_smbd
check "dbench-mpi --curve: the job's counts over 2 ranks" curve_mpi
check "--label: a repeat and a curve saved as one group each" sweep_saved
finish
