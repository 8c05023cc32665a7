"""The report's charts: inline SVG drawn by hand (no script, nothing
fetched), with scales whose ticks a reader can read: a linear scale with
round steps, a log scale by decades (1-2-5 inside a short range), and a
time scale in round units of real time (hours, days, weeks, months,
UTC).  Every chart has an axis title with its unit on each axis."""

import datetime
import html
import math
import re

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
           "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
FONT = 14


def esc(text):
    return html.escape("" if text is None else str(text), quote=True)


def colour(i):
    return COLOURS[i % len(COLOURS)]


def tick_text(v):
    """A tick's number: as short as it can be and still exact."""
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1e6:
        return "%.3g" % v
    if a >= 100:
        return "%.0f" % v
    text = ("%.3f" % v).rstrip("0").rstrip(".")
    if a < 0.001:
        text = "%.2g" % v
    return text


class Linear:
    """A linear scale over [lo, hi] (widened to round ticks)."""

    log = False

    def __init__(self, lo, hi, count=5, zero=False):
        if zero:
            lo = min(lo, 0.0)
        if hi <= lo:
            hi = lo + (abs(lo) or 1.0)
        raw = (hi - lo) / count
        mag = 10 ** math.floor(math.log10(raw))
        step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
        self.lo = math.floor(lo / step + 1e-9) * step
        self.hi = math.ceil(hi / step - 1e-9) * step
        self.step = step

    def frac(self, v):
        return (v - self.lo) / (self.hi - self.lo)

    def ticks(self):
        n = int(round((self.hi - self.lo) / self.step))
        top = max(abs(self.lo), abs(self.hi))
        # 20k, 1.5M: short enough for a phone
        div, suffix = ((1e6, "M") if top >= 1e7 else (1e3, "k")
                       if top >= 1e4 else (1, ""))
        step = self.step / div
        mag = math.floor(math.log10(step) + 1e-9)
        # as many decimals as the step needs (2.5: one more)
        digits = max(0, -mag + (1 if abs(step / 10 ** mag - 2.5) < 1e-6
                                else 0))
        out = []
        for i in range(n + 1):
            v = self.lo + i * self.step
            text = "%.*f%s" % (digits, v / div, suffix)
            out.append((v, "0" if abs(v) < self.step * 1e-6 else text))
        return out


class Log:
    """A log10 scale over [lo, hi] (positive), widened to decades or, in
    a short range, to 1-2-5 steps."""

    log = True

    def __init__(self, lo, hi):
        lo = max(lo, 1e-9) / 1.15
        hi = max(hi, lo) * 1.15
        # the range widened to the nearest 1-2-5 values around it
        steps = [m * 10 ** e for e in range(
            int(math.floor(math.log10(lo))) - 1,
            int(math.ceil(math.log10(hi))) + 2) for m in (1, 2, 5)]
        self.lo = max([v for v in steps if v <= lo * 1.0001])
        self.hi = min([v for v in steps if v >= hi / 1.0001])

    def frac(self, v):
        v = max(v, self.lo)
        return (math.log10(v) - math.log10(self.lo)) / (
            math.log10(self.hi) - math.log10(self.lo))

    def ticks(self):
        decades = math.log10(self.hi / self.lo)
        mults = (1, 2, 5) if decades <= 3.5 else (1,)
        out = []
        for e in range(int(math.floor(math.log10(self.lo))) - 1,
                       int(math.ceil(math.log10(self.hi))) + 1):
            for m in mults:
                v = m * 10 ** e
                if self.lo / 1.0001 <= v <= self.hi * 1.0001:
                    out.append((v, tick_text(v)))
        if len(out) < 3 and decades < 0.7:
            # a narrow range: its ends and middle too
            mid = float("%.2g" % math.sqrt(self.lo * self.hi))
            out = sorted(set(out) | {(self.lo, tick_text(self.lo)),
                                     (self.hi, tick_text(self.hi)),
                                     (mid, tick_text(mid))})
        return out


