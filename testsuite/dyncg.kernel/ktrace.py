#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ktrace.py - checks for the kernel-mode tests (testsuite/dyncg.kernel).

Reads what the guest sent back and prints one "PASS: what" or
"FAIL: what" line per check (dcg_run_unit turns them into DejaGnu
results).  It does not use dyncg's own reader or symbolizer: binary
traces are parsed here from the record layout (runtime/dcg_event.h),
and addresses are named from the guest kernel's System.map, which
provision made from the guest's /proc/kallsyms.  Expected names come
from that map and from what the kernel itself says (the oracle probe
prints the file's f_op->read_iter with %ps); never from the output
under test.

  ktrace.py b64 LOG OUT          decode the base64 block between
                                 DCG-B64-BEGIN / DCG-B64-END lines
  ktrace.py vfs SYSMAP TEXT BIN READITER
  ktrace.py edges BIN
  ktrace.py pipe SYSMAP TEXT
  ktrace.py pipebin SYSMAP BIN
  ktrace.py stress LOG READS
  ktrace.py irqtext SYSMAP TEXT  live text of windows long enough for
                                 timer ticks: its "==========> irq:"
                                 lines against the summary's counts
  ktrace.py faults SYSMAP TEXT BINLOG VIEW
                                 kernel-readfault under a live text and
                                 a binary window: page faults counted
                                 as the program's getrusage says
"""
import base64
import bisect
import re
import struct
import sys

EV_CALL, EV_RET, EV_TAIL, EV_ASYNC = 1, 2, 3, 4
EVF_INDIRECT, EVF_ROOT = 0x02, 0x20
ARROW = {EV_CALL: "->", EV_RET: "<-", EV_TAIL: "=>", EV_ASYNC: "~>"}

# Subtrees whose content depends on what else is runnable.
# _cond_resched is 5.10's name of __cond_resched: whether it schedules
# (and whether it asks RCU for a quiescent state) depends on the tick, and
# the slower live text run was preempted there where the binary run was
# not (bullseye: text and binary differed at event 95).
SCHED_ROOTS = {"__cond_resched", "_cond_resched", "schedule",
               "preempt_schedule", "preempt_schedule_common",
               "preempt_schedule_notrace"}
# Preemptible RCU's slow path of __rcu_read_unlock(), taken when a grace
# period waits for this CPU: a matter of timing (a stepped window is slow
# enough for ticks to ask for a quiescent state).  On 7.2 it is a tail
# call from __rcu_read_unlock (seen in the binary run, not the text run).
RCU_ROOTS = {"rcu_read_unlock_special"}

results = {"fail": 0}

# Compiler plumbing, not functions of the traced code (retpolines, return
# thunks of the retbleed/SRSO/ITS mitigations, call depth tracking): no
# event may name one.
THUNK_PREFIXES = ("__x86_indirect_", "__x86_return_", "retbleed_",
                  "srso_", "its_return_thunk", "zen_untrain_ret",
                  "call_depth_return_thunk")
THUNK_NAMES = {"__ret"}
# x86-64 module space (nokaslr): dyncg's own code lives there.
MODULES_VADDR = 0xffffffffc0000000


def is_thunk_name(name):
    return name in THUNK_NAMES or name.startswith(THUNK_PREFIXES)


def is_thunk(sm, addr):
    """Any alias at the symbol holding addr is a thunk's name (6.1's
    retpolines share their address with __indirect_thunk_start)."""
    return any(is_thunk_name(n) for n in sm.aliases.get(sm.entry(addr), []))


def check(ok, what):
    print("%s: %s" % ("PASS" if ok else "FAIL", what))
    if not ok:
        results["fail"] += 1
    return ok


class SysMap:
    """Text symbols of System.map: address -> name."""

    def __init__(self, path):
        syms = []
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) >= 3 and p[1] in "tTwW":
                    syms.append((int(p[0], 16), p[2]))
        self.aliases = {}
        self.byname = {}
        for a, n in syms:
            self.aliases.setdefault(a, []).append(n)
            self.byname.setdefault(n, a)
        self.addrs = sorted(self.aliases)

    def entry(self, addr):
        """Start of the symbol holding addr (aliases share it)."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.addrs[i] if i >= 0 else 0

    def name(self, addr):
        e = self.entry(addr)
        return "/".join(self.aliases.get(e, ["?"]))

    def is_(self, addr, name):
        return name in self.aliases.get(self.entry(addr), [])

    def starts(self, addr, prefix):
        return any(n.startswith(prefix)
                   for n in self.aliases.get(self.entry(addr), []))


