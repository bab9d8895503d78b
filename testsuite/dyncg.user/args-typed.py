#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""args-typed.py - dcg-report's typed arguments and return values
against what the args fixture printed (issue #17, end to end).

  args-typed.py FIXTURE_OUTPUT REPORT_TRACE

FIXTURE_OUTPUT is testsuite/progs/args's stdout (got/ret lines, raw
hex of each width), REPORT_TRACE `dcg-report trace` of a trace of it
taken with --args 6 --arg-strings N.  The C types below are written by
hand from args.c's prototypes; each expected value is the fixture's
hex read as that type, formatted as C would print it.  Prints one
PASS:/FAIL: line per function and exit status 1 on any difference.
"""
import re
import sys

ENUM = {1: "RED", 7: "GREEN", 300: "BLUE"}

# function: ([(param, type)], return type); types: sN/uN integers,
# bool, enum, char, ptr, str (a char * the trace carries bytes for),
# mem (passed in memory), void
PROTO = {
    "s8": ([("a", "s8")], "s8"), "u8": ([("a", "u8")], "u8"),
    "s16": ([("a", "s16")], "s16"), "u16": ([("a", "u16")], "u16"),
    "s32": ([("a", "s32")], "s32"), "u32": ([("a", "u32")], "u32"),
    "s64": ([("a", "s64")], "s64"), "u64": ([("a", "u64")], "u64"),
    "flag": ([("a", "bool")], "bool"),
    "colour": ([("c", "enum")], "enum"),
    "str": ([("s", "str"), ("n", "u64")], "ptr"),
    "ptr": ([("p", "ptr"), ("off", "s64")], "ptr"),
    "six": ([("a", "s64"), ("b", "s32"), ("c", "s16"), ("d", "char"),
             ("e", "u64"), ("f", "s64")], "s64"),
    "bigarg": ([("b", "mem"), ("x", "s32")], "s32"),
    "nothing": ([("a", "s32")], "void"),
    "tail": ([("a", "s32")], "s32"),
}


def value(typ, width, text):
    """The fixture's W:HEX (or s:HEX bytes) as dcg-report should print
    a value of C type typ."""
    if typ == "str":
        return '"%s"' % bytes.fromhex(text).decode()
    v = int(text, 16)
    if typ[0] in "su" and typ[1:].isdigit():
        bits = int(typ[1:])
        if typ[0] == "s" and v >= 1 << (bits - 1):
            v -= 1 << bits
        return str(v)
    if typ == "bool":
        return "true" if v else "false"
    if typ == "enum":
        return ENUM.get(v, str(v))
    if typ == "char":
        return "'%s'" % chr(v)
    if typ == "ptr":
        return "NULL" if v == 0 else "0x%x" % v
    raise ValueError(typ)


def expected(path):
    """{function: [arguments of each call, in order]}, and of returns
    (a tail call's return is its caller's: the fixture prints only
    what run() got back)."""
    calls, rets = {}, {}
    for line in open(path):
        p = line.split()
        if len(p) < 3 or p[0] not in ("got", "ret") or p[1] not in PROTO:
            continue
        params, rtype = PROTO[p[1]]
        if p[0] == "got":
            vals = [f.split(":", 1) for f in p[3:]]
            regs = [(n, t) for n, t in params if t != "mem"]
            got = dict(zip([n for n, _ in regs],
                           [value(t, *v) for (_, t), v in zip(regs, vals)]))
            calls.setdefault(p[1], []).append(", ".join(
                "%s=%s" % (n, "{...}" if t == "mem" else got[n])
                for n, t in params))
        elif rtype != "void":
            w, h = p[3].split(":", 1)
            rets.setdefault(p[1], []).append(value(rtype, w, h))
        else:
            rets.setdefault(p[1], []).append(None)
    return calls, rets


def main(argv):
    calls, rets = expected(argv[1])
    seen_c, seen_r = {}, {}
    for line in open(argv[2], errors="replace"):
        m = re.search(r"(?:->|=>) (\w+)\((.*)\)(?: \[\w+\])*$", line)
        if m and m.group(1) in PROTO:
            seen_c.setdefault(m.group(1), []).append(m.group(2))
        m = re.search(r"<- (\w+)(?: = (.*?))? \(", line)
        if m and m.group(1) in PROTO:
            seen_r.setdefault(m.group(1), []).append(m.group(2))
    bad = 0
    check = len(calls) == len(PROTO) and len(rets) == len(PROTO)
    print("%s: the fixture printed every function's arguments and return "
          "(%d, %d of %d)" % ("PASS" if check else "FAIL", len(calls),
                              len(rets), len(PROTO)))
    bad += not check
    for f in sorted(PROTO):
        # s32 also runs as tail()'s tail call: that return is tail's,
        # which the fixture prints as tail's
        want_r = rets.get(f)
        if f == "s32" and want_r:
            want_r = want_r + rets.get("tail", [])
        ok = seen_c.get(f) == calls.get(f) and seen_r.get(f) == want_r
        print("%s: %s: called with (%s), returned %s%s" %
              ("PASS" if ok else "FAIL", f, calls.get(f), rets.get(f),
               "" if ok else "; the trace view: (%s) = %s" %
               (seen_c.get(f), seen_r.get(f, "<no return line>"))))
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
