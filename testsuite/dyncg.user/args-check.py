#!/usr/bin/env python3
# args-check.py TRACE OUTPUT - do the registers after the events of a
# trace of testsuite/progs/args (dcg-trace --args 6 --arg-strings L) equal
# what the fixture printed (OUTPUT: its stdout)?  Reads the binary
# records itself (runtime/dcg_event.h, version 3), independent of
# dcg-report.  Prints one line per mismatch and "ok N checks"; exit 1
# on any mismatch.
import struct
import sys

EV_CALL, EV_RET, EV_TAILCALL, EV_ASYNC = 1, 2, 3, 4
EVF_SYNTHETIC, EVF_END = 0x01, 0x40
STR_FAULT = 0x2


def records(data):
    off = 0
    while off + 8 <= len(data):
        rtype, size, tid = struct.unpack_from('<HHI', data, off)
        if size < 8 or size % 8 or off + size > len(data):
            sys.exit('args-check: bad record at %d' % off)
        yield rtype, data[off:off + size]
        off += size


def parse_event(rec):
    ts, frm, to, sp, kind, flags, cpu, depth, insns = \
        struct.unpack_from('<QQQQBBHIQ', rec, 8)
    ev = {'kind': kind, 'flags': flags, 'to': to, 'from': frm,
          'depth': depth, 'regs': None, 'strs': {}, 'size': len(rec)}
    if len(rec) > 56:
        nregs, nstr = struct.unpack_from('<BB', rec, 56)
        off = 64
        ev['regs'] = list(struct.unpack_from('<%dQ' % nregs, rec, off))
        off += 8 * nregs
        for _ in range(nstr):
            argno, sflags, slen = struct.unpack_from('<BBH', rec, off)
            off += 8
            ev['strs'][argno] = (sflags, rec[off:off + slen])
            off += (slen + 7) & ~7
        if off != len(rec):
            sys.exit('args-check: event block of %d bytes in a record of %d'
                     % (off, len(rec)))
    return ev


def load(path):
    data = open(path, 'rb').read()
    evs = []
    version = None
    for rtype, rec in records(data):
        if rtype == 1:
            version = struct.unpack_from('<H', rec, 16)[0]
        elif rtype == 2:
            evs.append(parse_event(rec))
    if version != 3:
        sys.exit('args-check: trace version %s, not 3' % version)
    # each RET learns the function of the frame it pops (its CALL's to)
    stack = []
    for ev in evs:
        if ev['kind'] in (EV_CALL, EV_ASYNC):
            stack.append(ev['to'])
        elif ev['kind'] == EV_RET:
            ev['func'] = stack.pop() if stack else None
    return evs


def mask(w):
    return (1 << w) - 1


def main():
    evs = load(sys.argv[1])
    lines = open(sys.argv[2]).read().split('\n')
    bad = checks = 0
    cur = 0
    hidden = None

    def fail(msg):
        nonlocal bad
        bad += 1
        print('MISMATCH: ' + msg)

    def find(pred):
        nonlocal cur
        for i in range(cur, len(evs)):
            if pred(evs[i]):
                cur = i + 1
                return evs[i]
        return None

    for line in lines:
        f = line.split()
        if len(f) < 3 or f[0] not in ('got', 'ret'):
            continue
        what, name, addr, vals = f[0], f[1], int(f[2], 16), f[3:]
        if what == 'got':
            ev = find(lambda e: e['kind'] in (EV_CALL, EV_TAILCALL) and
                      e['to'] == addr)
        else:
            ev = find(lambda e: e['kind'] == EV_RET and
                      not e['flags'] & (EVF_SYNTHETIC | EVF_END) and
                      e.get('func') == addr)
        if ev is None:
            fail('%s: no event for "%s"' % (name, line))
            continue
        regs = ev['regs'] or []
        if len(regs) < len(vals):
            fail('%s: %s event has %d registers, the program printed %d'
                 % (name, what, len(regs), len(vals)))
            continue
        for i, v in enumerate(vals):
            checks += 1
            if v == 'hidden':
                if what == 'got':
                    hidden = regs[i]
                elif regs[0] != hidden:
                    fail('%s: rax %#x, not the hidden pointer %#x'
                         % (name, regs[0], hidden or 0))
                continue
            kind, val = v.split(':')
            if kind == 's':
                want = bytes.fromhex(val)
                got = ev['strs'].get(i)
                if got is None or got[1] != want or got[0] & STR_FAULT:
                    fail('%s: string at arg %d: %r, the program got %r'
                         % (name, i + 1, got, want))
                continue
            w = int(kind)
            if w and regs[i] & mask(w) != int(val, 16):
                fail('%s: %s register %d = %#x, low %d bits %#x; the '
                     'program printed %s' % (name, what, i, regs[i], w,
                                             regs[i] & mask(w), val))
    if not checks:
        fail('nothing checked')
    if bad:
        sys.exit(1)
    print('ok %d checks' % checks)


main()
