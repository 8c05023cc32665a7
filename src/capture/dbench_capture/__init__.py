"""dbench-capture - turn a recorded workload into a dbench loadfile.

Three modes:
  dbench-capture [--root DIR] TRACE        an strace trace -> loadfile
  dbench-capture --pcap CAPTURE            an SMB2/3 packet capture (read
                                           through tshark) -> loadfile
  dbench-capture --summary FILE            op mix, bytes, file-size and
                                           I/O-size distributions of a
                                           trace, capture or loadfile

Every call kept becomes exactly one loadfile op, with the status the call
returned as the expected status (errno mapped to an NT status the way the
fileio backend maps it, src/loadfile/ntstatus.c).  What is dropped is counted and
reported on stderr.  Only Debian's python3 standard library is needed.

The package is installed as one command: `make` zips it into the
executable dbench-capture (python3 -m zipapp), which runs __main__.py.

The package is installed as one command: `make` zips it into the
executable dbench-capture (python3 -m zipapp), which runs __main__.py.
"""
