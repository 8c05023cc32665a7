"""What every part of dbench-history shares: its name, its errors and
their exit statuses, and text made safe to print."""

import sys
import unicodedata

from .validate import figure

PROG = "dbench-history"

# exit statuses (dbench-history(1), EXIT STATUS)
EXIT_OK = 0
EXIT_USAGE = 2      # bad option, argument or input file; nothing matched
EXIT_DB = 3         # the database cannot be used: corrupt, newer, locked...


class HistoryError(Exception):
    """One line for the user, and the exit status it leads to."""

    def __init__(self, message, status=EXIT_USAGE):
        super().__init__(message)
        self.status = status


def safe(text):
    """text with control and format characters (newlines, escapes, bidi
    overrides, ...) shown as escapes, so that a label cannot break a line
    or a terminal."""
    if text is None:
        return "-"
    text = str(text)
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x100:
            out.append("\\x%02x" % ord(ch))
        elif ord(ch) < 0x10000:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append("\\U%08x" % ord(ch))
    return "".join(out)


def width(text):
    """Columns text takes on a terminal (wide East Asian characters: 2)."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def clip(text, cols):
    """safe(text) cut to cols columns, with "..." where it was cut."""
    text = safe(text)
    if width(text) <= cols:
        return text
    out, used = [], 0
    for ch in text:
        w = width(ch)
        if used + w > cols - 3:
            break
        out.append(ch)
        used += w
    return "".join(out) + "..."


def pad(text, cols, right=False):
    """text padded with spaces to cols columns."""
    fill = " " * max(0, cols - width(text))
    return fill + text if right else text + fill


def warn(message):
    print("%s: warning: %s" % (PROG, message), file=sys.stderr)


def fmt_num(v, digits=1):
    """A figure for a table: '-' when missing, '?' when what is stored
    is no finite number (text, written into the database by hand)."""
    if v is None:
        return "-"
    v = figure(v)
    if v is None:
        return "?"
    if abs(v) >= 1e6:
        return "%.0f" % v
    return "%.*f" % (digits, v)
