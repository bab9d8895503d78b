#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""insns-compare.py - compare instruction counts of two callgrind files.

    insns-compare.py VALGRIND.out DCG.out MODE REPFN N,N,... [noedges]

VALGRIND.out: valgrind --tool=callgrind --toggle-collect=ROOT; DCG.out:
dcg-report callgrind of dcg-trace -f ROOT in MODE (step,
emulated-block, hop, or hop-straight: hop with DCG_TRACE_HOP=straight).
In hop mode a native run through jumps counts a lower bound
(doc/trace-format.md): dcg's Ir may be lower, never higher, and the
calls are equal; hop-straight must be exact.  Compared: the total, each function's self Ir, and
each call edge's calls and inclusive Ir (every call's whole cost, as
callgrind counts it), for the functions dcg-trace saw.  Callgrind's
recursion suffixes (fib'2) are merged into the function.

The rule for rep string insns (doc/dcg-report.1): callgrind counts
n + 1 for a rep insn that ran its count n out (1 for n = 0); step mode
counts max(n, 1); the block modes and hop mode count 1.  REPFN is the one function
holding rep insns, N,N,... the counts its rep insns ran with (the
fixture prints them; "" or "-" for a program without rep insns, and then
REPFN is not used); the expected dcg counts are callgrind's minus the
difference, in REPFN's self count, in the edges into REPFN, and in the
total.  REPFN must have one caller, the root, whose own edge is not
compared.  With "noedges" only the total and the self counts are
compared (for a program whose call edges the two tools draw apart).
Prints one
line per difference and "ok: ..." at the end; exit status 1 on any
difference.
"""
import re
import sys
from collections import defaultdict


def parse(path):
    """(total, self{fn: Ir}, edges{(caller, callee): [calls, Ir]})"""
    names = {}
    self_ir = defaultdict(int)
    edges = defaultdict(lambda: [0, 0])
    total = None
    cur = cfn = None
    pending = None

    def name(v):
        m = re.match(r'\((\d+)\)\s*(.*)', v)
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2)
            v = names[m.group(1)]
        return re.sub(r"'\d+$", '', v.strip())

    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('fn='):
            cur = name(line[3:])
        elif line.startswith('cfn='):
            cfn = name(line[4:])
        elif line.startswith('calls='):
            pending = (cfn, int(line[6:].split()[0]))
        elif line.startswith('summary:'):
            total = int(line.split()[1])
        elif line and (line[0].isdigit() or line[0] in '+-*'):
            parts = line.split()
            ir = int(parts[1]) if len(parts) > 1 else 0
            if pending:
                e = edges[(cur, pending[0])]
                e[0] += pending[1]
                e[1] += ir
                pending = None
            else:
                self_ir[cur] += ir
    return total, self_ir, edges


def rep_delta(mode, counts):
    """callgrind's count minus dcg's, over the rep executions"""
    d = 0
    for n in counts:
        cg = n + 1
        dcg = max(n, 1) if mode == 'step' else 1
        d += cg - dcg
    return d


def main():
    vg, dcg, mode, repfn, reps = sys.argv[1:6]
    noedges = sys.argv[6:7] == ['noedges']
    counts = [int(x) for x in reps.split(',') if x and x != '-']
    delta = rep_delta(mode, counts)
    vt, vself, vedges = parse(vg)
    dt, dself, dedges = parse(dcg)
    bad = []

    # callgrind's numbers turned into what dcg-trace must count
    if counts:
        vself[repfn] -= delta
        callers = [k for k in vedges if k[1] == repfn and k[0] in dself]
        if len(callers) != 1:
            bad.append('%s: %d callers, the rule needs one' %
                       (repfn, len(callers)))
        for k in callers:
            vedges[k][1] -= delta
        vt -= delta

    # hop mode: a native run through jumps counts a lower bound
    # (doc/trace-format.md), and calls stay exact
    low = mode == 'hop'
    def differ(v, d):
        return d > v if low else d != v

    if differ(vt, dt):
        bad.append('total: callgrind (rule applied) %d, dcg %d' % (vt, dt))
    for fn in sorted(set(dself) | {f for f in vself if vself[f]}):
        if differ(vself.get(fn, 0), dself.get(fn, 0)):
            bad.append('self %s: callgrind (rule applied) %d, dcg %d' %
                       (fn, vself.get(fn, 0), dself.get(fn, 0)))
    keys = set() if noedges else {k for k in vedges if k[0] in dself} | set(dedges)
    for k in sorted(keys):
        v, d = vedges.get(k, [0, 0]), dedges.get(k, [0, 0])
        if v[0] != d[0] or differ(v[1], d[1]):
            bad.append('edge %s -> %s: callgrind (rule applied) %d calls %d Ir, dcg %d calls %d Ir'
                       % (k[0], k[1], v[0], v[1], d[0], d[1]))
    for b in bad:
        print(b)
    if bad or not dself:
        print('FAILED: %s, %d differences' % (mode, len(bad)))
        return 1
    print('ok: %s: total %d Ir%s, %d functions, %s, rep rule %d'
          % (mode, dt, ' (callgrind %d: a lower bound)' % vt if low else '',
             len(dself), 'edges not compared' if noedges
             else '%d edges' % len(dedges), delta))
    return 0


if __name__ == '__main__':
    sys.exit(main())
