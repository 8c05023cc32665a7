"""The checks `import` makes of a document before it stores it, and the
guard every reader puts on a stored figure.

A document is stored only when every value the database derives a
column or a figure from has the type doc/dbench-result.schema.json gives
it (FIELDS below: the same types, and the same minimum of 0 for figures,
as the schema; history_unit.py checks the table against the schema), every
number is finite and every integer fits SQLite's 64 bits, and it nests no
deeper than MAX_DEPTH.  What the schema leaves open (fields a newer or an
older dbench writes, free text) is not checked: a document of another
dbench version still imports.  The standard library only: no jsonschema
at run time."""

import math

INT64_MAX = 2 ** 63 - 1
MAX_DEPTH = 64

# the largest figure a reader computes with, and the smallest other than
# 0: the statistics square and divide figures, and a double overflows
# past 1.8e308 and underflows below 2.2e-308
FIGURE_MAX = 1e100
FIGURE_MIN = 1e-100

# path -> (types, minimum or None).  A path's parts are object keys; "[]"
# stands for each item of an array.  The types are JSON Schema's.
FIELDS = {
    "schema_version": (("integer",), None),
    "label": (("string",), None),
    "tool": (("object",), None),
    "tool.name": (("string",), None),
    "tool.version": (("string",), None),
    "command_line": (("array",), None),
    "command_line[]": (("string",), None),
    "options": (("object",), None),
    "options.backend": (("string",), None),
    "options.clients": (("integer",), 1),
    "options.clients_per_process": (("integer",), 1),
    "options.loadfiles": (("array",), None),
    "options.loadfiles[]": (("string",), None),
    "options.directories": (("array",), None),
    "options.directories[]": (("string",), None),
    "options.target_rate_mb_per_s": (("number",), 0),
    "options.trunc_io": (("integer",), 0),
    "options.sync_open": (("boolean",), None),
    "options.sync_dirs": (("boolean",), None),
    "options.fsync_writes": (("boolean",), None),
    "options.xattr": (("boolean",), None),
    "options.fake_io": (("boolean",), None),
    "options.one_byte_write_fix": (("boolean",), None),
    "options.no_resolve": (("boolean",), None),
    "options.stat_check": (("boolean",), None),
    "options.size_bytes": (("integer",), 0),
    "options.block_size_bytes": (("integer",), 512),
    "options.repeat": (("integer",), 1),
    "options.drop_caches": (("boolean",), None),
    "host": (("object",), None),
    "host.hostname": (("string",), None),
    "host.kernel_release": (("string",), None),
    "host.cpu_model": (("string", "null"), None),
    "host.cpus": (("integer",), 0),
    "host.memory_bytes": (("integer",), 0),
    "hosts": (("array",), None),
    "hosts[]": (("object",), None),
    "hosts[].rank": (("integer",), 0),
    "hosts[].hostname": (("string",), None),
    "hosts[].kernel_release": (("string",), None),
    "hosts[].cpu_model": (("string", "null"), None),
    "hosts[].cpus": (("integer",), 0),
    "hosts[].memory_bytes": (("integer",), 0),
    "directories": (("array",), None),
    "directories[]": (("object",), None),
    "directories[].path": (("string",), None),
    "directories[].fs_type": (("string",), None),
    "directories[].source": (("string",), None),
    "directories[].mount_options": (("string",), None),
    "directories[].device_model": (("string", "null"), None),
    "directories[].free_bytes": (("integer",), 0),
    "start_time": (("string",), None),
    "end_time": (("string",), None),
    "loadfiles": (("array",), None),
    "loadfiles[]": (("object",), None),
    "loadfiles[].path": (("string",), None),
    "loadfiles[].crc32": (("string",), None),
    "loadfiles[].sha256": (("string",), None),
    "server": (("object",), None),
    "server.url": (("string", "null"), None),
    "result": (("object",), None),
    "result.phase": (("string",), None),
    "result.seconds": (("number",), 0),
    "result.interrupted": (("boolean",), None),
    "result.clients": (("integer",), 1),
    "result.throughput_mb_per_s": (("number",), 0),
    "result.ops_per_s": (("number",), 0),
    "result.max_latency_ms": (("number",), 0),
    "phases": (("array",), None),
    "phases[]": (("object",), None),
    "phases[].name": (("string",), None),
    "phases[].ops_per_s": (("number",), 0),
    "operations": (("array",), None),
    "operations[]": (("object",), None),
    "operations[].name": (("string",), None),
    "operations[].count": (("integer",), 0),
    "operations[].errors": (("integer",), 0),
    "operations[].avg_ms": (("number",), 0),
    "operations[].max_ms": (("number",), 0),
    "operations[].percentiles": (("array",), None),
    "operations[].percentiles[]": (("object",), None),
    "operations[].percentiles[].percentile": (("number",), None),
    "operations[].percentiles[].ms": (("number",), 0),
    "disk_test": (("object",), None),
    "disk_test.interrupted": (("boolean",), None),
    "disk_test.failed": (("boolean",), None),
    "disk_test.directories": (("array",), None),
    "disk_test.directories[]": (("object",), None),
    "disk_test.directories[].path": (("string",), None),
    "disk_test.directories[].free_bytes": (("integer",), 0),
    "disk_test.directories[].file_size_bytes": (("integer",), 0),
    "disk_test.directories[].measurements": (("array",), None),
    "disk_test.directories[].measurements[]": (("object",), None),
    "disk_test.directories[].measurements[].name": (("string",), None),
    "disk_test.directories[].measurements[].state": (("string",), None),
    "disk_test.directories[].measurements[].count": (("integer",), 0),
    "disk_test.directories[].measurements[].mb_per_s": (("array",), None),
    "disk_test.directories[].measurements[].mb_per_s[]": (("number",), 0),
    "disk_test.directories[].measurements[].mb_per_s_median":
        (("number",), 0),
    "disk_test.directories[].measurements[].max_ms": (("number",), 0),
    "disk_test.directories[].measurements[].percentiles": (("array",), None),
    "disk_test.directories[].measurements[].percentiles[]":
        (("object",), None),
    "disk_test.directories[].measurements[].percentiles[].percentile":
        (("number",), None),
    "disk_test.directories[].measurements[].percentiles[].ms":
        (("number",), 0),
}