def read_records(path):
    data = open(path, "rb").read()
    off = 0
    recs = []
    while off + 8 <= len(data):
        typ, size, tid = struct.unpack_from("<HHI", data, off)
        if size < 8 or size % 8 or off + size > len(data):
            raise ValueError("bad record at %d (type %d size %d)" %
                             (off, typ, size))
        recs.append((typ, tid, data[off:off + size]))
        off += size
    return recs, off == len(data)


def events(recs):
    out = []
    for typ, tid, raw in recs:
        if typ == 2:
            ts, frm, to, sp, kind, flags, cpu, depth = \
                struct.unpack_from("<QQQQBBHI", raw, 8)
            out.append(dict(tid=tid, ts=ts, frm=frm, to=to, kind=kind,
                            flags=flags, depth=depth))
    return out


def windows(evs):
    """Split events into windows: each starts with a ROOT call."""
    wins = []
    for e in evs:
        if e["kind"] == EV_CALL and e["flags"] & EVF_ROOT:
            wins.append([])
        if wins:
            wins[-1].append(e)
    return wins


def bin_sequence(win, sm):
    """(arrow, name, depth) like the live text: CALL names the callee,
    RET the function the ret is in."""
    seq = []
    for e in win:
        at = e["frm"] if e["kind"] == EV_RET else e["to"]
        seq.append((ARROW[e["kind"]], sm.entry(at), e["depth"]))
    return seq


TEXT_RE = re.compile(r"^\s*\d+ (\S+)\((\d+)\):( *)(->|<-|=>|~>) (\S+)")


def text_windows(path):
    wins = []
    for line in open(path, errors="replace"):
        m = TEXT_RE.match(line)
        if not m:
            continue
        arrow, name, depth = m.group(4), m.group(5), len(m.group(3))
        if arrow == "->" and depth == 1:
            wins.append([])
        if wins:
            wins[-1].append((arrow, name, depth))
    return wins


def text_keys(seq, sm):
    """Text names to symbol addresses, so that aliases compare equal."""
    return [(a, sm.byname.get(n, n), d) for a, n, d in seq]


def drop_sched(seq, sm):
    """Remove the subtrees of scheduler entry points (their content
    depends on what else is runnable) and of RCU's unlock slow path, and
    window-end returns.  A tail call into the RCU slow path is dropped
    with its subtree, and the frame's return keeps the name of the
    function that made the tail call, as if it had not been made."""
    out = []
    skip_depth = None
    rcu_tail = None
    frames = {}
    sched = {sm.byname.get(r) for r in SCHED_ROOTS} - {None}
    rcu = {sm.byname.get(r) for r in RCU_ROOTS} - {None}
    for arrow, name, depth in seq:
        if skip_depth is not None:
            if arrow == "<-" and depth < skip_depth:
                skip_depth = None
                if rcu_tail is not None:
                    out.append(("<-", rcu_tail, depth))
                    rcu_tail = None
            continue
        if arrow in ("->", "=>") and name in sched:
            skip_depth = depth
            if arrow == "=>":
                out.append(("=>", name, depth))
            continue
        if arrow in ("->", "=>") and name in rcu:
            skip_depth = depth
            if arrow == "=>":
                rcu_tail = frames.get(depth, name)
            continue
        if arrow in ("->", "=>"):
            frames[depth] = name
        out.append((arrow, name, depth))
    return out


def cmd_b64(log, outpath):
    text = open(log, errors="replace").read()
    m = re.search(r"DCG-B64-BEGIN\n(.*?)DCG-B64-END", text, re.S)
    if not m:
        print("ktrace: no base64 block in %s" % log)
        return 1
    open(outpath, "wb").write(base64.b64decode(m.group(1)))
    return 0


def subtree(win, i):
    """Events under the call at index i, up to its return."""
    d = win[i]["depth"]
    out = []
    for e in win[i + 1:]:
        if e["kind"] == EV_RET and e["depth"] < d:
            break
        out.append(e)
    return out