DAY = 86400.0
# (step in seconds, strftime format of a tick) from short to long
TIME_STEPS = [(60, "%H:%M"), (300, "%H:%M"), (900, "%H:%M"),
              (3600, "%H:%M"), (3 * 3600, "%H:%M"), (6 * 3600, "%H:%M"),
              (12 * 3600, "%H:%M"), (DAY, "%b %d"), (2 * DAY, "%b %d"),
              (7 * DAY, "%b %d"), (14 * DAY, "%b %d"), (30 * DAY, "%b %Y"),
              (61 * DAY, "%b %Y"), (91 * DAY, "%b %Y"), (182 * DAY, "%b %Y"),
              (365 * DAY, "%Y")]


def parse_time(text):
    """Seconds since the epoch of an ISO 8601 UTC time, or None."""
    if not text:
        return None
    try:
        t = datetime.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=datetime.timezone.utc)
    return t.timestamp()


def utc(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


class Time:
    """A time scale (seconds since the epoch, shown in UTC)."""

    log = False

    def __init__(self, lo, hi, count=6):
        if hi - lo < 60:
            lo, hi = lo - 1800, hi + 1800
        pad = (hi - lo) * 0.04
        self.lo, self.hi = lo - pad, hi + pad
        span = self.hi - self.lo
        self.step, self.fmt = next(
            (s, f) for s, f in TIME_STEPS + [(span, "%Y")]
            if span / s <= count)
        # the title says the day when every tick is within one day
        first, last = utc(self.lo), utc(self.hi)
        self.day = (first.strftime("%Y-%m-%d")
                    if self.step < DAY and first.date() == last.date()
                    else None)

    def frac(self, v):
        return (v - self.lo) / (self.hi - self.lo)

    def ticks(self):
        out = []
        if self.step >= 30 * DAY:
            t = utc(self.lo).replace(day=1, hour=0, minute=0, second=0,
                                     microsecond=0)
            months = max(1, int(round(self.step / (30.4 * DAY))))
            while t.timestamp() <= self.hi:
                if t.timestamp() >= self.lo:
                    out.append((t.timestamp(), t.strftime(self.fmt)))
                m = t.month - 1 + months
                t = t.replace(year=t.year + m // 12, month=m % 12 + 1)
            return out
        start = math.ceil(self.lo / self.step) * self.step
        v = start
        last_day = None
        while v <= self.hi:
            d = utc(v)
            text = d.strftime(self.fmt)
            if self.step < DAY and self.day is None and \
                    d.date() != last_day:
                text = d.strftime("%b %d %H:%M")
            last_day = d.date()
            out.append((v, text))
            v += self.step
        return out

    def title(self):
        return "date (UTC)" if self.day is None else \
            "time of day on %s (UTC)" % self.day


class Plot:
    """One chart: a frame of width w and height h (the viewBox; the page
    scales it to the screen), an x scale and one or two y scales, and the
    marks drawn on it in order."""

    def __init__(self, cls, cid, title, x, y, x_title, y_title, y2=None,
                 y2_title=None, w=480, h=290):
        self.cls, self.cid, self.title = cls, cid, title
        self.x, self.y, self.y2 = x, y, y2
        self.x_title, self.y_title, self.y2_title = x_title, y_title, \
            y2_title
        self.w, self.h = w, h
        self.left = 66
        self.right = 66 if y2 is not None else 16
        self.top, self.bottom = 14, 48
        self.marks = []

    def px(self, v):
        return self.left + (self.w - self.left - self.right) * \
            self.x.frac(v)

    def py(self, v, second=False):
        s = self.y2 if second else self.y
        return self.h - self.bottom - (self.h - self.top - self.bottom) * \
            s.frac(v)

    def add(self, text):
        self.marks.append(text)

    def _axes(self):
        out = []
        x0, x1 = self.left, self.w - self.right
        y0, y1 = self.h - self.bottom, self.top
        for v, text in self.x.ticks():
            px = self.px(v)
            out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                       'stroke="#eee"/>' % (px, y1, px, y0))
            out.append('<text class="tick" x="%.1f" y="%d" '
                       'text-anchor="middle">%s</text>' % (
                           px, y0 + FONT + 3, esc(text)))
        for v, text in self.y.ticks():
            py = self.py(v)
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" '
                       'stroke="#eee"/>' % (x0, py, x1, py))
            out.append('<text class="tick" x="%d" y="%.1f" '
                       'text-anchor="end">%s</text>' % (
                           x0 - 4, py + FONT / 3, esc(text)))
        if self.y2 is not None:
            for v, text in self.y2.ticks():
                py = self.py(v, True)
                out.append('<text class="tick" x="%d" y="%.1f" '
                           'fill="#b22">%s</text>' % (
                               x1 + 4, py + FONT / 3, esc(text)))
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" '
                       'stroke="#444"/>' % (x1, y1, x1, y0))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/>'
                   % (x0, y0, x1, y0))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/>'
                   % (x0, y1, x0, y0))
        out.append('<text class="axis-title x-title" font-size="13" '
                   'x="%.1f" y="%d" text-anchor="middle">%s</text>' % (
                       (x0 + x1) / 2, self.h - 8, esc(self.x_title)))
        mid = (y0 + y1) / 2
        out.append('<text class="axis-title y-title" font-size="13" '
                   'x="14" y="%.1f" text-anchor="middle" '
                   'transform="rotate(-90 14 %.1f)">'
                   '%s</text>' % (mid, mid, esc(self.y_title)))
        if self.y2 is not None:
            out.append('<text class="axis-title y-title" font-size="13" '
                       'x="%d" y="%.1f" text-anchor="middle" fill="#b22" '
                       'transform="rotate(90 %d %.1f)">%s</text>' % (
                           self.w - 10, mid, self.w - 10, mid,
                           esc(self.y2_title)))
        return out

    def render(self):
        head = ('<svg xmlns="http://www.w3.org/2000/svg" class="%s" '
                'id="%s" viewBox="0 0 %d %d" font-size="%d" role="img" '
                'aria-label="%s"><title>%s</title>' % (
                    self.cls, re.sub(r"[^A-Za-z0-9_-]", "_", self.cid),
                    self.w, self.h, FONT,
                    esc(self.title), esc(self.title)))
        return head + "".join(self._axes() + self.marks) + "</svg>"

    # ---- marks ----

    def line(self, pts, stroke, second=False, dash=None, width=1.5):
        """A polyline through [(x, y)] (None values break it)."""
        runs, cur = [], []
        for x, y in pts:
            if y is None:
                if cur:
                    runs.append(cur)
                cur = []
            else:
                cur.append("%.1f,%.1f" % (self.px(x), self.py(y, second)))
        if cur:
            runs.append(cur)
        for r in runs:
            if len(r) > 1:
                self.add('<polyline fill="none" stroke="%s" '
                         'stroke-width="%s"%s points="%s"/>' % (
                             stroke, width, ' stroke-dasharray="%s"' % dash
                             if dash else "", " ".join(r)))

    def dot(self, x, y, fill, tip, second=False, r=3.5, cls="point",
            hollow=False):
        self.add('<circle class="%s" cx="%.1f" cy="%.1f" r="%s" %s>'
                 '<title>%s</title></circle>' % (
                     cls, self.px(x), self.py(y, second), r,
                     'fill="#fff" stroke="%s" stroke-width="2"' % fill
                     if hollow else 'fill="%s"' % fill, esc(tip)))

    def cross(self, x, y, stroke, tip, second=False, cls="invalid"):
        cx, cy = self.px(x), self.py(y, second)
        self.add('<path class="%s" d="M%.1f %.1fl8 8m0 -8l-8 8" '
                 'stroke="%s" stroke-width="2.5"><title>%s</title></path>'
                 % (cls, cx - 4, cy - 4, stroke, esc(tip)))

    def ring(self, x, y, tip, second=False):
        """The mark of a run on a busy machine: an orange ring around it."""
        self.add('<circle class="busy" cx="%.1f" cy="%.1f" r="8" '
                 'fill="none" stroke="#f08000" stroke-width="2">'
                 '<title>%s</title></circle>' % (
                     self.px(x), self.py(y, second), esc(tip)))

    def whisker(self, x, lo, mid, hi, stroke, tip, cls="group"):
        """A mean (diamond) with its interval (vertical whisker)."""
        cx = self.px(x)
        if lo is not None and hi is not None:
            self.add('<path class="%s-interval" d="M%.1f %.1fV%.1fM%.1f '
                     '%.1fh10M%.1f %.1fh10" stroke="%s" stroke-width="2">'
                     '<title>%s</title></path>' % (
                         cls, cx, self.py(lo), self.py(hi), cx - 5,
                         self.py(lo), cx - 5, self.py(hi), stroke, esc(tip)))
        cy = self.py(mid)
        self.add('<path class="%s" d="M%.1f %.1fl6 6l-6 6l-6 -6z" '
                 'fill="%s" stroke="#000"><title>%s</title></path>' % (
                     cls, cx, cy - 6, stroke, esc(tip)))

    def vline(self, x, stroke, tip, cls, dash="5 4", text=None):
        px = self.px(x)
        self.add('<line class="%s" x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                 'stroke="%s" stroke-width="1.5" stroke-dasharray="%s">'
                 '<title>%s</title></line>' % (
                     cls, px, self.top, px, self.h - self.bottom, stroke,
                     dash, esc(tip)))
        if text:
            anchor = "end" if self.x.frac(x) > 0.6 else "start"
            off = -4 if anchor == "end" else 4
            self.add('<text class="%s-text" x="%.1f" y="%d" fill="%s" '
                     'text-anchor="%s">%s</text>' % (
                         cls, px + off, self.top + FONT, stroke, anchor,
                         esc(text)))

    def band(self, x0, x1, fill, tip, cls):
        a, b = self.px(x0), self.px(x1)
        self.add('<rect class="%s" x="%.1f" y="%d" width="%.1f" height="%d" '
                 'fill="%s" opacity="0.18"><title>%s</title></rect>' % (
                     cls, min(a, b), self.top, abs(b - a),
                     self.h - self.top - self.bottom, fill, esc(tip)))

    def hline(self, y, stroke, tip, cls, second=False, text=None):
        py = self.py(y, second)
        self.add('<line class="%s" x1="%d" y1="%.1f" x2="%d" y2="%.1f" '
                 'stroke="%s" stroke-width="1.5" stroke-dasharray="6 4">'
                 '<title>%s</title></line>' % (
                     cls, self.left, py, self.w - self.right, py, stroke,
                     esc(tip)))
        if text:
            self.add('<text class="%s-text" x="%d" y="%.1f" fill="%s" '
                     'text-anchor="end">%s</text>' % (
                         cls, self.w - self.right - 4, py - 4, stroke,
                         esc(text)))