TYPE_WORDS = {"integer": "an integer", "number": "a number",
              "string": "a string", "boolean": "true or false",
              "object": "an object", "array": "an array", "null": "null"}


class Invalid(ValueError):
    """Where a document breaks a rule (a JSON path), and the rule."""


def json_type(v):
    """The JSON Schema type of a decoded JSON value."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def _fits(v, types):
    t = json_type(v)
    return t in types or (t == "integer" and "number" in types) or \
        (t == "number" and "integer" in types and v == int(v))


def _walk(v, key, shown, depth):
    """Check v at key (FIELDS' form) and everything under it."""
    if depth > MAX_DEPTH:
        raise Invalid("%s: nested deeper than %d levels" % (shown, MAX_DEPTH))
    rule = FIELDS.get(key)
    if isinstance(v, float) and not math.isfinite(v):
        raise Invalid("%s: %r is not a finite number" % (shown, v))
    if isinstance(v, int) and not isinstance(v, bool) and \
            not -INT64_MAX - 1 <= v <= INT64_MAX:
        raise Invalid("%s: %d does not fit in 64 bits" % (shown, v))
    if rule is not None:
        types, minimum = rule
        if not _fits(v, types):
            raise Invalid("%s: expected %s, found %s" % (
                shown, " or ".join(TYPE_WORDS[t] for t in types),
                TYPE_WORDS.get(json_type(v), json_type(v))))
        if minimum is not None and json_type(v) in ("integer", "number") \
                and v < minimum:
            raise Invalid("%s: %r is below %s" % (shown, v, minimum))
        if "number" in types and not _in_range(v):
            raise Invalid("%s: %r is out of range (0, or %g to %g)" % (
                shown, v, FIGURE_MIN, FIGURE_MAX))
    if isinstance(v, dict):
        for k, item in v.items():
            _walk(item, "%s.%s" % (key, k) if key else k,
                  "%s.%s" % (shown, k), depth + 1)
    elif isinstance(v, list):
        for i, item in enumerate(v):
            _walk(item, key + "[]", "%s[%d]" % (shown, i), depth + 1)


def _in_range(v):
    return v == 0 or FIGURE_MIN <= abs(v) <= FIGURE_MAX


def check_document(doc):
    """Raise Invalid naming the first value of doc (a decoded dbench
    --json document) that breaks FIELDS, is not finite, or nests too
    deep."""
    if not isinstance(doc, dict):
        raise Invalid("$: expected an object, found %s" %
                      TYPE_WORDS.get(json_type(doc), json_type(doc)))
    _walk(doc, "", "$", 0)


def figure(v):
    """A stored figure as a float, or None when it is not one a reader can
    compute with (text, a boolean, NULL, not finite, out of range):
    whatever a database holds, the readers never fail on it."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    try:
        v = float(v)
    except OverflowError:
        return None
    if not math.isfinite(v) or not _in_range(v):
        return None
    return v
