# src/backends/block/local.mk - the block backend (-B block), over
# src/backends/device/.  Makefile.am includes it; %reldir% is this
# folder.
libdbench_a_SOURCES += %reldir%/block.c
