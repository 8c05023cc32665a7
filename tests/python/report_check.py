"""report_check.py - report.sh's checks of the report's DOM as headless
chromium rendered it, against what dbench-history's commands printed for
the same database and against the figures report_history.py planted.

  report_check.py DOM OUTDIR

OUTDIR holds servers.txt, trend-drift.txt, compare-fast.txt and
compare-drift.txt (compare slow LABEL).  Each failed check is a line on
stdout; the exit status is 1 when one failed."""

import html.parser
import re
import sys

FAILS = []


def check(ok, what):
    if not ok:
        FAILS.append(what)


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children = []
        self.text_parts = []

    def cls(self):
        return (self.attrs.get("class") or "").split()

    def text(self):
        out = list(self.text_parts)
        for c in self.children:
            out.append(c.text())
        return "".join(out)

    def find(self, pred):
        out = []
        for c in self.children:
            if pred(c):
                out.append(c)
            out += c.find(pred)
        return out


VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area", "base",
        "wbr", "source"}


class Tree(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        # text after a child goes to the parent in order: keep it simple,
        # a child's text is appended where the child is
        self.cur.text_parts.append("")
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        # text kept in document order: a text node as a child
        t = Node("#text", [], self.cur)
        t.text_parts.append(data)
        self.cur.children.append(t)


def parse(path):
    t = Tree()
    with open(path, encoding="utf-8") as f:
        t.feed(f.read())
    return t.root


def norm(text):
    return " ".join(text.split())


def by_class(root, tag, cls):
    return root.find(lambda n: n.tag == tag and cls in n.cls())


def servers_expected(path):
    """{label: (n, mean text)} from `dbench-history servers`."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^(\S+)\s+(\d+)\s+\S+\s+([\d.]+) ± ([\d.]+) "
                         r"\((\d+)\)", line)
            if m:
                out[m.group(1)] = (int(m.group(2)), m.group(3))
    return out


def compare_sentences(path):
    """The lines after compare's table (its verdicts and notes)."""
    lines = open(path, encoding="utf-8").read().splitlines()
    blanks = [i for i, ln in enumerate(lines) if ln == ""]
    return [ln for ln in lines[blanks[1] + 1:] if ln.strip()]


def compare_table(path):
    """{"MB/s"|"ops/s": (A mean, B mean)} from compare's table."""
    out = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^(MB/s|ops/s)\s+([\d.]+)\s+\S+\s+([\d.]+)\s", line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(3))
    return out


# the 95% intervals of the planted figures (report_history.py), worked
# by hand: slow's MB/s 100,102,98,101,99,100 have sd sqrt(2), and
# t(0.975, 5) = 2.5706: 100 +- 2.5706 * 1.4142 / sqrt(6) = 100 +- 1.484
PLANTED = {("slow", "MB/s"): ("100.0", "98.5", "101.5"),
           ("slow", "ops/s"): ("1000.0", "985.2", "1014.8"),
           ("slow", "p99 ms"): ("1.500", "1.406", "1.594"),
           ("fast", "MB/s"): ("200.0", "198.2", "201.8")}


def first_screen(root, outdir):
    servers = servers_expected(outdir + "/servers.txt")
    check(set(servers) == {"slow", "fast", "drift"},
          "servers printed %s" % sorted(servers))
    rows = by_class(root, "tr", "server")
    got = {r.attrs.get("data-label"): r for r in rows}
    check(set(got) == set(servers), "the servers table's rows: %s"
          % sorted(got))
    for label, (n, mean) in servers.items():
        row = got.get(label)
        if row is None:
            continue
        runs = by_class(row, "td", "runs")
        check(runs and re.match(r"^%d\b" % n, norm(runs[0].text())),
              "%s: runs %r, servers says %d" % (
                  label, runs and norm(runs[0].text()), n))
        cells = {c.attrs.get("data-metric"): c for c in by_class(
            row, "td", "fig")}
        mb = cells.get("MB/s")
        mb_mean = mb and by_class(mb, "span", "mean")
        check(mb_mean and norm(mb_mean[0].text()) == mean,
              "%s: MB/s mean %r, servers says %s" % (
                  label, mb_mean and mb_mean[0].text(), mean))
        for (lab, key), (m, lo, hi) in PLANTED.items():
            if lab != label:
                continue
            text = norm(cells[key].text()) if key in cells else ""
            want = "%s [%s\u2013%s] (n=%d)" % (m, lo, hi, n)
            check(text == want, "%s %s: %r, planted %r" % (label, key, text,
                                                            want))
    # the newest run of slow: its sixth (MB/s 100.0 on Nov 6)
    newest = by_class(got["slow"], "td", "newest") if "slow" in got else []
    check(newest and "2026-11-06 10:00: 100.0 MB/s" in norm(
        newest[0].text()), "slow's newest run: %r" % (
            newest and norm(newest[0].text())))
    drift = got.get("drift")
    check(drift is not None and "1 on a busy machine" in norm(
        drift.text()), "the busy run counted in drift's row")
    for label in ("fast", "drift"):
        # the means of MB/s and ops/s: compare's table (B; A is slow)
        table = compare_table("%s/compare-%s.txt" % (outdir, label))
        for title, (a_mean, b_mean) in table.items():
            for lab, want in (("slow", a_mean), (label, b_mean)):
                cells = [c for c in by_class(got.get(lab, Node("x", [],
                                                               None)),
                                              "td", "fig")
                         if c.attrs.get("data-metric") == title]
                have = cells and by_class(cells[0], "span", "mean")
                check(have and norm(have[0].text()) == want,
                      "%s's %s mean %r, compare says %s" % (
                          lab, title, have and have[0].text(), want))
        want = compare_sentences("%s/compare-%s.txt" % (outdir, label))
        boxes = [v for v in by_class(root, "div", "verdict")
                 if v.attrs.get("data-label") == label]
        have = [norm(li.text()) for li in by_class(boxes[0], "li",
                                                   "sentence")] \
            if boxes else []
        check(have == [norm(w) for w in want],
              "%s's verdict: %r, compare says %r" % (label, have, want))
    # the first screen says which got slower, when, what changed there,
    # and how many clients a server holds
    glance = {li.attrs.get("data-label"): norm(li.text()) for li in
              root.find(lambda n: n.tag == "li" and n.parent is not None and
                        n.parent.attrs.get("id") == "glance")}
    check("slower: MB/s -20.0% from run #6 (run 18, 2026-11-06); kernel: "
          "6.1.0 \u2192 6.5.0" in glance.get("drift", ""),
          "drift's slowdown at a glance: %r" % glance.get("drift"))
    check("holds at most 8 clients within p99<=2ms" in glance.get("fast", ""),
          "fast's capacity at a glance: %r" % glance.get("fast"))
    check("no change point in 6 runs" in glance.get("slow", ""),
          "slow steady at a glance: %r" % glance.get("slow"))
    charts = by_class(root, "svg", "servers-chart")
    check(len(charts) == 3, "3 charts of the servers, found %d"
          % len(charts))
    for c in charts:
        check(len(by_class(c, "circle", "mean")) == 3 and
              len(by_class(c, "path", "whisker")) == 3,
              "%s: a mean and a whisker per server" % c.attrs.get("id"))


def slowdown(root, outdir):
    text = open(outdir + "/trend-drift.txt", encoding="utf-8").read()
    m = re.search(r"^change point: MB/s (fell|rose) ([\d.]+)% \[[\d.]+-"
                  r"[\d.]+%\] from run #(\d+) \(run (\d+), ([\d-]+)\): "
                  r"median ([\d.]+) -> ([\d.]+) .*$", text, re.M)
    check(m is not None, "trend printed no MB/s change point")
    if m is None:
        return
    check(m.group(3) == "6", "trend's change point at run #%s, planted "
          "at #6" % m.group(3))
    check(m.group(1) == "fell", "trend says MB/s %s, planted a fall"
          % m.group(1))
    rows = [r for r in by_class(root, "tr", "server")
            if r.attrs.get("data-label") == "drift"]
    level = [norm(c.text()) for c in by_class(rows[0], "td", "fig")
             if c.attrs.get("data-metric") == "MB/s"] if rows else []
    check(level and level[0].endswith("since run #%s: %s (median)" % (
        m.group(3), m.group(7))), "drift's level since its change on the "
          "first screen: %r" % level)
    points = [p for p in by_class(root, "li", "change-point")
              if norm(p.text()).startswith("MB/s ")]
    check(len(points) == 1, "one MB/s change point shown, found %d"
          % len(points))
    if not points:
        return
    p = points[0]
    t = norm(p.text())
    # trend's own sentence, word for word, after the title
    want = "MB/s " + m.group(0)[len("change point: MB/s "):]
    check(t.startswith(want), "the change point: %r, trend says %r"
          % (t, want))
    check("worse" in p.cls(), "the slowdown not marked worse")
    check("kernel: 6.1.0 \u2192 6.5.0" in t,
          "the kernel's change not shown at the change point: %r" % t)
    section = [s for s in root.find(lambda n: n.tag == "section" and
                                    "label-trend" in n.cls())
               if norm(s.find(lambda n: n.tag == "h3")[0].text()) ==
               "drift"]
    check(len(section) == 1, "drift's section")
    if section:
        svg = by_class(section[0], "svg", "trend")
        check(svg and by_class(svg[0], "line", "change"),
              "the change point drawn in drift's chart")
        check(svg and len(by_class(svg[0], "circle", "busy")) == 1,
              "the busy-machine run marked in drift's chart")
        check(svg and len(by_class(svg[0], "circle", "point")) == 10,
              "a point per run in drift's chart")
    fast = [s for s in root.find(lambda n: n.tag == "section" and
                                 "label-trend" in n.cls())
            if norm(s.find(lambda n: n.tag == "h3")[0].text()) == "fast"]
    check(fast and by_class(fast[0], "path", "group"),
          "fast's --repeat group drawn as its mean")


def curve(root):
    caps = by_class(root, "b", "capacity-clients")
    check(len(caps) == 1 and norm(caps[0].text()) == "at most 8 clients",
          "the curve's capacity: %r" % [c.text() for c in caps])
    ivs = by_class(root, "span", "capacity-interval")
    check(ivs and "6\u201310 clients" in ivs[0].text(),
          "the capacity's interval")
    svgs = by_class(root, "svg", "curve")
    check(len(svgs) == 1, "one curve chart")
    if svgs:
        s = svgs[0]
        check(by_class(s, "line", "bound"), "the bound line")
        check(by_class(s, "line", "capacity"), "the capacity line")
        check(len(by_class(s, "path", "invalid")) == 3,
              "the invalid point (two axes) and the failed one marked")
        titles = [norm(t.text()) for t in by_class(s, "text", "y-title")]
        check(any("log scale" in t for t in titles),
              "the latency axis is a log axis: %r" % titles)


def axes(root):
    svgs = root.find(lambda n: n.tag == "svg")
    check(len(svgs) >= 10, "charts found: %d" % len(svgs))
    for s in svgs:
        xs = [norm(t.text()) for t in by_class(s, "text", "x-title")]
        ys = [norm(t.text()) for t in by_class(s, "text", "y-title")]
        ok = len(xs) == 1 and len(ys) >= 1 and all(
            re.search(r"\(.+\)", t) for t in xs + ys)
        check(ok, "%s: axis titles with units: x %r, y %r" % (
            s.attrs.get("id"), xs, ys))


def main():
    root = parse(sys.argv[1])
    outdir = sys.argv[2]
    first_screen(root, outdir)
    slowdown(root, outdir)
    curve(root)
    axes(root)
    for f in FAILS:
        print(f)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