def interval_chart(cid, title, unit_title, rows, log=False):
    """The first screen's chart of one figure across servers: a row per
    server, its mean as a dot and its 95% interval as a whisker, every
    server on one scale.  rows: [(name, colour, mean, lo, hi, tip)]."""
    vals = [v for r in rows for v in r[2:5] if v is not None]
    if not vals:
        return ""
    if log:
        x = Log(min(v for v in vals if v > 0) if any(v > 0 for v in vals)
                else 0.001, max(vals))
    else:
        x = Linear(0.0, max(vals) * 1.02, zero=True)
    names_w = 112
    h = max(56 + 30 * len(rows), 140)
    p = Plot("servers-chart", cid, title, x, Linear(0, 1), unit_title,
             "server (label)",
             w=400, h=h)
    p.left, p.bottom, p.top, p.right = names_w, 44, 8, 26
    p.y = _Rows(len(rows))
    for i, (name, col, mean, lo, hi, tip) in enumerate(rows):
        cy = p.py(i + 0.5)
        short = name if len(name) <= 11 else name[:10] + "\u2026"
        p.add('<text class="row-name" x="%d" y="%.1f" text-anchor="end" '
              'font-size="12">'
              '%s<title>%s</title></text>' % (names_w - 6, cy + FONT / 3,
                                              esc(short), esc(name)))
        if lo is not None and hi is not None:
            p.add('<path class="whisker" d="M%.1f %.1fH%.1fM%.1f %.1fv12'
                  'M%.1f %.1fv12" stroke="%s" stroke-width="2.5">'
                  '<title>%s</title></path>' % (
                      p.px(lo), cy, p.px(hi), p.px(lo), cy - 6, p.px(hi),
                      cy - 6, col, esc(tip)))
        if mean is not None:
            p.dot(mean, i + 0.5, col, tip, r=5, cls="mean")
    return p.render()


class _Rows:
    """The categorical y scale of interval_chart: row i at the top."""

    log = False

    def __init__(self, n):
        self.n = n

    def frac(self, v):
        return 1.0 - v / self.n

    def ticks(self):
        return []
