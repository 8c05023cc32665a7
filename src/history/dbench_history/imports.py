"""import's documents as groups of runs: a run's document (dbench --json),
a --repeat or --curve document (the sweep's runs as one group, as dbench
--label saves them) and `export --json`'s output (every run back in its
group, with its label, exit status and warnings)."""

import json

from .common import HistoryError, clip, safe


class Group:
    """A group to save: kind, label, summary (JSON text or None) and runs
    [(document text, document, exit status, warnings)]."""

    def __init__(self, kind, label, summary):
        self.kind = kind
        self.label = label
        self.summary = summary
        self.runs = []


def _dump(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _label(path, doc, label):
    if label is None:
        label = doc.get("label")
    if not isinstance(label, str) or label == "":
        raise HistoryError("%s: the document has no label; give --label"
                           % path)
    return label


def _status(doc):
    """The exit status a run had, as its document tells: 1 when it was
    interrupted or failed (dbench(1), EXIT STATUS), else 0."""
    res = doc.get("result") or {}
    dt = doc.get("disk_test") or {}
    if res.get("interrupted") or dt.get("interrupted") or dt.get("failed"):
        return 1
    return 0


def _object(path, where, value):
    if not isinstance(value, dict):
        raise HistoryError("%s: %s is not a JSON object" % (path, where))
    return value


def _sweep(path, doc, label, key):
    """A --repeat (key "repeats") or --curve ("curve") document."""
    sec = _object(path, key, doc[key])
    if key == "repeats":
        docs = [(d, _status(d)) for d in sec.get("runs") or []]
        summary = {k: v for k, v in sec.items() if k != "runs"}
    else:
        points = sorted((p for p in sec.get("points") or []
                         if isinstance(p, dict)),
                        key=lambda p: p.get("order") or 0)
        docs = [(p["result"], p.get("exit_status") or 0) for p in points
                if isinstance(p.get("result"), dict)]
        summary = dict(sec, points=[
            {k: v for k, v in p.items() if k != "result"} for p in points])
    warnings = [w for w in sec.get("warnings") or [] if isinstance(w, str)]
    group = Group("repeat" if key == "repeats" else "curve",
                  _label(path, doc, label), _dump(summary))
    for i, (d, status) in enumerate(docs):
        _object(path, "%s run %d" % (key, i + 1), d)
        group.runs.append((_dump(d), d, int(status), warnings))
    if not group.runs:
        raise HistoryError("%s: the %s section holds no run" % (path, key))
    return [group]


def _export(path, doc, label):
    """export --json's output: a group per group id, in the runs' order."""
    runs = doc.get("runs")
    if not isinstance(runs, list):
        raise HistoryError("%s: an export without its runs list" % path)
    groups = {}
    for i, item in enumerate(runs):
        where = "runs[%d]" % i
        _object(path, where, item)
        res = _object(path, where + ".result", item.get("result"))
        key = item.get("group_id", "run %d" % i)
        g = groups.get(key)
        if g is None:
            kind = item.get("group_kind")
            if kind not in ("single", "repeat", "curve"):
                kind = "single"
            summary = item.get("group_summary")
            g = groups[key] = Group(kind, _label(
                path, {"label": item.get("label")}, label),
                None if summary is None else _dump(summary))
        warnings = [w for w in item.get("warnings") or []
                    if isinstance(w, str)]
        status = item.get("exit_status")
        g.runs.append((_dump(res), res, status if isinstance(status, int)
                       else _status(res), warnings))
    return list(groups.values())


def groups_of(path, text, doc, label):
    """The groups document doc (read from path, its text text) holds;
    label (--label) or None: the document's own."""
    if "dbench_history_export" in doc:
        return _export(path, doc, label)
    for key in ("repeats", "curve"):
        if key in doc and "result" not in doc:
            return _sweep(path, doc, label, key)
    group = Group("single", _label(path, doc, label), None)
    group.runs.append((text, doc, _status(doc), []))
    return [group]


def _present(hist, doc):
    """The id of a run already saved with this very document, or None."""
    started = doc.get("start_time")
    if not isinstance(started, str):
        return None
    for rid, text in hist.conn.execute(
            "SELECT id, result_json FROM runs WHERE started_utc = ?",
            (started,)).fetchall():
        if json.loads(text) == doc:
            return rid
    return None


def save_groups(hist, path, groups, stamp):
    """Insert groups (within the caller's transaction); the lines that say
    what became of each run."""
    done = []
    for g in groups:
        gid, ids = None, []
        for seq, (text, doc, status, warnings) in enumerate(g.runs):
            same = _present(hist, doc)
            if same is not None:
                done.append("%s: already in the history as run %d"
                            % (safe(path), same))
                continue
            if gid is None:
                gid = hist.conn.execute(
                    "INSERT INTO groups (kind, label, created_utc, "
                    "summary_json) VALUES (?, ?, ?, ?)",
                    (g.kind, g.label, stamp, g.summary)).lastrowid
            ids.append(hist.conn.execute(
                "INSERT INTO runs (group_id, seq, label, saved_utc, "
                "exit_status, warnings_json, result_json) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (gid, seq, g.label, stamp, status, _dump(warnings),
                 text)).lastrowid)
        if ids:
            done.append("%s: %s %s, group %d, label %s" % (
                safe(path), "run" if len(ids) == 1 else "runs",
                ", ".join(str(i) for i in ids), gid, clip(g.label, 60)))
    return done
