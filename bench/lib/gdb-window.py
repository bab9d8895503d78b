# SPDX-License-Identifier: GPL-2.0
"""gdb-window.py - gdb `record full` over every activation of one function,
for bench/run.  Loaded with `gdb -q -batch -x gdb-window.py --args PROG...`.

Environment:
  BENCH_FUNC   the function whose activations are recorded
  BENCH_IND    comma-separated indirect targets to look for (may be empty)
  BENCH_JOBFNS comma-separated functions of the job itself
  BENCH_OUT    where the results go

At each stop on BENCH_FUNC: `record full`, `finish`, read the log size
from `info record`.  Then, to see which indirect calls the recording
holds, it replays the log from its start with a breakpoint on each
indirect target and, at each hit, walks up the frames to the innermost
job function: that is the caller the -finstrument-functions oracle
names.  The replay is timed separately (`replay_s`), so that the wall
time bench/run reports is that of recording alone.  Output lines:
"insns N", "windows N", "edge CALLER CALLEE", "replay_s S", "error TEXT".
"""
import os
import re
import time

import gdb

func = os.environ["BENCH_FUNC"]
ind = [s for s in os.environ.get("BENCH_IND", "").split(",") if s]
jobfns = set(s for s in os.environ.get("BENCH_JOBFNS", "").split(",") if s)
out = open(os.environ["BENCH_OUT"], "w")


def run(cmd):
    return gdb.execute(cmd, to_string=True) or ""


def alive():
    inf = gdb.selected_inferior()
    return inf is not None and inf.pid != 0 and len(inf.threads()) > 0


def at_function(name):
    try:
        f = gdb.selected_frame()
    except gdb.error:
        return False
    return f.name() == name


def caller_in_job(frame):
    f = frame.older()
    while f is not None:
        if f.name() in jobfns:
            return f.name()
        f = f.older()
    return "?"


def replay_edges():
    """Walk the recorded log forwards, stopping on each indirect target."""
    t0 = time.monotonic()
    run("record goto begin")
    bps = [gdb.Breakpoint("*" + t, internal=True) for t in ind]
    addrs = {}
    for t in ind:
        try:
            addrs[int(gdb.parse_and_eval("(long)&" + t))] = t
        except gdb.error:
            pass
    for _ in range(10000000):
        try:
            run("continue")
        except gdb.error:
            break
        f = gdb.selected_frame()
        name = addrs.get(f.pc())
        if name is None:	# end of the log
            break
        out.write("edge %s %s\n" % (caller_in_job(f), name))
    for b in bps:
        b.delete()
    try:
        run("record goto end")
    except gdb.error:	# the replay already stopped at the end
        pass
    return time.monotonic() - t0


run("set pagination off")
run("set confirm off")
run("set breakpoint pending on")
run("set record full insn-number-max unlimited")
gdb.Breakpoint(func)
insns = windows = 0
replay = 0.0
try:
    run("run")
    while alive() and at_function(func):
        run("record full")
        r = run("finish")
        if "does not support instruction" in r:
            m = re.search(r"[^\n]*does not support instruction[^\n]*", r)
            out.write("error %s\n" % m.group(0))
        m = re.search(r"Log contains (\d+) instructions", run("info record"))
        insns += int(m.group(1)) if m else 0
        windows += 1
        if ind:
            replay += replay_edges()
        run("record stop")
        run("continue")
except gdb.error as e:
    if alive():
        out.write("error %s\n" % str(e).splitlines()[0])
out.write("insns %d\nwindows %d\nreplay_s %.3f\n" % (insns, windows, replay))
out.close()
if alive():
    run("kill")
