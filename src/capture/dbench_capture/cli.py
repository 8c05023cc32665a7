"""The command line of dbench-capture and its main().
"""

import argparse
import os
import sys

from .common import CaptureError, PROG, warn
from .smb2_convert import cmd_pcap
from .strace_convert import cmd_strace
from .summary import cmd_summary


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=PROG,
        description="Turn an strace trace or an SMB2/3 packet capture into "
        "a dbench loadfile, or summarise a trace, capture or loadfile.")
    ap.add_argument("input", help="strace output (strace -f -ttt -y -o "
                    "FILE CMD), a packet capture (--pcap) or a loadfile "
                    "(--summary)")
    ap.add_argument("--root", help="directory whose files the loadfile "
                    "works on (strace); it becomes \\clients\\client1")
    ap.add_argument("--pcap", action="store_true",
                    help="input is an SMB2/3 packet capture (needs tshark)")
    ap.add_argument("--share", help="--pcap: keep only this share's tree "
                    "connect (default: every share)")
    ap.add_argument("--port", type=int, default=445,
                    help="--pcap: the TCP port SMB2 runs on (default 445)")
    ap.add_argument("--summary", action="store_true",
                    help="print op mix, bytes and size distributions")
    ap.add_argument("-o", "--output", help="loadfile to write (default: "
                    "stdout); with --per-process a prefix")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--merge", dest="per_process", action="store_false",
                      help="all processes make one client (default)")
    mode.add_argument("--per-process", dest="per_process",
                      action="store_true",
                      help="one loadfile per traced process")
    ap.set_defaults(per_process=False)
    ap.add_argument("--timed", action="store_true",
                    help="prefix each op with its time since the start")
    prep = ap.add_mutually_exclusive_group()
    prep.add_argument("--prepare", dest="prepare", action="store_true",
                      default=True, help="create the files that existed "
                      "before the trace, with their sizes (default)")
    prep.add_argument("--no-prepare", dest="prepare", action="store_false")
    ap.add_argument("--cwd", default=os.getcwd(),
                    help="working directory of the traced command, for "
                    "relative paths of traces made without -y (default: "
                    "the current directory)")
    ap.add_argument("--ignore-unknown", action="store_true",
                    help="drop unknown system calls instead of failing")
    return ap.parse_args(argv)


def main(argv=None):
    """The exit status of dbench-capture run with argv (default: this
    process's arguments)."""
    opts = parse_args(sys.argv[1:] if argv is None else argv)
    if not 1 <= opts.port <= 65535:
        warn("--port %d: not a TCP port number from 1 to 65535" % opts.port)
        return 2
    try:
        if opts.summary:
            cmd_summary(opts)
        elif opts.pcap:
            cmd_pcap(opts)
        else:
            cmd_strace(opts)
    except CaptureError as e:
        warn("%s: %s" % (opts.input, e))
        return 1
    except OSError as e:
        warn("%s: %s" % (e.filename or opts.input, e.strerror))
        return 1
    return 0