def cmd_vfs(sysmap, text, binpath, readiter):
    sm = SysMap(sysmap)
    for name in ("vfs_read", "rw_verify_area", "copy_page_to_iter",
                 readiter):
        check(name in sm.byname, "System.map has %s" % name)
    try:
        recs, whole = read_records(binpath)
    except (OSError, ValueError) as e:
        check(False, "binary trace readable (%s)" % e)
        return
    check(whole and recs and recs[0][0] == 1 and
          recs[0][2][8:16] == b"DCGTRACE", "binary trace: header, whole records")
    hdr = recs[0][2]
    check(struct.unpack_from("<I", hdr, 24)[0] & 1, "header flags say kernel")
    ksyms = [r for r in recs if r[0] == 4]
    check(len(ksyms) > 0, "binary trace carries KSYM records (%d)" % len(ksyms))
    bad = 0
    for _, _, raw in ksyms:
        addr, = struct.unpack_from("<Q", raw, 8)
        nm = raw[24:].split(b"\0")[0].decode().split("\t")[0]
        if sm.byname.get(nm) != addr and sm.name(addr) != nm:
            bad += 1
    check(bad == 0, "KSYM records agree with System.map (%d differ)" % bad)

    evs = events(recs)
    check_not_ours(evs, sm, "binary events")
    edges = [struct.unpack_from("<QQ", raw, 8) for typ, _, raw in recs
             if typ == 8]
    bad = [(a, b) for a, b in edges
           for x in (a, b) if x and (x >= MODULES_VADDR or is_thunk(sm, x))]
    check(not bad, "no thunk or module code in the edge table (%d edges, %d bad: %s)"
          % (len(edges), len(bad),
             ", ".join("%s->%s" % (sm.name(a), sm.name(b)) for a, b in bad[:3])))
    wins = windows(evs)
    check(len(wins) == 2, "two windows: the data read and the EOF read (%d)" % len(wins))
    if not wins:
        return
    w = wins[0]
    root = w[0]
    check(root["to"] == sm.byname["vfs_read"], "window root is vfs_read's entry")
    check(sm.is_(root["frm"], "ksys_read"),
          "root called from ksys_read (%s)" % sm.name(root["frm"]))
    # direct children of the root (depth 2)
    kids = [(i, e) for i, e in enumerate(w)
            if e["kind"] in (EV_CALL, EV_TAIL) and e["depth"] == 2]
    check(any(e["to"] == sm.byname["rw_verify_area"] for _, e in kids),
          "vfs_read calls rw_verify_area")
    # The read_iter anywhere in vfs_read's subtree: the helper between
    # them is the kernel's business (5.10: vfs_read -> new_sync_read ->
    # call_read_iter, inlined; 6.1 on: vfs_read itself).  frames[d] is the
    # function running at depth d (the root is depth 1).
    target = sm.byname.get(readiter)
    frames = {}
    ri = []
    for i, e in enumerate(w):
        if e["kind"] in (EV_CALL, EV_TAIL):
            frames[e["depth"]] = sm.entry(e["to"])
            if e["to"] == target:
                ri.append((i, e, [frames.get(d, 0) for d in range(1, e["depth"])]))
    path = " > ".join(sm.name(a) for a in ri[0][2]) if ri else "-"
    check(len(ri) == 1, "vfs_read reaches %s (the file's f_op->read_iter) once (%s)" %
          (readiter, path))
    if ri:
        i, e, callers = ri[0]
        check(callers and callers[0] == sm.byname["vfs_read"],
              "%s is in vfs_read's subtree (%s)" % (readiter, path))
        caller = callers[-1] if callers else 0
        check(e["flags"] & EVF_INDIRECT, "%s reached by an indirect transfer" % readiter)
        # through the retpoline thunk: the event before is the call into it
        prev = w[i - 1]
        via_thunk = (e["kind"] == EV_TAIL and prev["kind"] == EV_CALL and
                     sm.starts(prev["to"], "__x86_indirect_thunk") and
                     sm.entry(prev["frm"]) == caller)
        via_call = e["kind"] == EV_CALL and sm.entry(e["frm"]) == caller
        check(via_thunk or via_call,
              "the indirect call site is in its caller %s (%s)" %
              (sm.name(caller), "retpoline thunk" if via_thunk else "call"))
        sub = subtree(w, i)
        cp = [j for j, s in enumerate(sub)
              if s["kind"] in (EV_CALL, EV_TAIL) and s["depth"] == e["depth"] + 1
              and s["to"] == sm.byname["copy_page_to_iter"]]
        check(len(cp) >= 1, "%s calls copy_page_to_iter" % readiter)
        # the out-of-line user copy: copy_user_* up to 6.3,
        # rep_movs_alternative from 6.4 on (7.2, measured)
        cu = sorted({sm.name(s["to"]) for s in sub
                     if s["kind"] in (EV_CALL, EV_TAIL) and
                     (sm.starts(s["to"], "copy_user_") or
                      sm.is_(s["to"], "rep_movs_alternative"))})
        check(len(cu) > 0,
              "the copy to user space happens under it (%s)" % ",".join(cu))
    last = w[-1]
    check(last["kind"] == EV_RET and last["depth"] == 0 and
          not (last["flags"] & 0x40),
          "window ends with vfs_read's own return, not a forced end")
    # live text: the binary's clock (ns since the trace start), said once
    ttext = open(text, errors="replace").read()
    check("dynamic call graph: times in ns since the trace start" in ttext,
          "live text says its time unit")
    times = [int(m.group(0).split()[0]) for m in
             (TEXT_RE.match(line) for line in ttext.splitlines()) if m]
    check(len(times) > 1 and times == sorted(times) and times[0] > 0,
          "live text times grow across windows from the trace start "
          "(%d events, first %s, last %s)" %
          (len(times), times[0] if times else "-", times[-1] if times else "-"))
    # live text and binary give the same sequence
    tw = text_windows(text)
    check(len(tw) == len(wins), "text has as many windows as binary (%d, %d)" %
          (len(tw), len(wins)))
    for k in range(min(len(tw), len(wins))):
        a = drop_sched(text_keys(tw[k], sm), sm)
        b = drop_sched(bin_sequence(wins[k], sm), sm)
        same = a == b
        if not same:
            n = next((j for j in range(min(len(a), len(b))) if a[j] != b[j]),
                     min(len(a), len(b)))
            print("INFO: window %d differs at %d: text %s binary %s" %
                  (k, n, a[n:n + 3], b[n:n + 3]))
        check(same, "window %d: live text and binary agree (%d events)" %
              (k, len(a)))


