"""report_history.py - the history report.sh reads: dbench --json
documents with planted figures, and the groups `import` cannot make.

  report_history.py docs DIR     write DIR/LABEL-N.json (import them
                                 with --label LABEL)
  report_history.py groups DB    add to DB a --repeat group of 3 runs
                                 under "fast" and a --curve under "fast"

What is planted (report.sh checks the report against it):
  slow  6 runs, MB/s 100,102,98,101,99,100 (mean 100, sd sqrt 2), ops/s
        ten times that, the slowest op's p99 1.4,1.6,1.5,1.5,1.4,1.6 ms
  fast  6 runs of MB/s 200,204,196,202,198,200 and a --repeat group of 3
        (199, 201, 200): twice slow
  drift 10 runs a day apart, MB/s 150 +-1 for 5 runs, then 120 +-1 (-20%)
        from run #6, where the kernel went from 6.1.0 to 6.5.0; its run
        #3 ran on a busy machine (noise.busy)
  the curve: 1, 2, 4, 8, 16, 32 clients under p99<=2ms: valid to 8
        clients (300 MB/s), 16 broke the bound, 32 failed; capacity
        8 clients, its interval 6-10, a USL model.
"""

import json
import os
import sqlite3
import sys

BASE = "2026-11-%02dT%02d:00:00.000Z"


def doc(label, day, hour, mb, p99, kernel="6.1.0", clients=4, noise=None):
    ops = [("NTCreateX", 0.02, p99 * 0.5), ("ReadX", 0.01, p99),
           ("WriteX", 0.03, p99 * 0.8)]
    d = {
        "schema_version": 1,
        "tool": {"name": "dbench", "version": "5.1.0"},
        "command_line": ["dbench", "-t", "10", str(clients)],
        "options": {"clients": clients, "timelimit_s": 10, "warmup_s": 0,
                    "loadfiles": ["/usr/share/dbench/client.txt"],
                    "directories": ["/srv/" + label], "backend": "fileio",
                    "target_rate_mb_per_s": 0, "clients_per_process": 1,
                    "sync_open": False, "percentiles": [50, 99]},
        "host": {"hostname": "bench1", "kernel": "Linux",
                 "kernel_release": kernel, "cpu_model": "Test CPU",
                 "cpus": 8, "memory_bytes": 17179869184},
        "directories": [{"path": "/srv/" + label, "fs_type": "xfs",
                         "source": "/dev/nvme0n1p" + str(len(label)),
                         "mount_options": "rw,noatime",
                         "device_model": "Test NVMe"}],
        "start_time": BASE % (day, hour),
        "end_time": BASE % (day, hour),
        "result": {"phase": "execute", "seconds": 10.0,
                   "interrupted": False, "clients": clients,
                   "throughput_mb_per_s": mb, "ops_per_s": mb * 10,
                   "max_latency_ms": p99 * 3, "errors": 0},
        "loadfiles": [{"path": "/usr/share/dbench/client.txt",
                       "crc32": "6ebd5168", "sha256": "4c7f" + "0" * 60}],
        "operations": [{"name": n, "count": 1000, "errors": 0,
                        "avg_ms": p50, "max_ms": q * 3,
                        "percentiles": [{"percentile": 50, "ms": p50},
                                        {"percentile": 99, "ms": q}]}
                       for n, p50, q in ops],
        "label": label,
    }
    if noise is not None:
        d["noise"] = noise
    return d


def docs(out):
    os.makedirs(out, exist_ok=True)
    plan = []
    p99s = [1.4, 1.6, 1.5, 1.5, 1.4, 1.6]
    for i, mb in enumerate([100, 102, 98, 101, 99, 100]):
        plan.append(("slow", i, doc("slow", 1 + i, 10, mb, p99s[i])))
    for i, mb in enumerate([200, 204, 196, 202, 198, 200]):
        plan.append(("fast", i, doc("fast", 1 + i, 11, mb, 0.5)))
    drift = [150, 151, 149, 150.5, 149.5, 120, 121, 119, 120.5, 119.5]
    for i, mb in enumerate(drift):
        noise = {"loadavg_1m": 0.2, "other_cpu_share": 0.01, "busy": False}
        if i == 2:
            noise = {"loadavg_1m": 3.5, "other_cpu_share": 0.4,
                     "steal_share": 0.0, "psi_cpu_some_avg10": 22.0,
                     "busy": True}
        plan.append(("drift", i, doc("drift", 1 + i, 12, mb, 0.8,
                                     kernel="6.1.0" if i < 5 else "6.5.0",
                                     noise=noise)))
    for label, i, d in plan:
        with open(os.path.join(out, "%s-%02d.json" % (label, i)), "w") as f:
            json.dump(d, f)


def insert_group(conn, kind, label, created, summary, documents):
    cur = conn.execute(
        "INSERT INTO groups (kind, label, created_utc, summary_json) "
        "VALUES (?, ?, ?, ?)", (kind, label, created,
                                json.dumps(summary) if summary else None))
    gid = cur.lastrowid
    for seq, (status, d) in enumerate(documents):
        conn.execute(
            "INSERT INTO runs (group_id, seq, label, saved_utc, exit_status, "
            "warnings_json, result_json) VALUES (?, ?, ?, ?, ?, '[]', ?)",
            (gid, seq, label, created, status, json.dumps(d)))
    return gid


def groups(db):
    conn = sqlite3.connect(db)
    conn.execute("BEGIN")
    insert_group(conn, "repeat", "fast", "2026-11-08T11:00:00Z",
                 {"repeat": 3}, [(0, doc("fast", 8, 11 + k, mb, 0.5))
                                 for k, mb in enumerate([199, 201, 200])])
    figures = [(1, 50, 0.03, "VALID", 0), (2, 100, 0.04, "VALID", 0),
               (4, 190, 0.08, "VALID", 0), (8, 300, 0.5, "VALID", 0),
               (16, 320, 3.0, "INVALID", 0), (32, None, None, "FAILED", 1)]
    points, documents = [], []
    for order, (n, mb, p99, status, rc) in enumerate(figures):
        points.append({
            "clients": n, "order": order, "status": status,
            "exit_status": rc, "mb_per_s": mb,
            "ops_per_s": mb * 10 if mb else None, "p50_ms": p99 and p99 / 3,
            "p99_ms": p99, "steady": True,
            "broken": "p99<=2ms" if status == "INVALID" else None,
            "bounds": [{"text": "p99<=2ms", "figure_ms": p99,
                        "held": status == "VALID"}]})
        if mb is not None:
            documents.append((rc, doc("fast", 9, 10 + order, mb, p99,
                                      clients=n)))
    summary = {
        "mode": "list", "complete": False, "response_time": False,
        "bounds": [{"text": "p99<=2ms", "op": None, "stat": "percentile",
                    "percentile": 99, "limit_ms": 2}],
        "points": points,
        "answer": "at most 8 clients within p99<=2ms: 300.00 MB/sec",
        "answer_clients": 8, "answer_mb_per_s": 300.0,
        "answer_is_lower_bound": False, "answer_interval": [6, 10],
        "overall_response_time_ms": 0.12,
        "model": {"name": "USL", "lambda": 52.0, "sigma": 0.04,
                  "kappa": 0.002}}
    insert_group(conn, "curve", "fast", "2026-11-09T10:00:00Z", summary,
                 documents)
    conn.execute("COMMIT")
    conn.close()


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("docs", "groups"):
        sys.exit("usage: report_history.py docs DIR | groups DB")
    (docs if sys.argv[1] == "docs" else groups)(sys.argv[2])
