#!/usr/bin/env python3
# names-check.py MKTRACE REPORT ELF SYMFILE TMPDIR - the names
# dcg-report gives addresses in ELF, against the symbol table of
# SYMFILE (ELF itself, or the separate debuginfo libdwfl will use) as
# readelf -sW prints it.  ELF is mapped at a made-up base in a trace
# made by mktrace; the cases:
#   entry    a sized function's entry: its name, without a version
#   inside   16 bytes into it: name+0x10
#   version  a function whose symbol carries a version (name@VER or
#            name@@VER): the name alone
#   gap      one or two addresses in .text that no function symbol covers
#            (past a sized function's end, before the next symbol):
#            OBJECT+0xOFF, never the function below
#   label    an address in .text just past a symbol that is no function
#            (NOTYPE or OBJECT, such as a marker or a table) and in no
#            function: OBJECT+0xOFF, never label+0xN
#   hint     the line on stderr naming the debug package: once when the
#            object has no .symtab, no debuginfo and dpkg-query -S
#            knows its package (PKG-dbgsym, libc6-dbg for libc6), else
#            never
# Prints "PASS: case" or "FAIL: case: why" per case; exits 1 on a FAIL.
import os
import re
import subprocess
import sys

BASE = 0x7f1000000000


def sh(args):
    return subprocess.run(args, capture_output=True, text=True)


def symbols(path, funcs=True):
    """FUNC/IFUNC symbols (funcs=False: the others) of .symtab, else of
    .dynsym: (value, size, name)."""
    out = sh(['readelf', '-sW', path]).stdout
    tables, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"Symbol table '(\S+)'", line)
        if m:
            cur = tables.setdefault(m.group(1), [])
            continue
        f = line.split()
        if cur is None or len(f) < 8 or not f[0][:-1].isdigit():
            continue
        if (f[3] in ('FUNC', 'IFUNC')) != funcs or f[6] in ('UND', 'ABS'):
            continue
        if f[3] in ('SECTION', 'FILE', 'TLS'):
            continue
        size = int(f[2], 0) if f[2].startswith('0x') else int(f[2])
        cur.append((int(f[1], 16), size, f[7]))
    return tables.get('.symtab') or tables.get('.dynsym') or []


def bare(name):
    return name.split('@')[0]


def text_range(path):
    out = sh(['readelf', '-SW', path]).stdout
    m = re.search(r'\]\s+\.text\s+PROGBITS\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)', out)
    return int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2), 16)


def text_load(path):
    out = sh(['readelf', '-lW', path]).stdout
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == 'LOAD' and 'E' in f[6:-1]:
            return int(f[1], 16), int(f[2], 16), int(f[5], 16)
    raise SystemExit('no executable LOAD segment in ' + path)


def build_id(path):
    m = re.search(r'Build ID: ([0-9a-f]+)', sh(['readelf', '-n', path]).stdout)
    return m.group(1) if m else None


def main():
    mktrace, report, elf, symfile, tmp = sys.argv[1:6]
    syms = symbols(symfile)
    lo, hi = text_range(elf)
    names_at = {}
    for v, s, n in syms:
        names_at.setdefault(v, set()).add(bare(n))
    starts = sorted(names_at)

    def covered(a):
        return any(v <= a < v + max(s, 1) for v, s, n in syms)

    def next_start(a):
        return min([v for v in starts if v > a] or [hi])

    cases = []          # (case, address, set of acceptable names)
    entry = next(((v, s, n) for v, s, n in syms
                  if s >= 0x20 and lo <= v < hi), None)
    if entry:
        v, s, n = entry
        cases.append(('entry', v, names_at[v]))
        cases.append(('inside', v + 0x10, {x + '+0x10' for x in names_at[v]}))
    ver = next(((v, s, n) for v, s, n in syms
                if '@' in n and s > 0 and lo <= v < hi), None)
    if ver:
        cases.append(('version', ver[0], names_at[ver[0]]))
    gaps = []
    for v, s, n in sorted(syms):
        end = v + s
        if s and lo <= end < hi and not covered(end) and next_start(end) > end:
            gaps.append(end)
        if len(gaps) == 2:
            break
    labels = [v + 1 for v, s, n in symbols(symfile, False)
              if lo <= v + 1 < hi and not covered(v + 1) and s <= 1 and
              next_start(v) > v + 1]
    obj = os.path.basename(elf)
    if labels:
        cases.append(('label', labels[0], {'%s+0x%x' % (obj, labels[0])}))
    for i, g in enumerate(gaps):
        cases.append(('gap %d' % (i + 1), g, {'%s+0x%x' % (obj, g)}))
    if not gaps:
        print('FAIL: gap: no uncovered address in .text')

    off, vaddr, memsz = text_load(elf)
    start = BASE + (vaddr & ~0xfff)
    end = BASE + ((vaddr + memsz + 0xfff) & ~0xfff)
    bid = build_id(elf)
    desc = ['header pid=42 mode=step comm=names',
            'map pid=42 start=0x%x end=0x%x pgoff=0x%x prot=rx%s path=%s' %
            (start, end, off & ~0xfff, ' buildid=' + bid if bid else '', elf)]
    for i, (c, a, want) in enumerate(cases):
        desc.append('call tid=42 ts=%d to=0x%x%s' % (i, BASE + a, ' flags=root' if not i else ''))
    desc.append('stats')
    dpath = os.path.join(tmp, 'names-%s.desc' % obj)
    with open(dpath, 'w') as f:
        f.write('\n'.join(desc) + '\n')
    tpath = dpath[:-5] + '.dcg'
    r = sh([mktrace, '-o', tpath, dpath])
    if r.returncode:
        print('FAIL: mktrace: ' + r.stderr)
        return 1
    r = sh([report, 'trace', tpath])
    got = re.findall(r'^\s+\d+\s+42\s+-> (.*)$', r.stdout, re.M)
    bad = r.returncode != 0
    if bad:
        print('FAIL: dcg-report exit %d: %s' % (r.returncode, r.stderr))
    for (c, a, want), g in zip(cases, got):
        if g in want:
            print('PASS: %s: 0x%x is %s' % (c, a, g))
        else:
            bad = True
            print('FAIL: %s: 0x%x is %s, want %s' % (c, a, g, ' or '.join(sorted(want))))
    if len(got) != len(cases):
        bad = True
        print('FAIL: %d calls shown, want %d' % (len(got), len(cases)))

    # the package line: expected from dpkg-query and the symbol source
    hints = [l for l in r.stderr.splitlines() if 'would name it' in l]
    own = None
    if symfile == elf and not sh(['readelf', '-SW', elf]).stdout.count('.symtab'):
        for p in (elf, os.path.realpath(elf)):
            for q in (p, p[4:] if p.startswith('/usr/') else '/usr' + p):
                q_r = sh(['dpkg-query', '-S', q])
                if q_r.returncode == 0 and own is None:
                    own = re.split(r'[:, \n]', q_r.stdout)[0]
    if own:
        pkg = own + ('-dbg' if own == 'libc6' else '-dbgsym')
        ok = len(hints) == 1 and ('package %s would name it' % pkg) in hints[0]
        why = 'once, naming %s' % pkg
    else:
        ok = not hints
        why = 'never (not a package\'s file without symbols)'
    print('%s: hint: the debug package line %s%s' %
          ('PASS' if ok else 'FAIL', why, '' if ok else ': got %r' % hints))
    bad = bad or not ok
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
