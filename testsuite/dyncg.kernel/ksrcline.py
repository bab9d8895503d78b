#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ksrcline.py - kernel file:line of dcg-report --srcline against
eu-addr2line (issue #15), for the kernel tests (testsuite/dyncg.kernel).

  ksrcline.py VMLINUX BIN REPORT...

VMLINUX is the guest kernel's DWARF vmlinux, BIN a binary kernel trace,
each REPORT the output of `dcg-report trace --srcline` on BIN.  Prints
one "PASS: what" or "FAIL: what" line per check.

Independent of dyncg's reader and symbolizer: records are parsed here
from their layout (runtime/dcg_event.h), the KASLR offset is worked out
from the trace's KSYM records against `nm VMLINUX`, and the expected
file:line of each call site is what `eu-addr2line --relative` says for
its address in the vmlinux (without the column, which dcg-report does
not print).  Every file:line the report prints must be one of those;
every call site outside the retpoline thunks must be printed.
"""
import bisect
import re
import struct
import subprocess
import sys

REC_EVENT, REC_MAP, REC_KSYM = 2, 3, 4
EV_CALL, EV_TAIL, EV_ASYNC = 1, 3, 4
EVF_ROOT = 0x20
KASLR_ALIGN = 0x200000
THUNKS = ("__x86_indirect_", "__x86_return_", "retbleed_", "srso_",
          "its_return_thunk", "zen_untrain_ret", "call_depth_return_thunk")

fails = 0


def check(ok, what):
    global fails
    print("%s: %s" % ("PASS" if ok else "FAIL", what))
    if not ok:
        fails += 1
    return ok


def records(path):
    data = open(path, "rb").read()
    off = 0
    while off + 8 <= len(data):
        typ, size, _ = struct.unpack_from("<HHI", data, off)
        if size < 8 or size % 8 or off + size > len(data):
            raise ValueError("bad record at %d" % off)
        yield typ, data[off:off + size]
        off += size


def main(argv):
    vml, binpath, reports = argv[1], argv[2], argv[3:]
    ksyms, calls, kmaps = {}, [], []
    for typ, raw in records(binpath):
        if typ == REC_MAP:
            tid, = struct.unpack_from("<I", raw, 4)
            start, end, _, blen = struct.unpack_from("<QQQB", raw, 8)
            path = raw[64:].split(b"\0")[0].decode()
            if tid == 0 and path == "[kernel.kallsyms]":
                kmaps.append((start, end, raw[40:40 + blen].hex()))
        elif typ == REC_KSYM:
            addr, = struct.unpack_from("<Q", raw, 8)
            name = raw[24:].split(b"\0")[0].decode()
            if "\t" not in name:        # not a module's
                ksyms.setdefault(name, set()).add(addr)
        elif typ == REC_EVENT:
            _, frm, to, _, kind, flags = struct.unpack_from("<QQQQBB", raw, 8)
            if kind in (EV_CALL, EV_TAIL) and not flags & EVF_ROOT and frm:
                calls.append(frm)
    # the kernel's MAP: its build-id is the vmlinux's (readelf), its
    # start the traced _stext (checked against the offset below)
    notes = subprocess.run(["readelf", "-n", vml], capture_output=True,
                           text=True, check=True).stdout
    m = re.search(r"Build ID: ([0-9a-f]+)", notes)
    check(len(kmaps) == 1 and m and kmaps[0][2] == m.group(1),
          "kernel build-id: the trace's [kernel.kallsyms] map carries the "
          "vmlinux's (%s; vmlinux %s)" %
          (", ".join(k[2] or "none" for k in kmaps) or "no map",
           m.group(1) if m else "none"))
    # the vmlinux's text symbols
    where, text = {}, []
    out = subprocess.run(["nm", vml], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "tTwW":
            where.setdefault(p[2], []).append(int(p[0], 16))
            text.append((int(p[0], 16), p[2]))
    text.sort()
    # KASLR offset: each trace symbol the vmlinux has once, one offset
    deltas = {}
    for name, addrs in ksyms.items():
        if len(addrs) == 1 and len(where.get(name, [])) == 1:
            d = next(iter(addrs)) - where[name][0]
            deltas[d] = deltas.get(d, 0) + 1
    if not check(len(deltas) == 1, "kernel file:line: the trace's %d kernel "
                 "symbols are at one offset from the vmlinux's (%s)" %
                 (sum(deltas.values()),
                  ", ".join("0x%x" % d for d in deltas))):
        return 1
    bias = next(iter(deltas))
    check(bias % KASLR_ALIGN == 0,
          "kernel file:line: offset 0x%x is a KASLR offset" % bias)
    check(kmaps and where.get("_stext") and
          kmaps[0][0] - where["_stext"][0] == bias,
          "kernel build-id: the map starts at the traced _stext")
    lo, hi = text[0][0], text[-1][0] + 0x100000
    sites = sorted({a - bias for a in calls if lo <= a - bias < hi})

    starts = [a for a, _ in text]

    def holder(a):
        i = bisect.bisect_right(starts, a) - 1
        return text[i][1] if i >= 0 else "?"

    out = subprocess.run(["eu-addr2line", "--relative", "-e", vml] +
                         ["0x%x" % a for a in sites], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if not check(len(out) == len(sites), "kernel file:line: eu-addr2line "
                 "answers each of %d call sites" % len(sites)):
        return 1
    want, must = set(), set()
    for a, line in zip(sites, out):
        line = re.sub(r"^(.*:\d+):\d+$", r"\1", line.strip())
        if line.startswith("??"):
            continue
        want.add(line)
        if not holder(a).startswith(THUNKS):
            must.add(line)
    check(len(must) >= 10, "kernel file:line: %d distinct call-site lines "
          "to compare" % len(must))
    for rep in reports:
        got = set()
        for line in open(rep, errors="replace"):
            m = re.search(r"(?:->|=>|~>) \S+.* from (\S+:\d+)$", line)
            if m:
                got.add(m.group(1))
        wrong = sorted(got - want)
        missing = sorted(must - got)
        check(not wrong, "kernel file:line (%s): every file:line printed "
              "is eu-addr2line's for a call site%s" %
              (rep.rsplit("/", 1)[-1], (": not " + " ".join(wrong[:5]))
               if wrong else ""))
        check(not missing, "kernel file:line (%s): every call site's "
              "file:line printed (%d)%s" %
              (rep.rsplit("/", 1)[-1], len(must),
               (": missing " + " ".join(missing[:5])) if missing else ""))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