def check_not_ours(evs, sm, what):
    """No event goes to or comes from dyncg's module or a thunk."""
    bad = []
    for e in evs:
        at = e["frm"] if e["kind"] == EV_RET else e["to"]
        if at >= MODULES_VADDR or e["frm"] >= MODULES_VADDR:
            bad.append("module %#x" % at)
        elif is_thunk(sm, at):
            bad.append(sm.name(at))
    check(not bad, "%s: no thunk or dyncg code (%d events, %d bad: %s)" %
          (what, len(evs), len(bad), ", ".join(bad[:3])))


def text_lines_not_ours(path, what):
    """Live text: no event names a module function or a thunk."""
    bad = []
    n = 0
    for line in open(path, errors="replace"):
        m = TEXT_RE.match(line)
        if not m:
            continue
        n += 1
        rest = line[m.end():]
        if rest.startswith(" [") or is_thunk_name(m.group(5)):
            bad.append(line.strip())
    check(not bad, "%s: no thunk or dyncg code (%d events, %d bad: %s)" %
          (what, n, len(bad), " | ".join(bad[:3])))


def sched_ins_under_schedule(win):
    """Count finish_task_switch* called directly from __schedule."""
    frames = {}
    n = 0
    for arrow, name, depth in win:
        if arrow in ("->", "=>"):
            frames[depth] = name
            if (arrow == "->" and name.startswith("finish_task_switch") and
                    frames.get(depth - 1) == "__schedule"):
                n += 1
    return n


SWITCH_RE = re.compile(r"^\s*(\d+) (\S+)\((\d+)\): ==> switch: out on CPU (\d+) "
                       r"at (\d+) ns, in on CPU (\d+), (\d+) ns off CPU$")


