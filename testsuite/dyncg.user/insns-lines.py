#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""insns-lines.py - compare per-line Ir of two callgrind files.

    insns-lines.py VALGRIND.out DCG.out MODE N,N,...

Both files go through callgrind_annotate (--auto=yes --inclusive=no
--show=Ir), which is also the check that it reads dcg-report's file;
the per-line self Ir of every annotated source line and the program
totals are compared.  VALGRIND.out: valgrind --tool=callgrind
--toggle-collect=ROOT --dump-instr=no; DCG.out: dcg-report callgrind of
dcg-trace --annotate -f ROOT in MODE (step or emulated-block).

The rep rule (dcg-report(1), as insns-compare.py): callgrind counts
n + 1 for a rep insn that ran its count n out (1 for n = 0); step mode
max(n, 1); the block modes 1.  N,N,... are the counts the fixture
printed, in pairs: its rep movsb, then its rep stosb, each run with the
same n (insns.c).  The lines whose source holds the asm string
"rep movsb" or "rep stosb" (quotes included) are the ones the rule applies to, each with its own counts;
"-" for a program without rep insns.  Prints one line per difference
and "ok: ..." at the end; exit status 1 on any difference, or when no
line has a cost (nothing was compared).
"""
import re
import subprocess
import sys
from collections import defaultdict

COST = re.compile(r'^\s*([\d,]+|\.)(?:\s+\(\s*[\d.]+%\))?\s*(.*)$')


def annotate(path):
    """(total, {(file, line): Ir}, {(file, line): source text})"""
    out = subprocess.run(['callgrind_annotate', '--auto=yes',
                          '--inclusive=no', '--show=Ir', '--threshold=100',
                          path], capture_output=True, text=True)
    if out.returncode != 0:
        print('callgrind_annotate %s: exit %d: %s' %
              (path, out.returncode, out.stderr.strip()))
        sys.exit(1)
    total = None
    ir = defaultdict(int)
    text = {}
    src = None
    lineno = None
    for line in out.stdout.splitlines():
        m = re.match(r'^\s*([\d,]+) .*PROGRAM TOTALS', line)
        if m:
            total = int(m.group(1).replace(',', ''))
            continue
        m = re.match(r'^-- Auto-annotated source: (.*)$', line)
        if m:
            src, lineno = m.group(1).strip(), None
            continue
        m = re.match(r'^-- line (\d+) -+$', line)
        if m and src:
            lineno = int(m.group(1))
            continue
        if re.match(r'^-+$', line):
            if lineno is not None:
                src = lineno = None
            continue
        if src is None or lineno is None:
            continue
        m = COST.match(line)
        if not m:
            continue
        if m.group(2).startswith('=> '):
            continue            # a call's inclusive cost, not the line's
        if m.group(1) != '.':
            ir[(src, lineno)] += int(m.group(1).replace(',', ''))
        text[(src, lineno)] = m.group(2)
        lineno += 1
    return total, ir, text


def rep_delta(mode, counts):
    """callgrind's count minus dcg's, over the rep executions"""
    d = 0
    for n in counts:
        dcg = max(n, 1) if mode == 'step' else 1
        d += (n + 1) - dcg
    return d


def main():
    vg, dcg, mode, reps = sys.argv[1:5]
    counts = [int(x) for x in reps.split(',') if x and x != '-']
    per_insn = {'movsb': counts[0::2], 'stosb': counts[1::2]}
    vt, vir, vtext = annotate(vg)
    dt, dir_, dtext = annotate(dcg)
    bad = []
    rule = 0
    for key, t in vtext.items():
        m = re.search(r'"rep (movsb|stosb)"', t)
        if m and counts:
            d = rep_delta(mode, per_insn[m.group(1)])
            vir[key] -= d
            rule += d
    if vt is None or dt is None:
        bad.append('no PROGRAM TOTALS line (callgrind %s, dcg %s)' % (vt, dt))
    elif vt - rule != dt:
        bad.append('total: callgrind (rule applied) %d, dcg %d' %
                   (vt - rule, dt))
    keys = sorted(k for k in set(vir) | set(dir_)
                  if vir.get(k, 0) or dir_.get(k, 0))
    for k in keys:
        if vir.get(k, 0) != dir_.get(k, 0):
            bad.append('%s:%d: callgrind (rule applied) %d, dcg %d  | %s' %
                       (k[0], k[1], vir.get(k, 0), dir_.get(k, 0),
                        (vtext.get(k) or dtext.get(k) or '').strip()))
    for b in bad:
        print(b)
    if bad or not keys:
        print('FAILED: %s: %d differences, %d lines with a cost' %
              (mode, len(bad), len(keys)))
        return 1
    print('ok: %s: total %d Ir on %d lines, rep rule %d' %
          (mode, dt, len(keys), rule))
    return 0


if __name__ == '__main__':
    sys.exit(main())
