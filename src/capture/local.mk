# src/capture/local.mk - dbench-capture: strace traces and SMB2 captures
# to loadfiles (Python 3, its standard library only).  The package
# dbench_capture is zipped into one executable file (python3 -m zipapp),
# the installed command; without python3 at configure time it is not
# built.  Makefile.am includes it; %reldir% is this folder.
CAPTURE_PY = \
	%reldir%/dbench_capture/__init__.py \
	%reldir%/dbench_capture/__main__.py \
	%reldir%/dbench_capture/cli.py \
	%reldir%/dbench_capture/common.py \
	%reldir%/dbench_capture/model.py \
	%reldir%/dbench_capture/pcap_reader.py \
	%reldir%/dbench_capture/smb2_convert.py \
	%reldir%/dbench_capture/strace_convert.py \
	%reldir%/dbench_capture/strace_handlers.py \
	%reldir%/dbench_capture/strace_reader.py \
	%reldir%/dbench_capture/summary.py \
	%reldir%/dbench_capture/writer.py
EXTRA_DIST += $(CAPTURE_PY)
if HAVE_PYTHON3
bin_SCRIPTS += dbench-capture
endif
CLEANFILES += dbench-capture
dbench-capture: $(CAPTURE_PY)
	$(AM_V_GEN)rm -rf $@.d $@.tmp && $(MKDIR_P) $@.d/dbench_capture && \
	for f in $(CAPTURE_PY); do \
		cp '$(srcdir)'/$$f $@.d/dbench_capture/ || exit 1; \
	done && \
	cp '$(srcdir)'/%reldir%/dbench_capture/__main__.py $@.d/ && \
	$(PYTHON3) -m zipapp $@.d -p /usr/bin/python3 -o $@.tmp && \
	chmod 755 $@.tmp && \
	rm -rf $@.d && mv -f $@.tmp $@
