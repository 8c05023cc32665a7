"""Finding runs: the filters of list and export, the sides of compare
(labels, group:N, run:N), and the metrics of a set of runs."""

import datetime
import json
import re

from .common import HistoryError, safe, warn
from .validate import INT64_MAX, figure

RELATIVE = re.compile(r"^(\d+)([hdw])$")


def parse_since(text):
    """--since: an ISO 8601 date or time (UTC unless it says), or N
    hours/days/weeks ago (12h, 30d, 2w); the ISO text it starts at."""
    m = RELATIVE.match(text)
    now = datetime.datetime.now(datetime.timezone.utc)
    if m:
        unit = {"h": "hours", "d": "days", "w": "weeks"}[m.group(2)]
        try:
            when = now - datetime.timedelta(**{unit: int(m.group(1))})
        except OverflowError:
            raise HistoryError("--since: %r reaches back before the year "
                               "1" % text)
    else:
        try:
            when = datetime.datetime.fromisoformat(text)
        except ValueError:
            raise HistoryError("--since: %r is not a date (YYYY-MM-DD, an "
                               "ISO 8601 time, or 12h, 30d, 2w)" % text)
        if when.tzinfo is not None:
            when = when.astimezone(datetime.timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%S")


def where_clause(label=None, host=None, since=None):
    """(SQL condition, args) for list and export's filters."""
    cond, args = [], []
    if label is not None:
        cond.append("label = ?")
        args.append(label)
    if host is not None:
        cond.append("host = ?")
        args.append(host)
    if since is not None:
        cond.append("started_utc >= ?")
        args.append(parse_since(since))
    return (" WHERE " + " AND ".join(cond)) if cond else "", args


def parse_id(text, what, spec=None):
    """The id text (ASCII digits, at most SQLite's largest integer) as an
    int, else a usage error naming spec (or text) and what it wants."""
    if not (text.isascii() and text.isdigit()) or int(text) > INT64_MAX:
        raise HistoryError("%r is not %s (a number up to %d)" % (
            spec or text, what, INT64_MAX))
    return int(text)


def parse_run_id(text):
    t = text[4:] if text.startswith("run:") else text
    return parse_id(t, "a run id (a number, or run:N)", text)


RANGE = re.compile(r"^(\d+)-(\d+)$")
GROUP_SEQ = re.compile(r"^(\d+)\.(\d+)$")


def _one_selector(hist, text):
    """The run ids one selector names (see select_runs), ascending."""
    body = text[4:] if text.startswith("run:") else text
    if body.isdigit():
        return [r[0] for r in hist.query("SELECT id FROM runs WHERE id = ?",
                                         (parse_id(body, "a run id", text),))]
    m = RANGE.match(body)
    if m:
        lo = parse_id(m.group(1), "a run id", text)
        hi = parse_id(m.group(2), "a run id", text)
        if lo > hi:
            raise HistoryError("%r: a range goes from the lower id to the "
                               "higher (N-M, N <= M)" % text)
        return [r[0] for r in hist.query(
            "SELECT id FROM runs WHERE id BETWEEN ? AND ? ORDER BY id",
            (lo, hi))]
    if text.startswith("run:"):
        raise HistoryError("%r: run: wants a run id or a range N-M" % text)
    m = GROUP_SEQ.match(text)
    if m:
        return [r[0] for r in hist.query(
            "SELECT id FROM runs WHERE group_id = ? AND seq = ?",
            (parse_id(m.group(1), "a group id", text),
             parse_id(m.group(2), "a run of a group", text)))]
    if text.startswith("group:"):
        body = text[6:]
        m = RANGE.match(body)
        if body.isdigit():
            lo = hi = parse_id(body, "a group id", text)
        elif m:
            lo = parse_id(m.group(1), "a group id", text)
            hi = parse_id(m.group(2), "a group id", text)
        else:
            raise HistoryError("%r: group: wants a group id or a range "
                               "N-M" % text)
        return [r[0] for r in hist.query(
            "SELECT id FROM runs WHERE group_id BETWEEN ? AND ? "
            "ORDER BY id", (lo, hi))]
    label = text[6:] if text.startswith("label:") else text
    return [r[0] for r in hist.query(
        "SELECT id FROM runs WHERE label = ? ORDER BY id", (label,))]


def select_runs(hist, selectors):
    """The run ids that selectors name, each once, in the order given:
    N or run:N (a run id, as list's run column), N-M or run:N-M (the runs
    with ids in that range), G.S (run S of group G, as list's group
    column), group:G or group:G-H (every run of those groups), label:L or
    a label.  A selector that names no run is an error naming it."""
    out, seen = [], set()
    for text in selectors:
        ids = _one_selector(hist, text)
        if not ids:
            raise HistoryError("%s: no such run, group or label in %s"
                               % (safe(text), hist.path))
        out += [i for i in ids if i not in seen]
        seen.update(ids)
    return out


class Side:
    """One side of a comparison: its name as given and its run ids."""

    def __init__(self, spec, name, run_ids):
        self.spec = spec
        self.name = name
        self.run_ids = run_ids


def resolve_side(hist, spec, last=None):
    """A label, group:N or run:N[,M...] -> Side with the runs that ended
    well (exit status 0, not interrupted), oldest first; last keeps the
    newest last runs."""
    curve = set()
    if spec.startswith("group:"):
        gid = spec[6:]
        rows = hist.query("SELECT id FROM runs WHERE group_id = ? AND "
                          "exit_status = 0 AND interrupted = 0 "
                          "ORDER BY started_utc, id",
                          (parse_id(gid, "group:N with a group id", spec),))
        what = "group %s" % gid
    elif spec.startswith("run:"):
        ids = []
        for part in spec[4:].split(","):
            ids.append(parse_id(part, "run:N[,M...] with run ids", spec))
        marks = ",".join("?" * len(ids))
        rows = hist.query("SELECT id FROM runs WHERE id IN (%s) "
                          "ORDER BY started_utc, id" % marks, ids)
        if len(rows) != len(set(ids)):
            raise HistoryError("%r: no such run in %s" % (spec, hist.path))
        what = "run " + spec[4:]
    else:
        label = spec[6:] if spec.startswith("label:") else spec
        rows = hist.query("SELECT id FROM runs WHERE label = ? AND "
                          "exit_status = 0 AND interrupted = 0 "
                          "ORDER BY started_utc, id", (label,))
        what = label
        # a --curve's runs are points at other loads, not repeats
        curve = set(r[0] for r in hist.query(
            "SELECT r.id FROM groups g JOIN runs r ON r.group_id = g.id "
            "WHERE g.label = ? AND g.kind = 'curve'", (label,)))
        rows = [r for r in rows if r[0] not in curve]
    ids = [r[0] for r in rows]
    if last:
        ids = ids[-last:]
    if not ids:
        hint = ""
        if curve:
            hint = " (only curves: compare --curve compares those)"
        raise HistoryError("%r: no runs that ended well in %s%s"
                           % (spec, hist.path, hint))
    return Side(spec, what, ids)


def metrics_of(hist, run_ids):
    """{(name, target_seq): {"unit", "better", "values": [per run],
    "samples": [per run: list or None], "target"}} in first-seen order."""
    out = {}
    skipped = set()
    for chunk in range(0, len(run_ids), 500):
        part = run_ids[chunk:chunk + 500]
        marks = ",".join("?" * len(part))
        rows = hist.query(
            "SELECT m.run_id, m.name, m.target_seq, m.target, m.value, "
            "m.unit, m.higher_is_better, m.samples_json FROM metrics m "
            "WHERE m.run_id IN (%s)" % marks, part)
        order = {rid: i for i, rid in enumerate(part)}
        rows.sort(key=lambda r: (order[r[0]], r[2]))
        for rid, name, tseq, target, value, unit, better, samples in rows:
            value = figure(value)
            if value is None:
                # not a number a statistic can use (stored by hand or
                # by an older import): left out, said once per metric
                if (name, tseq) not in skipped:
                    skipped.add((name, tseq))
                    warn("run %s: %s: the stored value is not a finite "
                         "number; left out" % (rid, safe(name)))
                continue
            m = out.setdefault((name, tseq), {
                "unit": unit, "better": bool(better), "values": [],
                "samples": [], "target": target, "runs": []})
            m["values"].append(value)
            m["runs"].append(rid)
            m["samples"].append(_samples(samples))
    return out


def _samples(text):
    """A disk test's stored per-run figures, or None unless every one is
    a finite number."""
    try:
        v = json.loads(text) if text else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(v, list):
        return None
    out = [figure(x) for x in v]
    return out if out and None not in out else None


METRIC_NAMES = {"mb_per_s": "MB/s", "ops_per_s": "ops/s",
                "max_latency_ms": "max latency ms"}
METRIC_ORDER = ["mb_per_s", "ops_per_s", "max_latency_ms",
                "write+fdatasync", "cold read", "hot read",
                "O_DIRECT write", "O_DIRECT read"]


def metric_title(key, unit):
    name, tseq = key
    title = METRIC_NAMES.get(name)
    if title is None:
        title = "%s %s" % (name, unit)
    if tseq is not None and tseq > 0:
        title += " (directory %d)" % (tseq + 1)
    return title


def metric_sort_key(key):
    name, tseq = key
    rank = METRIC_ORDER.index(name) if name in METRIC_ORDER else 99
    return (tseq if tseq is not None else -1, rank, name)
