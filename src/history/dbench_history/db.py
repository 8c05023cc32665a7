"""The history database: where it is, opening it, and the schema runner
(the same rule as dbench's saver: apply every src/history/schema file
newer than PRAGMA user_version, each in one transaction; refuse, without
touching it, a database made by a newer dbench)."""

import os
import re
import sqlite3
import urllib.parse
from importlib import resources
from pathlib import Path

from .common import EXIT_DB, HistoryError

SCHEMA_NAME = re.compile(r"^(\d{3})-[A-Za-z0-9_-]+\.sql$")


def history_path(opt):
    """--history, else $DBENCH_HISTORY, else the XDG data directory."""
    if opt:
        return opt
    env = os.environ.get("DBENCH_HISTORY")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME")
    if not base or not os.path.isabs(base):
        home = os.environ.get("HOME")
        if not home:
            raise HistoryError("no history file: HOME is not set "
                               "(give --history FILE)")
        base = os.path.join(home, ".local", "share")
    return os.path.join(base, "dbench", "history.sqlite")


def schema_files():
    """[(version, name, sql)] in order: the files shipped in the package
    (the zipped command), else those of the source tree."""
    found = []
    try:
        folder = resources.files(__package__).joinpath("schema")
        entries = list(folder.iterdir()) if folder.is_dir() else []
    except (OSError, TypeError):
        entries = []
    if not entries:
        src = Path(__file__).resolve().parent.parent / "schema"
        entries = list(src.iterdir()) if src.is_dir() else []
    for entry in entries:
        m = SCHEMA_NAME.match(entry.name)
        if m:
            found.append((int(m.group(1)), entry.name,
                          entry.read_text(encoding="utf-8")))
    found.sort()
    if not found:
        raise HistoryError("the schema files are missing from this "
                           "installation", EXIT_DB)
    return found


def _db_error(path, err):
    text = str(err)
    if "not a database" in text or "malformed" in text:
        why = "not a history database, or damaged (%s)" % text
    elif "locked" in text or "busy" in text:
        why = "locked by another process for over 10 s (%s)" % text
    elif "readonly" in text or "read-only" in text:
        why = "cannot write (%s)" % text
    elif "full" in text:
        why = "the disk is full (%s)" % text
    else:
        why = text
    return HistoryError("%s: %s" % (path, why), EXIT_DB)


class History:
    """An open history database: .conn (autocommit; transactions are
    explicit), .path, .exists (False: no file, nothing saved yet)."""

    def __init__(self, path, write=False):
        self.path = path
        self.conn = None
        self.exists = os.path.exists(path)
        if not self.exists and not write:
            return
        if not self.exists:
            parent = os.path.dirname(os.path.abspath(path))
            try:
                os.makedirs(parent, mode=0o700, exist_ok=True)
            except OSError as e:
                raise HistoryError("%s: cannot make its directory (%s)"
                                   % (path, e.strerror), EXIT_DB)
        elif os.path.isdir(path):
            raise HistoryError("%s: a directory, not a history file" % path,
                               EXIT_DB)
        try:
            self.conn = self._connect(write)
            self.conn.execute("PRAGMA busy_timeout = 10000")
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            self._check_version(version)
            if not write and version < self.known:
                # a reader that must bring the schema up to date first
                self.conn.close()
                self.conn = self._connect(True)
                self.conn.execute("PRAGMA busy_timeout = 10000")
            if write or version < self.known:
                self.conn.execute("PRAGMA journal_mode = WAL")
            # foreign keys off while migrating: 003 remakes the tables
            # the derived tables reference, which must not cascade
            self._migrate(version)
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.exists = True
        except sqlite3.Error as e:
            raise _db_error(path, e)

    def _connect(self, write):
        """A connection to the file: read-write (made if missing) for a
        command that writes; else read-only, so that a database one
        cannot write (a read-only file, directory or file system) still
        reads, as immutable when SQLite cannot make its -shm file there
        and no -wal file holds anything."""
        if write:
            return sqlite3.connect(self.path, timeout=10.0,
                                   isolation_level=None)
        uri = "file:%s" % urllib.parse.quote(os.path.abspath(self.path))
        try:
            conn = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=10.0,
                                   isolation_level=None)
            conn.execute("PRAGMA user_version").fetchone()
            return conn
        except sqlite3.OperationalError as e:
            try:
                pending = os.path.getsize(self.path + "-wal") > 0
            except OSError:
                pending = False
            if ("unable to open" not in str(e) and
                    "readonly" not in str(e)) or pending:
                raise
            first = e
        try:
            conn = sqlite3.connect(uri + "?immutable=1", uri=True,
                                   isolation_level=None)
            conn.execute("PRAGMA user_version").fetchone()
            return conn
        except sqlite3.Error:
            raise first

    def _check_version(self, version):
        files = schema_files()
        self.files = files
        self.known = files[-1][0]
        if version > self.known:
            raise HistoryError(
                "%s: made by a newer dbench (schema version %d; this "
                "dbench-history knows up to %d); not touched"
                % (self.path, version, self.known), EXIT_DB)
        if version == 0 and self._has_tables():
            raise HistoryError("%s: an SQLite database, but not a dbench "
                               "history; not touched" % self.path, EXIT_DB)

    def _has_tables(self):
        row = self.conn.execute(
            "SELECT count(*) FROM sqlite_master").fetchone()
        return row[0] > 0

    def _migrate(self, version):
        for number, name, sql in self.files:
            if number <= version:
                continue
            try:
                self.conn.executescript(
                    "BEGIN IMMEDIATE;\n%s\nPRAGMA user_version = %d;\n"
                    "COMMIT;\n" % (sql, number))
            except sqlite3.Error as e:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise HistoryError("%s: schema %s failed: %s"
                                   % (self.path, name, e), EXIT_DB)

    def query(self, sql, args=()):
        if self.conn is None:
            return []
        try:
            return self.conn.execute(sql, args).fetchall()
        except sqlite3.Error as e:
            raise _db_error(self.path, e)

    def begin(self):
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise _db_error(self.path, e)

    def commit(self):
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as e:
            self.rollback()
            raise _db_error(self.path, e)

    def rollback(self):
        if self.conn is not None and self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
