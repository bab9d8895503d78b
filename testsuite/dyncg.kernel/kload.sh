#!/bin/sh
# kload.sh FILE CMD [ARGS...] - run CMD pinned to CPU 0 while CPU 1 runs
# load: a loop that reads FILE and /proc/version through vfs_read (not
# traced: the probes filter on CMD's name) and a busy loop.  The load
# stops when CMD returns, or earlier once /tmp/kload.stop exists.
#
# It is started by staprun -c, so the load begins after the module is
# loaded and ends before it is unloaded: under QEMU's multi-threaded TCG
# a vCPU that runs kernel code while the other one patches it (stap
# registering or removing kprobes and tracepoints) can execute stale
# code (see doc/kernel-mode.md).
file=$1
shift
rm -f /tmp/kload.stop
(while [ ! -e /tmp/kload.stop ]; do cat /proc/version "$file" > /dev/null; done) &
l1=$!
(while [ ! -e /tmp/kload.stop ]; do :; done) &
l2=$!
taskset -p 2 $l1 > /dev/null
taskset -p 2 $l2 > /dev/null
taskset 1 "$@"
rc=$?
touch /tmp/kload.stop
wait $l1 $l2
exit $rc