def check_switch_lines(path, s):
    """Live text: one switch line per switch-in, with its times and CPUs
    consistent, and the next event line the rebuilt call of
    finish_task_switch."""
    lines = open(path, errors="replace").read().splitlines()
    sw = [(i, SWITCH_RE.match(l)) for i, l in enumerate(lines)]
    sw = [(i, m) for i, m in sw if m]
    check(s is not None and len(sw) == s["in"],
          "one switch line per switch-in (%d lines, %s switch-ins)" %
          (len(sw), s and s["in"]))
    for i, m in sw:
        t_in, t_out, off = int(m.group(1)), int(m.group(5)), int(m.group(7))
        cpus = int(m.group(4)), int(m.group(6))
        check(t_out < t_in and t_in - t_out == off and off > 0 and
              max(cpus) < 64,
              "switch line consistent: out %d, in %d, %d ns off, CPUs %d->%d"
              % (t_out, t_in, off, cpus[0], cpus[1]))
        nxt = next((TEXT_RE.match(l) for l in lines[i + 1:] if TEXT_RE.match(l)), None)
        check(nxt is not None and nxt.group(4) == "->" and
              nxt.group(5).startswith("finish_task_switch") and
              int(nxt.group(0).split()[0]) >= t_in,
              "after the switch line: -> finish_task_switch (%s)" %
              (nxt.group(0).strip() if nxt else "-"))


def cmd_pipebin(sysmap, binpath):
    """Binary pipe read that sleeps: every SWITCH record is followed by
    the call __schedule -> finish_task_switch of its thread; no thunk or
    module code in events or EDGE records."""
    sm = SysMap(sysmap)
    recs, whole = read_records(binpath)
    check(whole, "binary trace: whole records")
    evs = events(recs)
    check_not_ours(evs, sm, "binary events")
    sws = [i for i, (typ, _, _) in enumerate(recs) if typ == 9]
    check(len(sws) >= 1, "SWITCH records present (%d)" % len(sws))
    fts = sm.byname.get("finish_task_switch.isra.0",
                        sm.byname.get("finish_task_switch"))
    for i in sws:
        typ, tid, raw = recs[i]
        check(len(raw) == 40, "SWITCH record is 40 bytes (%d)" % len(raw))
        out_ts, in_ts, at, out_cpu, in_cpu = struct.unpack_from("<QQQHH", raw, 8)
        check(in_ts > out_ts and out_cpu < 64 and in_cpu < 64 and
              sm.is_(at, "__schedule"),
              "SWITCH: %d ns off CPU, CPU %d -> %d, out at %s" %
              (in_ts - out_ts, out_cpu, in_cpu, sm.name(at)))
        nxt = next((r for r in recs[i + 1:] if r[0] == 2 and r[1] == tid), None)
        e = events([nxt])[0] if nxt else None
        ok = (e is not None and e["kind"] == EV_CALL and e["to"] == fts and
              sm.is_(e["frm"], "__schedule") and e["ts"] >= in_ts)
        check(ok, "the event after the SWITCH: __schedule -> finish_task_switch (%s)"
              % (e and "%s -> %s" % (sm.name(e["frm"]), sm.name(e["to"]))))
        # the event's cpu field is filled: the CPU it came back on
        cpu = struct.unpack_from("<H", nxt[2], 42)[0] if nxt else None
        check(cpu == in_cpu, "the event after the switch is on CPU %d (%s)" %
              (in_cpu, cpu))


def cmd_edges(binpath):
    recs, _ = read_records(binpath)
    evs = events(recs)
    # rebuild the caller of every call from the events alone
    counted = {}
    stack = []
    for e in evs:
        if e["kind"] == EV_CALL or e["kind"] == EV_ASYNC:
            if e["flags"] & EVF_ROOT:
                stack = []
            if e["kind"] == EV_CALL:
                key = (stack[-1] if stack else 0, e["to"])
                counted[key] = counted.get(key, 0) + 1
            stack.append(e["to"])
        elif e["kind"] == EV_TAIL:
            # the tail-callee nests under the function that jumped, as
            # the module's table has it (runtime/linux/window.c)
            key = (stack[-1] if stack else 0, e["to"])
            counted[key] = counted.get(key, 0) + 1
            if stack:
                stack[-1] = e["to"]
        elif e["kind"] == EV_RET and stack:
            stack.pop()
    table = {}
    for typ, _, raw in recs:
        if typ == 8:
            caller, callee, count = struct.unpack_from("<QQQ", raw, 8)
            table[(caller, callee)] = count
    check(len(table) > 0, "EDGE records present (%d)" % len(table))
    check(sum(counted.values()) > 0, "calls in the event stream (%d)" %
          sum(counted.values()))
    diff = [(k, counted.get(k), table.get(k))
            for k in set(counted) | set(table) if counted.get(k) != table.get(k)]
    for k, c, t in diff[:5]:
        print("INFO: edge %#x -> %#x: events %s, table %s" % (k[0], k[1], c, t))
    check(not diff, "edge table agrees with the binary events (%d edges, %d differ)"
          % (len(table), len(diff)))


