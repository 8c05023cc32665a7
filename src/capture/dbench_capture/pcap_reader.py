"""Reading an SMB2/3 packet capture: tshark's JSON of each SMB2 message
flattened, and the pcap rewritten when the server used another port
than 445.
"""

import json
import shutil
import struct
import subprocess
import tempfile

from .common import CaptureError, warn


def flatten(obj, out):
    """Every leaf field of a tshark JSON tree: name -> list of values."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (dict, list)):
                if isinstance(v, list) and v and \
                        not isinstance(v[0], (dict, list)):
                    out.setdefault(k, []).extend(v)
                else:
                    flatten(v, out)
            else:
                out.setdefault(k, []).append(v)
    elif isinstance(obj, list):
        for x in obj:
            flatten(x, out)
    return out


class Smb2Msg:
    """One SMB2 message (a compound frame holds several)."""

    def __init__(self, fields, frame, ts, stream, index):
        self.f, self.frame, self.ts = fields, frame, ts
        self.stream, self.index = stream, index
        self.cmd = int(self.get("smb2.cmd", "-1"))
        self.msg_id = int(self.get("smb2.msg_id", "0"))
        self.response = self.get("smb2.flags.response", "0") == "1"
        self.status = int(self.get("smb2.nt_status", "0"), 16)
        self.lineno = frame       # for messages: the frame number
        self.pid = stream         # one client per connection

    def get(self, name, default=None):
        v = self.f.get(name)
        return v[0] if v else default

    def num(self, name, default=0):
        v = self.get(name)
        return int(v, 0) if v not in (None, "") else default


# link-layer header lengths of the pcap link types we can rewrite
PCAP_LINK_HDR = {1: 14, 113: 16, 276: 20, 0: 4, 12: 0, 101: 0, 228: 0,
                 229: 0}


def pcap_move_port(path, dst, old, new):
    """Copy a classic pcap file to the open file dst with TCP port old
    renamed to new (checksums are left as they are: tshark does not check
    them).  Returns False if path is not a pcap file it can rewrite."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if len(data) < 24:
        return False
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        return False
    link = struct.unpack(end + "I", data[20:24])[0] & 0x0FFFFFFF
    hdr = PCAP_LINK_HDR.get(link)
    if hdr is None:
        return False
    pos = 24
    while pos + 16 <= len(data):
        caplen = struct.unpack(end + "I", data[pos + 8:pos + 12])[0]
        pkt = pos + 16
        pcap_tcp_ports(data, pkt + hdr, pkt + caplen, old, new)
        pos = pkt + caplen
    dst.write(data)
    dst.flush()
    return True


def pcap_tcp_ports(data, ip, end, old, new):
    """Rename TCP port old to new in the IPv4 or IPv6 packet at data[ip:]."""
    if ip >= end:
        return
    version = data[ip] >> 4
    if version == 4 and ip + 20 <= end and data[ip + 9] == 6:
        tcp = ip + (data[ip] & 0x0F) * 4
    elif version == 6 and ip + 40 <= end and data[ip + 6] == 6:
        tcp = ip + 40
    else:
        return
    for off in (tcp, tcp + 2):
        if off + 2 <= end and struct.unpack(">H", data[off:off + 2])[0] == old:
            data[off:off + 2] = struct.pack(">H", new)


def read_pcap(opts):
    """The SMB2 messages of a capture, in frame order, through tshark."""
    tshark = shutil.which("tshark")
    if tshark is None:
        raise CaptureError("tshark is not installed (Debian: apt-get "
                           "install tshark)")
    src = opts.input
    tmp = None
    if opts.port != 445:
        # tshark reads SMB2 messages over 128 KiB right only on port 445
        # (elsewhere it takes the NetBIOS 17-bit length): show it 445
        tmp = tempfile.NamedTemporaryFile(prefix="dbench-capture-",
                                          suffix=".pcap")
        if not pcap_move_port(opts.input, tmp, opts.port, 445):
            tmp.close()
            tmp = None
            warn("%s: not a classic pcap file; SMB2 messages over 128 KiB "
                 "on port %d may be misread" % (opts.input, opts.port))
        else:
            src = tmp.name
    cmd = [tshark, "-n", "-r", src, "-Y", "smb2", "-T", "json",
           "--no-duplicate-keys", "-J", "frame tcp smb2"]
    if tmp is None and opts.port != 445:
        cmd += ["-d", "tcp.port==%d,nbss" % opts.port]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         check=False)
    if tmp is not None:
        tmp.close()
    if res.returncode != 0:
        lines = res.stderr.decode("utf-8", "replace").strip().splitlines()
        raise CaptureError("tshark failed: %s"
                           % (lines[-1] if lines else "no message"))
    try:
        packets = json.loads(res.stdout.decode("utf-8", "surrogateescape")
                             or "[]")
    except ValueError as e:
        raise CaptureError("tshark's output is not JSON: %s" % e)
    msgs = []
    for p in packets:
        layers = p["_source"]["layers"]
        frame = int(layers["frame"]["frame.number"])
        ts = float(layers["frame"].get("frame.time_epoch", "0"))
        stream = layers.get("tcp", {}).get("tcp.stream", "0")
        smb2 = layers.get("smb2")
        for i, m in enumerate(smb2 if isinstance(smb2, list) else [smb2]):
            if isinstance(m, dict):
                msgs.append(Smb2Msg(flatten(m, {}), frame, ts, stream, i))
    if not msgs:
        raise CaptureError("frame 1: no SMB2 message in the capture (SMB2 "
                           "on another port than 445 needs --port; "
                           "encrypted sessions cannot be read)")
    return msgs
