"""How busy the machine was during each run: the document's "noise"
object, written by dbench (every field optional): loadavg_1m,
other_cpu_share (other processes' CPU time over the measured window,
as a share of every CPU), steal_share, dbench_cpu_share,
psi_cpu_some_avg, psi_io_some_avg, psi_memory_some_avg (percent), and
the verdicts busy (another job took a real share of the machine) and
client_bound (dbench's own clients used the CPUs up).  compare and trend
name the runs taken on a busy machine, and --quiet-only leaves them
out."""

import json


def noise_of(hist, run_ids):
    """{run id: the noise object} of the runs that have one."""
    out = {}
    ids = list(run_ids)
    for part in range(0, len(ids), 500):
        chunk = ids[part:part + 500]
        for rid, text in hist.query(
                "SELECT id, json_extract(result_json, '$.noise') FROM runs "
                "WHERE id IN (%s) AND json_type(result_json, '$.noise') = "
                "'object'" % ",".join("?" * len(chunk)), chunk):
            try:
                out[rid] = json.loads(text)
            except (TypeError, ValueError):
                continue
    return out


def is_busy(noise):
    return bool(noise) and noise.get("busy") is True


def facts_text(noise):
    """'other processes 45% of the CPU, load 3.2' from what is there."""
    parts = []
    share = noise.get("other_cpu_share")
    if isinstance(share, (int, float)) and not isinstance(share, bool):
        parts.append("other processes %.0f%% of the CPUs" % (share * 100))
    steal = noise.get("steal_share")
    if isinstance(steal, (int, float)) and not isinstance(steal, bool) \
            and steal > 0:
        parts.append("steal %.0f%%" % (steal * 100))
    load = noise.get("loadavg_1m")
    if isinstance(load, (int, float)) and not isinstance(load, bool):
        parts.append("load %.1f" % load)
    psi = noise.get("psi_cpu_some_avg")
    if isinstance(psi, (int, float)) and not isinstance(psi, bool):
        parts.append("CPU pressure %.0f%%" % psi)
    return ", ".join(parts)


def run_text(noise):
    """'a busy machine (other processes 45% of the CPUs)' or
    'client-bound (...)' or None for a quiet run."""
    if not noise:
        return None
    facts = facts_text(noise)
    facts = " (%s)" % facts if facts else ""
    if noise.get("busy") is True:
        return "a busy machine%s" % facts
    if noise.get("client_bound") is True:
        return "dbench's clients bound by the CPU%s" % facts
    return None


def quiet_only(hist, run_ids):
    """run_ids without the runs taken on a busy machine, and how many
    were left out."""
    noise = noise_of(hist, run_ids)
    kept = [r for r in run_ids if not is_busy(noise.get(r))]
    return kept, len(run_ids) - len(kept)