def cmd_pipe(sysmap, text):
    sm = SysMap(sysmap)
    tw = text_windows(text)
    check(len(tw) == 2, "two windows: the blocking read and the EOF read (%d)" % len(tw))
    # 6.16 split the pipe's read into anon_pipe_read (pipe(2)) and
    # fifo_pipe_read: whichever the guest's System.map has
    pr = "pipe_read" if "pipe_read" in sm.byname else "anon_pipe_read"
    check(pr in sm.byname and "schedule" in sm.byname,
          "System.map has %s and schedule" % pr)
    if not tw:
        return
    text_lines_not_ours(text, "pipe text")
    w = tw[0]
    # a call (5.10: from new_sync_read, 6.1 on: from vfs_read), not a
    # thunk's "=>"
    check(any(a == "->" and n == pr for a, n, d in w) and
          not any(a == "=>" and n == pr for a, n, d in w),
          "%s is called (the thunk folded)" % pr)
    s = summary(open(text, errors="replace").read())
    check_switch_lines(text, s)
    ins = sum(sched_ins_under_schedule(x) for x in tw)
    check(s is not None and s["in"] >= 1 and ins == s["in"],
          "finish_task_switch under __schedule after every switch-in "
          "(%d in the trace, %s switch-ins)" % (ins, s and s["in"]))
    # sleeping: pipe_read -> schedule, and the trace goes on after it
    try:
        s = next(j for j, (a, n, d) in enumerate(w) if a == "->" and n == "schedule")
    except StopIteration:
        check(False, "pipe_read sleeps in schedule inside the window")
        return
    check(True, "pipe_read sleeps in schedule inside the window")
    d = w[s][2]
    back = next((j for j in range(s + 1, len(w))
                 if w[j][0] == "<-" and w[j][2] == d - 1), None)
    check(back is not None and w[back][1] == "schedule",
          "schedule returns to pipe_read in the trace (stepping resumed)")
    after = {n for a, n, dd in w[(back or len(w)):] if a in ("->", "=>")}
    check("copy_page_to_iter" in after or "_copy_to_iter" in after,
          "after waking, pipe_read copies the data (%s)" %
          ",".join(sorted(after & {"copy_page_to_iter", "_copy_to_iter"})))
    check(w[-1][0] == "<-" and w[-1][2] == 0, "first window ends at vfs_read's return")


def summary(text):
    m = re.search(r"dynamic call graph \(kernel\): (\d+) windows, (\d+) traps.*?"
                  r"(\d+) tail traps, (\d+) drained.*?(\d+) ended at return to user, "
                  r"(\d+) aborted, switches (\d+) out / (\d+) in, (\d+) nested, "
                  r"(\d+) refused", text)
    if not m:
        return None
    keys = ("windows traps tail drained by_guard aborted out in nested "
            "refused").split()
    return dict(zip(keys, map(int, m.groups())))


def irq_summary(text):
    m = re.search(r"interrupts inside windows: (\d+) in (\d+) gaps between stops "
                  r"\(timer (\d+), ipi (\d+), device (\d+), nmi (\d+), other (\d+); "
                  r"softirqs (\d+)\), in (\d+) of (\d+) windows, at most (\d+) in "
                  r"one window", text)
    if not m:
        return None
    keys = "irqs gaps timer ipi device nmi other softirq with windows max".split()
    return dict(zip(keys, map(int, m.groups())))


