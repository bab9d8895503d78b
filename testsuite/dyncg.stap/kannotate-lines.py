#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kannotate-lines.py - per-line Ir of kernel code in dcg-report's
callgrind file against objdump and eu-addr2line (issue #16).

  kannotate-lines.py VMLINUX TRACE CALLGRIND

TRACE is a binary kernel trace with PROFILE records
(dynamic_call_graph_annotate), CALLGRIND `dcg-report callgrind
--vmlinux VMLINUX TRACE`.  Independent of dyncg's reader and
symbolizer: each PROFILE run (start, ninsns, count) is taken apart by
`objdump -d` of VMLINUX (the KASLR offset from the trace's KSYM records
against `nm`), each of its instructions placed on the line
`eu-addr2line --relative` gives, and the run's count added there.  The
callgrind file's self Ir per (file, line), over all functions, must be
exactly that on every such line.  Prints PASS:/FAIL: lines.
"""
import os
import re
import struct
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "dyncg.kernel"))
from ksrcline import check, records  # noqa: E402
import ksrcline  # noqa: E402

REC_KSYM, REC_PROFILE = 4, 11


def trace_runs(path):
    runs, ksyms = defaultdict(int), {}
    for typ, raw in records(path):
        if typ == REC_KSYM:
            addr, = struct.unpack_from("<Q", raw, 8)
            name = raw[24:].split(b"\0")[0].decode()
            if "\t" not in name:
                ksyms.setdefault(name, set()).add(addr)
        elif typ == REC_PROFILE:
            nent, = struct.unpack_from("<I", raw, 24)
            for i in range(nent):
                start, n, _, count = struct.unpack_from("<QIIQ", raw,
                                                        32 + 24 * i)
                runs[(start, n)] += count
    return runs, ksyms


def kaslr(vml, ksyms):
    where = defaultdict(list)
    out = subprocess.run(["nm", vml], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3:
            where[p[2]].append(int(p[0], 16))
    deltas = defaultdict(int)
    for name, addrs in ksyms.items():
        if len(addrs) == 1 and len(where.get(name, [])) == 1:
            deltas[next(iter(addrs)) - where[name][0]] += 1
    return list(deltas)


def insn_addrs(vml, start, n):
    """The first n instruction addresses from start, by objdump."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn",
                          "--start-address=0x%x" % start,
                          "--stop-address=0x%x" % (start + 16 * n + 16),
                          vml], capture_output=True, text=True,
                         check=True).stdout
    addrs = []
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+\S", line)
        if m:
            addrs.append(int(m.group(1), 16))
    return addrs[:n]


def callgrind_lines(path):
    """{(file, line): self Ir} over every function, and the total."""
    per = defaultdict(int)
    fl = fi = None
    skip = False
    total = 0
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("fl="):
            fl, fi = line[3:], None
        elif line.startswith(("fi=", "fe=")):
            fi = line[3:]
        elif line.startswith("fn="):
            fi = None
        elif line.startswith("calls="):
            skip = True
        elif line.startswith("summary:"):
            total = int(line.split()[1])
        elif re.match(r"^\d+ \d+", line):
            if skip:            # the call's inclusive cost, not self
                skip = False
                continue
            ln, ir = line.split()[:2]
            per[(fi or fl, int(ln))] += int(ir)
    return per, total


def main(argv):
    vml, trace, cg = argv[1:4]
    runs, ksyms = trace_runs(trace)
    if not check(runs, "kernel per-line Ir: the trace has PROFILE runs (%d)"
                 % len(runs)):
        return 1
    d = kaslr(vml, ksyms)
    if not check(len(d) == 1, "kernel per-line Ir: one KASLR offset (%s)" %
                 ", ".join("0x%x" % x for x in d)):
        return 1
    bias = d[0]
    want, addrs_of = defaultdict(int), {}
    for (start, n), count in runs.items():
        addrs = insn_addrs(vml, start - bias, n)
        if len(addrs) != n:
            continue            # not in vmlinux (a module's): not compared
        addrs_of[(start, n)] = (addrs, count)
    uniq = sorted({a for addrs, _ in addrs_of.values() for a in addrs})
    out = subprocess.run(["eu-addr2line", "--relative", "-e", vml] +
                         ["0x%x" % a for a in uniq], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    line_of = {}
    for a, l in zip(uniq, out):
        m = re.match(r"^([^:]*):(\d+)(?::\d+)?$", l.strip())
        if m and not l.startswith("??"):
            line_of[a] = (m.group(1), int(m.group(2)))
    for addrs, count in addrs_of.values():
        for a in addrs:
            if a in line_of:
                want[line_of[a]] += count
    got, _ = callgrind_lines(cg)
    check(len(want) >= 20, "kernel per-line Ir: %d source lines to compare"
          % len(want))
    low = ["%s:%d %d<%d" % (f, l, got.get((f, l), 0), w)
           for (f, l), w in sorted(want.items()) if got.get((f, l), 0) < w]
    check(not low, "kernel per-line Ir: every line objdump and "
          "eu-addr2line give has at least its runs' Ir in the callgrind "
          "file%s" % ("; short: " + " ".join(low[:6]) if low else ""))
    # kernel code has no PLT jumps for the events to credit beyond the
    # runs, so nothing more may sit on those lines
    high = ["%s:%d %d>%d" % (f, l, got.get((f, l), 0), w)
            for (f, l), w in sorted(want.items()) if got.get((f, l), 0) > w]
    check(not high, "kernel per-line Ir: and no more%s" %
          ("; over: " + " ".join(high[:6]) if high else ""))
    return 1 if ksrcline.fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