def cmd_stress(log, reads):
    text = open(log, errors="replace").read()
    m = re.search(r"kernel-readfile: reads=(\d+)", text)
    s = summary(text)
    check(m is not None and int(m.group(1)) == int(reads),
          "the program made %s read() calls" % reads)
    check(s is not None, "kernel summary printed")
    if not s or not m:
        return
    n = int(m.group(1))
    check(s["windows"] == n, "one window per vfs_read (%d windows, %d reads)" %
          (s["windows"], n))
    check(s["drained"] == n, "every window ended at vfs_read's return (%d)" % s["drained"])
    check(s["refused"] == 0 and s["nested"] == 0 and s["aborted"] == 0,
          "nothing refused, nested or aborted")
    check(s["out"] == s["in"], "TF taken away and given back equally often (%d/%d)"
          % (s["out"], s["in"]))
    check(s["traps"] > 100 * n, "traps counted (%d)" % s["traps"])
    print("INFO: %s" % s)
    # thousands of windows of a thousand stops or more take seconds of
    # stepping: timer ticks (4 ms) land inside some of them
    q = irq_summary(text)
    check(q is not None, "interrupt summary printed")
    if q:
        check(q["irqs"] > 0 and q["gaps"] <= q["irqs"] and
              q["irqs"] == sum(q[k] for k in ("timer", "ipi", "device", "nmi",
                                              "other")),
              "interrupts counted, by kind (%d in %d gaps)" % (q["irqs"], q["gaps"]))
        check(0 < q["with"] <= q["windows"] == n and q["max"] <= q["irqs"] and
              q["max"] * q["with"] >= q["irqs"],
              "per window: %d of %d windows had some, at most %d in one"
              % (q["with"], q["windows"], q["max"]))


def fault_summary(text):
    m = re.search(r"exceptions inside windows: (\d+) page faults in (\d+) gaps "
                  r"between stops, in (\d+) of (\d+) windows, at most (\d+) in "
                  r"one window; (\d+) windows not counted", text)
    if not m:
        return None
    return dict(zip("faults gaps with windows max blind".split(),
                    map(int, m.groups())))


IRQ_KINDS_RE = r"((?:(?:timer|ipi|device|nmi|other|softirq|page fault) \d+, )+)"
IRQ_TEXT_RE = re.compile(r"^\s*(\d+) (\S+)\((\d+)\): ==========> (?:irq|exception): "
                         + IRQ_KINDS_RE +
                         r"at ([\w.]+)(\+0x[0-9a-f]+)?, (\d+) ns$")


def cmd_irqtext(sysmap, text):
    """Live text: interrupt lines, one per gap that held some, each at a
    function of the guest's System.map, and as many as the summary's
    gaps at most, with no more timer ticks than it counted."""
    sm = SysMap(sysmap)
    lines = open(text, errors="replace").read().splitlines()
    marks = [l for l in lines if "==========>" in l]
    ms = [IRQ_TEXT_RE.match(l) for l in marks]
    check(len(marks) >= 1, "live text: interrupt lines (%d)" % len(marks))
    bad = [l for l, m in zip(marks, ms) if not m or m.group(5) not in sm.byname]
    check(not bad, "live text: every interrupt line well formed, at a kernel "
          "function (%s)" % (bad[0] if bad else marks[0] if marks else "-"))
    q = irq_summary("\n".join(lines))
    check(q is not None, "live text: interrupt summary printed")
    if not q or bad:
        return
    timer = sum(int(x) for m in ms
                for x in re.findall(r"timer (\d+)", m.group(4)))
    f = fault_summary("\n".join(lines))
    check(f is not None, "live text: exception summary printed")
    fgaps = f["gaps"] if f else 0
    check(len(marks) <= q["gaps"] + fgaps and timer <= q["timer"],
          "live text: %d lines, %d timer ticks; the summary: %d + %d gaps, %d ticks"
          % (len(marks), timer, q["gaps"], fgaps, q["timer"]))


TRACE_MARK_RE = re.compile(r"^\s*\d+\s+\d+\s+\d+\s+==========> (?:irq|exception): "
                           + IRQ_KINDS_RE + r"at ([\w.]+)(\+0x[0-9a-f]+)?, \d+ ns$")


def readfault_program(text, what):
    """The fault counts kernel-readfault printed (getrusage around each
    read): the first read's, or None when the workload did not do what
    the test needs (one fault per fresh page, none the second time)."""
    m1 = re.search(r"kernel-readfault: pages=(\d+) read=(\d+) minflt=(\d+) "
                   r"majflt=(\d+)", text)
    m2 = re.search(r"kernel-readfault: again read=(\d+) minflt=(\d+) "
                   r"majflt=(\d+)", text)
    check(m1 is not None and m2 is not None,
          "%s: the program printed both reads" % what)
    if not m1 or not m2:
        return None
    pages, nread, minf, majf = map(int, m1.groups())
    check(nread == pages * 4096 and minf + majf == pages,
          "%s: workload: the first read copied %d pages and took %d faults "
          "(getrusage), one per page" % (what, nread // 4096, minf + majf))
    check(int(m2.group(2)) + int(m2.group(3)) == 0,
          "%s: workload: the second read, into the same pages, took none" % what)
    return minf + majf


def fault_marks(lines, window_re, mark_re, kinds_group, func_group):
    """[(window number, page faults, function)] of the fault marks."""
    window, got = 0, []
    for line in lines:
        if "==========>" not in line and window_re.search(line):
            window += 1
        mm = mark_re.match(line)
        if not mm:
            continue
        n = sum(int(x) for x in re.findall(r"page fault (\d+)",
                                           mm.group(kinds_group)))
        if n:
            got.append((window, n, mm.group(func_group)))
    return window, got


def check_marks(what, sm, want, windows, got):
    check(windows == 2, "%s: two vfs_read windows (%d)" % (what, windows))
    total = sum(n for _, n, _ in got)
    check(total == want and all(w == 1 for w, _, _ in got),
          "%s: %d page faults in the first window's marks, none in the "
          "second (marks %s)" % (what, total, [(w, n) for w, n, _ in got]))
    bad = [f for _, _, f in got if f not in sm.byname]
    check(got and not bad, "%s: every fault mark at a kernel function (%s)"
          % (what, bad[0] if bad else ", ".join(sorted({f for _, _, f in got}))))


def cmd_faults(sysmap, text, binlog, view):
    """Page faults inside kernel windows (kernel-readfault, two runs):
    the program's first read() into fresh pages took one fault per page
    by its own getrusage, the second none.  dyncg must count the same:
    in the live text's and the trace view's ==========> marks, all in
    the first window, each at a function of the guest's System.map; in
    the live text's summary, those faults in 1 of the 2 windows."""
    sm = SysMap(sysmap)
    ttext = open(text, errors="replace").read()
    want = readfault_program(ttext, "live text")
    if want is not None:
        windows, got = fault_marks(ttext.splitlines(),
                                   re.compile(r"\): -> vfs_read\b"),
                                   IRQ_TEXT_RE, 4, 5)
        check_marks("live text", sm, want, windows, got)
        f = fault_summary(ttext)
        check(f is not None, "live text: exceptions summary printed")
        if f:
            check(f["faults"] == want and f["with"] == 1 and
                  f["windows"] == 2 and f["max"] == want and
                  f["gaps"] == len(got) and f["blind"] == 0,
                  "live text: summary: %d page faults in %d gaps, in %d of "
                  "%d windows, at most %d in one, %d windows not counted"
                  % (f["faults"], f["gaps"], f["with"], f["windows"], f["max"],
                     f["blind"]))
    want = readfault_program(open(binlog, errors="replace").read(), "binary")
    if want is not None:
        windows, got = fault_marks(open(view, errors="replace").read().splitlines(),
                                   re.compile(r"-> vfs_read\b"),
                                   TRACE_MARK_RE, 1, 2)
        check_marks("binary, trace view", sm, want, windows, got)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd, args = argv[1], argv[2:]
    table = {"b64": (cmd_b64, 2), "vfs": (cmd_vfs, 4), "edges": (cmd_edges, 1),
             "pipe": (cmd_pipe, 2), "stress": (cmd_stress, 2),
             "pipebin": (cmd_pipebin, 2), "irqtext": (cmd_irqtext, 2),
             "faults": (cmd_faults, 4)}
    if cmd not in table or len(args) != table[cmd][1]:
        print("ktrace: bad command line: %s" % " ".join(argv[1:]))
        return 2
    rc = table[cmd][0](*args)
    if cmd == "b64":
        return rc
    return 1 if results["fail"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
